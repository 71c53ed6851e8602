//! The document readers: every format in every encoding, reads alike in any pieces;
//! HTML's encodings as browsers read them, html5lib's encoding suite; the W3C RDF cases about IRIs.

mod documents_reads;
mod html5lib_encoding;
mod html_encodings;
mod w3c_rdf;

use iribis_documents::{Found, Options};

/// What `iribis_documents::read` finds in `doc`, read as a stream.
fn found_in(doc: &[u8], options: &Options) -> Vec<Found> {
    let mut out = Vec::new();
    iribis_documents::read(doc, options, |f| {
        out.push(f);
        Ok(())
    })
    .unwrap();
    out
}
