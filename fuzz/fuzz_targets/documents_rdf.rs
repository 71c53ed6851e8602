//! The N-Triples, N-Quads, Turtle and TriG reader (`iribis_documents`) on
//! any bytes, read whole and cut into pieces where the fuzzer says: it
//! never panics, its items are in order, and they do not depend on where
//! the reads were cut (byte order marks and tokens split across reads).
#![no_main]

use iribis_documents::Format;
use iribis_testkit::documents;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let format = [Format::NTriples, Format::NQuads, Format::Turtle, Format::TriG][usize::from(selector % 4)];
    documents::same_whatever_the_cuts(format, rest, usize::from(selector / 4));
});
