//! Every generated file of the repository is the generators' output: a
//! stale one fails here, and `cargo run -p iribis-gen` writes them all.
//! (The command's tests hold this check because the generator is already
//! one of their dependencies, for the documents in every encoding.)

use std::path::PathBuf;

fn root() -> PathBuf {
    iribis_testkit::root()
}

#[test]
fn every_generated_file_is_fresh() {
    let files =
        iribis_gen::every_file(&root()).unwrap_or_else(|e| panic!("a generator fails: {e}"));
    let stale: Vec<&str> = files
        .iter()
        .filter(|(path, bytes)| std::fs::read(root().join(path)).ok().as_deref() != Some(bytes))
        .map(|(path, _)| path.as_str())
        .collect();
    assert!(
        stale.is_empty(),
        "stale generated files {stale:?}: run `cargo run -p iribis-gen`"
    );
}

#[test]
fn dfa_tables_carry_the_header_and_nothing_else_is_in_their_folder() {
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
fn every_encoding_document_is_generated() {
    let files = iribis_gen::encodings::files();
    let dir = root().join(iribis_gen::encodings::FOLDER);
    let mut extra = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("the documents' folder") {
        let name = entry.expect("a folder entry").file_name();
        let path = format!(
            "{}/{}",
            iribis_gen::encodings::FOLDER,
            name.to_string_lossy()
        );
        if !files.iter().any(|(p, _)| *p == path) {
            extra.push(path);
        }
    }
    assert!(
        extra.is_empty(),
        "documents the generator does not write: {extra:?}"
    );
}
