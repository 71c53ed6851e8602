//! The API Rust users expect: standard traits for collections, accessors
//! that borrow the input, setters, the builder, decoded views, typed
//! conversions, and the `FromStr` errors.

use std::borrow::Borrow;

use std::collections::hash_map::RandomState;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use std::hash::BuildHasher;

use iribis::check::Preset;

use iribis::convert::{ToIriOptions, ToUriOptions};

use iribis::normalize::Level;

use iribis::{
    AbsoluteIri, Component, ErrorKind, Host, Iri, IriRef, ParseError, ParseOptions, Profile,
    RelativeRef, Storage, to_iri, to_uri,
};

use proptest::prelude::*;

// ---------------------------------------------------------------------------
// Accessors of the borrowed form borrow the input

fn host_of(s: &str) -> Option<&str> {
    IriRef::parse(s).ok()?.host_str()
}

fn path_of_iri(s: &str) -> Option<&str> {
    Some(Iri::parse(s).ok()?.path())
}

fn scheme_of(s: &str) -> Option<&str> {
    Some(AbsoluteIri::parse(s).ok()?.scheme())
}

fn segments_of(s: &str) -> Vec<&str> {
    IriRef::parse(s)
        .map(|r| r.path_segments().collect())
        .unwrap_or_default()
}

fn host_kind_of(s: &str) -> Option<Host<'_>> {
    IriRef::parse(s).ok()?.host()
}

fn borrowed_of(s: &str) -> Option<IriRef<&str>> {
    let r = IriRef::parse(s).ok()?;
    Some(r.as_borrowed())
}

fn generic_path<T: Storage>(r: &IriRef<T>) -> &str {
    r.path()
}

// ---------------------------------------------------------------------------
// Setters

/// Applies `op` to a copy of `start` parsed under `profile`, and checks
/// the outcome: `Some(text)` the new text (which reparses to the same
/// components), `None` an error that leaves the value as it was.
fn check_setter(
    profile: Profile,
    start: &str,
    op: impl Fn(&mut IriRef<String>) -> Result<(), ParseError>,
    expect: Option<&str>,
) {
    let options = ParseOptions::new().profile(profile);
    let mut r = IriRef::parse_with(start, &options).unwrap().into_owned();
    let before = r.clone();
    match (op(&mut r), expect) {
        (Ok(()), Some(want)) => {
            assert_eq!(r, want, "from {start:?}");
            assert_eq!(r.profile(), profile);
            let again = IriRef::parse_with(want, &options).unwrap();
            assert_eq!(components(&r), components(&again), "{want:?}");
        }
        (Err(_), None) => {
            assert_eq!(r, before, "{start:?} changed on error");
            assert_eq!(components(&r), components(&before));
        }
        (Ok(()), None) => panic!("{start:?}: expected an error, got {r:?}"),
        (Err(e), Some(want)) => panic!("{start:?}: expected {want:?}, got {e}"),
    }
}

type Parts<'a> = [Option<&'a str>; 8];

fn components<T: Storage>(r: &IriRef<T>) -> Parts<'_> {
    [
        r.scheme(),
        r.authority(),
        r.userinfo(),
        r.host_str(),
        r.port(),
        Some(r.path()),
        r.query(),
        r.fragment(),
    ]
}

// ---------------------------------------------------------------------------
// Standard traits

#[test]
fn hash_and_eq_agree_with_str_as_borrow_requires() {
    let state = RandomState::new();
    for text in ["", "http://例え.jp/a?b#c", "../x", "urn:isbn:0-395-36341-1"] {
        let owned: IriRef<String> = text.parse().unwrap();
        let borrowed = IriRef::parse(text).unwrap();
        let key: &str = owned.borrow();
        assert_eq!(key, text);
        assert_eq!(state.hash_one(&owned), state.hash_one(text), "{text:?}");
        assert_eq!(state.hash_one(borrowed), state.hash_one(text), "{text:?}");
        assert_eq!(owned, borrowed);
        assert_eq!(owned, text);
    }
    let iri: Iri<String> = "http://h/".parse().unwrap();
    assert_eq!(state.hash_one(&iri), state.hash_one("http://h/"));
}

