//! `iri resolve`, `iri relativize`, `iri normalize` and `iri compare`: the
//! JSON contracts and exit status.

use crate::common;
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
        "a:/.//",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let lines = json(&o);
    assert_eq!(
        keys(&lines[0]),
        ["base", "target", "input", "valid", "relative", "line"]
    );
    assert_eq!(lines[0]["relative"], "d?x");
    // Dot segments: the answer reaches the target without them, which is
    // where the target itself resolves (RFC 3986 §5.2.2).
    assert_eq!(
        keys(&lines[1]),
        ["base", "target", "input", "valid", "relative", "line"]
    );
    assert_eq!(lines[1]["relative"], "/x");
    // Another scheme: the target itself, which resolves to itself.
    assert_eq!(lines[2]["relative"], "a:/.//");
    let o = iri(&[
        "relativize",
        "--base",
        "http://a/b/../c",
        "http://a/b/../c#f",
    ]);
    assert_eq!(String::from_utf8_lossy(&o.stdout), "#f\n");
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
    // A usage error is still one.
    assert_eq!(iri(&["compare", "a"]).status.code(), Some(2));
}

/// An input that does not parse: exit 1 (README: "1 when some input is
/// not" valid), and with --json an error object with the keys of the
/// other commands' errors and the input it is about.
#[test]
fn compare_an_invalid_input() {
    for (a, b, which, byte) in [
        ("a b", "c", "a", 1),
        ("c", "http://h/%zz", "b", 10),
        ("x y", "%", "a", 1),
    ] {
        let o = iri(&["compare", "--json", a, b]);
        assert_eq!(o.status.code(), Some(1), "{a} {b}");
        let lines = json(&o);
        assert_eq!(lines.len(), 1);
        assert_eq!(keys(&lines[0]), ["a", "b", "invalid", "error"]);
        assert_eq!(lines[0]["invalid"], which);
        assert_eq!(
            (lines[0]["a"].as_str(), lines[0]["b"].as_str()),
            (Some(a), Some(b))
        );
        let error = &lines[0]["error"];
        assert_eq!(
            keys(error),
            ["byte", "char", "message", "component", "expected", "spec",]
        );
        assert_eq!(error["byte"], byte);
        assert!(error["spec"].as_str().unwrap().contains('§'), "{error}");
        assert!(error["expected"].is_array());
        // Without --json: the report, on standard output, for each input
        // that does not parse.
        let o = iri(&["compare", a, b]);
        assert_eq!(o.status.code(), Some(1));
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            out.starts_with(&format!(
                "{} is not an IRI reference:\nerror: ",
                which.to_uppercase()
            )),
            "{out}"
        );
    }
    let o = iri(&["compare", "a b", "%"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("A is not") && out.contains("B is not"),
        "{out}"
    );
}
