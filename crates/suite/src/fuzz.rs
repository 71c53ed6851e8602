//! Differential fuzzing: strings drawn from the grammar and near misses of
//! them, asked of an adapter and of the spec; each disagreement shrunk to
//! a minimal input and attributed to a rule.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use serde_json::Value;

use iribis::GrammarRule;
use iribis::Profile;
use iribis::dfa::Dfa;

use super::Suite;
use super::case::{Answer, Case, Expect, Op, Verdict, judge};
use super::generate::{CANDIDATES, Rng, Walk};
use super::run::Adapter;
use super::shrink::shrink;

/// The longest a disagreement is shrunk.
const SHRINK_TIME: Duration = Duration::from_secs(20);

/// Options of [`fuzz`].
#[derive(Clone, Debug)]
pub struct FuzzOptions {
    /// How long to draw new inputs (shrinking the last finding may take a
    /// little longer).
    pub duration: Duration,
    /// The seed of the draw.
    pub seed: u64,
    /// The profiles to draw from.
    pub profiles: Vec<Profile>,
    /// The rule to draw from, by its 3987bis name: `IRI-reference` (the
    /// default), `IRI`, `absolute-IRI` or `irelative-ref` (under `rfc3986`
    /// their URI counterparts).
    pub rule: GrammarRule,
    /// The operations to ask: `valid` and `components`.
    pub ops: Vec<Op>,
    /// How long one answer may take.
    pub timeout: Duration,
    /// How many findings to keep per rule, operation, profile and
    /// direction (the others are counted).
    pub per_group: usize,
    /// Run the static suite's cases of the same operations and profiles
    /// first, so that a finding can say whether the suite already has a
    /// failing case of its rule and direction ([`Finding::new`]).
    pub baseline: bool,
}

impl Default for FuzzOptions {
    fn default() -> Self {
        FuzzOptions {
            duration: Duration::from_secs(60),
            seed: 1,
            profiles: vec![Profile::Rfc3987bis],
            rule: GrammarRule::IRI_REFERENCE,
            ops: vec![Op::Valid, Op::Components],
            timeout: Duration::from_secs(10),
            per_group: 3,
            baseline: true,
        }
    }
}

/// One disagreement, shrunk.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The minimal case, with the spec's answer as its `expect`.
    pub case: Case,
    /// What the implementation answered for it (`null`: no answer).
    pub got: Value,
    /// Why that is wrong.
    pub why: String,
    /// The drawn input it was shrunk from.
    pub original: String,
    /// Whether the static suite misses it: no case of the suite with the
    /// same operation, profile, rule and direction fails for this
    /// implementation (with [`FuzzOptions::baseline`]; without, whether
    /// the suite has no case with this input).
    pub new: bool,
}

/// What a fuzzing run found.
#[derive(Clone, Debug, Default)]
pub struct FuzzReport {
    /// Inputs drawn and asked.
    pub tried: usize,
    /// Requests whose answer was compared with the spec: every request
    /// asked but those the adapter answered `unsupported`. With none, the
    /// run says nothing of the implementation.
    pub compared: usize,
    /// Inputs on which the implementation and the spec disagreed.
    pub disagreements: usize,
    /// The findings kept (at most [`FuzzOptions::per_group`] per group).
    pub findings: Vec<Finding>,
    /// Disagreements per group (`op profile rule direction`).
    pub groups: HashMap<String, usize>,
    /// Combinations the adapter said it does not support.
    pub unsupported: Vec<String>,
    /// With [`FuzzOptions::baseline`]: the static cases run, and how many
    /// failed.
    pub baseline: Option<(usize, usize)>,
}

/// Which way an implementation disagrees on a case.
fn direction(op: Op, expect: &Expect) -> &'static str {
    match (op, expect) {
        (Op::Valid, Expect::Valid { valid: true, .. }) => "rejects valid",
        (Op::Valid, _) => "accepts invalid",
        _ => "other components",
    }
}

