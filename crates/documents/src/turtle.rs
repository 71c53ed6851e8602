//! N-Triples, N-Quads, Turtle and TriG.
//!
//! oxttl parses the document, leniently (RDF 1.1 Turtle §6.3 IRIREF is taken
//! up to its `>` without validation, so a bad IRI reaches the checker
//! instead of stopping the parse), and reports its syntax errors with their
//! positions, going on at the next statement. oxttl does not say where the
//! terms of its triples are, so a lexer of ours reads the same bytes for
//! the positions: every IRIREF (`<...>`, its `\u` escapes decoded) and every
//! prefixed name (`ex:foo`, resolved with the prefixes declared before it),
//! skipping strings, comments and the other tokens. It follows `@base`,
//! `BASE`, `@prefix` and `PREFIX` as the document declares them.

use std::collections::{HashMap, VecDeque};
use std::io::{self, Read};
use std::rc::Rc;

use memchr::memchr;
use oxttl::{NQuadsParser, NTriplesParser, TriGParser, TurtleParser, TurtleSyntaxError};

use super::position::{BOM, Tracker};
use super::{
    Format, Found, Options, Position, TOKEN_LIMIT, Undecodable, What, input, read_chunk,
    resolve_relative,
};

/// Bytes read from the document at a time.
const CHUNK: usize = 64 * 1024;

/// How far behind the last token the items and positions may wait in a
/// document with no white space (see `Lexer::word`): past it, an error
/// oxttl gives later than its place may get the position of the text
/// after it, in exchange for memory that stays bounded.
const HELD: u64 = 1024 * 1024;

/// oxttl's incremental parser of the format.
enum Parser {
    Triples(oxttl::ntriples::LowLevelNTriplesParser),
    Quads(oxttl::nquads::LowLevelNQuadsParser),
    Turtle(oxttl::turtle::LowLevelTurtleParser),
    TriG(oxttl::trig::LowLevelTriGParser),
}

impl Parser {
    fn new(format: Format, base: Option<&str>) -> Parser {
        use Format as F;
        match format {
            F::NTriples => Parser::Triples(NTriplesParser::new().lenient().low_level()),
            F::NQuads => Parser::Quads(NQuadsParser::new().lenient().low_level()),
            // A base oxiri rejects is left out: the lenient parser then
            // keeps relative IRIs as they are (ours are resolved by iribis).
            F::Turtle => {
                let parser = TurtleParser::new().lenient();
                let parser = match base {
                    Some(b) => parser.clone().with_base_iri(b).unwrap_or(parser),
                    None => parser,
                };
                Parser::Turtle(parser.low_level())
            }
            _ => {
                let parser = TriGParser::new().lenient();
                let parser = match base {
                    Some(b) => parser.clone().with_base_iri(b).unwrap_or(parser),
                    None => parser,
                };
                Parser::TriG(parser.low_level())
            }
        }
    }

    fn extend_from_slice(&mut self, bytes: &[u8]) {
        match self {
            Parser::Triples(p) => p.extend_from_slice(bytes),
            Parser::Quads(p) => p.extend_from_slice(bytes),
            Parser::Turtle(p) => p.extend_from_slice(bytes),
            Parser::TriG(p) => p.extend_from_slice(bytes),
        }
    }

    fn end(&mut self) {
        match self {
            Parser::Triples(p) => p.end(),
            Parser::Quads(p) => p.end(),
            Parser::Turtle(p) => p.end(),
            Parser::TriG(p) => p.end(),
        }
    }

    /// The next syntax error in the bytes given so far, if any.
    fn next_error(&mut self) -> Option<TurtleSyntaxError> {
        loop {
            let next = match self {
                Parser::Triples(p) => p.parse_next().map(|r| r.map(drop)),
                Parser::Quads(p) => p.parse_next().map(|r| r.map(drop)),
                Parser::Turtle(p) => p.parse_next().map(|r| r.map(drop)),
                Parser::TriG(p) => p.parse_next().map(|r| r.map(drop)),
            };
            match next? {
                Ok(()) => continue,
                Err(e) => return Some(e),
            }
        }
    }
}

