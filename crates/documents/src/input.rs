//! The bytes of a document before its parser sees them: the byte order
//! mark, the encoding by the format's own rules, and the streaming decoder
//! that gives the markup parsers UTF-8.
//!
//! Encodings are the WHATWG Encoding Standard's (encoding_rs): their labels,
//! their decoders. HTML: a byte order mark, then the encoding the caller
//! gives (the transport layer's charset), then the prescan of the first
//! 1,024 bytes for `<meta charset>` (HTML Standard §13.2.3.2), then a guess
//! from the first 64 KiB (chardetng, the detector Firefox uses). XML: a
//! byte order mark, then the caller's encoding, then the XML declaration's
//! `encoding` (XML 1.0 §4.3.3 and Appendix F), else UTF-8.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, Read};
use std::rc::Rc;

use encoding_rs::{Decoder, DecoderResult, Encoding, UTF_8, UTF_16BE, UTF_16LE};

use super::read_chunk;

/// Bytes read from the document at a time.
pub(crate) const CHUNK: usize = 64 * 1024;

/// Reads from `reader` until at least `want` bytes or its end (as much as
/// a read gives, up to a chunk), so that a byte order mark (or a
/// declaration) split across reads is seen whole, and a stream that waits
/// is not waited for longer.
pub(crate) fn read_head(reader: &mut impl Read, want: usize) -> io::Result<Vec<u8>> {
    let mut head = Vec::new();
    extend_head(reader, &mut head, want)?;
    Ok(head)
}

/// Reads more of `reader` into `head`, until it holds at least `want`
/// bytes (or the end).
fn extend_head(reader: &mut impl Read, head: &mut Vec<u8>, want: usize) -> io::Result<()> {
    let mut have = head.len();
    while have < want {
        head.resize(have + CHUNK.max(want - have), 0);
        let n = read_chunk(reader, &mut head[have..])?;
        head.truncate(have + n);
        if n == 0 {
            break;
        }
        have += n;
    }
    Ok(())
}

/// The encoding a byte order mark at the start of `bytes` names (UTF-8,
/// UTF-16LE, UTF-16BE), and its length.
pub(crate) fn bom(bytes: &[u8]) -> Option<(&'static Encoding, usize)> {
    Encoding::for_bom(bytes)
}

/// A document's encoding and the length of its byte order mark; or why it
/// cannot be read.
pub(crate) struct Detected {
    pub(crate) encoding: &'static Encoding,
    pub(crate) bom: usize,
    /// A problem with the declaration, reported as a syntax error of the
    /// document; with `stop`, the document is not read.
    pub(crate) problem: Option<String>,
    pub(crate) stop: bool,
    /// HTML's confidence (§13.2.3.1): tentative when the encoding comes
    /// from the prescan or a guess, so that a `<meta>` the parser meets
    /// may change it; certain from a byte order mark or the caller.
    pub(crate) tentative: bool,
}

impl Detected {
    fn new(encoding: &'static Encoding, bom: usize) -> Self {
        Detected {
            encoding,
            bom,
            problem: None,
            stop: false,
            tentative: false,
        }
    }

    fn tentative(encoding: &'static Encoding) -> Self {
        Detected {
            tentative: true,
            ..Detected::new(encoding, 0)
        }
    }
}

/// An encoding by its label, as a document or a user may name it: None
/// for a label the Encoding Standard does not know, and for its
/// `replacement` encoding (labels of encodings browsers refuse to decode,
/// such as ISO-2022-KR).
pub(crate) fn for_label(label: &[u8]) -> Option<&'static Encoding> {
    Encoding::for_label(label).filter(|e| *e != encoding_rs::REPLACEMENT)
}

/// The encoding of an HTML document whose first bytes are `head` (at
/// least 1,024 unless the document is shorter): BOM, `given`, the prescan,
/// then the guess (which reads up to 64 KiB of `reader` into `head`).
pub(crate) fn detect_html(
    head: &mut Vec<u8>,
    reader: &mut impl Read,
    given: Option<&'static Encoding>,
) -> io::Result<Detected> {
    if let Some((encoding, len)) = bom(head) {
        return Ok(Detected::new(encoding, len));
    }
    if let Some(encoding) = given {
        return Ok(Detected::new(encoding, 0));
    }
    if let Some(encoding) = prescan(&head[..head.len().min(1024)]) {
        return Ok(Detected::tentative(encoding));
    }
    extend_head(reader, head, CHUNK)?;
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Allow);
    let last = head.len() < CHUNK;
    detector.feed(head, last);
    let encoding = detector.guess(None, chardetng::Utf8Detection::Allow);
    Ok(Detected::tentative(encoding))
}

