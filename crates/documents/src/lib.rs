//! The IRIs inside documents: N-Triples, N-Quads, Turtle, TriG, RDF/XML,
//! HTML and XML, read by real parsers in constant memory, each IRI with
//! its place (byte offset, 1-based line and column in characters of the
//! decoded text) and its role in the document (an RDF position, or the
//! element and attribute it is the value of). A syntax error of the
//! document is an item of its own, with its place; reading goes on where
//! the parser recovers.
//!
//! The parsers: oxttl (N-Triples, N-Quads, Turtle, TriG, leniently, so that
//! a bad IRI reaches the checker instead of stopping the parse), oxrdfxml
//! (RDF/XML's syntax errors), quick-xml (XML and RDF/XML's IRIs, with byte
//! positions) and lol_html (HTML5 tokenizing, in constant memory). This is
//! what `iri check --from FORMAT` runs.
//!
//! [`read`] gives every [`Found`] item to a callback, in document order, as
//! it is found: the parsers push their findings a chunk at a time, and an
//! iterator would have to hold a chunk's findings, which a callback does
//! not. (A syntax error that oxttl reports only once it has read past it,
//! in a malformed document, may come after IRIs that follow it; its place
//! is exact all the same.) [`Found::check`] checks one with a [`Checker`].
//!
//! ```
//! use iribis::check::{CheckOptions, Checker};
//! use iribis_documents::{read, Format, Options, What};
//!
//! let doc = "<http://example.org/s> <http://example.org/p> <http://example.org/a b> .\n";
//! let mut checker = Checker::new(CheckOptions::default());
//! let mut invalid = Vec::new();
//! read(doc.as_bytes(), &Options::new(Format::NTriples), |found| {
//!     if let Some(Ok(report)) = found.check(&mut checker) {
//!         if !report.valid {
//!             invalid.push((found.line, found.column, found.written().to_owned()));
//!         }
//!     }
//!     Ok(())
//! })?;
//! assert_eq!(invalid, [(1, 48, "http://example.org/a b".to_owned())]);
//! # Ok::<(), std::io::Error>(())
//! ```

mod charset;
mod html;
mod input;
mod markup;
mod position;
mod turtle;
mod xml;

pub use html::{HTML_MEMORY_LIMIT, HTML_REREAD_LIMIT};
pub use xml::ENTITY_EXPANSION_LIMIT;

/// The longest token the readers hold: in N-Triples, N-Quads, Turtle and
/// TriG an IRI, a string, a name, a number or a comment; in XML and RDF/XML
/// a text, a tag with its attributes, a comment, a CDATA section, a
/// declaration (a DOCTYPE) or a processing instruction. One that goes on
/// past it is a document error at its start, and the document is not read
/// further: memory stays within a few times this limit, whatever the
/// length of the token. (HTML has its own, [`HTML_MEMORY_LIMIT`].)
///
/// ```
/// use iribis_documents::{read, Format, Options, What, TOKEN_LIMIT};
///
/// let mut doc = b"<http://e/s> <http://e/p> \"".to_vec();
/// doc.resize(doc.len() + TOKEN_LIMIT + 1, b'a');
/// let mut errors = Vec::new();
/// read(&doc[..], &Options::new(Format::NTriples), |f| {
///     if let What::SyntaxError { message } = f.what {
///         errors.push((f.column, message));
///     }
///     Ok(())
/// })?;
/// assert_eq!(errors.len(), 1);
/// assert_eq!(errors[0].0, 27);
/// assert!(errors[0].1.contains("16 MiB"), "{}", errors[0].1);
/// # Ok::<(), std::io::Error>(())
/// ```
pub const TOKEN_LIMIT: usize = 16 * 1024 * 1024;

use std::fmt;
use std::io::{self, Read};

use iribis::IriRef;
use iribis::check::{Checker, Code, Report, Severity, Violation};

