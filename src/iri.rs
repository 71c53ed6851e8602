//! The reference types: one string and the offsets of its components.

use crate::prelude::*;
use alloc::borrow::Cow;
use alloc::rc::Rc;
use alloc::sync::Arc;
use core::borrow::Borrow;
use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::ops::Deref;
use core::str::FromStr;

use crate::decode::{Decoded, QueryPairs};
use crate::error::ParseError;
use crate::fast::{self, Parsed, Proven};
use crate::host::{Host, IpvFuture};
use crate::literal::{self, LiteralError};
use crate::meta::{HostMeta, Meta, Slot, Span};
use crate::profile::Profile;
use crate::rule::GrammarRule;
use crate::syntax;
use crate::syntax::lower::Lower;

/// Options for the `parse_with` constructors.
///
/// ```
/// use iribis::{IriRef, ParseOptions, Profile};
///
/// let uri = ParseOptions::new().profile(Profile::Rfc3986);
/// assert!(IriRef::parse_with("http://example.org/", &uri).is_ok());
/// assert!(IriRef::parse_with("http://例え.jp/", &uri).is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseOptions {
    /// The grammar to follow; [`Profile::Rfc3987bis`] by default.
    pub profile: Profile,
}

impl ParseOptions {
    /// The defaults: profile `rfc3987bis`.
    pub const fn new() -> Self {
        ParseOptions {
            profile: Profile::Rfc3987bis,
        }
    }

    /// Sets the profile.
    pub const fn profile(mut self, profile: Profile) -> Self {
        self.profile = profile;
        self
    }
}

/// An IRI reference (the `IRI-reference` rule): an [`Iri`] or a
/// [`RelativeRef`], parsed into components.
///
/// `T` is the storage ([`Storage`]): `IriRef<&str>` borrows the input
/// (zero-copy, from [`IriRef::parse`], or a literal checked at compile time,
/// [`iri_ref!`](crate::iri_ref!)); `IriRef<String>` owns it (from
/// `str::parse`, `TryFrom<String>` or [`IriRef::into_owned`]), and so do
/// `Box<str>`, `Arc<str>`, `Rc<str>` and `Cow<str>` (the same conversions,
/// and [`IriRef::into_storage`] between any two). Accessors return slices
/// of the input. An absent component is `None`; an empty one is `Some("")`.
///
/// ```
/// use iribis::IriRef;
///
/// let r = IriRef::parse("http://user@例え.jp:8080/a/b?q=1#top")?;
/// assert_eq!(r.scheme(), Some("http"));
/// assert_eq!(r.authority(), Some("user@例え.jp:8080"));
/// assert_eq!(r.userinfo(), Some("user"));
/// assert_eq!(r.host_str(), Some("例え.jp"));
/// assert_eq!(r.port(), Some("8080"));
/// assert_eq!(r.port_number(), Some(8080));
/// assert_eq!(r.path(), "/a/b");
/// assert_eq!(r.query(), Some("q=1"));
/// assert_eq!(r.fragment(), Some("top"));
///
/// assert_eq!(IriRef::parse("http://h?")?.query(), Some(""));
/// assert_eq!(IriRef::parse("http://h")?.query(), None);
/// assert_eq!(IriRef::parse("http://h:/")?.port(), Some(""));
/// assert_eq!(IriRef::parse("file:///x")?.authority(), Some(""));
/// # Ok::<(), iribis::ParseError>(())
/// ```
///
/// Equality, ordering and hashing are those of the text (simple string
/// comparison, RFC 3987 §5.3.1), and every reference type implements
/// `Borrow<str>`, so sets and maps of references are looked up by `&str`;
/// an owned value gives its `String` back without copying:
///
/// ```
/// use std::collections::{BTreeSet, HashMap};
/// use iribis::IriRef;
///
/// let mut seen: HashMap<IriRef<String>, u32> = HashMap::new();
/// *seen.entry("http://例え.jp/".parse()?).or_default() += 1;
/// assert_eq!(seen.get("http://例え.jp/"), Some(&1));
///
/// let set: BTreeSet<IriRef<String>> = ["b", "a", "#c"].iter().map(|s| s.parse()).collect::<Result<_, _>>()?;
/// assert_eq!(set.iter().map(|r| r.as_str()).collect::<Vec<_>>(), ["#c", "a", "b"]);
/// assert!(set.contains("a"));
///
/// let r: IriRef<String> = "http://h/".parse()?;
/// let s: String = r.into_string();
/// assert_eq!(s, "http://h/");
/// # Ok::<(), iribis::ParseError>(())
/// ```
#[derive(Clone, Copy)]
pub struct IriRef<T> {
    text: T,
    meta: Meta,
    profile: Profile,
    /// `Some` when `meta` is a parse of `text`: its spans lie in `text`, in
    /// order, between characters, and the accessors slice them without
    /// checks ([`IriRef::component`]). Only `parse_ref` and `parse_owned`
    /// set it, to the [`Proven`] of their parse; `None` for a reference
    /// built from parts. No function changes `text` or `meta` once the
    /// reference is built.
    proof: Option<Proven>,
}

mod sealed {
    use alloc::string::String;

    /// Only the crate's storages implement [`super::Storage`].
    pub trait Sealed {}
    impl Sealed for &str {}
    impl Sealed for String {}
    impl Sealed for alloc::boxed::Box<str> {}
    impl Sealed for alloc::sync::Arc<str> {}
    impl Sealed for alloc::rc::Rc<str> {}
    impl Sealed for alloc::borrow::Cow<'_, str> {}

    /// A `&str` of some lifetime: what a storage lends its accessors.
    pub trait Lent {
        /// The text, for any lifetime the reference outlives.
        fn text<'o>(self) -> &'o str
        where
            Self: 'o;
    }

    impl Lent for &str {
        #[inline]
        fn text<'o>(self) -> &'o str
        where
            Self: 'o,
        {
            self
        }
    }

