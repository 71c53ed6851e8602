//! HTML, XML and RDF/XML.
//!
//! HTML: lol_html tokenizes the document as an HTML5 parser does, in
//! constant memory, and gives each attribute's value as written and the
//! byte offset where it starts; its character references are decoded with
//! the HTML5 table quick-xml carries.
//!
//! XML: quick-xml reads the events; an attribute value's place in the
//! event's bytes gives its position. RDF/XML is read the same way, with the
//! IRIs of RDF/XML's syntax, while oxrdfxml parses the same bytes on a
//! thread of its own and reports the document's syntax errors.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::io::{self, BufReader, Read};
use std::rc::Rc;
use std::sync::mpsc;

use lol_html::{doc_comments, doc_text, element, HtmlRewriter, Settings};
use quick_xml::events::{BytesStart, Event};
use quick_xml::name::ResolveResult;
use quick_xml::NsReader;

use super::position::Tracker;
use super::{resolve_relative, Doc, DocFormat, Found, What};

/// Bytes read from the document at a time.
const CHUNK: usize = 64 * 1024;

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
    /// The byte offset of the value's first character (after the quote,
    /// if quoted).
    start: usize,
}

/// Reads an HTML document, giving every URL to `sink` in document order.
/// `<base href>` sets the base of the URLs after it (HTML's base is the
/// first `base` element with `href`).
pub(crate) fn scan_html(
    doc: &Doc<'_>,
    mut reader: impl Read,
    sink: &mut dyn FnMut(Found) -> io::Result<()>,
) -> io::Result<()> {
    let found_attributes: Rc<RefCell<Vec<Attribute>>> = Rc::default();
    // The end of the last text or comment lol_html gave: no position
    // before it is asked for again.
    let done = Rc::new(Cell::new(0usize));
    let (t, d1, d2) = (
        Rc::clone(&found_attributes),
        Rc::clone(&done),
        Rc::clone(&done),
    );
    let settings = Settings::new()
        .append_element_content_handler(element!("*", move |el| {
            let tag = el.tag_name();
            for a in el.attributes() {
                let name = a.name();
                if !URL_ATTRIBUTES.contains(&name.as_str()) {
                    continue;
                }
                let Some(value) = a.value_source_location() else {
                    continue;
                };
                t.borrow_mut().push(Attribute {
                    tag: tag.clone(),
                    name,
                    raw: a.value(),
                    start: value.bytes().start,
                });
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
    let mut rewriter = HtmlRewriter::new(settings, |_: &[u8]| {});
    let mut tracker = Tracker::default();
    let mut base = doc.base.clone();
    let mut base_set = false;
    let mut chunk = vec![0; CHUNK];
    loop {
        let n = doc.read(&mut reader, &mut chunk)?;
        tracker.push(&chunk[..n]);
        if n > 0 {
            rewriter.write(&chunk[..n]).map_err(io::Error::other)?;
        }
        let ready = std::mem::take(&mut *found_attributes.borrow_mut());
        for a in ready {
            let start = a.start as u64;
            if a.name == "srcset" {
                let value = decode_references(&a.raw);
                let urls = srcset_urls(&value);
                let places = srcset_urls(&a.raw);
                for (k, (_, url)) in urls.iter().enumerate() {
                    // Character references can move the URLs: then each
                    // is placed at the attribute's start.
                    let offset = match places.get(k) {
                        Some((o, _)) if places.len() == urls.len() => start + *o as u64,
                        _ => start,
                    };
                    let (line, column) = tracker.locate(offset);
                    sink(found(offset, line, column, url, base.as_deref()))?;
                }
                continue;
            }
            let (line, column) = tracker.locate(start);
            let item = found(
                start,
                line,
                column,
                &decode_references(&a.raw),
                base.as_deref(),
            );
            if a.tag == "base" && a.name == "href" && !base_set {
                base_set = true;
                if let What::Reference { written, resolved } = &item.what {
                    base = Some(resolved.clone().unwrap_or_else(|| written.clone()));
                }
            }
            sink(item)?;
        }
        // Nothing before the last text or comment is asked for again.
        tracker.locate(done.get() as u64);
        if n == 0 {
            break;
        }
    }
    rewriter.end().map_err(io::Error::other)
}

/// `raw` with its character references decoded (HTML Living Standard
/// §13.2.5.72): `&name;` (the HTML5 named references) and `&#N;`,
/// `&#xH;`. An `&` that starts no reference stays (`?a=1&b=2`).
fn decode_references(raw: &str) -> Cow<'_, str> {
    if !raw.contains('&') {
        return Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let name_len = rest[1..]
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'#')
            .count();
        let decoded = if rest.as_bytes().get(1 + name_len) == Some(&b';') {
            let name = &rest[1..1 + name_len];
            let numeric = match name.strip_prefix('#') {
                Some(n) => match n.strip_prefix(['x', 'X']) {
                    Some(h) => u32::from_str_radix(h, 16).ok(),
                    None => n.parse().ok(),
                }
                .map(|c| char::from_u32(c).unwrap_or('\u{FFFD}').to_string()),
                None => quick_xml::escape::resolve_html5_entity(name).map(str::to_owned),
            };
            numeric.map(|text| (text, name_len + 2))
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
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// An IRI reference found at `offset`, resolved against `base` when it is
/// relative. Spaces around an attribute's URL are not part of it (HTML
/// strips leading and trailing ASCII whitespace from URLs).
fn found(offset: u64, line: usize, column: usize, value: &str, base: Option<&str>) -> Found {
    let written = value.to_owned();
    Found {
        offset,
        line,
        column,
        what: What::Reference {
            resolved: resolve_relative(base, &written),
            written,
        },
    }
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

/// A reader that hands each chunk it reads to a second reader's channel
/// and to a position tracker.
struct Tee<R> {
    inner: R,
    copy: Option<mpsc::SyncSender<Vec<u8>>>,
    tracker: Rc<RefCell<Tracker>>,
    doc_progress: Box<dyn Fn(usize)>,
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        (self.doc_progress)(n);
        self.tracker.borrow_mut().push(&buf[..n]);
        if let Some(copy) = &self.copy {
            if n > 0 && copy.send(buf[..n].to_vec()).is_err() {
                // The parser of record stopped: its findings are in.
                self.copy = None;
            }
        }
        Ok(n)
    }
}

/// The receiving end of a [`Tee`]: the chunks, as a reader.
struct Chunks {
    from: mpsc::Receiver<Vec<u8>>,
    chunk: Vec<u8>,
    at: usize,
    tracker: Rc<RefCell<Tracker>>,
}

impl Read for Chunks {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.chunk.len() {
            match self.from.recv() {
                Ok(chunk) => {
                    self.tracker.borrow_mut().push(&chunk);
                    self.chunk = chunk;
                    self.at = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.chunk.len() - self.at);
        buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// What oxrdfxml's thread says.
enum Said {
    Error(Found),
    /// It has parsed everything before this offset.
    At(u64),
}

/// oxrdfxml on a thread of its own: the chunks in, its syntax errors (with
/// their positions) and its progress out.
fn spawn_rdfxml(
    base: Option<String>,
) -> (
    mpsc::SyncSender<Vec<u8>>,
    mpsc::Receiver<Said>,
    std::thread::JoinHandle<()>,
) {
    let (chunks_in, chunks_out) = mpsc::sync_channel::<Vec<u8>>(4);
    let (said_in, said_out) = mpsc::channel();
    let handle = std::thread::spawn(move || {
        let tracker = Rc::new(RefCell::new(Tracker::default()));
        let reader = Chunks {
            from: chunks_out,
            chunk: Vec::new(),
            at: 0,
            tracker: Rc::clone(&tracker),
        };
        let parser = oxrdfxml::RdfXmlParser::new().lenient();
        let parser = match &base {
            Some(b) => parser.clone().with_base_iri(b).unwrap_or(parser),
            None => parser,
        };
        let mut parser = parser.for_reader(reader);
        let mut last_error = None;
        loop {
            let next = parser.next();
            // quick-xml's offsets (under oxrdfxml) start after a byte
            // order mark.
            let at = parser.buffer_position() + tracker.borrow().bom_len();
            match next {
                None => break,
                Some(Ok(_)) => {}
                Some(Err(oxrdfxml::RdfXmlParseError::Io(_))) => break,
                Some(Err(oxrdfxml::RdfXmlParseError::Syntax(e))) => {
                    // An error the reader cannot get past comes back at
                    // the same place: once is enough.
                    if last_error == Some(at) {
                        break;
                    }
                    last_error = Some(at);
                    let (line, column) = tracker.borrow_mut().locate(at);
                    let error = Found {
                        offset: at,
                        line,
                        column,
                        what: What::SyntaxError {
                            message: e.to_string(),
                        },
                    };
                    if said_in.send(Said::Error(error)).is_err() {
                        break;
                    }
                }
            }
            tracker.borrow_mut().locate(at);
            if said_in.send(Said::At(at)).is_err() {
                break;
            }
        }
    });
    (chunks_in, said_out, handle)
}

/// The RDF namespace, whose syntax names are not IRIs of the graph.
const RDF: &[u8] = b"http://www.w3.org/1999/02/22-rdf-syntax-ns#";
const XML: &[u8] = b"http://www.w3.org/XML/1998/namespace";
const XSI: &[u8] = b"http://www.w3.org/2001/XMLSchema-instance";

/// Reads an XML (or, `rdf`, RDF/XML) document, giving every IRI (and
/// syntax error) to `sink` in document order.
pub(crate) fn scan_xml(
    doc: &Doc<'_>,
    reader: impl Read,
    sink: &mut dyn FnMut(Found) -> io::Result<()>,
) -> io::Result<()> {
    let rdf = doc.format == DocFormat::Rdfxml;
    let tracker = Rc::new(RefCell::new(Tracker::default()));
    let worker = rdf.then(|| spawn_rdfxml(doc.base.clone()));
    let progress = doc.progress_fn();
    let tee = Tee {
        inner: reader,
        copy: worker.as_ref().map(|w| w.0.clone()),
        tracker: Rc::clone(&tracker),
        doc_progress: progress,
    };
    let (said, handle) = match worker {
        Some((chunks, said, handle)) => {
            // The tee holds the only sender left.
            drop(chunks);
            (Some(said), Some(handle))
        }
        None => (None, None),
    };
    let mut merge = Merge {
        mine: Vec::new(),
        theirs: Vec::new(),
        their_at: if said.is_some() { 0 } else { u64::MAX },
        said,
    };
    let mut xml = NsReader::from_reader(BufReader::with_capacity(CHUNK, tee));
    xml.config_mut().check_end_names = true;
    // The base of each open element (xml:base, XML Base §4.1).
    let mut bases: Vec<Option<String>> = vec![doc.base.clone()];
    let mut buf = Vec::new();
    let mut stuck_at = None;
    loop {
        buf.clear();
        let before = xml.buffer_position();
        let event = xml.read_event_into(&mut buf);
        // quick-xml's offsets start after a byte order mark.
        let shift = tracker.borrow().bom_len();
        let at = before + shift;
        match event {
            Ok(Event::Eof) => break,
            Ok(Event::Start(e)) => {
                let base = element(&xml, &e, at, rdf, &bases, &tracker, &mut merge.mine);
                bases.push(base);
            }
            Ok(Event::Empty(e)) => {
                element(&xml, &e, at, rdf, &bases, &tracker, &mut merge.mine);
            }
            Ok(Event::End(_)) => {
                if bases.len() > 1 {
                    bases.pop();
                }
            }
            Ok(_) => {}
            Err(e) => {
                let position = xml.error_position() + shift;
                // RDF/XML's errors are oxrdfxml's to report.
                if !rdf {
                    let (line, column) = tracker.borrow_mut().locate(position);
                    merge.mine.push(Found {
                        offset: position,
                        line,
                        column,
                        what: What::SyntaxError {
                            message: e.to_string(),
                        },
                    });
                }
                if stuck_at == Some(xml.buffer_position()) {
                    break;
                }
                stuck_at = Some(xml.buffer_position());
            }
        }
        // No position before the reader's is asked for again.
        tracker.borrow_mut().locate(xml.buffer_position() + shift);
        merge.drain(xml.buffer_position() + shift, sink)?;
    }
    // Close the tee's channel, so that oxrdfxml sees the end.
    drop(xml);
    if let Some(handle) = handle {
        if let Some(said) = merge.said.take() {
            while let Ok(s) = said.recv() {
                merge.take(s);
            }
        }
        let _ = handle.join();
    }
    merge.their_at = u64::MAX;
    merge.drain(u64::MAX, sink)
}

/// The IRIs of one element: its namespace declarations, `xml:base`,
/// `xsi:schemaLocation` and `xsi:noNamespaceSchemaLocation`; in RDF/XML
/// also its name (a property or a type), `rdf:about`, `rdf:resource`,
/// `rdf:datatype`, `rdf:ID` and the names of property attributes. Gives
/// the element's base.
fn element<R>(
    xml: &NsReader<R>,
    e: &BytesStart<'_>,
    at: u64,
    rdf: bool,
    bases: &[Option<String>],
    tracker: &RefCell<Tracker>,
    out: &mut Vec<Found>,
) -> Option<String> {
    let content: &[u8] = e;
    // The offset of a slice of the event's bytes in the document: the
    // event starts with its '<'.
    let offset_of = |part: &[u8]| -> u64 {
        let delta = (part.as_ptr() as usize).wrapping_sub(content.as_ptr() as usize);
        at + 1 + delta.min(content.len()) as u64
    };
    // The element's own xml:base applies to its other attributes (XML Base
    // §4.2); it is itself resolved against the parent's.
    let parent = bases.last().cloned().flatten();
    let mut base = parent.clone();
    for attribute in e.attributes().with_checks(false).flatten() {
        if let (ResolveResult::Bound(ns), local) = xml.resolve_attribute(attribute.key) {
            if ns.as_ref() == XML && local.as_ref() == b"base" {
                let value = attribute
                    .unescape_value()
                    .map(Cow::into_owned)
                    .unwrap_or_else(|_| String::from_utf8_lossy(&attribute.value).into_owned());
                base = Some(resolve_relative(parent.as_deref(), &value).unwrap_or(value));
            }
        }
    }
    let mut push = |offset: u64, what: What| {
        let (line, column) = tracker.borrow_mut().locate(offset);
        out.push(Found {
            offset,
            line,
            column,
            what,
        });
    };
    if rdf {
        let (ns, local) = xml.resolve_element(e.name());
        if let ResolveResult::Bound(ns) = ns {
            let syntax =
                ns.as_ref() == RDF && matches!(local.as_ref(), b"RDF" | b"Description" | b"li");
            if !syntax {
                push(
                    at + 1,
                    What::Name {
                        written: String::from_utf8_lossy(e.name().as_ref()).into_owned(),
                        iri: format!(
                            "{}{}",
                            String::from_utf8_lossy(ns.as_ref()),
                            String::from_utf8_lossy(local.as_ref())
                        ),
                    },
                );
            }
        }
    }
    for attribute in e.attributes().with_checks(false).flatten() {
        let key = attribute.key;
        let value_at = match &attribute.value {
            Cow::Borrowed(v) => offset_of(v),
            Cow::Owned(_) => offset_of(key.as_ref()),
        };
        let value = attribute
            .unescape_value()
            .map(Cow::into_owned)
            .unwrap_or_else(|_| String::from_utf8_lossy(&attribute.value).into_owned());
        let reference = |written: &str, base: Option<&str>| What::Reference {
            resolved: resolve_relative(base, written),
            written: written.to_owned(),
        };
        if key.as_namespace_binding().is_some() {
            // A namespace name: an IRI, not resolved (Namespaces in XML
            // 1.0 §2.2 deprecates relative ones).
            push(
                value_at,
                What::Reference {
                    written: value,
                    resolved: None,
                },
            );
            continue;
        }
        let (ns, local) = xml.resolve_attribute(key);
        let ResolveResult::Bound(ns) = ns else {
            continue;
        };
        match (ns.as_ref(), local.as_ref()) {
            (XML, b"base") => push(value_at, reference(&value, parent.as_deref())),
            (XSI, b"schemaLocation") => {
                // Pairs of namespace name and location, separated by white
                // space (XML Schema Part 1 §4.3.2): the locations are
                // resolved.
                let raw = match &attribute.value {
                    Cow::Borrowed(v) => Some(*v),
                    Cow::Owned(_) => None,
                };
                for (k, (o, word)) in words(&value).into_iter().enumerate() {
                    let offset = match raw {
                        Some(v) if !v.contains(&b'&') => value_at + o as u64,
                        _ => value_at,
                    };
                    if k % 2 == 0 {
                        push(
                            offset,
                            What::Reference {
                                written: word.to_owned(),
                                resolved: None,
                            },
                        );
                    } else {
                        push(offset, reference(word, base.as_deref()));
                    }
                }
            }
            (XSI, b"noNamespaceSchemaLocation") => {
                push(value_at, reference(value.trim(), base.as_deref()));
            }
            (RDF, b"about" | b"resource" | b"datatype") if rdf => {
                push(value_at, reference(&value, base.as_deref()));
            }
            (RDF, b"ID") if rdf => {
                // RDF/XML §5.2: rdf:ID="name" is the IRI base#name.
                let iri = match &base {
                    Some(b) => format!("{}#{value}", b.split('#').next().unwrap_or(b)),
                    None => format!("#{value}"),
                };
                push(
                    value_at,
                    What::Name {
                        written: value,
                        iri,
                    },
                );
            }
            (RDF | XML, _) => {}
            (ns, local) if rdf => {
                // A property attribute: its name is the property's IRI.
                push(
                    offset_of(key.as_ref()),
                    What::Name {
                        written: String::from_utf8_lossy(key.as_ref()).into_owned(),
                        iri: format!(
                            "{}{}",
                            String::from_utf8_lossy(ns),
                            String::from_utf8_lossy(local)
                        ),
                    },
                );
            }
            _ => {}
        }
    }
    base
}

/// The words of `text` separated by XML white space, with their byte
/// offsets.
fn words(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
        let space = matches!(c, ' ' | '\t' | '\n' | '\r');
        match (space, start) {
            (true, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    out
}

/// Our findings and oxrdfxml's errors, merged by offset.
struct Merge {
    mine: Vec<Found>,
    theirs: Vec<Found>,
    /// oxrdfxml has parsed everything before this offset.
    their_at: u64,
    said: Option<mpsc::Receiver<Said>>,
}

impl Merge {
    fn take(&mut self, said: Said) {
        match said {
            Said::Error(f) => self.theirs.push(f),
            Said::At(at) => self.their_at = self.their_at.max(at),
        }
    }

    /// Writes what is known to come first: one of our findings once
    /// oxrdfxml is past it, one of its errors once we are.
    fn drain(
        &mut self,
        my_at: u64,
        sink: &mut dyn FnMut(Found) -> io::Result<()>,
    ) -> io::Result<()> {
        if let Some(said) = &self.said {
            let news: Vec<Said> = said.try_iter().collect();
            for s in news {
                self.take(s);
            }
        }
        let (mut i, mut j) = (0, 0);
        loop {
            let mine = self.mine.get(i).map(|f| f.offset);
            let theirs = self.theirs.get(j).map(|f| f.offset);
            match (mine, theirs) {
                (Some(m), Some(t)) if t <= m => j += 1,
                (Some(m), _) if m < self.their_at => i += 1,
                (None, Some(t)) if t < my_at => j += 1,
                _ => break,
            }
        }
        let mine: Vec<Found> = self.mine.drain(..i).collect();
        let theirs: Vec<Found> = self.theirs.drain(..j).collect();
        super::merge_in_order(mine, theirs, sink)
    }
}

#[cfg(test)]
mod tests {
    use super::{decode_references, srcset_urls, words};

    #[test]
    fn decodes_references() {
        assert_eq!(
            decode_references("/a?b=1&amp;c=&#x2F;&#47;&eacute;&d=2&nope;&"),
            "/a?b=1&c=//é&d=2&nope;&"
        );
    }

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

    #[test]
    fn splits_words() {
        assert_eq!(words(" a\tbc "), [(1, "a"), (3, "bc")]);
    }
}
