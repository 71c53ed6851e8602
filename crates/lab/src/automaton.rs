//! Finite automata for both sides of `iri grammar check`, to decide whether
//! a pest rule and an ABNF rule match the same strings instead of sampling.
//!
//! An ABNF rule that refers to no rule recursively (all rules of the IRI
//! grammars) is a regular expression: alternation, concatenation, bounded
//! and unbounded repetition, strings, ranges. It becomes a nondeterministic
//! automaton (NFA) by Thompson's construction, with an edge per set of
//! characters rather than per character.
//!
//! A pest rule is a PEG: its choice is ordered and commits to the first
//! alternative that matches, its repetitions are greedy and never give back,
//! and `&e`/`!e` look ahead without consuming. The same construction reads it
//! as a regular expression (choice as union, repetition as star, a lookahead
//! as a condition on the rest of the input, checked by a sub-automaton that
//! runs alongside), which is the PEG's language only where ordering and
//! greed cannot lose a match. [`PestAutomaton::conds`] records, for each
//! choice, option and repetition of the inlined rule, the condition under
//! which it can not (see [`Cond`]); the construction is *exact* for the rule
//! when every condition is decided to hold. Each condition is itself a
//! question about regular languages, decided here too.
//!
//! The automata are determinized lazily (sets of threads), in a
//! breadth-first search over the product of two or three of them: the first
//! string found is a shortest one.

use std::collections::{HashMap, HashSet, VecDeque};
use std::rc::Rc;

use pest_meta::optimizer::OptimizedExpr;

use super::language::{CharSet, Quick, char_set, normalize};

type Map<K, V> = HashMap<K, V, Quick>;
type Set<K> = HashSet<K, Quick>;
use crate::abnf::{Grammar, Node};

/// The most NFA states a rule may take (repetition counts unroll).
const MAX_STATES: usize = 20_000;

/// The most product states a search explores before it gives up (then
/// nothing is decided and the check falls back to test strings).
const MAX_EXPLORED: usize = 60_000;

/// A state with no character edges that stands for "the part being looked
/// for has matched; anything may follow" (see [`Run::prefix`]).
const ACCEPTED: u32 = u32::MAX;

#[derive(Clone, Debug)]
enum Edge {
    Eps(u32),
    /// A character of `sets[.0]`.
    Chars(u32, u32),
    /// A lookahead: the sub-automaton from `start` must (`neg: false`) or must
    /// not (`neg: true`) reach `fin` on a prefix of the rest of the input.
    Pred {
        neg: bool,
        start: u32,
        fin: u32,
        to: u32,
    },
}

/// Thompson's NFA with character-set edges and lookahead edges.
#[derive(Debug, Default)]
pub(crate) struct Nfa {
    edges: Vec<Vec<Edge>>,
    sets: Vec<CharSet>,
}

impl Nfa {
    fn state(&mut self) -> Result<u32, String> {
        if self.edges.len() >= MAX_STATES {
            return Err(format!(
                "the automaton has more than {MAX_STATES} states (repetitions unrolled)"
            ));
        }
        self.edges.push(Vec::new());
        Ok((self.edges.len() - 1) as u32)
    }

    fn eps(&mut self, a: u32, b: u32) {
        self.edges[a as usize].push(Edge::Eps(b));
    }

    fn chars(&mut self, a: u32, set: CharSet) -> Result<u32, String> {
        let b = self.state()?;
        self.sets.push(set);
        let i = (self.sets.len() - 1) as u32;
        self.edges[a as usize].push(Edge::Chars(i, b));
        Ok(b)
    }

    fn chain(&mut self, mut at: u32, text: &str, case_sensitive: bool) -> Result<u32, String> {
        for c in text.chars() {
            at = self.chars(at, fold(c, case_sensitive))?;
        }
        Ok(at)
    }
}

/// `c`, and its other ASCII case when `!case_sensitive`.
fn fold(c: char, case_sensitive: bool) -> CharSet {
    if case_sensitive || !c.is_ascii_alphabetic() {
        vec![(c as u32, c as u32)]
    } else {
        normalize(vec![
            (c.to_ascii_lowercase() as u32, c.to_ascii_lowercase() as u32),
            (c.to_ascii_uppercase() as u32, c.to_ascii_uppercase() as u32),
        ])
    }
}

/// An automaton and where its language starts and ends.
#[derive(Debug)]
pub(crate) struct Automaton {
    pub(crate) nfa: Nfa,
    pub(crate) start: u32,
    pub(crate) fin: u32,
}

/// The regular language of an ABNF rule, or why it has none here (a
/// recursive reference, prose, an undefined rule, too many states).
pub(crate) fn abnf_automaton(g: &Grammar, rule: &str) -> Result<Automaton, String> {
    let node = &g
        .get(rule)
        .ok_or_else(|| format!("no ABNF rule {rule}"))?
        .node;
    let mut b = AbnfBuilder {
        g,
        nfa: Nfa::default(),
        stack: Vec::new(),
    };
    let start = b.nfa.state()?;
    b.stack.push(rule.to_ascii_lowercase());
    let fin = b.node(node, start)?;
    Ok(Automaton {
        nfa: b.nfa,
        start,
        fin,
    })
}

