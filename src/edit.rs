//! Making references from components: [`Builder`], and the setters of the
//! owned reference types. Both validate every component where it will
//! stand and the whole under the profile, through the one recomposition of
//! [`crate::compose::recompose`] (RFC 3986 §5.3).

use crate::prelude::*;
use alloc::borrow::Cow;
use core::marker::PhantomData;

use crate::compose::{Authority, Parts, recompose};
use crate::encode::{self, Encoded, QueryPairsMut};
use crate::error::ParseError;
use crate::iri::{AbsoluteIri, Iri, IriRef, RelativeRef};
use crate::profile::Profile;
use crate::rule::GrammarRule;

mod sealed {
    use alloc::string::String;

    use crate::iri::IriRef;
    use crate::rule::GrammarRule;

    /// The owned reference types: what a [`super::Builder`] builds and
    /// what has setters.
    pub trait Kind: Sized {
        /// The rule the whole must match (before the profile maps it).
        const RULE: GrammarRule;
        /// The reference, of this kind.
        fn wrap(r: IriRef<String>) -> Self;
        /// The reference underneath.
        fn inner(&self) -> &IriRef<String>;
        /// The reference underneath, to replace.
        fn inner_mut(&mut self) -> &mut IriRef<String>;
    }
}

pub(crate) use sealed::Kind;

macro_rules! kind {
    ($ty:ident, $rule:expr_2021, |$r:ident| $wrap:expr_2021, |$s:ident| $inner:expr_2021) => {
        impl Kind for $ty<String> {
            const RULE: GrammarRule = $rule;
            fn wrap($r: IriRef<String>) -> Self {
                $wrap
            }
            fn inner(&self) -> &IriRef<String> {
                let $s = self;
                &$inner
            }
            fn inner_mut(&mut self) -> &mut IriRef<String> {
                let $s = self;
                &mut $inner
            }
        }
    };
}

kind!(IriRef, GrammarRule::IRI_REFERENCE, |r| r, |s| *s);
kind!(Iri, GrammarRule::IRI, |r| Iri(r), |s| s.0);
kind!(
    AbsoluteIri,
    GrammarRule::ABSOLUTE_IRI,
    |r| AbsoluteIri(r),
    |s| s.0
);
kind!(
    RelativeRef,
    GrammarRule::IRELATIVE_REF,
    |r| RelativeRef(r),
    |s| s.0
);

/// Builds a reference from its components: [`Iri::builder`],
/// [`IriRef::builder`], [`AbsoluteIri::builder`], [`RelativeRef::builder`].
///
/// Components are given without their delimiters (`scheme("http")`, not
/// `"http:"`), either written as they are (`path`, `query`, ...: already
/// percent-encoded where needed) or as raw text that the builder encodes
/// for the profile at [`Builder::build`] (`path_encoded`, `query_encoded`,
/// ...: the encoders of [`crate::encode`]).
/// [`Builder::build`] checks each component at its own rule of the profile
/// (`ihost`, `iquery`, ...) where it will stand, then the whole at the
/// kind's rule, so no component can spill into another. An error names the
/// component ([`ParseError::component`]) and the position in it.
///
/// A userinfo or port without a host gets an empty host (`ireg-name` may be
/// empty; RFC 3986 §3.2.2 gives an empty host the scheme's default).
///
/// ```
/// use iribis::{Component, Iri, IriRef};
///
/// let iri = Iri::builder()
///     .scheme("http")
///     .host("例え.jp")
///     .port(8080)
///     .path("/a")
///     .query("q")
///     .fragment("f")
///     .build()?;
/// assert_eq!(iri, "http://例え.jp:8080/a?q#f");
/// assert_eq!(iri.port_number(), Some(8080));
///
/// // Without an authority.
/// let urn = Iri::builder().scheme("urn").path("isbn:0-395-36341-1").build()?;
/// assert_eq!(urn, "urn:isbn:0-395-36341-1");
///
/// // A relative reference, from raw text.
/// let r = IriRef::builder().path_encoded("../a b").build()?;
/// assert_eq!(r, "../a%20b");
///
/// let err = Iri::builder().scheme("http").host("a b").build().unwrap_err();
/// assert_eq!(err.component(), Component::Host);
/// assert_eq!(err.byte(), 1);
/// # Ok::<(), iribis::ParseError>(())
/// ```
#[derive(Clone, Debug)]
#[must_use = "a builder does nothing until built"]
pub struct Builder<'a, K> {
    scheme: Option<&'a str>,
    userinfo: Option<Given<'a>>,
    host: Option<Given<'a>>,
    port: Option<u16>,
    path: Given<'a>,
    query: Option<Given<'a>>,
    fragment: Option<Given<'a>>,
    profile: Profile,
    kind: PhantomData<fn() -> K>,
}

