//! `iri check`: findings per input, as diagnostics or JSON Lines, in input
//! order, or as a SARIF log; batches of lines are checked on every core.

mod documents;
mod sarif;

pub(crate) use sarif::DOCUMENT_SYNTAX_ERROR;

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use anstyle::{AnsiColor, Style};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use iribis::Profile;
use iribis::check::{CheckOptions, Checker, Code, Preset, Report, Severities, Severity};
use iribis::readings::AllowedHosts;
use iribis::render::{escape_invisible, escape_line};
use iribis::spoof::ProtectedDomains;

use crate::Outcome;
use crate::inputs::{Input, Line, Preprocess, inputs};
use crate::output::{Failure, Spill, guarded, itoa, push_json_str, write_safe_json_bytes};

/// The output format of `iri check`.
#[derive(clap::ValueEnum, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// Diagnostics for a person, with a window of the input per finding.
    Human,
    /// One JSON object per input, one per line (as --json).
    Json,
    /// A SARIF 2.1.0 log: one rule per code, one result per finding.
    Sarif,
}

#[derive(clap::Args)]
pub(crate) struct Args {
    /// The grammar: rfc3987bis, rfc3987, rfc3986 or leiri.
    #[arg(long, default_value = "rfc3987bis")]
    profile: Profile,
    /// The severity preset: default, strict or leiri.
    #[arg(long, default_value = "default")]
    severities: Preset,
    /// Do not report CODE.
    #[arg(long, value_name = "CODE", value_parser = code_arg)]
    allow: Vec<Code>,
    /// Report CODE as a warning.
    #[arg(long, value_name = "CODE", value_parser = code_arg)]
    warn: Vec<Code>,
    /// Report CODE as an error.
    #[arg(long, value_name = "CODE", value_parser = code_arg)]
    deny: Vec<Code>,
    /// Report hosts that look like one of these domains (one per line,
    /// `#` comments) without being it: HOST_PROTECTED_LOOKALIKE.
    #[arg(long, value_name = "FILE")]
    protected_domains: Option<PathBuf>,
    /// Report every host a reading of the input reaches (3987bis, browsers,
    /// inet_aton, a decoding reader) that is not in this list (one host or
    /// `*.suffix` per line, `#` comments): HOST_NOT_ALLOWED, an error.
    #[arg(long, value_name = "FILE")]
    allowed_hosts: Option<PathBuf>,
    /// Print every code with its default severity and spec section, and
    /// exit.
    #[arg(long)]
    list_codes: bool,
    /// The --allow, --warn and --deny codes in the order given on the
    /// command line (filled in from clap's indices: the last one for a
    /// code wins).
    #[arg(skip)]
    pub(crate) severity_order: Vec<(Code, Severity)>,
    /// Print the explanation of CODE (a catalogue code, or
    /// DOCUMENT_SYNTAX_ERROR) and exit.
    #[arg(long, value_name = "CODE", value_parser = explain_arg)]
    explain: Option<Explained>,
    /// One JSON object per input, one per line (--format json).
    #[arg(long, conflicts_with = "format")]
    json: bool,
    /// The output: human, json (one object per input per line) or sarif
    /// (a SARIF 2.1.0 log for CI systems).
    #[arg(long, value_enum, default_value = "human")]
    format: Format,
    /// Report only the inputs that are not valid: those that do not parse
    /// (invalid) and those with a finding of error severity (has errors).
    #[arg(long)]
    only_invalid: bool,
    /// Read the inputs from this file, one per line (`-`: standard input).
    #[arg(long, value_name = "PATH", conflicts_with_all = ["inputs", "from"])]
    file: Option<PathBuf>,
    /// Check the IRIs inside documents of this format: the arguments are
    /// files (`-` for standard input), and each IRI is reported with its
    /// line and column.
    #[arg(long, value_enum, value_name = "FORMAT", conflicts_with = "preprocess")]
    from: Option<documents::DocFormat>,
    /// With --from: the base IRI of the documents, before they declare one
    /// (by default, a file's own file: IRI).
    #[arg(long, value_name = "IRI", requires = "from")]
    base: Option<String>,
    /// The encoding of the input (a WHATWG label: shift_jis, latin1,
    /// utf-16le, ...): with --from, as a transport layer's charset (a byte
    /// order mark still wins); for lines, they are decoded from it.
    #[arg(long, value_name = "LABEL")]
    encoding: Option<String>,
    #[command(flatten)]
    preprocess: Preprocess,
    /// The inputs; without any (and without --file), each line of standard
    /// input is one. With --from, the documents.
    inputs: Vec<OsString>,
}