/// The encoding of an XML document whose first bytes are `head`: BOM,
/// `given`, the XML declaration (XML 1.0 §4.3.3, Appendix F), UTF-8.
pub(crate) fn detect_xml(head: &[u8], given: Option<&'static Encoding>) -> Detected {
    if let Some((encoding, len)) = bom(head) {
        return Detected::new(encoding, len);
    }
    if let Some(encoding) = given {
        return Detected::new(encoding, 0);
    }
    // Appendix F: `<?` in UTF-16 without a byte order mark.
    if head.starts_with(b"<\0?\0") {
        return Detected::new(UTF_16LE, 0);
    }
    if head.starts_with(b"\0<\0?") {
        return Detected::new(UTF_16BE, 0);
    }
    let Some(label) = xml_declared_encoding(head) else {
        return Detected::new(UTF_8, 0);
    };
    let shown = String::from_utf8_lossy(label).into_owned();
    match for_label(label) {
        Some(e) if e == UTF_16LE || e == UTF_16BE => {
            let mut d = Detected::new(UTF_8, 0);
            d.problem = Some(format!(
                "the XML declaration names the encoding {shown:?}, but the document has no UTF-16 byte order mark and its declaration is in an ASCII-compatible encoding (XML 1.0 §4.3.3, Appendix F): read as UTF-8"
            ));
            d
        }
        Some(e) => Detected::new(e, 0),
        None => {
            let mut d = Detected::new(UTF_8, 0);
            d.problem = Some(format!(
                "the XML declaration names the encoding {shown:?}, which the WHATWG Encoding Standard does not know: the document is not read (give its encoding with --encoding, or convert it)"
            ));
            d.stop = true;
            d
        }
    }
}

/// The `encoding` of an XML declaration at the start of `head`.
fn xml_declared_encoding(head: &[u8]) -> Option<&[u8]> {
    let rest = head.strip_prefix(b"<?xml")?;
    if !rest.first().is_some_and(|b| is_space(*b)) {
        return None;
    }
    let end = rest.windows(2).position(|w| w == b"?>")?;
    let decl = &rest[..end];
    let at = decl.windows(8).position(|w| w == b"encoding")?;
    let mut i = at + 8;
    while decl.get(i).is_some_and(|b| is_space(*b)) {
        i += 1;
    }
    if decl.get(i) != Some(&b'=') {
        return None;
    }
    i += 1;
    while decl.get(i).is_some_and(|b| is_space(*b)) {
        i += 1;
    }
    let quote = *decl.get(i).filter(|q| matches!(q, b'"' | b'\''))?;
    let value = &decl[i + 1..];
    let close = value.iter().position(|b| *b == quote)?;
    Some(&value[..close])
}

/// ASCII white space as HTML and XML have it (TAB, LF, FF, CR, SPACE).
fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

/// An encoding by a label a `<meta>` gives (HTML §13.2.3.2 and §13.2.3.4,
/// "get an encoding"): the Encoding Standard's, its `replacement`
/// encoding included; UTF-16 named in an ASCII-compatible stream is UTF-8,
/// and x-user-defined is windows-1252.
pub(crate) fn meta_encoding(label: &[u8]) -> Option<&'static Encoding> {
    let e = Encoding::for_label(label)?;
    Some(if e == UTF_16LE || e == UTF_16BE {
        UTF_8
    } else if e == encoding_rs::X_USER_DEFINED {
        encoding_rs::WINDOWS_1252
    } else {
        e
    })
}

