//! Percent-encoding raw text for one component, and writing queries of
//! `key=value` pairs.
//!
//! Each encoder takes *raw text*, the data a component is to carry, and
//! percent-encodes what the component's rule of the [`Profile`] does not
//! allow to stand as it is (3987bis §3.1, RFC 3986 §2.1): every octet of
//! the character's UTF-8 form as `%HH`, in uppercase hexadecimal. Every
//! character the rule allows is kept, non-ASCII ones included: a `ucschar`
//! in every component of the IRI profiles, an `iprivate` in the query, any
//! `leiri-ucschar` (space and controls too) under [`Profile::Leiri`], and
//! no non-ASCII character under [`Profile::Rfc3986`].
//!
//! | encoder | rule (IRI profiles / RFC 3986) | kept besides unreserved and sub-delims |
//! |---|---|---|
//! | [`path`] | `ipath` / `path` | `:` `@` `/` |
//! | [`segment`] | `isegment` / `segment` | `:` `@` |
//! | [`query`] | `iquery` / `query` | `:` `@` `/` `?` (and `iprivate`) |
//! | [`key_or_value`] | `iquery` / `query` | as [`query`], less `&` `=` `+` |
//! | [`fragment`] | `ifragment` / `fragment` | `:` `@` `/` `?` |
//! | [`userinfo`] | `iuserinfo` / `userinfo` | `:` |
//! | [`reg_name`] | `ireg-name` / `reg-name` | nothing |
//!
//! The table is what the grammar gives, not a list kept by hand: the set of
//! characters an encoder keeps is read, once, from the minimal DFA of its
//! rule ([`crate::dfa`], generated from the ABNF): a character is kept when
//! the rule matches it alone. Each of these rules matches every sequence of
//! such characters and of `pct-encoded` (`ipath` too: a path of any
//! segments is an `ipath-abempty`, `ipath-rootless` or `ipath-empty`), so
//! every output matches the rule ([`Encoded::rule`]), and decoding it
//! ([`Decoded`](crate::Decoded)) gives the raw text back.
//!
//! `%` is always encoded, as `%25`: the text is data, not already encoded,
//! so `"100%25"` is written `100%2525` and reads back as `"100%25"`. Text
//! that is already percent-encoded goes to the component as it is, through
//! [`Builder::path`](crate::Builder::path), [`IriRef::set_path`](crate::IriRef::set_path)
//! and their siblings, which check it instead.
//!
//! Where a component stands can forbid what its own rule allows; the
//! builder checks that, and its encoding variants
//! ([`Builder::path_encoded`](crate::Builder::path_encoded), ...) handle the one
//! case encoding can: in a reference without a scheme, a ":" in the first
//! segment of a path that does not start with "/" would read as the end of
//! a scheme (RFC 3986 §4.2), so there it is written `%3A`. A path that
//! starts with "//" in a reference without an authority would read as an
//! authority: encoding cannot change that ("/" is the path's delimiter), and
//! the builder refuses it. [`path`] alone keeps both, as `ipath` does.
//!
//! The grammar allows the bidi formatting characters (U+200E, U+202A-202E,
//! ...: RFC 3987 §4.1 forbids them in IRIs beyond the ABNF, and 3987bis
//! leaves them to its guidelines on bidi IRIs) and the look-alikes of
//! 3987bis §5.1. The encoders keep them, as the rule does, and
//! [`check()`](crate::check()) reports them; under [`Profile::Rfc3986`]
//! they are encoded with every non-ASCII character.
//!
//! ```
//! use iribis::{Profile, encode};
//!
//! let bis = Profile::Rfc3987bis;
//! assert_eq!(encode::path("/a b/résumé", bis).to_string(), "/a%20b/résumé");
//! assert_eq!(encode::segment("a/b", bis).to_string(), "a%2Fb");
//! assert_eq!(encode::path("/résumé", Profile::Rfc3986).to_string(), "/r%C3%A9sum%C3%A9");
//! assert_eq!(encode::fragment("50%", bis).to_string(), "50%25");
//! // Nothing to encode: the text itself, borrowed.
//! assert!(matches!(encode::query("q=日本", bis).to_cow(), std::borrow::Cow::Borrowed(_)));
//! ```

