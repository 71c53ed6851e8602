//! Normalization and the comparison ladder: the examples of RFC 3987 §5.3
//! and RFC 3986 §6.2 (each claim of the spec asserted, the table pinned by
//! snapshot), and properties over generated references.

mod common;

use iribis::{compare, equivalent, IriRef, Level};
use proptest::prelude::*;

fn parse(s: &str) -> IriRef<&str> {
    IriRef::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn rung(a: &str, b: &str) -> Option<Level> {
    compare(&parse(a), &parse(b), Level::Scheme, false)
}

#[test]
fn spec_comparison_examples() {
    let files = [
        "rfc3987-5.3.2.1.txt",
        "rfc3987-5.3.2.2.txt",
        "rfc3987-5.3.2.3.txt",
        "rfc3987-5.3.2.txt",
        "rfc3987-5.3.3.txt",
        "rfc3987-5.3.4.txt",
        "rfc3986-6.2.2.1.txt",
        "rfc3986-6.2.2.txt",
        "rfc3986-6.2.3.txt",
        "rfc3986-6.2.4.txt",
    ];
    let mut out = String::new();
    for file in files {
        let path = format!(
            "{}/tests/data/spec-examples/{file}",
            env!("CARGO_MANIFEST_DIR")
        );
        let examples = common::examples(&std::fs::read_to_string(path).unwrap());
        out.push_str(&format!("# {file}\n"));
        for (i, e) in examples.iter().enumerate() {
            let r = parse(e);
            out.push_str(&format!(
                "{e:?}\n  syntax: {}\n  scheme: {}\n",
                r.normalize(),
                r.normalize_with(Level::Scheme)
            ));
            if i > 0 {
                let prev = &examples[i - 1];
                let verdict = rung(prev, e).map_or("not equivalent".to_owned(), |l| {
                    format!("equivalent at the {} rung", l.rung())
                });
                out.push_str(&format!("  vs the line before: {verdict}\n"));
            }
        }
    }
    common::settings().bind(|| insta::assert_snapshot!(out));
}

#[test]
fn the_specs_claims() {
    // RFC 3987 §5.3.2.1, RFC 3986 §6.2.2.1: case normalization.
    assert_eq!(
        rung("HTTP://www.EXAMPLE.com/", "http://www.example.com/"),
        Some(Level::Syntax)
    );
    // RFC 3987 §5.3.2.2: no Unicode normalization when comparing…
    let (nfc, nfd) = (
        "http://www.example.org/r\u{E9}sum\u{E9}.html",
        "http://www.example.org/re\u{301}sume\u{301}.html",
    );
    assert_eq!(rung(nfc, nfd), None);
    // …but NFC is there to be applied explicitly.
    assert_eq!(parse(nfd).to_nfc().unwrap(), nfc);
    // RFC 3987 §5.3.2.3: percent-encoding normalization.
    assert_eq!(
        rung("http://example.org/~user", "http://example.org/%7euser"),
        Some(Level::Syntax)
    );
    assert_eq!(
        rung("http://example.org/%7euser", "http://example.org/%7Euser"),
        Some(Level::Syntax)
    );
    // RFC 3987 §5.3.2 and RFC 3986 §6.2.2: all three together.
    assert_eq!(
        rung(
            "example://a/b/c/%7Bfoo%7D/ros\u{E9}",
            "eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9"
        ),
        Some(Level::Syntax)
    );
    assert_eq!(
        rung(
            "example://a/b/c/%7Bfoo%7D",
            "eXAMPLE://a/./b/../b/%63/%7bfoo%7d"
        ),
        Some(Level::Syntax)
    );
    // RFC 3987 §5.3.3 and RFC 3986 §6.2.3: four http IRIs, one normal form.
    let four = [
        "http://example.com",
        "http://example.com/",
        "http://example.com:/",
        "http://example.com:80/",
    ];
    for a in four {
        assert_eq!(
            parse(a).normalize_with(Level::Scheme),
            "http://example.com/"
        );
        for b in four {
            assert!(equivalent(&parse(a), &parse(b), Level::Scheme), "{a} {b}");
        }
        assert_eq!(rung(a, "http://example.com/?"), None, "{a}");
    }
    assert_eq!(
        rung(
            "http://résumé.example.org",
            "http://xn--rsum-bpad.example.org"
        ),
        Some(Level::Scheme)
    );
    // RFC 3987 §5.3.4, RFC 3986 §6.2.4: protocol-based normalization is out of reach.
    assert_eq!(
        rung("http://example.com/data", "http://example.com/data/"),
        None
    );
    // RFC 3986 §6.2.3 mentions the domain of a mailto address as
    // case-insensitive; mailto is not in our scheme tables, so not here.
    assert_eq!(
        rung("mailto:Joe@Example.COM", "mailto:Joe@example.com"),
        None
    );
}

#[test]
fn what_is_never_touched() {
    let keep = [
        // Reserved characters stay encoded, and "%25" stays.
        "http://h/a%2Fb%3F%23%5B%25",
        // Not UTF-8, overlong, surrogate, noncharacter, private use outside the query.
        "http://h/%E9%C0%AF%ED%A0%80%EF%BF%BE%EE%80%80",
        // Bidi formatting characters (RFC 3987 §4.1).
        "http://h/%E2%80%8E%E2%80%AE",
        // Relative paths keep their dot segments until resolved.
        "../a/./b",
        // Userinfo is case-sensitive; empty components keep their delimiters.
        "http://User@h?#",
        // A non-ASCII host is not case-folded.
        "http://ÉCOLE.example/",
    ];
    for s in keep {
        assert_eq!(parse(s).normalize(), s, "{s}");
    }
    assert_eq!(
        parse("http://h/?%EE%80%80").normalize(),
        "http://h/?\u{E000}"
    );
    assert_eq!(
        parse("http://[2001:DB8::A]/").normalize(),
        "http://[2001:db8::a]/"
    );
    assert_eq!(parse("http://[V1.AB]/").normalize(), "http://[v1.ab]/");
    assert_eq!(parse("a:/.//").normalize(), "a:/.//");
    assert_eq!(
        parse("HTTPS://h:443").normalize_with(Level::Scheme),
        "https://h/"
    );
    assert_eq!(
        parse("http://h:0080/").normalize_with(Level::Scheme),
        "http://h/"
    );
    assert_eq!(
        parse("foo://h:80/").normalize_with(Level::Scheme),
        "foo://h:80/"
    );
}

fn piece() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "a",
        "B",
        "%41",
        "%7e",
        "%7E",
        "%2f",
        "%c3%a9",
        "%C3",
        "%E2%80%8E",
        "%ee%80%80",
        ".",
        "..",
        "/",
        "é",
        "例",
        "-",
        ":",
        "@",
        "%25",
    ])
    .prop_map(str::to_owned)
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(piece(), 0..6).prop_map(|v| v.concat())
}

