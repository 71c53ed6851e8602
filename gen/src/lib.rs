//! Writes the DFA tables of iribis's fast path and error positions
//! (`src/fast/tables/`) from the spec's ABNF (`grammar/abnf/`).
//!
//! This is the generator that a dependent's build never runs: its output is
//! checked in, with a DO-NOT-EDIT header, and the command's tests
//! (`crates/iri/tests/cli/generated_files.rs`) fail when it is stale. Run
//! it with `cargo run -p iribis-gen` from the repository after changing the
//! ABNF, the ABNF reader (`crates/lab/src/abnf.rs`) or the library's
//! `src/fast/phase.rs`; it writes `iribis-gen-syntax`'s files too.
//!
//! For each profile, the ABNF files are read with the grammar lab's ABNF
//! reader (`iribis_lab::abnf`), a start rule is expanded
//! into one regular expression syntax tree (`regex-syntax` `Hir`: no rule of
//! the grammar is recursive, so this terminates and the language is
//! regular), and `regex-automata` determinizes and minimizes it into a dense
//! DFA over UTF-8 bytes.
//!
//! ABNF semantics map one to one: alternation is unordered (the DFA reports
//! every match, `MatchKind::All`), quoted strings are case-insensitive in
//! ASCII (RFC 5234 §2.3), `%x` ranges are ranges of code points (RFC 5234
//! §2.4) that the regex compiler turns into UTF-8 byte sequences.
//!
//! Two kinds of tables are written:
//!
//! - For the four reference rules of each profile, the DFA crossed with the
//!   delimiter automaton of the library's `src/fast/phase.rs` (RFC 3986
//!   Appendix B), so
//!   that each state also tells which component the input is in, as plain
//!   tables ([`Tables`]) laid out for the library's two-bytes-a-step walk:
//!   per class of bytes, the next state of each state, and per pair of
//!   classes the number of its pair column.
//! - For every rule of each profile, the minimal DFA alone ([`RuleDfa`]):
//!   its dead state is, by construction, reached at the first byte that
//!   cannot belong to any valid input, which is where a parse error is
//!   reported.

pub mod catalogue;
pub mod corpus;
pub mod encodings;
pub mod js;
pub mod lookalikes;

use std::collections::{HashMap, HashSet};

use regex_automata::dfa::{Automaton, StartKind, dense};
use regex_automata::nfa::thompson;
use regex_automata::util::primitives::StateID;
use regex_automata::util::start;
use regex_automata::{Anchored, MatchKind};
use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange, Hir, Repetition};

use iribis::__gen::phase;
use iribis_lab::abnf::{Grammar, Node};

/// The first line of every generated file; the library skips the bytes up
/// to and including its newline.
pub const HEADER: &str = "DO NOT EDIT: written by `cargo run -p iribis-gen` from grammar/abnf/ \
(its tests fail when it is stale)\n";

/// The folder of the generated files, relative to the repository root.
pub const FOLDER: &str = "src/fast/tables";

/// Every file the generators write, as (path relative to the repository
/// root, contents), from the repository at `root`: the syntax files of
/// `iribis-gen-syntax`, the DFA tables ([`files`]), the npm package's DFA
/// module ([`js`]), the look-alike table ([`lookalikes`]), the grammar
/// lab's corpus ([`corpus`]), the documents in every encoding
/// ([`encodings`]) and the catalogue table of `docs/check.md`
/// ([`catalogue`]).
pub fn every_file(root: &std::path::Path) -> Result<Vec<(String, Vec<u8>)>, String> {
    let read =
        |path: &str| std::fs::read_to_string(root.join(path)).map_err(|e| format!("{path}: {e}"));
    let mut all: Vec<(String, Vec<u8>)> = iribis_gen_syntax::files(root)?
        .into_iter()
        .map(|(path, text)| (path, text.into_bytes()))
        .collect();
    all.extend(files()?);
    all.push((js::PATH.to_owned(), js::module()?.into_bytes()));
    let lookalikes = lookalikes::table(&read(lookalikes::DATA)?)?;
    all.push((lookalikes::PATH.to_owned(), lookalikes.into_bytes()));
    all.extend(corpus::files(root));
    all.extend(encodings::files());
    let doc = catalogue::document(&read(catalogue::PATH)?)?;
    all.push((catalogue::PATH.to_owned(), doc.into_bytes()));
    Ok(all)
}

