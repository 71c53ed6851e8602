//! The Unicode data the crate needs beyond what `char` knows: the
//! normalization forms NFC and NFKC (3987bis §5.3.2.2, §3.1), the
//! General_Category Mark and the Bidi_Class (RFC 3987 §4.2, RFC 5893),
//! Default_Ignorable_Code_Point (what a terminal must not be given raw).
//!
//! All of it comes from ICU4X's compiled data, which the `idna` crate
//! already builds for UTS #46: one copy of the Unicode tables in a
//! dependent's build, and the same Unicode version for IDNA, normalization
//! and bidi.

use alloc::borrow::Cow;

use icu_normalizer::{ComposingNormalizerBorrowed, DecomposingNormalizerBorrowed};
use icu_properties::CodePointMapData;
use icu_properties::props::{GeneralCategory, GeneralCategoryGroup};

pub(crate) use icu_properties::props::BidiClass;

/// `s` in Normalization Form C.
pub(crate) fn nfc(s: &str) -> Cow<'_, str> {
    ComposingNormalizerBorrowed::new_nfc().normalize(s)
}

/// `s` in Normalization Form D.
#[cfg_attr(not(feature = "spoof"), allow(dead_code))]
pub(crate) fn nfd(s: &str) -> Cow<'_, str> {
    DecomposingNormalizerBorrowed::new_nfd().normalize(s)
}

/// `s` in Normalization Form KC.
pub(crate) fn nfkc(s: &str) -> Cow<'_, str> {
    ComposingNormalizerBorrowed::new_nfkc().normalize(s)
}

/// Whether `s` is in Normalization Form C.
pub(crate) fn is_nfc(s: &str) -> bool {
    ComposingNormalizerBorrowed::new_nfc().is_normalized(s)
}

/// Whether `s` is in Normalization Form KC.
pub(crate) fn is_nfkc(s: &str) -> bool {
    ComposingNormalizerBorrowed::new_nfkc().is_normalized(s)
}

/// Whether `c` is a combining mark: General_Category Mn, Mc or Me.
pub(crate) fn is_combining_mark(c: char) -> bool {
    GeneralCategoryGroup::Mark.contains(CodePointMapData::<GeneralCategory>::new().get(c))
}

/// Whether `c` is a Default_Ignorable_Code_Point (UAX #44): shown as
/// nothing when a renderer has no glyph for it.
pub(crate) fn is_default_ignorable(c: char) -> bool {
    icu_properties::CodePointSetData::new::<icu_properties::props::DefaultIgnorableCodePoint>()
        .contains(c)
}

/// The Bidi_Class of `c`.
pub(crate) fn bidi_class(c: char) -> BidiClass {
    CodePointMapData::<BidiClass>::new().get(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_answers() {
        assert_eq!(nfc("e\u{301}"), "é");
        assert_eq!(nfkc("Ａ"), "A");
        assert_eq!(nfd("é"), "e\u{301}");
        assert!(is_nfc("é") && !is_nfc("e\u{301}"));
        assert!(is_nfkc("A") && !is_nfkc("Ａ"));
        assert!(is_combining_mark('\u{301}') && is_combining_mark('\u{903}'));
        assert!(!is_combining_mark('a'));
        assert_eq!(bidi_class('a'), BidiClass::LeftToRight);
        assert_eq!(bidi_class('א'), BidiClass::RightToLeft);
        assert_eq!(bidi_class('ب'), BidiClass::ArabicLetter);
        assert_eq!(bidi_class('2'), BidiClass::EuropeanNumber);
        assert_eq!(bidi_class('\u{661}'), BidiClass::ArabicNumber);
        assert_eq!(bidi_class('\u{301}'), BidiClass::NonspacingMark);
    }
}
