//! The repository's signposts: every repository path that the docs, the
//! READMEs, the Rust sources (comments, help texts such as
//! `crates/iri/src/man.rs` and clap's strings), the manifests and the
//! scripts cite exists, so that moving a file cannot leave its citations
//! behind; and the README's count of check codes is the catalogue's.

use std::fs;
use std::path::{Path, PathBuf};

/// The first segments of the paths a citation may start with: the
/// repository's top-level folders.
const TOP: &[&str] = &[
    "src",
    "crates",
    "tests",
    "docs",
    "grammar",
    "gen",
    "fuzz",
    "wasm",
    "python",
    "benches",
    "snapshots",
    "scripts",
    "conformance",
];

/// Segments that stand for any name in a cited pattern
/// (`tests/data/rules/RULE.txt`, `fuzz/corpus/TARGET/`): matched as `*`.
const PLACEHOLDERS: &[&str] = &["FILE", "NAME", "RULE", "TARGET", "CRATE"];

/// Paths cited on purpose that are not the repository's, each with why; one
/// that ends in `/` exempts what is cited under it.
const NOT_PATHS: &[(&str, &str)] = &[
    (
        "fuzz/artifacts/",
        "libFuzzer writes a finding there; it is not checked in (.gitignore)",
    ),
    (
        "fuzz/runs/",
        "fuzz/run-all.sh keeps the inputs a run finds there; not checked in (.gitignore)",
    ),
    (
        "src/test/resources/iribis-conformance-2.0",
        "where a Java project that runs the suite puts its copy (docs/conformance.md)",
    ),
    (
        "docs/idn.md",
        "Chromium's IDN policy, a file of Chromium's repository (docs/check.md)",
    ),
    (
        "tests/resolve.rs",
        "iri-string's and fluent-uri's test files, the sources of crates/suite/data/conformance/",
    ),
    (
        "tests/expected_failures.txt",
        "the url crate's list of WPT failures, copied to tests/data/wpt/",
    ),
    (
        "conformance/scoreboard",
        "cut from the regular expression `^conformance/scoreboard\\.py$` of scripts/suite-tarball",
    ),
    (
        "tests/draft2020-12/optional/format/",
        "a folder of the JSON Schema Test Suite, which the vendored copies cite",
    ),
];

/// The repository's folders that hold no signposts: build output,
/// installed packages, snapshots (the outputs of the code), fuzzing corpora.
fn skipped(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    matches!(
        name,
        ".git" | "target" | "node_modules" | "__pycache__" | ".venv"
    ) || matches!(rel, "snapshots" | "fuzz/corpus" | "fuzz/artifacts")
}

/// Whether a file is one whose text is scanned: Markdown, Rust, manifests,
/// shell scripts and the scripts of `.ci/` and `scripts/`.
fn scanned(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    match name.rsplit_once('.') {
        Some((_, ext)) => matches!(ext, "md" | "rs" | "toml" | "sh"),
        None => rel.starts_with(".ci/") || rel.starts_with("scripts/"),
    }
}

/// Every scanned file under `dir`, as paths relative to the root, but this
/// one (its examples are not citations).
fn files(root: &Path, rel: &str, out: &mut Vec<String>) {
    let dir = root.join(rel);
    let mut entries: Vec<_> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.unwrap())
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().into_string().unwrap();
        let child = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        if e.file_type().unwrap().is_dir() {
            if !skipped(&child) {
                files(root, &child, out);
            }
        } else if scanned(&child) && child != "crates/testkit/tests/signposts.rs" {
            out.push(child);
        }
    }
}

/// A character a cited path is made of.
fn path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '/' | '*')
}

/// The repository paths a line cites: a top-level folder's name and a
/// `/` not inside a longer word or path (so `../src/x`, `$dir/src`, URLs
/// and `crate::src` are not citations), then path characters, without a
/// trailing `.` or `-` (the end of a sentence).
fn citations(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < line.len() {
        let rest = &line[i..];
        let starts = TOP
            .iter()
            .any(|t| rest.starts_with(t) && rest[t.len()..].starts_with('/'));
        let before = line[..i].chars().next_back();
        let free = before
            .is_none_or(|c| !(path_char(c) || matches!(c, '~' | '$' | '@' | '{' | ':' | '\\')));
        if starts && free {
            let len = rest.find(|c: char| !path_char(c)).unwrap_or(rest.len());
            let path = rest[..len].trim_end_matches(['.', '-']);
            out.push(path.to_owned());
            i += len.max(1);
        } else {
            i += 1;
            while i < bytes.len() && !line.is_char_boundary(i) {
                i += 1;
            }
        }
    }
    out
}

/// `*` matches any run of characters in one segment.
fn wildcard(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, tail)) => {
            let Some(rest) = name.strip_prefix(head) else {
                return false;
            };
            (0..=rest.len())
                .filter(|&k| rest.is_char_boundary(k))
                .any(|k| wildcard(tail, &rest[k..]))
        }
    }
}

