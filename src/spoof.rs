//! Host spoofing: the labels of a registered name that a reader may take
//! for other labels, as browsers decide whether to display a label in
//! Unicode or keep it in punycode (3987bis §10, RFC 3987 §8, UTS #39).
//!
//! Every rule reads the Unicode data of maintained crates: identifier
//! status and type, scripts and script extensions, the confusable
//! skeletons (`unicode-security`, `unicode-script`), general categories
//! (`icu_properties`) and the likely script of a country (`icu_locale`,
//! CLDR). An `xn--` label is decoded first and a percent-encoded one
//! percent-decoded, so a host and its A-label form get the same findings;
//! the span of a finding in an encoded label is the whole label.
//!
//! The rules, one [`Code`] each:
//!
//! - `HOST_RESTRICTED_CHARACTER`: a character whose identifier status is
//!   not Allowed (UTS #39 §3.1: symbols, emoji, IPA, small capitals,
//!   historic and limited-use scripts), a punctuation-like Inclusion
//!   character (U+2010, U+2019, U+2027, U+30A0, U+058A),
//!   U+30FB next to a Latin letter, U+00B7 outside `l·l`, a deviation
//!   character of UTS #46 (`ß`, `ς`, ZWNJ, ZWJ: IDNA2003 and transitional
//!   processing map it to `ss`, `σ` or nothing, so one label names two
//!   hosts);
//! - `HOST_MIXED_SCRIPTS`: a label beyond the highly restrictive level
//!   (UTS #39 §5.2): Latin mixes only with Han + Hiragana + Katakana,
//!   Han + Bopomofo or Han + Hangul, and then only ASCII Latin;
//! - `HOST_MIXED_SCRIPT_CONFUSABLE`: in a mixed label, a character of a
//!   minority script with the skeleton (UTS #39 §4) of a character of the
//!   label's main script (Armenian `օ` in `gօogle`); in a Japanese label,
//!   a Han or kana letter between two letters of another of the three
//!   scripts with the skeleton of one of theirs (Hiragana `へ` in
//!   `モヒートへブン`);
//! - `HOST_WHOLE_SCRIPT_CONFUSABLE`: a label of one script other than
//!   Latin whose every letter has the skeleton of ASCII letters (`ѕсоре`),
//!   unless the top-level domain is of that script (an IDN TLD in it, or a
//!   country code whose likely script it is: `.ru`, `.рф`);
//! - `HOST_DIGIT_LOOKALIKE`: a label of digits and characters with the
//!   skeleton of a digit (`৪੨`), or of digits and one letter of another
//!   script (`1շ`);
//! - `HOST_MIXED_NUMBERS`: digits of more than one numbering system (`੨0`);
//! - `HOST_STACKED_MARKS`: a combining mark repeated, a mark on dotless
//!   `ı`/`ȷ`, U+0307 on `i`, `j` or `l`;
//! - `HOST_KANA_MISUSE`: U+30FC not after kana, U+30FD/U+30FE not after
//!   Katakana, the voiced sound marks U+3099/U+309A not after kana, a
//!   Japanese character with the skeleton of ASCII punctuation (`ノ` is
//!   `/`) next to a character that is not Japanese;
//! - `HOST_PROTECTED_LOOKALIKE`: the host, or its last labels, has the
//!   skeleton (diacritics removed) of a protected domain without being it.

mod lookalikes;

use crate::nostd::{HashMap, OnceLock};
use crate::prelude::*;

use icu_properties::CodePointMapData;
use icu_properties::props::GeneralCategory;
use unicode_script::{Script, ScriptExtension, UnicodeScript};
use unicode_security::GeneralSecurityProfile;
use unicode_security::general_security_profile::IdentifierType;
use unicode_security::mixed_script::AugmentedScriptSet;

use crate::catalogue::Code;
use crate::render::describe;
use crate::unicode::{is_combining_mark, nfc, nfd};

/// One finding about a host or a label.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct HostFinding {
    /// What was found.
    pub code: Code,
    /// Byte offset of the span's start in the host (or label) given.
    pub start: usize,
    /// Byte offset of the span's end.
    pub end: usize,
    /// One sentence about this host.
    pub message: String,
}

/// Domains whose look-alikes are reported (`iri check --protected-domains`).
///
/// ```
/// use iribis::spoof::{check_host, ProtectedDomains};
///
/// let protected = ProtectedDomains::parse("paypal.com\n# comment\n")?;
/// let codes = |h| check_host(h, &protected).into_iter().map(|f| f.code.name()).collect::<Vec<_>>();
/// assert!(codes("pаypal.com").contains(&"HOST_PROTECTED_LOOKALIKE"));
/// assert!(codes("www.paypal.com").is_empty());
/// # Ok::<(), String>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProtectedDomains {
    list: Vec<Protected>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Protected {
    /// The domain as the user wrote it, lowercase, root dot removed.
    name: String,
    /// Its Unicode form, for the equality test.
    unicode: String,
    /// The skeleton of the Unicode form, diacritics removed.
    skeleton: String,
    /// Its number of labels.
    labels: usize,
}

impl ProtectedDomains {
    /// No domains.
    pub fn new() -> Self {
        Self::default()
    }

