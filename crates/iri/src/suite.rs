//! `iri suite`: export the conformance suite, answer it as iribis, run it
//! against an adapter, fuzz an adapter. The work is `iribis_suite`'s;
//! this module parses the arguments and renders.

use std::io::{self, BufRead, BufWriter, Write};
use std::path::PathBuf;
use std::time::Duration;

use iribis::Profile;
use iribis::render::escape_invisible;
use iribis_suite::{
    self as suite, Answer, Case, FuzzOptions, Op, Report, Request, RunOptions, Suite,
};

use crate::Outcome;
use crate::output::write_json;

#[derive(clap::Subcommand)]
pub(crate) enum Command {
    /// Write the suite: one JSON Lines file per operation, index.json (the
    /// version and counts), the JSON Schemas of a case and of an answer,
    /// and the README.
    Export {
        /// The directory to write into (created if needed).
        #[arg(long, default_value = "conformance")]
        out: PathBuf,
        /// Generate from another seed (the default makes the published
        /// suite).
        #[arg(long, default_value_t = suite::DEFAULT_SEED)]
        seed: u64,
    },
    /// iribis's own adapter: read one request per line on standard input,
    /// write one answer per line.
    Adapter,
    /// Run the suite against an adapter: pass, fail and unsupported counts
    /// per operation and profile, failures grouped by ABNF rule. Exit 1 if
    /// any case fails.
    Run(RunArgs),
    /// Differential fuzzing of an adapter against the spec: strings drawn
    /// from the grammar and near misses, each disagreement shrunk to a
    /// minimal input and attributed to a rule. Exit 1 if any is found, and
    /// if nothing was compared (the adapter answered unsupported to every
    /// request).
    Fuzz(FuzzArgs),
}

#[derive(clap::Args)]
pub(crate) struct RunArgs {
    /// The adapter: a command, run by the shell, that speaks the adapter
    /// protocol (conformance/README.md).
    #[arg(long)]
    adapter: String,
    /// Only these operations (repeatable): valid, components, resolve,
    /// normalize, to-uri, to-iri, compare, check.
    #[arg(long = "op")]
    ops: Vec<String>,
    /// Only these profiles (repeatable): rfc3987bis, rfc3987, rfc3986,
    /// leiri.
    #[arg(long = "profile")]
    profiles: Vec<String>,
    /// Read the suite from this directory (an export) instead of the
    /// built-in one.
    #[arg(long)]
    suite: Option<PathBuf>,
    /// Seconds an answer may take (more than 0, at most 86400).
    #[arg(long, default_value_t = 10.0)]
    timeout: f64,
    /// Also compare where an invalid input goes wrong, when the adapter
    /// says.
    #[arg(long)]
    positions: bool,
    /// The implementation's name in the report (default: the command).
    #[arg(long)]
    name: Option<String>,
    /// Print one JSON object: implementation, total, passed, failed,
    /// unsupported, by_op, by_rule, failures.
    #[arg(long)]
    json: bool,
    /// Shrink the shortest failing valid or components case of each rule
    /// against the adapter (delta debugging) and name the rule the minimal
    /// input breaks (`minimal` in by_rule).
    #[arg(long)]
    shrink: bool,
    /// How many failures to list per rule in the text report (the JSON has
    /// them all).
    #[arg(long, default_value_t = 1)]
    show: usize,
}

#[derive(clap::Args)]
pub(crate) struct FuzzArgs {
    /// The adapter command, as for `run`.
    #[arg(long)]
    adapter: String,
    /// How long to draw new inputs.
    #[arg(long, default_value_t = 60.0)]
    seconds: f64,
    /// The seed of the draw.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The profiles to draw from (repeatable; default rfc3987bis).
    #[arg(long = "profile")]
    profiles: Vec<String>,
    /// The operations to ask (repeatable): valid, components.
    #[arg(long = "op")]
    ops: Vec<String>,
    /// The rule to draw from: IRI-reference, IRI, absolute-IRI or
    /// irelative-ref (their URI counterparts under rfc3986).
    #[arg(long, default_value = "IRI-reference")]
    rule: String,
    /// Seconds an answer may take (more than 0, at most 86400).
    #[arg(long, default_value_t = 10.0)]
    timeout: f64,
    /// Findings kept per rule, operation, profile and direction.
    #[arg(long, default_value_t = 3)]
    per_group: usize,
    /// Append the new findings to this file as suite cases (in the
    /// repository: crates/suite/src/findings.jsonl, which the suite includes).
    #[arg(long)]
    append: Option<PathBuf>,
    /// The implementation's name in the findings' source.
    #[arg(long)]
    name: Option<String>,
    /// Do not run the static suite first (then a finding is new when the
    /// suite has no case with its input, not when no case of its rule
    /// fails).
    #[arg(long)]
    no_baseline: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(command: Command) -> io::Result<Outcome> {
    match command {
        Command::Export { out, seed } => export(&out, seed),
        Command::Adapter => adapter(),
        Command::Run(args) => run_suite(args),
        Command::Fuzz(args) => fuzz(args),
    }
}

fn usage(m: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, m)
}