use crate::nostd::LazyLock;
use crate::prelude::*;
use alloc::borrow::Cow;
use core::fmt;

use crate::dfa::Dfa;
use crate::profile::Profile;
use crate::rule::GrammarRule;
use crate::rule::Sym;

mod query;

pub use query::{QueryBuilder, QueryPairsMut, QueryStyle};

/// The components an encoder writes, one per set of kept characters (in
/// the order of [`Part::ALL`], which indexes [`KEPT`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Part {
    Path,
    Segment,
    Query,
    /// A key or a value of a query's pairs.
    Pair,
    Fragment,
    Userinfo,
    RegName,
}

impl Part {
    const ALL: [Part; 7] = [
        Part::Path,
        Part::Segment,
        Part::Query,
        Part::Pair,
        Part::Fragment,
        Part::Userinfo,
        Part::RegName,
    ];

    /// The rule of the part under `profile`: the IRI rule, or its RFC 3986
    /// counterpart.
    fn rule(self, profile: Profile) -> GrammarRule {
        let (iri, uri) = match self {
            Part::Path => (Sym::ipath, Sym::path),
            Part::Segment => (Sym::isegment, Sym::segment),
            Part::Query | Part::Pair => (Sym::iquery, Sym::query),
            Part::Fragment => (Sym::ifragment, Sym::fragment),
            Part::Userinfo => (Sym::iuserinfo, Sym::userinfo),
            Part::RegName => (Sym::ireg_name, Sym::reg_name),
        };
        GrammarRule(if profile == Profile::Rfc3986 {
            uri
        } else {
            iri
        })
    }

    /// The ASCII characters the part encodes though its rule allows them:
    /// the delimiters of `application/x-www-form-urlencoded` pairs (WHATWG
    /// URL §5.2) for a key or value: `&` and `=` separate pairs and their
    /// halves, and a `+` would read as a space where forms are read. (`#`,
    /// which ends the query, no query rule allows.)
    fn delimiters(self) -> u128 {
        match self {
            Part::Pair => bit(b'&') | bit(b'=') | bit(b'+'),
            _ => 0,
        }
    }
}

const fn bit(b: u8) -> u128 {
    1 << b
}

/// The characters one encoder keeps: read from its rule's DFA.
struct Kept {
    /// Bit `b` set: the ASCII character `b` is kept.
    ascii: u128,
    /// The rule's DFA, which decides for a non-ASCII character (`None`
    /// keeps none: then everything is encoded, which every rule allows).
    dfa: Option<Dfa>,
    rule: GrammarRule,
}

impl Kept {
    fn of(part: Part, profile: Profile) -> Kept {
        let rule = part.rule(profile);
        let dfa = Dfa::of(rule, profile);
        let mut kept = Kept {
            ascii: 0,
            dfa,
            rule,
        };
        for b in 0..128u8 {
            if kept.matches_alone(&[b]) {
                kept.ascii |= bit(b);
            }
        }
        kept.ascii &= !part.delimiters();
        kept
    }

    /// Whether the rule matches the character of UTF-8 bytes `c` alone.
    fn matches_alone(&self, c: &[u8]) -> bool {
        let Some(dfa) = self.dfa else {
            return false;
        };
        let s = c.iter().fold(Dfa::START, |s, &b| dfa.step(s, b));
        dfa.accepts(s)
    }

    /// Whether the character of UTF-8 bytes `c` is kept.
    #[inline]
    fn keeps(&self, c: &[u8]) -> bool {
        match c {
            [b] => self.ascii & bit(*b) != 0,
            _ => self.matches_alone(c),
        }
    }
}

/// The kept characters of every part under every profile, read from the
/// DFAs on first use.
static KEPT: LazyLock<[[Kept; 7]; 4]> =
    LazyLock::new(|| Profile::ALL.map(|p| Part::ALL.map(|part| Kept::of(part, p))));

