//! Documents in every encoding, in the spirit of Dürst's "from
//! specification to testing": HTML (both `<meta>` forms), XHTML, XML and
//! RDF/XML in UTF-8 (with and without a byte order mark), UTF-16LE/BE,
//! windows-1252 (declared as ISO-8859-1), ISO-8859-2, windows-1251,
//! KOI8-R, Shift_JIS, EUC-JP, ISO-2022-JP, GBK, Big5 and EUC-KR, each with
//! IRIs in its script: a valid one (an internationalized host and path),
//! one with a query outside ASCII, and an invalid one after text outside
//! ASCII on the same line.
//!
//! The documents are generated from one template per format by
//! `iribis_gen::encodings` (written to tests/data/documents/encodings/ by
//! `cargo run -p iribis-gen` and checked in); the expected answers (input, line,
//! column, validity, codes, encoding) come from the template, the oracle:
//! a position is the one of the IRI's first character in the template's
//! text, counted in characters.

use crate::common;
use iribis_gen::encodings::{Bytes, CASES, HTML_CHARSET, encode, fill, suite};

use serde_json::Value;

fn dir() -> std::path::PathBuf {
    std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("tests/data/documents/encodings")
}

/// The 1-based line and column (in characters) of `needle`'s first
/// character in `text`.
fn place(text: &str, needle: &str) -> (u64, u64) {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} in the template"));
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before[before.rfind('\n').map_or(0, |i| i + 1)..]
        .chars()
        .count()
        + 1;
    (line as u64, column as u64)
}