#[test]
fn hash_map_keyed_by_references_is_looked_up_by_str() {
    let mut map: HashMap<IriRef<String>, u32> = HashMap::new();
    map.insert("http://例え.jp/".parse().unwrap(), 1);
    map.insert("../a".parse().unwrap(), 2);
    assert_eq!(map.get("http://例え.jp/"), Some(&1));
    assert_eq!(map.get("../a"), Some(&2));
    assert_eq!(map.get("HTTP://例え.jp/"), None, "simple string comparison");

    let mut iris: HashSet<Iri<String>> = HashSet::new();
    iris.insert("urn:a".parse().unwrap());
    assert!(iris.contains("urn:a"));
    let mut abs: HashMap<AbsoluteIri<String>, ()> = HashMap::new();
    abs.insert("http://a/b".parse().unwrap(), ());
    assert!(abs.contains_key("http://a/b"));
    let mut rel: HashSet<RelativeRef<String>> = HashSet::new();
    rel.insert("?q".parse().unwrap());
    assert!(rel.contains("?q"));
    // Borrowed references as keys too.
    let borrowed: HashSet<IriRef<&str>> = ["a", "b"].map(|s| IriRef::parse(s).unwrap()).into();
    assert!(borrowed.contains("b"));
}

#[test]
fn btree_set_orders_by_the_text() {
    let texts = [
        "http://b/",
        "HTTP://a/",
        "http://a/",
        "#f",
        "",
        "../x",
        "http://a/?",
    ];
    let set: BTreeSet<IriRef<String>> = texts.iter().map(|t| t.parse().unwrap()).collect();
    let mut sorted = texts.to_vec();
    sorted.sort();
    let got: Vec<&str> = set.iter().map(|r| r.as_str()).collect();
    assert_eq!(got, sorted);
    assert!(set.contains("../x"));

    let map: BTreeMap<Iri<String>, usize> = ["http://b/", "http://a/"]
        .iter()
        .enumerate()
        .map(|(i, t)| (t.parse().unwrap(), i))
        .collect();
    assert_eq!(map.get("http://a/"), Some(&1));
    assert_eq!(map.keys().next().unwrap(), "http://a/");

    let a = IriRef::parse("http://a/").unwrap();
    let b: IriRef<String> = "http://b/".parse().unwrap();
    assert!(a < b.as_borrowed());
    assert!(b > a.into_owned());
}

#[test]
fn owned_values_give_their_string_back() {
    let r: IriRef<String> = "http://h/a".parse().unwrap();
    assert_eq!(r.clone().into_string(), "http://h/a");
    assert_eq!(String::from(r), "http://h/a");
    let i: Iri<String> = "urn:x".parse().unwrap();
    assert_eq!(String::from(i.clone()), "urn:x");
    assert_eq!(i.into_string(), "urn:x");
    let a: AbsoluteIri<String> = "http://h/?q".parse().unwrap();
    assert_eq!(String::from(a), "http://h/?q");
    let rel: RelativeRef<String> = "a/b".parse().unwrap();
    assert_eq!(rel.into_string(), "a/b");
}

#[test]
fn borrowed_accessors_outlive_the_parsed_value() {
    let input = String::from("http://u@例え.jp:80/a/b?q#f");
    assert_eq!(host_of(&input), Some("例え.jp"));
    assert_eq!(path_of_iri(&input), Some("/a/b"));
    assert_eq!(scheme_of("http://h/"), Some("http"));
    assert_eq!(segments_of(&input), ["a", "b"]);
    assert_eq!(host_kind_of(&input), Some(Host::RegName("例え.jp")));
    assert_eq!(borrowed_of(&input).unwrap().query(), Some("q"));
    let all: Vec<Option<&str>> = {
        let r = IriRef::parse(&input).unwrap();
        vec![
            r.scheme(),
            r.authority(),
            r.userinfo(),
            r.port(),
            r.query(),
            r.fragment(),
            Some(r.as_str()),
        ]
    };
    assert_eq!(
        all,
        [
            Some("http"),
            Some("u@例え.jp:80"),
            Some("u"),
            Some("80"),
            Some("q"),
            Some("f"),
            Some(input.as_str())
        ]
    );
    let owned: IriRef<String> = input.parse().unwrap();
    assert_eq!(generic_path(&owned), "/a/b");
    assert_eq!(generic_path(&owned.as_borrowed()), "/a/b");
}

