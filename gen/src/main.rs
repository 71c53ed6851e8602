//! `cargo run -p iribis-gen`: writes the syntax files of
//! `iribis-gen-syntax`, the generated DFA tables of `src/fast/tables/`, and
//! the look-alike table `src/spoof/lookalikes.rs` from
//! `gen/data/lookalikes.tsv`, into the repository this crate sits in.

use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let lookalikes = std::fs::read_to_string(root.join(iribis_gen::lookalikes::DATA))
        .map_err(|e| format!("{}: {e}", iribis_gen::lookalikes::DATA))
        .and_then(|data| iribis_gen::lookalikes::table(&data));
    let syntax = iribis_gen_syntax::files(&root).map(|files| {
        files
            .into_iter()
            .map(|(path, text)| (path, text.into_bytes()))
            .collect::<Vec<_>>()
    });
    let files = match iribis_gen::files().and_then(|mut files| {
        files.extend(syntax?);
        files.push((
            iribis_gen::lookalikes::PATH.to_owned(),
            lookalikes?.into_bytes(),
        ));
        Ok(files)
    }) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    for (path, bytes) in files {
        let path = root.join(path);
        if let Some(dir) = path.parent() {
            if let Err(e) = std::fs::create_dir_all(dir) {
                eprintln!("error: {}: {e}", dir.display());
                std::process::exit(1);
            }
        }
        let old = std::fs::read(&path).unwrap_or_default();
        if old != bytes {
            if let Err(e) = std::fs::write(&path, &bytes) {
                eprintln!("error: {}: {e}", path.display());
                std::process::exit(1);
            }
            println!("wrote {} ({} bytes)", path.display(), bytes.len());
        }
    }
}
