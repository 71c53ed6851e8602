//! Parse, then write back: a reference's components recompose to exactly
//! its text (RFC 3986 §5.3 with the delimiters of §3), under every profile;
//! the owned copy and the normal forms (syntax and scheme level, NFC) keep
//! components that a fresh parse of their text agrees with; normalizing
//! twice changes nothing more.
#![no_main]

#[path = "common.rs"]
mod common;

use common::{assert_reparses, view};
use iribis::{IriRef, ParseOptions, Profile, Storage};
use iribis::normalize::Level;
use libfuzzer_sys::fuzz_target;

/// The reference written back from its components (RFC 3986 §5.3).
pub fn recompose<T: Storage>(r: &IriRef<T>) -> String {
    let mut s = String::new();
    if let Some(scheme) = r.scheme() {
        s.push_str(scheme);
        s.push(':');
    }
    if let Some(authority) = r.authority() {
        s.push_str("//");
        s.push_str(authority);
    }
    s.push_str(r.path());
    if let Some(q) = r.query() {
        s.push('?');
        s.push_str(q);
    }
    if let Some(f) = r.fragment() {
        s.push('#');
        s.push_str(f);
    }
    s
}

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else { return };
    for profile in Profile::ALL {
        let Ok(r) = IriRef::parse_with(input, &ParseOptions::new().profile(profile)) else { continue };
        assert_eq!(recompose(&r), input, "components of {input:?} under {profile} do not recompose");
        assert_eq!(r.to_string(), input, "display of {input:?}");
        let owned = r.into_owned();
        assert_eq!(view(&owned), view(&r), "owned copy of {input:?}");
    }
    let Ok(r) = IriRef::parse(input) else { return };
    for level in [Level::Syntax, Level::Scheme] {
        let n = r.normalize_with(level);
        assert_reparses(&n, level.name(), input);
        let twice = n.normalize_with(level);
        assert_eq!(twice.as_str(), n.as_str(), "{} normalization of {input:?} is not idempotent", level.name());
    }
    if let Ok(nfc) = r.to_nfc() {
        assert_reparses(&nfc, "NFC", input);
    }
});
