//! Character classes of the grammars, as predicates (some `const`, for the
//! errors of the checked literals, `crate::literal`).
//!
//! The pest grammar is the definition; these mirror its single-character
//! rules for the code that works on characters rather than parse trees (error
//! messages now; conversions and checks later). The tests at the end check
//! each predicate against its pest rule.

use crate::profile::Profile;

/// `ucschar` (3987bis §2.2, the same in RFC 3987).
pub(crate) const fn is_ucschar(c: char) -> bool {
    let c = c as u32;
    matches!(c, 0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF | 0xE1000..=0xEFFFD)
        || (matches!(c, 0x10000..=0xDFFFD) && (c & 0xFFFF) <= 0xFFFD)
}

/// `iprivate` of the profile: RFC 3987 lacks the tag range U+E0000..U+E0FFF.
pub(crate) const fn is_iprivate(c: char, profile: Profile) -> bool {
    let c = c as u32;
    matches!(c, 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD)
        || (!matches!(profile, Profile::Rfc3987) && matches!(c, 0xE0000..=0xE0FFF))
}

/// `leiri-ucschar` (3987bis §6.1).
pub(crate) const fn is_leiri_ucschar(c: char) -> bool {
    matches!(
        c,
        ' ' | '<' | '>' | '"' | '{' | '}' | '|' | '\\' | '^' | '`'
    ) || matches!(c as u32, 0x0..=0x1F | 0x7F..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF)
}

/// Whether `c` may stand unencoded in an ipchar-based component (path,
/// fragment, userinfo, host) of `profile`.
pub(crate) const fn is_extended(c: char, profile: Profile) -> bool {
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

/// ZERO WIDTH NON-JOINER or ZERO WIDTH JOINER, which 3987bis §5.1(d)
/// strongly discourages outside the contexts that need them.
pub(crate) fn is_joiner(c: char) -> bool {
    matches!(c, '\u{200C}' | '\u{200D}')
}

/// The 3987bis §5.1(b) look-alike group of `c`, if it is in one: full-width
/// and half-width forms, and look-alikes of space and of the delimiters.
pub(crate) fn lookalike(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{FF01}'..='\u{FF5E}' => "a full-width form of an ASCII character",
        '\u{FF61}'..='\u{FF9F}' => "a half-width Katakana character",
        '\u{00A0}'
        | '\u{1680}'
        | '\u{2000}'..='\u{200A}'
        | '\u{202F}'
        | '\u{205F}'
        | '\u{3000}' => "a look-alike of space",
        '\u{2044}' | '\u{2215}' | '\u{29F8}' | '\u{2024}' | '\u{FE52}' | '\u{FE55}'
        | '\u{FE56}' | '\u{FE5F}' | '\u{FE6B}' | '\u{A789}' | '\u{2236}' | '\u{0589}'
        | '\u{3002}' => "a look-alike of a delimiter",
        _ => return None,
    })
}

/// A character that Nameprep (RFC 3491, the reference of 3987bis §5.1(b))
/// maps to nothing or prohibits, in the `ucschar` range: RFC 3454 tables
/// B.1 (commonly mapped to nothing), C.1.2 (non-ASCII space), C.2.2
/// (non-ASCII controls), C.6 (inappropriate for plain text), C.7
/// (inappropriate for canonical representation), C.8 (change display
/// properties or are deprecated) and C.9 (tagging). The tables C.3-C.5
/// (private use, non-characters, surrogates) are outside `ucschar`.
pub(crate) fn is_nameprep_excluded(c: char) -> bool {
    matches!(c as u32,
        // B.1
        0x00AD | 0x034F | 0x1806 | 0x180B..=0x180D | 0x200B..=0x200D | 0x2060
        | 0xFE00..=0xFE0F | 0xFEFF
        // C.1.2 (U+200B is in B.1 too)
        | 0x00A0 | 0x1680 | 0x2000..=0x200A | 0x202F | 0x205F | 0x3000
        // C.2.2
        | 0x0080..=0x009F | 0x06DD | 0x070F | 0x180E | 0x2028 | 0x2029 | 0x2061..=0x2063
        | 0x206A..=0x206F | 0xFFF9..=0xFFFC | 0x1D173..=0x1D17A
        // C.6, C.7
        | 0xFFFD | 0x2FF0..=0x2FFB
        // C.8
        | 0x0340 | 0x0341 | 0x200E | 0x200F | 0x202A..=0x202E
        // C.9
        | 0xE0001 | 0xE0020..=0xE007F)
}

/// Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): the
/// characters that are invisible unless a renderer supports them, the
/// class 3987bis §5.1(d) describes with ZWJ and ZWNJ.
pub(crate) fn is_default_ignorable(c: char) -> bool {
    matches!(c as u32,
        0x00AD | 0x034F | 0x061C | 0x115F..=0x1160 | 0x17B4..=0x17B5 | 0x180B..=0x180F
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0x3164 | 0xFE00..=0xFE0F
        | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFF8 | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A
        | 0xE0000..=0xE0FFF)
}

/// A compatibility character: one NFKC replaces (full-width and half-width
/// forms, ligatures, superscripts, presentation forms, and the canonical
/// singletons such as U+212B ANGSTROM SIGN). Each looks like the
/// character(s) NFKC gives, which is what 3987bis §5.1(b) calls a strong
/// visual look-alike.
pub(crate) fn is_compatibility_variant(c: char) -> bool {
    let mut buf = [0; 4];
    !c.is_ascii() && !crate::unicode::is_nfkc(c.encode_utf8(&mut buf))
}

/// Whether 3987bis §5.1 (with RFC 3987 §4.1) advises against `c` anywhere
/// in an IRI: the characters URI → IRI conversion keeps percent-encoded in
/// step 4 (§4.2). They are the bidi formatting characters (RFC 3987 §4.1),
/// ZWJ and ZWNJ (§5.1(d)) and the other invisible characters, the
/// look-alikes of §5.1(b): those of [`lookalike`], the characters Nameprep
/// excludes (RFC 3491, which §5.1(b) cites) and the compatibility
/// characters. A combining mark is discouraged only at the start of a
/// component (§5.1(c)), which the caller decides.
pub(crate) fn is_discouraged(c: char) -> bool {
    !c.is_ascii()
        && (is_bidi_formatting(c)
            || is_joiner(c)
            || lookalike(c).is_some()
            || is_default_ignorable(c)
            || is_nameprep_excluded(c)
            || is_compatibility_variant(c))
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
    use crate::components::Components;
    use crate::rule::GrammarRule;

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
