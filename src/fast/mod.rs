//! The fast path of the reference parsers: a DFA compiled from the spec's
//! ABNF decides validity, and the delimiters give the components; and the
//! exact position of a parse error, from the DFA of any rule (`dead`).
//!
//! The generator in `gen/` (run by hand, never in a dependent's build; a
//! test fails when its output is stale) reads `grammar/abnf/` through the
//! grammar lab's ABNF reader (`crates/lab/src/abnf.rs`), translates each
//! rule into a regular expression syntax tree (the grammar has no recursive
//! rule, so its language is regular; ABNF's unordered alternation and
//! case-insensitive strings carry over as they are), and has
//! `regex-automata` determinize it into a minimized dense DFA over UTF-8
//! bytes. For the four reference rules of each profile it crosses the DFA
//! with the delimiter automaton of RFC 3986 Appendix B (`phase`), so that
//! each state also knows which component the input is in. The tables are
//! checked in under `tables/`, embedded here and decoded on first use.
//!
//! One walk, a load per pair of bytes, decides validity and counts the
//! bytes of each component (an input of 24 to 255 bytes is cut in two at
//! its middle, and both pieces are walked at once, the second from the
//! state the walk is most likely in there: `Validator::walk_cut`); `split`
//! reads the components off the counts.
//! `Validator::load` checks the properties of the tables that the split's
//! spans rest on (`proof`), once per table and process, and refuses a
//! table that lacks them: that rule is then parsed by pest.
//! An input the DFA rejects gets a [`ParseError`](crate::error::ParseError) whose
//! details the pest parser, the reference, works out when they are first
//! asked for.
//! The tests in `tests/syntax/fast_path.rs` check that the two paths agree.

pub(crate) mod dead;
pub(crate) mod literal;
pub mod phase;
mod proof;
mod split;

use crate::prelude::*;
pub(crate) use proof::Proven;

use crate::nostd::LazyLock;

use crate::meta::Meta;
use crate::profile::Profile;
use crate::rule::GrammarRule;

/// The bits of a pair column's entry that hold a state (as in `gen/`):
/// a table can have at most 512 states.
const STATE_BITS: u32 = 9;
/// The states a pair column's entry can name.
const STATES: usize = 1 << STATE_BITS;
// A pair column's entry is a `u16`: the phase above the state must fit.
const _: () = assert!(phase::COUNT <= 1 << (16 - STATE_BITS));
/// The pair columns a table can have, the one that leads every state to
/// itself included: `Validator::pair` holds a column's number times
/// [`COLUMN_SCALE`] in a `u16`.
const MAX_COLUMNS: usize = 512;
/// What a column's number is multiplied by in `Validator::pair`: so that
/// the number times [`STATES`] (where its column starts in
/// `Validator::columns`) is the `u16` times four, which the compiler knows
/// to be below `1 << 18` without a check.
const COLUMN_SCALE: usize = STATES / 4;
const _: () = assert!(MAX_COLUMNS * COLUMN_SCALE <= 1 << 16);
/// The length of `Validator::columns`: more than the largest index a `u16`
/// times four plus a state can make.
const COLUMNS_LEN: usize = (1 << 18) + STATES;
/// The dead state of every table: it leads only to itself.
pub(crate) const DEAD: usize = 0;
/// The start state of every table.
pub(crate) const START: usize = 1;
/// The inputs whose counts fit in one word: each group's count and the
/// running sums of the counts stay below 256 (`split::Packed`).
const PACKED: usize = 256;

/// A DFA crossed with the delimiter automaton, decoded from the tables
/// `gen/` wrote.
///
/// State 0 is dead (it leads only to itself and does not accept), state 1
/// the start. The walk reads two bytes a step. A pair of bytes selects a
/// column of `columns`, whose entry for the state before them gives the
/// state after them (and the phase in between). The column is known
/// before the previous step's state is, so the chain of dependent
/// instructions from one step to the next is that one load and a mask:
/// half as long per byte as with single steps, which was the walk's bound
/// (docs/performance.md). The tables are indexed with safe code and sized
/// so that the loop checks no bound: the columns back to back in one array
/// longer than any index a `u16` times four plus a masked state can make,
/// per-pair and per-entry tables as long as a `u16`'s range.
pub(crate) struct Validator {
    /// The number of states.
    states: usize,
    /// The class of each byte: bytes of a class lead every state alike.
    class: [u8; 256],
    /// Per class, per state, the next state, at `class * STATES + state`:
    /// the last byte of an input of odd length, error positions and the
    /// tests. As long as the largest such index, so that none is checked.
    next: &'static [u16; 256 * STATES],
    /// Per state, whether the input may end there.
    accept: &'static [bool; STATES],
    /// Per state, its phase (`phase.rs`), which the tests check.
    #[cfg(test)]
    phase: &'static [u8],
    /// Per state, a count of one for its phase's group (`split::group`):
    /// `1 << (8 * group)`, a byte of count per group, or none.
    one: &'static [u64; STATES],
    /// Per pair of bytes (the second byte major), the number of its column
    /// times [`COLUMN_SCALE`].
    pair: &'static [u16; 1 << 16],
    /// The same for the column that leads every state to itself (its
    /// entries' counts are two bytes that no input has; the walk masks them
    /// off): the step on the pair left over after the walk's steps of four
    /// bytes, when there is none (`Validator::walk_packed`).
    no_pair: u16,
    /// Per pair column, per state before the pair: the entry
    /// `state after | phase after the first byte << STATE_BITS`, at
    /// `column number * STATES + state`.
    columns: &'static [u16; COLUMNS_LEN],
    /// Per entry of a pair column, the counts of both bytes' groups. As
    /// long as a `u16`'s range, so that the walk indexes it with the entry
    /// as it is, without masking the phase off (that, and the little-endian
    /// index of `pair`, took a URL's parse from 1.15 to 1.01 × oxiri's in
    /// the harness of docs/performance.md). Only the first `phase::COUNT
    /// << STATE_BITS` entries are written; the rest are zero pages the
    /// system maps only when touched, and no entry points there.
    two: &'static [u64; 1 << 16],
    /// The state inside a path (after "a://a/", or "//a/" for a rule
    /// without a scheme), one of the states where the second piece of
    /// [`Validator::walk_cut`] starts.
    path: usize,
    /// The state inside a query (after "a:?" or "?").
    query: usize,
    /// The state inside a registered name, after a letter (after "a://a"
    /// or "//a").
    host: usize,
    /// The tree of shortest inputs (error reports), built when first asked for.
    shortest: crate::nostd::OnceLock<dead::ShortestInputs>,
    /// The tables passed `proof::check`: the split's spans fit its input.
    checked: proof::Checked,
}

/// Why [`Validator::load`] refused a table.
#[derive(Debug, PartialEq, Eq)]
enum Refused {
    /// Not what `gen/` writes: too short, or a state, a class, a phase or a
    /// pair column out of range.
    Malformed,
    /// A property that the split's spans rest on fails (`proof::check`).
    Unsound(proof::Violation),
}

