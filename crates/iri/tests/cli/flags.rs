//! How the command reads its flags and what they do: `normalize`'s NFC
//! after percent-decoding, `--preprocess=MODE`, the last severity flag
//! wins, `check --list-codes`.

use crate::common;
use common::run_iri;

fn stdout(args: &[&str]) -> (String, Option<i32>) {
    let out = run_iri(args, b"");
    (String::from_utf8(out.stdout).unwrap(), out.status.code())
}

/// 3987bis §5.3.2.2 with §5.3.2.3: an encoded combining mark is decoded
/// first, then composed; a second run changes nothing.
#[test]
fn normalize_nfc_composes_after_percent_decoding() {
    let (once, _) = stdout(&["normalize", "--nfc", "http://a/e%CC%81"]);
    assert_eq!(once, "http://a/\u{E9}\n");
    let (twice, _) = stdout(&["normalize", "--nfc", once.trim_end()]);
    assert_eq!(twice, once);
    let (raw, _) = stdout(&["normalize", "--nfc", "http://a/e\u{301}?q=%C3%A9"]);
    assert_eq!(raw, "http://a/\u{E9}?q=\u{E9}\n");
}

/// `--preprocess` takes its mode only after '=': a following argument is
/// an input.
#[test]
fn preprocess_mode_needs_an_equals_sign() {
    let (out, _) = stdout(&["parse", "--json", "--preprocess", " http://a "]);
    assert!(out.contains(r#""input":"http://a""#), "{out}");
    let (out, _) = stdout(&["parse", "--json", "--preprocess=split", " http://a  b "]);
    assert_eq!(out.lines().count(), 2, "{out}");
    let (out, _) = stdout(&["parse", "--json", "--preprocess=keep", " a b "]);
    assert!(out.contains(r#""input":"a b""#), "{out}");
}

/// For one code, the last of --allow, --warn and --deny decides.
#[test]
fn last_severity_flag_wins() {
    let input = "http://h/a/../b";
    let (_, code) = stdout(&[
        "check",
        "--deny",
        "DOT_SEGMENT",
        "--allow",
        "DOT_SEGMENT",
        input,
    ]);
    assert_eq!(code, Some(0));
    let (_, code) = stdout(&[
        "check",
        "--allow",
        "DOT_SEGMENT",
        "--deny",
        "DOT_SEGMENT",
        input,
    ]);
    assert_eq!(code, Some(1));
    let (out, code) = stdout(&[
        "check",
        "--deny",
        "DOT_SEGMENT",
        "--warn",
        "DOT_SEGMENT",
        input,
    ]);
    assert_eq!(code, Some(0));
    assert!(out.contains("warning[DOT_SEGMENT]"), "{out}");
}

/// Every code, its default severity and its spec section, one per line.
#[test]
fn list_codes() {
    let (out, code) = stdout(&["check", "--list-codes"]);
    assert_eq!(code, Some(0));
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), iribis::check::Code::ALL.len());
    for (row, code) in rows.iter().zip(iribis::check::Code::ALL) {
        assert_eq!(row[0], code.name());
        assert_eq!(row[1], code.default_severity().name());
        assert_eq!(row[2], code.spec());
    }
}