/// The profiles, by the names of `iribis::grammar::ABNF_PROFILES`.
const PROFILES: [&str; 4] = ["rfc3987bis", "rfc3987", "leiri", "rfc3986"];

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

/// Every generated file: its path below the repository root and its
/// contents ([`HEADER`], then the tables).
pub fn files() -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut grammars = HashMap::new();
    for p in PROFILES {
        let g = Grammar::profile(p).map_err(|e| format!("grammar/abnf: {e}"))?;
        grammars.insert(p, g);
    }
    let mut out = Vec::new();
    for &(profile, rule) in TARGETS {
        let dfa = minimal_dfa(&grammars[profile], rule)
            .map_err(|e| format!("profile {profile}, rule {rule}: {e}"))?;
        let tables =
            Tables::new(&dfa).map_err(|e| format!("profile {profile}, rule {rule}: {e}"))?;
        out.push((
            format!("{FOLDER}/{profile}-{rule}.dfa"),
            with_header(tables.to_bytes()),
        ));
    }
    for profile in PROFILES {
        // Every rule of the profile's own ABNF but the reference rules,
        // whose product tables above serve for error positions too. The
        // IRI profiles' pest grammars also have the URI rules of RFC 3986
        // (`URI`, `path-abempty`, ...): the library reads those from the
        // `rfc3986` file.
        let g = &grammars[profile];
        let mut bytes: Vec<u8> = Vec::new();
        for r in g.rules() {
            let reference = TARGETS
                .iter()
                .any(|&(p, t)| p == profile && t.eq_ignore_ascii_case(&r.name));
            if reference {
                continue;
            }
            let dfa = minimal_dfa(g, &r.name)
                .map_err(|e| format!("profile {profile}, rule {}: {e}", r.name))?;
            RuleDfa::new(&dfa)
                .map_err(|e| format!("profile {profile}, rule {}: {e}", r.name))?
                .write(&r.name, &mut bytes)?;
        }
        out.push((format!("{FOLDER}/{profile}-rules.dfa"), with_header(bytes)));
    }
    Ok(out)
}

fn with_header(bytes: Vec<u8>) -> Vec<u8> {
    let mut out = HEADER.as_bytes().to_vec();
    out.extend(bytes);
    out
}

/// The minimal anchored DFA of `rule` in `grammar`.
fn minimal_dfa(grammar: &Grammar, rule: &str) -> Result<dense::DFA<Vec<u32>>, String> {
    let hir = Translator::new(grammar).rule(rule)?;
    let nfa = thompson::Compiler::new()
        .configure(thompson::Config::new().shrink(true))
        .build_from_hir(&hir)
        .map_err(|e| format!("NFA: {e}"))?;
    dense::Builder::new()
        .configure(
            dense::Config::new()
                .match_kind(MatchKind::All)
                .start_kind(StartKind::Anchored)
                .minimize(true),
        )
        .build_from_nfa(&nfa)
        .map_err(|e| format!("DFA: {e}"))
}

/// The anchored start state of `dfa`.
fn start_of(dfa: &dense::DFA<Vec<u32>>) -> Result<StateID, String> {
    dfa.start_state(&start::Config::new().anchored(Anchored::Yes))
        .map_err(|e| format!("no anchored start state: {e}"))
}

/// The states reachable from `start` that can still reach a match: the
/// others are dead for our purposes. regex-automata reports a match one byte
/// late, so the state after a valid input and one byte more is a match
/// state and not its dead state, although no input through it is valid;
/// the tables must map it to the dead state, so that the dead state is
/// reached at the first byte that cannot belong to a valid input.
fn live_states(dfa: &dense::DFA<Vec<u32>>, start: StateID) -> HashSet<StateID> {
    let mut seen = HashSet::from([start]);
    let mut order = vec![start];
    let mut into: HashMap<StateID, Vec<StateID>> = HashMap::new();
    let mut i = 0;
    while i < order.len() {
        let d = order[i];
        for b in 0..=255u8 {
            let to = dfa.next_state(d, b);
            if dfa.is_dead_state(to) {
                continue;
            }
            into.entry(to).or_default().push(d);
            if seen.insert(to) {
                order.push(to);
            }
        }
        i += 1;
    }
    let mut live: HashSet<StateID> = order
        .iter()
        .copied()
        .filter(|&d| dfa.is_match_state(dfa.next_eoi_state(d)))
        .collect();
    let mut stack: Vec<StateID> = live.iter().copied().collect();
    while let Some(d) = stack.pop() {
        for &p in into.get(&d).map(Vec::as_slice).unwrap_or(&[]) {
            if live.insert(p) {
                stack.push(p);
            }
        }
    }
    live
}

