//! Reference resolution: every example of RFC 3986 §5.4.1 and §5.4.2 pinned
//! by snapshot, IRIs with non-ASCII bases and references, the 90 `resolve`
//! vectors of the conformance corpus, and a literal transcription of the
//! pseudo-code of RFC 3986 §5.2.2 as an oracle for generated references.

use crate::common;
use iribis::resolve::ResolveOptions;

use iribis::{Iri, IriRef};

use proptest::prelude::*;

use serde_json::Value;

const BASE: &str = "http://a/b/c/d;p?q";

fn resolve(base: &str, r: &str) -> String {
    let base = Iri::parse(base).unwrap();
    let r = IriRef::parse(r).unwrap();
    base.resolve(&r).to_string()
}

/// What `relativize`'s answer must resolve to: the target, when some
/// reference does, else what the target itself resolves to.
fn expected_back(base: &Iri<&str>, target: &Iri<&str>) -> Iri<String> {
    let resolved = base.resolve(&IriRef::from(*target));
    // Only a reference without a path reaches a path with dot segments:
    // RFC 3986 §5.2.2 sends every other path through remove_dot_segments.
    // Such a reference takes the base's query unless it has one.
    let same_document = target.scheme() == base.scheme()
        && target.authority() == base.authority()
        && target.path() == base.path()
        && (target.query().is_some() || base.query().is_none());
    if same_document {
        Iri::parse(target.as_str()).unwrap().into_owned()
    } else {
        resolved
    }
}

/// RFC 3986 §5.2.2, §5.2.3 and §5.2.4 transcribed line by line with
/// strings, as the oracle for the resolver's one-pass implementation.
mod oracle {
    pub struct Parts {
        pub scheme: Option<String>,
        pub authority: Option<String>,
        pub path: String,
        pub query: Option<String>,
        pub fragment: Option<String>,
    }

    pub fn remove_dot_segments(path: &str) -> String {
        let mut input = path.to_owned();
        let mut output = String::new();
        while !input.is_empty() {
            if input.starts_with("../") {
                input.drain(..3);
            } else if input.starts_with("./") {
                input.drain(..2);
            } else if input.starts_with("/./") {
                input.replace_range(..3, "/");
            } else if input == "/." {
                input = "/".into();
            } else if input.starts_with("/../") {
                input.replace_range(..4, "/");
                output.truncate(output.rfind('/').unwrap_or(0));
            } else if input == "/.." {
                input = "/".into();
                output.truncate(output.rfind('/').unwrap_or(0));
            } else if input == "." || input == ".." {
                input.clear();
            } else {
                let start = usize::from(input.starts_with('/'));
                let end = input[start..].find('/').map_or(input.len(), |i| i + start);
                output.push_str(&input[..end]);
                input.drain(..end);
            }
        }
        output
    }

    fn merge(base: &Parts, path: &str) -> String {
        if base.authority.is_some() && base.path.is_empty() {
            format!("/{path}")
        } else {
            match base.path.rfind('/') {
                Some(i) => format!("{}{path}", &base.path[..=i]),
                None => path.to_owned(),
            }
        }
    }

    pub fn resolve(base: &Parts, r: &Parts) -> Parts {
        let (scheme, authority, path, query);
        if r.scheme.is_some() {
            scheme = r.scheme.clone();
            authority = r.authority.clone();
            path = remove_dot_segments(&r.path);
            query = r.query.clone();
        } else {
            if r.authority.is_some() {
                authority = r.authority.clone();
                path = remove_dot_segments(&r.path);
                query = r.query.clone();
            } else {
                if r.path.is_empty() {
                    path = base.path.clone();
                    query = r.query.clone().or(base.query.clone());
                } else {
                    path = if r.path.starts_with('/') {
                        remove_dot_segments(&r.path)
                    } else {
                        remove_dot_segments(&merge(base, &r.path))
                    };
                    query = r.query.clone();
                }
                authority = base.authority.clone();
            }
            scheme = base.scheme.clone();
        }
        Parts {
            scheme,
            authority,
            path,
            query,
            fragment: r.fragment.clone(),
        }
    }

