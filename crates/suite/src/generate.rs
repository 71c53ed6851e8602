//! The cases generated from the grammar: for every rule of every profile,
//! accepted strings that take every transition of the rule's minimal DFA,
//! rejected strings one character away from accepted ones, every end (and
//! one past it) of every character range and repetition count, and the
//! range ends again inside each component of a whole reference.
//!
//! The DFAs are the ones the library parses with (`src/fast/tables/`,
//! written by `gen/` from the ABNF of `grammar/abnf/`), so a verdict here is
//! the ABNF's: the expected answers are not an implementation's opinion.
//! Which byte of a class a string takes is drawn from a seeded generator,
//! so the same seed gives the same suite.

use std::collections::{HashMap, HashSet, VecDeque};

use iribis::GrammarRule;
use iribis::Profile;
use iribis::dfa::Dfa;
use iribis::tree::SyntaxTree;
use iribis_lab::abnf::{Grammar, Node};
use iribis_lab::shortest;

use super::case::{Answer, Case, Expect, Op, Position};

/// SplitMix64 (Steele, Lea and Flood, 2014): a generator defined by its
/// constants, so the suite a seed gives never changes with a dependency's
/// version (a `rand` generator's stream may).
#[derive(Clone, Debug)]
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// One of `v` (not empty).
    pub(crate) fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
}

/// The dead state of every table.
const DEAD: usize = 0;
/// The start state of every table.
const START: usize = 1;

/// Bytes in order of preference for the shortest ways into and out of a
/// state: letters, then digits, so that the strings read like text.
fn preference() -> Vec<u8> {
    (b'a'..=b'z')
        .chain(b'0'..=b'9')
        .chain(b'A'..=b'Z')
        .chain((0..=255u8).filter(|b| !b.is_ascii_alphanumeric()))
        .collect()
}

/// A DFA as the generator walks it: its classes of bytes, and for each
/// state a shortest input that reaches it and a shortest one that leads
/// from it to acceptance.
pub(crate) struct Walk {
    dfa: Dfa,
    /// The bytes of each class (bytes that lead every state alike), in
    /// order of preference.
    classes: Vec<Vec<u8>>,
    class_of: [usize; 256],
    /// Per state, a shortest input from the start to it.
    pre: Vec<Option<Vec<u8>>>,
    /// Per state, a shortest input from it to acceptance.
    suf: Vec<Option<Vec<u8>>>,
    /// The reachable states, in breadth-first order.
    order: Vec<usize>,
}

impl Walk {
    pub(crate) fn new(dfa: Dfa) -> Walk {
        let n = dfa.states();
        let prefs = preference();
        let mut by_column: HashMap<Vec<usize>, usize> = HashMap::new();
        let mut classes: Vec<Vec<u8>> = Vec::new();
        let mut class_of = [0usize; 256];
        for &b in &prefs {
            let column: Vec<usize> = (0..n).map(|s| dfa.step(s, b)).collect();
            let k = *by_column.entry(column).or_insert_with(|| {
                classes.push(Vec::new());
                classes.len() - 1
            });
            classes[k].push(b);
            class_of[usize::from(b)] = k;
        }
        let mut pre: Vec<Option<Vec<u8>>> = vec![None; n];
        pre[START] = Some(Vec::new());
        let mut order = vec![START];
        let mut queue = VecDeque::from([START]);
        while let Some(s) = queue.pop_front() {
            for class in &classes {
                let b = class[0];
                let t = dfa.step(s, b);
                if t != DEAD && pre[t].is_none() {
                    let mut p = pre[s].clone().unwrap_or_default();
                    p.push(b);
                    pre[t] = Some(p);
                    order.push(t);
                    queue.push_back(t);
                }
            }
        }
        // Backwards from the accepting states.
        let mut into: Vec<Vec<(usize, u8)>> = vec![Vec::new(); n];
        for &s in &order {
            for class in &classes {
                let t = dfa.step(s, class[0]);
                if t != DEAD {
                    into[t].push((s, class[0]));
                }
            }
        }
        let mut suf: Vec<Option<Vec<u8>>> = vec![None; n];
        let mut queue = VecDeque::new();
        for &s in &order {
            if dfa.accepts(s) {
                suf[s] = Some(Vec::new());
                queue.push_back(s);
            }
        }
        while let Some(t) = queue.pop_front() {
            for &(s, b) in &into[t] {
                if suf[s].is_none() {
                    let mut x = vec![b];
                    x.extend(suf[t].as_deref().unwrap_or_default());
                    suf[s] = Some(x);
                    queue.push_back(s);
                }
            }
        }
        Walk {
            dfa,
            classes,
            class_of,
            pre,
            suf,
            order,
        }
    }

