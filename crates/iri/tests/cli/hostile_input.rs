//! The `iri` command on hostile input, scaled to run in a few seconds in a
//! debug build: controls and bidi formatting characters never reach a
//! terminal raw, reports stay bounded however long the line, `check` is
//! linear, lines that are not UTF-8 get one clear error, errors have one
//! JSON shape, and every input line gets its answer, in order.

use crate::common;
use std::process::{Command, Output};

use serde_json::Value;

fn iri(args: &[&str], stdin: &[u8]) -> Output {
    common::run_iri(args, stdin)
}

/// Runs `iri` with at most `kib` KiB of address space (`ulimit -v`): a run
/// that needs more fails to allocate, and so fails the test.
fn iri_within(kib: usize, args: &[&str], stdin: &[u8]) -> Output {
    common::run_iri_within(kib, args, stdin)
}

/// No byte or character a terminal acts on or hides: C0 controls other
/// than the newline, DEL, C1 controls, bidi formatting characters, the
/// line and paragraph separators. (The inputs here have no right-to-left
/// letters, so no report adds its left-to-right embedding either.)
fn assert_terminal_safe(what: &str, bytes: &[u8]) {
    let text = String::from_utf8(bytes.to_vec())
        .unwrap_or_else(|e| panic!("{what}: output is not UTF-8: {e}"));
    for (i, c) in text.char_indices() {
        let bad = (c < ' ' && c != '\n')
            || c == '\u{7F}'
            || ('\u{80}'..='\u{9F}').contains(&c)
            || ('\u{202A}'..='\u{202E}').contains(&c)
            || ('\u{2066}'..='\u{2069}').contains(&c)
            || matches!(
                c,
                '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{2028}' | '\u{2029}'
            );
        assert!(
            !bad,
            "{what}: raw U+{:04X} at byte {i} of:\n{text}",
            c as u32
        );
    }
}

/// Every line of standard output is a JSON object.
fn json_lines(what: &str, o: &Output) -> Vec<Value> {
    String::from_utf8(o.stdout.clone())
        .unwrap_or_else(|e| panic!("{what}: not UTF-8: {e}"))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{what}: {e}: {l}")))
        .collect()
}

/// The hostile lines: ESC, BEL, CR, C1 (CSI), DEL, RLO, LRI, U+2028, and a
/// byte that is not UTF-8.
const HOSTILE: &[u8] = b"http://a/\xff\x1bc\x07\n\
http://a/b\x1b[31mc\x07d\x7fe\xc2\x9bf\xe2\x80\xaeg\xe2\x81\xa6h\xe2\x80\xa8i\rj\n\
http://a/%1B%E2%80%AE?x=%C2%9B\n\
\x1b]0;title\x07\n";

/// The leiri grammar in a file of its own for the test `name`.
fn grammar_file(name: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("hostile-cli-{}-{name}.pest", std::process::id()));
    let o = iri(&["grammar", "show", "--profile", "leiri"], b"");
    std::fs::write(&path, &o.stdout).unwrap();
    path
}

#[test]
fn human_output_is_terminal_safe() {
    let grammar = grammar_file("human_output_is_terminal_safe");
    let grammar = grammar.to_str().unwrap();
    let runs: &[&[&str]] = &[
        &["parse"],
        &["parse", "--profile", "leiri"],
        &["parse", "--rule", "ipath-abempty"],
        &["parse", "--grammar", grammar],
        &["to-uri"],
        &["to-uri", "--profile", "leiri"],
        &["to-uri", "--profile", "leiri", "--explain"],
        &["to-iri"],
        &["to-iri", "--explain"],
        &["resolve", "--base", "http://a/b"],
        &["relativize", "--base", "http://a/b"],
        &["normalize"],
        &["check"],
        &["check", "--profile", "leiri"],
    ];
    for args in runs {
        let o = iri(args, HOSTILE);
        let what = args.join(" ");
        assert_terminal_safe(&format!("{what} (stdout)"), &o.stdout);
        assert_terminal_safe(&format!("{what} (stderr)"), &o.stderr);
        assert_eq!(o.status.code(), Some(1), "{what}");
        // And the JSON of the same run: valid, one object per line, with
        // the characters a terminal would act on written as \u escapes.
        let mut json_args = args.to_vec();
        json_args.push("--json");
        if args.contains(&"--explain") && args[0] == "to-iri" {
            continue;
        }
        let o = iri(&json_args, HOSTILE);
        assert_terminal_safe(&format!("{what} --json"), &o.stdout);
        assert_eq!(json_lines(&what, &o).len(), 4, "{what} --json");
    }
    // One input as an argument, and the commands that take one input.
    let hostile = "http://a/b\u{1B}c\u{7}\u{202E}\u{9B}";
    for args in [
        &["tree", "--profile", "leiri", hostile][..],
        &["tree", hostile],
        &["tree", "--grammar", grammar, hostile],
        &["tree", "--trace", hostile],
        &["tree", "--trace", "--json", "--grammar", grammar, hostile],
        &["compare", hostile, "http://a/"],
        &["resolve", "--base", hostile, "g"],
        &["check", "--allow", hostile],
        &["parse", "--rule", hostile, "a"],
    ] {
        let o = iri(args, b"");
        assert_terminal_safe(&format!("{args:?} (stdout)"), &o.stdout);
        assert_terminal_safe(&format!("{args:?} (stderr)"), &o.stderr);
    }
}

