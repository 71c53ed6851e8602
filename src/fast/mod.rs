//! The fast path of the reference parsers: a DFA compiled at build time from
//! the spec's ABNF decides validity, and the delimiters give the components.
//!
//! `build.rs` reads `grammar/abnf/` (through the ABNF reader of `src/abnf/`),
//! translates each of the four reference rules of each profile into a
//! regular expression syntax tree (the grammar has no recursive rule, so its
//! language is regular; ABNF's unordered alternation and case-insensitive
//! strings carry over as they are), and has `regex-automata` determinize it
//! into a minimized dense DFA over UTF-8 bytes. The sixteen DFAs are
//! serialized into `OUT_DIR`, embedded here with 4-byte alignment and
//! deserialized in place on first use (a check of their tables, no copy).
//!
//! One loop walks the DFA and, beside it, the delimiter automaton of RFC
//! 3986 Appendix B (`split`), which notes where the components start and
//! end. An input the DFA rejects gets a [`ParseError`](crate::ParseError)
//! whose details the pest parser, the reference, works out when they are
//! first asked for. The tests in `tests/fast_path.rs` check that the two
//! paths agree.

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
}

impl Validator {
    /// `None` if the embedded bytes do not deserialize, which would be a
    /// build error; the callers then take the pest path.
    fn load(bytes: &'static [u8]) -> Option<Validator> {
        let (dfa, _) = dense::DFA::from_bytes(bytes).ok()?;
        let start = dfa
            .start_state(&start::Config::new().anchored(Anchored::Yes))
            .ok()?;
        Some(Validator { dfa, start })
    }

    /// Whether the whole of `input` is in the language.
    ///
    /// The walk is one table lookup per byte with no branch on the input:
    /// the dead state (an input no continuation can save) leads only to
    /// itself, so it is tested once, at the end. Skipping runs of bytes that
    /// keep the state (a test per byte against the state's set of such
    /// bytes) was tried and measured slower: every end of a run is a
    /// mispredicted branch, and references change state every few bytes.
    #[inline]
    fn accepts(&self, input: &[u8]) -> bool {
        let mut s = self.start;
        for &c in input {
            s = self.dfa.next_state(s, c);
        }
        self.is_match(s)
    }

    /// As [`Validator::accepts`], stepping the delimiter automaton of
    /// `split` in the same loop: `Some` with the delimiters' marks when
    /// `input` is in the language.
    #[inline]
    fn walk(&self, input: &[u8]) -> Option<split::Marks> {
        let mut s = self.start;
        let mut delimiters = split::Delimiters::new();
        for (i, &c) in input.iter().enumerate() {
            s = self.dfa.next_state(s, c);
            delimiters.step(c, i);
        }
        self.is_match(s).then_some(delimiters.marks)
    }

    #[inline]
    fn is_match(&self, s: StateID) -> bool {
        !self.dfa.is_dead_state(s) && self.dfa.is_match_state(self.dfa.next_eoi_state(s))
    }
}

/// The validators, built on first use: one per profile and reference rule.
macro_rules! validators {
    ($($name:ident = $file:literal;)*) => {
        $(static $name: LazyLock<Option<Validator>> =
            LazyLock::new(|| Validator::load(dfa_file!($file)));)*
    };
}

validators! {
    BIS_REF = "rfc3987bis-IRI-reference.dfa";
    BIS_IRI = "rfc3987bis-IRI.dfa";
    BIS_ABS = "rfc3987bis-absolute-IRI.dfa";
    BIS_REL = "rfc3987bis-irelative-ref.dfa";
    RFC3987_REF = "rfc3987-IRI-reference.dfa";
    RFC3987_IRI = "rfc3987-IRI.dfa";
    RFC3987_ABS = "rfc3987-absolute-IRI.dfa";
    RFC3987_REL = "rfc3987-irelative-ref.dfa";
    LEIRI_REF = "leiri-IRI-reference.dfa";
    LEIRI_IRI = "leiri-IRI.dfa";
    LEIRI_ABS = "leiri-absolute-IRI.dfa";
    LEIRI_REL = "leiri-irelative-ref.dfa";
    RFC3986_REF = "rfc3986-URI-reference.dfa";
    RFC3986_URI = "rfc3986-URI.dfa";
    RFC3986_ABS = "rfc3986-absolute-URI.dfa";
    RFC3986_REL = "rfc3986-relative-ref.dfa";
}

