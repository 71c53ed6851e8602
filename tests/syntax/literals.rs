//! The checked literals: the `const` parse (`IriRef::parse_const` and its
//! siblings, which the macros `iri!`, `iri_ref!`, ... call at compile time)
//! against the run-time parse, which is the reference: for every input,
//! profile and reference rule, the same verdict; for a valid input the same
//! components (the host's kind and address included); for an invalid one
//! the same position, component and kind of error. Inputs: the spec
//! examples, the rule tables' strings, the conformance vectors, both
//! benchmark corpora and generated strings. A `const fn` runs at run time
//! too, which is how it is compared here; the macros' own tests are at the
//! end.

use crate::common;
use iribis::{
    AbsoluteIri, Component, ErrorKind, Host, Iri, IriRef, ParseOptions, Profile, RelativeRef,
};

use proptest::prelude::*;

/// Everything the accessors read, for comparison.
fn view(r: &IriRef<&str>) -> String {
    format!(
        "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {}",
        r.as_str(),
        r.scheme(),
        r.authority(),
        r.userinfo(),
        r.host(),
        r.host_str(),
        r.port(),
        r.path(),
        r.query(),
        r.fragment(),
        r.profile(),
        r.is_iri(),
    )
}

/// The run-time and the `const` parse of `input` at each reference rule
/// under `profile` agree; `errors` compares the details of errors too
/// (which cost pest a short parse each in a debug build).
fn check(input: &str, profile: Profile, errors: bool) -> Result<(), String> {
    let o = ParseOptions::new().profile(profile);
    let results = [
        (
            "IRI-reference",
            IriRef::parse_with(input, &o),
            IriRef::parse_const_with(input, &o),
        ),
        (
            "IRI",
            Iri::parse_with(input, &o).map(IriRef::from),
            Iri::parse_const_with(input, &o).map(IriRef::from),
        ),
        (
            "absolute-IRI",
            AbsoluteIri::parse_with(input, &o).map(IriRef::from),
            AbsoluteIri::parse_const_with(input, &o).map(IriRef::from),
        ),
        (
            "irelative-ref",
            RelativeRef::parse_with(input, &o).map(IriRef::from),
            RelativeRef::parse_const_with(input, &o).map(IriRef::from),
        ),
    ];
    for (rule, run, konst) in results {
        let at = || format!("{input:?} at {rule} under {profile}");
        match (run, konst) {
            (Ok(a), Ok(b)) if view(&a) == view(&b) => {}
            (Ok(a), Ok(b)) => {
                return Err(format!(
                    "{}:\n  run   {}\n  const {}",
                    at(),
                    view(&a),
                    view(&b)
                ));
            }
            (Err(a), Err(b)) => {
                if errors {
                    let run = (a.byte(), a.char(), a.component(), a.kind(), a.rule());
                    let konst = (b.byte(), b.char(), b.component(), b.kind(), b.rule());
                    if run != konst {
                        return Err(format!("{}:\n  run   {run:?}\n  const {konst:?}", at()));
                    }
                }
                // Every message can be written.
                if !b.to_string().starts_with("invalid ") {
                    return Err(format!("{}: {b}", at()));
                }
            }
            (a, b) => {
                return Err(format!(
                    "{}: run {:?}, const {:?}",
                    at(),
                    a.map(|r| view(&r)),
                    b.map(|r| view(&r))
                ));
            }
        }
    }
    Ok(())
}