/// Asks the adapter one case; `None` when it did not answer (crash,
/// timeout, malformed line), after starting it again.
fn ask(adapter: &mut Adapter, command: &str, case: &Case, timeout: Duration) -> Option<Answer> {
    let sent = adapter.send(&case.request());
    let got = match (sent, adapter.receive(timeout)) {
        (Ok(()), Ok(Some(line))) => match Answer::from_line(&line) {
            Ok((id, a)) if id == case.id => return Some(a),
            _ => None,
        },
        _ => None,
    };
    if got.is_none() {
        adapter.stop();
        if let Ok(a) = Adapter::start(command) {
            *adapter = a;
        }
    }
    got
}

/// The smallest input on which the adapter still disagrees with the spec
/// on `case` in the same way: the same verdict expected and still not
/// given (for `components`, the input still valid and its components still
/// wrong); with `crashed`, the adapter still giving no answer. At most 400
/// questions and [`SHRINK_TIME`].
fn shrink_disagreement(
    adapter: &mut Adapter,
    command: &str,
    case: &Case,
    crashed: bool,
    timeout: Duration,
    id: &mut u64,
) -> String {
    let Some(rule) = case
        .rule
        .as_deref()
        .and_then(GrammarRule::from_name)
        .and_then(|r| r.in_profile(case.profile))
    else {
        return case.input.clone();
    };
    let Some(dfa) = Dfa::of(rule, case.profile) else {
        return case.input.clone();
    };
    let valid = dfa.accepts_all(&case.input);
    let shrinking = Instant::now();
    let still = |s: &str| {
        if shrinking.elapsed() > SHRINK_TIME {
            return false;
        }
        let v = dfa.accepts_all(s);
        if v != valid || (case.op == Op::Components && !v) {
            return false;
        }
        *id += 1;
        let mut c = case.clone();
        c.id = format!("shrink-{id}");
        c.input = s.to_owned();
        let Some(e) = super::expected(&c) else {
            return false;
        };
        c.expect = e;
        match ask(adapter, command, &c, timeout) {
            Some(a) => !crashed && matches!(judge(&c, &a, false), Verdict::Fail(_)),
            None => crashed,
        }
    };
    shrink(&case.input, 400, still)
}

/// A failing `valid` or `components` case shrunk against the adapter
/// `command` by delta debugging (as the fuzzer shrinks its findings), and
/// the rule the minimal input is about: for a valid input, the innermost
/// telling rule around its last character; for an invalid one, the rule
/// its valid beginning ends in. `None` for the other operations or when
/// the adapter cannot be started.
pub fn minimize(command: &str, case: &Case, timeout: Duration) -> Option<(Case, String)> {
    if !matches!(case.op, Op::Valid | Op::Components) {
        return None;
    }
    let rule = GrammarRule::from_name(case.rule.as_deref()?)?.in_profile(case.profile)?;
    let dfa = Dfa::of(rule, case.profile)?;
    let mut adapter = Adapter::start(command).ok()?;
    let mut id = 0;
    let first = ask(&mut adapter, command, case, timeout);
    let small = shrink_disagreement(
        &mut adapter,
        command,
        case,
        first.is_none(),
        timeout,
        &mut id,
    );
    let mut minimal = case.clone();
    minimal.input = small;
    minimal.expect = super::expected(&minimal)?;
    let last = minimal.input.char_indices().last().map_or(0, |(i, _)| i);
    let about = Walk::new(dfa)
        .attribute(&minimal.input, last, rule, case.profile)
        .unwrap_or_else(|| rule.abnf_name().to_owned());
    Some((minimal, about))
}

