//! The conformance suite of draft-ietf-iri-3987bis-13 (and RFC 3987, RFC
//! 3986, LEIRIs), the protocol that puts any implementation under test,
//! the runner, and differential fuzzing: `iri suite export | adapter | run
//! | fuzz` are this module's clients.
//!
//! # The suite
//!
//! [`Suite::generate`] writes the cases from what the library knows of the
//! grammar and the specs, reproducibly from a seed ([`DEFAULT_SEED`] gives
//! the copy checked in under `conformance/`):
//!
//! - **generated from the automata**, for every rule of every profile
//!   (the minimal DFAs of `src/fast/tables/`, written from the ABNF):
//!   accepted strings that together take every transition of the rule's
//!   DFA, rejected strings one character away from accepted ones with the
//!   position of the first character that cannot belong to a valid input,
//!   and every end of every character range and repetition count, with
//!   the values one past it; the range ends again inside each component of
//!   a whole reference;
//! - **the specs' own examples** (3987bis, RFC 3987, RFC 3986 §5.4);
//! - **other projects' vectors** (`crates/suite/data/conformance/`), each
//!   with its source, where the spec decides; a vector whose source
//!   expected something else keeps the spec's answer and says so in its
//!   `note`;
//! - templates for resolution, normalization and the conversions, and the
//!   findings of earlier fuzzing runs (`crates/suite/src/findings.jsonl`).
//!
//! Each case is one JSON line: `{"id", "op", "profile", "rule"?, "input",
//! "base"?, "other"?, "expect", "source"}`, see [`Case`]. There is one case
//! per request: cases that make the same request are merged, their
//! sources kept.
//!
//! # The adapter protocol
//!
//! An implementation under test is a command that reads one request per
//! line ([`Case::request`]: `{"id", "op", "profile", "rule", "input",
//! "base"}`) and writes one answer per line, in order, flushing each:
//! `{"id", "valid"}`, `{"id", "components"}`, `{"id", "result"}`, `{"id",
//! "equivalent"}`, `{"id", "requirements"}`, `{"id", "error"}` or `{"id",
//! "unsupported": true}` ([`Answer`]). [`answer`] is
//! iribis's own; `conformance/adapters/` has others.
//!
//! ```
//! use iribis_suite::{answer, judge, Case, Request, Verdict};
//!
//! let case = Case::from_line(r#"{"id":"a","op":"valid","profile":"rfc3987bis","rule":"IRI","input":"http://例え.jp/","expect":{"valid":true},"source":"s"}"#).unwrap();
//! let request = Request::from_line(&case.request()).unwrap();
//! assert_eq!(judge(&case, &answer(&request), true), Verdict::Pass);
//! ```

mod adapter;
mod case;
mod fuzz;
mod generate;
mod ops;
mod run;
mod shrink;
mod sources;

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use serde_json::{Map, Value, json};

pub use adapter::answer;
pub use case::{
    Answer, Case, Expect, Ladder, Op, Parts, Position, REQUIREMENTS, Request, Verdict, judge,
};
pub use fuzz::{Finding, FuzzOptions, FuzzReport, fuzz, minimize};
pub use run::{
    Adapter, Failure, MAX_ANSWER_LINE, NoAnswer, Report, RunError, RunOptions, Tally, run,
};
pub use shrink::shrink;

use generate::{Coverage, Rng};
use iribis::Profile;

/// The seed of the suite checked in under `conformance/`.
pub const DEFAULT_SEED: u64 = 3987;

/// The version of the suite's format and content, in its index. A change
/// of the cases of the default seed makes a new version.
pub const VERSION: &str = "2.0";

/// The JSON Schema (draft 2020-12) of a case line.
pub const CASE_SCHEMA: &str = include_str!("case.schema.json");

/// The JSON Schema of an adapter's answer line.
pub const ANSWER_SCHEMA: &str = include_str!("answer.schema.json");

/// The README of the exported suite.
const README: &str = include_str!("README.md");

/// The findings of fuzzing runs appended to the suite (`iri suite fuzz
/// --append`): case lines whose expected answers are computed afresh.
const FINDINGS: &str = include_str!("findings.jsonl");

/// A generated suite: its cases in the order of its files, and what the
/// generator covered.
///
/// ```
/// use iribis_suite::{Op, Suite};
///
/// let suite = Suite::builtin();
/// assert!(suite.cases().len() > 5_000);
/// assert!(suite.cases().iter().any(|c| c.op == Op::Resolve && c.input == "../../g"));
/// ```
#[derive(Clone, Debug)]
pub struct Suite {
    seed: u64,
    cases: Vec<Case>,
    coverage: Coverage,
}

