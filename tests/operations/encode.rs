//! Percent-encoding raw text and writing queries (`iribis::encode`): each
//! encoder against its ABNF rule under every profile (the output matches
//! the rule; every character the rule allows stays as it is, checked with
//! the pest grammar), the builder's and setters' `_encoded` variants, and
//! round trips through decoding and `query_pairs` over generated text.

use std::borrow::Cow;

use iribis::encode::{self, Encoded, QueryBuilder, QueryStyle};
use iribis::{
    AbsoluteIri, Components, Decoded, ErrorKind, GrammarRule, Iri, IriRef, ParseOptions, Profile,
    RelativeRef,
};

use proptest::prelude::*;

/// An encoder, by name, with the rule its output matches under the IRI
/// profiles and under RFC 3986, and the ASCII characters it encodes though
/// the rule allows them.
struct Encoder {
    name: &'static str,
    iri_rule: &'static str,
    uri_rule: &'static str,
    delimiters: &'static str,
    encode: fn(&str, Profile) -> Encoded<'_>,
}

fn pair_percent(text: &str, profile: Profile) -> Encoded<'_> {
    encode::key_or_value(text, QueryStyle::Percent, profile)
}

fn pair_form(text: &str, profile: Profile) -> Encoded<'_> {
    encode::key_or_value(text, QueryStyle::Form, profile)
}

const ENCODERS: [Encoder; 8] = [
    Encoder {
        name: "path",
        iri_rule: "ipath",
        uri_rule: "path",
        delimiters: "",
        encode: encode::path,
    },
    Encoder {
        name: "segment",
        iri_rule: "isegment",
        uri_rule: "segment",
        delimiters: "",
        encode: encode::segment,
    },
    Encoder {
        name: "query",
        iri_rule: "iquery",
        uri_rule: "query",
        delimiters: "",
        encode: encode::query,
    },
    Encoder {
        name: "key_or_value (percent)",
        iri_rule: "iquery",
        uri_rule: "query",
        delimiters: "&=+#",
        encode: pair_percent,
    },
    Encoder {
        name: "key_or_value (form)",
        iri_rule: "iquery",
        uri_rule: "query",
        // A space is "+" there, which the rule's check below accounts for.
        delimiters: "&=+#",
        encode: pair_form,
    },
    Encoder {
        name: "fragment",
        iri_rule: "ifragment",
        uri_rule: "fragment",
        delimiters: "",
        encode: encode::fragment,
    },
    Encoder {
        name: "userinfo",
        iri_rule: "iuserinfo",
        uri_rule: "userinfo",
        delimiters: "",
        encode: encode::userinfo,
    },
    Encoder {
        name: "reg_name",
        iri_rule: "ireg-name",
        uri_rule: "reg-name",
        delimiters: "",
        encode: encode::reg_name,
    },
];

impl Encoder {
    fn rule(&self, profile: Profile) -> GrammarRule {
        let name = if profile == Profile::Rfc3986 {
            self.uri_rule
        } else {
            self.iri_rule
        };
        GrammarRule::from_name(name).unwrap()
    }

    fn is_form(&self) -> bool {
        self.name.ends_with("(form)")
    }
}

/// The UTF-8 percent-encoding of `c`, in uppercase (3987bis §3.1 step 2,
/// RFC 3986 §2.1).
fn pct(c: char) -> String {
    c.to_string().bytes().map(|b| format!("%{b:02X}")).collect()
}

/// All of ASCII, and non-ASCII code points on both sides of every boundary
/// of `ucschar`, `iprivate` and `leiri-ucschar`, the bidi formatting
/// characters, the noncharacters, U+FFFD and U+10FFFF, and every 4099th
/// code point besides.
fn sample() -> Vec<char> {
    let bounds = [
        0x7F, 0x80, 0x9F, 0xA0, 0xFF, 0x100, 0x061C, 0x200E, 0x200F, 0x202A, 0x202E, 0x2066,
        0x2069, 0xD7FF, 0xE000, 0xF8FF, 0xF900, 0xFDCF, 0xFDD0, 0xFDEF, 0xFDF0, 0xFEFF, 0xFFEF,
        0xFFF0, 0xFFFD, 0xFFFE, 0xFFFF, 0x10000, 0x1FFFD, 0x1FFFE, 0xDFFFD, 0xE0000, 0xE0041,
        0xE0FFF, 0xE1000, 0xEFFFD, 0xEFFFE, 0xF0000, 0xFFFFD, 0xFFFFE, 0x100000, 0x10FFFD,
        0x10FFFE, 0x10FFFF,
    ];
    let around = bounds
        .into_iter()
        .flat_map(|c: u32| [c.saturating_sub(1), c, c + 1]);
    (0..0x80)
        .chain(around)
        .chain((0x80..=0x10FFFF).step_by(4099))
        .filter_map(char::from_u32)
        .collect()
}

