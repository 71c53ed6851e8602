//! `iri check` on the catalogue's examples (`tests/data/check-examples.txt`):
//! their reports pinned as human and JSON output, and severities.

use crate::common;
use std::process::Command;

use iribis::check::{CheckOptions, Code, Preset, Severities, Severity};

use iribis::{Profile, check};

use serde_json::Value;

fn options(profile: Profile) -> CheckOptions {
    CheckOptions::new().profile(profile)
}

/// The human and JSON reports of every example input, through the CLI.
#[test]
fn reports() {
    let mut human = String::new();
    let mut json = String::new();
    for e in common::check_examples().iter().filter(|e| e.expect) {
        let profile = e.profile.as_deref().unwrap_or(Profile::default().name());
        let run = |extra: &[&str]| {
            let o = Command::new(env!("CARGO_BIN_EXE_iri"))
                .args(["check", "--profile", profile])
                .args(extra)
                .arg(&e.input)
                .output()
                .unwrap();
            String::from_utf8(o.stdout).unwrap()
        };
        human.push_str(&run(&[]));
        json.push_str(&run(&["--json"]));
    }
    common::settings().bind(|| {
        insta::assert_snapshot!("human", human);
        insta::assert_snapshot!("json", json);
    });
}

#[test]
fn severities() {
    let input = "http://example.org:80/a/./b";
    let codes = |s: Severities| {
        let r = check(
            input,
            &CheckOptions::new()
                .profile(Profile::default())
                .severities(s),
        );
        (
            r.valid,
            r.violations
                .iter()
                .map(|v| (v.code.name(), v.severity.name()))
                .collect::<Vec<_>>(),
        )
    };
    assert_eq!(
        codes(Severities::default()),
        (
            true,
            vec![("DEFAULT_PORT", "info"), ("DOT_SEGMENT", "warning")]
        )
    );
    assert_eq!(
        codes(Severities::new(Preset::Strict)),
        (
            false,
            vec![("DEFAULT_PORT", "warning"), ("DOT_SEGMENT", "error")]
        )
    );
    let custom = Severities::default()
        .set(Code::DefaultPort, Severity::Allow)
        .set(Code::DotSegment, Severity::Error);
    assert_eq!(codes(custom), (false, vec![("DOT_SEGMENT", "error")]));
    let leiri = CheckOptions::new()
        .profile(Profile::Leiri)
        .severities(Severities::new(Preset::Leiri));
    assert!(check("http://h/a b", &leiri).valid);
    assert!(!check("http://h/a b", &options(Profile::Leiri)).valid);
    // The CLI's flags and exit status.
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_iri"))
            .arg("check")
            .args(args)
            .output()
            .unwrap()
            .status
            .code()
    };
    assert_eq!(run(&[input]), Some(0));
    assert_eq!(run(&["--deny", "DOT_SEGMENT", input]), Some(1));
    assert_eq!(
        run(&[
            "--severities",
            "strict",
            "--allow",
            "dot_segment",
            "--warn",
            "DEFAULT_PORT",
            input
        ]),
        Some(0)
    );
    assert_eq!(run(&["--deny", "NO_SUCH_CODE", input]), Some(2));
    assert_eq!(run(&["--explain", "NOT_NFC"]), Some(0));
    // --file: one input per line, input order kept.
    let path = std::env::temp_dir().join(format!("iribis-check-{}.txt", std::process::id()));
    std::fs::write(&path, "http://a/\r\nb c\n").unwrap();
    let o = common::run_iri(&["check", "--json", "--file", path.to_str().unwrap()], b"");
    let lines = common::json_lines(&o);
    assert_eq!(
        (lines[0]["valid"].clone(), lines[1]["input"].clone()),
        (Value::Bool(true), Value::from("b c"))
    );
    assert_eq!(o.status.code(), Some(1));
    std::fs::remove_file(&path).unwrap();
}