/// [`check`] on every input under `profiles`; the failures, at most 20,
/// in one message.
fn check_all<'a>(inputs: impl Iterator<Item = &'a String>, profiles: &[Profile], errors: bool) {
    let mut failures = Vec::new();
    let mut n = 0;
    for input in inputs {
        n += 1;
        for &p in profiles {
            if let Err(e) = check(input, p, errors) {
                failures.push(e);
            }
        }
    }
    assert!(n > 0);
    assert!(
        failures.is_empty(),
        "{} failures, the first:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

fn data(path: &str) -> String {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn lines_of(dir: &str, keep: impl Fn(&str) -> Option<String>) -> Vec<String> {
    let dir = format!("{}/{dir}", env!("CARGO_MANIFEST_DIR"));
    let mut inputs = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        inputs.extend(
            std::fs::read_to_string(&path)
                .unwrap()
                .lines()
                .filter_map(&keep),
        );
    }
    inputs
}

#[test]
fn spec_examples() {
    let inputs = lines_of("crates/suite/data/spec-examples", |l| {
        (!l.starts_with('#')).then(|| l.to_owned())
    });
    assert!(inputs.len() > 100);
    check_all(inputs.iter(), &Profile::ALL, true);
}

#[test]
fn rule_table_strings() {
    let inputs = lines_of("tests/data/rules", |l| {
        (l.starts_with('+') || l.starts_with('-'))
            .then(|| l.split_once(' ').map(|(_, input)| common::unescape(input)))
            .flatten()
    });
    assert!(inputs.len() > 400);
    check_all(inputs.iter(), &Profile::ALL, true);
}

#[test]
fn conformance_vectors() {
    let mut inputs = Vec::new();
    for line in data("crates/suite/data/conformance/vectors.jsonl").lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        for key in ["input", "base", "ref", "expected"] {
            if let Some(s) = v.get(key).and_then(|s| s.as_str()) {
                inputs.push(s.to_owned());
            }
        }
    }
    assert!(inputs.len() > 300);
    check_all(inputs.iter(), &Profile::ALL, true);
}

/// Both corpora: every line's verdict and components under every profile;
/// the error details of every 7th line (pest explains each).
#[test]
fn corpora() {
    for name in ["kasztp-urls.txt", "mixed-iris-20k.txt"] {
        let text = data(&format!("benches/data/{name}"));
        let lines: Vec<String> = text.lines().map(str::to_owned).collect();
        assert!(lines.len() >= 20_000);
        check_all(lines.iter(), &Profile::ALL, false);
        check_all(
            lines.iter().step_by(7),
            &[Profile::Rfc3987bis, Profile::Rfc3986],
            true,
        );
    }
}

/// Long references, past the run-time walk's packed counts (256 bytes)
/// and its cut, with delimiters on either side.
#[test]
fn long_references() {
    let mut inputs = Vec::new();
    for pad in [0, 1, 23, 24, 127, 254, 255, 256, 300, 509, 1000] {
        let a = "a".repeat(pad);
        let e = "é".repeat(pad / 2);
        inputs.extend([
            format!("http://{a}/p?q#f"),
            format!("http://u:{a}@[::1]:80/{a}?{a}#{a}"),
            format!("s{a}:/x/{a}:y?{e}#"),
            format!("//{e}@h:/?"),
            format!("http://[v1.{a}]:{}/", "9".repeat(pad % 7)),
            format!("https://h/{e}{a}?{e} #{e}"),
        ]);
    }
    check_all(inputs.iter(), &Profile::ALL, true);
}

fn piece(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(common::IRI_ALPHABET), 0..max)
        .prop_map(|v| v.into_iter().collect())
}

