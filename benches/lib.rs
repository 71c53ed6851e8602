//! The benchmarks of iribis beside its peers: `parse.rs` (parsing the two
//! corpora of `data/`) and `ops.rs` (resolution and normalization), run by
//! `cargo bench -p iribis-benches`. This library is empty: the package
//! exists so that the peers and criterion are its dependencies, not the
//! library's.
