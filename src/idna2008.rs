//! IDNA2008's lookup test of a label (RFC 5891 §5.4), with the code point
//! categories of RFC 5892 derived from the Unicode properties its rules
//! name, as ICU4X's compiled data gives them (the same Unicode version as
//! the rest of the crate: [`crate::unicode`]).
//!
//! 3987bis §3.4.2 converts a registered name for DNS lookup with RFC 5891's
//! §5.3–5.5 and no mapping: where UTS #46 (the `idna` crate, browsers) maps
//! and accepts symbols and emoji (`☃`, `❤`, `➡` are DISALLOWED in
//! IDNA2008), this refuses them, and the whole conversion fails. Both the
//! conversion (`to_uri` with IDNA) and the readings' judgement of what
//! 3987bis reaches take their answer from [`refusal`].
//!
//! One mapping is applied first: uppercase letters are lowercased (the
//! first step of RFC 5895 §2, which RFC 5891 §5.2 leaves to the
//! application; the DNS compares names without case, RFC 4343), so
//! `ÖBB.at` is the label `öbb`. Nothing else is mapped: a full-width `ａ`
//! or a soft hyphen is refused.

use crate::prelude::*;
use icu_properties::props::{
    CanonicalCombiningClass, ChangesWhenNfkcCasefolded, DefaultIgnorableCodePoint, GeneralCategory,
    HangulSyllableType, JoiningType, NoncharacterCodePoint, Script, WhiteSpace,
};
use icu_properties::{CodePointMapData, CodePointSetData};

/// Why a label fails RFC 5891 §5.4: the first character at fault, its
/// index in characters within the label, and the rule, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    /// The character at fault.
    pub(crate) c: char,
    /// Its index in characters, in the label as judged (lowercased).
    pub(crate) index: usize,
    /// The rule broken, with its section: "… (RFC 5892 §2.1 LetterDigits)".
    pub(crate) rule: String,
}

/// The label as [`refusal`] judges it: lowercased (RFC 5895 §2 step 1).
pub(crate) fn judged(label: &str) -> String {
    if label.chars().any(char::is_uppercase) {
        label.chars().flat_map(char::to_lowercase).collect()
    } else {
        label.to_owned()
    }
}

/// RFC 5891 §5.4 on one label, a U-label or (§5.3) an A-label decoded,
/// after [`judged`]'s lowercasing: `None` when lookup may go on (the
/// hyphen, length and bidi rules are left to UTS #46's ToASCII, which
/// the conversion applies next), else why it is refused.
pub(crate) fn refusal(label: &str) -> Option<Refusal> {
    let label = judged(label);
    let a_label = label
        .get(..4)
        .is_some_and(|p| p.eq_ignore_ascii_case("xn--"));
    let u_label = if a_label {
        // A Punycode that does not decode is left to ToASCII's message.
        idna::punycode::decode_to_string(&label[4..])?
    } else {
        label
    };
    if u_label.is_ascii() {
        return None;
    }
    let chars: Vec<char> = u_label.chars().collect();
    for (index, &c) in chars.iter().enumerate() {
        let rule = match category(c) {
            Category::Pvalid => None,
            Category::ContextJ => context_j(&chars, index),
            Category::ContextO => context_o(&chars, index),
            Category::Disallowed(why) => Some(format!(
                "{} (RFC 5892 {why}; RFC 5891 §5.4: DISALLOWED)",
                describe(c, why)
            )),
            Category::Unassigned => Some(
                "it is unassigned in Unicode (RFC 5892 §2.10 Unassigned; RFC 5891 §5.4)".into(),
            ),
        };
        if let Some(rule) = rule {
            return Some(Refusal { c, index, rule });
        }
    }
    if crate::unicode::is_combining_mark(chars[0]) {
        return Some(Refusal {
            c: chars[0],
            index: 0,
            rule: "the label starts with a combining mark (RFC 5891 §5.4)".into(),
        });
    }
    if !crate::unicode::is_nfc(&u_label) {
        let at = chars
            .iter()
            .position(|&c| !crate::unicode::is_nfc(c.encode_utf8(&mut [0; 4])))
            .unwrap_or(0);
        return Some(Refusal {
            c: chars[at],
            index: at,
            rule: "the label is not in Normalization Form C (RFC 5891 §5.4): write it composed"
                .into(),
        });
    }
    None
}

/// A code point's IDNA2008 category (RFC 5892 §2), with the rule that
/// disallows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Category {
    Pvalid,
    ContextJ,
    ContextO,
    Disallowed(&'static str),
    Unassigned,
}

