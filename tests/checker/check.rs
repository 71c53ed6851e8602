//! The conformance checker: every code of the catalogue triggered (and
//! not triggered) by the inputs of `tests/data/check-examples.txt`, their
//! reports pinned as human and JSON output, the bidi examples of RFC 3987
//! §4.4, the examples of 3987bis §4.3 and §6.3, the `check` codes of the
//! conformance vectors, severities, and the catalogue's documentation.

use crate::common;

use iribis::check::{CheckOptions, Code, Preset, Severities, Severity};

use iribis::{Profile, check};

use serde_json::Value;

struct Example {
    code: Code,
    expect: bool,
    profile: Profile,
    input: String,
}

fn examples() -> Vec<Example> {
    common::check_examples()
        .into_iter()
        .map(|e| Example {
            code: Code::from_name(&e.code).unwrap_or_else(|| panic!("{}", e.code)),
            expect: e.expect,
            profile: e.profile.map_or(Profile::default(), |p| p.parse().unwrap()),
            input: e.input,
        })
        .collect()
}

fn options(profile: Profile) -> CheckOptions {
    CheckOptions::new().profile(profile)
}

/// Whether checking `input` under `profile` and `preset` reports `code`.
fn finds(input: &str, profile: Profile, preset: Preset, code: Code) -> bool {
    let options = CheckOptions::new()
        .profile(profile)
        .severities(Severities::new(preset));
    check(input, &options)
        .violations
        .iter()
        .any(|v| v.code == code)
}

/// Each row: the spec the decision rests on, the input, the code, and
/// whether the default profile and preset report it.
fn assert_table(code: Code, rows: &[(&str, &str, bool)]) {
    for &(spec, input, expected) in rows {
        assert_eq!(
            finds(input, Profile::default(), Preset::Default, code),
            expected,
            "{code} on {input:?} ({spec}): {:#?}",
            check(input, &CheckOptions::default()).violations
        );
    }
}

/// The codes only a document reader reports (a relative IRI in N-Triples,
/// an HTML page's encoding): crates/documents/tests/documents has their
/// examples.
fn is_document_code(code: Code) -> bool {
    matches!(
        code,
        Code::RdfRelativeIri | Code::DocumentReplacementEncoding | Code::DocumentEncodingNotReread
    )
}

#[test]
fn every_code_is_triggered_and_not_triggered() {
    let examples = examples();
    for &code in Code::ALL {
        // The look-alikes of protected domains and the hosts outside the
        // allowed ones need a list: tests/checker/spoof.rs and
        // tests/checker/readings.rs have their examples. A query's document
        // charset needs a document:
        // crates/iri/tests/cli/documents_encodings.rs has its examples.
        assert!(
            examples.iter().any(|e| e.code == code && e.expect)
                || code == Code::HostProtectedLookalike
                || code == Code::HostNotAllowed
                || code == Code::QueryDocumentCharset
                || is_document_code(code),
            "{code} has no example that triggers it"
        );
        assert!(
            examples.iter().any(|e| e.code == code && !e.expect)
                || code == Code::JoinerCharacter
                || code == Code::PrivateUseCharacter
                || code == Code::HostProtectedLookalike
                || code == Code::HostNotAllowed
                || code == Code::QueryDocumentCharset
                || is_document_code(code),
            "{code} has no example that must not trigger it"
        );
    }
    for e in &examples {
        let report = check(&e.input, &options(e.profile));
        let found = report.violations.iter().any(|v| v.code == e.code);
        assert_eq!(
            found, e.expect,
            "{} {:?}: {:#?}",
            e.code, e.input, report.violations
        );
    }
}

/// RFC 3987 §4.4's ten examples (with Hebrew letters), 3987bis §4.3's
/// URIs and §6.3's delimited forms: the codes each triggers.
#[test]
fn spec_examples() {
    let mut out = String::new();
    for file in ["rfc3987-4.4.txt", "3987bis-4.3.txt", "3987bis-6.3.txt"] {
        let path = format!(
            "{}/crates/suite/data/spec-examples/{file}",
            env!("CARGO_MANIFEST_DIR")
        );
        out.push_str(&format!("# {file}\n"));
        for e in common::examples(&std::fs::read_to_string(path).unwrap()) {
            let r = check(&e, &CheckOptions::default());
            let codes: Vec<String> = r
                .violations
                .iter()
                .map(|v| format!("{}@{}+{}", v.code, v.char, v.len))
                .collect();
            out.push_str(&format!(
                "{e}\n  {} {}\n",
                if r.valid { "valid" } else { "invalid" },
                codes.join(" ")
            ));
        }
    }
    common::settings().bind(|| insta::assert_snapshot!(out));
}

