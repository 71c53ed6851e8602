//! A traced PEG interpreter: runs a [`PestGrammar`] the way pest does and
//! records every rule call and every alternative of every ordered choice it
//! tries, with where it started, whether it matched, and the span it matched
//! or where it failed. pest's generated parsers and pest_vm keep no such
//! record, so this walks pest_meta's AST itself (the grammar as written, so
//! that `alt 2/3` counts the alternatives the author wrote), with pest's
//! semantics: ordered choice, greedy repetition that never gives back,
//! lookaheads that consume nothing, implicit `WHITESPACE`/`COMMENT` between
//! the terms of non-atomic rules, atomic and silent rules.

use std::fmt::Write as _;
use std::sync::Arc;

use pest_meta::ast::{Expr, Rule as AstRule, RuleType};

use super::limits;
use super::runtime::{GrammarError, PestGrammar, RuntimeNode, RuntimeTree, spelling};

/// The events a trace records by default (see [`TraceOptions::max_events`]).
pub const DEFAULT_MAX_EVENTS: usize = 10_000;

/// The most nested steps (rule calls and the expressions inside them) a
/// trace follows before it stops without a verdict: 20,000 nested
/// parentheses of `a = { "(" ~ a ~ ")" | "x" }` are about 60,000.
pub const MAX_TRACE_DEPTH: usize = 100_000;

/// The most steps (expressions tried) a trace takes before it stops without
/// a verdict: a bound on time for grammars that backtrack exponentially.
/// The built-in grammars take a few dozen steps per character of input.
pub const MAX_TRACE_STEPS: u64 = 200_000_000;

/// Which attempts a [`Trace`] keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum TraceMode {
    /// Every rule call and alternative tried, matched or not.
    #[default]
    All,
    /// Only the attempts of the winning parse (what the parse tree is made
    /// of, silent rules and the alternatives taken included): failed and
    /// undone attempts are dropped as the parse backtracks over them.
    Won,
}

/// What to record: see [`PestGrammar::trace`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TraceOptions {
    /// Which attempts to keep.
    pub mode: TraceMode,
    /// The most events to record; the parse goes on past it (the verdict
    /// is always the whole parse's), and [`Trace::truncated`] says that
    /// events were left out.
    pub max_events: usize,
}

impl Default for TraceOptions {
    fn default() -> Self {
        TraceOptions {
            mode: TraceMode::All,
            max_events: DEFAULT_MAX_EVENTS,
        }
    }
}

impl TraceOptions {
    /// Every attempt, at most [`DEFAULT_MAX_EVENTS`].
    pub fn new() -> Self {
        TraceOptions::default()
    }

    /// Sets [`TraceOptions::mode`].
    pub fn mode(mut self, mode: TraceMode) -> Self {
        self.mode = mode;
        self
    }

    /// Sets [`TraceOptions::max_events`].
    pub fn max_events(mut self, max: usize) -> Self {
        self.max_events = max;
        self
    }
}

/// What a [`TraceEvent`] tried.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Attempt {
    /// A call of a rule of the grammar.
    Rule {
        /// The pest name (see [`spelling`] for the spec's).
        name: Arc<str>,
        /// Whether pest makes a pair of its match (a node of the parse
        /// tree): not for a silent rule (`_`), nor for a rule called inside
        /// an atomic rule (`@`) or a lookahead.
        pair: bool,
    },
    /// One alternative of an ordered choice (`a | b | c`).
    Alternative {
        /// The rule whose expression has the choice (pest name).
        rule: Arc<str>,
        /// Which alternative, from 1.
        index: usize,
        /// How many the choice has.
        count: usize,
        /// The alternative as pest syntax, cut to about 40 characters.
        expr: Arc<str>,
    },
}

/// One attempt of a [`Trace`]: a rule call or an alternative, where it
/// started and how it ended. Offsets are 0-based, in bytes and in
/// characters (Unicode scalar values).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TraceEvent {
    /// What was tried.
    pub attempt: Attempt,
    /// Nesting: 0 for the start rule, one more for each attempt inside.
    pub depth: usize,
    /// Byte offset where the attempt started.
    pub start: usize,
    /// Character offset where it started.
    pub start_char: usize,
    /// When it matched, the byte offset where the match ends; when it
    /// failed, the furthest offset where something inside it was tried
    /// and failed (where it failed).
    pub end: usize,
    /// [`TraceEvent::end`] in characters.
    pub end_char: usize,
    /// Whether it matched.
    pub matched: bool,
    /// Whether it matched and then was undone: a failure after it made
    /// pest backtrack over it, or it ran inside a lookahead.
    pub undone: bool,
    /// Whether it is part of the winning parse: it matched, was not
    /// undone, and the whole input matched.
    pub won: bool,
    /// Whether it ran inside a lookahead (`&e`, `!e`), which never keeps
    /// what it matched.
    pub lookahead: bool,
}

/// How a traced parse ended.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Verdict {
    /// The start rule matched the whole input.
    Matched,
    /// It did not: the furthest position where something was tried and
    /// failed.
    Failed {
        /// Byte offset.
        byte: usize,
        /// Character offset.
        char: usize,
    },
    /// The trace stopped without a verdict: the input needed more than
    /// [`MAX_TRACE_DEPTH`] nested steps or [`MAX_TRACE_STEPS`] steps.
    Stopped(String),
}

/// The record of one traced parse: see [`PestGrammar::trace`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Trace {
    /// The start rule (pest name).
    pub rule: String,
    /// The attempts, in the order they started (pre-order: an attempt
    /// before the attempts inside it).
    pub events: Vec<TraceEvent>,
    /// How the parse ended.
    pub verdict: Verdict,
    /// Whether events were left out past [`TraceOptions::max_events`].
    pub truncated: bool,
    /// The options' cap.
    pub max_events: usize,
    /// The options' mode.
    pub mode: TraceMode,
}