struct AbnfBuilder<'a> {
    g: &'a Grammar,
    nfa: Nfa,
    /// The rules being inlined (lowercase), to refuse recursion.
    stack: Vec<String>,
}

impl AbnfBuilder<'_> {
    fn node(&mut self, node: &Node, from: u32) -> Result<u32, String> {
        if let Some(set) = char_set(self.g, node) {
            return self.nfa.chars(from, set);
        }
        match node {
            Node::Alternation(alts) => {
                let t = self.nfa.state()?;
                for a in alts {
                    let s = self.nfa.state()?;
                    self.nfa.eps(from, s);
                    let x = self.node(a, s)?;
                    self.nfa.eps(x, t);
                }
                Ok(t)
            }
            Node::Concatenation(parts) => {
                let mut at = from;
                for p in parts {
                    at = self.node(p, at)?;
                }
                Ok(at)
            }
            Node::Repetition { min, max, node } => {
                if *max == Some(0) {
                    return Ok(from);
                }
                let mut at = from;
                for _ in 0..*min {
                    at = self.node(node, at)?;
                }
                match max {
                    None => {
                        let h = self.nfa.state()?;
                        self.nfa.eps(at, h);
                        let s = self.nfa.state()?;
                        self.nfa.eps(h, s);
                        let x = self.node(node, s)?;
                        self.nfa.eps(x, h);
                        let t = self.nfa.state()?;
                        self.nfa.eps(h, t);
                        Ok(t)
                    }
                    Some(max) => {
                        let t = self.nfa.state()?;
                        for _ in *min..*max {
                            self.nfa.eps(at, t);
                            at = self.node(node, at)?;
                        }
                        self.nfa.eps(at, t);
                        Ok(t)
                    }
                }
            }
            Node::Chars {
                text,
                case_sensitive,
            } => self.nfa.chain(from, text, *case_sensitive),
            Node::Range(a, b) => self.nfa.chars(from, normalize(vec![(*a, *b)])),
            Node::Sequence(v) => {
                let mut at = from;
                for &c in v {
                    at = self.nfa.chars(at, vec![(c, c)])?;
                }
                Ok(at)
            }
            Node::Rule(name) => {
                let key = name.to_ascii_lowercase();
                if self.stack.contains(&key) {
                    return Err(format!(
                        "rule {name} refers to itself: not a regular language"
                    ));
                }
                let g = self.g;
                let rule = g.get(name).ok_or_else(|| format!("no ABNF rule {name}"))?;
                self.stack.push(key);
                let out = self.node(&rule.node, from);
                self.stack.pop();
                out
            }
            Node::Prose(p) => Err(format!("prose <{p}> has no automaton")),
        }
    }
}

/// Where a condition's language ends: the rule's end (the whole input must
/// be consumed), or a lookahead's end (anything may follow).
#[derive(Clone, Copy, Debug)]
struct Root {
    fin: u32,
    prefix: bool,
}

/// What a PEG node must satisfy for the regular reading to be its language.
///
/// For an ordered choice `e1 | e2` (an option `e?` is `e | ""`, a step of a
/// repetition `e*` is `e ~ e* | ""`) followed by the rest of the rule, whose
/// language is K: PEG takes `e1` whenever `e1` matches a prefix of the
/// input, so a string of `L(e2) K` that is not in `L(e1) K` is lost if `e1`
/// matches a prefix of it. The condition is that no string is in
/// `L(e1) Σ*` (over-approximating where `e1` succeeds) and in `L(e2) K` but
/// not in `L(e1) K`. When every node satisfies it (and each repeated
/// expression consumes something), the PEG matches a string if and only if
/// the regular reading does: by induction on the rest of the input.
#[derive(Clone, Debug)]
pub(crate) struct Cond {
    /// Entry and exit of `e1` (the repeated expression for a repetition).
    entry: u32,
    exit: u32,
    /// Entry of the second alternative (for an option or a repetition, the
    /// node's exit: the rest of the rule).
    other: u32,
    root: usize,
    /// A repetition, whose expression must consume something.
    rep: bool,
    /// The node, for reports: the rule it is in and what kind it is.
    pub(crate) what: String,
}

/// A pest rule read as a regular language, with the conditions under which
/// that reading is exact.
#[derive(Debug)]
pub(crate) struct PestAutomaton {
    pub(crate) automaton: Automaton,
    conds: Vec<Cond>,
    roots: Vec<Root>,
}