#[test]
fn setters_write_the_component_or_leave_the_value_unchanged() {
    use Profile::*;
    type Op = fn(&mut IriRef<String>) -> Result<(), ParseError>;
    let cases: &[(Profile, &str, Op, Option<&str>)] = &[
        // scheme
        (
            Rfc3987bis,
            "http://h/a",
            |r| r.set_scheme("https"),
            Some("https://h/a"),
        ),
        (Rfc3987bis, "//h/a", |r| r.set_scheme("x"), Some("x://h/a")),
        (Rfc3987bis, "a/b", |r| r.set_scheme("x"), Some("x:a/b")),
        (Rfc3987bis, "http://h/a", |r| r.set_scheme(""), None),
        (Rfc3987bis, "http://h/a", |r| r.set_scheme("1x"), None),
        (Rfc3987bis, "http://h/a", |r| r.set_scheme("x:y"), None),
        // authority
        (
            Rfc3987bis,
            "http://h/a",
            |r| r.set_authority(Some("u@[::1]:8")),
            Some("http://u@[::1]:8/a"),
        ),
        (
            Rfc3987bis,
            "http:/a",
            |r| r.set_authority(Some("h")),
            Some("http://h/a"),
        ),
        (
            Rfc3987bis,
            "http://h/a",
            |r| r.set_authority(None),
            Some("http:/a"),
        ),
        (Rfc3987bis, "//a//b", |r| r.set_authority(None), None),
        (Rfc3987bis, "http://a//b", |r| r.set_authority(None), None),
        (
            Rfc3987bis,
            "//h/a:b",
            |r| r.set_authority(None),
            Some("/a:b"),
        ),
        (Rfc3987bis, "mailto:x", |r| r.set_authority(Some("h")), None),
        (
            Rfc3987bis,
            "http://h/a",
            |r| r.set_authority(Some("a/b")),
            None,
        ),
        (
            Rfc3987bis,
            "http://h/a",
            |r| r.set_authority(Some("a?")),
            None,
        ),
        // userinfo
        (
            Rfc3987bis,
            "http://h/a",
            |r| r.set_userinfo(Some("u:p")),
            Some("http://u:p@h/a"),
        ),
        (
            Rfc3987bis,
            "http://u@h/a",
            |r| r.set_userinfo(None),
            Some("http://h/a"),
        ),
        (
            Rfc3987bis,
            "http://h/a",
            |r| r.set_userinfo(Some("a@b")),
            None,
        ),
        (
            Rfc3987bis,
            "http:/a",
            |r| r.set_userinfo(None),
            Some("http:/a"),
        ),
        (
            Rfc3987bis,
            "file:/a",
            |r| r.set_userinfo(Some("u")),
            Some("file://u@/a"),
        ),
        (Rfc3987bis, "mailto:x", |r| r.set_userinfo(Some("u")), None),
        // host
        (
            Rfc3987bis,
            "http://u@h:1/a",
            |r| r.set_host("例え.jp"),
            Some("http://u@例え.jp:1/a"),
        ),
        (
            Rfc3987bis,
            "http://h/a",
            |r| r.set_host(""),
            Some("http:///a"),
        ),
        (
            Rfc3987bis,
            "http://h/a",
            |r| r.set_host("[v7.x]"),
            Some("http://[v7.x]/a"),
        ),
        (Rfc3987bis, "/a", |r| r.set_host("h"), Some("//h/a")),
        (Rfc3987bis, "http://h/a", |r| r.set_host("a b"), None),
        (Rfc3987bis, "http://h/a", |r| r.set_host("h:80"), None),
        (Rfc3987bis, "http://h/a", |r| r.set_host("h/x"), None),
        (Rfc3987bis, "http://h/a", |r| r.set_host("[::1"), None),
        (Rfc3986, "http://h/a", |r| r.set_host("例え.jp"), None),
        // port
        (
            Rfc3987bis,
            "http://h/a",
            |r| r.set_port(Some(8080)),
            Some("http://h:8080/a"),
        ),
        (
            Rfc3987bis,
            "http://h:80/a",
            |r| r.set_port(None),
            Some("http://h/a"),
        ),
        (Rfc3987bis, "http:/a", |r| r.set_port(None), Some("http:/a")),
        (
            Rfc3987bis,
            "file:/a",
            |r| r.set_port(Some(1)),
            Some("file://:1/a"),
        ),
        (Rfc3987bis, "mailto:x", |r| r.set_port(Some(1)), None),
        // path
        (
            Rfc3987bis,
            "http://h",
            |r| r.set_path("/a b".replace(' ', "%20").as_str()),
            Some("http://h/a%20b"),
        ),
        (
            Rfc3987bis,
            "http://h/a",
            |r| r.set_path(""),
            Some("http://h"),
        ),
        (Rfc3987bis, "http://h/a", |r| r.set_path("a"), None),
        (Rfc3987bis, "http://h/a", |r| r.set_path("/a b"), None),
        (Rfc3987bis, "http://h/a", |r| r.set_path("/a?b"), None),
        (Rfc3987bis, "http://h/a", |r| r.set_path("/a#b"), None),
        (Rfc3987bis, "http:x", |r| r.set_path("//a"), None),
        (
            Rfc3987bis,
            "http:x",
            |r| r.set_path("a:b"),
            Some("http:a:b"),
        ),
        (Rfc3987bis, "x", |r| r.set_path("a:b"), None),
        (Rfc3987bis, "x", |r| r.set_path("./a:b"), Some("./a:b")),
        (Rfc3987bis, "x", |r| r.set_path("//a"), None),
        (Rfc3987bis, "?q", |r| r.set_path("/a:b"), Some("/a:b?q")),
        (
            Leiri,
            "http://h/a",
            |r| r.set_path("/a b"),
            Some("http://h/a b"),
        ),
        (Rfc3986, "http://h/a", |r| r.set_path("/é"), None),
        // query
        (
            Rfc3987bis,
            "http://h/a",
            |r| r.set_query(Some("q=日本")),
            Some("http://h/a?q=日本"),
        ),
        (
            Rfc3987bis,
            "http://h/a",
            |r| r.set_query(Some("")),
            Some("http://h/a?"),
        ),
        (
            Rfc3987bis,
            "http://h/a?q#f",
            |r| r.set_query(None),
            Some("http://h/a#f"),
        ),
        (
            Rfc3987bis,
            "http://h/a",
            |r| r.set_query(Some("\u{E000}")),
            Some("http://h/a?\u{E000}"),
        ),
        (Rfc3987bis, "http://h/a", |r| r.set_query(Some("a#b")), None),
        (Rfc3987bis, "http://h/a", |r| r.set_query(Some("%")), None),
        // fragment
        (
            Rfc3987bis,
            "http://h/a",
            |r| r.set_fragment(Some("f?/")),
            Some("http://h/a#f?/"),
        ),
        (
            Rfc3987bis,
            "http://h/a#f",
            |r| r.set_fragment(None),
            Some("http://h/a"),
        ),
        (Rfc3987bis, "", |r| r.set_fragment(Some("")), Some("#")),
        (
            Rfc3987bis,
            "http://h/a",
            |r| r.set_fragment(Some("a#b")),
            None,
        ),
        (
            Rfc3987bis,
            "http://h/a",
            |r| r.set_fragment(Some("\u{E000}")),
            None,
        ),
    ];
    for &(profile, start, op, expect) in cases {
        check_setter(profile, start, op, expect);
    }
}

