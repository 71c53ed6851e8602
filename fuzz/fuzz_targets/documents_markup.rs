//! The HTML, XML and RDF/XML readers (`iribis_documents`) on any bytes,
//! in any encoding their rules find, read whole and cut into pieces where
//! the fuzzer says: they never panic, their items are in order, and (but
//! for oxrdfxml's error places) they do not depend on where the reads were
//! cut.
#![no_main]

use iribis_documents::Format;
use iribis_testkit::documents;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let format = [Format::Html, Format::Xml, Format::RdfXml][usize::from(selector % 3)];
    documents::same_whatever_the_cuts(format, rest, usize::from(selector / 3));
});
