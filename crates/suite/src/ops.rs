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
use super::sources::{
    SLASHES_NOTE, comparison, components, normalization, requirements, resolution, to_iri,
    to_uri_in, to_uri_noted,
};

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
        other: None,
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

/// References added to the grid later, numbered after the first grid's
/// cases so that those keep their ids.
const MORE_REFERENCES: &[&str] = &[
    // Only LEIRIs have these characters (3987bis §6.1): resolved under the
    // leiri profile alone.
    "a b/../c d",
    "{x}|y?<q>#\"f\"",
    "../\\g^`",
    // Characters of ucschar and iprivate, in every IRI profile.
    "ü/./ö?\u{E000}",
    "//例え.jp/引き/../割り",
];

/// What a reference teaches when a common reading gets it wrong.
fn resolve_note(base: &str, r: &str, expect: &Expect) -> Option<&'static str> {
    let dot_slash = matches!(expect, Expect::Result { result, .. }
        if result.split_once(':').is_some_and(|(_, rest)| rest.starts_with("/.//")));
    let literal = matches!(expect, Expect::Result { also, .. }
        if also.iter().any(|a| a.split_once(':').is_some_and(|(_, rest)| rest.starts_with("//"))));
    if dot_slash && literal {
        Some(SLASHES_NOTE)
    } else if dot_slash && matches!(r, "" | "?y" | "#s" | "?" | "#") {
        Some(
            "the base's path is taken as it is, \"/.\" and all: with an empty reference path RFC 3986 §5.2.2 removes no dot segments",
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

/// The section an IRI profile's resolution rests on: RFC 3986 §5.2 on
/// characters, as each IRI spec says.
fn resolution_source(profile: Profile) -> &'static str {
    match profile {
        Profile::Rfc3987 => "RFC 3986 §5.2 (RFC 3987 §6.5)",
        Profile::Leiri => "RFC 3986 §5.2 (3987bis §5.5, §6.1)",
        _ => "RFC 3986 §5.2 (3987bis §5.5)",
    }
}

/// `resolve` cases: every reference of the grid against every base, in
/// the profiles where both parse; and relative bases, which RFC 3986 §5.1
/// refuses.
pub(crate) fn resolutions() -> Vec<Case> {
    let mut out = Vec::new();
    for profile in Profile::ALL {
        let mut k = 0;
        let grid = |k: &mut usize, references: &[&str], out: &mut Vec<Case>| {
            for base in BASES {
                for r in references {
                    let expect = resolution(base, r, profile);
                    if expect == Expect::Error {
                        continue;
                    }
                    *k += 1;
                    let mut c = case(
                        format!("resolve/{profile}/grid/{k}"),
                        Op::Resolve,
                        profile,
                        r,
                        Some(base),
                        expect,
                        resolution_source(profile),
                    );
                    c.note = resolve_note(base, r, &c.expect).map(str::to_owned);
                    out.push(c);
                }
            }
        };
        grid(&mut k, REFERENCES, &mut out);
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
        grid(&mut k, MORE_REFERENCES, &mut out);
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
    // More of §6.2.2's features, one at a time.
    "HTTPS://a/",
    "Foo+Bar.Baz-1://a/",
    "http://User@a/",
    "http://%75ser:%50w@a/",
    "http://a:/",
    "http://a:0080/",
    "http://A.B.C/",
    "http://%41%42.example/",
    "http://[FE80::1]/",
    "http://[fe80:0:0:0:0:0:0:1]/",
    "http://[::FFFF:1.2.3.4]/",
    "http://1.2.3.4/",
    "http://a/%2e/b",
    "http://a/%2E%2E/b",
    "http://a/b/%2e%2e/c",
    "http://a/.",
    "http://a/..",
    "http://a/b/.",
    "http://a/b/..",
    "http://a/./",
    "http://a/b/c/./../../g",
    "http://a/mid/content=5/../6",
    "http://a/b;p/../c;q",
    "http://a/%5B%5d",
    "http://a/%40%3a%21%24",
    "http://a/%25",
    "http://a/%25%32%35",
    "http://a/?%7e#%7e",
    "http://a/?a=%41&b=%2f",
    "http://a/#%2F%41",
    "http://a/%c3%a9?%c3%a9#%c3%a9",
    "http://a/%F0%9F%98%80",
    "http://a/%ed%a0%80",
    "http://a/%c0%af",
    "http://a/%ff",
    "http://a/%E2%80%8F",
    "http://a/%EE%80%80",
    "http://a/?%EE%80%80",
    "file:///C:/a/../b",
    "file://Host/%7e",
    "urn:example:A%2fb/../c",
    "tag:Example.COM,2000:%7e",
    "foo:a/./b/../../c",
    "foo:./a",
    "foo:../a",
    "foo:/..//a",
    // Characters only some profiles allow.
    "http://a/résumé/./x",
    "http://Ü.example/%C3%9C",
    "http://a/?\u{E000}%EE%80%80",
    "http://a/%E2%80%AE\u{E9}",
    "http://a/a b/../%20c",
    "http://a/{x}/../|y|",
    "http://a/<%3C>",
];

/// `normalize` cases: the features of syntax-based normalization (RFC 3986
/// §6.2.2: case, percent-encoding, dot segments; RFC 3987 §5.3.2), one by
/// one and together. Only of IRIs and URIs (with a scheme): §6 defines the
/// normalization of URIs, and how far a relative reference can be
/// normalized without its base is a choice (iribis's is in its docs), not
/// the spec's.
pub(crate) fn normalizations() -> Vec<Case> {
    let mut out = Vec::new();
    for profile in Profile::ALL {
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
                normalization_source(profile),
            );
            if *input == "foo:a/../b" {
                c.note = Some("remove_dot_segments (RFC 3986 §5.2.4) taken as printed: the rootless path \"a/../b\" becomes \"/b\"".into());
            }
            if let Expect::Result { result, also } = &c.expect
                && let Some(other) = also.first()
            {
                c.note = Some(
                    if result.contains("/.//") && !other.contains("/.//") {
                        super::sources::NORMALIZE_SLASHES_NOTE
                    } else {
                        super::sources::NORMALIZE_PRIVATE_NOTE
                    }
                    .into(),
                );
            }
            out.push(c);
        }
    }
    out
}

