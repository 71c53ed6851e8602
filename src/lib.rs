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
//!    recomposition (RFC 3986 §5.3) checked whole. [`encode`] turns raw
//!    text into a component's text (percent-encoding what the component's
//!    rule does not allow, read from its DFA) and writes and edits queries
//!    of `key=value` pairs; the builder's and setters' `_encoded` variants
//!    (`Builder::path_encoded`, `IriRef::set_path_encoded`, ...) use it.
//! 5. **Operations**, each in its module: [`resolve`](mod@resolve)
//!    (RFC 3986 §5), [`normalize`] (the comparison ladder of RFC 3987 §5.3),
//!    [`convert`] (IRI → URI and URI → IRI, 3987bis §3 and §5), [`check`](mod@check)
//!    (the conformance checker and its catalogue of codes) and [`render`]
//!    (showing inputs safely on a terminal). [`dfa`] walks the DFA of any
//!    rule, and [`grammar`] holds the grammar's own files. [`file`](mod@file) maps
//!    file paths to `file:` IRIs and back (RFC 8089), and `interop`
//!    converts to and from other crates' types (behind their features).
//!
//! # Literals and storage
//!
//! [`iri!`], [`iri_ref!`], [`absolute_iri!`], [`relative_ref!`] and, for
//! RFC 3986, [`uri!`] and [`uri_ref!`] check a literal at compile time:
//! each expands to a `const` block that runs the `const fn` parse
//! ([`IriRef::parse_const`] and its siblings: the DFA tables of the
//! run-time parse, walked byte by byte in `const`), so a valid literal is a
//! value the compiler built, with the components [`IriRef::parse`] gives,
//! at no cost at run time, and an invalid one is a compile error with the
//! position, the component and what is wrong ([`LiteralError`]).
//!
//! ```
//! use iribis::Iri;
//!
//! const HOME: Iri<&'static str> = iribis::iri!("https://例え.jp/");
//! static DOCS: Iri<&str> = iribis::iri!("https://例え.jp/docs?lang=ja");
//! assert_eq!(HOME.host_str(), Some("例え.jp"));
//! assert_eq!(DOCS.query(), Some("lang=ja"));
//! ```
//!
//! ```compile_fail
//! // error: invalid IRI literal, at byte 20 (character 20) in the path: a
//! // space is not allowed in a path: percent-encode it as %20 (3987bis §2.2, rule IRI)
//! const BAD: iribis::Iri<&str> = iribis::iri!("http://example.org/a b");
//! ```
//!
//! The reference types keep their text in any [`Storage`]: `&str`
//! (borrowed, zero-copy, also from serde), `String`, `Box<str>`,
//! `Arc<str>`, `Rc<str>` or `Cow<str>`. Each is parsed in place
//! (`TryFrom`), and [`IriRef::into_owned`] and [`IriRef::into_storage`]
//! move a parsed reference between them without parsing again.
//!
//! ```
//! use std::rc::Rc;
//! use iribis::IriRef;
//!
//! let shared: IriRef<Rc<str>> = IriRef::try_from(Rc::<str>::from("http://h/a"))?;
//! let owned: IriRef<String> = shared.clone().into_owned();
//! assert_eq!(owned.into_storage::<Box<str>>(), shared);
//! # Ok::<(), iribis::ParseError>(())
//! ```
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
//! The default build is the library alone, with `std`; each of the others
//! adds to it:
//!
//! - `std` (default): the standard library. Without it the crate is
//!   `no_std` and needs `alloc` and the `alloc` feature instead (see
//!   [below](#without-std)).
//! - `alloc`: the core on `alloc` alone, for a target without std; ignored
//!   when `std` is on.
//! - `charsets`: document charsets other than UTF-8 for the query
//!   (3987bis §3.5, `convert::ToUriOptions::query_charset`), through encoding_rs.
//! - `spoof`: the host spoofing codes of [`check()`] (UTS #39) and `to_iri`'s
//!   keeping of spoofable labels in punycode.
//! - `readings`: `iribis::readings`, what other software reads in
//!   an IRI (browsers through rust-url, C resolvers' inet_aton), the
//!   `READING_` codes of [`check()`] and its allowed hosts.
//! - `serde`: `Serialize` and `Deserialize` for the reference types, as strings
//!   (`IriRef<&str>` borrowed from the input, `Cow<str>` borrowed when it can);
//!   `Serialize` for the checker's findings and reports, as `iri check --json`
//!   writes them, and for [`Components`] and the readings, as `iri parse
//!   --json` writes them (`docs/schema/components.json`).
//! - `url`, `http`, `oxiri`, `fluent-uri`: `TryFrom` both ways between the
//!   reference types and `url::Url`, `http::Uri`, `oxiri::Iri` and
//!   `oxiri::IriRef`, and fluent-uri's `Uri`, `UriRef`, `Iri` and `IriRef`
//!   (`iribis::interop`, with its `InteropError`).
//!   The URI types get the reference's URI form (3987bis §3); the
//!   module's docs say where url's WHATWG reading parts from 3987bis.
//! - `std` (default): [`file`](mod@file) converts file paths (POSIX and Windows) to
//!   `file:` IRIs and back (RFC 8089).
//!
//! ## Without std
//!
//! With `default-features = false, features = ["alloc"]` the core builds
//! for a target that has `core` and `alloc` and no std (embedded, wasm32
//! without std): parsing and the typed components, [`Builder`] and the
//! setters, [`resolve`](mod@resolve), [`normalize`], [`to_uri`] and
//! [`to_iri`], [`check()`] without the `READING_` codes, [`tree`],
//! [`render`] and [`dfa`], every error type ([`core::error::Error`]).
//! `spoof`, `charsets` and `serde` build without std too; `readings` takes
//! std (rust-url's std, `std::net`). The tables decoded on first use are
//! then kept in cells that need only atomic pointers (once_cell's `race`);
//! threads that first use one at the same time may each decode it, and one
//! copy is kept. CI builds it so:
//!
//! ```text
//! cargo build -p iribis --lib --no-default-features --features alloc --target thumbv7em-none-eabihf
//! ```
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
//!
//! Building from raw text, with the query's pairs encoded:
//!
//! ```
//! use iribis::{Iri, Profile, encode};
//!
//! let mut iri = Iri::builder().scheme("http").host("例え.jp").path_encoded("/a b").build()?;
//! iri.query_pairs_mut().append_pair("q", "c&d").append_pair("lang", "日本");
//! assert_eq!(iri, "http://例え.jp/a%20b?q=c%26d&lang=日本");
//! assert_eq!(encode::segment("a/b c", Profile::Rfc3986).to_string(), "a%2Fb%20c");
//! # Ok::<(), iribis::ParseError>(())
//! ```