/// A document format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// N-Triples (RDF 1.1): `<...>` IRIs, absolute only (a relative one is
    /// `RDF_RELATIVE_IRI`, not resolved).
    NTriples,
    /// N-Quads (RDF 1.1): `<...>` IRIs, absolute only.
    NQuads,
    /// Turtle (RDF 1.1): `<...>` IRIs and prefixed names, `@base`,
    /// `@prefix`.
    Turtle,
    /// TriG (RDF 1.1): as Turtle, with graphs.
    TriG,
    /// RDF/XML: `rdf:about`, `rdf:resource`, `rdf:datatype`, `rdf:type`
    /// (as a property attribute), `rdf:ID`, `xml:base`, namespaces, and the
    /// names of properties and types.
    RdfXml,
    /// HTML: `href`, `src`, `srcset`, `action`, `formaction`, `cite`,
    /// `data`, `poster`, `manifest`; `<base href>` sets the base.
    Html,
    /// XML: namespace names, `xml:base`, `xsi:schemaLocation`.
    Xml,
}

impl Format {
    /// Every format.
    pub const ALL: &'static [Format] = &[
        Format::NTriples,
        Format::NQuads,
        Format::Turtle,
        Format::TriG,
        Format::RdfXml,
        Format::Html,
        Format::Xml,
    ];

    /// The name of the format, as `iri check --from` spells it.
    ///
    /// ```
    /// assert_eq!(iribis_documents::Format::RdfXml.name(), "rdfxml");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Format::NTriples => "ntriples",
            Format::NQuads => "nquads",
            Format::Turtle => "turtle",
            Format::TriG => "trig",
            Format::RdfXml => "rdfxml",
            Format::Html => "html",
            Format::Xml => "xml",
        }
    }

    /// The name of the format as its spec writes it (`N-Triples`,
    /// `RDF/XML`).
    pub fn title(self) -> &'static str {
        match self {
            Format::NTriples => "N-Triples",
            Format::NQuads => "N-Quads",
            Format::Turtle => "Turtle",
            Format::TriG => "TriG",
            Format::RdfXml => "RDF/XML",
            Format::Html => "HTML",
            Format::Xml => "XML",
        }
    }

    /// Whether it is one of the RDF formats oxttl reads (N-Triples,
    /// N-Quads, Turtle, TriG).
    fn is_turtle_family(self) -> bool {
        matches!(
            self,
            Format::NTriples | Format::NQuads | Format::Turtle | Format::TriG
        )
    }
}

/// The format by its name ([`Format::name`]), case-insensitively.
///
/// ```
/// use iribis_documents::Format;
/// assert_eq!("TriG".parse::<Format>().unwrap(), Format::TriG);
/// assert!("json".parse::<Format>().is_err());
/// ```
impl std::str::FromStr for Format {
    type Err = iribis::UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Format::ALL
            .iter()
            .copied()
            .find(|f| f.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                iribis::UnknownName::new(
                    "document format",
                    s,
                    &[
                        "ntriples", "nquads", "turtle", "trig", "rdfxml", "html", "xml",
                    ],
                )
            })
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How to read a document: its format and the base IRI it starts with.
///
/// ```
/// use iribis_documents::{Format, Options};
///
/// let options = Options::new(Format::Turtle).base("http://example.org/doc")?;
/// assert_eq!(options.format(), Format::Turtle);
/// assert!(Options::new(Format::Turtle).base("rel/dir/").is_err());
/// # Ok::<(), iribis_documents::BaseError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Options {
    format: Format,
    base: Option<String>,
    encoding: Option<&'static encoding_rs::Encoding>,
}

impl Options {
    /// Reading a document of `format`, without a base IRI until it declares
    /// one.
    pub fn new(format: Format) -> Self {
        Options {
            format,
            base: None,
            encoding: None,
        }
    }

