//! Compiles the spec's ABNF into DFAs for the fast path (`src/fast/`).
//!
//! For each profile, the ABNF files of `grammar/abnf/` are read with the
//! crate's own ABNF reader (`src/abnf/`, included here by path), the start
//! rule is expanded into one regular expression syntax tree (`regex-syntax`
//! `Hir`: no rule of the grammar is recursive, so this terminates and the
//! language is regular), and `regex-automata` determinizes it into a dense
//! DFA over UTF-8 bytes, whose tables (see below) are written into
//! `OUT_DIR`.
//!
//! ABNF semantics map one to one: alternation is unordered (the DFA reports
//! every match, `MatchKind::All`), quoted strings are case-insensitive in
//! ASCII (RFC 5234 §2.3), `%x` ranges are ranges of code points (RFC 5234
//! §2.4) that the regex compiler turns into UTF-8 byte sequences.
//!
//! The DFA is not embedded as `regex-automata` serializes it. It is crossed
//! with the delimiter automaton of `src/fast/phase.rs` (RFC 3986 Appendix
//! B), so that each state also tells which component the input is in, and
//! the product is written as plain tables ([`Tables`]) laid out for the walk
//! at run time, which reads them with safe indexing: per class of bytes, the
//! next state of each state, and per pair of classes the number of its pair
//! column (two steps at once), so that a step of the walk is one load for
//! two bytes, whose column the bytes select before the previous step's
//! state is known.

#[path = "src/abnf/mod.rs"]
#[allow(dead_code)]
mod abnf;
#[path = "src/fast/phase.rs"]
#[allow(dead_code)]
mod phase;

use std::collections::HashMap;
use std::path::PathBuf;

use regex_automata::dfa::{dense, Automaton, StartKind};
use regex_automata::nfa::thompson;
use regex_automata::util::primitives::StateID;
use regex_automata::util::start;
use regex_automata::{Anchored, MatchKind};
use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange, Hir, Repetition};

use crate::abnf::{Grammar, Node};