/// The HTML Standard's "prescan a byte stream to determine its encoding"
/// (§13.2.3.2), on the first 1,024 bytes: `<meta charset>` and `<meta
/// http-equiv="Content-Type" content="...; charset=...">`, skipping
/// comments and other tags. The bytes end where the prescan ends: an
/// attribute (or comment) still open there finds nothing, and the prescan
/// gives up.
pub(crate) fn prescan(bytes: &[u8]) -> Option<&'static Encoding> {
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        if rest.starts_with(b"<!--") {
            i += 4 + rest[4..]
                .windows(3)
                .position(|w| w == b"-->")
                .map_or(rest.len(), |p| p + 3);
            // An unclosed comment: the position runs past the end, so the
            // loop stops.
            if i > bytes.len() {
                return None;
            }
            continue;
        }
        let lower = |k: usize| rest.get(k).map(u8::to_ascii_lowercase);
        if rest.len() >= 6
            && rest[..5].eq_ignore_ascii_case(b"<meta")
            && (is_space(rest[5]) || rest[5] == b'/')
        {
            i += 5;
            let mut got_pragma = false;
            let mut need_pragma: Option<bool> = None;
            let mut charset: Option<&'static Encoding> = None;
            let mut seen: Vec<Vec<u8>> = Vec::new();
            loop {
                let (name, value, next) = match attribute(bytes, i) {
                    Got::Attribute(name, value, next) => (name, value, next),
                    Got::None => break,
                    Got::End => return None,
                };
                i = next;
                if seen.contains(&name) {
                    continue;
                }
                match name.as_slice() {
                    b"http-equiv" => got_pragma |= value.eq_ignore_ascii_case(b"content-type"),
                    b"content" if charset.is_none() => {
                        if let Some(e) = charset_from_content(&value) {
                            charset = Some(e);
                            need_pragma = Some(true);
                        }
                    }
                    b"charset" => {
                        charset = meta_encoding(trim(&value));
                        need_pragma = Some(false);
                    }
                    _ => {}
                }
                seen.push(name);
            }
            let wanted = match need_pragma {
                None => false,
                Some(true) => got_pragma,
                Some(false) => true,
            };
            if let (true, Some(e)) = (wanted, charset) {
                return Some(e);
            }
            continue;
        }
        let tag = rest.first() == Some(&b'<')
            && (lower(1).is_some_and(|b| b.is_ascii_lowercase())
                || (rest.get(1) == Some(&b'/')
                    && lower(2).is_some_and(|b| b.is_ascii_lowercase())));
        if tag {
            i += rest
                .iter()
                .position(|b| is_space(*b) || *b == b'>')
                .unwrap_or(rest.len());
            loop {
                match attribute(bytes, i) {
                    Got::Attribute(_, _, next) => i = next,
                    Got::None => break,
                    Got::End => return None,
                }
            }
            i += 1;
            continue;
        }
        if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            i += rest.iter().position(|b| *b == b'>').unwrap_or(rest.len()) + 1;
            continue;
        }
        i += 1;
    }
    None
}

fn trim(value: &[u8]) -> &[u8] {
    let start = value
        .iter()
        .position(|b| !is_space(*b))
        .unwrap_or(value.len());
    let end = value
        .iter()
        .rposition(|b| !is_space(*b))
        .map_or(start, |p| p + 1);
    &value[start..end]
}

/// What "get an attribute" gives.
enum Got {
    /// An attribute: its name (lowercase), its value, and where the next
    /// one starts.
    Attribute(Vec<u8>, Vec<u8>, usize),
    /// No more attributes: a `>`.
    None,
    /// The bytes end inside the tag: the prescan ends with nothing.
    End,
}

/// The HTML Standard's "get an attribute" (§13.2.3.2) at `i`.
fn attribute(bytes: &[u8], mut i: usize) -> Got {
    while i < bytes.len() && (is_space(bytes[i]) || bytes[i] == b'/') {
        i += 1;
    }
    match bytes.get(i) {
        None => return Got::End,
        Some(b'>') => return Got::None,
        Some(_) => {}
    }
    let mut name = Vec::new();
    let mut value = Vec::new();
    loop {
        let Some(&b) = bytes.get(i) else {
            return Got::End;
        };
        if b == b'=' && !name.is_empty() {
            i += 1;
            break;
        }
        if is_space(b) {
            while bytes.get(i).is_some_and(|b| is_space(*b)) {
                i += 1;
            }
            match bytes.get(i) {
                None => return Got::End,
                Some(b'=') => {}
                Some(_) => return Got::Attribute(name, value, i),
            }
            i += 1;
            break;
        }
        if b == b'/' || b == b'>' {
            return Got::Attribute(name, value, i);
        }
        name.push(b.to_ascii_lowercase());
        i += 1;
    }
    while bytes.get(i).is_some_and(|b| is_space(*b)) {
        i += 1;
    }
    match bytes.get(i) {
        None => Got::End,
        Some(&q @ (b'"' | b'\'')) => {
            i += 1;
            loop {
                let Some(&b) = bytes.get(i) else {
                    return Got::End;
                };
                i += 1;
                if b == q {
                    return Got::Attribute(name, value, i);
                }
                value.push(b.to_ascii_lowercase());
            }
        }
        Some(b'>') => Got::Attribute(name, value, i),
        Some(_) => {
            while let Some(&b) = bytes.get(i) {
                if is_space(b) || b == b'>' {
                    return Got::Attribute(name, value, i);
                }
                value.push(b.to_ascii_lowercase());
                i += 1;
            }
            // An unquoted value that runs to the end of the bytes.
            Got::End
        }
    }
}

