//! The checked-in generated files are the generator's output: the DFA
//! tables (`src/fast/tables/`) and the look-alike table
//! (`src/spoof/lookalikes.rs`). A stale file fails here; `cargo run -p
//! iribis-gen` writes them.

use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn stale(files: &[(String, Vec<u8>)]) -> Vec<String> {
    files
        .iter()
        .filter(|(path, bytes)| std::fs::read(root().join(path)).ok().as_deref() != Some(bytes))
        .map(|(path, _)| path.clone())
        .collect()
}

#[test]
fn dfa_tables_match_the_abnf() {
    let files = iribis_gen::files().unwrap_or_else(|e| panic!("the generator fails: {e}"));
    assert!(
        files.len() > 16,
        "the generator wrote only {} files",
        files.len()
    );
    for (path, bytes) in &files {
        assert!(
            bytes.starts_with(iribis_gen::HEADER.as_bytes()),
            "{path}: no header"
        );
    }
    let stale = stale(&files);
    assert!(
        stale.is_empty(),
        "stale tables {stale:?}: run `cargo run -p iribis-gen`"
    );
    let mut extra = Vec::new();
    for entry in std::fs::read_dir(root().join(iribis_gen::FOLDER)).expect("the tables' folder") {
        let name = entry.expect("a folder entry").file_name();
        let path = format!("{}/{}", iribis_gen::FOLDER, name.to_string_lossy());
        if !files.iter().any(|(p, _)| *p == path) {
            extra.push(path);
        }
    }
    assert!(
        extra.is_empty(),
        "files the generator does not write: {extra:?}"
    );
}

#[test]
fn lookalike_table_matches_its_data() {
    let data = std::fs::read_to_string(root().join(iribis_gen::lookalikes::DATA)).unwrap();
    let table =
        iribis_gen::lookalikes::table(&data).unwrap_or_else(|e| panic!("the generator fails: {e}"));
    let stale = stale(&[(iribis_gen::lookalikes::PATH.to_owned(), table.into_bytes())]);
    assert!(
        stale.is_empty(),
        "stale {stale:?}: run `cargo run -p iribis-gen`"
    );
}