fn reference() -> impl Strategy<Value = String> {
    (
        prop::option::of(prop::sample::select(vec!["http", "HTTPS", "ws", "foo"])),
        prop::option::of((
            prop::sample::select(vec![
                "Example.COM",
                "xn--rsum-bpad",
                "résumé",
                "[::A]",
                "1.2.3.4",
                "ex%41mple",
                "",
            ]),
            prop::option::of(prop::sample::select(vec!["", "80", "443", "8080"])),
        )),
        text(),
        prop::option::of(text()),
        prop::option::of(text()),
    )
        .prop_map(|(s, a, p, q, f)| {
            let mut out = String::new();
            if let Some(s) = s {
                out.push_str(s);
                out.push(':');
            }
            if let Some((h, port)) = a {
                out.push_str("//");
                out.push_str(h);
                if let Some(port) = port {
                    out.push(':');
                    out.push_str(port);
                }
                if !p.is_empty() && !p.starts_with('/') {
                    out.push('/');
                }
            }
            out.push_str(&p);
            if let Some(q) = q {
                out.push('?');
                out.push_str(&q);
            }
            if let Some(f) = f {
                out.push('#');
                out.push_str(&f);
            }
            out
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn idempotent_and_well_formed(s in reference()) {
        let Ok(r) = IriRef::parse(&s) else { return Ok(()) };
        for level in [Level::Simple, Level::Syntax, Level::Scheme] {
            let n = r.normalize_with(level);
            // The components the normalizer recorded are those of a parse.
            let p = IriRef::parse(n.as_str()).unwrap();
            prop_assert_eq!(
                (n.scheme(), n.authority(), n.host(), n.port(), n.path(), n.query(), n.fragment()),
                (p.scheme(), p.authority(), p.host(), p.port(), p.path(), p.query(), p.fragment())
            );
            let again = n.normalize_with(level);
            prop_assert_eq!(again.as_str(), n.as_str());
            prop_assert!(equivalent(&r, &n, level));
        }
    }

    #[test]
    fn equal_normal_forms_are_equivalent(a in reference(), b in reference()) {
        let (Ok(a), Ok(b)) = (IriRef::parse(&a), IriRef::parse(&b)) else { return Ok(()) };
        for level in [Level::Syntax, Level::Scheme] {
            let same = a.normalize_with(level) == b.normalize_with(level);
            prop_assert_eq!(same, equivalent(&a, &b, level));
        }
        // Each rung only adds equivalences.
        if equivalent(&a, &b, Level::Syntax) {
            prop_assert!(equivalent(&a, &b, Level::Scheme));
        }
    }
}
