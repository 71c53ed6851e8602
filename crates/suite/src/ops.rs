//! Generated cases of the operations other than `valid`: components of
//! the strings that cover the reference DFAs, resolutions over a grid of
//! bases and references (RFC 3986 §5.2 and the readings it rules out),
//! normalizations of the features §6.2.2 names, and conversions of every
//! range end of the IRI grammars (to a URI, and back from its
//! percent-encoding).

use iribis::GrammarRule;
use iribis::Profile;
use iribis::dfa::Dfa;

use super::case::{Case, Expect, Op};
use super::sources::{components, normalization, resolution, to_iri, to_uri};

fn case(
    id: String,
    op: Op,
    profile: Profile,
    input: &str,
    base: Option<&str>,
    expect: Expect,
    source: &str,
) -> Case {
    Case {
        id,
        op,
        profile,
        rule: None,
        input: input.to_owned(),
        base: base.map(str::to_owned),
        expect,
        source: source.to_owned(),
        exercises: None,
        generator: Some("template".into()),
        note: None,
        extra: Default::default(),
    }
}

/// `components` cases of the given cases' inputs (the accepted strings that cover
/// the reference rule's DFA, the range ends in context, the spec examples).
pub(crate) fn components_of(profile: Profile, inputs: &[&Case]) -> Vec<Case> {
    let mut out = Vec::new();
    for from in inputs {
        let expect = components(&from.input, profile);
        if expect == Expect::Error {
            continue;
        }
        let mut c = case(
            format!("components/{profile}/{}", out.len() + 1),
            Op::Components,
            profile,
            &from.input,
            None,
            expect,
            &from.source,
        );
        c.exercises.clone_from(&from.exercises);
        c.rule = Some(
            if profile == Profile::Rfc3986 {
                "URI-reference"
            } else {
                "IRI-reference"
            }
            .into(),
        );
        c.generator.clone_from(&from.generator);
        out.push(c);
    }
    out
}

const BASES: &[&str] = &[
    "http://a/b/c/d;p?q",
    "http://a",
    "http://a/",
    "http://a/b/c/",
    "foo:a/b",
    "foo:/a/b",
    "foo:",
    "s://u@h:8",
    "urn:isbn:0451450523",
    "file:///x/y",
    "http://例え.jp/引き/割り?q",
    "http://[::1]/a/./b/?x#f",
    "a:/.//b",
];

const REFERENCES: &[&str] = &[
    "",
    ".",
    "..",
    "./",
    "../",
    "g",
    "./g",
    "../g",
    "../..",
    "../../g",
    "../../../../g",
    "/g",
    "//g",
    "?y",
    "#s",
    "g?y#s",
    ";x",
    "g/",
    "g/../h",
    "g/./h",
    "/./g",
    "/../g",
    "g.",
    ".g",
    "g..",
    "..g",
    "./g/.",
    "g;x=1/../y",
    "%2e",
    "%2E%2E/g",
    ".%2e/g",
    "a//b",
    "//",
    "///g",
    "./a:b",
    "g:h",
    "http:g",
    "foo:g",
    "//[v1.x]/é",
    "é/../ü",
    "?",
    "#",
    "a/b/c/../../..",
    "/.//g",
    "//h/./x?.#..",
];

/// What a reference teaches when a common reading gets it wrong.
fn resolve_note(base: &str, r: &str, expect: &Expect) -> Option<&'static str> {
    let dot_slash = matches!(expect, Expect::Result { result, .. }
        if result.split_once(':').is_some_and(|(_, rest)| rest.starts_with("/.//")));
    if dot_slash {
        Some(
            "RFC 3986 §5.2 as printed gives a path starting with \"//\" and no authority, which would read back as an authority: \"/.\" is written before the path, as the WHATWG URL Standard does (refusing to resolve is the other defensible answer)",
        )
    } else if r.contains("%2e") || r.contains("%2E") {
        Some(
            "\"%2e\" is not a dot segment: remove_dot_segments (RFC 3986 §5.2.4) works on the text, and decoding it belongs to normalization",
        )
    } else if r.contains("//") && !r.starts_with("//") || r == "/.//g" {
        Some(
            "empty segments are kept: only \".\" and \"..\" segments are removed (RFC 3986 §5.2.4)",
        )
    } else if base == "foo:a/b" && r.starts_with("..") {
        Some(
            "RFC 3986 §5.2.4 taken as printed: the merged path \"a/../c\" loses its only segment and the result becomes \"foo:/c\" (uriparser and 4Suite keep it rootless)",
        )
    } else if r == "http:g" && base.starts_with("http:") {
        Some("strict (RFC 3986 §5.2.2); the backward-compatible reading gives the second answer")
    } else {
        None
    }
}

