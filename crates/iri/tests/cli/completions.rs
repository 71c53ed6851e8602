//! `iri completions`: the scripts offer the names an option takes (the
//! profiles, the severity presets, the normalization levels, the check
//! codes) instead of file names.

use crate::common;

use iribis::Profile;
use iribis::check::Code;

/// The bash script's candidates after each occurrence of `option`: the
/// words of its `compgen -W "..."`, or `None` where it offers files.
fn bash_candidates(script: &str, option: &str) -> Vec<Option<Vec<String>>> {
    let case = format!("{option})");
    let mut found = Vec::new();
    let mut lines = script.lines();
    while let Some(line) = lines.next() {
        if line.trim() != case {
            continue;
        }
        let reply = lines.next().unwrap_or_default();
        found.push(
            reply
                .split_once("compgen -W \"")
                .and_then(|(_, words)| words.split_once('"'))
                .map(|(words, _)| words.split(' ').map(str::to_owned).collect()),
        );
    }
    found
}

fn bash() -> String {
    let o = common::run_iri(&["completions", "bash"], b"");
    assert_eq!(o.status.code(), Some(0));
    String::from_utf8(o.stdout).unwrap()
}

/// Every `--profile` of every command offers the profile names; `--allow`,
/// `--warn` and `--deny` the catalogue's codes; `--explain` those and
/// DOCUMENT_SYNTAX_ERROR; `--severities` and `--level` their names.
#[test]
fn completion_offers_profiles_and_codes() {
    let script = bash();
    let profiles: Vec<String> = Profile::ALL.iter().map(|p| p.name().to_owned()).collect();
    let codes: Vec<String> = Code::ALL.iter().map(|c| c.name().to_owned()).collect();
    let all = bash_candidates(&script, "--profile");
    // parse, tree, check, to-uri, grammar show/check/watch/diff, suite.
    assert!(all.len() >= 9, "{all:?}");
    for candidates in all {
        assert_eq!(candidates.as_ref(), Some(&profiles));
    }
    for option in ["--allow", "--warn", "--deny"] {
        let all = bash_candidates(&script, option);
        assert_eq!(all, [Some(codes.clone())], "{option}");
    }
    let mut explained = codes.clone();
    explained.push("DOCUMENT_SYNTAX_ERROR".to_owned());
    assert!(bash_candidates(&script, "--explain").contains(&Some(explained)));
    assert_eq!(
        bash_candidates(&script, "--severities"),
        [Some(vec![
            "default".into(),
            "strict".into(),
            "leiri".into()
        ])]
    );
    for candidates in bash_candidates(&script, "--level") {
        assert_eq!(
            candidates,
            Some(vec!["simple".into(), "syntax".into(), "scheme".into()])
        );
    }
    // A file is still a file.
    assert_eq!(bash_candidates(&script, "--file")[0], None);
    // Other shells get the names too.
    let o = common::run_iri(&["completions", "zsh"], b"");
    let zsh = String::from_utf8(o.stdout).unwrap();
    assert!(zsh.contains(":PROFILE:(rfc3987bis rfc3987 rfc3986 leiri)"));
    assert!(zsh.contains("DOT_SEGMENT"));
    let o = common::run_iri(&["completions", "fish"], b"");
    let fish = String::from_utf8(o.stdout).unwrap();
    let profile_lines: Vec<&str> = fish
        .lines()
        .filter(|l| l.contains(" -l profile "))
        .collect();
    assert!(profile_lines.len() >= 9, "{fish}");
    // No files (`-f`), the names (`-a`), one per line of the string.
    for line in profile_lines {
        assert!(line.contains(" -f -a \"rfc3987bis\\t"), "{line}");
    }
    assert!(fish.contains("DOT_SEGMENT"));
}

/// The parsers are the options' own: a code in any case, a mistyped one
/// with suggestions (the completion's names are no restriction).
#[test]
fn completion_names_leave_parsing_as_it_was() {
    let o = common::run_iri(&["check", "--deny", "dot_segment", "http://a/./b"], b"");
    assert_eq!(o.status.code(), Some(1));
    let o = common::run_iri(&["check", "--deny", "DOT_SEGMENTS", "http://a/"], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("did you mean DOT_SEGMENT?"));
    let o = common::run_iri(&["parse", "--profile", "rfc9999", "http://a/"], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown profile \"rfc9999\""));
}

/// A script written into a pipe that closes early is no error.
#[test]
fn completions_into_a_closed_pipe() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_iri"))
        .args(["completions", "bash"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the reading end at once.
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
