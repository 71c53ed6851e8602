//! How long pest_meta would take to validate a grammar, decided before it
//! runs: a bound on its exponential walks.
//!
//! pest_meta's validator asks, of every repetition, every choice and every
//! rule, whether an expression can fail or consume nothing
//! (`is_non_failing`, `is_non_progressing`) and whether a rule reaches
//! itself without consuming (`left_recursion`). Each of those walks follows
//! rule references into the referenced rule's body every time it meets
//! one, remembering nothing between them: a rule that refers to the next
//! rule twice (`rK = { rK+1 | rK+1 ~ "a" }`) makes the walk from the first
//! of a chain of n such rules visit the last one 2^n times, and three
//! references 3^n times (12 such rules took 22 s in a debug build, 14 took
//! 377 s). (The optimizer's `skipper`, which inlines the strings an
//! atomic rule's `(!e ~ ANY)*` chooses between, follows the same paths, and
//! no more.) Nothing can interrupt pest_meta, so the lab counts those steps first, on its own copy of the
//! grammar's expressions, remembering each rule's answer and cost (linear
//! time), and refuses a grammar over [`MAX_VALIDATION_STEPS`].
//!
//! The count follows pest_meta 2.9's walks as written (their short
//! circuits, the expression each step clones): it is exact for a grammar
//! without left recursion, and bounds the work from above otherwise.

use std::collections::HashMap;

use pest::iterators::{Pair, Pairs};
use pest_meta::parser::Rule as P;

use super::limits::thousands;

/// The most steps pest_meta's validator may take on a runtime
/// grammar, by the lab's count (a step is one expression visited or
/// cloned, or one string inlined). About a second in a debug build; the
/// built-in grammars take under 60,000.
pub const MAX_VALIDATION_STEPS: u64 = 10_000_000;

/// A step of the restorer (an expression visited, a rule looked up by name
/// in a hash map) against one of the validator's, as measured in a debug
/// build.
const RESTORER_STEP: u64 = 4;

/// One expression, as pest_meta's parser builds it (left-associated `~`
/// and `|`, postfix operators inside prefix ones).
#[derive(Clone, Copy)]
enum Kind {
    /// A string, case-sensitive or not: whether it is empty.
    Str(bool),
    /// A reference to a rule of the grammar, by index.
    Rule(usize),
    /// A built-in: whether it is `SOI` or `EOI` (which consume nothing).
    Builtin {
        soi_eoi: bool,
    },
    /// A character range, a `PEEK[..]` slice or a `PUSH_LITERAL`: leaves
    /// that the walks answer without looking further.
    Leaf {
        non_failing: bool,
    },
    PosPred(usize),
    NegPred(usize),
    Seq(usize, usize),
    Choice(usize, usize),
    Opt(usize),
    Rep(usize),
    RepOnce(usize),
    /// `e{n}`, `e{m,n}` (`false`) or `e{n,}` (`true`): the least count.
    RepAtLeast(usize, u32, bool),
    RepMax(usize),
    Push(usize),
}

impl Kind {
    /// The one subexpression of a predicate, option, repetition or push;
    /// `None` for a leaf, a rule reference, a sequence or a choice.
    fn only_child(self) -> Option<usize> {
        match self {
            Kind::PosPred(x)
            | Kind::NegPred(x)
            | Kind::Opt(x)
            | Kind::Rep(x)
            | Kind::RepOnce(x)
            | Kind::RepAtLeast(x, ..)
            | Kind::RepMax(x)
            | Kind::Push(x) => Some(x),
            Kind::Str(_)
            | Kind::Builtin { .. }
            | Kind::Leaf { .. }
            | Kind::Rule(_)
            | Kind::Seq(..)
            | Kind::Choice(..) => None,
        }
    }
}

struct Node {
    kind: Kind,
    /// Expressions in this one's subtree, itself included.
    size: u64,
}

/// The grammar's expressions, and each rule's name and body.
struct Grammar<'i> {
    nodes: Vec<Node>,
    rules: Vec<(&'i str, usize)>,
}