    /// One domain per line; blank lines and lines starting with `#` are
    /// skipped. An error names the first line that is not a domain.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut out = ProtectedDomains::new();
        crate::host::read_list(text, |line| out.add(line))?;
        Ok(out)
    }

    /// Adds one domain (Unicode or `xn--` labels).
    pub fn add(&mut self, domain: &str) -> Result<(), String> {
        let name = domain.trim_end_matches('.').to_lowercase();
        if name.is_empty() || name.split('.').any(str::is_empty) {
            return Err(format!("{domain:?} is not a domain name"));
        }
        let (unicode, result) = idna::domain_to_unicode(&name);
        if result.is_err() {
            return Err(format!("IDNA rejects {domain:?}"));
        }
        self.list.push(Protected {
            skeleton: loose_skeleton(&unicode),
            labels: name.split('.').count(),
            name,
            unicode,
        });
        Ok(())
    }

    /// How many domains there are.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// The findings about a registered name: each label's (see [`check_label`],
/// with the host's top-level domain), then the look-alikes of `protected`.
/// Offsets are into `host`; a trailing root dot is fine.
///
/// ```
/// use iribis::spoof::{check_host, ProtectedDomains};
///
/// let none = ProtectedDomains::new();
/// let codes = |h| check_host(h, &none).into_iter().map(|f| f.code.name()).collect::<Vec<_>>();
/// assert_eq!(codes("gօogle.com"), ["HOST_MIXED_SCRIPTS", "HOST_MIXED_SCRIPT_CONFUSABLE"]);
/// assert_eq!(codes("xn--gogle-lkg.com"), ["HOST_MIXED_SCRIPTS", "HOST_MIXED_SCRIPT_CONFUSABLE"]);
/// assert_eq!(codes("ѕсоре.com"), ["HOST_WHOLE_SCRIPT_CONFUSABLE"]);
/// assert!(codes("ѕсоре.ru").is_empty());
/// assert!(codes("bücher.de").is_empty());
/// ```
pub fn check_host(host: &str, protected: &ProtectedDomains) -> Vec<HostFinding> {
    // Most hosts: ASCII, no A-label, no percent-encoding, nothing to
    // compare with.
    if protected.is_empty() && crate::host::is_plain_ascii_name(host) {
        return Vec::new();
    }
    let labels = split_labels(host);
    let tld = labels
        .iter()
        .rev()
        .find(|(_, l)| !l.is_empty())
        .and_then(|&(at, l)| decode_label(l, at))
        .map(|chars| chars.iter().map(|c| c.0).collect::<String>());
    let mut out = Vec::new();
    let mut decoded = Vec::with_capacity(labels.len());
    for &(at, label) in &labels {
        let chars = decode_label(label, at);
        if let Some(chars) = &chars {
            label_rules(chars, at, at + label.len(), tld.as_deref(), &mut out);
        }
        decoded.push(chars);
    }
    protected_rule(host, &labels, &decoded, protected, &mut out);
    out
}

/// The findings about one label (Unicode, `xn--` or percent-encoded) under
/// the top-level domain `tld` (Unicode or `xn--`; `None` when unknown, so
/// that no whole-script confusable is excused). Offsets are into `label`.
/// An ASCII label has none; an `xn--` label that does not decode has none
/// either (it is not an IDN: `INVALID_IDN` reports it).
///
/// ```
/// use iribis::spoof::check_label;
/// use iribis::check::Code;
///
/// let f = check_label("paypαl", Some("com"));
/// assert_eq!(f[0].code, Code::HostMixedScripts);
/// assert_eq!((f[1].code, f[1].start, f[1].end), (Code::HostMixedScriptConfusable, 4, 6));
/// assert!(check_label("παράδειγμα", Some("gr")).is_empty());
/// ```
pub fn check_label(label: &str, tld: Option<&str>) -> Vec<HostFinding> {
    let tld = tld.and_then(|t| {
        decode_label(t, 0).map(|chars| chars.iter().map(|c| c.0).collect::<String>())
    });
    let mut out = Vec::new();
    if let Some(chars) = decode_label(label, 0) {
        label_rules(&chars, 0, label.len(), tld.as_deref(), &mut out);
    }
    out
}

/// The labels of a host with their byte offsets; a trailing root dot gives
/// an empty last label.
fn split_labels(host: &str) -> Vec<(usize, &str)> {
    let mut at = 0;
    host.split('.')
        .map(|l| {
            let here = at;
            at += l.len() + 1;
            (here, l)
        })
        .collect()
}

/// A character of a label with its span in the host.
type Spanned = (char, usize, usize);