/// The automaton of pest rule `rule` of `rules` (pest_meta's optimized
/// expressions, by name), or why there is none (recursion, the stack,
/// Unicode properties, implicit whitespace).
pub(crate) fn pest_automaton(
    rules: &HashMap<String, OptimizedExpr>,
    rule: &str,
) -> Result<PestAutomaton, String> {
    if rules.contains_key("WHITESPACE") || rules.contains_key("COMMENT") {
        return Err("implicit WHITESPACE or COMMENT between terms is not modelled".into());
    }
    let body = rules
        .get(rule)
        .ok_or_else(|| format!("no pest rule {rule}"))?;
    let mut b = PestBuilder {
        rules,
        nfa: Nfa::default(),
        stack: vec![rule.to_string()],
        conds: Vec::new(),
        roots: vec![Root {
            fin: 0,
            prefix: false,
        }],
        root: 0,
        classes: HashMap::new(),
    };
    let start = b.nfa.state()?;
    let fin = b.expr(body, start)?;
    b.roots[0].fin = fin;
    Ok(PestAutomaton {
        automaton: Automaton {
            nfa: b.nfa,
            start,
            fin,
        },
        conds: b.conds,
        roots: b.roots,
    })
}

/// The character ranges of pest's built-in ASCII classes (`ASCII_DIGIT`,
/// `ASCII_HEX_DIGIT`, ..., `ASCII`), by name.
pub(crate) fn ascii_class(name: &str) -> Option<&'static [(char, char)]> {
    Some(match name {
        "ASCII_DIGIT" => &[('0', '9')],
        "ASCII_NONZERO_DIGIT" => &[('1', '9')],
        "ASCII_BIN_DIGIT" => &[('0', '1')],
        "ASCII_OCT_DIGIT" => &[('0', '7')],
        "ASCII_HEX_DIGIT" => &[('0', '9'), ('a', 'f'), ('A', 'F')],
        "ASCII_ALPHA_LOWER" => &[('a', 'z')],
        "ASCII_ALPHA_UPPER" => &[('A', 'Z')],
        "ASCII_ALPHA" => &[('a', 'z'), ('A', 'Z')],
        "ASCII_ALPHANUMERIC" => &[('a', 'z'), ('A', 'Z'), ('0', '9')],
        "ASCII" => &[('\0', '\x7f')],
        _ => return None,
    })
}

/// pest's built-in rules that match one character of a set.
pub(crate) fn builtin_class(name: &str) -> Option<CharSet> {
    let v: &[(char, char)] = match name {
        "ANY" => &[('\0', '\u{10FFFF}')],
        _ => ascii_class(name)?,
    };
    Some(normalize(
        v.iter().map(|&(a, b)| (a as u32, b as u32)).collect(),
    ))
}

struct PestBuilder<'a> {
    rules: &'a HashMap<String, OptimizedExpr>,
    nfa: Nfa,
    stack: Vec<String>,
    conds: Vec<Cond>,
    roots: Vec<Root>,
    root: usize,
    /// The character set of each rule whose language is one (`None`: not).
    classes: HashMap<String, Option<CharSet>>,
}

