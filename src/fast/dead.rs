//! Where an input stops being valid, by the minimal DFAs of the grammar.
//!
//! A minimal DFA has one dead state, and it is reached at the first byte
//! after which no continuation can make the input valid. So the first
//! character that cannot belong to any valid input, the position a
//! [`ParseError`](crate::error::ParseError) reports, is exact by construction:
//! the character whose bytes lead the rule's DFA into the dead state (or the
//! end of the input, when the walk ends in a live state that does not
//! accept). The pest parser, whose furthest attempt can stop short of that
//! (it backs out of an IP literal at its `[`), is asked only to explain.
//!
//! The four reference rules of each profile use the fast path's tables
//! (their states also carry the delimiter phase, which keeps the dead state
//! exact: the phase automaton never rejects). Every other rule has a table
//! of its own in `tables/PROFILE-rules.dfa`, written by `gen/`.

use crate::nostd::{HashMap, LazyLock, OnceLock};
use crate::prelude::*;

use super::{DEAD, START, Validator, body, validator};
use crate::profile::Profile;
use crate::rule::GrammarRule;
use crate::rule::Sym;

/// A rule's minimal DFA, as `gen/` writes it (`RuleDfa::write` there).
pub(crate) struct RuleDfa {
    class: [u8; 256],
    accept: Vec<bool>,
    /// Per state, the next state of each class (state major).
    next: Vec<u16>,
    classes: usize,
    /// The tree of shortest inputs, built when first asked for.
    shortest: OnceLock<ShortestInputs>,
}

impl RuleDfa {
    /// Reads the DFAs of one `PROFILE-rules.dfa` file, by rule name in
    /// lowercase. Malformed tables (a build error, which the tests rule
    /// out) end the reading; the rules read so far are kept.
    fn read_all(bytes: &[u8]) -> HashMap<String, RuleDfa> {
        let mut out = HashMap::new();
        let mut rest = bytes;
        while !rest.is_empty() {
            match RuleDfa::read(rest) {
                Some((name, dfa, tail)) => {
                    out.insert(name, dfa);
                    rest = tail;
                }
                None => break,
            }
        }
        out
    }

    fn read(bytes: &[u8]) -> Option<(String, RuleDfa, &[u8])> {
        let (&len, rest) = bytes.split_first()?;
        let (name, rest) = rest.split_at_checked(usize::from(len))?;
        let name = core::str::from_utf8(name).ok()?.to_ascii_lowercase();
        let (counts, rest) = rest.split_at_checked(4)?;
        let n = usize::from(u16::from_le_bytes([counts[0], counts[1]]));
        let classes = usize::from(u16::from_le_bytes([counts[2], counts[3]]));
        let (class, rest) = rest.split_at_checked(256)?;
        let (accept, rest) = rest.split_at_checked(n)?;
        let (&width, rest) = rest.split_first()?;
        let (next, rest) = rest.split_at_checked(n * classes * usize::from(width))?;
        let next: Vec<u16> = match width {
            1 => next.iter().map(|&s| u16::from(s)).collect(),
            2 => next
                .chunks_exact(2)
                .map(|w| u16::from_le_bytes([w[0], w[1]]))
                .collect(),
            _ => return None,
        };
        let class: [u8; 256] = class.try_into().ok()?;
        // Every index in range and the dead state dead: stepping cannot fail.
        if n < 2
            || accept[0] != 0
            || class.iter().any(|&k| usize::from(k) >= classes)
            || next.iter().any(|&s| usize::from(s) >= n)
            || next[..classes].iter().any(|&s| s != 0)
        {
            return None;
        }
        let dfa = RuleDfa {
            class,
            accept: accept.iter().map(|&a| a == 1).collect(),
            next,
            classes,
            shortest: OnceLock::new(),
        };
        Some((name, dfa, rest))
    }
}

/// The rule DFAs of each profile, read on first use.
macro_rules! rule_tables {
    ($($name:ident = $file:literal;)*) => {
        $(static $name: LazyLock<HashMap<String, RuleDfa>> =
            LazyLock::new(|| RuleDfa::read_all(body(include_bytes!(concat!("tables/", $file)))));)*
    };
}

rule_tables! {
    BIS_RULES = "rfc3987bis-rules.dfa";
    RFC3987_RULES = "rfc3987-rules.dfa";
    LEIRI_RULES = "leiri-rules.dfa";
    RFC3986_RULES = "rfc3986-rules.dfa";
}