impl PestGrammar {
    /// Parses the whole input with `rule` (a pest name, see
    /// [`PestGrammar::resolve`]) as pest does, recording each rule call and
    /// each alternative of each ordered choice tried: which alternative won,
    /// which failed and where, with spans.
    ///
    /// The trace agrees with pest on whether the input matches and on the
    /// parse tree ([`Trace::tree`]). It is bounded: at most
    /// [`TraceOptions::max_events`] events are kept, and an input that needs
    /// more than [`MAX_TRACE_DEPTH`] nested steps or [`MAX_TRACE_STEPS`]
    /// steps ends the trace with [`Verdict::Stopped`].
    ///
    /// An error for an unknown rule, and for a grammar that uses pest's
    /// stack (`PUSH`, `POP`, `PEEK`, `DROP`, ...), which the trace does not
    /// follow.
    ///
    /// ```
    /// use iribis_lab::{Attempt, PestGrammar, TraceOptions, Verdict};
    ///
    /// // PEG commits to the first alternative that matches: "a" wins
    /// // although "ab" would match more, and then EOI fails.
    /// let g = PestGrammar::parse("r = { \"a\" | \"ab\" }\n", "r.pest").unwrap();
    /// let t = g.trace("r", "ab", &TraceOptions::new()).unwrap();
    /// assert_eq!(t.verdict, Verdict::Failed { byte: 1, char: 1 });
    /// let alts: Vec<(usize, bool)> = t.events.iter().filter_map(|e| match &e.attempt {
    ///     Attempt::Alternative { index, .. } => Some((*index, e.matched)),
    ///     _ => None,
    /// }).collect();
    /// assert_eq!(alts, [(1, true)]);
    ///
    /// let t = g.trace("r", "a", &TraceOptions::new()).unwrap();
    /// assert_eq!(t.verdict, Verdict::Matched);
    /// assert_eq!(t.render("a", false), "r 0..1 matched \"a\"\n  alt 1/2 \"a\" 0..1 matched \"a\"\nr matched the whole input (0..1)\n");
    /// ```
    pub fn trace(
        &self,
        rule: &str,
        input: &str,
        options: &TraceOptions,
    ) -> Result<Trace, GrammarError> {
        let outcome = limits::on_big_stack(|| {
            let program = self.traced().as_ref().map_err(Clone::clone)?;
            let start = program
                .rules
                .iter()
                .position(|r| &*r.name == rule)
                .ok_or_else(|| format!("the grammar has no rule {rule:?}"))?;
            Ok(program.run(start, input, options))
        });
        match outcome {
            Ok(result) => result.map_err(|message| GrammarError { message }),
            Err(message) => Err(GrammarError { message }),
        }
    }
}

impl Trace {
    /// The parse tree the trace found: the rule calls of the winning parse
    /// that pest makes pairs of, in pre-order, as [`PestGrammar::tree`]
    /// gives them. `None` when the input did not match or events were left
    /// out.
    ///
    /// ```
    /// use iribis_lab::{PestGrammar, TraceOptions};
    ///
    /// let g = PestGrammar::builtin(iribis::Profile::Rfc3987bis);
    /// let t = g.trace("IP_literal", "[v7.x]", &TraceOptions::new()).unwrap();
    /// assert_eq!(t.tree(), g.tree("IP_literal", "[v7.x]").ok());
    /// ```
    pub fn tree(&self) -> Option<RuntimeTree> {
        if self.verdict != Verdict::Matched || self.truncated {
            return None;
        }
        let mut nodes = Vec::new();
        // The event depths of the pairs whose events enclose this one: any
        // event at their depth or above ends them (events are in
        // pre-order). A pair's depth in the tree is how many enclose it.
        let mut open: Vec<usize> = Vec::new();
        for e in &self.events {
            while open.last().is_some_and(|&d| d >= e.depth) {
                open.pop();
            }
            let Attempt::Rule { name, pair: true } = &e.attempt else {
                continue;
            };
            if !e.won {
                continue;
            }
            nodes.push(RuntimeNode {
                rule: name.to_string(),
                start: e.start,
                end: e.end,
                depth: open.len(),
            });
            open.push(e.depth);
        }
        Some(RuntimeTree { nodes })
    }

    /// The trace for a terminal, one line per event, indented by depth:
    /// the rule (in the spec's spelling, see [`spelling`]) or `alt i/n`
    /// with the alternative, the byte span and the text matched, or the
    /// start and where it failed; then a line with the verdict, and one
    /// when events were left out. Matched attempts that did not end up in
    /// the parse say `undone`, attempts inside a lookahead `lookahead`.
    /// Text from the input is escaped (no control or invisible character
    /// is written raw) and cut when long. With `color`, ✓ and ✗ in ANSI
    /// colours instead of the words `matched` and `failed`.
    pub fn render(&self, input: &str, color: bool) -> String {
        let mut out = String::new();
        let (ok, undone, failed) = if color {
            (
                "\u{1b}[32m✓\u{1b}[0m",
                "\u{1b}[33m✓ undone\u{1b}[0m",
                "\u{1b}[31m✗\u{1b}[0m",
            )
        } else {
            ("matched", "matched, undone", "failed")
        };
        for e in &self.events {
            out.extend(std::iter::repeat_n(' ', e.depth * 2));
            match &e.attempt {
                Attempt::Rule { name, .. } => out.push_str(spelling(name)),
                Attempt::Alternative {
                    index, count, expr, ..
                } => {
                    let _ = write!(out, "alt {index}/{count} {}", escape(expr));
                }
            }
            if e.matched {
                let mark = if e.undone { undone } else { ok };
                let _ = write!(
                    out,
                    " {}..{} {mark} {}",
                    e.start,
                    e.end,
                    shown_text(input.get(e.start..e.end).unwrap_or(""))
                );
            } else {
                let _ = write!(
                    out,
                    " {}.. {failed} at {} {}",
                    e.start,
                    e.end,
                    what_is_at(input, e.end)
                );
            }
            if e.lookahead {
                out.push_str(" (lookahead)");
            }
            out.push('\n');
        }
        let rule = spelling(&self.rule);
        match &self.verdict {
            Verdict::Matched => {
                let _ = writeln!(out, "{rule} matched the whole input (0..{})", input.len());
            }
            Verdict::Failed { byte, char } => {
                let _ = writeln!(
                    out,
                    "{rule} does not match: stopped at character {char} (byte {byte}): {}",
                    what_is_at(input, *byte)
                );
            }
            Verdict::Stopped(why) => {
                let _ = writeln!(out, "the trace stopped without a verdict: {why}");
            }
        }
        if self.truncated {
            let _ = writeln!(
                out,
                "(trace cut at {} events: the parse went on, its verdict is the whole parse's)",
                limits::thousands(self.max_events as u64)
            );
        }
        out
    }
}