    /// §5.3, with the one choice the RFC leaves open: a path starting with
    /// "//" without an authority is written "/.//".
    pub fn recompose(t: &Parts) -> String {
        let mut out = String::new();
        if let Some(s) = &t.scheme {
            out.push_str(s);
            out.push(':');
        }
        if let Some(a) = &t.authority {
            out.push_str("//");
            out.push_str(a);
        } else if t.path.starts_with("//") {
            out.push_str("/.");
        }
        out.push_str(&t.path);
        if let Some(q) = &t.query {
            out.push('?');
            out.push_str(q);
        }
        if let Some(f) = &t.fragment {
            out.push('#');
            out.push_str(f);
        }
        out
    }
}

fn parts(r: &IriRef<&str>) -> oracle::Parts {
    oracle::Parts {
        scheme: r.scheme().map(str::to_owned),
        authority: r.authority().map(str::to_owned),
        path: r.path().to_owned(),
        query: r.query().map(str::to_owned),
        fragment: r.fragment().map(str::to_owned),
    }
}

fn segment() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["", ".", "..", "a", "b", "é", "..a", ".b", "g;x", "例"])
        .prop_map(str::to_owned)
}

fn path() -> impl Strategy<Value = String> {
    (any::<bool>(), prop::collection::vec(segment(), 0..6)).prop_map(|(abs, segs)| {
        let p = segs.join("/");
        if abs { format!("/{p}") } else { p }
    })
}

fn reference() -> impl Strategy<Value = String> {
    (
        prop::option::of(prop::sample::select(vec!["http", "s", "HTTP"])),
        prop::option::of(prop::sample::select(vec!["h", "u@例:8", "[::1]", ""])),
        path(),
        prop::option::of(prop::sample::select(vec!["", "q", "a=/../b"])),
        prop::option::of(prop::sample::select(vec!["", "f", "/./x"])),
    )
        .prop_map(|(s, a, p, q, f)| {
            let mut out = String::new();
            if let Some(s) = s {
                out.push_str(s);
                out.push(':');
            }
            if let Some(a) = a {
                out.push_str("//");
                out.push_str(a);
            }
            // A path after an authority is empty or absolute.
            if a.is_some() && !p.is_empty() && !p.starts_with('/') {
                out.push('/');
            }
            out.push_str(&p);
            if let Some(q) = q {
                out.push('?');
                out.push_str(q);
            }
            if let Some(f) = f {
                out.push('#');
                out.push_str(f);
            }
            out
        })
}

