//! `iri check --from`: documents as browsers and RDF parsers read them. An
//! HTML page whose late `<meta>` changes its encoding is read again from
//! the start (a file whatever its length; standard input within its first
//! MiB, past which a finding says so); one in the replacement encoding has
//! no IRI and a finding; N-Triples and N-Quads allow only absolute IRIs;
//! every IRI-valued attribute of RDF/XML is checked. Each output validates
//! against docs/schema/check.json.

use std::path::PathBuf;

use serde_json::Value;

use crate::common;

/// A file of its own for the test `name`.
fn file(name: &str, bytes: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("iri-as-read-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

fn validator() -> jsonschema::Validator {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/schema/check.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::options().build(&schema).unwrap()
}

/// The JSON lines of `iri check --json --from FORMAT [ARGS]` on `stdin`,
/// each valid under the schema, and the exit status.
fn check(format: &str, args: &[&str], stdin: &[u8]) -> (Vec<Value>, Option<i32>) {
    let mut all = vec!["check", "--json", "--from", format];
    all.extend_from_slice(args);
    let o = common::run_iri(&all, stdin);
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let lines = common::json_lines(&o);
    let v = validator();
    for line in &lines {
        assert!(v.is_valid(line), "{line}");
    }
    (lines, o.status.code())
}

/// `input encoding CODES` per line.
fn summary(lines: &[Value]) -> Vec<String> {
    lines
        .iter()
        .map(|l| {
            let codes: Vec<&str> = l["violations"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v["code"].as_str().unwrap())
                .collect();
            format!(
                "{} {} {}",
                l["input"].as_str().unwrap(),
                l["encoding"].as_str().unwrap(),
                codes.join(",")
            )
            .trim_end()
            .to_owned()
        })
        .collect()
}

/// A link in windows-1251 (п), a comment of `filler` bytes, the `<meta>`,
/// another link (ж).
fn late_meta(filler: usize) -> Vec<u8> {
    let mut doc = b"<a href=\"http://e/\xef\"><!--".to_vec();
    doc.resize(doc.len() + filler, b'x');
    doc.extend_from_slice(b"--><meta charset=windows-1251><a href=\"http://e/\xe6\">");
    doc
}

#[test]
fn a_late_meta_reads_the_page_again() {
    let expected = ["http://e/п windows-1251", "http://e/ж windows-1251"];
    let doc = late_meta(3000);
    let path = file("late.html", &doc);
    let (lines, status) = check("html", &[path.to_str().unwrap()], b"");
    assert_eq!(summary(&lines), expected);
    assert_eq!(status, Some(0));
    let (lines, status) = check("html", &[], &doc);
    assert_eq!(summary(&lines), expected);
    assert_eq!(status, Some(0));
    // Past the first MiB, a file is still read again; standard input says
    // it cannot be.
    let doc = late_meta(1024 * 1024 + 10);
    let path = file("late-big.html", &doc);
    let (lines, _) = check("html", &[path.to_str().unwrap()], b"");
    assert_eq!(summary(&lines), expected);
    let (lines, status) = check("html", &[], &doc);
    let s = summary(&lines);
    assert_eq!(s.len(), 3, "{s:?}");
    assert!(s[1].ends_with("DOCUMENT_ENCODING_NOT_REREAD"), "{s:?}");
    assert_eq!(lines[1]["violations"][0]["severity"], "warning");
    assert_eq!(status, Some(0));
    std::fs::remove_file(path).ok();
}

#[test]
fn a_replacement_encoding_has_no_iri() {
    let doc = b"<meta charset=\"hz-gb-2312\"><a href=\"http://e/a b\">x</a>";
    let (lines, status) = check("html", &[], doc);
    assert_eq!(
        summary(&lines),
        [" replacement DOCUMENT_REPLACEMENT_ENCODING"]
    );
    assert_eq!(status, Some(1));
    let (lines, status) = check("html", &["--allow", "DOCUMENT_REPLACEMENT_ENCODING"], doc);
    assert_eq!(lines[0]["valid"], true);
    assert_eq!(status, Some(0));
}

#[test]
fn a_document_finding_is_said_once_in_the_human_report() {
    let doc = b"<meta charset=\"hz-gb-2312\"><a href=\"http://e/a b\">x</a>";
    let o = common::run_iri(&["check", "--from", "html"], doc);
    let out = String::from_utf8(o.stdout).unwrap();
    // No IRI to show, nor an empty window under one: the file, the place,
    // the code and what it means.
    assert!(
        out.starts_with("-:1:1: error[DOCUMENT_REPLACEMENT_ENCODING] in the html document: "),
        "{out}"
    );
    assert_eq!(
        out.matches("DOCUMENT_REPLACEMENT_ENCODING").count(),
        1,
        "{out}"
    );
    assert!(!out.contains("\"\""), "{out}");
    assert!(!out.contains("  |"), "{out}");
    assert_eq!(o.status.code(), Some(1));
    let o = common::run_iri(
        &[
            "check",
            "--from",
            "html",
            "--warn",
            "DOCUMENT_REPLACEMENT_ENCODING",
        ],
        doc,
    );
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.starts_with("-:1:1: warning[DOCUMENT_REPLACEMENT_ENCODING]"),
        "{out}"
    );
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn relative_iris_in_ntriples_and_nquads() {
    let nt = b"<http://e/s> <p> <http://e/o> .\n";
    let path = file("rel.nt", nt);
    let (lines, status) = check("ntriples", &[path.to_str().unwrap()], b"");
    assert_eq!(
        summary(&lines),
        [
            "http://e/s UTF-8",
            "p UTF-8 RDF_RELATIVE_IRI",
            "http://e/o UTF-8"
        ]
    );
    // Not resolved against the file's location.
    assert!(lines[1].get("resolved").is_none(), "{}", lines[1]);
    assert_eq!(status, Some(1));
    let (lines, status) = check(
        "nquads",
        &[],
        b"<http://e/s> <http://e/p> <http://e/o> <g> .\n",
    );
    assert_eq!(summary(&lines)[3], "g UTF-8 RDF_RELATIVE_IRI");
    assert_eq!(status, Some(1));
    // Turtle resolves.
    let (lines, status) = check(
        "turtle",
        &["--base", "http://e/doc"],
        b"<http://e/s> <p> <http://e/o> .\n",
    );
    assert_eq!(lines[1]["resolved"], "http://e/p");
    assert_eq!(status, Some(0));
    std::fs::remove_file(path).ok();
}

#[test]
fn rdf_type_attribute_is_checked() {
    let doc = br#"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="http://example.org/r" rdf:type="http://example.org/a b"/></rdf:RDF>"#;
    let (lines, status) = check("rdfxml", &[], doc);
    let bad: Vec<&Value> = lines.iter().filter(|l| l["valid"] == false).collect();
    assert_eq!(bad.len(), 1, "{lines:?}");
    assert_eq!(bad[0]["input"], "http://example.org/a b");
    assert_eq!(bad[0]["violations"][0]["code"], "SYNTAX_ERROR");
    assert_eq!(status, Some(1));
    // The human output names the attribute's place and exits 1 too.
    let o = common::run_iri(&["check", "--from", "rdfxml"], doc);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("-:1:126: http://example.org/a b: invalid")
    );
}