/// `text` as a Rust string literal, invisible characters escaped, cut in
/// the middle when longer than 60 characters.
fn shown_text(text: &str) -> String {
    const MAX: usize = 60;
    let n = text.chars().count();
    let quoted = if n <= MAX {
        format!("{text:?}")
    } else {
        let head: String = text.chars().take(40).collect();
        let tail: String = text.chars().skip(n - 15).collect();
        format!("{head:?}…{tail:?} ({n} characters)")
    };
    iribis::render::escape_invisible(&quoted).into_owned()
}

fn escape(text: &str) -> String {
    iribis::render::escape_invisible(text).into_owned()
}

/// The character at `byte`, quoted (by its code point when it does not
/// show by itself: see [`iribis::render::shows_alone`]), or "end of input".
fn what_is_at(input: &str, byte: usize) -> String {
    match input.get(byte..).and_then(|s| s.chars().next()) {
        Some(c) if iribis::render::shows_alone(c) => format!("'{c}'"),
        Some(c) => format!("U+{:04X}", c as u32),
        None => "end of input".to_string(),
    }
}

/// pest's three atomicities: whether implicit whitespace is skipped between
/// terms (only non-atomic), and whether rules inside make pairs (not in an
/// atomic rule).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Atomicity {
    Atomic,
    Compound,
    NonAtomic,
}

/// An expression ready to run: sequences and choices flattened, rule
/// references resolved, repetitions unrolled as pest_meta unrolls them.
enum Node {
    Str(Box<str>),
    Insens(Box<str>),
    Range(char, char),
    Call(usize),
    Any,
    Soi,
    Eoi,
    Class(&'static [(char, char)]),
    Newline,
    /// A Unicode property, by its index in [`Program::properties`].
    Property(usize),
    Pos(Box<Node>),
    Neg(Box<Node>),
    Seq(Vec<Node>),
    Choice {
        rule: usize,
        alts: Vec<Node>,
        labels: Vec<Arc<str>>,
    },
    Opt(Box<Node>),
    Rep(Box<Node>),
    Skip(Vec<Box<str>>),
}

struct CompiledRule {
    name: Arc<str>,
    ty: RuleType,
    body: Node,
}

/// A grammar compiled for the interpreter.
pub(crate) struct Program {
    rules: Vec<CompiledRule>,
    /// The Unicode properties the grammar uses (pest's built-ins such as
    /// `LETTER`), by name.
    properties: Vec<String>,
    whitespace: Option<usize>,
    comment: Option<usize>,
}

impl Program {
    /// Reads the grammar's text with pest_meta (already validated when the
    /// [`PestGrammar`] was loaded) and compiles its rules.
    pub(crate) fn compile(source: &str) -> Result<Program, String> {
        let pairs = pest_meta::parser::parse(pest_meta::parser::Rule::grammar_rules, source)
            .map_err(|e| e.to_string())?;
        let ast = pest_meta::parser::consume_rules(pairs).map_err(|errors| {
            errors
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        })?;
        let index: std::collections::HashMap<&str, usize> = ast
            .iter()
            .enumerate()
            .map(|(i, r)| (r.name.as_str(), i))
            .collect();
        let mut rules = Vec::with_capacity(ast.len());
        let mut properties = Vec::new();
        for (i, AstRule { name, ty, expr }) in ast.iter().enumerate() {
            let atomic = *ty == RuleType::Atomic;
            let body = compile(expr, i, (name, atomic), &index, &mut properties)?;
            rules.push(CompiledRule {
                name: Arc::from(name.as_str()),
                ty: *ty,
                body,
            });
        }
        Ok(Program {
            whitespace: index.get("WHITESPACE").copied(),
            comment: index.get("COMMENT").copied(),
            rules,
            properties,
        })
    }