/// Reads the document, giving every IRI and syntax error to `sink` in
/// document order.
///
/// Three readers go over the same bytes: oxttl (the syntax errors), our
/// lexer (the IRIs and names, with their roles) and the position tracker
/// (lines and columns, for both). Each keeps only what it has not finished:
/// oxttl its statement, the lexer its token, the tracker the bytes after
/// the last position it gave. Items wait in document order until oxttl is
/// past them; a name's IRI and a relative reference's resolution are made
/// only when the item is given, so a long prefix or base used many times
/// costs its length once, not once per use. A token still open
/// [`TOKEN_LIMIT`] bytes after its start (a string, an IRI, a name, a
/// comment: oxttl, the lexer and the tracker would each hold it whole) is a
/// document error there, and the reading stops.
pub(crate) fn scan(
    options: &Options,
    mut reader: impl Read,
    sink: &mut dyn FnMut(Found) -> io::Result<()>,
) -> io::Result<()> {
    let head = input::read_head(&mut reader, BOM.len())?;
    let skip = match input::bom(&head) {
        // RDF 1.1 Turtle §6.5 and N-Triples §7: the documents are UTF-8; a
        // UTF-16 one would give a syntax error per octet.
        Some((encoding, _)) if encoding != encoding_rs::UTF_8 => {
            return sink(Found {
                offset: 0,
                line: 1,
                column: 1,
                role: super::Role::default(),
                what: What::SyntaxError {
                    message: format!(
                        "the document starts with a {} byte order mark: {} documents are UTF-8 (RDF 1.1), convert it",
                        encoding.name(),
                        options.format.title()
                    ),
                },
                encoding: encoding.name(),
                undecodable: None,
                absolute_only: false,
            });
        }
        Some((_, len)) => len,
        None => 0,
    };
    let mut reader = io::Cursor::new(head[skip..].to_vec()).chain(reader);
    let shift = skip as u64;
    let mut parser = Parser::new(options.format, options.base.as_deref());
    let mut lexer = Lexer::new(options.format, shift);
    let mut tracker = Tracker::starting_at(shift);
    // N-Triples and N-Quads have no base (RDF 1.1 N-Triples §2.1, N-Quads
    // §2.1): a relative IRI is an error, not resolved against the
    // document's location.
    let absolute_only = matches!(options.format, Format::NTriples | Format::NQuads);
    let mut state = Declared {
        base: if absolute_only {
            None
        } else {
            options.base.as_deref().map(Rc::from)
        },
        prefixes: HashMap::new(),
        absolute_only,
    };
    // Ours and oxttl's, each in document order, merged by offset.
    let mut mine: VecDeque<Pending> = VecDeque::new();
    let mut errors: VecDeque<Pending> = VecDeque::new();
    // Bytes read but not given to oxttl yet, and the offset they start at.
    let mut unfed: Vec<u8> = Vec::new();
    let mut fed: u64 = shift;
    let mut chunk = vec![0; CHUNK];
    loop {
        let n = read_chunk(&mut reader, &mut chunk)?;
        let bytes = &chunk[..n];
        let end = n == 0;
        if end {
            lexer.eof = true;
        } else {
            lexer.buf.extend_from_slice(bytes);
            tracker.push(bytes);
            unfed.extend_from_slice(bytes);
        }
        while let Some(token) = lexer.next() {
            if let Some(p) = state.pending(token) {
                mine.push_back(p);
            }
        }
        // oxttl is given the bytes read once it can finish what it is in:
        // the token our lexer is in (which oxttl's lexer would scan again
        // from its start at each chunk, in time quadratic in its length)
        // is given whole, or when the document ends.
        let open = lexer.open_token();
        if end || fed <= open {
            parser.extend_from_slice(&unfed);
            fed += unfed.len() as u64;
            unfed.clear();
            if end {
                parser.end();
            }
        }
        while let Some(e) = parser.next_error() {
            errors.push_back(Pending {
                offset: e.location().start.offset + shift,
                position: Position::None,
                what: Pend::Error(e.message().to_owned()),
                undecodable: None,
            });
        }
        // A token that goes on past the limit: a document error, and no
        // more is read.
        let head = lexer.start + lexer.buf.len() as u64;
        if !end && head - open > TOKEN_LIMIT as u64 {
            emit_before(&mut mine, &mut errors, open, &mut tracker, sink)?;
            let message = format!(
                "this {} is longer than {} MiB, the longest token the reader holds: the document is not read further",
                lexer.open_kind(),
                TOKEN_LIMIT >> 20
            );
            let (line, column) = tracker.locate(open);
            let error = Pending {
                offset: open,
                position: Position::None,
                what: Pend::Error(message),
                undecodable: None,
            };
            return sink(error.found(line, column));
        }
        // Every error still to come is at or after the token the lexer
        // stopped in (oxttl places an error at the token it rejects), so
        // what lies before it can be given.
        let upto = if end { u64::MAX } else { lexer.settled() };
        emit_before(&mut mine, &mut errors, upto, &mut tracker, sink)?;
        // No position before it is asked for again.
        if !end {
            tracker.locate(upto);
        }
        lexer.compact();
        if end {
            return Ok(());
        }
    }
}

/// The base and prefixes declared so far.
struct Declared {
    base: Option<Rc<str>>,
    prefixes: HashMap<String, Rc<str>>,
    /// N-Triples or N-Quads: every IRI must be absolute.
    absolute_only: bool,
}

