//! `iri grammar ...` (the grammar lab) and the `--grammar FILE.pest` option
//! of `iri parse` and `iri tree`.

use std::io::{self, BufRead, BufWriter, Write};
use std::path::{Path, PathBuf};

use clap::Subcommand;
use iribis::abnf::Grammar;
use iribis::lab::{self, DiffReport, PestGrammar, Scan, Side};
use iribis::render::escape_invisible;
use iribis::Profile;
use serde_json::{json, Map, Value};

use crate::inputs::Line;
use crate::output::{answer_all, escape_lines, Answer, Failure, Shape};
use crate::Outcome;

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Print a profile's built-in pest grammar, to copy and edit.
    Show {
        /// The grammar: rfc3987bis, rfc3987, rfc3986 or leiri.
        #[arg(long, default_value = "rfc3987bis")]
        profile: Profile,
    },
    /// Check a pest grammar against the spec's ABNF: every rule present,
    /// single-character rules equal on every code point, other rules equal on
    /// strings derived from the ABNF. Exit 1 when a rule differs or is
    /// missing.
    Check {
        /// The profile whose ABNF (and, without --grammar, pest grammar) to
        /// check.
        #[arg(long, default_value = "rfc3987bis")]
        profile: Profile,
        /// Check this pest grammar instead of the built-in one.
        #[arg(long, value_name = "FILE.pest")]
        grammar: Option<PathBuf>,
        /// Check against these ABNF files (in order, a later rule replacing
        /// an earlier one) instead of the profile's.
        #[arg(long, value_name = "FILE.abnf", num_args = 1..)]
        abnf: Vec<PathBuf>,
        /// Run pest_vm on every one of the 1,112,064 code points instead of
        /// once per class of code points the grammar cannot tell apart.
        #[arg(long)]
        exhaustive: bool,
    },
    /// Run two grammars over the same inputs and report every input they
    /// treat differently. Exit 0 when there is none, 1 when there are some.
    Diff(DiffArgs),
    /// Transcribe ABNF into pest, flagging where PEG ordering may change the
    /// language.
    FromAbnf {
        /// ABNF files, loaded in order (a later rule replaces an earlier one).
        #[arg(required = true, value_name = "FILE.abnf")]
        files: Vec<PathBuf>,
    },
}

#[derive(clap::Args)]
pub(crate) struct DiffArgs {
    /// The new grammar.
    #[arg(value_name = "FILE.pest")]
    grammar: PathBuf,
    /// Input files, one input per line (`-` for standard input); without
    /// any, the built-in corpus (grammar/corpus/: the spec examples and the
    /// table-test inputs).
    #[arg(value_name = "CORPUS")]
    corpus: Vec<PathBuf>,
    /// The base grammar to compare with (default: the profile's built-in
    /// grammar).
    #[arg(long, value_name = "FILE.pest", conflicts_with = "profile")]
    base_grammar: Option<PathBuf>,
    /// The profile whose built-in grammar is the base.
    #[arg(long, default_value = "rfc3987bis")]
    profile: Profile,
    /// The start rule, by ABNF or pest name, in both grammars.
    #[arg(long, default_value = "IRI-reference")]
    rule: String,
    /// Compare the parse trees of inputs both grammars accept, too.
    #[arg(long)]
    trees: bool,
    /// One JSON object: counts, kinds, and every input that differs.
    #[arg(long)]
    json: bool,
    /// How many inputs to show per kind of difference.
    #[arg(long, default_value_t = 5)]
    examples: usize,
}

fn usage(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

fn load(path: &Path) -> io::Result<PestGrammar> {
    PestGrammar::load(path).map_err(|e| usage(format!("the grammar has errors:\n{e}")))
}

/// The pest name of `rule` in `g`, or a usage error naming the grammar.
fn resolve<'g>(g: &'g PestGrammar, rule: &str, name: &str) -> io::Result<&'g str> {
    // A URI grammar (rfc3986) has the URI counterparts of the IRI
    // reference-level rules.
    let uri = match rule.replace('_', "-").to_ascii_lowercase().as_str() {
        "iri-reference" => "URI-reference",
        "iri" => "URI",
        "absolute-iri" => "absolute-URI",
        "irelative-ref" => "relative-ref",
        _ => rule,
    };
    g.resolve(rule).or_else(|| g.resolve(uri)).ok_or_else(|| {
        usage(format!(
            "{name} has no rule {rule:?}: name one of its rules with --rule"
        ))
    })
}

