//! Conversions: the specs' examples (every line of the conversion sections,
//! with to-URI, to-URI with IDNA, to-IRI and the to-IRI steps, pinned by
//! snapshot; the claims the specs make asserted), the `to_uri` and `to_iri`
//! vectors of the conformance corpus, and properties over generated input.

use crate::common;
use iribis::check::{CheckOptions, Code};

use iribis::convert::{
    ConvertError, InnerSpaces, ToIriOptions, ToUriOptions, preprocess, to_iri_steps, to_uri_steps,
};

use iribis::{IriRef, ParseOptions, Profile, check, to_iri, to_uri};

use proptest::prelude::*;

use serde_json::Value;

fn uri(s: &str) -> String {
    to_uri(s, &ToUriOptions::new()).unwrap()
}

fn iri(s: &str) -> String {
    to_iri(s, &ToIriOptions::new()).unwrap()
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

fn uri_of(s: &str) -> String {
    uri(s)
}

/// `u` with its percent-encoded unreserved characters decoded and the hex
/// digits of the others in uppercase: the differences 3987bis §4.1 allows
/// between a URI and the URI of its IRI.
fn canonical(u: &str) -> String {
    let mut out = String::new();
    let mut rest = u;
    while let Some(at) = rest.find('%') {
        out.push_str(&rest[..at]);
        let hex = &rest[at + 1..at + 3];
        let o = u8::from_str_radix(hex, 16).unwrap();
        if o.is_ascii_alphanumeric() || b"-._~".contains(&o) {
            out.push(char::from(o));
        } else {
            out.push('%');
            out.push_str(&hex.to_ascii_uppercase());
        }
        rest = &rest[at + 3..];
    }
    out.push_str(rest);
    out
}

/// A URI of percent-encoded UTF-8: random characters (look-alikes,
/// invisible characters, combining marks, bidi characters and others
/// among them) in random components.
fn encoded_uri() -> impl Strategy<Value = String> {
    let interesting = prop::sample::select(vec![
        '\u{301}',
        '\u{334}',
        '\u{5C1}',
        '\u{64E}',
        '\u{200C}',
        '\u{200D}',
        '\u{200B}',
        '\u{200E}',
        '\u{202E}',
        '\u{2066}',
        '\u{61C}',
        '\u{AD}',
        '\u{A0}',
        '\u{2028}',
        '\u{3000}',
        '\u{FF21}',
        '\u{FF71}',
        '\u{FB01}',
        '\u{212B}',
        '\u{2215}',
        '\u{2044}',
        '\u{FE0F}',
        '\u{FEFF}',
        'é',
        'e',
        'A',
        '/',
        '.',
        '=',
        '&',
        ';',
        '-',
        '例',
        'ש',
        'ب',
        '\u{662}',
        '1',
        '\u{E000}',
        '\u{FFFD}',
        '\u{1D173}',
        '\u{E0041}',
        '\u{3164}',
        '\u{FFA0}',
    ]);
    let c = prop_oneof![3 => interesting, 1 => any::<char>()];
    let piece = prop::collection::vec(c, 0..6).prop_map(|cs| {
        cs.iter()
            .map(|c| {
                let mut b = [0; 4];
                c.encode_utf8(&mut b)
                    .bytes()
                    .map(|o| format!("%{o:02X}"))
                    .collect::<String>()
            })
            .collect::<String>()
    });
    (
        prop::collection::vec(piece.clone(), 1..4),
        piece.clone(),
        piece.clone(),
        piece,
    )
        .prop_map(|(segments, host, query, fragment)| {
            format!(
                "http://a{host}.example/{}?q={query}#{fragment}",
                segments.join("/")
            )
        })
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
            "{}/crates/suite/data/spec-examples/{file}",
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
    assert_eq!(e.to_string(), "cannot convert an invalid IRI reference");
    let source = std::error::Error::source(&e).map(ToString::to_string);
    assert_eq!(
        source.as_deref(),
        Some(
            "invalid IRI reference at character 10: a space is not allowed in a path: percent-encode it as %20"
        )
    );
    let idna = ToUriOptions::new().idna(true);
    let e = to_uri(
        "http://a\u{FFFD}b.example/",
        &ToUriOptions::new().profile(Profile::Leiri).idna(true),
    );
    assert!(e.is_err());
    let e = to_uri("http://ex\u{0661}a\u{05D0}.org/", &idna).unwrap_err();
    assert!(e.to_string().contains("IDNA rejects the host label"), "{e}");
    assert!(
        ToUriOptions::new()
            .query_charset("no-such-charset")
            .is_err()
    );
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
    for line in include_str!("../../crates/suite/data/conformance/vectors.jsonl").lines() {
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

/// 3987bis §3.4.2 (RFC 3987 §3.1, RFC 5891 §4.2.3.1 and §5.4): decode the
/// ireg-name when every percent-encoding is UTF-8, then ToASCII with
/// UseSTD3ASCIIRules, CheckHyphens and VerifyDnsLength on the whole name.
#[test]
fn idna_decodes_first_and_applies_std3_rules() {
    let idna = ToUriOptions::new().idna(true);
    let ok = |input: &str| to_uri(input, &idna).map_err(|e| e.to_string());
    let rejected = |input: &str| match to_uri(input, &idna) {
        Err(ConvertError::Idna { label }) => label,
        other => panic!("{input:?}: {other:?}"),
    };
    // Step 1: percent-encodings decoded first, ASCII ones too.
    assert_eq!(
        ok("http://é%41.org/").as_deref(),
        Ok("http://xn--a-9fa.org/")
    );
    assert_eq!(
        ok("http://%C3%A9%41.org/").as_deref(),
        Ok("http://xn--a-9fa.org/")
    );
    assert_eq!(
        ok("http://r%c3%a9sum%c3%a9.example.org/").as_deref(),
        Ok("http://xn--rsum-bpad.example.org/")
    );
    // UTS #46 maps before ToASCII: case, full-width forms.
    assert_eq!(
        ok("http://Résumé.EXAMPLE.org/").as_deref(),
        Ok("http://xn--rsum-bpad.example.org/")
    );
    // A trailing root label is fine.
    assert_eq!(
        ok("http://résumé.org./").as_deref(),
        Ok("http://xn--rsum-bpad.org./")
    );
    // UseSTD3ASCIIRules, on every label of the name, decoded ones too.
    assert_eq!(rejected("http://é!.org/"), "é!");
    assert_eq!(rejected("http://é%2F.org/"), "é/");
    assert_eq!(rejected("http://é%20x.org/"), "é x");
    assert_eq!(rejected("http://é%00.org/"), "é\u{0}");
    assert_eq!(rejected("http://é.a_b.org/"), "a_b");
    assert_eq!(rejected("http://a$b.é.org/"), "a$b");
    // CheckHyphens.
    assert_eq!(rejected("http://-é.org/"), "-é");
    assert_eq!(rejected("http://é-.org/"), "é-");
    assert_eq!(rejected("http://ab--é.org/"), "ab--é");
    // VerifyDnsLength: 63 octets per A-label, no empty label.
    let long = "é".repeat(60);
    assert_eq!(rejected(&format!("http://{long}.org/")), long);
    assert_eq!(rejected("http://é..org/"), "");
    // An A-label that does not decode to a valid U-label (RFC 5891 §5.4).
    assert_eq!(rejected("http://é.xn--zz.org/"), "xn--zz");
    assert_eq!(rejected("http://xn--zz.org/"), "xn--zz");
    // A percent-encoding that is not UTF-8: the whole field is left as is,
    // and §3.3 percent-encodes it.
    assert_eq!(
        ok("http://é%E9.org/").as_deref(),
        Ok("http://%C3%A9%E9.org/")
    );
    assert_eq!(
        ok("http://é%C0%AF.org/").as_deref(),
        Ok("http://%C3%A9%C0%AF.org/")
    );
    // Not an internationalized name: nothing to convert, left as is.
    assert_eq!(ok("http://a_b.org/").as_deref(), Ok("http://a_b.org/"));
    assert_eq!(ok("http://%41.org/").as_deref(), Ok("http://%41.org/"));
    assert_eq!(ok("http://a!b.org/").as_deref(), Ok("http://a!b.org/"));
    // IP literals are never touched.
    assert_eq!(ok("http://[::1]/é").as_deref(), Ok("http://[::1]/%C3%A9"));
    // The message names the label and the rule.
    let e = to_uri("http://é!.org/", &idna).unwrap_err().to_string();
    assert!(
        e.contains("\"é!\"") && e.contains("UseSTD3ASCIIRules"),
        "{e}"
    );
    let e = to_uri(&format!("http://{long}.org/"), &idna)
        .unwrap_err()
        .to_string();
    assert!(e.contains("63 octets"), "{e}");
    let e = to_uri("http://ab--é.org/", &idna).unwrap_err().to_string();
    assert!(e.contains("CheckHyphens"), "{e}");
}

/// 3987bis §4.2 step 4 with §5.1: what stays percent-encoded, and
/// `decode_all`, which decodes all but the bidi formatting characters
/// (RFC 3987 §4.1: an IRI "MUST NOT contain" them).
#[test]
fn step_4_keeps_what_5_1_advises_against() {
    let all = ToIriOptions::new().decode_all(true);
    // (section, URI, default result, decode_all result)
    let cases = [
        // §5.1(b): compatibility look-alikes (NFKC changes them).
        (
            "§5.1(b) full-width",
            "http://h/%EF%BC%A1",
            "http://h/%EF%BC%A1",
            "http://h/Ａ",
        ),
        (
            "§5.1(b) half-width",
            "http://h/%EF%BD%B1",
            "http://h/%EF%BD%B1",
            "http://h/ｱ",
        ),
        (
            "§5.1(b) ligature",
            "http://h/%EF%AC%81le",
            "http://h/%EF%AC%81le",
            "http://h/ﬁle",
        ),
        (
            "§5.1(b) superscript",
            "http://h/x%C2%B2",
            "http://h/x%C2%B2",
            "http://h/x²",
        ),
        (
            "§5.1(b) singleton",
            "http://h/%E2%84%AB",
            "http://h/%E2%84%AB",
            "http://h/\u{212B}",
        ),
        (
            "§5.1(b) Arabic presentation form",
            "http://h/%EF%BB%BB",
            "http://h/%EF%BB%BB",
            "http://h/ﻻ",
        ),
        // §5.1(b): look-alikes of space and delimiters, Nameprep's tables.
        (
            "§5.1(b) no-break space",
            "http://h/a%C2%A0b",
            "http://h/a%C2%A0b",
            "http://h/a\u{A0}b",
        ),
        (
            "§5.1(b) division slash",
            "http://h/a%E2%88%95b",
            "http://h/a%E2%88%95b",
            "http://h/a\u{2215}b",
        ),
        (
            "§5.1(b) RFC 3454 C.2.2",
            "http://h/a%E2%80%A8b",
            "http://h/a%E2%80%A8b",
            "http://h/a\u{2028}b",
        ),
        // §5.1(d): joiners and other invisible characters.
        (
            "§5.1(d) ZWJ",
            "http://h/a%E2%80%8Db",
            "http://h/a%E2%80%8Db",
            "http://h/a\u{200D}b",
        ),
        (
            "§5.1(d) ZWNJ",
            "http://h/a%E2%80%8Cb",
            "http://h/a%E2%80%8Cb",
            "http://h/a\u{200C}b",
        ),
        (
            "§5.1(d) soft hyphen",
            "http://h/a%C2%ADb",
            "http://h/a%C2%ADb",
            "http://h/a\u{AD}b",
        ),
        (
            "§5.1(d) zero width space",
            "http://h/a%E2%80%8Bb",
            "http://h/a%E2%80%8Bb",
            "http://h/a\u{200B}b",
        ),
        (
            "§5.1(d) variation selector",
            "http://h/a%EF%B8%8F",
            "http://h/a%EF%B8%8F",
            "http://h/a\u{FE0F}",
        ),
        // §5.1(c): a combining mark at the start of a component.
        (
            "§5.1(c) segment",
            "http://h/%CC%B4a",
            "http://h/%CC%B4a",
            "http://h/\u{334}a",
        ),
        (
            "§5.1(c) after '/'",
            "http://h/a/%CC%81",
            "http://h/a/%CC%81",
            "http://h/a/\u{301}",
        ),
        (
            "§5.1(c) after '.'",
            "http://h/a.%CC%81",
            "http://h/a.%CC%81",
            "http://h/a.\u{301}",
        ),
        (
            "§5.1(c) query value",
            "http://h/?a=%CC%81",
            "http://h/?a=%CC%81",
            "http://h/?a=\u{301}",
        ),
        (
            "§5.1(c) fragment",
            "http://h/#%CC%81",
            "http://h/#%CC%81",
            "http://h/#\u{301}",
        ),
        (
            "§5.1(c) host label",
            "http://a.%CC%81b/",
            "http://a.%CC%81b/",
            "http://a.\u{301}b/",
        ),
        (
            "§5.1(c) on a hex digit",
            "http://h/%2F%CC%81",
            "http://h/%2F%CC%81",
            "http://h/%2F\u{301}",
        ),
        (
            "§5.1(c) after a kept mark",
            "http://h/%CC%81%CC%81",
            "http://h/%CC%81%CC%81",
            "http://h/\u{301}\u{301}",
        ),
        // Not at the start: a mark on a letter is decoded.
        (
            "§5.1(c) on a letter",
            "http://h/a%CC%81",
            "http://h/a\u{301}",
            "http://h/a\u{301}",
        ),
        (
            "§5.1(c) on a decoded letter",
            "http://h/%C3%A9%CC%81",
            "http://h/é\u{301}",
            "http://h/é\u{301}",
        ),
        // RFC 3987 §4.1: bidi formatting characters stay, decode_all too.
        (
            "RFC 3987 §4.1",
            "http://h/%E2%80%AE",
            "http://h/%E2%80%AE",
            "http://h/%E2%80%AE",
        ),
        (
            "RFC 3987 §4.1",
            "http://h/%D8%9C",
            "http://h/%D8%9C",
            "http://h/%D8%9C",
        ),
        // §2.2: what the grammar does not allow stays, decode_all too.
        (
            "§2.2 private use",
            "http://h/%EE%80%80",
            "http://h/%EE%80%80",
            "http://h/%EE%80%80",
        ),
        (
            "§2.2 iprivate in the query",
            "http://h/?%EE%80%80",
            "http://h/?\u{E000}",
            "http://h/?\u{E000}",
        ),
        (
            "§2.2 special",
            "http://h/%EF%BF%BD",
            "http://h/%EF%BF%BD",
            "http://h/%EF%BF%BD",
        ),
        // Ordinary characters are decoded.
        (
            "§4.2",
            "http://h/%E4%BE%8B/%D7%A9%D7%9C%D7%95%D7%9D",
            "http://h/例/שלום",
            "http://h/例/שלום",
        ),
    ];
    for (section, input, default, decoded) in cases {
        assert_eq!(iri(input), default, "{section}: {input}");
        assert_eq!(
            to_iri(input, &all).unwrap(),
            decoded,
            "{section}: {input} (decode_all)"
        );
    }
    // Step 7 keeps an A-label whose U-label has a character step 4 keeps
    // encoded (here a ZWNJ, valid in IDNA's CONTEXTJ but §5.1(d)); a
    // deviation character of UTS #46 too, so the label is also spoofable
    // (HOST_RESTRICTED_CHARACTER) and decodes only with both options.
    let zwnj = "http://xn--mgba3gch31f060k.ir/";
    assert_eq!(iri(zwnj), zwnj);
    assert_eq!(to_iri(zwnj, &all).unwrap(), zwnj);
    assert_eq!(
        to_iri(zwnj, &all.decode_spoofable(true)).unwrap(),
        "http://\u{646}\u{627}\u{645}\u{647}\u{200C}\u{627}\u{6CC}.ir/"
    );
    // The steps show where each octet went.
    let steps = to_iri_steps("http://h/%EF%BC%A1%C3%A9", &ToIriOptions::new()).unwrap();
    let texts: Vec<&str> = steps.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "http://h/%EF%BC%A1%C3%A9",
            "http://h/<ef><bc><a1><c3><a9>",
            "http://h/<ef><bc><a1><c3><a9>",
            "http://h/%EF%BC%A1<c3><a9>",
            "http://h/%EF%BC%A1<c3><a9>",
            "http://h/%EF%BC%A1é",
            "http://h/%EF%BC%A1é",
        ]
    );
}

/// Memory: the conversions walk the input once and build one string;
/// a long line converts (the steps too) and round-trips.
#[test]
fn long_inputs() {
    let unit = "a%C3%A9%e2%80%ae%FC/é";
    let uri = format!("http://h/{}", unit.repeat(20_000));
    let converted = iri(&uri);
    assert_eq!(
        converted,
        format!("http://h/{}", "aé%E2%80%AE%FC/é".repeat(20_000))
    );
    let steps = to_iri_steps(&uri, &ToIriOptions::new()).unwrap();
    assert_eq!(
        steps.last().map(|s| s.text.as_str()),
        Some(converted.as_str())
    );
    assert_eq!(
        uri_of(&converted),
        format!("http://h/{}", "a%C3%A9%E2%80%AE%FC/%C3%A9".repeat(20_000))
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// 3987bis §4.2 step 4 with §5.1: `to_iri` never makes an IRI on
    /// which the checker reports a §5.1 finding (or a bidi formatting
    /// character, RFC 3987 §4.1); and the IRI maps back to the URI
    /// (§4.1), up to hex case.
    #[test]
    fn to_iri_makes_no_5_1_finding(u in encoded_uri()) {
        let i = to_iri(&u, &ToIriOptions::new()).unwrap();
        let report = check(&i, &CheckOptions::default());
        for v in &report.violations {
            prop_assert!(
                !matches!(
                    v.code,
                    Code::LookalikeCharacter
                        | Code::JoinerCharacter
                        | Code::CombiningMarkAtComponentStart
                        | Code::BidiFormattingCharacter
                ),
                "{} -> {}: {:?}", u, i, v
            );
        }
        prop_assert_eq!(canonical(&uri(&i)), canonical(&u));
        // decode_all still makes an IRI that maps back.
        let all = to_iri(&u, &ToIriOptions::new().decode_all(true)).unwrap();
        prop_assert_eq!(canonical(&uri(&all)), canonical(&u));
    }
}
