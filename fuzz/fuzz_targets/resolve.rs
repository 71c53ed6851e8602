//! Reference resolution (RFC 3986 §5.2): for a base IRI and a reference
//! (the input cut at its first newline), the result is an IRI whose
//! recorded components agree with a fresh parse of its text, in strict and
//! non-strict mode; resolving the result against the base again reaches a
//! fixed point at once, and gives the result back unless the base's path,
//! dot segments and all, was taken as it is (RFC 3986 §5.2.2: a reference
//! without a path keeps the base's path, which remove_dot_segments never
//! sees); and relativizing the target against the base gives a reference
//! that resolves back to it.
#![no_main]

#[path = "common.rs"]
mod common;

use common::assert_reparses;
use iribis::{Iri, IriRef};
use iribis::resolve::ResolveOptions;
use libfuzzer_sys::fuzz_target;

/// Whether a path has a "." or ".." segment (RFC 3986 §3.3).
fn has_dot_segment(path: &str) -> bool {
    path.split('/').any(|s| s == "." || s == "..")
}

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else { return };
    let (base, reference) = input.split_once('\n').unwrap_or(("http://a/b/c/d;p?q", input));
    let (Ok(base), Ok(r)) = (Iri::parse(base), IriRef::parse(reference)) else { return };
    for strict in [true, false] {
        let t = base.resolve_with(&r, &ResolveOptions::new().strict(strict));
        assert_reparses(&t, "resolution", input);
        let again = base.resolve(&IriRef::parse(t.as_str()).expect("reparses"));
        let third = base.resolve(&IriRef::parse(again.as_str()).expect("reparses"));
        assert_eq!(third.as_str(), again.as_str(), "resolving {:?} against {:?} again", again.as_str(), base.as_str());
        let same_scheme = r.scheme().is_some_and(|s| s.eq_ignore_ascii_case(base.scheme()));
        let base_path_kept = r.path().is_empty()
            && r.authority().is_none()
            && (r.scheme().is_none() || (!strict && same_scheme));
        if !(base_path_kept && has_dot_segment(base.path())) {
            assert_eq!(again.as_str(), t.as_str(), "resolving {:?} against {:?} again", t.as_str(), base.as_str());
        }
        let rel = base.relativize(&t);
        let back = base.resolve(&rel);
        assert_eq!(back.as_str(), t.as_str(), "relativize {:?} against {:?} gave {:?}", t.as_str(), base.as_str(), rel.as_str());
    }
});