fn kept(part: Part, profile: Profile) -> &'static Kept {
    let p = match profile {
        Profile::Rfc3987bis => 0,
        Profile::Rfc3987 => 1,
        Profile::Rfc3986 => 2,
        Profile::Leiri => 3,
    };
    &KEPT[p][part as usize]
}

/// `%00%01...%FF`: the encoding of octet `b` is `PCT[3 * b..3 * b + 3]`.
const PCT: &str = {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    const BYTES: [u8; 768] = {
        let mut out = [0u8; 768];
        let mut b = 0;
        while b < 256 {
            out[3 * b] = b'%';
            out[3 * b + 1] = HEX[b >> 4];
            out[3 * b + 2] = HEX[b & 15];
            b += 1;
        }
        out
    };
    match core::str::from_utf8(&BYTES) {
        Ok(s) => s,
        Err(_) => panic!("the table is ASCII"),
    }
};

/// Raw text percent-encoded for a component, written when displayed: a
/// value that allocates nothing ([`Encoded::to_cow`] and `to_string` give
/// the text). Made by the functions of [`crate::encode`].
///
/// ```
/// use iribis::{GrammarRule, Profile, encode};
///
/// let e = encode::userinfo("user name:pässword", Profile::Rfc3987bis);
/// assert_eq!(format!("//{e}@h"), "//user%20name:pässword@h");
/// assert_eq!(e.rule(), GrammarRule::from_name("iuserinfo").unwrap());
/// ```
#[derive(Clone, Copy)]
#[must_use = "an encoding does nothing until displayed"]
pub struct Encoded<'a> {
    text: &'a str,
    kept: &'static Kept,
    /// A space is written `+` (the form style of [`QueryStyle::Form`]).
    plus: bool,
}

impl<'a> Encoded<'a> {
    fn new(text: &'a str, part: Part, profile: Profile) -> Self {
        Encoded {
            text,
            kept: kept(part, profile),
            plus: false,
        }
    }

    /// The raw text.
    ///
    /// ```
    /// let e = iribis::encode::segment("a b", iribis::Profile::Rfc3987bis);
    /// assert_eq!(e.raw(), "a b");
    /// ```
    pub fn raw(&self) -> &'a str {
        self.text
    }

    /// The rule of the profile that the encoded text matches (`iquery`, or
    /// `query` under [`Profile::Rfc3986`]).
    ///
    /// ```
    /// use iribis::{Profile, encode};
    ///
    /// let e = encode::query("a b", Profile::Rfc3986);
    /// assert_eq!(e.rule().abnf_name(), "query");
    /// assert!(e.rule().matches(&e.to_string(), Profile::Rfc3986));
    /// ```
    pub fn rule(&self) -> GrammarRule {
        self.kept.rule
    }

    /// The encoded text: the raw text borrowed when nothing in it needs
    /// encoding.
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use iribis::{Profile, encode};
    ///
    /// assert_eq!(encode::path("/a b", Profile::Rfc3987bis).to_cow(), "/a%20b");
    /// assert!(matches!(encode::path("/a", Profile::Rfc3987bis).to_cow(), Cow::Borrowed("/a")));
    /// ```
    pub fn to_cow(&self) -> Cow<'a, str> {
        match self.first_change() {
            None => Cow::Borrowed(self.text),
            Some(first) => {
                let mut out = String::with_capacity(self.text.len() + 8);
                // Writing to a String cannot fail.
                let _ = self.write_from(first, &mut out);
                Cow::Owned(out)
            }
        }
    }

    /// The length in bytes of the character whose UTF-8 form starts with
    /// `lead`.
    fn char_len(lead: u8) -> usize {
        match lead {
            0x00..=0x7F => 1,
            0x80..=0xDF => 2,
            0xE0..=0xEF => 3,
            _ => 4,
        }
    }

    /// Whether the character of UTF-8 bytes `c` stays as it is.
    #[inline]
    fn keeps(&self, c: &[u8]) -> bool {
        !(self.plus && c == b" ") && self.kept.keeps(c)
    }

    /// The byte offset of the first character the encoding changes.
    fn first_change(&self) -> Option<usize> {
        let b = self.text.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let n = Self::char_len(b[i]);
            if !self.keeps(&b[i..i + n]) {
                return Some(i);
            }
            i += n;
        }
        None
    }

    /// Writes the encoded text to `out`.
    fn write_to(&self, out: &mut impl fmt::Write) -> fmt::Result {
        match self.first_change() {
            None => out.write_str(self.text),
            Some(first) => self.write_from(first, out),
        }
    }

    /// Writes the encoded text to `out`, `first` being the offset of the
    /// first character the encoding changes.
    fn write_from(&self, first: usize, out: &mut impl fmt::Write) -> fmt::Result {
        let b = self.text.as_bytes();
        // The kept characters since `run` are written together.
        let (mut run, mut i) = (0, first);
        while i < b.len() {
            let n = Self::char_len(b[i]);
            let c = &b[i..i + n];
            if !self.keeps(c) {
                out.write_str(&self.text[run..i])?;
                if self.plus && c == b" " {
                    out.write_char('+')?;
                } else {
                    for &o in c {
                        let o = usize::from(o);
                        out.write_str(&PCT[3 * o..3 * o + 3])?;
                    }
                }
                run = i + n;
            }
            i += n;
        }
        out.write_str(&self.text[run..])
    }

    /// Appends the encoded text to `out`.
    pub(crate) fn push_to(&self, out: &mut String) {
        // Writing to a String cannot fail.
        let _ = self.write_to(out);
    }
}