impl Validator {
    /// Decodes the tables of `gen/` (see its `Tables::to_bytes`) and
    /// composes the pair columns from the single steps (about 0.1 ms). The
    /// tables live as long as the program: they are leaked once per
    /// validator, about 1.4 MB of address space of which about 0.7 MB is
    /// written for `IRI-reference` (the 128 KB index of byte pairs, 410
    /// pair columns a KB apart, the single steps of 69 classes a KB apart,
    /// the first 53 KB of the counts; the rest are zero pages the system
    /// maps only when touched). Then checks the properties that the
    /// split's spans rest on (`proof::check`: for `IRI-reference`, 1.3
    /// million instructions of the load's 5.3 million, 0.08 ms of 0.7 ms).
    /// An error if the tables are malformed or fail the check, which
    /// `every_table_loads` would show; the callers then take the pest path.
    fn load(bytes: &[u8]) -> Result<Validator, Refused> {
        let mut words = bytes
            .chunks_exact(2)
            .map(|w| u16::from_le_bytes([w[0], w[1]]));
        let mut take = |k: usize| -> Result<Vec<u16>, Refused> {
            let v: Vec<u16> = words.by_ref().take(k).collect();
            if v.len() == k {
                Ok(v)
            } else {
                Err(Refused::Malformed)
            }
        };
        let head = take(2)?;
        let (n, classes) = (usize::from(head[0]), usize::from(head[1]));
        let class = take(256)?;
        let accept: Vec<bool> = take(n)?.into_iter().map(|a| a == 1).collect();
        let phases = take(n)?;
        let next = take(n * classes)?;
        let pair_columns = usize::from(take(1)?[0]);
        let pair = take(classes * classes)?;
        // Every state in range, and the dead state dead: the walk's
        // indexing cannot fail.
        if !(2..=STATES).contains(&n)
            || accept[0]
            || class.iter().any(|&k| usize::from(k) >= classes)
            || classes > 256
            || next.iter().any(|&s| usize::from(s) >= n)
            || next.chunks(n).any(|column| column[0] != 0)
            || phases.iter().any(|&p| usize::from(p) >= phase::COUNT)
            || pair.iter().any(|&k| usize::from(k) >= pair_columns)
            || pair_columns >= MAX_COLUMNS
        {
            return Err(Refused::Malformed);
        }
        let phases: Vec<u8> = phases.iter().map(|&p| p as u8).collect();
        // The pair columns, each composed once, from the first pair of
        // classes that names it; after them, the column of no pair.
        let mut columns: Box<[u16; COLUMNS_LEN]> = zeros();
        let mut done = vec![false; pair_columns];
        for (i, &k) in pair.iter().enumerate() {
            let k = usize::from(k);
            if done[k] {
                continue;
            }
            done[k] = true;
            let (a, b) = (
                &next[(i / classes) * n..][..n],
                &next[(i % classes) * n..][..n],
            );
            for (entry, &m) in columns[k * STATES..].iter_mut().zip(a) {
                let m = usize::from(m);
                *entry = b[m] | u16::from(phases[m]) << STATE_BITS;
            }
        }
        for (s, entry) in columns[pair_columns * STATES..][..n].iter_mut().enumerate() {
            *entry = s as u16 | u16::from(phases[s]) << STATE_BITS;
        }
        let mut one: Box<[u64; STATES]> = Box::new([0; STATES]);
        for (count, &p) in one.iter_mut().zip(&phases) {
            *count = split::count_of(p);
        }
        let mut two: Box<[u64; 1 << 16]> = zeros();
        for (e, count) in two.iter_mut().enumerate() {
            let (s, middle) = (e % STATES, e / STATES);
            if s < n && middle < phase::COUNT {
                *count = split::count_of(middle as u8) + one[s];
            }
        }
        let mut by_bytes: Box<[u16; 1 << 16]> = zeros();
        for (i, k) in by_bytes.iter_mut().enumerate() {
            // Little-endian: the first byte is the low one.
            let (a, b) = (usize::from(class[i & 0xff]), usize::from(class[i >> 8]));
            *k = pair[a * classes + b] * COLUMN_SCALE as u16;
        }
        let mut flat: Box<[u16; 256 * STATES]> = zeros();
        for (k, column) in next.chunks(n).enumerate() {
            flat[k * STATES..][..n].copy_from_slice(column);
        }
        let mut accepting: Box<[bool; STATES]> = Box::new([false; STATES]);
        accepting[..n].copy_from_slice(&accept);
        let class: [u8; 256] = core::array::from_fn(|b| class[b] as u8);
        let checked = proof::check(&proof::Tables {
            states: n,
            class: &class,
            classes,
            next: &flat[..],
            accept: &accepting[..],
            phases: &phases,
            pair: &pair,
            columns: &columns[..],
            pair_columns,
        })
        .map_err(Refused::Unsound)?;
        let mut v = Validator {
            states: n,
            class,
            next: Box::leak(flat),
            accept: Box::leak(accepting),
            #[cfg(test)]
            phase: Vec::leak(phases),
            one: Box::leak(one),
            pair: Box::leak(by_bytes),
            no_pair: (pair_columns * COLUMN_SCALE) as u16,
            columns: Box::leak(columns),
            two: Box::leak(two),
            path: DEAD,
            query: DEAD,
            host: DEAD,
            shortest: crate::nostd::OnceLock::new(),
            checked,
        };
        // The state after the first of `inputs` that leads to one.
        let after = |inputs: [&str; 2]| {
            inputs
                .into_iter()
                .map(|input| input.bytes().fold(START, |s, b| v.next_state(s, b)))
                .find(|&s| s != DEAD)
                .unwrap_or(DEAD)
        };
        [v.path, v.query, v.host] = [["a://a/", "//a/"], ["a:?", "?"], ["a://a", "//a"]].map(after);
        Ok(v)
    }

    /// The entry after the pair of bytes `p` from the entry `e` (whose
    /// state is its low [`STATE_BITS`]). No bound is checked: the pair's
    /// `u16` times four plus the masked state is below [`COLUMNS_LEN`].
    #[inline(always)]
    fn step(&self, e: usize, p: [u8; 2]) -> usize {
        let column = usize::from(self.pair[usize::from(u16::from_le_bytes(p))]);
        usize::from(self.columns[(column << 2) + e % STATES])
    }

    /// The state after byte `b` from state `s` (a single step).
    #[inline(always)]
    pub(crate) fn next_state(&self, s: usize, b: u8) -> usize {
        let class = usize::from(self.class[usize::from(b)]);
        usize::from(self.next[class * STATES + s % STATES])
    }

    /// The step on the last byte of `input` from state `s` when `input`
    /// has an odd length, or none: the state after it and the count of its
    /// byte. Without a branch (whether a length is odd is a coin toss that
    /// a branch would lose half of the time): the step is taken either way
    /// (`input` is not empty) and its result chosen or not.
    #[inline(always)]
    fn last_step(&self, s: usize, input: &[u8]) -> (usize, u64) {
        let odd = input.len() % 2 == 1;
        let stepped = self.next_state(s, input[input.len() - 1]);
        let t = if odd { stepped } else { s } % STATES;
        (t, self.one[t] & 0u64.wrapping_sub(u64::from(odd)))
    }

