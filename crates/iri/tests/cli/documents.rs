//! `iri check --from FORMAT FILE...`: the IRIs inside documents (fixtures
//! in tests/data/documents/), each with its line and column in characters;
//! syntax errors reported with their positions, checking going on after
//! them; several files, standard input, JSON schema and SARIF.

use crate::common;
use std::process::Output;

use serde_json::Value;

fn iri(args: &[&str], stdin: &[u8]) -> Output {
    common::run_iri(args, stdin)
}

fn fixture(name: &str) -> String {
    format!(
        "{}/tests/data/documents/{name}",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../..")
    )
}

/// The JSON Lines of `iri check --json --from FORMAT FILE --base BASE`
/// and its exit status.
fn run(format: &str, file: &str, extra: &[&str]) -> (Vec<Value>, Option<i32>) {
    let path = fixture(file);
    let mut args = vec!["check", "--json", "--from", format, &path];
    args.extend_from_slice(extra);
    let o = iri(&args, b"");
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    (common::json_lines(&o), o.status.code())
}

/// One line per result: `line:column "input" -> "resolved" CODES`, or
/// `line:column syntax error: message`.
fn render(lines: &[Value]) -> String {
    let mut out = String::new();
    for l in lines {
        let place = format!("{}:{}", l["line"], l["column"]);
        if let Some(e) = l.get("syntax_error") {
            out.push_str(&format!("{place} syntax error: {}\n", e["message"]));
            continue;
        }
        let resolved = l
            .get("resolved")
            .map(|r| format!(" -> {r}"))
            .unwrap_or_default();
        let codes: Vec<&str> = l["violations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["code"].as_str().unwrap())
            .collect();
        let verdict = if l["valid"] == true {
            "valid"
        } else {
            "INVALID"
        };
        let codes = if codes.is_empty() {
            String::new()
        } else {
            format!(" {}", codes.join(","))
        };
        out.push_str(&format!(
            "{place} {}{resolved} {verdict}{codes}\n",
            l["input"]
        ));
    }
    out
}

/// The (line, column) of the result whose input is `input`.
fn position(lines: &[Value], input: &str) -> (u64, u64) {
    let l = lines
        .iter()
        .find(|l| l["input"] == input)
        .unwrap_or_else(|| panic!("no {input:?} in {}", render(lines)));
    (l["line"].as_u64().unwrap(), l["column"].as_u64().unwrap())
}

/// The first line that reports a syntax error of the document.
fn syntax_error(lines: &[Value]) -> &Value {
    lines
        .iter()
        .find(|l| l.get("syntax_error").is_some())
        .unwrap_or_else(|| panic!("no syntax error in {}", render(lines)))
}

const BASE: &[&str] = &["--base", "http://base.example/doc"];

#[test]
fn every_format_with_positions() {
    let settings = common::settings();
    for (format, file) in [
        ("ntriples", "doc.nt"),
        ("nquads", "doc.nq"),
        ("turtle", "doc.ttl"),
        ("trig", "doc.trig"),
        ("rdfxml", "doc.rdf"),
        ("html", "doc.html"),
        ("xml", "doc.xml"),
    ] {
        let (lines, _) = run(format, file, BASE);
        settings.bind(|| insta::assert_snapshot!(format!("positions_{format}"), render(&lines)));
    }
}

#[test]
fn columns_count_characters_not_bytes() {
    // `été` is 3 characters and 5 bytes before the predicate.
    let (lines, _) = run("ntriples", "doc.nt", &[]);
    let predicates: Vec<(u64, u64)> = lines
        .iter()
        .filter(|l| l["input"] == "http://example.org/p")
        .map(|l| (l["line"].as_u64().unwrap(), l["column"].as_u64().unwrap()))
        .collect();
    assert_eq!(predicates[0], (1, 25));
    assert_eq!(predicates[1], (2, 27));
    // After a literal with non-ASCII characters, in N-Quads.
    let (lines, _) = run("nquads", "doc.nq", &[]);
    assert_eq!(position(&lines, "http://example.org/g"), (1, 56));
    // A prefixed name after non-ASCII characters, in Turtle.
    let (lines, _) = run("turtle", "doc.ttl", &[]);
    assert_eq!(position(&lines, "ex:see"), (4, 27));
    // HTML: after "Voilà ", in an unquoted attribute.
    let (lines, _) = run("html", "doc.html", &[]);
    assert_eq!(position(&lines, "http://example.org/a%7e"), (5, 52));
    // XML: an attribute of an element named `ça`.
    let (lines, _) = run("xml", "doc.xml", &[]);
    assert_eq!(position(&lines, "http://example.org/p%7e"), (6, 16));
    // RDF/XML: after an element named `ex:título` and its content.
    let (lines, _) = run("rdfxml", "doc.rdf", &[]);
    assert_eq!(position(&lines, "http://example.org/a b"), (6, 52));
}

#[test]
fn bad_iris_are_reported_not_parse_stops() {
    for (format, file, bad) in [
        ("ntriples", "doc.nt", "http://example.org/a b"),
        ("trig", "doc.trig", "http://example.org/a b"),
        ("turtle", "doc.ttl", "http://[bad/"),
        ("rdfxml", "doc.rdf", "http://example.org/a b"),
        ("html", "doc.html", "http://example.org/x y"),
        ("xml", "doc.xml", "http://example.org/a b"),
    ] {
        let (lines, status) = run(format, file, &[]);
        let found = lines.iter().find(|l| l["input"] == bad).expect(bad);
        assert_eq!(found["valid"], false, "{format}");
        assert_eq!(found["violations"][0]["code"], "SYNTAX_ERROR", "{format}");
        assert!(matches!(status, Some(1 | 3)), "{format}: {status:?}");
    }
}

#[test]
fn relative_references_are_resolved_against_the_declared_base() {
    // @base, and prefixed names against @prefix.
    let (lines, _) = run("turtle", "doc.ttl", BASE);
    let resolved = |input: &str| -> String {
        let l = lines.iter().find(|l| l["input"] == input).unwrap();
        l["resolved"].as_str().unwrap().to_owned()
    };
    assert_eq!(resolved("doc"), "http://example.org/base/doc");
    assert_eq!(resolved("../other"), "http://example.org/other");
    assert_eq!(resolved("ex:title"), "http://example.org/ns#title");
    assert_eq!(resolved("é:x"), "http://example.org/é/x");
    // An absolute IRI has no `resolved`.
    let absolute = lines
        .iter()
        .find(|l| l["input"] == "http://example.org/%7e")
        .unwrap();
    assert!(absolute.get("resolved").is_none());
    // BASE in TriG.
    let (lines, _) = run("trig", "doc.trig", BASE);
    assert_eq!(lines[2]["resolved"], "http://example.org/g1");
    // xml:base, on the element itself too, in XML and RDF/XML.
    let (lines, _) = run("xml", "doc.xml", BASE);
    let l = lines
        .iter()
        .find(|l| l["input"] == "schemas/root.xsd")
        .unwrap();
    assert_eq!(l["resolved"], "http://example.org/base/schemas/root.xsd");
    let (lines, _) = run("rdfxml", "doc.rdf", BASE);
    let l = lines.iter().find(|l| l["input"] == "doc").unwrap();
    assert_eq!(l["resolved"], "http://example.org/base/doc");
    let l = lines.iter().find(|l| l["input"] == "t1").unwrap();
    assert_eq!(l["resolved"], "http://example.org/base/#t1");
    // <base href> in HTML, from there on; before it, the --base.
    let (lines, _) = run("html", "doc.html", BASE);
    assert_eq!(lines[0]["resolved"], "http://base.example/app.appcache");
    let l = lines.iter().find(|l| l["input"] == "page.html").unwrap();
    assert_eq!(l["resolved"], "http://example.org/dir/page.html");
    // Character references decoded.
    let l = lines
        .iter()
        .find(|l| l["input"] == "/submit?a=1&b=2")
        .unwrap();
    assert_eq!(l["resolved"], "http://example.org/submit?a=1&b=2");
}

#[test]
fn the_default_base_is_the_file() {
    let (lines, _) = run("turtle", "doc.ttl", &[]);
    // The document's @base comes first; a file without one resolves
    // against its own file: IRI.
    assert_eq!(lines[0]["input"], "http://example.org/base/");
    let (lines, _) = run("html", "doc.html", &[]);
    let resolved = lines[0]["resolved"].as_str().unwrap();
    assert!(resolved.starts_with("file:///"), "{resolved}");
    assert!(
        resolved.ends_with("/tests/data/documents/app.appcache"),
        "{resolved}"
    );
}

#[test]
fn syntax_errors_have_positions_and_checking_goes_on() {
    let (lines, status) = run("turtle", "doc.ttl", &[]);
    assert_eq!(status, Some(3));
    let errors: Vec<&Value> = lines
        .iter()
        .filter(|l| l.get("syntax_error").is_some())
        .collect();
    assert!(!errors.is_empty());
    let first = errors[0];
    assert_eq!(
        (first["line"].as_u64(), first["column"].as_u64()),
        (Some(9), Some(13))
    );
    assert_eq!(first["syntax_error"]["format"], "turtle");
    assert_eq!(first["input"], "");
    assert_eq!(first["valid"], false);
    // The statements after it are checked.
    assert_eq!(position(&lines, "ex:after"), (10, 1));
    assert_eq!(position(&lines, "é:x"), (12, 1));
    // N-Triples: an object missing on line 4, line 5 checked.
    let (lines, status) = run("ntriples", "doc.nt", &[]);
    assert_eq!(status, Some(3));
    let e = syntax_error(&lines);
    assert_eq!(
        (e["line"].as_u64(), e["column"].as_u64()),
        (Some(4), Some(47))
    );
    assert_eq!(position(&lines, "http://example.org/%7e"), (5, 48));
    // XML: a mismatched end tag, and the element after it checked.
    let (lines, status) = run("xml", "doc.xml", &[]);
    assert_eq!(status, Some(3));
    let e = syntax_error(&lines);
    assert_eq!(
        (e["line"].as_u64(), e["column"].as_u64()),
        (Some(7), Some(11))
    );
    assert_eq!(position(&lines, "http://example.org/a b"), (8, 19));
    // RDF/XML: oxrdfxml's error, where it stopped.
    let path = fixture("bad.rdf");
    let o = iri(&["check", "--json", "--from", "rdfxml", &path], b"");
    assert_eq!(o.status.code(), Some(3));
    let lines = common::json_lines(&o);
    let e = syntax_error(&lines);
    assert_eq!(e["line"], 3, "{}", render(&lines));
    assert_eq!(position(&lines, "http://example.org/after"), (4, 40));
}

#[test]
fn exit_status() {
    // Only valid IRIs: 0; an invalid one: 1; a syntax error: 3.
    let ok = b"<http://a.example/s> <http://a.example/p> <http://a.example/o> .\n";
    let o = iri(&["check", "--from", "ntriples", "-"], ok);
    assert_eq!(o.status.code(), Some(0));
    let bad = b"<http://a.example/s> <http://a.example/p> <http://a b> .\n";
    let o = iri(&["check", "--from", "ntriples", "-"], bad);
    assert_eq!(o.status.code(), Some(1));
    let broken = b"<http://a.example/s> <http://a.example/p> .\n";
    let o = iri(&["check", "--from", "ntriples", "-"], broken);
    assert_eq!(o.status.code(), Some(3));
    // A missing file: 2.
    let o = iri(&["check", "--from", "ntriples", "/nonexistent/x.nt"], b"");
    assert_eq!(o.status.code(), Some(2));
    // --base needs --from; --from and --file exclude each other.
    let o = iri(&["check", "--base", "http://a/", "x"], b"");
    assert_eq!(o.status.code(), Some(2));
    let o = iri(&["check", "--from", "html", "--file", "x"], b"");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn several_files_and_standard_input() {
    let (a, b) = (fixture("doc.nt"), fixture("other.nt"));
    let o = iri(
        &["check", "--json", "--from", "ntriples", &a, "-", &b],
        b"<http://stdin.example/s> <http://stdin.example/p> \"o\" .\n",
    );
    let lines = common::json_lines(&o);
    let files: Vec<&str> = lines.iter().map(|l| l["file"].as_str().unwrap()).collect();
    assert_eq!(files.first(), Some(&a.as_str()));
    assert_eq!(files.last(), Some(&b.as_str()));
    let stdin: Vec<&Value> = lines.iter().filter(|l| l["file"] == "-").collect();
    assert_eq!(stdin.len(), 2);
    assert_eq!(stdin[0]["input"], "http://stdin.example/s");
    assert_eq!(
        (stdin[1]["line"].as_u64(), stdin[1]["column"].as_u64()),
        (Some(1), Some(27))
    );
    // One file: no `file` key.
    let (lines, _) = run("ntriples", "other.nt", &[]);
    assert!(lines.iter().all(|l| l.get("file").is_none()));
    // Standard input gives what the file gives (with the same base).
    let text = std::fs::read(fixture("doc.ttl")).unwrap();
    let mut args = vec!["check", "--json", "--from", "turtle", "-"];
    args.extend_from_slice(BASE);
    let from_stdin = common::json_lines(&iri(&args, &text));
    let (from_file, _) = run("turtle", "doc.ttl", BASE);
    assert_eq!(from_stdin, from_file);
}

#[test]
fn only_invalid_and_human_output() {
    let path = fixture("doc.ttl");
    let o = iri(&["check", "--from", "turtle", "--only-invalid", &path], b"");
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains(&format!("{path}:10:16: http://[bad/: invalid")),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "{path}:9:13: syntax error in the turtle document: A dot is expected"
        )),
        "{text}"
    );
    assert!(!text.contains(": valid"), "{text}");
    assert!(text.contains("2 syntax errors"), "{text}");
}