    fn live(&self, s: usize) -> bool {
        self.suf[s].is_some()
    }

    /// The transitions a string takes: (state, class), in order.
    fn path(&self, bytes: &[u8]) -> Vec<(usize, usize)> {
        let mut s = START;
        let mut out = Vec::with_capacity(bytes.len());
        for &b in bytes {
            out.push((s, self.class_of[usize::from(b)]));
            s = self.dfa.step(s, b);
            if s == DEAD {
                break;
            }
        }
        out
    }

    /// The live transitions of the reachable states: (state, class).
    pub(crate) fn transitions(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for &s in &self.order {
            for (k, class) in self.classes.iter().enumerate() {
                let t = self.dfa.step(s, class[0]);
                if t != DEAD && self.live(t) {
                    out.push((s, k));
                }
            }
        }
        out
    }

    /// The shortest way from `from` through a transition not `done`
    /// (ending with it), over live transitions, at most 8 bytes long.
    fn nearest(
        &self,
        from: usize,
        done: impl Fn((usize, usize)) -> bool,
    ) -> Option<Vec<(usize, usize)>> {
        let mut back: HashMap<usize, (usize, usize)> = HashMap::new();
        let mut queue = VecDeque::from([(from, 0)]);
        let mut visited = HashSet::from([from]);
        while let Some((s, depth)) = queue.pop_front() {
            for (j, class) in self.classes.iter().enumerate() {
                let t = self.dfa.step(s, class[0]);
                if t == DEAD || !self.live(t) {
                    continue;
                }
                if !done((s, j)) {
                    let mut way = vec![(s, j)];
                    let mut at = s;
                    while at != from {
                        let (p, k) = back[&at];
                        way.push((p, k));
                        at = p;
                    }
                    way.reverse();
                    return Some(way);
                }
                if depth < 8 && visited.insert(t) {
                    back.insert(t, (s, j));
                    queue.push_back((t, depth + 1));
                }
            }
        }
        None
    }

    /// Accepted strings that together take every live transition, each
    /// with the byte offset of the transition it was written for. A string
    /// is a shortest way to the transition's state, a byte of its class
    /// (drawn by `rng`), then as many transitions not yet taken as follow
    /// one another (at most `extra`), then a shortest way to acceptance.
    pub(crate) fn cover(&self, rng: &mut Rng, extra: usize) -> (Vec<(String, usize)>, usize) {
        let all = self.transitions();
        let total = all.len();
        let mut taken: HashSet<(usize, usize)> = HashSet::new();
        let mut out = Vec::new();
        for &(s, k) in &all {
            if taken.contains(&(s, k)) {
                continue;
            }
            let Some(pre) = &self.pre[s] else { continue };
            let mut bytes = pre.clone();
            let at = bytes.len();
            let b = *rng.pick(&self.classes[k]);
            bytes.push(b);
            let mut cur = self.dfa.step(s, b);
            let mut steps = 0;
            let mut seen_here: HashSet<(usize, usize)> = HashSet::new();
            seen_here.insert((s, k));
            while steps < extra {
                // The nearest transition not taken yet, and the way to it.
                let Some(way) = self.nearest(cur, |t| taken.contains(&t) || seen_here.contains(&t))
                else {
                    break;
                };
                for (from, j) in way {
                    seen_here.insert((from, j));
                    let b = *rng.pick(&self.classes[j]);
                    bytes.push(b);
                    cur = self.dfa.step(cur, b);
                    steps += 1;
                }
            }
            let Some(suf) = &self.suf[cur] else { continue };
            bytes.extend(suf);
            for t in self.path(&bytes) {
                taken.insert(t);
            }
            // Every string the DFA accepts is UTF-8 (its classes are
            // ranges of code points), so this always succeeds.
            if let Ok(text) = String::from_utf8(bytes) {
                out.push((text, at));
            }
        }
        let covered = all.iter().filter(|t| taken.contains(t)).count();
        debug_assert_eq!(covered, total);
        (out, covered)
    }

