//! `iri grammar ...` (the grammar lab) and the `--grammar FILE.pest` option
//! of `iri parse` and `iri tree`.

use std::io::{self, BufRead, BufWriter, Write};
use std::path::{Path, PathBuf};

use clap::Subcommand;
use iribis::Profile;
use iribis::render::escape_invisible;
use iribis_lab::abnf::Grammar;
use iribis_lab::{self as lab, PestGrammar, Scan, Side, playground};
use serde_json::{Map, Value};

use crate::Outcome;
use crate::inputs::Line;
use crate::output::{Answer, Failure, Shape, answer_all, escape_lines};

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Print a profile's built-in pest grammar, to copy and edit; with
    /// --abnf, its built-in ABNF.
    Show {
        /// The grammar: rfc3987bis, rfc3987, rfc3986 or leiri.
        #[arg(long, default_value = "rfc3987bis")]
        profile: Profile,
        /// Print the profile's built-in ABNF instead: the spec's as printed
        /// and the files whose rules replace printed ones, in the order they
        /// are loaded (what `grammar from-abnf --builtin` transcribes;
        /// `grammar check` loads RFC 3986's before an IRI profile's).
        #[arg(long)]
        abnf: bool,
    },
    /// Check a pest grammar against the spec's ABNF, both ways.
    ///
    /// Every rule present; single-character rules equal on every code point; other
    /// rules compared as automata (proven equal where the PEG's ordering
    /// provably cannot change the language) and run on test strings derived
    /// from both the ABNF and the pest rule. Exit 1 when a rule differs, is
    /// missing or could not be checked.
    Check(CheckArgs),
    /// Re-run check and diff whenever the grammar, an ABNF file or a corpus
    /// file changes.
    ///
    /// The files' modification times are polled. Stop with Ctrl-C.
    Watch(WatchArgs),
    /// Run two grammars over the same inputs and report every input they
    /// treat differently.
    ///
    /// Exit 0 when there is none, 1 when there are some.
    Diff(DiffArgs),
    /// Transcribe ABNF into pest, flagging where PEG ordering may change the
    /// language.
    ///
    /// Without files, the built-in ABNF of --builtin (rfc3987bis by
    /// default): no copy of the repository is needed.
    FromAbnf {
        /// ABNF files, loaded in order (a later rule replaces an earlier
        /// one), after the built-in ABNF of --builtin when it is given.
        #[arg(value_name = "FILE.abnf")]
        files: Vec<PathBuf>,
        /// Start from this profile's built-in ABNF (rfc3987bis, rfc3987,
        /// rfc3986 or leiri: what `grammar show --abnf` prints); the files
        /// add rules to it or replace its rules of the same name.
        #[arg(long, value_name = "PROFILE")]
        builtin: Option<Profile>,
    },
}

#[derive(clap::Args)]
pub(crate) struct CheckArgs {
    /// The profile whose ABNF (and, without --grammar, pest grammar) to
    /// check.
    #[arg(long, default_value = "rfc3987bis")]
    profile: Profile,
    /// Check this pest grammar instead of the built-in one.
    #[arg(long, value_name = "FILE.pest")]
    grammar: Option<PathBuf>,
    #[command(flatten)]
    abnf: AbnfArgs,
    /// Run pest_vm on every one of the 1,112,064 code points instead of
    /// once per class of code points the grammar cannot tell apart.
    #[arg(long)]
    exhaustive: bool,
    /// After the table, every test string of every rule with pest's and
    /// the ABNF's verdicts.
    #[arg(long)]
    show_strings: bool,
}