impl Declared {
    /// The item of a token, following the directives; None for a name
    /// whose prefix is not declared (oxttl reports it).
    fn pending(&mut self, token: Token) -> Option<Pending> {
        let what = match token.kind {
            Kind::Iri(written) => {
                let directive = match &token.role {
                    Role::Base => true,
                    Role::Prefix(_) => true,
                    Role::Term(_) => false,
                };
                if directive {
                    let resolved = resolve_relative(self.base.as_deref(), &written);
                    let value: Rc<str> = Rc::from(resolved.as_deref().unwrap_or(&written));
                    match &token.role {
                        Role::Base => self.base = Some(Rc::clone(&value)),
                        Role::Prefix(name) => {
                            self.prefixes.insert(name.clone(), Rc::clone(&value));
                        }
                        Role::Term(_) => {}
                    }
                    Pend::Resolved { written, resolved }
                } else {
                    Pend::Iri {
                        written,
                        base: self.base.clone(),
                        absolute_only: self.absolute_only,
                    }
                }
            }
            Kind::Name {
                written,
                prefix,
                local,
            } => Pend::Name {
                written,
                namespace: Rc::clone(self.prefixes.get(&prefix)?),
                local,
            },
        };
        let position = match token.role {
            Role::Base => Position::Base,
            Role::Prefix(_) => Position::Prefix,
            Role::Term(p) => p,
        };
        Some(Pending {
            offset: token.offset,
            position,
            what,
            undecodable: token.undecodable,
        })
    }
}

/// An item waiting for oxttl to be past it.
struct Pending {
    offset: u64,
    position: Position,
    what: Pend,
    undecodable: Option<Undecodable>,
}

enum Pend {
    /// A reference, resolved when given.
    Iri {
        written: String,
        base: Option<Rc<str>>,
        /// N-Triples and N-Quads: `RDF_RELATIVE_IRI` when relative.
        absolute_only: bool,
    },
    /// A reference already resolved (a directive's).
    Resolved {
        written: String,
        resolved: Option<String>,
    },
    /// A prefixed name: its IRI is made when given.
    Name {
        written: String,
        namespace: Rc<str>,
        local: String,
    },
    Error(String),
}

impl Pending {
    fn found(self, line: usize, column: usize) -> Found {
        let absolute_only = matches!(
            self.what,
            Pend::Iri {
                absolute_only: true,
                ..
            }
        );
        let what = match self.what {
            Pend::Iri { written, base, .. } => What::Reference {
                resolved: resolve_relative(base.as_deref(), &written),
                written,
            },
            Pend::Resolved { written, resolved } => What::Reference { written, resolved },
            Pend::Name {
                written,
                namespace,
                local,
            } => {
                let mut iri = String::with_capacity(namespace.len() + local.len());
                iri.push_str(&namespace);
                iri.push_str(&local);
                What::Name { written, iri }
            }
            Pend::Error(message) => What::SyntaxError { message },
        };
        Found {
            offset: self.offset,
            line,
            column,
            role: super::Role::at(self.position),
            what,
            encoding: "UTF-8",
            undecodable: self.undecodable,
            absolute_only,
        }
    }
}

/// Gives the items of `a` and `b` (each in document order) before `upto`,
/// in document order, an error before an IRI at the same offset, each
/// placed by `tracker` as it is given.
fn emit_before(
    a: &mut VecDeque<Pending>,
    b: &mut VecDeque<Pending>,
    upto: u64,
    tracker: &mut Tracker,
    sink: &mut dyn FnMut(Found) -> io::Result<()>,
) -> io::Result<()> {
    loop {
        let next = match (a.front(), b.front()) {
            (Some(x), Some(y)) if y.offset <= x.offset && y.offset < upto => b.pop_front(),
            (Some(x), _) if x.offset < upto => a.pop_front(),
            (_, Some(y)) if y.offset < upto => b.pop_front(),
            _ => return Ok(()),
        };
        if let Some(p) = next {
            let (line, column) = tracker.locate(p.offset);
            sink(p.found(line, column))?;
        }
    }
}

/// What a token is to the statement and directives around it.
#[derive(Debug, PartialEq)]
enum Role {
    /// A term of a statement, at its position.
    Term(Position),
    /// The IRI of `@base` or `BASE`.
    Base,
    /// The IRI of `@prefix NAME:` or `PREFIX NAME:`.
    Prefix(String),
}

#[derive(Debug, PartialEq)]
enum Kind {
    /// An IRIREF, its escapes decoded.
    Iri(String),
    /// A prefixed name: as written, its prefix, and its local part with
    /// its `\` escapes removed (RDF 1.1 Turtle §6.3 PN_LOCAL_ESC).
    Name {
        written: String,
        prefix: String,
        local: String,
    },
}

#[derive(Debug, PartialEq)]
struct Token {
    /// The offset of its first character inside the delimiters.
    offset: u64,
    kind: Kind,
    role: Role,
    /// Its first octets that are not UTF-8.
    undecodable: Option<Undecodable>,
}

/// The first octets of `raw` (at `offset` in the document) that are not
/// UTF-8, with the characters before them.
fn not_utf8(raw: &[u8], offset: u64) -> Option<Undecodable> {
    let e = std::str::from_utf8(raw).err()?;
    let valid = e.valid_up_to();
    let len = e.error_len().unwrap_or(raw.len() - valid);
    let before = std::str::from_utf8(&raw[..valid]).map_or(0, |t| t.chars().count());
    Some(Undecodable {
        byte: offset + valid as u64,
        char: before,
        octets: raw[valid..valid + len].to_vec(),
        encoding: "UTF-8",
    })
}

