//! XML and RDF/XML.
//!
//! quick-xml reads the events; an attribute value's place in the event's
//! bytes gives its position. Namespaces are resolved here, in a table with
//! one entry per prefix (quick-xml's resolver searches its bindings one by
//! one for each name), and so are the internal DTD's entities, within a
//! budget. RDF/XML is read the same way, with the IRIs of RDF/XML's syntax,
//! while oxrdfxml parses the same decoded text on a thread of its own and
//! reports the document's syntax errors.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::io::{self, BufReader, Read};
use std::rc::Rc;
use std::sync::mpsc;

use quick_xml::Reader;
use quick_xml::events::attributes::Attribute;
use quick_xml::events::{BytesStart, Event};

use super::input::{self, CHUNK, Decoded};
use super::markup::{Places, decode_references, reference};
use super::position::Tracker;
use super::{Format, Found, Options, Position, Role, TOKEN_LIMIT, What, resolve_relative};

/// The most the internal DTD's entities may expand to, all together, and
/// the most one attribute value may grow by entity references: past it,
/// the entities are not expanded (an entity-expansion attack, the "billion
/// laughs", would otherwise take gigabytes), and it is a document error.
pub const ENTITY_EXPANSION_LIMIT: usize = 1024 * 1024;

/// The RDF namespace, whose syntax names are not IRIs of the graph.
const RDF: &[u8] = b"http://www.w3.org/1999/02/22-rdf-syntax-ns#";
const XML: &[u8] = b"http://www.w3.org/XML/1998/namespace";
const XSI: &[u8] = b"http://www.w3.org/2001/XMLSchema-instance";

/// The namespace bindings in scope: one stack of names per prefix (the
/// empty prefix is the default namespace; an empty name undeclares it),
/// and which element declared what, to undo it at its end.
#[derive(Default)]
struct Namespaces {
    bound: HashMap<Vec<u8>, Vec<Rc<[u8]>>>,
    declared: Vec<(usize, Vec<u8>)>,
}

impl Namespaces {
    fn declare(&mut self, depth: usize, prefix: &[u8], name: &[u8]) {
        self.bound
            .entry(prefix.to_vec())
            .or_default()
            .push(Rc::from(name));
        self.declared.push((depth, prefix.to_vec()));
    }

    /// Undoes the declarations of the elements at `depth` and deeper.
    fn leave(&mut self, depth: usize) {
        while let Some((d, prefix)) = self.declared.last() {
            if *d < depth {
                break;
            }
            if let Some(names) = self.bound.get_mut(prefix) {
                names.pop();
                if names.is_empty() {
                    self.bound.remove(prefix);
                }
            }
            self.declared.pop();
        }
    }

    /// The namespace name of `prefix` (the `xml` prefix is bound by
    /// definition, Namespaces in XML 1.0 §3).
    fn resolve(&self, prefix: &[u8]) -> Option<&[u8]> {
        if prefix == b"xml" {
            return Some(XML);
        }
        let name = self.bound.get(prefix)?.last()?;
        (!name.is_empty()).then_some(name)
    }

    /// The namespace and local name of an element's qualified name (an
    /// unprefixed one is in the default namespace) or an attribute's (an
    /// unprefixed one is in none).
    fn split<'n>(&self, qname: &'n [u8], element: bool) -> (Option<&[u8]>, &'n [u8]) {
        match qname.iter().position(|&b| b == b':') {
            Some(i) => (self.resolve(&qname[..i]), &qname[i + 1..]),
            None if element => (self.resolve(b""), qname),
            None => (None, qname),
        }
    }
}

/// The base IRI of the open elements (XML Base §4.1), shared: one current
/// base, and for each open element that has its own `xml:base`, what it
/// changed, to undo it at the element's end. A chain of relative bases
/// thousands deep costs its own text, not thousands of copies of the base.
struct Bases {
    current: Option<String>,
    saved: Vec<Saved>,
}

struct Saved {
    depth: usize,
    /// The current base before: its first `keep` bytes, then `removed`
    /// (None when there was no base).
    keep: usize,
    removed: Option<String>,
}

impl Bases {
    fn enter(&mut self, depth: usize, new: String) {
        let saved = match &self.current {
            Some(old) => {
                let keep = common_prefix(old, &new);
                Saved {
                    depth,
                    keep,
                    removed: Some(old[keep..].to_owned()),
                }
            }
            None => Saved {
                depth,
                keep: 0,
                removed: None,
            },
        };
        self.saved.push(saved);
        self.current = Some(new);
    }

