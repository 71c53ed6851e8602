//! `iri check --from FORMAT FILE...`: the IRIs inside documents, each with
//! its position (the 1-based line and column, in characters, of its first
//! character inside its delimiters), read by real parsers in constant
//! memory: oxttl (N-Triples, N-Quads, Turtle, TriG), oxrdfxml (RDF/XML),
//! lol_html (HTML) and quick-xml (XML). A syntax error in a document is a
//! finding with its position; checking goes on where the parser recovers.

mod markup;
mod position;
mod turtle;

use std::cell::RefCell;
use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use anstyle::AnsiColor;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use iribis::check::{CheckOptions, Checker, Report};
use iribis::render::escape_line;
use iribis::IriRef;
use serde::Serialize;

use super::{sarif, write_findings, write_json_line, Format, Summary};
use crate::output::{guarded, write_serialized};
use crate::Outcome;

/// The document formats of `--from`.
#[derive(clap::ValueEnum, Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum DocFormat {
    /// N-Triples (RDF 1.1): `<...>` IRIs.
    Ntriples,
    /// N-Quads (RDF 1.1): `<...>` IRIs.
    Nquads,
    /// Turtle (RDF 1.1): `<...>` IRIs and prefixed names, @base, @prefix.
    Turtle,
    /// TriG (RDF 1.1): as Turtle, with graphs.
    Trig,
    /// RDF/XML: rdf:about, rdf:resource, rdf:datatype, rdf:ID, xml:base,
    /// namespaces, and the names of properties and types.
    Rdfxml,
    /// HTML: href, src, srcset, action, formaction, cite, data, poster,
    /// manifest; <base href> sets the base.
    Html,
    /// XML: namespace names, xml:base, xsi:schemaLocation.
    Xml,
}

impl DocFormat {
    /// The name of the format, as `--from` spells it.
    fn name(self) -> &'static str {
        match self {
            DocFormat::Ntriples => "ntriples",
            DocFormat::Nquads => "nquads",
            DocFormat::Turtle => "turtle",
            DocFormat::Trig => "trig",
            DocFormat::Rdfxml => "rdfxml",
            DocFormat::Html => "html",
            DocFormat::Xml => "xml",
        }
    }
}

/// One document being read.
pub(crate) struct Doc<'a> {
    pub(crate) format: DocFormat,
    /// The base IRI before the document declares one: `--base`, or the
    /// file's own `file:` IRI.
    pub(crate) base: Option<String>,
    progress: Option<&'a ProgressBar>,
}