/// The characters of a label, lowercased: an `xn--` label decoded with
/// punycode, a percent-encoded one decoded as UTF-8, each character then
/// spanning the whole label. `None` when the label does not decode.
fn decode_label(label: &str, at: usize) -> Option<Vec<Spanned>> {
    let end = at + label.len();
    let mut text = alloc::borrow::Cow::Borrowed(label);
    let mut whole = false;
    if label.contains('%') {
        let bytes: Vec<u8> = percent_encoding::percent_decode_str(label).collect();
        text = alloc::borrow::Cow::Owned(String::from_utf8(bytes).ok()?);
        whole = true;
    }
    if text
        .get(..4)
        .is_some_and(|p| p.eq_ignore_ascii_case("xn--"))
    {
        // An A-label IDNA rejects is no IDN: INVALID_IDN reports it.
        let (decoded, result) = idna::domain_to_unicode(&text);
        if result.is_err() || decoded.is_empty() || decoded.contains('.') {
            return None;
        }
        text = alloc::borrow::Cow::Owned(decoded);
        whole = true;
    }
    let mut out = Vec::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        let mut lower = c.to_lowercase();
        let c = match (lower.next(), lower.next()) {
            (Some(l), None) => l,
            _ => c,
        };
        if whole {
            out.push((c, at, end));
        } else {
            out.push((
                c,
                at + i,
                at + i + text[i..].chars().next().map_or(0, char::len_utf8),
            ));
        }
    }
    Some(out)
}

fn push(out: &mut Vec<HostFinding>, code: Code, start: usize, end: usize, message: String) {
    out.push(HostFinding {
        code,
        start,
        end,
        message,
    });
}

/// The rules on one decoded label spanning `start..end` of the host.
fn label_rules(
    chars: &[Spanned],
    start: usize,
    end: usize,
    tld: Option<&str>,
    out: &mut Vec<HostFinding>,
) {
    if chars.iter().all(|c| c.0.is_ascii()) {
        // Browsers show ASCII labels as they are; only the protected
        // domains look at them.
        return;
    }
    let text: String = chars.iter().map(|c| c.0).collect();
    let scripts = label_scripts(chars);
    // A letter in uncommon use is fine in a label of its script under a
    // top-level domain of that script (Georgian under .ge).
    let own_script = match scripts.as_slice() {
        [(s, _)] if tld_of_script(tld, *s) => Some(*s),
        _ => None,
    };
    restricted_characters(chars, own_script, out);
    let mixed = mixed_scripts(chars, start, end, &scripts, out);
    if mixed {
        mixed_script_confusables(chars, &scripts, out);
    } else {
        japanese_confusables(chars, out);
        whole_script_confusable(chars, start, end, &text, &scripts, tld, out);
    }
    numbers(chars, start, end, &scripts, tld, out);
    stacked_marks(chars, out);
    kana(chars, out);
    cjk_lookalikes(chars, out);
}

/// Han, Bopomofo and kana, by Script_Extensions.
fn is_cjk(c: char) -> bool {
    // Common and Inherited characters (digits, '-') have the extension
    // of every script: they are not CJK here.
    let ext = ScriptExtension::from(c);
    !ext.is_common()
        && !ext.is_inherited()
        && [
            Script::Han,
            Script::Hiragana,
            Script::Katakana,
            Script::Bopomofo,
        ]
        .iter()
        .any(|&s| ext.contains_script(s))
}

/// In a label that mixes CJK with Latin, a Han, Bopomofo or kana character
/// of the look-alike table (`cjk`: Chromium's list of the ones that spoof
/// Latin letters or punctuation, with targets of ours) next to a character
/// that is not CJK: `丁est`, `google丨com`, `ipㄧaddress`, `d12一`. A label
/// without Latin letters (`一123`) is left alone, as browsers leave it.
fn cjk_lookalikes(chars: &[Spanned], out: &mut Vec<HostFinding>) {
    if !chars.iter().any(|c| c.0.script() == Script::Latin) {
        return;
    }
    for (i, &(c, s, e)) in chars.iter().enumerate() {
        let Some(target) = table_target(c, Rule::Cjk) else {
            continue;
        };
        let prev = i.checked_sub(1).map(|j| chars[j].0);
        let next = chars.get(i + 1).map(|n| n.0);
        if ![prev, next].into_iter().flatten().any(|n| !is_cjk(n)) {
            continue;
        }
        let letter = target.bytes().all(|b| b.is_ascii_alphanumeric());
        let (code, what) = if letter {
            (Code::HostMixedScriptConfusable, "a Latin letter or digit")
        } else {
            (Code::HostKanaMisuse, "punctuation")
        };
        // The kana rule has said it already.
        if !letter && punctuation_among_letters(c, prev, next) {
            continue;
        }
        let reads = if target == "?" {
            String::new()
        } else {
            format!(" ('{target}')")
        };
        push(
            out,
            code,
            s,
            e,
            format!(
                "{}, of the {} script, stands next to characters that are not CJK, where it reads as {what}{reads}",
                describe(c),
                c.script().full_name()
            ),
        );
    }
}

/// Where the checks use an entry of the look-alike table
/// (`gen/data/lookalikes.tsv`, generated into `src/spoof/lookalikes.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Rule {
    /// A Latin look-alike in a label of one other script, or among Latin
    /// letters.
    Letter,
    /// A digit look-alike.
    Digit,
    /// Only in the comparison with protected domains.
    Skeleton,
    /// A Han, Bopomofo or kana character that reads as the target next to
    /// a character that is not CJK.
    Cjk,
}

/// The look-alike table's entries for `c`: (target, rule).
fn table(c: char) -> impl Iterator<Item = (&'static str, Rule)> {
    let t = &lookalikes::LOOKALIKES;
    let start = t.partition_point(|e| e.0 < c);
    t[start..]
        .iter()
        .take_while(move |e| e.0 == c)
        .map(|e| (e.1, e.2))
}

