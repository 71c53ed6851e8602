//! HTML: lol_html tokenizes the document as an HTML5 parser does, in
//! bounded memory, and gives each attribute's value as written and the
//! byte offset where it starts; its character references are decoded with
//! the HTML5 table quick-xml carries.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::io::{self, Read, Seek, SeekFrom};
use std::rc::Rc;

use lol_html::errors::RewritingError;
use lol_html::{HtmlRewriter, MemorySettings, Settings, doc_comments, doc_text, element};

use super::input::{self, CHUNK, Decoded};
use super::markup::{Places, decode_references, is_ascii_space, reference};
use encoding_rs::Encoding;
use iribis::check::Code;

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

/// How much of a document whose encoding is still tentative is held (its
/// bytes, when it is read from a stream, and the items found in it), so
/// that a `<meta>` the parser meets may still change the encoding: the
/// document is then read again from the start (HTML §13.2.3.4). A stream
/// past this bound cannot be read again: a change there is the finding
/// `DOCUMENT_ENCODING_NOT_REREAD`; a file is read again whatever its size.
pub const HTML_REREAD_LIMIT: usize = 1024 * 1024;

/// Where an HTML document's bytes come from: a stream, whose beginning is
/// kept while the encoding is tentative, or a file that can be read again.
pub(crate) enum Source<'r> {
    /// A stream: `kept` holds its first bytes (`None` once past the bound
    /// or no longer needed), `at` is the position of the next read in
    /// them when reading again.
    Stream {
        reader: &'r mut dyn Read,
        kept: Option<Vec<u8>>,
        at: usize,
    },
    /// A file (or anything seekable), starting at `start`.
    Seekable {
        reader: &'r mut dyn ReadSeek,
        start: u64,
    },
}

/// Read and Seek, as one trait object.
pub(crate) trait ReadSeek: Read + Seek {}
impl<T: Read + Seek> ReadSeek for T {}

impl Source<'_> {
    /// Whether the document can be read again from its start.
    fn rewindable(&self) -> bool {
        match self {
            Source::Stream { kept, .. } => kept.is_some(),
            Source::Seekable { .. } => true,
        }
    }

    /// Reads from the start again: false when it cannot.
    fn rewind(&mut self) -> io::Result<bool> {
        match self {
            Source::Stream {
                kept: Some(_), at, ..
            } => {
                *at = 0;
                Ok(true)
            }
            Source::Stream { kept: None, .. } => Ok(false),
            Source::Seekable { reader, start } => {
                reader.seek(SeekFrom::Start(*start))?;
                Ok(true)
            }
        }
    }

    /// The encoding is certain: the beginning is no longer needed.
    fn forget(&mut self) {
        if let Source::Stream { kept, at, .. } = self
            && kept.as_ref().is_some_and(|k| *at >= k.len())
        {
            *kept = None;
        }
    }
}

impl Read for Source<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Source::Stream { reader, kept, at } => {
                if let Some(k) = kept
                    && *at < k.len()
                {
                    let n = buf.len().min(k.len() - *at);
                    buf[..n].copy_from_slice(&k[*at..*at + n]);
                    *at += n;
                    return Ok(n);
                }
                let n = reader.read(buf)?;
                if let Some(k) = kept {
                    if k.len() + n > HTML_REREAD_LIMIT {
                        *kept = None;
                    } else {
                        k.extend_from_slice(&buf[..n]);
                        *at = k.len();
                    }
                }
                Ok(n)
            }
            Source::Seekable { reader, .. } => reader.read(buf),
        }
    }
}

/// Reads an HTML document from `reader`, giving every URL to `sink` in
/// document order; gives the encoding it was read in. `<base href>` sets
/// the base of the URLs after it (HTML's base is the first `base` element
/// with `href`).
///
/// The encoding (HTML §13.2.3): a byte order mark or the caller's is
/// certain; the prescan's or the guess's is tentative, and the first
/// `<meta>` with a charset the parser meets makes it certain, or, naming
/// another encoding, has the document read again from the start in that
/// one (§13.2.3.4). While it is tentative, the items found are held.
pub(crate) fn scan_html(
    options: &Options,
    mut source: Source<'_>,
    sink: &mut dyn FnMut(Found) -> io::Result<()>,
) -> io::Result<&'static Encoding> {
    let mut head = input::read_head(&mut source, 1024)?;
    let detected = input::detect_html(&mut head, &mut source, options.encoding)?;
    let mut encoding = detected.encoding;
    let mut tentative = detected.tentative;
    let mut bom = detected.bom;
    let mut find_meta = false;
    if !tentative {
        source.forget();
    }
    loop {
        if encoding == encoding_rs::REPLACEMENT {
            sink(replacement(encoding))?;
            return Ok(encoding);
        }
        let pass = Pass {
            options,
            encoding,
            bom,
            tentative,
            find_meta,
        };
        match pass.run(&mut source, std::mem::take(&mut head), sink)? {
            Next::Again(new) if source.rewind()? => {
                encoding = new;
                tentative = false;
                find_meta = false;
                bom = 0;
                source.forget();
            }
            Next::FindMeta if source.rewind()? => {
                find_meta = true;
                bom = 0;
            }
            _ => return Ok(encoding),
        }
    }
}