/// A rule's memoized answer and the steps pest_meta takes to reach it
/// from a reference (the reference included), or `Active` while it is
/// being computed (a reference back to it: pest_meta's trace stops there).
#[derive(Clone, Copy)]
enum Memo {
    Unknown,
    Active,
    Done(bool, u64),
}

/// Counts pest_meta's steps for the grammar `pairs` (as
/// `pest_meta::parser::parse` returns it, after `validate_pairs` passed)
/// and refuses a grammar over [`MAX_VALIDATION_STEPS`], naming the rule
/// whose checks take the most. Stops counting at the limit: the count
/// takes time linear in the grammar and in the limit.
pub(crate) fn check(pairs: Pairs<'_, P>, origin: &str) -> Result<(), String> {
    let g = Grammar::read(pairs);
    let mut c = Counter::new(&g);
    let mut worst = (0, 0);
    let mut total: u64 = 0;
    for (index, &(name, body)) in g.rules.iter().enumerate() {
        let steps = c.rule_checks(body, name, MAX_VALIDATION_STEPS.saturating_sub(total));
        total = total.saturating_add(steps);
        if steps > worst.1 {
            worst = (index, steps);
        }
        if total > MAX_VALIDATION_STEPS {
            break;
        }
    }
    if total <= MAX_VALIDATION_STEPS {
        return Ok(());
    }
    let (rule, body) = g.rules[worst.0];
    let paths = c.paths(body);
    // More paths than rules: some rule is reached along several.
    let why = if paths > g.rules.len() as u64 {
        format!(
            "rule {rule} reaches rules along {} paths of references, and pest_meta walks every path again for each question it asks (whether an expression can fail, whether it consumes, whether a rule is left-recursive); \
             refer to each rule once in a choice (`r ~ \"a\"?` rather than `r | r ~ \"a\"`)",
            steps_text(paths)
        )
    } else {
        "pest_meta walks the rules an expression refers to again for each question it asks, from every rule: a long chain of rules that refer to each other costs the square of its length or more".into()
    };
    Err(format!(
        "{origin}: rule {rule}: loading the grammar would take pest_meta's validator and optimizer more than {} steps (the lab's limit), the most of them for rule {rule}: {why}",
        thousands(MAX_VALIDATION_STEPS)
    ))
}

fn steps_text(n: u64) -> String {
    if n == u64::MAX {
        "more than 18,446,744,073,709,551,614".into()
    } else {
        thousands(n)
    }
}

impl<'i> Grammar<'i> {
    fn read(pairs: Pairs<'i, P>) -> Grammar<'i> {
        let rules: Vec<Pair<'i, P>> = pairs
            .filter(|p| p.as_rule() == P::grammar_rule)
            .filter(|p| {
                p.clone()
                    .into_inner()
                    .next()
                    .is_some_and(|i| i.as_rule() == P::identifier)
            })
            .collect();
        let index: HashMap<&str, usize> = rules
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.clone().into_inner().next().map(|n| (n.as_str(), i)))
            .collect();
        let mut g = Grammar {
            nodes: Vec::new(),
            rules: Vec::new(),
        };
        for rule in rules {
            let mut inner = rule.into_inner();
            let name = inner.next().map_or("", |n| n.as_str());
            let body = inner
                .find(|p| p.as_rule() == P::expression)
                .map(|p| g.expression(p, &index));
            let body = body.unwrap_or_else(|| g.push(Kind::Str(true), &[]));
            g.rules.push((name, body));
        }
        g
    }

    fn push(&mut self, kind: Kind, children: &[usize]) -> usize {
        let size = children
            .iter()
            .fold(1u64, |s, &c| s.saturating_add(self.nodes[c].size));
        self.nodes.push(Node { kind, size });
        self.nodes.len() - 1
    }