/// The conformance vectors that carry `check` codes.
#[test]
fn conformance_vectors() {
    let mut count = 0;
    for line in include_str!("../../crates/suite/data/conformance/vectors.jsonl").lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let Some(codes) = v["check"].as_array() else {
            continue;
        };
        count += 1;
        let input = v["input"].as_str().unwrap();
        let report = check(input, &CheckOptions::default());
        let found: Vec<&str> = report.violations.iter().map(|v| v.code.name()).collect();
        let known = include_str!("../../crates/suite/data/conformance/known-differences.txt")
            .lines()
            .any(|l| l.starts_with(&format!("check\t{input}\t")));
        if known {
            // Listed with its reason; it must still disagree.
            assert!(
                codes.iter().any(|c| !found.contains(&c.as_str().unwrap())),
                "{input:?} now agrees: unlist it"
            );
            continue;
        }
        for c in codes {
            assert!(
                found.contains(&c.as_str().unwrap()),
                "{input:?}: {c} not in {found:?}"
            );
        }
        if codes.is_empty() {
            assert!(
                report
                    .violations
                    .iter()
                    .all(|v| v.severity < Severity::Warning),
                "{input:?}: {found:?}"
            );
        }
    }
    assert_eq!(count, 5);
}

/// RFC 3987 §8 (the overlong forms) against 3987bis §4.2 step 3 and §5.4:
/// only a lead octet with all the continuation octets it announces, encoding
/// a value that fits in fewer octets, is overlong; a lone lead octet, or one
/// followed by an octet that does not continue it, is legacy text.
#[test]
fn overlong_only_when_complete() {
    let overlong = [
        ("RFC 3987 §8", "http://h/%C0%AF..", true),
        ("RFC 3987 §8", "http://h/%c1%bf", true),
        ("RFC 3987 §8", "http://h/%E0%80%AF", true),
        ("RFC 3987 §8", "http://h/%E0%9F%BF", true),
        ("RFC 3987 §8", "http://h/%F0%80%80%AF", true),
        ("RFC 3987 §8, RFC 2279", "http://h/%F8%80%80%80%AF", true),
        ("RFC 3987 §8, RFC 2279", "http://h/%FC%80%80%80%80%AF", true),
        ("3987bis §5.4: Latin-1 'À'", "http://h/%C0", false),
        ("3987bis §5.4: Latin-1 'Á'", "http://h/%C1", false),
        ("3987bis §5.4: 'À' then '/'", "http://h/%C0%2F", false),
        ("3987bis §5.4: 'À' then 'b'", "http://h/%C0b", false),
        ("3987bis §5.4: 'ÀÁ'", "http://h/%C0%C1", false),
        ("3987bis §5.4: truncated", "http://h/%E0%80", false),
        ("3987bis §5.4: truncated", "http://h/%F0%80%80", false),
        (
            "shortest forms",
            "http://h/%C2%80%E0%A0%80%F0%90%80%80",
            false,
        ),
        ("a surrogate is not overlong", "http://h/%ED%A0%80", false),
    ];
    assert_table(Code::PercentEncodingOverlongUtf8, &overlong);
    let not_utf8 = [
        ("3987bis §5.4", "http://h/%C0", true),
        ("3987bis §5.4", "http://h/%C1", true),
        ("3987bis §5.4", "http://h/%C0%2F", true),
        ("3987bis §5.4", "http://h/%E0%80", true),
        ("3987bis §5.4", "http://h/%ED%A0%80", true),
        ("3987bis §5.4", "http://h/%F5%80%80%80", true),
        (
            "RFC 3987 §8: overlong, not legacy",
            "http://h/%C0%AF",
            false,
        ),
        ("3987bis §4.2", "http://h/%C3%A9", false),
    ];
    assert_table(Code::PercentEncodingNotUtf8, &not_utf8);
    // Legacy text is a warning, not a security error.
    assert!(check("http://h/%C0", &CheckOptions::default()).valid);
    assert!(!check("http://h/%C0%AF", &CheckOptions::default()).valid);
}