/// Parses a code named by --allow, --warn or --deny: an unknown name gets
/// the closest codes as suggestions, and a pointer to `--list-codes`.
fn code_arg(name: &str) -> Result<Code, String> {
    if name.eq_ignore_ascii_case(sarif::DOCUMENT_SYNTAX_ERROR) {
        return Err(format!(
            "{} is a syntax error of a document read with --from, not a finding about an IRI: it has no severity to set (a run with one exits with status 3); `iri check --explain {}` says more",
            sarif::DOCUMENT_SYNTAX_ERROR,
            sarif::DOCUMENT_SYNTAX_ERROR
        ));
    }
    Code::from_name(name).ok_or_else(|| unknown_code(name, &[]))
}

/// What `--explain` explains: a catalogue code, or the syntax error of a
/// document read with `--from`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Explained {
    Code(Code),
    DocumentSyntaxError,
}

/// Parses the code named by --explain: a catalogue code or
/// `DOCUMENT_SYNTAX_ERROR`, case-insensitively; an unknown name gets the
/// closest of them as suggestions.
fn explain_arg(name: &str) -> Result<Explained, String> {
    if name.eq_ignore_ascii_case(sarif::DOCUMENT_SYNTAX_ERROR) {
        return Ok(Explained::DocumentSyntaxError);
    }
    Code::from_name(name)
        .map(Explained::Code)
        .ok_or_else(|| unknown_code(name, &[sarif::DOCUMENT_SYNTAX_ERROR]))
}