    /// `term (op term)*`: `~` binds tighter than `|`, both to the left.
    fn expression(&mut self, pair: Pair<'i, P>, index: &HashMap<&str, usize>) -> usize {
        let mut choice: Option<usize> = None;
        let mut seq: Option<usize> = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                P::term => {
                    let t = self.term(p, index);
                    seq = Some(match seq {
                        None => t,
                        Some(s) => self.push(Kind::Seq(s, t), &[s, t]),
                    });
                }
                // A leading `|` has no term before it.
                P::choice_operator => {
                    if let Some(s) = seq.take() {
                        choice = Some(match choice {
                            None => s,
                            Some(c) => self.push(Kind::Choice(c, s), &[c, s]),
                        });
                    }
                }
                _ => {}
            }
        }
        match (choice, seq) {
            (Some(c), Some(s)) => self.push(Kind::Choice(c, s), &[c, s]),
            (Some(x), None) | (None, Some(x)) => x,
            (None, None) => self.push(Kind::Str(true), &[]),
        }
    }

    /// Prefix operators, a primary, postfix operators: the postfix ones
    /// apply first.
    fn term(&mut self, pair: Pair<'i, P>, index: &HashMap<&str, usize>) -> usize {
        let mut prefixes = Vec::new();
        let mut node = None;
        for p in pair.into_inner() {
            let rule = p.as_rule();
            match rule {
                P::positive_predicate_operator | P::negative_predicate_operator => {
                    prefixes.push(rule);
                }
                P::expression => node = Some(self.expression(p, index)),
                P::_push => {
                    let inner = p
                        .into_inner()
                        .find(|q| q.as_rule() == P::expression)
                        .map(|e| self.expression(e, index));
                    let inner = inner.unwrap_or_else(|| self.push(Kind::Str(true), &[]));
                    node = Some(self.push(Kind::Push(inner), &[inner]));
                }
                P::_push_literal => node = Some(self.push(Kind::Leaf { non_failing: true }, &[])),
                P::peek_slice | P::range => {
                    node = Some(self.push(Kind::Leaf { non_failing: false }, &[]));
                }
                P::identifier => {
                    let name = p.as_str();
                    let kind = match index.get(name) {
                        Some(&r) => Kind::Rule(r),
                        None => Kind::Builtin {
                            soi_eoi: matches!(name, "SOI" | "EOI"),
                        },
                    };
                    node = Some(self.push(kind, &[]));
                }
                P::string | P::insensitive_string => {
                    // `"..."` or `^"..."`: empty when its inner text is.
                    let empty = p
                        .into_inner()
                        .flatten()
                        .filter(|q| q.as_rule() == P::inner_str)
                        .all(|q| q.as_str().is_empty());
                    node = Some(self.push(Kind::Str(empty), &[]));
                }
                _ => {
                    let Some(n) = node else { continue };
                    let min = || {
                        p.clone()
                            .into_inner()
                            .find(|q| q.as_rule() == P::number)
                            .and_then(|q| q.as_str().parse::<u32>().ok())
                            .unwrap_or(0)
                    };
                    let kind = match rule {
                        P::optional_operator => Kind::Opt(n),
                        P::repeat_operator => Kind::Rep(n),
                        P::repeat_once_operator => Kind::RepOnce(n),
                        P::repeat_exact | P::repeat_min_max => Kind::RepAtLeast(n, min(), false),
                        P::repeat_min => Kind::RepAtLeast(n, min(), true),
                        P::repeat_max => Kind::RepMax(n),
                        _ => continue,
                    };
                    node = Some(self.push(kind, &[n]));
                }
            }
        }
        let mut node = node.unwrap_or_else(|| self.push(Kind::Str(true), &[]));
        for op in prefixes.into_iter().rev() {
            let kind = if op == P::positive_predicate_operator {
                Kind::PosPred(node)
            } else {
                Kind::NegPred(node)
            };
            node = self.push(kind, &[node]);
        }
        node
    }
}

