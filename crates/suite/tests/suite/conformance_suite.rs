//! The conformance suite: the copy checked in under
//! `conformance/` is exactly what the generator writes; iribis's own
//! answers pass every case; every rule of every profile is covered (every
//! DFA transition, an accepted and a rejected case); the suite contradicts
//! none of the specs' examples; every line matches the case schema.

use std::collections::HashSet;

use iribis_suite::{Case, Expect, Op, Request, Suite, Verdict, answer, judge};

use iribis::Profile;

use serde_json::Value;

fn suite() -> &'static Suite {
    Suite::builtin()
}

fn spec_files() -> Vec<(String, String)> {
    let dir = format!(
        "{}/crates/suite/data/spec-examples",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../..")
    );
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .map(|p| {
            (
                p.file_stem().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

/// RFC 3986 Appendix B's regular expression, by hand: the five main
/// components of any string.
fn appendix_b(s: &str) -> [Option<&str>; 5] {
    let (scheme, rest) = match s.find([':', '/', '?', '#']) {
        Some(i) if i > 0 && s.as_bytes()[i] == b':' => (Some(&s[..i]), &s[i + 1..]),
        _ => (None, s),
    };
    let (authority, rest) = match rest.strip_prefix("//") {
        Some(r) => {
            let end = r.find(['/', '?', '#']).unwrap_or(r.len());
            (Some(&r[..end]), &r[end..])
        }
        None => (None, rest),
    };
    let (rest, fragment) = match rest.split_once('#') {
        Some((a, b)) => (a, Some(b)),
        None => (rest, None),
    };
    let (path, query) = match rest.split_once('?') {
        Some((a, b)) => (a, Some(b)),
        None => (rest, None),
    };
    [scheme, authority, Some(path), query, fragment]
}

/// Like rust-analyzer's `ensure_file_contents`: a stale checked-in file
/// fails, and says how to refresh it.
#[test]
fn checked_in_copy_is_fresh() {
    let dir = format!(
        "{}/conformance",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../..")
    );
    let mut stale = Vec::new();
    for (name, text) in suite().files() {
        let on_disk = std::fs::read_to_string(format!("{dir}/{name}")).unwrap_or_default();
        if on_disk != text {
            stale.push(name);
        }
    }
    assert!(
        stale.is_empty(),
        "conformance/{stale:?} is stale: run `cargo run -- suite export --out conformance` and commit the result"
    );
}

#[test]
fn iribis_passes_every_case() {
    let mut failures = Vec::new();
    for case in suite().cases() {
        let request = Request::from_line(&case.request()).unwrap();
        match judge(case, &answer(&request), true) {
            Verdict::Pass => {}
            other => failures.push(format!("{}: {other:?}", case.id)),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

#[test]
fn ids_are_unique_and_lines_round_trip() {
    let mut seen = HashSet::new();
    for case in suite().cases() {
        assert!(seen.insert(case.id.as_str()), "duplicate id {}", case.id);
        assert_eq!(&Case::from_line(&case.to_line()).unwrap(), case);
    }
}

#[test]
fn every_rule_of_every_profile_is_covered() {
    let index = suite().index();
    assert!(index["cases"].as_u64().unwrap() > 5_000);
    let rules = index["coverage"]["rules"].as_array().unwrap();
    // rfc3987bis 44 rules; rfc3987 42 (no pct-form or path-sep, which
    // RFC 3987 does not define); leiri 44 (its ucschar is leiri-ucschar);
    // rfc3986 39.
    assert_eq!(rules.len(), 44 + 42 + 44 + 39);
    for r in rules {
        let name = format!("{} {}", r["profile"], r["rule"]);
        assert_eq!(
            r["transitions"], r["covered"],
            "{name}: not every transition taken"
        );
        assert!(
            r["accepted"].as_u64().unwrap() > 0,
            "{name}: no accepted case"
        );
        assert!(
            r["rejected"].as_u64().unwrap() > 0,
            "{name}: no rejected case"
        );
    }
    let total: u64 = rules
        .iter()
        .map(|r| r["transitions"].as_u64().unwrap())
        .sum();
    assert!(total > 80_000, "{total} transitions");
    // Every range of the grammar has its ends probed: the character rules
    // with ranges have range-end cases.
    for (profile, rule) in [
        ("rfc3987bis", "ucschar"),
        ("rfc3987bis", "iprivate"),
        ("rfc3987", "iprivate"),
        ("leiri", "leiri-ucschar"),
        ("rfc3986", "dec-octet"),
        ("rfc3987bis", "HEXDIG"),
        ("rfc3987bis", "h16"),
    ] {
        let n = suite()
            .cases()
            .iter()
            .filter(|c| {
                c.profile.name() == profile
                    && c.rule.as_deref() == Some(rule)
                    && matches!(c.generator.as_deref(), Some("range-end" | "repeat-bound"))
            })
            .count();
        assert!(n >= 4, "{profile} {rule}: {n} range-end cases");
    }
}

#[test]
fn range_ends_and_bounds_are_probed() {
    let expect = |profile: &str, rule: &str, input: &str| -> bool {
        let c = suite()
            .cases()
            .iter()
            .find(|c| {
                c.op == Op::Valid
                    && c.profile.name() == profile
                    && c.rule.as_deref() == Some(rule)
                    && c.input == input
            })
            .unwrap_or_else(|| panic!("no case {profile} {rule} {input:?}"));
        matches!(c.expect, Expect::Valid { valid: true, .. })
    };
    // iprivate's tag range is 3987bis's, not RFC 3987's.
    assert!(expect("rfc3987bis", "iprivate", "\u{E0000}"));
    assert!(!expect("rfc3987", "IRI-reference", "?\u{E0FFF}"));
    assert!(expect("rfc3987bis", "IRI-reference", "?\u{E0FFF}"));
    assert!(!expect("rfc3987bis", "iprivate", "\u{E1000}"));
    assert!(expect("rfc3987bis", "ucschar", "\u{E1000}"));
    assert!(!expect("rfc3987bis", "ucschar", "\u{FFF0}"));
    assert!(expect("rfc3987bis", "h16", "0000"));
    assert!(!expect("rfc3987bis", "h16", "00000"));
    assert!(!expect("rfc3987bis", "dec-octet", "256"));
    assert!(expect("rfc3987bis", "dec-octet", "255"));
    assert!(expect("rfc3987bis", "HEXDIG", "f"));
    assert!(!expect("rfc3987bis", "HEXDIG", "g"));
    assert!(expect("leiri", "leiri-ucschar", " "));
    assert!(expect("leiri", "IRI-reference", "?\u{E000}"));
}

/// Where a rejected case says the input goes wrong is where it does: the
/// text before is the start of a valid input, and one character more is
/// not.
#[test]
fn positions_are_the_first_impossible_character() {
    use iribis::{GrammarRule, dfa_viable_prefix};
    let mut checked = 0;
    for c in suite()
        .cases()
        .iter()
        .filter(|c| c.op == Op::Valid)
        .step_by(7)
    {
        let Expect::Valid {
            valid: false,
            at: Some(at),
        } = c.expect
        else {
            continue;
        };
        let rule = GrammarRule::from_name(c.rule.as_deref().unwrap()).unwrap();
        let rule = if c.profile == Profile::Rfc3986 {
            // dfa_viable_prefix takes the 3987bis names of the reference rules.
            match rule.abnf_name() {
                "URI-reference" => GrammarRule::IRI_REFERENCE,
                "URI" => GrammarRule::IRI,
                "absolute-URI" => GrammarRule::ABSOLUTE_IRI,
                "relative-ref" => GrammarRule::IRELATIVE_REF,
                _ => rule,
            }
        } else {
            rule
        };
        let before = &c.input[..at.byte];
        assert_eq!(before.chars().count(), at.char, "{}", c.id);
        assert_eq!(
            dfa_viable_prefix(before, rule, c.profile),
            Some(true),
            "{}",
            c.id
        );
        if let Some(next) = c.input[at.byte..].chars().next() {
            let one_more = &c.input[..at.byte + next.len_utf8()];
            assert_eq!(
                dfa_viable_prefix(one_more, rule, c.profile),
                Some(false),
                "{}",
                c.id
            );
        }
        checked += 1;
    }
    assert!(checked > 1_000, "{checked}");
}

/// Every example the specs print is a `valid` case of 3987bis, valid
/// exactly when the data does not mark it invalid; and every resolution,
/// conversion and normalization the specs print is an answer the suite
/// accepts.
#[test]
fn the_suite_contradicts_no_spec_example() {
    let valid: std::collections::HashMap<&str, bool> = suite()
        .cases()
        .iter()
        .filter(|c| {
            c.op == Op::Valid
                && c.profile == Profile::Rfc3987bis
                && c.rule.as_deref() == Some("IRI-reference")
        })
        .filter_map(|c| match c.expect {
            Expect::Valid { valid, .. } => Some((c.input.as_str(), valid)),
            _ => None,
        })
        .collect();
    let mut examples = 0;
    for (file, text) in spec_files() {
        let mut invalid = false;
        for line in text.lines() {
            if line.starts_with("# invalid:") {
                invalid = true;
                continue;
            }
            if line.starts_with("# ") {
                continue;
            }
            let input = if line == "\"\"" { "" } else { line };
            assert_eq!(valid.get(input), Some(&!invalid), "{file}: {input:?}");
            invalid = false;
            examples += 1;
        }
    }
    assert_eq!(examples, 267);
    // The printed pairs.
    let allows = |op: Op, base: Option<&str>, input: &str, printed: &str| {
        let c = suite()
            .cases()
            .iter()
            .find(|c| {
                c.op == op
                    && c.input == input
                    && c.base.as_deref() == base
                    && c.source.starts_with("example of")
            })
            .unwrap_or_else(|| panic!("no {op} case for {input:?}"));
        match &c.expect {
            Expect::Result { result, also } => assert!(
                result == printed || also.iter().any(|a| a == printed),
                "{op} {input:?}: {printed:?} not allowed by {:?}",
                c.expect
            ),
            other => panic!("{op} {input:?}: {other:?}"),
        }
    };
    let mut resolutions = 0;
    for (file, text) in spec_files()
        .into_iter()
        .filter(|(f, _)| f.starts_with("rfc3986-5.4"))
    {
        let lines: Vec<&str> = text.lines().collect();
        let base = lines.iter().find(|l| !l.starts_with("# ")).unwrap();
        let mut label = "";
        let mut reference = String::new();
        for line in &lines {
            if let Some(c) = line.strip_prefix("# ") {
                label = c;
                continue;
            }
            let value = if *line == "\"\"" { "" } else { line };
            if label == "reference" {
                reference = value.to_owned();
            } else if label.starts_with("target") {
                allows(Op::Resolve, Some(base), &reference, value);
                resolutions += 1;
            }
        }
        assert!(resolutions > 0, "{file}");
    }
    assert_eq!(resolutions, 23 + 19 + 1);
    allows(
        Op::ToUri,
        None,
        "http://résumé.example.org",
        "http://r%C3%A9sum%C3%A9.example.org",
    );
    allows(
        Op::ToUri,
        None,
        "http://résumé.example.org",
        "http://xn--rsum-bpad.example.org",
    );
    allows(
        Op::ToUri,
        None,
        "http://example.com/𐌀𐌁𐌂",
        "http://example.com/%F0%90%8C%80%F0%90%8C%81%F0%90%8C%82",
    );
    allows(
        Op::ToIri,
        None,
        "http://www.example.org/D%C3%BCrst",
        "http://www.example.org/Dürst",
    );
    allows(
        Op::ToIri,
        None,
        "http://www.example.org/D%FCrst",
        "http://www.example.org/D%FCrst",
    );
    allows(
        Op::ToIri,
        None,
        "http://xn--99zt52a.example.org/%e2%80%ae",
        "http://納豆.example.org/%E2%80%AE",
    );
    allows(
        Op::ToIri,
        None,
        "http://xn--99zt52a.example.org/%e2%80%ae",
        "http://xn--99zt52a.example.org/%E2%80%AE",
    );
    allows(
        Op::Normalize,
        None,
        "eXAMPLE://a/./b/../b/%63/%7bfoo%7d",
        "example://a/b/c/%7Bfoo%7D",
    );
    allows(
        Op::Normalize,
        None,
        "HTTP://www.EXAMPLE.com/",
        "http://www.example.com/",
    );
}

/// The syntax vectors of other projects are all in the suite, with their
/// sources; where a source expected otherwise than the spec, a note says so.
#[test]
fn other_projects_vectors_keep_their_sources() {
    let vectors = include_str!("../../../../crates/suite/data/conformance/vectors.jsonl");
    let syntax = vectors
        .lines()
        .filter(|l| l.contains("\"kind\": \"syntax\""))
        .count();
    let cases: Vec<&Case> = suite()
        .cases()
        .iter()
        .filter(|c| c.id.contains("/vector/"))
        .collect();
    assert!(syntax > 0);
    for line in vectors
        .lines()
        .filter(|l| l.contains("\"kind\": \"syntax\""))
    {
        let v: Value = serde_json::from_str(line).unwrap();
        let (rule, input) = (v["rule"].as_str().unwrap(), v["input"].as_str().unwrap());
        let profile = v["profile"].as_str().unwrap_or("rfc3987bis");
        assert!(
            suite().cases().iter().any(|c| c.op == Op::Valid
                && c.profile.name() == profile
                && c.rule.as_deref() == Some(rule)
                && c.input == input),
            "{line}"
        );
    }
    // Every resolution of the shared corpus is a case (one per request:
    // a vector that repeats a spec example is merged into it, its source
    // added).
    for line in vectors
        .lines()
        .filter(|l| l.contains("\"kind\": \"resolve\""))
    {
        let v: Value = serde_json::from_str(line).unwrap();
        let (base, r) = (v["base"].as_str().unwrap(), v["ref"].as_str().unwrap());
        assert!(
            suite()
                .cases()
                .iter()
                .any(|c| c.op == Op::Resolve && c.input == r && c.base.as_deref() == Some(base)),
            "{line}"
        );
    }
    assert!(cases.iter().filter(|c| c.op == Op::Resolve).count() > 90);
    assert!(cases.iter().all(|c| !c.source.is_empty()));
    let json_schema = suite()
        .cases()
        .iter()
        .filter(|c| c.id.contains("/json-schema/"))
        .count();
    // Their tests whose data is a string (the others test that a format
    // ignores other types): 87, two of which repeat one another's request
    // and are merged, their sources kept.
    assert_eq!(json_schema, 85);
    // A relative base is an error, whatever a source expected.
    let relative = suite()
        .cases()
        .iter()
        .find(|c| c.op == Op::Resolve && c.base.as_deref() == Some("/a/b"))
        .unwrap();
    assert_eq!(relative.expect, Expect::Error);
    assert!(relative.note.as_deref().unwrap().contains("RFC 3986 §5.1"));
}

/// The expected components agree with RFC 3986 Appendix B, which splits
/// any valid reference the way the grammar does.
#[test]
fn components_agree_with_appendix_b() {
    let mut n = 0;
    for c in suite().cases().iter().filter(|c| c.op == Op::Components) {
        let Expect::Components(p) = &c.expect else {
            // An input that is not a reference has no components.
            assert!(
                c.id.contains("/invalid/") || c.id.contains("/zone-id/"),
                "{}",
                c.id
            );
            continue;
        };
        let want = appendix_b(&c.input);
        let got = [&p.scheme, &p.authority, &p.path, &p.query, &p.fragment].map(|x| x.as_deref());
        assert_eq!(got, want, "{}: {:?}", c.id, c.input);
        n += 1;
    }
    assert!(n > 2_000, "{n}");
}

#[test]
fn every_line_matches_the_case_schema() {
    let schema: Value = serde_json::from_str(iribis_suite::CASE_SCHEMA).unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    for c in suite().cases() {
        let j = c.to_json();
        let errors: Vec<String> = v
            .iter_errors(&j)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", c.id);
    }
    let answer: Value = serde_json::from_str(iribis_suite::ANSWER_SCHEMA).unwrap();
    let a = jsonschema::validator_for(&answer).unwrap();
    for c in suite().cases().iter().step_by(97) {
        let r = Request::from_line(&c.request()).unwrap();
        let line: Value = serde_json::from_str(&iribis_suite::answer(&r).to_line(&r.id)).unwrap();
        assert!(a.is_valid(&line), "{line}");
    }
}

/// The expected answers are what the generator computes from the spec
/// today (a case file of another version would be judged by its own).
#[test]
fn expectations_are_recomputed_from_the_spec() {
    let generated = suite()
        .cases()
        .iter()
        .filter(|c| c.op == Op::Valid || !c.source.starts_with("example of"));
    for c in generated.step_by(13) {
        assert_eq!(
            iribis_suite::expected(c).as_ref(),
            Some(&c.expect),
            "{}",
            c.id
        );
    }
}

#[test]
fn one_case_per_request() {
    let mut seen = HashSet::new();
    for c in suite().cases() {
        // What the case asks: its request without its id.
        let asks = Request {
            id: String::new(),
            ..c.to_request()
        };
        assert!(seen.insert(asks), "{} repeats a request", c.id);
    }
}

#[test]
fn resolutions_list_the_literal_reading_of_a_double_slash_path() {
    let case = |id: &str| suite().cases().iter().find(|c| c.id == id).unwrap();
    // RFC 3986 §5.2.4 and §5.3 as printed give "foo://g"; "/." keeps the
    // path a path.
    let c = case("resolve/rfc3987bis/grid/224");
    assert_eq!(
        (c.input.as_str(), c.base.as_deref()),
        ("/.//g", Some("foo:a/b"))
    );
    assert_eq!(
        c.expect,
        Expect::Result {
            result: "foo:/.//g".into(),
            also: vec!["foo://g".into()]
        }
    );
    assert!(c.note.as_deref().unwrap().contains("as printed"));
    // An empty reference keeps the base's path as it is: one answer.
    let c = suite()
        .cases()
        .iter()
        .find(|c| c.op == Op::Resolve && c.input.is_empty() && c.base.as_deref() == Some("a:/.//b"))
        .unwrap();
    assert!(matches!(&c.expect, Expect::Result { also, .. } if also.is_empty()));
}

#[test]
fn idna2008_refuses_what_only_idna2003_maps() {
    for c in suite()
        .cases()
        .iter()
        .filter(|c| c.op == Op::ToUri && c.input == "http://\u{F900}/")
    {
        let Expect::Result { also, .. } = &c.expect else {
            panic!()
        };
        match c.profile {
            Profile::Rfc3987 => assert_eq!(also, &["http://xn--oh3a/"]),
            _ => assert!(also.is_empty(), "{}", c.id),
        }
    }
}

#[test]
fn rule_names_are_the_profiles_own() {
    for c in suite().cases() {
        let names = [c.rule.as_deref(), c.exercises.as_deref()];
        if c.profile == Profile::Rfc3987 {
            assert!(
                !names.contains(&Some("pct-form")) && !names.contains(&Some("path-sep")),
                "{}",
                c.id
            );
        }
        if c.profile == Profile::Leiri {
            assert!(!names.contains(&Some("ucschar")), "{}", c.id);
        }
    }
}

#[test]
fn the_new_operations_have_cases_in_every_iri_profile() {
    for op in [Op::Compare, Op::Check] {
        for p in [Profile::Rfc3987bis, Profile::Rfc3987, Profile::Leiri] {
            let n = suite()
                .cases()
                .iter()
                .filter(|c| c.op == op && c.profile == p)
                .count();
            assert!(n >= 30, "{op} {p}: {n}");
        }
    }
    let bidi = suite()
        .cases()
        .iter()
        .find(|c| {
            c.op == Op::Check && c.profile == Profile::Rfc3987 && c.input.contains('\u{200E}')
        })
        .unwrap();
    assert_eq!(
        bidi.expect,
        Expect::Requirements(vec!["bidi-formatting".into()])
    );
}

#[test]
fn normalizations_and_conversions_list_each_reading() {
    let case = |id: &str| suite().cases().iter().find(|c| c.id == id).unwrap();
    let answers = |id: &str| match &case(id).expect {
        Expect::Result { result, also } => (result.clone(), also.clone()),
        e => panic!("{id}: {e:?}"),
    };
    for p in ["rfc3987bis", "rfc3987", "rfc3986", "leiri"] {
        // remove_dot_segments then §5.3 as printed, beside "/.".
        let id = format!("normalize/{p}/template/71");
        assert_eq!(case(&id).input, "foo:/..//a");
        assert_eq!(answers(&id), ("foo:/.//a".into(), vec!["foo://a".into()]));
        assert!(case(&id).note.as_deref().unwrap().contains("as printed"));
    }
    for p in ["rfc3987bis", "rfc3987", "leiri"] {
        // iprivate in a query: decoded, or kept encoded (RFC 3987 §5.3.2.3).
        let id = format!("normalize/{p}/template/63");
        assert_eq!(case(&id).input, "http://a/?%EE%80%80");
        let kept = vec!["http://a/?%EE%80%80".to_owned()];
        assert_eq!(answers(&id), ("http://a/?\u{E000}".into(), kept));
        let id = format!("normalize/{p}/template/74");
        let kept = vec!["http://a/?\u{E000}%EE%80%80".to_owned()];
        assert_eq!(answers(&id), ("http://a/?\u{E000}\u{E000}".into(), kept));
    }
    // The isolates: kept encoded as bidi formatting characters, or decoded
    // as RFC 3987 §4.1's list as printed allows.
    assert_eq!(
        answers("to-iri/rfc3987bis/limitations/12"),
        (
            "http://h/%E2%81%A6x%E2%81%A9".into(),
            vec!["http://h/\u{2066}x\u{2069}".into()]
        )
    );
    // A document charset is 3987bis §3.5's: none under RFC 3987 (§3.1).
    let charsets = |p: Profile| {
        suite()
            .cases()
            .iter()
            .filter(|c| c.op == Op::ToUri && c.profile == p && c.extra.contains_key("charset"))
            .count()
    };
    assert_eq!(charsets(Profile::Rfc3987), 0);
    assert!(charsets(Profile::Rfc3987bis) >= 8 && charsets(Profile::Leiri) >= 8);
}