    /// The document's encoding, by a label of the WHATWG Encoding Standard
    /// (`shift_jis`, `latin1`, `utf-16le`), as a transport layer's charset
    /// gives it: a byte order mark still wins, and for HTML and XML it
    /// wins over the document's own declaration. N-Triples, N-Quads,
    /// Turtle and TriG are UTF-8: another encoding is an error.
    ///
    /// ```
    /// use iribis_documents::{Format, Options};
    ///
    /// assert!(Options::new(Format::Html).encoding("Shift_JIS").is_ok());
    /// assert!(Options::new(Format::Html).encoding("no-such").is_err());
    /// assert!(Options::new(Format::Turtle).encoding("latin1").is_err());
    /// ```
    pub fn encoding(mut self, label: &str) -> Result<Self, EncodingError> {
        let encoding = input::for_label(label.trim().as_bytes()).ok_or_else(|| EncodingError {
            message: format!(
                "{label:?} is not a label of the WHATWG Encoding Standard (utf-8, utf-16le, shift_jis, euc-jp, iso-8859-2, windows-1251, koi8-r, gbk, big5, euc-kr, ...)"
            ),
        })?;
        if self.format.is_turtle_family() && encoding != encoding_rs::UTF_8 {
            return Err(EncodingError {
                message: format!(
                    "{} documents are UTF-8 (RDF 1.1): there is no other encoding to give",
                    self.format.title()
                ),
            });
        }
        self.encoding = Some(encoding);
        Ok(self)
    }

    /// The base IRI of the document before it declares one (RFC 3986
    /// §5.1.3: the document's own location, or one the user gives). It
    /// must be an absolute IRI (RFC 3986 §5.1: a base has a scheme and no
    /// fragment; one with a fragment is taken without it).
    pub fn base(mut self, base: &str) -> Result<Self, BaseError> {
        match iribis::Iri::parse(base) {
            Ok(iri) => {
                let without_fragment = match iri.fragment() {
                    Some(f) => &base[..base.len() - f.len() - 1],
                    None => base,
                };
                self.base = Some(without_fragment.to_owned());
                Ok(self)
            }
            Err(e) => Err(BaseError {
                base: base.to_owned(),
                error: e,
            }),
        }
    }

    /// The format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The base IRI given, if any.
    pub fn base_iri(&self) -> Option<&str> {
        self.base.as_deref()
    }
}

/// An encoding that cannot be used: a label the WHATWG Encoding Standard
/// does not know, or an encoding other than UTF-8 for an RDF format.
#[derive(Clone, Debug)]
pub struct EncodingError {
    message: String,
}

impl fmt::Display for EncodingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EncodingError {}

/// A base IRI that is not an absolute IRI.
#[derive(Clone, Debug)]
pub struct BaseError {
    base: String,
    error: iribis::ParseError,
}

impl BaseError {
    /// The parse error: why the base is not an IRI.
    pub fn parse_error(&self) -> &iribis::ParseError {
        &self.error
    }
}

impl fmt::Display for BaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the base {:?} is not an absolute IRI (RFC 3986 §5.1): {}",
            self.base,
            self.error.message()
        )
    }
}

impl std::error::Error for BaseError {}

/// Something found in a document: an IRI reference, a name that stands for
/// an IRI, or a syntax error of the document, at its byte offset and its
/// 1-based line and column (in characters; a line ends at LF, a byte order
/// mark at the start takes no column).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Found {
    /// The byte offset in the document of its first character (inside the
    /// delimiters: after `<` in the RDF formats, after the attribute's
    /// quote in HTML and XML).
    pub offset: u64,
    /// The 1-based line.
    pub line: usize,
    /// The 1-based column, in characters.
    pub column: usize,
    /// What it is to the document.
    pub role: Role,
    /// What was found.
    pub what: What,
    /// The name of the document's encoding, as the WHATWG Encoding
    /// Standard writes it (`UTF-8`, `UTF-16LE`, `Shift_JIS`).
    pub encoding: &'static str,
    /// Octets of the IRI that the document's encoding cannot decode (a
    /// U+FFFD stands for them in the text): then the IRI is not checked.
    pub undecodable: Option<Undecodable>,
    /// The format allows only absolute IRIs here (N-Triples and N-Quads,
    /// which have no base): a relative reference is `RDF_RELATIVE_IRI`.
    absolute_only: bool,
}