/// The HTML Standard's "extract a character encoding from a meta element"
/// (§2.5.5 of the URL-related algorithms): `charset=` in a `content`
/// value.
pub(crate) fn charset_from_content(content: &[u8]) -> Option<&'static Encoding> {
    let mut i = 0;
    loop {
        let at = content[i..]
            .windows(7)
            .position(|w| w.eq_ignore_ascii_case(b"charset"))?;
        i += at + 7;
        while content.get(i).is_some_and(|b| is_space(*b)) {
            i += 1;
        }
        if content.get(i) == Some(&b'=') {
            i += 1;
            break;
        }
    }
    while content.get(i).is_some_and(|b| is_space(*b)) {
        i += 1;
    }
    let value = match content.get(i)? {
        q @ (b'"' | b'\'') => {
            let rest = &content[i + 1..];
            &rest[..rest.iter().position(|b| b == q)?]
        }
        _ => {
            let rest = &content[i..];
            &rest[..rest
                .iter()
                .position(|b| is_space(*b) || *b == b';')
                .unwrap_or(rest.len())]
        }
    };
    meta_encoding(value)
}

/// Octets of the document that its encoding cannot decode: where they
/// are, in the document and in the decoded text (where a U+FFFD stands
/// for them).
#[derive(Clone, Debug)]
pub(crate) struct Bad {
    pub(crate) decoded: u64,
    pub(crate) original: u64,
    pub(crate) octets: Vec<u8>,
}

/// The undecodable octets found so far and not yet passed.
pub(crate) type Bads = Rc<RefCell<VecDeque<Bad>>>;

/// A reader of a document's text as UTF-8, decoded from its encoding in
/// streaming (encoding_rs keeps a character split across reads), with a
/// U+FFFD for each sequence that is not valid in it, recorded in `bad`.
/// Offsets of the decoded text start after the byte order mark.
pub(crate) struct Decoded<R> {
    inner: R,
    /// The document's first bytes after the byte order mark, not decoded
    /// yet.
    head: Option<Vec<u8>>,
    decoder: Decoder,
    raw: Vec<u8>,
    out: Vec<u8>,
    at: usize,
    /// Document bytes read so far (after the mark) and decoded bytes given.
    consumed: u64,
    produced: u64,
    /// The byte order mark's length: document offsets of bad octets count
    /// it.
    bom: u64,
    done: bool,
    pub(crate) bad: Bads,
}

impl<R: Read> Decoded<R> {
    /// Decodes `head` (the document's first bytes, its byte order mark
    /// `bom` bytes long) and then the rest of `inner` from `encoding`.
    pub(crate) fn new(inner: R, head: Vec<u8>, bom: usize, encoding: &'static Encoding) -> Self {
        Decoded {
            inner,
            head: Some(head[bom.min(head.len())..].to_vec()),
            decoder: encoding.new_decoder_without_bom_handling(),
            raw: vec![0; CHUNK],
            out: Vec::new(),
            at: 0,
            consumed: 0,
            produced: 0,
            bom: bom as u64,
            done: false,
            bad: Rc::default(),
        }
    }