impl PestBuilder<'_> {
    /// The set of characters `e` matches when it matches exactly one
    /// character of a set: then PEG and regular readings agree.
    fn class(&mut self, e: &OptimizedExpr) -> Option<CharSet> {
        let one = |s: &str| {
            let mut it = s.chars();
            match (it.next(), it.next()) {
                (Some(c), None) => Some(c),
                _ => None,
            }
        };
        match e {
            OptimizedExpr::Str(s) => one(s).map(|c| vec![(c as u32, c as u32)]),
            OptimizedExpr::Insens(s) => one(s).map(|c| fold(c, false)),
            OptimizedExpr::Range(a, b) => Some(normalize(vec![(one(a)? as u32, one(b)? as u32)])),
            OptimizedExpr::Choice(a, b) => {
                let mut s = self.class(a)?;
                s.extend(self.class(b)?);
                Some(normalize(s))
            }
            OptimizedExpr::RestoreOnErr(a) => self.class(a),
            OptimizedExpr::Ident(name) => {
                if let Some(body) = self.rules.get(name) {
                    if let Some(known) = self.classes.get(name) {
                        return known.clone();
                    }
                    self.classes.insert(name.clone(), None);
                    let set = self.class(body);
                    self.classes.insert(name.clone(), set.clone());
                    set
                } else {
                    builtin_class(name)
                }
            }
            _ => None,
        }
    }

    fn cond(&mut self, entry: u32, exit: u32, other: u32, kind: &str) {
        let what = format!("{kind} in {}", self.stack.join(" > "));
        self.conds.push(Cond {
            entry,
            exit,
            other,
            root: self.root,
            rep: kind == "a repetition",
            what,
        });
    }

    fn expr(&mut self, e: &OptimizedExpr, from: u32) -> Result<u32, String> {
        if let Some(set) = self.class(e) {
            return self.nfa.chars(from, set);
        }
        match e {
            OptimizedExpr::Str(s) => self.nfa.chain(from, s, true),
            OptimizedExpr::Insens(s) => self.nfa.chain(from, s, false),
            OptimizedExpr::Ident(name) => match self.rules.get(name) {
                Some(body) => {
                    if self.stack.contains(name) {
                        return Err(format!(
                            "rule {name} refers to itself: not a regular language"
                        ));
                    }
                    self.stack.push(name.clone());
                    let out = self.expr(body, from);
                    self.stack.pop();
                    out
                }
                None if name == "EOI" => self.pred(true, &OptimizedExpr::Ident("ANY".into()), from),
                None if name == "NEWLINE" => {
                    let s = |t: &str| Box::new(OptimizedExpr::Str(t.into()));
                    let nl = OptimizedExpr::Choice(
                        s("\n"),
                        Box::new(OptimizedExpr::Choice(s("\r\n"), s("\r"))),
                    );
                    self.expr(&nl, from)
                }
                None => Err(format!("the built-in rule {name} is not modelled")),
            },
            OptimizedExpr::PosPred(x) => self.pred(false, x, from),
            OptimizedExpr::NegPred(x) => self.pred(true, x, from),
            OptimizedExpr::Seq(a, b) => {
                let m = self.expr(a, from)?;
                self.expr(b, m)
            }
            OptimizedExpr::Choice(a, b) => {
                let s1 = self.nfa.state()?;
                let x1 = self.expr(a, s1)?;
                let s2 = self.nfa.state()?;
                let x2 = self.expr(b, s2)?;
                let t = self.nfa.state()?;
                self.nfa.eps(from, s1);
                self.nfa.eps(from, s2);
                self.nfa.eps(x1, t);
                self.nfa.eps(x2, t);
                self.cond(s1, x1, s2, "a choice");
                Ok(t)
            }
            OptimizedExpr::Opt(a) => {
                let s = self.nfa.state()?;
                let x = self.expr(a, s)?;
                let t = self.nfa.state()?;
                self.nfa.eps(from, s);
                self.nfa.eps(x, t);
                self.nfa.eps(from, t);
                self.cond(s, x, t, "an option");
                Ok(t)
            }
            OptimizedExpr::Rep(a) => {
                let h = self.nfa.state()?;
                self.nfa.eps(from, h);
                let s = self.nfa.state()?;
                let x = self.expr(a, s)?;
                self.nfa.eps(h, s);
                self.nfa.eps(x, h);
                let t = self.nfa.state()?;
                self.nfa.eps(h, t);
                self.cond(s, x, t, "a repetition");
                Ok(t)
            }
            OptimizedExpr::RestoreOnErr(a) => self.expr(a, from),
            OptimizedExpr::Range(..) => Err("a range of strings longer than a character".into()),
            _ => Err("the stack (PUSH, PEEK, POP, DROP) or skips are not modelled".into()),
        }
    }

    /// `&x` (`neg: false`) or `!x`: a sub-automaton for `x`, checked on the
    /// rest of the input by every thread that passes here.
    fn pred(&mut self, neg: bool, x: &OptimizedExpr, from: u32) -> Result<u32, String> {
        if self.root != 0 {
            return Err("a lookahead inside a lookahead is not modelled".into());
        }
        let start = self.nfa.state()?;
        self.roots.push(Root {
            fin: 0,
            prefix: true,
        });
        self.root = self.roots.len() - 1;
        let fin = self.expr(x, start);
        let root = self.root;
        self.root = 0;
        let fin = fin?;
        self.roots[root].fin = fin;
        let to = self.nfa.state()?;
        self.nfa.edges[from as usize].push(Edge::Pred {
            neg,
            start,
            fin,
            to,
        });
        Ok(to)
    }
}

/// A pending lookahead of a thread: the states its sub-automaton is in.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Obl {
    neg: bool,
    fin: u32,
    set: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Thread {
    state: u32,
    obls: Vec<Obl>,
}

/// A state of the lazily determinized automaton: its threads, and (for a
/// prefix run) whether the target was reached with nothing pending.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct DState {
    threads: Vec<Thread>,
    reached: bool,
}

/// One automaton run over the input: from `start`, accepting when `target`
/// is reached at the end of the input, or (`prefix`) at any point, anything
/// following. Without `preds`, lookaheads are ignored (always pass).
#[derive(Clone, Copy)]
struct Run<'a> {
    nfa: &'a Nfa,
    start: u32,
    target: u32,
    prefix: bool,
    preds: bool,
}