/// What was found.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum What {
    /// An IRI reference, as written (the format's escapes decoded), and
    /// resolved against the base when it is relative. The reference is
    /// what is checked.
    Reference {
        /// As written, escapes and character references decoded.
        written: String,
        /// Resolved against the document's base (RFC 3986 §5.2), when it
        /// is relative and both parse.
        resolved: Option<String>,
    },
    /// A name that stands for an IRI (a prefixed name, an RDF/XML element
    /// or attribute name, an `rdf:ID`), as written, and that IRI. The IRI
    /// is what is checked.
    Name {
        /// The name as written.
        written: String,
        /// The IRI it stands for.
        iri: String,
    },
    /// A syntax error of the document (or another reason it could not be
    /// read on from there).
    SyntaxError {
        /// What is wrong, in the parser's words.
        message: String,
    },
    /// A finding about the document as a whole, under a code of the
    /// catalogue: `DOCUMENT_REPLACEMENT_ENCODING` (an HTML page browsers
    /// decode as one U+FFFD, so no IRI of it is reported),
    /// `DOCUMENT_ENCODING_NOT_REREAD` (a late `<meta>` that a stream could
    /// not be read again for). [`Found::check`] gives it as a report with
    /// that one finding, at the severity the checker's options give the
    /// code.
    DocumentFinding {
        /// The code.
        code: Code,
        /// Why, with the spec sections.
        message: String,
    },
}

/// What an IRI is to its document: its place in an RDF statement or
/// directive, and for the markup formats the element and attribute it is
/// the value (or the name) of.
///
/// ```
/// use iribis_documents::{read, Format, Options, Position};
///
/// let mut roles = Vec::new();
/// read(&b"<base href=\"http://e/\"><img src=\"a.png\">"[..], &Options::new(Format::Html), |f| {
///     roles.push((f.role.position, f.role.element.clone(), f.role.attribute.clone()));
///     Ok(())
/// })?;
/// assert_eq!(roles[0], (Position::Base, Some("base".into()), Some("href".into())));
/// assert_eq!(roles[1], (Position::Link, Some("img".into()), Some("src".into())));
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Role {
    /// Its place.
    pub position: Position,
    /// The element (as written: `a`, `rdf:Description`), in HTML, XML and
    /// RDF/XML.
    pub element: Option<String>,
    /// The attribute (as written: `href`, `rdf:about`), when it is an
    /// attribute's value or name.
    pub attribute: Option<String>,
}

/// The place of an IRI in its document.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Position {
    /// Not an IRI: a syntax error.
    #[default]
    None,
    /// The subject of a triple.
    Subject,
    /// The predicate (property) of a triple.
    Predicate,
    /// The object of a triple.
    Object,
    /// The graph name of a quad.
    Graph,
    /// The datatype of a literal.
    Datatype,
    /// A type: the object of an `rdf:type` triple that RDF/XML writes as a
    /// typed node element (and Turtle's object after `a`).
    Type,
    /// A base IRI the document declares (`@base`, `BASE`, `xml:base`,
    /// `<base href>`).
    Base,
    /// The IRI of a prefix declaration (`@prefix`, `PREFIX`).
    Prefix,
    /// A namespace name (`xmlns`, `xmlns:p`).
    Namespace,
    /// A link: the URL of an HTML attribute.
    Link,
    /// A schema location (`xsi:schemaLocation`,
    /// `xsi:noNamespaceSchemaLocation`).
    SchemaLocation,
}

impl Position {
    /// Its name in lowercase: `subject`, `predicate`, `object`, `graph`,
    /// `datatype`, `type`, `base`, `prefix`, `namespace`, `link`,
    /// `schema-location`, or `none`.
    ///
    /// ```
    /// assert_eq!(iribis_documents::Position::Subject.name(), "subject");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Position::None => "none",
            Position::Subject => "subject",
            Position::Predicate => "predicate",
            Position::Object => "object",
            Position::Graph => "graph",
            Position::Datatype => "datatype",
            Position::Type => "type",
            Position::Base => "base",
            Position::Prefix => "prefix",
            Position::Namespace => "namespace",
            Position::Link => "link",
            Position::SchemaLocation => "schema-location",
        }
    }
}

impl Role {
    /// A role at `position`, outside markup.
    pub(crate) fn at(position: Position) -> Self {
        Role {
            position,
            element: None,
            attribute: None,
        }
    }

