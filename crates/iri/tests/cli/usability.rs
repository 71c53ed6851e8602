//! Usability: what a new user trips on (pointers, suggestions, line
//! numbers, `--file`, man pages, usage lines), each pinned by what the user
//! runs and reads, named after the behaviour.

use crate::common;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

fn iri(args: &[&str], stdin: &[u8]) -> Output {
    common::run_iri(args, stdin)
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// A fresh directory of this test's own.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("iri-newcomer-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_owned()
}

/// Item 1: `iri check page.html` checks the name as a reference (a valid
/// one), and says on stderr that the argument is a file, with the
/// commands that read it.
#[test]
fn a_file_name_checked_as_a_reference_is_pointed_out() {
    let dir = scratch("item1");
    let page = write(
        &dir,
        "page.html",
        "<a href=\"http://example.org/a b\">x</a>\n",
    );
    let o = iri(&["check", &page], b"");
    assert_eq!(o.status.code(), Some(0), "the verdict stands");
    assert!(stdout(&o).contains(": valid"), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.starts_with("iri: argument 1: "), "{err}");
    assert!(err.contains("names a file"), "{err}");
    assert!(err.contains(&format!("iri check --file {page}")), "{err}");
    assert!(
        err.contains(&format!("iri check --from html {page}")),
        "{err}"
    );
    // An argument that is no file: nothing said.
    let o = iri(&["check", "page-that-is-not-there.html"], b"");
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    // A Turtle file gets its format; an unknown extension a placeholder.
    let ttl = write(&dir, "data.ttl", "");
    assert!(stderr(&iri(&["check", &ttl], b"")).contains("--from turtle"));
    let txt = write(&dir, "iris.txt", "");
    assert!(stderr(&iri(&["check", &txt], b"")).contains("--from FORMAT"));
}

/// Item 3: the README says where `to-uri` is introduced that the host is
/// percent-encoded by default (3987bis §3.4.1), punycode with --idna; both
/// outputs as shown there.
#[test]
fn to_uri_host_by_default_and_with_idna() {
    let readme = std::fs::read_to_string(concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
        "/README.md"
    ))
    .unwrap();
    for (args, out) in [
        (
            &["to-uri", "https://例え.jp/"][..],
            "https://%E4%BE%8B%E3%81%88.jp/",
        ),
        (
            &["to-uri", "--idna", "https://例え.jp/"][..],
            "https://xn--r8jz45g.jp/",
        ),
    ] {
        let o = iri(args, b"");
        assert_eq!(stdout(&o), format!("{out}\n"));
        assert!(readme.contains(out), "README shows {out}");
    }
}

/// Item 5: human `check` output numbers each line of a file or of
/// standard input, as `grep -n` does; arguments are not numbered.
#[test]
fn check_human_output_has_line_numbers() {
    let dir = scratch("item5");
    let file = write(
        &dir,
        "iris.txt",
        "http://a/\nhttp://example.org/a b\nhttp://b/\n",
    );
    let o = iri(&["check", "--only-invalid", "--file", &file], b"");
    let out = stdout(&o);
    assert!(
        out.starts_with("2: http://example.org/a b: invalid\n"),
        "{out}"
    );
    let o = iri(&["check"], b"http://a/\n");
    assert!(stdout(&o).starts_with("1: http://a/: valid\n"));
    let o = iri(&["check", "http://a/"], b"");
    assert!(stdout(&o).starts_with("http://a/: valid\n"));
}

/// Item 6: every command that reads inputs takes `--file` (`-` for
/// standard input), with JSON `line` the line number; a file and
/// arguments together are a usage error.
#[test]
fn every_input_command_takes_file() {
    let dir = scratch("item6");
    let file = write(&dir, "in.txt", "http://a/b\nc d\n");
    let commands: [&[&str]; 7] = [
        &["parse"],
        &["check"],
        &["to-uri"],
        &["to-iri"],
        &["resolve", "--base", "http://x/y/"],
        &["relativize", "--base", "http://a/"],
        &["normalize"],
    ];
    for command in commands {
        for source in [file.as_str(), "-"] {
            let mut args = command.to_vec();
            args.extend(["--json", "--file", source]);
            let o = iri(&args, b"http://a/b\nc d\n");
            assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
            let lines = common::json_lines(&o);
            assert_eq!(lines.len(), 2, "{args:?}");
            assert_eq!(lines[0]["line"], 1, "{args:?}");
            assert_eq!(lines[0]["valid"], true, "{args:?}: {}", lines[0]);
            assert_eq!(lines[1]["line"], 2, "{args:?}");
            assert_eq!(lines[1]["valid"], false, "{args:?}");
        }
        let mut args = command.to_vec();
        args.extend(["--file", &file, "http://a/"]);
        let o = iri(&args, b"");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("--file"), "{args:?}: {}", stderr(&o));
        let mut args = command.to_vec();
        args.extend(["--file", "/nonexistent/in.txt"]);
        let o = iri(&args, b"");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("/nonexistent/in.txt"), "{args:?}");
    }
    // A directory is not a file of inputs.
    let dir_arg = dir.to_str().unwrap();
    let o = iri(&["parse", "--file", dir_arg], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is a directory"), "{}", stderr(&o));
    // Errors of a file's lines name the line.
    let o = iri(&["to-uri", "--file", &file], b"");
    assert!(
        stderr(&o).starts_with("iri: line 2: error: "),
        "{}",
        stderr(&o)
    );
}