/// RFC 5892 §3's algorithm, rule by rule in its order.
fn category(c: char) -> Category {
    // §2.6 Exceptions (F).
    match c {
        '\u{DF}' | '\u{3C2}' | '\u{6FD}' | '\u{6FE}' | '\u{F0B}' | '\u{3007}' => {
            return Category::Pvalid;
        }
        '\u{B7}'
        | '\u{375}'
        | '\u{5F3}'
        | '\u{5F4}'
        | '\u{30FB}'
        | '\u{660}'..='\u{669}'
        | '\u{6F0}'..='\u{6F9}' => return Category::ContextO,
        '\u{640}' | '\u{7FA}' | '\u{302E}' | '\u{302F}' | '\u{3031}'..='\u{3035}' | '\u{303B}' => {
            return Category::Disallowed("§2.6 Exceptions");
        }
        _ => {}
    }
    // §2.7 BackwardCompatible (G) is empty.
    let gc = CodePointMapData::<GeneralCategory>::new().get(c);
    let noncharacter = CodePointSetData::new::<NoncharacterCodePoint>().contains(c);
    // §2.10 Unassigned (J).
    if gc == GeneralCategory::Unassigned && !noncharacter {
        return Category::Unassigned;
    }
    // §2.5 LDH (E).
    if matches!(c, '-' | '0'..='9' | 'a'..='z') {
        return Category::Pvalid;
    }
    // §2.8 JoinControl (H).
    if matches!(c, '\u{200C}' | '\u{200D}') {
        return Category::ContextJ;
    }
    // §2.2 Unstable (B): toNFKC(toCaseFold(toNFKC(cp))) != cp. Unicode's
    // NFKC_Casefold also drops the default-ignorable code points, which
    // §2.3 disallows: Changes_When_NFKC_Casefolded without them is B.
    let ignorable = CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c);
    if !ignorable && CodePointSetData::new::<ChangesWhenNfkcCasefolded>().contains(c) {
        return Category::Disallowed("§2.2 Unstable");
    }
    // §2.3 IgnorableProperties (C).
    if ignorable || CodePointSetData::new::<WhiteSpace>().contains(c) || noncharacter {
        return Category::Disallowed("§2.3 IgnorableProperties");
    }
    // §2.4 IgnorableBlocks (D): Combining Diacritical Marks for Symbols,
    // Musical Symbols, Ancient Greek Musical Notation.
    if matches!(c, '\u{20D0}'..='\u{20FF}' | '\u{1D100}'..='\u{1D1FF}' | '\u{1D200}'..='\u{1D24F}')
    {
        return Category::Disallowed("§2.4 IgnorableBlocks");
    }
    // §2.9 OldHangulJamo (I).
    let hst = CodePointMapData::<HangulSyllableType>::new().get(c);
    if matches!(
        hst,
        HangulSyllableType::LeadingJamo
            | HangulSyllableType::VowelJamo
            | HangulSyllableType::TrailingJamo
    ) {
        return Category::Disallowed("§2.9 OldHangulJamo");
    }
    // §2.1 LetterDigits (A).
    use GeneralCategory as G;
    if matches!(
        gc,
        G::LowercaseLetter
            | G::UppercaseLetter
            | G::OtherLetter
            | G::DecimalNumber
            | G::ModifierLetter
            | G::NonspacingMark
            | G::SpacingMark
    ) {
        return Category::Pvalid;
    }
    Category::Disallowed("§2.1 LetterDigits")
}

/// What the rule `why` says of `c`, in a few words.
fn describe(c: char, why: &str) -> String {
    match why {
        "§2.2 Unstable" => {
            let folded: String = crate::unicode::nfkc(c.encode_utf8(&mut [0; 4]))
                .chars()
                .flat_map(char::to_lowercase)
                .collect();
            format!("it stands for {folded:?} under NFKC and case folding")
        }
        "§2.3 IgnorableProperties" => {
            "it is a default-ignorable, white-space or noncharacter code point".into()
        }
        "§2.4 IgnorableBlocks" => "it is in a block IDNA2008 leaves out".into(),
        "§2.9 OldHangulJamo" => "it is a conjoining Hangul jamo".into(),
        "§2.6 Exceptions" => "RFC 5892 lists it as disallowed".into(),
        _ => {
            let gc = CodePointMapData::<GeneralCategory>::new().get(c);
            format!(
                "it is {} (General_Category {}), not a letter, mark or digit",
                gc_words(gc).0,
                gc_words(gc).1
            )
        }
    }
}