    /// A storage that, borrowed for `'i`, lends its text for `'o`: the
    /// bound of the accessors. A trait rather than a bare `Lent<'i>: 'o`
    /// bound so that a call inside the accessors unifies its lifetimes
    /// with the caller's.
    pub trait Lend<'i, 'o> {
        /// The text.
        fn lend_for(&'i self) -> &'o str;
    }

    impl<'i, 'o, T> Lend<'i, 'o> for T
    where
        T: super::Storage + 'i,
        T::Lent<'i>: 'o,
    {
        #[inline]
        fn lend_for(&'i self) -> &'o str {
            let lent: T::Lent<'i> = T::lend(self);
            lent.text()
        }
    }
}

/// The storage of a reference: `&str`, borrowed from the input; `String`
/// or `Box<str>`, owned; `Arc<str>` or `Rc<str>`, shared (as RDF stores
/// intern IRIs); `Cow<str>`, borrowed or owned. Sealed: only these
/// implement it.
///
/// The accessors of an `IriRef<&'a str>` return slices of the input, which
/// live as long as the input (`&'a str`) rather than as long as the parsed
/// value; those of the other storages borrow the value. Generic code takes
/// `T: Storage`:
///
/// ```
/// use std::sync::Arc;
/// use iribis::{IriRef, Storage};
///
/// // The host borrows the input, not the temporary `IriRef`.
/// fn host_of(s: &str) -> Option<&str> {
///     IriRef::parse(s).ok()?.host_str()
/// }
/// assert_eq!(host_of("http://例え.jp/"), Some("例え.jp"));
///
/// fn path_len<T: Storage>(r: &IriRef<T>) -> usize {
///     r.path().len()
/// }
/// let owned: IriRef<String> = "http://h/abc".parse()?;
/// assert_eq!(path_len(&owned), 4);
/// assert_eq!(path_len(&owned.as_borrowed()), 4);
///
/// // Shared storage: parsed in place, or converted without a parse.
/// let shared = IriRef::<Arc<str>>::try_from(Arc::<str>::from("http://h/abc"))?;
/// assert_eq!(path_len(&shared), 4);
/// let interned: IriRef<Arc<str>> = owned.into_storage();
/// assert_eq!(interned, shared);
/// # Ok::<(), iribis::ParseError>(())
/// ```
pub trait Storage: AsRef<str> + sealed::Sealed {
    /// `&'a str` for `&'a str`; `&'s str`, borrowed from the storage, for
    /// the others.
    #[doc(hidden)]
    type Lent<'s>: sealed::Lent
    where
        Self: 's;

    /// The text, as long-lived as the storage allows.
    #[doc(hidden)]
    fn lend(&self) -> Self::Lent<'_>;

    /// The text as a `String`, moved where the storage is one (`String`,
    /// `Box<str>`, an owned `Cow`), else copied.
    #[doc(hidden)]
    fn into_string(self) -> String
    where
        Self: Sized;
}

impl<'a> Storage for &'a str {
    type Lent<'s>
        = &'a str
    where
        Self: 's;

    #[inline]
    fn lend(&self) -> &'a str {
        self
    }

    fn into_string(self) -> String {
        self.to_owned()
    }
}

/// The owned and shared storages, which lend their text for as long as
/// they are borrowed.
macro_rules! owned_storage {
    ($($ty:ty => |$s:ident| $into_string:expr;)*) => {$(
        impl Storage for $ty {
            type Lent<'s>
                = &'s str
            where
                Self: 's;

            #[inline]
            fn lend(&self) -> &str {
                self
            }

            fn into_string(self) -> String {
                let $s = self;
                $into_string
            }
        }
    )*};
}

owned_storage! {
    String => |s| s;
    Box<str> => |s| s.into_string();
    Arc<str> => |s| s.as_ref().to_owned();
    Rc<str> => |s| s.as_ref().to_owned();
    Cow<'_, str> => |s| s.into_owned();
}

/// An IRI (the `IRI` rule): an [`IriRef`] with a scheme.
///
/// Dereferences to [`IriRef`] for the accessors; [`Iri::scheme`] returns the
/// scheme without an `Option`.
///
/// ```
/// use iribis::{Iri, IriRef};
///
/// let iri = Iri::parse("urn:isbn:0-395-36341-1")?;
/// assert_eq!(iri.scheme(), "urn");
/// assert_eq!(iri.path(), "isbn:0-395-36341-1");
/// assert!(Iri::parse("../a").is_err());
/// let r: IriRef<&str> = iri.into();
/// assert!(Iri::try_from(r).is_ok());
/// # Ok::<(), iribis::ParseError>(())
/// ```
#[derive(Clone, Copy)]
pub struct Iri<T>(pub(crate) IriRef<T>);

/// An absolute IRI (the `absolute-IRI` rule): an [`Iri`] without a fragment,
/// as a base IRI must be (3987bis §2.2, RFC 3986 §5.1).
///
/// ```
/// use iribis::AbsoluteIri;
///
/// assert!(AbsoluteIri::parse("http://a/b/c/d;p?q").is_ok());
/// assert!(AbsoluteIri::parse("http://a/b#frag").is_err());
/// ```
#[derive(Clone, Copy)]
pub struct AbsoluteIri<T>(pub(crate) IriRef<T>);

/// A relative reference (the `irelative-ref` rule): an [`IriRef`] without a
/// scheme.
///
/// ```
/// use iribis::RelativeRef;
///
/// let r = RelativeRef::parse("//example.org/a?b#c")?;
/// assert_eq!(r.host_str(), Some("example.org"));
/// assert!(RelativeRef::parse("http://example.org/").is_err());
/// # Ok::<(), iribis::ParseError>(())
/// ```
#[derive(Clone, Copy)]
pub struct RelativeRef<T>(pub(crate) IriRef<T>);

/// The error of narrowing an [`IriRef`] to [`Iri`], [`AbsoluteIri`] or
/// [`RelativeRef`]: the reference is of another kind. It gives the reference
/// back.
#[derive(Clone)]
#[non_exhaustive]
pub struct KindError<T> {
    /// The reference that was not of the wanted kind.
    pub value: IriRef<T>,
    /// The rule it does not match: `IRI`, `absolute-IRI` or `irelative-ref`.
    pub expected: &'static str,
}

impl<T: Storage> fmt::Display for KindError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match self.expected {
            "IRI" => "it has no scheme",
            "absolute-IRI" if self.value.meta.scheme.is_none() => "it has no scheme",
            "absolute-IRI" => "it has a fragment",
            _ => "it has a scheme",
        };
        write!(
            f,
            "{:?} is not an {}: {why}",
            self.value.as_str(),
            self.expected
        )
    }
}

