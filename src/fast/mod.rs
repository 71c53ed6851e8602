//! The fast path of the reference parsers: a DFA compiled at build time from
//! the spec's ABNF decides validity, and the delimiters give the components.
//!
//! `build.rs` reads `grammar/abnf/` (through the ABNF reader of `src/abnf/`),
//! translates the start rule of each profile into a regular expression
//! syntax tree (the grammar has no recursive rule, so its language is
//! regular; ABNF's unordered alternation and case-insensitive strings carry
//! over as they are), and has `regex-automata` determinize it into a dense
//! DFA over UTF-8 bytes. The DFA is serialized into `OUT_DIR`, embedded
//! here with 4-byte alignment and deserialized in place on first use (a
//! check of its tables, no copy).
//!
//! Only input the DFA accepts takes the fast path; anything else goes to
//! the pest parser, which is the reference and produces the precise error.
//! The tests in `tests/fast_path.rs` check that the two agree.

mod split;

use std::sync::LazyLock;

use regex_automata::dfa::{dense, Automaton};
use regex_automata::util::primitives::StateID;
use regex_automata::util::start;
use regex_automata::Anchored;

use crate::syntax::lower::Meta;
use crate::{GrammarRule, Profile};

/// Bytes aligned to 4, as a dense DFA's transition table of `u32`s needs.
#[repr(C)]
struct Aligned<B: ?Sized> {
    _align: [u32; 0],
    bytes: B,
}

/// Embeds the DFA `$file` written by `build.rs`.
macro_rules! dfa_file {
    ($file:literal) => {{
        static A: &Aligned<[u8]> = &Aligned {
            _align: [],
            bytes: *include_bytes!(concat!(env!("OUT_DIR"), "/", $file)),
        };
        &A.bytes
    }};
}

/// A deserialized DFA and its anchored start state.
struct Validator {
    dfa: dense::DFA<&'static [u32]>,
    start: StateID,
    /// `build.rs`'s `self_loops`: 32 bytes per state index.
    loops: &'static [u8],
    stride2: usize,
}

impl Validator {
    /// `None` if the embedded bytes do not deserialize, which would be a
    /// build error; the callers then take the pest path.
    fn load(bytes: &'static [u8], loops: &'static [u8]) -> Option<Validator> {
        let (dfa, _) = dense::DFA::from_bytes(bytes).ok()?;
        let start = dfa
            .start_state(&start::Config::new().anchored(Anchored::Yes))
            .ok()?;
        let stride2 = dfa.stride2();
        Some(Validator {
            dfa,
            start,
            loops,
            stride2,
        })
    }

    /// Whether the whole of `input` is in the language.
    ///
    /// Most bytes of a reference keep the DFA where it is (letters in a
    /// host, path or query): a run of them is skipped by testing each byte
    /// against the state's set of such bytes, a test that does not wait for
    /// the previous one, unlike a table walk. The other bytes take a
    /// transition.
    #[inline]
    fn accepts(&self, input: &[u8]) -> bool {
        let dfa = &self.dfa;
        let mut s = self.start;
        let mut i = 0;
        let n = input.len();
        while i < n {
            let row = s.as_usize() >> self.stride2;
            if let Some(bits) = self.loops.get(row * 32..row * 32 + 32) {
                let bits: &[u8; 32] = bits.try_into().unwrap_or(&[0; 32]);
                while i < n && bits[usize::from(input[i] >> 3)] & (1 << (input[i] & 7)) != 0 {
                    i += 1;
                }
                if i == n {
                    break;
                }
            }
            s = dfa.next_state(s, input[i]);
            i += 1;
            if dfa.is_dead_state(s) {
                return false;
            }
        }
        dfa.is_match_state(dfa.next_eoi_state(s))
    }
}

static RFC3987BIS: LazyLock<Option<Validator>> = LazyLock::new(|| {
    Validator::load(
        dfa_file!("rfc3987bis-IRI-reference.dfa"),
        include_bytes!(concat!(env!("OUT_DIR"), "/rfc3987bis-IRI-reference.loops")),
    )
});
static RFC3987: LazyLock<Option<Validator>> = LazyLock::new(|| {
    Validator::load(
        dfa_file!("rfc3987-IRI-reference.dfa"),
        include_bytes!(concat!(env!("OUT_DIR"), "/rfc3987-IRI-reference.loops")),
    )
});
static LEIRI: LazyLock<Option<Validator>> = LazyLock::new(|| {
    Validator::load(
        dfa_file!("leiri-IRI-reference.dfa"),
        include_bytes!(concat!(env!("OUT_DIR"), "/leiri-IRI-reference.loops")),
    )
});
static RFC3986: LazyLock<Option<Validator>> = LazyLock::new(|| {
    Validator::load(
        dfa_file!("rfc3986-URI-reference.dfa"),
        include_bytes!(concat!(env!("OUT_DIR"), "/rfc3986-URI-reference.loops")),
    )
});

fn validator(profile: Profile) -> Option<&'static Validator> {
    match profile {
        Profile::Rfc3987bis => RFC3987BIS.as_ref(),
        Profile::Rfc3987 => RFC3987.as_ref(),
        Profile::Leiri => LEIRI.as_ref(),
        Profile::Rfc3986 => RFC3986.as_ref(),
    }
}

/// Parses `input` at one of the four reference rules (`IRI-reference`,
/// `IRI`, `absolute-IRI`, `irelative-ref`, or their RFC 3986 names).
///
/// One DFA per profile, for `IRI-reference`, serves all four: `IRI-reference
/// = IRI / irelative-ref`, and for a valid reference the split finds a
/// scheme exactly when it is an `IRI` (an `irelative-ref` has no ":" before
/// its first "/", "?" or "#"); an `absolute-IRI` is an `IRI` without a
/// fragment (3987bis §2.2).
///
/// Fills `meta` and returns `true` when the input matches the rule; `false`
/// when it does not (or the DFA did not load): the pest parser then
/// decides, and explains.
#[inline]
pub(crate) fn parse(input: &str, rule: GrammarRule, profile: Profile, meta: &mut Meta) -> bool {
    let Some(v) = validator(profile) else {
        return false;
    };
    if !v.accepts(input.as_bytes()) {
        return false;
    }
    split::split(input, meta);
    match rule {
        GrammarRule::IRI_REFERENCE => true,
        GrammarRule::IRI => meta.scheme.is_some(),
        GrammarRule::ABSOLUTE_IRI => meta.scheme.is_some() && meta.fragment.is_none(),
        GrammarRule::IRELATIVE_REF => meta.scheme.is_none(),
        _ => false,
    }
}

/// Whether the DFA of `profile` accepts `input` as an `IRI-reference`
/// (`URI-reference` under `rfc3986`); `None` if the DFA did not load. For
/// the cross-check tests and the fuzz target, which compare it with pest.
///
/// ```
/// use iribis::{dfa_accepts, Profile};
///
/// assert_eq!(dfa_accepts("http://例え.jp/", Profile::Rfc3987bis), Some(true));
/// assert_eq!(dfa_accepts("http://例え.jp/", Profile::Rfc3986), Some(false));
/// ```
#[doc(hidden)]
pub fn dfa_accepts(input: &str, profile: Profile) -> Option<bool> {
    validator(profile).map(|v| v.accepts(input.as_bytes()))
}