/// The minimal DFA of a grammar rule under a profile, over UTF-8 bytes,
/// stepped a byte at a time.
///
/// State [`Dfa::DEAD`] is the dead state (no continuation is valid) and
/// [`Dfa::START`] the start; every state is below [`Dfa::states`]. The
/// DFAs are generated from the ABNF (`gen/`) and checked in, so this walks
/// the spec's own language.
///
/// ```
/// use iribis::{dfa::Dfa, GrammarRule, Profile};
///
/// let dfa = Dfa::of(GrammarRule::from_name("IPv4address").unwrap(), Profile::Rfc3987bis).unwrap();
/// assert!(dfa.accepts_all("192.0.2.1"));
/// // The first character that no valid input can have there: the "6" of 256.
/// assert_eq!(dfa.dead_end("192.0.2.256").map(|d| d.byte()), Some(10));
/// let mut s = Dfa::START;
/// for &b in b"10.0.0.1" {
///     s = dfa.step(s, b);
/// }
/// assert!(dfa.accepts(s));
/// ```
#[derive(Clone, Copy)]
pub struct Dfa(Tables);

/// Where a [`Dfa`]'s transitions are.
#[derive(Clone, Copy)]
enum Tables {
    /// A reference rule's fast-path tables.
    Reference(&'static Validator),
    /// Any other rule's minimal DFA.
    Rule(&'static RuleDfa),
}

impl Dfa {
    /// The dead state: no continuation of the input is valid.
    pub const DEAD: usize = DEAD;
    /// The start state.
    pub const START: usize = START;

    /// The DFA of `rule` (by the profile's own name, `URI-reference` under
    /// `rfc3986`) under `profile`, if there is one.
    pub fn of(rule: GrammarRule, profile: Profile) -> Option<Dfa> {
        use Sym::{
            IRI, IRI_reference, URI, URI_reference, absolute_IRI, absolute_URI, irelative_ref,
            relative_ref,
        };
        // The URI rules are the same in every profile (the IRI profiles'
        // grammars include RFC 3986's): their tables are `rfc3986`'s.
        let reference = match rule.0 {
            IRI_reference | IRI | absolute_IRI | irelative_ref => Some((rule, profile)),
            URI_reference => Some((GrammarRule::IRI_REFERENCE, Profile::Rfc3986)),
            URI => Some((GrammarRule::IRI, Profile::Rfc3986)),
            absolute_URI => Some((GrammarRule::ABSOLUTE_IRI, Profile::Rfc3986)),
            relative_ref => Some((GrammarRule::IRELATIVE_REF, Profile::Rfc3986)),
            _ => None,
        };
        if let Some((rule, profile)) = reference {
            return validator(rule, profile).map(|v| Dfa(Tables::Reference(v)));
        }
        let name = rule.abnf_name().to_ascii_lowercase();
        let own: &HashMap<String, RuleDfa> = match profile {
            Profile::Rfc3987bis => &BIS_RULES,
            Profile::Rfc3987 => &RFC3987_RULES,
            Profile::Leiri => &LEIRI_RULES,
            Profile::Rfc3986 => &RFC3986_RULES,
        };
        own.get(&name)
            .or_else(|| RFC3986_RULES.get(&name))
            .map(|d| Dfa(Tables::Rule(d)))
    }

    /// The state after `b` from state `s`: [`Dfa::DEAD`] once no
    /// continuation is valid. `s` must be below [`Dfa::states`].
    #[inline]
    pub fn step(self, s: usize, b: u8) -> usize {
        match self.0 {
            Tables::Reference(v) => v.next_state(s, b),
            Tables::Rule(d) => {
                usize::from(d.next[s * d.classes + usize::from(d.class[usize::from(b)])])
            }
        }
    }

    /// Whether an input may end in state `s`, a state below
    /// [`Dfa::states`].
    pub fn accepts(self, s: usize) -> bool {
        match self.0 {
            Tables::Reference(v) => v.accept[s % super::STATES],
            Tables::Rule(d) => d.accept[s],
        }
    }

    /// The tree of shortest inputs to each state, built on first use.
    fn shortest_inputs(self) -> &'static ShortestInputs {
        match self.0 {
            Tables::Reference(v) => v.shortest.get_or_init(|| ShortestInputs::of(self)),
            Tables::Rule(d) => d.shortest.get_or_init(|| ShortestInputs::of(self)),
        }
    }

    /// The number of states, the dead one included.
    pub fn states(self) -> usize {
        match self.0 {
            Tables::Reference(v) => v.states,
            Tables::Rule(d) => d.accept.len(),
        }
    }

    /// Where `input` stops being a prefix of a valid input: `None` when the
    /// whole of it is valid.
    pub fn dead_end(self, input: &str) -> Option<DeadEnd> {
        let mut s = START;
        // The state at the start of the character being read.
        let (mut at, mut before) = (0, START);
        for (i, &b) in input.as_bytes().iter().enumerate() {
            if b & 0xC0 != 0x80 {
                (at, before) = (i, s);
            }
            s = self.step(s, b);
            if s == DEAD {
                return Some(DeadEnd {
                    dfa: self,
                    byte: at,
                    state: before,
                });
            }
        }
        (!self.accepts(s)).then_some(DeadEnd {
            dfa: self,
            byte: input.len(),
            state: s,
        })
    }

    /// Whether the whole of `input` is in the rule's language.
    pub fn accepts_all(self, input: &str) -> bool {
        self.dead_end(input).is_none()
    }
}

/// The first character of an input that cannot belong to any valid input
/// (or its end, when it ends too early), and the DFA's state before it.
#[derive(Clone, Copy)]
pub struct DeadEnd {
    dfa: Dfa,
    /// The byte offset of that character, or the input's length.
    pub(crate) byte: usize,
    /// The state after the input's first `byte` bytes: a live state.
    state: usize,
}

/// What could stand at a [`DeadEnd`] instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Allowed {
    /// Bit `b` set: the ASCII character `b` could stand there.
    pub(crate) ascii: u128,
    /// Some non-ASCII character could stand there.
    pub(crate) non_ascii: bool,
    /// The input could end there.
    pub(crate) end: bool,
}