/// pest_meta's walks, counted: each returns its answer and its steps.
struct Counter<'g, 'i> {
    g: &'g Grammar<'i>,
    non_failing: Vec<Memo>,
    non_progressing: Vec<Memo>,
    /// The steps of `left_recursion`'s walk of each rule's body.
    left: Vec<Memo>,
    /// Paths of rule references from each rule (for the message).
    paths: Vec<Memo>,
    /// The restorer's walks: the rules one has reached, by its stamp.
    seen: Vec<u64>,
    stamp: u64,
}

impl<'g, 'i> Counter<'g, 'i> {
    fn new(g: &'g Grammar<'i>) -> Self {
        let n = g.rules.len();
        Counter {
            g,
            non_failing: vec![Memo::Unknown; n],
            non_progressing: vec![Memo::Unknown; n],
            left: vec![Memo::Unknown; n],
            paths: vec![Memo::Unknown; n],
            seen: vec![0; n],
            stamp: 0,
        }
    }

    fn kind(&self, n: usize) -> Kind {
        self.g.nodes[n].kind
    }

    /// The steps of pest_meta's checks that run over the rule with body
    /// `body`: `validate_repetition` and `validate_choices` (each clones
    /// every expression of the rule and asks its questions of every
    /// repetition and choice), `validate_whitespace_comment` and
    /// `left_recursion` from the rule.
    fn rule_checks(&mut self, body: usize, name: &str, budget: u64) -> u64 {
        let mut steps = self.g.nodes[body].size.saturating_mul(2);
        let mut todo = vec![body];
        while let Some(n) = todo.pop() {
            // Each expression of the rule is cloned where it is visited.
            steps = steps.saturating_add(self.g.nodes[n].size.saturating_mul(2));
            match self.kind(n) {
                Kind::Rep(x) | Kind::RepOnce(x) | Kind::RepAtLeast(x, _, true) => {
                    steps = steps.saturating_add(self.fail_or_progress(x));
                }
                Kind::Choice(l, _) => {
                    let asked = match self.kind(l) {
                        Kind::Choice(_, r) => r,
                        _ => l,
                    };
                    steps = steps.saturating_add(self.non_failing(asked).1);
                }
                _ => {}
            }
            self.children(n, &mut todo);
        }
        if matches!(name, "WHITESPACE" | "COMMENT") {
            steps = steps.saturating_add(self.fail_or_progress(body));
        }
        steps = steps.saturating_add(self.left_walk(body));
        let left = budget.saturating_sub(steps) / RESTORER_STEP + 1;
        steps.saturating_add(self.restorer(body, left).saturating_mul(RESTORER_STEP))
    }

    /// The expressions the optimizer's `restorer` walks in a rule: for each
    /// option, repetition and alternative of a choice, whether it can
    /// change pest's stack, following its rule references to the end (each
    /// rule once, but afresh for every question). Counted up to `budget`.
    fn restorer(&mut self, body: usize, budget: u64) -> u64 {
        let mut steps: u64 = 0;
        let mut todo = vec![body];
        while let Some(n) = todo.pop() {
            if steps > budget {
                break;
            }
            let asked: &[usize] = match self.kind(n) {
                Kind::Opt(x) | Kind::Rep(x) | Kind::RepOnce(x) | Kind::RepAtLeast(x, _, true) => {
                    &[x]
                }
                Kind::Choice(a, b) => &[a, b],
                _ => &[],
            };
            for &x in asked {
                steps = steps.saturating_add(self.reach(x, budget - steps.min(budget)));
            }
            self.children(n, &mut todo);
        }
        steps
    }

    /// The expressions under `n` and in the rules it reaches, each rule
    /// once: what one of the restorer's questions walks. Stops past
    /// `budget`.
    fn reach(&mut self, n: usize, budget: u64) -> u64 {
        self.stamp += 1;
        let mut steps: u64 = 0;
        let mut todo = vec![n];
        while let Some(m) = todo.pop() {
            steps += 1;
            if steps > budget {
                break;
            }
            if let Kind::Rule(r) = self.kind(m)
                && self.seen[r] != self.stamp
            {
                self.seen[r] = self.stamp;
                todo.push(self.g.rules[r].1);
            }
            self.children(m, &mut todo);
        }
        steps
    }