#[test]
fn setters_of_the_narrow_types_keep_their_rule() {
    let mut iri: Iri<String> = "http://h/a".parse().unwrap();
    iri.set_fragment(Some("f")).unwrap();
    iri.set_path("/b").unwrap();
    assert_eq!(iri, "http://h/b#f");
    assert_eq!(iri.scheme(), "http");

    let mut abs: AbsoluteIri<String> = "http://h/a".parse().unwrap();
    abs.set_query(Some("q")).unwrap();
    abs.set_authority(None).unwrap();
    assert_eq!(abs, "http:/a?q");
    assert!(abs.set_scheme("").is_err());
    assert_eq!(abs, "http:/a?q");

    let mut rel: RelativeRef<String> = "//h/a".parse().unwrap();
    rel.set_authority(None).unwrap();
    assert_eq!(rel, "/a");
    let before = rel.clone();
    let err = rel.set_path("a:b").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ColonInFirstSegment);
    assert_eq!(rel, before);
    rel.set_fragment(Some("f")).unwrap();
    assert_eq!(rel, "/a#f");
}

#[test]
fn a_setter_error_names_the_component_and_the_position_in_it() {
    let mut r: IriRef<String> = "http://h/a".parse().unwrap();
    let err = r.set_host("ex ample.org").unwrap_err();
    assert_eq!(
        (err.component(), err.byte(), err.input()),
        (Component::Host, 2, "ex ample.org")
    );
    let err = r.set_path("a").unwrap_err();
    assert_eq!(err.component(), Component::Path);
    assert_eq!(err.rule().abnf_name(), "ipath-abempty");
    let err = r.set_query(Some("a#b")).unwrap_err();
    assert_eq!((err.component(), err.byte()), (Component::Query, 1));
}

