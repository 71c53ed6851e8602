//! HTML: lol_html tokenizes the document as an HTML5 parser does, in
//! bounded memory, and gives each attribute's value as written and the
//! byte offset where it starts; its character references are decoded with
//! the HTML5 table quick-xml carries.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::io::{self, Read};
use std::rc::Rc;

use lol_html::errors::RewritingError;
use lol_html::{HtmlRewriter, MemorySettings, Settings, doc_comments, doc_text, element};

use super::input::{self, CHUNK, Decoded};
use super::markup::{Places, decode_references, is_ascii_space, reference};
use super::{Found, Options, Position, Role, What, read_chunk};

/// The most memory lol_html may use for one document (its buffers and
/// its stack of open elements): a tag longer than that, or more open
/// elements than fit, is a document error, and reading stops there.
pub const HTML_MEMORY_LIMIT: usize = 16 * 1024 * 1024;

/// The longest attribute value decoded: character references cannot make
/// a value grow past this.
const MAX_VALUE: usize = 16 * 1024 * 1024;

/// The HTML attributes whose values are URLs (HTML Living Standard,
/// "attributes" index): `srcset` holds a list of them.
const URL_ATTRIBUTES: &[&str] = &[
    "href",
    "src",
    "srcset",
    "action",
    "formaction",
    "cite",
    "data",
    "poster",
    "manifest",
];

/// A URL attribute of a start tag, as lol_html gave it.
struct Attribute {
    /// The tag's name and the attribute's, lowercase.
    tag: String,
    name: String,
    /// The value as written (lol_html leaves character references).
    raw: String,
    /// The offset in the decoded text of the value's first character
    /// (after the quote, if quoted).
    start: usize,
}

/// `raw` with HTML's character references decoded.
fn decode(raw: &str) -> String {
    let named = |n: &str| quick_xml::escape::resolve_html5_entity(n).map(Cow::Borrowed);
    match decode_references(raw, &named, MAX_VALUE) {
        Ok(text) => text.into_owned(),
        Err(()) => raw.to_owned(),
    }
}

/// Reads an HTML document, giving every URL to `sink` in document order.
/// `<base href>` sets the base of the URLs after it (HTML's base is the
/// first `base` element with `href`).
pub(crate) fn scan_html(
    options: &Options,
    mut reader: impl Read,
    sink: &mut dyn FnMut(Found) -> io::Result<()>,
) -> io::Result<()> {
    let mut head = input::read_head(&mut reader, 1024)?;
    let detected = input::detect_html(&mut head, &mut reader, options.encoding)?;
    let mut decoded = Decoded::new(reader, head, detected.bom, detected.encoding);
    let mut places = Places {
        tracker: Rc::default(),
        bom: detected.bom as u64,
        encoding: detected.encoding,
        bads: Rc::clone(&decoded.bad),
    };
    let found_attributes: Rc<RefCell<Vec<Attribute>>> = Rc::default();
    // The start of the last tag, text or comment lol_html gave: no
    // position before it is asked for again.
    let done = Rc::new(Cell::new(0usize));
    let (t, d0, d1, d2) = (
        Rc::clone(&found_attributes),
        Rc::clone(&done),
        Rc::clone(&done),
        Rc::clone(&done),
    );
    let settings = Settings::new()
        .append_element_content_handler(element!("*", move |el| {
            let tag = el.tag_name();
            let mut seen: Vec<String> = Vec::new();
            let mut first = None;
            for a in el.attributes() {
                let name = a.name();
                // HTML keeps the first of a duplicated attribute (HTML
                // Living Standard §13.2.5.33, a parse error).
                if seen.contains(&name) {
                    continue;
                }
                seen.push(name.clone());
                let Some(value) = a.value_source_location() else {
                    continue;
                };
                first.get_or_insert(value.bytes().start);
                if !URL_ATTRIBUTES.contains(&name.as_str()) {
                    continue;
                }
                t.borrow_mut().push(Attribute {
                    tag: tag.clone(),
                    name,
                    raw: a.value(),
                    start: value.bytes().start,
                });
            }
            if let Some(start) = first {
                d0.set(d0.get().max(start));
            }
            Ok(())
        }))
        .append_document_content_handler(doc_text!(move |text| {
            d1.set(d1.get().max(text.source_location().bytes().end));
            Ok(())
        }))
        .append_document_content_handler(doc_comments!(move |c| {
            d2.set(d2.get().max(c.source_location().bytes().end));
            Ok(())
        }));
    let settings = settings.with_memory_settings(
        MemorySettings::new().with_max_allowed_memory_usage(HTML_MEMORY_LIMIT),
    );
    let mut rewriter = HtmlRewriter::new(settings, |_: &[u8]| {});
    let mut base = options.base.clone();
    let mut base_set = false;
    let mut chunk = vec![0; CHUNK];
    let mut read = 0u64;
    loop {
        let n = read_chunk(&mut decoded, &mut chunk)?;
        places.tracker.borrow_mut().push(&chunk[..n]);
        let result = if n > 0 {
            rewriter.write(&chunk[..n])
        } else {
            Ok(())
        };
        read += n as u64;
        let ready = std::mem::take(&mut *found_attributes.borrow_mut());
        for a in ready {
            emit(&mut places, a, &mut base, &mut base_set, sink)?;
        }
        if let Err(e) = result {
            return sink(overrun(&mut places, read, e)?);
        }
        // Nothing before the last tag, text or comment is asked for again,
        // nor anything lol_html cannot hold any more.
        let limit = read.saturating_sub(HTML_MEMORY_LIMIT as u64);
        places
            .tracker
            .borrow_mut()
            .locate((done.get() as u64).max(limit));
        if n == 0 {
            break;
        }
    }
    match rewriter.end() {
        Ok(()) => Ok(()),
        Err(e) => sink(overrun(&mut places, read, e)?),
    }
}