    fn leave(&mut self, depth: usize) {
        while self.saved.last().is_some_and(|s| s.depth >= depth) {
            if let Some(s) = self.saved.pop() {
                match (s.removed, &mut self.current) {
                    (Some(removed), Some(current)) => {
                        current.truncate(s.keep);
                        current.push_str(&removed);
                    }
                    _ => self.current = None,
                }
            }
        }
    }
}

/// The length of the longest common prefix of `a` and `b`, at a character
/// boundary.
fn common_prefix(a: &str, b: &str) -> usize {
    let n = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    (0..=n).rev().find(|&i| a.is_char_boundary(i)).unwrap_or(0)
}

/// The internal DTD's general entities, expanded within
/// [`ENTITY_EXPANSION_LIMIT`].
#[derive(Default)]
struct Entities {
    values: HashMap<String, String>,
}

impl Entities {
    /// The replacement text of `name`: XML's five, then the DTD's.
    fn get(&self, name: &str) -> Option<Cow<'_, str>> {
        quick_xml::escape::resolve_xml_entity(name)
            .map(Cow::Borrowed)
            .or_else(|| self.values.get(name).map(|v| Cow::Borrowed(v.as_str())))
    }

    /// `raw` with its references decoded; Err past the limit.
    fn decode<'a>(&self, raw: &'a str) -> Result<Cow<'a, str>, ()> {
        decode_references(raw, &|n| self.get(n), ENTITY_EXPANSION_LIMIT)
    }

    /// Reads the `<!ENTITY name "value">` declarations of a DOCTYPE's
    /// internal subset (parameter and external entities are left alone,
    /// as oxrdfxml leaves them); a reference to an entity declared before
    /// is expanded in the value, as oxrdfxml does. Err when the values
    /// would take more than the limit: then none past it is declared.
    fn declare_from(&mut self, doctype: &str) -> Result<(), ()> {
        let mut total = 0usize;
        let mut rest = doctype;
        while let Some(at) = rest.find("<!ENTITY") {
            rest = rest[at + 8..].trim_start();
            if rest.starts_with('%') {
                continue;
            }
            let name_end = rest
                .find(|c: char| c.is_ascii_whitespace())
                .unwrap_or(rest.len());
            let name = &rest[..name_end];
            rest = rest[name_end..].trim_start();
            let Some(quote) = rest.chars().next().filter(|c| matches!(c, '"' | '\'')) else {
                continue;
            };
            let Some(close) = rest[1..].find(quote) else {
                break;
            };
            let raw = &rest[1..1 + close];
            rest = &rest[1 + close..];
            let value = self.decode(raw)?;
            total += value.len();
            if total > ENTITY_EXPANSION_LIMIT {
                return Err(());
            }
            self.values
                .entry(name.to_owned())
                .or_insert_with(|| value.into_owned());
        }
        Ok(())
    }
}

/// What an element is to RDF/XML's striped syntax (RDF 1.1 XML Syntax
/// §2.2): `rdf:RDF`, a node, a property, or inside an XML literal.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stripe {
    Rdf,
    Node,
    Property,
    /// A property with `rdf:parseType="Resource"`: its children are
    /// properties.
    ResourceProperty,
    Literal,
}

/// What oxrdfxml may see of the decoded text: nothing past a DOCTYPE until
/// its entities are judged (oxrdfxml expands them without bound).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Gate {
    /// Held back after `from` (everything before it is given).
    Hold,
    Open,
    /// The entities are hostile: oxrdfxml is given nothing more.
    Shut,
}

/// Where the event quick-xml is reading starts, and whether it went on
/// past [`TOKEN_LIMIT`]: set by the reading loop and by the [`Tee`].
#[derive(Default)]
struct EventLimit {
    start: Cell<u64>,
    overrun: Cell<bool>,
}

/// A reader that hands each chunk it reads to oxrdfxml's channel (as the
/// gate allows) and to a position tracker, and refuses to read on once
/// the event quick-xml is in is longer than [`TOKEN_LIMIT`].
struct Tee<R> {
    inner: R,
    copy: Option<mpsc::SyncSender<Vec<u8>>>,
    gate: Rc<Cell<Gate>>,
    /// Bytes held back, and the decoded offset they start at.
    held: Vec<u8>,
    held_at: u64,
    tracker: Rc<RefCell<Tracker>>,
    /// The decoded bytes read so far.
    given: u64,
    limit: Rc<EventLimit>,
}