/// The error of a name that is no code: the closest codes (of the
/// catalogue and `extra`) as suggestions, and a pointer to `--list-codes`.
fn unknown_code(name: &str, extra: &[&'static str]) -> String {
    let close = closest_codes(name, extra);
    let hint = if close.is_empty() {
        String::new()
    } else {
        format!("did you mean {}? ", close.join(", "))
    };
    format!(
        "no code {name:?}: {hint}`iri check --list-codes` lists all {}",
        Code::ALL.len()
    )
}

/// The codes whose names are close to `name` (at most three, closest
/// first), among the catalogue's and `extra`: by Damerau-Levenshtein
/// distance, case and `-`/`_` ignored, within a third of the name's
/// length; or those that contain it, or that it contains (`IDN` finds
/// `INVALID_IDN`).
fn closest_codes(name: &str, extra: &[&'static str]) -> Vec<&'static str> {
    let wanted = name.to_ascii_uppercase().replace('-', "_");
    let mut scored: Vec<(usize, &'static str)> = Code::ALL
        .iter()
        .map(|c| c.name())
        .chain(extra.iter().copied())
        .filter_map(|candidate| {
            let distance = strsim::damerau_levenshtein(&wanted, candidate);
            let close = distance <= wanted.len().max(candidate.len()) / 3;
            let part = wanted.len() >= 3
                && (candidate.contains(wanted.as_str()) || wanted.contains(candidate));
            (close || part).then_some((distance, candidate))
        })
        .collect();
    scored.sort();
    scored.into_iter().take(3).map(|(_, c)| c).collect()
}

/// Lines per batch: each batch is split across the cores, and memory stays
/// bounded by one batch whatever the input's length.
const BATCH: usize = 8192;

impl Args {
    /// Puts the --allow, --warn and --deny codes in command-line order, from
    /// the positions clap recorded in `matches` (the check subcommand's),
    /// so that the last flag given for a code decides its severity.
    pub(crate) fn order_severities(&mut self, matches: &clap::ArgMatches) {
        let mut order: Vec<(usize, Code, Severity)> = Vec::new();
        for (id, codes, severity) in [
            ("allow", &self.allow, Severity::Allow),
            ("warn", &self.warn, Severity::Warning),
            ("deny", &self.deny, Severity::Error),
        ] {
            let indices = matches.indices_of(id).into_iter().flatten();
            order.extend(indices.zip(codes).map(|(i, &c)| (i, c, severity)));
        }
        order.sort_by_key(|&(i, ..)| i);
        self.severity_order = order.into_iter().map(|(_, c, s)| (c, s)).collect();
    }
}

pub(crate) fn run(args: Args) -> io::Result<Outcome> {
    // The spec sections cited are those of a check under --profile (a
    // SYNTAX_ERROR cites the profile's grammar).
    if let Some(explained) = args.explain {
        let mut out = io::stdout().lock();
        match explained {
            Explained::Code(code) => writeln!(
                out,
                "{}  (default severity: {}; {})\n\n{}",
                code.name(),
                code.default_severity().name(),
                code.spec_for(args.profile),
                code.explanation()
            )?,
            Explained::DocumentSyntaxError => {
                let spec = args
                    .from
                    .map_or("the specification of the document's format", |f| {
                        sarif::document_spec(f).0
                    });
                writeln!(
                    out,
                    "{}  (severity: error, always; {spec})\n\n{}",
                    sarif::DOCUMENT_SYNTAX_ERROR,
                    sarif::DOCUMENT_SYNTAX_ERROR_EXPLANATION
                )?
            }
        }
        out.flush()?;
        return Ok(Outcome::AllValid);
    }
    if args.list_codes {
        let mut out = io::stdout().lock();
        for &code in Code::ALL {
            writeln!(
                out,
                "{}\t{}\t{}",
                code.name(),
                code.default_severity().name(),
                code.spec_for(args.profile)
            )?;
        }
        out.flush()?;
        return Ok(Outcome::AllValid);
    }
    let mut severities = Severities::new(args.severities);
    for &(c, s) in &args.severity_order {
        severities = severities.set(c, s);
    }
    let protected_domains = match &args.protected_domains {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
            ProtectedDomains::parse(&text).map_err(|e| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("{}: {e}", path.display()),
                )
            })?
        }
        None => ProtectedDomains::new(),
    };
    let mut options = CheckOptions::new()
        .profile(args.profile)
        .severities(severities)
        .protected_domains(protected_domains);
    if let Some(path) = &args.allowed_hosts {
        let text = std::fs::read_to_string(path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        let hosts = AllowedHosts::parse(&text).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: {e}", path.display()),
            )
        })?;
        options = options.allowed_hosts(hosts);
    }
    let format = if args.json { Format::Json } else { args.format };
    if let Some(from) = args.from {
        return documents::run(documents::Request {
            format: from,
            output: format,
            only_invalid: args.only_invalid,
            base: args.base,
            encoding: args.encoding,
            files: args.inputs.into_iter().map(PathBuf::from).collect(),
            options: &options,
        });
    }
    warn_of_file_names(&args.inputs);
    let (source, artifact, progress): (Box<dyn Iterator<Item = io::Result<Line>>>, _, _) =
        match &args.file {
            Some(path) if path.as_os_str() == "-" => (
                crate::inputs::stdin_lines(args.encoding.as_deref())?,
                "stdin".to_owned(),
                None,
            ),
            Some(path) => {
                let (lines, progress) = file_lines(path, args.encoding.as_deref())?;
                (lines, sarif::artifact_uri(path), progress)
            }
            None if args.inputs.is_empty() => (
                crate::inputs::stdin_lines(args.encoding.as_deref())?,
                "stdin".to_owned(),
                None,
            ),
            None => (inputs(args.inputs), "argv".to_owned(), None),
        };
    let lines = args.preprocess.apply(source);
    let (out, color) = crate::output::stdout(format == Format::Human);
    let mut writer = Writer {
        out,
        format,
        color,
        only_invalid: args.only_invalid,
        artifact,
        results: 0,
    };
    let summary = check_lines(lines, &options, &mut writer, progress.as_ref())?;
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    writer.finish(&summary)?;
    Ok(if summary.invalid == 0 {
        Outcome::AllValid
    } else {
        Outcome::SomeInvalid
    })
}