impl Suite {
    /// The suite of [`DEFAULT_SEED`], the one checked in under
    /// `conformance/`; generated on first use (a second or two) and kept.
    pub fn builtin() -> &'static Suite {
        static SUITE: std::sync::OnceLock<Suite> = std::sync::OnceLock::new();
        SUITE.get_or_init(|| Suite::generate(DEFAULT_SEED))
    }

    /// Generates the suite for `seed`: the same seed, the same cases.
    pub fn generate(seed: u64) -> Suite {
        let mut rng = Rng::new(seed);
        let mut coverage = Coverage::default();
        let mut valid = Vec::new();
        let mut range_chars: Vec<(Profile, char)> = Vec::new();
        for profile in Profile::ALL {
            valid.extend(generate::valid_cases(profile, &mut rng, &mut coverage));
            let context = generate::in_context(profile);
            for c in &context {
                if let Some(ch) = c.note.as_deref().and_then(code_point)
                    && !range_chars.contains(&(profile, ch))
                    && (!ch.is_ascii() || profile == Profile::Leiri)
                {
                    range_chars.push((profile, ch));
                }
            }
            valid.extend(context);
        }
        valid.extend(sources::spec_valid());
        let mut others = sources::vectors();
        valid.extend(others.iter().filter(|c| c.op == Op::Valid).cloned());
        others.retain(|c| c.op != Op::Valid);
        let findings = findings();
        valid.extend(findings.iter().filter(|c| c.op == Op::Valid).cloned());
        let zones = ops::zone_ids();
        valid.extend(zones.iter().filter(|c| c.op == Op::Valid).cloned());

        let mut cases = valid;
        for profile in Profile::ALL {
            let reference = if profile == Profile::Rfc3986 {
                "URI-reference"
            } else {
                "IRI-reference"
            };
            let mut inputs: Vec<&Case> = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for c in &cases {
                let wanted = c.profile == profile
                    && c.rule.as_deref() == Some(reference)
                    && matches!(c.expect, Expect::Valid { valid: true, .. })
                    && matches!(
                        c.generator.as_deref(),
                        Some("transition" | "in-context") | None
                    );
                if wanted && seen.insert(c.input.clone()) {
                    inputs.push(c);
                }
            }
            let components = ops::components_of(profile, &inputs);
            let mut invalid: Vec<&Case> = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for c in &cases {
                let wanted = c.profile == profile
                    && c.rule.as_deref() == Some(reference)
                    && matches!(c.expect, Expect::Valid { valid: false, .. })
                    && c.generator.as_deref() == Some("near-miss");
                if wanted && seen.insert(c.input.clone()) {
                    invalid.push(c);
                }
            }
            let invalid = ops::components_of_invalid(profile, &invalid);
            cases.extend(components);
            cases.extend(invalid);
        }
        cases.extend(zones.iter().filter(|c| c.op == Op::Components).cloned());
        cases.extend(findings.iter().filter(|c| c.op == Op::Components).cloned());
        let spec_ops = sources::spec_ops();
        let more = ops::more_conversions();
        for op in [
            Op::Resolve,
            Op::Normalize,
            Op::ToUri,
            Op::ToIri,
            Op::Compare,
            Op::Check,
        ] {
            cases.extend(spec_ops.iter().filter(|c| c.op == op).cloned());
            cases.extend(others.iter().filter(|c| c.op == op).cloned());
            match op {
                Op::Resolve => cases.extend(ops::resolutions()),
                Op::Normalize => cases.extend(ops::normalizations()),
                Op::ToUri => cases.extend(
                    ops::conversions(&range_chars)
                        .into_iter()
                        .filter(|c| c.op == Op::ToUri),
                ),
                Op::ToIri => cases.extend(
                    ops::conversions(&range_chars)
                        .into_iter()
                        .filter(|c| c.op == Op::ToIri),
                ),
                Op::Compare => cases.extend(ops::comparisons()),
                _ => cases.extend(ops::checks()),
            }
            cases.extend(more.iter().filter(|c| c.op == op).cloned());
            cases.extend(findings.iter().filter(|c| c.op == op).cloned());
        }
        let cases = dedupe(cases);
        Suite {
            seed,
            cases,
            coverage,
        }
    }

    /// Reads a suite exported by [`Suite::export`] (its `index.json` and
    /// the files it names).
    pub fn load(dir: &Path) -> Result<Suite, String> {
        let index = std::fs::read_to_string(dir.join("index.json"))
            .map_err(|e| format!("{}: {e}", dir.join("index.json").display()))?;
        let index: Value = serde_json::from_str(&index).map_err(|e| format!("index.json: {e}"))?;
        let seed = index["seed"].as_u64().unwrap_or(0);
        let mut cases = Vec::new();
        for op in Op::ALL {
            let Some(file) = index["files"][op.name()]["file"].as_str() else {
                continue;
            };
            let path = dir.join(file);
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                let case = Case::from_line(line).map_err(|e| format!("{file}:{}: {e}", i + 1))?;
                cases.push(case);
            }
        }
        Ok(Suite {
            seed,
            cases,
            coverage: Coverage::default(),
        })
    }

    /// Wraps cases read elsewhere (a file of cases, a filtered suite).
    pub fn from_cases(cases: Vec<Case>) -> Suite {
        Suite {
            seed: 0,
            cases,
            coverage: Coverage::default(),
        }
    }

    /// The cases, in the order of the files.
    pub fn cases(&self) -> &[Case] {
        &self.cases
    }

    /// The seed the suite was generated from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The index: version, seed, counts per operation, profile and
    /// source, the files, and the coverage of the DFAs.
    pub fn index(&self) -> Value {
        let mut files = Map::new();
        let mut by_profile: BTreeMap<&str, usize> = BTreeMap::new();
        let mut by_source: BTreeMap<String, usize> = BTreeMap::new();
        let mut by_op_profile: BTreeMap<String, BTreeMap<&str, usize>> = BTreeMap::new();
        for op in Op::ALL {
            let n = self.cases.iter().filter(|c| c.op == op).count();
            files.insert(
                op.name().into(),
                json!({"file": format!("{op}.jsonl"), "cases": n}),
            );
        }
        for c in &self.cases {
            *by_profile.entry(c.profile.name()).or_default() += 1;
            *by_source.entry(origin(c)).or_default() += 1;
            *by_op_profile
                .entry(c.op.name().to_owned())
                .or_default()
                .entry(c.profile.name())
                .or_default() += 1;
        }
        let mut profiles = Map::new();
        let mut rules = Vec::new();
        for profile in Profile::ALL {
            let mine: Vec<_> = self
                .coverage
                .rules
                .iter()
                .filter(|(p, _, _)| *p == profile)
                .collect();
            if mine.is_empty() {
                continue;
            }
            let sum = |i: usize| mine.iter().map(|(_, _, c)| c[i]).sum::<usize>();
            profiles.insert(
                profile.name().into(),
                json!({
                    "rules": mine.len(),
                    "transitions": sum(0),
                    "transitions_covered": sum(1),
                    "range_and_bound_probes": sum(2),
                    "accepted": sum(3),
                    "rejected": sum(4),
                    "rules_with_accepted_and_rejected": mine.iter().filter(|(_, _, c)| c[3] > 0 && c[4] > 0).count(),
                }),
            );
            for (_, rule, c) in mine {
                rules.push(json!({
                    "profile": profile.name(),
                    "rule": rule,
                    "transitions": c[0],
                    "covered": c[1],
                    "probes": c[2],
                    "accepted": c[3],
                    "rejected": c[4],
                }));
            }
        }
        json!({
            "suite": "iribis conformance suite for IRIs (draft-ietf-iri-3987bis-13, RFC 3987, RFC 3986, LEIRIs)",
            "version": VERSION,
            "seed": self.seed,
            "cases": self.cases.len(),
            "files": files,
            "by_profile": by_profile,
            "by_source": by_source,
            "by_op_and_profile": by_op_profile,
            "schema": {"case": "case.schema.json", "answer": "answer.schema.json"},
            "coverage": {"profiles": profiles, "rules": rules},
        })
    }

    /// The files of the exported suite, by name: one JSON Lines file per
    /// operation, `index.json`, the two JSON Schemas and the README.
    pub fn files(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for op in Op::ALL {
            let mut text = String::new();
            for c in self.cases.iter().filter(|c| c.op == op) {
                text.push_str(&c.to_line());
                text.push('\n');
            }
            out.push((format!("{op}.jsonl"), text));
        }
        let mut index =
            serde_json::to_string_pretty(&self.index()).expect("a JSON value serializes");
        index.push('\n');
        out.push(("index.json".into(), index));
        out.push(("case.schema.json".into(), CASE_SCHEMA.into()));
        out.push(("answer.schema.json".into(), ANSWER_SCHEMA.into()));
        out.push(("README.md".into(), README.into()));
        out
    }

    /// Writes [`Suite::files`] into `dir` (created if needed).
    pub fn export(&self, dir: &Path) -> io::Result<()> {
        std::fs::create_dir_all(dir)?;
        for (name, text) in self.files() {
            std::fs::write(dir.join(name), text)?;
        }
        Ok(())
    }
}