    fn run(&self, start: usize, input: &str, options: &TraceOptions) -> Trace {
        let properties = self
            .properties
            .iter()
            .map(|p| pest::unicode::by_name(p).unwrap_or_else(|| Box::new(|_| false)))
            .collect();
        let mut m = Machine {
            program: self,
            properties,
            input,
            events: Vec::new(),
            kept: Vec::new(),
            max_events: options.max_events,
            only_won: options.mode == TraceMode::Won,
            truncated: false,
            depth: 0,
            level: 0,
            steps: 0,
            reached: 0,
            lookahead: 0,
            atomicity: Atomicity::NonAtomic,
        };
        // As pest runs `SOI ~ rule ~ EOI` (the lab's whole-input wrapper),
        // implicit whitespace between the terms.
        let result = m
            .skip(0)
            .and_then(|pos| m.call(start, pos))
            .and_then(|end| match end {
                Some(end) => {
                    let end = m.skip(end)?;
                    if end == input.len() {
                        Ok(Some(end))
                    } else {
                        m.reached = m.reached.max(end);
                        Ok(None)
                    }
                }
                None => Ok(None),
            });
        let verdict = match result {
            Ok(Some(_)) => {
                for &i in &m.kept {
                    if let Some(e) = m.events.get_mut(i) {
                        e.won = e.matched;
                    }
                }
                Verdict::Matched
            }
            Ok(None) => Verdict::Failed {
                byte: m.reached,
                char: 0,
            },
            Err(Stop(why)) => Verdict::Stopped(why),
        };
        let Machine {
            mut events,
            truncated,
            ..
        } = m;
        // Character offsets, from one table of the input's boundaries.
        let mut chars = vec![0u32; input.len() + 1];
        let mut n = 0u32;
        for (b, _) in input.char_indices() {
            chars[b] = n;
            n += 1;
        }
        chars[input.len()] = n;
        let at = |b: usize| chars.get(b).copied().unwrap_or(n) as usize;
        for e in &mut events {
            e.start_char = at(e.start);
            e.end_char = at(e.end);
        }
        let verdict = match verdict {
            Verdict::Failed { byte, .. } => Verdict::Failed {
                byte,
                char: at(byte),
            },
            v => v,
        };
        Trace {
            rule: self.rules[start].name.to_string(),
            events,
            verdict,
            truncated,
            max_events: options.max_events,
            mode: options.mode,
        }
    }
}

/// Compiles `expr` of rule `rule` (index `at`).
fn compile(
    expr: &Expr,
    at: usize,
    (rule, atomic): (&str, bool),
    index: &std::collections::HashMap<&str, usize>,
    properties: &mut Vec<String>,
) -> Result<Node, String> {
    // One closure for every recursive call, which all need `properties`.
    let properties = std::cell::RefCell::new(properties);
    let c = |e: &Expr| compile(e, at, (rule, atomic), index, &mut properties.borrow_mut());
    let boxed = |e: &Expr| c(e).map(Box::new);
    let repeat = |e: &Expr, min: u32, max: Option<u32>| -> Result<Node, String> {
        // As pest_meta's unroller: `e{m,n}` is m copies of e, then n - m of
        // `e?`; `e{m,}` is m copies then `e*`.
        let mut items = Vec::new();
        for _ in 0..min {
            items.push(c(e)?);
        }
        match max {
            Some(max) => {
                for _ in min..max {
                    items.push(Node::Opt(boxed(e)?));
                }
            }
            None => items.push(Node::Rep(boxed(e)?)),
        }
        Ok(Node::Seq(items))
    };
    Ok(match expr {
        Expr::Str(s) => Node::Str(s.as_str().into()),
        Expr::Insens(s) => Node::Insens(s.as_str().into()),
        Expr::Range(lo, hi) => match (lo.chars().next(), hi.chars().next()) {
            (Some(lo), Some(hi)) => Node::Range(lo, hi),
            _ => return Err(format!("rule {rule}: an empty character in a range")),
        },
        Expr::Ident(name) => match index.get(name.as_str()) {
            Some(&i) => Node::Call(i),
            None => builtin(name, rule, &mut properties.borrow_mut())?,
        },
        Expr::PeekSlice(..) | Expr::Push(_) => return Err(stack(rule)),
        Expr::PosPred(e) => Node::Pos(boxed(e)?),
        Expr::NegPred(e) => Node::Neg(boxed(e)?),
        Expr::Seq(..) => {
            let items = flatten(expr, |e| match e {
                Expr::Seq(a, b) => Some((a, b)),
                _ => None,
            });
            // pest_meta's lister rewrites `(a ~ b)* ~ a` at the end of a
            // sequence to `a ~ (b ~ a)*`, which matches more (on "abab" the
            // first fails, the second matches "aba"): run what pest runs.
            // It runs after the unroller, which makes `e{0,}` an `e*` (and
            // `e+`, `e{n,}` a sequence ending in one, which the rotator has
            // already passed, so the lister does not see it), and after the
            // concatenator, which in an atomic rule makes a body of strings
            // one string (no longer a sequence).
            let repeated = match items.as_slice() {
                [.., Expr::Rep(body) | Expr::RepMin(body, 0), last] => Some((body, last)),
                _ => None,
            };
            if let Some((body, last)) = repeated {
                let body_items = flatten(body, |e| match e {
                    Expr::Seq(a, b) => Some((a, b)),
                    _ => None,
                });
                let one_string = atomic
                    && (body_items.iter().all(|e| matches!(e, Expr::Str(_)))
                        || body_items.iter().all(|e| matches!(e, Expr::Insens(_))));
                if body_items.len() >= 2 && !one_string && same_unrolled(body_items[0], last) {
                    let mut nodes = Vec::with_capacity(items.len());
                    for e in &items[..items.len() - 2] {
                        nodes.push(c(e)?);
                    }
                    nodes.push(c(last)?);
                    let mut inner = Vec::with_capacity(body_items.len());
                    for e in &body_items[1..] {
                        inner.push(c(e)?);
                    }
                    inner.push(c(last)?);
                    nodes.push(Node::Rep(Box::new(Node::Seq(inner))));
                    return Ok(Node::Seq(nodes));
                }
            }
            Node::Seq(items.into_iter().map(c).collect::<Result<_, _>>()?)
        }
        Expr::Choice(..) => {
            let items = flatten(expr, |e| match e {
                Expr::Choice(a, b) => Some((a, b)),
                _ => None,
            });
            let labels = items.iter().map(|e| Arc::from(label(e))).collect();
            Node::Choice {
                rule: at,
                alts: items.into_iter().map(c).collect::<Result<_, _>>()?,
                labels,
            }
        }
        Expr::Opt(e) => Node::Opt(boxed(e)?),
        Expr::Rep(e) => Node::Rep(boxed(e)?),
        Expr::RepOnce(e) => repeat(e, 1, None)?,
        Expr::RepExact(e, n) => repeat(e, *n, Some(*n))?,
        Expr::RepMin(e, n) => repeat(e, *n, None)?,
        Expr::RepMax(e, n) => repeat(e, 0, Some(*n))?,
        Expr::RepMinMax(e, min, max) => repeat(e, *min, Some((*max).max(*min)))?,
        Expr::Skip(strings) => Node::Skip(strings.iter().map(|s| s.as_str().into()).collect()),
    })
}

/// Whether `a` and `b` are the same once `e{0,}` is read as `e*`, as the
/// lister compares them after pest_meta's unroller.
fn same_unrolled(a: &Expr, b: &Expr) -> bool {
    match (a, b) {
        (Expr::Rep(x) | Expr::RepMin(x, 0), Expr::Rep(y) | Expr::RepMin(y, 0)) => x == y,
        _ => a == b,
    }
}

/// The operands of a chain of one binary operator (`a ~ b ~ c`, however
/// pest_meta nested it), in order, without recursion.
fn flatten<'e>(
    expr: &'e Expr,
    split: impl Fn(&'e Expr) -> Option<(&'e Expr, &'e Expr)>,
) -> Vec<&'e Expr> {
    let mut out = Vec::new();
    let mut todo = vec![expr];
    while let Some(e) = todo.pop() {
        match split(e) {
            Some((a, b)) => {
                todo.push(b);
                todo.push(a);
            }
            None => out.push(e),
        }
    }
    out
}

fn stack(rule: &str) -> String {
    format!("rule {rule} uses pest's stack (PUSH, POP, PEEK, DROP): the trace does not follow it")
}