/// What `c` reads as under `rule`, when the table has it.
fn table_target(c: char, rule: Rule) -> Option<&'static str> {
    table(c).find(|e| e.1 == rule).map(|e| e.0)
}

/// Identifier status Allowed (UTS #39 §3.1), with Bopomofo, which UTS #39
/// §5.2 names among the scripts Han mixes with at the highly restrictive
/// level, the kana voiced sound marks, whose place the kana rules check,
/// and the joiners, which scripts need where IDNA's CONTEXTJ rules allow
/// them (as deviation characters of UTS #46, [`deviation`], they are
/// reported all the same).
fn identifier_allowed(c: char) -> bool {
    GeneralSecurityProfile::identifier_allowed(c)
        || c.script() == Script::Bopomofo
        || matches!(c, '\u{3099}' | '\u{309A}' | '\u{200C}' | '\u{200D}')
}

fn general_category(c: char) -> GeneralCategory {
    CodePointMapData::<GeneralCategory>::new().get(c)
}

fn is_digit(c: char) -> bool {
    general_category(c) == GeneralCategory::DecimalNumber
}

/// Inclusion characters (UTS #39 Table 1) that are dashes, quotes or
/// punctuation of no script: browsers keep a label with them in punycode.
/// The signs of one script (Greek, Hebrew, Arabic, Tibetan) are left to
/// the script rules; U+30FB and U+00B7 have their own conditions; the
/// joiners are deviation characters ([`deviation`]).
fn punctuation_inclusion(c: char) -> bool {
    use GeneralCategory as G;
    GeneralSecurityProfile::identifier_type(c) == Some(IdentifierType::Inclusion)
        && !c.is_ascii()
        && !matches!(c, '\u{30FB}' | '\u{00B7}')
        && (c.script() == Script::Common
            || matches!(
                general_category(c),
                G::DashPunctuation | G::InitialPunctuation | G::FinalPunctuation
            ))
}

/// The deviation characters of UTS #46 (its IdnaMappingTable status
/// `deviation`, the characters IDNA2003 and IDNA2008 treat differently):
/// valid in a label under nontransitional processing, mapped to something
/// else under IDNA2003 and transitional processing, so one label names two
/// hosts. Returns what the other processing makes of it.
fn deviation(c: char) -> Option<&'static str> {
    match c {
        '\u{00DF}' => Some("'ss'"),
        '\u{03C2}' => Some("'\u{03C3}' (GREEK SMALL LETTER SIGMA)"),
        '\u{200C}' | '\u{200D}' => Some("nothing"),
        _ => None,
    }
}

fn restricted_characters(
    chars: &[Spanned],
    own_script: Option<Script>,
    out: &mut Vec<HostFinding>,
) {
    let latin = |i: Option<&Spanned>| i.is_some_and(|c| c.0.script() == Script::Latin);
    for (i, &(c, s, e)) in chars.iter().enumerate() {
        // A letter in uncommon use or obsolete, of the label's own script
        // under a top-level domain of that script.
        let excused = own_script == Some(c.script())
            && matches!(
                GeneralSecurityProfile::identifier_type(c),
                Some(IdentifierType::Uncommon_Use | IdentifierType::Obsolete)
            );
        let why = if crate::chars::is_bidi_formatting(c) {
            // BIDI_FORMATTING_CHARACTER's.
            None
        } else if c.is_ascii() {
            (!(c.is_ascii_alphanumeric() || c == '-'))
                .then(|| format!("{} is not a letter, a digit or '-'", describe(c)))
        } else if let Some(other) = deviation(c) {
            Some(format!(
                "{} is a deviation character of UTS #46: IDNA2003 and transitional processing map it to {other}, so this label leads to another host there",
                describe(c)
            ))
        } else if !identifier_allowed(c) && !excused {
            let kind = match GeneralSecurityProfile::identifier_type(c) {
                Some(IdentifierType::Not_XID) => "a symbol, emoji or punctuation, not a letter",
                Some(IdentifierType::Technical) => {
                    "a technical character (IPA, small capitals, phonetic or mathematical letters)"
                }
                Some(IdentifierType::Limited_Use) => "of a limited-use script",
                Some(IdentifierType::Exclusion) => "of a historic script excluded from identifiers",
                Some(IdentifierType::Obsolete) => "an obsolete character",
                Some(IdentifierType::Uncommon_Use) => "a character in uncommon use",
                Some(IdentifierType::Not_NFKC) => "a compatibility character that NFKC replaces",
                Some(IdentifierType::Default_Ignorable) => "invisible (default-ignorable)",
                Some(IdentifierType::Deprecated) => "a deprecated character",
                _ => "not a character for identifiers",
            };
            Some(format!("{} is {kind}", describe(c)))
        } else if punctuation_inclusion(c) {
            Some(format!(
                "{} is punctuation or invisible, not a letter",
                describe(c)
            ))
        } else if c == '\u{30FB}'
            && (latin(i.checked_sub(1).and_then(|j| chars.get(j))) || latin(chars.get(i + 1)))
        {
            Some(format!(
                "{}, KATAKANA MIDDLE DOT, is next to a Latin letter, where it reads as a dot",
                describe(c)
            ))
        } else if c == '\u{00B7}'
            && !(i > 0 && chars[i - 1].0 == 'l' && chars.get(i + 1).is_some_and(|n| n.0 == 'l'))
        {
            Some(format!(
                "{}, MIDDLE DOT, is outside the Catalan l·l, where it reads as a dot",
                describe(c)
            ))
        } else {
            None
        };
        if let Some(why) = why {
            push(
                out,
                Code::HostRestrictedCharacter,
                s,
                e,
                format!("{why}: browsers show this label in punycode"),
            );
        }
    }
}

