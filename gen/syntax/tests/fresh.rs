//! The checked-in syntax files are the generator's output: a stale one
//! fails here (run `cargo run -p iribis-gen-syntax` to write them).

use std::path::Path;

#[test]
fn syntax_files_match_the_grammar_rule_names() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let files = iribis_gen_syntax::files(&root).unwrap_or_else(|e| panic!("{e}"));
    let stale: Vec<&str> = files
        .iter()
        .filter(|(path, contents)| {
            std::fs::read_to_string(root.join(path)).ok().as_deref() != Some(contents.as_str())
        })
        .map(|(path, _)| path.as_str())
        .collect();
    assert!(
        stale.is_empty(),
        "stale generated files {stale:?}: run `cargo run -p iribis-gen-syntax`"
    );
}