/// One case per request: a case whose operation, profile, rule, input,
/// base, other IRI and charset are those of an earlier one is merged into
/// it (its source and note added to the earlier one's). Then every
/// resolution whose answers differ in how they write a path that starts
/// with "//" and has no authority says so in its note.
fn dedupe(cases: Vec<Case>) -> Vec<Case> {
    // What a case asks: its request without its id.
    let key = |c: &Case| Request {
        id: String::new(),
        ..c.to_request()
    };
    let mut first: std::collections::HashMap<Request, usize> = std::collections::HashMap::new();
    let mut out: Vec<Case> = Vec::with_capacity(cases.len());
    for c in cases {
        match first.get(&key(&c)) {
            Some(&i) => {
                let kept = &mut out[i];
                if !kept.source.split("; ").any(|s| s == c.source) {
                    kept.source = format!("{}; {}", kept.source, c.source);
                }
                if let Some(n) = c.note
                    && kept.note.as_deref().is_none_or(|k| !k.contains(n.as_str()))
                {
                    kept.note = Some(match kept.note.take() {
                        Some(k) => format!("{k}; {n}"),
                        None => n,
                    });
                }
            }
            None => {
                first.insert(key(&c), out.len());
                out.push(c);
            }
        }
    }
    for c in &mut out {
        let Expect::Result { result, also } = &c.expect else {
            continue;
        };
        let literal = result
            .split_once(":/.//")
            .filter(|(scheme, _)| !scheme.contains(['/', '?', '#']))
            .map(|(scheme, rest)| format!("{scheme}://{rest}"));
        if c.op == Op::Resolve
            && literal.is_some_and(|l| also.contains(&l))
            && c.note
                .as_deref()
                .is_none_or(|n| !n.contains(sources::SLASHES_NOTE))
        {
            c.note = Some(match c.note.take() {
                Some(n) => format!("{}; {n}", sources::SLASHES_NOTE),
                None => sources::SLASHES_NOTE.to_owned(),
            });
        }
    }
    out
}