impl Allowed {
    /// Whether the ASCII character `c` could stand there.
    pub(crate) fn has(&self, c: u8) -> bool {
        c < 128 && self.ascii & (1 << c) != 0
    }
}

impl DeadEnd {
    /// The byte offset of the first character that no valid input can
    /// have there, or the input's length when the input ends too early.
    pub fn byte(&self) -> usize {
        self.byte
    }

    /// The characters that could stand at the position instead: those
    /// whose first byte leads to a live state. (A non-ASCII character is
    /// allowed when some lead byte is; which ones exactly, the report
    /// leaves to the rules it names.)
    pub(crate) fn allowed(&self) -> Allowed {
        let mut ascii = 0u128;
        for b in 0..128u8 {
            if self.dfa.step(self.state, b) != DEAD {
                ascii |= 1 << b;
            }
        }
        let non_ascii = (0xC2..=0xF4u8).any(|b| self.dfa.step(self.state, b) != DEAD);
        Allowed {
            ascii,
            non_ascii,
            end: self.dfa.accepts(self.state),
        }
    }

    /// A shortest input that leads the DFA to the same state as the input's
    /// first [`DeadEnd::byte`] bytes: every continuation is then valid or
    /// not for both alike, so a parser can be asked about a short input in
    /// place of a long one. Letters and digits are preferred, so the input
    /// reads like one; the DFA of a rule over UTF-8 only reaches a state at
    /// a character boundary through whole characters, so it is a string.
    pub(crate) fn shortest_prefix(&self) -> String {
        let tree = self.dfa.shortest_inputs();
        let mut bytes = Vec::new();
        let mut s = self.state;
        while let Some((p, b)) = tree.0.get(s).copied().flatten() {
            bytes.push(b);
            s = usize::from(p);
        }
        bytes.reverse();
        String::from_utf8(bytes).unwrap_or_default()
    }
}

/// Per state of a DFA, the state before it on a shortest input that leads
/// there from the start and the byte that takes it there (`None` for the
/// start and the states no input reaches): a breadth-first tree, built
/// once per DFA, with bytes in order of preference (letters, then digits,
/// so that the inputs read like text).
pub(crate) struct ShortestInputs(Vec<Option<(u16, u8)>>);

impl ShortestInputs {
    fn of(dfa: Dfa) -> ShortestInputs {
        let n = dfa.states();
        let order: Vec<u8> = (b'a'..=b'z')
            .chain(b'0'..=b'9')
            .chain(b'A'..=b'Z')
            .chain((0..=255u8).filter(|b| !b.is_ascii_alphanumeric()))
            .collect();
        let mut from: Vec<Option<(u16, u8)>> = vec![None; n];
        let mut seen = vec![false; n];
        seen[START] = true;
        let mut queue = alloc::collections::VecDeque::from([START]);
        while let Some(s) = queue.pop_front() {
            for &b in &order {
                let t = dfa.step(s, b);
                if t != DEAD && !seen[t] {
                    seen[t] = true;
                    // State numbers fit in u16: the tables store them so.
                    from[t] = Some((s as u16, b));
                    queue.push_back(t);
                }
            }
        }
        ShortestInputs(from)
    }
}
