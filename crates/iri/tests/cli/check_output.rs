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

/// The SARIF rule with this id, and its index.
fn rule<'a>(log: &'a Value, id: &str) -> (usize, &'a Value) {
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    let i = rules.iter().position(|r| r["id"] == id).unwrap();
    (i, &rules[i])
}

/// Every result's `ruleIndex` is the index of the rule named by its
/// `ruleId`.
fn assert_rule_indices(log: &Value) {
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    for r in log["runs"][0]["results"].as_array().unwrap() {
        let index = r["ruleIndex"].as_u64().unwrap_or_else(|| panic!("{r}")) as usize;
        assert_eq!(rules[index]["id"], r["ruleId"], "{r}");
    }
}

/// A syntax error cites the grammar of the profile the input is checked
/// against, in every output, as `iri parse` cites it; `--explain` and
/// `--list-codes` under that profile too.
#[test]
fn syntax_error_cites_the_profile_grammar() {
    let input = "http://[x";
    for (profile, spec, uri) in [
        (
            "rfc3987bis",
            "3987bis §2.2",
            "https://datatracker.ietf.org/doc/html/draft-ietf-iri-3987bis-13#section-2.2",
        ),
        (
            "rfc3987",
            "RFC 3987 §2.2",
            "https://www.rfc-editor.org/rfc/rfc3987#section-2.2",
        ),
        (
            "rfc3986",
            "RFC 3986 §3",
            "https://www.rfc-editor.org/rfc/rfc3986#section-3",
        ),
        (
            "leiri",
            "3987bis §6.1",
            "https://datatracker.ietf.org/doc/html/draft-ietf-iri-3987bis-13#section-6.1",
        ),
    ] {
        let parse = iri(&["parse", "--json", "--profile", profile, input], b"");
        let parsed: Value = serde_json::from_slice(&parse.stdout).unwrap();
        assert_eq!(parsed["error"]["spec"], spec, "{profile}");

        let human = iri(&["check", "--profile", profile, input], b"");
        let human = String::from_utf8(human.stdout).unwrap();
        assert!(
            human.contains(&format!("in the host ({spec})\n")),
            "{human}"
        );

        let json = iri(&["check", "--json", "--profile", profile, input], b"");
        let json: Value = serde_json::from_slice(&json.stdout).unwrap();
        assert_eq!(json["violations"][0]["code"], "SYNTAX_ERROR");
        assert_eq!(json["violations"][0]["spec"], spec, "{profile}");

        let sarif = iri(
            &["check", "--format", "sarif", "--profile", profile, input],
            b"",
        );
        let log: Value = serde_json::from_slice(&sarif.stdout).unwrap();
        assert_valid_sarif(&log);
        let (index, syntax) = rule(&log, "SYNTAX_ERROR");
        assert_eq!(syntax["properties"]["spec"], spec, "{profile}");
        assert_eq!(syntax["helpUri"], uri, "{profile}");
        assert!(
            syntax["help"]["text"]
                .as_str()
                .unwrap()
                .ends_with(&format!("({spec})"))
        );
        assert_eq!(log["runs"][0]["results"][0]["ruleIndex"], index);
        // Other codes cite their own section whatever the profile.
        let (_, dot) = rule(&log, "DOT_SEGMENT");
        assert_eq!(dot["properties"]["spec"], "RFC 3986 §3.3");

        let explained = iri(
            &["check", "--profile", profile, "--explain", "SYNTAX_ERROR"],
            b"",
        );
        let explained = String::from_utf8(explained.stdout).unwrap();
        assert!(
            explained.starts_with(&format!(
                "SYNTAX_ERROR  (default severity: error; {spec})\n"
            )),
            "{explained}"
        );
        let listed = iri(&["check", "--profile", profile, "--list-codes"], b"");
        let listed = String::from_utf8(listed.stdout).unwrap();
        assert_eq!(
            listed.lines().next(),
            Some(format!("SYNTAX_ERROR\terror\t{spec}").as_str())
        );
    }
}