#[test]
fn output_matches_the_check_schema() {
    let path = format!(
        "{}/docs/schema/check.json",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../..")
    );
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let v = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    let (a, b) = (fixture("doc.nt"), fixture("other.nt"));
    let several = common::json_lines(&iri(
        &["check", "--json", "--from", "ntriples", &a, &b],
        b"",
    ));
    let mut all = several;
    for (format, file) in [
        ("turtle", "doc.ttl"),
        ("rdfxml", "bad.rdf"),
        ("html", "doc.html"),
        ("xml", "doc.xml"),
    ] {
        all.extend(run(format, file, &[]).0);
    }
    for line in &all {
        let errors: Vec<String> = v.iter_errors(line).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{line}: {errors:#?}");
    }
    // And it rejects a syntax error that claims to be valid.
    let mut wrong = syntax_error(&all).clone();
    wrong["valid"] = Value::Bool(true);
    assert!(!v.is_valid(&wrong));
}

#[test]
fn sarif_regions_are_the_positions() {
    let (a, b) = (fixture("doc.nt"), fixture("other.nt"));
    let o = iri(
        &["check", "--format", "sarif", "--from", "ntriples", &a, &b],
        b"",
    );
    assert_eq!(o.status.code(), Some(3));
    let log: Value = serde_json::from_slice(&o.stdout).unwrap();
    let schema_path = format!(
        "{}/tests/data/sarif/sarif-schema-2.1.0.json",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../..")
    );
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    let v = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    let errors: Vec<String> = v.iter_errors(&log).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let found: Vec<(String, String, u64, u64)> = log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let loc = &r["locations"][0]["physicalLocation"];
            let uri = loc["artifactLocation"]["uri"].as_str().unwrap();
            (
                r["ruleId"].as_str().unwrap().to_owned(),
                uri.rsplit('/').next().unwrap().to_owned(),
                loc["region"]["startLine"].as_u64().unwrap(),
                loc["region"]["startColumn"].as_u64().unwrap(),
            )
        })
        .collect();
    let s = |r: &str, f: &str, l, c| (r.to_owned(), f.to_owned(), l, c);
    assert_eq!(
        found,
        [
            // The space, 20 characters into the IRI at column 50.
            s("SYNTAX_ERROR", "doc.nt", 2, 70),
            s("DOCUMENT_SYNTAX_ERROR", "doc.nt", 4, 47),
            s("PERCENT_ENCODED_UNRESERVED", "doc.nt", 5, 67),
            s("PERCENT_ENCODING_LOWERCASE", "doc.nt", 5, 67),
            s("UPPERCASE_SCHEME", "other.nt", 2, 2),
        ]
    );
}

