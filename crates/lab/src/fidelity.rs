//! `iri grammar check`: does a pest grammar say what the ABNF says?

use std::fmt;

use std::collections::BTreeSet;

use super::automaton;
use super::from_abnf::has_prose;
use super::language::{CharSet, abnf_accepts, char_set, contains, samples, undefined};
use super::{GrammarError, PestGrammar, limits};
use crate::abnf::{Grammar, Node, Rule};
use iribis::Profile;

/// The verdict on one rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Status {
    /// Decided: the pest rule matches exactly the ABNF's strings. For a
    /// single-character rule, every code point was run; for any other, the
    /// two rules' automata were compared and the pest rule's ordered
    /// choices, greedy repetitions and lookaheads shown not to change its
    /// language (see the detail). The test strings were run too, and agree.
    Proven,
    /// Not decided, but pest and the ABNF agree on every test string (the
    /// detail says how many, and why the rule was not proven).
    Tested,
    /// The ABNF rule is an erratum's correction of the printed rule, and the
    /// pest rule follows the correction: a deliberate departure from the
    /// spec as printed.
    Erratum,
    /// A known, deliberate departure: the pest grammar has no rule of this
    /// name (see the detail).
    Departure,
    /// The pest rule and the ABNF disagree on some input (the detail shows
    /// one each way where there is one, and which differing rule it follows
    /// from, if any).
    Differs,
    /// No pest rule has the ABNF rule's name.
    Missing,
    /// A pest rule with no ABNF rule of its name (not checked).
    Extra,
    /// Nothing could be run: prose in the ABNF, or no test string could be
    /// derived. A failure: zero strings tested is not a pass.
    Unchecked,
}

impl Status {
    /// The name in the table: `proven`, `tested`, `erratum`, `departure`,
    /// `DIFFERS`, `MISSING`, `extra`, `UNCHECKED`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Proven => "proven",
            Status::Tested => "tested",
            Status::Erratum => "erratum",
            Status::Departure => "departure",
            Status::Differs => "DIFFERS",
            Status::Missing => "MISSING",
            Status::Extra => "extra",
            Status::Unchecked => "UNCHECKED",
        }
    }

    /// Whether this status fails the check (`DIFFERS`, `MISSING`,
    /// `UNCHECKED`).
    pub fn is_failure(self) -> bool {
        matches!(self, Status::Differs | Status::Missing | Status::Unchecked)
    }

    /// Whether the rule was compared at all (proven, tested or erratum).
    fn is_checked(self) -> bool {
        matches!(
            self,
            Status::Proven | Status::Tested | Status::Erratum | Status::Differs
        )
    }
}

/// A test string run on both sides of a rule: pest's verdict and the
/// ABNF's.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TestString {
    /// The string.
    pub text: String,
    /// Whether the pest rule matches all of it.
    pub pest: bool,
    /// Whether the ABNF rule does.
    pub abnf: bool,
}

/// One row of a [`CheckReport`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CheckRow {
    /// The ABNF name (or, for [`Status::Extra`], the pest name).
    pub rule: String,
    /// The verdict.
    pub status: Status,
    /// What was checked, or how they differ.
    pub detail: String,
    /// For a rule that differs: the differing rules it refers to (directly
    /// or not) whose own references agree, the root causes it follows from.
    /// Empty for a root cause itself.
    pub follows: Vec<String>,
    /// The test strings run, with both verdicts (empty for the
    /// single-character rules, which are run on every code point).
    pub strings: Vec<TestString>,
}

/// The result of [`check`]: a row per rule.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CheckReport {
    /// ABNF rules in ABNF order, then pest rules with no ABNF counterpart.
    pub rows: Vec<CheckRow>,
    /// How the single-character rules were run over the code points.
    pub scan: String,
}

impl CheckReport {
    /// Whether no rule differs, none is missing or unchecked, and at least
    /// one rule was compared.
    pub fn passed(&self) -> bool {
        !self.rows.iter().any(|r| r.status.is_failure())
            && self.rows.iter().any(|r| r.status.is_checked())
    }