/// A document's syntax error has a rule of its own in the SARIF log, after
/// the catalogue's, and its results point at it; the rule cites the
/// document format's specification.
#[test]
fn document_syntax_error_has_a_sarif_rule() {
    let doc = b"<http://a/> <http://b/> <http://c d/> .\n<http://a/> \"x\" <http://c/> .\n";
    for format in ["ntriples", "turtle"] {
        let o = iri(&["check", "--format", "sarif", "--from", format, "-"], doc);
        assert_eq!(o.status.code(), Some(3));
        let log: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_valid_sarif(&log);
        assert_rule_indices(&log);
        let (index, rule) = rule(&log, "DOCUMENT_SYNTAX_ERROR");
        assert_eq!(index, Code::ALL.len());
        assert_eq!(rule["defaultConfiguration"]["level"], "error");
        let (spec, uri) = match format {
            "ntriples" => ("RDF 1.1 N-Triples", "https://www.w3.org/TR/n-triples/"),
            _ => ("RDF 1.1 Turtle", "https://www.w3.org/TR/turtle/"),
        };
        assert_eq!(rule["properties"]["spec"], spec);
        assert_eq!(rule["helpUri"], uri);
        let results = log["runs"][0]["results"].as_array().unwrap();
        let ids: Vec<&str> = results
            .iter()
            .map(|r| r["ruleId"].as_str().unwrap())
            .collect();
        assert_eq!(ids, ["SYNTAX_ERROR", "DOCUMENT_SYNTAX_ERROR"], "{format}");
        assert_eq!(results[1]["ruleIndex"], index);
    }
    // A log of lines has the catalogue's rules only: no document there.
    let o = iri(&["check", "--format", "sarif", "http://a/"], b"");
    let log: Value = serde_json::from_slice(&o.stdout).unwrap();
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    assert_eq!(rules.len(), Code::ALL.len());
}

/// `--explain` knows DOCUMENT_SYNTAX_ERROR (in any case, and as a
/// suggestion for a mistyped name); the severity options refuse it with a
/// reason; `--list-codes` lists the codes those options take, without it.
#[test]
fn explain_knows_document_syntax_error() {
    for name in ["DOCUMENT_SYNTAX_ERROR", "document_syntax_error"] {
        let o = iri(&["check", "--explain", name], b"");
        assert_eq!(o.status.code(), Some(0));
        let out = String::from_utf8(o.stdout).unwrap();
        assert!(
            out.starts_with(
                "DOCUMENT_SYNTAX_ERROR  (severity: error, always; the specification of the document's format)\n\n"
            ),
            "{out}"
        );
        assert!(out.contains("exits with status 3"), "{out}");
    }
    let o = iri(
        &[
            "check",
            "--from",
            "rdfxml",
            "--explain",
            "DOCUMENT_SYNTAX_ERROR",
        ],
        b"",
    );
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.contains("(severity: error, always; RDF 1.1 XML Syntax)"),
        "{out}"
    );
    let o = iri(&["check", "--explain", "DOCUMENT_SYNTAX_EROR"], b"");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("did you mean DOCUMENT_SYNTAX_ERROR?"), "{err}");
    for flag in ["--allow", "--warn", "--deny"] {
        let o = iri(&["check", flag, "DOCUMENT_SYNTAX_ERROR", "http://a/"], b"");
        assert_eq!(o.status.code(), Some(2), "{flag}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(err.contains("it has no severity to set"), "{err}");
        assert!(err.contains("--explain DOCUMENT_SYNTAX_ERROR"), "{err}");
    }
    let o = iri(&["check", "--list-codes"], b"");
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(out.lines().count(), Code::ALL.len());
    assert!(!out.contains("DOCUMENT_SYNTAX_ERROR"), "{out}");
}