/// Which ABNF to check against.
#[derive(clap::Args, Clone)]
pub(crate) struct AbnfArgs {
    /// Check against these ABNF files (in order, a later rule replacing
    /// an earlier one) instead of the profile's built-in ABNF.
    #[arg(long, value_name = "FILE.abnf", num_args = 1..)]
    abnf: Vec<PathBuf>,
    /// ABNF files loaded after the profile's built-in ABNF (or after
    /// --abnf): their rules are added, or replace the rules of the same
    /// name (rule names are case-insensitive, RFC 5234 §2.1).
    #[arg(long, value_name = "FILE.abnf", num_args = 1..)]
    extra_abnf: Vec<PathBuf>,
}

#[derive(clap::Args)]
pub(crate) struct WatchArgs {
    /// The grammar to check and diff.
    #[arg(value_name = "FILE.pest")]
    grammar: PathBuf,
    /// Corpus files for the diff (default: the built-in corpus).
    #[arg(value_name = "CORPUS")]
    corpus: Vec<PathBuf>,
    /// The profile whose ABNF and built-in grammar to compare with.
    #[arg(long, default_value = "rfc3987bis")]
    profile: Profile,
    #[command(flatten)]
    abnf: AbnfArgs,
    /// The start rule of the diff, by ABNF or pest name.
    #[arg(long, default_value = "IRI-reference")]
    rule: String,
    /// How often to look at the files' modification times, in
    /// milliseconds.
    #[arg(long, default_value_t = 300, value_name = "MS")]
    interval: u64,
    /// Stop after this many runs (the first run counts); without it, run
    /// until interrupted.
    #[arg(long, value_name = "N")]
    max_runs: Option<u64>,
}

#[derive(clap::Args)]
pub(crate) struct DiffArgs {
    /// The new grammar.
    #[arg(value_name = "FILE.pest")]
    grammar: PathBuf,
    /// Input files, one input per line (`-` for standard input); without
    /// any, the built-in corpus (crates/lab/corpus/: the spec examples and the
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

pub(crate) fn load(path: &Path) -> io::Result<PestGrammar> {
    PestGrammar::load(path).map_err(|e| usage(format!("the grammar has errors:\n{e}")))
}

/// The pest name of `rule` in `g`, or a usage error naming the grammar and
/// the closest rules it has.
pub(crate) fn resolve<'g>(g: &'g PestGrammar, rule: &str, name: &str) -> io::Result<&'g str> {
    playground::start_rule(g, rule, name).map_err(usage)
}

pub(crate) fn run(command: Command) -> io::Result<Outcome> {
    let mut out = BufWriter::new(io::stdout().lock());
    let outcome = match command {
        Command::Show {
            profile,
            abnf: false,
        } => {
            write!(out, "{}", PestGrammar::builtin_source(profile))?;
            Outcome::AllValid
        }
        Command::Show {
            profile,
            abnf: true,
        } => {
            write!(out, "{}", builtin_abnf_source(profile)?)?;
            Outcome::AllValid
        }
        Command::Check(args) => check(&args, &mut out)?,
        Command::Watch(args) => {
            drop(out);
            return watch(&args);
        }
        Command::Diff(args) => diff(args, &mut out)?,
        Command::FromAbnf { files, builtin } => {
            let g = abnf_to_transcribe(builtin, &files)?;
            let text = lab::from_abnf(&g).map_err(|e| usage(e.to_string()))?;
            write!(out, "{text}")?;
            Outcome::AllValid
        }
    };
    out.flush()?;
    Ok(outcome)
}

/// The files of `profile`'s built-in ABNF, in load order, as (path in the
/// repository, text): the library's copies, so that no repository is
/// needed.
fn builtin_abnf_files(profile: Profile) -> io::Result<Vec<(String, &'static str)>> {
    let names = iribis::grammar::ABNF_PROFILES
        .iter()
        .find(|(name, _)| *name == profile.name())
        .map(|(_, files)| *files)
        .ok_or_else(|| usage(format!("the profile {profile} has no built-in ABNF")))?;
    names
        .iter()
        .map(|name| {
            iribis::grammar::abnf_file(name)
                .map(|text| (format!("grammar/abnf/{name}"), text))
                .ok_or_else(|| usage(format!("the built-in ABNF has no file {name}")))
        })
        .collect()
}

