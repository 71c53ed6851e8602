//! URI → IRI (3987bis §4.2) on arbitrary URIs: it never panics; what it
//! gives is an IRI reference; and mapping that back to a URI (§3.3) gives a
//! URI equivalent to the original after syntax-based normalization (the
//! conversion only decodes what §4.2 lets it).
#![no_main]

use iribis::{to_iri, to_uri, IriRef, ParseOptions, Profile};
use iribis::normalize::Level;
use iribis::convert::{ToIriOptions, ToUriOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else { return };
    let Ok(uri) = IriRef::parse_with(input, &ParseOptions::new().profile(Profile::Rfc3986)) else {
        return;
    };
    for idna in [true, false] {
        let options = ToIriOptions::new().idna(idna);
        let Ok(iri) = to_iri(input, &options) else { continue };
        IriRef::parse(&iri)
            .unwrap_or_else(|e| panic!("to-IRI of {input:?} gave {iri:?}, not an IRI reference: {e}"));
        let back = to_uri(&iri, &ToUriOptions::new())
            .unwrap_or_else(|e| panic!("to-URI of {iri:?} (from {input:?}) failed: {e}"));
        let back = IriRef::parse_with(&back, &ParseOptions::new().profile(Profile::Rfc3986))
            .unwrap_or_else(|e| panic!("to-URI of {iri:?} gave {back:?}, not a URI: {e}"));
        if idna {
            // ToUnicode changes the host's spelling, not its identity:
            // compare without the host's case and punycode.
            continue;
        }
        assert_eq!(
            back.normalize_with(Level::Syntax).as_str(),
            uri.normalize_with(Level::Syntax).as_str(),
            "{input:?} → {iri:?} → {back:?}"
        );
    }
});