    /// The rules that differ on their own: every rule they refer to agrees.
    pub fn root_causes(&self) -> impl Iterator<Item = &CheckRow> {
        self.rows
            .iter()
            .filter(|r| r.status == Status::Differs && r.follows.is_empty())
    }

    /// The test strings of every rule with both verdicts, one per line,
    /// rule by rule (`iri grammar check --show-strings`).
    pub fn render_strings(&self) -> String {
        let mut out = String::new();
        for r in self.rows.iter().filter(|r| !r.strings.is_empty()) {
            let differ = r.strings.iter().filter(|t| t.pest != t.abnf).count();
            out.push_str(&format!(
                "\n{}: {} test strings, {differ} differ\n  pest     ABNF\n",
                r.rule,
                r.strings.len()
            ));
            let word = |b: bool| if b { "accepts" } else { "rejects" };
            for t in &r.strings {
                out.push_str(&format!(
                    "  {}  {}  {}{:?}\n",
                    word(t.pest),
                    word(t.abnf),
                    if t.pest == t.abnf { "" } else { "DIFFERS " },
                    t.text
                ));
            }
        }
        out
    }
}

/// The root causes first (a failing check's first line says what to fix),
/// then a table: rule, status, detail (a root cause's own row marked
/// `root cause:`); then a count of each status.
impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut roots = 0;
        for root in self.root_causes() {
            let users = self
                .rows
                .iter()
                .filter(|r| r.follows.contains(&root.rule))
                .count();
            let users = match users {
                0 => String::new(),
                1 => "; 1 rule that refers to it differs too".to_string(),
                n => format!("; {n} rules that refer to it differ too"),
            };
            writeln!(
                f,
                "root cause: {} differs while every rule it refers to agrees{users}",
                root.rule
            )?;
            roots += 1;
        }
        if roots > 0 {
            writeln!(f)?;
        }
        let w = self
            .rows
            .iter()
            .map(|r| r.rule.len())
            .max()
            .unwrap_or(4)
            .max(4);
        // The column is padded by hand: a rule name of a runtime grammar can
        // be longer than a format width may be (65,535).
        let pad = |name: &str| " ".repeat(w - name.len());
        writeln!(f, "rule{}  {:9}  detail", pad("rule"), "status")?;
        for r in &self.rows {
            let name = &r.rule;
            let root = r.status == Status::Differs && r.follows.is_empty();
            writeln!(
                f,
                "{name}{}  {:9}  {}{}",
                pad(name),
                r.status.name(),
                if root { "root cause: " } else { "" },
                r.detail
            )?;
        }
        let mut counts: Vec<(&str, usize)> = Vec::new();
        for r in &self.rows {
            match counts.iter_mut().find(|(n, _)| *n == r.status.name()) {
                Some((_, c)) => *c += 1,
                None => counts.push((r.status.name(), 1)),
            }
        }
        let counts: Vec<String> = counts.iter().map(|(n, c)| format!("{c} {n}")).collect();
        writeln!(f, "\n{} rules: {}", self.rows.len(), counts.join(", "))?;
        if !self.rows.iter().any(|r| r.status.is_checked()) {
            writeln!(f, "no rule was compared: nothing is checked")?;
        }
        if !self.scan.is_empty() {
            writeln!(f, "single-character rules: {}", self.scan)?;
        }
        Ok(())
    }
}

/// Rules of the spec's ABNF that the built-in grammars deliberately have no
/// pest rule for, and why.
const DEPARTURES: &[(&str, &str)] = &[
    (
        "DQUOTE",
        "written inline as \"\\\"\" in leiri_ucschar (the draft itself writes '\"' there)",
    ),
    (
        "leiri-ucschar",
        "a LEIRI rule (draft §6.1): only the leiri profile's grammar has it",
    ),
];

