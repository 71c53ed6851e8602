//! What the test binaries of the workspace share: the insta settings that
//! put every snapshot in the repository's top-level `snapshots/`, the
//! conventions of the test data files, the JSON Lines of a run, and (the
//! feature `documents`) the document readers' pieces.

use std::path::{Path, PathBuf};

#[cfg(feature = "documents")]
pub mod documents;

/// The repository's root folder.
///
/// ```
/// assert!(iribis_testkit::root().join("grammar").is_dir());
/// ```
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// insta settings: snapshots live in the top-level `snapshots/` folder,
/// named after the test binary and module that assert them.
pub fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path(root().join("snapshots"));
    s.set_prepend_module_to_snapshot(true);
    s
}

/// The examples of a data file: every line but `# ` comments; `""` stands
/// for the empty string.
///
/// ```
/// let text = "# a comment\nhttp://a/\n\"\"\n";
/// assert_eq!(iribis_testkit::examples(text), ["http://a/", ""]);
/// ```
pub fn examples(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.starts_with("# ") && *l != "#")
        .map(|l| {
            if l == "\"\"" {
                String::new()
            } else {
                l.to_owned()
            }
        })
        .collect()
}

/// `\u{XXXX}` stands for that character; `""` alone for the empty input.
///
/// ```
/// assert_eq!(iribis_testkit::unescape("a\\u{E9}b"), "a\u{E9}b");
/// assert_eq!(iribis_testkit::unescape("\"\""), "");
/// ```
pub fn unescape(s: &str) -> String {
    if s == "\"\"" {
        return String::new();
    }
    let mut out = String::new();
    let mut rest = s;
    while let Some(at) = rest.find("\\u{") {
        out.push_str(&rest[..at]);
        let close = rest[at..].find('}').expect("unclosed \\u{") + at;
        let code = u32::from_str_radix(&rest[at + 3..close], 16).expect("hex in \\u{}");
        out.push(char::from_u32(code).expect("a Unicode scalar value"));
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// One line of `tests/data/check-examples.txt`: an input that triggers a
/// check code (`expect`), or one that must not.
pub struct CheckExample {
    /// The code's name, as the catalogue spells it.
    pub code: String,
    /// Whether the input triggers the code.
    pub expect: bool,
    /// The profile the line names after `@`, if any.
    pub profile: Option<String>,
    /// The input, `\u{XXXX}` escapes decoded.
    pub input: String,
}

/// Every example of `tests/data/check-examples.txt`: `[-]CODE[@PROFILE]`,
/// a tab, the input (`-` marks an input that must not trigger the code).
///
/// ```
/// let examples = iribis_testkit::check_examples();
/// assert!(examples.iter().any(|e| e.code == "DOT_SEGMENT" && e.expect));
/// ```
pub fn check_examples() -> Vec<CheckExample> {
    let path = root().join("tests/data/check-examples.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (head, input) = l.split_once('\t').expect("a tab after the code");
            let (expect, head) = match head.strip_prefix('-') {
                Some(h) => (false, h),
                None => (true, head),
            };
            let (code, profile) = match head.split_once('@') {
                Some((c, p)) => (c, Some(p.to_owned())),
                None => (head, None),
            };
            CheckExample {
                code: code.to_owned(),
                expect,
                profile,
                input: unescape(input),
            }
        })
        .collect()
}

/// The JSON Lines of a run's standard output.
pub fn json_lines(o: &std::process::Output) -> Vec<serde_json::Value> {
    String::from_utf8(o.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}
