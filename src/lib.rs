//! Internationalized Resource Identifiers, done exactly.
//!
//! `iribis` parses IRIs and IRI references by the ABNF of
//! draft-ietf-iri-3987bis-13 (the revision of RFC 3987), and URIs by RFC 3986.
//!
//! # Pipeline
//!
//! 1. **Grammar** (`grammar/*.pest`): the ABNF transcribed rule by rule into
//!    pest, each rule under its ABNF name with the ABNF above it, every
//!    departure needed by PEG's ordered choice commented. One grammar per
//!    [`Profile`].
//! 2. **DFAs** (`src/fast/`): every rule of every profile compiled into a
//!    minimal DFA by the generator in `gen/` and checked in, so a
//!    dependent's build constructs nothing. For the four reference rules of
//!    each profile, one walk decides validity and, crossed with RFC 3986
//!    Appendix B's delimiters, gives the components: [`IriRef::parse`] and
//!    its siblings run no pest. For every rule, the DFA's dead state is the
//!    exact position of a [`ParseError`]: the first character that cannot
//!    belong to any valid input.
//! 3. **pest**, starting at any rule ([`GrammarRule`]) and consuming the
//!    whole input: for [`Components`] and [`tree::SyntaxTree`] at any rule,
//!    and to explain an error (what was expected there), on a bounded
//!    window of the input, only when the error is first asked for. Its
//!    pairs are lowered to offsets into the input; nothing is re-scanned.
//! 4. **Typed components**: [`IriRef`], [`Iri`], [`AbsoluteIri`] and
//!    [`RelativeRef`] keep the text and the span of each component, with
//!    [`Host`] telling registered names, IPv4, IPv6 and IPvFuture apart.
//!    [`Builder`] and the setters (`IriRef::set_path`, ...) go the other
//!    way: each component checked where it will stand, then one
//!    recomposition (RFC 3986 §5.3) checked whole.
//! 5. **Operations**, each in its module: [`resolve`](mod@resolve)
//!    (RFC 3986 §5), [`normalize`] (the comparison ladder of RFC 3987 §5.3),
//!    [`convert`] (IRI → URI and URI → IRI, 3987bis §3 and §5), [`check`](mod@check)
//!    (the conformance checker and its catalogue of codes) and [`render`]
//!    (showing inputs safely on a terminal). [`dfa`] walks the DFA of any
//!    rule, and [`grammar`] holds the grammar's own files.
//!
//! # Terminology
//!
//! - An **IRI** (rule `IRI`) has a scheme: `http://例え.jp/`, `urn:isbn:x`.
//! - An **IRI reference** (rule `IRI-reference`) is an IRI or a **relative
//!   reference** (`irelative-ref`): `../a`, `//host/p`, `?q`, `#f`, the
//!   empty string.
//! - An **absolute IRI** (`absolute-IRI`) is an IRI without a fragment.
//! - A **URI** is an IRI that is all ASCII (RFC 3986); every URI is an IRI.
//!
//! # Rationale
//!
//! - *ireg-name and percent-encoding.* The draft prints
//!   `ireg-name = *( iunreserved / sub-delims )`, yet its §3.4.1 produces
//!   `http://r%C3%A9sum%C3%A9.example.org` and promises that every URI is an
//!   IRI. We read the omission of `pct-form` as an erratum and allow it, as
//!   RFC 3986 and RFC 3987 do.
//! - *Ambiguity.* The draft says "first-match-wins" applies to its ambiguous
//!   productions. For a valid input that never changes which components are
//!   found: 1.2.3.4.5 and 256.1.1.1 are registered names, not IPv4 addresses,
//!   because an IPv4 address is a host only when the host ends after it.
//! - *Absent versus empty.* `http://h?` has an empty query, `http://h` none;
//!   `http://h:/` an empty port; `file:///x` an empty authority and host.
//!
//! # Features
//!
//! The default build is the library alone; each of these adds to it:
//!
//! - `charsets`: document charsets other than UTF-8 for the query
//!   (3987bis §3.5, `convert::ToUriOptions::query_charset`), through encoding_rs.
//! - `spoof`: the host spoofing codes of [`check()`] (UTS #39) and `to_iri`'s
//!   keeping of spoofable labels in punycode.
//! - `readings`: `iribis::readings`, what other software reads in
//!   an IRI (browsers through rust-url, C resolvers' inet_aton), the
//!   `READING_` codes of [`check()`] and its allowed hosts.
//! - `serde`: `Serialize` and `Deserialize` for the reference types, as strings;
//!   `Serialize` for the checker's findings and reports, as `iri check --json`
//!   writes them.
//!
//! # The crates built on it
//!
//! - `iribis-cli`: the `iri` command.
//! - `iribis-lab`: the grammar lab (an ABNF reader, pest grammars run,
//!   traced, diffed and checked against the ABNF at run time) and the
//!   playground's API.
//! - `iribis-suite`: the conformance suite, its adapter protocol, runner
//!   and differential fuzzing.
//! - `iribis-documents`: the IRIs inside RDF, HTML and XML documents.
//!
//! # Examples
//!
//! ```
//! use iribis::{Host, IriRef};
//!
//! let r = IriRef::parse("https://[2001:db8::7]/résumé?q=日本#s")?;
//! assert_eq!(r.scheme(), Some("https"));
//! assert!(matches!(r.host(), Some(Host::Ipv6(_))));
//! assert_eq!(r.path(), "/résumé");
//!
//! let err = IriRef::parse("http://example.org/a b").unwrap_err();
//! assert_eq!(err.char(), 20);
//! assert_eq!(err.message(), "a space is not allowed in a path: percent-encode it as %20");
//! # Ok::<(), iribis::ParseError>(())
//! ```

mod catalogue;
mod chars;
pub mod check;
mod components;
mod compose;
pub mod convert;
mod decode;
pub mod dfa;
mod edit;
mod error;
mod fast;
pub mod grammar;
mod host;
mod idna2008;
mod iri;
mod meta;
pub mod normalize;
mod percent;
mod profile;
#[cfg(feature = "readings")]
pub mod readings;
pub mod render;
pub mod resolve;
mod rule;
mod scheme;
#[cfg(feature = "spoof")]
pub mod spoof;
mod syntax;
pub mod tree;
mod unicode;

pub use check::check;
pub use components::{Component, Components};
pub use convert::{to_iri, to_uri};
pub use decode::{Decoded, QueryPairs};
pub use edit::Builder;
pub use error::{ErrorKind, Expected, ParseError};
#[doc(hidden)]
pub use fast::{dfa_accepts, dfa_viable_prefix};
pub use host::{Host, IpvFuture};
pub use iri::{AbsoluteIri, Iri, IriRef, KindError, ParseOptions, RelativeRef, Storage};
pub use profile::{Profile, UnknownName};
pub use resolve::resolve;
pub use rule::GrammarRule;
#[doc(hidden)]
pub use syntax::pest_accepts;

/// What the generator of the DFA tables (`gen/`) shares with the library:
/// not part of the API.
#[doc(hidden)]
pub mod __gen {
    pub use crate::fast::phase;
}

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
