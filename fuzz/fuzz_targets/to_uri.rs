//! IRI → URI (3987bis §3.3, with and without IDNA, and LEIRI → URI §6.2):
//! the output of any IRI reference parses as an RFC 3986 URI-reference, and
//! converting it again changes nothing. URI → IRI (§4.2) of that URI gives
//! an IRI reference again.
#![no_main]

use iribis::{to_iri, to_uri, IriRef, ParseOptions, Profile};
use iribis::convert::{ToIriOptions, ToUriOptions};
use libfuzzer_sys::fuzz_target;

fn check(input: &str, options: &ToUriOptions, what: &str) {
    let Ok(uri) = to_uri(input, options) else { return };
    let as_uri = ParseOptions::new().profile(Profile::Rfc3986);
    if let Err(e) = IriRef::parse_with(&uri, &as_uri) {
        panic!("to-URI ({what}) of {input:?} gave {uri:?}, not a URI-reference:\n{e}");
    }
    let again = to_uri(&uri, &ToUriOptions::new()).unwrap_or_else(|e| panic!("to-URI of {uri:?}: {e}"));
    assert_eq!(again, uri, "to-URI ({what}) is not idempotent on {input:?}");
    match to_iri(&uri, &ToIriOptions::new()) {
        Ok(iri) => assert!(IriRef::parse(&iri).is_ok(), "to-IRI of {uri:?} gave {iri:?}, not an IRI reference"),
        Err(e) => panic!("to-IRI of the URI {uri:?} (from {input:?}) failed: {e}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else { return };
    check(input, &ToUriOptions::new(), "default");
    check(input, &ToUriOptions::new().idna(true), "IDNA");
    check(input, &ToUriOptions::new().profile(Profile::Leiri), "LEIRI");
});