/// (profile, start rule): the four reference rules of each profile, under
/// their RFC 3986 names for `rfc3986`.
const TARGETS: &[(&str, &str)] = &[
    ("rfc3987bis", "IRI-reference"),
    ("rfc3987bis", "IRI"),
    ("rfc3987bis", "absolute-IRI"),
    ("rfc3987bis", "irelative-ref"),
    ("rfc3987", "IRI-reference"),
    ("rfc3987", "IRI"),
    ("rfc3987", "absolute-IRI"),
    ("rfc3987", "irelative-ref"),
    ("leiri", "IRI-reference"),
    ("leiri", "IRI"),
    ("leiri", "absolute-IRI"),
    ("leiri", "irelative-ref"),
    ("rfc3986", "URI-reference"),
    ("rfc3986", "URI"),
    ("rfc3986", "absolute-URI"),
    ("rfc3986", "relative-ref"),
];

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=grammar/abnf");
    println!("cargo::rerun-if-changed=src/abnf");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut grammars = HashMap::new();
    for &(profile, rule) in TARGETS {
        let grammar = grammars.entry(profile).or_insert_with(|| {
            Grammar::profile(profile).unwrap_or_else(|e| panic!("grammar/abnf: {e}"))
        });
        let hir = Translator::new(grammar)
            .rule(rule)
            .unwrap_or_else(|e| panic!("profile {profile}, rule {rule}: {e}"));
        let nfa = thompson::Compiler::new()
            .configure(thompson::Config::new().shrink(true))
            .build_from_hir(&hir)
            .unwrap_or_else(|e| panic!("profile {profile}, rule {rule}: NFA: {e}"));
        let dfa = dense::Builder::new()
            .configure(
                dense::Config::new()
                    .match_kind(MatchKind::All)
                    .start_kind(StartKind::Anchored)
                    .minimize(true),
            )
            .build_from_nfa(&nfa)
            .unwrap_or_else(|e| panic!("profile {profile}, rule {rule}: DFA: {e}"));
        let tables =
            Tables::new(&dfa).unwrap_or_else(|e| panic!("profile {profile}, rule {rule}: {e}"));
        let path = out.join(format!("{profile}-{rule}.dfa"));
        std::fs::write(&path, tables.to_bytes())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

/// The product of a grammar DFA and the delimiter automaton, as the
/// library's `fast::Validator` reads it.
///
/// State 0 is dead (it leads only to itself and does not accept), state 1
/// the start; the others are numbered as a breadth-first walk from the
/// start reaches them. The delimiter automaton adds few states: most of the
/// DFA's already know which component they are in.
struct Tables {
    /// The class of each byte: bytes of one class lead every state to the
    /// same state.
    class: [u8; 256],
    /// Per state: whether the input may end there.
    accept: Vec<bool>,
    /// Per state: its phase of the delimiter automaton.
    phase: Vec<u8>,
    /// Per class, the next state of each state.
    next: Vec<Vec<u16>>,
    /// Per pair of classes (first class major): the number of its pair
    /// column, the same for pairs whose two steps agree on every state
    /// (see [`Tables::pair_columns`]).
    pair: Vec<u16>,
    /// How many distinct pair columns there are.
    pair_columns: usize,
}

/// The bits of a pair column's entry that hold the state after both bytes;
/// the bits above hold the phase after the first byte. The library's
/// `fast::STATE_BITS` must agree.
const STATE_BITS: u32 = 9;

impl Tables {
    fn new(dfa: &dense::DFA<Vec<u32>>) -> Result<Tables, String> {
        let start = dfa
            .start_state(&start::Config::new().anchored(Anchored::Yes))
            .map_err(|e| format!("no anchored start state: {e}"))?;
        // Classes: the distinct pairs of the DFA's class and the byte itself
        // for the delimiters the automaton tells apart, with a byte to stand
        // for each.
        let mut class = [0u8; 256];
        let mut pairs: Vec<(u8, u8)> = Vec::new();
        let mut examples: Vec<u8> = Vec::new();
        for b in 0..=255u8 {
            let delimiter = if b":/?#@[]".contains(&b) { b } else { 0 };
            let pair = (dfa.byte_classes().get(b), delimiter);
            let k = pairs.iter().position(|&p| p == pair).unwrap_or_else(|| {
                pairs.push(pair);
                examples.push(b);
                pairs.len() - 1
            });
            class[usize::from(b)] = u8::try_from(k).expect("at most 256 classes");
        }
        let first = (start, phase::START);
        // Index 0 stands for the dead state (its entry is not read).
        let mut states: Vec<(StateID, u8)> = vec![first, first];
        let mut number: HashMap<(StateID, u8), u16> = HashMap::from([(first, 1)]);
        let mut next = vec![Vec::new(); examples.len()];
        let (mut accept, mut phases) = (Vec::new(), Vec::new());
        let mut i = 0;
        while i < states.len() {
            let (d, p) = states[i];
            let dead = i == 0;
            accept.push(!dead && dfa.is_match_state(dfa.next_eoi_state(d)));
            phases.push(if dead { phase::START } else { p });
            for (k, &b) in examples.iter().enumerate() {
                let to = (dfa.next_state(d, b), phase::next(p, b));
                let to = if dead || dfa.is_dead_state(to.0) {
                    0
                } else if let Some(&n) = number.get(&to) {
                    n
                } else {
                    let n = u16::try_from(states.len())
                        .ok()
                        .filter(|&n| n < u16::MAX)
                        .ok_or("more than 65,535 states")?;
                    states.push(to);
                    number.insert(to, n);
                    n
                };
                next[k].push(to);
            }
            i += 1;
        }
        let mut tables = Tables {
            class,
            accept,
            phase: phases,
            next,
            pair: Vec::new(),
            pair_columns: 0,
        };
        tables.pair_columns()?;
        Ok(tables)
    }

    /// Numbers the pair columns: for a pair of classes (a, b), the column
    /// of the two steps, whose entry for state s is the state t after a
    /// then b, with the phase of the state m after a alone above
    /// [`STATE_BITS`]: `t | phase(m) << STATE_BITS`. Pairs with the same
    /// column share its number. The library composes the columns from the
    /// single steps when it loads the tables (writing them out would take
    /// 2 MB for the sixteen DFAs, the numbers take 135 KB) and walks two
    /// bytes a step.
    fn pair_columns(&mut self) -> Result<(), String> {
        let n = self.accept.len();
        if n > 1 << STATE_BITS {
            return Err(format!(
                "{n} states, more than the {} a pair column can name",
                1 << STATE_BITS
            ));
        }
        let mut number: HashMap<Vec<u16>, u16> = HashMap::new();
        for a in &self.next {
            for b in &self.next {
                let column: Vec<u16> = a
                    .iter()
                    .map(|&m| {
                        let m = usize::from(m);
                        b[m] | u16::from(self.phase[m]) << STATE_BITS
                    })
                    .collect();
                let fresh = u16::try_from(number.len()).map_err(|_| "too many pair columns")?;
                self.pair.push(*number.entry(column).or_insert(fresh));
            }
        }
        self.pair_columns = number.len();
        Ok(())
    }

    /// Little-endian `u16`s: the number of states n and of classes c, the
    /// class of each byte, per state whether it accepts (1) or not (0), per
    /// state its phase, the c columns of next states, n each, then the
    /// number of pair columns and the c × c numbers of the pairs' columns.
    fn to_bytes(&self) -> Vec<u8> {
        let n = self.accept.len();
        let count = |k: usize| u16::try_from(k).expect("at most 65,535 states and classes");
        let mut out: Vec<u16> = vec![count(n), count(self.next.len())];
        out.extend(self.class.iter().map(|&c| u16::from(c)));
        out.extend(self.accept.iter().map(|&a| u16::from(a)));
        out.extend(self.phase.iter().map(|&p| u16::from(p)));
        for column in &self.next {
            out.extend(column);
        }
        out.push(count(self.pair_columns));
        out.extend(&self.pair);
        out.iter().flat_map(|v| v.to_le_bytes()).collect()
    }
}

/// Expands rules into `Hir`, each rule once.
struct Translator<'g> {
    grammar: &'g Grammar,
    done: HashMap<String, Hir>,
    /// The rules being expanded, to report a recursive rule.
    stack: Vec<String>,
}