/// The scripts of the label's letters (Script property, Common and
/// Inherited left out), with their counts, in order of first appearance.
fn label_scripts(chars: &[Spanned]) -> Vec<(Script, usize)> {
    let mut scripts: Vec<(Script, usize)> = Vec::new();
    for &(c, ..) in chars {
        let s = c.script();
        if matches!(s, Script::Common | Script::Inherited | Script::Unknown) {
            continue;
        }
        match scripts.iter_mut().find(|(t, _)| *t == s) {
            Some(entry) => entry.1 += 1,
            None => scripts.push((s, 1)),
        }
    }
    scripts
}

fn script_names(scripts: &[(Script, usize)]) -> String {
    let names: Vec<&str> = scripts.iter().map(|(s, _)| s.full_name()).collect();
    match names.split_last() {
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => "no script".to_owned(),
    }
}

/// UTS #39 §5.2 at the highly restrictive level, over the characters whose
/// identifier status is Allowed (the others are reported already). Returns
/// whether the label has more than one script.
fn mixed_scripts(
    chars: &[Spanned],
    start: usize,
    end: usize,
    scripts: &[(Script, usize)],
    out: &mut Vec<HostFinding>,
) -> bool {
    let mut all = AugmentedScriptSet::default();
    let mut no_latin = AugmentedScriptSet::default();
    let mut non_ascii_latin = false;
    for &(c, ..) in chars {
        if !identifier_allowed(c) || punctuation_inclusion(c) {
            continue;
        }
        let set = AugmentedScriptSet::for_char(c);
        all.intersect_with(set);
        if set.base.contains_script(Script::Latin) {
            non_ascii_latin |= !c.is_ascii();
        } else {
            no_latin.intersect_with(set);
        }
    }
    if !all.is_empty() {
        return false;
    }
    let cjk = no_latin.hanb || no_latin.jpan || no_latin.kore;
    let has_latin = scripts.iter().any(|(s, _)| *s == Script::Latin);
    let why = if !cjk {
        let names = if scripts.len() > 1 {
            script_names(scripts)
        } else {
            // A mark or sign of another script (its Script_Extensions).
            "letters and marks of different scripts".to_owned()
        };
        Some(format!(
            "this label mixes {names}, beyond what UTS #39's highly restrictive level allows (Latin only with Han and kana, Han and Bopomofo, or Han and Hangul)"
        ))
    } else if has_latin && non_ascii_latin {
        Some(format!(
            "this label mixes {} with Latin letters beyond ASCII, which browsers do not show in Unicode",
            script_names(scripts)
        ))
    } else {
        None
    };
    if let Some(why) = why {
        push(out, Code::HostMixedScripts, start, end, why);
    }
    true
}

/// The UTS #39 skeleton of a string.
fn skeleton(s: &str) -> String {
    unicode_security::skeleton(s).collect()
}

fn char_skeleton(c: char) -> String {
    let mut buf = [0; 4];
    skeleton(c.encode_utf8(&mut buf))
}

/// Whether `c` (not ASCII) reads as Latin letters or digits: a `letter` of
/// the look-alike table with such a target, or a character with the
/// skeleton of Latin letters or digits: of
/// ASCII ones, or of Latin letters that are neither technical nor obsolete
/// (IPA, small capitals: Cyrillic `м` has the skeleton of IPA `ʍ`, `к`
/// that of `ĸ`, and passes for no letter a reader of Latin knows).
/// Cyrillic `ь` has the skeleton of `ƅ`, a look-alike of `b`.
fn ascii_lookalike(c: char) -> bool {
    if c.is_ascii() {
        return false;
    }
    if table_target(c, Rule::Letter).is_some_and(|t| t.bytes().all(|b| b.is_ascii_alphanumeric())) {
        return true;
    }
    let s = char_skeleton(c);
    !s.is_empty()
        && s.chars().all(|x| {
            x.is_ascii_alphanumeric()
                || (x.script() == Script::Latin
                    && !is_combining_mark(x)
                    && !matches!(
                        GeneralSecurityProfile::identifier_type(x),
                        Some(IdentifierType::Technical | IdentifierType::Obsolete)
                    ))
        })
}

/// The scripts of the Allowed characters with each skeleton, built once
/// from the whole repertoire.
fn skeleton_scripts() -> &'static HashMap<String, Vec<Script>> {
    static MAP: OnceLock<HashMap<String, Vec<Script>>> = OnceLock::new();
    MAP.get_or_init(|| {
        let mut map: HashMap<String, Vec<Script>> = HashMap::new();
        for c in (0..=0x10FFFF_u32).filter_map(char::from_u32) {
            if !identifier_allowed(c) {
                continue;
            }
            let script = c.script();
            if matches!(script, Script::Common | Script::Inherited) {
                continue;
            }
            let scripts = map.entry(char_skeleton(c)).or_default();
            if !scripts.contains(&script) {
                scripts.push(script);
            }
        }
        map
    })
}