/// The section syntax-based normalization rests on in a profile: RFC
/// 3986 §6.2.2 for URIs; for IRIs RFC 3987 §5.3.2, which 3987bis leaves to
/// a companion document (3987bis §12.1) and does not replace.
fn normalization_source(profile: Profile) -> &'static str {
    match profile {
        Profile::Rfc3986 => "RFC 3986 §6.2.2",
        Profile::Rfc3987 => "RFC 3987 §5.3.2 (RFC 3986 §6.2.2)",
        Profile::Leiri => {
            "RFC 3987 §5.3.2 (RFC 3986 §6.2.2) after 3987bis §6.2 (LEIRI → IRI); 3987bis itself defers comparison to a companion document (§12.1)"
        }
        _ => {
            "RFC 3987 §5.3.2 (RFC 3986 §6.2.2); 3987bis itself defers comparison to a companion document (§12.1)"
        }
    }
}

/// The section IRI → URI mapping rests on in a profile.
pub(crate) fn to_uri_source(profile: Profile) -> &'static str {
    match profile {
        Profile::Rfc3987 => "RFC 3987 §3.1",
        Profile::Leiri => "3987bis §6.2 (LEIRI → IRI), then §3.6 (IRI → URI)",
        _ => "3987bis §3.3",
    }
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
            let (expect, why) = to_uri_noted(&input, profile);
            let mut x = case(
                format!("to-uri/{profile}/range-end/{k}"),
                Op::ToUri,
                profile,
                &input,
                None,
                expect,
                to_uri_source(profile),
            );
            x.note = Some(match why {
                Some(why) => format!("U+{:04X}; {why}", c as u32),
                None => format!("U+{:04X}", c as u32),
            });
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