    /// The rule an input of the reference rule `rule` exercises: for a
    /// valid input, the innermost telling rule around the character at
    /// byte `at`; for an invalid one, the rule its valid beginning ends in
    /// (its first `p` bytes, `p` where it goes wrong, completed by a
    /// shortest way to acceptance), as for the near misses.
    pub(crate) fn attribute(
        &self,
        input: &str,
        at: usize,
        rule: GrammarRule,
        profile: Profile,
    ) -> Option<String> {
        match self.dfa.dead_end(input) {
            None => exercised(input, rule, profile, at, true),
            Some(d) => {
                let mut s = START;
                for &b in &input.as_bytes()[..d.byte()] {
                    s = self.dfa.step(s, b);
                }
                let mut whole = input.as_bytes()[..d.byte()].to_vec();
                whole.extend(self.suf.get(s)?.as_deref()?);
                let whole = String::from_utf8(whole).ok()?;
                exercised(&whole, rule, profile, d.byte(), false)
            }
        }
    }

    /// A random accepted string: random live transitions from the start,
    /// stopping at an accepting state now and then, and a shortest way to
    /// acceptance once it is `max` bytes long.
    pub(crate) fn random_accepted(&self, rng: &mut Rng, max: usize) -> String {
        let mut s = START;
        let mut bytes = Vec::new();
        loop {
            if self.dfa.accepts(s) && (rng.below(6) == 0 || bytes.len() >= max) {
                break;
            }
            if bytes.len() >= max {
                bytes.extend(self.suf[s].as_deref().unwrap_or_default());
                break;
            }
            let live: Vec<usize> = (0..self.classes.len())
                .filter(|&k| {
                    let t = self.dfa.step(s, self.classes[k][0]);
                    t != DEAD && self.live(t)
                })
                .collect();
            if live.is_empty() {
                break;
            }
            let k = *rng.pick(&live);
            let b = *rng.pick(&self.classes[k]);
            bytes.push(b);
            s = self.dfa.step(s, b);
        }
        String::from_utf8(bytes).unwrap_or_default()
    }

    /// Rejected strings one character away from accepted ones: for each
    /// reachable state between two characters, a shortest way there, a
    /// character that no valid input can have there, and a shortest way
    /// on to acceptance. Up to `per_state` characters per state, the ones
    /// used least so far first (so every candidate that can be wrong
    /// somewhere is, somewhere), the others drawn by `rng`; and the way
    /// there alone when one character is missing from its end. Each comes
    /// with the offset of the edit in the accepted string.
    pub(crate) fn near_misses(
        &self,
        rng: &mut Rng,
        per_state: usize,
    ) -> Vec<(String, String, usize)> {
        let mut used: HashMap<char, usize> = HashMap::new();
        let mut out = Vec::new();
        for &s in &self.order {
            let (Some(pre), Some(suf)) = (&self.pre[s], &self.suf[s]) else {
                continue;
            };
            let (Ok(pre), Ok(suf)) = (std::str::from_utf8(pre), std::str::from_utf8(suf)) else {
                continue;
            };
            let accepted = format!("{pre}{suf}");
            let dead: Vec<char> = CANDIDATES
                .iter()
                .copied()
                .filter(|&c| {
                    let mut buf = [0u8; 4];
                    let mut t = s;
                    for &b in c.encode_utf8(&mut buf).as_bytes() {
                        t = self.dfa.step(t, b);
                        if t == DEAD {
                            return true;
                        }
                    }
                    !self.live(t)
                })
                .collect();
            if !dead.is_empty() {
                let least = dead
                    .iter()
                    .map(|c| used.get(c).copied().unwrap_or(0))
                    .min()
                    .unwrap_or(0);
                let rare: Vec<char> = dead
                    .iter()
                    .copied()
                    .filter(|c| used.get(c).copied().unwrap_or(0) == least)
                    .collect();
                let mut chosen = vec![*rng.pick(&rare)];
                while chosen.len() < per_state.min(dead.len()) {
                    let c = *rng.pick(&dead);
                    if !chosen.contains(&c) {
                        chosen.push(c);
                    }
                }
                for c in chosen {
                    *used.entry(c).or_default() += 1;
                    out.push((format!("{pre}{c}{suf}"), accepted.clone(), pre.len()));
                }
            }
            if !self.dfa.accepts(s) && suf.chars().count() == 1 && !pre.is_empty() {
                out.push((pre.to_owned(), accepted.clone(), pre.len()));
            }
        }
        out
    }
}

/// The characters tried where an input cannot go on: every ASCII
/// character, and [`NON_ASCII`].
pub(crate) static CANDIDATES: std::sync::LazyLock<Vec<char>> = std::sync::LazyLock::new(|| {
    (0..128u8)
        .map(char::from)
        .chain(NON_ASCII.iter().copied())
        .collect()
});

