//! The conformance checker: every code of the catalogue triggered (and
//! not triggered) by the inputs of `tests/data/check-examples.txt`, their
//! reports pinned as human and JSON output, the bidi examples of RFC 3987
//! §4.4, the examples of 3987bis §4.3 and §6.3, the `check` codes of the
//! conformance vectors, severities, and the catalogue's documentation.

mod common;

use std::process::Command;

use iribis::{check, CheckOptions, Code, Preset, Profile, Severities, Severity};
use serde_json::Value;

struct Example {
    code: Code,
    expect: bool,
    profile: Profile,
    input: String,
}

fn examples() -> Vec<Example> {
    include_str!("data/check-examples.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (head, input) = l.split_once('\t').unwrap();
            let (expect, head) = match head.strip_prefix('-') {
                Some(h) => (false, h),
                None => (true, head),
            };
            let (name, profile) = match head.split_once('@') {
                Some((n, p)) => (n, p.parse().unwrap()),
                None => (head, Profile::default()),
            };
            Example {
                code: Code::from_name(name).unwrap_or_else(|| panic!("{name}")),
                expect,
                profile,
                input: common::unescape(input),
            }
        })
        .collect()
}

fn options(profile: Profile) -> CheckOptions {
    CheckOptions {
        profile,
        ..CheckOptions::default()
    }
}

#[test]
fn every_code_is_triggered_and_not_triggered() {
    let examples = examples();
    for &code in Code::ALL {
        assert!(
            examples.iter().any(|e| e.code == code && e.expect),
            "{code} has no example that triggers it"
        );
        assert!(
            examples.iter().any(|e| e.code == code && !e.expect)
                || code == Code::JoinerCharacter
                || code == Code::PrivateUseCharacter,
            "{code} has no example that must not trigger it"
        );
    }
    for e in &examples {
        let report = check(&e.input, &options(e.profile));
        let found = report.violations.iter().any(|v| v.code == e.code);
        assert_eq!(
            found, e.expect,
            "{} {:?}: {:#?}",
            e.code, e.input, report.violations
        );
    }
}

/// The human and JSON reports of every example input, through the CLI.
#[test]
fn reports() {
    let mut human = String::new();
    let mut json = String::new();
    for e in examples().iter().filter(|e| e.expect) {
        let profile = e.profile.name();
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

/// RFC 3987 §4.4's ten examples (with Hebrew letters), 3987bis §4.3's
/// URIs and §6.3's delimited forms: the codes each triggers.
#[test]
fn spec_examples() {
    let mut out = String::new();
    for file in ["rfc3987-4.4.txt", "3987bis-4.3.txt", "3987bis-6.3.txt"] {
        let path = format!(
            "{}/tests/data/spec-examples/{file}",
            env!("CARGO_MANIFEST_DIR")
        );
        out.push_str(&format!("# {file}\n"));
        for e in common::examples(&std::fs::read_to_string(path).unwrap()) {
            let r = check(&e, &CheckOptions::default());
            let codes: Vec<String> = r
                .violations
                .iter()
                .map(|v| format!("{}@{}+{}", v.code, v.char, v.len))
                .collect();
            out.push_str(&format!(
                "{e}\n  {} {}\n",
                if r.valid { "valid" } else { "invalid" },
                codes.join(" ")
            ));
        }
    }
    common::settings().bind(|| insta::assert_snapshot!(out));
}

/// The conformance vectors that carry `check` codes.
#[test]
fn conformance_vectors() {
    let mut count = 0;
    for line in include_str!("data/conformance/vectors.jsonl").lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let Some(codes) = v["check"].as_array() else {
            continue;
        };
        count += 1;
        let input = v["input"].as_str().unwrap();
        let report = check(input, &CheckOptions::default());
        let found: Vec<&str> = report.violations.iter().map(|v| v.code.name()).collect();
        let known = include_str!("data/conformance/known-differences.txt")
            .lines()
            .any(|l| l.starts_with(&format!("check\t{input}\t")));
        if known {
            // Listed with its reason; it must still disagree.
            assert!(
                codes.iter().any(|c| !found.contains(&c.as_str().unwrap())),
                "{input:?} now agrees: unlist it"
            );
            continue;
        }
        for c in codes {
            assert!(
                found.contains(&c.as_str().unwrap()),
                "{input:?}: {c} not in {found:?}"
            );
        }
        if codes.is_empty() {
            assert!(
                report
                    .violations
                    .iter()
                    .all(|v| v.severity < Severity::Warning),
                "{input:?}: {found:?}"
            );
        }
    }
    assert_eq!(count, 5);
}

#[test]
fn severities() {
    let input = "http://example.org:80/a/./b";
    let codes = |s: Severities| {
        let r = check(
            input,
            &CheckOptions {
                profile: Profile::default(),
                severities: s,
            },
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
    let leiri = CheckOptions {
        profile: Profile::Leiri,
        severities: Severities::new(Preset::Leiri),
    };
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

/// docs/check.md's catalogue table is generated from the catalogue; this
/// test rewrites it and fails when it was stale.
#[test]
fn catalogue_docs_are_fresh() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/check.md");
    let doc = std::fs::read_to_string(path).unwrap_or_default();
    let begin = "<!-- catalogue: generated by tests/check.rs, do not edit -->\n";
    let end = "<!-- end of catalogue -->\n";
    let mut table = String::from(
        "| code | default | strict | leiri | spec | what it means |\n|---|---|---|---|---|---|\n",
    );
    for &c in Code::ALL {
        let of = |p| Severities::new(p).of(c).name();
        table.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} |\n",
            c.name(),
            of(Preset::Default),
            of(Preset::Strict),
            of(Preset::Leiri),
            c.spec(),
            c.explanation().replace('|', "\\|")
        ));
    }
    let (before, rest) = doc
        .split_once(begin)
        .expect("docs/check.md has the catalogue marker");
    let (_, after) = rest
        .split_once(end)
        .expect("docs/check.md has the end marker");
    let fresh = format!("{before}{begin}{table}{end}{after}");
    if fresh != doc {
        std::fs::write(path, fresh).unwrap();
        panic!("docs/check.md was stale and has been rewritten: commit it");
    }
}