/// A component given to a [`Builder`]: as written, or as raw text to
/// percent-encode when the profile is known.
#[derive(Clone, Copy, Debug)]
struct Given<'a> {
    text: &'a str,
    /// The text is raw: encoded by `encode` at build.
    encode: Option<fn(&str, Profile) -> Encoded<'_>>,
}

impl<'a> Given<'a> {
    fn written(text: &'a str) -> Self {
        Given { text, encode: None }
    }

    fn raw(text: &'a str, encode: fn(&str, Profile) -> Encoded<'_>) -> Self {
        Given {
            text,
            encode: Some(encode),
        }
    }

    /// The text to write under `profile`.
    fn text(self, profile: Profile) -> Cow<'a, str> {
        match self.encode {
            Some(encode) => encode(self.text, profile).to_cow(),
            None => Cow::Borrowed(self.text),
        }
    }
}

/// `path`, raw text, percent-encoded for `profile` ([`encode::path`]): in a
/// reference without a scheme, a path that does not start with "/" also
/// gets the ":" of its first segment encoded, which would read as the end
/// of a scheme (RFC 3986 §4.2).
fn encode_path(path: &str, has_scheme: bool, profile: Profile) -> Cow<'_, str> {
    let encoded = encode::path(path, profile).to_cow();
    let first = encoded.find('/').unwrap_or(encoded.len());
    if has_scheme || path.starts_with('/') || !encoded[..first].contains(':') {
        return encoded;
    }
    Cow::Owned(format!(
        "{}{}",
        encoded[..first].replace(':', "%3A"),
        &encoded[first..]
    ))
}

impl<'a, K: Kind> Builder<'a, K> {
    fn new() -> Self {
        Builder {
            scheme: None,
            userinfo: None,
            host: None,
            port: None,
            path: Given::written(""),
            query: None,
            fragment: None,
            profile: Profile::default(),
            kind: PhantomData,
        }
    }

    /// The scheme, without its ":".
    pub fn scheme(mut self, scheme: &'a str) -> Self {
        self.scheme = Some(scheme);
        self
    }

    /// The userinfo, without its "@".
    pub fn userinfo(mut self, userinfo: &'a str) -> Self {
        self.userinfo = Some(Given::written(userinfo));
        self
    }

    /// The userinfo as raw text, percent-encoded at build
    /// ([`encode::userinfo`]: ":" is kept).
    ///
    /// ```
    /// let r = iribis::Iri::builder().scheme("ftp").userinfo_encoded("a@b").host("h").build()?;
    /// assert_eq!(r, "ftp://a%40b@h");
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn userinfo_encoded(mut self, userinfo: &'a str) -> Self {
        self.userinfo = Some(Given::raw(userinfo, encode::userinfo));
        self
    }

    /// The host: a registered name, an IPv4 address or an IP literal in
    /// brackets (`"[::1]"`).
    pub fn host(mut self, host: &'a str) -> Self {
        self.host = Some(Given::written(host));
        self
    }