impl Doc<'_> {
    /// Counts `n` more bytes read.
    pub(crate) fn progress(&self, n: usize) {
        if let Some(bar) = self.progress {
            bar.inc(n as u64);
        }
    }

    /// Reads the next chunk of the document into `chunk` (0 at its end),
    /// counted on the progress bar; a read interrupted by a signal is
    /// tried again.
    pub(crate) fn read(&self, reader: &mut impl Read, chunk: &mut [u8]) -> io::Result<usize> {
        loop {
            match reader.read(chunk) {
                Ok(n) => {
                    self.progress(n);
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// [`Doc::progress`], as a function of its own.
    pub(crate) fn progress_fn(&self) -> Box<dyn Fn(usize)> {
        let bar = self.progress.cloned();
        Box::new(move |n| {
            if let Some(bar) = &bar {
                bar.inc(n as u64);
            }
        })
    }
}

/// Something found in a document, at its byte offset, 1-based line and
/// column (in characters).
pub(crate) struct Found {
    pub(crate) offset: u64,
    pub(crate) line: usize,
    pub(crate) column: usize,
    pub(crate) what: What,
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

pub(crate) enum What {
    /// An IRI reference, as written (the format's escapes decoded), and
    /// resolved against the base when it is relative. The reference is
    /// checked.
    Reference {
        written: String,
        resolved: Option<String>,
    },
    /// A name that stands for an IRI (a prefixed name, an RDF/XML element
    /// or attribute name, an rdf:ID), as written, and that IRI. The IRI is
    /// checked.
    Name { written: String, iri: String },
    /// A syntax error of the document.
    SyntaxError { message: String },
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

/// The `file:` IRI of a path (RFC 8089 §2), from its absolute form: every
/// octet outside the unreserved characters and `/` percent-encoded.
fn file_iri(path: &Path) -> Option<String> {
    let absolute = std::path::absolute(path).ok()?;
    Some(sarif::artifact_uri(&absolute))
}

/// What `iri check --from` was asked.
pub(crate) struct Request<'a> {
    pub(crate) format: DocFormat,
    pub(crate) output: Format,
    pub(crate) only_invalid: bool,
    pub(crate) base: Option<String>,
    pub(crate) files: Vec<PathBuf>,
    pub(crate) options: &'a CheckOptions,
}

/// Checks every IRI of every document, in document order.
pub(crate) fn run(request: Request<'_>) -> io::Result<Outcome> {
    let files = if request.files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        request.files.clone()
    };
    let stdin = |p: &Path| p.as_os_str() == "-";
    let progress = progress_bar(&files, stdin);
    let (out, color) = crate::output::stdout(request.output == Format::Human);
    let writer = RefCell::new(DocWriter {
        out,
        format: request.output,
        color,
        only_invalid: request.only_invalid,
        several: files.len() > 1,
        results: 0,
        summary: Summary::default(),
        syntax_errors: 0,
        doc_format: request.format,
        checker: Checker::new(request.options.clone()),
    });
    if request.output == Format::Sarif {
        sarif::write_head(&mut writer.borrow_mut().out)?;
    }
    for path in &files {
        let (name, uri) = if stdin(path) {
            ("-".to_owned(), "stdin".to_owned())
        } else {
            (
                path.to_string_lossy().into_owned(),
                sarif::artifact_uri(path),
            )
        };
        let base = match &request.base {
            Some(b) => Some(b.clone()),
            None if stdin(path) => None,
            None => file_iri(path),
        };
        let doc = Doc {
            format: request.format,
            base,
            progress: progress.as_ref(),
        };
        let place = Source {
            name: &name,
            uri: &uri,
        };
        let mut sink = |found: Found| writer.borrow_mut().write(&place, &found);
        let (inner, regular): (Box<dyn Read>, bool) = if stdin(path) {
            (Box::new(io::stdin().lock()), crate::inputs::stdin_is_file())
        } else {
            let file = File::open(path)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
            let regular = file.metadata().is_ok_and(|m| m.is_file());
            (Box::new(file), regular)
        };
        let reader = FlushFirst {
            inner,
            writer: &writer,
            regular,
        };
        match request.format {
            DocFormat::Ntriples | DocFormat::Nquads | DocFormat::Turtle | DocFormat::Trig => {
                turtle::scan(&doc, reader, &mut sink)
            }
            DocFormat::Html => markup::scan_html(&doc, reader, &mut sink),
            DocFormat::Rdfxml | DocFormat::Xml => markup::scan_xml(&doc, reader, &mut sink),
        }
        .map_err(|e| io::Error::new(e.kind(), format!("{name}: {e}")))?;
        writer.borrow_mut().out.flush()?;
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    writer.into_inner().finish()
}

/// A document's reader that flushes the answers so far before each read
/// that may wait (a pipe or a terminal, not a regular file), so that
/// `tail -f log.nt | iri check --from ntriples` answers each line at once.
struct FlushFirst<'a> {
    inner: Box<dyn Read + 'a>,
    writer: &'a RefCell<DocWriter>,
    regular: bool,
}

impl Read for FlushFirst<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if !self.regular {
            if let Ok(mut w) = self.writer.try_borrow_mut() {
                w.out.flush()?;
            }
        }
        self.inner.read(buf)
    }
}

/// A progress bar over the bytes of the files, when standard error is a
/// terminal and every file is a regular one.
fn progress_bar(files: &[PathBuf], stdin: impl Fn(&Path) -> bool) -> Option<ProgressBar> {
    if !io::stderr().is_terminal() {
        return None;
    }
    let mut total = 0;
    for f in files {
        if stdin(f) {
            return None;
        }
        let meta = std::fs::metadata(f).ok().filter(|m| m.is_file())?;
        total += meta.len();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} ({bytes_per_sec}, {eta} left)")
    {
        bar.set_style(style);
    }
    Some(bar)
}

/// The document a finding is in: its name (the path as given, `-` for
/// standard input) and its SARIF artifact URI.
struct Source<'a> {
    name: &'a str,
    uri: &'a str,
}

/// Where and how the findings of documents are written.
struct DocWriter {
    out: crate::output::Spill<Box<dyn Write>>,
    format: Format,
    color: bool,
    only_invalid: bool,
    /// More than one document: JSON gives each finding's `file`.
    several: bool,
    /// The SARIF results written so far.
    results: usize,
    summary: Summary,
    syntax_errors: usize,
    doc_format: DocFormat,
    /// One checker for all documents: their IRIs share hosts.
    checker: Checker,
}

/// The keys a JSON result of a document adds after `line`.
#[derive(Serialize)]
struct Position<'a> {
    column: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    resolved: Option<&'a str>,
}

/// The JSON result of a syntax error.
#[derive(Serialize)]
struct SyntaxErrorLine<'a> {
    input: &'a str,
    valid: bool,
    violations: [(); 0],
    syntax_error: SyntaxErrorObject<'a>,
    line: usize,
    column: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
}

#[derive(Serialize)]
struct SyntaxErrorObject<'a> {
    format: &'static str,
    message: &'a str,
    byte: u64,
}