/// The finding of a document in the replacement encoding.
fn replacement(encoding: &'static Encoding) -> Found {
    let message = "the document declares a label of the replacement encoding (WHATWG Encoding §4.2, §14.1: csiso2022kr, hz-gb-2312, iso-2022-cn, iso-2022-cn-ext, iso-2022-kr, replacement): browsers decode it as a single U+FFFD (HTML §13.2.3), so no element of it is seen and no link followed, and no IRI of it is reported; declare the encoding the document is in".to_owned();
    Found {
        offset: 0,
        line: 1,
        column: 1,
        role: Role::default(),
        what: What::DocumentFinding {
            code: Code::DocumentReplacementEncoding,
            message,
        },
        encoding: encoding.name(),
        undecodable: None,
        absolute_only: false,
    }
}

/// One reading of the document in one encoding.
struct Pass<'o> {
    options: &'o Options,
    encoding: &'static Encoding,
    bom: usize,
    tentative: bool,
    /// Only to find the first `<meta>` (a file past the bound whose text
    /// has one): nothing is given, the document is read again after.
    find_meta: bool,
}

/// What follows a reading.
enum Next {
    /// Nothing: the document has been read.
    Done,
    /// Read it again from the start, in this encoding, now certain.
    Again(&'static Encoding),
    /// Read it again from the start only to find its first `<meta>`.
    FindMeta,
}

/// A `<meta>` with a charset, as the tree builder meets it (HTML
/// §13.2.6.4.4, "in head", a `meta` start tag): the encoding it names and
/// the offset of its attribute's value.
type MetaSeen = Rc<Cell<Option<(&'static Encoding, usize)>>>;

impl Pass<'_> {
    /// Reads the document from `source` (its first bytes in `head`), giving
    /// its items to `sink`; Some(encoding) when a `<meta>` changes the
    /// encoding and the document is to be read again from the start (or
    /// when a file past the hold bound is to be read again as certain).
    fn run(
        &self,
        source: &mut Source<'_>,
        head: Vec<u8>,
        sink: &mut dyn FnMut(Found) -> io::Result<()>,
    ) -> io::Result<Next> {
        let mut tentative = self.tentative;
        let seekable = matches!(source, Source::Seekable { .. });
        let mut decoded = Decoded::new(&mut *source, head, self.bom, self.encoding);
        let mut places = Places {
            tracker: Rc::default(),
            bom: self.bom as u64,
            encoding: self.encoding,
            bads: Rc::clone(&decoded.bad),
        };
        let found_attributes: Rc<RefCell<Vec<Attribute>>> = Rc::default();
        let meta: MetaSeen = Rc::default();
        // The start of the last tag, text or comment lol_html gave: no
        // position before it is asked for again.
        let done = Rc::new(Cell::new(0usize));
        // Finding the first `<meta>` only (a file past the bound), no
        // attribute is collected.
        let settings = handlers(
            tentative,
            !self.find_meta,
            Rc::clone(&found_attributes),
            Rc::clone(&meta),
            &done,
        );
        let settings = settings.with_memory_settings(
            MemorySettings::new().with_max_allowed_memory_usage(HTML_MEMORY_LIMIT),
        );
        let mut rewriter = Some(HtmlRewriter::new(settings, |_: &[u8]| {}));
        let mut base = self.options.base.clone();
        let mut base_set = false;
        let mut chunk = vec![0; CHUNK];
        let mut read = 0u64;
        // While the encoding is tentative and the document within the
        // bound, the items found are held; a file past the bound keeps
        // none (`muted`): it is read again once the encoding is certain.
        let mut holding = tentative && !self.find_meta;
        let mut held: Vec<Found> = Vec::new();
        let muted = self.find_meta;
        // The chunk before this one, for `skim_for_meta`.
        let mut previous: Vec<u8> = Vec::new();
        loop {
            let n = read_chunk(&mut decoded, &mut chunk)?;
            if !muted {
                places.tracker.borrow_mut().push(&chunk[..n]);
            }
            let result = match (n, rewriter.as_mut()) {
                (0, _) => rewriter.take().map_or(Ok(()), HtmlRewriter::end),
                (_, Some(r)) => r.write(&chunk[..n]),
                (_, None) => Ok(()),
            };
            read += n as u64;
            let stopped = result.is_err();
            let ready = std::mem::take(&mut *found_attributes.borrow_mut());
            // This chunk's items, in document order: a finding about a
            // `<meta>` goes among them. Muted, nothing is given: the
            // document is read again.
            let ready = if muted { Vec::new() } else { ready };
            let mut batch =
                chunk_items(&mut places, ready, &mut base, &mut base_set, read, result)?;
            if tentative {
                if let Some((new, at)) = meta.take() {
                    // HTML §13.2.3.4: the same encoding makes it certain;
                    // another has the document read again from the start.
                    tentative = false;
                    if muted || (new != self.encoding && decoded.inner_mut().rewindable()) {
                        return Ok(Next::Again(new));
                    }
                    if new != self.encoding {
                        let f = not_reread(&mut places, at as u64, self.encoding, new);
                        let k = batch.partition_point(|b| b.offset <= f.offset);
                        batch.insert(k, f);
                    }
                    holding = false;
                    for f in held.drain(..) {
                        sink(f)?;
                    }
                    decoded.inner_mut().forget();
                } else if holding && read > HTML_REREAD_LIMIT as u64 {
                    holding = false;
                    if seekable {
                        // A file: what is held is dropped, and it is read
                        // again. Whether it has a `<meta>` at all is a
                        // scan of its text (this chunk, the one before,
                        // which may hold the start of a tag lol_html has
                        // not finished, and the rest), much quicker than
                        // tokenizing it.
                        let meta_ahead = skim_for_meta(&previous, &chunk[..n], &mut decoded)?;
                        return Ok(if meta_ahead {
                            Next::FindMeta
                        } else {
                            Next::Again(self.encoding)
                        });
                    } else {
                        // A stream past the bound: what is held is given,
                        // and a change after this cannot be read again.
                        for f in held.drain(..) {
                            sink(f)?;
                        }
                    }
                }
            }
            if holding {
                held.append(&mut batch);
            } else if !muted {
                for f in batch {
                    sink(f)?;
                }
            }
            if stopped {
                break;
            }
            // Nothing before the last tag, text or comment is asked for
            // again, nor anything lol_html cannot hold any more.
            if !muted {
                let limit = read.saturating_sub(HTML_MEMORY_LIMIT as u64);
                places
                    .tracker
                    .borrow_mut()
                    .locate((done.get() as u64).max(limit));
            }
            if n == 0 {
                break;
            }
            if holding {
                previous.clear();
                previous.extend_from_slice(&chunk[..n]);
            }
        }
        if muted {
            // Read to its end without a `<meta>` that counts: read again,
            // the encoding now certain, to give its items.
            return Ok(Next::Again(self.encoding));
        }
        for f in held {
            sink(f)?;
        }
        Ok(Next::Done)
    }
}

/// lol_html's handlers: a `<meta>`'s charset into `meta` (when
/// `watch_meta`), the URL attributes of every element into `found` (when
/// `collecting`), and in `done` the start of the last tag, text or comment
/// lol_html gave.
fn handlers(
    watch_meta: bool,
    collecting: bool,
    found: Rc<RefCell<Vec<Attribute>>>,
    meta: MetaSeen,
    done: &Rc<Cell<usize>>,
) -> Settings<'static, 'static> {
    let (t, m) = (found, meta);
    let (d0, d1, d2) = (Rc::clone(done), Rc::clone(done), Rc::clone(done));
    Settings::new()
        .append_element_content_handler(element!("*", move |el| {
            let tag = el.tag_name();
            if watch_meta && tag == "meta" && m.get().is_none() {
                m.set(meta_charset(el));
            }
            if !collecting {
                return Ok(());
            }
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
        }))
}

/// Whether `<meta` (in any case) is in `previous`, `current` or the rest of
/// `decoded`, which this reads to its end: where there is none, no `meta`
/// element can change the encoding.
fn skim_for_meta(previous: &[u8], current: &[u8], decoded: &mut impl Read) -> io::Result<bool> {
    let has = |bytes: &[u8]| {
        memchr::memchr_iter(b'<', bytes).any(|i| {
            bytes
                .get(i + 1..i + 5)
                .is_some_and(|w| w.eq_ignore_ascii_case(b"meta"))
        })
    };
    // Each piece with the last four bytes before it.
    let mut buf = vec![0; CHUNK + 4];
    let mut carry: Vec<u8> = Vec::with_capacity(4);
    for piece in [previous, current] {
        let mut joined = std::mem::take(&mut carry);
        joined.extend_from_slice(piece);
        if has(&joined) {
            return Ok(true);
        }
        carry = joined[joined.len().saturating_sub(4)..].to_vec();
    }
    loop {
        let k = carry.len();
        buf[..k].copy_from_slice(&carry);
        let n = read_chunk(decoded, &mut buf[k..k + CHUNK])?;
        if n == 0 {
            return Ok(false);
        }
        if has(&buf[..k + n]) {
            return Ok(true);
        }
        carry = buf[(k + n).saturating_sub(4)..k + n].to_vec();
    }
}

/// The encoding a `meta` element names as the tree builder reads it (HTML
/// §13.2.6.4.4, "in head", a start tag "meta"): its `charset`, else the
/// charset in the `content` of one with `http-equiv="Content-Type"`; and
/// the offset of that attribute's value. A `meta` inside SVG or MathML
/// counts too: it breaks out of foreign content (§13.2.6.5).
fn meta_charset(
    el: &lol_html::html_content::Element<'_, '_>,
) -> Option<(&'static Encoding, usize)> {
    let at = |name: &str| {
        el.attributes()
            .iter()
            .find(|a| a.name() == name)
            .and_then(|a| a.value_source_location())
            .map_or(0, |l| l.bytes().start)
    };
    if let Some(charset) = el.get_attribute("charset")
        && let Some(e) = input::meta_encoding(charset.trim_matches(is_ascii_space).as_bytes())
    {
        return Some((e, at("charset")));
    }
    let pragma = el
        .get_attribute("http-equiv")
        .is_some_and(|v| v.eq_ignore_ascii_case("content-type"));
    let content = el.get_attribute("content")?;
    if !pragma {
        return None;
    }
    let e = input::charset_from_content(content.as_bytes())?;
    Some((e, at("content")))
}

/// The finding of a `<meta>` that changes a tentative encoding in a stream
/// that cannot be read again.
fn not_reread(
    places: &mut Places,
    at: u64,
    current: &'static Encoding,
    new: &'static Encoding,
) -> Found {
    let message = format!(
        "this <meta> names the encoding {}, and the document is read as {} (a guess, tentative): a browser reads the document again from the start in {} (HTML §13.2.3.4), but it comes from a stream past the first {} MiB, which are no longer held: it is read on as {}, and the IRIs before it were reported as read in it; give --encoding {}, read it from a file, or move the <meta> into the first 1,024 bytes",
        new.name(),
        current.name(),
        new.name(),
        HTML_REREAD_LIMIT >> 20,
        current.name(),
        new.name(),
    );
    places.found(
        at,
        Role::markup(Position::None, "meta", None),
        What::DocumentFinding {
            code: Code::DocumentEncodingNotReread,
            message,
        },
    )
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

/// The items of one chunk, in document order: the URLs of its attributes
/// `ready` (following `<base href>`), then the document error where the
/// tokenizer stopped (`result`, after `read` bytes).
fn chunk_items(
    places: &mut Places,
    ready: Vec<Attribute>,
    base: &mut Option<String>,
    base_set: &mut bool,
    read: u64,
    result: Result<(), RewritingError>,
) -> io::Result<Vec<Found>> {
    let mut batch: Vec<Found> = Vec::new();
    let mut out = |f: Found| -> io::Result<()> {
        batch.push(f);
        Ok(())
    };
    for a in ready {
        emit(places, a, base, base_set, &mut out)?;
    }
    if let Err(e) = result {
        let error = overrun(places, read, e)?;
        out(error)?;
    }
    Ok(batch)
}

/// Gives the URLs of one attribute to `sink`, following `<base href>`.
fn emit(
    places: &mut Places,
    a: Attribute,
    base: &mut Option<String>,
    base_set: &mut bool,
    sink: &mut impl FnMut(Found) -> io::Result<()>,
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
