//! The `iri` command line, run as a user runs it: arguments and standard
//! input, human and JSON output, exit status (0 all valid, 1 some invalid,
//! 2 usage or I/O error).

use crate::common;
use std::process::Output;

use serde_json::Value;

fn iri(args: &[&str], stdin: Option<&[u8]>) -> Output {
    common::run_iri(args, stdin.unwrap_or_default())
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn json_lines(o: &Output) -> Vec<Value> {
    common::json_lines(o)
}

#[test]
fn exit_status() {
    assert_eq!(iri(&["parse", "http://a/"], None).status.code(), Some(0));
    assert_eq!(
        iri(&["parse", "http://a/", "a b"], None).status.code(),
        Some(1)
    );
    assert_eq!(
        iri(&["parse", "--profile", "x", "a"], None).status.code(),
        Some(2)
    );
    assert_eq!(
        iri(&["parse", "--rule", "nope", "a"], None).status.code(),
        Some(2)
    );
    let o = iri(
        &["parse", "--profile", "rfc3986", "--rule", "ihost", "a"],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no rule ihost"));
    assert_eq!(iri(&["bogus"], None).status.code(), Some(2));
    assert_eq!(iri(&["tree", "a b"], None).status.code(), Some(1));
    assert_eq!(iri(&["tree", "a"], None).status.code(), Some(0));
}

/// The JSON contract of `iri parse --json`: these keys, in this order.
#[test]
fn json_contract() {
    let o = iri(
        &["parse", "--json", "http://u@[::1]:80/p?q#f", "//h", "a b"],
        None,
    );
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 3);
    let keys: Vec<&str> = lines[0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "input",
            "valid",
            "scheme",
            "authority",
            "userinfo",
            "host",
            "host_type",
            "port",
            "path",
            "query",
            "fragment",
            "line"
        ]
    );
    assert_eq!(lines[0]["host"], "[::1]");
    assert_eq!(lines[0]["host_type"], "IPv6address");
    assert_eq!(lines[1]["scheme"], Value::Null);
    assert_eq!(lines[1]["path"], "");
    assert_eq!(lines[2]["valid"], false);
    assert_eq!(lines[2]["error"]["byte"], 1);
    assert_eq!(lines[2]["error"]["char"], 1);
    assert!(lines[2]["error"]["message"].is_string());
    assert_eq!(
        lines
            .iter()
            .map(|l| l["line"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [1, 2, 3],
        "for arguments, line is the argument's 1-based position"
    );
}

/// One input per line of standard input: only "\n" or "\r\n" is removed,
/// nothing is trimmed, an empty line is the empty reference, a line that is
/// not UTF-8 is an invalid input, and output keeps the input order.
#[test]
fn stdin_lines() {
    let input = b"http://a/\r\n\n  b\nc\xff\nlast-without-newline";
    let o = iri(&["parse", "--json"], Some(input));
    assert_eq!(o.status.code(), Some(1));
    let lines = json_lines(&o);
    let summary: Vec<(String, bool)> = lines
        .iter()
        .map(|l| {
            (
                l["input"].as_str().unwrap().to_owned(),
                l["valid"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("http://a/".to_owned(), true),
            ("".to_owned(), true),
            ("  b".to_owned(), false),
            ("c\u{FFFD}".to_owned(), false),
            ("last-without-newline".to_owned(), true),
        ]
    );
    assert_eq!(lines[3]["error"]["byte"], 1);
}

/// `--rule` below the reference level, and a profile.
#[test]
fn rules_and_profiles() {
    let o = iri(
        &["parse", "--json", "--rule", "IPv6address", "::1", "1::2::3"],
        None,
    );
    let lines = json_lines(&o);
    assert_eq!(
        (&lines[0]["valid"], &lines[1]["valid"]),
        (&true.into(), &false.into())
    );
    // Started inside the brackets, the error is an IP literal's, not a
    // host's to percent-encode.
    assert_eq!(
        lines[1]["error"]["message"],
        "':' (U+003A) cannot stand here in an IP literal: expected ls32 or HEXDIG"
    );
    let o = iri(
        &["parse", "--json", "--profile", "rfc3986", "http://例え.jp/"],
        None,
    );
    assert_eq!(
        json_lines(&o)[0]["error"]["message"].as_str().unwrap(),
        "'例' (U+4F8B) is not allowed in a URI, which is ASCII only: percent-encode it as %E4%BE%8B"
    );
    let o = iri(
        &["parse", "--json", "--profile", "leiri", "http://h/a b"],
        None,
    );
    assert_eq!(json_lines(&o)[0]["path"], "/a b");
}

#[test]
fn human_output() {
    let o = iri(
        &[
            "parse",
            "http://例え.jp/p?",
            "http://[::1]:8o/",
            "--rule",
            "IRI",
        ],
        None,
    );
    let o2 = iri(&["tree", "--rule", "IPv4address", "192.0.2.1"], None);
    let text = format!("{}\n--- tree ---\n{}", stdout(&o), stdout(&o2));
    common::settings().bind(|| insta::assert_snapshot!(text));
}
