//! Host spoofing (src/spoof.rs): the browser expectations of
//! `tests/data/idn-spoof-hosts.txt` measured, one table per rule, the
//! property that a host and its A-label form get the same findings, the
//! explanations pinned, and `iri check --protected-domains`.
#![cfg(feature = "spoof")]

use iribis::check::{CheckOptions, Code, Severity};

use iribis::spoof::{ProtectedDomains, check_host, check_label};

use iribis::{Component, check};

/// Whether `iri check` flags the host of `http://HOST/`: a finding of
/// warning or error severity on the host, or a syntax error.
fn flagged(host: &str, options: &CheckOptions) -> Vec<Code> {
    let report = check(&format!("http://{host}/"), options);
    report
        .violations
        .iter()
        .filter(|v| {
            v.code == Code::SyntaxError
                || (v.component == Component::Host && v.severity >= Severity::Warning)
        })
        .map(|v| v.code)
        .collect()
}

struct Row {
    expect: &'static str,
    needs: &'static str,
    firefox: bool,
    host: &'static str,
}

fn rows() -> Vec<Row> {
    include_str!("../../tests/data/idn-spoof-hosts.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let mut f = l.split('\t');
            let (expect, needs) = (f.next().unwrap(), f.next().unwrap());
            let firefox = f.next().unwrap() == "ff-on";
            let host = f.next().unwrap();
            Row {
                expect,
                needs,
                firefox,
                host,
            }
        })
        .collect()
}

/// Flag rates on rows: (unsafe or invalid flagged, of, safe flagged, of),
/// with the rows that disagree.
fn rates(rows: &[&Row], options: &CheckOptions) -> ([usize; 4], Vec<String>) {
    let mut n = [0; 4];
    let mut misses = Vec::new();
    for row in rows {
        let codes = flagged(row.host, options);
        if row.expect == "safe" {
            n[3] += 1;
            if !codes.is_empty() {
                n[2] += 1;
                misses.push(format!("safe but flagged: {} {codes:?}", row.host));
            }
        } else {
            n[1] += 1;
            if codes.is_empty() {
                misses.push(format!("{} but not flagged: {}", row.expect, row.host));
            } else {
                n[0] += 1;
            }
        }
    }
    (n, misses)
}

/// The protected domains, and the look-alikes and controls of the
/// Chromium part and of ours.
#[allow(clippy::type_complexity)]
fn protected_table() -> (ProtectedDomains, [Vec<&'static str>; 2], Vec<&'static str>) {
    let mut protected = ProtectedDomains::new();
    let (mut lookalikes, mut controls) = ([Vec::new(), Vec::new()], Vec::new());
    let mut part = 0;
    for line in include_str!("../../tests/data/idn-spoof-protected.txt").lines() {
        match line.split_once('\t') {
            Some(("protect", d)) => protected.add(d).unwrap(),
            Some(("lookalike", h)) => lookalikes[part].push(h),
            Some(("control", h)) => controls.push(h),
            _ if line == "# ours" => part = 1,
            _ => assert!(line.is_empty() || line.starts_with('#'), "{line}"),
        }
    }
    (protected, lookalikes, controls)
}

/// The codes of a label (Unicode, `xn--`) under a top-level domain.
fn label_codes(label: &str, tld: &str) -> Vec<&'static str> {
    check_label(label, Some(tld))
        .iter()
        .map(|f| f.code.name())
        .collect()
}

/// One table per rule: (label, TLD, whether the rule's code is expected).
fn rule_table(code: Code, table: &[(&str, &str, bool)]) {
    for &(label, tld, expect) in table {
        let codes = label_codes(label, tld);
        assert_eq!(
            codes.contains(&code.name()),
            expect,
            "{code} on {label:?} under {tld:?}: {codes:?}"
        );
    }
}

