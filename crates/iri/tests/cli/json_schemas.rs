//! One JSON schema across subcommands: every command's `--json` output,
//! over valid, invalid and not-UTF-8 inputs, validates against its schema
//! in docs/schema/, and every schema has the same error object. Also:
//! completions and the man page are generated.

use crate::common;
use std::process::Output;

use serde_json::Value;

fn iri(args: &[&str], stdin: &[u8]) -> Output {
    common::run_iri(args, stdin)
}

fn schema(name: &str) -> Value {
    let path = format!(
        "{}/docs/schema/{name}.json",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../..")
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn validator(name: &str) -> jsonschema::Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema(name))
        .unwrap()
}

const INPUTS: &[u8] =
    b"http://a/%7e\nhttp://[x\n\nhttp://\xffb/\n../c?d#e\nhttp://\xc3\xa9.org/./a\n";

/// Every line of `args`'s output is valid under `name`'s schema; gives the
/// lines.
fn validate(name: &str, args: &[&str], stdin: &[u8]) -> Vec<Value> {
    let o = iri(args, stdin);
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v = validator(name);
    let lines: Vec<Value> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(!lines.is_empty(), "{args:?}");
    for line in &lines {
        let errors: Vec<String> = v
            .iter_errors(line)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{args:?}: {line}: {errors:#?}");
    }
    lines
}

#[test]
fn every_command_matches_its_schema() {
    let runs: &[(&str, &[&str])] = &[
        ("parse", &["parse", "--json"]),
        ("parse", &["parse", "--json", "--rule", "ihost"]),
        ("parse", &["parse", "--json", "--preprocess=split"]),
        ("check", &["check", "--json"]),
        ("check", &["check", "--json", "--only-invalid"]),
        ("check", &["check", "--json", "--profile", "leiri"]),
        ("to-uri", &["to-uri", "--json"]),
        ("to-uri", &["to-uri", "--json", "--explain", "--idna"]),
        ("to-iri", &["to-iri", "--json"]),
        ("to-iri", &["to-iri", "--json", "--explain"]),
        ("normalize", &["normalize", "--json", "--nfc"]),
        ("resolve", &["resolve", "--json", "--base", "http://b/c/d"]),
        (
            "relativize",
            &["relativize", "--json", "--base", "http://b/c/d"],
        ),
    ];
    for (name, args) in runs {
        let lines = validate(name, args, INPUTS);
        // The common keys: the input, valid and line, in every result.
        for line in &lines {
            for key in ["input", "valid", "line"] {
                assert!(line.get(key).is_some(), "{args:?}: {line}");
            }
        }
    }
    // Arguments, too.
    validate("parse", &["parse", "--json", "http://a/", "b c"], b"");
    validate(
        "compare",
        &["compare", "--json", "http://a/", "HTTP://a/"],
        b"",
    );
    validate(
        "compare",
        &["compare", "--json", "http://a/", "http://b/"],
        b"",
    );
}

/// `iri tree --json` and `iri tree --trace --json`: valid, invalid and
/// not-UTF-8 inputs, the built-in grammar and a --grammar file, both
/// trace modes, a cut trace.
/// What other readers read: `check --json`'s reading findings (and
/// allowed hosts) and `parse --readings --json`, on inputs of every class.
#[test]
fn readings_match_their_schemas() {
    let inputs: &[u8] = b"http://0x7f.1/a/%2e%2e/b\nhttp://a.b.c.1.2.3.4/\nhttp://evil.com%2f@good.com/\n//0x7f.1/\nhttp://%6c%6fcalhost/\nmailto:a@b\nhttp://a b\nhttp://[::1]/\n";
    validate("check", &["check", "--json"], inputs);
    validate("parse", &["parse", "--readings", "--json"], inputs);
    let list = std::env::temp_dir().join(format!("iribis-schema-allowed-{}", std::process::id()));
    std::fs::write(&list, "good.com\n").unwrap();
    let lines = validate(
        "check",
        &["check", "--json", "--allowed-hosts", list.to_str().unwrap()],
        inputs,
    );
    std::fs::remove_file(&list).unwrap();
    assert!(lines.iter().any(|l| {
        l["violations"]
            .as_array()
            .unwrap()
            .iter()
            .any(|v| v["code"] == "HOST_NOT_ALLOWED")
    }));
}

#[test]
fn tree_and_trace_match_their_schemas() {
    let dir = std::env::temp_dir().join(format!("iri-schema-tree-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let g = dir.join("copy.pest");
    let builtin = iri(&["grammar", "show"], b"");
    std::fs::write(&g, &builtin.stdout).unwrap();
    let g = g.to_str().unwrap();
    for input in [
        "http://a/%7e",
        "http://[x",
        "",
        "../c?d#e",
        "http://\u{e9}.org/",
    ] {
        validate("tree", &["tree", "--json", input], b"");
        validate("tree", &["tree", "--json", "--grammar", g, input], b"");
        validate("tree-trace", &["tree", "--trace", "--json", input], b"");
        validate(
            "tree-trace",
            &["tree", "--trace=won", "--json", "--grammar", g, input],
            b"",
        );
    }
    let cut = validate(
        "tree-trace",
        &[
            "tree",
            "--trace",
            "--json",
            "--max-events",
            "3",
            "http://a/",
        ],
        b"",
    );
    assert_eq!(cut[0]["truncated"], true);
    assert_eq!(cut[0]["events"].as_array().unwrap().len(), 3);
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let arg = std::ffi::OsStr::from_bytes(b"http://\xffb/");
        for (name, flags) in [
            ("tree", &["tree", "--json"][..]),
            ("tree-trace", &["tree", "--json", "--trace"][..]),
        ] {
            let o = std::process::Command::new(env!("CARGO_BIN_EXE_iri"))
                .args(flags)
                .arg(arg)
                .output()
                .unwrap();
            assert_eq!(o.status.code(), Some(1));
            let v: Value = serde_json::from_slice(&o.stdout).unwrap();
            assert!(validator(name).is_valid(&v), "{v}");
            assert_eq!(v["error"]["component"], "input");
        }
    }
    // The schemas reject a node or an event that lost a key, and an alt
    // event without its index.
    let tree = validator("tree");
    assert!(!tree.is_valid(&serde_json::json!({"input": "a", "rule": "r", "valid": true})));
    let trace = validator("tree-trace");
    let alt = serde_json::json!({"depth": 1, "kind": "alt", "rule": "r", "of": 2, "expr": "a", "start": 0, "start_char": 0, "end": 1, "end_char": 1, "matched": true, "undone": false, "won": true, "lookahead": false});
    let whole = |e: Value| serde_json::json!({"input": "a", "rule": "r", "valid": true, "mode": "all", "max_events": 9, "truncated": false, "events": [e]});
    assert!(!trace.is_valid(&whole(alt.clone())));
    let mut fixed = alt;
    fixed["alt"] = 1.into();
    assert!(trace.is_valid(&whole(fixed)));
    std::fs::remove_dir_all(&dir).ok();
}

/// A schema that accepts anything proves nothing: each rejects the others'
/// results and a broken error object.
#[test]
fn schemas_reject_what_they_should() {
    let v = validator("to-uri");
    assert!(v.is_valid(&serde_json::json!({"input": "a", "valid": true, "uri": "a", "line": 1})));
    assert!(!v.is_valid(&serde_json::json!({"input": "a", "valid": true, "line": 1})));
    assert!(!v.is_valid(&serde_json::json!({"input": "a", "valid": false, "line": 1})));
    let error = serde_json::json!({"byte": 0, "char": 0, "message": "m", "component": "host", "expected": [], "spec": "s"});
    assert!(
        v.is_valid(&serde_json::json!({"input": "a", "valid": false, "error": error, "line": 1}))
    );
    let mut broken = error.clone();
    broken.as_object_mut().unwrap().remove("char");
    assert!(
        !v.is_valid(&serde_json::json!({"input": "a", "valid": false, "error": broken, "line": 1}))
    );
    let resolve = validator("resolve");
    assert!(
        !resolve.is_valid(&serde_json::json!({"input": "a", "valid": true, "uri": "a", "line": 1}))
    );
}

#[test]
fn one_error_object_in_every_schema() {
    let names = [
        "parse",
        "check",
        "to-uri",
        "to-iri",
        "normalize",
        "resolve",
        "relativize",
        "compare",
        "tree",
        "tree-trace",
    ];
    let first = schema("parse")["$defs"]["error"].clone();
    assert!(first.is_object());
    for name in names {
        assert_eq!(schema(name)["$defs"]["error"], first, "{name}");
    }
}

#[test]
fn completions_and_man_page() {
    for (shell, mark) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef iri"),
        ("fish", "complete -c iri"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let o = iri(&["completions", shell], b"");
        assert_eq!(o.status.code(), Some(0), "{shell}");
        let script = String::from_utf8(o.stdout).unwrap();
        assert!(script.contains(mark), "{shell}");
        assert!(script.contains("only-invalid"), "{shell}");
    }
    let o = iri(&["man"], b"");
    assert_eq!(o.status.code(), Some(0));
    let page = String::from_utf8(o.stdout).unwrap();
    assert!(page.contains(".TH iri 1"), "{page}");
    assert!(page.contains("check"), "{page}");
    assert_eq!(iri(&["completions", "tcsh"], b"").status.code(), Some(2));
}
