//! The walk of the checked literals (`crate::literal`), in `const`: the
//! table file of a reference rule read as it is embedded, a byte a step,
//! with no decoding into the validator's tables (which `const` cannot
//! allocate).
//!
//! The file (after its header line) is little-endian `u16` words, as
//! `Validator::load` reads them: the number of states `n` and of byte
//! classes, the class of each of the 256 bytes, per state whether it
//! accepts, per state its phase (`super::phase`), then per class, per state,
//! the next state (the pair columns that follow are the run-time walk's
//! and are not read here). The walk counts each byte in the group of the
//! phase of the state it leads to, as the run-time walk does, and splits
//! the input with `split::split_const`.
//!
//! A table that is not what `gen/` writes fails the evaluation on an index
//! out of range, not a wrong answer that matters to soundness: the spans of
//! a literal are checked (`Proven::fitting`) before the accessors trust
//! them. The tests check that the tables load and that the walk agrees with
//! the run-time parser.

use super::{DEAD, START, split, table_file};
use crate::meta::Meta;
use crate::profile::Profile;
use crate::rule::GrammarRule;

/// Where the words of each kind start in a table file's body.
const CLASSES: usize = 2;
const ACCEPT: usize = CLASSES + 256;

/// A table file's body, read in place.
#[derive(Clone, Copy)]
struct Table {
    words: &'static [u8],
    states: usize,
}

impl Table {
    const fn new(words: &'static [u8]) -> Table {
        Table {
            words,
            states: word(words, 0),
        }
    }

    const fn accepts(self, s: usize) -> bool {
        word(self.words, ACCEPT + s) == 1
    }

    const fn phase(self, s: usize) -> u8 {
        word(self.words, ACCEPT + self.states + s) as u8
    }

    const fn next(self, s: usize, b: u8) -> usize {
        let class = word(self.words, CLASSES + b as usize);
        word(
            self.words,
            ACCEPT + 2 * self.states + class * self.states + s,
        )
    }
}

/// Word `i` of a body.
const fn word(words: &[u8], i: usize) -> usize {
    words[2 * i] as usize | (words[2 * i + 1] as usize) << 8
}

/// What the walk makes of an input.
pub(crate) enum Walked {
    /// The input matches: its components.
    Valid(Meta),
    /// It does not: `byte` is the first character that cannot belong to
    /// a valid input (its first byte), or the input's length when it ends
    /// too early; `phase` is that of the state before it.
    Dead { byte: usize, phase: u8 },
    /// The profile has no table for the rule.
    NoTable,
}

/// Walks `input` through the table of `rule` (one of the four reference
/// rules, by its 3987bis name) under `profile`. The position of a dead
/// end is the one of `dead::Dfa::dead_end` (the same language, so the same
/// first byte that leads to the dead state), moved back to the start of
/// its character.
pub(crate) const fn walk(input: &str, rule: GrammarRule, profile: Profile) -> Walked {
    let Some(words) = table_file(rule, profile) else {
        return Walked::NoTable;
    };
    let t = Table::new(words);
    let b = input.as_bytes();
    let mut counts = [0usize; split::GROUPS];
    let (mut s, mut i) = (START, 0);
    // The state at the start of the character being read.
    let (mut at, mut before) = (0, START);
    while i < b.len() {
        if b[i] & 0xC0 != 0x80 {
            (at, before) = (i, s);
        }
        s = t.next(s, b[i]);
        if s == DEAD {
            return Walked::Dead {
                byte: at,
                phase: t.phase(before),
            };
        }
        if let Some(g) = split::group(t.phase(s)) {
            counts[g] += 1;
        }
        i += 1;
    }
    if !t.accepts(s) {
        return Walked::Dead {
            byte: b.len(),
            phase: t.phase(s),
        };
    }
    let mut starts = [0; split::GROUPS + 1];
    let mut visited = [false; split::GROUPS];
    let mut g = 0;
    while g < split::GROUPS {
        starts[g + 1] = starts[g] + counts[g];
        visited[g] = counts[g] > 0;
        g += 1;
    }
    Walked::Valid(split::split_const(input, &starts, &visited))
}
