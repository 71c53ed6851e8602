//! Normalization and the comparison ladder: the examples of RFC 3987 §5.3
//! and RFC 3986 §6.2 (each claim of the spec asserted, the table pinned by
//! snapshot), and properties over generated references.

use crate::common;
use iribis::convert::ToUriOptions;

use iribis::normalize::{DEFAULT_PORTS, Level, compare, equivalent};

use iribis::{Iri, IriRef, ParseOptions, Profile, to_uri};

use proptest::prelude::*;

fn parse(s: &str) -> IriRef<&str> {
    IriRef::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn rung(a: &str, b: &str) -> Option<Level> {
    compare(&parse(a), &parse(b), Level::Scheme, false)
}

fn parse_leiri(s: &str) -> IriRef<&str> {
    IriRef::parse_with(s, &ParseOptions::new().profile(Profile::Leiri))
        .unwrap_or_else(|e| panic!("{s:?}: {e}"))
}

/// The bases whose merge (RFC 3986 §5.2.3) differs in kind: an authority
/// and an empty path ("/" + path), a path with no "/" and no authority
/// (the reference's path alone), rootless and absolute directories, and
/// the empty query a "." must not take (an empty reference would).
const BASES: &[&str] = &[
    "http://h",
    "http://h?q",
    "foo:x",
    "foo:",
    "foo:x?q",
    "foo:x/y",
    "foo:x/y/z",
    "foo:/",
    "foo:/x",
    "foo:/x/y/z",
    "http://h/x/y/z?q",
    "foo:/.//x",
];

/// Pieces of text for the generated references: delimiters, dot segments,
/// percent-encodings of every kind (unreserved, reserved, UTF-8, not
/// UTF-8, bidi, private use), non-ASCII characters.
const PIECES: &[&str] = &[
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
];

/// More pieces: raw characters no IRI may hold unencoded (bidi formatting
/// characters, RFC 3987 §4.1), those only a LEIRI may (3987bis §6.3:
/// space, delimiters, controls, C1 controls, specials, private use outside
/// the query, tags, noncharacters), "%2E" as a dot, right-to-left text.
const WILD_PIECES: &[&str] = &[
    "\u{202E}",
    "\u{200F}",
    "\u{2067}",
    "%e2%80%ae",
    " ",
    "\t",
    "<",
    "{",
    "|",
    "\u{85}",
    "\u{FFF0}",
    "\u{FDD0}",
    "\u{E000}",
    "\u{F0000}",
    "\u{E0001}",
    "%f3%a0%80%81",
    "%2E",
    "%2e%2E",
    "ا",
    "\u{1F600}",
    "Ä",
];

fn text(pieces: Vec<&'static str>) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(pieces), 0..6).prop_map(|v| v.concat())
}

fn reference() -> impl Strategy<Value = String> {
    reference_of(PIECES.to_vec(), vec![])
}

/// References with [`WILD_PIECES`] as well, some of them LEIRIs.
fn wild_reference() -> impl Strategy<Value = String> {
    reference_of(
        [PIECES, WILD_PIECES].concat(),
        vec!["a\u{202E}b", "A B", "例え", "x{y", "\u{E000}"],
    )
}

fn reference_of(
    pieces: Vec<&'static str>,
    more_hosts: Vec<&'static str>,
) -> impl Strategy<Value = String> {
    let mut hosts = vec![
        "Example.COM",
        "xn--rsum-bpad",
        "résumé",
        "[::A]",
        "1.2.3.4",
        "ex%41mple",
        "",
    ];
    hosts.extend(more_hosts);
    (
        prop::option::of(prop::sample::select(vec![
            "http", "HTTPS", "ws", "foo", "ftp",
        ])),
        prop::option::of((
            prop::sample::select(hosts),
            prop::option::of(prop::sample::select(vec!["", "80", "443", "8080", "21"])),
        )),
        text(pieces.clone()),
        prop::option::of(text(pieces.clone())),
        prop::option::of(text(pieces)),
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
            "{}/crates/suite/data/spec-examples/{file}",
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
        // A relative path keeps the dot segments that resolution may need.
        "../a",
        "./a:b",
        "a/../b",
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

/// Characters no IRI may hold unencoded are percent-encoded, as IRI → URI
/// mapping encodes them (3987bis §3.3), so that a reference and its URI
/// have one normal form (RFC 3987 §5.3.2.3: "converting both IRIs to URIs
/// ..., eliminating escape differences").
#[test]
fn characters_an_iri_must_not_hold_are_encoded() {
    // RFC 3987 §4.1: "IRIs MUST NOT contain bidirectional formatting
    // characters"; `ucschar` includes them, so the default profile parses
    // them. Every one of them, raw and encoded, in every component.
    let bidi = [
        '\u{200E}', '\u{200F}', '\u{061C}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}',
        '\u{202E}', '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}',
    ];
    for c in bidi {
        let mut buf = [0; 4];
        let enc: String = c
            .encode_utf8(&mut buf)
            .bytes()
            .map(|b| format!("%{b:02X}"))
            .collect();
        for (raw, encoded) in [
            (format!("http://a/{c}"), format!("http://a/{enc}")),
            (
                format!("http://{c}@a/?{c}#{c}"),
                format!("http://{enc}@a/?{enc}#{enc}"),
            ),
            (format!("http://a{c}b/"), format!("http://a{enc}b/")),
            (format!("{c}x"), format!("{enc}x")),
        ] {
            assert_eq!(parse(&raw).normalize(), encoded.as_str(), "{raw:?}");
            assert_eq!(
                rung(&raw, &encoded.to_lowercase()),
                Some(Level::Syntax),
                "{raw:?}"
            );
            assert_eq!(rung(&raw, &encoded), Some(Level::Syntax), "{raw:?}");
        }
    }
    // 3987bis §6.2: a LEIRI's characters that an IRI does not allow "MUST
    // be percent-encoded by applying the steps in Section 3.3"; §6.3 lists
    // them: space, delimiters, unwise characters, C0 controls, DEL, C1
    // controls, bidi formatting characters, specials, private use (in an
    // IRI, only in the query), tags, noncharacters.
    let leiri = [
        ("http://a/b c", "http://a/b%20c"),
        ("http://a/<\">", "http://a/%3C%22%3E"),
        ("http://a/\\^`{|}", "http://a/%5C%5E%60%7B%7C%7D"),
        ("http://a/\t\u{1}\u{7F}", "http://a/%09%01%7F"),
        ("http://a/\u{85}\u{9F}", "http://a/%C2%85%C2%9F"),
        ("http://a/\u{FFF0}\u{FFFD}", "http://a/%EF%BF%B0%EF%BF%BD"),
        ("http://a/\u{E000}", "http://a/%EE%80%80"),
        ("http://a/?\u{E000}", "http://a/?\u{E000}"),
        (
            "http://a/?\u{F0000}#\u{F0000}",
            "http://a/?\u{F0000}#%F3%B0%80%80",
        ),
        (
            "http://a/\u{E0001}?\u{E0001}",
            "http://a/%F3%A0%80%81?\u{E0001}",
        ),
        (
            "http://a/\u{FDD0}\u{1FFFE}",
            "http://a/%EF%B7%90%F0%9F%BF%BE",
        ),
        ("http://a b@c d/", "http://a%20b@c%20d/"),
        ("http://A{B/", "http://a%7Bb/"),
        ("x y/ \u{202E}", "x%20y/%20%E2%80%AE"),
    ];
    for (input, want) in leiri {
        let r = parse_leiri(input);
        let n = r.normalize();
        assert_eq!(n, want, "{input:?}");
        // The normal form is an IRI reference of the default profile.
        let p = IriRef::parse(n.as_str()).unwrap();
        assert_eq!(
            (p.host(), p.path(), p.query()),
            (n.host(), n.path(), n.query())
        );
        assert_eq!(n.normalize(), n.as_str());
    }
    // Encoded, they are still never decoded; decoded neighbours still are.
    assert_eq!(
        parse_leiri("http://a/%41 %e2%80%ae\u{202E}%c3%a9").normalize(),
        "http://a/A%20%E2%80%AE%E2%80%AEé"
    );
}

/// Dot segments go wherever resolution removes them whatever the base
/// (RFC 3986 §5.2.2: a reference with a scheme or an authority, or an
/// absolute path, has `remove_dot_segments(R.path)` as the target's path;
/// RFC 3987 §5.3.2.4: "IRI normalizers should remove dot-segments by
/// applying the remove_dot_segments algorithm to the path").
#[test]
fn dot_segments() {
    let cases = [
        // A scheme: §5.2.4 as written, rootless paths included.
        ("foo:a/../b", "foo:/b"),
        ("foo:./a", "foo:a"),
        ("foo:a/./b/.", "foo:a/b/"),
        ("foo:../a", "foo:a"),
        ("foo:a/..", "foo:/"),
        ("foo:.//a", "foo:/a"),
        ("foo:a/..//b", "foo:/.//b"),
        ("FOO:%2E%2E/a/%2e/b", "foo:a/b"),
        // An authority.
        ("//h/a/../b", "//h/b"),
        ("//h/a/%2E%2E", "//h/"),
        // An absolute path.
        ("/a/./b", "/a/b"),
        ("/a/../../b", "/b"),
        ("/.//a", "/.//a"),
        ("/a/..//b", "/.//b"),
        // A relative path: what resolution removes against every base.
        ("./a", "a"),
        ("a/./b", "a/b"),
        ("a/b/../c", "a/c"),
        ("a/b/.", "a/b/"),
        ("a/b/..", "a/"),
        ("./a/./b:c", "a/b:c"),
        ("%2E/a", "a"),
        ("%2E%2E/a", "../a"),
        ("../a/../b", "../a/../b"),
        ("a/b/../../c", "a/../c"),
        ("a/../../c", "../a/../c"),
        ("../x/./../../y", "../../x/../y"),
        ("./", "."),
        (".", "."),
        ("..", ".."),
        ("../", ".."),
        ("../.", ".."),
        ("a/..", "a/.."),
        ("a/../", "a/.."),
        ("././/a", ".//a"),
        ("./a:b/../c", "./a:b/../c"),
        ("./a:b/c/..", "./a:b/"),
        ("./a/../b:c", "a/../b:c"),
        ("?q", "?q"),
        ("", ""),
    ];
    for (input, want) in cases {
        let n = parse(input).normalize();
        assert_eq!(n, want, "{input:?}");
        assert_eq!(n.normalize(), want, "{input:?} twice");
    }
}

/// Every relative path of up to six segments of a small alphabet
/// resolves, against every kind of base, to what its normal form resolves
/// to: the normal form never changes a relative reference's meaning.
#[test]
fn relative_normal_forms_resolve_alike() {
    let alphabet = ["a", "b:c", "", ".", ".."];
    let bases: Vec<Iri<&str>> = BASES.iter().map(|b| Iri::parse(b).unwrap()).collect();
    let mut paths: Vec<Vec<&str>> = vec![Vec::new()];
    let (mut checked, mut shortened) = (0, 0);
    for _ in 0..6 {
        paths = paths
            .iter()
            .flat_map(|p| alphabet.iter().map(move |s| [p.as_slice(), &[*s]].concat()))
            .collect();
        for p in &paths {
            for suffix in ["", "?r"] {
                let input = format!("{}{suffix}", p.join("/"));
                // A first segment with a colon is a scheme, not a path.
                let Ok(r) = IriRef::parse(&input) else {
                    continue;
                };
                if r.scheme().is_some() || r.authority().is_some() || r.path().starts_with('/') {
                    continue;
                }
                let n = r.normalize();
                assert!(
                    n.scheme().is_none() && n.authority().is_none(),
                    "{input:?} → {n}"
                );
                assert_eq!(n.normalize(), n.as_str(), "{input:?}");
                for base in &bases {
                    assert_eq!(
                        base.resolve(&r),
                        base.resolve(&n),
                        "{input:?} → {n} against {base}"
                    );
                }
                // "%2E" is "." (RFC 3986 §2.3, §6.2.2.2), decoded before
                // the dot segments are looked at (resolution alone does
                // not decode it, so it is left out of the comparison above).
                let encoded = input.replace('.', "%2E");
                assert_eq!(parse(&encoded).normalize(), n, "{encoded:?}");
                checked += 1;
                shortened += usize::from(n.as_str().len() < input.len());
            }
        }
    }
    // Measured: 20,186 of 23,438 are shorter in normal form.
    assert!(checked > 20_000, "{checked}");
    assert!(shortened > checked * 3 / 4, "{shortened} of {checked}");
}

/// RFC 3986 §6.2.3: "a URI that uses the generic syntax for authority with
/// an empty path should be normalized to a path of "/"", for every scheme
/// whose defaults we know, and only where there is an authority.
#[test]
fn empty_path_after_an_authority() {
    for (scheme, port) in DEFAULT_PORTS {
        let input = format!("{}://a:{port}", scheme.to_uppercase());
        assert_eq!(
            parse(&input).normalize_with(Level::Scheme),
            format!("{scheme}://a/").as_str(),
            "{input}"
        );
        // Without an authority, an empty path stays empty.
        let input = format!("{scheme}:?q");
        assert_eq!(parse(&input).normalize_with(Level::Scheme), input.as_str());
        // Syntax-based normalization does not know the scheme.
        let input = format!("{scheme}://a");
        assert_eq!(parse(&input).normalize(), input.as_str());
    }
    assert_eq!(parse("ftp://a").normalize_with(Level::Scheme), "ftp://a/");
    assert_eq!(rung("ftp://a", "ftp://a/"), Some(Level::Scheme));
    assert_eq!(rung("imap://h", "IMAP://h:143/"), Some(Level::Scheme));
    // A scheme we know nothing of keeps its empty path.
    assert_eq!(parse("foo://a").normalize_with(Level::Scheme), "foo://a");
    assert_eq!(parse("sip:a@b").normalize_with(Level::Scheme), "sip:a@b");
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// RFC 3987 §5.3.2.3: percent-encoding differences are eliminated "by
    /// converting both IRIs to URIs (see section 3.1), eliminating escape
    /// differences in the resulting URIs": so a reference (an IRI, or a
    /// LEIRI under the `leiri` profile, 3987bis §6.2) and its URI have the
    /// same normal form, at both levels; that normal form is an IRI
    /// reference of the default profile, with the components a parse of
    /// it finds, and normalizing it again changes nothing.
    #[test]
    fn a_reference_and_its_uri_have_one_normal_form(
        s in wild_reference(),
        profile in prop::sample::select(vec![Profile::Rfc3987bis, Profile::Rfc3987, Profile::Leiri]),
    ) {
        let Ok(r) = IriRef::parse_with(&s, &ParseOptions::new().profile(profile)) else {
            return Ok(());
        };
        let uri = to_uri(&s, &ToUriOptions::new().profile(profile)).unwrap();
        let u = IriRef::parse(&uri).unwrap();
        for level in [Level::Syntax, Level::Scheme] {
            let n = r.normalize_with(level);
            let from_uri = u.normalize_with(level);
            prop_assert_eq!(from_uri.as_str(), n.as_str(), "URI {}", uri);
            let p = IriRef::parse(n.as_str()).unwrap();
            prop_assert_eq!(
                (n.scheme(), n.authority(), n.host(), n.port(), n.path(), n.query(), n.fragment()),
                (p.scheme(), p.authority(), p.host(), p.port(), p.path(), p.query(), p.fragment())
            );
            let again = n.normalize_with(level);
            prop_assert_eq!(again.as_str(), n.as_str());
            prop_assert!(equivalent(&r, &u, level));
        }
    }
}
