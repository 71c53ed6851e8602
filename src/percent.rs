//! The percent-encodings of a component's text, as the conversions
//! between IRIs and URIs (3987bis §3 and §4) and normalization (RFC 3987
//! §5.3.2.3) both read them: the octet of a `%HH`, the characters allowed
//! to stand unencoded in each component, and steps 2–6 of URI → IRI
//! conversion (3987bis §4.2), which decide for each run of encodings
//! whether it is decoded or stays. [`crate::convert`] and
//! [`crate::normalize`] depend on this module; it depends on neither.

use crate::prelude::*;
use alloc::borrow::Cow;

use crate::chars;
use crate::components::Component;
use crate::profile::Profile;
use crate::unicode::is_combining_mark;

/// Whether an ASCII byte is one that a LEIRI allows and neither a URI nor
/// an IRI does: the controls, DEL, space and `` "<>\^`{|} `` (3987bis
/// §6.3). IRI → URI mapping (3987bis §3.3) percent-encodes them, and so
/// does normalization.
pub(crate) const fn not_in_uris(b: u8) -> bool {
    matches!(
        b,
        0..=0x20 | 0x7F | b'"' | b'<' | b'>' | b'\\' | b'^' | b'`' | b'{' | b'|' | b'}'
    )
}

/// The octet of the percent-encoding at `i`, if one starts there.
fn pct_octet(b: &[u8], i: usize) -> Option<u8> {
    let hex = |x: u8| char::from(x).to_digit(16);
    match b.get(i..i + 3)? {
        [b'%', h, l] => Some((hex(*h)? * 16 + hex(*l)?) as u8),
        _ => None,
    }
}

/// `text` with every percent-encoding decoded, when each run of them is
/// UTF-8 (3987bis §3.4.2 step 1); `None` when one is not.
pub(crate) fn decode_all_utf8(text: &str) -> Option<Cow<'_, str>> {
    if !text.contains('%') {
        return Some(Cow::Borrowed(text));
    }
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut run = Vec::new();
    let mut i = 0;
    while i <= b.len() {
        if let Some(o) = pct_octet(b, i) {
            run.push(o);
            i += 3;
            continue;
        }
        out.push_str(core::str::from_utf8(&run).ok()?);
        run.clear();
        let Some(c) = text.get(i..).and_then(|t| t.chars().next()) else {
            break;
        };
        out.push(c);
        i += c.len_utf8();
    }
    Some(Cow::Owned(out))
}

/// What precedes a character in the output, for 3987bis §5.1(c): a
/// combining mark must not start a component, nor sit on a delimiter or on
/// the hex digit of a percent-encoding.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Before {
    /// The start of the component.
    Start,
    /// ASCII punctuation: a delimiter, or a character beside one.
    Delimiter,
    /// A percent-encoding that stays.
    Encoded,
    /// A letter, a digit or a non-ASCII character.
    Other,
}

impl Before {
    fn of(c: char) -> Before {
        if c.is_ascii() && !c.is_ascii_alphanumeric() {
            Before::Delimiter
        } else {
            Before::Other
        }
    }
}