/// UTS #39 §4 on a mixed label: each character of a script other than the
/// label's main one that has the skeleton of a character of the main
/// script. The main script has the most letters; Latin wins a tie, as the
/// script readers are likeliest to expect.
fn mixed_script_confusables(
    chars: &[Spanned],
    scripts: &[(Script, usize)],
    out: &mut Vec<HostFinding>,
) {
    let most = scripts.iter().map(|s| s.1).max().unwrap_or(0);
    let Some(main) = scripts
        .iter()
        .filter(|s| s.1 == most)
        .map(|s| s.0)
        .min_by_key(|s| *s != Script::Latin)
    else {
        return;
    };
    for &(c, s, e) in chars {
        let script = c.script();
        if script == main || matches!(script, Script::Common | Script::Inherited) {
            continue;
        }
        let confusable = if main == Script::Latin {
            ascii_lookalike(c)
        } else {
            skeleton_scripts()
                .get(&char_skeleton(c))
                .is_some_and(|v| v.contains(&main))
        };
        if confusable {
            push(
                out,
                Code::HostMixedScriptConfusable,
                s,
                e,
                format!(
                    "{}, of the {} script, looks like a letter of {}, the script of the rest of the label",
                    describe(c),
                    script.full_name(),
                    main.full_name()
                ),
            );
        }
    }
}

/// UTS #39 §4 inside a Japanese label, which the highly restrictive level
/// counts as one script (Han, Hiragana and Katakana): a letter of one of
/// the three between two letters of another that has the skeleton of a
/// letter of theirs. Hiragana `へ` between Katakana in `モヒートへブン`
/// reads as Katakana `ヘ`; Han `工` between Katakana as `エ`.
fn japanese_confusables(chars: &[Spanned], out: &mut Vec<HostFinding>) {
    let japanese = |s: Script| matches!(s, Script::Han | Script::Hiragana | Script::Katakana);
    for w in chars.windows(3) {
        let (c, s, e) = w[1];
        let (script, around) = (c.script(), w[0].0.script());
        if !japanese(script) || !japanese(around) || around == script || w[2].0.script() != around {
            continue;
        }
        let lookalike = skeleton_scripts()
            .get(&char_skeleton(c))
            .is_some_and(|v| v.contains(&around));
        if lookalike {
            push(
                out,
                Code::HostMixedScriptConfusable,
                s,
                e,
                format!(
                    "{}, of the {} script, stands between {} letters and looks like one of them",
                    describe(c),
                    script.full_name(),
                    around.full_name()
                ),
            );
        }
    }
}

/// Whether the top-level domain is of `script`: an IDN TLD in it, or a
/// country code whose likely script (CLDR) it is.
fn tld_of_script(tld: Option<&str>, script: Script) -> bool {
    let Some(tld) = tld else { return false };
    if !tld.is_ascii() {
        return tld.chars().any(|c| c.script() == script);
    }
    if tld.len() != 2 {
        return false;
    }
    let Ok(mut id) =
        format!("und-{}", tld.to_ascii_uppercase()).parse::<icu_locale::LanguageIdentifier>()
    else {
        return false;
    };
    icu_locale::LocaleExpander::new_extended().maximize(&mut id);
    id.script.is_some_and(|s| s.as_str() == script.short_name())
}

fn whole_script_confusable(
    chars: &[Spanned],
    start: usize,
    end: usize,
    text: &str,
    scripts: &[(Script, usize)],
    tld: Option<&str>,
    out: &mut Vec<HostFinding>,
) {
    let [(script, _)] = scripts else { return };
    if *script == Script::Latin {
        return;
    }
    let all_lookalike = chars
        .iter()
        .filter(|c| !matches!(c.0.script(), Script::Common | Script::Inherited))
        .all(|c| ascii_lookalike(c.0) || table_target(c.0, Rule::Letter).is_some());
    let digit_like = chars.iter().all(|c| c.0 == '-' || digit_lookalike(c.0));
    if !all_lookalike || digit_like || tld_of_script(tld, *script) {
        // A label of digit look-alikes is HOST_DIGIT_LOOKALIKE's.
        return;
    }
    // What a reader of Latin sees: each look-alike as its skeleton.
    let reading: String = chars
        .iter()
        .map(|c| {
            if c.0.is_ascii() {
                c.0.to_string()
            } else if let Some(t) = table_target(c.0, Rule::Letter) {
                t.to_owned()
            } else {
                char_skeleton(c.0).to_lowercase()
            }
        })
        .collect();
    push(
        out,
        Code::HostWholeScriptConfusable,
        start,
        end,
        format!(
            "every {} letter of '{text}' looks like a Latin one: it reads as '{}', a different name{}",
            script.full_name(),
            reading,
            match tld {
                Some(t) => format!(", under a top-level domain ('{t}') not of that script"),
                None => String::new(),
            }
        ),
    );
}

/// Whether `c` is an ASCII digit or reads as one: a `digit` of the
/// look-alike table, or a character with the skeleton of one.
fn digit_lookalike(c: char) -> bool {
    c.is_ascii_digit()
        || table_target(c, Rule::Digit).is_some()
        || digit_skeletons().contains(&char_skeleton(c))
}

