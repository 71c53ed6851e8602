//! html5lib-tests' encoding suite (tests/data/html5lib-encoding/, see its
//! README): every case read by `html_encoding`, which must give the
//! encoding the case expects.

use std::path::PathBuf;

use iribis_documents::{Format, Options, html_encoding};

/// The cases of one `.dat` file: the `#data` bytes and the `#encoding`
/// label. A section runs to the next line that starts with `#`; the line
/// break before it is not part of the data.
fn cases(file: &str) -> Vec<(Vec<u8>, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/html5lib-encoding");
    let bytes = std::fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut out = Vec::new();
    let mut section: Option<&[u8]> = None;
    let mut data: Vec<u8> = Vec::new();
    let mut encoding: Vec<u8> = Vec::new();
    for line in bytes.split_inclusive(|b| *b == b'\n') {
        let bare = line.strip_suffix(b"\n").unwrap_or(line);
        match bare {
            b"#data" => {
                if !data.is_empty() || !encoding.is_empty() {
                    out.push(finish(&mut data, &mut encoding));
                }
                section = Some(b"data");
            }
            b"#encoding" => section = Some(b"encoding"),
            _ => match section {
                Some(b"data") => data.extend_from_slice(line),
                Some(_) => encoding.extend_from_slice(line),
                None => {}
            },
        }
    }
    if !data.is_empty() || !encoding.is_empty() {
        out.push(finish(&mut data, &mut encoding));
    }
    out
}

fn finish(data: &mut Vec<u8>, encoding: &mut Vec<u8>) -> (Vec<u8>, String) {
    let mut d = std::mem::take(data);
    if d.ends_with(b"\n") {
        d.pop();
    }
    let e = String::from_utf8_lossy(&std::mem::take(encoding))
        .trim()
        .to_owned();
    (d, e)
}

/// The WHATWG name of an expected label.
fn name_of(label: &str) -> &'static str {
    encoding_rs::Encoding::for_label(label.as_bytes())
        .unwrap_or_else(|| panic!("{label:?} is not a WHATWG label"))
        .name()
}

/// A document of ASCII only reads the same in windows-1252 (html5lib's
/// default) and in UTF-8 (the guess the reader makes of such a document,
/// chardetng allowing UTF-8 as it does for local files): every byte is the
/// same character in both.
fn same_text(data: &[u8], expected: &str, got: &str) -> bool {
    data.is_ascii() && name_of(expected) == "windows-1252" && got == "UTF-8"
}

#[test]
fn html5lib_encoding_suite() {
    let options = Options::new(Format::Html);
    let mut passed = 0;
    let mut failed = Vec::new();
    let mut total = 0;
    for file in ["tests1.dat", "tests2.dat", "test-yahoo-jp.dat"] {
        let cases = cases(file);
        assert!(!cases.is_empty(), "{file} has no cases");
        for (k, (data, expected)) in cases.into_iter().enumerate() {
            total += 1;
            let got = html_encoding(&data[..], &options).unwrap();
            if got == name_of(&expected) || same_text(&data, &expected, got) {
                passed += 1;
            } else {
                failed.push(format!(
                    "{file} #{}: expected {expected}, got {got}: {:?}",
                    k + 1,
                    String::from_utf8_lossy(&data[..data.len().min(120)])
                ));
            }
        }
    }
    assert_eq!(total, 82, "the suite's cases without scripts");
    assert!(
        failed.is_empty(),
        "{passed} of {total}:\n{}",
        failed.join("\n")
    );
}

#[test]
fn html5lib_scripted_case_needs_a_script() {
    // The one scripted case writes its <meta> with document.write: without
    // scripts, the parser sees none, and the prescan finds none either: it
    // is read as a document without a declaration.
    let cases = cases("scripted/tests1.dat");
    assert_eq!(cases.len(), 1);
    let (data, expected) = &cases[0];
    assert_eq!(name_of(expected), "ISO-8859-2");
    let got = html_encoding(&data[..], &Options::new(Format::Html)).unwrap();
    assert!(same_text(data, "windows-1252", got), "{got}");
}