pub(crate) fn run(command: Command) -> io::Result<Outcome> {
    let mut out = BufWriter::new(io::stdout().lock());
    let outcome = match command {
        Command::Show { profile } => {
            write!(out, "{}", PestGrammar::builtin_source(profile))?;
            Outcome::AllValid
        }
        Command::Check {
            profile,
            grammar,
            abnf,
            exhaustive,
        } => {
            // The ABNF first: reading it is cheaper, and checks its limits.
            let (abnf, printed) = if abnf.is_empty() {
                let (a, p) = lab::check_abnf(profile).map_err(|e| usage(e.to_string()))?;
                (a, Some(p))
            } else {
                (
                    Grammar::load(&abnf).map_err(|e| usage(e.to_string()))?,
                    None,
                )
            };
            let pest = match &grammar {
                Some(path) => load(path)?,
                None => PestGrammar::builtin(profile),
            };
            let scan = if exhaustive {
                Scan::Exhaustive
            } else {
                Scan::Classes
            };
            let report = lab::check(&abnf, &pest, printed.as_ref(), scan)
                .map_err(|e| usage(format!("cannot check the grammar: {e}")))?;
            write!(out, "{report}")?;
            if report.passed() {
                Outcome::AllValid
            } else {
                Outcome::SomeInvalid
            }
        }
        Command::Diff(args) => diff(args, &mut out)?,
        Command::FromAbnf { files } => {
            let g = Grammar::load(&files).map_err(|e| usage(e.to_string()))?;
            let text = lab::from_abnf(&g).map_err(|e| usage(e.to_string()))?;
            write!(out, "{text}")?;
            Outcome::AllValid
        }
    };
    out.flush()?;
    Ok(outcome)
}

/// The lines of the corpus files (`-`: standard input), or the built-in
/// corpus.
fn corpus(files: &[PathBuf]) -> io::Result<Vec<String>> {
    if files.is_empty() {
        return Ok(lab::default_corpus().map(String::from).collect());
    }
    let mut lines = Vec::new();
    for f in files {
        let reader: Box<dyn BufRead> = if f.as_os_str() == "-" {
            Box::new(io::stdin().lock())
        } else {
            let file = std::fs::File::open(f).map_err(|e| {
                io::Error::new(
                    e.kind(),
                    format!("{}: cannot read the corpus: {e}", f.display()),
                )
            })?;
            Box::new(io::BufReader::new(file))
        };
        for line in reader.split(b'\n') {
            let mut line = line?;
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            lines.push(String::from_utf8_lossy(&line).into_owned());
        }
    }
    Ok(lines)
}

fn diff(args: DiffArgs, out: &mut impl Write) -> io::Result<Outcome> {
    let new = load(&args.grammar)?;
    let new_name = args.grammar.display().to_string();
    let (base, base_name) = match &args.base_grammar {
        Some(path) => (load(path)?, path.display().to_string()),
        None => (
            PestGrammar::builtin(args.profile),
            format!("built-in {}", args.profile),
        ),
    };
    let base_side = Side {
        grammar: &base,
        rule: resolve(&base, &args.rule, &base_name)?,
        name: &base_name,
    };
    let new_side = Side {
        grammar: &new,
        rule: resolve(&new, &args.rule, &new_name)?,
        name: &new_name,
    };
    let report = lab::diff(base_side, new_side, corpus(&args.corpus)?, args.trees)
        .map_err(|e| usage(e.to_string()))?;
    if args.json {
        writeln!(
            out,
            "{}",
            diff_json(&report, base_side, new_side, args.examples)
        )?;
    } else {
        let head = format!("rule {} (base) / {} (new)\n", base_side.rule, new_side.rule);
        write!(
            out,
            "{head}{}",
            report.render(&base_name, &new_name, args.examples)
        )?;
    }
    Ok(if report.differences.is_empty() {
        Outcome::AllValid
    } else {
        Outcome::SomeInvalid
    })
}

