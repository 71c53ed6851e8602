//! The errors of nasty inputs (`tests/data/errors.txt`), pinned by snapshot:
//! the report a user sees (message, position, component, caret) and the
//! fields a program reads. Every input must fail; every error must point
//! inside the input or at its end, at a character boundary.

use crate::common;
use iribis::{IriRef, ParseOptions, Profile};

#[test]
fn error_reports() {
    let text = include_str!("../../tests/data/errors.txt");
    let mut out = String::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (profile, input) = match line.strip_prefix('@') {
            Some(rest) => {
                let (p, i) = rest.split_once(' ').unwrap();
                (p.parse::<Profile>().unwrap(), common::unescape(i))
            }
            None => (Profile::default(), common::unescape(line)),
        };
        let options = ParseOptions::new().profile(profile);
        let err = match IriRef::parse_with(&input, &options) {
            Ok(_) => panic!("{input:?} should be invalid under {profile}"),
            Err(e) => e,
        };
        assert!(input.is_char_boundary(err.byte()), "{input:?}");
        assert_eq!(err.char(), input[..err.byte()].chars().count(), "{input:?}");
        out.push_str(&format!(
            "{input:?} ({profile})\n  kind: {:?}\n  byte {} char {} in {}\n  expected: {:?}\n  display: {err}\n{}\n\n",
            err.kind(),
            err.byte(),
            err.char(),
            err.component().name(),
            err.expected().iter().map(|r| r.abnf_name()).collect::<Vec<_>>(),
            err.report()
                .lines()
                .map(|l| format!("  | {l}"))
                .collect::<Vec<_>>()
                .join("\n")
        ));
    }
    common::settings().bind(|| insta::assert_snapshot!(out));
}