/// The spec's ABNF of a profile for checking its pest grammar: for the IRI
/// profiles, RFC 3986's rules first (the pest grammar has them too, and the
/// draft shares the common ones), then the profile's files. The second
/// grammar is the same without the errata file: the spec as printed.
///
/// ```
/// let (abnf, printed) = iribis_lab::check_abnf(iribis::Profile::Rfc3987bis)?;
/// assert!(abnf.get("URI").is_some() && abnf.get("IRI").is_some());
/// assert_ne!(abnf.get("ireg-name"), printed.get("ireg-name"));
/// # Ok::<(), iribis_lab::abnf::AbnfError>(())
/// ```
pub fn check_abnf(profile: Profile) -> Result<(Grammar, Grammar), crate::abnf::AbnfError> {
    let files = crate::abnf::PROFILES
        .iter()
        .find(|(p, _)| *p == profile.name())
        .map_or(&[][..], |(_, f)| *f);
    let mut abnf = Grammar::new();
    let mut printed = Grammar::new();
    if profile != Profile::Rfc3986 {
        for g in [&mut abnf, &mut printed] {
            g.add(
                crate::abnf::builtin_file("rfc3986.abnf").unwrap_or_default(),
                "rfc3986.abnf",
            )?;
        }
    }
    for f in files {
        let text = crate::abnf::builtin_file(f).unwrap_or_default();
        abnf.add(text, f)?;
        if !f.contains("errata") {
            printed.add(text, f)?;
        }
    }
    Ok((abnf, printed))
}

/// Checks `pest` against `abnf`:
/// - every ABNF rule must have a pest rule of its name (`-` written `_`);
/// - a rule whose language is a set of single characters is run on every
///   code point U+0000..U+10FFFF (but the surrogates, which no string
///   holds), and must accept exactly the ABNF's set;
/// - any other rule is run on strings derived from the ABNF (each
///   alternative, repetition bounds, near-misses one character off), and
///   must accept exactly those the ABNF matches.
///
/// `printed` is the ABNF as printed, before errata: a rule that differs
/// there is reported as [`Status::Erratum`] with an input that shows the
/// difference.
///
/// ```
/// use iribis_lab::abnf::Grammar;
/// use iribis_lab::{check, PestGrammar, Scan, Status};
///
/// let abnf = Grammar::parse("pair = 1*2DIGIT \"=\" DIGIT\nDIGIT = %x30-39\n", "mini.abnf")?;
/// let pest = PestGrammar::parse("pair = { DIGIT{1,3} ~ \"=\" ~ DIGIT }\nDIGIT = { '0'..'9' }", "mini.pest").unwrap();
/// let report = check(&abnf, &pest, None, Scan::Classes).unwrap();
/// assert_eq!(report.rows[0].status, Status::Differs); // pest accepts "000=0"
/// assert_eq!(report.rows[1].status, Status::Proven);
///
/// // An ABNF that uses a rule it does not define cannot be checked.
/// let broken = Grammar::parse("pair = DIGIT \"=\" DIGTI\nDIGIT = %x30-39\n", "typo.abnf")?;
/// let err = check(&broken, &pest, None, Scan::Classes).unwrap_err();
/// assert_eq!(err.to_string(), "typo.abnf: rule pair uses DIGTI, which no rule defines");
/// # Ok::<(), iribis_lab::abnf::AbnfError>(())
/// ```
///
/// # Errors
///
/// When the ABNF uses a rule it does not define (every rule that uses it
/// would be checked against nothing), or when pest gives up on a test
/// string (the grammar needs more nested calls than the stack holds): then
/// nothing can be said of the rule.
pub fn check(
    abnf: &Grammar,
    pest: &PestGrammar,
    printed: Option<&Grammar>,
    scan: Scan,
) -> Result<CheckReport, GrammarError> {
    if let Some(message) = undefined(abnf).into_iter().next() {
        return Err(GrammarError { message });
    }
    // Every step recurses over the ABNF (rule references included): on a
    // thread with a known stack.
    limits::on_big_stack(|| check_on_this_thread(abnf, pest, printed, scan))
        .map_err(|message| GrammarError { message })?
}

