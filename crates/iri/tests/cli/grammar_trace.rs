//! `iri tree --trace`: a plain and a JSON trace pinned by snapshots, and
//! the command line (the traced interpreter itself:
//! crates/lab/tests/lab/grammar_trace.rs).

use crate::common;
use std::process::Output;

fn iri(args: &[&str]) -> Output {
    common::run_iri(args, b"")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn snapshots() {
    let _guard = common::settings().bind_to_scope();
    // PEG's ordered choice at work: alternative 1 of ls32 matches h16 "1",
    // then ":" fails on '.', the match is undone and IPv4address wins.
    let o = iri(&["tree", "--trace", "--rule", "ls32", "1.2.3.4"]);
    assert_eq!(o.status.code(), Some(0));
    insta::assert_snapshot!("plain_trace_ls32", stdout(&o));
    // dec-octet's alternatives, longest first: the fourth matches "25".
    let o = iri(&["tree", "--trace", "--json", "--rule", "dec-octet", "25"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    insta::assert_json_snapshot!("json_trace_dec_octet", v);
}

#[test]
fn command_line() {
    // Exit status: 0 matched, 1 not, 2 for a usage error.
    let o = iri(&["tree", "--trace", "--rule", "IP-literal", "[::1]"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert!(
        text.starts_with("IP-literal 0..5 matched \"[::1]\"\n"),
        "{text}"
    );
    assert!(
        text.ends_with("IP-literal matched the whole input (0..5)\n"),
        "{text}"
    );
    // A failure: the trace, then the same report as `iri tree`.
    let o = iri(&["tree", "--trace", "--rule", "IP-literal", "[::1%25e]"]);
    assert_eq!(o.status.code(), Some(1));
    let report = stdout(&iri(&["tree", "--rule", "IP-literal", "[::1%25e]"]));
    let text = stdout(&o);
    assert!(text.ends_with(&report), "{text}");
    assert!(text.contains("IP-literal does not match: stopped at character 4 (byte 4): '%'\n"));
    // --trace takes its value only after '=': the input is not swallowed.
    let o = iri(&["tree", "--trace", "http://a/"]);
    assert_eq!(o.status.code(), Some(0));
    let o = iri(&["tree", "--trace=won", "--rule", "h16", "0aF"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).lines().all(|l| !l.contains("failed")));
    assert_eq!(iri(&["tree", "--trace=some", "x"]).status.code(), Some(2));
    assert_eq!(
        iri(&["tree", "--max-events", "3", "x"]).status.code(),
        Some(2)
    );
    // The cap is said.
    let o = iri(&["tree", "--trace", "--max-events", "4", "http://a/"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert_eq!(
        text.lines()
            .filter(|l| l.contains(" matched") || l.contains(" failed"))
            .count(),
        5
    );
    assert!(
        text.contains(
            "(trace cut at 4 events: the parse went on, its verdict is the whole parse's)"
        )
    );
    // Colour only when asked; words otherwise.
    let o = iri(&["--color", "always", "tree", "--trace", "--rule", "h16", "0"]);
    assert!(stdout(&o).contains("\u{1b}[32m✓\u{1b}[0m"));
    assert!(!stdout(&iri(&["tree", "--trace", "--rule", "h16", "0"])).contains('\u{1b}'));
    // Nothing of the input reaches the terminal raw.
    let o = iri(&[
        "tree",
        "--trace",
        "--rule",
        "IP-literal",
        "[\u{1b}[31m\u{202e}]",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{202e}'),
        "{text}"
    );
    assert!(text.contains("U+001B"));
    // A --grammar file and the built-in grammar give the same trace.
    let dir = std::env::temp_dir().join(format!("iri-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let g = dir.join("copy.pest");
    std::fs::write(&g, stdout(&iri(&["grammar", "show"]))).unwrap();
    let g = g.to_str().unwrap();
    for args in [
        &[
            "tree",
            "--trace",
            "--json",
            "--rule",
            "IP-literal",
            "[v7.x]",
        ][..],
        &[
            "tree",
            "--trace",
            "--rule",
            "ihost",
            "r%C3%A9sum%C3%A9.example.org",
        ],
        &["tree", "--trace=won", "http://a/b?c#d"],
    ] {
        let builtin = iri(args);
        let mut with = args.to_vec();
        with.extend(["--grammar", g]);
        let runtime = iri(&with);
        assert_eq!(builtin.status.code(), Some(0));
        assert_eq!(stdout(&builtin), stdout(&runtime), "{args:?}");
    }
    // Unknown rules get the usual help; the stack is refused.
    let o = iri(&[
        "tree",
        "--trace",
        "--grammar",
        g,
        "--rule",
        "ip-litral",
        "[::1]",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("did you mean IP-literal?"));
    let stack = dir.join("stack.pest");
    std::fs::write(&stack, "r = { PUSH(\"a\") ~ POP }\n").unwrap();
    let o = iri(&[
        "tree",
        "--trace",
        "--grammar",
        stack.to_str().unwrap(),
        "--rule",
        "r",
        "aa",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("the trace does not follow it"));
    // Too deep for the trace: an error, never a crash.
    let deep = dir.join("deep.pest");
    std::fs::write(&deep, "a = { \"(\" ~ a ~ \")\" | \"x\" }\n").unwrap();
    let input = format!("{}x{}", "(".repeat(40_000), ")".repeat(40_000));
    let o = iri(&[
        "tree",
        "--trace",
        "--grammar",
        deep.to_str().unwrap(),
        "--rule",
        "a",
        &input,
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("stack") || err.contains("nested"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