/// Runs the fuzzer against the adapter `command` for the options'
/// duration.
///
/// Inputs are drawn from each profile's DFA of the rule (random
/// accepted strings) and, half the time, edited by one character (a near
/// miss). Each is asked as `valid` (and, when valid, as `components`); on
/// a disagreement with the spec the input is shrunk by delta debugging
/// while the disagreement stays the same (for at most 20 seconds), and
/// attributed to a rule. The run ends early once the adapter has answered
/// `unsupported` for every operation and profile there is to ask
/// ([`FuzzReport::compared`] says how many answers were compared).
pub fn fuzz(
    command: &str,
    options: &FuzzOptions,
    mut progress: impl FnMut(&FuzzReport),
) -> Result<FuzzReport, super::RunError> {
    let mut adapter = Adapter::start(command).map_err(super::RunError::Start)?;
    let mut rng = Rng::new(options.seed);
    // The suite's inputs, when first needed (without a baseline).
    let mut known: Option<HashSet<(Op, &str, &str)>> = None;
    let walks: Vec<(Profile, Walk, Dfa)> = options
        .profiles
        .iter()
        .filter_map(|&p| {
            let dfa = Dfa::of(options.rule.for_profile(p), p)?;
            Some((p, Walk::new(dfa), dfa))
        })
        .collect();
    let mut report = FuzzReport::default();
    let mut failing = HashSet::new();
    if options.baseline {
        let (groups, tally) = baseline(command, options)?;
        failing = groups;
        report.baseline = Some(tally);
    }
    let mut skip: HashSet<(Op, Profile)> = HashSet::new();
    // What can be asked: the operations of the fuzzer, in the profiles
    // drawn from.
    let askable: Vec<(Op, Profile)> = options
        .ops
        .iter()
        .filter(|op| matches!(op, Op::Valid | Op::Components))
        .flat_map(|&op| walks.iter().map(move |(p, _, _)| (op, *p)))
        .collect();
    let mut seen: HashSet<String> = HashSet::new();
    let start = Instant::now();
    let mut id = 0u64;
    while start.elapsed() < options.duration && askable.iter().any(|k| !skip.contains(k)) {
        let (profile, walk, dfa) = &walks[rng.below(walks.len())];
        let (profile, dfa) = (*profile, *dfa);
        let mut input = walk.random_accepted(&mut rng, 40);
        if rng.below(2) == 0 {
            input = edit(&input, &mut rng);
        }
        if !seen.insert(input.clone()) {
            continue;
        }
        let rule = options.rule.for_profile(profile);
        let name = rule.abnf_name();
        let valid = dfa.accepts_all(&input);
        for &op in &options.ops {
            if skip.contains(&(op, profile))
                || (op == Op::Components && !valid)
                || !matches!(op, Op::Valid | Op::Components)
            {
                continue;
            }
            id += 1;
            let Some(case) = drawn_case(id, op, profile, name, &input) else {
                continue;
            };
            report.tried += 1;
            let answer = ask(&mut adapter, command, &case, options.timeout);
            let verdict = match &answer {
                Some(a) => judge(&case, a, false),
                None => Verdict::Fail("no answer (crash, timeout or malformed line)".into()),
            };
            match verdict {
                Verdict::Pass => {
                    report.compared += 1;
                    continue;
                }
                Verdict::Unsupported => {
                    skip.insert((op, profile));
                    report.unsupported.push(format!("{op} {profile}"));
                    continue;
                }
                Verdict::Fail(_) => report.compared += 1,
            }
            report.disagreements += 1;
            let small = shrink_disagreement(
                &mut adapter,
                command,
                &case,
                answer.is_none(),
                options.timeout,
                &mut id,
            );
            let mut minimal = case.clone();
            minimal.input = small.clone();
            if let Some(e) = super::expected(&minimal) {
                minimal.expect = e;
            }
            let last = small.char_indices().last().map_or(0, |(i, _)| i);
            let about = walk
                .attribute(&small, last, rule, profile)
                .unwrap_or_else(|| name.to_owned());
            let direction = direction(op, &minimal.expect);
            let group = format!("{op} {profile} {about} {direction}");
            let count = report.groups.entry(group).or_default();
            *count += 1;
            if *count > options.per_group {
                continue;
            }
            id += 1;
            minimal.id = format!("fuzz-{id}");
            let answer = ask(&mut adapter, command, &minimal, options.timeout);
            let (got, why) = match &answer {
                Some(a) => match judge(&minimal, a, false) {
                    Verdict::Fail(why) => (a.to_json(), why),
                    _ => continue,
                },
                None => (
                    Value::Null,
                    "no answer (crash, timeout or malformed line)".into(),
                ),
            };
            let new = if options.baseline {
                !failing.contains(&(op, profile, about.clone(), direction))
            } else {
                !known.get_or_insert_with(suite_inputs).contains(&(
                    op,
                    profile.name(),
                    small.as_str(),
                ))
            };
            minimal.exercises = Some(about).filter(|a| a != name);
            report.findings.push(Finding {
                case: minimal,
                got,
                why,
                original: input.clone(),
                new,
            });
        }
        if report.tried % 256 == 0 {
            progress(&report);
        }
    }
    progress(&report);
    Ok(report)
}