fn codes(l: &Value) -> Vec<String> {
    l["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["code"].as_str().unwrap().to_owned())
        .collect()
}

/// The table: for every document, its three IRIs with the line, column,
/// validity, codes and encoding the template gives.
#[test]
fn every_document_in_every_encoding() {
    let dir = dir();
    for (format, name, text, bytes, case) in suite() {
        let path = dir.join(&name);
        let o = common::run_iri(&["check", "--json", "--from", format, "-"], &bytes);
        let what = format!("{name} ({format})");
        let lines = common::json_lines(&o);
        assert!(
            o.stderr.is_empty(),
            "{what}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(!lines.is_empty(), "{what}: nothing found");
        // No false finding: the only syntax error is the invalid IRI's,
        // and every result names the encoding.
        for l in &lines {
            assert_eq!(l["encoding"], case.expect, "{what}: {l}");
            assert!(l.get("syntax_error").is_none(), "{what}: {l}");
            assert!(l.get("error").is_none(), "{what}: {l}");
            let bad = l["input"] == "http://example.org/a b";
            assert_eq!(l["valid"], !bad, "{what}: {l}");
        }
        let legacy = !matches!(case.expect, "UTF-8" | "UTF-16LE" | "UTF-16BE");
        let valid = format!("http://{}/{}", case.host, case.word);
        let query = format!("http://example.org/search?q={}", case.word);
        let rows = [
            (valid.as_str(), Vec::<&str>::new()),
            (
                query.as_str(),
                if legacy {
                    vec!["QUERY_DOCUMENT_CHARSET"]
                } else {
                    vec![]
                },
            ),
            ("http://example.org/a b", vec!["SYNTAX_ERROR"]),
        ];
        for (input, want) in rows {
            let l = lines
                .iter()
                .find(|l| l["input"] == input)
                .unwrap_or_else(|| panic!("{what}: no {input:?} in {lines:#?}"));
            let (line, column) = place(&text, &format!("\"{input}\""));
            assert_eq!(
                (l["line"].as_u64(), l["column"].as_u64()),
                (Some(line), Some(column + 1)),
                "{what}: {input}"
            );
            let got: Vec<String> = codes(l)
                .into_iter()
                .filter(|c| !c.starts_with("HOST_") && c != "NOT_NFKC")
                .collect();
            assert_eq!(got, want, "{what}: {input}: {l}");
        }
        // The file gives what standard input gives.
        let from_file = common::run_iri(
            &[
                "check",
                "--json",
                "--from",
                format,
                path.to_str().unwrap(),
                "--base",
                "http://b.example/",
            ],
            b"",
        );
        let from_stdin = common::run_iri(
            &[
                "check",
                "--json",
                "--from",
                format,
                "-",
                "--base",
                "http://b.example/",
            ],
            &bytes,
        );
        assert_eq!(from_file.stdout, from_stdin.stdout, "{what}");
    }
}

/// The human report of three of them.
#[test]
fn human_reports() {
    let settings = common::settings();
    for name in ["shift_jis.meta-charset.html", "koi8-r.xml", "utf-16le.rdf"] {
        let (format, _, _, bytes, _) = suite().into_iter().find(|d| d.1 == name).unwrap();
        let o = common::run_iri(
            &[
                "check",
                "--from",
                format,
                "-",
                "--base",
                "http://b.example/",
            ],
            &bytes,
        );
        let report = String::from_utf8(o.stdout).unwrap();
        settings.bind(|| insta::assert_snapshot!(format!("human_{name}"), report));
    }
}

/// `--encoding` plays the transport layer's charset: it wins over the
/// document's declaration, and a byte order mark wins over it.
#[test]
fn the_given_encoding() {
    let case = CASES.iter().find(|c| c.name == "windows-1251").unwrap();
    let text = fill(HTML_CHARSET, case).replace("windows-1251", "iso-8859-1");
    let bytes = encode(&text, Bytes::Legacy("windows-1251"));
    // Declared wrongly: read as windows-1252, every IRI mangled.
    let o = common::run_iri(&["check", "--json", "--from", "html", "-"], &bytes);
    let lines = common::json_lines(&o);
    assert_eq!(lines[0]["encoding"], "windows-1252");
    // Given: read right.
    let o = common::run_iri(
        &[
            "check",
            "--json",
            "--from",
            "html",
            "--encoding",
            "cp1251",
            "-",
        ],
        &bytes,
    );
    let lines = common::json_lines(&o);
    assert_eq!(lines[0]["encoding"], "windows-1251");
    assert_eq!(lines[0]["input"], "http://пример.рф/пример");
    // A byte order mark wins.
    let utf8 = [&b"\xEF\xBB\xBF"[..], text.as_bytes()].concat();
    let o = common::run_iri(
        &[
            "check",
            "--json",
            "--from",
            "html",
            "--encoding",
            "cp1251",
            "-",
        ],
        &utf8,
    );
    assert_eq!(common::json_lines(&o)[0]["encoding"], "UTF-8");
    // An unknown label, or another encoding than UTF-8 for Turtle: usage
    // errors.
    for (format, label) in [("html", "no-such"), ("turtle", "latin1")] {
        let o = common::run_iri(&["check", "--from", format, "--encoding", label, "-"], b"");
        assert_eq!(o.status.code(), Some(2), "{format} {label}");
    }
}

/// Without a BOM, `--encoding` or `<meta>`, HTML's encoding is guessed
/// (chardetng): an unlabelled UTF-8 page is read as UTF-8, an unlabelled
/// Shift_JIS one as Shift_JIS.
#[test]
fn the_guess() {
    for (label, expect) in [("utf-8", "UTF-8"), ("shift_jis", "Shift_JIS")] {
        let text =
            "<p>日本語のページです。東京と大阪。<a href=\"http://例え.jp/日本語\">日本語</a>\n";
        let bytes = encode(
            text,
            if label == "utf-8" {
                Bytes::Utf8
            } else {
                Bytes::Legacy(label)
            },
        );
        let o = common::run_iri(&["check", "--json", "--from", "html", "-"], &bytes);
        let l = &common::json_lines(&o)[0];
        assert_eq!(l["encoding"], expect);
        assert_eq!(l["input"], "http://例え.jp/日本語");
    }
}

/// Octets the document's encoding cannot decode: the column counts the
/// U+FFFD that stands for them, and the IRI that holds them gets the
/// error `--file` gives a line that is not UTF-8, with the encoding's
/// name; `&amp;` around them is decoded.
#[test]
fn undecodable_octets() {
    let o = common::run_iri(
        &["check", "--json", "--from", "html", "-"],
        b"<p>\xAB<a href=\"http://e/x\">",
    );
    let l = &common::json_lines(&o)[0];
    assert_eq!(l["column"], 14, "{l}");
    let o = common::run_iri(
        &["check", "--json", "--from", "html", "-"],
        b"<meta charset=shift_jis><a href=\"http://e/\xA0?a=1&amp;b=2\">",
    );
    let l = &common::json_lines(&o)[0];
    assert_eq!(l["input"], "http://e/\u{FFFD}?a=1&b=2");
    let message = l["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with(
            "not Shift_JIS at byte 42 of the document, character 9 of the IRI: the octet A0"
        ),
        "{message}"
    );
    let o = common::run_iri(
        &["check", "--json", "--from", "xml", "-"],
        b"<r xmlns:a=\"http://e/\xFF?a=1&amp;b=2\"/>",
    );
    let l = &common::json_lines(&o)[0];
    assert_eq!(l["input"], "http://e/\u{FFFD}?a=1&b=2");
    assert!(
        l["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("not UTF-8 at byte 21")
    );
}

/// `iri check|parse|to-uri --encoding LABEL` decodes the lines of standard
/// input (and of `--file`).
#[test]
fn lines_in_an_encoding() {
    let sjis = b"http://e/\x93\xfa\x96\x7b\nhttp://e/\xa0x\n";
    let o = common::run_iri(&["check", "--json", "--encoding", "shift_jis"], sjis);
    let lines = common::json_lines(&o);
    assert_eq!(lines[0]["input"], "http://e/日本");
    assert_eq!(lines[0]["valid"], true);
    let message = lines[1]["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("not Shift_JIS at byte 23 of the input"),
        "{message}"
    );
    let path = std::env::temp_dir().join(format!("iribis-enc-{}.txt", std::process::id()));
    std::fs::write(&path, sjis).unwrap();
    let o = common::run_iri(
        &[
            "check",
            "--json",
            "--encoding",
            "shift_jis",
            "--file",
            path.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(common::json_lines(&o)[0]["input"], "http://e/日本");
    let _ = std::fs::remove_file(path);
    let o = common::run_iri(&["to-uri", "--encoding", "latin1"], b"http://e/caf\xe9\n");
    assert_eq!(String::from_utf8_lossy(&o.stdout), "http://e/caf%C3%A9\n");
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain("http://a/é\n".encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let o = common::run_iri(&["parse", "--json", "--encoding", "utf-16le"], &utf16);
    assert_eq!(common::json_lines(&o)[0]["path"], "/é");
}
