//! `oxiri::Iri` and `oxiri::IriRef` (the `oxiri` feature): IRI types both,
//! so the text goes across as it is, checked by the other side's grammar
//! (oxiri's RFC 3987, our 3987bis).

use std::ops::Deref;

use super::{InteropError, InteropErrorKind, parse_iri, parse_ref};
use crate::iri::{Iri, IriRef, Storage};

fn refused(peer: &'static str, text: &str, e: oxiri::IriParseError) -> InteropError {
    InteropError::new(peer, text, InteropErrorKind::Refused(e.to_string()))
}

/// The text, as oxiri parses it (RFC 3987). A reference of the `leiri`
/// profile with its spaces is refused, with oxiri's message.
///
/// ```
/// use iribis::{IriRef, ParseOptions, Profile};
///
/// let r = IriRef::parse("../résumé?q#f")?;
/// let o = oxiri::IriRef::<String>::try_from(&r)?;
/// assert_eq!(o.path(), "../résumé");
/// let leiri = IriRef::parse_with("a b", &ParseOptions::new().profile(Profile::Leiri))?;
/// let e = oxiri::IriRef::<String>::try_from(&leiri).unwrap_err();
/// assert_eq!(e.to_string(), "oxiri::IriRef refuses \"a b\": Invalid IRI code point ' '");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl<T: Storage> TryFrom<&IriRef<T>> for oxiri::IriRef<String> {
    type Error = InteropError;
    fn try_from(r: &IriRef<T>) -> Result<Self, InteropError> {
        oxiri::IriRef::parse(r.as_str().to_owned())
            .map_err(|e| refused("oxiri::IriRef", r.as_str(), e))
    }
}

/// As for `&IriRef`, borrowing the same text.
impl<'a> TryFrom<IriRef<&'a str>> for oxiri::IriRef<&'a str> {
    type Error = InteropError;
    fn try_from(r: IriRef<&'a str>) -> Result<Self, InteropError> {
        let text = r.as_str();
        oxiri::IriRef::parse(text).map_err(|e| refused("oxiri::IriRef", text, e))
    }
}

/// The text, as oxiri parses it; a relative reference is refused.
///
/// ```
/// use iribis::IriRef;
///
/// let o = oxiri::Iri::<String>::try_from(&IriRef::parse("http://例え.jp/")?)?;
/// assert_eq!(o.scheme(), "http");
/// let e = oxiri::Iri::<String>::try_from(&IriRef::parse("//h/p")?).unwrap_err();
/// assert!(matches!(e.kind(), iribis::interop::InteropErrorKind::Relative));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl<T: Storage> TryFrom<&IriRef<T>> for oxiri::Iri<String> {
    type Error = InteropError;
    fn try_from(r: &IriRef<T>) -> Result<Self, InteropError> {
        if !r.is_iri() {
            return Err(InteropError::new(
                "oxiri::Iri",
                r.as_str(),
                InteropErrorKind::Relative,
            ));
        }
        oxiri::Iri::parse(r.as_str().to_owned()).map_err(|e| refused("oxiri::Iri", r.as_str(), e))
    }
}

/// As for [`IriRef`].
impl<T: Storage> TryFrom<&Iri<T>> for oxiri::Iri<String> {
    type Error = InteropError;
    fn try_from(r: &Iri<T>) -> Result<Self, InteropError> {
        oxiri::Iri::try_from(&**r)
    }
}

/// As for `&Iri`, borrowing the same text.
impl<'a> TryFrom<Iri<&'a str>> for oxiri::Iri<&'a str> {
    type Error = InteropError;
    fn try_from(r: Iri<&'a str>) -> Result<Self, InteropError> {
        let text = r.as_str();
        oxiri::Iri::parse(text).map_err(|e| refused("oxiri::Iri", text, e))
    }
}

/// The text, parsed by 3987bis. What oxiri accepts (its RFC 3987 grammar,
/// or anything through `parse_unchecked`) and 3987bis refuses comes back
/// with the parse error.
///
/// ```
/// use iribis::IriRef;
///
/// let o = oxiri::IriRef::parse("//例え.jp/a?b")?;
/// assert_eq!(IriRef::try_from(&o)?.host_str(), Some("例え.jp"));
/// let unchecked = oxiri::IriRef::parse_unchecked("http://h/a b");
/// assert!(IriRef::try_from(&unchecked).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl<T: Deref<Target = str>> TryFrom<&oxiri::IriRef<T>> for IriRef<String> {
    type Error = InteropError;
    fn try_from(o: &oxiri::IriRef<T>) -> Result<Self, InteropError> {
        parse_ref(o.as_str().to_owned(), "oxiri::IriRef")
    }
}

/// As for `&oxiri::IriRef`, taking the string without copying it.
impl TryFrom<oxiri::IriRef<String>> for IriRef<String> {
    type Error = InteropError;
    fn try_from(o: oxiri::IriRef<String>) -> Result<Self, InteropError> {
        parse_ref(o.into_inner(), "oxiri::IriRef")
    }
}

/// The text, parsed by 3987bis as an IRI.
///
/// ```
/// use iribis::Iri;
///
/// let o = oxiri::Iri::parse("urn:isbn:0-395-36341-1".to_owned())?;
/// assert_eq!(Iri::try_from(o)?.scheme(), "urn");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl<T: Deref<Target = str>> TryFrom<&oxiri::Iri<T>> for Iri<String> {
    type Error = InteropError;
    fn try_from(o: &oxiri::Iri<T>) -> Result<Self, InteropError> {
        parse_iri(o.as_str().to_owned(), "oxiri::Iri")
    }
}

/// As for `&oxiri::Iri`, taking the string without copying it.
impl TryFrom<oxiri::Iri<String>> for Iri<String> {
    type Error = InteropError;
    fn try_from(o: oxiri::Iri<String>) -> Result<Self, InteropError> {
        parse_iri(o.into_inner(), "oxiri::Iri")
    }
}
