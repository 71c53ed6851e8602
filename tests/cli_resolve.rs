//! `iri resolve`, `iri relativize`, `iri normalize` and `iri compare`: the
//! JSON contracts and exit status of issue 4.

mod common;

use std::process::Output;

use common::json_lines as json;
use serde_json::Value;

fn iri(args: &[&str]) -> Output {
    common::run_iri(args, b"")
}

fn keys(v: &Value) -> Vec<&str> {
    v.as_object().unwrap().keys().map(String::as_str).collect()
}

#[test]
fn resolve() {
    let o = iri(&[
        "resolve",
        "--json",
        "--base",
        "http://a/b/c/d;p?q",
        "../g",
        "a b",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let lines = json(&o);
    assert_eq!(
        keys(&lines[0]),
        ["base", "ref", "input", "valid", "resolved", "line"]
    );
    assert_eq!(
        keys(&lines[1]),
        ["base", "ref", "input", "valid", "error", "line"]
    );
    assert_eq!(lines[0]["resolved"], "http://a/b/g");
    assert_eq!(lines[1]["error"]["byte"], 1);
    let o = iri(&["resolve", "--base", "http://a/b", "--non-strict", "http:g"]);
    assert_eq!(String::from_utf8_lossy(&o.stdout), "http://a/g\n");
    assert_eq!(iri(&["resolve", "--base", "b", "g"]).status.code(), Some(2));
    assert_eq!(
        iri(&["resolve", "--base", "http://a/", "g"]).status.code(),
        Some(0)
    );
}

#[test]
fn relativize() {
    let o = iri(&[
        "relativize",
        "--json",
        "--base",
        "http://a/b/c",
        "http://a/b/d?x",
        "http://a/./x",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let lines = json(&o);
    assert_eq!(
        keys(&lines[0]),
        ["base", "target", "input", "valid", "relative", "line"]
    );
    assert_eq!(
        keys(&lines[1]),
        ["base", "target", "input", "valid", "error", "line"]
    );
    assert_eq!(lines[0]["relative"], "d?x");
    assert!(lines[1]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("'.' or '..'"));
}

#[test]
fn normalize() {
    let o = iri(&["normalize", "--json", "HTTP://A/%7e/./b"]);
    assert_eq!(o.status.code(), Some(0));
    let lines = json(&o);
    assert_eq!(keys(&lines[0]), ["input", "valid", "normalized", "line"]);
    assert_eq!(lines[0]["normalized"], "http://a/~/b");
    let o = iri(&["normalize", "--level", "scheme", "http://h:80"]);
    assert_eq!(String::from_utf8_lossy(&o.stdout), "http://h/\n");
    assert_eq!(
        iri(&["normalize", "--level", "nope", "a"]).status.code(),
        Some(2)
    );
    assert_eq!(iri(&["normalize", "a b"]).status.code(), Some(1));
}

#[test]
fn compare() {
    let o = iri(&["compare", "http://h", "HTTP://h:80/"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "equivalent at the scheme-based rung\n"
    );
    let o = iri(&["compare", "--level", "syntax", "http://h", "http://h/"]);
    assert_eq!(o.status.code(), Some(1));
    let o = iri(&[
        "compare",
        "--json",
        "--ignore-fragment",
        "http://h/#a",
        "http://h/#b",
    ]);
    assert_eq!(json(&o)[0]["rung"], "simple");
    assert_eq!(iri(&["compare", "a b", "c"]).status.code(), Some(2));
}