/// Pairs for the comparison ladder (RFC 3987 §5.3), each with the rung it
/// is about.
const COMPARE: &[(&str, &str, &str)] = &[
    (
        "http://example.org/a",
        "http://example.org/a",
        "RFC 3987 §5.3.1",
    ),
    (
        "http://example.org/~smith/",
        "http://example.org/%7Esmith/",
        "RFC 3987 §5.3.2.3",
    ),
    (
        "http://example.org/~smith/",
        "http://example.org/%7esmith/",
        "RFC 3987 §5.3.2.3",
    ),
    (
        "http://www.example.org/résumé.html",
        "http://www.example.org/r%C3%A9sum%C3%A9.html",
        "RFC 3987 §5.3.2.3",
    ),
    (
        "http://www.example.org/r%C3%A9sum%C3%A9.html",
        "http://www.example.org/r%c3%a9sum%c3%a9.html",
        "RFC 3987 §5.3.2.1",
    ),
    (
        "HTTP://www.EXAMPLE.com/",
        "http://www.example.com/",
        "RFC 3987 §5.3.2.1",
    ),
    (
        "http://example.com/A",
        "http://example.com/a",
        "RFC 3987 §5.3.2.1",
    ),
    ("http://a/b/../c/./d", "http://a/c/d", "RFC 3987 §5.3.2.4"),
    (
        "http://www.example.org/re\u{301}sume\u{301}.html",
        "http://www.example.org/résumé.html",
        "RFC 3987 §5.3.2.2",
    ),
    (
        "http://example.com",
        "http://example.com/",
        "RFC 3987 §5.3.3",
    ),
    (
        "http://example.com:80/",
        "http://example.com/",
        "RFC 3987 §5.3.3",
    ),
    (
        "http://example.com:/",
        "http://example.com/",
        "RFC 3987 §5.3.3",
    ),
    (
        "https://example.com:443/",
        "https://example.com/",
        "RFC 3987 §5.3.3",
    ),
    (
        "https://example.com:80/",
        "https://example.com/",
        "RFC 3987 §5.3.3",
    ),
    (
        "ftp://example.com:21/",
        "ftp://example.com/",
        "RFC 3987 §5.3.3",
    ),
    (
        "http://example.com/?",
        "http://example.com/",
        "RFC 3987 §5.3.3",
    ),
    (
        "http://example.com/#",
        "http://example.com/",
        "RFC 3987 §5.3.3",
    ),
    (
        "mailto:Joe@Example.COM",
        "mailto:Joe@example.com",
        "RFC 3987 §5.3.3",
    ),
    ("http://a/#x", "http://a/#y", "RFC 3987 §5.3.1"),
    ("http://a/b", "http://a/b/", "RFC 3987 §5.3.1"),
    ("http://a/%2F", "http://a//", "RFC 3987 §5.3.2.3"),
    ("http://a/%41", "http://a/A", "RFC 3987 §5.3.2.3"),
    ("http://a/%7E%41", "http://a/~A", "RFC 3987 §5.3.2.3"),
    ("foo://A/%7e", "foo://a/~", "RFC 3987 §5.3.2"),
    ("foo:a/../b", "foo:/b", "RFC 3987 §5.3.2.4"),
    ("http://[::A]/", "http://[::a]/", "RFC 3987 §5.3.2.1"),
    (
        "http://例え.jp/",
        "http://xn--r8jz45g.jp/",
        "RFC 3987 §5.3.3",
    ),
    (
        "http://例え.jp/",
        "http://%E4%BE%8B%E3%81%88.jp/",
        "RFC 3987 §5.3.2.3",
    ),
    ("http://a/\u{FF21}", "http://a/A", "RFC 3987 §5.3.2.2"),
    (
        "http://a/?q=%E6%97%A5",
        "http://a/?q=日",
        "RFC 3987 §5.3.2.3",
    ),
    ("urn:example:a", "URN:example:a", "RFC 3987 §5.3.2.1"),
    ("urn:example:a", "urn:EXAMPLE:a", "RFC 3987 §5.3.3"),
];

/// `compare` cases: the rungs of the comparison ladder (RFC 3987 §5.3:
/// simple string comparison, syntax-based, scheme-based normalization) at
/// which two IRIs are equivalent, fragments counted; in every profile
/// whose grammar takes both.
pub(crate) fn comparisons() -> Vec<Case> {
    in_every_profile(
        Op::Compare,
        "ladder",
        COMPARE,
        |&(a, _, source)| {
            (
                a,
                format!(
                    "{source} (the ladder of RFC 3987 §5.3; 3987bis defers comparison to a companion document, §12.1)"
                ),
            )
        },
        |&(a, b, _), profile| comparison(a, b, profile),
        |&(_, b, source), _, c| {
            c.other = Some(b.to_owned());
            if source.ends_with("5.3.2.2") {
                c.note = Some("comparison does not normalize characters: IRIs are expected in NFC beforehand (RFC 3987 §5.3.2.2)".into());
            }
        },
    )
}