/// Failures of the suite's cases, as (operation, profile, rule, direction).
type Failing = HashSet<(Op, Profile, String, &'static str)>;

/// The built-in suite's cases of the fuzzer's operations and profiles, run
/// against the adapter: their failures, each under the rule the report
/// groups it under and under the one its case names as exercised; and the
/// run's (total, failed).
fn baseline(
    command: &str,
    options: &FuzzOptions,
) -> Result<(Failing, (usize, usize)), super::RunError> {
    let cases: Vec<Case> = Suite::builtin()
        .cases()
        .iter()
        .filter(|c| options.ops.contains(&c.op) && options.profiles.contains(&c.profile))
        .cloned()
        .collect();
    let run = super::run(
        command,
        &cases,
        &super::RunOptions {
            timeout: options.timeout,
            ..Default::default()
        },
        |_| {},
    )?;
    let mut failing = HashSet::new();
    for f in &run.failures {
        for group in [f.group.as_str(), f.case.group()] {
            failing.insert((
                f.case.op,
                f.case.profile,
                group.to_owned(),
                direction(f.case.op, &f.case.expect),
            ));
        }
    }
    Ok((failing, (run.tally.total, run.tally.failed)))
}

/// The built-in suite's inputs, by operation and profile: a finding whose
/// shrunk input is among them is not new.
fn suite_inputs() -> HashSet<(Op, &'static str, &'static str)> {
    Suite::builtin()
        .cases()
        .iter()
        .map(|c| (c.op, c.profile.name(), c.input.as_str()))
        .collect()
}

/// The case `fuzz-ID` asking `op` of a drawn `input` at the rule `name`,
/// with the answer the spec gives; `None` where the suite has none.
fn drawn_case(id: u64, op: Op, profile: Profile, name: &str, input: &str) -> Option<Case> {
    let mut case = Case {
        id: format!("fuzz-{id}"),
        op,
        profile,
        rule: Some(name.to_owned()),
        input: input.to_owned(),
        base: None,
        other: None,
        expect: Expect::Error,
        source: String::new(),
        exercises: None,
        generator: Some("fuzz".into()),
        note: None,
        extra: Default::default(),
    };
    case.expect = super::expected(&case)?;
    Some(case)
}

/// One character of `s` inserted, deleted or replaced (by one of the
/// candidates the generator tries, or a character of `s` itself).
fn edit(s: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    let c = if !chars.is_empty() && rng.below(4) == 0 {
        *rng.pick(&chars)
    } else {
        *rng.pick(&CANDIDATES)
    };
    let at = rng.below(chars.len() + 1);
    match rng.below(3) {
        0 => chars.insert(at, c),
        1 if at < chars.len() => {
            chars.remove(at);
        }
        _ if at < chars.len() => chars[at] = c,
        _ => chars.push(c),
    }
    chars.into_iter().collect()
}