fn hosts() -> impl Strategy<Value = String> {
    prop_oneof![
        piece(8),
        (0u16..300, 0u16..300, 0u16..300, 0u16..300)
            .prop_map(|(a, b, c, d)| format!("{a}.{b}.{c}.{d}")),
        prop::collection::vec(
            prop::sample::select(&["1", "ab", "FFFF", "0", "12345", "::", ":", "1.2.3.4", "."][..]),
            0..10
        )
        .prop_map(|v| format!("[{}]", v.concat())),
        piece(6).prop_map(|s| format!("[v1F.{s}]")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_string(s in piece(24)) {
        for p in Profile::ALL {
            let checked = check(&s, p, true);
            prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
        }
    }

    #[test]
    fn reference_shaped(
        scheme in prop_oneof![Just(String::new()), piece(5).prop_map(|s| format!("{s}:"))],
        auth in prop::option::of((prop::option::of(piece(5)), hosts(), prop::option::of(piece(4)))),
        path in piece(10),
        query in prop::option::of(piece(6)),
        fragment in prop::option::of(piece(6)),
    ) {
        let mut s = scheme;
        if let Some((user, host, port)) = auth {
            s.push_str("//");
            if let Some(u) = user { s.push_str(&u); s.push('@'); }
            s.push_str(&host);
            if let Some(p) = port { s.push(':'); s.push_str(&p); }
        }
        s.push_str(&path);
        if let Some(q) = query { s.push('?'); s.push_str(&q); }
        if let Some(f) = fragment { s.push('#'); s.push_str(&f); }
        for p in Profile::ALL {
            let checked = check(&s, p, true);
            prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
        }
    }
}

// The macros, in the places a literal goes.

const HOME: Iri<&'static str> = iribis::iri!("https://例え.jp/");
static BASE: iribis::AbsoluteIri<&str> = iribis::absolute_iri!("http://a/b/c/d;p?q");
const SPEC: Iri<&str> = iribis::uri!("https://www.rfc-editor.org/rfc/rfc3986#section-3");

#[test]
fn macros_give_the_parsed_reference() {
    assert_eq!(HOME.scheme(), "https");
    assert_eq!(HOME.host(), Some(Host::RegName("例え.jp")));
    assert_eq!(HOME.path(), "/");
    assert_eq!(
        view(&HOME),
        view(&IriRef::parse("https://例え.jp/").unwrap())
    );
    assert_eq!(BASE.query(), Some("q"));
    let resolved = Iri::from(BASE).resolve(&iribis::iri_ref!("../g"));
    assert_eq!(resolved.as_str(), "http://a/b/g");
    assert_eq!(SPEC.profile(), Profile::Rfc3986);
    assert_eq!(SPEC.fragment(), Some("section-3"));

    let local = iribis::iri!("http://user:pw@[::ffff:1.2.3.4]:8080/p?q#f");
    assert_eq!(local.userinfo(), Some("user:pw"));
    assert_eq!(
        local.host(),
        Some(Host::Ipv6("::ffff:1.2.3.4".parse().unwrap()))
    );
    assert_eq!(local.port_number(), Some(8080));
    let future = iribis::iri_ref!("//[v7.a:b]/");
    assert!(matches!(future.host(), Some(Host::IpvFuture(f)) if f.version() == "7"));
    let v4 = iribis::relative_ref!("//192.0.2.1:/");
    assert_eq!(v4.host(), Some(Host::Ipv4("192.0.2.1".parse().unwrap())));
    assert_eq!(v4.port(), Some(""));
    assert_eq!(iribis::uri_ref!("").path(), "");
    assert_eq!(iribis::uri_ref!("?").query(), Some(""));

    // A literal from a constant, as any `const` expression.
    const TEXT: &str = "urn:isbn:0-395-36341-1";
    const URN: Iri<&str> = iribis::iri!(TEXT);
    assert_eq!(URN.path(), "isbn:0-395-36341-1");
}

/// A long literal still evaluates: 8 KB, about 40 times a long URL.
#[test]
fn long_literals_evaluate() {
    macro_rules! x8 {
        ($s:expr) => {
            concat!($s, $s, $s, $s, $s, $s, $s, $s)
        };
    }
    const LONG: IriRef<&str> =
        iribis::iri_ref!(concat!("http://h/", x8!(x8!(x8!(x8!("abcd/é?"))))));
    assert_eq!(LONG.as_str().len(), 9 + 4096 * 8);
    assert_eq!(LONG.path(), "/abcd/é");
}

/// The errors name the position in bytes and characters, the component,
/// what is wrong and the spec.
#[test]
fn errors_say_where_and_why() {
    let cases = [
        (
            Iri::parse_const("http://example.org/a b").map(|_| ()),
            "invalid IRI literal, at byte 20 (character 20) in the path: a space is not allowed in a path: percent-encode it as %20 (3987bis §2.2, rule IRI)",
        ),
        (
            Iri::parse_const("//example.org/").map(|_| ()),
            "invalid IRI literal, at byte 0 (character 0) in the scheme: an IRI needs a scheme followed by ':' (such as \"http:\") (3987bis §2.2, rule IRI)",
        ),
        (
            IriRef::parse_const("http://例え.jp/%zz").map(|_| ()),
            "invalid IRI reference literal, at byte 18 (character 14) in the path: '%' must be followed by two hexadecimal digits (write a literal '%' as %25) (3987bis §2.2, rule IRI-reference)",
        ),
        (
            IriRef::parse_const("http://[::1").map(|_| ()),
            "invalid IRI reference literal, at byte 11 (character 11) in the host: the input ends inside an IP literal: expected the rest of the address and ']' (3987bis §2.2, rule IRI-reference)",
        ),
        (
            IriRef::parse_const("http://h:8o/").map(|_| ()),
            "invalid IRI reference literal, at byte 11 (character 11) in the authority: a port is digits only, and this one has 'o' (U+006F) (3987bis §2.2, rule IRI-reference)",
        ),
        (
            IriRef::parse_const_with("http://é/", &ParseOptions::new().profile(Profile::Rfc3986))
                .map(|_| ()),
            "invalid URI reference literal, at byte 7 (character 7) in the authority: 'é' (U+00E9) is not allowed in a URI, which is ASCII only: percent-encode it as %C3%A9 (RFC 3986 §3, rule URI-reference)",
        ),
        (
            IriRef::parse_const("a/\u{FFFE}").map(|_| ()),
            "invalid IRI reference literal, at byte 2 (character 2) in the path: U+FFFE is not allowed in an IRI: it is neither ucschar nor iprivate; percent-encode it as %EF%BF%BE (3987bis §2.2, rule IRI-reference)",
        ),
        (
            RelativeRef::parse_const("a:b").map(|_| ()),
            "invalid relative reference literal, at byte 1 (character 1) in the path: ':' is not allowed in the first segment of a relative path, where it would read as the end of a scheme: write it as %3A or start the path with \"./\" (3987bis §2.2, rule irelative-ref)",
        ),
    ];
    for (result, message) in cases {
        assert_eq!(result.unwrap_err().to_string(), message);
    }
    let e = Iri::parse_const("1http://h/").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidScheme { ch: '1' });
    assert_eq!(e.component(), Component::Scheme);
    assert!(
        e.to_string()
            .contains("a scheme must start with a letter, not '1' (U+0031)")
    );
}

/// At run time an error panics with its message (at compile time that is
/// the compile error).
#[test]
#[should_panic(expected = "invalid IRI literal, at byte 4 (character 4) in the path")]
fn an_error_panics_with_its_message() {
    Iri::parse_const("a:/b c").unwrap_or_else(|e| e.panic());
}