/// Where the lexer is between tokens.
#[derive(Clone, Copy, Default)]
enum State {
    #[default]
    Between,
    Comment,
    Str {
        quote: u8,
        long: bool,
        /// A short string a line ended: as oxttl reads it, it goes on to
        /// the next quote, escapes and all.
        broken: bool,
    },
}

/// Where the lexer is in a directive.
#[derive(Default)]
enum Directive {
    #[default]
    None,
    Base,
    Prefix,
    PrefixName(String),
}

/// What a statement expects next (RDF 1.1 Turtle §2: a subject, then
/// predicate-object lists; TriG's graphs, N-Quads' graph label).
#[derive(Clone, Copy, PartialEq, Debug)]
enum Expect {
    Subject,
    Verb,
    Object,
}

/// One level of nesting: the statement, a `[ ... ]` property list, a
/// `( ... )` collection, a `<< ... >>` triple, a TriG `{ ... }` graph or a
/// `{| ... |}` annotation.
#[derive(Clone, Copy, Debug)]
struct Frame {
    expect: Expect,
    /// An object seen since the last verb or comma: another term is a
    /// graph label (N-Quads).
    object_seen: bool,
    /// The verb was `a`: the objects are types.
    typed: bool,
    /// Every term is an object (a collection).
    collection: bool,
}

impl Frame {
    fn new(expect: Expect) -> Self {
        Frame {
            expect,
            object_seen: false,
            typed: false,
            collection: false,
        }
    }
}

/// The statement's structure, as far as the roles of its terms need it.
#[derive(Debug)]
struct Statement {
    frames: Vec<Frame>,
    /// After `^^`: the next term is a datatype.
    datatype: bool,
    /// After `GRAPH` (TriG): the next term is a graph name.
    graph: bool,
    /// After `~` (RDF 1.2): the next term is a reifier.
    reifier: bool,
}

impl Default for Statement {
    fn default() -> Self {
        Statement {
            frames: vec![Frame::new(Expect::Subject)],
            datatype: false,
            graph: false,
            reifier: false,
        }
    }
}

/// Frames deeper than this are counted but not kept: a hostile document
/// cannot make the lexer's memory grow with its nesting.
const MAX_FRAMES: usize = 256;

impl Statement {
    fn top(&mut self) -> &mut Frame {
        if self.frames.is_empty() {
            self.frames.push(Frame::new(Expect::Subject));
        }
        let last = self.frames.len() - 1;
        &mut self.frames[last]
    }

    /// A term is seen (an IRI, a name, a blank node, a literal, a nested
    /// structure): its position, and the statement moves on.
    fn term(&mut self) -> Position {
        if std::mem::take(&mut self.datatype) {
            return Position::Datatype;
        }
        if std::mem::take(&mut self.graph) {
            return Position::Graph;
        }
        if std::mem::take(&mut self.reifier) {
            return Position::Subject;
        }
        let top = self.top();
        if top.collection {
            return Position::Object;
        }
        match top.expect {
            Expect::Subject => {
                top.expect = Expect::Verb;
                Position::Subject
            }
            Expect::Verb => {
                top.expect = Expect::Object;
                top.object_seen = false;
                top.typed = false;
                Position::Predicate
            }
            Expect::Object if top.object_seen => Position::Graph,
            Expect::Object => {
                top.object_seen = true;
                if top.typed {
                    Position::Type
                } else {
                    Position::Object
                }
            }
        }
    }

    /// The next term as it would be placed, without moving on.
    fn peek_subject(&self) -> bool {
        !self.datatype
            && !self.graph
            && !self.reifier
            && self.frames.len() == 1
            && self.frames[0].expect == Expect::Subject
    }

    fn push(&mut self, frame: Frame) {
        if self.frames.len() < MAX_FRAMES {
            self.frames.push(frame);
        }
    }

    fn pop(&mut self) {
        if self.frames.len() > 1 {
            self.frames.pop();
        }
    }

    fn reset(&mut self) {
        *self = Statement::default();
    }
}

/// The lexer: the bytes not consumed yet, fed a chunk at a time.
struct Lexer {
    format: Format,
    buf: Vec<u8>,
    /// The document offset of `buf[0]`.
    start: u64,
    /// The next byte to look at.
    pos: usize,
    /// Where the scan of the token at `pos` goes on (an IRIREF's or a
    /// name's end not found yet): scanning it again from its start at each
    /// chunk would take time quadratic in its length.
    resume: usize,
    /// The document offset of the string or comment the lexer is in.
    open: Option<u64>,
    /// The document offset of the last token the lexer looked at: oxttl
    /// may still report an error there once it sees what follows it.
    last: u64,
    /// Where the current word starts: a run of tokens with no white space
    /// or comment between them. oxttl's tokens are not ours everywhere (its
    /// `?` takes a whole PN_LOCAL after it, one of its errors may cover
    /// several of our tokens), but none spans white space outside a string,
    /// an IRI or a comment, which our lexer keeps open: once white space
    /// ends the word, oxttl has read every token in it.
    word: u64,
    /// White space or a comment's end since `word` started: the word is
    /// over.
    apart: bool,
    state: State,
    directive: Directive,
    statement: Statement,
    eof: bool,
}

