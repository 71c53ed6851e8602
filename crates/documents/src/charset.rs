//! 3987bis §3.5 in documents: the query of an http or https IRI is mapped
//! to a URI with the document's charset, so in a document that is not in
//! UTF-8 or UTF-16 a query with characters outside ASCII is requested as
//! another URI than the IRI's own mapping gives (`QUERY_DOCUMENT_CHARSET`).

use encoding_rs::{EncoderResult, Encoding};

use iribis::Component;
use iribis::IriRef;
use iribis::check::{Code, Severity};
use iribis::check::{Report, Severities, Violation};
use iribis::convert::ToUriOptions;

/// Adds to `report` the `QUERY_DOCUMENT_CHARSET` findings about `written`
/// (resolved to `target`, the IRI a browser would request) in a document
/// of `encoding`, at the severity `severities` gives the code.
pub(crate) fn add_findings(
    report: &mut Report,
    written: &str,
    target: &str,
    encoding: &'static Encoding,
    severities: &Severities,
) {
    // UTF-16 documents submit and resolve in UTF-8 (the encoding's output
    // encoding, WHATWG Encoding Standard §4.3).
    let charset = encoding.output_encoding();
    if charset == encoding_rs::UTF_8 {
        return;
    }
    let severity = severities.of(Code::QueryDocumentCharset);
    if severity == Severity::Allow {
        return;
    }
    let http = IriRef::parse(target)
        .ok()
        .and_then(|t| t.scheme().map(str::to_ascii_lowercase))
        .is_some_and(|s| s == "http" || s == "https");
    if !http {
        return;
    }
    let Ok(r) = IriRef::parse(written) else {
        return;
    };
    let Some(query) = r.query() else {
        return;
    };
    if query.is_ascii() {
        return;
    }
    // The query's place in `written`: it is a slice of it.
    let q0 = query.as_ptr() as usize - written.as_ptr() as usize;
    let Ok(in_charset) = ToUriOptions::new().query_charset(charset.name()) else {
        return;
    };
    let (Ok(browser), Ok(utf8)) = (
        iribis::to_uri(target, &in_charset),
        iribis::to_uri(target, &ToUriOptions::new()),
    ) else {
        return;
    };
    let char_of = |byte: usize| written[..byte].chars().count();
    let mut found = Vec::new();
    if let Some((i, _)) = query.char_indices().find(|(_, c)| !c.is_ascii()) {
        found.push(Violation::new(
            Code::QueryDocumentCharset,
            severity,
            format!(
                "the query has characters outside ASCII and the document is in {}: a browser requests {browser} (the query encoded in {}, 3987bis §3.5), where the IRI's own mapping to a URI gives {utf8} (UTF-8); a server that expects one gets the other: percent-encode the query as the server expects it, or serve the document in UTF-8",
                charset.name(),
                charset.name()
            ),
            (q0 + i, char_of(q0 + i), 1),
            Component::Query,
        ));
    }
    let mut encoder = charset.new_encoder();
    let mut out = [0u8; 16];
    for (i, c) in query.char_indices().filter(|(_, c)| !c.is_ascii()) {
        let mut buf = [0u8; 4];
        let (result, _, _) =
            encoder.encode_from_utf8_without_replacement(c.encode_utf8(&mut buf), &mut out, false);
        if let EncoderResult::Unmappable(_) = result {
            encoder = charset.new_encoder();
            let n = u32::from(c);
            found.push(Violation::new(
                Code::QueryDocumentCharset,
                severity,
                format!(
                    "U+{n:04X} has no representation in {}: a browser sends it as %26%23{n}%3B, the character reference &#{n}; percent-encoded, which the server reads as the text \"&#{n};\", not as the character (3987bis §3.5)",
                    charset.name()
                ),
                (q0 + i, char_of(q0 + i), 1),
                Component::Query,
            ));
        }
    }
    if found.is_empty() {
        return;
    }
    if severity == Severity::Error {
        report.valid = false;
    }
    report.violations.extend(found);
    report.violations.sort_by_key(|v| v.byte);
}