/// The `op` cases of `items` in every profile: each item's input and
/// source by `input_source`, its answer by `expect` (an item the profile's
/// grammar refuses, [`Expect::Error`], is left out), numbered
/// `{op}/{profile}/{kind}/{k}` from 1 in each profile in the order kept;
/// `finish` adds what else a case says (the other IRI, a note).
fn in_every_profile<T>(
    op: Op,
    kind: &str,
    items: &[T],
    input_source: impl Fn(&T) -> (&str, String),
    expect: impl Fn(&T, Profile) -> Expect,
    finish: impl Fn(&T, Profile, &mut Case),
) -> Vec<Case> {
    let mut out = Vec::new();
    for profile in Profile::ALL {
        let mut k = 0;
        for item in items {
            let expect = expect(item, profile);
            if expect == Expect::Error {
                continue;
            }
            k += 1;
            let (input, source) = input_source(item);
            let id = format!("{}/{profile}/{kind}/{k}", op.name());
            let mut c = case(id, op, profile, input, None, expect, &source);
            finish(item, profile, &mut c);
            out.push(c);
        }
    }
    out
}

/// Inputs for the requirements beyond the grammar, with the section each
/// is about.
const CHECK: &[(&str, &str)] = &[
    ("http://example.org/", "RFC 3987 §4"),
    ("http://例え.jp/引き/割り", "RFC 3987 §4"),
    ("http://example.org/a\u{200E}b", "RFC 3987 §4.1"),
    ("http://example.org/\u{202E}abc", "RFC 3987 §4.1"),
    ("http://example.org/?q=\u{2067}x\u{2069}", "RFC 3987 §4.1"),
    ("http://example.org/#\u{061C}", "RFC 3987 §4.1"),
    ("http://example.org/abcאב", "RFC 3987 §4.2"),
    ("http://example.org/אב/cd", "RFC 3987 §4.2"),
    ("http://example.org/אבג", "RFC 3987 §4.2"),
    ("http://example.org/1אב", "RFC 3987 §4.2"),
    ("http://example.org/אב1", "RFC 3987 §4.2"),
    ("http://example.org/عربي?q=عربي", "RFC 3987 §4.2"),
    ("http://example.org/?a=אב&b=cd", "RFC 3987 §4.2"),
    ("http://אב.example/", "RFC 3987 §4.2 (RFC 5893)"),
    ("http://אבc.example/", "RFC 3987 §4.2 (RFC 5893)"),
    (
        "http://www.example.org/re\u{301}sume\u{301}.html",
        "RFC 3987 §3.1",
    ),
    ("http://www.example.org/résumé.html", "RFC 3987 §3.1"),
    ("http://example.org/\u{212B}", "RFC 3987 §3.1"),
    ("http://example.org/?\u{1100}\u{1161}", "RFC 3987 §3.1"),
    ("http://example.org/\u{FF21}\u{FF22}", "3987bis §5.1 (b)"),
    ("http://example.org/\u{FF71}", "3987bis §5.1 (b)"),
    ("http://example.org/a\u{2044}b", "3987bis §5.1 (b)"),
    ("http://example.org/a\u{FF0F}b", "3987bis §5.1 (b)"),
    ("http://example.org/\u{334}a", "3987bis §5.1 (c)"),
    ("http://example.org/a/\u{301}b", "3987bis §5.1 (c)"),
    ("http://example.org/?\u{301}", "3987bis §5.1 (c)"),
    ("http://example.org/a\u{301}", "3987bis §5.1 (c)"),
    ("http://example.org/a\u{200D}b", "3987bis §5.1 (d)"),
    ("http://example.org/a\u{200C}b", "3987bis §5.1 (d)"),
    ("http://example.org/#\u{200D}", "3987bis §5.1 (d)"),
    ("http://example.org/%E2%80%AE", "RFC 3987 §4.1"),
    ("http://example.org/a b", "3987bis §6.1"),
];

/// `check` cases: the requirements beyond the grammar each input breaks
/// (RFC 3987 §3.1's NFC, §4.1 and §4.2's bidi rules, 3987bis §5.1 (b),
/// (c), (d)), by the ids of the README; in every profile whose grammar
/// takes the input.
pub(crate) fn checks() -> Vec<Case> {
    in_every_profile(
        Op::Check,
        "template",
        CHECK,
        |&(input, source)| (input, source.to_owned()),
        |&(input, _), profile| requirements(input, profile),
        |&(_, source), profile, c| {
            if profile == Profile::Leiri && source.ends_with("§4.1") {
                c.note = Some(
                    "LEIRIs lift the restriction on bidi formatting characters (3987bis §6.1)"
                        .into(),
                );
            }
        },
    )
}