    /// Whether the whole of `input` is in the language.
    ///
    /// The walk is one table lookup per pair of bytes with no branch on
    /// the input: the dead state leads only to itself, so it is tested
    /// once, at the end. Skipping runs of bytes that keep the state (a
    /// test per byte against the state's set of such bytes) was tried and
    /// measured slower: every end of a run is a mispredicted branch, and
    /// references change state every few bytes. An input of
    /// [`CUT_ACCEPTS`] bytes or more is walked in two pieces, two chains of
    /// loads side by side ([`Validator::accepts_cut`]).
    #[inline]
    fn accepts(&self, input: &[u8]) -> bool {
        if input.len() >= CUT_ACCEPTS
            && let Some(cut) = self.cut(input)
        {
            return self.accepts_cut(input, cut);
        }
        let (pairs, last) = input.as_chunks::<2>();
        self.accept[self.walk_pairs(START, pairs, last)]
    }

    /// The state after `pairs` from the entry `e`, then after the byte of
    /// `last`, if it has one (the odd byte at the end of a piece).
    #[inline(always)]
    fn walk_pairs(&self, mut e: usize, pairs: &[[u8; 2]], last: &[u8]) -> usize {
        for &p in pairs {
            e = self.step(e, p);
        }
        let mut s = e % STATES;
        if let [c] = *last {
            s = self.next_state(s, c);
        }
        s % STATES
    }

    /// [`Validator::accepts`] with the input cut in two before byte `at`,
    /// the second piece walked from the state `guess` in the same loop as
    /// the first, and again from where the first ended when that is not
    /// `guess` ([`Validator::walk_cut`] without the counts).
    #[inline]
    fn accepts_cut(&self, input: &[u8], (at, guess): (usize, usize)) -> bool {
        let (first, second) = input.split_at(at);
        let (pa, ra) = first.as_chunks::<2>();
        let (pb, rb) = second.as_chunks::<2>();
        let joint = pa.len().min(pb.len());
        let (mut ea, mut eb) = (START, guess);
        for (&p, &q) in pa.iter().zip(pb) {
            ea = self.step(ea, p);
            eb = self.step(eb, q);
        }
        let a = self.walk_pairs(ea, pa.get(joint..).unwrap_or_default(), ra);
        let (from, rest) = if a == guess {
            (eb, pb.get(joint..).unwrap_or_default())
        } else {
            (a, pb)
        };
        self.accept[self.walk_pairs(from, rest, rb)]
    }

    /// As [`Validator::accepts`], counting the bytes spent in each group
    /// of phases that the split reads (`split::group`), for an input
    /// shorter than [`PACKED`]: `Some` with the counts when `input` is in
    /// the language, a byte per group in one word (`split::Packed`).
    ///
    /// The counts are added to once a step (a load at the entry just read,
    /// and an addition; no branch and no store); no byte can overflow in
    /// an input this short. Two steps a turn of the loop: the loop's own
    /// instructions (a pointer's increment, a comparison, a jump) were a
    /// fifth of the walk's. The pair and the byte left over after the
    /// turns are stepped without a branch (`Validator::last_step`): the
    /// pair is read where it would be, or two bytes before the end when
    /// there is none, and stepped through either its column or the one
    /// that leads every state to itself, its counts masked off. Noting
    /// each delimiter's position instead of counting, a store at an
    /// address that depends on the state, was measured slower
    /// (docs/performance.md).
    #[inline]
    fn walk_packed(&self, input: &[u8]) -> Option<u64> {
        debug_assert!(input.len() < PACKED);
        let n = input.len();
        if n < 2 {
            let (s, one) = match *input {
                [c] => {
                    let s = self.next_state(START, c);
                    (s, self.one[s % STATES])
                }
                _ => (START, 0),
            };
            return self.accept[s % STATES].then_some(one);
        }
        let (pairs, _) = input.as_chunks::<2>();
        let (quads, _) = pairs.as_chunks::<2>();
        let mut e = START;
        let mut counts = 0u64;
        for &[p, q] in quads {
            e = self.step(e, p);
            counts += self.two[e];
            e = self.step(e, q);
            counts += self.two[e];
        }
        // The pair after the quads, if the length is 2 or 3 modulo 4.
        let paired = n % 4 >= 2;
        let at = (n - n % 4).min(n - 2);
        let p = [input[at], input[at + 1]];
        let pair = self.pair[usize::from(u16::from_le_bytes(p))];
        let column = usize::from(if paired { pair } else { self.no_pair });
        let e = usize::from(self.columns[(column << 2) + e % STATES]);
        counts += self.two[e] & 0u64.wrapping_sub(u64::from(paired));
        let (s, one) = self.last_step(e % STATES, input);
        self.accept[s].then_some(counts + one)
    }

    /// The walk of [`Validator::walk_packed`] from entry `e` over `pairs`
    /// and then, if its length is odd, the last byte of `piece` (whose
    /// pairs `pairs` are): the state it ends in and its counts.
    #[inline(always)]
    fn walk_piece(&self, mut e: usize, pairs: &[[u8; 2]], piece: &[u8]) -> (usize, u64) {
        let mut counts = 0u64;
        for &p in pairs {
            e = self.step(e, p);
            counts += self.two[e];
        }
        let (s, one) = self.last_step(e % STATES, piece);
        (s, counts + one)
    }

    /// The walk of [`Validator::walk_packed`], with the input cut in two
    /// before byte `at` and both pieces walked in the same loop, the second
    /// from the state `guess` ([`Validator::cut`] chooses both).
    ///
    /// A walk is a chain of dependent loads, one per step, and its time is
    /// the chain's length; the loads of independent chains overlap. When
    /// the first piece ends in `guess`, the second piece's walk is the one
    /// the whole input would have taken, its counts and last state
    /// included (a DFA is deterministic: how the bytes are paired does not
    /// change where they lead). Otherwise the second piece is walked again
    /// from where the first ended. Any `at` and any `guess` give the walk's
    /// result; `cut` only chooses them so that this is fast. No byte is
    /// walked twice on the common path: the work is the plain walk's, the
    /// chain half as long.
    #[inline]
    fn walk_cut(&self, input: &[u8], (at, guess): (usize, usize)) -> Option<u64> {
        let (first, second) = input.split_at(at);
        let (pa, _) = first.as_chunks::<2>();
        let (pb, _) = second.as_chunks::<2>();
        let joint = pa.len().min(pb.len());
        let (mut ea, mut eb) = (START, guess);
        let (mut ca, mut cb) = (0u64, 0u64);
        for (&p, &q) in pa.iter().zip(pb) {
            ea = self.step(ea, p);
            ca += self.two[ea];
            eb = self.step(eb, q);
            cb += self.two[eb];
        }
        let (a, count) = self.walk_piece(ea, pa.get(joint..).unwrap_or_default(), first);
        ca += count;
        let (s, count) = if a == guess {
            self.walk_piece(eb, pb.get(joint..).unwrap_or_default(), second)
        } else {
            // The cut fell elsewhere than the guess said: the second piece
            // again, from where the first ended.
            cb = 0;
            self.walk_piece(a, pb, second)
        };
        self.accept[s].then_some(ca + cb + count)
    }