    /// A role at `position`, in `element`, from `attribute`.
    pub(crate) fn markup(position: Position, element: &str, attribute: Option<&str>) -> Self {
        Role {
            position,
            element: Some(element.to_owned()),
            attribute: attribute.map(str::to_owned),
        }
    }
}

/// ```
/// use iribis_documents::{read, Format, Options, Position};
///
/// let doc = "@prefix ex: <http://example.org/> . ex:s ex:p <o> .";
/// let options = Options::new(Format::Turtle).base("http://example.org/doc")?;
/// let mut found = Vec::new();
/// read(doc.as_bytes(), &options, |f| {
///     found.push((f.role.position, f.written().to_owned(), f.resolved().map(str::to_owned)));
///     Ok(())
/// })?;
/// assert_eq!(found[1], (Position::Subject, "ex:s".into(), Some("http://example.org/s".into())));
/// assert_eq!(found[3], (Position::Object, "o".into(), Some("http://example.org/o".into())));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl Found {
    /// The text as the document writes it (empty for a syntax error).
    pub fn written(&self) -> &str {
        match &self.what {
            What::Reference { written, .. } | What::Name { written, .. } => written,
            What::SyntaxError { .. } | What::DocumentFinding { .. } => "",
        }
    }

    /// The text to check: a reference as written, the IRI a name stands
    /// for; None for a syntax error.
    pub fn checked(&self) -> Option<&str> {
        match &self.what {
            What::Reference { written, .. } => Some(written),
            What::Name { iri, .. } => Some(iri),
            What::SyntaxError { .. } | What::DocumentFinding { .. } => None,
        }
    }

    /// The IRI it resolves to: a relative reference resolved, the IRI of a
    /// name; None for an absolute reference (it is its own) and a syntax
    /// error.
    pub fn resolved(&self) -> Option<&str> {
        match &self.what {
            What::Reference { resolved, .. } => resolved.as_deref(),
            What::Name { iri, .. } => Some(iri),
            What::SyntaxError { .. } | What::DocumentFinding { .. } => None,
        }
    }

    /// Checks the IRI with `checker` (see [`Found::checked`]), and what
    /// the document adds: `QUERY_DOCUMENT_CHARSET` for an http(s) IRI
    /// whose query has characters outside ASCII in a document that is not
    /// in UTF-8 or UTF-16 (3987bis §3.5). None for a syntax error; the
    /// [`Undecodable`] octets of an IRI that cannot be decoded. The result
    /// is what `iri check --from` reports.
    ///
    /// ```
    /// use iribis::check::{CheckOptions, Checker, Code};
    /// use iribis_documents::{read, Format, Options};
    ///
    /// // <a href="http://example.jp/?q=日本"> in Shift_JIS.
    /// let page = b"<meta charset=shift_jis><a href=\"http://example.jp/?q=\x93\xfa\x96\x7b\">";
    /// let mut checker = Checker::new(CheckOptions::default());
    /// let mut codes = Vec::new();
    /// read(&page[..], &Options::new(Format::Html), |found| {
    ///     assert_eq!(found.encoding, "Shift_JIS");
    ///     let report = found.check(&mut checker).unwrap().unwrap();
    ///     codes.extend(report.violations.iter().map(|v| v.code));
    ///     Ok(())
    /// })?;
    /// assert_eq!(codes, [Code::QueryDocumentCharset]);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn check(&self, checker: &mut Checker) -> Option<Result<Report, Undecodable>> {
        if let What::DocumentFinding { code, message } = &self.what {
            let severity = checker.options().severities.of(*code);
            // An empty report (Report is built only by the checker).
            let mut report = checker.check("");
            report.violations.clear();
            report.valid = true;
            if severity != Severity::Allow {
                report.valid = severity != Severity::Error;
                report.violations.push(Violation::new(
                    *code,
                    severity,
                    message.clone(),
                    (0, 0, 0),
                    iribis::Component::Input,
                ));
            }
            return Some(Ok(report));
        }
        let checked = self.checked()?;
        if let Some(u) = &self.undecodable {
            return Some(Err(u.clone()));
        }
        let mut report = checker.check(checked);
        if self.absolute_only {
            relative_in_rdf(&mut report, checked, &checker.options().severities);
        }
        if let (What::Reference { written, resolved }, Some(encoding)) = (
            &self.what,
            encoding_rs::Encoding::for_label(self.encoding.as_bytes()),
        ) {
            let target = resolved.as_deref().unwrap_or(written);
            charset::add_findings(
                &mut report,
                written,
                target,
                encoding,
                &checker.options().severities,
            );
        }
        Some(Ok(report))
    }
}