    /// The host as raw text of a registered name, percent-encoded at build
    /// ([`encode::reg_name`]). An IP literal's brackets would be encoded:
    /// give one to [`Builder::host`].
    ///
    /// ```
    /// let r = iribis::Iri::builder().scheme("http").host_encoded("a b.例え.jp").build()?;
    /// assert_eq!(r, "http://a%20b.例え.jp");
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn host_encoded(mut self, host: &'a str) -> Self {
        self.host = Some(Given::raw(host, encode::reg_name));
        self
    }

    /// The port.
    pub fn port(mut self, port: u16) -> Self {
        self.port = Some(port);
        self
    }

    /// The path (empty if not given).
    pub fn path(mut self, path: &'a str) -> Self {
        self.path = Given::written(path);
        self
    }

    /// The path as raw text, percent-encoded at build ([`encode::path`]:
    /// "/" is kept as the separator of segments). Without a scheme, a ":"
    /// in the first segment of a path that does not start with "/" is
    /// encoded too, since it would read as the end of a scheme (RFC 3986
    /// §4.2). Where the path stands is checked as for [`Builder::path`]:
    /// after an authority it must start with "/" or be empty, and without
    /// one it may not start with "//".
    ///
    /// ```
    /// use iribis::{Iri, IriRef};
    ///
    /// let iri = Iri::builder().scheme("http").host("h").path_encoded("/a b/100%").build()?;
    /// assert_eq!(iri, "http://h/a%20b/100%25");
    /// assert_eq!(iri.path_decoded().to_str()?, "/a b/100%");
    /// assert_eq!(IriRef::builder().path_encoded("a:b/c:d").build()?, "a%3Ab/c:d");
    /// assert_eq!(Iri::builder().scheme("urn").path_encoded("a:b").build()?, "urn:a:b");
    /// assert!(IriRef::builder().path_encoded("//a").build().is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn path_encoded(mut self, path: &'a str) -> Self {
        // Encoded at build by `encode_path`, which needs the scheme.
        self.path = Given::raw(path, encode::path);
        self
    }

    /// The query, without its "?".
    pub fn query(mut self, query: &'a str) -> Self {
        self.query = Some(Given::written(query));
        self
    }

    /// The query as raw text, percent-encoded at build ([`encode::query`]:
    /// "&", "=" and "+" are kept). For a query of `key=value` pairs, write
    /// it with [`encode::QueryBuilder`] and give it to [`Builder::query`].
    ///
    /// ```
    /// let r = iribis::IriRef::builder().path("/").query_encoded("a b#c").build()?;
    /// assert_eq!(r, "/?a%20b%23c");
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn query_encoded(mut self, query: &'a str) -> Self {
        self.query = Some(Given::raw(query, encode::query));
        self
    }

    /// The fragment, without its "#".
    pub fn fragment(mut self, fragment: &'a str) -> Self {
        self.fragment = Some(Given::written(fragment));
        self
    }

    /// The fragment as raw text, percent-encoded at build
    /// ([`encode::fragment`]).
    ///
    /// ```
    /// use iribis::{IriRef, Profile};
    ///
    /// let r = IriRef::builder().fragment_encoded("é #1").build()?;
    /// assert_eq!(r, "#é%20%231");
    /// let uri = IriRef::builder().fragment_encoded("é #1").profile(Profile::Rfc3986).build()?;
    /// assert_eq!(uri, "#%C3%A9%20%231");
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn fragment_encoded(mut self, fragment: &'a str) -> Self {
        self.fragment = Some(Given::raw(fragment, encode::fragment));
        self
    }

    /// The profile to validate under; [`Profile::Rfc3987bis`] by default.
    ///
    /// ```
    /// use iribis::{Iri, Profile};
    ///
    /// let uri = Iri::builder().scheme("http").host("例え.jp").profile(Profile::Rfc3986);
    /// assert!(uri.build().is_err());
    /// ```
    pub fn profile(mut self, profile: Profile) -> Self {
        self.profile = profile;
        self
    }

    /// Encodes the raw components, validates them all and writes the
    /// reference.
    pub fn build(self) -> Result<K, ParseError> {
        let profile = self.profile;
        let port = self.port.map(|p| p.to_string());
        let has_authority = self.host.is_some() || self.userinfo.is_some() || port.is_some();
        let userinfo = self.userinfo.map(|u| u.text(profile));
        let host = self.host.map(|h| h.text(profile));
        let path = match self.path.encode {
            Some(_) => encode_path(self.path.text, self.scheme.is_some(), profile),
            None => Cow::Borrowed(self.path.text),
        };
        let query = self.query.map(|q| q.text(profile));
        let fragment = self.fragment.map(|f| f.text(profile));
        let parts = Parts {
            scheme: self.scheme,
            authority: has_authority.then_some(Authority::Split {
                userinfo: userinfo.as_deref(),
                host: host.as_deref().unwrap_or(""),
                port: port.as_deref(),
            }),
            path: &path,
            query: query.as_deref(),
            fragment: fragment.as_deref(),
        };
        recompose(&parts, K::RULE, profile).map(K::wrap)
    }
}

