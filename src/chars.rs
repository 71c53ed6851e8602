//! Character classes of the grammars, as predicates.
//!
//! The pest grammar is the definition; these mirror its single-character
//! rules for the code that works on characters rather than parse trees (error
//! messages now; conversions and checks later). The tests at the end check
//! each predicate against its pest rule.

use crate::Profile;

/// `ucschar` (3987bis §2.2, the same in RFC 3987).
pub(crate) fn is_ucschar(c: char) -> bool {
    let c = c as u32;
    matches!(c, 0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF | 0xE1000..=0xEFFFD)
        || ((0x10000..=0xDFFFD).contains(&c) && (c & 0xFFFF) <= 0xFFFD)
}

/// `iprivate` of the profile: RFC 3987 lacks the tag range U+E0000..U+E0FFF.
pub(crate) fn is_iprivate(c: char, profile: Profile) -> bool {
    let c = c as u32;
    matches!(c, 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD)
        || (profile != Profile::Rfc3987 && (0xE0000..=0xE0FFF).contains(&c))
}

/// `leiri-ucschar` (3987bis §6.1).
pub(crate) fn is_leiri_ucschar(c: char) -> bool {
    matches!(
        c,
        ' ' | '<' | '>' | '"' | '{' | '}' | '|' | '\\' | '^' | '`'
    ) || matches!(c as u32, 0x0..=0x1F | 0x7F..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF)
}

/// Whether `c` may stand unencoded in an ipchar-based component (path,
/// fragment, userinfo, host) of `profile`.
pub(crate) fn is_extended(c: char, profile: Profile) -> bool {
    match profile {
        Profile::Rfc3986 => false,
        Profile::Leiri => is_leiri_ucschar(c),
        Profile::Rfc3987bis | Profile::Rfc3987 => is_ucschar(c),
    }
}

/// A bidi formatting character, which RFC 3987 §4.1 says an IRI must not
/// contain: LRM, RLM, ALM, the embeddings and overrides (LRE, RLE, PDF,
/// LRO, RLO) and the isolates (LRI, RLI, FSI, PDI).
pub(crate) fn is_bidi_formatting(c: char) -> bool {
    matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// A strong right-to-left character, by block (Hebrew, Arabic, Syriac,
/// Thaana, NKo, Samaritan, Mandaic, their presentation forms, and the
/// right-to-left blocks of the supplementary planes). Used to decide whether
/// an input is shown inside a left-to-right embedding (RFC 3987 §4.1).
pub(crate) fn is_rtl(c: char) -> bool {
    matches!(c as u32, 0x0590..=0x08FF | 0xFB1D..=0xFDCF | 0xFDF0..=0xFDFF | 0xFE70..=0xFEFE | 0x10800..=0x10FFF | 0x1E800..=0x1EFFF)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Components, GrammarRule};

    /// The code points on both sides of every boundary of the three rules,
    /// and every 251st code point besides.
    fn sample() -> Vec<char> {
        let bounds = [
            0x0, 0x1F, 0x20, 0x7E, 0x7F, 0x9F, 0xA0, 0xD7FF, 0xE000, 0xF8FF, 0xF900, 0xFDCF,
            0xFDD0, 0xFDEF, 0xFDF0, 0xFFEF, 0xFFF0, 0xFFFD, 0xFFFE, 0x10000, 0xE0000, 0xE0FFF,
            0xE1000, 0xEFFFD, 0xEFFFE, 0xF0000, 0xFFFFD, 0xFFFFE, 0x100000, 0x10FFFD, 0x10FFFE,
            0x10FFFF,
        ];
        let planes =
            (1..=0x10).flat_map(|p: u32| [p << 16, (p << 16) | 0xFFFD, (p << 16) | 0xFFFE]);
        let stride = (0..=0x10FFFF).step_by(251);
        bounds
            .into_iter()
            .chain(planes)
            .chain(stride)
            .flat_map(|c: u32| [c.saturating_sub(1), c, c + 1])
            .filter_map(char::from_u32)
            .collect()
    }

    fn matches(rule: &str, c: char, profile: Profile) -> bool {
        let rule = GrammarRule::from_name(rule).unwrap();
        Components::parse(c.encode_utf8(&mut [0; 4]), rule, profile).is_ok()
    }

    #[test]
    fn predicates_agree_with_the_pest_rules() {
        for c in sample() {
            assert_eq!(
                is_ucschar(c),
                matches("ucschar", c, Profile::Rfc3987bis),
                "{c:?}"
            );
            assert_eq!(
                is_ucschar(c),
                matches("ucschar", c, Profile::Rfc3987),
                "{c:?}"
            );
            for p in [Profile::Rfc3987bis, Profile::Rfc3987, Profile::Leiri] {
                assert_eq!(is_iprivate(c, p), matches("iprivate", c, p), "{c:?} {p}");
                assert_eq!(is_extended(c, p), matches("ucschar", c, p), "{c:?} {p}");
            }
            assert_eq!(
                is_leiri_ucschar(c),
                matches("leiri-ucschar", c, Profile::Leiri),
                "{c:?}"
            );
        }
    }
}
