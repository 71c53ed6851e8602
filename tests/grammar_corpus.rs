//! Keeps `grammar/corpus/` (the default inputs of `iri grammar diff`) in
//! step with the test data it is made of: every spec example
//! (`tests/data/spec-examples/`) and every table-test input
//! (`tests/data/rules/`), one input per line, each once, in file order.
//! When a corpus file differs, the test rewrites it and fails, so a stale
//! corpus never passes unnoticed (run `cargo test` again to see it pass).

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The files of a folder with the extension, sorted by name.
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    v.sort();
    v
}

/// `\u{XXXX}` escapes of the table tests, decoded.
fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("\\u{") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 3..];
        match after.find('}').and_then(|j| {
            let c = u32::from_str_radix(&after[..j], 16)
                .ok()
                .and_then(char::from_u32)?;
            Some((c, j))
        }) {
            Some((c, j)) => {
                out.push(c);
                rest = &after[j + 1..];
            }
            None => {
                out.push_str("\\u{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn push(out: &mut Vec<String>, input: String) {
    // A line can hold any input but one with a line break.
    if !input.contains(['\n', '\r']) && !out.contains(&input) {
        out.push(input);
    }
}

fn spec_examples() -> Vec<String> {
    let mut out = Vec::new();
    for f in files(&root().join("tests/data/spec-examples"), "txt") {
        for line in std::fs::read_to_string(&f).unwrap().lines() {
            if line.starts_with("# ") || line == "#" {
                continue;
            }
            push(
                &mut out,
                if line == "\"\"" {
                    String::new()
                } else {
                    line.to_string()
                },
            );
        }
    }
    out
}

/// The table-test inputs that are not spec examples.
fn rule_inputs(examples: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let dir = root().join("tests/data/rules");
    if !dir.is_dir() {
        return out;
    }
    for f in files(&dir, "txt") {
        for line in std::fs::read_to_string(&f).unwrap().lines() {
            // `+ INPUT`, `- INPUT`, `+PROFILE INPUT`, `-PROFILE INPUT`.
            if !(line.starts_with('+') || line.starts_with('-')) {
                continue;
            }
            let Some((_, input)) = line.split_once(' ') else {
                continue;
            };
            let input = if input == "\"\"" {
                String::new()
            } else {
                unescape(input)
            };
            if !examples.contains(&input) {
                push(&mut out, input);
            }
        }
    }
    out
}

#[test]
fn corpus_is_fresh() {
    let dir = root().join("grammar/corpus");
    let mut stale = Vec::new();
    let examples = spec_examples();
    let rules = rule_inputs(&examples);
    for (name, inputs) in [("spec-examples.txt", examples), ("rules.txt", rules)] {
        let mut text = inputs.join("\n");
        text.push('\n');
        let path = dir.join(name);
        if std::fs::read_to_string(&path).unwrap_or_default() != text {
            std::fs::write(&path, &text).unwrap();
            stale.push(name);
        }
    }
    assert!(
        stale.is_empty(),
        "grammar/corpus/{stale:?} were stale and have been rewritten; run the tests again"
    );
}

#[test]
fn unescape_decodes_table_test_escapes() {
    assert_eq!(unescape("a\\u{E000}b\\u{zz}"), "a\u{E000}b\\u{zz}");
}
