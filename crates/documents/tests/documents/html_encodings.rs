//! HTML's encoding as browsers read it (HTML §13.2.3): a `<meta>` met by
//! the parser changes a tentative encoding and the document is read again
//! from the start (§13.2.3.4), from a stream within `HTML_REREAD_LIMIT`,
//! from a file whatever its length; a label of the replacement encoding
//! leaves no IRI, and says why.

use std::io::Cursor;

use iribis::check::{CheckOptions, Checker, Code};
use iribis_documents::{
    Format, Found, HTML_REREAD_LIMIT, Options, What, html_encoding, read_seekable,
};

use crate::found_in;

fn from_file(doc: &[u8], options: &Options) -> Vec<Found> {
    let mut out = Vec::new();
    read_seekable(Cursor::new(doc), options, |f| {
        out.push(f);
        Ok(())
    })
    .unwrap();
    out
}

/// The written text, the encoding, and the code of a document finding.
fn summary(found: &[Found]) -> Vec<(String, &'static str, Option<Code>)> {
    found
        .iter()
        .map(|f| {
            let code = match &f.what {
                What::DocumentFinding { code, .. } => Some(*code),
                _ => None,
            };
            (f.written().to_owned(), f.encoding, code)
        })
        .collect()
}

/// `<a href="http://e/\xEF">`, a comment of `filler` bytes, then a
/// `<meta charset=windows-1251>` and `<a href="http://e/\xE6">`: in
/// windows-1251, п and ж.
fn late_meta(filler: usize) -> Vec<u8> {
    let mut doc = b"<a href=\"http://e/\xef\"><!--".to_vec();
    doc.resize(doc.len() + filler, b'x');
    doc.extend_from_slice(b"--><meta charset=windows-1251><a href=\"http://e/\xe6\">");
    doc
}

#[test]
fn a_late_meta_reads_the_document_again() {
    let doc = late_meta(2000);
    let html = Options::new(Format::Html);
    let expected = vec![
        ("http://e/п".to_owned(), "windows-1251", None),
        ("http://e/ж".to_owned(), "windows-1251", None),
    ];
    assert_eq!(summary(&found_in(&doc, &html)), expected);
    assert_eq!(summary(&from_file(&doc, &html)), expected);
    assert_eq!(html_encoding(&doc[..], &html).unwrap(), "windows-1251");
}

#[test]
fn a_late_meta_of_the_same_encoding_changes_nothing() {
    let mut doc = b"<meta charset=windows-1251><a href=\"http://e/\xef\"><!--".to_vec();
    doc.resize(doc.len() + 2000, b'x');
    doc.extend_from_slice(b"--><meta charset=koi8-r><a href=\"http://e/\xe6\">");
    let html = Options::new(Format::Html);
    // The first <meta> made the prescan's encoding certain: the second is
    // too late to change it.
    assert_eq!(
        summary(&found_in(&doc, &html)),
        [
            ("http://e/п".to_owned(), "windows-1251", None),
            ("http://e/ж".to_owned(), "windows-1251", None),
        ]
    );
}

#[test]
fn a_given_encoding_is_certain() {
    let doc = late_meta(2000);
    let given = Options::new(Format::Html).encoding("koi8-r").unwrap();
    let found = summary(&found_in(&doc, &given));
    assert!(
        found.iter().all(|(_, e, c)| *e == "KOI8-R" && c.is_none()),
        "{found:?}"
    );
    assert_eq!(found.len(), 2);
}