impl<T: Storage> fmt::Debug for KindError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KindError")
            .field("value", &self.value)
            .field("expected", &self.expected)
            .finish()
    }
}

impl<T: Storage> core::error::Error for KindError<T> {}

impl<'a> IriRef<&'a str> {
    /// Parses an IRI reference under the default profile (`rfc3987bis`).
    ///
    /// ```
    /// let r = iribis::IriRef::parse("../résumé.html#p2")?;
    /// assert_eq!(r.scheme(), None);
    /// assert_eq!(r.path(), "../résumé.html");
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    #[inline]
    pub fn parse(input: &'a str) -> Result<Self, ParseError> {
        Self::parse_with(input, &ParseOptions::default())
    }

    /// Parses an IRI reference under the given options. Under the `rfc3986`
    /// profile the rule is `URI-reference`.
    ///
    /// ```
    /// use iribis::{IriRef, ParseOptions, Profile};
    ///
    /// let leiri = ParseOptions::new().profile(Profile::Leiri);
    /// assert!(IriRef::parse_with("http://h/a b", &leiri).is_ok());
    /// assert!(IriRef::parse("http://h/a b").is_err());
    /// ```
    #[inline]
    pub fn parse_with(input: &'a str, options: &ParseOptions) -> Result<Self, ParseError> {
        parse_ref(input, GrammarRule::IRI_REFERENCE, options.profile)
    }

    /// Parses an IRI reference in `const` (checked literals): the parse of
    /// [`IriRef::parse`], the same components, walked through the same DFA
    /// at compile time when called in `const`. [`iri_ref!`](crate::iri_ref!)
    /// calls it in a `const` block, so that an invalid literal does not
    /// compile.
    ///
    /// ```
    /// use iribis::IriRef;
    ///
    /// const UP: IriRef<&str> = match IriRef::parse_const("../résumé.html#p2") {
    ///     Ok(r) => r,
    ///     Err(e) => e.panic(),
    /// };
    /// assert_eq!(UP.path(), "../résumé.html");
    /// assert_eq!(UP, IriRef::parse("../résumé.html#p2")?);
    /// assert_eq!(IriRef::parse_const("a b").unwrap_err().byte(), 1);
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub const fn parse_const(input: &'a str) -> Result<Self, LiteralError> {
        Self::parse_const_with(input, &ParseOptions::new())
    }

    /// [`IriRef::parse_const`] under the given options (`URI-reference`
    /// under the `rfc3986` profile, as [`IriRef::parse_with`]).
    ///
    /// ```
    /// use iribis::{IriRef, ParseOptions, Profile};
    ///
    /// let uri = ParseOptions::new().profile(Profile::Rfc3986);
    /// assert!(IriRef::parse_const_with("http://example.org/", &uri).is_ok());
    /// assert!(IriRef::parse_const_with("http://例え.jp/", &uri).is_err());
    /// ```
    pub const fn parse_const_with(
        input: &'a str,
        options: &ParseOptions,
    ) -> Result<Self, LiteralError> {
        parse_literal(input, GrammarRule::IRI_REFERENCE, options.profile)
    }
}

impl<T: Storage> IriRef<T> {
    /// The reference with `String` storage: the text moved where the
    /// storage is a `String`, a `Box<str>` or an owned `Cow`, else copied;
    /// no parse.
    ///
    /// ```
    /// let r: iribis::IriRef<String> = iribis::IriRef::parse("http://h/a")?.into_owned();
    /// assert_eq!(r.path(), "/a");
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn into_owned(self) -> IriRef<String> {
        IriRef {
            text: self.text.into_string(),
            meta: self.meta,
            profile: self.profile,
            // The same text, moved or copied.
            proof: self.proof,
        }
    }

    /// The reference in another storage, the text converted by `From`
    /// (`&str` or `String` into `Arc<str>`, `Box<str>` into `String`...);
    /// no parse.
    ///
    /// ```
    /// use std::rc::Rc;
    /// use iribis::IriRef;
    ///
    /// let r: IriRef<Rc<str>> = IriRef::parse("http://h/a?q")?.into_storage();
    /// assert_eq!(r.query(), Some("q"));
    /// let boxed: IriRef<Box<str>> = r.into_owned().into_storage();
    /// assert_eq!(boxed, "http://h/a?q");
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn into_storage<U: Storage + From<T>>(self) -> IriRef<U> {
        let text = U::from(self.text);
        // The storages' `From` keep the text as it is; the spans are
        // checked against the new text all the same (a few boundary
        // tests, no scan), so that the proof rests on nothing outside the
        // crate.
        let proof = match self.proof {
            Some(_) => Proven::fitting(&self.meta, text.as_ref()),
            None => None,
        };
        IriRef {
            text,
            meta: self.meta,
            profile: self.profile,
            proof,
        }
    }
}

/// The DFA decides and the delimiters split (`crate::fast`); an input the
/// DFA rejects gets an error whose details pest works out when asked.
/// Either way the spans come with their proof (`IriRef::proof`).
#[inline]
fn parse_spans(
    input: &str,
    rule: GrammarRule,
    profile: Profile,
) -> Result<(Meta, Proven), ParseError> {
    let mut meta = Meta::default();
    match fast::parse(input, rule, profile, &mut meta) {
        Some(Parsed::Valid(proof)) => Ok((meta, proof)),
        Some(Parsed::Invalid) => Err(rejected(input, rule, profile)),
        None => parse_pest(input, rule, profile),
    }
}