/// Checks every line and writes each answer, in input order. On one core,
/// line by line. On several, lines are checked in batches on all of them,
/// and while one batch is checked this thread reads the next one and
/// writes the one before; a batch ends where reading the next line may
/// wait, and is then written before that read, so that no answer that is
/// ready is held back.
fn check_lines(
    mut lines: impl Iterator<Item = io::Result<Line>>,
    options: &CheckOptions,
    writer: &mut Writer,
    progress: Option<&ProgressBar>,
) -> io::Result<Summary> {
    let mut summary = Summary::default();
    if writer.format == Format::Sarif {
        sarif::write_head(&mut writer.out, options.profile, None)?;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // The checkers not lent to a batch: each remembers the hosts of the
    // batches it checked.
    let mut idle: Vec<Checker> = Vec::new();
    // Writes one answer, then flushes when asked.
    let mut write_one = |line: Line, answer: Result<Report, Failure>, flush: bool| {
        match &answer {
            Ok(report) => summary.add(report),
            Err(_) => summary.add_failure(),
        }
        if let Some(bar) = progress {
            bar.inc(line.bytes as u64);
        }
        writer.write(&line, &answer)?;
        if let Input::Text(text) = line.input {
            crate::inputs::recycle(text);
        }
        if flush {
            writer.out.flush()?;
        }
        io::Result::Ok(())
    };
    if cores == 1 {
        // One line at a time, nothing in flight: no batch to fill, and
        // each line's text goes back to the reader for the next one.
        let mut checker = Checker::new(options.clone());
        for line in lines {
            let line = line?;
            let ready = line.ready;
            let answer = check_one(&line, &mut checker);
            write_one(line, answer, !ready)?;
        }
        return Ok(summary);
    }
    let mut write = |checked: Checked, flush: bool, idle: &mut Vec<Checker>| -> io::Result<()> {
        let (answers, checkers) = checked.wait();
        idle.extend(checkers);
        let last = answers.len().saturating_sub(1);
        for (i, (line, answer)) in answers.into_iter().enumerate() {
            write_one(line, answer, flush && i == last)?;
        }
        Ok(())
    };
    std::thread::scope(|scope| -> io::Result<()> {
        let mut in_flight: Option<Checked> = None;
        loop {
            let mut batch = Vec::with_capacity(BATCH);
            for line in lines.by_ref() {
                let line = line?;
                let ready = line.ready;
                batch.push(line);
                if !ready || batch.len() == BATCH {
                    break;
                }
            }
            let wait = batch.last().is_some_and(|l| !l.ready);
            let next = (!batch.is_empty())
                .then(|| Checked::start(scope, batch, cores, &mut idle, options));
            if let Some(before) = in_flight.take() {
                write(before, false, &mut idle)?;
            }
            let Some(next) = next else { break };
            if wait {
                write(next, true, &mut idle)?;
            } else {
                in_flight = Some(next);
            }
        }
        Ok(())
    })?;
    Ok(summary)
}

/// A batch of lines being checked: on other threads, in contiguous parts,
/// or already, on this one (a batch too small to share). Each part has a
/// checker of its own, given back with its answers.
enum Checked<'scope> {
    Done(Answers, Box<Checker>),
    Running(Vec<std::thread::ScopedJoinHandle<'scope, (Answers, Checker)>>),
}

/// Lines with their answers, in order.
type Answers = Vec<(Line, Result<Report, Failure>)>;

impl<'scope> Checked<'scope> {
    /// Starts checking `batch` on `cores` threads (at least two), with
    /// checkers taken from `idle` (or new ones with `options`).
    fn start(
        scope: &'scope std::thread::Scope<'scope, '_>,
        batch: Vec<Line>,
        cores: usize,
        idle: &mut Vec<Checker>,
        options: &CheckOptions,
    ) -> Self {
        let mut lend = || idle.pop().unwrap_or_else(|| Checker::new(options.clone()));
        let check_part = |part: Vec<Line>, mut checker: Checker| {
            let answers = part
                .into_iter()
                .map(|l| {
                    let answer = check_one(&l, &mut checker);
                    (l, answer)
                })
                .collect::<Vec<_>>();
            (answers, checker)
        };
        if batch.len() < 256 {
            let (answers, checker) = check_part(batch, lend());
            return Checked::Done(answers, Box::new(checker));
        }
        let chunk = batch.len().div_ceil(cores);
        let mut parts = Vec::with_capacity(cores);
        let mut rest = batch;
        while rest.len() > chunk {
            let tail = rest.split_off(chunk);
            parts.push(std::mem::replace(&mut rest, tail));
        }
        parts.push(rest);
        Checked::Running(
            parts
                .into_iter()
                .map(|part| {
                    let checker = lend();
                    scope.spawn(move || check_part(part, checker))
                })
                .collect(),
        )
    }

    /// The lines and their answers, in order, once all are checked, and
    /// the checkers given back.
    fn wait(self) -> (Answers, Vec<Checker>) {
        match self {
            Checked::Done(all, checker) => (all, vec![*checker]),
            Checked::Running(parts) => {
                let mut all = Vec::new();
                let mut checkers = Vec::with_capacity(parts.len());
                for part in parts {
                    let (answers, checker) =
                        part.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
                    all.extend(answers);
                    checkers.push(checker);
                }
                (all, checkers)
            }
        }
    }
}

/// Where and how answers are written.
struct Writer {
    out: Spill<Box<dyn Write>>,
    format: Format,
    color: bool,
    only_invalid: bool,
    /// The SARIF artifact URI of the inputs: the file, `stdin` or `argv`.
    artifact: String,
    /// The SARIF results written so far.
    results: usize,
}

impl Writer {
    fn write(&mut self, line: &Line, answer: &Result<Report, Failure>) -> io::Result<()> {
        let valid = matches!(answer, Ok(r) if r.valid);
        if valid && self.only_invalid {
            return Ok(());
        }
        let lossy;
        let text = match &line.input {
            Input::Text(t) => t.as_str(),
            Input::NotUtf8(n) => {
                lossy = n.lossy();
                lossy.as_str()
            }
        };
        match (self.format, answer) {
            (Format::Json, _) => write_json_line(&mut self.out, line.number, text, answer, b""),
            (Format::Human, answer) => {
                // The line number, as `grep -n` writes it, when the inputs
                // are lines of a file or of standard input.
                if !line.argument {
                    write!(self.out, "{}: ", line.number)?;
                }
                match answer {
                    Ok(report) => write_human(&mut self.out, text, report, self.color),
                    Err(failure) => writeln!(self.out, "{}\n", failure.report()),
                }
            }
            (Format::Sarif, _) => {
                let place = sarif::Place {
                    uri: &self.artifact,
                    line: line.number,
                    column: 1,
                };
                self.results += sarif::write_results(&mut self.out, &place, answer, self.results)?;
                Ok(())
            }
        }
    }

    /// Ends the output: the summary of a human report (with more than one
    /// input), the end of a SARIF log.
    fn finish(mut self, summary: &Summary) -> io::Result<()> {
        match self.format {
            Format::Human if summary.inputs > 1 => summary.write(&mut self.out)?,
            Format::Sarif => sarif::write_tail(&mut self.out)?,
            _ => {}
        }
        self.out.flush()
    }
}

/// Says on standard error which arguments name existing files: each was
/// checked as a reference (`page.html` is a valid relative reference),
/// which is seldom what was meant. The verdicts stand; the note says how to
/// check what is inside the file.
fn warn_of_file_names(args: &[OsString]) {
    for (i, arg) in args.iter().enumerate() {
        let path = Path::new(arg);
        if !path.is_file() {
            continue;
        }
        let shown = escape_invisible(&arg.to_string_lossy()).into_owned();
        let format = path
            .extension()
            .and_then(|e| e.to_str())
            .and_then(document_format)
            .unwrap_or("FORMAT");
        let _ = writeln!(
            io::stderr(),
            "iri: argument {}: \"{shown}\" names a file, but it was checked as a reference, not read: to check the IRIs in the file, one per line, use iri check --file {shown}; in a document, iri check --from {format} {shown}",
            i + 1
        );
    }
}

/// The `--from` format of a document by its file name extension.
fn document_format(extension: &str) -> Option<&'static str> {
    Some(match extension.to_ascii_lowercase().as_str() {
        "nt" => "ntriples",
        "nq" => "nquads",
        "ttl" => "turtle",
        "trig" => "trig",
        "rdf" | "owl" => "rdfxml",
        "html" | "htm" | "xhtml" => "html",
        "xml" | "svg" | "xsd" => "xml",
        _ => return None,
    })
}