    /// Where [`Validator::walk_cut`] (and [`Validator::accepts_cut`]) cut
    /// `input`, and the state they guess the walk is in there; `None` for
    /// an input under 24 bytes, whose walk is too short for two chains to
    /// pay for this.
    ///
    /// The cut is at the middle, so that both chains are equally long
    /// (moved forward out of a character's UTF-8; none inside a
    /// percent-encoding). The guess rests on `gen/` merging the states that
    /// no input tells apart: inside a path, after any character of it, the
    /// walk is in one state (the rest of a path, a query and a fragment may
    /// follow), `path`; inside a query, `query`; inside a registered name
    /// after a letter, `host`. So the guess is `query` when a "?" comes
    /// before the cut, else `host` when the input starts with an authority
    /// ("//" in its first eight bytes) and no "/" comes between byte 8 and
    /// the cut, else `path`. It is wrong for a cut in a port, an IP literal
    /// or a userinfo, or after a "#": 5 of the 47,880 URLs of the URL
    /// corpus that are cut, 616 of the 16,756 references of the mixed
    /// corpus (the test `the_cut_guesses_right_on_the_corpora`). The middle
    /// of a URL is in its authority three times out of four (36,339 of
    /// them), in its path most of the other times; the cut this replaced,
    /// after the first "/", "?" or "&" from 7/16 of the length on, left a
    /// URL's second chain 5.1 steps longer than its first on average, and
    /// took 6 to 8 % more time (docs/performance.md).
    #[inline]
    fn cut(&self, input: &[u8]) -> Option<(usize, usize)> {
        let n = input.len();
        if n < 24 {
            return None;
        }
        // Forward out of a character's UTF-8; inside a percent-encoding
        // (rare), no cut.
        let mut at = n / 2;
        while at < n - 1 && (input[at] as i8) < -0x40 {
            at += 1;
        }
        if input[at - 1] == b'%' || input[at - 2] == b'%' {
            return None;
        }
        let first = word(input, 0);
        let slashes = zero_bytes(first ^ (ONES * u64::from(b'/')), true);
        let authority = slashes & (slashes >> 8) != 0;
        let mut query = zero_bytes(first ^ (ONES * u64::from(b'?')), false);
        let mut slash = 0;
        // The words from byte 8 to the cut: whole ones, then the last eight
        // bytes before the cut (those before byte 8 masked off, `at` being
        // at least 12; exactly, so that a byte below the mask marks none
        // above it).
        let last = at - 8;
        let mut i = 8;
        while i < last {
            let w = word(input, i);
            query |= zero_bytes(w ^ (ONES * u64::from(b'?')), false);
            slash |= zero_bytes(w ^ (ONES * u64::from(b'/')), false);
            i += 8;
        }
        let w = word(input, last);
        let keep = u64::MAX << (8 * 8usize.saturating_sub(last));
        query |= zero_bytes(w ^ (ONES * u64::from(b'?')), true) & keep;
        slash |= zero_bytes(w ^ (ONES * u64::from(b'/')), true) & keep;
        let guess = if query != 0 {
            self.query
        } else if authority && slash == 0 {
            self.host
        } else {
            self.path
        };
        Some((at, guess))
    }

    /// As [`Validator::walk_packed`], for an input of any length: the
    /// counts are carried into `usize`s every 127 steps, before a byte can
    /// overflow (each step adds at most two).
    fn walk_wide(&self, input: &[u8]) -> Option<split::Counts> {
        let (pairs, last) = input.as_chunks::<2>();
        let mut e = START;
        let mut counts = [0; split::GROUPS];
        for chunk in pairs.chunks(127) {
            let mut bytes = 0u64;
            for &p in chunk {
                e = self.step(e, p);
                bytes += self.two[e];
            }
            split::carry(bytes, &mut counts);
        }
        let mut s = e % STATES;
        if let [c] = *last {
            s = self.next_state(s, c);
            split::carry(self.one[s % STATES], &mut counts);
        }
        self.accept[s % STATES].then_some(counts)
    }
}

/// Marks the zero bytes of `x`: the top bit of each byte of the result is
/// set where `x` has a zero byte, exactly when `exact`; otherwise the
/// lowest set bit is exact and bits above it may be set too, which is
/// enough to tell whether `x` has a zero byte and takes two instructions
/// less.
///
/// `(x - 0x01…) & !x & 0x80…` marks the lowest zero byte and maybe bytes
/// above it (a borrow runs up from a zero byte); `((x & 0x7f…) + 0x7f…) |
/// x` has the top bit of a byte clear exactly where the byte is zero (no
/// carry crosses a byte).
#[inline(always)]
fn zero_bytes(x: u64, exact: bool) -> u64 {
    const HIGH: u64 = ONES << 7;
    if exact {
        !(((x & !HIGH) + !HIGH) | x) & HIGH
    } else {
        x.wrapping_sub(ONES) & !x & HIGH
    }
}

/// Inputs of at least this many bytes are validated in two pieces
/// ([`Validator::accepts_cut`]). Where calls follow each other in a tight
/// loop, the walks of consecutive inputs already overlap, and the cut's own
/// work showed for shorter ones: cut from 40 bytes on, validating the URL
/// corpus took 1.17 × the time of the single walk, from 64 on 1.00 ×
/// (the mixed corpus 0.98 and 0.96 ×); a Python loop of `is_valid`, where
/// nothing overlaps, took 0.95 × on the mixed corpus (docs/performance.md).
const CUT_ACCEPTS: usize = 64;

/// Eight bytes of ones, a byte each.
const ONES: u64 = 0x0101_0101_0101_0101;

/// The eight bytes of `input` from `at` (which the callers keep in range).
#[inline(always)]
fn word(input: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&input[at..at + 8]);
    u64::from_le_bytes(w)
}

/// A boxed array of zeros, allocated as such (not built on the stack).
fn zeros<T: Copy + Default, const N: usize>() -> Box<[T; N]> {
    match vec![T::default(); N].into_boxed_slice().try_into() {
        Ok(array) => array,
        Err(_) => unreachable!("a vector of N elements is an array of N"),
    }
}

/// A generated table file without its first line, the DO-NOT-EDIT header
/// (a `const fn`, for `table_file`).
const fn body(file: &[u8]) -> &[u8] {
    let mut i = 0;
    while i < file.len() {
        if file[i] == b'\n' {
            return file.split_at(i + 1).1;
        }
        i += 1;
    }
    &[]
}

/// The validator of a generated table file, or `None` if
/// [`Validator::load`] refuses it.
fn loaded(file: &[u8]) -> Option<Validator> {
    Validator::load(body(file)).ok()
}