/// RFC 3986 §3.2.1: "unless the data after the colon is the empty string
/// (indicating no password)".
#[test]
fn empty_password_is_no_password() {
    assert_table(
        Code::PasswordInUserinfo,
        &[
            ("RFC 3986 §3.2.1", "http://u:@a/", false),
            ("RFC 3986 §3.2.1", "http://:@a/", false),
            ("RFC 3986 §3.2.1", "http://u@a/", false),
            ("RFC 3986 §3.2.1", "http://u:p@a/", true),
            ("RFC 3986 §3.2.1", "http://u::@a/", true),
            ("RFC 3986 §3.2.1", "http://:p@a/", true),
        ],
    );
}

/// A userinfo shaped like a host, in any script and with any full stop
/// UTS #46 reads as a dot (U+3002, U+FF0E, U+FF61), as it is in ASCII and
/// in punycode.
#[test]
fn userinfo_shaped_like_an_internationalized_host() {
    assert_table(
        Code::UserinfoLooksLikeHost,
        &[
            ("RFC 3986 §7.6", "http://xn--bcher-kva.de@evil.com/", true),
            ("RFC 3986 §7.6", "http://bücher.de@evil.com/", true),
            ("RFC 3986 §7.6", "http://b%C3%BCcher.de@evil.com/", true),
            ("RFC 3986 §7.6", "http://例え.jp@evil.com/", true),
            ("RFC 3986 §7.6", "http://例え.テスト@evil.com/", true),
            ("RFC 3986 §7.6", "http://पैसा.भारत@evil.com/", true),
            ("UTS #46 §4.1", "http://paypal\u{3002}com@evil.com/", true),
            ("UTS #46 §4.1", "http://paypal\u{FF0E}com@evil.com/", true),
            ("UTS #46 §4.1", "http://paypal\u{FF61}com@evil.com/", true),
            ("UTS #46 §4.1", "http://paypal%E3%80%82com@evil.com/", true),
            (
                "UTS #46 §4.1",
                "http://ｐａｙｐａｌ．ｃｏｍ@evil.com/",
                true,
            ),
            // One label, or a last label that is no top-level domain.
            ("RFC 3986 §7.6", "http://bücher@evil.com/", false),
            ("RFC 3986 §7.6", "http://例え。1@evil.com/", false),
            ("RFC 3986 §7.6", "http://josé@evil.com/", false),
            ("RFC 3986 §7.6", "http://\u{3002}com@evil.com/", false),
        ],
    );
    let report = check(
        "http://paypal\u{3002}com@evil.com/",
        &CheckOptions::default(),
    );
    let v = report
        .violations
        .iter()
        .find(|v| v.code == Code::UserinfoLooksLikeHost)
        .unwrap();
    assert!(v.message.contains("'paypal\u{3002}com'"), "{}", v.message);
}