/// A General_Category in words, and its short name.
fn gc_words(gc: GeneralCategory) -> (&'static str, &'static str) {
    use GeneralCategory as G;
    match gc {
        G::OtherSymbol => ("a symbol", "So"),
        G::MathSymbol => ("a mathematical symbol", "Sm"),
        G::CurrencySymbol => ("a currency symbol", "Sc"),
        G::ModifierSymbol => ("a modifier symbol", "Sk"),
        G::EnclosingMark => ("an enclosing mark", "Me"),
        G::LetterNumber => ("a letter number", "Nl"),
        G::OtherNumber => ("a number other than a decimal digit", "No"),
        G::ConnectorPunctuation => ("punctuation", "Pc"),
        G::DashPunctuation => ("a dash", "Pd"),
        G::OpenPunctuation => ("an opening bracket", "Ps"),
        G::ClosePunctuation => ("a closing bracket", "Pe"),
        G::InitialPunctuation => ("an opening quotation mark", "Pi"),
        G::FinalPunctuation => ("a closing quotation mark", "Pf"),
        G::OtherPunctuation => ("punctuation", "Po"),
        G::SpaceSeparator => ("a space", "Zs"),
        G::LineSeparator => ("a line separator", "Zl"),
        G::ParagraphSeparator => ("a paragraph separator", "Zp"),
        G::Control => ("a control character", "Cc"),
        G::Format => ("a format character", "Cf"),
        G::PrivateUse => ("a private-use character", "Co"),
        G::Surrogate => ("a surrogate", "Cs"),
        G::TitlecaseLetter => ("a titlecase letter", "Lt"),
        _ => ("not a letter", "?"),
    }
}

fn ccc_virama(c: char) -> bool {
    CodePointMapData::<CanonicalCombiningClass>::new().get(c) == CanonicalCombiningClass::Virama
}

/// RFC 5892 Appendix A.1 (ZERO WIDTH NON-JOINER) and A.2 (ZERO WIDTH
/// JOINER): `None` when the rule holds.
fn context_j(chars: &[char], i: usize) -> Option<String> {
    if i > 0 && ccc_virama(chars[i - 1]) {
        return None;
    }
    if chars[i] == '\u{200D}' {
        return Some(
            "ZERO WIDTH JOINER is allowed only after a virama (RFC 5892 Appendix A.2, CONTEXTJ; RFC 5891 §5.4)"
                .into(),
        );
    }
    // (Joining_Type:{L,D})(Joining_Type:T)*\u200C(Joining_Type:T)*(Joining_Type:{R,D})
    let jt = |c: char| CodePointMapData::<JoiningType>::new().get(c);
    let before = chars[..i]
        .iter()
        .rev()
        .map(|&c| jt(c))
        .find(|&t| t != JoiningType::Transparent);
    let after = chars[i + 1..]
        .iter()
        .map(|&c| jt(c))
        .find(|&t| t != JoiningType::Transparent);
    let joins_left = matches!(
        before,
        Some(JoiningType::LeftJoining | JoiningType::DualJoining)
    );
    let joins_right = matches!(
        after,
        Some(JoiningType::RightJoining | JoiningType::DualJoining)
    );
    if joins_left && joins_right {
        return None;
    }
    Some("ZERO WIDTH NON-JOINER is allowed only after a virama or between joining letters (RFC 5892 Appendix A.1, CONTEXTJ; RFC 5891 §5.4)".into())
}

