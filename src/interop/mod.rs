//! Conversions between the reference types and the types other crates
//! take, each behind its feature: `url` ([`url::Url`](::url::Url)), `http`
//! ([`http::Uri`](::http::Uri)), `oxiri` ([`oxiri::Iri`](::oxiri::Iri),
//! [`oxiri::IriRef`](::oxiri::IriRef)) and
//! `fluent-uri` (fluent-uri's `Uri`, `UriRef`, `Iri` and `IriRef`).
//!
//! Every conversion is a `TryFrom`, both ways, and every failure is an
//! [`InteropError`] that names the other type, the text it was given and
//! why it was refused: the other crate's own message, or ours (the
//! component, position and rule of a [`ParseError`]).
//!
//! # Into the other type
//!
//! - **Types of IRIs** (`oxiri::Iri`, `oxiri::IriRef`, fluent-uri's `Iri`
//!   and `IriRef`) get the text as it is. They follow RFC 3987, which
//!   3987bis revises, so they may refuse a few references (a LEIRI's
//!   spaces, for one): the error carries their message.
//! - **Types of URIs** (`url::Url`, `http::Uri`, fluent-uri's `Uri` and
//!   `UriRef`) take ASCII only, so the reference is first mapped to a URI
//!   by 3987bis §3 ([`IriRef::to_uri`]): characters outside ASCII are
//!   percent-encoded as UTF-8 (§3.3), and the registered name of a scheme
//!   known to use DNS (`http`, `https`, `ws`, `wss`, `ftp`:
//!   [`DNS_SCHEMES`](crate::normalize::DNS_SCHEMES)) goes through IDNA
//!   (§3.4.2); other schemes' names are percent-encoded (§3.4.1). A URI is
//!   left exactly as it is. The map is the same for every URI type, so
//!   `http://résumé.example/` becomes `http://xn--rsum-bpad.example/`
//!   in all of them.
//! - A **relative reference** is refused, with [`InteropErrorKind::Relative`],
//!   by the types that need a scheme (`url::Url`, `oxiri::Iri`,
//!   fluent-uri's `Uri` and `Iri`); `http::Uri` takes only the
//!   `/path?query` form of one (RFC 9112 §3.2.1, origin-form).
//!
//! # From the other type
//!
//! The other type's text (`url::Url`'s serialization, `http::Uri`'s
//! `Display`, `as_str` elsewhere) is parsed by 3987bis. What the other
//! crate accepts and 3987bis does not is refused with
//! [`InteropErrorKind::NotAnIri`] and the parse error: rust-url leaves `|`,
//! `^` and `{` as they are in a path and `#` in a fragment; `http::Uri`
//! takes `"`, `{`, `}`, `\` and `|` in a path.
//!
//! # url's reading is not 3987bis's
//!
//! `url::Url` parses by the WHATWG URL Standard, which rewrites what it
//! reads: a `Url` built from an IRI may name another resource than the
//! IRI does. rust-url resolves dot segments (`%2e%2e` included), reads a
//! backslash as `/` in a special scheme's path, drops the default port,
//! reads numeric hosts the way `inet_aton` does (`0x7f.1` is `127.0.0.1`),
//! percent-decodes and maps hosts by UTS #46, and reads `http:evil.example`
//! as the host `evil.example`. The `readings` feature
//! (`iribis::readings`) lists each of these for a given reference. With
//! the `url` feature:
//!
//! ```
//! # #[cfg(feature = "url")]
//! # {
//! use iribis::Iri;
//!
//! let iri = Iri::parse("http://0x7f.1:80/a/%2e%2e/admin")?;
//! let url = url::Url::try_from(&iri)?;
//! // The IRI's host is the registered name `0x7f.1`; url's is an address.
//! assert_eq!(url.as_str(), "http://127.0.0.1/admin");
//! assert_eq!(iri.host_str(), Some("0x7f.1"));
//! assert_eq!(iri.path(), "/a/%2e%2e/admin");
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(feature = "fluent-uri")]
mod fluent_uri;
#[cfg(feature = "http")]
mod http;
#[cfg(feature = "oxiri")]
mod oxiri;
#[cfg(feature = "url")]
mod url;

use std::fmt;

use crate::convert::ConvertError;
use crate::error::ParseError;
use crate::iri::IriRef;