/// RFC 3986 §5.4.1 and §5.4.2, as printed (`crates/suite/data/spec-examples/`):
/// each `# reference` line is followed by the reference, each `# target`
/// line by what the RFC resolves it to (strict, or non-strict for the last
/// example of §5.4.2). Every target is asserted, and the whole table pinned.
#[test]
fn rfc_3986_examples() {
    let base = Iri::parse(BASE).unwrap();
    let loose = ResolveOptions::new().strict(false);
    let mut out = String::new();
    let mut checked = 0;
    for file in ["rfc3986-5.4.1.txt", "rfc3986-5.4.2.txt"] {
        let path = format!(
            "{}/crates/suite/data/spec-examples/{file}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(path).unwrap();
        out.push_str(&format!("# {file}\n"));
        let mut label = "";
        let mut reference = String::new();
        for line in text.lines() {
            if let Some(comment) = line.strip_prefix("# ") {
                label = comment;
                continue;
            }
            let value = if line == "\"\"" { "" } else { line };
            if label == "reference" {
                reference = value.to_owned();
            } else if label.starts_with("target") {
                let options = if label.contains("non-strict") {
                    loose
                } else {
                    ResolveOptions::new()
                };
                let got = base.resolve_with(&IriRef::parse(&reference).unwrap(), &options);
                assert_eq!(got, value, "{reference:?} ({label})");
                checked += 1;
                let mode = if label.contains("non-strict") {
                    " (non-strict)"
                } else {
                    ""
                };
                out.push_str(&format!(
                    "{:<12} -> {got}{mode}\n",
                    format!("{reference:?}")
                ));
            }
        }
    }
    assert_eq!(checked, 23 + 19 + 1);
    common::settings().bind(|| insta::assert_snapshot!(out));
}

#[test]
fn rfc_3986_examples_hold() {
    // A few of §5.4 checked here as well as by snapshot, so that the
    // snapshot cannot silently pin a wrong answer.
    let cases = [
        ("g:h", "g:h"),
        ("g", "http://a/b/c/g"),
        ("//g", "http://g"),
        ("?y", "http://a/b/c/d;p?y"),
        ("#s", "http://a/b/c/d;p?q#s"),
        ("", "http://a/b/c/d;p?q"),
        ("../../../g", "http://a/g"),
        ("/./g", "http://a/g"),
        ("g;x=1/../y", "http://a/b/c/y"),
        ("g#s/../x", "http://a/b/c/g#s/../x"),
        ("http:g", "http:g"),
    ];
    for (r, expected) in cases {
        assert_eq!(resolve(BASE, r), expected, "{r}");
    }
}

#[test]
fn non_ascii() {
    let cases = [
        (
            "http://例え.jp/引き/割り?q",
            "納豆",
            "http://例え.jp/引き/納豆",
        ),
        (
            "http://例え.jp/引き/割り?q",
            "../ü/./ß#é",
            "http://例え.jp/ü/ß#é",
        ),
        (
            "http://例え.jp/引き/割り?q",
            "?クエリ",
            "http://例え.jp/引き/割り?クエリ",
        ),
        ("http://例え.jp", "ا/ب", "http://例え.jp/ا/ب"),
        ("http://[::1]/a/", "//[v1.x]:8/é", "http://[v1.x]:8/é"),
        ("urn:例:a/b", "c", "urn:例:a/c"),
    ];
    for (base, r, expected) in cases {
        let got = resolve(base, r);
        assert_eq!(got, expected, "{base} + {r}");
        // The components of the result are those of its own parse.
        let reparsed = IriRef::parse(&got).unwrap();
        let resolved = Iri::parse(base)
            .unwrap()
            .resolve(&IriRef::parse(r).unwrap());
        assert_eq!(resolved.host(), reparsed.host());
        assert_eq!(resolved.path(), reparsed.path());
        assert_eq!(resolved.query(), reparsed.query());
    }
}

#[test]
fn non_strict() {
    let base = Iri::parse(BASE).unwrap();
    let r = IriRef::parse("http:g").unwrap();
    let loose = ResolveOptions::new().strict(false);
    assert_eq!(base.resolve_with(&r, &loose), "http://a/b/c/g");
    let r = IriRef::parse("HTTP:g").unwrap();
    assert_eq!(base.resolve_with(&r, &loose), "http://a/b/c/g");
    let r = IriRef::parse("https:g").unwrap();
    assert_eq!(base.resolve_with(&r, &loose), "https:g");
}

/// RFC 3986 §5.2.2: a reference without a path (here only a query) takes
/// the base's path as it is, dot segments included; only a path that went
/// through merging or came from the reference loses them. So resolution is
/// not idempotent for such a base: resolving the result again removes the
/// dot segments, and then nothing changes. (Found by the `resolve` fuzz
/// target, whose first version expected idempotence.)
#[test]
fn empty_reference_path_keeps_the_base_path_verbatim() {
    let base = "http:../e:/ht://e.89//.a?2xnta/a8vkde";
    let t = resolve(base, "?y/ht://e.8lang=n/a?b");
    assert_eq!(t, "http:../e:/ht://e.89//.a?y/ht://e.8lang=n/a?b");
    let again = resolve(base, &t);
    assert_eq!(again, "http:e:/ht://e.89//.a?y/ht://e.8lang=n/a?b");
    assert_eq!(resolve(base, &again), again);
    assert_eq!(
        resolve("http://a/b/./c/../d?q", "#f"),
        "http://a/b/./c/../d?q#f"
    );
    assert_eq!(
        resolve("http://a/b/./c/../d?q", ""),
        "http://a/b/./c/../d?q"
    );
}

/// A relative reference is returned only when it is no longer than the
/// target: under a base with a rootless path, a relative path may need more
/// "../" than the scheme it saves. (Found by `relativize_resolves_back`.)
#[test]
fn relativize_falls_back_to_the_target_when_it_is_shorter() {
    let base = Iri::parse("s:a/b//").unwrap();
    for (target, want) in [
        ("s:a/a", "s:a/a"),
        ("s:a/b//c", "c"),
        ("s:a/b/c", "../c"),
        ("s:x", "s:x"),
    ] {
        let target = Iri::parse(target).unwrap();
        let r = base.relativize(&target);
        assert_eq!(r, want, "target {target}");
        assert_eq!(base.resolve(&r), target);
    }
    // A tie (seven bytes each) keeps the relative reference.
    let base = Iri::parse("s:a/b/c/d/e").unwrap();
    let target = Iri::parse("s:a/b/x").unwrap();
    assert_eq!(base.relativize(&target), "../../x");
}

/// `relativize` always answers, with a reference that resolves to what the
/// target itself resolves to (RFC 3986 §5.2.2: a reference with a scheme
/// resolves to itself with `remove_dot_segments(R.path)`): the target
/// exactly when it resolves to itself, or when a reference without a path
/// reaches it (the base's own path is kept as it is, dot segments and all);
/// otherwise the shortest reference to the target without its dot segments.
#[test]
fn relativize_targets_with_dot_or_empty_segments() {
    let cases = [
        // Written "/.//" because the path "//" needs it without an
        // authority; the target resolves to itself.
        ("a:/x", "a:/.//", ".//"),
        ("a:/x", "a:/.//y", ".//y"),
        ("b:/x", "a:/.//", "a:/.//"),
        ("a:x", "a:/.//", "/.//"),
        ("http://h/a/b", "http://h//", "..//"),
        ("http://h/a/b", "http://h/a//c", ".//c"),
        // Dot segments: resolution removes them, so the answer reaches
        // the target without them...
        ("http://a/b/c", "http://a/b/../x", "/x"),
        ("http://a/b/c", "http://a/b/./d/.", "d/"),
        ("http://a/b/c", "http://a/./x", "/x"),
        ("http://a/b/c", "https://a/./x", "https://a/x"),
        ("foo:x/y", "foo:a/../b", "/b"),
        ("foo:x/y", "foo:./x/z", "z"),
        // ...but a target whose path is the base's own is reached exactly
        // by a reference without a path, unless the target has no query
        // and the base has one (such a reference keeps the base's).
        ("http://a/b/../c", "http://a/b/../c#f", "#f"),
        ("http://a/b/../c?q", "http://a/b/../c?q", ""),
        ("http://a/b/../c?q", "http://a/b/../c?r", "?r"),
        ("http://a/b/../c?q", "http://a/b/../c", "/c"),
    ];
    for (base, target, want) in cases {
        let (base, target) = (Iri::parse(base).unwrap(), Iri::parse(target).unwrap());
        let r = base.relativize(&target);
        assert_eq!(r, want, "{target} against {base}");
        assert_eq!(base.resolve(&r), expected_back(&base, &target));
    }
}

#[test]
fn base_errors() {
    let e = iribis::resolve("/no/scheme", "g").unwrap_err();
    assert!(
        e.to_string().contains("a base must be an absolute IRI"),
        "{e}"
    );
    let e = iribis::resolve("http://a/ b", "g").unwrap_err();
    assert_eq!(e.to_string(), "the base does not parse");
    let source = std::error::Error::source(&e).map(ToString::to_string);
    assert_eq!(
        source.as_deref(),
        Some(
            "invalid IRI reference at character 9: a space is not allowed in a path: percent-encode it as %20"
        )
    );
    let e = iribis::resolve("http://a/", "a b").unwrap_err();
    assert_eq!(e.to_string(), "the reference does not parse");
    let source = std::error::Error::source(&e).map(ToString::to_string);
    assert_eq!(
        source.as_deref(),
        Some(
            "invalid IRI reference at character 1: a space is not allowed in a path: percent-encode it as %20"
        )
    );
}

/// The 90 `resolve` vectors of crates/suite/data/conformance/vectors.jsonl; the
/// ones listed in known-differences.txt must disagree, the others agree.
#[test]
fn conformance_vectors() {
    let known = include_str!("../../crates/suite/data/conformance/known-differences.txt");
    let mut failures = Vec::new();
    let mut count = 0;
    for line in include_str!("../../crates/suite/data/conformance/vectors.jsonl").lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if v["kind"] != "resolve" {
            continue;
        }
        count += 1;
        let (base, r, expected) = (
            v["base"].as_str().unwrap(),
            v["ref"].as_str().unwrap(),
            v["expected"].as_str().unwrap(),
        );
        let got = iribis::resolve(base, r).map(|i| i.to_string());
        let listed = known
            .lines()
            .any(|l| l.starts_with(&format!("resolve\t{base}\t{r}\t")));
        let agrees = got.as_ref().ok().map(String::as_str) == Some(expected);
        if agrees == listed {
            failures.push(format!(
                "{base} + {r}: expected {expected}, got {got:?} (listed: {listed})"
            ));
        }
    }
    assert_eq!(count, 90);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn agrees_with_the_oracle(b in reference(), r in reference()) {
        let (Ok(base), Ok(reference)) = (IriRef::parse(&b), IriRef::parse(&r)) else {
            return Ok(());
        };
        let Ok(base_iri) = Iri::try_from(base) else { return Ok(()) };
        let got = base_iri.resolve(&reference);
        let mut base_parts = parts(&base);
        base_parts.fragment = None;
        let expected = oracle::recompose(&oracle::resolve(&base_parts, &parts(&reference)));
        prop_assert_eq!(got.as_str(), expected.as_str());
        // The result's components are those a parse of it finds.
        let reparsed = IriRef::parse(got.as_str()).unwrap();
        let got: &IriRef<String> = &got;
        prop_assert_eq!(
            (got.scheme(), got.authority(), got.host(), got.port(), got.path(), got.query(), got.fragment()),
            (reparsed.scheme(), reparsed.authority(), reparsed.host(), reparsed.port(), reparsed.path(), reparsed.query(), reparsed.fragment())
        );
    }

    /// Whatever the base and the target, the answer resolves to the target
    /// when some reference does (the target resolves to itself: its path
    /// has no dot segments, or only the "/." written in front of a path
    /// starting with "//"; or its scheme, authority and path are the
    /// base's, and a reference without a path reaches it, which it does
    /// unless the target has no query and the base has one), else to what
    /// the target itself resolves to. It is never longer than the target.
    /// One target in two is the base's document with another query or
    /// fragment, so that bases with dot segments meet their own paths.
    #[test]
    fn relativize_resolves_back(
        b in reference(),
        t in reference(),
        same in any::<bool>(),
        q in prop::option::of(prop::sample::select(vec!["", "q", "r"])),
        f in prop::option::of(prop::sample::select(vec!["", "f"])),
    ) {
        let Ok(base) = Iri::parse(&b) else { return Ok(()) };
        let t = if same {
            let document = &b[..b.find(['?', '#']).unwrap_or(b.len())];
            let q = q.map_or(String::new(), |q| format!("?{q}"));
            let f = f.map_or(String::new(), |f| format!("#{f}"));
            format!("{document}{q}{f}")
        } else {
            t
        };
        let Ok(target) = Iri::parse(&t) else { return Ok(()) };
        let r = base.relativize(&target);
        let back = base.resolve(&r);
        let want = expected_back(&base, &target);
        prop_assert_eq!(back.as_str(), want.as_str(), "via {}", r);
        if base.resolve(&IriRef::from(target)) == target {
            prop_assert_eq!(back.as_str(), target.as_str(), "via {}", r);
        }
        prop_assert!(r.as_str().len() <= target.as_str().len());
    }

    /// A result of resolution is always reached exactly: its path has no
    /// dot segments unless it is the base's, kept by a reference without a
    /// path, and then such a reference reaches it (the `resolve` fuzz
    /// target asserts the same).
    #[test]
    fn relativize_reaches_every_resolution_result(b in reference(), r in reference()) {
        let (Ok(base), Ok(reference)) = (Iri::parse(&b), IriRef::parse(&r)) else {
            return Ok(());
        };
        for strict in [true, false] {
            let t = base.resolve_with(&reference, &ResolveOptions::new().strict(strict));
            let back = base.resolve(&base.relativize(&t));
            prop_assert_eq!(back.as_str(), t.as_str());
        }
    }
}