/// `to-iri` cases of 3987bis §5.1 (b), (c), (d) (RFC 3987 §3.2 step 4,
/// 3987bis §4.2): percent-encodings of characters the spec advises
/// against, which a conversion may leave encoded.
const TO_IRI_51: &[(&str, &str)] = &[
    ("http://h/%EF%BC%A1", "3987bis §4.2, §5.1 (b): full-width A"),
    (
        "http://h/%EF%BD%B1",
        "3987bis §4.2, §5.1 (b): half-width katakana",
    ),
    (
        "http://h/a%E2%81%84b",
        "3987bis §4.2, §5.1 (b): fraction slash",
    ),
    (
        "http://h/%CC%B4a",
        "3987bis §4.2, §5.1 (c): combining mark at a segment's start",
    ),
    (
        "http://h/a/%CC%81",
        "3987bis §4.2, §5.1 (c): combining mark after '/'",
    ),
    (
        "http://h/?%CC%81x",
        "3987bis §4.2, §5.1 (c): combining mark after '?'",
    ),
    (
        "http://h/a%CC%81",
        "3987bis §4.2, §5.1 (c): combining mark after a letter",
    ),
    (
        "http://h/a%E2%80%8Db",
        "3987bis §4.2, §5.1 (d): ZERO WIDTH JOINER",
    ),
    (
        "http://h/a%E2%80%8Cb",
        "3987bis §4.2, §5.1 (d): ZERO WIDTH NON-JOINER",
    ),
    (
        "http://h/#%E2%80%8D",
        "3987bis §4.2, §5.1 (d): ZERO WIDTH JOINER in a fragment",
    ),
    ("http://h/%E2%80%8E", "RFC 3987 §3.2 step 4, §4.1: LRM"),
    (
        "http://h/%E2%81%A6x%E2%81%A9",
        "RFC 3987 §3.2 step 4, §4.1: isolates",
    ),
];

/// `to-uri` inputs that are not IRIs of the profile: 3987bis §3.3 defines
/// the mapping "for all sequences of Unicode characters, whether or not
/// they are valid for the component in question".
const TO_URI_NOT_IRI: &[&str] = &[
    "http://h/a b",
    "http://h/<x>",
    "http://h/\"q\"",
    "http://h/{a}|b\\c^d`e",
    "http://h/?a b#c d",
    "http://h/%zz",
    "http://h/100%",
    "http://h/\u{7f}",
    "http://h/\u{fffe}",
    "http://h/\u{E000}",
    "http://h/a\u{202E}b",
    "http://h:x/",
];

/// `to-uri` cases of 3987bis §3.5: the query of an http or https IRI from
/// a document whose charset is not UTF-8 is mapped in that charset.
const TO_URI_CHARSET: &[(&str, &str)] = &[
    ("http://example.jp/?q=日本", "shift_jis"),
    ("http://example.jp/日本?q=日本", "shift_jis"),
    ("https://example.org/?q=é", "windows-1252"),
    ("http://example.org/é?q=é#é", "iso-8859-1"),
    ("http://example.kr/?q=한국", "euc-kr"),
    ("ftp://example.org/?q=é", "windows-1252"),
    ("http://example.org/?q=é", "utf-8"),
    ("http://example.org/?q=€", "iso-8859-1"),
];