/// A rule's minimal DFA as the library's `fast::RuleDfa` reads it.
///
/// State 0 is dead, state 1 the start, the others numbered as a
/// breadth-first walk from the start reaches them; bytes of one class lead
/// every state to the same state.
pub struct RuleDfa {
    class: [u8; 256],
    accept: Vec<bool>,
    /// Per state, the next state of each class (state major).
    next: Vec<u16>,
    classes: usize,
}

impl RuleDfa {
    fn new(dfa: &dense::DFA<Vec<u32>>) -> Result<RuleDfa, String> {
        let start = start_of(dfa)?;
        let mut class = [0u8; 256];
        let mut examples: Vec<u8> = Vec::new();
        let mut seen: HashMap<u8, u8> = HashMap::new();
        for b in 0..=255u8 {
            let k = dfa.byte_classes().get(b);
            let n = *seen.entry(k).or_insert_with(|| {
                examples.push(b);
                u8::try_from(examples.len() - 1).expect("at most 256 classes")
            });
            class[usize::from(b)] = n;
        }
        let live = live_states(dfa, start);
        let mut states: Vec<StateID> = vec![start, start];
        let mut number: HashMap<StateID, u16> = HashMap::from([(start, 1)]);
        let (mut accept, mut next) = (Vec::new(), Vec::new());
        let mut i = 0;
        while i < states.len() {
            let d = states[i];
            let dead = i == 0;
            accept.push(!dead && dfa.is_match_state(dfa.next_eoi_state(d)));
            for &b in &examples {
                let to = dfa.next_state(d, b);
                let to = if dead || !live.contains(&to) {
                    0
                } else if let Some(&n) = number.get(&to) {
                    n
                } else {
                    let n = u16::try_from(states.len()).map_err(|_| "more than 65,535 states")?;
                    states.push(to);
                    number.insert(to, n);
                    n
                };
                next.push(to);
            }
            i += 1;
        }
        Ok(RuleDfa {
            class,
            accept,
            next,
            classes: examples.len(),
        })
    }

    /// Appends the DFA: the length of the rule's name in bytes (one byte)
    /// and the name, the number of states n and of classes c (little-endian
    /// `u16`s), the class of each of the 256 bytes (a byte each), per state
    /// whether it accepts (1) or not (0), the width w of a state's number
    /// (1 when n <= 256, else 2), and per state its c next states, w bytes
    /// each, little-endian.
    fn write(&self, name: &str, out: &mut Vec<u8>) -> Result<(), String> {
        let n = self.accept.len();
        out.push(u8::try_from(name.len()).map_err(|_| "a rule name of over 255 bytes")?);
        out.extend(name.as_bytes());
        for k in [n, self.classes] {
            out.extend(u16::try_from(k).expect("at most 65,535").to_le_bytes());
        }
        out.extend(self.class);
        out.extend(self.accept.iter().map(|&a| u8::from(a)));
        if n <= 256 {
            out.push(1);
            out.extend(self.next.iter().map(|&s| s as u8));
        } else {
            out.push(2);
            out.extend(self.next.iter().flat_map(|s| s.to_le_bytes()));
        }
        Ok(())
    }
}