/// Whether the pest grammar of `profile` matches `text` at `rule`: an
/// oracle apart from the DFA tables the encoders read.
fn pest_matches(text: &str, rule: GrammarRule, profile: Profile) -> bool {
    Components::parse(text, rule, profile).is_ok()
}

#[test]
fn every_output_matches_the_rule_and_allowed_characters_stay() {
    for enc in &ENCODERS {
        for profile in Profile::ALL {
            let rule = enc.rule(profile);
            for c in sample() {
                let raw = c.to_string();
                let out = (enc.encode)(&raw, profile);
                let out_text = out.to_string();
                assert_eq!(out.rule(), rule, "{}", enc.name);
                assert!(
                    rule.matches(&out_text, profile) && pest_matches(&out_text, rule, profile),
                    "{} under {profile}: {c:?} gave {out_text:?}, not {rule}",
                    enc.name
                );
                let expected = if enc.is_form() && c == ' ' {
                    "+".to_string()
                } else if enc.delimiters.contains(c) || !pest_matches(&raw, rule, profile) {
                    pct(c)
                } else {
                    raw.clone()
                };
                assert_eq!(out_text, expected, "{} under {profile}: {c:?}", enc.name);
                assert!(out == *expected.as_str());
                assert_eq!(out.to_cow(), expected);
                assert_eq!(
                    matches!(out.to_cow(), Cow::Borrowed(_)),
                    expected == raw,
                    "{c:?}"
                );
            }
        }
    }
}

#[test]
fn the_sets_per_profile() {
    let bis = Profile::Rfc3987bis;
    // iprivate stands in the query of 3987bis and RFC 3987, and in every
    // component of a LEIRI; the tag range only in 3987bis's.
    assert_eq!(encode::query("\u{E000}", bis).to_string(), "\u{E000}");
    assert_eq!(encode::fragment("\u{E000}", bis).to_string(), "%EE%80%80");
    assert_eq!(
        encode::fragment("\u{E000}", Profile::Leiri).to_string(),
        "\u{E000}"
    );
    assert_eq!(encode::query("\u{E0041}", bis).to_string(), "\u{E0041}");
    assert_eq!(
        encode::query("\u{E0041}", Profile::Rfc3987).to_string(),
        "%F3%A0%81%81"
    );
    // ucschar stays in the IRI profiles, nothing non-ASCII under RFC 3986.
    assert_eq!(encode::path("/é", bis).to_string(), "/é");
    assert_eq!(encode::path("/é", Profile::Rfc3986).to_string(), "/%C3%A9");
    // U+FFFD is no ucschar (the range stops at U+FFEF) but a leiri-ucschar.
    assert_eq!(encode::path("\u{FFFD}", bis).to_string(), "%EF%BF%BD");
    assert_eq!(
        encode::path("\u{FFFD}", Profile::Leiri).to_string(),
        "\u{FFFD}"
    );
    // LEIRI keeps space, controls and the other characters of §6.3.
    assert_eq!(
        encode::path("a b<\u{7}>", Profile::Leiri).to_string(),
        "a b<\u{7}>"
    );
    assert_eq!(encode::path("a b<>", bis).to_string(), "a%20b%3C%3E");
    // `%` always, and an existing encoding is text.
    for p in Profile::ALL {
        assert_eq!(encode::path("%41%", p).to_string(), "%2541%25");
    }
    // What each component keeps of the ASCII punctuation.
    let punct: String = (' '..='~').filter(|c| !c.is_ascii_alphanumeric()).collect();
    let cases = [
        (
            encode::path(&punct, bis),
            "%20!%22%23$%25&'()*+,-./:;%3C=%3E%3F@%5B%5C%5D%5E_%60%7B%7C%7D~",
        ),
        (
            encode::segment(&punct, bis),
            "%20!%22%23$%25&'()*+,-.%2F:;%3C=%3E%3F@%5B%5C%5D%5E_%60%7B%7C%7D~",
        ),
        (
            encode::query(&punct, bis),
            "%20!%22%23$%25&'()*+,-./:;%3C=%3E?@%5B%5C%5D%5E_%60%7B%7C%7D~",
        ),
        (
            pair_percent(&punct, bis),
            "%20!%22%23$%25%26'()*%2B,-./:;%3C%3D%3E?@%5B%5C%5D%5E_%60%7B%7C%7D~",
        ),
        (
            pair_form(&punct, bis),
            "+!%22%23$%25%26'()*%2B,-./:;%3C%3D%3E?@%5B%5C%5D%5E_%60%7B%7C%7D~",
        ),
        (
            encode::fragment(&punct, bis),
            "%20!%22%23$%25&'()*+,-./:;%3C=%3E?@%5B%5C%5D%5E_%60%7B%7C%7D~",
        ),
        (
            encode::userinfo(&punct, bis),
            "%20!%22%23$%25&'()*+,-.%2F:;%3C=%3E%3F%40%5B%5C%5D%5E_%60%7B%7C%7D~",
        ),
        (
            encode::reg_name(&punct, bis),
            "%20!%22%23$%25&'()*+,-.%2F%3A;%3C=%3E%3F%40%5B%5C%5D%5E_%60%7B%7C%7D~",
        ),
    ];
    for (encoded, expected) in cases {
        assert_eq!(encoded.to_string(), expected, "{encoded:?}");
    }
}