/// One piece of a component's text after steps 2–4 of 3987bis §4.2.
pub(crate) enum Token<'a> {
    /// Characters that were not percent-encoded.
    Literal(&'a str),
    /// A percent-encoding step 2 leaves as written: of '%', of a reserved
    /// character or of ASCII not allowed in URIs.
    Kept(&'a str),
    /// An octet step 3 re-encodes: not part of strictly legal UTF-8.
    NotUtf8(u8),
    /// The percent-encodings of one character step 4 re-encodes.
    NotAppropriate(&'a str),
    /// The percent-encodings of one character, decoded.
    Decoded(&'a str, char),
}

/// Steps 2–4 of 3987bis §4.2 on one component's text, the tokens given to
/// `emit` in order: `keep` decides which characters of strictly legal
/// UTF-8 step 4 leaves decoded (ASCII is decoded when unreserved, by step
/// 2).
pub(crate) fn walk<'a>(
    text: &'a str,
    keep: &dyn Fn(char, Before) -> bool,
    emit: &mut dyn FnMut(Token<'a>),
) {
    let b = text.as_bytes();
    let mut before = Before::Start;
    let mut literal = 0;
    let mut i = 0;
    while i < b.len() {
        let Some(first) = pct_octet(b, i) else {
            i += 1;
            continue;
        };
        if literal < i {
            let s = &text[literal..i];
            before = s.chars().next_back().map_or(before, Before::of);
            emit(Token::Literal(s));
        }
        let (token, len) = if first.is_ascii() {
            if first.is_ascii_alphanumeric() || b"-._~".contains(&first) {
                (Token::Decoded(&text[i..i + 3], char::from(first)), 3)
            } else {
                (Token::Kept(&text[i..i + 3]), 3)
            }
        } else {
            let n = utf8_len(first);
            let mut octets = [0u8; 4];
            let mut k = 0;
            while k < n {
                match pct_octet(b, i + 3 * k) {
                    Some(o) => octets[k] = o,
                    None => break,
                }
                k += 1;
            }
            let c = (n > 0 && k == n)
                .then(|| core::str::from_utf8(&octets[..n]).ok())
                .flatten()
                .and_then(|s| s.chars().next());
            match c {
                Some(c) if keep(c, before) => (Token::Decoded(&text[i..i + 3 * n], c), 3 * n),
                Some(_) => (Token::NotAppropriate(&text[i..i + 3 * n]), 3 * n),
                None => (Token::NotUtf8(first), 3),
            }
        };
        before = match token {
            Token::Decoded(_, c) => Before::of(c),
            _ => Before::Encoded,
        };
        emit(token);
        i += len;
        literal = i;
    }
    if literal < b.len() {
        emit(Token::Literal(&text[literal..]));
    }
}

/// A stage of 3987bis §4.2 to render a token at.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stage {
    /// After step 2: decoded octets as `<c3>` (§4.3's layout).
    Decoded,
    /// After step 3.
    Utf8Checked,
    /// After step 4 (and 5, which is not done).
    Appropriate,
    /// After step 6: decoded octets read as UTF-8.
    Final,
    /// Step 6 with every encoding that stays in uppercase (normalization).
    Normalized,
}

/// Appends `token` as it stands at `stage`.
pub(crate) fn render(out: &mut String, token: &Token<'_>, stage: Stage) {
    const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";
    const HEX_LOWER: &[u8; 16] = b"0123456789abcdef";
    let hex = |out: &mut String, b: u8, digits: &[u8; 16]| {
        out.push(char::from(digits[usize::from(b >> 4)]));
        out.push(char::from(digits[usize::from(b & 15)]));
    };
    let encoded = |out: &mut String, b: u8| {
        out.push('%');
        hex(out, b, HEX_UPPER);
    };
    let octet = |out: &mut String, b: u8| {
        out.push('<');
        hex(out, b, HEX_LOWER);
        out.push('>');
    };
    let octets = |out: &mut String, s: &str| {
        for t in s.as_bytes().chunks(3) {
            octet(out, pct_octet(t, 0).unwrap_or(0));
        }
    };
    match (token, stage) {
        (Token::Literal(s), _) => out.push_str(s),
        (Token::Kept(s), Stage::Normalized) => {
            out.extend(s.chars().map(|c| c.to_ascii_uppercase()))
        }
        (Token::Kept(s), _) => out.push_str(s),
        (Token::NotUtf8(b), Stage::Decoded) => octet(out, *b),
        (Token::NotUtf8(b), _) => encoded(out, *b),
        (Token::NotAppropriate(s), Stage::Decoded | Stage::Utf8Checked) => octets(out, s),
        (Token::NotAppropriate(s), _) => out.extend(s.chars().map(|c| c.to_ascii_uppercase())),
        (Token::Decoded(_, c), Stage::Final | Stage::Normalized) => out.push(*c),
        (Token::Decoded(_, c), _) if c.is_ascii() => out.push(*c),
        (Token::Decoded(s, _), _) => octets(out, s),
    }
}

/// The length of the UTF-8 sequence `first` starts, 0 for an octet that
/// starts none (a continuation octet, C0, C1, F5-FF).
fn utf8_len(first: u8) -> usize {
    match first {
        0x00..=0x7F => 1,
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => 0,
    }
}

/// Whether `c` may stand unencoded in `component` by 3987bis §2.2: ASCII
/// when unreserved (the rest stays encoded in step 2), else a `ucschar`, or
/// an `iprivate` in the query.
fn allowed(c: char, component: Component) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || "-._~".contains(c);
    }
    chars::is_ucschar(c)
        || (component == Component::Query && chars::is_iprivate(c, Profile::Rfc3987bis))
}

/// Whether `c` may stand unencoded in `component` of an IRI (3987bis §2.2)
/// and is not one of the characters §5.1 and RFC 3987 §4.1 advise against
/// anywhere ([`chars::is_discouraged`]).
fn appropriate(c: char, component: Component) -> bool {
    allowed(c, component) && !chars::is_discouraged(c)
}

/// Step 4's decision for `c` after `before`: [`appropriate`], and not a
/// combining mark at the start of a component (§5.1(c)); with
/// `decode_all`, only §2.2 and RFC 3987 §4.1's ban on bidi formatting
/// characters.
pub(crate) fn appropriate_at(
    c: char,
    component: Component,
    before: Before,
    decode_all: bool,
) -> bool {
    if decode_all {
        return allowed(c, component) && !chars::is_bidi_formatting(c);
    }
    appropriate(c, component) && !(before != Before::Other && is_combining_mark(c))
}

/// Whether `c` may stand unencoded in the normal form of `component`
/// ([`IriRef::normalize`](crate::IriRef::normalize)): what 3987bis §2.2
/// allows there (an unreserved ASCII character, a `ucschar`, an `iprivate`
/// in the query) but the bidi formatting characters, which RFC 3987 §4.1
/// forbids. Normalization decides for equivalence, not for display: §5.1's
/// advice against invisible or look-alike characters is
/// [`to_iri`](crate::to_iri)'s, not its.
pub(crate) fn allowed_in_normal_form(c: char, component: Component) -> bool {
    allowed(c, component) && !chars::is_bidi_formatting(c)
}

/// Steps 2–6 of 3987bis §4.2 on one component's text, with `keep` deciding
/// which decoded characters stay decoded, and every encoding that stays in
/// uppercase: the percent-encoding normalization of
/// [`IriRef::normalize`](crate::IriRef::normalize). Unlike
/// [`to_iri`](crate::to_iri), it decodes a combining mark wherever `keep`
/// allows it: the same character must get the same form, raw or encoded.
/// Appends the result to `out`.
pub(crate) fn decode_into(text: &str, keep: impl Fn(char) -> bool, out: &mut String) {
    if !text.contains('%') {
        out.push_str(text);
        return;
    }
    let keep = |c: char, _: Before| keep(c);
    walk(text, &keep, &mut |t| render(out, &t, Stage::Normalized));
}