    /// Pushes the subexpressions of `n`.
    fn children(&self, n: usize, todo: &mut Vec<usize>) {
        match self.kind(n) {
            Kind::Seq(a, b) | Kind::Choice(a, b) => todo.extend([a, b]),
            Kind::PosPred(a)
            | Kind::NegPred(a)
            | Kind::Opt(a)
            | Kind::Rep(a)
            | Kind::RepOnce(a)
            | Kind::RepAtLeast(a, ..)
            | Kind::RepMax(a)
            | Kind::Push(a) => todo.push(a),
            _ => {}
        }
    }

    /// `is_non_failing`, then `is_non_progressing` when the first says no.
    fn fail_or_progress(&mut self, n: usize) -> u64 {
        let (fails_never, a) = self.non_failing(n);
        if fails_never {
            a
        } else {
            a.saturating_add(self.non_progressing(n).1)
        }
    }

    /// Rule `r`'s answer in `table`, from `walk` over its body the first
    /// time it is asked; `cycle` while that walk is under way (a reference
    /// back to the rule, where pest_meta's walk stops).
    fn memo(
        &mut self,
        r: usize,
        table: fn(&mut Self) -> &mut Vec<Memo>,
        cycle: (bool, u64),
        walk: fn(&mut Self, usize) -> (bool, u64),
    ) -> (bool, u64) {
        match table(self)[r] {
            Memo::Done(a, s) => (a, s),
            Memo::Active => cycle,
            Memo::Unknown => {
                table(self)[r] = Memo::Active;
                let (a, s) = walk(self, self.g.rules[r].1);
                table(self)[r] = Memo::Done(a, s);
                (a, s)
            }
        }
    }

    /// `is_non_failing`: whether the expression matches every input.
    fn non_failing(&mut self, n: usize) -> (bool, u64) {
        let (answer, steps) = match self.kind(n) {
            Kind::Str(empty) => (empty, 0),
            Kind::Rule(r) => self.memo(r, |m| &mut m.non_failing, (false, 0), Self::non_failing),
            Kind::Builtin { .. } | Kind::NegPred(_) => (false, 0),
            Kind::Leaf { non_failing } => (non_failing, 0),
            Kind::Opt(_) | Kind::Rep(_) | Kind::RepMax(_) | Kind::RepAtLeast(_, 0, _) => (true, 0),
            Kind::RepAtLeast(x, ..) | Kind::RepOnce(x) | Kind::Push(x) | Kind::PosPred(x) => {
                self.non_failing(x)
            }
            Kind::Seq(a, b) => self.both(a, b, true, Self::non_failing),
            Kind::Choice(a, b) => self.both(a, b, false, Self::non_failing),
        };
        (answer, steps.saturating_add(1))
    }

    /// `is_non_progressing`: whether the expression can match consuming
    /// nothing.
    fn non_progressing(&mut self, n: usize) -> (bool, u64) {
        let (answer, steps) = match self.kind(n) {
            Kind::Str(empty) => (empty, 0),
            Kind::Rule(r) => self.memo(
                r,
                |m| &mut m.non_progressing,
                (false, 0),
                Self::non_progressing,
            ),
            Kind::Builtin { soi_eoi } => (soi_eoi, 0),
            Kind::Leaf { non_failing } => (non_failing, 0),
            Kind::PosPred(_)
            | Kind::NegPred(_)
            | Kind::Opt(_)
            | Kind::Rep(_)
            | Kind::RepMax(_)
            | Kind::RepAtLeast(_, 0, _) => (true, 0),
            Kind::RepAtLeast(x, ..) | Kind::RepOnce(x) | Kind::Push(x) => self.non_progressing(x),
            Kind::Seq(a, b) => self.both(a, b, true, Self::non_progressing),
            Kind::Choice(a, b) => self.both(a, b, false, Self::non_progressing),
        };
        (answer, steps.saturating_add(1))
    }

