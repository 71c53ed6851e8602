//! `cargo run -p iribis-gen`: writes every generated file of the repository
//! this crate sits in (`iribis_gen::every_file`): the syntax files, the DFA
//! tables of `src/fast/tables/`, the look-alike table, the grammar lab's
//! corpus, the documents in every encoding and the catalogue table of
//! `docs/check.md`. A file whose contents are already right is left alone.

use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let files = iribis_gen::every_file(&root).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(1);
    });
    for (path, bytes) in files {
        let full = root.join(&path);
        if std::fs::read(&full).ok().as_deref() == Some(bytes.as_slice()) {
            continue;
        }
        let written = full
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&full, &bytes));
        if let Err(e) = written {
            eprintln!("error: {path}: {e}");
            std::process::exit(1);
        }
        println!("wrote {path} ({} bytes)", bytes.len());
    }
}