/// Item 7: a page per command, with EXIT STATUS and EXAMPLES; `--out`
/// writes them all, and every page a page names (SEE ALSO, SUBCOMMANDS)
/// is one of them.
#[test]
fn a_man_page_per_command() {
    let o = iri(&["man", "check"], b"");
    assert_eq!(o.status.code(), Some(0));
    let page = stdout(&o);
    assert!(page.contains(".TH iri-check 1"), "{page}");
    for section in ["NAME", "SYNOPSIS", "OPTIONS", "EXAMPLES"] {
        assert!(page.contains(&format!(".SH {section}\n")), "{section}");
    }
    for section in ["EXIT STATUS", "SEE ALSO"] {
        assert!(page.contains(&format!(".SH \"{section}\"\n")), "{section}");
    }
    assert!(page.contains("\\-\\-only\\-invalid"), "check's own options");
    assert!(page.contains("\\fB3\\fR\n"), "check's exit status 3");
    let o = iri(&["man", "grammar", "check"], b"");
    assert!(stdout(&o).contains(".TH iri-grammar-check 1"));
    let o = iri(&["man", "nope"], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("grammar check"), "{}", stderr(&o));

    let dir = scratch("item7");
    let out = dir.join("man1");
    let o = iri(&["man", "--out", out.to_str().unwrap()], b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut written: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    written.sort();
    for name in [
        "iri.1",
        "iri-check.1",
        "iri-parse.1",
        "iri-grammar-check.1",
        "iri-man.1",
    ] {
        assert!(written.iter().any(|w| w == name), "{name}: {written:?}");
    }
    assert!(!written.iter().any(|w| w.contains("help")), "{written:?}");
    assert_eq!(stdout(&o).lines().count(), written.len());
    for name in &written {
        let page = std::fs::read_to_string(out.join(name)).unwrap();
        assert!(page.contains(".SH \"EXIT STATUS\"\n"), "{name}");
        assert!(page.contains(".SH EXAMPLES\n"), "{name}: examples");
        // Characters outside ASCII as groff escapes, read in any locale.
        assert!(page.is_ascii(), "{name}");
        // Every page named is a page written.
        for named in page.split(|c: char| c.is_whitespace() || c == ',') {
            let Some(stem) = named.strip_suffix("(1)") else {
                continue;
            };
            let file = format!("{}.1", stem.replace("\\-", "-"));
            assert!(written.contains(&file), "{name} names {named}, not written");
        }
    }
    // The NAME line is the command's one-line about.
    let top = std::fs::read_to_string(out.join("iri.1")).unwrap();
    assert!(top.contains(".SH ENVIRONMENT\n") && top.contains("NO_COLOR"));
    assert!(!top.contains("typed components"), "the crate's description");
}

/// Item 8: a mistyped check code gets the closest codes and a pointer to
/// `--list-codes`.
#[test]
fn mistyped_codes_get_suggestions() {
    let o = iri(&["check", "--deny", "DOT_SEGMENTS", "http://a/"], b"");
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("did you mean DOT_SEGMENT?"), "{err}");
    assert!(err.contains("iri check --list-codes"), "{err}");
    let o = iri(&["check", "--explain", "zzzzzzzz"], b"");
    assert!(!stderr(&o).contains("did you mean"), "{}", stderr(&o));
    assert!(stderr(&o).contains("--list-codes"));
}

/// Item 11: one expected list, rendered two ways: the JSON `expected` has
/// the items the human caret line joins, the end of input as "the end";
/// check's human SYNTAX_ERROR has the line too; a `--grammar` run names
/// the end as the built-in parser does.
#[test]
fn one_expected_list() {
    let input = "http://example.org/a b";
    let o = iri(&["parse", "--json", input], b"");
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let items: Vec<&str> = v["error"]["expected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    assert_eq!(items, ["\"#\"", "\"?\"", "path-sep", "ipchar", "the end"]);
    let human = "^ expected \"#\", \"?\", path-sep, ipchar or the end";
    assert!(stdout(&iri(&["parse", input], b"")).contains(human));
    assert!(stdout(&iri(&["check", input], b"")).contains(human));
    let o = iri(&["check", "--json", input], b"");
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v["violations"][0]["expected"],
        serde_json::json!(items),
        "check --json gives the list parse --json gives"
    );

    let dir = scratch("item11");
    let grammar = dir.join("g.pest");
    std::fs::write(&grammar, stdout(&iri(&["grammar", "show"], b""))).unwrap();
    let o = iri(
        &[
            "parse",
            "--json",
            "--grammar",
            grammar.to_str().unwrap(),
            input,
        ],
        b"",
    );
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let items = v["error"]["expected"].as_array().unwrap();
    assert!(items.iter().any(|x| x == "the end"), "{v}");
    assert!(!items.iter().any(|x| x == "EOI"), "{v}");
    let o = iri(
        &["parse", "--grammar", grammar.to_str().unwrap(), input],
        b"",
    );
    assert!(!stdout(&o).contains("EOI"), "{}", stdout(&o));
}

