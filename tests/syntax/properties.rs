//! Properties of the parser over generated inputs, for every profile: it never
//! panics; an error points at a character boundary inside the input (or at its
//! end) with a matching character offset; a parse's components put back
//! together give the input again (RFC 3986 §5.3), and each is where the
//! Appendix B split of the same input finds it.

use iribis::{IriRef, ParseOptions, Profile};

use proptest::prelude::*;

/// Characters that matter to the grammar, a few from each class and range
/// boundary, so that generated strings are often valid and often nearly so.
fn alphabet() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => prop::sample::select(
            "az09AZ-._~!$&'()*+,;=:/?#[]@%".chars().collect::<Vec<_>>()
        ),
        1 => prop::sample::select(vec![
            'v', 'F', '1', '2', '5', ' ', '"', '<', '\\', '\u{0}', '\u{7F}', '\u{9F}', '\u{A0}',
            'é', '例', '\u{202E}', '\u{D7FF}', '\u{E000}', '\u{F8FF}', '\u{FDD0}', '\u{FFFD}',
            '\u{FFFE}', '\u{10000}', '\u{E0000}', '\u{E1000}', '\u{10FFFD}', '\u{10FFFF}',
        ]),
    ]
}

fn input() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(alphabet(), 0..24).prop_map(|v| v.into_iter().collect()),
        // Something that starts like an IRI with an authority.
        (
            prop::sample::select(vec!["http://", "s:", "//", "http://[", "a:/", ""]),
            prop::collection::vec(alphabet(), 0..24)
        )
            .prop_map(|(p, v)| format!("{p}{}", v.into_iter().collect::<String>())),
    ]
}

fn profile() -> impl Strategy<Value = Profile> {
    prop::sample::select(Profile::ALL.to_vec())
}

/// RFC 3986 Appendix B: the components of a valid reference, by delimiters.
fn appendix_b(s: &str) -> [Option<&str>; 5] {
    let (rest, fragment) = match s.split_once('#') {
        Some((a, f)) => (a, Some(f)),
        None => (s, None),
    };
    let (rest, query) = match rest.split_once('?') {
        Some((a, q)) => (a, Some(q)),
        None => (rest, None),
    };
    let (scheme, rest) = match rest.split_once(':') {
        Some((sc, r)) if !sc.is_empty() && !sc.contains(['/', '?', '#']) => (Some(sc), r),
        _ => (None, rest),
    };
    let (authority, path) = match rest.strip_prefix("//") {
        Some(r) => {
            let end = r.find('/').unwrap_or(r.len());
            (Some(&r[..end]), &r[end..])
        }
        None => (None, rest),
    };
    [scheme, authority, Some(path), query, fragment]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn never_panics_and_reports_consistently(s in input(), p in profile()) {
        let options = ParseOptions::new().profile(p);
        match IriRef::parse_with(&s, &options) {
            Ok(r) => {
                let mut back = String::new();
                if let Some(scheme) = r.scheme() {
                    back.push_str(scheme);
                    back.push(':');
                }
                if let Some(a) = r.authority() {
                    back.push_str("//");
                    back.push_str(a);
                }
                back.push_str(r.path());
                if let Some(q) = r.query() {
                    back.push('?');
                    back.push_str(q);
                }
                if let Some(f) = r.fragment() {
                    back.push('#');
                    back.push_str(f);
                }
                prop_assert_eq!(&back, &s);
                let split = appendix_b(&s);
                prop_assert_eq!(
                    split,
                    [r.scheme(), r.authority(), Some(r.path()), r.query(), r.fragment()]
                );
            }
            Err(e) => {
                prop_assert!(e.byte() <= s.len());
                prop_assert!(s.is_char_boundary(e.byte()));
                prop_assert_eq!(e.char(), s[..e.byte()].chars().count());
                prop_assert!(!e.message().is_empty());
                prop_assert!(!e.to_string().is_empty());
                // Everything before the error position is a prefix of some
                // valid input, so parsing that prefix alone succeeds or
                // fails only at its end.
                if let Err(prefix_err) = IriRef::parse_with(&s[..e.byte()], &options) {
                    prop_assert_eq!(prefix_err.byte(), e.byte());
                }
            }
        }
    }
}
