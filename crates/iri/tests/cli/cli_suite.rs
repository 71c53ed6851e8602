//! `iri suite` as other projects use it: an installed `iri` exports the
//! suite without the repository, runs it against an adapter (its own, and
//! adapters that answer wrongly, crash, fall silent or write garbage), and
//! fuzzes an adapter, shrinking what it finds.

use crate::common;
use std::process::{Command, Output};

use serde_json::Value;

fn iri_in(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_iri"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// `iri ARGS`; a `suite run` reads the checked-in copy (which
/// `an_installed_iri_exports_the_checked_in_suite` shows is the built-in
/// suite) instead of generating it again in each test.
fn iri(args: &[&str]) -> Output {
    let dir = format!(
        "{}/conformance",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../..")
    );
    let mut all: Vec<&str> = args.to_vec();
    if args.starts_with(&["suite", "run"]) {
        all.extend(["--suite", dir.as_str()]);
    }
    common::run_iri(&all, b"")
}

fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

/// `iri` itself, for an adapter command.
fn me() -> String {
    format!("'{}'", env!("CARGO_BIN_EXE_iri"))
}

/// A shell adapter that answers every request with `answer` (a JSON
/// fragment after the id).
fn always(answer: &str) -> String {
    format!(r#"sed -u 's/^{{"id":"\([^"]*\)".*/{{"id":"\1",{answer}}}/'"#)
}

#[test]
fn an_installed_iri_exports_the_checked_in_suite() {
    let tmp = std::env::temp_dir().join(format!("iribis-suite-export-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    // Run from a directory that is not the repository.
    let o = iri_in(&tmp, &["suite", "export", "--out", "out"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let repo = format!(
        "{}/conformance",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../..")
    );
    for entry in std::fs::read_dir(tmp.join("out")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let ours = std::fs::read(&path).unwrap();
        let checked_in = std::fs::read(format!("{repo}/{name}")).unwrap();
        assert!(ours == checked_in, "{name} differs from conformance/{name}");
    }
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn iribis_passes_through_its_own_adapter() {
    let adapter = format!("{} suite adapter", me());
    let o = iri(&[
        "suite",
        "run",
        "--adapter",
        &adapter,
        "--op",
        "resolve",
        "--op",
        "to-iri",
        "--positions",
        "--json",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let r = json(&o);
    for key in [
        "implementation",
        "total",
        "passed",
        "failed",
        "unsupported",
        "by_op",
        "by_rule",
        "failures",
    ] {
        assert!(r.get(key).is_some(), "{key} missing");
    }
    assert_eq!(r["failed"], 0);
    assert_eq!(r["total"], r["passed"]);
    assert!(r["by_op"]["resolve"]["total"].as_u64().unwrap() > 1000);
    assert!(r["by_op"].get("valid").is_none());
    // The text report: a table per operation and profile.
    let o = iri(&["suite", "run", "--adapter", &adapter, "--op", "normalize"]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("normalize   rfc3986"), "{text}");
}

#[test]
fn failures_are_grouped_by_rule_with_the_shortest_case() {
    // Everything is valid, says this adapter.
    let o = iri(&[
        "suite",
        "run",
        "--adapter",
        &always(r#""valid":true"#),
        "--op",
        "valid",
        "--profile",
        "rfc3986",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let r = json(&o);
    assert!(r["failed"].as_u64().unwrap() > 1000);
    let h16 = &r["by_rule"]["h16"];
    assert!(h16["failed"].as_u64().unwrap() > 0);
    let example = &h16["example"];
    assert_eq!(example["rule"], "h16");
    assert_eq!(example["got"]["valid"], true);
    // The shortest failing h16 case: one character that is no hex digit
    // (or the empty string).
    assert!(
        example["input"].as_str().unwrap().chars().count() <= 1,
        "{example}"
    );
    let failures = r["failures"].as_array().unwrap();
    assert_eq!(failures.len() as u64, r["failed"].as_u64().unwrap());
    assert!(failures[0].get("why").is_some() && failures[0].get("expect").is_some());
    // --shrink: each group's shortest case shrunk against the adapter, and
    // the rule the minimal input breaks.
    let o = iri(&[
        "suite",
        "run",
        "--adapter",
        &always(r#""valid":true"#),
        "--op",
        "valid",
        "--profile",
        "rfc3986",
        "--json",
        "--shrink",
    ]);
    let r = json(&o);
    let minimal = &r["by_rule"]["IPv6address"]["minimal"];
    assert_eq!(minimal["expect"]["valid"], false, "{minimal}");
    assert!(
        minimal["input"].as_str().unwrap().chars().count() <= 1,
        "{minimal}"
    );
    assert!(minimal["breaks"].is_string());
    // The text report names the groups.
    let o = iri(&[
        "suite",
        "run",
        "--adapter",
        &always(r#""valid":true"#),
        "--op",
        "valid",
        "--profile",
        "rfc3986",
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("failures by rule") && text.contains("  h16 ("),
        "{text}"
    );
}

#[test]
fn unsupported_answers_are_counted_apart() {
    let o = iri(&[
        "suite",
        "run",
        "--adapter",
        &always(r#""unsupported":true"#),
        "--op",
        "normalize",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let r = json(&o);
    assert_eq!(r["unsupported"], r["total"]);
    assert_eq!(r["failed"], 0);
}

#[test]
fn a_crash_a_silence_or_garbage_is_a_failure_not_the_end() {
    // Crashes on the request of `../g`, answers the rest as iribis.
    let crash = format!(
        r#"while IFS= read -r l; do case "$l" in *'"input":"../g"'*) exit 3;; esac; printf '%s\n' "$l" | {} suite adapter; done"#,
        me()
    );
    let o = iri(&[
        "suite",
        "run",
        "--adapter",
        &crash,
        "--op",
        "normalize",
        "--op",
        "resolve",
        "--profile",
        "leiri",
        "--json",
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let r = json(&o);
    let failures = r["failures"].as_array().unwrap();
    assert!(!failures.is_empty());
    assert!(
        failures.iter().all(|f| f["input"] == "../g"),
        "{failures:?}"
    );
    assert!(
        failures[0]["why"].as_str().unwrap().contains("exited"),
        "{}",
        failures[0]["why"]
    );
    assert!(r["restarts"].as_u64().unwrap() >= 1);
    assert_eq!(
        r["passed"].as_u64().unwrap() + r["failed"].as_u64().unwrap(),
        r["total"].as_u64().unwrap()
    );
    // Falls silent on `..`.
    let silent = format!(
        r#"while IFS= read -r l; do case "$l" in *'"input":".."'*) sleep 30;; esac; printf '%s\n' "$l" | {} suite adapter; done"#,
        me()
    );
    let o = iri(&[
        "suite",
        "run",
        "--adapter",
        &silent,
        "--op",
        "resolve",
        "--profile",
        "leiri",
        "--timeout",
        "2",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let r = json(&o);
    let failures = r["failures"].as_array().unwrap();
    assert!(failures.iter().all(|f| f["input"] == ".."), "{failures:?}");
    assert!(
        failures[0]["why"]
            .as_str()
            .unwrap()
            .contains("no answer within 2 s")
    );
    // Garbage.
    let o = iri(&[
        "suite",
        "run",
        "--adapter",
        "sed -u 's/.*/not json/'",
        "--op",
        "normalize",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let r = json(&o);
    assert_eq!(r["failed"], r["total"]);
    assert!(
        r["failures"][0]["why"]
            .as_str()
            .unwrap()
            .starts_with("malformed answer")
    );
    // An adapter that cannot start at all is an error (exit 2), said once.
    let o = iri(&["suite", "run", "--adapter", "exit 7", "--op", "normalize"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("the adapter answers nothing"));
}

#[test]
fn fuzzing_shrinks_and_attributes_what_it_finds() {
    let tmp = std::env::temp_dir().join(format!("iribis-suite-fuzz-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    let o = iri(&[
        "suite",
        "fuzz",
        "--adapter",
        &always(r#""valid":true"#),
        "--op",
        "valid",
        "--seconds",
        "2",
        "--no-baseline",
        "--json",
        "--append",
        tmp.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let r = json(&o);
    assert!(r["disagreements"].as_u64().unwrap() > 0);
    let findings = r["findings"].as_array().unwrap();
    assert!(!findings.is_empty());
    for f in findings {
        // Shrunk: an invalid reference of one or two characters.
        assert_eq!(f["expect"]["valid"], false, "{f}");
        assert!(f["input"].as_str().unwrap().chars().count() <= 3, "{f}");
        assert!(f["original"].as_str().unwrap().len() >= f["input"].as_str().unwrap().len());
    }
    // The findings the suite has no case for are appended, as cases.
    let new = findings.iter().filter(|f| f["new"] == true).count();
    let appended = std::fs::read_to_string(&tmp).unwrap_or_default();
    assert_eq!(appended.lines().count(), new);
    for line in appended.lines() {
        let c = iribis_suite::Case::from_line(line).unwrap();
        assert_eq!(c.generator.as_deref(), Some("fuzz"));
        assert!(c.source.starts_with("fuzzing ("));
    }
    let _ = std::fs::remove_file(&tmp);
    // An adapter that agrees with the spec: nothing found, exit 0.
    let o = iri(&[
        "suite",
        "fuzz",
        "--adapter",
        &format!("{} suite adapter", me()),
        "--seconds",
        "1",
        "--no-baseline",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("no disagreement found"));
}

#[test]
fn usage_errors() {
    assert_eq!(
        iri(&["suite", "run", "--adapter", "x", "--op", "parse"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        iri(&["suite", "run", "--adapter", "x", "--profile", "rfc1738"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        iri(&["suite", "fuzz", "--adapter", "x", "--op", "resolve"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        iri(&["suite", "fuzz", "--adapter", "x", "--seconds", "0"])
            .status
            .code(),
        Some(2)
    );
}
