//! The operations on references: IRI ↔ URI conversion, encoding raw text, resolution and normalization, against the specs' examples, other projects' vectors and properties.

#[path = "../common.rs"]
mod common;

mod convert;
mod encode;
mod file;
mod interop;
mod normalize;
mod resolve;
