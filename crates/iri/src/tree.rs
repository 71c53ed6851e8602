//! `iri tree`: the whole derivation of one input.

use std::io::{self, Write};

use std::ffi::OsString;

use iribis::Profile;
use iribis::tree::SyntaxTree;
use iribis_lab::{self as lab, Attempt, PestGrammar, TraceEvent, TraceMode, TraceOptions, Verdict};

use crate::Outcome;
use crate::inputs::Input;
use crate::output::escape_lines;
use crate::parse::rule_arg;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// The input.
    input: OsString,
    /// The start rule, by ABNF name (`IPv6address`, `ireg-name`).
    /// With --grammar, any rule of that grammar (pest or ABNF spelling).
    #[arg(long, default_value = "IRI-reference")]
    rule: String,
    /// Run this pest grammar (loaded at run time) instead of the profile's;
    /// its failures are explained by the profile's rules.
    #[arg(long, value_name = "FILE.pest")]
    grammar: Option<std::path::PathBuf>,
    /// The grammar: rfc3987bis, rfc3987, rfc3986 or leiri.
    #[arg(long, default_value = "rfc3987bis")]
    profile: Profile,
    /// One JSON object: the input, the rule, and every node (rule, byte
    /// span, depth, text) in pre-order, or the error.
    #[arg(long)]
    json: bool,
    /// Trace the PEG parse: every rule call and every alternative of each
    /// ordered choice tried, where it started, whether it matched, and its
    /// span or where it failed. `--trace=won`: only the winning parse's
    /// attempts. With --json, one object with every event.
    #[arg(
        long,
        value_name = "WHAT",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "all"
    )]
    trace: Option<TraceArg>,
    /// With --trace: the most events to record (the parse goes on past it
    /// and the output says so).
    #[arg(long, value_name = "N", default_value_t = lab::DEFAULT_MAX_EVENTS, requires = "trace")]
    max_events: usize,
}

/// `--trace=WHAT`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub(crate) enum TraceArg {
    /// Every attempt, matched or failed.
    All,
    /// Only the attempts of the winning parse.
    Won,
}

/// A node of `iri tree --json`.
#[derive(serde::Serialize)]
pub(crate) struct JsonNode<'a> {
    pub(crate) rule: &'a str,
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) depth: usize,
    pub(crate) text: &'a str,
}