#[test]
fn escapes_are_shown() {
    let o = iri(&["parse"], b"http://a/\xff\x1bc\x07\n");
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains(r"  | http://a/\xFF\u{1B}c\u{7}"), "{out}");
    let o = iri(
        &["parse", "--profile", "leiri"],
        "http://a/\u{202E}\u{1B}".as_bytes(),
    );
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains(r"path       /\u{202E}\u{1B}"), "{out}");
    let o = iri(&["normalize", "--json"], "http://a/\u{2028}".as_bytes());
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains(r#""input":"http://a/\u2028""#), "{out}");
}

/// A usage error keeps its line breaks, and escapes what the command line
/// brought into it.
#[test]
fn usage_errors_keep_their_lines() {
    let o = iri(&["to-uri", "--cores"], b"");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("unexpected argument '--cores'"), "{err}");
    assert!(err.lines().count() > 2 && !err.contains(r"\u{A}"), "{err}");
    let o = iri(&["to-uri", "--x\u{202E}y"], b"");
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.contains(r"'--x\u{202E}y'") && !err.contains(r"\u{A}"),
        "{err}"
    );
    assert!(err.lines().count() > 2, "{err}");
    assert_terminal_safe("usage error", err.as_bytes());
}

/// A right-to-left input is shown in one left-to-right embedding (RFC 3987
/// §4.1), and a bidi control of the input is escaped all the same.
#[test]
fn right_to_left_is_embedded_and_its_controls_escaped() {
    let o = iri(&["parse"], "http://a/\u{5D0} \u{202E}\n".as_bytes());
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.contains("  | \u{202A}http://a/\u{5D0} \\u{202E}\u{202C}\n"),
        "{out}"
    );
    for line in out.lines() {
        let opens = line.matches('\u{202A}').count();
        assert_eq!(opens, line.matches('\u{202C}').count(), "{line}");
        assert!(opens <= 1 && !line.contains('\u{202E}'), "{line}");
    }
}