/// `text` parsed with `rule` under `profile`, into a reference that holds
/// it; the error holds a copy of `text` ([`ParseError::into_input`]).
pub(crate) fn parse_owned<T: AsRef<str>>(
    text: T,
    rule: GrammarRule,
    profile: Profile,
) -> Result<IriRef<T>, ParseError> {
    let (meta, proof) = parse_spans(text.as_ref(), rule, profile)?;
    Ok(IriRef {
        text,
        meta,
        profile,
        proof: Some(proof),
    })
}

/// As [`parse_spans`], building the reference in place: the components are
/// written straight into it rather than copied in.
#[inline]
fn parse_ref(input: &str, rule: GrammarRule, profile: Profile) -> Result<IriRef<&str>, ParseError> {
    let mut r = IriRef {
        text: input,
        meta: Meta::default(),
        profile,
        proof: None,
    };
    match fast::parse(input, rule, profile, &mut r.meta) {
        Some(Parsed::Valid(proof)) => {
            r.proof = Some(proof);
            Ok(r)
        }
        Some(Parsed::Invalid) => Err(rejected(input, rule, profile)),
        None => parse_pest(input, rule, profile).map(|(meta, proof)| IriRef {
            text: input,
            meta,
            profile,
            proof: Some(proof),
        }),
    }
}

/// [`parse_ref`] in `const`, for the checked literals (`crate::literal`):
/// the spans of its split are proven by `Proven::fitting`, as pest's are.
const fn parse_literal(
    input: &str,
    rule: GrammarRule,
    profile: Profile,
) -> Result<IriRef<&str>, LiteralError> {
    match literal::parse(input, rule, profile) {
        Ok(meta) => Ok(IriRef {
            text: input,
            meta,
            profile,
            proof: Proven::fitting(&meta, input),
        }),
        Err(e) => Err(e),
    }
}

#[cold]
#[inline(never)]
fn rejected(input: &str, rule: GrammarRule, profile: Profile) -> ParseError {
    ParseError::deferred(input, profile, rule.for_profile(profile))
}

#[cold]
#[inline(never)]
fn parse_pest(
    input: &str,
    rule: GrammarRule,
    profile: Profile,
) -> Result<(Meta, Proven), ParseError> {
    let meta = syntax::parse(profile, rule.for_profile(profile), input, Lower)?;
    // pest's spans are ranges of the input between characters; checked all
    // the same, so that the proof rests on nothing outside the crate.
    let Some(proof) = Proven::fitting(&meta, input) else {
        unreachable!("pest's spans fit the input: {meta:?} of {input:?}")
    };
    Ok((meta, proof))
}

#[inline]
pub(crate) fn slice(text: &str, span: Option<Span>) -> Option<&str> {
    span.map(|(s, e)| &text[s..e])
}

/// The host `host`, of kind `kind`, which starts at byte `start` of its
/// reference.
#[inline]
pub(crate) fn typed_host(host: &str, start: usize, kind: HostMeta) -> Host<'_> {
    match kind {
        HostMeta::RegName => Host::RegName(host),
        HostMeta::Ipv4(a) => Host::Ipv4(a),
        HostMeta::Ipv6(a) => Host::Ipv6(a),
        HostMeta::IpvFuture { dot } => Host::IpvFuture(IpvFuture {
            // Inside the brackets of the IP literal.
            text: &host[1..host.len() - 1],
            dot: dot - start - 1,
        }),
    }
}

