//! The document readers: every format in every encoding, reads alike in any pieces;
//! HTML's encodings as browsers read them, html5lib's encoding suite; the W3C RDF cases about IRIs.

mod documents_reads;
mod html5lib_encoding;
mod html_encodings;
mod w3c_rdf;