/// The validators, built on first use, and their table files: one per
/// profile and reference rule (by its 3987bis name).
macro_rules! validators {
    ($($name:ident = $file:literal for $profile:ident $rule:ident;)*) => {
        /// The table files as `gen/` wrote them, once each in the program:
        /// the validators decode them, the checked literals walk them as
        /// they are (`table_file`).
        mod file {
            $(pub(super) const $name: &[u8] = include_bytes!(concat!("tables/", $file));)*
        }
        $(static $name: LazyLock<Option<Validator>> = LazyLock::new(|| loaded(file::$name));)*
        /// Every table file, by name.
        #[cfg(test)]
        const FILES: &[(&str, &[u8])] = &[$(($file, file::$name),)*];

        /// The validator of `rule` (one of the four reference rules, by its
        /// 3987bis name) under `profile`.
        #[inline]
        fn validator(rule: GrammarRule, profile: Profile) -> Option<&'static Validator> {
            let v = match (profile, rule) {
                $((Profile::$profile, GrammarRule::$rule) => &$name,)*
                _ => return None,
            };
            v.as_ref()
        }

        /// The table file of `rule` (as [`validator`]) under `profile`,
        /// without its header line, for a walk in `const` (`crate::literal`).
        pub(crate) const fn table_file(rule: GrammarRule, profile: Profile) -> Option<&'static [u8]> {
            match (profile, rule) {
                $((Profile::$profile, GrammarRule::$rule) => Some(body(file::$name)),)*
                _ => None,
            }
        }
    };
}

validators! {
    BIS_REF = "rfc3987bis-IRI-reference.dfa" for Rfc3987bis IRI_REFERENCE;
    BIS_IRI = "rfc3987bis-IRI.dfa" for Rfc3987bis IRI;
    BIS_ABS = "rfc3987bis-absolute-IRI.dfa" for Rfc3987bis ABSOLUTE_IRI;
    BIS_REL = "rfc3987bis-irelative-ref.dfa" for Rfc3987bis IRELATIVE_REF;
    RFC3987_REF = "rfc3987-IRI-reference.dfa" for Rfc3987 IRI_REFERENCE;
    RFC3987_IRI = "rfc3987-IRI.dfa" for Rfc3987 IRI;
    RFC3987_ABS = "rfc3987-absolute-IRI.dfa" for Rfc3987 ABSOLUTE_IRI;
    RFC3987_REL = "rfc3987-irelative-ref.dfa" for Rfc3987 IRELATIVE_REF;
    LEIRI_REF = "leiri-IRI-reference.dfa" for Leiri IRI_REFERENCE;
    LEIRI_IRI = "leiri-IRI.dfa" for Leiri IRI;
    LEIRI_ABS = "leiri-absolute-IRI.dfa" for Leiri ABSOLUTE_IRI;
    LEIRI_REL = "leiri-irelative-ref.dfa" for Leiri IRELATIVE_REF;
    RFC3986_REF = "rfc3986-URI-reference.dfa" for Rfc3986 IRI_REFERENCE;
    RFC3986_URI = "rfc3986-URI.dfa" for Rfc3986 IRI;
    RFC3986_ABS = "rfc3986-absolute-URI.dfa" for Rfc3986 ABSOLUTE_IRI;
    RFC3986_REL = "rfc3986-relative-ref.dfa" for Rfc3986 IRELATIVE_REF;
}

/// What the fast path makes of an input.
pub(crate) enum Parsed {
    /// The input matches the rule; its components are in the `Meta`, whose
    /// spans fit it.
    Valid(Proven),
    /// The input does not match the rule.
    Invalid,
}

/// Parses `input` at one of the four reference rules (`IRI-reference`,
/// `IRI`, `absolute-IRI`, `irelative-ref`, or their RFC 3986 names), each
/// with its own DFA.
///
/// Fills `meta` when the input matches the rule; `None` when the rule has
/// no DFA (or [`Validator::load`] refused its tables), and the pest parser
/// must decide.
#[inline]
pub(crate) fn parse(
    input: &str,
    rule: GrammarRule,
    profile: Profile,
    meta: &mut Meta,
) -> Option<Parsed> {
    let v = validator(rule, profile)?;
    let proof = if input.len() < PACKED {
        let bytes = input.as_bytes();
        let walked = match v.cut(bytes) {
            Some(cut) => v.walk_cut(bytes, cut),
            None => v.walk_packed(bytes),
        };
        // Every parse in the tests checks the cut walk against the plain.
        debug_assert_eq!(walked, v.walk_packed(bytes), "{input:?}");
        let Some(counts) = walked else {
            return Some(Parsed::Invalid);
        };
        Proven::split(input, &split::Packed::new(counts), meta, v.checked)
    } else {
        let Some(counts) = v.walk_wide(input.as_bytes()) else {
            return Some(Parsed::Invalid);
        };
        Proven::split(input, &split::Wide::new(&counts), meta, v.checked)
    };
    // The split of a valid reference finds a scheme exactly when it is an
    // `IRI` (an `irelative-ref` has no ":" before its first "/", "?" or
    // "#"); the tests check this for each rule's DFA.
    debug_assert!(match rule {
        GrammarRule::IRI => meta.scheme.is_some(),
        GrammarRule::ABSOLUTE_IRI => meta.scheme.is_some() && meta.fragment.is_none(),
        GrammarRule::IRELATIVE_REF => meta.scheme.is_none(),
        _ => true,
    });
    Some(Parsed::Valid(proof))
}

/// Whether the DFA of `rule` (by its 3987bis name: `IRI-reference` stands
/// for `URI-reference` under `rfc3986`) under `profile` accepts `input`;
/// `None` if the profile has no such rule or it has no DFA. The reference
/// rules walk the fast path's tables two bytes a step, the others their
/// own minimal DFA. For the cross-check tests and the fuzz targets, which
/// compare it with pest.
///
/// ```
/// use iribis::{dfa_accepts, GrammarRule, Profile};
///
/// let iri = GrammarRule::IRI;
/// assert_eq!(dfa_accepts("http://例え.jp/", iri, Profile::Rfc3987bis), Some(true));
/// assert_eq!(dfa_accepts("http://例え.jp/", iri, Profile::Rfc3986), Some(false));
/// assert_eq!(dfa_accepts("//例え.jp/", iri, Profile::Rfc3987bis), Some(false));
/// let ipv4 = GrammarRule::from_name("IPv4address").unwrap();
/// assert_eq!(dfa_accepts("255.0.0.1", ipv4, Profile::Rfc3987bis), Some(true));
/// assert_eq!(dfa_accepts("256.0.0.1", ipv4, Profile::Rfc3987bis), Some(false));
/// ```
#[doc(hidden)]
pub fn dfa_accepts(input: &str, rule: GrammarRule, profile: Profile) -> Option<bool> {
    if let Some(v) = validator(rule, profile) {
        return Some(v.accepts(input.as_bytes()));
    }
    let rule = rule.in_profile(profile)?;
    dead::Dfa::of(rule, profile).map(|dfa| dfa.accepts_all(input))
}

