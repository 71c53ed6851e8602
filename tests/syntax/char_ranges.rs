//! Both sides of every range boundary of ucschar, iprivate and leiri-ucschar,
//! in a path, a query and a fragment, under every profile.
//!
//! The ranges below are transcribed here from the ABNF a second time
//! (3987bis §2.2 and §6.1, RFC 3987 §2.2), independently of `src/chars.rs`
//! and of the pest grammars, so that a slip in either shows up as a
//! disagreement.

use iribis::{ErrorKind, IriRef, ParseOptions, Profile};

type Ranges = &'static [(u32, u32)];

/// ucschar, 3987bis §2.2 (the same in RFC 3987).
const UCSCHAR: Ranges = &[
    (0xA0, 0xD7FF),
    (0xF900, 0xFDCF),
    (0xFDF0, 0xFFEF),
    (0x10000, 0x1FFFD),
    (0x20000, 0x2FFFD),
    (0x30000, 0x3FFFD),
    (0x40000, 0x4FFFD),
    (0x50000, 0x5FFFD),
    (0x60000, 0x6FFFD),
    (0x70000, 0x7FFFD),
    (0x80000, 0x8FFFD),
    (0x90000, 0x9FFFD),
    (0xA0000, 0xAFFFD),
    (0xB0000, 0xBFFFD),
    (0xC0000, 0xCFFFD),
    (0xD0000, 0xDFFFD),
    (0xE1000, 0xEFFFD),
];

/// iprivate, 3987bis §2.2: with the tag range.
const IPRIVATE_BIS: Ranges = &[
    (0xE000, 0xF8FF),
    (0xE0000, 0xE0FFF),
    (0xF0000, 0xFFFFD),
    (0x100000, 0x10FFFD),
];

/// iprivate, RFC 3987 §2.2: without the tag range.
const IPRIVATE_3987: Ranges = &[(0xE000, 0xF8FF), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD)];

/// The ranges of leiri-ucschar, 3987bis §6.1 (its ASCII singletons are
/// tested in tests/data/rules/leiri-ucschar.txt).
const LEIRI_UCSCHAR: Ranges = &[
    (0x0, 0x1F),
    (0x7F, 0xD7FF),
    (0xE000, 0xFFFD),
    (0x10000, 0x10FFFF),
];

const LEIRI_ASCII: &str = " <>\"{}|\\^`";

fn within(ranges: Ranges, c: u32) -> bool {
    ranges.iter().any(|&(lo, hi)| (lo..=hi).contains(&c))
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Place {
    Path,
    Query,
    Fragment,
}

/// Whether the character may stand unencoded at `place` under `profile`,
/// by the tables above.
fn allowed(profile: Profile, place: Place, c: char) -> bool {
    let cp = c as u32;
    // ipchar's ASCII: unreserved, sub-delims, ":" and "@" (RFC 3986 §3.3).
    if c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=:@".contains(c) {
        return true;
    }
    let (ucs, private) = match profile {
        Profile::Rfc3986 => return false,
        Profile::Rfc3987 => (within(UCSCHAR, cp), within(IPRIVATE_3987, cp)),
        Profile::Leiri => (
            within(LEIRI_UCSCHAR, cp) || LEIRI_ASCII.contains(c),
            within(IPRIVATE_BIS, cp),
        ),
        _ => (within(UCSCHAR, cp), within(IPRIVATE_BIS, cp)),
    };
    ucs || (place == Place::Query && private)
}

/// The characters on both sides of every boundary of every table.
fn boundary_chars() -> Vec<char> {
    let mut out: Vec<char> = [UCSCHAR, IPRIVATE_BIS, IPRIVATE_3987, LEIRI_UCSCHAR]
        .iter()
        .flat_map(|t| t.iter())
        .flat_map(|&(lo, hi)| [lo.wrapping_sub(1), lo, hi, hi + 1])
        .filter_map(char::from_u32)
        // Characters with a meaning of their own in an IRI are not boundaries
        // of these ranges' languages ("/" "?" "#" are delimiters).
        .filter(|c| !matches!(c, '/' | '?' | '#' | '%'))
        .collect();
    out.sort();
    out.dedup();
    out
}

#[test]
fn range_boundaries_in_every_component_and_profile() {
    let chars = boundary_chars();
    assert!(chars.len() > 60, "{} boundary characters", chars.len());
    let mut failures = Vec::new();
    for profile in Profile::ALL {
        let options = ParseOptions::new().profile(profile);
        for &c in &chars {
            for (place, input) in [
                (Place::Path, format!("http://h/a{c}b")),
                (Place::Query, format!("http://h/?a{c}b")),
                (Place::Fragment, format!("http://h/#a{c}b")),
            ] {
                let expect = allowed(profile, place, c);
                let result = IriRef::parse_with(&input, &options);
                match (&result, expect) {
                    (Ok(_), true) => {}
                    (Err(e), false) => {
                        // The error is at the character itself.
                        let at = input.find(c).unwrap();
                        if e.byte() != at || e.char() != input[..at].chars().count() {
                            failures.push(format!(
                                "{profile} {place:?} U+{:04X}: error at byte {} char {}, not {at}",
                                c as u32,
                                e.byte(),
                                e.char()
                            ));
                        }
                        // Private-use characters outside the query are told so.
                        let private = match profile {
                            Profile::Rfc3987 => within(IPRIVATE_3987, c as u32),
                            Profile::Rfc3986 | Profile::Leiri => false,
                            _ => within(IPRIVATE_BIS, c as u32),
                        };
                        if private && !matches!(e.kind(), ErrorKind::PrivateUseOutsideQuery { .. })
                        {
                            failures.push(format!(
                                "{profile} {place:?} U+{:04X}: {:?}, not PrivateUseOutsideQuery",
                                c as u32,
                                e.kind()
                            ));
                        }
                    }
                    _ => failures.push(format!(
                        "{profile} {place:?} U+{:04X}: expected {}, got {:?}",
                        c as u32,
                        if expect { "valid" } else { "invalid" },
                        result.map(|_| ()).map_err(|e| e.message())
                    )),
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