/// Chromium's expectations, on the hosts whose expectation needs no list of
/// top domains nor a per-TLD table: at least 95% of the unsafe and invalid
/// ones flagged and at most 3% of the safe ones. It holds for the cases
/// both browsers implement (140 of 140) and for all (247 of 250, none of
/// the 95 safe ones), with the look-alike table (gen/data/lookalikes.tsv)
/// for the Han and Bopomofo letters next to Latin (`丁est`, `googleㄧcom`,
/// `d12一`) and the labels of one script whose letters have no Latin
/// skeleton in UTS #39 (`сю`, `ικα`, `חסד`, Thai, Tamil, Gujarati,
/// Malayalam, Ethiopic, Myanmar). The 3 missed are no look-alike
/// questions: 2 Latin letters UTS #39 recommends that Chromium drops with
/// their whole blocks (`ǔ` of Latin Extended-B's Pinyin, `ḷ` of Latin
/// Extended Additional) and a font problem of one platform (`ؠ` renders
/// blank on macOS).
#[test]
fn browser_expectations() {
    let options = CheckOptions::default();
    let rows = rows();
    let none: Vec<&Row> = rows.iter().filter(|r| r.needs == "none").collect();
    let both: Vec<&Row> = none.iter().copied().filter(|r| r.firefox).collect();
    let (all, misses) = rates(&none, &options);
    let (ff, _) = rates(&both, &options);
    eprintln!(
        "all: unsafe or invalid flagged {} of {}, safe flagged {} of {}\n\
         both browsers: unsafe or invalid flagged {} of {}, safe flagged {} of {}\n{}",
        all[0],
        all[1],
        all[2],
        all[3],
        ff[0],
        ff[1],
        ff[2],
        ff[3],
        misses.join("\n")
    );
    assert!(ff[0] * 100 >= ff[1] * 95, "{ff:?}");
    assert!(ff[2] * 100 <= ff[3] * 3, "{ff:?}");
    assert!(all[0] * 100 >= all[1] * 98, "{all:?}");
    assert!(all[2] * 100 <= all[3] * 3, "{all:?}");
}