/// A parse error past display column 65,535 panicked (a format width must
/// fit in 16 bits), taking the whole batch with it.
#[test]
fn error_far_into_a_line() {
    let long = format!("http://a/{} ", "a".repeat(70_000));
    let input = format!("http://first/\n{long}\nhttp://third/\n");
    for args in [
        &["normalize", "--json"][..],
        &["normalize"],
        &["parse"],
        &["parse", "--json"],
        &["resolve", "--base", "http://b/"],
        &["resolve", "--base", "http://b/", "--json"],
        &["to-uri"],
        &["check"],
        &["check", "--json"],
    ] {
        let o = iri(args, input.as_bytes());
        let what = args.join(" ");
        assert_eq!(
            o.status.code(),
            Some(1),
            "{what}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        // The plain output of a transform has one line per input: the
        // report goes to standard error.
        let plain = !args.contains(&"--json") && !["parse", "check"].contains(&args[0]);
        let out = if plain {
            let out = String::from_utf8(o.stdout.clone()).unwrap();
            assert_eq!(out.lines().count(), 3, "{what}: {out}");
            assert_eq!(out.lines().nth(1), Some(""), "{what}: {out}");
            String::from_utf8(o.stderr.clone()).unwrap()
        } else {
            assert!(
                o.stderr.is_empty(),
                "{what}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            String::from_utf8(o.stdout).unwrap()
        };
        if args.contains(&"--json") {
            let lines = json_lines(
                &what,
                &Output {
                    stdout: out.clone().into(),
                    ..o
                },
            );
            assert_eq!(lines.len(), 3, "{what}");
            let error = if args[0] == "check" {
                &lines[1]["violations"][0]
            } else {
                &lines[1]["error"]
            };
            assert_eq!(error["byte"].as_u64(), Some(70_009), "{what}");
            assert_eq!(error["char"].as_u64(), Some(70_009), "{what}");
        } else {
            if !plain {
                assert!(out.contains("first/") && out.contains("third/"), "{what}");
            }
            // The report shows a window of the line, not the line: only
            // check's header line holds the whole input, once.
            let whole = out.lines().filter(|l| l.len() > 200).count();
            let expected = usize::from(args[0] == "check");
            assert_eq!(whole, expected, "{what}");
        }
    }
}

/// `check` on a line with 20,000 findings: each finding recounted the
/// characters from the start (quadratic time), and the JSON of the line
/// was built whole (hundreds of megabytes for 300,000 findings). Within
/// 64 MiB of address space it answers, in one line.
#[test]
fn check_many_findings_in_bounded_memory() {
    let line = format!("http://a/{}\n", "%41".repeat(20_000));
    let o = iri_within(64 * 1024, &["check", "--json"], line.as_bytes());
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let lines = json_lines("check --json", &o);
    assert_eq!(lines.len(), 1);
    let violations = lines[0]["violations"].as_array().unwrap();
    assert_eq!(violations.len(), 20_000);
    assert_eq!(violations[19_999]["char"].as_u64(), Some(9 + 3 * 19_999));
}

/// The human report repeated the whole line under every finding: a 30 KB
/// line gave 452 MB. Now each finding shows a window of about 80 columns.
#[test]
fn check_report_is_windowed() {
    let line = format!("http://a/{}\n", "%41".repeat(3_000));
    let o = iri_within(64 * 1024, &["check"], line.as_bytes());
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8(o.stdout).unwrap();
    // The header holds the line once; 3,000 findings of 5 short lines.
    assert_eq!(out.lines().count(), 1 + 3_000 * 5 + 1);
    assert!(out.len() < line.len() + 3_000 * 400, "{} bytes", out.len());
    assert!(out.contains("\n  | …") && out.contains("…\n"), "cut marks");
}

const NOT_UTF8: &[u8] = b"http://first/\nhttp://a/\xffb\nhttp://third/\n";

/// A line that is not UTF-8 gets one error in every command and profile
/// (`check --profile leiri` accepted it, the U+FFFD it became being a
/// LEIRI character; `check` and `normalize` advised percent-encoding
/// U+FFFD), in order, and the exit status is 1.
#[test]
fn not_utf8_is_one_error_everywhere() {
    let grammar = grammar_file("not_utf8_is_one_error_everywhere");
    let grammar = grammar.to_str().unwrap();
    let runs: &[&[&str]] = &[
        &["parse"],
        &["parse", "--profile", "leiri"],
        &["parse", "--grammar", grammar],
        &["parse", "--preprocess=split"],
        &["check"],
        &["check", "--profile", "leiri"],
        &["check", "--severities", "leiri", "--profile", "leiri"],
        &["normalize"],
        &["to-uri"],
        &["to-uri", "--profile", "leiri"],
        &["to-iri"],
        &["resolve", "--base", "http://b/"],
        &["relativize", "--base", "http://b/"],
    ];
    for args in runs {
        let what = args.join(" ");
        let mut json_args = args.to_vec();
        json_args.push("--json");
        let o = iri(&json_args, NOT_UTF8);
        assert_eq!(o.status.code(), Some(1), "{what}");
        let lines = json_lines(&what, &o);
        assert_eq!(lines.len(), 3, "{what}");
        assert_eq!(
            lines
                .iter()
                .map(|l| l["line"].as_u64().unwrap())
                .collect::<Vec<_>>(),
            [1, 2, 3],
            "{what}"
        );
        let error = &lines[1]["error"];
        assert_eq!(
            (error["byte"].as_u64(), error["char"].as_u64()),
            (Some(9), Some(9)),
            "{what}"
        );
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .starts_with("not UTF-8 at byte 9, character 9"),
            "{what}: {error}"
        );
        assert_eq!(error["spec"], "3987bis §3.1", "{what}");
        let o = iri(args, NOT_UTF8);
        // A transform's plain output: an empty line, the report on stderr
        // with the line's number.
        let out = if ["parse", "check"].contains(&args[0]) {
            String::from_utf8(o.stdout).unwrap()
        } else {
            let lines = String::from_utf8(o.stdout).unwrap();
            assert_eq!(lines.lines().count(), 3, "{what}: {lines}");
            assert_eq!(lines.lines().nth(1), Some(""), "{what}: {lines}");
            let err = String::from_utf8(o.stderr).unwrap();
            assert!(
                err.starts_with("iri: line 2: error: not UTF-8"),
                "{what}: {err}"
            );
            err
        };
        assert!(out.contains("not UTF-8 at byte 9"), "{what}: {out}");
        assert!(
            !out.contains("EF%BF%BD") && !out.contains('\u{FFFD}'),
            "{what}: {out}"
        );
    }
    // As an argument, too.
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let arg = std::ffi::OsStr::from_bytes(b"http://a/\xffb");
        let o = Command::new(env!("CARGO_BIN_EXE_iri"))
            .args(["parse".as_ref(), "--json".as_ref(), arg])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1));
        let lines = json_lines("parse ARG", &o);
        assert_eq!(lines[0]["error"]["byte"], 9);
        assert_eq!(lines[0]["line"], 1);
    }
}