impl<'g> Translator<'g> {
    fn new(grammar: &'g Grammar) -> Self {
        Translator {
            grammar,
            done: HashMap::new(),
            stack: Vec::new(),
        }
    }

    fn rule(&mut self, name: &str) -> Result<Hir, String> {
        let key = name.to_ascii_lowercase();
        if let Some(h) = self.done.get(&key) {
            return Ok(h.clone());
        }
        if self.stack.contains(&key) {
            return Err(format!(
                "rule {name} is recursive ({}): its language may not be regular",
                self.stack.join(" -> ")
            ));
        }
        let Some(rule) = self.grammar.get(name) else {
            return Err(format!("rule {name} is not defined"));
        };
        self.stack.push(key.clone());
        let hir = self.node(&rule.node);
        self.stack.pop();
        let hir = hir.map_err(|e| format!("in rule {name}: {e}"))?;
        self.done.insert(key, hir.clone());
        Ok(hir)
    }

    fn node(&mut self, node: &Node) -> Result<Hir, String> {
        Ok(match node {
            Node::Alternation(v) => {
                Hir::alternation(v.iter().map(|n| self.node(n)).collect::<Result<_, _>>()?)
            }
            Node::Concatenation(v) => {
                Hir::concat(v.iter().map(|n| self.node(n)).collect::<Result<_, _>>()?)
            }
            // `0<pchar>` (RFC 3986's path-empty) and any `*0x`: the empty string.
            Node::Repetition { max: Some(0), .. } => Hir::empty(),
            Node::Repetition { min, max, node } => Hir::repetition(Repetition {
                min: *min,
                max: *max,
                greedy: true,
                sub: Box::new(self.node(node)?),
            }),
            Node::Chars {
                text,
                case_sensitive,
            } => Hir::concat(
                text.chars()
                    .map(|c| {
                        if !case_sensitive && c.is_ascii_alphabetic() {
                            class(&[
                                (c.to_ascii_lowercase() as u32, c.to_ascii_lowercase() as u32),
                                (c.to_ascii_uppercase() as u32, c.to_ascii_uppercase() as u32),
                            ])
                        } else {
                            class(&[(c as u32, c as u32)])
                        }
                    })
                    .collect(),
            ),
            Node::Range(a, b) => class(&[(*a, *b)]),
            Node::Sequence(v) => Hir::concat(v.iter().map(|&c| class(&[(c, c)])).collect()),
            Node::Rule(name) => self.rule(name)?,
            Node::Prose(p) => return Err(format!("prose <{p}> has no meaning a DFA can take")),
        })
    }
}

/// A class of code points from inclusive ranges. The surrogates
/// U+D800..U+DFFF are not characters of a Rust string and are left out.
fn class(ranges: &[(u32, u32)]) -> Hir {
    let mut out = Vec::new();
    for &(a, b) in ranges {
        for (lo, hi) in [(a, b.min(0xD7FF)), (a.max(0xE000), b.min(0x10FFFF))] {
            if lo <= hi {
                let lo = char::from_u32(lo).expect("not a surrogate");
                let hi = char::from_u32(hi).expect("not a surrogate");
                out.push(ClassUnicodeRange::new(lo, hi));
            }
        }
    }
    Hir::class(regex_syntax::hir::Class::Unicode(ClassUnicode::new(out)))
}
