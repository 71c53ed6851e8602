//! The 200 syntax vectors of `crates/suite/data/conformance/vectors.jsonl`, gathered
//! from other projects' suites (see the README there): each input must parse,
//! or fail, at its rule under the default profile. A vector whose expectation
//! we do not share would be listed, with the reason, in
//! `crates/suite/data/conformance/known-differences.txt`; today there is none.

use iribis::{Components, GrammarRule, Profile};

use serde_json::Value;

const VECTORS: &str = include_str!("../../crates/suite/data/conformance/vectors.jsonl");

const KNOWN_DIFFERENCES: &str =
    include_str!("../../crates/suite/data/conformance/known-differences.txt");

fn known_differences() -> Vec<String> {
    KNOWN_DIFFERENCES
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        // "syntax<TAB>input<TAB>reason"
        .filter_map(|l| l.strip_prefix("syntax\t"))
        .map(|l| l.split('\t').next().unwrap_or("").to_owned())
        .collect()
}

#[test]
fn syntax_vectors() {
    let known = known_differences();
    let mut failures = Vec::new();
    let mut count = 0;
    for line in VECTORS.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if v["kind"] != "syntax" {
            continue;
        }
        count += 1;
        let input = v["input"].as_str().unwrap();
        let rule = GrammarRule::from_name(v["rule"].as_str().unwrap()).unwrap();
        let valid = v["valid"].as_bool().unwrap();
        let result = Components::parse(input, rule, Profile::default());
        let agrees = result.is_ok() == valid;
        let listed = known.iter().any(|k| k == input);
        if agrees == listed {
            failures.push(format!(
                "{rule} {input:?}: expected {}, got {}{}{}",
                if valid { "valid" } else { "invalid" },
                match &result {
                    Ok(_) => "valid".to_owned(),
                    Err(e) => format!("invalid ({})", e.message()),
                },
                if listed {
                    " (listed as a known difference: remove it)"
                } else {
                    ""
                },
                v.get("note")
                    .map(|n| format!("\n    note: {n}"))
                    .unwrap_or_default()
            ));
        }
    }
    assert_eq!(count, 200);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