impl fmt::Display for Encoded<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

impl fmt::Debug for Encoded<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Encoded")
            .field("raw", &self.text)
            .field("rule", &self.kept.rule.abnf_name())
            .field("space_as_plus", &self.plus)
            .finish()
    }
}

impl PartialEq<str> for Encoded<'_> {
    /// Whether the encoded text is `other`, compared without writing it.
    ///
    /// ```
    /// assert!(iribis::encode::segment("a/b", iribis::Profile::Rfc3986) == *"a%2Fb");
    /// ```
    fn eq(&self, other: &str) -> bool {
        struct Compare<'o>(&'o str, bool);
        impl fmt::Write for Compare<'_> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                match self.0.strip_prefix(s) {
                    Some(rest) => self.0 = rest,
                    None => self.1 = false,
                }
                if self.1 { Ok(()) } else { Err(fmt::Error) }
            }
        }
        let mut cmp = Compare(other, true);
        self.write_to(&mut cmp).is_ok() && cmp.1 && cmp.0.is_empty()
    }
}

impl PartialEq<&str> for Encoded<'_> {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

/// Encodes raw text for a path (`ipath`, `path` under RFC 3986): `/` is
/// kept as the separator of segments, so `"/a b/c"` stays three segments.
/// Encode each segment with [`segment`] when a segment may contain `/`.
///
/// ```
/// use iribis::{Profile, encode};
///
/// assert_eq!(encode::path("/a b/c?d#e", Profile::Rfc3987bis).to_string(), "/a%20b/c%3Fd%23e");
/// assert_eq!(encode::path("/日本", Profile::Rfc3986).to_string(), "/%E6%97%A5%E6%9C%AC");
/// // Under LEIRI a space may stand as it is.
/// assert_eq!(encode::path("/a b", Profile::Leiri).to_string(), "/a b");
/// ```
pub fn path(text: &str, profile: Profile) -> Encoded<'_> {
    Encoded::new(text, Part::Path, profile)
}

/// Encodes raw text for one path segment (`isegment`, `segment`): as
/// [`path`], but `/` is encoded too.
///
/// ```
/// use iribis::{Profile, encode};
///
/// let segments = ["docs", "a/b", "résumé"];
/// let path: String = segments
///     .iter()
///     .map(|s| format!("/{}", encode::segment(s, Profile::Rfc3987bis)))
///     .collect();
/// assert_eq!(path, "/docs/a%2Fb/résumé");
/// ```
pub fn segment(text: &str, profile: Profile) -> Encoded<'_> {
    Encoded::new(text, Part::Segment, profile)
}