impl<R> Tee<R> {
    fn send(&mut self, bytes: Vec<u8>) {
        if let Some(copy) = &self.copy
            && !bytes.is_empty()
            && copy.send(bytes).is_err()
        {
            // The parser of record stopped: its findings are in.
            self.copy = None;
        }
    }

    /// Gives oxrdfxml the bytes held before `upto`.
    fn release(&mut self, upto: u64) {
        let n = usize::try_from(upto.saturating_sub(self.held_at))
            .unwrap_or(usize::MAX)
            .min(self.held.len());
        if n > 0 {
            let rest = self.held.split_off(n);
            let given = std::mem::replace(&mut self.held, rest);
            self.held_at += n as u64;
            self.send(given);
        }
    }

    /// Opens or shuts the gate.
    fn set(&mut self, gate: Gate) {
        self.gate.set(gate);
        match gate {
            Gate::Open => self.release(u64::MAX),
            Gate::Shut => {
                self.held = Vec::new();
                self.copy = None;
            }
            Gate::Hold => {}
        }
    }
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // quick-xml's buffered reader asks for more only once it has taken
        // every byte given, each into the event it is reading: the event
        // is longer than the bytes given since its start.
        if self.given.saturating_sub(self.limit.start.get()) > TOKEN_LIMIT as u64 {
            self.limit.overrun.set(true);
            return Err(io::Error::other(format!(
                "an event longer than {} MiB",
                TOKEN_LIMIT >> 20
            )));
        }
        let n = self.inner.read(buf)?;
        self.given += n as u64;
        self.tracker.borrow_mut().push(&buf[..n]);
        match self.gate.get() {
            Gate::Open => self.send(buf[..n].to_vec()),
            Gate::Hold => self.held.extend_from_slice(&buf[..n]),
            Gate::Shut => {}
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

/// A syntax error oxrdfxml found: its offset in the decoded text, line,
/// column and message.
struct TheirError {
    at: u64,
    line: usize,
    column: usize,
    message: String,
}

/// What oxrdfxml's thread says.
enum Said {
    Error(TheirError),
    /// It has parsed everything before this offset.
    At(u64),
}

/// oxrdfxml on a thread of its own: the chunks in, its syntax errors (with
/// their positions) and its progress out.
/// oxrdfxml's refusal of an XML declaration that names another encoding
/// than UTF-8: it is given the text decoded to UTF-8, so that one is not
/// the document's error.
const ONLY_UTF8: &str = "Only UTF-8 is supported by the RDF/XML parser";

fn spawn_rdfxml(
    base: Option<String>,
    decoded: bool,
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
            let at = parser.buffer_position();
            match next {
                None => break,
                Some(Ok(_)) => {}
                Some(Err(oxrdfxml::RdfXmlParseError::Io(_))) => break,
                Some(Err(oxrdfxml::RdfXmlParseError::Syntax(e)))
                    if decoded && e.to_string() == ONLY_UTF8 => {}
                Some(Err(oxrdfxml::RdfXmlParseError::Syntax(e))) => {
                    // An error the reader cannot get past comes back at
                    // the same place: once is enough.
                    if last_error == Some(at) {
                        break;
                    }
                    last_error = Some(at);
                    let (line, column) = tracker.borrow_mut().locate(at);
                    let error = TheirError {
                        at,
                        line,
                        column,
                        message: e.to_string(),
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

/// Everything the reading of one XML document keeps.
struct Scan {
    rdf: bool,
    places: Places,
    namespaces: Namespaces,
    bases: Bases,
    entities: Entities,
    /// RDF/XML's stripes of the open elements.
    stripes: Vec<Stripe>,
    depth: usize,
    mine: Vec<Found>,
}

/// Reads an XML (or, `rdf`, RDF/XML) document, giving every IRI (and
/// syntax error) to `sink` in document order.
pub(crate) fn scan_xml(
    options: &Options,
    mut reader: impl Read,
    sink: &mut dyn FnMut(Found) -> io::Result<()>,
) -> io::Result<()> {
    let rdf = options.format == Format::RdfXml;
    let head = input::read_head(&mut reader, 1024)?;
    let detected = input::detect_xml(&head, options.encoding);
    let tracker = Rc::new(RefCell::new(Tracker::default()));
    let decoded = Decoded::new(reader, head, detected.bom, detected.encoding);
    let places = Places {
        tracker: Rc::clone(&tracker),
        bom: detected.bom as u64,
        encoding: detected.encoding,
        bads: Rc::clone(&decoded.bad),
    };
    let mut scan = Scan::new(rdf, places, options.base.clone());
    if let Some(problem) = detected.problem {
        sink(scan.places.error(0, problem))?;
    }
    if detected.stop {
        return Ok(());
    }
    let decoded_from = detected.encoding;
    let worker =
        rdf.then(|| spawn_rdfxml(options.base.clone(), decoded_from != encoding_rs::UTF_8));
    let gate = Rc::new(Cell::new(if rdf { Gate::Hold } else { Gate::Open }));
    let limit = Rc::new(EventLimit::default());
    let tee = Tee {
        inner: decoded,
        copy: worker.as_ref().map(|w| w.0.clone()),
        gate: Rc::clone(&gate),
        held: Vec::new(),
        held_at: 0,
        tracker: Rc::clone(&tracker),
        given: 0,
        limit: Rc::clone(&limit),
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
        theirs: Vec::new(),
        their_at: if said.is_some() { 0 } else { u64::MAX },
        said,
    };
    let mut xml = Reader::from_reader(BufReader::with_capacity(CHUNK, tee));
    xml.config_mut().check_end_names = true;
    let mut buf = Vec::new();
    let mut stuck_at = None;
    // Where an event longer than the limit starts.
    let mut overrun_at = None;
    loop {
        buf.clear();
        let at = xml.buffer_position();
        limit.start.set(at);
        let event = xml.read_event_into(&mut buf);
        match event {
            Ok(Event::Eof) => break,
            Ok(Event::Start(e)) => {
                if gate.get() == Gate::Hold {
                    xml.get_mut().get_mut().set(Gate::Open);
                }
                scan.depth += 1;
                scan.element(&e, at);
            }
            Ok(Event::Empty(e)) => {
                if gate.get() == Gate::Hold {
                    xml.get_mut().get_mut().set(Gate::Open);
                }
                scan.depth += 1;
                scan.element(&e, at);
                scan.end();
            }
            Ok(Event::End(_)) => scan.end(),
            Ok(Event::DocType(t)) => {
                if !scan.doctype(&String::from_utf8_lossy(&t), at) {
                    if rdf {
                        xml.get_mut().get_mut().set(Gate::Shut);
                        merge.said = None;
                        merge.their_at = u64::MAX;
                    }
                } else if gate.get() == Gate::Hold {
                    xml.get_mut().get_mut().set(Gate::Open);
                }
            }
            Ok(_) => {
                if gate.get() == Gate::Hold {
                    let upto = xml.buffer_position();
                    xml.get_mut().get_mut().release(upto);
                }
            }
            Err(_) if limit.overrun.get() => {
                scan.overrun(at);
                overrun_at = Some(at);
                break;
            }
            Err(e) => {
                let position = xml.error_position();
                // RDF/XML's errors are oxrdfxml's to report.
                if !rdf {
                    let error = scan.places.error(position, e.to_string());
                    scan.mine.push(error);
                }
                if stuck_at == Some(xml.buffer_position()) {
                    break;
                }
                stuck_at = Some(xml.buffer_position());
            }
        }
        // No position before the reader's is asked for again.
        scan.places
            .tracker
            .borrow_mut()
            .locate(xml.buffer_position());
        merge.drain(&mut scan, xml.buffer_position(), sink)?;
    }
    if overrun_at.is_some() {
        // oxrdfxml is given nothing more: what it says of the end it sees
        // in the middle of the event is not the document's.
        xml.get_mut().get_mut().set(Gate::Shut);
    } else if gate.get() == Gate::Hold {
        xml.get_mut().get_mut().set(Gate::Open);
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
    if let Some(at) = overrun_at {
        merge.theirs.retain(|e| e.at < at);
    }
    merge.their_at = u64::MAX;
    merge.drain(&mut scan, u64::MAX, sink)
}

impl Scan {
    /// The reading of a document whose places `places` gives, against the
    /// caller's base.
    fn new(rdf: bool, places: Places, base: Option<String>) -> Scan {
        Scan {
            rdf,
            places,
            namespaces: Namespaces::default(),
            bases: Bases {
                current: base,
                saved: Vec::new(),
            },
            entities: Entities::default(),
            stripes: Vec::new(),
            depth: 0,
            mine: Vec::new(),
        }
    }

    /// The internal DTD at `at` (`text`): its entities declared, or, when
    /// they expand past the limit, none and a document error (false).
    fn doctype(&mut self, text: &str, at: u64) -> bool {
        if self.entities.declare_from(text).is_ok() {
            return true;
        }
        self.entities = Entities::default();
        let message = format!(
            "the internal DTD's entities expand to more than {} KiB (an entity-expansion attack such as the \"billion laughs\"): none is expanded{}",
            ENTITY_EXPANSION_LIMIT >> 10,
            if self.rdf {
                ", and the RDF/XML parser is not given the document"
            } else {
                ""
            }
        );
        let error = self.places.error(at, message);
        self.mine.push(error);
        false
    }

    /// The document error of an event at `at` longer than the token
    /// limit, after which the document is not read further.
    fn overrun(&mut self, at: u64) {
        let start = self.places.tracker.borrow().bytes_at(at, 9);
        let message = format!(
            "this {} is longer than {} MiB, the longest token the reader holds: the document is not read further",
            event_kind(&start),
            TOKEN_LIMIT >> 20
        );
        let error = self.places.error(at, message);
        self.mine.push(error);
    }

    /// The end of the element at `depth`.
    fn end(&mut self) {
        if self.depth == 0 {
            return;
        }
        self.namespaces.leave(self.depth);
        self.bases.leave(self.depth);
        if self.stripes.len() >= self.depth {
            self.stripes.truncate(self.depth - 1);
        }
        self.depth -= 1;
    }

    /// An attribute's value, its references decoded (a value that would
    /// grow past the entity limit is kept as written, with a document
    /// error).
    fn value(&mut self, raw: &str, at: u64) -> String {
        match self.entities.decode(raw) {
            Ok(v) => v.into_owned(),
            Err(()) => {
                let message = format!(
                    "this attribute value's entity references expand to more than {} KiB: it is kept as written",
                    ENTITY_EXPANSION_LIMIT >> 10
                );
                let error = self.places.error(at, message);
                self.mine.push(error);
                raw.to_owned()
            }
        }
    }

    /// The IRIs of one element (at `depth`, starting at `at`): its
    /// namespace declarations, `xml:base`, `xsi:schemaLocation` and
    /// `xsi:noNamespaceSchemaLocation`; in RDF/XML also its name (a
    /// property or a type), `rdf:about`, `rdf:resource`, `rdf:datatype`,
    /// `rdf:ID` and the names of property attributes.
    fn element(&mut self, e: &BytesStart<'_>, at: u64) {
        let attributes: Vec<_> = e.attributes().with_checks(false).flatten().collect();
        if attributes.is_empty() && !self.rdf {
            // Nothing to report, and no base or namespace to change.
            return;
        }
        let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
        // Its namespace declarations are in scope for its own name and
        // attributes (Namespaces in XML 1.0 §6.1).
        self.declare_namespaces(&attributes);
        let mut el = ElementAt {
            content: e,
            at,
            name: &name,
            parent: self.bases.current.clone(),
            base: None,
        };
        // The element's own xml:base applies to its other attributes (XML
        // Base §4.2); it is itself resolved against the parent's.
        for a in &attributes {
            if a.key.as_ref() == b"xml:base" {
                let raw = String::from_utf8_lossy(&a.value).into_owned();
                let value = self.value(&raw, el.offset_of(a.key.as_ref()));
                let new = resolve_relative(el.parent.as_deref(), &value).unwrap_or(value);
                self.bases.enter(self.depth, new);
            }
        }
        el.base = self.bases.current.clone();
        if self.rdf {
            self.rdf_element(e, &attributes, &el);
        }
        for a in &attributes {
            self.attribute(a, &el);
        }
    }

    /// The namespace declarations among an element's attributes.
    fn declare_namespaces(&mut self, attributes: &[Attribute<'_>]) {
        for a in attributes {
            let key = a.key.as_ref();
            let prefix = if key == b"xmlns" {
                Some(&b""[..])
            } else {
                key.strip_prefix(b"xmlns:")
            };
            if let Some(prefix) = prefix {
                let raw = String::from_utf8_lossy(&a.value);
                let name = self
                    .entities
                    .decode(&raw)
                    .unwrap_or(Cow::Borrowed(&raw))
                    .into_owned();
                self.namespaces.declare(self.depth, prefix, name.as_bytes());
            }
        }
    }

    /// An RDF/XML element: its stripe (node or property, RDF/XML §2.2),
    /// and its name as the IRI of a type or a property.
    fn rdf_element(
        &mut self,
        e: &BytesStart<'_>,
        attributes: &[Attribute<'_>],
        el: &ElementAt<'_>,
    ) {
        let parent_stripe = self.stripes.last().copied();
        let qname = e.name();
        let (ns, local) = self.namespaces.split(qname.as_ref(), true);
        let is_rdf = |name: &[u8]| ns == Some(RDF) && local == name;
        let parse_type = attributes.iter().find_map(|a| {
            let (ans, alocal) = self.namespaces.split(a.key.as_ref(), false);
            (ans == Some(RDF) && alocal == b"parseType").then(|| a.value.to_vec())
        });
        let this = match parent_stripe {
            None if is_rdf(b"RDF") => Stripe::Rdf,
            None | Some(Stripe::Rdf) | Some(Stripe::Property) => Stripe::Node,
            Some(Stripe::Node) | Some(Stripe::ResourceProperty) => match parse_type.as_deref() {
                Some(b"Resource") => Stripe::ResourceProperty,
                Some(b"Literal") => Stripe::Literal,
                _ => Stripe::Property,
            },
            Some(Stripe::Literal) => Stripe::Literal,
        };
        // Children of a property with parseType="Resource" are
        // properties.
        let this = match (parent_stripe, this) {
            (Some(Stripe::ResourceProperty), Stripe::Node) => Stripe::Property,
            (_, t) => t,
        };
        if let Some(ns) = ns {
            let syntax = ns == RDF && matches!(local, b"RDF" | b"Description" | b"li");
            if !syntax {
                let position = match this {
                    Stripe::Property | Stripe::ResourceProperty => Position::Predicate,
                    _ => Position::Type,
                };
                let what = What::Name {
                    written: el.name.to_owned(),
                    iri: format!(
                        "{}{}",
                        String::from_utf8_lossy(ns),
                        String::from_utf8_lossy(local)
                    ),
                };
                let item = self.places.found(el.at + 1, el.role(position, None), what);
                self.mine.push(item);
            }
        }
        while self.stripes.len() + 1 < self.depth {
            // Deeper than the stripes kept (after a recovered error).
            self.stripes.push(Stripe::Literal);
        }
        self.stripes.truncate(self.depth.saturating_sub(1));
        self.stripes.push(this);
    }

    /// An attribute's name: whether it declares a namespace, and its
    /// namespace and local name.
    fn qualified<'k>(&self, key: &'k [u8]) -> (bool, Option<Vec<u8>>, &'k [u8]) {
        let is_namespace = key == b"xmlns" || key.starts_with(b"xmlns:");
        let (ns, local): (Option<Vec<u8>>, &[u8]) = if is_namespace {
            (None, key)
        } else {
            let (ns, local) = self.namespaces.split(key, false);
            // RDF/XML §6.1.4: the unqualified attributes ID, about,
            // resource, parseType and type stand for the RDF
            // namespace's (an RDF/XML processor must support them).
            let unqualified_rdf = self.rdf
                && ns.is_none()
                && matches!(
                    local,
                    b"ID" | b"about" | b"resource" | b"parseType" | b"type"
                );
            if unqualified_rdf {
                (Some(RDF.to_vec()), local)
            } else {
                (ns.map(<[u8]>::to_vec), local)
            }
        };
        (is_namespace, ns, local)
    }

    /// The IRIs of one attribute of the element `el`.
    fn attribute(&mut self, a: &Attribute<'_>, el: &ElementAt<'_>) {
        let key = a.key.as_ref();
        let (value_at, raw): (u64, Cow<'_, str>) = match &a.value {
            Cow::Borrowed(v) => (el.offset_of(v), String::from_utf8_lossy(v)),
            Cow::Owned(v) => (
                el.offset_of(key),
                Cow::Owned(String::from_utf8_lossy(v).into_owned()),
            ),
        };
        let (is_namespace, ns, local) = self.qualified(key);
        let ns = ns.as_deref();
        let interesting = is_namespace
            || matches!(
                (ns, local),
                (Some(XML), b"base")
                    | (Some(XSI), b"schemaLocation" | b"noNamespaceSchemaLocation")
            )
            || (self.rdf && ns.is_some() && !matches!(ns, Some(XML)));
        if !interesting {
            return;
        }
        let value = self.value(&raw, value_at);
        let attribute = Some(key);
        let push = |scan: &mut Scan, offset: u64, position, what: What, raw_part: Option<&str>| {
            let mut item = scan
                .places
                .found(offset, el.role(position, attribute), what);
            if let Some(raw_part) = raw_part {
                item.undecodable = scan.places.undecodable(offset, raw_part, 0, |r| {
                    scan.entities
                        .decode(r)
                        .map(Cow::into_owned)
                        .unwrap_or_else(|()| r.to_owned())
                });
            }
            scan.mine.push(item);
        };
        if is_namespace {
            // A namespace name: an IRI, not resolved (Namespaces in XML
            // 1.0 §2.2 deprecates relative ones).
            let what = What::Reference {
                written: value,
                resolved: None,
            };
            push(self, value_at, Position::Namespace, what, Some(&raw));
            return;
        }
        match (ns, local) {
            (Some(XML), b"base") => {
                let what = reference(&value, el.parent.as_deref());
                push(self, value_at, Position::Base, what, Some(&raw));
            }
            (Some(XSI), b"schemaLocation") => {
                // Pairs of namespace name and location, separated by
                // white space (XML Schema Part 1 §4.3.2): the locations
                // are resolved.
                let exact = matches!(a.value, Cow::Borrowed(_)) && !raw.contains('&');
                for (k, (o, word)) in words(&value).into_iter().enumerate() {
                    let offset = if exact { value_at + o as u64 } else { value_at };
                    let what = if k % 2 == 0 {
                        What::Reference {
                            written: word.to_owned(),
                            resolved: None,
                        }
                    } else {
                        reference(word, el.base.as_deref())
                    };
                    let raw_part = exact.then_some(word);
                    push(self, offset, Position::SchemaLocation, what, raw_part);
                }
            }
            (Some(XSI), b"noNamespaceSchemaLocation") => {
                let what = reference(value.trim(), el.base.as_deref());
                push(self, value_at, Position::SchemaLocation, what, Some(&raw));
            }
            (Some(RDF), b"about" | b"resource" | b"datatype") if self.rdf => {
                let position = match local {
                    b"about" => Position::Subject,
                    b"resource" => Position::Object,
                    _ => Position::Datatype,
                };
                let what = reference(&value, el.base.as_deref());
                push(self, value_at, position, what, Some(&raw));
            }
            (Some(RDF), b"ID") if self.rdf => {
                // RDF/XML §5.2: rdf:ID="name" is the IRI base#name.
                let iri = match &el.base {
                    Some(b) => format!("{}#{value}", b.split('#').next().unwrap_or(b)),
                    None => format!("#{value}"),
                };
                let what = What::Name {
                    written: value,
                    iri,
                };
                push(self, value_at, Position::Subject, what, Some(&raw));
            }
            (Some(RDF), b"type") if self.rdf => {
                // A property attribute rdf:type: its value is an IRI,
                // resolved against the base (RDF/XML §2.13, grammar
                // §7.2.11 nodeElement and §7.2.21 emptyPropertyElt:
                // `uri(identifier:=resolve(a.string-value))`); the
                // attribute's name is the property rdf:type.
                let what = What::Name {
                    written: String::from_utf8_lossy(key).into_owned(),
                    iri: format!("{}type", String::from_utf8_lossy(RDF)),
                };
                push(self, el.offset_of(key), Position::Predicate, what, None);
                let what = reference(&value, el.base.as_deref());
                push(self, value_at, Position::Type, what, Some(&raw));
            }
            // The syntax terms (RDF/XML §7.2.2-7.2.5: coreSyntaxTerms,
            // rdf:li, rdf:Description, oldTerms) are no properties;
            // rdf:nodeID names a blank node, not an IRI.
            (
                Some(RDF),
                b"RDF" | b"ID" | b"about" | b"parseType" | b"resource" | b"nodeID" | b"datatype"
                | b"li" | b"Description" | b"aboutEach" | b"aboutEachPrefix" | b"bagID",
            )
            | (Some(XML), _) => {}
            (Some(ns), local) if self.rdf => {
                // A property attribute: its name is the property's IRI.
                let what = What::Name {
                    written: String::from_utf8_lossy(key).into_owned(),
                    iri: format!(
                        "{}{}",
                        String::from_utf8_lossy(ns),
                        String::from_utf8_lossy(local)
                    ),
                };
                push(self, el.offset_of(key), Position::Predicate, what, None);
            }
            _ => {}
        }
    }
}

/// An element whose attributes are read: where it is, its name and the
/// bases its attributes are resolved against.
struct ElementAt<'a> {
    /// The event's bytes (after its '<').
    content: &'a [u8],
    /// Where the event starts.
    at: u64,
    /// The element's name, as written.
    name: &'a str,
    /// The parent's base, against which `xml:base` is resolved.
    parent: Option<String>,
    /// The element's own base, for its other attributes.
    base: Option<String>,
}

impl ElementAt<'_> {
    /// The offset of a slice of the event's bytes in the decoded text: the
    /// event starts with its '<'.
    fn offset_of(&self, part: &[u8]) -> u64 {
        let delta = (part.as_ptr() as usize).wrapping_sub(self.content.as_ptr() as usize);
        self.at + 1 + delta.min(self.content.len()) as u64
    }

    /// The role of an item of this element (of its `attribute`, if any).
    fn role(&self, position: Position, attribute: Option<&[u8]>) -> Role {
        Role::markup(
            position,
            self.name,
            attribute
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .as_deref(),
        )
    }
}

/// What an event starting with `start` (its first bytes) is, as an error
/// message names it.
fn event_kind(start: &[u8]) -> &'static str {
    if start.starts_with(b"<!--") {
        "comment"
    } else if start.starts_with(b"<![CDATA[") {
        "CDATA section"
    } else if start.starts_with(b"<!") {
        "declaration"
    } else if start.starts_with(b"<?") {
        "processing instruction"
    } else if start.starts_with(b"</") {
        "end tag"
    } else if start.starts_with(b"<") {
        "tag (with its attributes)"
    } else {
        "text"
    }
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

/// oxrdfxml's errors, merged by offset with ours.
struct Merge {
    theirs: Vec<TheirError>,
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
        scan: &mut Scan,
        my_at: u64,
        sink: &mut dyn FnMut(Found) -> io::Result<()>,
    ) -> io::Result<()> {
        if let Some(said) = &self.said {
            let news: Vec<Said> = said.try_iter().collect();
            for s in news {
                self.take(s);
            }
        }
        let bom = scan.places.bom;
        let (mut i, mut j) = (0, 0);
        loop {
            let mine = scan.mine.get(i).map(|f| f.offset - bom);
            let theirs = self.theirs.get(j).map(|f| f.at);
            match (mine, theirs) {
                (Some(m), Some(t)) if t <= m => j += 1,
                (Some(m), _) if m < self.their_at => i += 1,
                (None, Some(t)) if t < my_at => j += 1,
                _ => break,
            }
        }
        let encoding = scan.places.encoding.name();
        let theirs: Vec<Found> = self
            .theirs
            .drain(..j)
            .map(|e| Found {
                offset: e.at + bom,
                line: e.line,
                column: e.column,
                role: Role::default(),
                what: What::SyntaxError { message: e.message },
                encoding,
                undecodable: None,
                absolute_only: false,
            })
            .collect();
        let mine: Vec<Found> = scan.mine.drain(..i).collect();
        super::merge_in_order(mine, theirs, sink)
    }
}

#[cfg(test)]
mod tests {
    use super::{Bases, Entities, event_kind, words};

    #[test]
    fn names_the_event_past_the_limit() {
        let kinds: Vec<&str> = [
            &b"<!-- a"[..],
            b"<![CDATA[a",
            b"<!DOCTYPE",
            b"<?pi",
            b"</a",
            b"<a b=",
            b"text",
            b"",
        ]
        .iter()
        .map(|start| event_kind(start))
        .collect();
        assert_eq!(
            kinds,
            [
                "comment",
                "CDATA section",
                "declaration",
                "processing instruction",
                "end tag",
                "tag (with its attributes)",
                "text",
                "text"
            ]
        );
    }

    #[test]
    fn splits_words() {
        assert_eq!(words(" a\tbc "), [(1, "a"), (3, "bc")]);
    }

    #[test]
    fn bases_are_shared() {
        let mut b = Bases {
            current: Some("http://e/x/".into()),
            saved: Vec::new(),
        };
        b.enter(1, "http://e/x/a/".into());
        b.enter(2, "http://f/".into());
        assert_eq!(b.current.as_deref(), Some("http://f/"));
        b.leave(2);
        assert_eq!(b.current.as_deref(), Some("http://e/x/a/"));
        b.leave(1);
        assert_eq!(b.current.as_deref(), Some("http://e/x/"));
        assert!(b.saved.is_empty());
    }

    #[test]
    fn entities_within_the_limit() {
        let mut e = Entities::default();
        e.declare_from("rdf:RDF [<!ENTITY a \"x&amp;\"><!ENTITY b 'y&a;'>]")
            .unwrap();
        assert_eq!(e.decode("&b;&c;").unwrap(), "yx&&c;");
        let laughs: String = (1..10)
            .map(|i| format!("<!ENTITY l{i} \"{}\">", format!("&l{};", i - 1).repeat(10)))
            .collect();
        let mut e = Entities::default();
        assert!(
            e.declare_from(&format!("<!ENTITY l0 \"lol\">{laughs}"))
                .is_err()
        );
    }
}