/// The lines of a file, terminators removed as for standard input, and a
/// progress bar over its bytes when standard error is a terminal.
fn file_lines(
    path: &Path,
    encoding: Option<&str>,
) -> io::Result<(crate::inputs::Lines, Option<ProgressBar>)> {
    let (file, regular) = crate::inputs::open(path)?;
    let meta = file.metadata().ok();
    let progress = match meta {
        Some(m) if regular && io::stderr().is_terminal() => {
            let bar = ProgressBar::with_draw_target(Some(m.len()), ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template(
                "{bar:40} {bytes}/{total_bytes} ({bytes_per_sec}, {eta} left)",
            ) {
                bar.set_style(style);
            }
            Some(bar)
        }
        _ => None,
    };
    Ok((
        crate::inputs::read_lines(file, regular, encoding)?,
        progress,
    ))
}

/// The report of one input, or its error (not UTF-8, or a panic).
fn check_one(line: &Line, checker: &mut Checker) -> Result<Report, Failure> {
    match &line.input {
        Input::Text(t) => guarded(|| checker.check(t)),
        Input::NotUtf8(n) => Err(n.failure()),
    }
}

/// Writes one input's JSON line, `extra` (more `,"key":value` pairs,
/// terminal-safe) after `line`. The common line, a valid input without
/// findings, is written by hand; findings and errors are serialized from
/// borrowed fields and then have their invisible characters escaped.
fn write_json_line<W: Write>(
    out: &mut Spill<W>,
    line: usize,
    input: &str,
    answer: &Result<Report, Failure>,
    extra: &[u8],
) -> io::Result<()> {
    let buf = &mut out.buf;
    buf.extend_from_slice(b"{\"input\":");
    push_json_str(buf, input);
    let (valid, violations) = match answer {
        Ok(report) => (report.valid, &report.violations[..]),
        Err(_) => (false, &[][..]),
    };
    // Two constants, each of known length (a move, not a call to memcpy).
    if valid {
        buf.extend_from_slice(b",\"valid\":true,\"violations\":[");
    } else {
        buf.extend_from_slice(b",\"valid\":false,\"violations\":[");
    }
    // Everything before is escaped already (push_json_str).
    let safe = buf.len();
    for (i, v) in violations.iter().enumerate() {
        if i > 0 {
            buf.push(b',');
        }
        // The library's serialization of a finding (docs/schema/check.json).
        serde_json::to_writer(&mut *buf, v)?;
    }
    buf.push(b']');
    if let Err(failure) = answer {
        buf.extend_from_slice(b",\"error\":");
        failure.push_json(buf)?;
    }
    buf.extend_from_slice(b",\"line\":");
    buf.extend_from_slice(itoa(line, &mut [0; 20]));
    if !(violations.is_empty() && answer.is_ok()) {
        let raw = buf.split_off(safe);
        write_safe_json_bytes(&mut *buf, &raw)?;
    }
    buf.extend_from_slice(extra);
    buf.extend_from_slice(b"}\n");
    out.spill_if_full()
}

/// An input as the human output shows it: escaped, in a left-to-right
/// embedding when it has right-to-left characters (`escape_line`); the
/// empty input as `""`, so that it is seen.
pub(crate) fn shown_input(input: &str) -> std::borrow::Cow<'_, str> {
    if input.is_empty() {
        std::borrow::Cow::Borrowed("\"\"")
    } else {
        escape_line(input)
    }
}