/// The conversion cases beyond the range ends: to-iri of the characters
/// 3987bis §5.1 (b), (c), (d) advises against, to-uri of strings that
/// are not IRIs (3987bis §3.3), and of queries in a document charset
/// (§3.5).
pub(crate) fn more_conversions() -> Vec<Case> {
    let mut out = Vec::new();
    for (k, (input, source)) in TO_IRI_51.iter().enumerate() {
        let mut c = case(
            format!("to-iri/rfc3987bis/limitations/{}", k + 1),
            Op::ToIri,
            Profile::Rfc3987bis,
            input,
            None,
            to_iri(input),
            source,
        );
        c.note = Some(if super::sources::isolates_decoded(input).is_some() {
            super::sources::ISOLATES_NOTE.into()
        } else {
            "the first answer leaves encoded what 3987bis §5.1 advises against and RFC 3987 §3.2 step 4 lets a conversion keep; decoding it is allowed too".into()
        });
        out.push(c);
    }
    for profile in [Profile::Rfc3987bis, Profile::Rfc3987, Profile::Leiri] {
        for (k, input) in TO_URI_NOT_IRI.iter().enumerate() {
            let (expect, _) = to_uri_noted(input, profile);
            // iribis maps strings that are not IRIs under the leiri
            // profile (3987bis §6.2 then §3.3) and refuses them under the
            // others: a refusal is no answer the spec gives, so those
            // are left out.
            if expect == Expect::Error {
                continue;
            }
            let mut c = case(
                format!("to-uri/{profile}/not-an-iri/{}", k + 1),
                Op::ToUri,
                profile,
                input,
                None,
                expect,
                "3987bis §3.3 (the mapping is defined for every string of characters)",
            );
            c.generator = Some("template".into());
            out.push(c);
        }
        // RFC 3987 maps every component through UTF-8 (§3.1): the
        // document charset of a query is 3987bis's (§3.5), which LEIRIs
        // reach through §6.2 and §3.6.
        if profile == Profile::Rfc3987 {
            continue;
        }
        for (k, (input, charset)) in TO_URI_CHARSET.iter().enumerate() {
            let mut c = case(
                format!("to-uri/{profile}/charset/{}", k + 1),
                Op::ToUri,
                profile,
                input,
                None,
                to_uri_in(input, profile, charset),
                "3987bis §3.5",
            );
            c.extra
                .insert("charset".into(), serde_json::Value::from(*charset));
            c.note = Some(format!(
                "read from a document in {charset}: the query of an http or https IRI is mapped in the document's charset (3987bis §3.5), the rest in UTF-8"
            ));
            out.push(c);
        }
    }
    out
}

/// IPv6 zone identifiers (RFC 6874): not in the IP-literal of RFC 3986,
/// RFC 3987 or 3987bis, so invalid in every profile; the zone written as
/// an IPvFuture is valid.
const ZONES: &[&str] = &[
    "http://[fe80::1%25en0]/",
    "http://[fe80::1%en0]/",
    "http://[fe80::a%25eth0.1]:8080/p",
    "http://[fe80::1%2525]/",
    "http://[v1.fe80::1+en0]/",
    "http://[fe80::1]/",
];

/// `valid` and `components` cases of IPv6 zone identifiers.
pub(crate) fn zone_ids() -> Vec<Case> {
    let mut out = Vec::new();
    for profile in Profile::ALL {
        let rule = if profile == Profile::Rfc3986 {
            "URI-reference"
        } else {
            "IRI-reference"
        };
        let Some(dfa) = GrammarRule::IRI_REFERENCE
            .in_profile(profile)
            .and_then(|r| Dfa::of(r, profile))
        else {
            continue;
        };
        for (k, input) in ZONES.iter().enumerate() {
            let mut c = case(
                format!("valid/{profile}/{rule}/zone-id/{}", k + 1),
                Op::Valid,
                profile,
                input,
                None,
                super::generate::verdict(dfa, input),
                &format!(
                    "{} ABNF IP-literal (RFC 6874's ZoneID is not part of it)",
                    super::generate::abnf_section(profile)
                ),
            );
            c.rule = Some(rule.into());
            c.exercises = Some("IP-literal".into());
            c.note = Some("RFC 6874 adds \"%25\" and a zone to IPv6address for URIs; the grammars here do not have it, so a zone ID is invalid but written as an IPvFuture".into());
            out.push(c);
            let mut c = case(
                format!("components/{profile}/zone-id/{}", k + 1),
                Op::Components,
                profile,
                input,
                None,
                components(input, profile),
                &format!(
                    "{} ABNF IP-literal (RFC 6874's ZoneID is not part of it)",
                    super::generate::abnf_section(profile)
                ),
            );
            c.rule = Some(rule.into());
            c.exercises = Some("IP-literal".into());
            out.push(c);
        }
    }
    out
}

/// `components` of inputs that are not references of the profile: the
/// operation must fail (the near misses of the reference rule, whose
/// `valid` cases say where each goes wrong).
pub(crate) fn components_of_invalid(profile: Profile, inputs: &[&Case]) -> Vec<Case> {
    let mut out = Vec::new();
    for from in inputs {
        let expect = components(&from.input, profile);
        if expect != Expect::Error {
            continue;
        }
        let mut c = case(
            format!("components/{profile}/invalid/{}", out.len() + 1),
            Op::Components,
            profile,
            &from.input,
            None,
            expect,
            &from.source,
        );
        c.rule.clone_from(&from.rule);
        c.exercises.clone_from(&from.exercises);
        c.generator.clone_from(&from.generator);
        c.note = Some("not a reference of the profile (its valid case says where it goes wrong): there are no components to give".into());
        out.push(c);
    }
    out
}