impl Run<'_> {
    fn plain_closure(&self, set: &mut Vec<u32>) {
        let mut seen: Set<u32> = set.iter().copied().collect();
        let mut todo = set.clone();
        while let Some(s) = todo.pop() {
            for e in &self.nfa.edges[s as usize] {
                if let Edge::Eps(b) = e
                    && seen.insert(*b)
                {
                    set.push(*b);
                    todo.push(*b);
                }
            }
        }
        set.sort_unstable();
        set.dedup();
    }

    /// Settles a lookahead: `Some(true)` passed (drop it), `Some(false)`
    /// failed (drop the thread), `None` still open.
    fn settle(o: &Obl) -> Option<bool> {
        if o.set.binary_search(&o.fin).is_ok() {
            Some(!o.neg)
        } else if o.set.is_empty() {
            Some(o.neg)
        } else {
            None
        }
    }

    fn closure(&self, threads: Vec<Thread>, reached: &mut bool) -> Vec<Thread> {
        // Threads without lookaheads (nearly all) are told apart by state.
        let mut plain: Set<u32> = Set::default();
        let mut seen: Set<Thread> = Set::default();
        let mut out = Vec::new();
        let mut todo = threads;
        while let Some(t) = todo.pop() {
            let new = if t.obls.is_empty() {
                plain.insert(t.state)
            } else {
                seen.insert(t.clone())
            };
            if !new {
                continue;
            }
            if self.prefix && t.state == self.target {
                if t.obls.is_empty() {
                    *reached = true;
                } else {
                    todo.push(Thread {
                        state: ACCEPTED,
                        obls: t.obls,
                    });
                }
                continue;
            }
            if t.state == ACCEPTED {
                if t.obls.is_empty() {
                    *reached = true;
                } else {
                    out.push(t);
                }
                continue;
            }
            for e in &self.nfa.edges[t.state as usize] {
                match e {
                    Edge::Eps(b) => todo.push(Thread {
                        state: *b,
                        obls: t.obls.clone(),
                    }),
                    Edge::Pred { to, .. } if !self.preds => todo.push(Thread {
                        state: *to,
                        obls: t.obls.clone(),
                    }),
                    Edge::Pred {
                        neg,
                        start,
                        fin,
                        to,
                    } => {
                        let mut set = vec![*start];
                        self.plain_closure(&mut set);
                        let o = Obl {
                            neg: *neg,
                            fin: *fin,
                            set,
                        };
                        match Run::settle(&o) {
                            Some(false) => {}
                            Some(true) => todo.push(Thread {
                                state: *to,
                                obls: t.obls.clone(),
                            }),
                            None => {
                                let mut obls = t.obls.clone();
                                obls.push(o);
                                obls.sort();
                                obls.dedup();
                                todo.push(Thread { state: *to, obls });
                            }
                        }
                    }
                    Edge::Chars(..) => {}
                }
            }
            // Only a thread that can read a character, or that ends the
            // rule, matters from here on: the others have been followed.
            let reads = self.nfa.edges[t.state as usize]
                .iter()
                .any(|e| matches!(e, Edge::Chars(..)));
            if reads || t.state == self.target {
                out.push(t);
            }
        }
        out.sort();
        out.dedup();
        out
    }

    fn first(&self) -> DState {
        let mut reached = false;
        let threads = self.closure(
            vec![Thread {
                state: self.start,
                obls: Vec::new(),
            }],
            &mut reached,
        );
        DState { threads, reached }
    }

    fn step_set(&self, set: &[u32], c: u32) -> Vec<u32> {
        let mut next = Vec::new();
        for &s in set {
            for e in &self.nfa.edges[s as usize] {
                if let Edge::Chars(i, b) = e
                    && super::language::contains(&self.nfa.sets[*i as usize], c)
                {
                    next.push(*b);
                }
            }
        }
        self.plain_closure(&mut next);
        next
    }

    fn step(&self, d: &DState, c: u32) -> DState {
        let mut next = Vec::new();
        for t in &d.threads {
            // The lookaheads move on with the character.
            let mut obls = Vec::new();
            let mut dead = false;
            for o in &t.obls {
                let o = Obl {
                    neg: o.neg,
                    fin: o.fin,
                    set: self.step_set(&o.set, c),
                };
                match Run::settle(&o) {
                    Some(true) => {}
                    Some(false) => dead = true,
                    None => obls.push(o),
                }
            }
            if dead {
                continue;
            }
            if t.state == ACCEPTED {
                next.push(Thread {
                    state: ACCEPTED,
                    obls,
                });
                continue;
            }
            for e in &self.nfa.edges[t.state as usize] {
                if let Edge::Chars(i, b) = e
                    && super::language::contains(&self.nfa.sets[*i as usize], c)
                {
                    next.push(Thread {
                        state: *b,
                        obls: obls.clone(),
                    });
                }
            }
        }
        let mut reached = d.reached;
        let threads = self.closure(next, &mut reached);
        DState { threads, reached }
    }

    /// Whether the input read so far is accepted, if it ends here.
    fn accepts(&self, d: &DState) -> bool {
        if self.prefix {
            d.reached
                || d.threads
                    .iter()
                    .any(|t| t.state == ACCEPTED && t.obls.iter().all(|o| o.neg))
        } else {
            d.threads
                .iter()
                .any(|t| t.state == self.target && t.obls.iter().all(|o| o.neg))
        }
    }

    fn alive(&self, d: &DState) -> bool {
        d.reached || !d.threads.is_empty()
    }

    /// The ends of the character sets this state's edges test: where the
    /// answer to "which edges does the character take" can change.
    fn bounds(&self, d: &DState, out: &mut Vec<u32>) {
        let mut add = |s: u32| {
            if s == ACCEPTED {
                return;
            }
            for e in &self.nfa.edges[s as usize] {
                if let Edge::Chars(i, _) = e {
                    for &(a, b) in &self.nfa.sets[*i as usize] {
                        out.push(a);
                        out.push(b + 1);
                    }
                }
            }
        };
        for t in &d.threads {
            add(t.state);
            for o in &t.obls {
                for &s in &o.set {
                    add(s);
                }
            }
        }
    }
}