/// The ends of the non-ASCII ranges of `ucschar`, `iprivate` and
/// `leiri-ucschar` and their neighbours: C1 controls, noncharacters, the
/// bidi marks, the tag range of 3987bis's `iprivate`.
const NON_ASCII: &[char] = &[
    '\u{80}',
    '\u{9f}',
    '\u{a0}',
    '\u{e9}',
    '\u{200e}',
    '\u{202e}',
    '\u{2028}',
    '\u{d7ff}',
    '\u{e000}',
    '\u{f8ff}',
    '\u{f900}',
    '\u{fdcf}',
    '\u{fdd0}',
    '\u{fdef}',
    '\u{fdf0}',
    '\u{ffef}',
    '\u{fff0}',
    '\u{fffd}',
    '\u{fffe}',
    '\u{10000}',
    '\u{1fffd}',
    '\u{1fffe}',
    '\u{e0000}',
    '\u{e0fff}',
    '\u{e1000}',
    '\u{efffd}',
    '\u{f0000}',
    '\u{10fffd}',
    '\u{10ffff}',
];

/// What one piece of an ABNF rule's tree is tested for: a range of code
/// points (or a case-insensitive letter) at its ends, or a repetition at
/// its bounds; with the shortest strings before and after it in the rule.
enum Target {
    Range(u32, u32),
    Repeat {
        min: u32,
        max: Option<u32>,
        element: String,
    },
}

/// The targets in a rule's own tree (the rules it refers to have their
/// own), each with its context.
fn targets(
    g: &Grammar,
    node: &Node,
    pre: &str,
    suf: &str,
    out: &mut Vec<(Target, String, String)>,
) {
    match node {
        Node::Alternation(alts) => {
            for a in alts {
                targets(g, a, pre, suf, out);
            }
        }
        Node::Concatenation(parts) => {
            let short: Vec<Option<String>> = parts.iter().map(|p| shortest(g, p)).collect();
            for (i, p) in parts.iter().enumerate() {
                let before: Option<String> = short[..i].iter().cloned().collect();
                let after: Option<String> = short[i + 1..].iter().cloned().collect();
                if let (Some(b), Some(a)) = (before, after) {
                    targets(g, p, &format!("{pre}{b}"), &format!("{a}{suf}"), out);
                }
            }
        }
        Node::Repetition { min, max, node } => {
            let Some(element) = shortest(g, node) else {
                return;
            };
            if *max != Some(0) {
                out.push((
                    Target::Repeat {
                        min: *min,
                        max: *max,
                        element: element.clone(),
                    },
                    pre.to_owned(),
                    suf.to_owned(),
                ));
                let before = element.repeat(min.saturating_sub(1) as usize);
                targets(g, node, &format!("{pre}{before}"), suf, out);
            }
        }
        Node::Range(a, b) => out.push((Target::Range(*a, *b), pre.to_owned(), suf.to_owned())),
        Node::Chars {
            text,
            case_sensitive: false,
        } if text.chars().count() == 1 && text.chars().all(|c| c.is_ascii_alphabetic()) => {
            for c in [text.to_ascii_lowercase(), text.to_ascii_uppercase()] {
                let c = c.chars().next().unwrap_or('a') as u32;
                out.push((Target::Range(c, c), pre.to_owned(), suf.to_owned()));
            }
        }
        _ => {}
    }
}

/// The code points at and next to the ends of a range that a string can
/// hold (a surrogate or a value past U+10FFFF cannot be written).
fn ends(a: u32, b: u32) -> Vec<char> {
    let mut v = vec![a.checked_sub(1), Some(a), Some(b), b.checked_add(1)];
    v.dedup();
    v.into_iter().flatten().filter_map(char::from_u32).collect()
}

