//! `iri to-uri`, `iri to-iri` and `--preprocess`: their contracts.

use crate::common;
use common::{json_lines as json, run_iri as iri};

#[test]
fn to_uri() {
    let o = iri(
        &["to-uri", "--json", "http://résumé.example.org/ü", "a b"],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    let lines = json(&o);
    assert_eq!(
        lines[0],
        serde_json::json!({"input": "http://résumé.example.org/ü", "valid": true, "uri": "http://r%C3%A9sum%C3%A9.example.org/%C3%BC", "line": 1})
    );
    assert_eq!(lines[1]["error"]["byte"], 1);
    let o = iri(
        &[
            "to-uri",
            "--idna",
            "--profile",
            "leiri",
            "http://résumé.example.org/a b",
        ],
        b"",
    );
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "http://xn--rsum-bpad.example.org/a%20b\n"
    );
    assert_eq!(
        iri(&["to-uri", "--query-charset", "nope", "a"], b"")
            .status
            .code(),
        Some(2)
    );
    let o = iri(&["to-uri", "--json", "--explain", "http://h/é"], b"");
    assert_eq!(json(&o)[0]["steps"].as_array().unwrap().len(), 3);
}

#[test]
fn to_iri() {
    let o = iri(
        &["to-iri", "--json"],
        b"http://xn--99zt52a.example.org/%e2%80%ae\n%C3%BC\n",
    );
    assert_eq!(o.status.code(), Some(0));
    let lines = json(&o);
    assert_eq!(lines[0]["iri"], "http://納豆.example.org/%E2%80%AE");
    assert_eq!(lines[1]["iri"], "ü");
    let o = iri(
        &["to-iri", "--no-idna", "http://xn--99zt52a.example.org/"],
        b"",
    );
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "http://xn--99zt52a.example.org/\n"
    );
}

#[test]
fn preprocess() {
    let o = iri(&["parse", "--json", "--preprocess"], b" \thttp://h/ \r\n");
    assert_eq!(json(&o)[0]["input"], "http://h/");
    // Every line gives at least one result, and each says its line.
    let o = iri(
        &["parse", "--json", "--preprocess=split"],
        b"a  b\n\n \nc\n",
    );
    let lines: Vec<(String, u64)> = json(&o)
        .iter()
        .map(|l| {
            (
                l["input"].as_str().unwrap().into(),
                l["line"].as_u64().unwrap(),
            )
        })
        .collect();
    let want = [("a", 1), ("b", 1), ("", 2), ("", 3), ("c", 4)];
    assert_eq!(lines, want.map(|(i, n)| (i.to_owned(), n)));
    let o = iri(&["to-uri", "--preprocess=encode"], b" http://h/a b \n");
    assert_eq!(String::from_utf8_lossy(&o.stdout), "http://h/a%20b\n");
    // Off by default: nothing is trimmed.
    let o = iri(&["parse", "--json"], b" a\n");
    assert_eq!(json(&o)[0]["valid"], false);
}