/// Encodes raw text for a whole query (`iquery`, `query`): `&`, `=` and
/// `+` are kept, so a query that has pairs is best written with
/// [`key_or_value`] or [`QueryBuilder`]. Under 3987bis and RFC 3987 a
/// private-use character (`iprivate`) is kept in the query alone.
///
/// ```
/// use iribis::{Profile, encode};
///
/// let bis = Profile::Rfc3987bis;
/// assert_eq!(encode::query("a=1&b=c d#e", bis).to_string(), "a=1&b=c%20d%23e");
/// assert_eq!(encode::query("\u{E000}", bis).to_string(), "\u{E000}");
/// assert_eq!(encode::path("\u{E000}", bis).to_string(), "%EE%80%80");
/// ```
pub fn query(text: &str, profile: Profile) -> Encoded<'_> {
    Encoded::new(text, Part::Query, profile)
}

/// Encodes raw text for a key or a value of a query's `key=value` pairs:
/// as [`query`], with `&`, `=` and `+` encoded too, and a space written `+`
/// in the [form style](QueryStyle::Form). What
/// [`IriRef::query_pairs`](crate::IriRef::query_pairs) reads back
/// ([`plus_as_space`](crate::QueryPairs::plus_as_space) for the form style).
///
/// ```
/// use iribis::{Profile, encode, encode::QueryStyle};
///
/// let bis = Profile::Rfc3987bis;
/// let value = encode::key_or_value("c&d = e+f", QueryStyle::Percent, bis);
/// assert_eq!(value.to_string(), "c%26d%20%3D%20e%2Bf");
/// let value = encode::key_or_value("café au lait", QueryStyle::Form, bis);
/// assert_eq!(value.to_string(), "café+au+lait");
/// ```
pub fn key_or_value(text: &str, style: QueryStyle, profile: Profile) -> Encoded<'_> {
    Encoded {
        plus: style == QueryStyle::Form,
        ..Encoded::new(text, Part::Pair, profile)
    }
}

/// Encodes raw text for a fragment (`ifragment`, `fragment`).
///
/// ```
/// use iribis::{Profile, encode};
///
/// assert_eq!(encode::fragment("sec 2#a", Profile::Rfc3987bis).to_string(), "sec%202%23a");
/// assert_eq!(encode::fragment("/a?b", Profile::Rfc3987bis).to_string(), "/a?b");
/// ```
pub fn fragment(text: &str, profile: Profile) -> Encoded<'_> {
    Encoded::new(text, Part::Fragment, profile)
}

/// Encodes raw text for a userinfo (`iuserinfo`, `userinfo`). `:` is kept,
/// as the rule allows; RFC 3986 §3.2.1 reads what follows the first `:` as
/// a password (a use it deprecates), so a user name that may contain `:`
/// needs that `:` written `%3A` as well.
///
/// ```
/// use iribis::{Profile, encode};
///
/// assert_eq!(encode::userinfo("a@b:c", Profile::Rfc3987bis).to_string(), "a%40b:c");
/// let user = encode::userinfo("a:b", Profile::Rfc3987bis).to_string().replace(':', "%3A");
/// assert_eq!(user, "a%3Ab");
/// ```
pub fn userinfo(text: &str, profile: Profile) -> Encoded<'_> {
    Encoded::new(text, Part::Userinfo, profile)
}

/// Encodes raw text for a registered name (`ireg-name`, `reg-name`): the
/// host of an authority that is not an IP address. Non-ASCII characters
/// stay under the IRI profiles (3987bis §3.1 maps them to punycode only
/// when the IRI becomes a URI, [`to_uri`](crate::to_uri) with IDNA); under
/// RFC 3986 they are percent-encoded, which the grammar allows but DNS
/// does not read: convert an IRI to a URI for a DNS name instead.
///
/// ```
/// use iribis::{Profile, encode};
///
/// assert_eq!(encode::reg_name("例え.jp", Profile::Rfc3987bis).to_string(), "例え.jp");
/// assert_eq!(encode::reg_name("a b:80", Profile::Rfc3987bis).to_string(), "a%20b%3A80");
/// ```
pub fn reg_name(text: &str, profile: Profile) -> Encoded<'_> {
    Encoded::new(text, Part::RegName, profile)
}
