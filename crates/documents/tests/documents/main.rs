//! The document readers: every format in every encoding, reads alike in any pieces.

mod documents_reads;