/// Adds `RDF_RELATIVE_IRI` to `report` when `written` (an IRI of an
/// N-Triples or N-Quads document) has no scheme: RDF 1.1 N-Triples §2.1
/// and N-Quads §2.1 allow only absolute IRIs.
fn relative_in_rdf(report: &mut Report, written: &str, severities: &iribis::check::Severities) {
    let severity = severities.of(Code::RdfRelativeIri);
    if severity == Severity::Allow {
        return;
    }
    // A reference that does not parse has its SYNTAX_ERROR already; one
    // with a scheme is absolute (a fragment is an IRI's, RDF 1.1 Concepts
    // §3.2).
    if !IriRef::parse(written).is_ok_and(|r| r.scheme().is_none()) {
        return;
    }
    report.violations.insert(
        0,
        Violation::new(
            Code::RdfRelativeIri,
            severity,
            format!(
                "{written:?} is a relative IRI reference: N-Triples and N-Quads have no base, and allow only absolute IRIs (RDF 1.1 N-Triples §2.1, N-Quads §2.1); parsers reject it or resolve it against whatever base they have: write the absolute IRI"
            ),
            (0, 0, written.chars().count().max(1)),
            iribis::Component::Input,
        ),
    );
    if severity == Severity::Error {
        report.valid = false;
    }
}

/// An IRI with bytes that the document's encoding cannot decode: it is not
/// checked, because its characters are not known.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Undecodable {
    /// The byte offset in the document of the first octet not decodable.
    pub byte: u64,
    /// The character offset in the IRI as written where it stands.
    pub char: usize,
    /// The octets.
    pub octets: Vec<u8>,
    /// The encoding's name.
    pub encoding: &'static str,
}

impl fmt::Display for Undecodable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hex: Vec<String> = self.octets.iter().map(|b| format!("{b:02X}")).collect();
        let (octets, are) = if self.octets.len() == 1 {
            ("the octet", "is")
        } else {
            ("the octets", "are")
        };
        write!(
            f,
            "not {} at byte {} of the document, character {} of the IRI: {octets} {} {are} no character in {}, and an IRI is a sequence of Unicode characters: convert the document to the encoding it declares (or declare the one it is in), or percent-encode the octets (3987bis §3.1)",
            self.encoding,
            self.byte,
            self.char,
            hex.join(" "),
            self.encoding
        )
    }
}

/// A reader of text in a WHATWG encoding, giving it as UTF-8, in streaming
/// (encoding_rs's decoder keeps a character split across reads); a byte
/// order mark at the start wins over the label, as in documents. Each
/// sequence the encoding cannot decode becomes U+FFFD, and is recorded:
/// [`DecodingReader::undecodable`] says where. `iri check|parse|to-uri
/// --encoding` reads lines through it.
///
/// ```
/// use std::io::Read;
/// use iribis_documents::DecodingReader;
///
/// let mut r = DecodingReader::new(&b"caf\xE9 \x81"[..], "windows-1252")?;
/// let log = r.undecodable();
/// let mut text = String::new();
/// r.read_to_string(&mut text)?;
/// assert_eq!(text, "café \u{81}");
/// assert!(log.first_within(0, 100).is_none());
///
/// let mut r = DecodingReader::new(&b"\x93\xFA \xA0"[..], "shift_jis")?;
/// let log = r.undecodable();
/// let mut text = String::new();
/// r.read_to_string(&mut text)?;
/// assert_eq!(text, "日 \u{FFFD}");
/// let (at, bad) = log.first_within(0, 100).unwrap();
/// assert_eq!((at, bad.byte, bad.octets.as_slice()), (4, 3, &[0xA0][..]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct DecodingReader<R> {
    inner: input::Decoded<io::Chain<io::Cursor<Vec<u8>>, R>>,
    encoding: &'static encoding_rs::Encoding,
    /// An error of the first read, given at the first read of the caller.
    failed: Option<io::Error>,
}

