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

/// A directory of its own for one test: a suite of `lines` (case lines of
/// the operation `op`), and room for adapter scripts.
fn scratch(name: &str, op: &str, lines: &[&str]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("iribis-suite-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("index.json"),
        format!(r#"{{"seed":0,"files":{{"{op}":{{"file":"{op}.jsonl"}}}}}}"#),
    )
    .unwrap();
    let mut text = lines.join("\n");
    text.push('\n');
    std::fs::write(dir.join(format!("{op}.jsonl")), text).unwrap();
    dir
}

/// The checked-in case lines of `op` with these ids.
fn checked_in(op: &str, ids: &[&str]) -> Vec<String> {
    let path = format!(
        "{}/conformance/{op}.jsonl",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../..")
    );
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<String> = text
        .lines()
        .filter(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            ids.contains(&v["id"].as_str().unwrap())
        })
        .map(str::to_owned)
        .collect();
    assert_eq!(lines.len(), ids.len(), "{ids:?}");
    lines
}

const TWO_NORMALIZATIONS: &[&str] = &[
    r#"{"id":"n1","op":"normalize","profile":"rfc3986","input":"HTTP://a/./b","expect":{"result":"http://a/b"},"source":"s"}"#,
    r#"{"id":"n2","op":"normalize","profile":"rfc3986","input":"http://a/%7e","expect":{"result":"http://a/~"},"source":"s"}"#,
];