// ---------------------------------------------------------------------------
// Builder

#[test]
fn the_builder_writes_each_component_with_its_delimiter() {
    let iri = Iri::builder()
        .scheme("http")
        .host("例え.jp")
        .port(8080)
        .path("/a")
        .query("q")
        .fragment("f")
        .build()
        .unwrap();
    assert_eq!(iri, "http://例え.jp:8080/a?q#f");
    assert_eq!(
        components(&iri),
        components(&IriRef::parse("http://例え.jp:8080/a?q#f").unwrap())
    );

    let cases: [(Result<IriRef<String>, ParseError>, &str); 9] = [
        (IriRef::builder().build(), ""),
        (IriRef::builder().query("").build(), "?"),
        (IriRef::builder().fragment("").build(), "#"),
        (IriRef::builder().host("").build(), "//"),
        (
            IriRef::builder()
                .scheme("file")
                .host("")
                .path("/etc")
                .build(),
            "file:///etc",
        ),
        (IriRef::builder().userinfo("u").build(), "//u@"),
        (IriRef::builder().port(0).path("/").build(), "//:0/"),
        (
            IriRef::builder()
                .scheme("urn")
                .path("isbn:0-395-36341-1")
                .build(),
            "urn:isbn:0-395-36341-1",
        ),
        (IriRef::builder().host("[v1.x]").build(), "//[v1.x]"),
    ];
    for (built, want) in cases {
        let built = built.unwrap();
        assert_eq!(built, want);
        assert_eq!(
            components(&built),
            components(&IriRef::parse(want).unwrap()),
            "{want:?}"
        );
    }
    let v = IriRef::builder().host("[v1.x]").build().unwrap();
    let Some(Host::IpvFuture(f)) = v.host() else {
        panic!("{v:?}")
    };
    assert_eq!((f.version(), f.address()), ("1", "x"));
}

