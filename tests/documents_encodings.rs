//! Documents in every encoding (issue 27), in the spirit of Dürst's "from
//! specification to testing": HTML (both `<meta>` forms), XHTML, XML and
//! RDF/XML in UTF-8 (with and without a byte order mark), UTF-16LE/BE,
//! windows-1252 (declared as ISO-8859-1), ISO-8859-2, windows-1251,
//! KOI8-R, Shift_JIS, EUC-JP, ISO-2022-JP, GBK, Big5 and EUC-KR, each with
//! IRIs in its script: a valid one (an internationalized host and path),
//! one with a query outside ASCII, and an invalid one after text outside
//! ASCII on the same line.
//!
//! The documents are generated from one template per format (written to
//! tests/data/documents/encodings/ and checked in: the test fails when
//! they are stale, and rewrites them); the expected answers (input, line,
//! column, validity, codes, encoding) come from the template, the oracle:
//! a position is the one of the IRI's first character in the template's
//! text, counted in characters.

mod common;

use encoding_rs::Encoding;
use serde_json::Value;

/// One encoding of the suite: the label the documents declare, the WHATWG
/// name the reader must report, how the bytes are made, and the words of
/// its script.
struct Case {
    /// The file name's stem.
    name: &'static str,
    /// The label the document declares (the `<meta>` and the XML
    /// declaration).
    label: &'static str,
    /// The encoding's WHATWG name, as the output must give it.
    expect: &'static str,
    bytes: Bytes,
    /// A word of the script, and an internationalized domain name.
    word: &'static str,
    host: &'static str,
}