impl<R: Read> DecodingReader<R> {
    /// Decodes `reader` from the encoding `label` names (a WHATWG label),
    /// or the one its byte order mark names.
    pub fn new(mut reader: R, label: &str) -> Result<Self, EncodingError> {
        let given = input::for_label(label.trim().as_bytes()).ok_or_else(|| EncodingError {
            message: format!(
                "{label:?} is not a label of the WHATWG Encoding Standard (utf-8, utf-16le, shift_jis, euc-jp, iso-8859-2, windows-1251, koi8-r, gbk, big5, euc-kr, ...)"
            ),
        })?;
        // A read error here is given at the caller's first read.
        let (head, failed) = match input::read_head(&mut reader, 3) {
            Ok(head) => (head, None),
            Err(e) => (Vec::new(), Some(e)),
        };
        let (encoding, bom) = input::bom(&head).unwrap_or((given, 0));
        let rest = io::Cursor::new(Vec::new()).chain(reader);
        Ok(DecodingReader {
            inner: input::Decoded::new(rest, head, bom, encoding),
            encoding,
            failed,
        })
    }

    /// The name of the encoding read.
    pub fn encoding(&self) -> &'static str {
        self.encoding.name()
    }

    /// Where the undecodable sequences are, as they are read.
    pub fn undecodable(&self) -> UndecodableLog {
        UndecodableLog {
            bads: std::rc::Rc::clone(&self.inner.bad),
            encoding: self.encoding.name(),
        }
    }
}

impl<R: Read> Read for DecodingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        self.inner.read(buf)
    }
}

/// The undecodable sequences a [`DecodingReader`] met, by their offsets in
/// the UTF-8 it gives.
#[derive(Clone)]
pub struct UndecodableLog {
    bads: input::Bads,
    encoding: &'static str,
}

impl UndecodableLog {
    /// The first undecodable sequence whose U+FFFD is in the decoded text
    /// from `start` to `end` (a byte range of the UTF-8 read): the offset
    /// of its U+FFFD there, and its offset in the input (`byte`) and
    /// octets (`char` is 0: the log has no text to count characters in).
    /// Sequences before `start` are forgotten: ask in order.
    pub fn first_within(&self, start: u64, end: u64) -> Option<(u64, Undecodable)> {
        let bad = input::bad_within(&self.bads, start, end)?;
        Some((
            bad.decoded,
            Undecodable {
                byte: bad.original,
                char: 0,
                octets: bad.octets,
                encoding: self.encoding,
            },
        ))
    }
}

/// Reads a document of `options.format()` from `reader`, giving every IRI
/// and syntax error to `sink` in document order, as soon as it is known.
/// An error of `reader` or `sink` stops the reading and is returned.
pub fn read(
    reader: impl Read,
    options: &Options,
    mut sink: impl FnMut(Found) -> io::Result<()>,
) -> io::Result<()> {
    let sink: &mut dyn FnMut(Found) -> io::Result<()> = &mut sink;
    match options.format {
        f if f.is_turtle_family() => turtle::scan(options, reader, sink),
        Format::Html => {
            let mut reader = reader;
            let source = html::Source::Stream {
                reader: &mut reader,
                kept: Some(Vec::new()),
                at: 0,
            };
            html::scan_html(options, source, sink).map(drop)
        }
        _ => xml::scan_xml(options, reader, sink),
    }
}