/// `resolve` cases: every reference of the grid against every base, in
/// the profiles where both parse; and relative bases, which RFC 3986 §5.1
/// refuses.
pub(crate) fn resolutions() -> Vec<Case> {
    let mut out = Vec::new();
    for profile in [Profile::Rfc3987bis, Profile::Rfc3986] {
        let mut k = 0;
        for base in BASES {
            for r in REFERENCES {
                let expect = resolution(base, r, profile);
                if expect == Expect::Error {
                    continue;
                }
                k += 1;
                let mut c = case(
                    format!("resolve/{profile}/grid/{k}"),
                    Op::Resolve,
                    profile,
                    r,
                    Some(base),
                    expect,
                    "RFC 3986 §5.2 (3987bis §5.5)",
                );
                c.note = resolve_note(base, r, &c.expect).map(str::to_owned);
                out.push(c);
            }
        }
        for base in ["/a/b", "a/b", "//h/p", "", "?q"] {
            k += 1;
            let mut c = case(
                format!("resolve/{profile}/grid/{k}"),
                Op::Resolve,
                profile,
                "g",
                Some(base),
                Expect::Error,
                "RFC 3986 §5.1",
            );
            c.note = Some("a base must be an absolute IRI, with a scheme (RFC 3986 §5.1): resolving against a relative reference is an error, not a guess".into());
            out.push(c);
        }
    }
    out
}

const NORMALIZE: &[&str] = &[
    "HTTP://EXAMPLE.COM/",
    "hTtP://Example.Com:80/A/b",
    "http://example.com",
    "http://a/./b/../c/./d/..",
    "http://a/b/../../../c",
    "http://a/%7e%41%2f%3a%5b",
    "http://a/%7E%7e?%7E%7e#%7E%7e",
    "http://a/%e9",
    "http://a/%C3%A9%c3%a9",
    "http://R%C3%A9sum%C3%A9.Example/",
    "http://[::A:b]/",
    "http://[V1.A]/",
    "http://u%41@a/",
    "http://a/%2F%2f%3F%23",
    "http://a/a%20b",
    "http://a/%E2%80%AE",
    "http://a/?%26%3D%2B",
    "http://a/b//c/./../d",
    "foo:a/../b",
    "foo:/./a",
    "foo://a/..",
    "mailto:Joe@Example.COM",
    "urn:ISBN:0451450523",
    "http://例え.JP/%E5%BC%95",
    "http://a/%ef%bc%a1",
];

/// `normalize` cases: the features of syntax-based normalization (RFC 3986
/// §6.2.2: case, percent-encoding, dot segments; RFC 3987 §5.3.2), one by
/// one and together. Only of IRIs and URIs (with a scheme): §6 defines the
/// normalization of URIs, and how far a relative reference can be
/// normalized without its base is a choice (iribis's is in its docs), not
/// the spec's.
pub(crate) fn normalizations() -> Vec<Case> {
    let mut out = Vec::new();
    for profile in [Profile::Rfc3987bis, Profile::Rfc3986] {
        for (k, input) in NORMALIZE.iter().enumerate() {
            let expect = normalization(input, profile);
            if expect == Expect::Error {
                continue;
            }
            let mut c = case(
                format!("normalize/{profile}/template/{}", k + 1),
                Op::Normalize,
                profile,
                input,
                None,
                expect,
                "RFC 3986 §6.2.2, RFC 3987 §5.3.2",
            );
            if *input == "foo:a/../b" {
                c.note = Some("remove_dot_segments (RFC 3986 §5.2.4) taken as printed: the rootless path \"a/../b\" becomes \"/b\"".into());
            }
            out.push(c);
        }
    }
    out
}

/// The conversions of the range ends `chars` (non-ASCII, and for LEIRIs
/// the ASCII characters they add): each character in a path, a query, a
/// fragment and a host, to a URI in the profiles whose IRIs hold it; and
/// its UTF-8 percent-encoded back to an IRI.
pub(crate) fn conversions(chars: &[(Profile, char)]) -> Vec<Case> {
    let mut out = Vec::new();
    let templates = [
        "http://h/{}",
        "http://h/?{}",
        "http://h/#{}",
        "http://{}/",
        "s://u{}@h/",
    ];
    let mut k = 0;
    for &(profile, c) in chars {
        let Some(dfa) = GrammarRule::IRI
            .in_profile(profile)
            .and_then(|r| Dfa::of(r, profile))
        else {
            continue;
        };
        for t in templates {
            let input = t.replace("{}", &c.to_string());
            if !dfa.accepts_all(&input) {
                continue;
            }
            k += 1;
            let mut x = case(
                format!("to-uri/{profile}/range-end/{k}"),
                Op::ToUri,
                profile,
                &input,
                None,
                to_uri(&input, profile),
                if profile == Profile::Leiri {
                    "3987bis §6.2"
                } else {
                    "3987bis §3.3"
                },
            );
            x.note = Some(format!("U+{:04X}", c as u32));
            x.generator = Some("range-end".into());
            out.push(x);
        }
    }
    let mut k = 0;
    let mut seen = std::collections::HashSet::new();
    for &(_, c) in chars {
        if c.is_ascii() || !seen.insert(c) {
            continue;
        }
        let mut buf = [0u8; 4];
        let pct: String = c
            .encode_utf8(&mut buf)
            .bytes()
            .map(|b| format!("%{b:02X}"))
            .collect();
        for t in ["http://h/{}", "http://h/?{}", "http://h/#{}", "http://{}/"] {
            let input = t.replace("{}", &pct);
            k += 1;
            let mut x = case(
                format!("to-iri/rfc3987bis/range-end/{k}"),
                Op::ToIri,
                Profile::Rfc3987bis,
                &input,
                None,
                to_iri(&input),
                "3987bis §4.2",
            );
            x.note = Some(format!("U+{:04X}", c as u32));
            x.generator = Some("range-end".into());
            out.push(x);
        }
    }
    out
}