/// Every error object has the same keys, whatever the command; results
/// keep their input keys.
#[test]
fn one_error_shape() {
    let shape = ["byte", "char", "message", "component", "expected", "spec"];
    let grammar = grammar_file("one_error_shape");
    let grammar = grammar.to_str().unwrap();
    let runs: &[(&[&str], &[u8], &[&str])] = &[
        (&["parse", "--json"], b"a b\n", &["input", "valid"]),
        (
            &["parse", "--json", "--rule", "IPv6address"],
            b"1::2::3\n",
            &["input", "valid"],
        ),
        (
            &["parse", "--json", "--grammar", grammar],
            b"%zz\n",
            &["input", "valid", "rule"],
        ),
        (&["to-uri", "--json"], b"a b\n", &["input"]),
        (
            &["to-uri", "--json", "--idna"],
            "http://\u{301}a.example/\n".as_bytes(),
            &["input"],
        ),
        (&["to-iri", "--json"], b"a b\n", &["input"]),
        (&["normalize", "--json"], b"a b\n", &["input"]),
        (
            &["normalize", "--json", "--nfc"],
            "http://h/a\u{1FEF}b\n".as_bytes(),
            &["input"],
        ),
        (
            &["resolve", "--json", "--base", "http://b/"],
            b"a b\n",
            &["base", "ref"],
        ),
        (
            &["relativize", "--json", "--base", "http://b/"],
            b"a b\n",
            &["base", "target"],
        ),
        (
            &["relativize", "--json", "--base", "http://b/"],
            b"g\n",
            &["base", "target"],
        ),
        (
            &["check", "--json"],
            b"a\xff\n",
            &["input", "valid", "violations"],
        ),
    ];
    for (args, stdin, keys) in runs {
        let what = args.join(" ");
        let o = iri(args, stdin);
        assert_eq!(o.status.code(), Some(1), "{what}");
        let line = &json_lines(&what, &o)[0];
        let error = line["error"]
            .as_object()
            .unwrap_or_else(|| panic!("{what}: no error in {line}"));
        let got: Vec<&str> = error.keys().map(String::as_str).collect();
        assert_eq!(got, shape, "{what}");
        assert!(
            error["expected"].is_array() && error["message"].is_string(),
            "{what}"
        );
        for key in *keys {
            assert!(line.get(*key).is_some(), "{what}: no {key} in {line}");
        }
        assert_eq!(line["line"], 1, "{what}");
    }
}

/// `--preprocess=split` dropped blank lines; with `line`, each result maps
/// back to its input line.
#[test]
fn split_keeps_every_line() {
    for command in ["parse", "to-uri", "check"] {
        let o = iri(
            &[command, "--json", "--preprocess=split"],
            b"http://a/ http://b/\n\n   \nhttp://c/\n",
        );
        let lines: Vec<u64> = json_lines(command, &o)
            .iter()
            .map(|l| l["line"].as_u64().unwrap())
            .collect();
        assert_eq!(lines, [1, 1, 2, 3, 4], "{command}");
    }
}

/// Every command that reads standard input numbers its results by line.
#[test]
fn every_result_has_its_line() {
    for args in [
        &["parse", "--json"][..],
        &["check", "--json"],
        &["to-uri", "--json"],
        &["to-iri", "--json"],
        &["normalize", "--json"],
        &["resolve", "--json", "--base", "http://b/"],
        &["relativize", "--json", "--base", "http://b/"],
    ] {
        let o = iri(args, b"http://a/x\na b\n\nhttp://c/\n");
        let lines: Vec<u64> = json_lines(&args.join(" "), &o)
            .iter()
            .map(|l| l["line"].as_u64().unwrap())
            .collect();
        assert_eq!(lines, [1, 2, 3, 4], "{args:?}");
    }
}

