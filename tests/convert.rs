//! Conversions: the specs' examples (every line of the conversion sections,
//! with to-URI, to-URI with IDNA, to-IRI and the to-IRI steps, pinned by
//! snapshot; the claims the specs make asserted), the `to_uri` and `to_iri`
//! vectors of the conformance corpus, and properties over generated input.

mod common;

use iribis::{
    preprocess, to_iri, to_iri_steps, to_uri, to_uri_steps, InnerSpaces, IriRef, ParseOptions,
    Profile, ToIriOptions, ToUriOptions,
};
use proptest::prelude::*;
use serde_json::Value;

fn uri(s: &str) -> String {
    to_uri(s, &ToUriOptions::new()).unwrap()
}

fn iri(s: &str) -> String {
    to_iri(s, &ToIriOptions::new()).unwrap()
}

#[test]
fn spec_examples() {
    let files = [
        "3987bis-3.4.1.txt",
        "3987bis-3.4.2.txt",
        "3987bis-3.4.3.txt",
        "3987bis-4.2.txt",
        "3987bis-4.3.txt",
        "3987bis-5.4.txt",
        "rfc3987-3.1.txt",
        "rfc3987-3.2.txt",
        "rfc3987-3.2.1.txt",
    ];
    let idna = ToUriOptions::new().idna(true);
    let mut out = String::new();
    for file in files {
        let path = format!(
            "{}/tests/data/spec-examples/{file}",
            env!("CARGO_MANIFEST_DIR")
        );
        out.push_str(&format!("# {file}\n"));
        for e in common::examples(&std::fs::read_to_string(path).unwrap()) {
            out.push_str(&format!("{e:?}\n  to-uri:        {}\n", uri(&e)));
            let with_idna = to_uri(&e, &idna).map_err(|e| e.to_string());
            out.push_str(&format!(
                "  to-uri --idna: {}\n",
                with_idna.unwrap_or_else(|e| format!("error: {e}"))
            ));
            out.push_str(&format!("  to-iri:        {}\n", iri(&e)));
        }
    }
    out.push_str("\n# 3987bis §4.3, step by step\n");
    for e in [
        "http://www.example.org/D%C3%BCrst",
        "http://www.example.org/D%FCrst",
        "http://xn--99zt52a.example.org/%e2%80%ae",
    ] {
        for s in to_iri_steps(e, &ToIriOptions::new()).unwrap() {
            out.push_str(&format!("{}. {}\n", s.label, s.text));
        }
        out.push('\n');
    }
    out.push_str("# RFC 3987 §3.1, step by step\n");
    for s in to_uri_steps(
        "http://résumé.example.org/Dürst?q=例#𐌀",
        &ToUriOptions::new(),
    )
    .unwrap()
    {
        out.push_str(&format!("{}. {}\n", s.label, s.text));
    }
    common::settings().bind(|| insta::assert_snapshot!(out));
}

#[test]
fn the_specs_claims() {
    // 3987bis §3.4.1 and RFC 3987 §3.1.
    assert_eq!(
        uri("http://résumé.example.org"),
        "http://r%C3%A9sum%C3%A9.example.org"
    );
    // §3.4.2: the draft prints xn--rsum-bad; punycode of "résumé" is xn--rsum-bpad.
    let idna = ToUriOptions::new().idna(true);
    assert_eq!(
        to_uri("http://résumé.example.org", &idna).unwrap(),
        "http://xn--rsum-bpad.example.org"
    );
    assert_eq!(
        to_uri("http://r%C3%A9sum%C3%A9.example.org", &idna).unwrap(),
        "http://xn--rsum-bpad.example.org"
    );
    // §3.4.3: existing percent-encodings are not encoded again.
    assert_eq!(
        uri("http://www.example.org/red%09rosé#red"),
        "http://www.example.org/red%09ros%C3%A9#red"
    );
    // §4.3: the three walk-throughs, and step 7 on and off.
    assert_eq!(
        iri("http://www.example.org/D%C3%BCrst"),
        "http://www.example.org/Dürst"
    );
    assert_eq!(
        iri("http://www.example.org/D%FCrst"),
        "http://www.example.org/D%FCrst"
    );
    assert_eq!(
        iri("http://xn--99zt52a.example.org/%e2%80%ae"),
        "http://納豆.example.org/%E2%80%AE"
    );
    let off = ToIriOptions::new().idna(false);
    assert_eq!(
        to_iri("http://xn--99zt52a.example.org/%e2%80%ae", &off).unwrap(),
        "http://xn--99zt52a.example.org/%E2%80%AE"
    );
    // Not a DNS scheme: the label stays.
    assert_eq!(
        iri("foo://xn--99zt52a.example.org/"),
        "foo://xn--99zt52a.example.org/"
    );
    // A label that is not valid punycode stays.
    assert_eq!(iri("http://xn--zz.example/"), "http://xn--zz.example/");
    // §5.4: never guess a legacy encoding.
    assert_eq!(
        iri("http://www.example.org/r%E9sum%E9.xml#r%C3%A9sum%C3%A9"),
        "http://www.example.org/r%E9sum%E9.xml#résumé"
    );
}

#[test]
fn errors() {
    let e = to_uri("http://a/b c", &ToUriOptions::new()).unwrap_err();
    assert!(e.to_string().contains("space"), "{e}");
    let idna = ToUriOptions::new().idna(true);
    let e = to_uri(
        "http://a\u{FFFD}b.example/",
        &ToUriOptions::new().profile(Profile::Leiri).idna(true),
    );
    assert!(e.is_err());
    let e = to_uri("http://ex\u{0661}a\u{05D0}.org/", &idna).unwrap_err();
    assert!(e.to_string().contains("IDNA rejects the host label"), "{e}");
    assert!(ToUriOptions::new()
        .query_charset("no-such-charset")
        .is_err());
    assert!(to_iri("a b", &ToIriOptions::new()).is_err());
}