impl IriRef<String> {
    /// A [`Builder`] of IRI references (the `IRI-reference` rule).
    ///
    /// ```
    /// let r = iribis::IriRef::builder().host("example.org").path("/a").build()?;
    /// assert_eq!(r, "//example.org/a");
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn builder<'a>() -> Builder<'a, IriRef<String>> {
        Builder::new()
    }
}

impl Iri<String> {
    /// A [`Builder`] of IRIs: the scheme is required.
    ///
    /// ```
    /// use iribis::{ErrorKind, Iri};
    ///
    /// let err = Iri::builder().path("/a").build().unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::MissingScheme);
    /// ```
    pub fn builder<'a>() -> Builder<'a, Iri<String>> {
        Builder::new()
    }
}

impl AbsoluteIri<String> {
    /// A [`Builder`] of absolute IRIs: a scheme and no fragment.
    ///
    /// ```
    /// use iribis::AbsoluteIri;
    ///
    /// let b = AbsoluteIri::builder().scheme("http").host("h").path("/");
    /// assert_eq!(b.clone().build()?, "http://h/");
    /// assert!(b.fragment("f").build().is_err());
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn builder<'a>() -> Builder<'a, AbsoluteIri<String>> {
        Builder::new()
    }
}

impl RelativeRef<String> {
    /// A [`Builder`] of relative references: no scheme, and a first path
    /// segment without ":" (it would read as a scheme).
    ///
    /// ```
    /// use iribis::{ErrorKind, RelativeRef};
    ///
    /// assert_eq!(RelativeRef::builder().path("a/b").query("q").build()?, "a/b?q");
    /// let err = RelativeRef::builder().path("a:b").build().unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::ColonInFirstSegment);
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn builder<'a>() -> Builder<'a, RelativeRef<String>> {
        Builder::new()
    }
}

/// The authority of `parts` by its parts, `(None, "", None)` when absent.
fn authority_of<'a>(parts: &Parts<'a>) -> (Option<&'a str>, &'a str, Option<&'a str>) {
    match parts.authority {
        Some(Authority::Split {
            userinfo,
            host,
            port,
        }) => (userinfo, host, port),
        // `Parts::of` splits every authority.
        Some(Authority::Whole(_)) | None => (None, "", None),
    }
}

/// `parts`, which replace those of `value`, recomposed.
fn rebuilt<K: Kind>(value: &K, parts: &Parts<'_>) -> Result<IriRef<String>, ParseError> {
    recompose(parts, K::RULE, value.inner().profile())
}

macro_rules! setter_docs {
    () => {
        "Each setter checks the new component at its own rule where it will \
         stand and the whole reference under its profile \
         ([`IriRef::profile`]) and rule; on error the value is left as it was."
    };
}