fn export(out: &std::path::Path, seed: u64) -> io::Result<Outcome> {
    let generated;
    let suite = if seed == suite::DEFAULT_SEED {
        Suite::builtin()
    } else {
        generated = Suite::generate(seed);
        &generated
    };
    suite
        .export(out)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", out.display())))?;
    let mut o = io::stdout().lock();
    writeln!(
        o,
        "wrote {} cases to {}",
        suite.cases().len(),
        out.display()
    )?;
    Ok(Outcome::AllValid)
}

fn adapter() -> io::Result<Outcome> {
    // A reader of our own, whose buffer tells without blocking whether
    // another request is already there.
    let mut input = io::BufReader::with_capacity(1 << 16, io::stdin());
    let mut out = BufWriter::new(io::stdout().lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\n', '\r']);
        if text.trim().is_empty() {
            continue;
        }
        let reply = match Request::from_line(text) {
            Ok(r) => suite::answer(&r).to_line(&r.id),
            Err(e) => {
                let id = serde_json::from_str::<serde_json::Value>(text)
                    .ok()
                    .and_then(|v| v.get("id").and_then(|i| i.as_str()).map(str::to_owned))
                    .unwrap_or_default();
                Answer::Error(format!("malformed request: {e}")).to_line(&id)
            }
        };
        out.write_all(reply.as_bytes())?;
        out.write_all(b"\n")?;
        // Flushed at once unless the next request is already there: the
        // runner keeps several requests in flight.
        if !input.buffer().contains(&b'\n') {
            out.flush()?;
        }
    }
    out.flush()?;
    Ok(Outcome::AllValid)
}

fn parse_list<T: std::str::FromStr>(names: &[String]) -> io::Result<Vec<T>>
where
    T::Err: std::fmt::Display,
{
    names
        .iter()
        .map(|n| n.parse::<T>().map_err(|e| usage(e.to_string())))
        .collect()
}

/// The longest `--timeout`, in seconds: a day.
const MAX_TIMEOUT: f64 = 86_400.0;

/// `--timeout`: more than 0 and at most [`MAX_TIMEOUT`] seconds.
fn timeout(s: f64) -> io::Result<Duration> {
    if s > 0.0 && s <= MAX_TIMEOUT {
        seconds(s)
    } else {
        Err(usage(format!(
            "--timeout takes a number of seconds greater than 0 and at most {MAX_TIMEOUT} (a day), not {s}"
        )))
    }
}

fn seconds(s: f64) -> io::Result<Duration> {
    Duration::try_from_secs_f64(s)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| usage(format!("{s} is not a positive number of seconds")))
}

