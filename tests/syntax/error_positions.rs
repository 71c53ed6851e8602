//! The position of a parse error is the first character that cannot belong
//! to any valid input (3987bis §2.2's grammar, or the profile's), for every
//! start rule and profile: `input[..p]` is a prefix of some valid input, and
//! `input[..p]` followed by the character at p is not (or, at the end, the
//! input is not valid). The rules' minimal DFAs decide what is a viable
//! prefix; they are checked against the pest grammar here too, on generated
//! strings, for every rule.

use crate::common;
use iribis::{
    Component, Components, GrammarRule, IriRef, ParseOptions, Profile, dfa_accepts,
    dfa_viable_prefix, pest_accepts,
};

use proptest::prelude::*;

const PROFILES: [Profile; 4] = [
    Profile::Rfc3987bis,
    Profile::Rfc3987,
    Profile::Leiri,
    Profile::Rfc3986,
];

/// The rules of a profile, by their 3987bis names.
fn rules(profile: Profile) -> Vec<GrammarRule> {
    GrammarRule::all()
        .filter(|r| r.in_profile(profile).is_some())
        .collect()
}

/// Checks the position of `input`'s error at `rule` under `profile`, if it
/// has one, and that the DFA and pest agree on its validity.
fn check_position(input: &str, rule: GrammarRule, profile: Profile) -> Result<(), String> {
    let pest = pest_accepts(input, rule, profile);
    let dfa = dfa_accepts(input, rule, profile).ok_or("no DFA")?;
    if pest != dfa {
        return Err(format!(
            "{input:?} at {rule} under {profile}: pest says {pest}, the DFA {dfa}"
        ));
    }
    let Err(e) = Components::parse(input, rule, profile) else {
        return if dfa {
            Ok(())
        } else {
            Err(format!(
                "{input:?} at {rule} under {profile}: parses, but is invalid"
            ))
        };
    };
    let p = e.byte();
    let viable = |s: &str| dfa_viable_prefix(s, rule, profile).unwrap_or(false);
    if !input.is_char_boundary(p) {
        return Err(format!("{input:?}: byte {p} is inside a character"));
    }
    if e.char() != input[..p].chars().count() {
        return Err(format!("{input:?}: char {} for byte {p}", e.char()));
    }
    if !viable(&input[..p]) {
        return Err(format!(
            "{input:?} at {rule} under {profile}: error at byte {p}, but {:?} is no prefix of a valid input",
            &input[..p]
        ));
    }
    match input[p..].chars().next() {
        Some(c) if viable(&input[..p + c.len_utf8()]) => Err(format!(
            "{input:?} at {rule} under {profile}: error at byte {p}, but {:?} can still be valid",
            &input[..p + c.len_utf8()]
        )),
        None if dfa => Err(format!("{input:?}: an error at the end of a valid input")),
        _ => Ok(()),
    }
}

/// Characters IRIs are made of, and some they must not contain.
fn alphabet() -> impl Strategy<Value = char> {
    prop::sample::select(common::IRI_ALPHABET)
}

/// Strings near valid references: a generated IRI-like skeleton with
/// random characters.
fn near_valid() -> impl Strategy<Value = String> {
    let skeletons = prop::sample::select(vec![
        "http://[",
        "http://[::",
        "http://[v1.",
        "http://a@b:80/",
        "s:",
        "//h/",
        "http://1.2.3.",
        "a/b?c#d",
        "",
    ]);
    (skeletons, prop::collection::vec(alphabet(), 0..12))
        .prop_map(|(s, tail)| s.chars().chain(tail).collect())
}

#[test]
fn every_rule_of_every_profile_has_a_dfa() {
    for profile in PROFILES {
        for rule in rules(profile) {
            assert!(
                dfa_accepts("", rule, profile).is_some(),
                "{rule} under {profile} has no DFA"
            );
        }
    }
}

#[test]
fn positions_of_the_review_and_of_ip_literals() {
    let bis = Profile::Rfc3987bis;
    let e = IriRef::parse("http://[12345::]/").unwrap_err();
    assert_eq!(
        (e.byte(), e.char(), e.component()),
        (12, 12, Component::Host)
    );
    assert!(!e.message().contains("percent-encode"), "{}", e.message());
    let ipv4 = GrammarRule::from_name("IPv4address").unwrap();
    let e = Components::parse("300.1.1.1", ipv4, bis).unwrap_err();
    assert_eq!((e.byte(), e.char()), (2, 2));
    assert_eq!(e.expected_literals(), ["."]);
    // The second "::": "1::2:" can go on ("1::2:3"), "1::2::" not.
    let e = IriRef::parse("http://[1::2::3]/").unwrap_err();
    assert_eq!(e.byte(), 13);
    // Nine groups: the ":" after the eighth.
    let e = IriRef::parse("http://[1:2:3:4:5:6:7:8:9]/").unwrap_err();
    assert_eq!(e.byte(), 23);
    assert!(e.message().contains("IP literal"), "{}", e.message());
    // A dec-octet of 256 inside an IPv6 address's ls32: "25" can go on, "256" not.
    let e = IriRef::parse("http://[::1.2.3.256]/").unwrap_err();
    assert_eq!(e.byte(), 18);
    // A multi-byte character is reported at its first byte.
    let e = IriRef::parse_with("http://例/", &ParseOptions::new().profile(Profile::Rfc3986))
        .unwrap_err();
    assert_eq!((e.byte(), e.char()), (7, 7));
    for (input, rule) in [
        ("http://[12345::]/", GrammarRule::IRI_REFERENCE),
        ("300.1.1.1", ipv4),
        ("1.2.3", ipv4),
        ("http://[v1.]/", GrammarRule::IRI),
        ("http://a/%e0%zz", GrammarRule::IRI),
    ] {
        for profile in PROFILES {
            check_position(input, rule, profile).unwrap();
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn the_position_is_the_first_character_that_cannot_belong(input in near_valid()) {
        for profile in PROFILES {
            for rule in [
                GrammarRule::IRI_REFERENCE,
                GrammarRule::IRI,
                GrammarRule::ABSOLUTE_IRI,
                GrammarRule::IRELATIVE_REF,
            ] {
                check_position(&input, rule, profile).map_err(TestCaseError::fail)?;
            }
        }
    }

    #[test]
    fn every_rule_positions_and_agrees_with_pest(input in prop::collection::vec(alphabet(), 0..8)) {
        let input: String = input.into_iter().collect();
        for profile in PROFILES {
            for rule in rules(profile) {
                check_position(&input, rule, profile).map_err(TestCaseError::fail)?;
            }
        }
    }
}