macro_rules! set_scheme {
    ($ty:ident, $example:literal) => {
        /// Sets the scheme (without its ":").
        #[doc = setter_docs!()]
        ///
        /// ```
        #[doc = concat!("use iribis::", stringify!($ty), ";")]
        ///
        #[doc = concat!("let mut r: ", stringify!($ty), "<String> = \"", $example, "\".parse()?;")]
        /// r.set_scheme("https")?;
        /// assert_eq!(r, "https://h/a");
        /// assert!(r.set_scheme("1http").is_err());
        /// assert_eq!(r, "https://h/a");
        /// # Ok::<(), iribis::ParseError>(())
        /// ```
        pub fn set_scheme(&mut self, scheme: &str) -> Result<(), ParseError> {
            let parts = Parts {
                scheme: Some(scheme),
                ..Parts::of(self.inner())
            };
            let new = rebuilt(self, &parts)?;
            *self.inner_mut() = new;
            Ok(())
        }
    };
}

macro_rules! set_fragment {
    ($ty:ident, $example:literal) => {
        /// Sets or removes the fragment (without its "#").
        #[doc = setter_docs!()]
        ///
        /// ```
        #[doc = concat!("use iribis::", stringify!($ty), ";")]
        ///
        #[doc = concat!("let mut r: ", stringify!($ty), "<String> = \"", $example, "\".parse()?;")]
        /// r.set_fragment(Some("top"))?;
        /// assert_eq!(r.fragment(), Some("top"));
        /// assert!(r.set_fragment(Some("a#b")).is_err());
        /// r.set_fragment(None)?;
        #[doc = concat!("assert_eq!(r, \"", $example, "\");")]
        /// # Ok::<(), iribis::ParseError>(())
        /// ```
        pub fn set_fragment(&mut self, fragment: Option<&str>) -> Result<(), ParseError> {
            let parts = Parts {
                fragment,
                ..Parts::of(self.inner())
            };
            let new = rebuilt(self, &parts)?;
            *self.inner_mut() = new;
            Ok(())
        }

        /// Sets or removes the fragment, given as raw text: percent-encoded
        /// for the reference's profile ([`encode::fragment`](crate::encode::fragment)),
        /// then set as [`set_fragment`](Self::set_fragment) does. Raw text
        /// always fits a fragment.
        ///
        /// ```
        #[doc = concat!("use iribis::", stringify!($ty), ";")]
        ///
        #[doc = concat!("let mut r: ", stringify!($ty), "<String> = \"", $example, "\".parse()?;")]
        /// r.set_fragment_encoded(Some("a#b c"))?;
        /// assert_eq!(r.fragment(), Some("a%23b%20c"));
        /// # Ok::<(), iribis::ParseError>(())
        /// ```
        pub fn set_fragment_encoded(&mut self, fragment: Option<&str>) -> Result<(), ParseError> {
            let profile = self.inner().profile();
            let encoded = fragment.map(|f| encode::fragment(f, profile).to_cow());
            self.set_fragment(encoded.as_deref())
        }
    };
}