/// 3987bis §3.4.2 (with RFC 3987 §3.1 and RFC 5891 §4.2.3.1, §5.4): the
/// same decoding and ToASCII as `to-uri --idna`.
#[test]
fn invalid_idn_follows_the_idna_conversion() {
    assert_table(
        Code::InvalidIdn,
        &[
            ("a trailing root label", "http://résumé.org./", false),
            (
                "a trailing root label",
                "http://r%C3%A9sum%C3%A9.org./",
                false,
            ),
            ("decoded, then valid", "http://%C3%A9%41.org/", false),
            ("decoded, then valid", "http://é%41.org/", false),
            ("decoded '/': UseSTD3ASCIIRules", "http://é%2F.org/", true),
            ("decoded ' ': UseSTD3ASCIIRules", "http://é%20.org/", true),
            ("'!': UseSTD3ASCIIRules", "http://é!.org/", true),
            ("an ASCII label of an IDN", "http://é.a_b.org/", true),
            ("not an IDN: no conversion", "http://a_b.org/", false),
            ("not an IDN: no conversion", "http://a%2Fb.org/", false),
            ("CheckHyphens", "http://-é.org/", true),
            ("CheckHyphens", "http://é-.org/", true),
            ("CheckHyphens", "http://ab--é.org/", true),
            ("an empty label", "http://é..org/", true),
            (
                "VerifyDnsLength",
                &format!("http://{}.org/", "é".repeat(60)),
                true,
            ),
            ("an invalid A-label", "http://xn--zz.org/", true),
            ("a valid A-label", "http://xn--rsum-bpad.org/", false),
            (
                "not UTF-8: the field is left as is",
                "http://é%E9.org/",
                false,
            ),
            (
                "RFC 5893: an RTL label may end with a digit",
                "http://עברית-123.il/",
                false,
            ),
            ("not a DNS scheme", "foo://é!.org/", false),
        ],
    );
    // The message names the label and the rule.
    let r = check("http://é%2F.org/", &CheckOptions::default());
    let v = r
        .violations
        .iter()
        .find(|v| v.code == Code::InvalidIdn)
        .unwrap();
    assert!(v.message.contains("\"é/\""), "{}", v.message);
    assert!(v.message.contains("UseSTD3ASCIIRules"), "{}", v.message);
}

/// 3987bis §6.1: "The restriction on bidirectional formatting characters
/// ... is lifted" for LEIRIs; §6.3 lists them among the characters a LEIRI
/// allows and an IRI does not.
#[test]
fn bidi_formatting_is_leiri_only_under_leiris() {
    for c in [
        '\u{200E}', '\u{200F}', '\u{202A}', '\u{202E}', '\u{2066}', '\u{061C}',
    ] {
        let input = format!("http://h/a{c}b");
        let cases = [
            (Profile::Leiri, Preset::Leiri),
            (Profile::Leiri, Preset::Default),
            (Profile::Rfc3987bis, Preset::Leiri),
        ];
        for (profile, preset) in cases {
            assert!(
                finds(&input, profile, preset, Code::LeiriOnlyCharacter),
                "{input:?} {profile} {preset:?}"
            );
            assert!(
                !finds(&input, profile, preset, Code::BidiFormattingCharacter),
                "{input:?} {profile} {preset:?}"
            );
        }
        let options = CheckOptions::new()
            .profile(Profile::Leiri)
            .severities(Severities::new(Preset::Leiri));
        assert!(check(&input, &options).valid, "{input:?}");
        // An IRI must not contain them (RFC 3987 §4.1).
        assert!(finds(
            &input,
            Profile::Rfc3987bis,
            Preset::Default,
            Code::BidiFormattingCharacter
        ));
        assert!(!finds(
            &input,
            Profile::Rfc3987bis,
            Preset::Default,
            Code::LeiriOnlyCharacter
        ));
    }
}