#[test]
fn builder_encodes_raw_text() {
    let iri = Iri::builder()
        .scheme("http")
        .host("h")
        .path_encoded("/a b")
        .build()
        .unwrap();
    assert_eq!(iri, "http://h/a%20b");

    let iri = Iri::builder()
        .scheme("http")
        .userinfo_encoded("us er@x:p")
        .host_encoded("例え jp")
        .port(81)
        .path_encoded("/résumé/100%")
        .query_encoded("q=a b#")
        .fragment_encoded("f #")
        .build()
        .unwrap();
    assert_eq!(
        iri,
        "http://us%20er%40x:p@例え%20jp:81/résumé/100%25?q=a%20b%23#f%20%23"
    );
    assert_eq!(iri.path_decoded().to_str().unwrap(), "/résumé/100%");

    // The profile decides, whenever it is set.
    let uri = Iri::builder()
        .path_encoded("/é")
        .scheme("http")
        .host_encoded("é")
        .profile(Profile::Rfc3986)
        .build()
        .unwrap();
    assert_eq!(uri, "http://%C3%A9/%C3%A9");
    assert_eq!(uri.profile(), Profile::Rfc3986);

    // A ":" in the first segment of a relative reference would read as a
    // scheme: encoded there only.
    let r = IriRef::builder().path_encoded("a:b/c:d").build().unwrap();
    assert_eq!(r, "a%3Ab/c:d");
    assert_eq!(r.path_decoded().to_str().unwrap(), "a:b/c:d");
    let r = RelativeRef::builder().path_encoded("/a:b").build().unwrap();
    assert_eq!(r, "/a:b");
    let r = Iri::builder()
        .scheme("urn")
        .path_encoded("a:b")
        .build()
        .unwrap();
    assert_eq!(r, "urn:a:b");
    // Written as given, the same path is refused.
    let err = IriRef::builder().path("a:b").build().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ColonInFirstSegment);

    // Placement that encoding cannot fix is refused as for written text.
    assert!(IriRef::builder().path_encoded("//a").build().is_err());
    assert!(
        Iri::builder()
            .scheme("http")
            .host("h")
            .path_encoded("a")
            .build()
            .is_err()
    );
    assert!(
        AbsoluteIri::builder()
            .scheme("http")
            .fragment_encoded("f")
            .build()
            .is_err()
    );
}

#[test]
fn setters_encode_raw_text() {
    let mut r: IriRef<String> = "http://h/a".parse().unwrap();
    r.set_path_encoded("/x y/é").unwrap();
    r.set_query_encoded(Some("a=1 2")).unwrap();
    r.set_fragment_encoded(Some("#")).unwrap();
    r.set_userinfo_encoded(Some("a b")).unwrap();
    r.set_host_encoded("h h").unwrap();
    assert_eq!(r, "http://a%20b@h%20h/x%20y/é?a=1%202#%23");
    r.set_query_encoded(None).unwrap();
    r.set_fragment_encoded(None).unwrap();
    r.set_userinfo_encoded(None).unwrap();
    assert_eq!(r, "http://h%20h/x%20y/é");
    // A failed setter leaves the value as it was.
    assert!(r.set_path_encoded("rel").is_err());
    assert_eq!(r, "http://h%20h/x%20y/é");

    // Under the reference's profile.
    let uri = ParseOptions::new().profile(Profile::Rfc3986);
    let mut u = IriRef::parse_with("http://h/", &uri).unwrap().into_owned();
    u.set_path_encoded("/é").unwrap();
    assert_eq!(u, "http://h/%C3%A9");
    let leiri = ParseOptions::new().profile(Profile::Leiri);
    let mut l = IriRef::parse_with("http://h/", &leiri)
        .unwrap()
        .into_owned();
    l.set_path_encoded("/a b").unwrap();
    assert_eq!(l, "http://h/a b");

    // A relative reference gets the first segment's ":" encoded.
    let mut rel: RelativeRef<String> = "x".parse().unwrap();
    rel.set_path_encoded("a:b").unwrap();
    assert_eq!(rel, "a%3Ab");
    let mut iri: Iri<String> = "urn:x".parse().unwrap();
    iri.set_path_encoded("a:b").unwrap();
    assert_eq!(iri, "urn:a:b");
    let mut abs: AbsoluteIri<String> = "urn:x".parse().unwrap();
    abs.set_query_encoded(Some("?&")).unwrap();
    assert_eq!(abs, "urn:x??&");
}