/// The skeletons of the ASCII digits.
fn digit_skeletons() -> &'static [String; 10] {
    static D: OnceLock<[String; 10]> = OnceLock::new();
    D.get_or_init(|| core::array::from_fn(|i| char_skeleton(char::from(b'0' + i as u8))))
}

fn numbers(
    chars: &[Spanned],
    start: usize,
    end: usize,
    scripts: &[(Script, usize)],
    tld: Option<&str>,
    out: &mut Vec<HostFinding>,
) {
    // Numbering systems: a decimal digit's Script tells them apart
    // (European digits are Common).
    let mut systems: Vec<Script> = Vec::new();
    for &(c, ..) in chars {
        if is_digit(c) && !systems.contains(&c.script()) {
            systems.push(c.script());
        }
    }
    if systems.len() > 1 {
        let names: Vec<&str> = systems
            .iter()
            .map(|s| match s {
                Script::Common => "European",
                s => s.full_name(),
            })
            .collect();
        push(
            out,
            Code::HostMixedNumbers,
            start,
            end,
            format!(
                "this label mixes the digits of {} numbering systems ({}), so a digit can pass for another",
                names.len(),
                names.join(", ")
            ),
        );
    }
    let all_digit_like = chars.iter().all(|c| c.0 == '-' || digit_lookalike(c.0));
    let letters: Vec<char> = chars
        .iter()
        .map(|c| c.0)
        .filter(|&c| c != '-' && !c.is_ascii_digit())
        .collect();
    // A Han, kana or Hangul character among digits is read as what it is.
    let cjk = |c: char| {
        let set = AugmentedScriptSet::for_char(c);
        !set.is_all() && (set.jpan || set.kore)
    };
    let lone_letter = matches!(letters.as_slice(), [l] if !is_digit(*l) && l.script() != Script::Latin && !cjk(*l))
        && chars.iter().any(|c| c.0.is_ascii_digit());
    let own_tld = matches!(scripts, [(s, _)] if tld_of_script(tld, *s));
    if (all_digit_like || lone_letter) && !own_tld {
        let what = if all_digit_like {
            "is made only of digits and characters that look like digits".to_owned()
        } else {
            format!(
                "is digits and one letter, {}, that reads as a digit among them",
                describe(letters[0])
            )
        };
        push(
            out,
            Code::HostDigitLookalike,
            start,
            end,
            format!("this label {what}: it can pass for a number it is not"),
        );
    }
}

fn stacked_marks(chars: &[Spanned], out: &mut Vec<HostFinding>) {
    // The previous character after NFD, with the index of the character it
    // comes from, and the last one that is no combining mark.
    let mut prev: Option<(char, usize)> = None;
    let mut base: Option<char> = None;
    for (i, &(c, s, e)) in chars.iter().enumerate() {
        let mut reported = false;
        for d in nfd(c.encode_utf8(&mut [0; 4])).chars() {
            if is_combining_mark(d) && !reported {
                let why = match (prev, base) {
                    (Some((p, _)), _) if p == d => Some(format!(
                        "the combining mark {} is repeated, stacking on itself",
                        describe(d)
                    )),
                    (Some((p @ ('\u{0131}' | '\u{0237}'), _)), _) => Some(format!(
                        "the combining mark {} sits on the dotless {}, where it can pass for a dot",
                        describe(d),
                        describe(p)
                    )),
                    (Some((p @ ('i' | 'j' | 'l'), _)), _) if d == '\u{0307}' => Some(format!(
                        "U+0307 COMBINING DOT ABOVE sits on '{p}', a dot that passes unseen on it"
                    )),
                    (_, Some(b))
                        if foreign_mark(d, b)
                            && !matches!(
                                b.script(),
                                Script::Latin
                                    | Script::Greek
                                    | Script::Cyrillic
                                    | Script::Common
                                    | Script::Inherited
                            ) =>
                    {
                        Some(format!(
                            "the combining mark {} sits on {}, a letter of {}, a script that does not use it",
                            describe(d),
                            describe(b),
                            b.script().full_name()
                        ))
                    }
                    _ => None,
                };
                if let Some(why) = why {
                    let from = prev.map_or(s, |p| chars[p.1].1.min(s));
                    push(out, Code::HostStackedMarks, from, e, why);
                    reported = true;
                }
            }
            if !is_combining_mark(d) {
                base = Some(d);
            }
            prev = Some((d, i));
        }
    }
}

/// A combining mark of no script of its own (the diacritics of U+0300 to
/// U+036F, which Latin, Greek and Cyrillic use) whose script extensions
/// do not have the script of the letter it sits on.
fn foreign_mark(mark: char, base: char) -> bool {
    let ext = ScriptExtension::from(mark);
    mark.script() == Script::Inherited
        && (ext.is_inherited() || !ext.contains_script(base.script()))
}

fn is_kana(c: char) -> bool {
    matches!(c.script(), Script::Hiragana | Script::Katakana)
}

/// Japanese: kana, Han, or a character used with them only.
fn is_japanese(c: char) -> bool {
    let set = AugmentedScriptSet::for_char(c);
    !set.is_all() && set.jpan
}