#[derive(Clone, Copy)]
enum Bytes {
    /// Encoded by encoding_rs with the encoding of this label.
    Legacy(&'static str),
    Utf8,
    Utf8Bom,
    Utf16Le,
    Utf16Be,
}

const CASES: &[Case] = &[
    Case {
        name: "utf-8",
        label: "utf-8",
        expect: "UTF-8",
        bytes: Bytes::Utf8,
        word: "日本語",
        host: "例え.jp",
    },
    Case {
        name: "utf-8-bom",
        label: "utf-8",
        expect: "UTF-8",
        bytes: Bytes::Utf8Bom,
        word: "Ελληνικά",
        host: "παράδειγμα.ελ",
    },
    Case {
        name: "utf-16le",
        label: "utf-16",
        expect: "UTF-16LE",
        bytes: Bytes::Utf16Le,
        word: "日本語",
        host: "例え.jp",
    },
    Case {
        name: "utf-16be",
        label: "utf-16",
        expect: "UTF-16BE",
        bytes: Bytes::Utf16Be,
        word: "한국어",
        host: "예시.한국",
    },
    Case {
        name: "iso-8859-1",
        label: "iso-8859-1",
        expect: "windows-1252",
        bytes: Bytes::Legacy("windows-1252"),
        word: "Größe",
        host: "café.example",
    },
    Case {
        name: "iso-8859-2",
        label: "iso-8859-2",
        expect: "ISO-8859-2",
        bytes: Bytes::Legacy("iso-8859-2"),
        word: "příliš",
        host: "příklad.cz",
    },
    Case {
        name: "windows-1251",
        label: "windows-1251",
        expect: "windows-1251",
        bytes: Bytes::Legacy("windows-1251"),
        word: "пример",
        host: "пример.рф",
    },
    Case {
        name: "koi8-r",
        label: "koi8-r",
        expect: "KOI8-R",
        bytes: Bytes::Legacy("koi8-r"),
        word: "Москва",
        host: "пример.рф",
    },
    Case {
        name: "shift_jis",
        label: "shift_jis",
        expect: "Shift_JIS",
        bytes: Bytes::Legacy("shift_jis"),
        word: "日本語",
        host: "例え.jp",
    },
    Case {
        name: "euc-jp",
        label: "euc-jp",
        expect: "EUC-JP",
        bytes: Bytes::Legacy("euc-jp"),
        word: "東京",
        host: "例え.jp",
    },
    Case {
        name: "iso-2022-jp",
        label: "iso-2022-jp",
        expect: "ISO-2022-JP",
        bytes: Bytes::Legacy("iso-2022-jp"),
        word: "大阪",
        host: "例え.jp",
    },
    Case {
        name: "gbk",
        label: "gbk",
        expect: "GBK",
        bytes: Bytes::Legacy("gbk"),
        word: "中文",
        host: "例子.中国",
    },
    Case {
        name: "big5",
        label: "big5",
        expect: "Big5",
        bytes: Bytes::Legacy("big5"),
        word: "中文",
        host: "例子.台灣",
    },
    Case {
        name: "euc-kr",
        label: "euc-kr",
        expect: "EUC-KR",
        bytes: Bytes::Legacy("euc-kr"),
        word: "한국어",
        host: "예시.한국",
    },
];

/// The kinds of document: the `--from` format, the file extension, and
/// the template (`{label}`, `{word}`, `{host}` filled in).
const KINDS: &[(&str, &str, &str)] = &[
    ("html", "meta-charset.html", HTML_CHARSET),
    ("html", "meta-http-equiv.html", HTML_HTTP_EQUIV),
    ("html", "xhtml.html", XHTML),
    ("xml", "xml", XML),
    ("rdfxml", "rdf", RDF_XML),
];

const HTML_CHARSET: &str = "<!DOCTYPE html>
<html><head><meta charset=\"{label}\"><title>{word}</title></head>
<body><p>{word}: <a href=\"http://{host}/{word}\">{word}</a></p>
<p>{word} <a href=\"http://example.org/search?q={word}\">?</a></p>
<p>{word} <a href=\"http://example.org/a b\">!</a></p>
</body></html>
";

const HTML_HTTP_EQUIV: &str = "<!DOCTYPE html>
<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset={label}\">
<title>{word}</title></head>
<body><p>{word}: <a href=\"http://{host}/{word}\">{word}</a></p>
<p>{word} <img src=\"http://example.org/search?q={word}\" alt=\"{word}\"></p>
<p>{word} <a href=\"http://example.org/a b\">!</a></p>
</body></html>
";

const XHTML: &str = "<?xml version=\"1.0\" encoding=\"{label}\"?>
<html xmlns=\"http://www.w3.org/1999/xhtml\"><head>
<meta http-equiv=\"Content-Type\" content=\"application/xhtml+xml; charset={label}\"/><title>{word}</title></head>
<body><p>{word}: <a href=\"http://{host}/{word}\">{word}</a></p>
<p>{word} <a href=\"http://example.org/search?q={word}\">?</a></p>
<p>{word} <a href=\"http://example.org/a b\">!</a></p>
</body></html>
";

const XML: &str = "<?xml version=\"1.0\" encoding=\"{label}\"?>
<doc xmlns=\"http://example.org/ns\">
<title>{word}</title>
<part xml:base=\"http://{host}/{word}\">{word}</part>
<part>{word} <ref xml:base=\"http://example.org/search?q={word}\"/></part>
<part>{word} <ref xmlns:bad=\"http://example.org/a b\"/></part>
</doc>
";

const RDF_XML: &str = "<?xml version=\"1.0\" encoding=\"{label}\"?>
<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">
<rdf:Description rdf:about=\"http://{host}/{word}\">
<rdf:value>{word}</rdf:value><rdf:value rdf:resource=\"http://example.org/search?q={word}\"/>
</rdf:Description>
<rdf:Description><rdf:value>{word}</rdf:value><rdf:value rdf:resource=\"http://example.org/a b\"/></rdf:Description>
</rdf:RDF>
";

fn fill(template: &str, case: &Case) -> String {
    template
        .replace("{label}", case.label)
        .replace("{word}", case.word)
        .replace("{host}", case.host)
}

fn encode(text: &str, bytes: Bytes) -> Vec<u8> {
    match bytes {
        Bytes::Utf8 => text.as_bytes().to_vec(),
        Bytes::Utf8Bom => [&b"\xEF\xBB\xBF"[..], text.as_bytes()].concat(),
        Bytes::Utf16Le => [0xFF, 0xFE]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
            .collect(),
        Bytes::Utf16Be => [0xFE, 0xFF]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
            .collect(),
        Bytes::Legacy(label) => {
            let encoding = Encoding::for_label(label.as_bytes()).unwrap();
            let (bytes, used, unmappable) = encoding.encode(text);
            assert_eq!(used, encoding, "{label}");
            assert!(!unmappable, "{label}: {text}");
            bytes.into_owned()
        }
    }
}

fn dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/documents/encodings")
}

/// Every document of the suite: (format, file name, text, bytes, case).
fn suite() -> Vec<(&'static str, String, String, Vec<u8>, &'static Case)> {
    let mut all = Vec::new();
    for case in CASES {
        for &(format, ext, template) in KINDS {
            let text = fill(template, case);
            let bytes = encode(&text, case.bytes);
            all.push((format, format!("{}.{ext}", case.name), text, bytes, case));
        }
    }
    all
}

/// The documents on disk are the generated ones (rewritten when not).
#[test]
fn the_documents_are_fresh() {
    let dir = dir();
    std::fs::create_dir_all(&dir).unwrap();
    let mut stale = Vec::new();
    for (_, name, _, bytes, _) in suite() {
        let path = dir.join(&name);
        if std::fs::read(&path).ok().as_deref() != Some(&bytes[..]) {
            std::fs::write(&path, &bytes).unwrap();
            stale.push(name);
        }
    }
    assert!(
        stale.is_empty(),
        "stale documents rewritten, commit them: {stale:?}"
    );
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
    assert!(l["error"]["message"]
        .as_str()
        .unwrap()
        .starts_with("not UTF-8 at byte 21"));
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