#[test]
fn the_builder_rejects_bad_components_naming_them() {
    let cases: [(Result<Iri<String>, ParseError>, Component); 8] = [
        (
            Iri::builder().scheme("http").host("a b").build(),
            Component::Host,
        ),
        (Iri::builder().scheme("1http").build(), Component::Scheme),
        (
            Iri::builder()
                .scheme("http")
                .userinfo("a@b")
                .host("h")
                .build(),
            Component::Userinfo,
        ),
        (
            Iri::builder().scheme("http").host("h").path("a").build(),
            Component::Path,
        ),
        (
            Iri::builder().scheme("http").path("//a").build(),
            Component::Path,
        ),
        (
            Iri::builder().scheme("http").query("a#b").build(),
            Component::Query,
        ),
        (
            Iri::builder().scheme("http").fragment("%zz").build(),
            Component::Fragment,
        ),
        (
            Iri::builder()
                .scheme("http")
                .host("例え.jp")
                .profile(Profile::Rfc3986)
                .build(),
            Component::Host,
        ),
    ];
    for (i, (built, component)) in cases.into_iter().enumerate() {
        let err = built.unwrap_err();
        assert_eq!(err.component(), component, "case {i}: {err}");
        assert!(!err.message().is_empty());
    }
    let err = Iri::builder().host("h").build().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::MissingScheme);
    assert!(
        AbsoluteIri::builder()
            .scheme("a")
            .fragment("")
            .build()
            .is_err()
    );
    assert!(RelativeRef::builder().scheme("a").build().is_err());
    let err = RelativeRef::builder().path("a:b").build().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ColonInFirstSegment);
    assert_eq!(
        RelativeRef::builder().path("./a:b").build().unwrap(),
        "./a:b"
    );
    let leiri = IriRef::builder()
        .path("a b")
        .profile(Profile::Leiri)
        .build()
        .unwrap();
    assert_eq!(leiri.profile(), Profile::Leiri);
}

proptest! {
    /// Whatever the components, the builder either fails or writes a
    /// reference that parses back to exactly those components.
    #[test]
    fn built_references_parse_back_to_their_components(
        scheme in proptest::option::of("[a-z0-9+:/]{0,3}"),
        userinfo in proptest::option::of("[a-z:@%/]{0,3}"),
        host in proptest::option::of("[a-z0-9.:\\[\\]/@ ]{0,5}"),
        port in proptest::option::of(any::<u16>()),
        path in "[a-z:/.?#%]{0,5}",
        query in proptest::option::of("[a-z?#&=/]{0,3}"),
        fragment in proptest::option::of("[a-z?#/]{0,3}"),
    ) {
        let mut b = IriRef::builder().path(&path);
        if let Some(s) = &scheme { b = b.scheme(s); }
        if let Some(u) = &userinfo { b = b.userinfo(u); }
        if let Some(h) = &host { b = b.host(h); }
        if let Some(p) = port { b = b.port(p); }
        if let Some(q) = &query { b = b.query(q); }
        if let Some(f) = &fragment { b = b.fragment(f); }
        if let Ok(r) = b.build() {
            let again = IriRef::parse(r.as_str()).unwrap();
            prop_assert_eq!(components(&r), components(&again));
            prop_assert_eq!(r.scheme(), scheme.as_deref());
            let has_authority = userinfo.is_some() || host.is_some() || port.is_some();
            prop_assert_eq!(r.authority().is_some(), has_authority);
            prop_assert_eq!(r.userinfo(), userinfo.as_deref());
            if has_authority {
                prop_assert_eq!(r.host_str(), Some(host.as_deref().unwrap_or("")));
            }
            prop_assert_eq!(r.port_number(), port);
            prop_assert_eq!(r.path(), path.as_str());
            prop_assert_eq!(r.query(), query.as_deref());
            prop_assert_eq!(r.fragment(), fragment.as_deref());
        }
    }
}

// ---------------------------------------------------------------------------
// Decoded views