#[test]
fn leiri_and_query_charsets() {
    let leiri = ToUriOptions::new().profile(Profile::Leiri);
    assert_eq!(
        to_uri("http://h/a b<c>\"{|}\\^`", &leiri).unwrap(),
        "http://h/a%20b%3Cc%3E%22%7B%7C%7D%5C%5E%60"
    );
    assert_eq!(
        to_uri("http://h/\u{1}\u{7F}", &leiri).unwrap(),
        "http://h/%01%7F"
    );
    let latin1 = ToUriOptions::new().query_charset("windows-1252").unwrap();
    assert_eq!(
        to_uri("http://h/é?q=é€", &latin1).unwrap(),
        "http://h/%C3%A9?q=%E9%80"
    );
    // Not representable: a numeric character reference, percent-encoded.
    assert_eq!(
        to_uri("http://h/?q=例", &latin1).unwrap(),
        "http://h/?q=%26%2320363%3B"
    );
    let sjis = ToUriOptions::new().query_charset("shift_jis").unwrap();
    assert_eq!(
        to_uri("https://h/?q=例", &sjis).unwrap(),
        "https://h/?q=%97%E1"
    );
    // Only for http and https.
    assert_eq!(
        to_uri("foo://h/?q=é", &latin1).unwrap(),
        "foo://h/?q=%C3%A9"
    );
}

#[test]
fn preprocessing() {
    assert_eq!(
        preprocess(" \t\r\nhttp://h/ \n", InnerSpaces::Keep),
        ["http://h/"]
    );
    assert_eq!(preprocess("a b  c", InnerSpaces::Split), ["a", "b", "c"]);
    assert_eq!(preprocess("a b", InnerSpaces::Encode), ["a%20b"]);
    // Only space, CR, LF and TAB are trimmed.
    assert_eq!(
        preprocess("\u{A0}\u{B}a\u{C}", InnerSpaces::Keep),
        ["\u{A0}\u{B}a\u{C}"]
    );
    assert!(preprocess("   ", InnerSpaces::Split).is_empty());
}

/// The 13 `to_uri` and 16 `to_iri` vectors of the conformance corpus.
#[test]
fn conformance_vectors() {
    let mut count = 0;
    for line in include_str!("data/conformance/vectors.jsonl").lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let (input, expected) = (
            v["input"].as_str().unwrap_or(""),
            v["expected"].as_str().unwrap_or(""),
        );
        let got = match v["kind"].as_str() {
            Some("to_uri") => {
                let profile = v["profile"]
                    .as_str()
                    .map_or(Profile::default(), |p| p.parse().unwrap());
                to_uri(input, &ToUriOptions::new().profile(profile))
            }
            Some("to_iri") => to_iri(input, &ToIriOptions::new()),
            _ => continue,
        };
        count += 1;
        assert_eq!(
            got.map_err(|e| e.to_string()).as_deref(),
            Ok(expected),
            "{input}"
        );
    }
    assert_eq!(count, 29);
}

fn piece() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "a",
        "/",
        "?",
        "é",
        "例",
        "𐌀",
        "%41",
        "%7e",
        "%c3%a9",
        "%C3",
        "%E9",
        "%E2%80%8E",
        "%EE%80%80",
        "\u{E000}",
        "%25",
        ":",
        "@",
        "!",
        ".",
        "xn--99zt52a",
    ])
    .prop_map(str::to_owned)
}

fn reference() -> impl Strategy<Value = String> {
    (
        prop::option::of(prop::sample::select(vec![
            "http://",
            "https://h.",
            "foo:",
            "//",
        ])),
        prop::collection::vec(piece(), 0..8),
        prop::option::of(prop::collection::vec(piece(), 0..4)),
    )
        .prop_map(|(p, v, f)| {
            let mut s = format!("{}{}", p.unwrap_or(""), v.concat());
            if let Some(f) = f {
                s.push('#');
                s.push_str(&f.concat());
            }
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn to_uri_properties(s in reference()) {
        let Ok(u) = to_uri(&s, &ToUriOptions::new()) else { return Ok(()) };
        // Always a URI.
        let uri_only = ParseOptions::new().profile(Profile::Rfc3986);
        prop_assert!(IriRef::parse_with(&u, &uri_only).is_ok(), "{}", u);
        // Idempotent, and so the identity on URIs.
        prop_assert_eq!(to_uri(&u, &ToUriOptions::new()).unwrap(), u.clone());
        // URI → IRI → URI gives the URI back, up to hex case and
        // percent-encoded unreserved characters (3987bis §4.1).
        let back = to_uri(&to_iri(&u, &ToIriOptions::new().idna(false)).unwrap(), &ToUriOptions::new()).unwrap();
        let n = |x: &str| IriRef::parse(x).unwrap().normalize().to_string();
        prop_assert_eq!(n(&to_uri(&n(&back), &ToUriOptions::new()).unwrap()), n(&to_uri(&n(&u), &ToUriOptions::new()).unwrap()));
    }

    #[test]
    fn iri_uri_iri_is_identity_without_percent_encodings(s in reference()) {
        let Ok(r) = IriRef::parse(&s) else { return Ok(()) };
        if s.contains('%') || r.to_nfc().map(|n| n.as_str() != s).unwrap_or(true) {
            return Ok(());
        }
        let u = to_uri(&s, &ToUriOptions::new()).unwrap();
        let back = to_iri(&u, &ToIriOptions::new().idna(false)).unwrap();
        // Characters not appropriate in an IRI (§5.1) stay encoded.
        if !s.contains('\u{E000}') {
            prop_assert_eq!(back, s);
        }
    }
}