fn run_suite(args: RunArgs) -> io::Result<Outcome> {
    let ops: Vec<Op> = parse_list(&args.ops)?;
    let profiles: Vec<Profile> = parse_list(&args.profiles)?;
    let loaded;
    let suite = match &args.suite {
        Some(dir) => {
            loaded = Suite::load(dir).map_err(usage)?;
            &loaded
        }
        None => Suite::builtin(),
    };
    let cases: Vec<Case> = suite
        .cases()
        .iter()
        .filter(|c| ops.is_empty() || ops.contains(&c.op))
        .filter(|c| profiles.is_empty() || profiles.contains(&c.profile))
        .cloned()
        .collect();
    let options = RunOptions {
        timeout: timeout(args.timeout)?,
        positions: args.positions,
        name: args.name.clone(),
        shrink: args.shrink,
        ..RunOptions::default()
    };
    let report = suite::run(&args.adapter, &cases, &options, |_| {})
        .map_err(|e| io::Error::other(e.to_string()))?;
    let mut out = io::stdout().lock();
    let nothing = nothing_compared(&report.tally);
    if args.json {
        write_json(&mut out, &report.to_json())?;
        if let Some(n) = &nothing {
            writeln!(io::stderr(), "iri: {n}")?;
        }
    } else {
        render(&mut out, &report, args.show)?;
        if let Some(n) = &nothing {
            writeln!(out, "{n}")?;
        }
    }
    out.flush()?;
    Ok(if report.tally.failed == 0 {
        Outcome::AllValid
    } else {
        Outcome::SomeInvalid
    })
}

/// What a run whose cases were none, or all answered `unsupported`, says
/// (it compared nothing).
fn nothing_compared(t: &suite::Tally) -> Option<String> {
    if t.total == 0 {
        Some(
            "nothing was compared: no case of the suite has the operations and profiles asked"
                .into(),
        )
    } else if t.unsupported == t.total {
        Some(format!(
            "nothing was compared: the adapter answered unsupported to all {} cases",
            t.total
        ))
    } else {
        None
    }
}

/// A case in one line: operation, profile, rule, the input (and base),
/// escaped for a terminal.
fn describe(c: &Case) -> String {
    let mut s = format!("{} {}", c.op, c.profile);
    if let Some(r) = &c.rule {
        s.push(' ');
        s.push_str(r);
    }
    s.push_str(&format!(" {:?}", c.input));
    if let Some(b) = &c.base {
        s.push_str(&format!(" against {b:?}"));
    }
    escape_invisible(&s).into_owned()
}

fn render(out: &mut impl Write, r: &Report, show: usize) -> io::Result<()> {
    writeln!(
        out,
        "implementation: {}",
        escape_invisible(&r.implementation)
    )?;
    writeln!(
        out,
        "{:<11} {:<11} {:>7} {:>7} {:>7} {:>11}",
        "op", "profile", "total", "passed", "failed", "unsupported"
    )?;
    for ((op, p), t) in &r.by_op_profile {
        writeln!(
            out,
            "{:<11} {:<11} {:>7} {:>7} {:>7} {:>11}",
            op.name(),
            p,
            t.total,
            t.passed,
            t.failed,
            t.unsupported
        )?;
    }
    let t = r.tally;
    writeln!(
        out,
        "{:<11} {:<11} {:>7} {:>7} {:>7} {:>11}",
        "all", "", t.total, t.passed, t.failed, t.unsupported
    )?;
    if r.restarts > 0 {
        writeln!(out, "the adapter was started again {} times", r.restarts)?;
    }
    if !r.failures.is_empty() {
        writeln!(
            out,
            "\nfailures by rule (the shortest failing case of each):"
        )?;
        for (group, n, f) in r.by_rule() {
            writeln!(out, "  {} ({n} failed)", escape_invisible(&group))?;
            writeln!(
                out,
                "    {}: {}",
                describe(&f.case),
                escape_invisible(&f.why)
            )?;
            if let Some((m, rule)) = r.minimal.get(&group) {
                writeln!(
                    out,
                    "    minimal: {} (breaks {})",
                    describe(m),
                    escape_invisible(rule)
                )?;
            }
            let more = r
                .failures
                .iter()
                .filter(|x| x.group == group && x.case.id != f.case.id)
                .take(show.saturating_sub(1));
            for x in more {
                writeln!(
                    out,
                    "    {}: {}",
                    describe(&x.case),
                    escape_invisible(&x.why)
                )?;
            }
        }
    }
    Ok(())
}