#[test]
fn decoded_views_of_the_specs_examples() {
    // RFC 3987 §3.2 and 3987bis §4.3: UTF-8 encodings decode, others do not.
    let r = IriRef::parse("http://www.example.org/D%C3%BCrst").unwrap();
    assert_eq!(r.path_decoded().to_str().unwrap(), "/Dürst");
    let r = IriRef::parse("http://www.example.org/r%E9sum%E9.html").unwrap();
    assert_eq!(r.path_decoded().to_bytes().as_ref(), b"/r\xE9sum\xE9.html");
    assert!(r.path_decoded().to_str().is_err());
    assert_eq!(
        r.path_decoded().to_str_lossy(),
        "/r\u{FFFD}sum\u{FFFD}.html"
    );
    // 3987bis §3.4.1: a percent-encoded registered name.
    let r = IriRef::parse("http://r%C3%A9sum%C3%A9.example.org").unwrap();
    assert_eq!(
        r.host_decoded().unwrap().to_str().unwrap(),
        "résumé.example.org"
    );
    // RFC 3986 §2.1: "%20" is a space; text without "%" is borrowed.
    let r = IriRef::parse("ftp://a%20b@h/c?d%20e#f%20g").unwrap();
    assert_eq!(r.userinfo_decoded().unwrap().to_str_lossy(), "a b");
    assert_eq!(r.query_decoded().unwrap().to_str_lossy(), "d e");
    assert_eq!(r.fragment_decoded().unwrap().to_str_lossy(), "f g");
    assert!(matches!(
        r.path_decoded().to_str_lossy(),
        std::borrow::Cow::Borrowed("/c")
    ));
    // Decoding the path whole makes "%2F" a "/": decode segments instead.
    let r = IriRef::parse("http://h/a%2Fb/c").unwrap();
    assert_eq!(r.path_decoded().to_str_lossy(), "/a/b/c");
    let segments: Vec<_> = r
        .path_segments()
        .map(|s| iribis::Decoded::new(s).to_str_lossy().into_owned())
        .collect();
    assert_eq!(segments, ["a/b", "c"]);
    // Views borrow the input.
    fn query_of(s: &str) -> Option<iribis::Decoded<'_>> {
        IriRef::parse(s).ok()?.query_decoded()
    }
    assert_eq!(query_of("?x").unwrap().as_encoded(), "x");
}

#[test]
fn query_pairs_follow_the_form_convention() {
    let pairs = |s: &str, plus: bool| -> Vec<(String, String)> {
        let r = IriRef::parse(s).unwrap();
        let it = r.query_pairs();
        let it = if plus { it.plus_as_space() } else { it };
        it.map(|(k, v)| (k.into_owned(), v.into_owned())).collect()
    };
    let owned = |v: &[(&str, &str)]| -> Vec<(String, String)> {
        v.iter()
            .map(|&(k, v)| (k.to_owned(), v.to_owned()))
            .collect()
    };
    assert_eq!(pairs("http://h/", false), owned(&[]));
    assert_eq!(pairs("http://h/?", false), owned(&[]));
    assert_eq!(pairs("?a=1&b=2", false), owned(&[("a", "1"), ("b", "2")]));
    assert_eq!(
        pairs("?&a&&=b&c=", false),
        owned(&[("a", ""), ("", "b"), ("c", "")])
    );
    assert_eq!(pairs("?k=a=b", false), owned(&[("k", "a=b")]));
    assert_eq!(pairs("?k%3D=v%26w", false), owned(&[("k=", "v&w")]));
    assert_eq!(pairs("?q=a+b%2Bc", false), owned(&[("q", "a+b+c")]));
    assert_eq!(pairs("?q=a+b%2Bc", true), owned(&[("q", "a b+c")]));
    assert_eq!(pairs("?q=%FF", false), owned(&[("q", "\u{FFFD}")]));
    assert_eq!(pairs("?名=日本", false), owned(&[("名", "日本")]));
}

// ---------------------------------------------------------------------------
// Typed conversions

