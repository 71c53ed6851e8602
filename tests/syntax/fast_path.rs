//! Cross-checks of the fast path (`src/fast/`: a DFA compiled from the
//! ABNF, then the RFC 3986 Appendix B split) against the pest parser and its
//! tree lowering, which are the reference.
//!
//! For every input, profile and reference rule: the rule's DFA accepts the
//! input exactly when the pest grammar does, and for a valid input each
//! component, the host's kind and address included, is the same. Inputs:
//! every spec example, every string of the conformance vectors and of the
//! rule tables, both benchmark corpora, and generated strings. A failure
//! names the input and the profile.

use crate::common;
use iribis::{
    AbsoluteIri, Components, GrammarRule, Iri, IriRef, ParseOptions, Profile, RelativeRef,
};

use proptest::prelude::*;

/// Everything the lowering yields, as strings, for comparison; `None` when
/// pest alone rejects the input (`Components::parse` consults the DFA
/// first, so it is not the reference for validity).
fn pest_view(input: &str, rule: GrammarRule, profile: Profile) -> Option<String> {
    if !iribis::pest_accepts(input, rule, profile) {
        return None;
    }
    let Ok(c) = Components::parse_by_pest(input, rule, profile) else {
        return Some("pest accepts, its lowering rejects".to_owned());
    };
    Some(format!(
        "scheme={:?} authority={:?} userinfo={:?} host={:?} host_str={:?} port={:?} path={:?} query={:?} fragment={:?}",
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
        "scheme={:?} authority={:?} userinfo={:?} host={:?} host_str={:?} port={:?} path={:?} query={:?} fragment={:?}",
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

/// Checks one input under one profile; the error names both.
fn check_one(input: &str, profile: Profile) -> Result<(), String> {
    check(input, profile, true)
}

/// What a parse gives, for comparison: the components, or the error's
/// position, component and message.
fn outcome(result: Result<Components<'_>, iribis::ParseError>) -> Result<Components<'_>, String> {
    result.map_err(|e| {
        format!(
            "byte {} char {} in {}: {}",
            e.byte(),
            e.char(),
            e.component(),
            e.message()
        )
    })
}

/// `Components::parse`, which takes the fast path at the reference rules,
/// answers as pest's parse and lowering do: the same components, or the
/// same error.
fn same_as_pest(input: &str, profile: Profile) -> Result<(), String> {
    for &rule in GrammarRule::references() {
        let fast = outcome(Components::parse(input, rule, profile));
        let pest = outcome(Components::parse_by_pest(input, rule, profile));
        if fast != pest {
            return Err(format!(
                "{input:?} under {profile} at {rule}: Components::parse {fast:?}, pest {pest:?}"
            ));
        }
    }
    Ok(())
}

/// As [`check_one`]; `narrow` adds the checks of `Iri`, `AbsoluteIri` and
/// `RelativeRef`, and of `Components::parse` at every reference rule.
fn check(input: &str, profile: Profile, narrow: bool) -> Result<(), String> {
    if narrow {
        same_as_pest(input, profile)?;
    }
    let opts = ParseOptions::new().profile(profile);
    let reference = pest_view(input, GrammarRule::IRI_REFERENCE, profile);
    let dfa = iribis::dfa_accepts(input, GrammarRule::IRI_REFERENCE, profile)
        .ok_or("the DFA did not load")?;
    if dfa != reference.is_some() {
        return Err(format!(
            "{input:?} under {profile}: the DFA says {}, pest says {}",
            if dfa { "valid" } else { "invalid" },
            if reference.is_some() {
                "valid"
            } else {
                "invalid"
            }
        ));
    }
    let fast = IriRef::parse_with(input, &opts).ok().map(|r| fast_view(&r));
    if fast != reference {
        return Err(format!(
            "{input:?} under {profile}: components differ\n fast: {fast:?}\n pest: {reference:?}"
        ));
    }
    if !narrow {
        return Ok(());
    }
    // The narrower types: same validity and components as pest at their rule.
    let narrow = [
        (
            GrammarRule::IRI,
            Iri::parse_with(input, &opts).ok().map(|r| fast_view(&r)),
        ),
        (
            GrammarRule::ABSOLUTE_IRI,
            AbsoluteIri::parse_with(input, &opts)
                .ok()
                .map(|r| fast_view(&r)),
        ),
        (
            GrammarRule::IRELATIVE_REF,
            RelativeRef::parse_with(input, &opts)
                .ok()
                .map(|r| fast_view(&r)),
        ),
    ];
    for (rule, fast) in narrow {
        let reference = pest_view(input, rule, profile);
        let dfa = iribis::dfa_accepts(input, rule, profile).ok_or("the DFA did not load")?;
        if dfa != reference.is_some() {
            return Err(format!(
                "{input:?} under {profile} at {}: the DFA says {}, pest the opposite",
                rule.abnf_name(),
                if dfa { "valid" } else { "invalid" },
            ));
        }
        if fast != reference {
            return Err(format!(
                "{input:?} under {profile} at {}: fast {fast:?}, pest {reference:?}",
                rule.abnf_name()
            ));
        }
    }
    Ok(())
}

fn check_all(inputs: &[String], profiles: &[Profile]) {
    check_many(inputs.iter(), profiles, true);
}

fn check_many<'a>(inputs: impl Iterator<Item = &'a String>, profiles: &[Profile], narrow: bool) {
    let mut failures = Vec::new();
    for input in inputs {
        for &p in profiles {
            if let Err(e) = check(input, p, narrow) {
                failures.push(e);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} disagreements between the fast path and pest, first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

fn data(path: &str) -> String {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// A corpus: pest in a debug build takes tens of microseconds a line, so a
/// debug build checks every 16th line under two profiles at `IRI-reference`;
/// an optimized build (`cargo test --release --test fast_path`) checks every
/// line under every profile at every reference rule.
fn check_corpus(lines: &[String]) {
    if cfg!(debug_assertions) {
        check_many(
            lines.iter().step_by(16),
            &[Profile::Rfc3987bis, Profile::Rfc3986],
            false,
        );
        // `Components::parse` at every reference rule, on other lines.
        let failures: Vec<String> = lines
            .iter()
            .skip(8)
            .step_by(16)
            .flat_map(|l| Profile::ALL.map(|p| same_as_pest(l, p)))
            .filter_map(Result::err)
            .collect();
        assert!(
            failures.is_empty(),
            "{} disagreements, first: {:?}",
            failures.len(),
            failures.first()
        );
    } else {
        check_many(lines.iter(), &Profile::ALL, true);
    }
}

fn piece(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(common::IRI_ALPHABET), 0..max)
        .prop_map(|v| v.into_iter().collect())
}

fn hosts() -> impl Strategy<Value = String> {
    prop_oneof![
        piece(8),
        (0u16..300, 0u16..300, 0u16..300, 0u16..300)
            .prop_map(|(a, b, c, d)| format!("{a}.{b}.{c}.{d}")),
        prop::collection::vec(
            prop::sample::select(&["1", "ab", "FFFF", "0", "12345", "::", ":", "1.2.3.4", "."][..]),
            0..10
        )
        .prop_map(|v| format!("[{}]", v.concat())),
        piece(6).prop_map(|s| format!("[v1F.{s}]")),
    ]
}

#[test]
fn spec_examples() {
    let dir = format!(
        "{}/crates/suite/data/spec-examples",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut inputs = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        inputs.extend(
            text.lines()
                .filter(|l| !l.starts_with('#'))
                .map(str::to_owned),
        );
    }
    assert!(inputs.len() > 100, "spec examples not found in {dir}");
    check_all(&inputs, &Profile::ALL);
}

/// Every string of the rule tables (`tests/data/rules/`), whatever rule it
/// was written for, as a whole reference: the IPv6 forms, the host kinds,
/// the boundaries of each character range.
#[test]
fn rule_table_strings() {
    let dir = format!("{}/tests/data/rules", env!("CARGO_MANIFEST_DIR"));
    let mut inputs = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
        inputs.extend(
            text.lines()
                .filter(|l| l.starts_with('+') || l.starts_with('-'))
                .filter_map(|l| l.split_once(' '))
                .map(|(_, input)| common::unescape(input)),
        );
    }
    assert!(inputs.len() > 400, "rule tables not found in {dir}");
    check_all(&inputs, &Profile::ALL);
}

#[test]
fn conformance_vectors() {
    let mut inputs = Vec::new();
    for line in data("crates/suite/data/conformance/vectors.jsonl").lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        for key in ["input", "base", "ref", "expected"] {
            if let Some(s) = v.get(key).and_then(|s| s.as_str()) {
                inputs.push(s.to_owned());
            }
        }
    }
    assert!(inputs.len() > 300);
    check_all(&inputs, &Profile::ALL);
}

/// The URL corpus holds URLs that are not URIs (spaces, "|", "^", raw
/// non-ASCII): all four grammars meet both valid and invalid input there.
#[test]
fn kasztp_corpus() {
    let lines: Vec<String> = data("benches/data/kasztp-urls.txt")
        .lines()
        .map(str::to_owned)
        .collect();
    // 48,009 newlines; the last line ("https://") has none.
    assert_eq!(lines.len(), 48_010);
    check_corpus(&lines);
}

#[test]
fn mixed_corpus() {
    let lines: Vec<String> = data("benches/data/mixed-iris-20k.txt")
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(lines.len(), 20_000);
    check_corpus(&lines);
}

/// Long references whose delimiters fall on either side of each multiple
/// of 254 bytes (127 steps of two bytes), where the walk carries its
/// per-component counts into wider ones (`src/fast/mod.rs`), non-ASCII
/// characters split across it, and lengths of both parities (an odd one
/// ends with a single step).
#[test]
fn long_references_across_the_count_chunks() {
    let mut inputs = Vec::new();
    for pad in [
        0, 1, 2, 3, 100, 240, 245, 250, 252, 253, 254, 255, 256, 300, 506, 507, 508, 509, 510, 511,
        761, 762, 763, 765,
    ] {
        let a = "a".repeat(pad);
        let e = "é".repeat(pad / 2);
        inputs.extend([
            format!("http://{a}/p?q#f"),
            format!("http://u:{a}@[::1]:80/{a}?{a}#{a}"),
            format!("http://{a}.com:8080/p"),
            format!("s{a}:/x/{a}:y?{e}#"),
            format!("//{e}@h:/?"),
            format!("{a}/b:c?{a}"),
            format!("http://[v1.{a}]:{}/", "9".repeat(pad % 7)),
            format!("https://h/{e}{a}?{e}#{e}"),
        ]);
    }
    check_all(&inputs, &Profile::ALL);
}

/// Where a parse error at `rule` under `profile` lies (`None` for valid
/// input), checked to be the first character that cannot belong to any
/// valid input: the prefix before it is viable, the prefix through it not.
fn error_position(
    input: &str,
    rule: GrammarRule,
    profile: Profile,
) -> Result<Option<usize>, String> {
    let opts = ParseOptions::new().profile(profile);
    let parsed = match rule {
        GrammarRule::IRI_REFERENCE => IriRef::parse_with(input, &opts).err(),
        _ => Components::parse(input, rule, profile).err(),
    };
    let Some(e) = parsed else { return Ok(None) };
    let p = e.byte();
    let viable = |s: &str| iribis::dfa_viable_prefix(s, rule, profile).unwrap_or(false);
    let next = input.get(p..).and_then(|rest| rest.chars().next());
    let exact = input.is_char_boundary(p)
        && viable(&input[..p])
        && next.is_none_or(|c| !viable(&input[..p + c.len_utf8()]));
    if exact {
        Ok(Some(p))
    } else {
        Err(format!(
            "{input:?} under {profile}: the error at byte {p} is not the first dead character"
        ))
    }
}

/// Corpus lines changed where the walk cuts them in two (after the first
/// "/", "?" or "&" from 7/16 of the length on, `src/fast/mod.rs`): a
/// character put in the place of one there, inserted there or taken out.
/// Each goes through the whole cross-check with pest, and an error's
/// position must be the first character that cannot belong to a valid
/// input, as the DFA walked one byte at a time says. (Every 500th line of
/// both corpora in a debug build, where pest is slow; every 25th in an
/// optimized one.)
#[test]
fn corpus_lines_changed_where_the_walk_cuts() {
    let lines: Vec<String> = [
        data("benches/data/kasztp-urls.txt"),
        data("benches/data/mixed-iris-20k.txt"),
    ]
    .iter()
    .flat_map(|text| text.lines().map(str::to_owned).collect::<Vec<_>>())
    .collect();
    let every = if cfg!(debug_assertions) { 500 } else { 25 };
    let mut inputs = Vec::new();
    for line in lines.iter().step_by(every) {
        let chars: Vec<char> = line.chars().collect();
        let m = chars.len() * 7 / 16;
        for i in m.saturating_sub(3)..(m + 6).min(chars.len()) {
            for c in ['/', '?', '&', '#', '%', ':', '@', '[', ' ', 'é', '例', 'a'] {
                let mut changed = chars.clone();
                changed[i] = c;
                inputs.push(changed.iter().collect::<String>());
                let mut longer = chars.clone();
                longer.insert(i, c);
                inputs.push(longer.iter().collect());
            }
            let mut shorter = chars.clone();
            shorter.remove(i);
            inputs.push(shorter.iter().collect());
        }
    }
    assert!(inputs.len() > 1_000);
    check_many(
        inputs.iter(),
        &[Profile::Rfc3987bis, Profile::Rfc3986],
        false,
    );
    let mut failures = Vec::new();
    for input in &inputs {
        for profile in [Profile::Rfc3987bis, Profile::Rfc3986] {
            if let Err(e) = error_position(input, GrammarRule::IRI_REFERENCE, profile) {
                failures.push(e);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(20)].join("\n")
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_string(s in piece(24)) {
        for p in Profile::ALL {
            prop_assert!(check_one(&s, p).is_ok(), "{}", check_one(&s, p).unwrap_err());
        }
    }

    /// References long enough for the walk to cut them, made of the
    /// bytes the cut looks for ("/", "?", "&") among the other classes:
    /// the cut falls in a path, a query, a host, a percent-encoding.
    #[test]
    fn long_enough_to_cut(
        s in prop::collection::vec(
            prop::sample::select(&[
                "a", "Z9", ".", "/", "//", "?", "&", "=", "#", "%41", "%", "é", "例", "😀",
                ":", "@", "[::1]", "http://h", " ", "/?&",
            ][..]),
            12..40,
        ).prop_map(|v| v.concat()),
    ) {
        for p in [Profile::Rfc3987bis, Profile::Rfc3986] {
            prop_assert!(check_one(&s, p).is_ok(), "{}", check_one(&s, p).unwrap_err());
            let position = error_position(&s, GrammarRule::IRI_REFERENCE, p);
            prop_assert!(position.is_ok(), "{}", position.unwrap_err());
        }
    }

    #[test]
    fn reference_shaped(
        scheme in prop_oneof![Just(String::new()), piece(5).prop_map(|s| format!("{s}:"))],
        auth in prop::option::of((prop::option::of(piece(5)), hosts(), prop::option::of(piece(4)))),
        path in piece(10),
        query in prop::option::of(piece(6)),
        fragment in prop::option::of(piece(6)),
    ) {
        let mut s = scheme;
        if let Some((user, host, port)) = auth {
            s.push_str("//");
            if let Some(u) = user { s.push_str(&u); s.push('@'); }
            s.push_str(&host);
            if let Some(p) = port { s.push(':'); s.push_str(&p); }
        }
        s.push_str(&path);
        if let Some(q) = query { s.push('?'); s.push_str(&q); }
        if let Some(f) = fragment { s.push('#'); s.push_str(&f); }
        for p in Profile::ALL {
            prop_assert!(check_one(&s, p).is_ok(), "{}", check_one(&s, p).unwrap_err());
        }
    }
}