impl DocWriter {
    fn write(&mut self, source: &Source<'_>, found: &Found) -> io::Result<()> {
        let file = self.several.then_some(source.name);
        let (written, checked, resolved) = match &found.what {
            What::SyntaxError { message } => {
                return self.write_syntax_error(source, found, message)
            }
            What::Reference { written, resolved } => (written, written, resolved.as_deref()),
            What::Name { written, iri } => (written, iri, Some(iri.as_str())),
        };
        let answer = guarded(|| self.checker.check(checked));
        match &answer {
            Ok(report) => self.summary.add(report),
            Err(_) => self.summary.add_failure(),
        }
        let valid = matches!(&answer, Ok(r) if r.valid);
        if valid && self.only_invalid {
            return Ok(());
        }
        // Offsets of findings are in the text checked: for a name, that is
        // its IRI, so its findings are placed at the name.
        let name = matches!(found.what, What::Name { .. });
        match self.format {
            Format::Json => {
                let mut extra = Vec::with_capacity(64);
                let position = Position {
                    column: found.column,
                    file,
                    resolved,
                };
                write_serialized(&mut extra, &position)?;
                // The pairs inside the braces.
                let pairs = &extra[1..extra.len() - 1];
                let mut tail = Vec::with_capacity(pairs.len() + 1);
                tail.push(b',');
                tail.extend_from_slice(pairs);
                write_json_line(&mut self.out, found.line, written, &answer, &tail)
            }
            Format::Sarif => {
                let place = sarif::Place {
                    uri: source.uri,
                    line: found.line,
                    column: found.column,
                };
                let answer = match answer {
                    Ok(report) if name => Ok(at_start(report)),
                    other => other,
                };
                self.results += sarif::write_results(&mut self.out, &place, &answer, self.results)?;
                Ok(())
            }
            Format::Human => {
                let verdict = if valid {
                    paint("valid", AnsiColor::Green.on_default(), self.color)
                } else {
                    paint("invalid", AnsiColor::Red.on_default(), self.color)
                };
                let shown = match (&found.what, resolved) {
                    (_, Some(r)) => format!("{} -> {}", escape_line(written), escape_line(r)),
                    _ => escape_line(written).into_owned(),
                };
                writeln!(
                    self.out,
                    "{}:{}:{}: {shown}: {verdict}",
                    iribis::render::escape_invisible(source.name),
                    found.line,
                    found.column
                )?;
                match &answer {
                    Ok(report) => write_findings(&mut self.out, checked, report, self.color)?,
                    Err(failure) => writeln!(self.out, "{}", failure.report())?,
                }
                writeln!(self.out)
            }
        }
    }

    fn write_syntax_error(
        &mut self,
        source: &Source<'_>,
        found: &Found,
        message: &str,
    ) -> io::Result<()> {
        self.syntax_errors += 1;
        match self.format {
            Format::Json => {
                let line = SyntaxErrorLine {
                    input: "",
                    valid: false,
                    violations: [],
                    syntax_error: SyntaxErrorObject {
                        format: self.doc_format.name(),
                        message,
                        byte: found.offset,
                    },
                    line: found.line,
                    column: found.column,
                    file: self.several.then_some(source.name),
                };
                write_serialized(&mut self.out, &line)?;
                writeln!(self.out)
            }
            Format::Sarif => {
                let place = sarif::Place {
                    uri: source.uri,
                    line: found.line,
                    column: found.column,
                };
                let message = format!(
                    "syntax error in the {} document: {message}",
                    self.doc_format.name()
                );
                sarif::write_document_error(&mut self.out, &place, &message, self.results)?;
                self.results += 1;
                Ok(())
            }
            Format::Human => {
                let label = paint(
                    "syntax error",
                    AnsiColor::Red.on_default().bold(),
                    self.color,
                );
                writeln!(
                    self.out,
                    "{}:{}:{}: {label} in the {} document: {}\n",
                    iribis::render::escape_invisible(source.name),
                    found.line,
                    found.column,
                    self.doc_format.name(),
                    iribis::render::escape_invisible(message)
                )
            }
        }
    }

    /// Ends the output; gives the outcome: a syntax error outranks an
    /// invalid IRI.
    fn finish(mut self) -> io::Result<Outcome> {
        match self.format {
            Format::Human if self.summary.inputs + self.syntax_errors > 1 => {
                self.summary.write(&mut self.out)?;
                if self.syntax_errors > 0 {
                    writeln!(self.out, "{} syntax errors", self.syntax_errors)?;
                }
            }
            Format::Sarif => sarif::write_tail(&mut self.out)?,
            _ => {}
        }
        self.out.flush()?;
        Ok(if self.syntax_errors > 0 {
            Outcome::SyntaxError
        } else if self.summary.invalid > 0 {
            Outcome::SomeInvalid
        } else {
            Outcome::AllValid
        })
    }
}

/// `s` in `style` when colouring.
fn paint(s: &str, style: anstyle::Style, color: bool) -> String {
    if color {
        format!("{style}{s}{style:#}")
    } else {
        s.to_owned()
    }
}

/// The report with every finding placed at the start (for a name, whose
/// findings are about the IRI it stands for).
fn at_start(mut report: Report) -> Report {
    for v in &mut report.violations {
        v.char = 0;
        v.len = 1;
    }
    report
}
