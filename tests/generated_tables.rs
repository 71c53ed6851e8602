//! Keeps the checked-in DFA tables (`src/fast/tables/`) in step with the
//! ABNF they are compiled from, and the look-alike table of the host
//! spoofing checks (`src/spoof/lookalikes.rs`) with its data
//! (`gen/data/lookalikes.tsv`).
//!
//! The tables are written by the generator in `gen/` (`cargo run -p
//! iribis-gen`), never by a dependent's build. This test runs the
//! generator; when a file on disk differs, it writes the new contents and
//! fails, so a stale table never passes unnoticed (run `cargo test` again
//! to see it pass). A file in the folder that the generator does not write
//! fails the test too.

use std::path::PathBuf;

#[test]
fn dfa_tables_are_fresh() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let files = iribis_gen::files().unwrap_or_else(|e| panic!("the generator fails: {e}"));
    assert!(
        files.len() > 16,
        "the generator wrote only {} files",
        files.len()
    );
    let mut stale = Vec::new();
    for (path, bytes) in &files {
        assert!(
            bytes.starts_with(iribis_gen::HEADER.as_bytes()),
            "{path}: no header"
        );
        let on_disk = root.join(path);
        if std::fs::read(&on_disk).ok().as_deref() != Some(bytes.as_slice()) {
            std::fs::write(&on_disk, bytes)
                .unwrap_or_else(|e| panic!("writing {}: {e}", on_disk.display()));
            stale.push(path.clone());
        }
    }
    let folder = root.join(iribis_gen::FOLDER);
    let mut extra = Vec::new();
    for entry in std::fs::read_dir(&folder).expect("the tables' folder exists") {
        let name = entry.expect("a folder entry").file_name();
        let path = format!("{}/{}", iribis_gen::FOLDER, name.to_string_lossy());
        if !files.iter().any(|(p, _)| *p == path) {
            extra.push(path);
        }
    }
    assert!(
        stale.is_empty(),
        "these generated tables were stale and have been rewritten: {stale:?}; run the tests again"
    );
    assert!(
        extra.is_empty(),
        "files the generator does not write: {extra:?}"
    );
}

/// The look-alike table of the host spoofing checks
/// (`src/spoof/lookalikes.rs`) is the generator's from
/// `gen/data/lookalikes.tsv`; when stale it is rewritten and the test fails.
#[test]
fn lookalike_table_is_fresh() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let data = std::fs::read_to_string(root.join(iribis_gen::lookalikes::DATA)).unwrap();
    let table =
        iribis_gen::lookalikes::table(&data).unwrap_or_else(|e| panic!("the generator fails: {e}"));
    let path = root.join(iribis_gen::lookalikes::PATH);
    if std::fs::read_to_string(&path).ok().as_deref() != Some(table.as_str()) {
        std::fs::write(&path, &table).unwrap();
        panic!(
            "{} was stale and has been rewritten; run the tests again",
            iribis_gen::lookalikes::PATH
        );
    }
}