#![cfg_attr(not(feature = "std"), no_std)]

extern crate alloc;

#[cfg(not(any(feature = "std", feature = "alloc")))]
compile_error!(
    "iribis needs the `std` feature (the default) or, on a target without std, \
     the `alloc` feature: `--no-default-features --features alloc`"
);

/// What std's prelude gives a module and `alloc` has too: without the
/// `std` feature the crate is `no_std`, and each module that needs them
/// takes them with `use crate::prelude::*;`.
mod prelude {
    pub(crate) use alloc::borrow::ToOwned;
    pub(crate) use alloc::boxed::Box;
    pub(crate) use alloc::string::{String, ToString};
    pub(crate) use alloc::vec::Vec;
    pub(crate) use alloc::{format, vec};
}

mod catalogue;
mod chars;
pub mod check;
mod components;
mod compose;
pub mod convert;
mod decode;
pub mod dfa;
mod edit;
pub mod encode;
mod error;
mod fast;
#[cfg(feature = "std")]
pub mod file;
pub mod grammar;
mod host;
mod idna2008;
#[cfg(any(
    feature = "url",
    feature = "http",
    feature = "oxiri",
    feature = "fluent-uri"
))]
pub mod interop;
mod iri;
mod literal;
mod meta;
pub mod normalize;
mod nostd;
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
pub use components::Components;
pub use convert::{to_iri, to_uri};
pub use decode::{Decoded, QueryPairs};
pub use edit::Builder;
pub use error::{ErrorKind, Expected, ParseError};
#[doc(hidden)]
pub use fast::{dfa_accepts, dfa_viable_prefix};
pub use host::{Host, IpvFuture};
pub use iri::{AbsoluteIri, Iri, IriRef, KindError, ParseOptions, RelativeRef, Storage};
pub use literal::LiteralError;
pub use profile::{Profile, UnknownName};
pub use resolve::resolve;
pub use rule::{Component, GrammarRule, UnknownRule};
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