/// RFC 5893 §2 for host labels (RFC 3987 §4.2 cites the IDNA bidi rule for
/// host names); RFC 3987 §4.2 for other components, trailing non-spacing
/// marks allowed.
#[test]
fn bidi_rules_by_component() {
    let boundary = [
        (
            "RFC 5893 rule 3: EN at the end",
            "http://עברית-123.il/",
            false,
        ),
        ("RFC 5893 rule 3: EN at the end", "http://جار2.eg/", false),
        (
            "RFC 5893 rule 3: AN at the end",
            "http://جار\u{0662}.eg/",
            false,
        ),
        (
            "RFC 5893 rule 3: NSM at the end",
            "http://\u{05E9}\u{05C1}.il/",
            false,
        ),
        (
            "RFC 5893 rule 3: NSM at the end",
            "http://كتب\u{064E}.eg/",
            false,
        ),
        ("RFC 5893 rule 1", "http://123עברית.il/", true),
        (
            "RFC 5893 rule 1: a numeric label",
            "http://ab.עברית.123/",
            true,
        ),
        ("RFC 5893 rule 3", "http://עברית-.il/", true),
        ("RFC 5893 rule 6: LTR label", "http://a-.עברית/", true),
        ("RFC 5893: LTR labels fine", "http://www.עברית.il/", false),
        ("no RTL label: no rule", "http://-a.b/", false),
        ("RFC 3987 §4.2 rule 2", "http://h/עברית-123", true),
        ("RFC 3987 §4.2 rule 2", "http://h/123עברית", true),
        ("RFC 3987 §4.2 rule 2, NSM", "http://h/كتب\u{064E}", false),
        (
            "RFC 3987 §4.2 rule 2, NSM",
            "http://h/?q=\u{05E9}\u{05C1}",
            false,
        ),
        ("RFC 3987 §4.2 rule 2", "http://h/#עברית", false),
    ];
    assert_table(Code::BidiRtlComponentBoundary, &boundary);
    let mixed = [
        ("RFC 5893 rule 2", "http://עבריתabc.il/", true),
        ("RFC 5893 rule 4", "http://جار2\u{0662}.eg/", true),
        ("RFC 5893 rule 5", "http://abc\u{0662}.eg/", true),
        ("RFC 5893", "http://עברית-123.il/", false),
        ("RFC 3987 §4.2 rule 1", "http://h/a?x=שלוםworld", true),
        ("RFC 3987 §4.2 rule 1", "http://h/שלום/world", false),
    ];
    assert_table(Code::BidiMixedDirection, &mixed);
}

/// A `Checker` reports what `check` reports: on every example, on the
/// spoofing corpus's hosts (checked cold, then again from memory, under
/// another path, scheme and protected domains), and past its memory's
/// capacity, where it forgets and works the verdicts out again.
#[cfg(feature = "spoof")]
#[test]
fn a_checker_reports_what_check_reports() {
    use iribis::check::Checker;
    use iribis::spoof::ProtectedDomains;

    let hosts: Vec<&str> = include_str!("../../tests/data/idn-spoof-hosts.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .filter_map(|l| l.split('\t').nth(3))
        .collect();
    assert!(hosts.len() > 200);
    let protected = ProtectedDomains::parse("paypal.com\ngoogle.com\n").unwrap();
    for options in [
        CheckOptions::new(),
        CheckOptions::new().profile(Profile::Leiri),
        CheckOptions::new().protected_domains(protected),
    ] {
        let mut checker = Checker::new(options.clone());
        let mut inputs: Vec<String> = examples().into_iter().map(|e| e.input).collect();
        for _ in 0..2 {
            for (i, host) in hosts.iter().enumerate() {
                inputs.push(format!("http://{host}/{i}"));
                inputs.push(format!("urn:x:{i}"));
                inputs.push(format!("foo://{host}"));
            }
        }
        // More distinct hosts outside ASCII than the checker remembers.
        inputs.extend((0..5000).map(|i| format!("http://é{i}.example/")));
        inputs.extend((0..5000).map(|i| format!("http://é{i}.example/")));
        for input in &inputs {
            assert_eq!(checker.check(input), check(input, &options), "{input:?}");
        }
    }
}

/// NOT_NFC and NOT_NFKC are about pieces (RFC 3987 §4.2): a piece is
/// tested alone, so a mark after a delimiter that it would compose with
/// (`=` and U+0338 compose to `≠`) is not a finding, whether or not the
/// whole input is normalized.
#[test]
fn normalization_by_piece() {
    let rows = [
        ("http://a/e\u{301}", Code::NotNfc, true),
        ("http://a/\u{e9}", Code::NotNfc, false),
        ("http://a/?x=\u{338}", Code::NotNfc, false),
        ("http://a/?x=\u{338}&e\u{301}", Code::NotNfc, true),
        ("http://a/?x=\u{338}&\u{fb01}", Code::NotNfkc, true),
        ("http://a/\u{fb01}", Code::NotNfkc, true),
        ("http://a/\u{fb01}", Code::NotNfc, false),
        ("http://\u{e9}.com/\u{212b}", Code::NotNfc, true),
        ("http://\u{e9}.com/x#\u{c5}", Code::NotNfc, false),
    ];
    for (input, code, expected) in rows {
        let found = finds(input, Profile::default(), Preset::Default, code);
        assert_eq!(found, expected, "{code} on {input:?}");
    }
}
