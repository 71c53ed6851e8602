//! The command-line layer on any bytes: every command answers each input
//! line with exactly one valid JSON object carrying its `line`, in order,
//! and its human output never holds a byte a terminal acts on (C0 controls
//! but the newline, DEL, C1 controls, bidi formatting characters, U+2028
//! and U+2029); the exit status is 0, 1 or 2, never a crash.
//!
//! The `iri` binary runs as a child process (the coverage is the
//! library's, as the fuzzer sees it, not the binary's): build it first,
//! `cargo build --release`, and point `IRI_BIN` at it if it is not
//! `../target/release/iri`.
#![no_main]

use std::io::Write;
use std::process::{Command, Stdio};

use libfuzzer_sys::fuzz_target;

fn iri() -> String {
    std::env::var("IRI_BIN").unwrap_or_else(|_| "../target/release/iri".into())
}

fn run(args: &[&str], stdin: &[u8]) -> std::process::Output {
    let mut child = Command::new(iri())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("IRI_BIN runs (cargo build --release first)");
    let mut input = child.stdin.take().expect("a pipe");
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("iri ends");
    writer.join().expect("the writer ends");
    out
}

/// A byte or character a terminal acts on.
fn terminal_control(text: &str) -> Option<char> {
    text.chars().find(|&c| {
        (c.is_control() && c != '\n')
            || matches!(c, '\u{61C}' | '\u{200E}' | '\u{200F}' | '\u{2028}' | '\u{2029}' | '\u{202B}' | '\u{202D}' | '\u{202E}' | '\u{2066}'..='\u{2069}')
    })
}

fuzz_target!(|data: &[u8]| {
    // The lines as `iri` reads them: split at "\n", one "\r" before it dropped.
    let lines = if data.is_empty() { 0 } else { data.split(|&b| b == b'\n').count() - usize::from(data.ends_with(b"\n")) };
    for args in [
        &["parse", "--json"][..],
        &["check", "--json"],
        &["to-uri", "--json"],
        &["to-iri", "--json"],
        &["normalize", "--json"],
        &["resolve", "--json", "--base", "http://a/b"],
    ] {
        let o = run(args, data);
        let code = o.status.code();
        assert!(matches!(code, Some(0..=2)), "{args:?}: status {:?}", o.status);
        if code == Some(2) {
            continue;
        }
        let stdout = String::from_utf8(o.stdout).expect("JSON output is UTF-8");
        let answers: Vec<&str> = stdout.lines().collect();
        assert_eq!(answers.len(), lines, "{args:?}: {} answers for {lines} lines", answers.len());
        for (i, a) in answers.iter().enumerate() {
            let v: serde_json::Value = serde_json::from_str(a).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {a}"));
            assert_eq!(v["line"], i + 1, "{args:?}: {a}");
            assert!(!a.contains('\u{2028}') && !a.contains('\u{2029}'), "{args:?}: a raw line separator in {a}");
        }
    }
    for args in [&["parse"][..], &["check"], &["to-uri"], &["to-iri", "--explain"], &["normalize"], &["resolve", "--base", "http://a/b"], &["parse", "--profile", "leiri"]] {
        let o = run(args, data);
        for (what, bytes) in [("stdout", &o.stdout), ("stderr", &o.stderr)] {
            let text = String::from_utf8_lossy(bytes);
            if let Some(c) = terminal_control(&text) {
                panic!("{args:?}: {what} holds U+{:04X} raw", c as u32);
            }
        }
    }
});