/// As [`read`], from a reader that can go back to where it starts (a
/// file): an HTML document whose encoding a late `<meta>` changes is read
/// again from the start (HTML §13.2.3.4), whatever its length, where
/// [`read`] can do so only within its first [`HTML_REREAD_LIMIT`] bytes.
/// The other formats are read as [`read`] reads them.
///
/// ```
/// use std::io::Cursor;
/// use iribis_documents::{read_seekable, Format, Options};
///
/// // A <meta> past the prescan's 1,024 bytes: read again in windows-1251.
/// let mut page = format!("<!--{}-->", "x".repeat(1100)).into_bytes();
/// page.extend_from_slice(b"<meta charset=windows-1251><a href=\"http://example.org/\xEF\">x</a>");
/// let mut found = Vec::new();
/// read_seekable(Cursor::new(page), &Options::new(Format::Html), |f| {
///     found.push((f.written().to_owned(), f.encoding));
///     Ok(())
/// })?;
/// assert_eq!(found, [("http://example.org/п".to_owned(), "windows-1251")]);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn read_seekable<R: Read + io::Seek>(
    mut reader: R,
    options: &Options,
    mut sink: impl FnMut(Found) -> io::Result<()>,
) -> io::Result<()> {
    if options.format != Format::Html {
        return read(reader, options, sink);
    }
    let start = reader.stream_position()?;
    let source = html::Source::Seekable {
        reader: &mut reader,
        start,
    };
    html::scan_html(options, source, &mut sink).map(drop)
}

/// The encoding a browser reads an HTML document in, with no encoding from
/// the transport layer (`options`' encoding, if given, is one): its byte
/// order mark; else the prescan of its first 1,024 bytes for a `<meta>`
/// (HTML §13.2.3.2), or the guess a browser makes (chardetng); then the
/// first `<meta>` with a charset the parser meets, which changes a
/// tentative encoding (§13.2.3.4). The WHATWG name of the encoding;
/// `replacement` for a label of the replacement encoding. The document is
/// read to its end (to find a late `<meta>`), in constant memory.
///
/// ```
/// use iribis_documents::{html_encoding, Format, Options};
///
/// let html = Options::new(Format::Html);
/// assert_eq!(html_encoding(&b"<meta charset=euc-jp>"[..], &html)?, "EUC-JP");
/// // The prescan gives up on an attribute its 1,024 bytes cut, and the
/// // parser never sees the tag: the document is read as if it had none.
/// assert_ne!(html_encoding(&b"<meta charset=euc-jp"[..], &html)?, "EUC-JP");
/// assert_eq!(html_encoding(&b"<meta charset=iso-2022-kr>"[..], &html)?, "replacement");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn html_encoding(mut reader: impl Read, options: &Options) -> io::Result<&'static str> {
    let mut options = options.clone();
    options.format = Format::Html;
    let source = html::Source::Stream {
        reader: &mut reader,
        kept: Some(Vec::new()),
        at: 0,
    };
    html::scan_html(&options, source, &mut |_| Ok(())).map(|e| e.name())
}

/// Reads the next chunk of `reader` into `chunk` (0 at its end); a read
/// interrupted by a signal is tried again.
pub(crate) fn read_chunk(reader: &mut impl Read, chunk: &mut [u8]) -> io::Result<usize> {
    loop {
        match reader.read(chunk) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}

/// Writes the items of `first` and `second` (each in document order) to
/// `sink` in document order; at the same offset, `second`'s first (an error
/// before the IRI it is about).
pub(crate) fn merge_in_order(
    first: Vec<Found>,
    second: Vec<Found>,
    sink: &mut dyn FnMut(Found) -> io::Result<()>,
) -> io::Result<()> {
    let (mut xs, mut ys) = (first.into_iter().peekable(), second.into_iter().peekable());
    loop {
        let next = match (xs.peek(), ys.peek()) {
            (Some(x), Some(y)) if y.offset <= x.offset => ys.next(),
            (Some(_), _) => xs.next(),
            (None, Some(_)) => ys.next(),
            (None, None) => return Ok(()),
        };
        if let Some(f) = next {
            sink(f)?;
        }
    }
}

/// `written` resolved against `base` (RFC 3986 §5.2) when it is a relative
/// reference and both parse; None otherwise.
pub(crate) fn resolve_relative(base: Option<&str>, written: &str) -> Option<String> {
    let base = base?;
    let relative = IriRef::parse(written).is_ok_and(|r| r.scheme().is_none());
    if !relative {
        return None;
    }
    iribis::resolve(base, written).ok().map(|i| i.into_string())
}