/// The validator of `rule` (one of the four reference rules, by its
/// 3987bis name) under `profile`.
#[inline]
fn validator(rule: GrammarRule, profile: Profile) -> Option<&'static Validator> {
    use GrammarRule as R;
    use Profile as P;
    let v = match (profile, rule) {
        (P::Rfc3987bis, R::IRI_REFERENCE) => &BIS_REF,
        (P::Rfc3987bis, R::IRI) => &BIS_IRI,
        (P::Rfc3987bis, R::ABSOLUTE_IRI) => &BIS_ABS,
        (P::Rfc3987bis, R::IRELATIVE_REF) => &BIS_REL,
        (P::Rfc3987, R::IRI_REFERENCE) => &RFC3987_REF,
        (P::Rfc3987, R::IRI) => &RFC3987_IRI,
        (P::Rfc3987, R::ABSOLUTE_IRI) => &RFC3987_ABS,
        (P::Rfc3987, R::IRELATIVE_REF) => &RFC3987_REL,
        (P::Leiri, R::IRI_REFERENCE) => &LEIRI_REF,
        (P::Leiri, R::IRI) => &LEIRI_IRI,
        (P::Leiri, R::ABSOLUTE_IRI) => &LEIRI_ABS,
        (P::Leiri, R::IRELATIVE_REF) => &LEIRI_REL,
        (P::Rfc3986, R::IRI_REFERENCE) => &RFC3986_REF,
        (P::Rfc3986, R::IRI) => &RFC3986_URI,
        (P::Rfc3986, R::ABSOLUTE_IRI) => &RFC3986_ABS,
        (P::Rfc3986, R::IRELATIVE_REF) => &RFC3986_REL,
        _ => return None,
    };
    v.as_ref()
}

/// Parses `input` at one of the four reference rules (`IRI-reference`,
/// `IRI`, `absolute-IRI`, `irelative-ref`, or their RFC 3986 names), each
/// with its own DFA.
///
/// Fills `meta` and returns `Some(true)` when the input matches the rule,
/// `Some(false)` when it does not; `None` when the rule has no DFA (or the
/// DFA did not load), and the pest parser must decide.
#[inline]
pub(crate) fn parse(
    input: &str,
    rule: GrammarRule,
    profile: Profile,
    meta: &mut Meta,
) -> Option<bool> {
    let v = validator(rule, profile)?;
    let Some(marks) = v.walk(input.as_bytes()) else {
        return Some(false);
    };
    split::split(input, &marks, meta);
    // The split of a valid reference finds a scheme exactly when it is an
    // `IRI` (an `irelative-ref` has no ":" before its first "/", "?" or
    // "#"); the tests check this for each rule's DFA.
    debug_assert!(match rule {
        GrammarRule::IRI => meta.scheme.is_some(),
        GrammarRule::ABSOLUTE_IRI => meta.scheme.is_some() && meta.fragment.is_none(),
        GrammarRule::IRELATIVE_REF => meta.scheme.is_none(),
        _ => true,
    });
    Some(true)
}

/// Whether the DFA of `rule` (one of the four reference rules, by its
/// 3987bis name) under `profile` accepts `input`; `None` if there is no
/// such DFA or it did not load. For the cross-check tests and the fuzz
/// target, which compare it with pest.
///
/// ```
/// use iribis::{dfa_accepts, GrammarRule, Profile};
///
/// let iri = GrammarRule::IRI;
/// assert_eq!(dfa_accepts("http://例え.jp/", iri, Profile::Rfc3987bis), Some(true));
/// assert_eq!(dfa_accepts("http://例え.jp/", iri, Profile::Rfc3986), Some(false));
/// assert_eq!(dfa_accepts("//例え.jp/", iri, Profile::Rfc3987bis), Some(false));
/// ```
#[doc(hidden)]
pub fn dfa_accepts(input: &str, rule: GrammarRule, profile: Profile) -> Option<bool> {
    validator(rule, profile).map(|v| v.accepts(input.as_bytes()))
}
