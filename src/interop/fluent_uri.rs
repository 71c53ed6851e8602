//! fluent-uri's `Uri`, `UriRef`, `Iri` and `IriRef` (the `fluent-uri`
//! feature). Its IRI types get the text as it is (RFC 3987's grammar
//! checks it there); its URI types get the URI form (3987bis §3).

use super::{InteropError, InteropErrorKind, parse_iri, parse_ref, uri_form};
use crate::iri::{Iri, IriRef, Storage};

/// `TryFrom<&IriRef<T>>` and `TryFrom<&Iri<T>>` for one of fluent-uri's
/// types: `$text` makes the text it is given, `$absolute` whether it needs
/// a scheme.
macro_rules! into_fluent {
    ($ty:ident, $peer:literal, $absolute:literal, $text:expr_2021, $doc:literal) => {
        #[doc = $doc]
        impl<T: Storage> TryFrom<&IriRef<T>> for fluent_uri::$ty<String> {
            type Error = InteropError;
            fn try_from(r: &IriRef<T>) -> Result<Self, InteropError> {
                if $absolute && !r.is_iri() {
                    return Err(InteropError::new(
                        $peer,
                        r.as_str(),
                        InteropErrorKind::Relative,
                    ));
                }
                let text: String = $text(r)?;
                fluent_uri::$ty::parse(text).map_err(|(e, text)| {
                    InteropError::new($peer, text, InteropErrorKind::Refused(e.to_string()))
                })
            }
        }

        /// As for [`IriRef`].
        impl<T: Storage> TryFrom<&Iri<T>> for fluent_uri::$ty<String> {
            type Error = InteropError;
            fn try_from(r: &Iri<T>) -> Result<Self, InteropError> {
                fluent_uri::$ty::try_from(&**r)
            }
        }
    };
}

fn as_is<T: Storage>(r: &IriRef<T>) -> Result<String, InteropError> {
    Ok(r.as_str().to_owned())
}

into_fluent!(
    IriRef,
    "fluent_uri::IriRef",
    false,
    as_is,
    "The text, as fluent-uri parses an IRI reference (RFC 3987).

```
use iribis::IriRef;

let f = fluent_uri::IriRef::try_from(&IriRef::parse(\"../ü?q#f\")?)?;
assert_eq!(f.as_str(), \"../ü?q#f\");
# Ok::<(), Box<dyn std::error::Error>>(())
```"
);
into_fluent!(
    Iri,
    "fluent_uri::Iri",
    true,
    as_is,
    "The text, as fluent-uri parses an IRI (RFC 3987); a relative reference
is refused."
);
into_fluent!(
    UriRef,
    "fluent_uri::UriRef",
    false,
    |r| uri_form(r, "fluent_uri::UriRef"),
    "The URI form (3987bis §3), as fluent-uri parses a URI reference.

```
use iribis::IriRef;

let f = fluent_uri::UriRef::try_from(&IriRef::parse(\"/日本?q=é\")?)?;
assert_eq!(f.as_str(), \"/%E6%97%A5%E6%9C%AC?q=%C3%A9\");
# Ok::<(), Box<dyn std::error::Error>>(())
```"
);
into_fluent!(
    Uri,
    "fluent_uri::Uri",
    true,
    |r| uri_form(r, "fluent_uri::Uri"),
    "The URI form (3987bis §3), as fluent-uri parses a URI; a relative
reference is refused."
);

/// The other way, for each of fluent-uri's types: the text parsed by
/// 3987bis, into an [`IriRef`] and, for the types with a scheme, an
/// [`Iri`].
macro_rules! from_fluent {
    ($ty:ident, $peer:literal) => {
        /// The text, parsed by 3987bis.
        impl TryFrom<&fluent_uri::$ty<String>> for IriRef<String> {
            type Error = InteropError;
            fn try_from(f: &fluent_uri::$ty<String>) -> Result<Self, InteropError> {
                parse_ref(f.as_str().to_owned(), $peer)
            }
        }

        /// The text, parsed by 3987bis.
        impl TryFrom<fluent_uri::$ty<&str>> for IriRef<String> {
            type Error = InteropError;
            fn try_from(f: fluent_uri::$ty<&str>) -> Result<Self, InteropError> {
                parse_ref(f.as_str().to_owned(), $peer)
            }
        }

        /// The text, parsed by 3987bis, without copying it.
        impl TryFrom<fluent_uri::$ty<String>> for IriRef<String> {
            type Error = InteropError;
            fn try_from(f: fluent_uri::$ty<String>) -> Result<Self, InteropError> {
                parse_ref(f.into_string(), $peer)
            }
        }
    };
    ($ty:ident, $peer:literal, absolute) => {
        from_fluent!($ty, $peer);

        /// The text, parsed by 3987bis as an IRI.
        impl TryFrom<&fluent_uri::$ty<String>> for Iri<String> {
            type Error = InteropError;
            fn try_from(f: &fluent_uri::$ty<String>) -> Result<Self, InteropError> {
                parse_iri(f.as_str().to_owned(), $peer)
            }
        }

        /// The text, parsed by 3987bis as an IRI.
        impl TryFrom<fluent_uri::$ty<&str>> for Iri<String> {
            type Error = InteropError;
            fn try_from(f: fluent_uri::$ty<&str>) -> Result<Self, InteropError> {
                parse_iri(f.as_str().to_owned(), $peer)
            }
        }

        /// The text, parsed by 3987bis as an IRI, without copying it.
        impl TryFrom<fluent_uri::$ty<String>> for Iri<String> {
            type Error = InteropError;
            fn try_from(f: fluent_uri::$ty<String>) -> Result<Self, InteropError> {
                parse_iri(f.into_string(), $peer)
            }
        }
    };
}

from_fluent!(IriRef, "fluent_uri::IriRef");
from_fluent!(UriRef, "fluent_uri::UriRef");
from_fluent!(Iri, "fluent_uri::Iri", absolute);
from_fluent!(Uri, "fluent_uri::Uri", absolute);