/// A pest built-in rule, as pest_vm runs it.
fn builtin(name: &str, rule: &str, properties: &mut Vec<String>) -> Result<Node, String> {
    Ok(match name {
        "ANY" => Node::Any,
        "SOI" => Node::Soi,
        "EOI" => Node::Eoi,
        "NEWLINE" => Node::Newline,
        "PEEK" | "PEEK_ALL" | "POP" | "POP_ALL" | "DROP" => return Err(stack(rule)),
        other => match super::automaton::ascii_class(other) {
            Some(ranges) => Node::Class(ranges),
            None if pest::unicode::by_name(other).is_some() => {
                let i = match properties.iter().position(|p| p == other) {
                    Some(i) => i,
                    None => {
                        properties.push(other.to_string());
                        properties.len() - 1
                    }
                };
                Node::Property(i)
            }
            None => return Err(format!("rule {rule}: rule {other} is undefined")),
        },
    })
}

/// An alternative as pest syntax, cut to about 40 characters.
fn label(e: &Expr) -> String {
    let mut out = String::new();
    show(e, &mut out, 0);
    if out.chars().count() > 40 {
        out = out.chars().take(39).collect();
        out.push('…');
    }
    out
}

/// Writes `e` as pest syntax; `outer` is the binding strength around it
/// (0 anywhere, 1 in a choice's operand... see below), to parenthesize.
/// Stops early once the text is long enough to be cut.
fn show(e: &Expr, out: &mut String, outer: u8) {
    if out.len() > 48 {
        return;
    }
    // Binding: choice 1, sequence 2, prefix 3, postfix 4, atom 5.
    let strength = match e {
        Expr::Choice(..) => 1,
        Expr::Seq(..) => 2,
        Expr::PosPred(_) | Expr::NegPred(_) => 3,
        Expr::Opt(_)
        | Expr::Rep(_)
        | Expr::RepOnce(_)
        | Expr::RepExact(..)
        | Expr::RepMin(..)
        | Expr::RepMax(..)
        | Expr::RepMinMax(..) => 4,
        _ => 5,
    };
    let paren = strength < outer;
    if paren {
        out.push('(');
    }
    match e {
        Expr::Str(s) => {
            let _ = write!(out, "{s:?}");
        }
        Expr::Insens(s) => {
            let _ = write!(out, "^{s:?}");
        }
        Expr::Range(a, b) => {
            let _ = write!(out, "{:?}..{:?}", first(a), first(b));
        }
        Expr::Ident(n) => out.push_str(n),
        Expr::PeekSlice(a, b) => {
            let _ = match b {
                Some(b) => write!(out, "PEEK[{a}..{b}]"),
                None => write!(out, "PEEK[{a}..]"),
            };
        }
        Expr::PosPred(x) => {
            out.push('&');
            show(x, out, 4);
        }
        Expr::NegPred(x) => {
            out.push('!');
            show(x, out, 4);
        }
        Expr::Seq(..) | Expr::Choice(..) => {
            let (items, sep) = match e {
                Expr::Seq(..) => (
                    flatten(e, |e| match e {
                        Expr::Seq(a, b) => Some((a, b)),
                        _ => None,
                    }),
                    " ~ ",
                ),
                _ => (
                    flatten(e, |e| match e {
                        Expr::Choice(a, b) => Some((a, b)),
                        _ => None,
                    }),
                    " | ",
                ),
            };
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(sep);
                }
                show(x, out, strength + 1);
                if out.len() > 48 {
                    break;
                }
            }
        }
        Expr::Opt(x) => postfix(x, out, "?"),
        Expr::Rep(x) => postfix(x, out, "*"),
        Expr::RepOnce(x) => postfix(x, out, "+"),
        Expr::RepExact(x, n) => postfix(x, out, &format!("{{{n}}}")),
        Expr::RepMin(x, n) => postfix(x, out, &format!("{{{n},}}")),
        Expr::RepMax(x, n) => postfix(x, out, &format!("{{,{n}}}")),
        Expr::RepMinMax(x, a, b) => postfix(x, out, &format!("{{{a}, {b}}}")),
        Expr::Skip(strings) => {
            let _ = write!(out, "(!({}) ~ ANY)*", strings.join(" | "));
        }
        Expr::Push(x) => {
            out.push_str("PUSH(");
            show(x, out, 0);
            out.push(')');
        }
    }
    if paren {
        out.push(')');
    }
}

fn postfix(x: &Expr, out: &mut String, op: &str) {
    show(x, out, 5);
    out.push_str(op);
}

fn first(s: &str) -> char {
    s.chars().next().unwrap_or('\0')
}

/// Why the interpreter stopped without a verdict.
struct Stop(String);

/// The end of a match (`Some(end)`), a failure (`None`), or a stop.
type Step = Result<Option<usize>, Stop>;

struct Machine<'p, 'i> {
    program: &'p Program,
    /// The tests of [`Program::properties`].
    properties: Vec<Box<dyn Fn(char) -> bool>>,
    input: &'i str,
    events: Vec<TraceEvent>,
    /// The events matched so far and not undone: the winning parse's at the
    /// end.
    kept: Vec<usize>,
    max_events: usize,
    only_won: bool,
    truncated: bool,
    /// Nested `eval` calls.
    depth: usize,
    /// The depth of the next event.
    level: usize,
    steps: u64,
    /// The furthest failure inside the current attempt.
    reached: usize,
    /// Inside how many lookaheads.
    lookahead: u32,
    atomicity: Atomicity,
}

impl Machine<'_, '_> {
    /// Opens an event at `start`; its index, when recorded.
    fn open(&mut self, attempt: impl FnOnce() -> Attempt, start: usize) -> Option<usize> {
        if self.truncated || self.events.len() >= self.max_events {
            self.truncated = true;
            return None;
        }
        self.events.push(TraceEvent {
            attempt: attempt(),
            depth: self.level,
            start,
            start_char: 0,
            end: start,
            end_char: 0,
            matched: false,
            undone: false,
            won: false,
            lookahead: self.lookahead > 0,
        });
        let i = self.events.len() - 1;
        self.kept.push(i);
        Some(i)
    }