/// `iri grammar show --abnf`: the files of `profile`'s built-in ABNF, each
/// under a line naming it, after a note on how they combine.
fn builtin_abnf_source(profile: Profile) -> io::Result<String> {
    let mut out = format!(
        "; The built-in ABNF of iribis, profile {profile}: the files below, in the order\n\
         ; they are loaded; a rule of a later file replaces the rule of the same name in an\n\
         ; earlier one (so, read as one file, such a rule is defined twice). To transcribe it:\n\
         ; `iri grammar from-abnf --builtin {profile}`; to replace or add rules, put them in a\n\
         ; file of your own and load it after these: `iri grammar from-abnf --builtin {profile}\n\
         ; FILE.abnf`, `iri grammar check --profile {profile} --extra-abnf FILE.abnf`.\n"
    );
    for (path, text) in builtin_abnf_files(profile)? {
        out.push_str(&format!("\n; ======== {path} ========\n\n"));
        out.push_str(text);
        if !text.ends_with('\n') {
            out.push('\n');
        }
    }
    Ok(out)
}

/// The ABNF `grammar from-abnf` transcribes: the built-in ABNF of
/// `builtin` (of rfc3987bis when there are no files either), then the
/// files in order.
fn abnf_to_transcribe(builtin: Option<Profile>, files: &[PathBuf]) -> io::Result<Grammar> {
    let builtin = match builtin {
        None if files.is_empty() => Some(Profile::Rfc3987bis),
        other => other,
    };
    let Some(profile) = builtin else {
        return Grammar::load(files).map_err(|e| usage(e.to_string()));
    };
    // Each built-in rule's origin is its file's bare name.
    let mut g = Grammar::profile(profile.name()).map_err(|e| usage(e.to_string()))?;
    for path in files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| usage(format!("{}: cannot read the file: {e}", path.display())))?;
        g.add(&text, &path.display().to_string())
            .map_err(|e| usage(e.to_string()))?;
    }
    Ok(g)
}

/// The ABNF to check against, and the printed ABNF (before errata) when it
/// is the profile's.
fn abnf_of(profile: Profile, args: &AbnfArgs) -> io::Result<(Grammar, Option<Grammar>)> {
    let (mut abnf, mut printed) = if args.abnf.is_empty() {
        let (a, p) = lab::check_abnf(profile).map_err(|e| usage(e.to_string()))?;
        (a, Some(p))
    } else {
        (
            Grammar::load(&args.abnf).map_err(|e| usage(e.to_string()))?,
            None,
        )
    };
    for path in &args.extra_abnf {
        let text = std::fs::read_to_string(path)
            .map_err(|e| usage(format!("{}: cannot read the file: {e}", path.display())))?;
        let origin = path.display().to_string();
        abnf.add(&text, &origin).map_err(|e| usage(e.to_string()))?;
        if let Some(p) = &mut printed {
            p.add(&text, &origin).map_err(|e| usage(e.to_string()))?;
        }
    }
    Ok((abnf, printed))
}

fn check(args: &CheckArgs, out: &mut impl Write) -> io::Result<Outcome> {
    // The ABNF first: reading it is cheaper, and checks its limits.
    let (abnf, printed) = abnf_of(args.profile, &args.abnf)?;
    let pest = match &args.grammar {
        Some(path) => load(path)?,
        None => PestGrammar::builtin(args.profile),
    };
    let scan = if args.exhaustive {
        Scan::Exhaustive
    } else {
        Scan::Classes
    };
    let report = lab::check(&abnf, &pest, printed.as_ref(), scan).map_err(|e| {
        let hint = if args.abnf.abnf.is_empty() {
            ""
        } else {
            " (--abnf replaces the profile's ABNF; to add rules to it, use --extra-abnf)"
        };
        usage(format!("cannot check the grammar: {e}{hint}"))
    })?;
    write!(out, "{}", escape_lines(&report.to_string()))?;
    if args.show_strings {
        write!(out, "{}", escape_lines(&report.render_strings()))?;
    }
    Ok(if report.passed() {
        Outcome::AllValid
    } else {
        Outcome::SomeInvalid
    })
}