    /// `a && b` (`and`) or `a || b`, short-circuited as pest_meta's are.
    fn both(
        &mut self,
        a: usize,
        b: usize,
        and: bool,
        walk: fn(&mut Self, usize) -> (bool, u64),
    ) -> (bool, u64) {
        let (x, s) = walk(self, a);
        if x != and {
            return (x, s);
        }
        let (y, t) = walk(self, b);
        (y, s.saturating_add(t))
    }

    /// The steps of `left_recursion`'s `check_expr` over an expression:
    /// it clones each expression it visits, follows rule references, and
    /// in a sequence asks whether the left side can match consuming nothing
    /// before it goes on to the right side.
    fn left_walk(&mut self, n: usize) -> u64 {
        let clone = self.g.nodes[n].size;
        let steps = match self.kind(n) {
            Kind::Rule(r) => {
                self.memo(
                    r,
                    |m| &mut m.left,
                    (false, 0),
                    |m, n| (false, m.left_walk(n)),
                )
                .1
            }
            Kind::Seq(a, b) => {
                let (nullable, asked) = {
                    let (x, s) = self.non_failing(a);
                    if x {
                        (true, s)
                    } else {
                        let (y, t) = self.non_progressing(a);
                        (y, s.saturating_add(t))
                    }
                };
                let mut s = asked.saturating_add(self.left_walk(a));
                if nullable {
                    s = s.saturating_add(self.left_walk(b));
                }
                s
            }
            Kind::Choice(a, b) => self.left_walk(a).saturating_add(self.left_walk(b)),
            kind => kind.only_child().map_or(0, |x| self.left_walk(x)),
        };
        steps.saturating_add(clone)
    }

    /// The paths of rule references from an expression, to any depth
    /// (each reference followed once per path, as pest_meta's walks do).
    fn paths(&mut self, n: usize) -> u64 {
        match self.kind(n) {
            Kind::Rule(r) => {
                let walk = |m: &mut Self, n| (false, m.paths(n).saturating_add(1));
                self.memo(r, |m| &mut m.paths, (false, 1), walk).1
            }
            Kind::Seq(a, b) | Kind::Choice(a, b) => self.paths(a).saturating_add(self.paths(b)),
            kind => kind.only_child().map_or(0, |x| self.paths(x)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The count, on the lab's thread (its walks recurse along chains of
    /// rules, as pest_meta's do).
    fn steps(text: &str) -> Result<(), String> {
        super::super::limits::on_big_stack(|| {
            let pairs = pest_meta::parser::parse(P::grammar_rules, text).unwrap();
            check(pairs, "t.pest")
        })
        .unwrap()
    }

    fn chain(n: usize, body: &str) -> String {
        let mut g = String::new();
        for k in 0..n {
            g.push_str(&format!(
                "r{k} = {{ {} }}\n",
                body.replace('N', &format!("r{}", k + 1))
            ));
        }
        g.push_str(&format!("r{n} = {{ \"b\" }}\n"));
        g
    }

    #[test]
    fn chains_that_branch_are_refused_and_others_pass() {
        // Three references to the next rule: 3^n paths.
        let e = steps(&chain(40, "N | N ~ \"a\" | N ~ \"c\"")).unwrap_err();
        assert!(e.starts_with("t.pest: rule r0: loading the grammar would take pest_meta's validator and optimizer more than 10,000,000 steps (the lab's limit), the most of them for rule r0: rule r0 reaches rules along "), "{e}");
        // A long chain: pest_meta's walks are quadratic in it.
        let e = steps(&chain(5000, "\"x\" ~ N | \"y\"")).unwrap_err();
        assert!(e.contains("a long chain of rules"), "{e}");
        // Short chains, and references that are not repeated, pass.
        steps(&chain(300, "\"x\" ~ N | \"y\"")).unwrap();
        steps(&chain(8, "N | N ~ \"a\" | N ~ \"c\"")).unwrap();
    }
}
