//! A byte order mark split at every offset: the text
//! the fuzzer gives, in every format, behind a UTF-8 mark (and for HTML and
//! XML, in UTF-16LE and UTF-16BE behind theirs), read with one cut at each
//! offset of its first 8 bytes and of the mark: the items never depend on
//! the cut.
#![no_main]

use iribis_documents::Format;
use iribis_testkit::documents;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let format = Format::ALL[usize::from(selector) % Format::ALL.len()];
    let mut docs = vec![[&b"\xEF\xBB\xBF"[..], text.as_bytes()].concat()];
    if matches!(format, Format::Html | Format::Xml | Format::RdfXml) {
        docs.push([0xFF, 0xFE].into_iter().chain(text.encode_utf16().flat_map(u16::to_le_bytes)).collect());
        docs.push([0xFE, 0xFF].into_iter().chain(text.encode_utf16().flat_map(u16::to_be_bytes)).collect());
    }
    for doc in docs {
        let whole = documents::stable(format, documents::items(format, &doc, Vec::new()));
        for cut in 1..doc.len().min(8) {
            let items = documents::items(format, &doc, vec![cut]);
            assert_eq!(whole, documents::stable(format, items), "cut at {cut}");
        }
    }
});