#[test]
fn typed_conversions_agree_with_the_string_functions() {
    let uri_options = ToUriOptions::new();
    let idna = ToUriOptions::new().idna(true);
    for input in [
        "http://www.example.org/red%09rosé#red",
        "http://résumé.example.org",
        "http://例え.jp/?日本#s",
        "../résumé",
        "",
    ] {
        let r = IriRef::parse(input).unwrap();
        for options in [&uri_options, &idna] {
            let typed = r.to_uri(options).unwrap();
            assert_eq!(typed, to_uri(input, options).unwrap().as_str());
            assert_eq!(typed.profile(), Profile::Rfc3986);
            assert!(
                IriRef::parse_with(
                    typed.as_str(),
                    &ParseOptions::new().profile(Profile::Rfc3986)
                )
                .is_ok()
            );
        }
    }
    for input in [
        "http://www.example.org/D%C3%BCrst",
        "http://www.example.org/r%E9sum%E9.html",
        "http://xn--99zt52a.example.org/%e2%80%ae",
    ] {
        let r = IriRef::parse(input).unwrap();
        let typed = r.to_iri(&ToIriOptions::new()).unwrap();
        assert_eq!(typed, to_iri(input, &ToIriOptions::new()).unwrap().as_str());
        assert_eq!(
            components(&typed),
            components(&IriRef::parse(typed.as_str()).unwrap())
        );
    }
    // A LEIRI converts under its own profile, whatever the options say.
    let leiri =
        IriRef::parse_with("http://h/a b", &ParseOptions::new().profile(Profile::Leiri)).unwrap();
    assert_eq!(leiri.to_uri(&uri_options).unwrap(), "http://h/a%20b");
}

// ---------------------------------------------------------------------------
// FromStr errors

#[test]
fn every_from_str_of_a_name_has_the_same_error() {
    let profile = "x".parse::<Profile>().unwrap_err();
    let level = "x".parse::<Level>().unwrap_err();
    let preset = "x".parse::<Preset>().unwrap_err();
    for (err, expected) in [
        (&profile, &["rfc3987bis", "rfc3987", "rfc3986", "leiri"][..]),
        (&level, &["simple", "syntax", "scheme"][..]),
        (&preset, &["default", "strict", "leiri"][..]),
    ] {
        assert_eq!(err.name(), "x");
        assert_eq!(err.expected(), expected);
        let shown = err.to_string();
        assert!(shown.starts_with("unknown "), "{shown}");
        assert!(
            shown.ends_with(&format!(
                "{} or {}",
                expected[expected.len() - 2],
                expected[expected.len() - 1]
            )),
            "{shown}"
        );
        let _: &dyn std::error::Error = err;
    }
    assert_eq!("LEIRI".parse::<Profile>(), Ok(Profile::Leiri));
    assert_eq!("scheme".parse::<Level>(), Ok(Level::Scheme));
}

/// `GrammarRule::matches` gives the parse's verdict, for the reference
/// rules of every profile, on the mixed corpus.
#[test]
fn matches_agrees_with_parse() {
    use iribis::{AbsoluteIri, GrammarRule, Iri, ParseOptions, RelativeRef};
    let corpus = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/data/mixed-iris-20k.txt"
    ))
    .unwrap();
    for line in corpus.lines().step_by(7) {
        for profile in Profile::ALL {
            let o = ParseOptions::new().profile(profile);
            let cases = [
                (
                    GrammarRule::IRI_REFERENCE,
                    IriRef::parse_with(line, &o).is_ok(),
                ),
                (GrammarRule::IRI, Iri::parse_with(line, &o).is_ok()),
                (
                    GrammarRule::ABSOLUTE_IRI,
                    AbsoluteIri::parse_with(line, &o).is_ok(),
                ),
                (
                    GrammarRule::IRELATIVE_REF,
                    RelativeRef::parse_with(line, &o).is_ok(),
                ),
            ];
            for (rule, parsed) in cases {
                assert_eq!(
                    rule.matches(line, profile),
                    parsed,
                    "{line:?} {rule} {profile}"
                );
            }
        }
    }
}
