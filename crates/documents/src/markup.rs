//! What HTML and XML share: references in attribute values, and an item
//! made of an attribute's value at its place in the decoded text.

use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;

use super::input::{Bad, Bads, bad_within};
use super::position::Tracker;
use super::{Found, Role, Undecodable, What, resolve_relative};

/// `raw` with its references decoded: `&#N;`, `&#xH;` and `&name;` for
/// the names `named` knows (HTML's named character references, XML's
/// predefined and declared entities). An `&` that starts no known
/// reference stays (`?a=1&b=2`). Err when the value would grow past
/// `limit` bytes (entities that expand without bound).
pub(crate) fn decode_references<'a, 'e>(
    raw: &'a str,
    named: &dyn Fn(&str) -> Option<Cow<'e, str>>,
    limit: usize,
) -> Result<Cow<'a, str>, ()> {
    if !raw.contains('&') {
        return Ok(Cow::Borrowed(raw));
    }
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let name_len = rest[1..]
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'#' | b'_' | b'-' | b'.'))
            .count();
        let decoded = if rest.as_bytes().get(1 + name_len) == Some(&b';') {
            let name = &rest[1..1 + name_len];
            let text = match name.strip_prefix('#') {
                Some(n) => match n.strip_prefix(['x', 'X']) {
                    Some(h) => u32::from_str_radix(h, 16).ok(),
                    None => n.parse().ok(),
                }
                .map(|c| Cow::Owned(char::from_u32(c).unwrap_or('\u{FFFD}').to_string())),
                None => named(name),
            };
            text.map(|text| (text, name_len + 2))
        } else {
            None
        };
        match decoded {
            Some((text, len)) => {
                out.push_str(&text);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
        if out.len() > limit {
            return Err(());
        }
    }
    out.push_str(rest);
    Ok(Cow::Owned(out))
}

/// The places and encoding of a decoded document's items.
pub(crate) struct Places {
    pub(crate) tracker: Rc<RefCell<Tracker>>,
    /// The length of the byte order mark: document offsets count it, the
    /// decoded text's do not.
    pub(crate) bom: u64,
    pub(crate) encoding: &'static encoding_rs::Encoding,
    pub(crate) bads: Bads,
}

impl Places {
    /// An item at `decoded` (an offset of the decoded text).
    pub(crate) fn found(&mut self, decoded: u64, role: Role, what: What) -> Found {
        let (line, column) = self.tracker.borrow_mut().locate(decoded);
        Found {
            offset: decoded + self.bom,
            line,
            column,
            role,
            what,
            encoding: self.encoding.name(),
            undecodable: None,
            absolute_only: false,
        }
    }

    /// A syntax error of the document at `decoded`.
    pub(crate) fn error(&mut self, decoded: u64, message: String) -> Found {
        self.found(decoded, Role::default(), What::SyntaxError { message })
    }

    /// The first undecodable octets in the decoded text from `start` to
    /// `end`, as the item's [`Undecodable`]: `written` is the value (from
    /// `raw`, its text in the document, decoded by `decode`) and `skipped`
    /// the characters of `raw` left out before it.
    pub(crate) fn undecodable(
        &self,
        start: u64,
        raw: &str,
        skipped: usize,
        decode: impl Fn(&str) -> String,
    ) -> Option<Undecodable> {
        let Bad {
            decoded,
            original,
            octets,
        } = bad_within(&self.bads, start, start + raw.len() as u64)?;
        let within = usize::try_from(decoded - start).unwrap_or(0).min(raw.len());
        let before = raw.get(..within).map_or(0, |b| decode(b).chars().count());
        Some(Undecodable {
            byte: original,
            char: before.saturating_sub(skipped),
            octets,
            encoding: self.encoding.name(),
        })
    }
}

/// An IRI reference found at `decoded`, resolved against `base` when it is
/// relative.
pub(crate) fn reference(value: &str, base: Option<&str>) -> What {
    What::Reference {
        resolved: resolve_relative(base, value),
        written: value.to_owned(),
    }
}

/// ASCII white space (HTML's: TAB, LF, FF, CR, SPACE).
pub(crate) fn is_ascii_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0C' | '\r' | ' ')
}

#[cfg(test)]
mod tests {
    use super::decode_references;
    use std::borrow::Cow;

    #[test]
    fn decodes_references() {
        let html = |n: &str| quick_xml::escape::resolve_html5_entity(n).map(Cow::Borrowed);
        assert_eq!(
            decode_references(
                "/a?b=1&amp;c=&#x2F;&#47;&eacute;&d=2&nope;&",
                &html,
                1 << 20
            )
            .unwrap(),
            "/a?b=1&c=//é&d=2&nope;&"
        );
        let big = |_: &str| Some(Cow::Owned("x".repeat(1000)));
        assert!(decode_references("&a;&a;", &big, 1500).is_err());
    }
}