/// The error of a conversion to or from another crate's type.
///
/// ```
/// # #[cfg(feature = "url")]
/// # {
/// use iribis::IriRef;
/// use iribis::interop::InteropErrorKind;
///
/// let r = IriRef::parse("../a")?;
/// let e = url::Url::try_from(&r).unwrap_err();
/// assert!(matches!(e.kind(), InteropErrorKind::Relative));
/// assert_eq!(e.peer(), "url::Url");
/// assert_eq!(
///     e.to_string(),
///     "url::Url refuses \"../a\": it is a relative reference and url::Url takes only an IRI with a scheme (3987bis §2.2, IRI); resolve it against a base first"
/// );
/// # }
/// # Ok::<(), iribis::ParseError>(())
/// ```
#[derive(Clone, Debug)]
pub struct InteropError {
    peer: &'static str,
    text: String,
    kind: InteropErrorKind,
}

/// Why a conversion failed.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum InteropErrorKind {
    /// The reference is relative and the other type takes only references
    /// with a scheme.
    Relative,
    /// The map to a URI (3987bis §3) failed: IDNA refuses a label of the
    /// host (§3.4.2).
    ToUri(ConvertError),
    /// The other crate refused the text; its own message.
    Refused(String),
    /// The other type's text is not an IRI reference by 3987bis.
    NotAnIri(ParseError),
    /// The reference has a part the other type cannot hold, or the other
    /// type holds what no IRI reference says; why, in words.
    Unrepresentable(&'static str),
}

impl InteropError {
    pub(crate) fn new(peer: &'static str, text: impl Into<String>, kind: InteropErrorKind) -> Self {
        InteropError {
            peer,
            text: text.into(),
            kind,
        }
    }

    /// The other type, as a path: `url::Url`, `http::Uri`, `oxiri::Iri`,
    /// `fluent_uri::UriRef`, ...
    pub fn peer(&self) -> &'static str {
        self.peer
    }

    /// The text that was refused: the reference (or its URI form) on the
    /// way to the other type, the other type's text on the way from it.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Why.
    pub fn kind(&self) -> &InteropErrorKind {
        &self.kind
    }
}

impl fmt::Display for InteropError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (peer, text) = (self.peer, &self.text);
        match &self.kind {
            InteropErrorKind::Relative => write!(
                f,
                "{peer} refuses {text:?}: it is a relative reference and {peer} takes only an IRI with a scheme (3987bis §2.2, IRI); resolve it against a base first"
            ),
            InteropErrorKind::ToUri(e) => {
                write!(f, "{text:?} has no URI form for {peer} (3987bis §3): {e}")
            }
            InteropErrorKind::Refused(why) => write!(f, "{peer} refuses {text:?}: {why}"),
            InteropErrorKind::NotAnIri(e) => write!(
                f,
                "the {peer} {text:?} is not an IRI reference ({}, {}): {e}",
                e.spec(),
                e.component()
            ),
            InteropErrorKind::Unrepresentable(why) => write!(f, "{peer} and {text:?}: {why}"),
        }
    }
}

/// The conversion's or the parse's error is the source.
impl std::error::Error for InteropError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            InteropErrorKind::ToUri(e) => Some(e),
            InteropErrorKind::NotAnIri(e) => Some(e),
            _ => None,
        }
    }
}

#[cfg(any(feature = "url", feature = "http", feature = "fluent-uri"))]
/// The reference's URI form for a type of URIs (see the module's docs):
/// 3987bis §3, with IDNA for the hosts of the DNS schemes.
pub(crate) fn uri_form<T: crate::Storage>(
    r: &IriRef<T>,
    peer: &'static str,
) -> Result<String, InteropError> {
    use crate::convert::ToUriOptions;
    use crate::scheme::DNS_SCHEMES;

    let dns = r
        .scheme()
        .is_some_and(|s| DNS_SCHEMES.iter().any(|d| s.eq_ignore_ascii_case(d)));
    if r.as_str().is_ascii() && r.profile() != crate::Profile::Leiri {
        return Ok(r.as_str().to_owned());
    }
    r.to_uri(&ToUriOptions::new().idna(dns))
        .map(IriRef::into_string)
        .map_err(|e| InteropError::new(peer, r.as_str(), InteropErrorKind::ToUri(e)))
}

/// `text`, from the other type `peer`, parsed as an IRI reference.
pub(crate) fn parse_ref(text: String, peer: &'static str) -> Result<IriRef<String>, InteropError> {
    IriRef::try_from(text).map_err(|e| {
        let text = e.input().to_owned();
        InteropError::new(peer, text, InteropErrorKind::NotAnIri(e))
    })
}

/// As [`parse_ref`], for an IRI (the other type always has a scheme).
pub(crate) fn parse_iri(
    text: String,
    peer: &'static str,
) -> Result<crate::Iri<String>, InteropError> {
    let r = parse_ref(text, peer)?;
    crate::Iri::try_from(r).map_err(|e| {
        InteropError::new(
            peer,
            e.value.into_string(),
            InteropErrorKind::Unrepresentable("it has no scheme, and an Iri has one"),
        )
    })
}