    /// Runs `f` as the attempt `attempt` at `pos`, recorded.
    fn attempt(
        &mut self,
        attempt: impl FnOnce() -> Attempt,
        pos: usize,
        f: impl FnOnce(&mut Self) -> Step,
    ) -> Step {
        let event = self.open(attempt, pos);
        let outer = std::mem::replace(&mut self.reached, pos);
        self.level += 1;
        let result = f(self);
        self.level -= 1;
        if let (Some(i), Ok(end)) = (event, &result)
            && let Some(e) = self.events.get_mut(i)
        {
            e.matched = end.is_some();
            e.end = end.unwrap_or(self.reached);
        }
        self.reached = self.reached.max(outer);
        result
    }

    /// Where to roll back to when what follows fails.
    fn mark(&self) -> (usize, usize) {
        (self.kept.len(), self.events.len())
    }

    /// Undoes the matches since `mark` (they are not part of the parse);
    /// in [`TraceMode::Won`], drops their events.
    fn undo(&mut self, (kept, events): (usize, usize)) {
        for i in self.kept.drain(kept.min(self.kept.len())..) {
            if let Some(e) = self.events.get_mut(i) {
                e.undone = e.matched;
            }
        }
        if self.only_won {
            self.events.truncate(events);
        }
    }

    fn fail_at(&mut self, pos: usize) -> Step {
        self.reached = self.reached.max(pos);
        Ok(None)
    }

    fn call(&mut self, index: usize, pos: usize) -> Step {
        let program = self.program;
        let rule = &program.rules[index];
        let special = program.whitespace == Some(index) || program.comment == Some(index);
        // As pest_vm: the atomicity the rule runs in, and whether pest
        // makes a pair (not inside an atomic rule, nor in a lookahead).
        let (inner, pair_from) = match rule.ty {
            RuleType::Normal | RuleType::Silent if special => (Atomicity::Atomic, self.atomicity),
            RuleType::Normal | RuleType::Silent => (self.atomicity, self.atomicity),
            RuleType::Atomic => (Atomicity::Atomic, self.atomicity),
            RuleType::CompoundAtomic => (Atomicity::Compound, Atomicity::Compound),
            RuleType::NonAtomic if special => (Atomicity::Atomic, Atomicity::Atomic),
            RuleType::NonAtomic => (Atomicity::NonAtomic, Atomicity::NonAtomic),
        };
        let pair =
            rule.ty != RuleType::Silent && pair_from != Atomicity::Atomic && self.lookahead == 0;
        self.attempt(
            || Attempt::Rule {
                name: rule.name.clone(),
                pair,
            },
            pos,
            |m| {
                let outer = std::mem::replace(&mut m.atomicity, inner);
                let result = m.eval(&rule.body, pos);
                m.atomicity = outer;
                result
            },
        )
    }

    /// Implicit whitespace and comments after `pos`, in a non-atomic rule
    /// of a grammar that has `WHITESPACE` or `COMMENT`: `WHITESPACE*
    /// (COMMENT WHITESPACE*)*`, as pest_vm skips.
    fn skip(&mut self, pos: usize) -> Result<usize, Stop> {
        if self.atomicity != Atomicity::NonAtomic
            || (self.program.whitespace.is_none() && self.program.comment.is_none())
        {
            return Ok(pos);
        }
        let mut pos = self.skip_all(self.program.whitespace, pos)?;
        if let Some(comment) = self.program.comment {
            loop {
                let mark = self.mark();
                let Some(next) = self.call(comment, pos)? else {
                    self.undo(mark);
                    break;
                };
                let next = self.skip_all(self.program.whitespace, next)?;
                if next == pos {
                    break;
                }
                pos = next;
            }
        }
        Ok(pos)
    }

    fn skip_all(&mut self, rule: Option<usize>, mut pos: usize) -> Result<usize, Stop> {
        let Some(rule) = rule else {
            return Ok(pos);
        };
        loop {
            let mark = self.mark();
            match self.call(rule, pos)? {
                Some(next) if next > pos => pos = next,
                Some(_) => return Ok(pos),
                None => {
                    self.undo(mark);
                    return Ok(pos);
                }
            }
        }
    }

    fn eval(&mut self, node: &Node, pos: usize) -> Step {
        self.steps += 1;
        if self.steps > MAX_TRACE_STEPS {
            return Err(Stop(format!(
                "the parse took more than {} steps",
                limits::thousands(MAX_TRACE_STEPS)
            )));
        }
        if self.depth >= MAX_TRACE_DEPTH {
            return Err(Stop(format!(
                "the input needs more than {} nested steps of the grammar",
                limits::thousands(MAX_TRACE_DEPTH as u64)
            )));
        }
        self.depth += 1;
        let result = self.eval_inner(node, pos);
        self.depth -= 1;
        result
    }

    fn next_char(&self, pos: usize) -> Option<char> {
        self.input.get(pos..).and_then(|s| s.chars().next())
    }

    /// One character matching `test`.
    fn char_if(&mut self, pos: usize, test: impl Fn(char) -> bool) -> Step {
        match self.next_char(pos) {
            Some(c) if test(c) => Ok(Some(pos + c.len_utf8())),
            _ => self.fail_at(pos),
        }
    }