/// The result of a [`search`]: per class, the first (shortest) string found.
enum Found {
    Strings(Vec<Option<String>>),
    /// Gave up after [`MAX_EXPLORED`] states: nothing decided.
    TooBig,
}

/// A character of the class `lo..hi` (inclusive) to show: printable ASCII
/// when the class has some.
fn representative(lo: u32, hi: u32) -> Option<char> {
    let printable = (lo.max(0x21), hi.min(0x7E));
    let c = if printable.0 <= printable.1 {
        // Letters and digits read best.
        (printable.0..=printable.1)
            .find(|&c| char::from_u32(c).is_some_and(|c| c.is_ascii_alphanumeric()))
            .unwrap_or(printable.0)
    } else {
        lo
    };
    char::from_u32(c)
}

/// The states of one run met in a search, and its transitions so far.
#[derive(Default)]
struct Table {
    ids: Map<Rc<DState>, u32>,
    states: Vec<Rc<DState>>,
    steps: Map<(u32, u32), u32>,
}

impl Table {
    fn intern(&mut self, d: DState) -> u32 {
        if let Some(&i) = self.ids.get(&d) {
            return i;
        }
        let i = self.states.len() as u32;
        let d = Rc::new(d);
        self.states.push(d.clone());
        self.ids.insert(d, i);
        i
    }

    fn step(&mut self, run: &Run<'_>, id: u32, c: u32) -> u32 {
        if let Some(&n) = self.steps.get(&(id, c)) {
            return n;
        }
        let d = self.states[id as usize].clone();
        let n = self.intern(run.step(&d, c));
        self.steps.insert((id, c), n);
        n
    }
}

