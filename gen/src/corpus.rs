//! The default corpus of `iri grammar diff` (`crates/lab/corpus/`), made
//! of the test data: every spec example (`crates/suite/data/spec-examples/`)
//! and every table-test input (`tests/data/rules/`), one input per line,
//! each once, in file order. `crates/lab/corpus/experiments.txt` is
//! written by hand.

use std::path::{Path, PathBuf};

/// The corpus files, as (path relative to the repository root, text),
/// from the test data under `root`.
pub fn files(root: &Path) -> Vec<(String, Vec<u8>)> {
    let examples = spec_examples(root);
    let rules = rule_inputs(root, &examples);
    [("spec-examples.txt", examples), ("rules.txt", rules)]
        .into_iter()
        .map(|(name, inputs)| {
            let mut text = inputs.join("\n");
            text.push('\n');
            (format!("crates/lab/corpus/{name}"), text.into_bytes())
        })
        .collect()
}

/// The files of a folder with the extension, sorted by name.
fn files_in(dir: &Path, ext: &str) -> Vec<PathBuf> {
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

fn spec_examples(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for f in files_in(&root.join("crates/suite/data/spec-examples"), "txt") {
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
fn rule_inputs(root: &Path, examples: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let dir = root.join("tests/data/rules");
    if !dir.is_dir() {
        return out;
    }
    for f in files_in(&dir, "txt") {
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

#[cfg(test)]
mod tests {
    #[test]
    fn unescape_decodes_table_test_escapes() {
        assert_eq!(super::unescape("a\\u{E000}b\\u{zz}"), "a\u{E000}b\\u{zz}");
    }
}