impl Lexer {
    /// A lexer of `format` whose first byte is at `start` of the document.
    fn new(format: Format, start: u64) -> Self {
        Lexer {
            format,
            buf: Vec::new(),
            start,
            pos: 0,
            resume: 0,
            open: None,
            last: start,
            word: start,
            apart: false,
            state: State::default(),
            directive: Directive::default(),
            statement: Statement::default(),
            eof: false,
        }
    }

    /// The document offset of the first byte not consumed.
    fn offset(&self) -> u64 {
        self.start + self.pos as u64
    }

    /// The document offset where the token the lexer is in starts (its
    /// position if between tokens).
    fn open_token(&self) -> u64 {
        self.open.unwrap_or(self.offset()).min(self.offset())
    }

    /// Where the items may be given up to: the open token, the last token
    /// looked at (oxttl reports an error of a token once it sees the next
    /// one), and the start of a word not over yet (in a document with no
    /// white space, at most [`HELD`] bytes behind the last token).
    fn settled(&self) -> u64 {
        let word = if self.apart {
            u64::MAX
        } else {
            self.word.max(self.last.saturating_sub(HELD))
        };
        self.open_token().min(self.last).min(word)
    }

    /// What the token the lexer is in is, as an error message names it.
    fn open_kind(&self) -> &'static str {
        match self.state {
            State::Comment => "comment",
            State::Str { .. } => "string",
            State::Between => match self.buf.get(self.pos) {
                Some(b'<') => "IRI",
                Some(b'0'..=b'9' | b'+' | b'-' | b'.') => "number",
                Some(b'_') => "blank node label",
                _ => "name",
            },
        }
    }

    /// Drops the bytes consumed.
    fn compact(&mut self) {
        self.buf.drain(..self.pos);
        self.start += self.pos as u64;
        self.resume = self.resume.saturating_sub(self.pos);
        self.pos = 0;
    }

    /// The next IRIREF or prefixed name, or None when more bytes are
    /// needed (or the document is over).
    fn next(&mut self) -> Option<Token> {
        loop {
            match self.state {
                State::Comment => match memchr(b'\n', &self.buf[self.pos..]) {
                    Some(i) => {
                        self.pos += i + 1;
                        self.apart = true;
                        self.state = State::Between;
                        self.open = None;
                    }
                    None => {
                        self.pos = self.buf.len();
                        return None;
                    }
                },
                State::Str {
                    quote,
                    long,
                    broken,
                } => {
                    if !self.skip_string(quote, long, broken) {
                        return None;
                    }
                    self.state = State::Between;
                    self.open = None;
                }
                State::Between => {
                    if let Some(token) = self.between()? {
                        return Some(token);
                    }
                }
            }
        }
    }

    /// Skips the rest of a string; false when more bytes are needed.
    fn skip_string(&mut self, quote: u8, long: bool, broken: bool) -> bool {
        let buf = &self.buf;
        let mut i = self.pos;
        if broken {
            // A stray quote that no other one follows within
            // [`TOKEN_LIMIT`] bytes stops the reading (see `scan`).
            return match memchr(quote, &buf[i..]) {
                Some(k) => {
                    self.pos = i + k + 1;
                    true
                }
                None => {
                    self.pos = buf.len();
                    self.eof
                }
            };
        }
        while i < buf.len() {
            let b = buf[i];
            if b == b'\\' {
                if i + 1 >= buf.len() && !self.eof {
                    self.pos = i;
                    return false;
                }
                i += 2;
            } else if b == quote {
                if !long {
                    self.pos = i + 1;
                    return true;
                }
                if i + 3 > buf.len() && !self.eof {
                    self.pos = i;
                    return false;
                }
                if buf[i..].starts_with(&[quote; 3]) {
                    self.pos = i + 3;
                    return true;
                }
                i += 1;
            } else if !long && (b == b'\n' || b == b'\r') {
                // A line jump in a short string: oxttl reports it, and its
                // token goes on to the next quote (RDF 1.1 Turtle §6.4
                // STRING_LITERAL_QUOTE has no line jump; oxttl 0.2's
                // recognize_string reads on to the delimiter), which is
                // where the next token starts for it, and so for us.
                self.pos = i + 1;
                self.state = State::Str {
                    quote,
                    long,
                    broken: true,
                };
                return self.skip_string(quote, long, true);
            } else {
                i += 1;
            }
        }
        self.pos = buf.len().min(i);
        self.eof
    }

    /// One step between tokens: Some(Some(token)) for an IRI or a prefixed
    /// name, Some(None) for another token skipped, None when more bytes are
    /// needed.
    fn between(&mut self) -> Option<Option<Token>> {
        let buf = &self.buf;
        let mut i = self.pos;
        while i < buf.len() && matches!(buf[i], b' ' | b'\t' | b'\n' | b'\r') {
            i += 1;
        }
        if i != self.pos {
            self.pos = i;
            self.resume = i;
            self.apart = true;
        }
        let b = *buf.get(i)?;
        self.last = self.start + i as u64;
        if self.apart {
            self.word = self.last;
            self.apart = false;
        }
        let next = buf.get(i + 1).copied();
        if next.is_none()
            && !self.eof
            && matches!(
                b,
                b'<' | b'"' | b'\'' | b'_' | b'@' | b'^' | b'{' | b'|' | b'>' | b')' | b'.'
            )
        {
            return None;
        }
        match b {
            b'#' => {
                self.open = Some(self.start + i as u64);
                self.pos += 1;
                self.state = State::Comment;
                Some(None)
            }
            b'"' | b'\'' => {
                if i + 3 > buf.len() && !self.eof {
                    return None;
                }
                let long = buf[i..].starts_with(&[b; 3]);
                self.open = Some(self.start + i as u64);
                self.pos += if long { 3 } else { 1 };
                self.state = State::Str {
                    quote: b,
                    long,
                    broken: false,
                };
                self.directive = Directive::None;
                self.statement.term();
                Some(None)
            }
            b'<' if next == Some(b'<') => {
                // RDF 1.2's `<<` of a triple term (`<<(`) or a reified
                // triple: a term of its own, with a statement inside.
                let paren = buf.get(i + 2).copied();
                if paren.is_none() && !self.eof {
                    return None;
                }
                self.pos += if paren == Some(b'(') { 3 } else { 2 };
                self.directive = Directive::None;
                self.statement.term();
                self.statement.push(Frame::new(Expect::Subject));
                Some(None)
            }
            b'<' => self.iri(),
            b'>' if next == Some(b'>') => {
                self.pos += 2;
                self.statement.pop();
                Some(None)
            }
            b')' if next == Some(b'>') => {
                // The end of a triple term `)>>`.
                self.pos += 1;
                Some(None)
            }
            b'_' if next == Some(b':') => {
                let end = self.name_end(i + 2)?.max(i + 2);
                if self.graph_label_follows(end)? {
                    self.statement.graph = true;
                }
                self.pos = end;
                self.resume = end;
                self.directive = Directive::None;
                self.statement.term();
                Some(None)
            }
            b'@' => {
                let word_end = i
                    + 1
                    + buf[i + 1..]
                        .iter()
                        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'-')
                        .count();
                if word_end == buf.len() && !self.eof {
                    return None;
                }
                self.directive = match &buf[i + 1..word_end] {
                    b"prefix" => Directive::Prefix,
                    b"base" => Directive::Base,
                    // A language tag.
                    _ => Directive::None,
                };
                self.pos = word_end;
                self.resume = word_end;
                Some(None)
            }
            b'^' if next == Some(b'^') => {
                self.pos += 2;
                self.statement.datatype = true;
                Some(None)
            }
            b'0'..=b'9' | b'+' | b'-' => self.number(),
            b'.' if next.is_some_and(|n| n.is_ascii_digit()) => self.number(),
            b'{' if next == Some(b'|') => {
                self.pos += 2;
                self.statement.push(Frame::new(Expect::Verb));
                Some(None)
            }
            b'|' if next == Some(b'}') => {
                self.pos += 2;
                self.statement.pop();
                Some(None)
            }
            _ => {
                let punctuation = b".,;()[]{}^=|~!>?$".contains(&b);
                if !punctuation {
                    return self.name();
                }
                self.pos += 1;
                self.directive = Directive::None;
                self.punctuation(b);
                Some(None)
            }
        }
    }

    /// What a punctuation mark does to the statement.
    fn punctuation(&mut self, b: u8) {
        let s = &mut self.statement;
        match b {
            b'.' => s.reset(),
            b',' => s.top().object_seen = false,
            b';' => s.top().expect = Expect::Verb,
            b'[' => {
                s.term();
                s.push(Frame::new(Expect::Verb));
            }
            b'(' => {
                s.term();
                let mut frame = Frame::new(Expect::Object);
                frame.collection = true;
                s.push(frame);
            }
            b']' | b')' | b'}' => s.pop(),
            // A TriG graph: its statements.
            b'{' => s.push(Frame::new(Expect::Subject)),
            b'~' => s.reifier = true,
            _ => {}
        }
    }

    /// A number (RDF 1.1 Turtle §6.5 INTEGER, DECIMAL, DOUBLE): a term.
    fn number(&mut self) -> Option<Option<Token>> {
        let buf = &self.buf;
        let mut i = self.pos + 1;
        while i < buf.len() {
            let b = buf[i];
            let more = b.is_ascii_digit()
                || matches!(b, b'e' | b'E')
                || (matches!(b, b'+' | b'-') && matches!(buf[i - 1], b'e' | b'E'))
                || (b == b'.' && buf.get(i + 1).is_some_and(u8::is_ascii_digit));
            if b == b'.' && i + 1 >= buf.len() && !self.eof {
                return None;
            }
            if !more {
                break;
            }
            i += 1;
        }
        if i >= buf.len() && !self.eof {
            return None;
        }
        self.pos = i;
        self.resume = i;
        self.directive = Directive::None;
        self.statement.term();
        Some(None)
    }

    /// Whether a TriG graph's `{` follows the term ending at `end` (white
    /// space between): then the term is the graph's name. None when more
    /// bytes are needed.
    fn graph_label_follows(&self, end: usize) -> Option<bool> {
        if self.format != Format::TriG || !self.statement.peek_subject() {
            return Some(false);
        }
        let rest = &self.buf[end.min(self.buf.len())..];
        match rest
            .iter()
            .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        {
            Some(k) => Some(rest[k] == b'{'),
            None if self.eof => Some(false),
            None => None,
        }
    }

    /// The end of the name starting at `from`, trailing dots left out;
    /// None when more bytes are needed (the scan goes on from where it
    /// stopped next time).
    fn name_end(&mut self, from: usize) -> Option<usize> {
        let buf = &self.buf;
        let mut i = self.resume.max(from);
        let mut cut = false;
        while i < buf.len() {
            let b = buf[i];
            if b == b'\\' {
                if i + 1 >= buf.len() {
                    cut = true;
                    break;
                }
                i += 2;
            } else if b.is_ascii_alphanumeric() || b"_-.:%".contains(&b) || b >= 0x80 {
                i += 1;
            } else {
                break;
            }
        }
        if (cut || i >= buf.len()) && !self.eof {
            self.resume = i.min(buf.len());
            return None;
        }
        let i = i.min(buf.len());
        let trimmed = from
            + buf[from..i]
                .iter()
                .rposition(|&c| c != b'.')
                .map_or(0, |p| p + 1);
        Some(trimmed)
    }

    /// A keyword or a prefixed name.
    fn name(&mut self) -> Option<Option<Token>> {
        let i = self.pos;
        let end = self.name_end(i)?;
        if end == i {
            // A byte no token starts with: oxttl reports it.
            self.pos += 1;
            self.resume = self.pos;
            self.directive = Directive::None;
            return Some(None);
        }
        let graph = self.graph_label_follows(end)?;
        self.pos = end;
        self.resume = end;
        let word = String::from_utf8_lossy(&self.buf[i..end]).into_owned();
        let undecodable = not_utf8(&self.buf[i..end], self.start + i as u64);
        let Some((prefix, local)) = word.split_once(':') else {
            self.directive = if word.eq_ignore_ascii_case("prefix") {
                Directive::Prefix
            } else if word.eq_ignore_ascii_case("base") {
                Directive::Base
            } else {
                Directive::None
            };
            match word.as_str() {
                "a" => {
                    self.statement.term();
                    self.statement.top().typed = true;
                }
                "true" | "false" => {
                    self.statement.term();
                }
                _ if word.eq_ignore_ascii_case("graph") => self.statement.graph = true,
                _ => {}
            }
            return Some(None);
        };
        if matches!(self.directive, Directive::Prefix) && local.is_empty() {
            self.directive = Directive::PrefixName(prefix.to_owned());
            return Some(None);
        }
        self.directive = Directive::None;
        let mut unescaped = String::with_capacity(local.len());
        let mut chars = local.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                unescaped.extend(chars.next());
            } else {
                unescaped.push(c);
            }
        }
        if graph {
            self.statement.graph = true;
        }
        let position = self.statement.term();
        Some(Some(Token {
            offset: self.start + i as u64,
            kind: Kind::Name {
                prefix: prefix.to_owned(),
                local: unescaped,
                written: word,
            },
            role: Role::Term(position),
            undecodable,
        }))
    }

    /// An IRIREF at `pos` (its `<`): Some(Some(token)), Some(None) for a
    /// `<` that starts none (unterminated at the end of the document: oxttl
    /// reports it), None when more bytes are needed (one that goes on past
    /// [`TOKEN_LIMIT`] stops the reading: see `scan`). A `>` always
    /// ends it (RDF 1.1 Turtle §6.4: an IRIREF's only escapes are `\u`
    /// and `\U`, so `\>` is a `\` and the end).
    fn iri(&mut self) -> Option<Option<Token>> {
        let open = self.pos;
        let from = self.resume.max(open + 1);
        let close = match memchr(b'>', &self.buf[from..]) {
            Some(k) => from + k,
            None => {
                self.resume = self.buf.len();
                if self.eof {
                    self.pos = open + 1;
                    self.resume = self.pos;
                    self.directive = Directive::None;
                    return Some(None);
                }
                return None;
            }
        };
        let role = match &self.directive {
            Directive::Base => Role::Base,
            Directive::PrefixName(_) => Role::Prefix(String::new()),
            _ => {
                let graph = self.graph_label_follows(close + 1)?;
                if graph {
                    self.statement.graph = true;
                }
                Role::Term(self.statement.term())
            }
        };
        let role = match (role, std::mem::take(&mut self.directive)) {
            (Role::Prefix(_), Directive::PrefixName(name)) => Role::Prefix(name),
            (role, _) => role,
        };
        if !matches!(role, Role::Term(_)) {
            // A directive ends with its IRI (SPARQL's forms have no '.').
            self.statement.reset();
        }
        let raw = &self.buf[open + 1..close];
        let written = unescape_iri(raw);
        let undecodable = not_utf8(raw, self.start + open as u64 + 1);
        self.pos = close + 1;
        self.resume = self.pos;
        Some(Some(Token {
            offset: self.start + open as u64 + 1,
            kind: Kind::Iri(written),
            role,
            undecodable,
        }))
    }
}