/// Whether `input` is a prefix of some input that `rule` matches under
/// `profile`, by the rule's DFA (by its 3987bis name, as for
/// [`dfa_accepts`]); `None` if there is no such DFA. For the tests of error
/// positions: an error at byte p has a viable `input[..p]` and no viable
/// prefix one character longer.
///
/// ```
/// use iribis::{dfa_viable_prefix, GrammarRule, Profile};
///
/// let bis = Profile::Rfc3987bis;
/// assert_eq!(dfa_viable_prefix("http://[1234", GrammarRule::IRI, bis), Some(true));
/// assert_eq!(dfa_viable_prefix("http://[12345", GrammarRule::IRI, bis), Some(false));
/// ```
#[doc(hidden)]
pub fn dfa_viable_prefix(input: &str, rule: GrammarRule, profile: Profile) -> Option<bool> {
    let rule = rule.in_profile(profile)?;
    let dfa = dead::Dfa::of(rule, profile)?;
    Some(dfa.dead_end(input).is_none_or(|d| d.byte == input.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: [GrammarRule; 4] = [
        GrammarRule::IRI_REFERENCE,
        GrammarRule::IRI,
        GrammarRule::ABSOLUTE_IRI,
        GrammarRule::IRELATIVE_REF,
    ];
    const PROFILES: [Profile; 4] = [
        Profile::Rfc3987bis,
        Profile::Rfc3987,
        Profile::Leiri,
        Profile::Rfc3986,
    ];

    /// The phase a state carries.
    fn phase_of(v: &Validator, s: usize) -> u8 {
        v.phase[s]
    }

    /// Every table is well formed and passes `proof::check`, so that no
    /// rule falls back to pest.
    #[test]
    fn every_table_loads() {
        for (file, bytes) in FILES {
            if let Err(refused) = Validator::load(body(bytes)) {
                panic!("{file}: {refused:?}");
            }
        }
        for profile in PROFILES {
            for rule in RULES {
                assert!(validator(rule, profile).is_some(), "{profile:?} {rule:?}");
            }
        }
    }

    /// A small table in the format of `gen/`, for `IRI-reference` over
    /// lowercase letters, "?" and "é": a first run of letters, and a query.
    /// States: 0 dead, 1 start, 2 in the first run, 3 inside an "é" there,
    /// 4 in the query, 5 inside an "é" there. Classes: 0 the other bytes,
    /// 1 the letters, 2 "?", 3 0xc3, 4 the continuation bytes. Each pair of
    /// classes has its own pair column, the first times 5 plus the second.
    struct Small {
        accept: [bool; 6],
        phases: [u8; 6],
        /// Per class, per state, the next state.
        next: [[u16; 6]; 5],
        /// Per pair of classes, its pair column.
        pair: [u16; 25],
    }

    impl Small {
        fn new() -> Small {
            use phase::{FIRST, QUERY, START};
            Small {
                accept: [false, true, true, false, true, false],
                phases: [START, START, FIRST, FIRST, QUERY, QUERY],
                next: [
                    [0, 0, 0, 0, 0, 0],
                    [0, 2, 2, 0, 4, 0],
                    [0, 4, 4, 0, 4, 0],
                    [0, 3, 3, 0, 5, 0],
                    [0, 0, 0, 2, 0, 4],
                ],
                pair: core::array::from_fn(|i| i as u16),
            }
        }

        /// The table file, as `gen/` writes it.
        fn file(&self) -> Vec<u8> {
            let class = |b: u8| match b {
                b'a'..=b'z' => 1,
                b'?' => 2,
                0xc3 => 3,
                0x80..=0xbf => 4,
                _ => 0,
            };
            let mut words: Vec<u16> = vec![6, 5];
            words.extend((0..=255u8).map(class));
            words.extend(self.accept.map(u16::from));
            words.extend(self.phases.map(u16::from));
            words.extend(self.next.as_flattened());
            words.push(25);
            words.extend(self.pair);
            let mut file = b"do not edit\n".to_vec();
            file.extend(words.iter().flat_map(|w| w.to_le_bytes()));
            file
        }
    }

    /// `Validator::load` refuses a table that breaks a property of
    /// `proof::check`, and names it; the validator is then `None`, as
    /// `loaded` gives it to the statics, so the rule is parsed by pest.
    #[test]
    fn tables_that_break_a_property_are_refused() {
        use proof::{Property, Step, Violation};
        let small = Small::new();
        let v = Validator::load(body(&small.file())).expect("the small table loads");
        assert!(v.accepts("ab?é".as_bytes()));
        assert!(!v.accepts(b"\xa9"));
        let mut meta = Meta::default();
        let counts = v.walk_packed("aé?é".as_bytes()).expect("accepted");
        Proven::split("aé?é", &split::Packed::new(counts), &mut meta, v.checked);
        assert_eq!(
            (meta.path.get(), meta.query.get()),
            (Some((0, 3)), Some((4, 6)))
        );

        let broken = |change: fn(&mut Small)| {
            let mut table = Small::new();
            change(&mut table);
            let file = table.file();
            assert!(loaded(&file).is_none());
            Validator::load(body(&file)).err()
        };
        let unsound = |property, state, step| {
            Some(Refused::Unsound(Violation {
                property,
                state,
                step,
            }))
        };
        let byte = |class| Step::Byte { class };
        // The continuation byte of an "é" in the first run enters the query:
        // the path would end inside the "é".
        let query_in_e = broken(|t| t.next[4][3] = 4);
        assert_eq!(query_in_e, unsound(Property::Continuation, 3, byte(4)));
        // 0xc3 enters the query: the query would start inside the "é".
        let query_on_lead = broken(|t| t.next[3][2] = 5);
        assert_eq!(query_on_lead, unsound(Property::Ascii, 2, byte(3)));
        // A letter in the query goes back to the first run.
        let back = broken(|t| t.next[1][4] = 2);
        assert_eq!(back, unsound(Property::Forward, 4, byte(1)));
        let start = broken(|t| t.phases[1] = phase::QUERY);
        assert_eq!(start, unsound(Property::Start, 1, Step::State));
        // A continuation byte then 0xc3 read through the column of a letter
        // then "?": the phase would change on the continuation byte, and the
        // query start on 0xc3. The single steps are all sound; only the pair
        // column is not.
        let pair = broken(|t| t.pair[4 * 5 + 3] = 5 + 2);
        let column = Step::Pair { column: 7, byte: 0 };
        assert_eq!(pair, unsound(Property::Continuation, 1, column));
        // A dead state that accepts is malformed before it is unsound.
        let dead = broken(|t| t.accept[0] = true);
        assert_eq!(dead, Some(Refused::Malformed));
        // A table cut short is malformed.
        let file = small.file();
        assert!(matches!(
            Validator::load(body(&file[..file.len() - 2])),
            Err(Refused::Malformed)
        ));
    }

    /// A byte of a real table flipped: the state inside an "é" of a first
    /// run put in the query. The table is refused, and the rule would be
    /// parsed by pest.
    #[test]
    fn a_table_with_a_phase_flipped_is_refused() {
        let (file, bytes) = FILES[0];
        assert_eq!(file, "rfc3987bis-IRI-reference.dfa");
        let v = BIS_REF.as_ref().expect("the tables load");
        let inside = [b'a', 0xc3].iter().fold(START, |s, &b| v.next_state(s, b));
        assert_eq!(v.phase[inside], phase::FIRST);
        let mut flipped = body(bytes).to_vec();
        // The phases follow the two words of the head, the 256 classes and
        // a word of acceptance per state.
        let at = 2 * (2 + 256 + v.states + inside);
        assert_eq!(flipped[at], phase::FIRST);
        flipped[at] = phase::QUERY;
        // 0xc3 then enters the query, and the next byte goes back.
        match Validator::load(&flipped) {
            Err(Refused::Unsound(why)) => assert!(
                matches!(
                    why.property,
                    proof::Property::Ascii | proof::Property::Forward
                ),
                "{why:?}"
            ),
            other => panic!("{:?}", other.map(|_| "loaded")),
        }
        assert!(loaded(&[b"do not edit\n", &flipped[..]].concat()).is_none());
    }

    /// The phases the tables carry follow the delimiter automaton: from
    /// every live state, on every byte, to a live state.
    #[test]
    fn tables_follow_the_delimiter_automaton() {
        for profile in PROFILES {
            for rule in RULES {
                let v = validator(rule, profile).expect("the tables load");
                assert_eq!(phase_of(v, 1), phase::START);
                for s in 1..v.states {
                    for b in 0..=255u8 {
                        let to = v.next_state(s, b);
                        if to != 0 {
                            assert_eq!(
                                phase_of(v, to),
                                phase::next(phase_of(v, s), b),
                                "{profile:?} {rule:?}: state {s}, byte {b:#04x}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Every pair column agrees with two single steps, for every pair of
    /// byte classes and every state: pairs that `gen/` gave one column
    /// do lead every state to the same place.
    #[test]
    fn pair_columns_are_two_steps() {
        for profile in PROFILES {
            for rule in RULES {
                let v = validator(rule, profile).expect("the tables load");
                // One byte of each class: the bytes of a class lead every
                // state alike.
                let mut examples: Vec<u8> = Vec::new();
                for b in 0..=255u8 {
                    let class = v.class[usize::from(b)];
                    if !examples.iter().any(|&x| v.class[usize::from(x)] == class) {
                        examples.push(b);
                    }
                }
                for &a in &examples {
                    for &b in &examples {
                        for s in 0..v.states {
                            let m = v.next_state(s, a);
                            let t = v.next_state(m, b) as u16;
                            let want = t | u16::from(v.phase[m]) << STATE_BITS;
                            assert_eq!(
                                v.step(s, [a, b]) as u16,
                                want,
                                "{profile:?} {rule:?}: state {s}, bytes {a:#04x} {b:#04x}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Every validator.
    fn validators() -> impl Iterator<Item = (Profile, GrammarRule, &'static Validator)> {
        PROFILES.into_iter().flat_map(|profile| {
            RULES.into_iter().map(move |rule| {
                let v = validator(rule, profile).expect("the tables load");
                (profile, rule, v)
            })
        })
    }

    /// The walks agree on `input`: the packed walk with the wide one (the
    /// reference: one step after the other, counts in `usize`s), and the
    /// walk cut after each byte of `cuts` (from the ninth on), with each of
    /// the guesses, with the packed walk. `Err` names the first
    /// disagreement.
    fn same_walks(
        v: &Validator,
        input: &[u8],
        cuts: core::ops::Range<usize>,
    ) -> Result<(), String> {
        if input.len() >= PACKED {
            return Ok(());
        }
        let shown = || input.escape_ascii().to_string();
        let wide = v.walk_wide(input).map(|counts| {
            counts
                .iter()
                .enumerate()
                .map(|(g, &c)| (c as u64) << (8 * g))
                .sum::<u64>()
        });
        let packed = v.walk_packed(input);
        if packed != wide || v.accepts(input) != wide.is_some() {
            return Err(format!(
                "{:?}: packed {packed:?}, wide {wide:?}, accepts {}",
                shown(),
                v.accepts(input)
            ));
        }
        for at in cuts.start.max(9)..cuts.end.min(input.len()) {
            for guess in [v.path, v.query, v.host] {
                let cut = v.walk_cut(input, (at, guess));
                if cut != packed {
                    return Err(format!(
                        "{:?} cut at {at}, guessing state {guess}: {cut:?}, whole {packed:?}",
                        shown()
                    ));
                }
                let accepted = v.accepts_cut(input, (at, guess));
                if accepted != packed.is_some() {
                    return Err(format!(
                        "{:?} cut at {at}, guessing state {guess}: accepted {accepted}, whole {packed:?}",
                        shown()
                    ));
                }
            }
        }
        Ok(())
    }

    fn corpus(name: &str) -> Vec<Vec<u8>> {
        let path = format!("{}/benches/data/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        text.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect()
    }

    /// [`same_walks`] on each input, at every cut or (`near`) at those
    /// within four bytes of where [`Validator::cut`] cuts it.
    fn check_walks(inputs: &[Vec<u8>], near: bool) {
        for (profile, rule, v) in validators() {
            for input in inputs {
                let cuts = match v.cut(input) {
                    Some((at, _)) if near => at - 4..at + 5,
                    _ => 0..input.len(),
                };
                if let Err(e) = same_walks(v, input, cuts) {
                    panic!("{profile:?} {rule:?}: {e}");
                }
            }
        }
    }

    /// `accepts` on inputs past the packed walk's reach, which it cuts too:
    /// lines repeated to 600 bytes or more (valid, or not when a line has
    /// a "#"), with and without a space inserted before, at and after the
    /// middle, against the wide walk.
    #[test]
    fn long_inputs_are_accepted_as_walked() {
        let lines = [corpus("kasztp-urls.txt"), corpus("mixed-iris-20k.txt")].concat();
        let (mut valid, mut invalid) = (0, 0);
        for (profile, rule, v) in validators() {
            for line in lines.iter().filter(|l| !l.is_empty()).step_by(101) {
                let mut long = line.clone();
                while long.len() < 600 {
                    long.extend_from_slice(line);
                }
                let half = long.len() / 2;
                let mut inputs = vec![long.clone()];
                for at in [half - 1, half, half + 1] {
                    let mut spaced = long.clone();
                    spaced.insert(at, b' ');
                    inputs.push(spaced);
                }
                for input in inputs {
                    let wide = v.walk_wide(&input).is_some();
                    assert_eq!(
                        v.accepts(&input),
                        wide,
                        "{profile:?} {rule:?}: {:?}",
                        input.escape_ascii().to_string()
                    );
                    if wide {
                        valid += 1;
                    } else {
                        invalid += 1;
                    }
                }
            }
        }
        assert!(
            valid > 1_000 && invalid > 1_000,
            "{valid} valid, {invalid} invalid"
        );
    }

    /// Lines of both corpora, every validator, every cut: valid and invalid
    /// input, ASCII and not, cut in a scheme, a host, a path, a query, an
    /// IP literal, a percent-encoding and inside a character. (Every 11th
    /// line: each line is walked once per byte here.)
    #[test]
    fn walks_agree_on_the_corpora() {
        let lines = [corpus("kasztp-urls.txt"), corpus("mixed-iris-20k.txt")].concat();
        let sample: Vec<Vec<u8>> = lines.into_iter().step_by(11).collect();
        assert!(sample.len() > 6_000);
        check_walks(&sample, false);
    }

    /// The bytes the cut and its guesses treat specially, put in the place
    /// of a line's bytes around where [`Validator::cut`] cuts it, inserted there and
    /// taken out there: the cut bytes, the other delimiters, "%" and
    /// continuation and lead bytes of UTF-8 (alone, so not UTF-8 at all).
    #[test]
    fn walks_agree_around_the_cuts() {
        const BYTES: &[u8] = b"/?&#@:[].%=0aZ \x80\xbf\xc3\xe4\xf0\xff";
        let lines = [corpus("kasztp-urls.txt"), corpus("mixed-iris-20k.txt")].concat();
        let mut inputs = Vec::new();
        let v = BIS_REF.as_ref().expect("the tables load");
        for line in lines.iter().step_by(397) {
            let Some((at, _)) = v.cut(line) else { continue };
            for i in at.saturating_sub(3)..(at + 2).min(line.len()) {
                for &b in BYTES {
                    let mut changed = line.clone();
                    changed[i] = b;
                    inputs.push(changed);
                    let mut longer = line.clone();
                    longer.insert(i, b);
                    inputs.push(longer);
                }
                let mut shorter = line.clone();
                shorter.remove(i);
                inputs.push(shorter);
            }
        }
        assert!(inputs.len() > 10_000);
        check_walks(&inputs, true);
    }

    /// Where [`Validator::cut`] may cut `input`: at the middle, or after
    /// the character the middle is in; not inside a percent-encoding.
    /// `Err` says what is wrong.
    fn cut_is_sound(input: &[u8], cut: Option<(usize, usize)>) -> Result<(), String> {
        let n = input.len();
        let Some((at, _)) = cut else {
            return Ok(());
        };
        let continues = |i: usize| (input[i] as i8) < -0x40;
        let encoded = input[at - 1] == b'%' || input[at - 2] == b'%';
        if n < 24
            || at < n / 2
            || at >= n
            || (continues(at) && at < n - 1)
            || (n / 2..at).any(|i| !continues(i))
            || encoded
        {
            return Err(format!(
                "{:?} cut at {at}",
                input.escape_ascii().to_string()
            ));
        }
        Ok(())
    }

    /// The cut is sound on every line, and its guess right for nearly every
    /// URL and most references: a wrong guess costs a second walk of the
    /// second piece, not a wrong answer, so only this test can see one.
    #[test]
    fn the_cut_guesses_right_on_the_corpora() {
        let v = BIS_REF.as_ref().expect("the tables load");
        for (name, most) in [("kasztp-urls.txt", 0.999), ("mixed-iris-20k.txt", 0.95)] {
            let (mut cut, mut right) = (0, 0);
            for line in corpus(name) {
                let chosen = v.cut(&line);
                if let Err(e) = cut_is_sound(&line, chosen) {
                    panic!("{e}");
                }
                let Some((at, guess)) = chosen else { continue };
                cut += 1;
                let state = line[..at].iter().fold(START, |s, &b| v.next_state(s, b));
                right += usize::from(state == guess || state == DEAD);
            }
            assert!(cut > 10_000, "{name}: {cut} lines cut");
            assert!(
                right as f64 >= most * cut as f64,
                "{name}: {right} of {cut} guessed right"
            );
        }
    }

    /// Pieces of the classes the cut and its guesses treat specially.
    const PIECES: &[&[u8]] = &[
        b"a",
        b"Z",
        b"0",
        b"7",
        b".",
        b"-",
        b"~",
        b"!",
        b"=",
        b"&",
        b"%",
        b"%4",
        b"%41",
        b"%e9",
        b"/",
        b"//",
        b"?",
        b"#",
        b"@",
        b":",
        b"[",
        b"]",
        b"[::1]",
        b"[v1.x]",
        b"1.2.3.4",
        b"http://",
        b"\xc3\xa9",
        b"\xe4\xbe\x8b",
        b"\xf0\x9f\x98\x80",
        b"\xef\xbf\xbe",
        b"\x80",
        b"\xc3",
        b" ",
        b"\x7f",
        b"/?&",
        b"\x2f\x3f\x26\x2f",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 256,
            failure_persistence: None,
            ..proptest::prelude::ProptestConfig::default()
        })]

        /// Inputs made of those pieces: every walk agrees on them, at every
        /// cut with every guess, under every profile and rule, and the cut
        /// chosen is sound.
        #[test]
        fn walks_agree_on_pieces(
            pieces in proptest::collection::vec(proptest::sample::select(PIECES), 2..48),
        ) {
            let input: Vec<u8> = pieces.concat();
            for (profile, rule, v) in validators() {
                let sound = cut_is_sound(&input, v.cut(&input));
                proptest::prop_assert!(sound.is_ok(), "{}", sound.unwrap_err());
                let checked = same_walks(v, &input, 0..input.len());
                proptest::prop_assert!(checked.is_ok(), "{:?} {:?}: {}", profile, rule, checked.unwrap_err());
            }
        }
    }

    /// In the delimiter automaton that `gen/` crosses each DFA with, the
    /// phase changes only where a character starts, and the phases whose
    /// delimiter the split steps over (`split::STEPPED_OVER`) are entered
    /// on ASCII bytes only: so the tables it writes pass `proof::check`,
    /// which `Validator::load` runs.
    #[test]
    fn phases_change_at_character_boundaries() {
        let stepped_over = split::STEPPED_OVER;
        for s in 0..phase::COUNT as u8 {
            for b in 0..=255u8 {
                let t = phase::next(s, b);
                if t != s && stepped_over.contains(&t) {
                    assert!(b.is_ascii(), "phase {s} enters {t} on {b:#04x}");
                }
                // In UTF-8 a continuation byte (0x80 to 0xbf) follows a
                // lead byte (0xc0 and up) or another continuation byte: if
                // none moves the phase on from where a lead byte left it,
                // none ever does.
                if b >= 0xc0 {
                    for c in 0x80..=0xbfu8 {
                        assert_eq!(phase::next(t, c), t, "phase {s}, bytes {b:#04x} {c:#04x}");
                    }
                }
            }
        }
    }

    /// The phases go forward only, which the split's reading of the counts
    /// relies on (`proof::check` checks it of the tables).
    #[test]
    fn phases_only_go_forward() {
        for s in 0..phase::COUNT as u8 {
            for b in 0..=255u8 {
                assert!(phase::next(s, b) >= s, "phase {s}, byte {b:#04x}");
                assert!(usize::from(phase::next(s, b)) < phase::COUNT);
            }
        }
    }
}