/// Strings at and next to the bounds of a target, in its context.
fn probes(target: &Target, pre: &str, suf: &str) -> Vec<(String, String)> {
    match target {
        Target::Range(a, b) => ends(*a, *b)
            .into_iter()
            .map(|c| {
                (
                    format!("{pre}{c}{suf}"),
                    format!("U+{:04X} against %x{a:X}-{b:X}", c as u32),
                )
            })
            .collect(),
        Target::Repeat { min, max, element } => {
            let mut counts = vec![min.checked_sub(1), Some(*min), Some(min + 1)];
            if let Some(m) = max {
                counts.extend([m.checked_sub(1), Some(*m), Some(m + 1)]);
            }
            let mut counts: Vec<u32> = counts.into_iter().flatten().filter(|&c| c <= 24).collect();
            counts.sort_unstable();
            counts.dedup();
            let bounds = match max {
                Some(m) => format!("{min}*{m}"),
                None => format!("{min}*"),
            };
            counts
                .into_iter()
                .map(|c| {
                    (
                        format!("{pre}{}{suf}", element.repeat(c as usize)),
                        format!("{c} × {element:?} against {bounds}"),
                    )
                })
                .collect()
        }
    }
}

/// The rules whose nodes say too little to group failures by: character
/// classes and segments, inside which a more telling rule is chosen.
const TOO_GENERAL: &[&str] = &[
    "ALPHA",
    "DIGIT",
    "HEXDIG",
    "iunreserved",
    "unreserved",
    "sub-delims",
    "gen-delims",
    "reserved",
    "ipchar",
    "pchar",
    "path-sep",
    "pct-form",
    "isegment",
    "isegment-nz",
    "isegment-nz-nc",
    "segment",
    "segment-nz",
    "segment-nz-nc",
];

/// The innermost telling rule of `input`'s parse tree around byte `at`:
/// the node the character at `at` is in (`inside`), or the one the text
/// before `at` ends in (an insertion at `at` extends it).
pub(crate) fn exercised(
    input: &str,
    rule: GrammarRule,
    profile: Profile,
    at: usize,
    inside: bool,
) -> Option<String> {
    innermost(input, rule, profile, |n| {
        if inside {
            n.start <= at && at < n.end
        } else {
            n.start < at && at <= n.end
        }
    })
}

/// The innermost telling rule of `input`'s parse tree among the nodes
/// `hit` picks.
fn innermost(
    input: &str,
    rule: GrammarRule,
    profile: Profile,
    hit: impl Fn(&iribis::tree::Node) -> bool,
) -> Option<String> {
    let tree = SyntaxTree::parse(input, rule, profile).ok()?;
    let mut best: Option<(usize, &str)> = None;
    for n in tree.nodes() {
        let name = n.rule.abnf_name();
        if hit(n) && !TOO_GENERAL.contains(&name) && best.is_none_or(|(d, _)| n.depth >= d) {
            best = Some((n.depth, name));
        }
    }
    best.map(|(_, n)| spec_name(profile, n).to_owned())
}

/// The rule a failing case is grouped under in a report, from the case
/// and the answer it got: what the report's `by_rule` keys are.
///
/// - A case whose input is built around one character (`in-context`: a
///   shortest reference with the character in one component) or shrunk to
///   a minimal one (`fuzz`) is about the rule it `exercises`.
/// - A `valid` case of a whole reference that goes wrong at a position is
///   about the innermost rule at that position: for an invalid input, the
///   position where it stops being the start of a valid one, and the
///   innermost rule unfinished there (in the input completed by a shortest
///   way to acceptance), which the character there breaks; for a valid
///   input rejected at a position the adapter names, the rule of the
///   character there. An input that is valid up to a character nothing
///   can follow is about its whole rule.
/// - Otherwise the rule the case names (its `rule`), else its operation.
///
/// The other generated cases' `exercises` names the transition a case was
/// written for, and the input goes on through others: a failure there need
/// not be that rule's.
#[derive(Default)]
pub(crate) struct Groups {
    walks: HashMap<(GrammarRule, Profile), Option<Walk>>,
}

impl Groups {
    pub(crate) fn of(&mut self, case: &Case, answer: Option<&Answer>) -> String {
        if matches!(case.generator.as_deref(), Some("in-context" | "fuzz"))
            && let Some(e) = &case.exercises
        {
            return e.clone();
        }
        let named = case.rule.as_deref().unwrap_or(case.op.name());
        if case.op != Op::Valid || !is_reference(named) {
            return case.group().to_owned();
        }
        self.at_position(case, named, answer)
            .unwrap_or_else(|| named.to_owned())
    }