#[test]
fn an_answer_line_past_the_bound_fails_its_case_in_bounded_memory() {
    // 200 MB on one line of standard error, then 200 MB on one answer
    // line, for every request; the runner has 64 MiB of address space.
    let dir = scratch("long-lines", "normalize", TWO_NORMALIZATIONS);
    std::fs::write(
        dir.join("long.sh"),
        r#"while IFS= read -r line; do
  id=$(printf '%s\n' "$line" | sed 's/^{"id":"\([^"]*\)".*/\1/')
  head -c 200000000 /dev/zero | tr '\0' x >&2
  printf '{"id":"%s","result":"' "$id"
  head -c 200000000 /dev/zero | tr '\0' a
  printf '"}\n'
done
"#,
    )
    .unwrap();
    let adapter = format!("sh '{}'", dir.join("long.sh").display());
    let suite = dir.to_str().unwrap();
    let o = common::run_iri_within(
        64 * 1024,
        &[
            "suite",
            "run",
            "--adapter",
            &adapter,
            "--suite",
            suite,
            "--timeout",
            "120",
            "--json",
        ],
        b"",
    );
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let r = json(&o);
    assert_eq!(
        (r["total"].as_u64(), r["failed"].as_u64()),
        (Some(2), Some(2))
    );
    for f in r["failures"].as_array().unwrap() {
        assert_eq!(f["got"], Value::Null, "{f}");
        assert!(
            f["why"]
                .as_str()
                .unwrap()
                .contains("the answer line is longer than 1 MiB"),
            "{f}"
        );
    }
    // No restart: the line was skipped to its end, and the next answer
    // read.
    assert_eq!(r["restarts"], 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The processes of process group `pgid` that are still alive (not
/// zombies), from /proc.
fn alive_in_group(pgid: &str) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid pgrp ...: comm may hold anything but the
        // last ')'.
        let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.len() > 2 && fields[2] == pgid && fields[0] != "Z" {
            out.push(stat.trim().to_owned());
        }
    }
    out
}

/// Asserts that none of the process groups listed in `file` has a live
/// process left, ending what is left (the test started it).
fn assert_groups_ended(file: &std::path::Path) {
    let groups = std::fs::read_to_string(file).unwrap();
    let groups: Vec<&str> = groups.split_whitespace().collect();
    assert!(!groups.is_empty(), "the adapter never started");
    let mut left = Vec::new();
    for g in &groups {
        let alive = alive_in_group(g);
        if !alive.is_empty() {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{g}")])
                .status();
            left.extend(alive);
        }
    }
    assert!(left.is_empty(), "left running: {left:#?}");
}

#[test]
#[cfg(target_os = "linux")]
fn an_adapter_is_stopped_with_the_processes_it_started() {
    let dir = scratch("group", "normalize", &TWO_NORMALIZATIONS[..1]);
    let groups = dir.join("groups");
    // Starts a child of its own, writes its process group, and never
    // answers.
    std::fs::write(
        dir.join("hang.sh"),
        format!(
            "sleep 1000 &\ncut -d' ' -f5 /proc/$$/stat >> '{}'\nwhile IFS= read -r l; do :; done\n",
            groups.display()
        ),
    )
    .unwrap();
    let adapter = format!("sh '{}'", dir.join("hang.sh").display());
    let o = common::run_iri(
        &[
            "suite",
            "run",
            "--adapter",
            &adapter,
            "--suite",
            dir.to_str().unwrap(),
            "--timeout",
            "1",
            "--json",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        json(&o)["failures"][0]["why"]
            .as_str()
            .unwrap()
            .contains("no answer within 1 s")
    );
    assert_groups_ended(&groups);
    // The fuzzer: an adapter that answers unsupported, and leaves its child
    // behind when its input ends.
    std::fs::remove_file(&groups).unwrap();
    std::fs::write(
        dir.join("leave.sh"),
        format!(
            "sleep 1000 &\ncut -d' ' -f5 /proc/$$/stat >> '{}'\n{}\n",
            groups.display(),
            always(r#""unsupported":true"#)
        ),
    )
    .unwrap();
    let adapter = format!("sh '{}'", dir.join("leave.sh").display());
    let o = common::run_iri(
        &[
            "suite",
            "fuzz",
            "--adapter",
            &adapter,
            "--seconds",
            "5",
            "--no-baseline",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_groups_ended(&groups);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_timeout_out_of_range_is_a_usage_error() {
    for t in ["1e19", "NaN", "inf", "-1", "0", "86401"] {
        for cmd in ["run", "fuzz"] {
            let flag = format!("--timeout={t}");
            let o = common::run_iri(&["suite", cmd, "--adapter", "cat", &flag], b"");
            assert_eq!(o.status.code(), Some(2), "{cmd} {flag}");
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(
                err.contains("greater than 0 and at most 86400"),
                "{cmd} {flag}: {err}"
            );
        }
    }
}

#[test]
fn an_adapter_that_supports_nothing_is_said_to_compare_nothing() {
    let unsupported = always(r#""unsupported":true"#);
    // The fuzzer found no disagreement because it compared nothing: not a
    // success.
    let o = common::run_iri(
        &[
            "suite",
            "fuzz",
            "--adapter",
            &unsupported,
            "--seconds",
            "30",
            "--no-baseline",
        ],
        b"",
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(
        text.contains("nothing was compared: the adapter answered unsupported to all 2 requests"),
        "{text}"
    );
    assert!(!text.contains("no disagreement found"), "{text}");
    let o = common::run_iri(
        &[
            "suite",
            "fuzz",
            "--adapter",
            &unsupported,
            "--seconds",
            "30",
            "--no-baseline",
            "--json",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    let r = json(&o);
    assert_eq!(
        (r["tried"].as_u64(), r["compared"].as_u64()),
        (Some(2), Some(0))
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("nothing was compared"));
    // The runner counts unsupported cases apart (exit 0), and says that
    // nothing was compared when all are, or when no case was run.
    let dir = scratch("nothing", "normalize", TWO_NORMALIZATIONS);
    let suite = dir.to_str().unwrap();
    let o = common::run_iri(
        &["suite", "run", "--adapter", &unsupported, "--suite", suite],
        b"",
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&o.stdout)
            .contains("nothing was compared: the adapter answered unsupported to all 2 cases")
    );
    let o = common::run_iri(
        &[
            "suite",
            "run",
            "--adapter",
            &unsupported,
            "--suite",
            suite,
            "--op",
            "resolve",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("nothing was compared: no case"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn failures_are_grouped_by_the_rule_at_the_failing_position() {
    // A valid IRI that takes a `ucschar` transition and goes on through an
    // IPvFuture literal with an uppercase "V"; and `//@` followed by a line
    // feed, which nothing can follow.
    let future = "valid/rfc3987/IRI/transition/82";
    let newline = "valid/rfc3987/irelative-ref/near-miss/21";
    let lines = checked_in("valid", &[future, newline]);
    let case: Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(case["exercises"], "ucschar");
    let input = case["input"].as_str().unwrap();
    let v = input.chars().position(|c| c == 'V').unwrap();
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let dir = scratch("groups", "valid", &lines);
    // Rejects the IRI at its "V" and accepts `//@` + LF.
    let adapter = |at: &str| {
        format!(
            r#"while IFS= read -r l; do case "$l" in *'"id":"{future}"'*) printf '%s\n' '{{"id":"{future}","valid":false{at}}}';; *) printf '%s\n' '{{"id":"{newline}","valid":true}}';; esac; done"#
        )
    };
    let run = |adapter: &str| {
        let o = common::run_iri(
            &[
                "suite",
                "run",
                "--adapter",
                adapter,
                "--suite",
                dir.to_str().unwrap(),
                "--json",
            ],
            b"",
        );
        assert_eq!(o.status.code(), Some(1));
        json(&o)
    };
    let r = run(&adapter(&format!(r#","at":{{"char":{v}}}"#)));
    let groups: Vec<&String> = r["by_rule"].as_object().unwrap().keys().collect();
    assert_eq!(groups, ["IPvFuture", "irelative-ref"], "{r}");
    assert_eq!(r["failures"][0]["group"], "IPvFuture");
    assert_eq!(r["failures"][1]["group"], "irelative-ref");
    // Without a position, the rejected IRI is the rule the case names.
    let r = run(&adapter(""));
    let groups: Vec<&String> = r["by_rule"].as_object().unwrap().keys().collect();
    assert_eq!(groups, ["IRI", "irelative-ref"], "{r}");
    std::fs::remove_dir_all(&dir).unwrap();
}
