//! `iri to-uri --idna`: RFC 5891's lookup by default (3987bis §3.4.2), so a
//! label IDNA2008 disallows fails the conversion, naming the label, the code
//! point and the rule; `--idna=uts46` maps and converts as browsers do.

use crate::common::run_iri;

fn to_uri(flag: &str, input: &str) -> (Option<i32>, String, String) {
    let o = run_iri(&["to-uri", flag, input], b"");
    (
        o.status.code(),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

#[test]
fn disallowed_labels_fail_the_conversion() {
    // Vectors of Perl URI's and Python rfc3986's tests, and issue 54's.
    for (input, label, cp) in [
        ("http://☃.com", "☃", "U+2603"),
        ("https://i❤.ws", "i❤", "U+2764"),
        ("http://♥.net", "♥", "U+2665"),
        ("http://➡.ws/", "➡", "U+27A1"),
        ("http://xn--n3h.com/", "xn--n3h", "U+2603"),
        ("http://ｅｖｉｌ.com/", "ｅｖｉｌ", "U+FF45"),
    ] {
        let (code, out, err) = to_uri("--idna", input);
        assert_eq!(code, Some(1), "{input}: {out}");
        assert!(out.trim().is_empty(), "{input}: {out}");
        assert!(
            err.contains(&format!("host label \"{label}\"")),
            "{input}: {err}"
        );
        assert!(
            err.contains(cp) && err.contains("RFC 5892 §2."),
            "{input}: {err}"
        );
        assert!(err.contains("RFC 5891 §5.4"), "{input}: {err}");
    }
}

#[test]
fn idna2008_letters_convert() {
    for (input, want) in [
        ("http://faß.de", "http://xn--fa-hia.de"),
        // Uppercase is lowercased first (RFC 5895 §2 step 1).
        ("http://ÖBB.at", "http://xn--bb-eka.at"),
        (
            "http://résumé.example.org",
            "http://xn--rsum-bpad.example.org",
        ),
        // ZWJ after a virama (RFC 5892 Appendix A.2) stays.
        ("http://क्\u{200D}ष.in/", "http://xn--11b2ezcw70k.in/"),
    ] {
        for flag in ["--idna", "--idna=idna2008"] {
            let (code, out, err) = to_uri(flag, input);
            assert_eq!((code, out.trim()), (Some(0), want), "{input}: {err}");
        }
    }
}

#[test]
fn uts46_is_an_explicit_option() {
    for (input, want) in [
        ("http://☃.com", "http://xn--n3h.com"),
        ("http://ｅｖｉｌ.com/", "http://evil.com/"),
        ("http://faß.de", "http://xn--fa-hia.de"),
    ] {
        let (code, out, err) = to_uri("--idna=uts46", input);
        assert_eq!((code, out.trim()), (Some(0), want), "{input}: {err}");
    }
    // `--idna` takes its mode only with '=': the next word stays an input.
    let o = run_iri(&["to-uri", "--idna", "uts46"], b"");
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "uts46");
}