/// The accessors. `'i` is the borrow of the value and `'o` the lifetime of
/// what they return: the input's for `IriRef<&str>`, at most `'i` for
/// `IriRef<String>` (see [`Storage`]).
impl<'i, 'o, T: sealed::Lend<'i, 'o>> IriRef<T> {
    /// The whole reference, exactly as parsed.
    #[inline]
    pub fn as_str(&'i self) -> &'o str {
        self.text.lend_for()
    }

    /// The component in the slot of `self.meta` that `slot` reads; for a
    /// parsed reference (`IriRef::proof`), without the checks of
    /// `&text[start..end]`.
    ///
    /// Those checks (the span in range, both ends on character boundaries)
    /// took 40 of the 570 instructions of a URL's parse as
    /// `benches/parse.rs` reads it, and 5 % of its time; 8 % of a mixed
    /// reference's (docs/performance.md). The crate denies `unsafe`
    /// everywhere else.
    #[inline]
    #[allow(unsafe_code)]
    fn component(&'i self, slot: impl FnOnce(&Meta) -> Slot) -> Option<&'o str> {
        let text = self.as_str();
        let (start, end) = slot(&self.meta).get()?;
        if self.proof.is_none() {
            return Some(&text[start..end]);
        }
        debug_assert!(text.get(start..end).is_some(), "{start}..{end} of {text:?}");
        // SAFETY: `start..end` is a span of `self.meta` and `text` is
        // `self.text`. `self.proof` is `Some` only where `parse_ref` and
        // `parse_owned` build a reference from a parse of the very text it
        // holds, or `into_owned` and `as_borrowed` copy one with its text
        // (`Storage::into_string` of the crate's sealed storages moves or
        // copies it as it is), or `into_storage` and `parse_literal` check
        // the spans against the text they hold (`Proven::fitting`);
        // the fields are private to this module, and no function of it
        // changes `text` or `meta` once a reference is built. A `Proven`
        // comes from one of two places, and either way every span of
        // `self.meta` is in order, within `text` and between characters:
        // - `fast::parse`, from `Proven::split` (`src/fast/proof.rs`), which
        //   splits an input that a validator accepted and takes the
        //   `Checked` of that validator, which only `proof::check` makes,
        //   when `Validator::load` checks its tables; the docs of that
        //   module derive the spans' fit from the properties it checks;
        // - `parse_pest`, `parse_literal` and `into_storage`, from
        //   `Proven::fitting`, which is `Meta::fits`.
        Some(unsafe { text.get_unchecked(start..end) })
    }

    /// The scheme, without its ":".
    #[inline]
    pub fn scheme(&'i self) -> Option<&'o str> {
        self.component(|m| m.scheme)
    }

    /// The authority, without the "//": userinfo, host and port.
    #[inline]
    pub fn authority(&'i self) -> Option<&'o str> {
        self.component(|m| m.authority)
    }

    /// The userinfo, without its "@".
    #[inline]
    pub fn userinfo(&'i self) -> Option<&'o str> {
        self.component(|m| m.userinfo)
    }

    /// The host as written (brackets included for an IP literal).
    #[inline]
    pub fn host_str(&'i self) -> Option<&'o str> {
        self.component(|m| m.host)
    }

    /// The host, by kind.
    #[inline]
    pub fn host(&'i self) -> Option<Host<'o>> {
        let host = self.component(|m| m.host)?;
        let (start, _) = self.meta.host.get()?;
        Some(typed_host(host, start, self.meta.host_kind))
    }

    /// The port as written, without its ":"; `Some("")` for an empty port.
    #[inline]
    pub fn port(&'i self) -> Option<&'o str> {
        self.component(|m| m.port)
    }

    /// The port as a number, when there is one and it fits in a `u16`
    /// (`port = *DIGIT` allows "" and "99999").
    ///
    /// ```
    /// use iribis::IriRef;
    /// assert_eq!(IriRef::parse("http://h:0080/")?.port_number(), Some(80));
    /// assert_eq!(IriRef::parse("http://h:99999/")?.port_number(), None);
    /// assert_eq!(IriRef::parse("http://h:/")?.port_number(), None);
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn port_number(&'i self) -> Option<u16> {
        self.port().and_then(|p| p.parse().ok())
    }

    /// The path; every reference has one, possibly empty.
    #[inline]
    pub fn path(&'i self) -> &'o str {
        self.component(|m| m.path).unwrap_or("")
    }

    /// The path's segments: the path split at each "/" (a path starting with
    /// "/" starts with an empty segment before it, which is left out).
    ///
    /// ```
    /// let r = iribis::IriRef::parse("http://h/a//b/")?;
    /// assert_eq!(r.path_segments().collect::<Vec<_>>(), ["a", "", "b", ""]);
    /// let r = iribis::IriRef::parse("a/b")?;
    /// assert_eq!(r.path_segments().collect::<Vec<_>>(), ["a", "b"]);
    /// assert_eq!(iribis::IriRef::parse("")?.path_segments().count(), 0);
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn path_segments(&'i self) -> impl Iterator<Item = &'o str> + use<'o, T> {
        let path = self.path();
        let rest = path.strip_prefix('/').unwrap_or(path);
        (!path.is_empty())
            .then(|| rest.split('/'))
            .into_iter()
            .flatten()
    }

    /// The query, without its "?".
    #[inline]
    pub fn query(&'i self) -> Option<&'o str> {
        self.component(|m| m.query)
    }

    /// The fragment, without its "#".
    #[inline]
    pub fn fragment(&'i self) -> Option<&'o str> {
        self.component(|m| m.fragment)
    }

    /// The userinfo, percent-decoded on demand ([`Decoded`]).
    ///
    /// ```
    /// let r = iribis::IriRef::parse("ftp://J%C3%BCrgen@h/")?;
    /// assert_eq!(r.userinfo_decoded().unwrap().to_str_lossy(), "Jürgen");
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn userinfo_decoded(&'i self) -> Option<Decoded<'o>> {
        self.userinfo().map(Decoded::new)
    }

    /// The host, percent-decoded on demand: a registered name may be
    /// percent-encoded (3987bis §3.4.1); IP addresses never are.
    ///
    /// ```
    /// let r = iribis::IriRef::parse("http://r%C3%A9sum%C3%A9.example.org/")?;
    /// assert_eq!(r.host_decoded().unwrap().to_str_lossy(), "résumé.example.org");
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn host_decoded(&'i self) -> Option<Decoded<'o>> {
        self.host_str().map(Decoded::new)
    }

    /// The path, percent-decoded on demand. A decoded "/" (`%2F`) is data,
    /// not a separator: split with [`IriRef::path_segments`] first and
    /// decode each segment to tell them apart.
    ///
    /// ```
    /// // RFC 3987 §3.2.1's example.
    /// let r = iribis::IriRef::parse("http://www.example.org/D%C3%BCrst")?;
    /// assert_eq!(r.path_decoded().to_str()?, "/Dürst");
    /// let r = iribis::IriRef::parse("http://www.example.org/D%FCrst")?;
    /// assert_eq!(r.path_decoded().to_bytes().as_ref(), b"/D\xFCrst");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn path_decoded(&'i self) -> Decoded<'o> {
        Decoded::new(self.path())
    }

    /// The query, percent-decoded on demand; see also
    /// [`IriRef::query_pairs`].
    ///
    /// ```
    /// let r = iribis::IriRef::parse("http://h/?%E6%97%A5%E6%9C%AC")?;
    /// assert_eq!(r.query_decoded().unwrap().to_str()?, "日本");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn query_decoded(&'i self) -> Option<Decoded<'o>> {
        self.query().map(Decoded::new)
    }

    /// The fragment, percent-decoded on demand.
    ///
    /// ```
    /// let r = iribis::IriRef::parse("#a%20b")?;
    /// assert_eq!(r.fragment_decoded().unwrap().to_str_lossy(), "a b");
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn fragment_decoded(&'i self) -> Option<Decoded<'o>> {
        self.fragment().map(Decoded::new)
    }

    /// The query as `key=value` pairs split at `&` and `=`, percent-decoded:
    /// the convention of HTML forms, not a rule of any IRI specification
    /// ([`QueryPairs`] says which). No pairs without a query.
    ///
    /// ```
    /// let r = iribis::IriRef::parse("http://h/?a=1&b=%C3%A9")?;
    /// let pairs: Vec<_> = r.query_pairs().collect();
    /// assert_eq!((&*pairs[1].0, &*pairs[1].1), ("b", "é"));
    /// assert_eq!(iribis::IriRef::parse("http://h/")?.query_pairs().count(), 0);
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn query_pairs(&'i self) -> QueryPairs<'o> {
        QueryPairs::new(self.query())
    }

    /// Whether the reference has a scheme (is an IRI rather than a relative
    /// reference).
    pub fn is_iri(&'i self) -> bool {
        self.meta.scheme.is_some()
    }

    /// Borrows the reference.
    pub fn as_borrowed(&'i self) -> IriRef<&'o str> {
        IriRef {
            text: self.as_str(),
            meta: self.meta,
            profile: self.profile,
            // The same text, borrowed.
            proof: self.proof,
        }
    }
}

impl<T> IriRef<T> {
    /// The lowered components, for the operations that build new references
    /// from old ones without parsing again.
    pub(crate) fn meta(&self) -> &Meta {
        &self.meta
    }

    /// The text, given back.
    pub(crate) fn into_text(self) -> T {
        self.text
    }

    /// A reference from text and components that describe it exactly: the
    /// caller guarantees that parsing `text` under the default profile
    /// would lower to `meta`.
    pub(crate) fn from_parts(text: T, meta: Meta) -> Self
    where
        T: AsRef<str>,
    {
        Self::from_parts_in(text, meta, Profile::default())
    }

    /// As [`IriRef::from_parts`], `text` valid under `profile`. The
    /// accessors check the spans as they slice (see
    /// [`IriRef::component`]).
    pub(crate) fn from_parts_in(text: T, meta: Meta, profile: Profile) -> Self
    where
        T: AsRef<str>,
    {
        debug_assert!(meta.fits(text.as_ref()), "{meta:?} of {:?}", text.as_ref());
        IriRef {
            text,
            meta,
            profile,
            proof: None,
        }
    }

    /// The profile the reference was parsed (or built) under, which its
    /// setters validate against.
    ///
    /// ```
    /// use iribis::{IriRef, ParseOptions, Profile};
    ///
    /// let leiri = ParseOptions::new().profile(Profile::Leiri);
    /// assert_eq!(IriRef::parse_with("a b", &leiri)?.profile(), Profile::Leiri);
    /// assert_eq!(IriRef::parse("a")?.profile(), Profile::Rfc3987bis);
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn profile(&self) -> Profile {
        self.profile
    }
}

impl<T> Iri<T> {
    /// An [`Iri`] from a reference the caller knows has a scheme.
    pub(crate) fn from_ref(r: IriRef<T>) -> Self {
        debug_assert!(r.meta.scheme.is_some());
        Iri(r)
    }
}

macro_rules! narrow {
    ($ty:ident, $rule:expr_2021, $name:literal, |$m:ident| $ok:expr_2021, $doc:literal, $example:literal) => {
        impl<'a> $ty<&'a str> {
            #[doc = concat!("Parses ", $doc, " under the default profile.")]
            pub fn parse(input: &'a str) -> Result<Self, ParseError> {
                Self::parse_with(input, &ParseOptions::default())
            }

            #[doc = concat!("Parses ", $doc, " under the given options.")]
            pub fn parse_with(input: &'a str, options: &ParseOptions) -> Result<Self, ParseError> {
                parse_ref(input, $rule, options.profile).map($ty)
            }

            #[doc = concat!("Parses ", $doc, " in `const` under the default profile: see [`IriRef::parse_const`].")]
            pub const fn parse_const(input: &'a str) -> Result<Self, LiteralError> {
                Self::parse_const_with(input, &ParseOptions::new())
            }

            #[doc = concat!("Parses ", $doc, " in `const` under the given options: see [`IriRef::parse_const`].")]
            pub const fn parse_const_with(
                input: &'a str,
                options: &ParseOptions,
            ) -> Result<Self, LiteralError> {
                match parse_literal(input, $rule, options.profile) {
                    Ok(r) => Ok($ty(r)),
                    Err(e) => Err(e),
                }
            }

        }

        impl<T: Storage> $ty<T> {
            /// The value with `String` storage: see [`IriRef::into_owned`].
            pub fn into_owned(self) -> $ty<String> {
                $ty(self.0.into_owned())
            }

            /// The value in another storage: see [`IriRef::into_storage`].
            pub fn into_storage<U: Storage + From<T>>(self) -> $ty<U> {
                $ty(self.0.into_storage())
            }
        }

        storages!($ty, $rule, $doc, $ty);

        impl<T> Deref for $ty<T> {
            type Target = IriRef<T>;
            fn deref(&self) -> &IriRef<T> {
                &self.0
            }
        }

        impl<T> From<$ty<T>> for IriRef<T> {
            fn from(v: $ty<T>) -> IriRef<T> {
                v.0
            }
        }

        impl<T> TryFrom<IriRef<T>> for $ty<T> {
            type Error = KindError<T>;
            fn try_from(value: IriRef<T>) -> Result<Self, KindError<T>> {
                let $m = &value.meta;
                if $ok {
                    Ok($ty(value))
                } else {
                    Err(KindError {
                        value,
                        expected: $name,
                    })
                }
            }
        }

        impl FromStr for $ty<String> {
            type Err = ParseError;
            fn from_str(s: &str) -> Result<Self, ParseError> {
                $ty::parse(s).map($ty::into_owned)
            }
        }

        impl TryFrom<String> for $ty<String> {
            type Error = ParseError;
            /// The error gives the string back: [`ParseError::into_input`].
            fn try_from(s: String) -> Result<Self, ParseError> {
                parse_owned(s, $rule, Profile::default()).map($ty)
            }
        }

        impl<'a> TryFrom<&'a str> for $ty<&'a str> {
            type Error = ParseError;
            fn try_from(s: &'a str) -> Result<Self, ParseError> {
                $ty::parse(s)
            }
        }

        common_traits!($ty, $example);
    };
}

/// The conversions from the storages other than `&str` and `String`
/// (whose own are written out beside them), and the borrowed `Deserialize`.
macro_rules! storages {
    ($ty:ident, $rule:expr_2021, $doc:literal, $wrap:expr_2021) => {
        storages!(@owned $ty, $rule, $wrap, Box<str>, Arc<str>, Rc<str>);

        impl<'a> TryFrom<Cow<'a, str>> for $ty<Cow<'a, str>> {
            type Error = ParseError;
            /// The error gives the text back: [`ParseError::into_input`].
            fn try_from(s: Cow<'a, str>) -> Result<Self, ParseError> {
                parse_owned(s, $rule, Profile::default()).map($wrap)
            }
        }

        /// Zero-copy: the text is borrowed from the input. A string that
        /// the format has to unescape (a JSON string with a `\`) cannot be
        /// borrowed, and is an error that says so: deserialize into
        /// `Cow<str>` storage to take both.
        #[cfg(feature = "serde")]
        impl<'de: 'a, 'a> serde::Deserialize<'de> for $ty<&'a str> {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct Borrowed;
                impl<'de> serde::de::Visitor<'de> for Borrowed {
                    type Value = &'de str;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str(concat!(
                            $doc,
                            " as a string borrowed from the input, without escapes \
                             (deserialize into Cow<str> or String storage to take escaped strings)"
                        ))
                    }
                    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<&'de str, E> {
                        Ok(v)
                    }
                }
                let s = d.deserialize_str(Borrowed)?;
                parse_ref(s, $rule, Profile::default())
                    .map($wrap)
                    .map_err(serde::de::Error::custom)
            }
        }

        /// Borrowed from the input where the format can lend the string,
        /// owned where it had to unescape it. Tied to the input's lifetime,
        /// so not `DeserializeOwned` (`serde_json::from_reader`): take
        /// `String` or `Arc<str>` storage there.
        #[cfg(feature = "serde")]
        impl<'de: 'a, 'a> serde::Deserialize<'de> for $ty<Cow<'a, str>> {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct Text;
                impl<'de> serde::de::Visitor<'de> for Text {
                    type Value = Cow<'de, str>;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str(concat!($doc, " as a string"))
                    }
                    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Cow<'de, str>, E> {
                        Ok(Cow::Borrowed(v))
                    }
                    fn visit_str<E>(self, v: &str) -> Result<Cow<'de, str>, E> {
                        Ok(Cow::Owned(v.to_owned()))
                    }
                    fn visit_string<E>(self, v: String) -> Result<Cow<'de, str>, E> {
                        Ok(Cow::Owned(v))
                    }
                }
                let s: Cow<'a, str> = d.deserialize_str(Text)?;
                parse_owned(s, $rule, Profile::default())
                    .map($wrap)
                    .map_err(serde::de::Error::custom)
            }
        }
    };
    (@owned $ty:ident, $rule:expr_2021, $wrap:expr_2021, $($storage:ty),*) => {$(
        impl TryFrom<$storage> for $ty<$storage> {
            type Error = ParseError;
            /// Parses the text in place; the error gives it back:
            /// [`ParseError::into_input`].
            fn try_from(s: $storage) -> Result<Self, ParseError> {
                parse_owned(s, $rule, Profile::default()).map($wrap)
            }
        }

        impl FromStr for $ty<$storage> {
            type Err = ParseError;
            fn from_str(s: &str) -> Result<Self, ParseError> {
                parse_ref(s, $rule, Profile::default()).map(|r| $wrap(r.into_storage()))
            }
        }

        #[cfg(feature = "serde")]
        impl<'de> serde::Deserialize<'de> for $ty<$storage> {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                $ty::try_from(<$storage>::from(s)).map_err(serde::de::Error::custom)
            }
        }
    )*};
}