fn check_on_this_thread(
    abnf: &Grammar,
    pest: &PestGrammar,
    printed: Option<&Grammar>,
    scan: Scan,
) -> Result<CheckReport, GrammarError> {
    let mut rows = Vec::new();
    let mut singles: Vec<(usize, String, CharSet)> = Vec::new();
    for rule in abnf.rules() {
        let Some(pest_rule) = pest.resolve(&rule.name) else {
            let (status, detail) = match DEPARTURES.iter().find(|(r, _)| *r == rule.name) {
                Some((_, why)) => (Status::Departure, format!("no pest rule: {why}")),
                None => (
                    Status::Missing,
                    format!("no pest rule {}", crate::abnf::pest_name(&rule.name)),
                ),
            };
            rows.push(CheckRow {
                rule: rule.name.clone(),
                status,
                detail,
                follows: Vec::new(),
                strings: Vec::new(),
            });
            continue;
        };
        let row = CheckRow {
            rule: rule.name.clone(),
            status: Status::Tested,
            detail: String::new(),
            follows: Vec::new(),
            strings: Vec::new(),
        };
        if let Some(set) = char_set(abnf, &rule.node) {
            singles.push((rows.len(), pest_rule.to_string(), set));
        } else if has_prose(&rule.node) {
            rows.push(CheckRow {
                status: Status::Unchecked,
                detail: "prose in the ABNF: not checked".into(),
                ..row
            });
            continue;
        }
        rows.push(row);
    }
    let (how, scanned) = scan_code_points(pest, &singles, scan)?;
    for ((i, _, set), mismatch) in singles.iter().zip(scanned) {
        rows[*i].detail = match mismatch {
            None => {
                rows[*i].status = Status::Proven;
                match size(set) {
                    1 => "the same 1 character, checked on every code point".to_string(),
                    n => format!("the same {n} characters, checked on every code point"),
                }
            }
            Some(m) => {
                rows[*i].status = Status::Differs;
                m
            }
        };
    }
    let pest_side = pest_as_abnf(pest);
    for (rule, row) in abnf.rules().zip(rows.iter_mut()) {
        if row.status != Status::Tested || !row.detail.is_empty() {
            continue;
        }
        let pest_rule = pest.resolve(&rule.name).unwrap_or_default();
        judge(abnf, &pest_side, pest, &rule.name, pest_rule, row)?;
    }
    if let Some(printed) = printed {
        for (rule, row) in abnf.rules().zip(rows.iter_mut()) {
            if let Some(detail) = erratum(rule, printed, abnf) {
                if matches!(row.status, Status::Proven | Status::Tested) {
                    row.status = Status::Erratum;
                    row.detail = format!(
                        "{detail}; the pest rule follows the correction ({})",
                        row.detail
                    );
                } else {
                    row.detail = format!("{detail}; {}", row.detail);
                }
            }
        }
    }
    for name in pest.rule_names() {
        if abnf.get(&name.replace('_', "-")).is_none() && abnf.get(name).is_none() {
            rows.push(CheckRow {
                rule: name.to_string(),
                status: Status::Extra,
                detail: "not an ABNF rule: not checked".into(),
                follows: Vec::new(),
                strings: Vec::new(),
            });
        }
    }
    rank(&mut rows, pest, abnf);
    Ok(CheckReport { rows, scan: how })
}

/// How many test strings a report shows per direction of difference.
const SHOWN: usize = 3;