fn diff_json(report: &DiffReport, base: Side<'_>, new: Side<'_>, examples: usize) -> Value {
    let kinds: Vec<Value> = report
        .kinds()
        .into_iter()
        .map(|(kind, count)| {
            let mut k = json!({
                "kind": kind.name(),
                "description": kind.to_string(),
                "count": count,
                "examples": report
                    .differences
                    .iter()
                    .filter(|d| d.kind == kind)
                    .take(examples)
                    .map(|d| d.input.clone())
                    .collect::<Vec<_>>(),
            });
            if let lab::DiffKind::TreeChanged { base, new } = &kind {
                k["base_rule"] = json!(base);
                k["new_rule"] = json!(new);
            }
            k
        })
        .collect();
    json!({
        "base": {"grammar": base.name, "rule": base.rule},
        "new": {"grammar": new.name, "rule": new.rule},
        "inputs": report.inputs,
        "differing": report.differences.len(),
        "kinds": kinds,
        "differences": report.differences.iter().map(|d| json!({
            "input": d.input,
            "kind": d.kind.name(),
            "detail": d.detail,
        })).collect::<Vec<_>>(),
    })
}

/// `iri parse --grammar FILE.pest`: whether each input matches `rule` of the
/// grammar, and where it fails (a runtime grammar has no components).
pub(crate) fn parse_with(
    path: &Path,
    rule: &str,
    lines: impl Iterator<Item = io::Result<Line>>,
    as_json: bool,
) -> io::Result<Outcome> {
    let g = load(path)?;
    let rule = resolve(&g, rule, &path.display().to_string())?;
    let spec = path.display().to_string();
    let shape = Shape {
        head: Vec::new(),
        input: "input",
        valid: true,
    };
    // pest giving up (its stack limit) is no verdict on the input: each
    // input is still answered, and the command ends with a usage error.
    let mut limit = None;
    let outcome = answer_all(lines, as_json, &shape, |text| {
        let result = g.tree(rule, text);
        if let Err(f) = &result {
            if f.limit.is_some() && limit.is_none() {
                limit = Some(f.to_string());
            }
        }
        let mut answer = match result {
            Ok(_) => Answer::ok(
                Map::new(),
                format!("{}\n  valid ({rule})\n", escape_invisible(text)),
            ),
            Err(f) if f.limit.is_some() => {
                Answer::failed(Failure::at(text, f.byte, f.to_string(), "input", &spec))
            }
            Err(f) => {
                let message = format!("no match for {rule}");
                let failure =
                    Failure::at(text, f.byte, message, "input", &spec).expected(f.expected.clone());
                let human = format!(
                    "{}\n  = {}\n",
                    failure.report(),
                    escape_invisible(&f.to_string())
                );
                // The report, and pest's own words.
                let mut answer = Answer::failed(failure);
                answer.failure = None;
                answer.human = human;
                answer
            }
        };
        let mut fields = Map::new();
        fields.insert("rule".into(), rule.into());
        fields.extend(std::mem::take(&mut answer.fields));
        answer.fields = fields;
        answer
    })?;
    match limit {
        Some(f) => Err(usage(format!("{}: {}", path.display(), f))),
        None => Ok(outcome),
    }
}

/// `iri tree --grammar FILE.pest`: the derivation by a runtime grammar.
pub(crate) fn tree_with(path: &Path, rule: &str, input: &str) -> io::Result<Outcome> {
    let g = load(path)?;
    let rule = resolve(&g, rule, &path.display().to_string())?;
    let mut out = io::stdout().lock();
    match g.tree(rule, input) {
        Ok(t) => {
            write!(out, "{}", escape_lines(&t.render(input)))?;
            Ok(Outcome::AllValid)
        }
        Err(f) if f.limit.is_some() => Err(usage(format!("{}: {f}", path.display()))),
        Err(f) => {
            let failure = Failure::at(
                input,
                f.byte,
                format!("no match for {rule}"),
                "input",
                &path.display().to_string(),
            );
            writeln!(
                out,
                "{}\n  = {}",
                failure.report(),
                escape_invisible(&f.to_string())
            )?;
            Ok(Outcome::SomeInvalid)
        }
    }
}