/// The Goal with `--protected-domains`: at least 90% of the look-alikes of
/// listed domains flagged, no listed domain or near-miss control flagged.
/// Chromium's look-alikes of its test list partly rest on its own
/// additions to the UTS #39 skeletons (Bengali `২` as `2`, Cyrillic `к` and
/// Latin `ĸ` as `k`, `ӏ` as `i`, `ш` `м` `н` `т` `ь` as `wmhtb`), which
/// confusables.txt does not have: the look-alike table has them (39 of 39).
#[test]
fn protected_domains() {
    let (protected, [chromium, ours], controls) = protected_table();
    let options = CheckOptions::new().protected_domains(protected);
    let hit = |h: &str| flagged(h, &options).contains(&Code::HostProtectedLookalike);
    let missed = |l: &[&'static str]| l.iter().copied().filter(|h| !hit(h)).collect::<Vec<_>>();
    let (missed_chromium, missed_ours) = (missed(&chromium), missed(&ours));
    let wrong: Vec<&str> = controls.iter().copied().filter(|h| hit(h)).collect();
    eprintln!(
        "look-alikes flagged: Chromium's {} of {}, ours {} of {}; controls flagged: {} of {}\nmissed: {missed_chromium:?} {missed_ours:?}",
        chromium.len() - missed_chromium.len(),
        chromium.len(),
        ours.len() - missed_ours.len(),
        ours.len(),
        wrong.len(),
        controls.len()
    );
    assert!(missed_ours.len() * 10 <= ours.len(), "{missed_ours:?}");
    assert!(missed_chromium.is_empty(), "{missed_chromium:?}");
    assert_eq!(wrong, Vec::<&str>::new());
}

#[test]
fn restricted_characters() {
    rule_table(
        Code::HostRestrictedCharacter,
        &[
            ("ab\u{2665}", "com", true),         // a symbol
            ("\u{1F355}\u{1F4A9}", "xyz", true), // emoji
            ("\u{262}\u{1D0F}\u{1D0F}\u{262}\u{29F}\u{1D07}", "com", true), // IPA, small capitals
            ("hard\u{1D21}are", "com", true),    // a small capital
            ("\u{13DF}\u{13AA}\u{13A1}\u{13A0}", "com", true), // Cherokee, limited use
            ("\u{A50B}", "com", true),           // Vai, limited use
            ("\u{10300}\u{10301}", "com", true), // Old Italic, historic
            ("\u{3E7}", "com", true),            // Coptic, excluded
            ("o\u{138}", "com", true),           // kra, obsolete
            ("abc\u{2010}def", "com", true),     // HYPHEN
            ("a\u{2019}b", "com", true),         // RIGHT SINGLE QUOTATION MARK
            ("a\u{58A}b", "com", true),          // ARMENIAN HYPHEN
            ("\u{4E00}\u{30A0}\u{4E00}", "com", true), // KATAKANA-HIRAGANA DOUBLE HYPHEN
            ("abc\u{30FB}def", "jp", true),      // U+30FB next to Latin
            ("\u{30FB}abc", "jp", true),
            ("\u{65E5}\u{672C}\u{30FB}\u{91CE}\u{7403}", "jp", false), // U+30FB among Han
            ("l\u{B7}l", "cat", false),                                // the Catalan ela geminada
            ("google\u{B7}com", "com", true),
            ("b\u{FC}cher", "de", false),
            ("\u{10FD}\u{10FF}\u{10EE}", "ge", false), // uncommon Georgian under .ge
            ("\u{10FD}\u{10FF}\u{10EE}", "com", true),
            ("\u{5E9}\u{5D1}\u{5F4}\u{5E6}", "il", false), // GERSHAYIM among Hebrew
        ],
    );
}

/// The deviation characters of UTS #46: valid under nontransitional
/// processing, mapped to other characters by IDNA2003 and transitional
/// processing, so the label names another host there; in both host forms.
#[test]
fn deviation_characters() {
    rule_table(
        Code::HostRestrictedCharacter,
        &[
            ("fu\u{DF}", "de", true),   // LATIN SMALL LETTER SHARP S, even under .de
            ("xn--fu-hia", "de", true), // the same as an A-label
            ("stra\u{DF}e", "com", true),
            ("fuss", "de", false), // what transitional processing makes of it
            ("\u{3B1}\u{3B2}\u{3C2}", "gr", true), // Greek FINAL SIGMA, even under .gr
            ("\u{3B1}\u{3B2}\u{3C3}", "gr", false), // Greek SMALL LETTER SIGMA
            ("\u{924}\u{94D}\u{200C}\u{930}\u{93F}", "in", true), // ZWNJ after a Devanagari virama
            ("\u{915}\u{94D}\u{200D}", "in", true), // ZWJ after a Devanagari virama
            ("xn--11b6iy14e", "in", true),
            ("\u{924}\u{94D}\u{930}\u{93F}", "in", false), // the same Devanagari without the joiner
        ],
    );
    let f = check_label("fu\u{DF}", Some("de"));
    assert_eq!((f[0].start, f[0].end), (2, 4));
    assert!(f[0].message.contains("'ss'"), "{}", f[0].message);
}

#[test]
fn mixed_scripts() {
    rule_table(
        Code::HostMixedScripts,
        &[
            ("payp\u{3B1}l", "com", true),            // Latin + Greek
            ("g\u{43E}\u{43E}gl\u{435}", "ru", true), // Latin + Cyrillic
            ("abc\u{10EB}ef", "test", true),          // Latin + Georgian
            ("b\u{57D}s", "com", true),               // Latin + Armenian
            ("ab\u{939}\u{93F}\u{928}\u{94D}\u{926}\u{940}", "in", true), // Latin + Devanagari
            ("\u{915}\u{995}", "in", true),           // Devanagari + Bengali
            ("\u{D55C}\u{3072}\u{3089}", "kr", true), // Hangul + Hiragana
            ("\u{3105}\u{3106}\u{30AB}\u{30BF}", "tw", true), // Bopomofo + Katakana
            ("foog\u{650}", "com", true),             // an Arabic mark on Latin
            ("caf\u{E9}\u{CE74}\u{D398}", "kr", true), // non-ASCII Latin + Hangul
            ("\u{D55C}\u{AE00}han", "kr", false),     // Hangul + ASCII Latin
            ("\u{6F22}\u{5B57}hanzi", "tw", false),   // Han + Latin
            (
                "\u{632F}\u{308A}\u{4EEE}\u{540D}\u{30AB}\u{30BF}kanji",
                "jp",
                false,
            ), // Japanese + Latin
            ("\u{6CE8}\u{97F3}bopo\u{3105}\u{3106}", "tw", false), // Han + Bopomofo + Latin
            ("\u{30D3}\u{30BF}\u{30DF}\u{30F3}b1", "com", false),
            ("\u{3B5}\u{3BB}\u{3BB}\u{3AC}\u{3B4}\u{3B1}", "gr", false), // one script
        ],
    );
}

#[test]
fn mixed_script_confusables() {
    rule_table(
        Code::HostMixedScriptConfusable,
        &[
            ("g\u{585}ogle", "com", true), // Armenian օ among Latin
            ("\u{585}range", "com", true),
            ("cucko\u{585}", "com", true),
            ("o\u{580}\u{574}\u{578}\u{582}\u{566}\u{568}", "com", true), // Latin o among Armenian
            ("payp\u{3B1}l", "com", true),                                // Greek α
            ("g\u{43E}\u{43E}gl\u{435}", "ru", true),
            ("abc\u{10EB}ef", "test", true), // Georgian ძ looks like 'd' (gen/data/lookalikes.tsv)
            ("\u{6F22}\u{5B57}hanzi", "tw", false),
            // Inside a Japanese label: Hiragana へ between Katakana looks like Katakana ヘ.
            (
                "\u{30E2}\u{30D2}\u{30FC}\u{30C8}\u{3078}\u{30D6}\u{30F3}",
                "com",
                true,
            ),
            ("xn--49jxi3as0d0fpc", "jp", true),
            (
                "\u{30BD}\u{30D5}\u{30C8}\u{30D8}\u{30D6}\u{30F3}",
                "jp",
                false,
            ), // Katakana ヘ
            ("\u{30C6}\u{30B9}\u{5DE5}\u{30B9}", "jp", true), // Han 工 between Katakana looks like エ
            (
                "\u{30ED}\u{30DC}\u{30C3}\u{30C8}\u{5DE5}\u{5B66}",
                "jp",
                false,
            ), // ロボット工学: Han after Katakana
            (
                "\u{30DB}\u{30FC}\u{30E0}\u{30DA}\u{30FC}\u{30B8}\u{3078}\u{3088}\u{3046}\u{3053}\u{305D}",
                "jp",
                false,
            ), // ホームページへようこそ
            ("\u{30CB}\u{30C3}\u{30DD}\u{30F3}\u{3078}", "jp", false), // ニッポンへ: at the end
            ("\u{4F8B}\u{3048}", "jp", false),                // 例え
        ],
    );
    // The span is the character.
    let f = check_label("g\u{585}ogle", Some("com"));
    let c = f
        .iter()
        .find(|f| f.code == Code::HostMixedScriptConfusable)
        .unwrap();
    assert_eq!((c.start, c.end), (1, 3));
}

#[test]
fn whole_script_confusables() {
    rule_table(
        Code::HostWholeScriptConfusable,
        &[
            ("\u{455}\u{441}\u{43E}\u{440}\u{435}", "com", true), // ѕсоре
            ("\u{455}\u{441}\u{43E}\u{440}\u{435}123", "com", true),
            (
                "\u{455}\u{441}\u{43E}\u{440}\u{435}-\u{440}\u{430}\u{443}",
                "com",
                true,
            ),
            ("\u{44B}\u{43E}", "com", true),                // ыо: ƅio
            ("\u{3B9}\u{3B1}", "com", true),                // Greek ια
            ("\u{43A}\u{443}\u{440}\u{441}", "com", false), // курс: к is no k
            ("\u{3B9}\u{3BA}\u{3B1}", "gr", false),         // under its country
            ("\u{3B9}\u{3BA}\u{3B1}", "\u{3B5}\u{3BB}", false), // under its IDN TLD
            ("\u{455}\u{441}\u{43E}\u{440}\u{435}", "ru", false),
            ("\u{455}\u{441}\u{43E}\u{440}\u{435}", "xn--p1ai", false), // .рф
            ("\u{43C}\u{443}\u{437}\u{435}\u{439}", "com", false),      // музей
            ("\u{43F}\u{440}\u{438}\u{43C}\u{435}\u{440}", "com", false), // пример
        ],
    );
}

#[test]
fn digits() {
    rule_table(
        Code::HostDigitLookalike,
        &[
            ("1\u{577}", "com", true),         // 1շ
            ("16\u{10D9}", "com", true),       // 16კ
            ("12345\u{431}7890", "com", true), // б looks like 6
            ("1234567\u{223}90", "com", true), // ȣ looks like 8
            ("\u{4E00}123", "com", false),     // Han among digits
            ("office\u{10D9}65", "com", false),
            ("123", "com", false),
        ],
    );
    rule_table(
        Code::HostMixedNumbers,
        &[
            ("\u{A68}0", "com", true),       // ੨0
            ("\u{9EA}\u{A68}", "com", true), // ৪੨
            ("7\u{9EA}9", "co.in", true),
            ("\u{967}\u{9E7}", "co.in", true),
            ("asc1deva\u{967}", "co.in", true),
            (
                "\u{939}\u{93F}\u{928}\u{94D}\u{926}\u{940}-123",
                "in",
                false,
            ),
            ("\u{967}\u{968}\u{969}", "in", false),
        ],
    );
}

#[test]
fn stacked_marks() {
    rule_table(
        Code::HostStackedMarks,
        &[
            ("pi\u{307}xel", "com", true), // i + U+0307
            ("j\u{307}ack", "com", true),
            ("l\u{307}ace", "com", true),
            ("p\u{131}\u{307}xel", "com", true), // dotless i + mark
            ("p\u{131}\u{300}xel", "com", true),
            ("\u{237}\u{301}ack", "com", true), // dotless j + mark
            ("\u{E23}\u{E35}\u{E48}\u{E48}", "th", true), // a Thai tone mark repeated
            ("\u{E1}\u{301}", "com", true),     // á + another acute
            ("\u{D55C}\u{307}\u{AE00}", "com", true), // a Latin mark on Hangul
            ("\u{928}\u{93E}\u{917}\u{930}\u{940}\u{301}", "com", true),
            ("caf\u{E9}", "fr", false),
            (
                "\u{442}\u{43E}\u{43B}\u{441}\u{442}\u{43E}\u{301}\u{439}",
                "ru",
                false,
            ), // толсто́й
        ],
    );
}

#[test]
fn kana() {
    rule_table(
        Code::HostKanaMisuse,
        &[
            ("\u{30AB}\u{30FC}\u{91CE}\u{7403}", "jp", false), // カー野球
            ("\u{304B}\u{30FC}\u{91CE}\u{7403}", "jp", false),
            ("\u{30FC}\u{52D5}\u{753B}\u{30FC}", "com", true), // U+30FC after nothing, after Han
            ("\u{65E5}\u{672C}\u{30FC}\u{91CE}\u{7403}", "jp", true),
            ("abc\u{30FC}def", "jp", true),
            ("\u{30AB}\u{30FD}", "jp", false), // カヽ
            ("\u{304B}\u{30FD}", "jp", true),  // after Hiragana
            ("\u{4E00}\u{30FE}", "jp", true),  // after Han
            ("a\u{30FE}", "jp", true),
            ("\u{30C8}\u{309A}", "jp", false), // a voiced mark after kana
            ("google\u{3099}", "com", true),
            ("com\u{30CE}evil", "jp", true), // ノ looks like '/'
            ("\u{30CE}", "jp", false),
            ("\u{30CE}\u{30F3}\u{30BD}", "jp", false),
            ("com\u{4E36}test", "com", true), // Han 丶 looks like '\'
            ("\u{4E36}\u{4E40}\u{4E41}\u{4E3F}", "com", false),
            ("ip\u{4E00}address", "com", true), // Han 一 looks like U+30FC
            ("\u{4E00}\u{751F}gamer", "com", false),
        ],
    );
}

proptest::proptest! {
    /// A host and its A-label form get the same findings (codes, in
    /// order): `xn--` labels are decoded first.
    #[test]
    fn a_label_form_same_findings(label in "[a-z0-9аеорсхуѕіоαορνεικօոսհ一日本ノカーヽ丶へヘモト工ßς\u{915}\u{94D}\u{200C}\u{200D}０-９\u{301}\u{307}\u{E48}ıíé١٢৪੨-]{1,8}") {
        let Ok(ascii) = idna::domain_to_ascii(&label) else { return Ok(()) };
        // Only labels that are their own U-label (mapped, NFC).
        if idna::domain_to_unicode(&ascii).0 != label || ascii.contains('.') {
            return Ok(());
        }
        let protected = ProtectedDomains::parse("google.com\nscope.com\n").unwrap();
        let codes = |h: &str| {
            check_host(h, &protected).into_iter().map(|f| f.code).collect::<Vec<_>>()
        };
        for tld in ["com", "ru", "xn--p1ai"] {
            let unicode = format!("{label}.{tld}");
            let a_label = format!("{ascii}.{tld}");
            proptest::prop_assert_eq!(codes(&unicode), codes(&a_label), "{} {}", unicode, a_label);
        }
    }
}

/// Every row of the look-alike data (gen/data/lookalikes.tsv): the script
/// is the character's, and a target it credits to UTS #39 is the
/// character's skeleton there (lowercased).
#[test]
fn lookalike_data_rows() {
    use unicode_script::UnicodeScript;
    let data = include_str!("../../gen/data/lookalikes.tsv");
    let mut rows = 0;
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let c = f[0].chars().next().unwrap();
        assert_eq!(c.script().full_name(), f[3], "{line}");
        if f[5].split("; ").any(|p| p == "uts39") {
            let skeleton: String = unicode_security::skeleton(f[0])
                .collect::<String>()
                .to_lowercase();
            assert_eq!(skeleton, f[2], "{line}");
        }
        assert!(!f[5].is_empty(), "{line}");
        rows += 1;
    }
    assert!(rows > 200, "{rows}");
}