macro_rules! setters {
    ($ty:ident, $example:literal, $($extra:ident)*) => {
        impl $ty<String> {
            $($extra!($ty, $example);)*

            /// Sets or removes the authority (without its "//"): userinfo,
            /// host and port.
            #[doc = setter_docs!()]
            ///
            /// Without an authority a path may not start with "//", and it
            /// must start with "/" or be empty with one.
            ///
            /// ```
            #[doc = concat!("use iribis::", stringify!($ty), ";")]
            ///
            #[doc = concat!("let mut r: ", stringify!($ty), "<String> = \"", $example, "\".parse()?;")]
            /// r.set_authority(Some("u@例え.jp:81"))?;
            /// assert_eq!((r.userinfo(), r.host_str(), r.port()), (Some("u"), Some("例え.jp"), Some("81")));
            /// assert!(r.set_authority(Some("a/b")).is_err());
            /// r.set_path("//x")?;
            /// // Without the authority, "//x" would read as one.
            /// assert!(r.set_authority(None).is_err());
            /// assert_eq!(r.authority(), Some("u@例え.jp:81"));
            /// # Ok::<(), iribis::ParseError>(())
            /// ```
            pub fn set_authority(&mut self, authority: Option<&str>) -> Result<(), ParseError> {
                let parts = Parts {
                    authority: authority.map(Authority::Whole),
                    ..Parts::of(self.inner())
                };
                let new = rebuilt(self, &parts)?;
                *self.inner_mut() = new;
                Ok(())
            }

            /// Sets or removes the userinfo (without its "@"). A reference
            /// without an authority gets one, with an empty host.
            #[doc = setter_docs!()]
            ///
            /// ```
            #[doc = concat!("use iribis::", stringify!($ty), ";")]
            ///
            #[doc = concat!("let mut r: ", stringify!($ty), "<String> = \"", $example, "\".parse()?;")]
            /// r.set_userinfo(Some("user:pw"))?;
            /// assert_eq!(r.userinfo(), Some("user:pw"));
            /// assert!(r.set_userinfo(Some("a@b")).is_err());
            /// r.set_userinfo(None)?;
            /// assert_eq!(r.userinfo(), None);
            /// # Ok::<(), iribis::ParseError>(())
            /// ```
            pub fn set_userinfo(&mut self, userinfo: Option<&str>) -> Result<(), ParseError> {
                let mut parts = Parts::of(self.inner());
                let (_, host, port) = authority_of(&parts);
                if parts.authority.is_some() || userinfo.is_some() {
                    parts.authority = Some(Authority::Split { userinfo, host, port });
                }
                let new = rebuilt(self, &parts)?;
                *self.inner_mut() = new;
                Ok(())
            }

            /// Sets or removes the userinfo, given as raw text:
            /// percent-encoded for the reference's profile
            /// ([`encode::userinfo`](crate::encode::userinfo): ":" is kept),
            /// then set as [`set_userinfo`](Self::set_userinfo) does.
            ///
            /// ```
            #[doc = concat!("use iribis::", stringify!($ty), ";")]
            ///
            #[doc = concat!("let mut r: ", stringify!($ty), "<String> = \"", $example, "\".parse()?;")]
            /// r.set_userinfo_encoded(Some("me@home:pw"))?;
            /// assert_eq!(r.userinfo(), Some("me%40home:pw"));
            /// # Ok::<(), iribis::ParseError>(())
            /// ```
            pub fn set_userinfo_encoded(&mut self, userinfo: Option<&str>) -> Result<(), ParseError> {
                let profile = self.inner().profile();
                let encoded = userinfo.map(|u| encode::userinfo(u, profile).to_cow());
                self.set_userinfo(encoded.as_deref())
            }

            /// Sets the host: a registered name, an IPv4 address or an IP
            /// literal in brackets. A reference without an authority gets
            /// one.
            #[doc = setter_docs!()]
            ///
            /// ```
            #[doc = concat!("use iribis::", stringify!($ty), ";")]
            ///
            #[doc = concat!("let mut r: ", stringify!($ty), "<String> = \"", $example, "\".parse()?;")]
            /// r.set_host("[::1]")?;
            /// assert!(matches!(r.host(), Some(iribis::Host::Ipv6(_))));
            /// let err = r.set_host("a b").unwrap_err();
            /// assert_eq!(err.component(), iribis::Component::Host);
            /// assert_eq!(r.host_str(), Some("[::1]"));
            /// # Ok::<(), iribis::ParseError>(())
            /// ```
            pub fn set_host(&mut self, host: &str) -> Result<(), ParseError> {
                let mut parts = Parts::of(self.inner());
                let (userinfo, _, port) = authority_of(&parts);
                parts.authority = Some(Authority::Split { userinfo, host, port });
                let new = rebuilt(self, &parts)?;
                *self.inner_mut() = new;
                Ok(())
            }

            /// Sets the host to a registered name given as raw text:
            /// percent-encoded for the reference's profile
            /// ([`encode::reg_name`](crate::encode::reg_name)), then set as
            /// [`set_host`](Self::set_host) does. An IP literal's brackets
            /// would be encoded: give one to `set_host`.
            ///
            /// ```
            #[doc = concat!("use iribis::", stringify!($ty), ";")]
            ///
            #[doc = concat!("let mut r: ", stringify!($ty), "<String> = \"", $example, "\".parse()?;")]
            /// r.set_host_encoded("my host.例え.jp")?;
            /// assert_eq!(r.host_str(), Some("my%20host.例え.jp"));
            /// # Ok::<(), iribis::ParseError>(())
            /// ```
            pub fn set_host_encoded(&mut self, host: &str) -> Result<(), ParseError> {
                let encoded = encode::reg_name(host, self.inner().profile()).to_cow();
                self.set_host(&encoded)
            }

            /// Sets or removes the port. A reference without an authority
            /// gets one, with an empty host.
            #[doc = setter_docs!()]
            ///
            /// ```
            #[doc = concat!("use iribis::", stringify!($ty), ";")]
            ///
            #[doc = concat!("let mut r: ", stringify!($ty), "<String> = \"", $example, "\".parse()?;")]
            /// r.set_port(Some(8080))?;
            /// assert_eq!(r.port_number(), Some(8080));
            /// r.set_port(None)?;
            /// assert_eq!(r.port(), None);
            /// # Ok::<(), iribis::ParseError>(())
            /// ```
            pub fn set_port(&mut self, port: Option<u16>) -> Result<(), ParseError> {
                let text = port.map(|p| p.to_string());
                let mut parts = Parts::of(self.inner());
                let (userinfo, host, _) = authority_of(&parts);
                if parts.authority.is_some() || text.is_some() {
                    parts.authority = Some(Authority::Split {
                        userinfo,
                        host,
                        port: text.as_deref(),
                    });
                }
                let new = rebuilt(self, &parts)?;
                *self.inner_mut() = new;
                Ok(())
            }

            /// Sets the path. With an authority it must start with "/" or
            /// be empty; without one it may not start with "//"; in a
            /// relative reference its first segment may not contain ":".
            #[doc = setter_docs!()]
            ///
            /// ```
            #[doc = concat!("use iribis::", stringify!($ty), ";")]
            ///
            #[doc = concat!("let mut r: ", stringify!($ty), "<String> = \"", $example, "\".parse()?;")]
            /// r.set_path("/résumé")?;
            /// assert_eq!(r.path(), "/résumé");
            /// // "a" would run into the host.
            /// assert!(r.set_path("a").is_err());
            /// assert!(r.set_path("/a?b").is_err());
            /// assert_eq!(r.path(), "/résumé");
            /// # Ok::<(), iribis::ParseError>(())
            /// ```
            pub fn set_path(&mut self, path: &str) -> Result<(), ParseError> {
                let parts = Parts {
                    path,
                    ..Parts::of(self.inner())
                };
                let new = rebuilt(self, &parts)?;
                *self.inner_mut() = new;
                Ok(())
            }

            /// Sets the path, given as raw text: percent-encoded for the
            /// reference's profile ([`encode::path`](crate::encode::path):
            /// "/" is kept as the separator of segments), then set as
            /// [`set_path`](Self::set_path) does, which checks where it
            /// stands. Without a scheme, a ":" in the first segment of a
            /// path that does not start with "/" is encoded too (it would
            /// read as the end of a scheme, RFC 3986 §4.2).
            ///
            /// ```
            #[doc = concat!("use iribis::", stringify!($ty), ";")]
            ///
            #[doc = concat!("let mut r: ", stringify!($ty), "<String> = \"", $example, "\".parse()?;")]
            /// r.set_path_encoded("/a b/c?d")?;
            /// assert_eq!(r.path(), "/a%20b/c%3Fd");
            /// assert_eq!(r.path_decoded().to_str()?, "/a b/c?d");
            /// // After an authority a path starts with "/".
            /// assert!(r.set_path_encoded("a").is_err());
            /// # Ok::<(), Box<dyn std::error::Error>>(())
            /// ```
            pub fn set_path_encoded(&mut self, path: &str) -> Result<(), ParseError> {
                let inner = self.inner();
                let encoded = encode_path(path, inner.scheme().is_some(), inner.profile());
                self.set_path(&encoded)
            }

            /// Sets or removes the query (without its "?").
            #[doc = setter_docs!()]
            ///
            /// ```
            #[doc = concat!("use iribis::", stringify!($ty), ";")]
            ///
            #[doc = concat!("let mut r: ", stringify!($ty), "<String> = \"", $example, "\".parse()?;")]
            /// r.set_query(Some("q=日本"))?;
            /// assert_eq!(r.query(), Some("q=日本"));
            /// assert!(r.set_query(Some("a#b")).is_err());
            /// r.set_query(Some(""))?;
            /// assert_eq!(r.query(), Some(""));
            /// r.set_query(None)?;
            /// assert_eq!(r.query(), None);
            /// # Ok::<(), iribis::ParseError>(())
            /// ```
            pub fn set_query(&mut self, query: Option<&str>) -> Result<(), ParseError> {
                let parts = Parts {
                    query,
                    ..Parts::of(self.inner())
                };
                let new = rebuilt(self, &parts)?;
                *self.inner_mut() = new;
                Ok(())
            }

            /// Sets or removes the query, given as raw text: percent-encoded
            /// for the reference's profile ([`encode::query`](crate::encode::query):
            /// "&", "=" and "+" are kept), then set as
            /// [`set_query`](Self::set_query) does. To edit `key=value`
            /// pairs, use [`query_pairs_mut`](Self::query_pairs_mut).
            ///
            /// ```
            #[doc = concat!("use iribis::", stringify!($ty), ";")]
            ///
            #[doc = concat!("let mut r: ", stringify!($ty), "<String> = \"", $example, "\".parse()?;")]
            /// r.set_query_encoded(Some("q=a b#c"))?;
            /// assert_eq!(r.query(), Some("q=a%20b%23c"));
            /// # Ok::<(), iribis::ParseError>(())
            /// ```
            pub fn set_query_encoded(&mut self, query: Option<&str>) -> Result<(), ParseError> {
                let profile = self.inner().profile();
                let encoded = query.map(|q| encode::query(q, profile).to_cow());
                self.set_query(encoded.as_deref())
            }

            /// Edits the query's `key=value` pairs in place: appends, sets
            /// and removes pairs given as raw text, which it encodes for
            /// the reference's profile ([`QueryPairsMut`](crate::encode::QueryPairsMut)).
            ///
            /// ```
            #[doc = concat!("use iribis::", stringify!($ty), ";")]
            ///
            #[doc = concat!("let mut r: ", stringify!($ty), "<String> = \"", $example, "\".parse()?;")]
            /// r.query_pairs_mut().append_pair("q", "a&b").append_pair("lang", "日本");
            /// assert_eq!(r.query(), Some("q=a%26b&lang=日本"));
            /// let pairs: Vec<_> = r.query_pairs().collect();
            /// assert_eq!((&*pairs[0].0, &*pairs[0].1), ("q", "a&b"));
            /// # Ok::<(), iribis::ParseError>(())
            /// ```
            pub fn query_pairs_mut(&mut self) -> QueryPairsMut<'_, Self> {
                QueryPairsMut::new(self)
            }
        }
    };
}

setters!(IriRef, "http://h/a", set_scheme set_fragment);
setters!(Iri, "http://h/a", set_scheme set_fragment);
setters!(AbsoluteIri, "http://h/a", set_scheme);
setters!(RelativeRef, "//h/a", set_fragment);