macro_rules! common_traits {
    ($ty:ident, $example:literal) => {
        impl<T: Storage> fmt::Display for $ty<T> {
            /// Exactly the parsed input.
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl<T: Storage> fmt::Debug for $ty<T> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!(stringify!($ty), "({:?})"), self.as_str())
            }
        }

        impl<T: Storage> AsRef<str> for $ty<T> {
            fn as_ref(&self) -> &str {
                self.as_str()
            }
        }

        impl<T: Storage, U: Storage> PartialEq<$ty<U>> for $ty<T> {
            /// Simple string comparison (RFC 3987 §5.3.1); see the
            /// normalization functions for the other rungs of the ladder.
            fn eq(&self, other: &$ty<U>) -> bool {
                self.as_str() == other.as_str()
            }
        }

        impl<T: Storage> Eq for $ty<T> {}

        impl<T: Storage> PartialEq<str> for $ty<T> {
            fn eq(&self, other: &str) -> bool {
                self.as_str() == other
            }
        }

        impl<T: Storage> PartialEq<&str> for $ty<T> {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }

        /// The hash of the text: the same as `str`'s, as [`Borrow<str>`]
        /// requires.
        impl<T: Storage> Hash for $ty<T> {
            fn hash<H: Hasher>(&self, state: &mut H) {
                self.as_str().hash(state)
            }
        }

        /// Compares the texts, as `str` does (consistent with `Eq`).
        impl<T: Storage, U: Storage> PartialOrd<$ty<U>> for $ty<T> {
            fn partial_cmp(&self, other: &$ty<U>) -> Option<Ordering> {
                Some(self.as_str().cmp(other.as_str()))
            }
        }

        /// Compares the texts, as `str` does (consistent with `Eq`).
        impl<T: Storage> Ord for $ty<T> {
            fn cmp(&self, other: &Self) -> Ordering {
                self.as_str().cmp(other.as_str())
            }
        }

        /// The text, so that sets and maps keyed by references can be
        /// looked up by `&str`: `Eq`, `Ord` and `Hash` agree with `str`'s.
        impl<T: Storage> Borrow<str> for $ty<T> {
            fn borrow(&self) -> &str {
                self.as_str()
            }
        }

        impl $ty<String> {
            /// The text, given back without copying.
            ///
            /// ```
            #[doc = concat!("let r: iribis::", stringify!($ty), "<String> = \"", $example, "\".parse()?;")]
            #[doc = concat!("assert_eq!(r.clone().into_string(), \"", $example, "\");")]
            #[doc = concat!("assert_eq!(String::from(r), \"", $example, "\");")]
            /// # Ok::<(), iribis::ParseError>(())
            /// ```
            pub fn into_string(self) -> String {
                IriRef::from(self).text
            }
        }

        #[doc = concat!("[`", stringify!($ty), "::into_string`].")]
        impl From<$ty<String>> for String {
            fn from(value: $ty<String>) -> String {
                value.into_string()
            }
        }

        #[cfg(feature = "serde")]
        impl<T: Storage> serde::Serialize for $ty<T> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        #[cfg(feature = "serde")]
        impl<'de> serde::Deserialize<'de> for $ty<String> {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                $ty::try_from(s).map_err(serde::de::Error::custom)
            }
        }
    };
}