/// RFC 5892 Appendix A.3–A.9, which lookup is encouraged to test (RFC
/// 5891 §5.4): `None` when the rule holds.
fn context_o(chars: &[char], i: usize) -> Option<String> {
    let script = |c: char| CodePointMapData::<Script>::new().get(c);
    let (holds, rule) = match chars[i] {
        '\u{B7}' => (
            i > 0 && chars[i - 1] == 'l' && chars.get(i + 1) == Some(&'l'),
            "MIDDLE DOT is allowed only between two 'l' (RFC 5892 Appendix A.3, CONTEXTO)",
        ),
        '\u{375}' => (
            chars
                .get(i + 1)
                .is_some_and(|&c| script(c) == Script::Greek),
            "GREEK LOWER NUMERAL SIGN is allowed only before a Greek letter (RFC 5892 Appendix A.4, CONTEXTO)",
        ),
        '\u{5F3}' | '\u{5F4}' => (
            i > 0 && script(chars[i - 1]) == Script::Hebrew,
            "HEBREW PUNCTUATION GERESH and GERSHAYIM are allowed only after a Hebrew letter (RFC 5892 Appendix A.5, A.6, CONTEXTO)",
        ),
        '\u{30FB}' => (
            chars
                .iter()
                .any(|&c| matches!(script(c), Script::Hiragana | Script::Katakana | Script::Han)),
            "KATAKANA MIDDLE DOT is allowed only in a label with Hiragana, Katakana or Han (RFC 5892 Appendix A.7, CONTEXTO)",
        ),
        '\u{660}'..='\u{669}' => (
            !chars.iter().any(|c| ('\u{6F0}'..='\u{6F9}').contains(c)),
            "ARABIC-INDIC DIGITS do not mix with EXTENDED ARABIC-INDIC DIGITS in a label (RFC 5892 Appendix A.8, CONTEXTO)",
        ),
        _ => (
            !chars.iter().any(|c| ('\u{660}'..='\u{669}').contains(c)),
            "EXTENDED ARABIC-INDIC DIGITS do not mix with ARABIC-INDIC DIGITS in a label (RFC 5892 Appendix A.9, CONTEXTO)",
        ),
    };
    (!holds).then(|| rule.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(label: &str) -> Option<(char, String)> {
        refusal(label).map(|r| (r.c, r.rule))
    }

    #[test]
    fn symbols_and_emoji_are_disallowed() {
        for (label, c) in [
            ("☃", '☃'),
            ("i❤", '❤'),
            ("♥", '♥'),
            ("➡", '➡'),
            ("a😀b", '😀'),
        ] {
            let (at, rule) = refused(label).unwrap_or_else(|| panic!("{label} accepted"));
            assert_eq!(at, c);
            assert!(rule.contains("RFC 5892 §2.1 LetterDigits"), "{rule}");
        }
        assert!(
            refused("☃")
                .unwrap()
                .1
                .contains("a symbol (General_Category So)")
        );
        // As A-labels too (RFC 5891 §5.3).
        assert_eq!(refused("xn--n3h").unwrap().0, '☃');
    }

    #[test]
    fn letters_and_the_exceptions_are_pvalid() {
        for label in [
            "faß",
            "ς",
            "résumé",
            "öbb",
            "ÖBB",
            "例え",
            "納豆",
            "xn--fa-hia",
            "a-b",
            "〇",
        ] {
            assert_eq!(refused(label), None, "{label}");
        }
    }

    #[test]
    fn mapped_forms_are_disallowed_not_mapped() {
        let (c, rule) = refused("ｅｖｉｌ").unwrap();
        assert_eq!(c, 'ｅ');
        assert!(
            rule.contains("§2.2 Unstable") && rule.contains("\"e\""),
            "{rule}"
        );
        assert!(
            refused("a\u{AD}b")
                .unwrap()
                .1
                .contains("§2.3 IgnorableProperties")
        );
        assert!(refused("a\u{FE0F}").is_some());
        assert!(refused("ᄀ").unwrap().1.contains("§2.9 OldHangulJamo"));
        assert!(refused("a\u{640}").unwrap().1.contains("§2.6 Exceptions"));
        assert!(
            refused("a\u{20DD}")
                .unwrap()
                .1
                .contains("§2.4 IgnorableBlocks")
        );
        assert!(refused("a\u{0378}").unwrap().1.contains("§2.10 Unassigned"));
        assert!(
            refused("e\u{301}")
                .unwrap()
                .1
                .contains("Normalization Form C")
        );
        assert!(refused("\u{301}e").unwrap().1.contains("combining mark"));
    }

    #[test]
    fn the_contextual_rules() {
        // ZWJ after a virama (Devanagari KA, VIRAMA, ZWJ, SSA), not elsewhere.
        assert_eq!(refused("क्\u{200D}ष"), None);
        assert!(refused("a\u{200D}b").unwrap().1.contains("Appendix A.2"));
        // ZWNJ between dual-joining Arabic letters (BEH, ZWNJ, BEH).
        assert_eq!(refused("ب\u{200C}ب"), None);
        assert!(refused("a\u{200C}b").unwrap().1.contains("Appendix A.1"));
        assert_eq!(refused("l·l"), None);
        assert!(refused("a·b").unwrap().1.contains("Appendix A.3"));
        assert_eq!(refused("ア・カ"), None);
        assert!(refused("a・b").is_some());
        assert!(refused("\u{660}\u{6F0}").is_some());
        assert_eq!(refused("\u{660}\u{661}"), None);
    }
}