/// lol_html's error: its memory limit is a document error at `read`; any
/// other is not the document's.
fn overrun(places: &mut Places, read: u64, e: RewritingError) -> io::Result<Found> {
    match e {
        RewritingError::MemoryLimitExceeded(_) => Ok(places.error(
            read,
            format!(
                "the HTML tokenizer needs more than {} MiB here (a tag longer than that, or too many elements left open): the document is not read further",
                HTML_MEMORY_LIMIT >> 20
            ),
        )),
        other => Err(io::Error::other(other)),
    }
}

/// Gives the URLs of one attribute to `sink`, following `<base href>`.
fn emit(
    places: &mut Places,
    a: Attribute,
    base: &mut Option<String>,
    base_set: &mut bool,
    sink: &mut dyn FnMut(Found) -> io::Result<()>,
) -> io::Result<()> {
    let start = a.start as u64;
    let role = |position| Role::markup(position, &a.tag, Some(&a.name));
    if a.name == "srcset" {
        let value = decode(&a.raw);
        let urls = srcset_urls(&value);
        let places_in_raw = srcset_urls(&a.raw);
        for (k, (_, url)) in urls.iter().enumerate() {
            // Character references can move the URLs: then each is placed
            // at the attribute's start.
            let offset = match places_in_raw.get(k) {
                Some((o, _)) if places_in_raw.len() == urls.len() => start + *o as u64,
                _ => start,
            };
            let mut item = places.found(
                offset,
                role(Position::Link),
                reference(url, base.as_deref()),
            );
            if let Some((o, raw_url)) = places_in_raw
                .get(k)
                .filter(|_| places_in_raw.len() == urls.len())
            {
                item.undecodable = places.undecodable(start + *o as u64, raw_url, 0, decode);
            }
            sink(item)?;
        }
        return Ok(());
    }
    // A URL attribute holds "a valid URL potentially surrounded by spaces"
    // (HTML Living Standard §2.4.5): leading and trailing ASCII white space
    // is no part of it, and the URL starts after the leading one.
    let leading = a.raw.len() - a.raw.trim_start_matches(is_ascii_space).len();
    let raw = &a.raw[leading..];
    let value = decode(raw);
    let value = value.trim_matches(is_ascii_space);
    let offset = start + leading as u64;
    let is_base = a.tag == "base" && a.name == "href" && !*base_set;
    let position = if is_base {
        Position::Base
    } else {
        Position::Link
    };
    let mut item = places.found(offset, role(position), reference(value, base.as_deref()));
    item.undecodable = places.undecodable(offset, raw, 0, decode);
    if is_base {
        *base_set = true;
        if let What::Reference { written, resolved } = &item.what {
            *base = Some(resolved.clone().unwrap_or_else(|| written.clone()));
        }
    }
    sink(item)
}

/// The URLs of a `srcset` value with their byte offsets, parsed as HTML
/// parses a srcset attribute (HTML Living Standard §4.8.4.3.10): candidates
/// separated by commas, each a URL then descriptors.
fn srcset_urls(value: &str) -> Vec<(usize, String)> {
    let bytes = value.as_bytes();
    let space = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0C');
    let mut out = Vec::new();
    let mut i = 0;
    loop {
        while i < bytes.len() && (space(bytes[i]) || bytes[i] == b',') {
            i += 1;
        }
        if i >= bytes.len() {
            return out;
        }
        let start = i;
        while i < bytes.len() && !space(bytes[i]) {
            i += 1;
        }
        let mut end = i;
        if bytes[start..end].ends_with(b",") {
            while end > start && bytes[end - 1] == b',' {
                end -= 1;
            }
        } else {
            // Descriptors, up to a comma outside parentheses.
            let mut depth = 0usize;
            while i < bytes.len() {
                match bytes[i] {
                    b'(' => depth += 1,
                    b')' => depth = depth.saturating_sub(1),
                    b',' if depth == 0 => break,
                    _ => {}
                }
                i += 1;
            }
        }
        out.push((start, value[start..end].to_owned()));
    }
}

#[cfg(test)]
mod tests {
    use super::srcset_urls;

    #[test]
    fn splits_srcset() {
        assert_eq!(
            srcset_urls(" a.png 1x, b,c.png 2x , d(1).png 100w"),
            [
                (1, "a.png".to_owned()),
                (11, "b,c.png".to_owned()),
                (24, "d(1).png".to_owned())
            ]
        );
        assert_eq!(
            srcset_urls("a,, b"),
            [(0, "a".to_owned()), (4, "b".to_owned())]
        );
    }
}