#[test]
fn query_builder_and_editor() {
    let mut q = QueryBuilder::default();
    q.append_pair("a", "1").append_pair("b", "c&d");
    assert_eq!(q.as_str(), "a=1&b=c%26d");
    let mut q = QueryBuilder::new(QueryStyle::Form, Profile::Rfc3986);
    q.append_pair("q", "café au lait").append_pair("+", "=");
    assert_eq!(q.as_str(), "q=caf%C3%A9+au+lait&%2B=%3D");

    // The editor keeps what it does not touch as written.
    let mut r: Iri<String> = "http://h/?x=%7e&a=1&&y&a=2#f".parse().unwrap();
    r.query_pairs_mut().set_pair("a", "3");
    assert_eq!(r, "http://h/?x=%7e&a=3&&y#f");
    r.query_pairs_mut().remove_pairs("y").append_pair("z", "");
    // The empty piece that ended the query took the new pair.
    assert_eq!(r, "http://h/?x=%7e&a=3&z=#f");
    // Keys compare decoded.
    r.query_pairs_mut().remove_pairs("x").remove_pairs("a");
    assert_eq!(r, "http://h/?z=#f");
    r.query_pairs_mut().remove_pairs("z");
    assert_eq!(r, "http://h/#f");
    // An empty query, or one ending with "&", takes the pair without a
    // new "&".
    let mut r: IriRef<String> = "?".parse().unwrap();
    r.query_pairs_mut().append_pair("a", "b");
    assert_eq!(r, "?a=b");
    let mut r: IriRef<String> = "?a=b&".parse().unwrap();
    r.query_pairs_mut().append_pair("c", "d");
    assert_eq!(r, "?a=b&c=d");
    // The form style reads "+" as a space.
    let mut r: IriRef<String> = "?a+b=1&a%20b=2&a%2Bb=3".parse().unwrap();
    r.query_pairs_mut()
        .style(QueryStyle::Form)
        .remove_pairs("a b");
    assert_eq!(r, "?a%2Bb=3");
    let mut r: IriRef<String> = "?a+b=1&a%20b=2&a%2Bb=3".parse().unwrap();
    r.query_pairs_mut().remove_pairs("a+b");
    assert_eq!(r, "?a%20b=2");
    // Nothing to do changes nothing.
    let mut r: IriRef<String> = "?a=1".parse().unwrap();
    r.query_pairs_mut()
        .remove_pairs("b")
        .extend_pairs(Vec::<(&str, &str)>::new());
    assert_eq!(r, "?a=1");
    // Every kind, under its profile.
    let uri = ParseOptions::new().profile(Profile::Rfc3986);
    let mut a = AbsoluteIri::parse_with("urn:x", &uri).unwrap().into_owned();
    a.query_pairs_mut().append_pair("é", "\u{E000}");
    assert_eq!(a, "urn:x?%C3%A9=%EE%80%80");
    let mut rel: RelativeRef<String> = "//h".parse().unwrap();
    rel.query_pairs_mut().set_pair("k", "#");
    assert_eq!(rel, "//h?k=%23");
    rel.query_pairs_mut().clear();
    assert_eq!(rel, "//h");
}

/// A raw text to encode: any characters, and often the characters that
/// matter to the encoders.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        prop::collection::vec(
            prop::sample::select(vec![
                " ",
                "%",
                "%41",
                "+",
                "&",
                "=",
                "#",
                "?",
                "/",
                ":",
                "@",
                "[",
                "é",
                "日",
                "\u{E000}",
                "\u{E0041}",
                "\u{200E}",
                "\u{FFFD}",
                "\u{10FFFF}",
                "\u{7}",
                "a",
            ]),
            0..12
        )
        .prop_map(|v| v.concat()),
    ]
}

fn profile() -> impl Strategy<Value = Profile> {
    prop::sample::select(Profile::ALL.to_vec())
}

