//! `iri check --from` on hostile documents, one regression test per
//! attack: memory within `ulimit -v` budgets (a run that
//! needs more fails to allocate, and so fails the test), time within
//! generous process timeouts (the quadratic versions took minutes at these
//! sizes in a debug build), and the answers right.

use crate::common;
use std::io::Write;

use std::process::{Command, Output, Stdio};

use std::time::Duration;

use serde_json::Value;

/// Runs `iri` with at most `kib` KiB of address space, killed after
/// `seconds` (then the test fails: the run was not linear).
fn iri_bounded(kib: usize, seconds: u64, args: &[&str], stdin: &[u8]) -> Output {
    common::run_iri_within_for(kib, Some(seconds), args, stdin)
}

fn lines(o: &Output) -> Vec<Value> {
    common::json_lines(o)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A file of its own for the test `name`.
fn scratch(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path =
        std::env::temp_dir().join(format!("iribis-hostile-docs-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

const MIB: usize = 1024;

/// Item 2: nested internal entities ("billion laughs") in RDF/XML took
/// 6.2 GB and exited 0. The DTD's entities are expanded within 1 MiB; past
/// that none is, it is a document error, and oxrdfxml (which expands
/// without bound) is not given the document. XML alike.
#[test]
fn billion_laughs_are_not_expanded() {
    let entities: String = (1..10)
        .map(|i| format!("<!ENTITY l{i} \"{}\">", format!("&l{};", i - 1).repeat(10)))
        .collect();
    let doc = format!(
        "<!DOCTYPE rdf:RDF [<!ENTITY l0 \"lol\">{entities}]><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description rdf:about=\"http://e/&l8;\"/></rdf:RDF>"
    );
    for format in ["rdfxml", "xml"] {
        let o = iri_bounded(
            256 * MIB,
            60,
            &["check", "--json", "--from", format, "-"],
            doc.as_bytes(),
        );
        assert_eq!(o.status.code(), Some(3), "{format}: {}", stderr(&o));
        let lines = lines(&o);
        let error = lines
            .iter()
            .find(|l| l.get("syntax_error").is_some())
            .expect("a document error");
        let message = error["syntax_error"]["message"].as_str().unwrap();
        assert!(message.contains("billion laughs"), "{message}");
        if format == "rdfxml" {
            // The IRI is reported as written, its reference unexpanded.
            assert!(
                lines.iter().any(|l| l["input"] == "http://e/&l8;"),
                "{lines:?}"
            );
        }
    }
    // Entities within the limit are expanded (and checked).
    let doc = "<!DOCTYPE r [<!ENTITY e \"http://example.org/\">]><r xmlns:a=\"&e;a\"/>";
    let o = iri_bounded(
        256 * MIB,
        60,
        &["check", "--json", "--from", "xml", "-"],
        doc.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(lines(&o)[0]["input"], "http://example.org/a");
}

/// Item 5: every open element kept its own copy of the base (984 MB for a
/// 100,000-character base over 10,000 nested elements; 443 MB for a chain
/// of 20,000 relative bases). Now one base, and an undo record only for an
/// element with its own xml:base.
#[test]
fn xml_bases_are_shared() {
    let long = format!(
        "<r xml:base=\"http://e/{}\">{}<x xmlns:a=\"rel\" xsi:noNamespaceSchemaLocation=\"s.xsd\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"/>{}</r>",
        "x".repeat(100_000),
        "<a>".repeat(10_000),
        "</a>".repeat(10_000)
    );
    for format in ["xml", "rdfxml"] {
        let o = iri_bounded(
            192 * MIB,
            120,
            &["check", "--json", "--only-invalid", "--from", format, "-"],
            long.as_bytes(),
        );
        assert!(
            o.status.success() || o.status.code() == Some(1) || o.status.code() == Some(3),
            "{format}: {}",
            stderr(&o)
        );
        assert!(stderr(&o).is_empty(), "{format}: {}", stderr(&o));
    }
    let o = iri_bounded(
        192 * MIB,
        120,
        &["check", "--json", "--from", "xml", "-"],
        long.as_bytes(),
    );
    let lines = lines(&o);
    let schema = lines.iter().find(|l| l["input"] == "s.xsd").unwrap();
    // The base's last segment is replaced (RFC 3986 §5.2.3).
    assert_eq!(schema["resolved"], "http://e/s.xsd");
    // A chain of relative bases, 5,000 deep (20,000 take
    // seconds in a debug build: each base is resolved against its
    // parent's): each element's base is its parent's plus "a/", and the
    // bases come back at each end.
    let depth = 5_000;
    let chain = format!(
        "<r xml:base=\"http://e/\">{}</r><!-- -->",
        "<a xml:base=\"a/\">".repeat(depth) + &"</a>".repeat(depth)
    );
    let o = iri_bounded(
        192 * MIB,
        120,
        &["check", "--json", "--only-invalid", "--from", "xml", "-"],
        chain.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let shallow = format!(
        "<r xml:base=\"http://e/\">{}<b xml:base=\"c\"/>{}<d xml:base=\"z\"/></r>",
        "<a xml:base=\"a/\">".repeat(3),
        "</a>".repeat(3)
    );
    let o = iri_bounded(
        192 * MIB,
        60,
        &["check", "--json", "--from", "xml", "-"],
        shallow.as_bytes(),
    );
    let lines = common::json_lines(&o);
    let resolved: Vec<&str> = lines
        .iter()
        .filter_map(|l| l["resolved"].as_str())
        .collect();
    assert_eq!(
        resolved,
        [
            "http://e/a/",
            "http://e/a/a/",
            "http://e/a/a/a/",
            "http://e/a/a/a/c",
            "http://e/z"
        ]
    );
}

/// Item 6: 50 MB of unclosed `<b>` took 1.7 GB (lol_html's stack of open
/// elements, and a position tracker that only moved on text). lol_html is
/// bounded (16 MiB), its overrun a document error.
#[test]
fn html_memory_is_bounded() {
    let doc = "<b>".repeat(4 * 1024 * 1024);
    let o = iri_bounded(
        256 * MIB,
        120,
        &["check", "--json", "--from", "html", "-"],
        doc.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let lines = lines(&o);
    let message = lines[0]["syntax_error"]["message"].as_str().unwrap();
    assert!(message.contains("16 MiB"), "{message}");
    // Many elements, each closed, and no text: read to the end.
    let doc = "<b></b>".repeat(1024 * 1024) + "<a href=\"http://e/a b\">";
    let o = iri_bounded(
        256 * MIB,
        120,
        &["check", "--json", "--from", "html", "-"],
        doc.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(common::json_lines(&o).len(), 1);
}

/// Item 7: time grew with the square of a token's length (16 MB on one
/// line: 88 s before, in a release build), in oxttl's lexer (given the
/// token again at each 64 KiB chunk) and in ours (which scanned it again).
#[test]
fn long_tokens_take_linear_time() {
    let n = 16_000_000;
    let cases = [
        ("name", "a".repeat(n) + "\n"),
        (
            "iri",
            format!("<http://e/{}> <http://e/p> <http://e/o> .\n", "a".repeat(n)),
        ),
        (
            "string",
            format!("<http://e/s> <http://e/p> \"{}\" .\n", "a".repeat(n)),
        ),
        (
            "comment",
            format!(
                "#{}\n<http://e/s> <http://e/p> <http://e/o> .\n",
                "a".repeat(n)
            ),
        ),
        // A stray quote: oxttl reads its string on to the next quote,
        // across lines; the readers give up on it as on a stray '<'.
        (
            "broken string",
            format!(
                "\"\n{}",
                "<http://e/s> <http://e/p> <http://e/o> .\n".repeat(n / 40)
            ),
        ),
    ];
    for (what, doc) in cases {
        let o = iri_bounded(
            512 * MIB,
            120,
            &[
                "check",
                "--json",
                "--only-invalid",
                "--from",
                "ntriples",
                "-",
            ],
            doc.as_bytes(),
        );
        assert!(
            matches!(o.status.code(), Some(0 | 3)),
            "{what}: {:?} {}",
            o.status,
            stderr(&o)
        );
    }
}

/// Item 8: a 1 MB prefix used 3,000 times took 2.96 GB: a chunk's findings
/// were held with their IRIs. The IRIs are made as each item is given.
#[test]
fn turtle_findings_are_streamed() {
    // 300 uses (each IRI is checked, a million characters each in a debug
    // build): held, they took 300 MB.
    let mut doc = format!("@prefix p: <http://e/{}> .\n", "x".repeat(1_000_000));
    for _ in 0..100 {
        doc.push_str("p:a p:b p:c .\n");
    }
    let o = iri_bounded(
        128 * MIB,
        120,
        &["check", "--json", "--only-invalid", "--from", "turtle", "-"],
        doc.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Relative references against a long base, likewise.
    let mut doc = format!("@base <http://e/{}> .\n", "x".repeat(1_000_000));
    for _ in 0..100 {
        doc.push_str("<a> <b> <c> .\n");
    }
    let o = iri_bounded(
        128 * MIB,
        120,
        &["check", "--json", "--only-invalid", "--from", "turtle", "-"],
        doc.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Item 9: 60,000 namespace declarations on one element took 7 s
/// (quick-xml's resolver searched them one by one for each attribute).
#[test]
fn namespace_lookup_is_constant() {
    let decls: Vec<String> = (0..60_000)
        .map(|i| format!("xmlns:p{i}=\"http://e/{i}\" p{i}:a=\"x\""))
        .collect();
    let doc = format!(
        "<r xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" {}/>",
        decls.join(" ")
    );
    for format in ["xml", "rdfxml"] {
        let o = iri_bounded(
            512 * MIB,
            120,
            &["check", "--json", "--only-invalid", "--from", format, "-"],
            doc.as_bytes(),
        );
        assert!(
            matches!(o.status.code(), Some(0 | 3)),
            "{format}: {}",
            stderr(&o)
        );
    }
}

/// Item 11: a UTF-16 document gave no findings and exit 0. It is decoded
/// now; a document in an encoding no decoder knows is a document error,
/// one that cannot be read an I/O error: never 0 with nothing.
#[test]
fn no_silent_exit_on_a_document_not_read() {
    let html = "<a href=\"http://e/a b\">x</a>";
    let mut utf16: Vec<u8> = vec![0xFF, 0xFE];
    utf16.extend(html.encode_utf16().flat_map(u16::to_le_bytes));
    let o = common::run_iri(&["check", "--json", "--from", "html", "-"], &utf16);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let l = &lines(&o)[0];
    assert_eq!(l["input"], "http://e/a b");
    assert_eq!(l["encoding"], "UTF-16LE");
    let xml = b"<?xml version=\"1.0\" encoding=\"EBCDIC-FOO\"?><r xmlns=\"http://e/ns\"/>";
    let o = common::run_iri(&["check", "--json", "--from", "xml", "-"], xml);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        lines(&o)[0]["syntax_error"]["message"]
            .as_str()
            .unwrap()
            .contains("EBCDIC-FOO")
    );
    // An RDF document with a UTF-16 byte order mark.
    let o = common::run_iri(
        &["check", "--json", "--from", "ntriples", "-"],
        &[0xFF, 0xFE, b'<', 0],
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    // A directory given as a document.
    let dir = std::env::temp_dir();
    let o = common::run_iri(
        &["check", "--json", "--from", "html", dir.to_str().unwrap()],
        b"",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(!stderr(&o).is_empty());
}

/// Item 12: a SARIF log was cut short (its head without its tail) on an
/// I/O error, losing the findings before it. The log is always whole, the
/// error a notification of an unsuccessful invocation, and the exit 2.
#[test]
fn sarif_is_whole_on_io_errors() {
    let one = scratch("one.nt", b"<http://e/s> <http://e/p> <http://e/a b> .\n");
    let dir = std::env::temp_dir();
    for missing in ["/nonexistent/missing.nt", dir.to_str().unwrap()] {
        let o = common::run_iri(
            &[
                "check",
                "--format",
                "sarif",
                "--from",
                "ntriples",
                one.to_str().unwrap(),
                missing,
            ],
            b"",
        );
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let log: Value = serde_json::from_slice(&o.stdout).expect("a whole SARIF log");
        let run = &log["runs"][0];
        assert_eq!(run["results"].as_array().unwrap().len(), 1);
        let invocation = &run["invocations"][0];
        assert_eq!(invocation["executionSuccessful"], false);
        let note = invocation["toolExecutionNotifications"][0]["message"]["text"]
            .as_str()
            .unwrap();
        assert!(note.contains(missing), "{note}");
        assert_eq!(run["artifacts"][0]["encoding"], "UTF-8");
        let schema_path = format!(
            "{}/tests/data/sarif/sarif-schema-2.1.0.json",
            concat!(env!("CARGO_MANIFEST_DIR"), "/../..")
        );
        let schema: Value =
            serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
        let validator = jsonschema::options().build(&schema).unwrap();
        let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{errors:#?}");
    }
    let _ = std::fs::remove_file(one);
}

/// Item 13: `<a href=" http://example.org/a ">` and a newline-wrapped href
/// were SYNTAX_ERRORs. A URL attribute is a URL potentially surrounded by
/// ASCII white space: it is stripped, and the column is the URL's.
#[test]
fn html_urls_are_stripped_of_white_space() {
    let doc =
        "<a href=\" http://example.org/a \">x</a>\n<a href=\"\n  http://example.org/b\n\">y</a>";
    let o = common::run_iri(&["check", "--json", "--from", "html", "-"], doc.as_bytes());
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let lines = lines(&o);
    assert_eq!(lines[0]["input"], "http://example.org/a");
    assert_eq!(
        (lines[0]["line"].as_u64(), lines[0]["column"].as_u64()),
        (Some(1), Some(11))
    );
    assert_eq!(lines[1]["input"], "http://example.org/b");
    assert_eq!(
        (lines[1]["line"].as_u64(), lines[1]["column"].as_u64()),
        (Some(3), Some(3))
    );
}

/// Item 14: oxttl's positions drifted (a line short after a string over
/// lines; a wrong column after invalid UTF-8). Every position comes from
/// the byte offset, with the tracker the IRIs use.
#[test]
fn syntax_error_positions_are_exact() {
    let o = common::run_iri(
        &["check", "--json", "--from", "ntriples", "-"],
        b"<http://e/\xff> <http://e/p> \"x\" ? .\n",
    );
    let lines = lines(&o);
    let error = lines
        .iter()
        .rev()
        .find(|l| l.get("syntax_error").is_some())
        .unwrap();
    assert_eq!(
        (error["line"].as_u64(), error["column"].as_u64()),
        (Some(1), Some(31))
    );
    let o = common::run_iri(
        &["check", "--json", "--from", "turtle", "-"],
        b"<http://e/s> <http://e/p> \"\"\"a\nb\nc\"\"\" ?\n.\n",
    );
    let lines = common::json_lines(&o);
    let error = lines
        .iter()
        .find(|l| l.get("syntax_error").is_some())
        .unwrap();
    assert_eq!(
        (error["line"].as_u64(), error["column"].as_u64()),
        (Some(3), Some(6))
    );
    // The IRI with the octet that is not UTF-8 is not checked as U+FFFD:
    // its error says where the octet is.
    let o = common::run_iri(
        &["check", "--json", "--from", "ntriples", "-"],
        b"<http://e/\xff> <http://e/p> <http://e/o> .\n",
    );
    let lines = common::json_lines(&o);
    let l = lines
        .iter()
        .find(|l| l["input"] == "http://e/\u{FFFD}")
        .unwrap();
    let message = l["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("not UTF-8 at byte 10 of the document"),
        "{message}"
    );
}

/// Item 15: a byte order mark split across reads gave a false syntax error
/// and every column one too far, in every format.
#[test]
fn a_split_byte_order_mark() {
    let bin = env!("CARGO_BIN_EXE_iri");
    for (format, doc, column) in [
        ("ntriples", "<http://e/s> <http://e/p> <http://e/o> .\n", 2),
        ("html", "<a href=\"http://e/o\">", 10),
        ("xml", "<r xmlns=\"http://e/o\"/>", 11),
    ] {
        let mut child = Command::new(bin)
            .args(["check", "--json", "--from", format, "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut input = child.stdin.take().unwrap();
        input.write_all(b"\xEF").unwrap();
        input.flush().unwrap();
        std::thread::sleep(Duration::from_millis(300));
        input.write_all(b"\xBB\xBF").unwrap();
        input.write_all(doc.as_bytes()).unwrap();
        drop(input);
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{format}");
        let lines = lines(&o);
        assert_eq!(
            lines[0]["column"].as_u64(),
            Some(column),
            "{format}: {lines:?}"
        );
    }
}

/// Item 16: `\>` in an IRIREF made our lexer swallow the next IRI: `>`
/// always ends an IRIREF.
#[test]
fn backslash_does_not_escape_the_end_of_an_iriref() {
    let o = common::run_iri(
        &["check", "--json", "--from", "ntriples", "-"],
        br"<http://e/a\> <http://e/p> <http://e/o> .",
    );
    let lines = lines(&o);
    let inputs: Vec<&str> = lines
        .iter()
        .filter(|l| l.get("syntax_error").is_none())
        .map(|l| l["input"].as_str().unwrap())
        .collect();
    assert_eq!(inputs, [r"http://e/a\", "http://e/p", "http://e/o"]);
}

/// Item 17: an invalid `--base` was silently ignored. It is a usage error.
#[test]
fn an_invalid_base_is_a_usage_error() {
    for base in ["rel/dir/", "http://a/ b/"] {
        let o = common::run_iri(
            &["check", "--from", "ntriples", "--base", base, "-"],
            b"<a> <b> <c> .\n",
        );
        assert_eq!(o.status.code(), Some(2), "{base}");
        assert!(stderr(&o).contains("--base"), "{}", stderr(&o));
        assert!(o.stdout.is_empty());
    }
}

/// Minor: `--from html` reported both values of a duplicated attribute;
/// HTML keeps the first.
#[test]
fn minor_a_duplicated_html_attribute_keeps_the_first() {
    let o = common::run_iri(
        &["check", "--json", "--from", "html", "-"],
        b"<a href=\"http://e/first\" href=\"http://e/second\">",
    );
    let lines = lines(&o);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["input"], "http://e/first");
}

/// Item 14, found by the fuzz target documents_rdf: read a byte at a time, oxttl
/// reports an error of a token once it sees the next one, after our lexer
/// has moved on; its place was the next token's (1:5 for the `?` at 1:4).
#[test]
fn positions_do_not_depend_on_the_reads() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_iri"))
        .args(["check", "--json", "--from", "nquads", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    for b in b"*{/?$" {
        input.write_all(&[*b]).unwrap();
        input.flush().unwrap();
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(input);
    let o = child.wait_with_output().unwrap();
    let places: Vec<(u64, u64)> = lines(&o)
        .iter()
        .map(|l| {
            (
                l["syntax_error"]["byte"].as_u64().unwrap(),
                l["column"].as_u64().unwrap(),
            )
        })
        .collect();
    assert!(
        places.iter().all(|&(byte, column)| column == byte + 1),
        "{places:?}"
    );
}

/// The length of the tokens past the limit below: twice the limit, so that
/// two copies of one exceed the budgets they are read under.
const PAST_THE_LIMIT: usize = 32 * 1024 * 1024;

/// Runs `iri check --json --from FORMAT -` on `doc` within `kib` KiB and
/// asserts that it ends with the document error of a `kind` token longer
/// than the limit at `place` (line, column), exit 3; gives the lines.
fn stops_at_the_limit(
    kib: usize,
    format: &str,
    doc: &[u8],
    kind: &str,
    place: (u64, u64),
) -> Vec<Value> {
    let o = iri_bounded(kib, 120, &["check", "--json", "--from", format, "-"], doc);
    assert_eq!(o.status.code(), Some(3), "{format} {kind}: {}", stderr(&o));
    let lines = lines(&o);
    let last = lines.last().expect("a document error");
    let message = last["syntax_error"]["message"].as_str().unwrap_or_default();
    assert_eq!(
        message,
        format!(
            "this {kind} is longer than 16 MiB, the longest token the reader holds: the document is not read further"
        ),
        "{format}: {last}"
    );
    assert_eq!(
        (last["line"].as_u64(), last["column"].as_u64()),
        (Some(place.0), Some(place.1)),
        "{format} {kind}"
    );
    lines
}

/// The inputs of the lines before the last.
fn inputs_before_the_error(lines: &[Value]) -> Vec<&str> {
    lines[..lines.len() - 1]
        .iter()
        .filter_map(|l| l["input"].as_str())
        .collect()
}

/// An RDF token longer than 16 MiB (a string, an IRI, a comment, a name) is
/// a document error at its start, and the reading stops there, in memory
/// that does not grow with the token: each one here is 32 MiB, under a
/// budget that two copies of it exceed. The IRIs before it are reported.
#[test]
fn rdf_tokens_past_the_limit_are_document_errors() {
    let a = "a".repeat(PAST_THE_LIMIT);
    let spo = "<http://e/s> <http://e/p> ";
    let cases = [
        ("ntriples", format!("{spo}\"{a}\" .\n"), "string", (1, 27)),
        (
            "turtle",
            format!("{spo}\"\"\"{}\"\"\" .\n", "a\n".repeat(PAST_THE_LIMIT / 2)),
            "string",
            (1, 27),
        ),
        ("nquads", format!("{spo}<http://e/{a}> .\n"), "IRI", (1, 27)),
        // A stray '<': no '>' ends it.
        ("ntriples", format!("{spo}<{a}"), "IRI", (1, 27)),
        (
            "turtle",
            format!("@prefix e: <http://e/> .\n#{a}\ne:s e:p e:o .\n"),
            "comment",
            (2, 1),
        ),
        (
            "trig",
            format!("@prefix e: <http://e/> .\ne:{a} e:p e:o .\n"),
            "name",
            (2, 1),
        ),
    ];
    for (format, doc, kind, place) in cases {
        let lines = stops_at_the_limit(128 * MIB, format, doc.as_bytes(), kind, place);
        let inputs = inputs_before_the_error(&lines);
        let before: &[&str] = if place.0 == 1 {
            &["http://e/s", "http://e/p"]
        } else {
            &["http://e/"]
        };
        assert_eq!(inputs, before, "{format} {kind}");
    }
    // A token within the limit is read, and so is what follows it.
    let doc = format!(
        "{spo}\"{}\" .\n<http://e/a b> <http://e/p> <http://e/o> .\n",
        "a".repeat(15 * 1024 * 1024)
    );
    let o = iri_bounded(
        256 * MIB,
        120,
        &[
            "check",
            "--json",
            "--only-invalid",
            "--from",
            "ntriples",
            "-",
        ],
        doc.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(lines(&o)[0]["input"], "http://e/a b");
}

/// An XML or RDF/XML text, tag (attribute values included), comment or
/// CDATA section longer than 16 MiB is a document error at its start, and
/// the reading stops there, in memory that does not grow with it: each
/// one here is 32 MiB, under a budget that two copies of it exceed (RDF/XML
/// runs a second parser, on a thread of its own).
#[test]
fn xml_tokens_past_the_limit_are_document_errors() {
    let a = "a".repeat(PAST_THE_LIMIT);
    let r = "<r xmlns=\"http://e/\">";
    let cases = [
        ("xml", format!("{r}{a}</r>"), "text"),
        (
            "xml",
            format!("{r}<x a=\"{a}\"/></r>"),
            "tag (with its attributes)",
        ),
        ("xml", format!("{r}<!--{a}--></r>"), "comment"),
        ("xml", format!("{r}<![CDATA[{a}]]></r>"), "CDATA section"),
    ];
    for (format, doc, kind) in cases {
        let lines = stops_at_the_limit(128 * MIB, format, doc.as_bytes(), kind, (1, 22));
        assert_eq!(inputs_before_the_error(&lines), ["http://e/"], "{kind}");
    }
    let rdf = "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" xmlns:e=\"http://e/\">\n";
    let cases = [
        (
            format!(
                "{rdf}<rdf:Description rdf:about=\"http://e/s\"><e:p>{a}</e:p></rdf:Description></rdf:RDF>"
            ),
            "text",
            (2, 46),
        ),
        (
            format!("{rdf}<rdf:Description rdf:about=\"http://e/{a}\"/></rdf:RDF>"),
            "tag (with its attributes)",
            (2, 1),
        ),
    ];
    for (doc, kind, place) in cases {
        let lines = stops_at_the_limit(256 * MIB, "rdfxml", doc.as_bytes(), kind, place);
        // No error of the RDF/XML parser, which is given nothing past it.
        assert!(
            lines[..lines.len() - 1]
                .iter()
                .all(|l| l.get("syntax_error").is_none()),
            "{kind}: {lines:?}"
        );
    }
    // A text within the limit is read, and so is what follows it.
    let doc = format!(
        "{r}{}<x xmlns:b=\"http://e/a b\"/></r>",
        "a".repeat(15 * 1024 * 1024)
    );
    let o = iri_bounded(
        256 * MIB,
        120,
        &["check", "--json", "--only-invalid", "--from", "xml", "-"],
        doc.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(lines(&o)[0]["input"], "http://e/a b");
}
