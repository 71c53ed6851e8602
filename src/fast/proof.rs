//! What lets the accessors of a parsed reference slice its text without
//! checks (`crate::iri`): a [`Proven`] value, which only two functions
//! build. [`Proven::split`] is the fast path's split of an input that a
//! validator accepted, and it takes the [`Checked`] that only [`check`]
//! makes, when `Validator::load` loads the validator's tables;
//! [`Proven::fitting`] is `Meta::fits`, for the spans of the pest parser
//! and of the checked literals' `const` split (`crate::literal`).
//!
//! The split (`super::split`) puts each end of a span at 0, at the input's
//! length, where a group of phases starts (the bytes spent in the groups
//! before it), or one past the first byte of a group that starts with a
//! delimiter: the "/" before an authority, the ":" of a userinfo or a port,
//! the userinfo's "@", the "?" and the "#" (the groups of
//! [`split::STEPPED_OVER`]; for the "@" and the scheme's ":", the split
//! also checks the byte). The walk counts each byte in the phase of the
//! state it leads to. Those ends are in order and between characters when
//! the tables have these properties, which [`check`] verifies:
//! - the dead state leads only to itself and does not accept: the walk of
//!   an input that is accepted passes through live states only;
//! - the start state is in phase `START`: every group but the first starts
//!   where a step changes the phase;
//! - on every step from a live state to a live state, a single step on a
//!   byte class or the two bytes of a pair column (for every pair of
//!   classes that selects it; the column of no pair, which reads no byte,
//!   changes no phase):
//!   - the phase does not go back: the bytes of each group come together,
//!     in the order of the groups, so a group starts where the bytes
//!     spent in the groups before it end, the ends come in order, and none
//!     is past the input's length;
//!   - a byte that can be a UTF-8 continuation byte (0x80 to 0xbf) does not
//!     change the phase: a group starts on the first byte of a character,
//!     the input being a `str`;
//!   - a phase of `STEPPED_OVER` is entered on ASCII bytes only: one past
//!     the byte that enters it is a character boundary too.
//!
//! A table that fails the check is not used: `Validator::load` refuses it,
//! and the pest parser parses that rule instead.

use super::{DEAD, START, STATE_BITS, STATES, phase, split};
use crate::meta::Meta;
use crate::prelude::*;

/// The tables of a validator passed [`check`]. Only [`check`] makes one.
#[derive(Clone, Copy, Debug)]
pub(super) struct Checked(());

/// The spans of a reference's [`Meta`] lie in its text, in order, each end
/// on a character boundary: the accessors slice them without checks
/// (`crate::iri`). Only [`Proven::split`] and [`Proven::fitting`] make
/// one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Proven(());

impl Proven {
    /// Splits `input` into `meta` from the counts of its walk (`starts`),
    /// which accepted it, through tables that passed [`check`] (the module
    /// docs say why those spans fit).
    #[inline(always)]
    pub(super) fn split(
        input: &str,
        starts: &impl split::Starts,
        meta: &mut Meta,
        _: Checked,
    ) -> Proven {
        split::split(input, starts, meta);
        Proven(())
    }

    /// `Some` when `meta` fits `text` (`Meta::fits`). A `const fn`: the
    /// checked literals (`crate::literal`) prove their spans with it at
    /// compile time.
    pub(crate) const fn fitting(meta: &Meta, text: &str) -> Option<Proven> {
        if meta.fits(text) {
            Some(Proven(()))
        } else {
            None
        }
    }
}

/// A validator's tables as `Validator::load` lays them out for the walk.
pub(super) struct Tables<'a> {
    /// The number of states.
    pub(super) states: usize,
    /// The class of each byte.
    pub(super) class: &'a [u8; 256],
    /// The number of classes.
    pub(super) classes: usize,
    /// Per class, per state, the next state, at `class * STATES + state`.
    pub(super) next: &'a [u16],
    /// Per state, whether the input may end there.
    pub(super) accept: &'a [bool],
    /// Per state, its phase.
    pub(super) phases: &'a [u8],
    /// Per pair of classes, at `first * classes + second`, the number of
    /// its pair column.
    pub(super) pair: &'a [u16],
    /// Per pair column, per state before the pair, the entry `state after |
    /// phase after the first byte << STATE_BITS`, at `column * STATES +
    /// state`.
    pub(super) columns: &'a [u16],
    /// The number of pair columns that `pair` selects; the next column of
    /// `columns` is the column of no pair, which the walk steps through
    /// when there is no pair left (its counts masked off).
    pub(super) pair_columns: usize,
}

/// A property of [`check`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Property {
    /// The dead state leads only to itself and does not accept.
    Dead,
    /// The start state is in phase `START`.
    Start,
    /// The phase does not go back.
    Forward,
    /// A UTF-8 continuation byte does not change the phase.
    Continuation,
    /// A phase of `split::STEPPED_OVER` is entered on ASCII bytes only.
    Ascii,
}

/// Where a property fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// Whether the dead state accepts; the phase of the start state.
    State,
    /// The single step on a byte class.
    Byte {
        /// The class.
        class: usize,
    },
    /// A byte of a pair column.
    Pair {
        /// The column.
        column: usize,
        /// The byte: 0 for the first, 1 for the second.
        byte: usize,
    },
}