/// `iri grammar watch`: check and diff, then again at each change of the
/// files, until interrupted (or `--max-runs`). An error (a grammar that
/// does not load) is reported and waited out like a failing check.
fn watch(args: &WatchArgs) -> io::Result<Outcome> {
    let mut files = vec![args.grammar.clone()];
    files.extend(args.abnf.abnf.iter().cloned());
    files.extend(args.abnf.extra_abnf.iter().cloned());
    files.extend(args.corpus.iter().filter(|f| f.as_os_str() != "-").cloned());
    let stamps = |files: &[PathBuf]| -> Vec<Option<std::time::SystemTime>> {
        files
            .iter()
            .map(|f| std::fs::metadata(f).and_then(|m| m.modified()).ok())
            .collect()
    };
    let mut runs = 0u64;
    let mut seen = stamps(&files);
    loop {
        runs += 1;
        let mut out = BufWriter::new(io::stdout().lock());
        writeln!(out, "== run {runs}: {}", args.grammar.display())?;
        let check_args = CheckArgs {
            profile: args.profile,
            grammar: Some(args.grammar.clone()),
            abnf: args.abnf.clone(),
            exhaustive: false,
            show_strings: false,
        };
        let result = check(&check_args, &mut out).and_then(|checked| {
            writeln!(out)?;
            let diffed = diff(
                DiffArgs {
                    grammar: args.grammar.clone(),
                    corpus: args.corpus.clone(),
                    base_grammar: None,
                    profile: args.profile,
                    rule: args.rule.clone(),
                    trees: true,
                    json: false,
                    examples: 5,
                },
                &mut out,
            )?;
            Ok(match (checked, diffed) {
                (Outcome::AllValid, Outcome::AllValid) => Outcome::AllValid,
                _ => Outcome::SomeInvalid,
            })
        });
        let last = match result {
            Ok(o) => o,
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Err(e),
            Err(e) => {
                writeln!(out, "iri: {}", escape_invisible(&e.to_string()))?;
                Outcome::SomeInvalid
            }
        };
        writeln!(
            out,
            "== {}; watching {} file{} (Ctrl-C to stop)",
            match last {
                Outcome::AllValid => "passed",
                Outcome::SomeInvalid | Outcome::SyntaxError => "FAILED",
            },
            files.len(),
            if files.len() == 1 { "" } else { "s" }
        )?;
        out.flush()?;
        drop(out);
        if args.max_runs.is_some_and(|m| runs >= m) {
            return Ok(last);
        }
        // Poll until something changes.
        loop {
            std::thread::sleep(std::time::Duration::from_millis(args.interval.max(10)));
            let now = stamps(&files);
            if now != seen {
                seen = now;
                break;
            }
        }
    }
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
            playground::diff_json(&report, base_side, new_side, args.examples)
        )?;
    } else {
        let head = format!(
            "rule {} (base) / {} (new)\n",
            lab::spelling(base_side.rule),
            lab::spelling(new_side.rule)
        );
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

/// `iri parse --grammar FILE.pest`: whether each input matches `rule` of the
/// grammar, its components (by the spec's rule names, when the grammar has
/// them), and where and why it fails: explained as the built-in grammar
/// explains its own failures when the start rule is one of the spec's.
pub(crate) fn parse_with(
    path: &Path,
    rule: &str,
    profile: Profile,
    lines: impl Iterator<Item = io::Result<Line>>,
    as_json: bool,
) -> io::Result<Outcome> {
    let g = load(path)?;
    let rule = resolve(&g, rule, &path.display().to_string())?;
    let shown = lab::spelling(rule);
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
        if let Err(f) = &result
            && f.limit.is_some()
            && limit.is_none()
        {
            limit = Some(f.to_string());
        }
        let mut answer = match result {
            Ok(tree) => {
                let parts = playground::components(&tree, text);
                let mut fields = Map::new();
                // A reference-level rule has every key, null when absent.
                if parts.iter().any(|(k, _)| *k == "path") {
                    for k in iribis::Components::KEYS {
                        fields.insert(k.into(), Value::Null);
                    }
                }
                let mut human = format!("{}\n  valid ({shown})\n", escape_invisible(text));
                let kind = parts.iter().find(|(k, _)| *k == "host_type").map(|p| p.1);
                for (k, v) in &parts {
                    fields.insert((*k).into(), (*v).into());
                    match (*k, kind) {
                        ("host_type", _) => {}
                        ("host", Some(kind)) => {
                            human.push_str(&format!("  {k:<10} {} ({kind})\n", escape_invisible(v)))
                        }
                        (_, _) if v.is_empty() => human.push_str(&format!("  {k:<10} (empty)\n")),
                        _ => human.push_str(&format!("  {k:<10} {}\n", escape_invisible(v))),
                    }
                }
                Answer::ok(fields, human)
            }
            Err(f) if f.limit.is_some() => {
                Answer::failed(Failure::at(text, f.byte, f.to_string(), "input", &spec))
            }
            Err(f) => {
                let (failure, human) = explained(&f, text, rule, profile, shown, &spec);
                let human = format!("{human}\n");
                // The report, and pest's own words.
                let mut answer = Answer::failed(failure);
                answer.failure = None;
                answer.human = human;
                answer
            }
        };
        let mut fields = Map::new();
        fields.insert("rule".into(), shown.into());
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
pub(crate) fn tree_with(
    path: &Path,
    rule: &str,
    profile: Profile,
    input: &str,
    as_json: bool,
) -> io::Result<Outcome> {
    let g = load(path)?;
    let rule = resolve(&g, rule, &path.display().to_string())?;
    let shown = lab::spelling(rule);
    let spec = path.display().to_string();
    let mut out = io::stdout().lock();
    match g.tree(rule, input) {
        Ok(t) if as_json => {
            let nodes: Vec<crate::tree::JsonNode> = t
                .nodes
                .iter()
                .map(|n| crate::tree::JsonNode {
                    rule: lab::spelling(&n.rule),
                    start: n.start,
                    end: n.end,
                    depth: n.depth,
                    text: &input[n.start..n.end],
                })
                .collect();
            crate::tree::write_json(&mut out, input, shown, Some(&nodes), None)?;
            Ok(Outcome::AllValid)
        }
        Ok(t) => {
            write!(out, "{}", escape_lines(&t.render(input)))?;
            Ok(Outcome::AllValid)
        }
        Err(f) if f.limit.is_some() => Err(usage(format!("{}: {f}", path.display()))),
        Err(f) => {
            let (failure, human) = explained(&f, input, rule, profile, shown, &spec);
            if as_json {
                crate::tree::write_json(&mut out, input, shown, None, Some(failure.json()))?;
            } else {
                writeln!(out, "{human}")?;
            }
            Ok(Outcome::SomeInvalid)
        }
    }
}

/// A runtime grammar's failure on `input` as the built-in grammar would
/// explain it (message and component, or "no match for" the rule), with
/// the expected rules in ABNF spelling; and the human report: that
/// explanation, then pest's own words.
pub(crate) fn explained(
    f: &lab::RuntimeFailure,
    input: &str,
    rule: &str,
    profile: Profile,
    shown: &str,
    spec: &str,
) -> (Failure, String) {
    let e = playground::explain(f, input, rule, profile, shown, spec);
    let human = e.report.clone();
    (Failure::explained(e), human)
}