/// Breadth-first search over the product of `runs`: every string (shortest
/// first) whose acceptance vector `goal` puts in a class; a product state
/// whose liveness and acceptance `viable` rejects is not extended, nor one
/// where run `covered.0` has no thread that run `covered.1` has not (then
/// whatever the first accepts from there on, the second does too).
fn search(
    runs: &[Run<'_>],
    classes: usize,
    goal: impl Fn(&[bool]) -> Option<usize>,
    viable: impl Fn(&[bool], &[bool]) -> bool,
    covered: Option<(usize, usize)>,
) -> Found {
    let mut tables: Vec<Table> = runs.iter().map(|_| Table::default()).collect();
    let mut found: Vec<Option<String>> = vec![None; classes];
    let mut seen: Set<Vec<u32>> = Set::default();
    // (product state, parent index, character)
    let mut nodes: Vec<(Vec<u32>, usize, char)> = Vec::new();
    let first: Vec<u32> = runs
        .iter()
        .zip(tables.iter_mut())
        .map(|(r, t)| t.intern(r.first()))
        .collect();
    seen.insert(first.clone());
    nodes.push((first, usize::MAX, '\0'));
    let mut queue = VecDeque::from([0usize]);
    let text = |nodes: &[(Vec<u32>, usize, char)], mut i: usize| {
        let mut s = Vec::new();
        while nodes[i].1 != usize::MAX {
            s.push(nodes[i].2);
            i = nodes[i].1;
        }
        s.into_iter().rev().collect::<String>()
    };
    while let Some(i) = queue.pop_front() {
        let ids = nodes[i].0.clone();
        let ds: Vec<Rc<DState>> = ids
            .iter()
            .zip(&tables)
            .map(|(&id, t)| t.states[id as usize].clone())
            .collect();
        let acc: Vec<bool> = runs.iter().zip(&ds).map(|(r, d)| r.accepts(d)).collect();
        let alive: Vec<bool> = runs.iter().zip(&ds).map(|(r, d)| r.alive(d)).collect();
        if let Some(c) = goal(&acc)
            && found[c].is_none()
        {
            found[c] = Some(text(&nodes, i));
            if found.iter().all(Option::is_some) {
                break;
            }
        }
        if !viable(&alive, &acc) {
            continue;
        }
        if let Some((x, y)) = covered {
            let (dx, dy) = (&ds[x], &ds[y]);
            let sub = dy.reached && runs[y].prefix
                || (!(dx.reached && runs[x].prefix)
                    && dx
                        .threads
                        .iter()
                        .all(|t| dy.threads.binary_search(t).is_ok()));
            if sub {
                continue;
            }
        }
        if nodes.len() > MAX_EXPLORED {
            return Found::TooBig;
        }
        let mut cuts = vec![0, 0xD800, 0xE000, 0x11_0000];
        for (r, d) in runs.iter().zip(&ds) {
            r.bounds(d, &mut cuts);
        }
        cuts.retain(|&c| c <= 0x11_0000);
        cuts.sort_unstable();
        cuts.dedup();
        for w in cuts.windows(2) {
            let (lo, hi) = (w[0], w[1] - 1);
            if (0xD800..0xE000).contains(&lo) {
                continue;
            }
            let Some(c) = representative(lo, hi) else {
                continue;
            };
            let next: Vec<u32> = runs
                .iter()
                .zip(tables.iter_mut())
                .zip(&ids)
                .map(|((r, t), &id)| t.step(r, id, c as u32))
                .collect();
            if !seen.insert(next.clone()) {
                continue;
            }
            queue.push_back(nodes.len());
            nodes.push((next, i, c));
        }
    }
    Found::Strings(found)
}

/// How a pest rule's automaton compares with the ABNF rule's.
#[derive(Debug, Default)]
pub(crate) struct Comparison {
    /// Whether the comparison finished (else nothing below is known).
    pub(crate) decided: bool,
    /// A shortest string the pest automaton accepts and the ABNF does not.
    pub(crate) pest_only: Option<String>,
    /// A shortest string the ABNF accepts and the pest automaton does not.
    pub(crate) abnf_only: Option<String>,
}

/// Compares the languages of `pest` (read as a regular expression, see
/// [`PestAutomaton`]) and `abnf`.
pub(crate) fn compare(pest: &PestAutomaton, abnf: &Automaton) -> Comparison {
    let p = &pest.automaton;
    let runs = [
        Run {
            nfa: &p.nfa,
            start: p.start,
            target: p.fin,
            prefix: false,
            preds: true,
        },
        Run {
            nfa: &abnf.nfa,
            start: abnf.start,
            target: abnf.fin,
            prefix: false,
            preds: true,
        },
    ];
    let goal = |acc: &[bool]| match (acc[0], acc[1]) {
        (true, false) => Some(0),
        (false, true) => Some(1),
        _ => None,
    };
    match search(&runs, 2, goal, |alive, _| alive[0] || alive[1], None) {
        Found::Strings(mut v) => Comparison {
            decided: true,
            abnf_only: v.pop().flatten(),
            pest_only: v.pop().flatten(),
        },
        Found::TooBig => Comparison::default(),
    }
}

/// The conditions of `pest` that do not hold (or could not be decided),
/// each with a test string on which the PEG may part from the regular
/// reading (a shortest way into the node, then a witness of the failed
/// condition) when one was found.
pub(crate) fn failed_conds(pest: &PestAutomaton) -> Vec<(String, Option<String>)> {
    let nfa = &pest.automaton.nfa;
    let mut out = Vec::new();
    let mut prefixes: HashMap<u32, Option<String>> = HashMap::new();
    for c in &pest.conds {
        let root = pest.roots[c.root];
        let a = Run {
            nfa,
            start: c.entry,
            target: c.exit,
            prefix: true,
            preds: true,
        };
        // Each repeated expression must consume something.
        if c.rep && a.first().reached {
            out.push((format!("{} can match the empty string", c.what), None));
            continue;
        }
        if c.rep || !nullable(nfa, c.entry, c.exit) {
            let (a_first, _) = first_chars(nfa, c.entry, c.exit);
            let (b_first, b_empty) = first_chars(nfa, c.other, root.fin);
            // No string in both: e1 needs a first character, which the rest
            // after e2 never starts with (nor is empty, when e1 needs one).
            if !intersects(&a_first, &b_first) {
                let _ = b_empty;
                continue;
            }
        }
        let rest = |start| Run {
            nfa,
            start,
            target: root.fin,
            prefix: root.prefix,
            preds: true,
        };
        let runs = [a, rest(c.other), rest(c.entry)];
        let found = search(
            &runs,
            1,
            |acc| (acc[0] && acc[1] && !acc[2]).then_some(0),
            |alive, _| alive[0] && alive[1],
            Some((1, 2)),
        );
        let witness = match found {
            Found::Strings(v) => match v.into_iter().next().flatten() {
                None => continue,
                Some(w) => Some(w),
            },
            Found::TooBig => None,
        };
        let what = match &witness {
            Some(w) => format!("{}: PEG commits early on {w:?}", c.what),
            None => format!("{}: undecided (too many states)", c.what),
        };
        // A test string for the whole rule: into the node, then the witness.
        let whole = match (&witness, c.root) {
            (Some(w), 0) => prefixes
                .entry(c.entry)
                .or_insert_with(|| way_into(pest, c.entry))
                .as_ref()
                .map(|p| format!("{p}{w}")),
            _ => None,
        };
        out.push((what, whole));
    }
    out
}

/// The states reachable from `from` without reading (lookaheads passed).
fn eps_reach(nfa: &Nfa, from: u32, stop: u32) -> Vec<u32> {
    let mut seen = HashSet::from([from]);
    let mut todo = vec![from];
    while let Some(s) = todo.pop() {
        if s == stop {
            continue;
        }
        for e in &nfa.edges[s as usize] {
            if let Edge::Eps(b) | Edge::Pred { to: b, .. } = e
                && seen.insert(*b)
            {
                todo.push(*b);
            }
        }
    }
    seen.into_iter().collect()
}

/// Whether `to` is reachable from `from` without reading (lookaheads
/// ignored: an over-approximation).
fn nullable(nfa: &Nfa, from: u32, to: u32) -> bool {
    eps_reach(nfa, from, to).contains(&to)
}

/// The characters a string from `from` (towards `to`) can start with,
/// lookaheads ignored (an over-approximation), and whether `to` is reached
/// without any.
fn first_chars(nfa: &Nfa, from: u32, to: u32) -> (CharSet, bool) {
    let reach = eps_reach(nfa, from, to);
    let mut set = Vec::new();
    for &s in &reach {
        for e in &nfa.edges[s as usize] {
            if let Edge::Chars(i, _) = e {
                set.extend_from_slice(&nfa.sets[*i as usize]);
            }
        }
    }
    (normalize(set), reach.contains(&to))
}

/// Whether two sorted, disjoint range lists share a code point.
fn intersects(a: &CharSet, b: &CharSet) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i].1 < b[j].0 {
            i += 1;
        } else if b[j].1 < a[i].0 {
            j += 1;
        } else {
            return true;
        }
    }
    false
}

