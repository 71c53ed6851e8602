//! `iri check`'s outputs: SARIF 2.1.0 (validated against the OASIS schema
//! shipped in tests/data/sarif), `--only-invalid` and `--color`.

use crate::common;
use std::process::{Command, Output};

use iribis::check::Code;
use serde_json::Value;

fn iri(args: &[&str], stdin: &[u8]) -> Output {
    common::run_iri(args, stdin)
}

fn sarif_schema() -> jsonschema::Validator {
    let path = concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
        "/tests/data/sarif/sarif-schema-2.1.0.json"
    );
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap()
}

fn assert_valid_sarif(log: &Value) {
    let errors: Vec<String> = sarif_schema()
        .iter_errors(log)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

const INPUTS: &[u8] =
    b"http://a/%7e\nhttp://[x\nhttp://ok/\nhttp://\xffb/\nhttp://\xc3\xa9.org/%7e\n";

#[test]
fn sarif_log_is_valid_and_complete() {
    let dir = std::env::temp_dir().join(format!("iri-sarif-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("links list.txt");
    std::fs::write(&file, INPUTS).unwrap();
    let o = iri(
        &[
            "check",
            "--format",
            "sarif",
            "--file",
            file.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    let log: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_valid_sarif(&log);
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    // One rule per catalogue code, with its explanation and spec section.
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), Code::ALL.len());
    for (rule, code) in rules.iter().zip(Code::ALL) {
        assert_eq!(rule["id"], code.name());
        assert_eq!(rule["fullDescription"]["text"], code.explanation());
        assert_eq!(rule["properties"]["spec"], code.spec());
        assert!(rule["help"]["text"].as_str().unwrap().contains(code.spec()));
    }
    let results = run["results"].as_array().unwrap();
    let found: Vec<(&str, &str, u64, u64)> = results
        .iter()
        .map(|r| {
            let region = &r["locations"][0]["physicalLocation"]["region"];
            (
                r["ruleId"].as_str().unwrap(),
                r["level"].as_str().unwrap(),
                region["startLine"].as_u64().unwrap(),
                region["startColumn"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("PERCENT_ENCODED_UNRESERVED", "note", 1, 10),
            ("PERCENT_ENCODING_LOWERCASE", "note", 1, 10),
            ("SYNTAX_ERROR", "error", 2, 9),
            // Not UTF-8: at the bad octet.
            ("SYNTAX_ERROR", "error", 4, 8),
            // Columns in characters: é is one.
            ("PERCENT_ENCODED_UNRESERVED", "note", 5, 14),
            ("PERCENT_ENCODING_LOWERCASE", "note", 5, 14),
        ]
    );
    for r in results {
        let index = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], r["ruleId"]);
        let uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap();
        assert!(uri.ends_with("/links%20list.txt"), "{uri}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sarif_of_standard_input_and_of_nothing() {
    let o = iri(&["check", "--format", "sarif"], b"http://a/\n");
    assert_eq!(o.status.code(), Some(0));
    let log: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_valid_sarif(&log);
    assert_eq!(log["runs"][0]["results"], Value::Array(Vec::new()));
    let o = iri(
        &["check", "--format", "sarif", "--deny", "DOT_SEGMENT"],
        b"http://a/./b\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let log: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_valid_sarif(&log);
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "DOT_SEGMENT");
    assert_eq!(result["level"], "error");
    assert_eq!(
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "stdin"
    );
}

#[test]
fn only_invalid() {
    let o = iri(&["check", "--json", "--only-invalid"], INPUTS);
    assert_eq!(o.status.code(), Some(1));
    let lines: Vec<Value> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let numbers: Vec<u64> = lines.iter().map(|l| l["line"].as_u64().unwrap()).collect();
    assert_eq!(numbers, [2, 4]);
    assert!(lines.iter().all(|l| l["valid"] == false));
    // The summary still counts every input.
    let o = iri(&["check", "--only-invalid"], INPUTS);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(!out.contains("http://ok/"), "{out}");
    assert!(out.contains("5 inputs: 3 valid, 2 invalid"), "{out}");
}

#[test]
fn color_only_when_asked_or_on_a_terminal() {
    let input = b"http://a/%7e\n";
    // Into a pipe: no colour by default.
    let o = iri(&["check"], input);
    assert!(!o.stdout.contains(&0x1b));
    let o = iri(&["check", "--color", "never"], input);
    assert!(!o.stdout.contains(&0x1b));
    // Asked for: colour, even into a pipe, even with NO_COLOR (the flag
    // wins over the environment).
    let o = iri(&["--color", "always", "check"], input);
    assert!(o.stdout.starts_with(b"1: http://a/%7e: \x1b["), "{o:?}");
    let o = Command::new(env!("CARGO_BIN_EXE_iri"))
        .args(["check", "--color", "always", "http://a/%7e"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(o.stdout.contains(&0x1b));
    // CLICOLOR_FORCE asks for it without the flag; NO_COLOR still wins.
    let o = Command::new(env!("CARGO_BIN_EXE_iri"))
        .args(["check", "http://a/%7e"])
        .env("CLICOLOR_FORCE", "1")
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    assert!(o.stdout.contains(&0x1b));
    let o = Command::new(env!("CARGO_BIN_EXE_iri"))
        .args(["check", "http://a/%7e"])
        .env("CLICOLOR_FORCE", "1")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(!o.stdout.contains(&0x1b), "{o:?}");
    // JSON is never coloured.
    let o = iri(&["--color", "always", "check", "--json"], input);
    assert!(!o.stdout.contains(&0x1b));
}