/// The human summary counts in the singular what there is one of.
#[test]
fn one_syntax_error_is_singular() {
    let doc = b"<http://a/> <http://b/> <http://c/> .\n<http://a/> \"x\" <http://c/> .\n";
    let o = iri(&["check", "--from", "ntriples", "-"], doc);
    assert_eq!(o.status.code(), Some(3));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.ends_with("\n5 inputs: 5 valid, 0 invalid\n1 syntax error\n"),
        "{out}"
    );
    // One IRI and one syntax error: one input.
    let doc = b"<http://a/> \"x\" \"y\" .\n";
    let o = iri(&["check", "--from", "ntriples", "-"], doc);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.ends_with("\n1 input: 1 valid, 0 invalid\n1 syntax error\n"),
        "{out}"
    );
    let doc = b"<http://a/> \"x\" <http://c/> .\n<http://a/> \"y\" <http://c/> .\n";
    let o = iri(&["check", "--from", "ntriples", "-"], doc);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.ends_with("\n2 syntax errors\n"), "{out}");
}

/// The human verdict says what JSON's `valid: false` stands for: an input
/// that does not parse is `invalid`; one that parses with a finding of
/// error severity `has errors` (3987bis accepts `http://0x7f.1/` and
/// `http://host:99999/`); JSON keeps `valid` as it is. The summary counts
/// them apart.
#[test]
fn verdict_has_errors_when_it_parses() {
    let lines = b"http://0x7f.1/\nhttp://host:99999/\nhttp://[x\nhttp://a/\n";
    let o = iri(&["check"], lines);
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8(o.stdout).unwrap();
    // The lines `N: INPUT: VERDICT`.
    let verdicts: Vec<&str> = out
        .lines()
        .filter(|l| {
            l.split_once(": ")
                .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        })
        .collect();
    assert_eq!(
        verdicts,
        [
            "1: http://0x7f.1/: has errors",
            "2: http://host:99999/: has errors",
            "3: http://[x: invalid",
            "4: http://a/: valid",
        ]
    );
    assert!(
        out.contains("\n4 inputs: 1 valid, 2 with errors, 1 invalid\n"),
        "{out}"
    );
    let o = iri(&["check", "--json"], lines);
    let valid: Vec<bool> = common::json_lines(&o)
        .iter()
        .map(|l| l["valid"].as_bool().unwrap())
        .collect();
    assert_eq!(valid, [false, false, false, true]);
    // --only-invalid answers both kinds.
    let o = iri(&["check", "--only-invalid"], lines);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains("1: http://0x7f.1/: has errors\n"), "{out}");
    assert!(out.contains("3: http://[x: invalid\n"), "{out}");
    assert!(!out.contains("4: http://a/"), "{out}");
    // Coloured as invalid is.
    let o = iri(&["--color", "always", "check", "http://0x7f.1/"], b"");
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.starts_with("http://0x7f.1/: \x1b[31mhas errors\x1b[0m\n"),
        "{out:?}"
    );
    // Documents: the same words.
    let doc = b"<http://0x7f.1/> <http://b/> <http://c d/> .\n";
    let o = iri(&["check", "--from", "ntriples", "-"], doc);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains("-:1:2: http://0x7f.1/: has errors\n"), "{out}");
    assert!(out.contains("-:1:31: http://c d/: invalid\n"), "{out}");
}

/// An empty input is shown as `""`, in lines and in documents (a Turtle
/// `<>` is the document's base).
#[test]
fn empty_input_is_shown_as_empty_quotes() {
    let o = iri(&["check"], b"http://a/\n\n");
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains("\n2: \"\": valid\n"), "{out}");
    let o = iri(&["check", ""], b"");
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(out, "\"\": valid\n\n");
    let doc = b"<> <http://b/> <http://c/> .\n";
    let o = iri(
        &[
            "check",
            "--from",
            "turtle",
            "--base",
            "http://example.org/doc",
            "-",
        ],
        doc,
    );
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.starts_with("-:1:2: \"\" -> http://example.org/doc: valid\n"),
        "{out}"
    );
}
