//! The command on large and hostile inputs: the error path in bounded
//! memory (the position from the DFA, pest only on a window), and reports
//! that do not depend on threads. (hostile_input.rs has the command line's
//! escaping, error shapes and line numbers; tests/syntax/error_positions.rs
//! the exactness of positions.)

use crate::common;
use std::process::Output;

use iribis::check::CheckOptions;

use iribis::{IriRef, check};

use serde_json::Value;

/// Runs `iri` with at most `kib` KiB of address space.
fn iri_within(kib: usize, args: &[&str], stdin: Vec<u8>) -> Output {
    common::run_iri_within(kib, args, &stdin)
}

fn json_lines(o: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l:.200}")))
        .collect()
}

/// Invalid lines of many kinds, so that their explanations differ.
fn invalid_lines() -> Vec<String> {
    let kinds = [
        "http://a/b c",
        "http://[12345::]/",
        "http://[::1",
        "http://a:8o/",
        "1a:b",
        "http://a/%zz",
        "http://a/\u{FDD0}",
        "http://a/<x>",
        "http://a/b#c#d",
        "//[v1.]/",
    ];
    (0..3000)
        .map(|i| format!("{}{}", kinds[i % kinds.len()], "x".repeat(i % 7)))
        .collect()
}

/// 4 MB of path, then a space: pest's explanation of the whole line took
/// about 240 bytes per input byte (a 10 MB line 2.4 GB, 100 MB aborted).
/// Now the DFA finds the position and pest explains a window: every command
/// answers every line within 100 MiB of address space (the debug binary
/// and its tables take about 60).
#[test]
fn error_far_into_a_long_line_in_bounded_memory() {
    const N: usize = 4_000_000;
    let long = format!("http://a/{} b", "a".repeat(N));
    let input = format!("http://first/\n{long}\nhttp://third/\n").into_bytes();
    for args in [
        &["parse", "--json"][..],
        &["check", "--json"],
        &["normalize", "--json"],
        &["resolve", "--json", "--base", "http://x/y"],
        &["to-uri", "--json"],
        &["to-iri", "--json"],
    ] {
        let o = iri_within(100_000, args, input.clone());
        let lines = json_lines(&o);
        assert_eq!(
            lines.len(),
            3,
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = lines[1]
            .get("error")
            .or_else(|| lines[1]["violations"].get(0))
            .unwrap_or_else(|| panic!("{args:?}: no error in {:.300}", lines[1].to_string()));
        assert_eq!(err["byte"], N + 9, "{args:?}");
        assert_eq!(err["char"], N + 9, "{args:?}");
    }
}

/// A valid line of 4 MB through every transform: `to-iri` took about
/// 100 bytes per input byte. (The checker's memory grows with its findings,
/// about 250 bytes each; hostile_input.rs bounds a line of 20,000.)
#[test]
fn valid_long_line_in_bounded_memory() {
    let long = format!("http://a/{}?q=%E3%81%82", "ab/%C3%A9".repeat(450_000));
    for args in [
        &["parse", "--json"][..],
        &["to-iri"],
        &["to-uri"],
        &["normalize"],
        &["resolve", "--base", "http://x/y"],
        &["check", "--json"],
    ] {
        let o = iri_within(100_000, args, format!("{long}\n").into_bytes());
        assert_eq!(
            o.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(
            o.stdout.iter().filter(|&&b| b == b'\n').count(),
            1,
            "{args:?}"
        );
    }
}

/// `iri check` checks batches on all cores. The explanation of an error
/// switched pest's process-global error-detail flag on and off, so another
/// thread could switch it off in the middle of a reparse and the same input
/// got a shorter "expected" list. Each run now gives the same report, and
/// each line's report is the one the library gives on one thread.
#[test]
fn reports_do_not_depend_on_threads() {
    let lines = invalid_lines();
    let input = lines.join("\n").into_bytes();
    let first = iri_within(400_000, &["check", "--json"], input.clone());
    let second = iri_within(400_000, &["check", "--json"], input);
    assert_eq!(
        first.stdout, second.stdout,
        "two runs of the same input differ"
    );
    let reports = json_lines(&first);
    assert_eq!(reports.len(), lines.len());
    for (line, report) in lines.iter().zip(&reports) {
        let mine = check(line, &CheckOptions::default());
        let theirs = &report["violations"][0];
        assert_eq!(theirs["message"], mine.violations[0].message, "{line:?}");
    }
    // And the error's own expectations, computed on this thread.
    for line in &lines[..20] {
        let e = IriRef::parse(line).unwrap_err();
        let again = IriRef::parse(line).unwrap_err();
        assert_eq!(e.expected(), again.expected(), "{line:?}");
        assert_eq!(e.expected_literals(), again.expected_literals(), "{line:?}");
    }
}