/// Item 12: stderr names an argument `argument N`, a line `line N`; JSON
/// `line` keeps its meaning (the argument's position).
#[test]
fn arguments_are_called_arguments() {
    let o = iri(&["to-uri", "http://a/", "a b"], b"");
    assert!(
        stderr(&o).starts_with("iri: argument 2: error: "),
        "{}",
        stderr(&o)
    );
    let o = iri(&["normalize"], b"http://a/\na b\n");
    assert!(
        stderr(&o).starts_with("iri: line 2: error: "),
        "{}",
        stderr(&o)
    );
    let o = iri(
        &["resolve", "--json", "--base", "http://a/", "x", "a b"],
        b"",
    );
    let lines = common::json_lines(&o);
    assert_eq!(lines[1]["line"], 2);
}

/// Item 13: with `--base` missing, the usage line shows the references as
/// optional, as `--help` does (standard input takes their place).
#[test]
fn usage_matches_help() {
    for (command, name) in [("resolve", "[REFS]..."), ("relativize", "[TARGETS]...")] {
        let o = iri(&[command, "http://a/"], b"");
        assert_eq!(o.status.code(), Some(2));
        let err = stderr(&o);
        let usage = err.lines().find(|l| l.starts_with("Usage: ")).unwrap();
        assert!(usage.ends_with(name), "{usage}");
        let help = stdout(&iri(&[command, "--help"], b""));
        assert!(help.contains(usage), "{help}");
    }
}

/// Item 14: `grammar check` prints the root cause first, and marks its row.
#[test]
fn root_cause_first() {
    let dir = scratch("item14");
    let abnf = write(
        &dir,
        "mini.abnf",
        "authority = host [ \":\" port ]\nhost = 1*ALPHA\nport = *DIGIT\nALPHA = %x41-5A / %x61-7A\nDIGIT = %x30-39\n",
    );
    let pest = write(
        &dir,
        "wide.pest",
        "authority = { host ~ (\":\" ~ port)? }\nhost = { ALPHA+ }\nport = { (DIGIT | \"x\")* }\nALPHA = { 'A'..'Z' | 'a'..'z' }\nDIGIT = { '0'..'9' }\n",
    );
    let o = iri(
        &["grammar", "check", "--grammar", &pest, "--abnf", &abnf],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let first = out.lines().next().unwrap();
    assert_eq!(
        first,
        "root cause: port differs while every rule it refers to agrees; 1 rule that refers to it differs too"
    );
    let row = out.lines().find(|l| l.starts_with("port ")).unwrap();
    assert!(row.contains("DIFFERS    root cause: pest accepts"), "{row}");
    let user = out.lines().find(|l| l.starts_with("authority ")).unwrap();
    assert!(!user.contains("root cause"), "{user}");
}

/// Item 15: the CLI has its own one-line about (not the crate's
/// description), and the global options come after a subcommand's own.
#[test]
fn about_and_global_options_last() {
    let help = stdout(&iri(&["--help"], b""));
    let first = help.lines().next().unwrap();
    assert!(first.starts_with("Parse, check, convert"), "{first}");
    assert!(!help.contains("typed components"));
    for args in [
        &["check", "--help"][..],
        &["check", "-h"],
        &["resolve", "--help"],
    ] {
        let help = stdout(&iri(args, b""));
        let options = help.find("\nOptions:\n").unwrap();
        let global = help.find("\nGlobal options:\n").unwrap();
        let color = help.find("--color").unwrap();
        assert!(options < global && global < color, "{args:?}: {help}");
    }
}

/// Item 16: the README names every shell `iri completions` accepts.
#[test]
fn readme_lists_every_completion_shell() {
    let readme = std::fs::read_to_string(concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
        "/README.md"
    ))
    .unwrap();
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let o = iri(&["completions", shell], b"");
        assert_eq!(o.status.code(), Some(0), "{shell}");
    }
    assert!(
        readme.contains("iri completions bash|zsh|fish|powershell|elvish"),
        "README"
    );
    let help = stdout(&iri(&["completions", "--help"], b""));
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        assert!(help.contains(shell), "{shell}");
    }
}