/// The product of a grammar DFA and the delimiter automaton, as the
/// library's `fast::Validator` reads it.
///
/// State 0 is dead (it leads only to itself and does not accept), state 1
/// the start; the others are numbered as a breadth-first walk from the
/// start reaches them. The delimiter automaton adds few states: most of the
/// DFA's already know which component they are in.
pub struct Tables {
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

/// Moore's refinement of a DFA's `initial.len()` states, then their new
/// numbering, as both the library's tables ([`Tables`]) and the JavaScript
/// module ([`js`]) minimize theirs. `initial` puts each state in a block by
/// what it says by itself (the dead state 0 alone); `successors(s)` lists
/// its next states, one for each class of input in a fixed order. Blocks
/// are split by the blocks of the next states until none splits. Returns
/// one state of each block, in the new order (dead 0, start 1, the others
/// breadth-first from the start), and the new number of every state.
pub(crate) fn minimize_states(
    initial: Vec<usize>,
    successors: impl Fn(usize) -> Vec<usize>,
) -> (Vec<usize>, Vec<usize>) {
    let n = initial.len();
    let mut block = initial;
    let mut blocks = block.iter().collect::<HashSet<_>>().len();
    loop {
        let mut names: HashMap<Vec<usize>, usize> = HashMap::new();
        let refined: Vec<usize> = (0..n)
            .map(|s| {
                let mut key = vec![block[s]];
                key.extend(successors(s).into_iter().map(|to| block[to]));
                let fresh = names.len();
                *names.entry(key).or_insert(fresh)
            })
            .collect();
        // A refinement only splits blocks: as many as before, none split.
        let done = names.len() == blocks;
        (block, blocks) = (refined, names.len());
        if done {
            break;
        }
    }
    let mut number: Vec<Option<usize>> = vec![None; blocks];
    let mut order: Vec<usize> = vec![0, 1];
    number[block[0]] = Some(0);
    number[block[1]] = Some(1);
    let mut i = 1;
    while i < order.len() {
        for to in successors(order[i]) {
            if number[block[to]].is_none() {
                number[block[to]] = Some(order.len());
                order.push(to);
            }
        }
        i += 1;
    }
    let renumbered = block
        .iter()
        .map(|&b| number[b].expect("every state is reachable"))
        .collect();
    (order, renumbered)
}

impl Tables {
    fn new(dfa: &dense::DFA<Vec<u32>>) -> Result<Tables, String> {
        let start = start_of(dfa)?;
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
        let live = live_states(dfa, start);
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
                let to = if dead || !live.contains(&to.0) {
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
        tables.minimize();
        tables.pair_columns()?;
        Ok(tables)
    }

    /// Merges the states that no input tells apart: the same acceptance and
    /// phase, and, on every class of bytes, equivalent next states (Moore's
    /// refinement). regex-automata's DFA is minimal for its own semantics,
    /// which report a match one byte late, so it keeps apart states that
    /// differ only in whether the byte before was the end of a match: the
    /// path after an ASCII character and after the last byte of a
    /// non-ASCII one, for example (307 states become 277 for rfc3987bis
    /// `IRI-reference`). Merged, every position inside a path, a query or
    /// a registered name outside a percent-encoding or a character has one
    /// state, which the library's walk guesses when it splits the input in
    /// two (`src/fast/mod.rs`). Numbering as in [`Tables::new`]: dead 0,
    /// start 1, the others in breadth-first order from the start.
    fn minimize(&mut self) {
        // Block of each state: first by what a state says by itself.
        let mut names: HashMap<(bool, u8, bool), usize> = HashMap::new();
        let initial = (0..self.accept.len())
            .map(|s| {
                let fresh = names.len();
                *names
                    .entry((self.accept[s], self.phase[s], s == 0))
                    .or_insert(fresh)
            })
            .collect();
        let (order, number) = minimize_states(initial, |s| {
            self.next
                .iter()
                .map(|column| usize::from(column[s]))
                .collect()
        });
        // At most as many states as before, which fitted in a u16.
        let renumber = |s: u16| number[usize::from(s)] as u16;
        self.accept = order.iter().map(|&s| self.accept[s]).collect();
        self.phase = order.iter().map(|&s| self.phase[s]).collect();
        for column in &mut self.next {
            *column = order.iter().map(|&s| renumber(column[s])).collect();
        }
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
            // Node is non-exhaustive: a kind added to the reader needs its
            // regular expression here.
            other => {
                return Err(format!(
                    "an ABNF node the generator cannot compile: {other:?}"
                ));
            }
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
