//! Reference resolution (RFC 3986 §5.2): for a base IRI and a reference
//! (the input cut at its first newline), the result is an IRI whose
//! recorded components agree with a fresh parse of its text, in strict and
//! non-strict mode; resolving the result against the base again gives it
//! back (a resolved IRI has no dot segments left); and relativizing the
//! target against the base gives a reference that resolves back to it.
#![no_main]

#[path = "common.rs"]
mod common;

use common::assert_reparses;
use iribis::{Iri, IriRef, ResolveOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else { return };
    let (base, reference) = input.split_once('\n').unwrap_or(("http://a/b/c/d;p?q", input));
    let (Ok(base), Ok(r)) = (Iri::parse(base), IriRef::parse(reference)) else { return };
    for strict in [true, false] {
        let t = base.resolve_with(&r, &ResolveOptions::new().strict(strict));
        assert_reparses(&t, "resolution", input);
        let again = base.resolve(&IriRef::parse(t.as_str()).expect("reparses"));
        assert_eq!(again.as_str(), t.as_str(), "resolving {:?} against {:?} again", t.as_str(), base.as_str());
        if let Ok(rel) = base.relativize(&t) {
            let back = base.resolve(&rel);
            assert_eq!(back.as_str(), t.as_str(), "relativize {:?} against {:?} gave {:?}", t.as_str(), base.as_str(), rel.as_str());
        }
    }
});