    fn at_position(&mut self, case: &Case, named: &str, answer: Option<&Answer>) -> Option<String> {
        let profile = case.profile;
        let rule = GrammarRule::from_name(named)?.in_profile(profile)?;
        let walk = self
            .walks
            .entry((rule, profile))
            .or_insert_with(|| Dfa::of(rule, profile).map(Walk::new))
            .as_ref()?;
        let input = case.input.as_str();
        match walk.dfa.dead_end(input) {
            // Valid: where the adapter says it goes wrong, if it says.
            None => {
                let Some(Answer::Valid {
                    valid: false,
                    at: Some(at),
                }) = answer
                else {
                    return None;
                };
                let byte = if at.char != usize::MAX {
                    let n = input.chars().count();
                    if at.char == n {
                        input.len()
                    } else {
                        input.char_indices().nth(at.char)?.0
                    }
                } else {
                    at.byte
                };
                if byte > input.len() || !input.is_char_boundary(byte) {
                    return None;
                }
                exercised(input, rule, profile, byte, byte < input.len())
            }
            Some(d) => {
                let p = d.byte();
                let mut s = START;
                for &b in &input.as_bytes()[..p] {
                    s = walk.dfa.step(s, b);
                }
                let suffix = walk.suf.get(s)?.as_deref()?;
                if suffix.is_empty() {
                    // Valid up to `p`, and nothing can follow there.
                    return None;
                }
                let mut whole = input.as_bytes()[..p].to_vec();
                whole.extend_from_slice(suffix);
                let whole = String::from_utf8(whole).ok()?;
                // The innermost rule the completion is in the middle of at
                // `p` (the character there had to go on with it), else the
                // one the completion's character at `p` is in.
                innermost(&whole, rule, profile, |n| n.start < p && p < n.end)
                    .or_else(|| exercised(&whole, rule, profile, p, true))
            }
        }
    }
}

/// The verdict of `dfa` on `input`, as a case expects it.
pub(crate) fn verdict(dfa: Dfa, input: &str) -> Expect {
    match dfa.dead_end(input) {
        None => Expect::Valid {
            valid: true,
            at: None,
        },
        Some(d) => Expect::Valid {
            valid: false,
            at: Some(Position {
                byte: d.byte(),
                char: input[..d.byte()].chars().count(),
            }),
        },
    }
}

/// The spec section of a profile's ABNF.
pub(crate) fn abnf_section(profile: Profile) -> &'static str {
    match profile {
        Profile::Rfc3987bis => "3987bis §2.2",
        Profile::Rfc3987 => "RFC 3987 §2.2",
        Profile::Rfc3986 => "RFC 3986 Appendix A",
        Profile::Leiri => "3987bis §6.1",
        // Profile is non-exhaustive; a new profile names its own ABNF.
        _ => "the profile's ABNF",
    }
}

/// Whether the profile's spec defines a rule of that name: RFC 3987 has
/// no `pct-form` or `path-sep` (3987bis's names for its `pct-encoded` and
/// "/"), and a LEIRI's `ucschar` is `leiri-ucschar` (3987bis §6.1 replaces
/// the one by the other), which has cases of its own.
pub(crate) fn in_spec(profile: Profile, rule: &str) -> bool {
    !matches!(
        (profile, rule),
        (Profile::Rfc3987, "pct-form" | "path-sep") | (Profile::Leiri, "ucschar")
    )
}

/// A rule's name as the profile's spec writes it (see [`in_spec`]).
pub(crate) fn spec_name(profile: Profile, rule: &str) -> &str {
    match (profile, rule) {
        (Profile::Leiri, "ucschar") => "leiri-ucschar",
        (Profile::Rfc3987, "pct-form") => "pct-encoded",
        _ => rule,
    }
}

/// The reference rules, by the profile's own names.
pub(crate) fn is_reference(rule: &str) -> bool {
    matches!(
        rule,
        "IRI-reference"
            | "IRI"
            | "absolute-IRI"
            | "irelative-ref"
            | "URI-reference"
            | "URI"
            | "absolute-URI"
            | "relative-ref"
    )
}

/// What the generator counted, for the index.
#[derive(Clone, Debug, Default)]
pub(crate) struct Coverage {
    /// Per profile and rule: (live transitions, transitions taken by the
    /// accepted cases, range ends and repetition bounds probed, accepted
    /// cases, rejected cases).
    pub(crate) rules: Vec<(Profile, String, [usize; 5])>,
}

/// Per profile, its rules (by the profile's ABNF names) with their DFAs.
pub(crate) fn rules_of(profile: Profile) -> Vec<(String, GrammarRule, Dfa)> {
    let Ok(g) = Grammar::profile(profile.name()) else {
        return Vec::new();
    };
    g.rules()
        .filter_map(|r| {
            let rule = GrammarRule::from_name(&r.name)?.in_profile(profile)?;
            let dfa = Dfa::of(rule, profile)?;
            Some((r.name.clone(), rule, dfa))
        })
        .collect()
}