/// A Japanese character with the skeleton of ASCII punctuation (or of
/// U+30FC) next to a letter that is not Japanese: `ノ` in `comノevil`.
fn punctuation_among_letters(c: char, prev: Option<char>, next: Option<char>) -> bool {
    is_japanese(c)
        && c != '\u{30FC}'
        && char_skeleton(c)
            .chars()
            .all(|x| x.is_ascii_punctuation() || x == '\u{30FC}')
        && [prev, next]
            .into_iter()
            .flatten()
            .any(|n| n.is_alphabetic() && !is_japanese(n))
}

fn kana(chars: &[Spanned], out: &mut Vec<HostFinding>) {
    for (i, &(c, s, e)) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).map(|j| chars[j].0);
        let next = chars.get(i + 1).map(|n| n.0);
        let why = match c {
            '\u{30FC}' if !prev.is_some_and(|p| is_kana(p) || p == '\u{30FC}') => Some(format!(
                "{}, PROLONGED SOUND MARK, does not follow kana, where it looks like a dash or the Han 'one'",
                describe(c)
            )),
            '\u{30FD}' | '\u{30FE}'
                if !prev.is_some_and(|p| {
                    p.script() == Script::Katakana && !matches!(p, '\u{30FD}' | '\u{30FE}')
                }) =>
            {
                Some(format!(
                    "{}, a KATAKANA ITERATION MARK, does not follow Katakana",
                    describe(c)
                ))
            }
            '\u{3099}' | '\u{309A}' if !prev.is_some_and(is_kana) => Some(format!(
                "the voiced sound mark {} does not follow kana",
                describe(c)
            )),
            _ if punctuation_among_letters(c, prev, next) => Some(format!(
                "{} looks like '{}' and stands next to a letter that is not Japanese",
                describe(c),
                char_skeleton(c)
            )),
            _ => None,
        };
        if let Some(why) = why {
            push(out, Code::HostKanaMisuse, s, e, why);
        }
    }
}

/// At most this many readings of a host are compared with the protected
/// domains (each character the look-alike table maps besides its UTS #39
/// skeleton doubles them; past the cap the character is read one way).
const SKELETON_VARIANTS: usize = 32;

/// The loose skeletons of `s` (see [`loose_skeleton`]) under each reading
/// the look-alike table adds: Bengali `৭` reads as `9` in UTS #39 and as
/// `q` there, Cyrillic `к` as `k`, `ӏ` as `l` and as `i`.
fn loose_skeletons(s: &str) -> Vec<String> {
    let mut variants = vec![String::new()];
    for c in s.chars().flat_map(char::to_lowercase) {
        let targets: Vec<&str> = table(c).map(|e| e.0).filter(|t| *t != "?").collect();
        if targets.is_empty() || variants.len() * (targets.len() + 1) > SKELETON_VARIANTS {
            variants.iter_mut().for_each(|v| v.push(c));
            continue;
        }
        let mut next = Vec::with_capacity(variants.len() * (targets.len() + 1));
        for v in &variants {
            next.push(format!("{v}{c}"));
            for t in &targets {
                next.push(format!("{v}{t}"));
            }
        }
        variants = next;
    }
    let mut out: Vec<String> = variants.iter().map(|v| loose_skeleton(v)).collect();
    out.sort();
    out.dedup();
    out
}

/// The skeleton with diacritics removed: lowercase, NFD, combining marks
/// dropped, skeleton; then, as a skeleton can have capitals and marks
/// (Cyrillic `ԍ` has that of `G`), the same again.
fn loose_skeleton(s: &str) -> String {
    let once = |s: &str| -> String {
        let lower: String = s.chars().flat_map(char::to_lowercase).collect();
        let bare: String = nfd(&lower)
            .chars()
            .filter(|&c| !is_combining_mark(c))
            .collect();
        unicode_security::skeleton(&bare)
            .filter(|&c| !is_combining_mark(c))
            .collect()
    };
    once(&once(s))
}

fn protected_rule(
    host: &str,
    labels: &[(usize, &str)],
    decoded: &[Option<Vec<Spanned>>],
    protected: &ProtectedDomains,
    out: &mut Vec<HostFinding>,
) {
    if protected.is_empty() {
        return;
    }
    // The root dot does not count.
    let n = match labels.last() {
        Some((_, "")) => labels.len() - 1,
        _ => labels.len(),
    };
    let unicode: Vec<Option<String>> = decoded[..n]
        .iter()
        .map(|l| l.as_ref().map(|l| l.iter().map(|c| c.0).collect()))
        .collect();
    for p in &protected.list {
        if p.labels > n {
            continue;
        }
        let from = n - p.labels;
        let Some(parts) = unicode[from..]
            .iter()
            .cloned()
            .collect::<Option<Vec<String>>>()
        else {
            continue;
        };
        let suffix: String = nfc(&parts.join(".")).into_owned();
        if suffix == p.unicode || suffix == p.name {
            continue;
        }
        if loose_skeletons(&suffix).contains(&p.skeleton) {
            let start = labels[from].0;
            let end = labels[n - 1].0 + labels[n - 1].1.len();
            push(
                out,
                Code::HostProtectedLookalike,
                start,
                end,
                format!(
                    "'{}' looks like the protected domain '{}' but is not it",
                    &host[start..end],
                    p.name
                ),
            );
            break;
        }
    }
}