impl FromStr for IriRef<String> {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        IriRef::parse(s).map(IriRef::into_owned)
    }
}

impl TryFrom<String> for IriRef<String> {
    type Error = ParseError;
    /// The error gives the string back: [`ParseError::into_input`].
    fn try_from(s: String) -> Result<Self, ParseError> {
        parse_owned(s, GrammarRule::IRI_REFERENCE, Profile::default())
    }
}

impl<'a> TryFrom<&'a str> for IriRef<&'a str> {
    type Error = ParseError;
    fn try_from(s: &'a str) -> Result<Self, ParseError> {
        IriRef::parse(s)
    }
}

common_traits!(IriRef, "../a?b");
storages!(
    IriRef,
    GrammarRule::IRI_REFERENCE,
    "an IRI reference",
    core::convert::identity
);

impl<'i, 'o, T: sealed::Lend<'i, 'o>> Iri<T> {
    /// The scheme, without its ":" (an IRI always has one).
    pub fn scheme(&'i self) -> &'o str {
        self.0
            .scheme()
            .unwrap_or_else(|| unreachable!("an Iri has a scheme"))
    }
}

impl<'i, 'o, T: sealed::Lend<'i, 'o>> AbsoluteIri<T> {
    /// The scheme, without its ":" (an absolute IRI always has one).
    pub fn scheme(&'i self) -> &'o str {
        self.0
            .scheme()
            .unwrap_or_else(|| unreachable!("an AbsoluteIri has a scheme"))
    }
}

impl<T> From<AbsoluteIri<T>> for Iri<T> {
    fn from(v: AbsoluteIri<T>) -> Iri<T> {
        Iri(v.0)
    }
}

narrow!(
    Iri,
    GrammarRule::IRI,
    "IRI",
    |m| m.scheme.is_some(),
    "an IRI",
    "http://例え.jp/#f"
);
narrow!(
    AbsoluteIri,
    GrammarRule::ABSOLUTE_IRI,
    "absolute-IRI",
    |m| m.scheme.is_some() && m.fragment.is_none(),
    "an absolute IRI",
    "http://例え.jp/?q"
);
narrow!(
    RelativeRef,
    GrammarRule::IRELATIVE_REF,
    "irelative-ref",
    |m| m.scheme.is_none(),
    "a relative reference",
    "//例え.jp/a"
);

#[cfg(test)]
mod tests {
    use super::*;