/// The `valid` cases of one profile: per rule, the transition cover, the
/// near misses, and the probes of ranges and repetitions.
pub(crate) fn valid_cases(profile: Profile, rng: &mut Rng, coverage: &mut Coverage) -> Vec<Case> {
    let Ok(g) = Grammar::profile(profile.name()) else {
        return Vec::new();
    };
    let section = abnf_section(profile);
    let mut out = Vec::new();
    for (name, rule, dfa) in rules_of(profile) {
        if !in_spec(profile, &name) {
            continue;
        }
        let walk = Walk::new(dfa);
        let reference = is_reference(&name);
        let mut seen: HashSet<String> = HashSet::new();
        let mut counts = [0usize; 5];
        let mut push = |input: String,
                        generator: &str,
                        exercises: Option<String>,
                        note: Option<String>,
                        out: &mut Vec<Case>,
                        n: &mut usize| {
            if !seen.insert(input.clone()) {
                return;
            }
            *n += 1;
            let expect = verdict(dfa, &input);
            out.push(Case {
                id: format!("valid/{profile}/{name}/{generator}/{n}"),
                op: Op::Valid,
                profile,
                rule: Some(name.clone()),
                input,
                base: None,
                other: None,
                expect,
                source: format!("{section} ABNF {name}"),
                exercises: exercises.filter(|e| e != &name),
                generator: Some(generator.to_owned()),
                note,
                extra: Default::default(),
            });
        };
        let (cover, covered) = walk.cover(rng, 48);
        counts[0] = walk.transitions().len();
        counts[1] = covered;
        let mut n = 0;
        // The empty string, when the rule matches it: no transition takes
        // a test there.
        if dfa.accepts(START) {
            push(String::new(), "transition", None, None, &mut out, &mut n);
        }
        for (input, at) in cover {
            let ex = if reference {
                let at = (0..=at)
                    .rev()
                    .find(|&i| input.is_char_boundary(i))
                    .unwrap_or(0);
                exercised(&input, rule, profile, at, true)
            } else {
                None
            };
            push(input, "transition", ex, None, &mut out, &mut n);
        }
        let mut n = 0;
        for (input, accepted, at) in walk.near_misses(rng, 1) {
            let ex = if reference {
                exercised(&accepted, rule, profile, at, false)
            } else {
                None
            };
            push(input, "near-miss", ex, None, &mut out, &mut n);
        }
        let mut n = 0;
        let mut found = Vec::new();
        if let Some(r) = g.get(&name) {
            targets(&g, &r.node, "", "", &mut found);
        }
        for (target, pre, suf) in &found {
            for (input, what) in probes(target, pre, suf) {
                counts[2] += 1;
                let generator = match target {
                    Target::Range(..) => "range-end",
                    Target::Repeat { .. } => "repeat-bound",
                };
                push(input, generator, None, Some(what), &mut out, &mut n);
            }
        }
        let mine = out
            .iter()
            .rev()
            .take_while(|c| c.rule.as_deref() == Some(name.as_str()));
        for c in mine {
            match c.expect {
                Expect::Valid { valid: true, .. } => counts[3] += 1,
                _ => counts[4] += 1,
            }
        }
        coverage.rules.push((profile, name.clone(), counts));
    }
    out
}

/// The components of a whole reference, each with a template that puts a
/// character there, and the rule it stands in (under the profile's names).
const CONTEXTS: &[(&str, &str)] = &[
    ("scheme", "{}:"),
    ("scheme", "a{}:"),
    ("iuserinfo", "//{}@h"),
    ("ihost", "//{}"),
    ("port", "//h:{}"),
    ("IPv6address", "//[{}::]"),
    ("IPvFuture", "//[v1.{}]"),
    ("ipath-abempty", "//h/{}"),
    ("ipath-absolute", "/{}"),
    ("ipath-rootless", "a:{}"),
    ("ipath-noscheme", "{}"),
    ("iquery", "?{}"),
    ("ifragment", "#{}"),
];