fn fuzz(args: FuzzArgs) -> io::Result<Outcome> {
    let mut options = FuzzOptions {
        duration: seconds(args.seconds)?,
        seed: args.seed,
        timeout: timeout(args.timeout)?,
        per_group: args.per_group.max(1),
        baseline: !args.no_baseline,
        ..FuzzOptions::default()
    };
    if !args.profiles.is_empty() {
        options.profiles = parse_list(&args.profiles)?;
    }
    options.rule = match iribis::GrammarRule::from_name(&args.rule) {
        Some(r)
            if ["IRI-reference", "IRI", "absolute-IRI", "irelative-ref"]
                .contains(&r.abnf_name()) =>
        {
            r
        }
        _ => {
            return Err(usage(format!(
                "fuzz draws from IRI-reference, IRI, absolute-IRI or irelative-ref, not {}",
                escape_invisible(&args.rule)
            )));
        }
    };
    if !args.ops.is_empty() {
        options.ops = parse_list(&args.ops)?;
        if let Some(op) = options
            .ops
            .iter()
            .find(|o| !matches!(o, Op::Valid | Op::Components))
        {
            return Err(usage(format!(
                "fuzz asks valid and components only, not {op}"
            )));
        }
    }
    let report = suite::fuzz(&args.adapter, &options, |_| {})
        .map_err(|e| io::Error::other(e.to_string()))?;
    let name = args.name.clone().unwrap_or_else(|| args.adapter.clone());
    let new: Vec<&suite::Finding> = report.findings.iter().filter(|f| f.new).collect();
    if let Some(path) = &args.append {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        for f in &new {
            let mut c = f.case.clone();
            c.source = format!(
                "fuzzing ({name}, seed {}): a disagreement with the ABNF, shrunk by delta debugging",
                args.seed
            );
            c.note = Some(format!("{name} answered {}: {}", f.got, f.why));
            writeln!(file, "{}", c.to_line())?;
        }
    }
    // An adapter that answered `unsupported` to everything (or a run too
    // short to ask anything) found no disagreement because it was asked
    // nothing it answers: not a success.
    let nothing = (report.compared == 0).then(|| {
        if report.tried == 0 {
            format!(
                "nothing was compared: no request was asked in {} s",
                args.seconds
            )
        } else {
            format!(
                "nothing was compared: the adapter answered unsupported to all {} requests",
                report.tried
            )
        }
    });
    let mut out = io::stdout().lock();
    if args.json {
        let mut groups: Vec<(&String, &usize)> = report.groups.iter().collect();
        groups.sort();
        let v = serde_json::json!({
            "implementation": name,
            "seconds": args.seconds,
            "seed": args.seed,
            "tried": report.tried,
            "compared": report.compared,
            "disagreements": report.disagreements,
            "groups": groups.into_iter().map(|(g, n)| serde_json::json!({"group": g, "disagreements": n})).collect::<Vec<_>>(),
            "findings": report.findings.iter().map(|f| {
                let mut v = f.case.to_json();
                if let Some(m) = v.as_object_mut() {
                    m.insert("got".into(), f.got.clone());
                    m.insert("why".into(), f.why.as_str().into());
                    m.insert("original".into(), f.original.as_str().into());
                    m.insert("new".into(), f.new.into());
                }
                v
            }).collect::<Vec<_>>(),
            "unsupported": report.unsupported,
            "baseline": report.baseline.map(|(n, f)| serde_json::json!({"cases": n, "failed": f})),
        });
        write_json(&mut out, &v)?;
        if let Some(n) = &nothing {
            writeln!(io::stderr(), "iri: {n}")?;
        }
    } else {
        writeln!(
            out,
            "{}: {} inputs asked, {} disagreements with the spec, {} findings kept ({} not in the suite)",
            escape_invisible(&name),
            report.tried,
            report.disagreements,
            report.findings.len(),
            new.len()
        )?;
        if let Some((n, failed)) = report.baseline {
            writeln!(out, "the static suite first: {failed} of {n} cases failed")?;
        }
        for f in &report.findings {
            writeln!(
                out,
                "  {}{} [{}]: {}",
                if f.new { "new " } else { "" },
                describe(&f.case),
                escape_invisible(f.case.group()),
                escape_invisible(&f.why)
            )?;
        }
        if let Some(n) = &nothing {
            writeln!(out, "{n}")?;
        } else if report.disagreements == 0 {
            writeln!(
                out,
                "no disagreement found: the static suite already covers what this run drew"
            )?;
        }
    }
    out.flush()?;
    Ok(if report.disagreements == 0 && nothing.is_none() {
        Outcome::AllValid
    } else {
        Outcome::SomeInvalid
    })
}