    /// The reader decoded.
    pub(crate) fn inner_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    fn refill(&mut self) -> io::Result<()> {
        let n = match self.head.take() {
            Some(head) if !head.is_empty() => {
                let n = head.len();
                if self.raw.len() < n {
                    self.raw.resize(n, 0);
                }
                self.raw[..n].copy_from_slice(&head);
                n
            }
            _ => read_chunk(&mut self.inner, &mut self.raw)?,
        };
        let last = n == 0;
        let src = &self.raw[..n];
        self.out.clear();
        self.at = 0;
        let mut pos = 0;
        loop {
            let need = self
                .decoder
                .max_utf8_buffer_length_without_replacement(src.len() - pos)
                .unwrap_or(src.len() * 3 + 16);
            let start = self.out.len();
            self.out.resize(start + need, 0);
            let (result, read, written) = self.decoder.decode_to_utf8_without_replacement(
                &src[pos..],
                &mut self.out[start..],
                last,
            );
            self.out.truncate(start + written);
            match result {
                DecoderResult::InputEmpty => break,
                DecoderResult::OutputFull => pos += read,
                DecoderResult::Malformed(len, after) => {
                    let end = (pos + read).saturating_sub(usize::from(after));
                    let begin = end.saturating_sub(usize::from(len));
                    self.bad.borrow_mut().push_back(Bad {
                        decoded: self.produced + self.out.len() as u64,
                        original: self.bom + self.consumed + begin as u64,
                        octets: src[begin..end].to_vec(),
                    });
                    self.out.extend_from_slice("\u{FFFD}".as_bytes());
                    pos += read;
                }
            }
        }
        self.consumed += n as u64;
        self.produced += self.out.len() as u64;
        self.done = last;
        Ok(())
    }
}

impl<R: Read> Read for Decoded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.out.len() {
            if self.done {
                return Ok(0);
            }
            self.refill()?;
        }
        let n = buf.len().min(self.out.len() - self.at);
        buf[..n].copy_from_slice(&self.out[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The undecodable octets in the decoded text from `start` to `end` (an
/// attribute value's), if any: the first of them. Those before `start`
/// are dropped: the values are asked for in document order.
pub(crate) fn bad_within(bads: &Bads, start: u64, end: u64) -> Option<Bad> {
    let mut bads = bads.borrow_mut();
    while bads.front().is_some_and(|b| b.decoded < start) {
        bads.pop_front();
    }
    bads.front().filter(|b| b.decoded < end).cloned()
}

#[cfg(test)]
mod tests {
    use super::{Decoded, detect_xml, prescan};
    use std::io::Read;

    #[test]
    fn prescans_meta() {
        let e = |s: &str| prescan(s.as_bytes()).map(|e| e.name());
        assert_eq!(e("<html><meta charset=\"shift_jis\">"), Some("Shift_JIS"));
        assert_eq!(
            e(
                "<!-- <meta charset=koi8-r> --><META http-equiv='Content-Type' content='text/html; charset=EUC-JP'>"
            ),
            Some("EUC-JP")
        );
        // content without http-equiv is not enough.
        assert_eq!(e("<meta content='text/html; charset=EUC-JP'>"), None);
        assert_eq!(e("<meta charset=utf-16>"), Some("UTF-8"));
        assert_eq!(e("<p title='<meta charset=big5>'>"), None);
    }

    #[test]
    fn xml_declarations() {
        let d = detect_xml(b"<?xml version='1.0' encoding=\"EUC-JP\"?><a/>", None);
        assert_eq!(d.encoding.name(), "EUC-JP");
        let d = detect_xml(b"<?xml version='1.0' encoding='EBCDIC-X'?><a/>", None);
        assert!(d.stop && d.problem.is_some());
        let d = detect_xml(b"<\0?\0x\0m\0l\0", None);
        assert_eq!(d.encoding.name(), "UTF-16LE");
    }

    #[test]
    fn decodes_whatever_the_reads() {
        // Shift_JIS for 日本, an octet that is not Shift_JIS, then ASCII.
        let doc = b"\x93\xfa\x96\x7b \xa0 ok";
        let mut decoded = Decoded::new(&doc[..], Vec::new(), 0, encoding_rs::SHIFT_JIS);
        let mut text = String::new();
        decoded.read_to_string(&mut text).unwrap();
        assert_eq!(text, "日本 \u{FFFD} ok");
        let bad = decoded.bad.borrow();
        assert_eq!(bad.len(), 1);
        assert_eq!((bad[0].decoded, bad[0].original), (7, 5));
        assert_eq!(bad[0].octets, [0xA0]);
    }
}