/// The verdict on a report in the human output. JSON's `valid` is true for
/// `Valid` only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// It parses, and no finding has error severity.
    Valid,
    /// It parses, and some finding has error severity.
    HasErrors,
    /// It does not parse under the profile (a `SYNTAX_ERROR`).
    Invalid,
}

/// The verdict on `report`.
pub(crate) fn verdict(report: &Report) -> Verdict {
    if report.valid {
        Verdict::Valid
    } else if report
        .violations
        .iter()
        .any(|v| v.code == Code::SyntaxError)
    {
        Verdict::Invalid
    } else {
        Verdict::HasErrors
    }
}

impl Verdict {
    /// `valid` (green), `has errors` or `invalid` (red) when colouring.
    pub(crate) fn painted(self, color: bool) -> String {
        let (text, style) = match self {
            Verdict::Valid => ("valid", AnsiColor::Green.on_default()),
            Verdict::HasErrors => ("has errors", AnsiColor::Red.on_default()),
            Verdict::Invalid => ("invalid", AnsiColor::Red.on_default()),
        };
        if color {
            format!("{style}{text}{style:#}")
        } else {
            text.to_owned()
        }
    }
}

fn write_human(out: &mut impl Write, input: &str, report: &Report, color: bool) -> io::Result<()> {
    // The input once, escaped and embedded like the windows below (RFC 3987
    // §4.1); each finding then shows a window of it.
    writeln!(
        out,
        "{}: {}",
        shown_input(input),
        verdict(report).painted(color)
    )?;
    write_findings(out, input, report, color)?;
    writeln!(out)
}