/// A shortest input that takes the rule's automaton to `state`.
fn way_into(pest: &PestAutomaton, state: u32) -> Option<String> {
    let p = &pest.automaton;
    let run = Run {
        nfa: &p.nfa,
        start: p.start,
        target: state,
        prefix: true,
        preds: false,
    };
    match search(
        &[run],
        1,
        |acc| acc[0].then_some(0),
        |alive, _| alive[0],
        None,
    ) {
        Found::Strings(v) => v.into_iter().next().flatten(),
        Found::TooBig => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pest(text: &str) -> HashMap<String, OptimizedExpr> {
        let (_, rules) = pest_meta::parse_and_optimize(text).unwrap();
        rules.into_iter().map(|r| (r.name, r.expr)).collect()
    }

    fn verdict(text: &str, abnf: &str) -> (Comparison, Vec<(String, Option<String>)>) {
        let rules = pest(text);
        let p = pest_automaton(&rules, "a").unwrap();
        let g = Grammar::parse(abnf, "t.abnf").unwrap();
        let a = abnf_automaton(&g, "a").unwrap();
        (compare(&p, &a), failed_conds(&p))
    }

    #[test]
    fn equal_languages_are_decided() {
        let (c, conds) = verdict(
            "a = { ASCII_DIGIT+ ~ (\".\" ~ ASCII_DIGIT+)? }",
            "a = 1*DIGIT [ \".\" 1*DIGIT ]\nDIGIT = %x30-39\n",
        );
        assert!(c.decided && c.pest_only.is_none() && c.abnf_only.is_none());
        assert!(conds.is_empty(), "{conds:?}");
    }

    #[test]
    fn counterexamples_both_ways() {
        let (c, _) = verdict("a = { (ASCII_DIGIT | \"x\")* }", "a = *%x30-39\n");
        assert_eq!(c.pest_only.as_deref(), Some("x"));
        assert_eq!(c.abnf_only, None);
        let (c, _) = verdict("a = { ASCII_DIGIT{2} }", "a = 1*2%x30-39\n");
        assert_eq!(c.abnf_only.as_deref(), Some("0"));
    }

    #[test]
    fn peg_ordering_fails_its_condition() {
        // "1" | "12": the regular reading is {1, 12}, the PEG never matches "12".
        let (c, conds) = verdict("a = { (\"1\" | \"12\") }", "a = \"1\" / \"12\"\n");
        assert!(c.pest_only.is_none() && c.abnf_only.is_none());
        assert_eq!(conds.len(), 1, "{conds:?}");
        assert_eq!(conds[0].1.as_deref(), Some("12"));
        // The longer first: exact.
        let (_, conds) = verdict("a = { (\"12\" | \"1\") }", "a = \"1\" / \"12\"\n");
        assert!(conds.is_empty(), "{conds:?}");
        // A greedy repetition that takes what follows needs.
        let (_, conds) = verdict("a = { ASCII_DIGIT* ~ \"0\" }", "a = *%x30-39 \"0\"\n");
        assert_eq!(conds[0].1.as_deref(), Some("0"));
    }

    #[test]
    fn lookaheads_are_conditions_on_the_rest() {
        let (c, conds) = verdict(
            "a = { \"1\" ~ !\"2\" ~ ASCII_DIGIT | ASCII_DIGIT{2} }",
            "a = 2%x30-39\n",
        );
        assert!(c.decided && c.pest_only.is_none() && c.abnf_only.is_none());
        assert!(conds.is_empty(), "{conds:?}");
        let (c, _) = verdict("a = { ASCII_DIGIT ~ EOI }", "a = %x30-39\n");
        assert!(c.pest_only.is_none() && c.abnf_only.is_none());
    }

    #[test]
    fn not_regular_or_not_modelled() {
        let rules = pest("a = { \"(\" ~ a ~ \")\" | \"x\" }\nb = { PUSH(\"x\") ~ POP }");
        assert!(pest_automaton(&rules, "a").is_err());
        assert!(pest_automaton(&rules, "b").is_err());
        let g = Grammar::parse("a = \"(\" a \")\" / \"x\"\n", "t.abnf").unwrap();
        assert!(abnf_automaton(&g, "a").is_err());
    }
}
