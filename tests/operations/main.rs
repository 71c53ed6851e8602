//! The operations on references: IRI ↔ URI conversion, resolution and normalization, against the specs' examples, other projects' vectors and properties.

#[path = "../common.rs"]
mod common;

mod convert;
mod file;
mod interop;
mod normalize;
mod resolve;