fn style() -> impl Strategy<Value = QueryStyle> {
    prop::sample::select(vec![QueryStyle::Percent, QueryStyle::Form])
}

fn pairs_of(r: &IriRef<String>, style: QueryStyle) -> Vec<(String, String)> {
    let pairs = r.query_pairs();
    let pairs = if style == QueryStyle::Form {
        pairs.plus_as_space()
    } else {
        pairs
    };
    pairs
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

/// An edit of a query's pairs, with keys from a few so that they repeat.
#[derive(Clone, Debug)]
enum Edit {
    Append(String, String),
    Set(String, String),
    Remove(String),
    Clear,
}

fn edit() -> impl Strategy<Value = Edit> {
    let key =
        prop::sample::select(vec!["a", "b", "a b", "a+b", "é", "", "&"]).prop_map(String::from);
    prop_oneof![
        4 => (key.clone(), text()).prop_map(|(k, v)| Edit::Append(k, v)),
        3 => (key.clone(), text()).prop_map(|(k, v)| Edit::Set(k, v)),
        2 => key.prop_map(Edit::Remove),
        1 => Just(Edit::Clear),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Every encoder's output matches its rule and decodes to the raw text.
    #[test]
    fn encoders_round_trip(raw in text(), p in profile()) {
        for enc in &ENCODERS {
            let out = (enc.encode)(&raw, p).to_string();
            prop_assert!(enc.rule(p).matches(&out, p), "{} {p}: {raw:?} gave {out:?}", enc.name);
            let decoded = if enc.is_form() {
                out.replace('+', " ")
            } else {
                out.clone()
            };
            prop_assert_eq!(Decoded::new(&decoded).to_str().unwrap(), raw.as_str(), "{}", enc.name);
        }
    }

    /// A written query reads back, with `plus_as_space` in the form style;
    /// in the percent style, either way.
    #[test]
    fn query_builder_round_trips(
        pairs in prop::collection::vec((text(), text()), 0..6),
        style in style(),
        p in profile(),
    ) {
        let mut q = QueryBuilder::new(style, p);
        q.extend_pairs(pairs.iter().map(|(k, v)| (k, v)));
        let r = IriRef::parse_with(&format!("?{}", q.as_str()), &ParseOptions::new().profile(p))
            .unwrap()
            .into_owned();
        prop_assert_eq!(&pairs_of(&r, style), &pairs);
        if style == QueryStyle::Percent {
            prop_assert_eq!(&pairs_of(&r, QueryStyle::Form), &pairs);
        }
    }

    /// Edits keep the reference valid, and its pairs are those of a model.
    #[test]
    fn editor_matches_a_model(
        start in prop::collection::vec((text(), text()), 0..4),
        edits in prop::collection::vec(edit(), 0..8),
        style in style(),
        p in profile(),
    ) {
        let options = ParseOptions::new().profile(p);
        let mut q = QueryBuilder::new(style, p);
        q.extend_pairs(start.iter().map(|(k, v)| (k, v)));
        let text = if q.is_empty() {
            "http://h/p#f".to_string()
        } else {
            format!("http://h/p?{}#f", q.as_str())
        };
        let mut r = Iri::parse_with(&text, &options).unwrap().into_owned();
        let mut model = start;
        for e in edits {
            let mut editor = r.query_pairs_mut().style(style);
            match &e {
                Edit::Append(k, v) => {
                    editor.append_pair(k, v);
                    model.push((k.clone(), v.clone()));
                }
                Edit::Set(k, v) => {
                    editor.set_pair(k, v);
                    match model.iter().position(|(mk, _)| mk == k) {
                        Some(i) => {
                            model[i].1 = v.clone();
                            let mut j = 0;
                            model.retain(|(mk, _)| {
                                j += 1;
                                j - 1 <= i || mk != k
                            });
                        }
                        None => model.push((k.clone(), v.clone())),
                    }
                }
                Edit::Remove(k) => {
                    editor.remove_pairs(k);
                    model.retain(|(mk, _)| mk != k);
                }
                Edit::Clear => {
                    editor.clear();
                    model.clear();
                }
            }
            let again = Iri::parse_with(r.as_str(), &options).unwrap();
            prop_assert_eq!(again.as_str(), r.as_str());
            prop_assert_eq!(r.fragment(), Some("f"));
            prop_assert_eq!(r.path(), "/p");
            prop_assert_eq!(r.query().is_some(), !model.is_empty(), "{:?} after {:?}", r.as_str(), e);
            prop_assert_eq!(&pairs_of(&r, style), &model, "{:?} after {:?}", r.as_str(), e);
        }
    }
}