/// The colour of a finding's `severity[CODE]` label in the human report.
pub(crate) fn tint(severity: Severity) -> Style {
    match severity {
        Severity::Error => AnsiColor::Red,
        Severity::Warning => AnsiColor::Yellow,
        _ => AnsiColor::Cyan,
    }
    .on_default()
    .bold()
}

/// Writes each finding of `report` with a window of `input`.
fn write_findings(
    out: &mut impl Write,
    input: &str,
    report: &Report,
    color: bool,
) -> io::Result<()> {
    let paint = |s: &str, style: Style| {
        if color {
            format!("{style}{s}{style:#}")
        } else {
            s.to_owned()
        }
    };
    for v in &report.violations {
        let tint = tint(v.severity);
        let label = paint(&format!("{}[{}]", v.severity.name(), v.code.name()), tint);
        writeln!(out, "{label}: {}", escape_invisible(&v.message))?;
        writeln!(
            out,
            " --> byte {}, character {}, {} character{}, in the {} ({})",
            v.byte,
            v.char,
            v.len,
            if v.len == 1 { "" } else { "s" },
            v.component.name(),
            v.spec
        )?;
        let (shown, marks) = v.underline(input);
        writeln!(out, "  |")?;
        writeln!(out, "  | {shown}")?;
        write!(out, "  | {}", paint(&marks, tint))?;
        // What could have stood there, as `iri parse` writes it.
        if let Some(last) = v.expected.last() {
            write!(out, " expected ")?;
            if let [rest @ .., _] = &v.expected[..] {
                for (i, e) in rest.iter().enumerate() {
                    write!(out, "{e}{}", if i + 1 < rest.len() { ", " } else { " or " })?;
                }
            }
            write!(out, "{last}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}

#[derive(Default)]
struct Summary {
    inputs: usize,
    /// The inputs that are not valid: invalid, or with errors.
    invalid: usize,
    /// Of those, the ones that parse (the verdict `has errors`).
    with_errors: usize,
    per_code: BTreeMap<&'static str, usize>,
}

impl Summary {
    fn add(&mut self, report: &Report) {
        self.inputs += 1;
        match verdict(report) {
            Verdict::Valid => {}
            Verdict::HasErrors => {
                self.invalid += 1;
                self.with_errors += 1;
            }
            Verdict::Invalid => self.invalid += 1,
        }
        for v in &report.violations {
            *self.per_code.entry(v.code.name()).or_default() += 1;
        }
    }

    /// An input that could not be checked (not UTF-8, or a failure): it is
    /// invalid.
    fn add_failure(&mut self) {
        self.inputs += 1;
        self.invalid += 1;
    }

    /// `N inputs: V valid, E with errors, I invalid` (the inputs with
    /// errors only when there are some), then the count of each code.
    fn write(&self, out: &mut impl Write) -> io::Result<()> {
        write!(
            out,
            "{} input{}: {} valid, ",
            self.inputs,
            if self.inputs == 1 { "" } else { "s" },
            self.inputs - self.invalid
        )?;
        if self.with_errors > 0 {
            write!(out, "{} with errors, ", self.with_errors)?;
        }
        writeln!(out, "{} invalid", self.invalid - self.with_errors)?;
        for (code, n) in &self.per_code {
            writeln!(out, "  {n:>8}  {code}")?;
        }
        Ok(())
    }
}