    /// The accessors of a parsed reference, which slice without checks,
    /// give what those of the same reference built from parts give, which
    /// check; both paths of `parse_ref` and of `parse_owned` included.
    type Read<'a> = (
        (
            Option<&'a str>,
            Option<&'a str>,
            Option<&'a str>,
            Option<&'a str>,
        ),
        (
            Option<Host<'a>>,
            Option<&'a str>,
            &'a str,
            Option<&'a str>,
            Option<&'a str>,
        ),
    );

    fn read(r: IriRef<&str>) -> Read<'_> {
        (
            (r.scheme(), r.authority(), r.userinfo(), r.host_str()),
            (r.host(), r.port(), r.path(), r.query(), r.fragment()),
        )
    }

    #[test]
    fn parsed_and_built_references_read_alike() {
        let inputs = [
            "http://user@例え.jp:8080/a/b?q=1#top",
            "ftp://[v7.a:b]/é",
            "//[::ffff:1.2.3.4]:/?#",
            "urn:isbn:0-395-36341-1",
            "../résumé.html#p2",
            "?q#f",
            "",
            "a:/%C3%A9",
            "http://1.2.3.4.5/ü",
        ];
        let long = format!("http://h/{}", "ü".repeat(200));
        for input in inputs.iter().copied().chain([long.as_str()]) {
            let parsed = IriRef::parse(input).unwrap();
            let owned = parse_owned(
                input.to_owned(),
                GrammarRule::IRI_REFERENCE,
                Profile::default(),
            )
            .unwrap();
            let built = IriRef::from_parts(input.to_owned(), *parsed.meta());
            assert!(parsed.proof.is_some() && owned.proof.is_some() && built.proof.is_none());
            let expected = read(built.as_borrowed());
            assert_eq!(read(parsed), expected, "{input:?}");
            assert_eq!(read(owned.as_borrowed()), expected, "{input:?}");
        }
        // The pest path's spans, which it checks, fit as the fast path's do.
        let input = "http://例え.jp:8080/é?é#é";
        let (pest, _) = parse_pest(input, GrammarRule::IRI_REFERENCE, Profile::default()).unwrap();
        assert_eq!(&pest, IriRef::parse(input).unwrap().meta());
    }
}