/// Why [`check`] refused the tables: a property, the state where it fails
/// and the step from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Violation {
    /// The property.
    pub(super) property: Property,
    /// The state.
    pub(super) state: usize,
    /// The step.
    pub(super) step: Step,
}

/// A kind of byte, as a bit: ASCII.
const ASCII: u8 = 1;
/// A byte that starts a character of more than one byte, or is none of
/// UTF-8's (0xc0 and up).
const LEAD: u8 = 2;
/// A UTF-8 continuation byte (0x80 to 0xbf).
const CONTINUATION: u8 = 4;
/// Every kind.
const ANY: u8 = ASCII | LEAD | CONTINUATION;

/// The kind of a byte.
fn kind(b: u8) -> u8 {
    match b {
        0x00..=0x7f => ASCII,
        0x80..=0xbf => CONTINUATION,
        _ => LEAD,
    }
}

/// The kinds of byte on which a step from phase `from` to phase `to`
/// breaks a property: any going back; a continuation byte changing the
/// phase; a byte that is not ASCII entering a phase of `STEPPED_OVER`.
fn breaks(from: u8, to: u8) -> u8 {
    if to < from {
        ANY
    } else if to == from {
        0
    } else if split::STEPPED_OVER.contains(&to) {
        LEAD | CONTINUATION
    } else {
        CONTINUATION
    }
}

/// The property that a step from phase `from` to phase `to` on bytes of
/// `kinds` breaks, if [`breaks`] says it breaks one.
fn broken(from: u8, to: u8, kinds: u8) -> Property {
    if to < from {
        Property::Forward
    } else if kinds & CONTINUATION != 0 {
        Property::Continuation
    } else {
        Property::Ascii
    }
}

/// The properties of the module docs, over every live state and every
/// step the walk can take from it: about 19,000 single steps and 114,000
/// entries of pair columns for `IRI-reference`, once per table and
/// process.
pub(super) fn check(t: &Tables<'_>) -> Result<Checked, Violation> {
    let (n, classes) = (t.states, t.classes);
    let fail = |property, state, step| Violation {
        property,
        state,
        step,
    };
    if t.accept[DEAD] {
        return Err(fail(Property::Dead, DEAD, Step::State));
    }
    if t.phases[START] != phase::START {
        return Err(fail(Property::Start, START, Step::State));
    }
    // [`breaks`] for each pair of phases, at `from * phase::COUNT + to`.
    let table: [u8; phase::COUNT * phase::COUNT] =
        core::array::from_fn(|i| breaks((i / phase::COUNT) as u8, (i % phase::COUNT) as u8));
    let breaks = |from: u8, to: u8| table[usize::from(from) * phase::COUNT + usize::from(to)];
    // Per class, the kinds of its bytes.
    let mut kinds = [0u8; 256];
    for b in 0..=255u8 {
        kinds[usize::from(t.class[usize::from(b)])] |= kind(b);
    }
    for (class, column) in t.next.chunks(STATES).take(classes).enumerate() {
        let step = Step::Byte { class };
        if usize::from(column[DEAD]) != DEAD {
            return Err(fail(Property::Dead, DEAD, step));
        }
        let k = kinds[class];
        for (s, &to) in column[..n].iter().enumerate().skip(1) {
            let to = usize::from(to);
            if to != DEAD {
                let (from, to) = (t.phases[s], t.phases[to]);
                if breaks(from, to) & k != 0 {
                    return Err(fail(broken(from, to, k), s, step));
                }
            }
        }
    }
    // The kinds of the first and of the second bytes of each pair column.
    // The column of no pair reads no byte: as if it could read any, it may
    // change no phase.
    let mut first = vec![0u8; t.pair_columns + 1];
    let mut second = vec![0u8; t.pair_columns + 1];
    (first[t.pair_columns], second[t.pair_columns]) = (ANY, ANY);
    for (a, row) in t.pair.chunks(classes).enumerate() {
        for (b, &k) in row.iter().enumerate() {
            first[usize::from(k)] |= kinds[a];
            second[usize::from(k)] |= kinds[b];
        }
    }
    let columns = t.columns.chunks(STATES).take(t.pair_columns + 1);
    for (column, entries) in columns.enumerate() {
        let step = |byte| Step::Pair { column, byte };
        if usize::from(entries[DEAD]) % STATES != DEAD {
            return Err(fail(Property::Dead, DEAD, step(1)));
        }
        let (k1, k2) = (first[column], second[column]);
        for (s, &e) in entries[..n].iter().enumerate().skip(1) {
            let to = usize::from(e) % STATES;
            if to != DEAD {
                let (from, middle, to) = (t.phases[s], (e >> STATE_BITS) as u8, t.phases[to]);
                if breaks(from, middle) & k1 != 0 {
                    return Err(fail(broken(from, middle, k1), s, step(0)));
                }
                if breaks(middle, to) & k2 != 0 {
                    return Err(fail(broken(middle, to, k2), s, step(1)));
                }
            }
        }
    }
    Ok(Checked(()))
}
