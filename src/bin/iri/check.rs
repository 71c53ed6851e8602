//! `iri check`: findings per input, as diagnostics or JSON Lines, in input
//! order; batches of lines are checked on every core.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, IsTerminal, Write};
use std::path::PathBuf;

use iribis::spoof::ProtectedDomains;
use iribis::{
    check, escape_invisible, escape_line, CheckOptions, Code, Preset, Profile, Report, Severities,
    Severity,
};
use serde_json::json;

use crate::inputs::{inputs, Input, Line, Preprocess};
use crate::output::{guarded, write_json, write_json_part, Failure};
use crate::Outcome;

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
    /// Print the explanation of CODE and exit.
    #[arg(long, value_name = "CODE", value_parser = code_arg)]
    explain: Option<Code>,
    /// One JSON object per input, one per line.
    #[arg(long)]
    json: bool,
    /// Read the inputs from this file, one per line.
    #[arg(long, value_name = "PATH", conflicts_with = "inputs")]
    file: Option<PathBuf>,
    #[command(flatten)]
    preprocess: Preprocess,
    /// The inputs; without any (and without --file), each line of standard
    /// input is one.
    inputs: Vec<OsString>,
}

fn code_arg(name: &str) -> Result<Code, String> {
    Code::from_name(name).ok_or_else(|| {
        format!(
            "no code {name:?}: `iri check --explain CODE` knows {}",
            Code::ALL.len()
        )
    })
}

/// Lines per batch: each batch is split across the cores, and memory stays
/// bounded by one batch whatever the input's length.
const BATCH: usize = 8192;

pub(crate) fn run(args: Args) -> io::Result<Outcome> {
    let mut out = BufWriter::new(io::stdout().lock());
    if let Some(code) = args.explain {
        writeln!(
            out,
            "{}  (default severity: {}; {})\n\n{}",
            code.name(),
            code.default_severity().name(),
            code.spec(),
            code.explanation()
        )?;
        out.flush()?;
        return Ok(Outcome::AllValid);
    }
    let mut severities = Severities::new(args.severities);
    for (codes, s) in [
        (&args.allow, Severity::Allow),
        (&args.warn, Severity::Warning),
        (&args.deny, Severity::Error),
    ] {
        for &c in codes {
            severities = severities.set(c, s);
        }
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
    let options = CheckOptions {
        profile: args.profile,
        severities,
        protected_domains,
    };
    let color = !args.json && io::stdout().is_terminal();
    let source: Box<dyn Iterator<Item = io::Result<Line>>> = match &args.file {
        Some(path) => Box::new(file_lines(path)?),
        None => Box::new(inputs(args.inputs)),
    };
    let mut lines = args.preprocess.apply(source);
    let mut summary = Summary::default();
    loop {
        let mut batch = Vec::with_capacity(BATCH);
        for line in lines.by_ref().take(BATCH) {
            batch.push(line?);
        }
        if batch.is_empty() {
            break;
        }
        for (line, answer) in batch.iter().zip(check_all(&batch, &options)) {
            let Line { number, input } = line;
            let lossy;
            let text = match input {
                Input::Text(t) => t.as_str(),
                Input::NotUtf8(n) => {
                    lossy = n.lossy();
                    lossy.as_str()
                }
            };
            match &answer {
                Ok(report) => summary.add(report),
                Err(_) => summary.add_failure(),
            }
            if args.json {
                write_json_line(&mut out, *number, text, &answer)?;
            } else {
                match &answer {
                    Ok(report) => write_human(&mut out, text, report, color)?,
                    Err(failure) => writeln!(out, "{}\n", failure.report())?,
                }
            }
        }
    }
    if !args.json && summary.inputs > 1 {
        summary.write(&mut out)?;
    }
    out.flush()?;
    Ok(if summary.invalid == 0 {
        Outcome::AllValid
    } else {
        Outcome::SomeInvalid
    })
}

/// The lines of a file, terminators removed as for standard input.
fn file_lines(path: &PathBuf) -> io::Result<impl Iterator<Item = io::Result<Line>>> {
    let file = File::open(path)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    Ok(crate::inputs::lines(BufReader::new(file)))
}

/// The report of one input, or its error (not UTF-8, or a panic).
fn check_one(line: &Line, options: &CheckOptions) -> Result<Report, Failure> {
    match &line.input {
        Input::Text(t) => guarded(|| check(t, options)),
        Input::NotUtf8(n) => Err(n.failure()),
    }
}

/// The answers of a batch, in order, computed on all cores.
fn check_all(batch: &[Line], options: &CheckOptions) -> Vec<Result<Report, Failure>> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cores == 1 || batch.len() < 256 {
        return batch.iter().map(|l| check_one(l, options)).collect();
    }
    let chunk = batch.len().div_ceil(cores);
    std::thread::scope(|scope| {
        let handles: Vec<_> = batch
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|l| check_one(l, options))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// Writes one input's JSON line, a finding at a time: an input with a
/// million findings never holds them all as JSON values.
fn write_json_line(
    out: &mut impl Write,
    line: usize,
    input: &str,
    answer: &Result<Report, Failure>,
) -> io::Result<()> {
    let report = match answer {
        Ok(report) => report,
        Err(failure) => {
            return write_json(
                out,
                &json!({"input": input, "valid": false, "violations": [], "error": failure.json(), "line": line}),
            );
        }
    };
    out.write_all(b"{\"input\":")?;
    write_json_part(out, &input.into())?;
    write!(out, ",\"valid\":{},\"violations\":[", report.valid)?;
    for (i, v) in report.violations.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        let v = json!({
            "code": v.code.name(),
            "severity": v.severity.name(),
            "spec": v.code.spec(),
            "message": v.message,
            "byte": v.byte,
            "char": v.char,
            "len": v.len,
            "component": v.component.name(),
        });
        write_json_part(out, &v)?;
    }
    writeln!(out, "],\"line\":{line}}}")
}

fn write_human(out: &mut impl Write, input: &str, report: &Report, color: bool) -> io::Result<()> {
    let paint = |s: &str, code: &str| {
        if color {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_owned()
        }
    };
    let verdict = if report.valid {
        paint("valid", "32")
    } else {
        paint("invalid", "31")
    };
    // The input once, escaped and embedded like the windows below (RFC 3987
    // §4.1); each finding then shows a window of it.
    writeln!(out, "{}: {verdict}", escape_line(input))?;
    for v in &report.violations {
        let tint = match v.severity {
            Severity::Error => "1;31",
            Severity::Warning => "1;33",
            _ => "1;36",
        };
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
            v.code.spec()
        )?;
        let (shown, marks) = v.underline(input);
        writeln!(out, "  |")?;
        writeln!(out, "  | {shown}")?;
        writeln!(out, "  | {}", paint(&marks, tint))?;
    }
    writeln!(out)
}

#[derive(Default)]
struct Summary {
    inputs: usize,
    invalid: usize,
    per_code: BTreeMap<&'static str, usize>,
}

impl Summary {
    fn add(&mut self, report: &Report) {
        self.inputs += 1;
        if !report.valid {
            self.invalid += 1;
        }
        for v in &report.violations {
            *self.per_code.entry(v.code.name()).or_default() += 1;
        }
    }

    fn add_failure(&mut self) {
        self.inputs += 1;
        self.invalid += 1;
    }

    fn write(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(
            out,
            "{} inputs: {} valid, {} invalid",
            self.inputs,
            self.inputs - self.invalid,
            self.invalid
        )?;
        for (code, n) in &self.per_code {
            writeln!(out, "  {n:>8}  {code}")?;
        }
        Ok(())
    }
}
