//! `url::Url` (the `url` feature): an IRI becomes its URI form (3987bis §3)
//! read by rust-url; a `Url`'s serialization is parsed by 3987bis.

use super::{InteropError, InteropErrorKind, parse_iri, parse_ref, uri_form};
use crate::iri::{Iri, IriRef, Storage};

const PEER: &str = "url::Url";

/// The URI form of the reference (3987bis §3), parsed by the WHATWG URL
/// Standard: it may name another resource (see [`crate::interop`]).
///
/// ```
/// use iribis::IriRef;
///
/// let r = IriRef::parse("http://résumé.example/日本?q=é#x")?;
/// let url = url::Url::try_from(&r)?;
/// assert_eq!(url.as_str(), "http://xn--rsum-bpad.example/%E6%97%A5%E6%9C%AC?q=%C3%A9#x");
/// // rust-url refuses an IPvFuture literal; the error says so.
/// let e = url::Url::try_from(&IriRef::parse("http://[v7.x]/")?).unwrap_err();
/// assert_eq!(e.to_string(), "url::Url refuses \"http://[v7.x]/\": invalid IPv6 address");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl<T: Storage> TryFrom<&IriRef<T>> for url::Url {
    type Error = InteropError;
    fn try_from(r: &IriRef<T>) -> Result<Self, InteropError> {
        if !r.is_iri() {
            return Err(InteropError::new(
                PEER,
                r.as_str(),
                InteropErrorKind::Relative,
            ));
        }
        let uri = uri_form(r, PEER)?;
        url::Url::parse(&uri)
            .map_err(|e| InteropError::new(PEER, uri, InteropErrorKind::Refused(e.to_string())))
    }
}

/// As for [`IriRef`].
impl<T: Storage> TryFrom<&Iri<T>> for url::Url {
    type Error = InteropError;
    fn try_from(r: &Iri<T>) -> Result<Self, InteropError> {
        url::Url::try_from(&**r)
    }
}

/// The serialization, parsed by 3987bis. It is a URI nearly always, but
/// not always: rust-url leaves `|`, `^` and `{` in a path, `#` in a
/// fragment and a space inside an opaque path (`mailto:a b`).
///
/// ```
/// use iribis::IriRef;
///
/// let url = url::Url::parse("HTTP://Example.ORG:80/a/./b")?;
/// assert_eq!(IriRef::try_from(&url)?, "http://example.org/a/b");
/// let url = url::Url::parse("http://h/a|b")?;
/// let e = IriRef::try_from(&url).unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "the url::Url \"http://h/a|b\" is not an IRI reference (3987bis §2.2, path): invalid IRI reference at character 10: '|' (U+007C) is not allowed in a path: percent-encode it as %7C"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl TryFrom<&url::Url> for IriRef<String> {
    type Error = InteropError;
    fn try_from(url: &url::Url) -> Result<Self, InteropError> {
        parse_ref(url.as_str().to_owned(), PEER)
    }
}

/// As for `&Url`, taking the serialization without copying it.
impl TryFrom<url::Url> for IriRef<String> {
    type Error = InteropError;
    fn try_from(url: url::Url) -> Result<Self, InteropError> {
        parse_ref(url.into(), PEER)
    }
}

/// As for [`IriRef`]; a `Url` always has a scheme.
impl TryFrom<&url::Url> for Iri<String> {
    type Error = InteropError;
    fn try_from(url: &url::Url) -> Result<Self, InteropError> {
        parse_iri(url.as_str().to_owned(), PEER)
    }
}

/// As for `&Url`, taking the serialization without copying it.
impl TryFrom<url::Url> for Iri<String> {
    type Error = InteropError;
    fn try_from(url: url::Url) -> Result<Self, InteropError> {
        parse_iri(url.into(), PEER)
    }
}