/// Decides or tests one rule that is not a set of single characters: the
/// test strings (from the ABNF, from the pest rule, and the automata's
/// counterexamples) are run on both sides; the automata, where both rules
/// have one, decide equivalence (see [`super::automaton`]).
fn judge(
    abnf: &Grammar,
    pest_side: &Grammar,
    pest: &PestGrammar,
    name: &str,
    pest_rule: &str,
    row: &mut CheckRow,
) -> Result<(), GrammarError> {
    let mut strings: BTreeSet<String> = samples(abnf, name).into_iter().collect();
    let from_abnf = strings.len();
    strings.extend(samples(pest_side, pest_rule));
    let from_pest = strings.len() - from_abnf;
    // The automata: the proof, or counterexamples to test.
    let pest_automaton = automaton::pest_automaton(pest.exprs(), pest_rule);
    let abnf_automaton = automaton::abnf_automaton(abnf, name);
    let mut unproven: Vec<String> = Vec::new();
    let mut equal = false;
    match (&pest_automaton, &abnf_automaton) {
        (Ok(p), Ok(a)) => {
            let c = automaton::compare(p, a);
            if !c.decided {
                unproven.push("comparing the automata took too many states".into());
            }
            equal = c.decided && c.pest_only.is_none() && c.abnf_only.is_none();
            strings.extend(c.pest_only);
            strings.extend(c.abnf_only);
            let failed = automaton::failed_conds(p);
            if let Some((what, _)) = failed.first() {
                let more = match failed.len() {
                    1 => String::new(),
                    n => format!(" (and {} more such places)", n - 1),
                };
                unproven.push(format!("{what}{more}"));
            }
            strings.extend(failed.into_iter().filter_map(|(_, s)| s));
        }
        (Err(e), _) => unproven.push(format!("no automaton for the pest rule: {e}")),
        (_, Err(e)) => unproven.push(format!("no automaton for the ABNF rule: {e}")),
    }
    let mut tested = Vec::with_capacity(strings.len());
    for s in strings {
        let want = abnf_accepts(abnf, name, &s).unwrap_or(false);
        let got = pest.verdict(pest_rule, &s).map_err(|f| GrammarError {
            message: format!("rule {pest_rule} on the test string {s:?}: {f}"),
        })?;
        tested.push(TestString {
            text: s,
            pest: got,
            abnf: want,
        });
    }
    let n = tested.len();
    let matched = tested.iter().filter(|t| t.abnf).count();
    // Shortest first: the simplest counterexamples are shown.
    fn shortest(mut v: Vec<&TestString>) -> Vec<&TestString> {
        v.sort_by_key(|t| (t.text.chars().count(), t.text.clone()));
        v
    }
    let accepted = shortest(tested.iter().filter(|t| t.pest && !t.abnf).collect());
    let rejected = shortest(tested.iter().filter(|t| !t.pest && t.abnf).collect());
    let origin = format!("{from_abnf} from the ABNF, {from_pest} from the pest rule");
    if !accepted.is_empty() || !rejected.is_empty() {
        row.status = Status::Differs;
        let show = |v: &[&TestString]| {
            v.iter()
                .take(SHOWN)
                .map(|t| format!("{:?}", t.text))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut parts = Vec::new();
        if !accepted.is_empty() {
            parts.push(format!(
                "pest accepts {} (the ABNF does not)",
                show(&accepted)
            ));
        }
        if !rejected.is_empty() {
            parts.push(format!(
                "pest rejects {} (the ABNF accepts)",
                show(&rejected)
            ));
        }
        row.detail = format!(
            "{}; {} of {n} test strings differ",
            parts.join("; "),
            accepted.len() + rejected.len()
        );
    } else if equal && unproven.is_empty() {
        row.status = Status::Proven;
        row.detail = format!("proven: the automata match the same strings; {n} test strings agree");
    } else if n == 0 {
        row.status = Status::Unchecked;
        row.detail = format!(
            "no test string could be derived (none of at most {} characters) and nothing was proven ({}): not checked",
            super::language::MAX_SAMPLE_CHARS,
            if unproven.is_empty() {
                "the automata differ".to_string()
            } else {
                unproven.join("; ")
            }
        );
    } else {
        row.status = Status::Tested;
        row.detail = format!(
            "tested ({n} strings, {matched} in the language; {origin}): same verdicts; not proven: {}",
            unproven.join("; ")
        );
    }
    row.strings = tested;
    Ok(())
}

/// The pest grammar as ABNF rules (choice as alternation, lookaheads left
/// out), for deriving test strings from the pest side with the same
/// generator: every alternative, repetition counts 0, 1, 2 and more,
/// near-misses.
fn pest_as_abnf(pest: &PestGrammar) -> Grammar {
    use pest_meta::optimizer::OptimizedExpr as E;
    fn node(e: &E, rules: &std::collections::HashMap<String, E>) -> Node {
        let one = |s: &str| s.chars().next().map_or(0, |c| c as u32);
        match e {
            E::Str(s) => Node::Chars {
                text: s.clone(),
                case_sensitive: true,
            },
            E::Insens(s) => Node::Chars {
                text: s.clone(),
                case_sensitive: false,
            },
            E::Range(a, b) => Node::Range(one(a), one(b)),
            E::Ident(name) if rules.contains_key(name) => Node::Rule(name.clone()),
            E::Ident(name) => match automaton_class(name) {
                Some(set) => {
                    Node::Alternation(set.into_iter().map(|(a, b)| Node::Range(a, b)).collect())
                }
                // SOI, EOI: nothing to write.
                None => Node::Concatenation(Vec::new()),
            },
            E::PosPred(_) | E::NegPred(_) => Node::Concatenation(Vec::new()),
            E::Seq(a, b) => Node::Concatenation(vec![node(a, rules), node(b, rules)]),
            E::Choice(a, b) => Node::Alternation(vec![node(a, rules), node(b, rules)]),
            E::Opt(a) => Node::Repetition {
                min: 0,
                max: Some(1),
                node: Box::new(node(a, rules)),
            },
            E::Rep(a) => Node::Repetition {
                min: 0,
                max: None,
                node: Box::new(node(a, rules)),
            },
            E::RestoreOnErr(a) => node(a, rules),
            _ => Node::Prose("not modelled".into()),
        }
    }
    let mut g = Grammar::new();
    for name in pest.rule_names() {
        if let Some(e) = pest.exprs().get(name) {
            g.insert(Rule {
                name: name.to_string(),
                node: node(e, pest.exprs()),
                origin: "pest".into(),
            });
        }
    }
    g
}

/// pest's built-in one-character rules, as code point ranges.
fn automaton_class(name: &str) -> Option<CharSet> {
    automaton::builtin_class(name)
}

/// Marks each rule that differs with the root causes it follows from: the
/// differing rules among those it refers to, directly or not, whose own
/// references all agree.
fn rank(rows: &mut [CheckRow], pest: &PestGrammar, abnf: &Grammar) {
    use std::collections::{HashMap, HashSet};
    // Pest name of each differing row.
    let differing: HashMap<String, String> = rows
        .iter()
        .filter(|r| r.status == Status::Differs)
        .filter_map(|r| {
            pest.resolve(&r.rule)
                .map(|p| (p.to_string(), r.rule.clone()))
        })
        .collect();
    if differing.len() < 2 {
        return;
    }
    let exprs = pest.exprs();
    let reach = |start: &str| -> HashSet<String> {
        let mut seen = HashSet::new();
        let mut todo = vec![start.to_string()];
        while let Some(r) = todo.pop() {
            let Some(e) = exprs.get(&r) else { continue };
            for sub in e.iter_top_down() {
                if let pest_meta::optimizer::OptimizedExpr::Ident(n) = sub
                    && n != start
                    && exprs.contains_key(&n)
                    && seen.insert(n.clone())
                {
                    todo.push(n);
                }
            }
        }
        seen
    };
    let below: HashMap<&String, Vec<&String>> = differing
        .keys()
        .map(|p| {
            let r = reach(p);
            (p, differing.keys().filter(|q| r.contains(*q)).collect())
        })
        .collect();
    for row in rows.iter_mut().filter(|r| r.status == Status::Differs) {
        let Some(p) = pest.resolve(&row.rule) else {
            continue;
        };
        let mut roots: Vec<String> = below[&p.to_string()]
            .iter()
            .filter(|q| below[*q].is_empty())
            .map(|q| differing[*q].clone())
            .collect();
        // In ABNF order.
        roots.sort_by_key(|r| abnf.rules().position(|x| &x.name == r));
        if !roots.is_empty() {
            row.detail = format!(
                "refers to {}, which differs: {}",
                roots.join(", "),
                row.detail
            );
        }
        row.follows = roots;
    }
}

/// When `rule` differs from the rule of its name as printed, says so and
/// shows an input on which the two differ.
fn erratum(rule: &Rule, printed: &Grammar, abnf: &Grammar) -> Option<String> {
    let old = printed.get(&rule.name)?;
    if old.node == rule.node {
        return None;
    }
    let example = samples(abnf, &rule.name)
        .into_iter()
        .chain(samples(printed, &rule.name))
        .find(|s| abnf_accepts(abnf, &rule.name, s) != abnf_accepts(printed, &rule.name, s));
    let shown = match example {
        Some(s) => {
            let now = if abnf_accepts(abnf, &rule.name, &s) == Some(true) {
                "accepts"
            } else {
                "rejects"
            };
            format!(" ({s:?}: the correction {now} it, the printed rule does not)")
        }
        None => String::new(),
    };
    Some(format!(
        "departs from the rule printed in {} as corrected by {}{shown}",
        old.origin, rule.origin
    ))
}

/// How [`check`] runs the single-character rules over the code points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Scan {
    /// Split U+0000..U+10FFFF at every code point where some expression of
    /// the pest grammar or the ABNF set starts or stops matching; between
    /// two such bounds every character fares the same, so pest_vm runs on
    /// the first and the last character of each class (and on all of a
    /// class where those two disagree). Falls back to [`Scan::Exhaustive`]
    /// for a grammar whose expressions it cannot see through (Unicode
    /// properties, the stack).
    #[default]
    Classes,
    /// Run pest_vm on every code point (1,112,064 parses: seconds in an
    /// optimized build, half a minute or more in a debug one).
    Exhaustive,
}

