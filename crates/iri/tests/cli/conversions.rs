//! `iri to-uri`, `iri to-iri` and `--preprocess`: their contracts, and the
//! command's flags for the conversions, `--decode-all` and `--idna` (the
//! conversions themselves: tests/operations/convert.rs).

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

/// `iri to-iri --decode-all` (3987bis §4.2 step 4 without §5.1's advice),
/// and `iri to-uri --idna` naming the label IDNA rejects (§3.4.2).
#[test]
fn cli_flags() {
    let run = |args: &[&str]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_iri"))
            .args(args)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8(o.stdout).unwrap().trim_end().to_owned(),
        )
    };
    let uri = "http://h/%EF%BC%A1%E2%80%8D%C3%A9";
    assert_eq!(
        run(&["to-iri", uri]),
        (Some(0), "http://h/%EF%BC%A1%E2%80%8Dé".into())
    );
    assert_eq!(
        run(&["to-iri", "--decode-all", uri]),
        (Some(0), "http://h/Ａ\u{200D}é".into())
    );
    let (code, out) = run(&["to-iri", "--explain", uri]);
    assert_eq!(code, Some(0));
    assert!(out.contains("http://h/%EF%BC%A1%E2%80%8Dé"), "{out}");
    let (code, out) = run(&["to-uri", "--idna", "--json", "http://é!.org/"]);
    assert_eq!(code, Some(1));
    assert!(
        out.contains("\\\"é!\\\"") && out.contains("UseSTD3ASCIIRules"),
        "{out}"
    );
    assert_eq!(
        run(&["to-uri", "--idna", "http://é%41.org/"]),
        (Some(0), "http://xn--a-9fa.org/".into())
    );
}