    fn eval_inner(&mut self, node: &Node, pos: usize) -> Step {
        let input = self.input;
        match node {
            Node::Str(s) => match input.get(pos..) {
                Some(rest) if rest.starts_with(&**s) => Ok(Some(pos + s.len())),
                _ => self.fail_at(pos),
            },
            Node::Insens(s) => match input.get(pos..pos + s.len()) {
                Some(part) if part.eq_ignore_ascii_case(s) => Ok(Some(pos + s.len())),
                _ => self.fail_at(pos),
            },
            Node::Range(lo, hi) => self.char_if(pos, |c| *lo <= c && c <= *hi),
            Node::Class(ranges) => {
                self.char_if(pos, |c| ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi))
            }
            Node::Property(i) => match self.properties.get(*i) {
                Some(property) => {
                    let property = &**property;
                    match self.next_char(pos) {
                        Some(c) if property(c) => Ok(Some(pos + c.len_utf8())),
                        _ => self.fail_at(pos),
                    }
                }
                None => self.fail_at(pos),
            },
            Node::Any => self.char_if(pos, |_| true),
            Node::Soi if pos == 0 => Ok(Some(pos)),
            Node::Eoi if pos == input.len() => Ok(Some(pos)),
            Node::Soi | Node::Eoi => self.fail_at(pos),
            Node::Newline => {
                let rest = input.get(pos..).unwrap_or("");
                match ["\n", "\r\n", "\r"].iter().find(|n| rest.starts_with(**n)) {
                    Some(n) => Ok(Some(pos + n.len())),
                    None => self.fail_at(pos),
                }
            }
            Node::Call(i) => self.call(*i, pos),
            Node::Pos(x) | Node::Neg(x) => {
                let mark = self.mark();
                self.lookahead += 1;
                let inner = self.eval(x, pos);
                self.lookahead -= 1;
                self.undo(mark);
                let matched = inner?.is_some();
                if matched == matches!(node, Node::Pos(_)) {
                    Ok(Some(pos))
                } else {
                    self.fail_at(pos)
                }
            }
            Node::Seq(items) => {
                let mut at = pos;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        at = self.skip(at)?;
                    }
                    match self.eval(item, at)? {
                        Some(next) => at = next,
                        None => return Ok(None),
                    }
                }
                Ok(Some(at))
            }
            Node::Choice { rule, alts, labels } => {
                let count = alts.len();
                let name = &self.program.rules[*rule].name;
                for (i, (alt, label)) in alts.iter().zip(labels).enumerate() {
                    let mark = self.mark();
                    let result = self.attempt(
                        || Attempt::Alternative {
                            rule: name.clone(),
                            index: i + 1,
                            count,
                            expr: label.clone(),
                        },
                        pos,
                        |m| m.eval(alt, pos),
                    )?;
                    if result.is_some() {
                        return Ok(result);
                    }
                    self.undo(mark);
                }
                Ok(None)
            }
            Node::Opt(x) => {
                let mark = self.mark();
                match self.eval(x, pos)? {
                    Some(end) => Ok(Some(end)),
                    None => {
                        self.undo(mark);
                        Ok(Some(pos))
                    }
                }
            }
            Node::Rep(x) => {
                // `e (skip e)*`, each step undone when it fails; pest stops
                // too when a step consumes nothing.
                let mut at = pos;
                let mut first = true;
                loop {
                    let mark = self.mark();
                    let from = if first { at } else { self.skip(at)? };
                    first = false;
                    match self.eval(x, from)? {
                        Some(next) => {
                            let progressed = next != at;
                            at = next;
                            if !progressed {
                                return Ok(Some(at));
                            }
                        }
                        None => {
                            self.undo(mark);
                            return Ok(Some(at));
                        }
                    }
                }
            }
            Node::Skip(strings) => {
                // `(!(s1 | s2 | ...) ~ ANY)*`: up to the first of the
                // strings, or the end.
                let rest = input.get(pos..).unwrap_or("");
                let found = rest
                    .char_indices()
                    .map(|(i, _)| i)
                    .find(|&i| strings.iter().any(|s| rest[i..].starts_with(&**s)));
                Ok(Some(pos + found.unwrap_or(rest.len())))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grammar(text: &str) -> PestGrammar {
        PestGrammar::parse(text, "t.pest").unwrap()
    }

    /// The alternatives of the choices of `rule`, `(index, matched)`.
    fn alts(t: &Trace, rule: &str) -> Vec<(usize, bool)> {
        t.events
            .iter()
            .filter_map(|e| match &e.attempt {
                Attempt::Alternative { rule: r, index, .. } if &**r == rule => {
                    Some((*index, e.matched))
                }
                _ => None,
            })
            .collect()
    }

    fn trace(g: &PestGrammar, rule: &str, input: &str) -> Trace {
        g.trace(rule, input, &TraceOptions::new()).unwrap()
    }

    #[test]
    fn table() {
        // (grammar, rule, input, matches)
        let cases: &[(&str, &str, &str, bool)] = &[
            // The first alternative that matches wins, even when a later
            // one would match more.
            ("r = { \"a\" | \"ab\" }", "r", "ab", false),
            ("r = { \"ab\" | \"a\" }", "r", "ab", true),
            ("r = { (\"a\" | \"ab\") ~ \"b\" }", "r", "ab", true),
            // Lookaheads consume nothing.
            ("r = { &\"a\" ~ ASCII_ALPHA+ }", "r", "abc", true),
            ("r = { &\"a\" ~ ASCII_ALPHA+ }", "r", "bc", false),
            ("r = { !\"a\" ~ ASCII_ALPHA+ }", "r", "bc", true),
            ("r = { !\"a\" ~ ASCII_ALPHA+ }", "r", "abc", false),
            ("r = { (!\"-\" ~ ANY)* ~ \"-\" }", "r", "ab-", true),
            // Repetition: greedy, never gives back; bounds.
            ("r = { \"a\"* ~ \"a\" }", "r", "aaa", false),
            ("r = { \"a\"+ }", "r", "", false),
            ("r = { \"a\"{2} }", "r", "aa", true),
            ("r = { \"a\"{2} }", "r", "aaa", false),
            ("r = { \"a\"{2,} }", "r", "aaaa", true),
            ("r = { \"a\"{2,} }", "r", "a", false),
            ("r = { \"a\"{,2} }", "r", "aa", true),
            ("r = { \"a\"{,2} }", "r", "aaa", false),
            ("r = { \"a\"{1,3} ~ \"b\" }", "r", "aaab", true),
            ("r = { \"a\"{1,3} ~ \"b\" }", "r", "aaaab", false),
            ("r = { \"a\"? ~ \"b\" }", "r", "b", true),
            // Literals, case-insensitive literals, ranges, built-ins.
            ("r = { ^\"http\" }", "r", "HtTp", true),
            ("r = { 'a'..'c'+ }", "r", "abcd", false),
            ("r = { ASCII_HEX_DIGIT+ }", "r", "0aF", true),
            ("r = { NEWLINE ~ NEWLINE }", "r", "\r\n\n", true),
            ("r = { SOI ~ \"a\" ~ EOI }", "r", "a", true),
            ("r = { LETTER+ }", "r", "é", true),
            // pest_meta's rewrite of `(a ~ b)* ~ a`, of `(a ~ b){0,} ~ a`
            // too (unrolled to `*` first), not of a body of strings in an
            // atomic rule (concatenated to one string first).
            (
                "r = { s ~ \"b\" } s = { (\"a\" ~ \"b\")* ~ \"a\" }",
                "r",
                "abab",
                true,
            ),
            (
                "r = { s ~ \"b\" } s = { (\"a\" ~ \"b\"){0,} ~ \"a\" }",
                "r",
                "abab",
                true,
            ),
            (
                "r = @{ s ~ \"b\" } s = @{ (\"a\" ~ \"b\")* ~ \"a\" }",
                "r",
                "abab",
                false,
            ),
            // Implicit whitespace in non-atomic rules, not in atomic ones.
            (
                "WHITESPACE = _{ \" \" } r = { \"a\" ~ \"b\" }",
                "r",
                "a b",
                true,
            ),
            (
                "WHITESPACE = _{ \" \" } r = @{ \"a\" ~ \"b\" }",
                "r",
                "a b",
                false,
            ),
            ("WHITESPACE = _{ \" \" } r = { \"a\"+ }", "r", "a a a", true),
        ];
        for &(text, rule, input, want) in cases {
            let g = grammar(text);
            let t = trace(&g, rule, input);
            assert_eq!(
                t.verdict == Verdict::Matched,
                want,
                "{text} on {input:?}: {t:?}"
            );
            assert_eq!(g.accepts(rule, input), want, "pest: {text} on {input:?}");
            if want {
                assert_eq!(t.tree(), g.tree(rule, input).ok(), "{text} on {input:?}");
            }
        }
    }

    #[test]
    fn the_first_matching_alternative_wins() {
        let g = grammar("r = { x ~ \"c\" }\nx = { \"a\" | \"ab\" | \"b\" }");
        // "a" wins the choice; "ab" (which would have let "c" match) is
        // never tried: PEG does not go back into a choice.
        let t = trace(&g, "r", "abc");
        assert_eq!(alts(&t, "x"), [(1, true)]);
        assert_eq!(t.verdict, Verdict::Failed { byte: 1, char: 1 });
        let t = trace(&g, "r", "bc");
        assert_eq!(alts(&t, "x"), [(1, false), (2, false), (3, true)]);
        assert_eq!(t.verdict, Verdict::Matched);
        // Where each failed alternative failed: the "a" at 0, "ab" at 0.
        let failed: Vec<usize> = t
            .events
            .iter()
            .filter(|e| !e.matched)
            .map(|e| e.end)
            .collect();
        assert_eq!(failed, [0, 0]);
        let won: Vec<String> = t
            .events
            .iter()
            .filter(|e| e.won)
            .map(|e| format!("{:?}", e.attempt))
            .collect();
        assert_eq!(won.len(), 3, "{won:?}");
    }

    #[test]
    fn lookahead_events_never_win() {
        let g = grammar("r = { &x ~ x ~ !x }\nx = { \"a\" }");
        let t = trace(&g, "r", "a");
        assert_eq!(t.verdict, Verdict::Matched);
        let xs: Vec<(bool, bool, bool)> = t
            .events
            .iter()
            .skip(1)
            .map(|e| (e.matched, e.won, e.lookahead))
            .collect();
        assert_eq!(
            xs,
            [
                (true, false, true),
                (true, true, false),
                (false, false, true)
            ]
        );
        assert_eq!(t.tree().unwrap().nodes.len(), 2);
    }

    #[test]
    fn undone_matches_do_not_win() {
        // x matches inside the first alternative, then "c" fails: the
        // match is undone and the second alternative's x wins.
        let g = grammar("r = { x ~ \"c\" | x ~ \"d\" }\nx = { \"a\" }");
        let t = trace(&g, "r", "ad");
        let xs: Vec<(usize, bool, bool)> = t
            .events
            .iter()
            .filter(|e| matches!(&e.attempt, Attempt::Rule { name, .. } if &**name == "x"))
            .map(|e| (e.start, e.matched, e.won))
            .collect();
        assert_eq!(xs, [(0, true, false), (0, true, true)]);
        // Only the winning path.
        let won = g
            .trace("r", "ad", &TraceOptions::new().mode(TraceMode::Won))
            .unwrap();
        assert!(won.events.iter().all(|e| e.won && e.matched));
        assert_eq!(won.events.len(), 3);
        assert_eq!(alts(&won, "r"), [(2, true)]);
    }

    #[test]
    fn bounded() {
        // The cap: the verdict is still the whole parse's.
        let g = grammar("r = { (\"a\" | \"b\")* }");
        let input = "ab".repeat(5000);
        let t = g
            .trace("r", &input, &TraceOptions::new().max_events(100))
            .unwrap();
        assert_eq!(t.events.len(), 100);
        assert!(t.truncated);
        assert_eq!(t.verdict, Verdict::Matched);
        assert_eq!(t.tree(), None);
        assert!(t.render(&input, false).contains("trace cut at 100 events"));
        // Nesting deeper than the limit stops, never overflows.
        let g = grammar("a = { \"(\" ~ a ~ \")\" | \"x\" }");
        let deep = format!("{}x{}", "(".repeat(60_000), ")".repeat(60_000));
        let t = g
            .trace("a", &deep, &TraceOptions::new().max_events(10))
            .unwrap();
        assert!(
            matches!(&t.verdict, Verdict::Stopped(why) if why.contains("nested")),
            "{:?}",
            t.verdict
        );
        // The stack is refused, not misread.
        let g = grammar("r = { PUSH(\"a\") ~ POP }");
        let e = g.trace("r", "aa", &TraceOptions::new()).unwrap_err();
        assert!(e.to_string().contains("stack"), "{e}");
        assert!(g.trace("nope", "", &TraceOptions::new()).is_err());
    }

    #[test]
    fn labels_read_as_pest() {
        let g = grammar("r = { (\"a\" ~ b?)+ | !b ~ 'x'..'z'{2, 3} | ^\"q\" }\nb = { \"b\" }");
        let t = trace(&g, "r", "q");
        let labels: Vec<String> = t
            .events
            .iter()
            .filter_map(|e| match &e.attempt {
                Attempt::Alternative { expr, .. } => Some(expr.to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(labels, ["(\"a\" ~ b?)+", "!b ~ 'x'..'z'{2, 3}", "^\"q\""]);
    }
}