#[test]
fn past_the_bound_a_stream_is_not_read_again_and_says_so() {
    let doc = late_meta(HTML_REREAD_LIMIT + 10);
    let html = Options::new(Format::Html);
    let found = found_in(&doc, &html);
    let s = summary(&found);
    assert_eq!(s.len(), 3, "{s:?}");
    assert_ne!(s[0].1, "windows-1251");
    assert_eq!(s[1].2, Some(Code::DocumentEncodingNotReread));
    assert_ne!(s[2].1, "windows-1251");
    // The finding is placed at the <meta>'s charset value, and is a
    // warning.
    assert_eq!(found[1].line, 1);
    let mut checker = Checker::new(CheckOptions::default());
    let report = found[1].check(&mut checker).unwrap().unwrap();
    assert!(report.valid);
    assert_eq!(report.violations[0].code, Code::DocumentEncodingNotReread);
    assert!(
        report.violations[0].message.contains("windows-1251"),
        "{}",
        report.violations[0].message
    );
    // A file is read again whatever its length.
    assert_eq!(
        summary(&from_file(&doc, &html)),
        [
            ("http://e/п".to_owned(), "windows-1251", None),
            ("http://e/ж".to_owned(), "windows-1251", None),
        ]
    );
}

#[test]
fn a_file_past_the_bound_without_a_meta_gives_each_item_once() {
    let mut doc = b"<a href=\"http://e/1\">".to_vec();
    doc.resize(doc.len() + HTML_REREAD_LIMIT + 10, b' ');
    doc.extend_from_slice(b"<a href=\"http://e/2\">");
    let html = Options::new(Format::Html);
    let written = |found: Vec<Found>| -> Vec<String> {
        found.iter().map(|f| f.written().to_owned()).collect()
    };
    assert_eq!(
        written(from_file(&doc, &html)),
        ["http://e/1", "http://e/2"]
    );
    assert_eq!(written(found_in(&doc, &html)), ["http://e/1", "http://e/2"]);
}

#[test]
fn a_replacement_label_leaves_no_iri() {
    let html = Options::new(Format::Html);
    let mut late = b"<!--".to_vec();
    late.resize(1100, b'x');
    late.extend_from_slice(
        b"--><meta http-equiv=content-type content=\"text/html; charset=iso-2022-kr\">",
    );
    late.extend_from_slice(b"<a href=\"http://e/\">");
    for label in [
        "csiso2022kr",
        "hz-gb-2312",
        "iso-2022-cn",
        "iso-2022-cn-ext",
        "iso-2022-kr",
        "replacement",
    ] {
        let doc = format!("<meta charset={label}><a href=\"http://e/\">x</a>");
        for found in [
            found_in(doc.as_bytes(), &html),
            from_file(doc.as_bytes(), &html),
        ] {
            assert_eq!(
                summary(&found),
                [(
                    String::new(),
                    "replacement",
                    Some(Code::DocumentReplacementEncoding)
                )],
                "{label}"
            );
            let mut checker = Checker::new(CheckOptions::default());
            let report = found[0].check(&mut checker).unwrap().unwrap();
            assert!(!report.valid, "{label}");
            assert_eq!(
                report.violations[0].spec,
                Code::DocumentReplacementEncoding.spec()
            );
        }
    }
    assert_eq!(
        summary(&found_in(&late, &html)),
        [(
            String::new(),
            "replacement",
            Some(Code::DocumentReplacementEncoding)
        )]
    );
    // Allowed, the finding is no longer an error.
    let allowed = CheckOptions::new().severities(iribis::check::Severities::default().set(
        Code::DocumentReplacementEncoding,
        iribis::check::Severity::Allow,
    ));
    let found = found_in(b"<meta charset=iso-2022-kr>", &html);
    let report = found[0].check(&mut Checker::new(allowed)).unwrap().unwrap();
    assert!(report.valid && report.violations.is_empty());
}

#[test]
fn a_meta_inside_svg_breaks_out_of_it() {
    // HTML §13.2.6.5: a `meta` start tag in foreign content is read as
    // HTML's.
    let mut doc = b"<!--".to_vec();
    doc.resize(1100, b'x');
    doc.extend_from_slice(b"--><svg><g><meta charset=koi8-r></g></svg><a href=\"http://e/\xe6\">");
    let html = Options::new(Format::Html);
    let found = found_in(&doc, &html);
    assert_eq!(summary(&found), [("http://e/Ф".to_owned(), "KOI8-R", None)]);
}