/// Per rule, the code point ranges where pest and the ABNF disagree: pest
/// accepts and the ABNF does not, and back.
type Found = Vec<(Vec<(u32, u32)>, Vec<(u32, u32)>)>;

/// Runs every single-character rule on the code points (see [`Scan`]) with
/// one pest_vm parse per code point run: a probe rule tests all the rules
/// with lookaheads `&(rule ~ EOI)` (the rule matching the whole
/// one-character input) and marks each that matches. Returns how the scan
/// went, and per rule `None` when the pest set is the ABNF's, or a
/// description of the difference.
fn scan_code_points(
    pest: &PestGrammar,
    singles: &[(usize, String, CharSet)],
    scan: Scan,
) -> Result<(String, Vec<Option<String>>), GrammarError> {
    if singles.is_empty() {
        return Ok((String::new(), Vec::new()));
    }
    let mut probe = String::from("lab_probe__ = { SOI");
    let mut marks = String::new();
    for (k, (_, r, _)) in singles.iter().enumerate() {
        probe.push_str(&format!(" ~ (&({r} ~ EOI) ~ lab_mark__{k})?"));
        marks.push_str(&format!("lab_mark__{k} = {{ \"\" }}\n"));
    }
    probe.push_str(" ~ ANY ~ EOI }\n");
    let g = pest
        .with_rules(&format!("{probe}{marks}"))
        .map_err(|e| GrammarError {
            message: format!("the lab's probe rule could not be added to the grammar: {e}"),
        })?;
    // The first input pest gave up on, if any: no verdict then.
    let gave_up = std::cell::RefCell::new(None);
    let verdict = |c: char| -> Vec<bool> {
        let mut hit = vec![false; singles.len()];
        let mut buf = [0u8; 4];
        let probed = g.probe("lab_probe__", c.encode_utf8(&mut buf), |name| {
            if let Some(k) = name
                .strip_prefix("lab_mark__")
                .and_then(|k| k.parse::<usize>().ok())
            {
                hit[k] = true;
            }
        });
        if let Err(f) = probed {
            gave_up.borrow_mut().get_or_insert((c, f));
        }
        hit
    };
    let note = |found: &mut Found, lo: u32, hi: u32, hit: &[bool]| {
        for (k, (_, _, set)) in singles.iter().enumerate() {
            let want = contains(set, lo);
            if hit[k] && !want {
                found[k].0.push((lo, hi));
            } else if !hit[k] && want {
                found[k].1.push((lo, hi));
            }
        }
    };
    let every = |found: &mut Found, from: u32, to: u32| {
        for c in (from..to).filter_map(char::from_u32) {
            note(found, c as u32, c as u32, &verdict(c));
        }
    };
    let mut found: Found = vec![(Vec::new(), Vec::new()); singles.len()];
    let bounds = pest.char_bounds().filter(|_| scan == Scan::Classes);
    let how = match bounds {
        Some(bounds) => {
            let mut bounds = bounds.to_vec();
            for (_, _, set) in singles {
                bounds.extend(set.iter().flat_map(|&(a, b)| [a, b + 1]));
            }
            bounds.sort_unstable();
            bounds.dedup();
            let mut classes = 0;
            let mut runs = 0;
            for w in bounds.windows(2) {
                let (from, to) = (w[0], w[1].min(0x11_0000));
                let (Some(lo), Some(hi)) = (
                    (from..to).find_map(char::from_u32),
                    (from..to).rev().find_map(char::from_u32),
                ) else {
                    continue;
                };
                classes += 1;
                let (a, b) = (verdict(lo), verdict(hi));
                runs += 2;
                if a == b {
                    note(&mut found, lo as u32, hi as u32, &a);
                } else {
                    // Cannot happen if the bounds are right; be exhaustive
                    // rather than trust them.
                    every(&mut found, from, to);
                    runs += to - from;
                }
            }
            format!("every code point, in {classes} classes ({runs} pest_vm runs)")
        }
        None => {
            every(&mut found, 0, 0x11_0000);
            "every code point, one pest_vm run each".to_string()
        }
    };
    if let Some((c, f)) = gave_up.into_inner() {
        return Err(GrammarError {
            message: format!("the single-character rules on U+{:04X}: {f}", c as u32),
        });
    }
    let diffs = found
        .into_iter()
        .map(|(extra, lacking)| {
            if extra.is_empty() && lacking.is_empty() {
                return None;
            }
            let mut parts = Vec::new();
            if !extra.is_empty() {
                parts.push(format!(
                    "pest accepts {} the ABNF does not ({})",
                    size(&extra),
                    ranges(&extra)
                ));
            }
            if !lacking.is_empty() {
                parts.push(format!(
                    "pest rejects {} the ABNF accepts ({})",
                    size(&lacking),
                    ranges(&lacking)
                ));
            }
            Some(parts.join("; "))
        })
        .collect();
    Ok((how, diffs))
}

/// The number of characters in the ranges (surrogates left out).
fn size(v: &[(u32, u32)]) -> u32 {
    v.iter()
        .map(|&(a, b)| (a..=b).filter(|&c| char::from_u32(c).is_some()).count() as u32)
        .sum()
}

/// Sorted code point ranges, merged, as at most three ranges
/// `U+E0000..U+E0FFF`, then "...".
fn ranges(v: &[(u32, u32)]) -> String {
    let mut rs: Vec<(u32, u32)> = Vec::new();
    for &(a, b) in v {
        match rs.last_mut() {
            Some(last) if a == last.1 + 1 || (last.1 == 0xD7FF && a == 0xE000) => last.1 = b,
            _ => rs.push((a, b)),
        }
    }
    let mut out: Vec<String> = rs
        .iter()
        .take(3)
        .map(|&(a, b)| {
            if a == b {
                format!("U+{a:04X}")
            } else {
                format!("U+{a:04X}..U+{b:04X}")
            }
        })
        .collect();
    if rs.len() > 3 {
        out.push("...".into());
    }
    out.join(", ")
}
