//! `cargo run -p iribis-gen-syntax`: writes `grammar/whole-*.pest`,
//! `src/rule/sym.rs` and `src/syntax/generated.rs` from the rule names of
//! `grammar/*.pest`, into the repository this crate sits in.

use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let files = iribis_gen_syntax::files(&root).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(1);
    });
    for (path, contents) in files {
        let full = root.join(&path);
        if std::fs::read_to_string(&full).ok().as_deref() != Some(contents.as_str()) {
            if let Err(e) = std::fs::write(&full, &contents) {
                eprintln!("error: {path}: {e}");
                std::process::exit(1);
            }
            println!("wrote {path} ({} bytes)", contents.len());
        }
    }
}
