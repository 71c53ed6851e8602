//! The fast path (DFA + Appendix B split) against the pest parser and its
//! lowering, on any string, under every profile: same validity, same
//! components (host kind and address included), for `IRI-reference` and the
//! three narrower rules. Any disagreement panics with the input.
//!
//! `cargo +nightly fuzz run fast_vs_pest` (or, on stable,
//! `RUSTC_BOOTSTRAP=1 cargo fuzz run fast_vs_pest`); see docs/performance.md.
#![no_main]

use iribis::{AbsoluteIri, Components, GrammarRule, Iri, IriRef, ParseOptions, Profile, RelativeRef};
use libfuzzer_sys::fuzz_target;

/// `None` when pest alone rejects the input (`Components::parse` asks the
/// rule's DFA first, so it cannot be the reference for validity).
fn pest_view(input: &str, rule: GrammarRule, profile: Profile) -> Option<String> {
    if !iribis::pest_accepts(input, rule, profile) {
        return None;
    }
    let Ok(c) = Components::parse(input, rule, profile) else {
        return Some("pest accepts, Components::parse rejects".to_owned());
    };
    Some(format!(
        "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
        c.scheme(),
        c.authority(),
        c.userinfo(),
        c.host(),
        c.host_str(),
        c.port(),
        c.path(),
        c.query(),
        c.fragment()
    ))
}

fn fast_view(r: &IriRef<&str>) -> String {
    format!(
        "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
        r.scheme(),
        r.authority(),
        r.userinfo(),
        r.host(),
        r.host_str(),
        r.port(),
        Some(r.path()),
        r.query(),
        r.fragment()
    )
}

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else { return };
    for profile in Profile::ALL {
        let opts = ParseOptions::new().profile(profile);
        let reference = pest_view(input, GrammarRule::IRI_REFERENCE, profile);
        let dfa = iribis::dfa_accepts(input, iribis::GrammarRule::IRI_REFERENCE, profile).expect("the DFA loads");
        assert_eq!(dfa, reference.is_some(), "DFA vs pest validity of {input:?} under {profile}");
        let fast = IriRef::parse_with(input, &opts).ok().map(|r| fast_view(&r));
        assert_eq!(fast, reference, "components of {input:?} under {profile}");
        let narrow = [
            (GrammarRule::IRI, Iri::parse_with(input, &opts).ok().map(|r| fast_view(&r))),
            (GrammarRule::ABSOLUTE_IRI, AbsoluteIri::parse_with(input, &opts).ok().map(|r| fast_view(&r))),
            (GrammarRule::IRELATIVE_REF, RelativeRef::parse_with(input, &opts).ok().map(|r| fast_view(&r))),
        ];
        for (rule, fast) in narrow {
            assert_eq!(fast, pest_view(input, rule, profile), "{input:?} under {profile} at {rule}");
        }
    }
});
