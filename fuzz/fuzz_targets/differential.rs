//! iribis against oxiri, iri-string and fluent-uri, on the `rfc3987`
//! profile (the grammar the three implement): the same verdict on every
//! string, and for a string all accept the same scheme, authority, path,
//! query and fragment. A disagreement panics unless [`ALLOWED`] lists the
//! input with the spec section that decides it. The list is empty: none of
//! the runs so far (docs/performance.md) found a disagreement.
#![no_main]

use iribis::{IriRef, ParseOptions, Profile};
use libfuzzer_sys::fuzz_target;

/// scheme, authority, path, query, fragment.
type Parts = (Option<String>, Option<String>, String, Option<String>, Option<String>);

fn parts(
    scheme: Option<&str>,
    authority: Option<&str>,
    path: &str,
    query: Option<&str>,
    fragment: Option<&str>,
) -> Parts {
    let own = |x: Option<&str>| x.map(str::to_owned);
    (own(scheme), own(authority), path.to_owned(), own(query), own(fragment))
}

fn ours(s: &str) -> Option<Parts> {
    let r = IriRef::parse_with(s, &ParseOptions::new().profile(Profile::Rfc3987)).ok()?;
    Some(parts(r.scheme(), r.authority(), r.path(), r.query(), r.fragment()))
}

fn oxiri(s: &str) -> Option<Parts> {
    let r = oxiri::IriRef::parse(s).ok()?;
    Some(parts(r.scheme(), r.authority(), r.path(), r.query(), r.fragment()))
}

fn iri_string(s: &str) -> Option<Parts> {
    let r = iri_string::types::IriReferenceStr::new(s).ok()?;
    Some(parts(
        r.scheme_str(),
        r.authority_str(),
        r.path_str(),
        r.query_str(),
        r.fragment_str(),
    ))
}

fn fluent_uri(s: &str) -> Option<Parts> {
    let r = fluent_uri::IriRef::parse(s).ok()?;
    Some(parts(
        r.scheme().map(|x| x.as_str()),
        r.authority().map(|x| x.as_str()),
        r.path().as_str(),
        r.query().map(|x| x.as_str()),
        r.fragment().map(|x| x.as_str()),
    ))
}

/// Known, spec-justified differences: (peer, input, the reason with its
/// section). A finding that the spec decides against a peer is added here,
/// and the input to `crates/suite/data/conformance/` as a regression vector.
const ALLOWED: &[(&str, &str, &str)] = &[];

fn allowed(peer: &str, s: &str) -> bool {
    ALLOWED.iter().any(|&(p, input, _)| p == peer && input == s)
}

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else { return };
    let mine = ours(s);
    let peers: [(&str, fn(&str) -> Option<Parts>); 3] =
        [("oxiri", oxiri), ("iri-string", iri_string), ("fluent-uri", fluent_uri)];
    for (peer, parse) in peers {
        let theirs = parse(s);
        let same = match (&mine, &theirs) {
            (Some(a), Some(b)) => a == b,
            (None, None) => true,
            _ => false,
        };
        if !same && !allowed(peer, s) {
            panic!("{s:?}: iribis {mine:?}, {peer} {theirs:?}");
        }
    }
});