/// Positions stay exact across the reader's 64 KiB chunks.
#[test]
fn positions_across_chunks() {
    let mut doc = String::new();
    for i in 0..4000 {
        doc.push_str(&format!(
            "<http://example.org/s{i}> <http://example.org/p> \"ça {i}\" .\n"
        ));
    }
    doc.push_str("<http://example.org/end> <http://example.org/p> <http://example.org/a b> .\n");
    let o = iri(
        &[
            "check",
            "--json",
            "--from",
            "ntriples",
            "--only-invalid",
            "-",
        ],
        doc.as_bytes(),
    );
    let lines = common::json_lines(&o);
    assert_eq!(lines.len(), 1, "{}", render(&lines));
    assert_eq!(
        (lines[0]["line"].as_u64(), lines[0]["column"].as_u64()),
        (Some(4001), Some(50))
    );
    // Turtle's lexer too, with prefixed names.
    let mut doc = String::from("@prefix ex: <http://example.org/> .\n");
    for i in 0..4000 {
        doc.push_str(&format!("ex:s{i} ex:p \"é\" , ex:o{i} .\n"));
    }
    doc.push_str("ex:end ex:p <http://[x/> .\n");
    let o = iri(
        &["check", "--json", "--from", "turtle", "--only-invalid", "-"],
        doc.as_bytes(),
    );
    let lines = common::json_lines(&o);
    assert_eq!(lines.len(), 1, "{}", render(&lines));
    assert_eq!(
        (lines[0]["line"].as_u64(), lines[0]["column"].as_u64()),
        (Some(4002), Some(14))
    );
    let o = iri(
        &["check", "--json", "--from", "turtle", "-"],
        doc.as_bytes(),
    );
    assert_eq!(common::json_lines(&o).len(), 1 + 4000 * 3 + 3);
}

/// A byte order mark takes no column, in every format.
#[test]
fn a_byte_order_mark_takes_no_column() {
    for (format, file) in [
        ("ntriples", "doc.nt"),
        ("turtle", "doc.ttl"),
        ("rdfxml", "bad.rdf"),
        ("html", "doc.html"),
        ("xml", "doc.xml"),
    ] {
        let text = std::fs::read(fixture(file)).unwrap();
        let mut bom = b"\xEF\xBB\xBF".to_vec();
        bom.extend_from_slice(&text);
        let mut args = vec!["check", "--json", "--from", format, "-"];
        args.extend_from_slice(BASE);
        let plain = common::json_lines(&iri(&args, &text));
        let marked = common::json_lines(&iri(&args, &bom));
        // The same results, positions and all; syntax errors' byte offsets
        // count the mark.
        let strip = |lines: Vec<Value>| -> Vec<Value> {
            lines
                .into_iter()
                .map(|mut l| {
                    if let Some(e) = l.get_mut("syntax_error") {
                        e.as_object_mut().unwrap().remove("byte");
                    }
                    l
                })
                .collect()
        };
        assert_eq!(strip(marked), strip(plain), "{format}");
    }
}