/// The ends of every character range of the profile's grammar (and of the
/// case-insensitive letters), inside each component of an
/// `IRI-reference`: `valid` cases of the reference rule, which an
/// implementation that checks only whole references can run.
pub(crate) fn in_context(profile: Profile) -> Vec<Case> {
    let Ok(g) = Grammar::profile(profile.name()) else {
        return Vec::new();
    };
    let mut chars: Vec<(char, String)> = Vec::new();
    for r in g.rules() {
        let mut found = Vec::new();
        targets(&g, &r.node, "", "", &mut found);
        for (t, _, _) in found {
            if let Target::Range(a, b) = t {
                for c in ends(a, b) {
                    if !chars.iter().any(|(x, _)| *x == c) {
                        chars.push((c, format!("{} %x{a:X}-{b:X}", r.name)));
                    }
                }
            }
        }
    }
    let (name, rule) = if profile == Profile::Rfc3986 {
        ("URI-reference", GrammarRule::IRI_REFERENCE)
    } else {
        ("IRI-reference", GrammarRule::IRI_REFERENCE)
    };
    let Some(dfa) = rule.in_profile(profile).and_then(|r| Dfa::of(r, profile)) else {
        return Vec::new();
    };
    let section = abnf_section(profile);
    let walk = Walk::new(dfa);
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for (c, range) in &chars {
        for (component, template) in CONTEXTS {
            let input = template.replace("{}", &c.to_string());
            if !seen.insert(input.clone()) {
                continue;
            }
            let component = if profile == Profile::Rfc3986 {
                component.strip_prefix('i').unwrap_or(component)
            } else {
                component
            };
            let at = input.find(*c).unwrap_or(0);
            let exercises = walk
                .attribute(&input, at, rule, profile)
                .unwrap_or_else(|| component.to_owned());
            out.push(Case {
                id: format!("valid/{profile}/{name}/in-context/{}", out.len() + 1),
                op: Op::Valid,
                profile,
                rule: Some(name.to_owned()),
                expect: verdict(dfa, &input),
                input,
                base: None,
                other: None,
                source: format!("{section} ABNF {range}, in {component}"),
                exercises: Some(exercises),
                generator: Some("in-context".into()),
                note: Some(format!("U+{:04X} in {component}", *c as u32)),
                extra: Default::default(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(profile: Profile, rule: &str, input: &str, generator: &str) -> Case {
        let mut c = Case::from_line(
            &serde_json::json!({
                "id": "t", "op": "valid", "profile": profile.name(), "rule": rule,
                "input": input, "expect": {"valid": true}, "source": "s",
                "exercises": "ucschar", "generator": generator,
            })
            .to_string(),
        )
        .unwrap();
        c.expect = verdict(
            Dfa::of(
                GrammarRule::from_name(rule)
                    .and_then(|r| r.in_profile(profile))
                    .unwrap(),
                profile,
            )
            .unwrap(),
            input,
        );
        c
    }

    #[test]
    fn an_invalid_reference_is_grouped_under_the_rule_it_leaves_unfinished() {
        let mut groups = Groups::default();
        let accepted = Answer::Valid {
            valid: true,
            at: None,
        };
        let p = Profile::Rfc3987;
        for (input, group) in [
            // `]` or more of the address had to come.
            ("a://[::&]", "IP-literal"),
            ("a://[a\u{b}::]", "IPv6address"),
            ("a://[v1.\u{7f}]", "IPvFuture"),
            ("a:%]aa", "pct-encoded"),
            // Valid up to a character nothing can follow.
            ("a://h/\n", "IRI"),
        ] {
            let c = case(p, "IRI", input, "near-miss");
            assert_eq!(groups.of(&c, Some(&accepted)), group, "{input:?}");
        }
    }

    #[test]
    fn a_rejected_valid_reference_is_grouped_where_the_adapter_says() {
        let mut groups = Groups::default();
        let c = case(Profile::Rfc3987, "IRI", "a://[VFf0.x]/", "transition");
        let at = |char| Answer::Valid {
            valid: false,
            at: Some(Position {
                byte: usize::MAX,
                char,
            }),
        };
        assert_eq!(groups.of(&c, Some(&at(5))), "IPvFuture");
        assert_eq!(groups.of(&c, Some(&at(2))), "ihier-part");
        // A position past the input says nothing.
        assert_eq!(groups.of(&c, Some(&at(99))), "IRI");
        let no_position = Answer::Valid {
            valid: false,
            at: None,
        };
        assert_eq!(groups.of(&c, Some(&no_position)), "IRI");
        // An input built around one character is about its rule.
        let c = case(Profile::Rfc3987, "IRI", "a://[VFf0.x]/", "in-context");
        assert_eq!(groups.of(&c, None), "ucschar");
    }
}