/// `iri tree --trace` on hostile input: a path of 100,000 characters is
/// cut at the event cap (a bounded output, in bounded memory), a nesting
/// deeper than pest's stack is an error with exit status 2, not a crash,
/// and invisible characters (zero-width, soft hyphen, byte order mark,
/// a tag, the word joiner) are written as escapes in every line that shows
/// input text, plain or JSON.
#[test]
fn tree_trace_on_hostile_input_is_bounded() {
    // 3 GiB of address space: room for the lab's thread and the trace.
    const BUDGET: usize = 3 << 20;
    let huge = format!("http://a/{}", "a".repeat(100_000));
    let o = iri_within(BUDGET, &["tree", "--trace", &huge], b"");
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.lines().count() <= 10_003,
        "{} lines",
        out.lines().count()
    );
    assert!(
        out.ends_with(
            "(trace cut at 10,000 events: the parse went on, its verdict is the whole parse's)\n"
        ),
        "{}",
        &out[out.len() - 300..]
    );
    let o = iri_within(BUDGET, &["tree", "--trace", "--json", &huge], b"");
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["truncated"], true);
    assert_eq!(v["events"].as_array().unwrap().len(), 10_000);
    assert_eq!(v["valid"], true);

    // Deeper than pest's stack: no verdict, an error.
    let dir = std::env::temp_dir().join(format!("hostile-cli-{}-trace", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let nested = dir.join("nested.pest");
    std::fs::write(&nested, "a = { \"(\" ~ a ~ \")\" | \"x\" }\n").unwrap();
    let deep = format!("{}x{}", "(".repeat(50_000), ")".repeat(50_000));
    let nested = nested.to_str().unwrap();
    let o = iri_within(
        BUDGET,
        &["tree", "--trace", "--grammar", nested, "--rule", "a", &deep],
        b"",
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("needs more nested calls than the stack holds"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();

    // Invisible characters, where the input is valid and where it fails.
    let invisible = "\u{200B}\u{AD}\u{FEFF}\u{E0041}\u{2060}";
    for (args, profile) in [
        (&["--trace"][..], "leiri"),
        (&["--trace=won"][..], "leiri"),
        (&["--trace"][..], "rfc3986"),
    ] {
        let input = format!("http://a/x{invisible}y");
        let mut all = vec!["tree", "--profile", profile];
        all.extend_from_slice(args);
        all.push(&input);
        let o = iri(&all, b"");
        assert_terminal_safe(&format!("{all:?}"), &o.stdout);
        let out = String::from_utf8(o.stdout).unwrap();
        for c in invisible.chars() {
            assert!(
                !out.contains(c),
                "{all:?}: raw U+{:04X} in\n{out}",
                c as u32
            );
        }
        assert!(
            out.contains(r"\u{200b}") || out.contains(r"\u{200B}") || out.contains("U+200B"),
            "{all:?}: {out}"
        );
        all.push("--json");
        let o = iri(&all, b"");
        assert_terminal_safe(&format!("{all:?}"), &o.stdout);
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["input"].as_str(), Some(input.as_str()), "{all:?}");
    }
}

/// The other Default_Ignorable_Code_Points (UAX #44) show nothing either:
/// the Hangul fillers, a favourite of look-alike names, and the combining
/// grapheme joiner are escaped in reports and in JSON, raw nowhere, while
/// the text around them (kana here) stays as it is. A variation selector,
/// which chooses how the character before it shows, stays too.
#[test]
fn default_ignorables_are_escaped() {
    for c in ['\u{3164}', '\u{34F}', '\u{115F}', '\u{FFA0}'] {
        let input = format!("http://a/あ{c}い?q=%zz\n");
        for args in [
            &["check"][..],
            &["check", "--json"],
            &["parse"],
            &["to-uri", "--json"],
        ] {
            let o = iri(args, input.as_bytes());
            for (name, out) in [("stdout", &o.stdout), ("stderr", &o.stderr)] {
                let out = String::from_utf8_lossy(out);
                assert!(
                    !out.contains(c),
                    "{args:?} {name}: raw U+{:04X}:\n{out}",
                    c as u32
                );
            }
            let shown = String::from_utf8_lossy(&o.stdout).to_lowercase()
                + &String::from_utf8_lossy(&o.stderr).to_lowercase();
            let hex = format!("{:x}", c as u32);
            assert!(
                shown.contains(&hex),
                "{args:?}: U+{hex} not shown escaped:\n{shown}"
            );
            assert!(shown.contains('あ'), "{args:?}: kana escaped too:\n{shown}");
        }
    }
    let o = iri(
        &["check", "--json"],
        "http://a/?utm=\u{2764}\u{FE0F}\n".as_bytes(),
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("\u{2764}\u{FE0F}"));
}
