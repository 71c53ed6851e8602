//! `http::Uri` (the `http` feature): the request targets of RFC 9112 §3.2
//! that an IRI reference can say, both ways.

use super::{InteropError, InteropErrorKind, parse_iri, parse_ref, uri_form};
use crate::iri::{Iri, IriRef, Storage};

const PEER: &str = "http::Uri";

/// The URI form of the reference (3987bis §3) as an `http::Uri`: an IRI
/// with an authority (`scheme://host...`, RFC 9112 §3.2.2 absolute-form)
/// or a relative reference that is an absolute path (`/path?query`,
/// origin-form). A `Uri` has no fragment (a request target has none, RFC
/// 9112 §3.2) and would drop it silently, so a reference with one is
/// refused; so are an IRI without an authority (`mailto:x`, `file:///x`)
/// and a network-path reference (`//h/p`, which `http::Uri` reads as a
/// path). An empty path becomes `/`, as RFC 9110 §4.2.3 says it is for
/// `http`.
///
/// ```
/// use iribis::IriRef;
///
/// let uri = http::Uri::try_from(&IriRef::parse("https://例え.jp/ü?q")?)?;
/// assert_eq!(uri, "https://xn--r8jz45g.jp/%C3%BC?q");
/// let uri = http::Uri::try_from(&IriRef::parse("/a?b")?)?;
/// assert_eq!(uri.path(), "/a");
/// let e = http::Uri::try_from(&IriRef::parse("http://h/#top")?).unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "http::Uri and \"http://h/#top\": http::Uri has no fragment and would drop it (a request target has none, RFC 9112 §3.2): remove it first"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl<T: Storage> TryFrom<&IriRef<T>> for http::Uri {
    type Error = InteropError;
    fn try_from(r: &IriRef<T>) -> Result<Self, InteropError> {
        let refuse = |why| {
            Err(InteropError::new(
                PEER,
                r.as_str(),
                InteropErrorKind::Unrepresentable(why),
            ))
        };
        if r.fragment().is_some() {
            return refuse(
                "http::Uri has no fragment and would drop it (a request target has none, RFC 9112 §3.2): remove it first",
            );
        }
        match (r.is_iri(), r.authority()) {
            (true, None | Some("")) => {
                return refuse(
                    "http::Uri takes an absolute URI only with a non-empty authority (scheme://host, RFC 9112 §3.2.2 absolute-form)",
                );
            }
            (false, Some(_)) => {
                return refuse(
                    "http::Uri reads a network-path reference (//host/path) as a path: it has no form for it",
                );
            }
            (false, None) if !r.path().starts_with('/') => {
                return refuse(
                    "http::Uri takes a relative reference only as an absolute path, /path?query (RFC 9112 §3.2.1 origin-form); resolve it against a base first",
                );
            }
            _ => {}
        }
        let uri = uri_form(r, PEER)?;
        http::Uri::try_from(uri.as_str())
            .map_err(|e| InteropError::new(PEER, uri, InteropErrorKind::Refused(e.to_string())))
    }
}

/// As for [`IriRef`].
impl<T: Storage> TryFrom<&Iri<T>> for http::Uri {
    type Error = InteropError;
    fn try_from(r: &Iri<T>) -> Result<Self, InteropError> {
        http::Uri::try_from(&**r)
    }
}

/// The `Uri`'s text, parsed by 3987bis: the absolute-form as written, the
/// origin-form as an absolute-path reference and the authority-form
/// (`example.com:443`, RFC 9112 §3.2.3) as a network-path reference
/// (`//example.com:443`). The asterisk-form (`*`) names no resource and
/// is refused. `http::Uri` takes `"`, `{`, `}`, `\`, `^` and `|` in a
/// path, which no IRI has: those are refused with the parse error.
///
/// ```
/// use iribis::IriRef;
///
/// let r = IriRef::try_from(&"example.com:443".parse::<http::Uri>()?)?;
/// assert_eq!(r, "//example.com:443");
/// assert_eq!(r.port(), Some("443"));
/// let e = IriRef::try_from(&"/a{b}".parse::<http::Uri>()?).unwrap_err();
/// assert!(e.to_string().starts_with("the http::Uri \"/a{b}\" is not an IRI reference (3987bis §2.2, path)"), "{e}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl TryFrom<&http::Uri> for IriRef<String> {
    type Error = InteropError;
    fn try_from(uri: &http::Uri) -> Result<Self, InteropError> {
        parse_ref(text_of(uri)?, PEER)
    }
}

/// As for `&Uri`.
impl TryFrom<http::Uri> for IriRef<String> {
    type Error = InteropError;
    fn try_from(uri: http::Uri) -> Result<Self, InteropError> {
        IriRef::try_from(&uri)
    }
}

/// As for [`IriRef`]; a `Uri` without a scheme is refused.
impl TryFrom<&http::Uri> for Iri<String> {
    type Error = InteropError;
    fn try_from(uri: &http::Uri) -> Result<Self, InteropError> {
        parse_iri(text_of(uri)?, PEER)
    }
}

/// As for `&Uri`.
impl TryFrom<http::Uri> for Iri<String> {
    type Error = InteropError;
    fn try_from(uri: http::Uri) -> Result<Self, InteropError> {
        Iri::try_from(&uri)
    }
}

/// The text of `uri` as an IRI reference would say it.
fn text_of(uri: &http::Uri) -> Result<String, InteropError> {
    match (uri.scheme(), uri.authority()) {
        (None, Some(authority)) => Ok(format!("//{authority}")),
        (None, None) if uri.path() == "*" && uri.query().is_none() => Err(InteropError::new(
            PEER,
            "*",
            InteropErrorKind::Unrepresentable(
                "the asterisk-form * (RFC 9112 §3.2.4) names the server, not a resource: no IRI reference says it",
            ),
        )),
        _ => Ok(uri.to_string()),
    }
}