/// Writes the JSON object of `iri tree --json`:
/// `{"input","rule","valid","nodes"}` or `{"input","rule","valid","error"}`.
pub(crate) fn write_json(
    out: &mut impl Write,
    input: &str,
    rule: &str,
    nodes: Option<&[JsonNode<'_>]>,
    error: Option<serde_json::Value>,
) -> io::Result<()> {
    let mut v = serde_json::json!({"input": input, "rule": rule, "valid": nodes.is_some()});
    if let Some(nodes) = nodes {
        v["nodes"] = serde_json::to_value(nodes).map_err(io::Error::other)?;
    }
    if let Some(e) = error {
        v["error"] = e;
    }
    crate::output::write_json(out, &v)
}

pub(crate) fn run(args: Args) -> io::Result<Outcome> {
    if let Some(what) = args.trace {
        return trace(&args, what);
    }
    if let Some(path) = &args.grammar {
        let input = match text(&args)? {
            Ok(t) => t,
            Err(outcome) => return Ok(outcome),
        };
        return crate::grammar::tree_with(path, &args.rule, args.profile, &input, args.json);
    }
    let rule = rule_arg(&args.rule).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    crate::parse::check_rule(rule, args.profile)?;
    // The rule as the profile spells it (under rfc3986, URI-reference for
    // IRI-reference), as the error and the trace name it.
    let rule = rule.in_profile(args.profile).unwrap_or(rule);
    let input = match text(&args)? {
        Ok(t) => t,
        Err(outcome) => return Ok(outcome),
    };
    let mut out = io::stdout().lock();
    match SyntaxTree::parse(&input, rule, args.profile) {
        Ok(tree) if args.json => {
            let nodes: Vec<JsonNode> = tree
                .nodes()
                .iter()
                .map(|n| JsonNode {
                    rule: n.rule.abnf_name(),
                    start: n.start,
                    end: n.end,
                    depth: n.depth,
                    text: tree.text(n),
                })
                .collect();
            write_json(&mut out, &input, rule.abnf_name(), Some(&nodes), None)?;
            Ok(Outcome::AllValid)
        }
        Err(e) if args.json => {
            let name = e.rule().abnf_name();
            let failure = crate::output::Failure::parse(e);
            write_json(&mut out, &input, name, None, Some(failure.json()))?;
            Ok(Outcome::SomeInvalid)
        }
        Ok(tree) => {
            // Each node shows its text as a Rust string literal; what that
            // leaves raw (bidi formatting characters) is escaped.
            write!(out, "{}", escape_lines(&tree.to_string()))?;
            Ok(Outcome::AllValid)
        }
        Err(e) => {
            writeln!(out, "{}", e.report())?;
            Ok(Outcome::SomeInvalid)
        }
    }
}

/// The input as text; for an input that is not UTF-8, its error written
/// (with --json, as the object of a failed parse, with no events for
/// --trace) and the outcome.
fn text(args: &Args) -> io::Result<Result<String, Outcome>> {
    let n = match Input::from(args.input.clone()) {
        Input::Text(t) => return Ok(Ok(t)),
        Input::NotUtf8(n) => n,
    };
    let mut out = io::stdout().lock();
    if args.json {
        let mut v = serde_json::json!({
            "input": n.lossy(),
            "rule": args.rule,
            "valid": false,
        });
        if let Some(what) = args.trace {
            v["mode"] = match what {
                TraceArg::All => "all",
                TraceArg::Won => "won",
            }
            .into();
            v["max_events"] = args.max_events.into();
            v["truncated"] = false.into();
            v["events"] = serde_json::json!([]);
        }
        v["error"] = n.failure().json();
        crate::output::write_json(&mut out, &v)?;
    } else {
        writeln!(out, "{}", n.failure().report())?;
    }
    Ok(Err(Outcome::SomeInvalid))
}

fn usage(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

/// `iri tree --trace`: the trace of the PEG parse by the built-in grammar
/// (run from its pest source) or the --grammar file, with pest's own
/// verdict and error explanation.
fn trace(args: &Args, what: TraceArg) -> io::Result<Outcome> {
    let input = match text(args)? {
        Ok(t) => t,
        Err(outcome) => return Ok(outcome),
    };
    // The grammar, the start rule (pest name), and pest's verdict: the
    // error object and report of a failure.
    let (g, rule, error) = match &args.grammar {
        Some(path) => {
            let g = crate::grammar::load(path)?;
            let spec = path.display().to_string();
            let rule = crate::grammar::resolve(&g, &args.rule, &spec)?.to_string();
            let error = match g.tree(&rule, &input) {
                Ok(_) => None,
                Err(f) if f.limit.is_some() => return Err(usage(format!("{spec}: {f}"))),
                Err(f) => {
                    let shown = lab::spelling(&rule);
                    Some(crate::grammar::explained(
                        &f,
                        &input,
                        &rule,
                        args.profile,
                        shown,
                        &spec,
                    ))
                }
            };
            (g, rule, error)
        }
        None => {
            let rule = rule_arg(&args.rule).map_err(usage)?;
            crate::parse::check_rule(rule, args.profile)?;
            let rule = rule.in_profile(args.profile).unwrap_or(rule);
            let error = SyntaxTree::parse(&input, rule, args.profile)
                .err()
                .map(|e| {
                    let report = e.report();
                    (crate::output::Failure::parse(e), report)
                });
            (
                PestGrammar::builtin(args.profile),
                rule.pest_name().to_string(),
                error,
            )
        }
    };
    let mode = match what {
        TraceArg::All => TraceMode::All,
        TraceArg::Won => TraceMode::Won,
    };
    let options = TraceOptions::new().mode(mode).max_events(args.max_events);
    let t = g
        .trace(&rule, &input, &options)
        .map_err(|e| usage(format!("cannot trace: {e}")))?;
    match (&t.verdict, &error) {
        (Verdict::Stopped(why), _) => {
            return Err(usage(format!("the trace stopped without a verdict: {why}")));
        }
        (Verdict::Matched, None) | (Verdict::Failed { .. }, Some(_)) => {}
        _ => {
            return Err(io::Error::other(format!(
                "internal error: the trace and pest disagree on {input:?} (please report it)"
            )));
        }
    }
    let shown = lab::spelling(&rule);
    if args.json {
        let mut out = io::stdout().lock();
        let events: Vec<serde_json::Value> = t.events.iter().map(json_event).collect();
        let mut v = serde_json::json!({
            "input": input,
            "rule": shown,
            "valid": error.is_none(),
            "mode": match what { TraceArg::Won => "won", TraceArg::All => "all" },
            "max_events": t.max_events,
            "truncated": t.truncated,
            "events": events,
        });
        if let Some((failure, _)) = &error {
            v["error"] = failure.json();
        }
        crate::output::write_json(&mut out, &v)?;
    } else {
        let (mut out, color) = crate::output::stdout(true);
        write!(out, "{}", t.render(&input, color))?;
        if let Some((_, report)) = &error {
            writeln!(out, "{report}")?;
        }
        out.flush()?;
    }
    Ok(if error.is_none() {
        Outcome::AllValid
    } else {
        Outcome::SomeInvalid
    })
}

/// One event of `iri tree --trace --json`.
fn json_event(e: &TraceEvent) -> serde_json::Value {
    let mut v = serde_json::Map::new();
    v.insert("depth".into(), e.depth.into());
    match &e.attempt {
        Attempt::Rule { name, pair } => {
            v.insert("kind".into(), "rule".into());
            v.insert("rule".into(), lab::spelling(name).into());
            v.insert("pair".into(), (*pair).into());
        }
        Attempt::Alternative {
            rule,
            index,
            count,
            expr,
        } => {
            v.insert("kind".into(), "alt".into());
            v.insert("rule".into(), lab::spelling(rule).into());
            v.insert("alt".into(), (*index).into());
            v.insert("of".into(), (*count).into());
            v.insert("expr".into(), expr.to_string().into());
        }
        _ => {}
    }
    for (key, value) in [
        ("start", e.start),
        ("start_char", e.start_char),
        ("end", e.end),
        ("end_char", e.end_char),
    ] {
        v.insert(key.into(), value.into());
    }
    for (key, value) in [
        ("matched", e.matched),
        ("undone", e.undone),
        ("won", e.won),
        ("lookahead", e.lookahead),
    ] {
        v.insert(key.into(), value.into());
    }
    serde_json::Value::Object(v)
}