/// An IRIREF's text with its `\uXXXX` and `\UXXXXXXXX` escapes decoded
/// (RDF 1.1 Turtle §6.4); an escape that is not one is kept as written, and
/// octets that are not UTF-8 become U+FFFD.
fn unescape_iri(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw);
    if memchr(b'\\', raw).is_none() {
        return text.into_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_ref();
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let digits = match after.as_bytes().first() {
            Some(b'u') => 4,
            Some(b'U') => 8,
            _ => 0,
        };
        let decoded = after
            .get(1..1 + digits)
            .filter(|_| digits > 0)
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .and_then(char::from_u32);
        match decoded {
            Some(c) => {
                out.push(c);
                rest = &after[1 + digits..];
            }
            None => {
                out.push('\\');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::{Format, Kind, Lexer, Position, Role, unescape_iri};

    fn tokens_of(format: Format, text: &str, chunk: usize) -> Vec<(u64, Kind, Role)> {
        let mut lexer = Lexer::new(format, 0);
        let mut out = Vec::new();
        let bytes = text.as_bytes();
        for part in bytes.chunks(chunk).map(Some).chain([None]) {
            match part {
                Some(p) => lexer.buf.extend_from_slice(p),
                None => lexer.eof = true,
            }
            while let Some(t) = lexer.next() {
                out.push((t.offset, t.kind, t.role));
            }
            lexer.compact();
        }
        out
    }

    fn tokens(text: &str, chunk: usize) -> Vec<(u64, Kind, Role)> {
        tokens_of(Format::Turtle, text, chunk)
    }

    #[test]
    fn lexes_whatever_the_chunks() {
        let text = "@prefix ex: <http://e/> . # <no>\nex:a\\-b ex:p \"<no> \\\" \", '''x\n<no>''' , <r\\u00E9> .\n";
        let want = tokens(text, 1 << 20);
        assert_eq!(want.len(), 4, "{want:?}");
        assert_eq!(
            want[0],
            (13, Kind::Iri("http://e/".into()), Role::Prefix("ex".into()))
        );
        assert_eq!(
            want[1].1,
            Kind::Name {
                written: "ex:a\\-b".into(),
                prefix: "ex".into(),
                local: "a-b".into()
            }
        );
        assert_eq!(want[3].1, Kind::Iri("ré".into()));
        for chunk in 1..12 {
            assert_eq!(tokens(text, chunk), want, "chunks of {chunk}");
        }
    }

    /// The roles of the terms: subject, predicate, object, datatype,
    /// types after `a`, blank node property lists and collections, TriG's
    /// graph names and N-Quads' graph labels.
    #[test]
    fn roles() {
        let roles = |format: Format, text: &str| -> Vec<Position> {
            let all = tokens_of(format, text, 1 << 20);
            for chunk in 1..9 {
                assert_eq!(tokens_of(format, text, chunk), all, "chunks of {chunk}");
            }
            all.into_iter()
                .map(|(_, _, role)| match role {
                    Role::Term(p) => p,
                    Role::Base => Position::Base,
                    Role::Prefix(_) => Position::Prefix,
                })
                .collect()
        };
        use Position::*;
        assert_eq!(
            roles(
                Format::Turtle,
                "@base <b> . PREFIX e: <n> e:s e:p 1.5, \"x\"^^e:d ; a e:T , e:U . [ e:p e:o ] e:q ( e:m <m> ) ."
            ),
            [
                Base, Prefix, Subject, Predicate, Datatype, Type, Type, Predicate, Object,
                Predicate, Object, Object
            ]
        );
        assert_eq!(
            roles(Format::NQuads, "<s> <p> <o> <g> .\n<s> <p> \"o\" <g> .\n"),
            [Subject, Predicate, Object, Graph, Subject, Predicate, Graph]
        );
        assert_eq!(
            roles(
                Format::TriG,
                "<g> { <s> <p> <o> } GRAPH <h> { <s> <p> <o> . }"
            ),
            [
                Graph, Subject, Predicate, Object, Graph, Subject, Predicate, Object
            ]
        );
    }

    /// `>` always ends an IRIREF (`\>` is no escape), so
    /// the next IRI is not swallowed.
    #[test]
    fn backslash_before_the_end_of_an_iriref() {
        let found = tokens("<http://e/a\\> <http://e/p> <http://e/o> .", 1 << 10);
        assert_eq!(found.len(), 3, "{found:?}");
        assert_eq!(found[0].1, Kind::Iri("http://e/a\\".into()));
        assert_eq!(found[1].1, Kind::Iri("http://e/p".into()));
    }

    #[test]
    fn unescapes() {
        assert_eq!(unescape_iri(b"a\\U0001F600b\\x"), "a\u{1F600}b\\x");
    }
}