/// Where a case comes from, for the index's counts: `generated:KIND`,
/// `spec-example`, `vector`, `fuzz`.
fn origin(c: &Case) -> String {
    if c.generator.as_deref() == Some("fuzz") {
        "fuzz".into()
    } else if let Some(g) = &c.generator {
        format!("generated:{g}")
    } else if c.source.starts_with("example of") {
        "spec-example".into()
    } else {
        "vector".into()
    }
}

/// The code point a note starting with `U+XXXX` names.
fn code_point(note: &str) -> Option<char> {
    let hex = note.strip_prefix("U+")?;
    let end = hex
        .find(|c: char| !c.is_ascii_hexdigit())
        .unwrap_or(hex.len());
    char::from_u32(u32::from_str_radix(&hex[..end], 16).ok()?)
}

/// The findings of fuzzing appended to the suite, with their expected
/// answers computed afresh from the spec.
fn findings() -> Vec<Case> {
    let mut out: Vec<Case> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for line in FINDINGS.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(mut c) = Case::from_line(line) else {
            continue;
        };
        // One case per request; numbered in the file's order.
        if !seen.insert((c.op, c.profile, c.rule.clone(), c.input.clone())) {
            continue;
        }
        if let Some(expect) = expected(&c) {
            c.expect = expect;
            let k = out
                .iter()
                .filter(|x| x.op == c.op && x.profile == c.profile)
                .count()
                + 1;
            c.id = format!("{}/{}/fuzz/{k}", c.op, c.profile);
            c.generator = Some("fuzz".into());
            out.push(c);
        }
    }
    out
}

/// What the spec answers for a case's request (its rule, profile, input
/// and base), as the generator computes it; `None` for a rule the
/// profile does not have.
pub fn expected(case: &Case) -> Option<Expect> {
    use iribis::GrammarRule;
    Some(match case.op {
        Op::Valid => {
            let rule = GrammarRule::from_name(case.rule.as_deref()?)?.in_profile(case.profile)?;
            let dfa = iribis::dfa::Dfa::of(rule, case.profile)?;
            generate::verdict(dfa, &case.input)
        }
        Op::Components => sources::components(&case.input, case.profile),
        Op::Resolve => sources::resolution(case.base.as_deref()?, &case.input, case.profile),
        Op::Normalize => sources::normalization(&case.input, case.profile),
        Op::ToUri => match case
            .extra
            .get("charset")
            .and_then(serde_json::Value::as_str)
        {
            Some(charset) => sources::to_uri_in(&case.input, case.profile, charset),
            None => sources::to_uri(&case.input, case.profile),
        },
        Op::ToIri => sources::to_iri(&case.input),
        Op::Compare => sources::comparison(&case.input, case.other.as_deref()?, case.profile),
        Op::Check => sources::requirements(&case.input, case.profile),
    })
}
