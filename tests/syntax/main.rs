//! The grammar and the parser: the public API, every rule's table tests and character ranges, the spec examples, the fast path against pest, error positions and reports, and hostile inputs.

#[path = "../common.rs"]
mod common;

mod api;
mod char_ranges;
mod conformance_syntax;
mod error_positions;
mod errors;
mod fast_path;
mod hostile;
mod literals;
mod properties;
mod rules;
mod serde;
mod spec_examples;
mod storage;
