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

use std::collections::HashMap;
use std::io::{self, Read};

use memchr::{memchr, memchr2};
use oxttl::{NQuadsParser, NTriplesParser, TriGParser, TurtleParser, TurtleSyntaxError};

use super::position::{Tracker, BOM};
use super::{resolve_relative, Doc, Found, What};

/// Bytes read from the document at a time.
const CHUNK: usize = 64 * 1024;

/// The longest IRIREF looked for: a `<` with no `>` within this many bytes
/// starts none, so that a stray `<` does not make the lexer hold the rest of
/// the document (oxttl's own limit on a token is 16 MiB too).
const MAX_IRI: usize = 16 * 1024 * 1024;

/// oxttl's incremental parser of the format.
enum Parser {
    Triples(oxttl::ntriples::LowLevelNTriplesParser),
    Quads(oxttl::nquads::LowLevelNQuadsParser),
    Turtle(oxttl::turtle::LowLevelTurtleParser),
    TriG(oxttl::trig::LowLevelTriGParser),
}

impl Parser {
    fn new(format: super::DocFormat, base: Option<&str>) -> Parser {
        use super::DocFormat as F;
        match format {
            F::Ntriples => Parser::Triples(NTriplesParser::new().lenient().low_level()),
            F::Nquads => Parser::Quads(NQuadsParser::new().lenient().low_level()),
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
pub(crate) fn scan(
    doc: &Doc<'_>,
    mut reader: impl Read,
    sink: &mut dyn FnMut(Found) -> io::Result<()>,
) -> io::Result<()> {
    let mut parser = Parser::new(doc.format, doc.base.as_deref());
    let mut lexer = Lexer::default();
    let mut tracker = Tracker::default();
    let mut base = doc.base.clone();
    let mut prefixes: HashMap<String, String> = HashMap::new();
    // Ours and oxttl's, each in document order, merged by offset.
    let mut mine: Vec<Found> = Vec::new();
    let mut errors: Vec<Found> = Vec::new();
    let mut shift = 0;
    let mut chunk = vec![0; CHUNK];
    loop {
        let n = doc.read(&mut reader, &mut chunk)?;
        let bytes = &chunk[..n];
        if n == 0 {
            parser.end();
            lexer.eof = true;
        } else {
            // oxttl does not skip a byte order mark: it is not given one,
            // and its offsets are shifted back.
            let first = lexer.start == 0 && lexer.buf.is_empty();
            if first && bytes.starts_with(BOM) {
                shift = BOM.len() as u64;
                parser.extend_from_slice(&bytes[BOM.len()..]);
            } else {
                parser.extend_from_slice(bytes);
            }
            lexer.buf.extend_from_slice(bytes);
            tracker.push(bytes);
        }
        while let Some(e) = parser.next_error() {
            let start = e.location().start;
            errors.push(Found {
                offset: start.offset + shift,
                line: usize::try_from(start.line)
                    .unwrap_or(usize::MAX)
                    .saturating_add(1),
                column: usize::try_from(start.column)
                    .unwrap_or(usize::MAX)
                    .saturating_add(1),
                what: What::SyntaxError {
                    message: e.message().to_owned(),
                },
            });
        }
        while let Some(token) = lexer.next() {
            let (line, column) = tracker.locate(token.offset);
            let what = match token.kind {
                Kind::Iri(written) => {
                    let resolved = resolve_relative(base.as_deref(), &written);
                    match token.role {
                        Role::Base => {
                            base = Some(resolved.clone().unwrap_or_else(|| written.clone()));
                        }
                        Role::Prefix(name) => {
                            prefixes
                                .insert(name, resolved.clone().unwrap_or_else(|| written.clone()));
                        }
                        Role::Term => {}
                    }
                    What::Reference { written, resolved }
                }
                Kind::Name {
                    written,
                    prefix,
                    local,
                } => match prefixes.get(&prefix) {
                    Some(ns) => What::Name {
                        written,
                        iri: format!("{ns}{local}"),
                    },
                    // Undeclared: oxttl reports it.
                    None => continue,
                },
            };
            mine.push(Found {
                offset: token.offset,
                line,
                column,
                what,
            });
        }
        // No position before the lexer's is asked for again.
        tracker.locate(lexer.offset());
        // Every error still to come is at or after the token the lexer
        // stopped in (oxttl places an error at the token it rejects), so
        // what lies before it can be written.
        let upto = if n == 0 { u64::MAX } else { lexer.offset() };
        emit_before(&mut mine, &mut errors, upto, sink)?;
        lexer.compact();
        if n == 0 {
            return Ok(());
        }
    }
}

/// Writes the items of `a` and `b` (each in document order) before `upto`,
/// in document order; an error before an IRI at the same offset.
fn emit_before(
    a: &mut Vec<Found>,
    b: &mut Vec<Found>,
    upto: u64,
    sink: &mut dyn FnMut(Found) -> io::Result<()>,
) -> io::Result<()> {
    let take = |v: &mut Vec<Found>| {
        let k = v.iter().take_while(|f| f.offset < upto).count();
        v.drain(..k).collect::<Vec<_>>()
    };
    super::merge_in_order(take(a), take(b), sink)
}

/// What a token is to the directives around it.
#[derive(Debug, PartialEq)]
enum Role {
    Term,
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

/// The lexer: the bytes not consumed yet, fed a chunk at a time.
#[derive(Default)]
struct Lexer {
    buf: Vec<u8>,
    /// The document offset of `buf[0]`.
    start: u64,
    /// The next byte to look at.
    pos: usize,
    state: State,
    directive: Directive,
    eof: bool,
}

impl Lexer {
    /// The document offset of the first byte not consumed.
    fn offset(&self) -> u64 {
        self.start + self.pos as u64
    }

    /// Drops the bytes consumed.
    fn compact(&mut self) {
        self.buf.drain(..self.pos);
        self.start += self.pos as u64;
        self.pos = 0;
    }

    /// The next IRIREF or prefixed name, or None when more bytes are
    /// needed (or the document is over).
    fn next(&mut self) -> Option<Token> {
        if self.start == 0 && self.pos == 0 && self.buf.starts_with(BOM) {
            self.pos = BOM.len();
        }
        loop {
            match self.state {
                State::Comment => match memchr(b'\n', &self.buf[self.pos..]) {
                    Some(i) => {
                        self.pos += i + 1;
                        self.state = State::Between;
                    }
                    None => {
                        self.pos = self.buf.len();
                        return None;
                    }
                },
                State::Str { quote, long } => {
                    if !self.skip_string(quote, long) {
                        return None;
                    }
                    self.state = State::Between;
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
    fn skip_string(&mut self, quote: u8, long: bool) -> bool {
        let buf = &self.buf;
        let mut i = self.pos;
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
                // An unterminated short string: oxttl reports it.
                self.pos = i;
                return true;
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
        self.pos = i;
        let b = *buf.get(i)?;
        let next = buf.get(i + 1).copied();
        if next.is_none() && !self.eof && matches!(b, b'<' | b'"' | b'\'' | b'_' | b'@') {
            return None;
        }
        match b {
            b'#' => {
                self.pos += 1;
                self.state = State::Comment;
                Some(None)
            }
            b'"' | b'\'' => {
                if i + 3 > buf.len() && !self.eof {
                    return None;
                }
                let long = buf[i..].starts_with(&[b; 3]);
                self.pos += if long { 3 } else { 1 };
                self.state = State::Str { quote: b, long };
                self.directive = Directive::None;
                Some(None)
            }
            b'<' if next == Some(b'<') => {
                // RDF 1.2's `<<` of a triple term.
                self.pos += 2;
                self.directive = Directive::None;
                Some(None)
            }
            b'<' => self.iri(),
            b'_' if next == Some(b':') => {
                let end = self.name_end(i + 2)?;
                self.pos = end.max(i + 2);
                self.directive = Directive::None;
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
                    _ => Directive::None,
                };
                self.pos = word_end;
                Some(None)
            }
            b'0'..=b'9'
            | b'+'
            | b'-'
            | b'.'
            | b'('
            | b')'
            | b'['
            | b']'
            | b','
            | b';'
            | b'{'
            | b'}'
            | b'^'
            | b'='
            | b'|'
            | b'~'
            | b'!'
            | b'>'
            | b'?'
            | b'$' => {
                self.pos += 1;
                if !b.is_ascii_digit() {
                    self.directive = Directive::None;
                }
                Some(None)
            }
            _ => self.name(),
        }
    }

    /// The end of the name starting at `from`, trailing dots left out;
    /// None when more bytes are needed.
    fn name_end(&self, from: usize) -> Option<usize> {
        let buf = &self.buf;
        let mut i = from;
        while i < buf.len() {
            let b = buf[i];
            if b == b'\\' {
                i += 2;
            } else if b.is_ascii_alphanumeric() || b"_-.:%".contains(&b) || b >= 0x80 {
                i += 1;
            } else {
                break;
            }
        }
        if i >= buf.len() && !self.eof {
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
            self.directive = Directive::None;
            return Some(None);
        }
        self.pos = end;
        let word = String::from_utf8_lossy(&self.buf[i..end]).into_owned();
        let Some((prefix, local)) = word.split_once(':') else {
            self.directive = if word.eq_ignore_ascii_case("prefix") {
                Directive::Prefix
            } else if word.eq_ignore_ascii_case("base") {
                Directive::Base
            } else {
                Directive::None
            };
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
        Some(Some(Token {
            offset: self.start + i as u64,
            kind: Kind::Name {
                prefix: prefix.to_owned(),
                local: unescaped,
                written: word,
            },
            role: Role::Term,
        }))
    }

    /// An IRIREF at `pos` (its `<`): Some(Some(token)), Some(None) for a
    /// `<` that starts none (unterminated, or longer than [`MAX_IRI`]:
    /// oxttl reports it), None when more bytes are needed.
    fn iri(&mut self) -> Option<Option<Token>> {
        let buf = &self.buf;
        let open = self.pos;
        let mut i = open + 1;
        let close = loop {
            let found = memchr2(b'>', b'\\', &buf[i..]);
            match found {
                Some(k) if buf[i + k] == b'>' => break i + k,
                Some(k) => i += k + 2,
                None => i = buf.len(),
            }
            if i >= buf.len() {
                if self.eof || buf.len() - open > MAX_IRI {
                    self.pos = open + 1;
                    self.directive = Directive::None;
                    return Some(None);
                }
                return None;
            }
        };
        let written = unescape_iri(&buf[open + 1..close]);
        self.pos = close + 1;
        let role = match std::mem::take(&mut self.directive) {
            Directive::Base => Role::Base,
            Directive::PrefixName(name) => Role::Prefix(name),
            _ => Role::Term,
        };
        Some(Some(Token {
            offset: self.start + open as u64 + 1,
            kind: Kind::Iri(written),
            role,
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
    use super::{unescape_iri, Kind, Lexer, Role};

    fn tokens(text: &str, chunk: usize) -> Vec<(u64, Kind, Role)> {
        let mut lexer = Lexer::default();
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

    #[test]
    fn skips_a_byte_order_mark() {
        let text = "\u{FEFF}@prefix e: <http://e/> . e:a e:b e:c .";
        let found = tokens(text, 1 << 10);
        assert_eq!(found.len(), 4, "{found:?}");
        assert_eq!(found[0].0, 15);
    }

    #[test]
    fn unescapes() {
        assert_eq!(unescape_iri(b"a\\U0001F600b\\x"), "a\u{1F600}b\\x");
    }
}