/// Whether `segments` name something under `dir`: `**` is any number of
/// folders, a segment with `*` is a glob, an empty segment (a trailing
/// `/`) is the folder itself.
fn exists(dir: &Path, segments: &[&str]) -> bool {
    let Some((first, rest)) = segments.split_first() else {
        return dir.exists();
    };
    if first.is_empty() {
        return dir.is_dir() && exists(dir, rest);
    }
    if !first.contains('*') {
        return exists(&dir.join(first), rest);
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return false;
    };
    let names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    if *first == "**" {
        return exists(dir, rest)
            || names
                .iter()
                .any(|n| dir.join(n).is_dir() && exists(&dir.join(n), segments));
    }
    names
        .iter()
        .any(|n| wildcard(first, n) && exists(&dir.join(n), rest))
}

/// Whether `path`, cited by the file `from` (relative to the root), names
/// something: relative to the root or to a folder the citing file is in
/// (a crate's README or sources cite the crate's own `src/` and `tests/`).
fn resolves(root: &Path, from: &str, path: &str) -> bool {
    // A placeholder is a glob: `RULE.txt` is `*.txt`.
    let segments: Vec<String> = path
        .split('/')
        .map(|s| match s.split_once('.') {
            _ if PLACEHOLDERS.contains(&s) => "*".to_owned(),
            Some((stem, ext)) if PLACEHOLDERS.contains(&stem) => format!("*.{ext}"),
            _ => s.to_owned(),
        })
        .collect();
    let segments: Vec<&str> = segments.iter().map(String::as_str).collect();
    let mut dir = PathBuf::from(from);
    while dir.pop() {
        if exists(&root.join(&dir), &segments) {
            return true;
        }
    }
    false
}

#[test]
fn every_cited_path_exists() {
    let root = iribis_testkit::root();
    let mut all = Vec::new();
    files(&root, "", &mut all);
    assert!(all.len() > 100, "only {} files scanned", all.len());
    let mut cited = 0;
    let mut missing = Vec::new();
    for rel in &all {
        let Ok(text) = fs::read_to_string(root.join(rel)) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            for path in citations(line) {
                // Build output (`wasm/target/...`) is made, not kept.
                if path.split('/').any(|s| s == "target") {
                    continue;
                }
                // An exemption ending in '/' is a folder: what is cited
                // under it is exempt too.
                if NOT_PATHS
                    .iter()
                    .any(|(p, _)| *p == path || (p.ends_with('/') && path.starts_with(p)))
                {
                    continue;
                }
                cited += 1;
                if !resolves(&root, rel, &path) {
                    missing.push(format!("{rel}:{}: {path}", n + 1));
                }
            }
        }
    }
    assert!(cited > 500, "only {cited} citations found");
    assert!(
        missing.is_empty(),
        "{} cited paths do not exist:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn every_exemption_is_still_cited() {
    let root = iribis_testkit::root();
    let mut all = Vec::new();
    files(&root, "", &mut all);
    let text: String = all
        .iter()
        .filter_map(|rel| fs::read_to_string(root.join(rel)).ok())
        .collect();
    for (path, reason) in NOT_PATHS {
        assert!(!reason.is_empty());
        assert!(text.contains(path), "{path} is no longer cited: drop it");
    }
}

#[test]
fn citations_are_found_where_they_stand() {
    assert_eq!(
        citations("see src/fast/mod.rs, and `docs/check.md`."),
        ["src/fast/mod.rs", "docs/check.md"]
    );
    assert_eq!(
        citations("[a](crates/lab/README.md) (fuzz/corpus/<target>/)"),
        ["crates/lab/README.md", "fuzz/corpus/"]
    );
    // Not citations: relative, inside a path or a URL, a variable's folder.
    assert!(
        citations("../src/a.rs https://x.org/src/a $dir/tests/b my_src/c crate::src/d").is_empty()
    );
    assert!(wildcard("lab__grammar_lab__*", "lab__grammar_lab__x.snap"));
    assert!(!wildcard("grammar_lab__*", "lab__grammar_lab__x.snap"));
    let root = iribis_testkit::root();
    assert!(resolves(
        &root,
        "docs/a.md",
        "snapshots/lab__grammar_lab__*"
    ));
    assert!(resolves(&root, "README.md", "tests/data/rules/RULE.txt"));
    assert!(!resolves(
        &root,
        "docs/a.md",
        "snapshots/grammar_lab__*.snap"
    ));
    // A crate's own folders, from inside the crate only.
    assert!(resolves(&root, "crates/lab/src/lib.rs", "src/abnf.rs"));
    assert!(!resolves(&root, "src/fast/mod.rs", "src/abnf.rs"));
}

/// The README's count of check codes, "a conformance report with N stable
/// codes", is the number of codes in the catalogue
/// (`iri check --list-codes`).
#[test]
fn readme_counts_the_catalogue() {
    let readme = fs::read_to_string(iribis_testkit::root().join("README.md")).unwrap();
    let marker = " stable codes";
    let at = readme
        .find(marker)
        .expect("the README counts the check codes");
    let count: usize = readme[..at]
        .rsplit(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a number before \"stable codes\"");
    assert_eq!(count, iribis::check::Code::ALL.len());
}
