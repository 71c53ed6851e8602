//! `iri grammar ...`: runtime grammars on the command line, the edit-check
//! loop, and the built-in ABNF outside the repository (the lab itself:
//! crates/lab/tests/lab/grammar_lab.rs).

use std::process::{Command, Output};

use iribis_lab::PestGrammar;

use iribis::Profile;

fn iri(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_iri"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn cli() {
    // show: the built-in grammar, which runs as it is.
    let o = iri(&["grammar", "show", "--profile", "leiri"]);
    assert_eq!(o.status.code(), Some(0));
    let dir = std::env::temp_dir().join(format!("iribis-lab-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let shown = dir.join("leiri.pest");
    std::fs::write(&shown, stdout(&o)).unwrap();
    let path = shown.to_str().unwrap();
    let o = iri(&[
        "parse",
        "--grammar",
        path,
        "--json",
        "http://a b/",
        "http://[::1",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["valid"], true);
    assert_eq!(lines[1]["valid"], false);
    assert_eq!(lines[1]["error"]["char"], 11);
    let o = iri(&["tree", "--grammar", path, "--rule", "ihost", "[::1]"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).starts_with("ihost 0..5 \"[::1]\"\n  IP-literal 0..5"),
        "{}",
        stdout(&o)
    );

    // diff: exit 0 without differences, 1 with, JSON with every input.
    assert_eq!(
        iri(&["grammar", "diff", path, "--profile", "leiri", "--trees"])
            .status
            .code(),
        Some(0)
    );
    let o = iri(&["grammar", "diff", path, "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["base"]["grammar"], "built-in rfc3987bis");
    assert_eq!(v["kinds"][0]["kind"], "now-accepted");
    assert_eq!(v["differing"], v["differences"].as_array().unwrap().len());
    // LEIRIs are a superset: every difference is an input leiri accepts.
    assert!(
        v["differences"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["kind"] == "now-accepted")
    );

    // Grammar errors: file, line and column, exit 2.
    let bad = dir.join("bad.pest");
    std::fs::write(&bad, "a = { b }\n").unwrap();
    let o = iri(&["parse", "--grammar", bad.to_str().unwrap(), "x"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("{}:1:7", bad.display())) && err.contains("rule b is undefined"),
        "{err}"
    );
    let o = iri(&["parse", "--grammar", path, "--rule", "nope", "x"]);
    assert_eq!(o.status.code(), Some(2));

    // check: 0 for the built-in grammar; from-abnf output compiles.
    assert_eq!(
        iri(&["grammar", "check", "--profile", "rfc3986"])
            .status
            .code(),
        Some(0)
    );
    let abnf = concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
        "/grammar/abnf/rfc3986.abnf"
    );
    let o = iri(&["grammar", "from-abnf", abnf]);
    assert_eq!(o.status.code(), Some(0));
    PestGrammar::parse(&stdout(&o), "out.pest").unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runtime grammars are first-class in the CLI, and the loop.
#[test]
fn runtime_grammars_and_the_loop() {
    let dir = std::env::temp_dir().join(format!("iribis-lab20-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let g = dir.join("g.pest");
    std::fs::write(&g, PestGrammar::builtin_source(Profile::Rfc3987bis)).unwrap();
    let g = g.to_str().unwrap();
    // The built-in grammar's explanation, components and spelling.
    let o = iri(&[
        "parse",
        "--grammar",
        g,
        "--json",
        "http://[::1%25eth0]/",
        "http://a:8/p",
    ]);
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["error"]["component"], "host");
    assert!(
        lines[0]["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("'%' is not allowed in an IP literal")
    );
    assert_eq!(lines[1]["rule"], "IRI-reference");
    assert_eq!(lines[1]["port"], "8");
    assert_eq!(lines[1]["host_type"], "reg-name");
    // Did you mean.
    let o = iri(&["tree", "--grammar", g, "--rule", "ip-litral", "[::1]"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("did you mean IP-literal?"));
    let o = iri(&["tree", "--rule", "ip-litral", "[::1]"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("did you mean IP-literal?"));
    // tree --json, both grammars alike.
    let a = iri(&["tree", "--json", "--rule", "IP-literal", "[::1]"]);
    let b = iri(&[
        "tree",
        "--json",
        "--grammar",
        g,
        "--rule",
        "ip_literal",
        "[::1]",
    ]);
    assert_eq!(stdout(&a), stdout(&b));
    let v: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(v["nodes"][1]["rule"], "IPv6address");
    assert_eq!(v["nodes"][1]["text"], "::1");
    // watch: one run, then exit with the run's status.
    let tiny = dir.join("tiny.pest");
    std::fs::write(&tiny, "port = { ASCII_DIGIT* }\n").unwrap();
    let abnf = dir.join("tiny.abnf");
    std::fs::write(&abnf, "port = *%x30-39\n").unwrap();
    let corpus = dir.join("corpus.txt");
    std::fs::write(&corpus, "80\nx\n").unwrap();
    let o = iri(&[
        "grammar",
        "watch",
        tiny.to_str().unwrap(),
        corpus.to_str().unwrap(),
        "--abnf",
        abnf.to_str().unwrap(),
        "--rule",
        "port",
        "--max-runs",
        "1",
    ]);
    let out = stdout(&o);
    assert!(out.starts_with("== run 1: "), "{out}");
    assert!(out.contains("port  proven"), "{out}");
    // The diff compares trees: the built-in port has DIGIT nodes, this one
    // none; "x" is rejected by both.
    assert!(out.contains("2 inputs, 1 differ"), "{out}");
    assert!(out.contains("tree-changed (1)"), "{out}");
    assert!(
        out.ends_with("== FAILED; watching 3 files (Ctrl-C to stop)\n"),
        "{out}"
    );
    assert_eq!(o.status.code(), Some(1), "{out}");
    // Zero rules compared is a failure.
    let other = dir.join("other.abnf");
    std::fs::write(&other, "q = %x30\n").unwrap();
    let o = iri(&[
        "grammar",
        "check",
        "--grammar",
        tiny.to_str().unwrap(),
        "--abnf",
        other.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `iri` run in `dir`, a directory outside the repository: no
/// `grammar/abnf/` to read there.
fn iri_in(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_iri"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// `grammar from-abnf` without files (or with `--builtin P`) transcribes
/// the built-in ABNF, and `grammar show --abnf` prints it, from a directory
/// that is not the repository; the files' invocation still works.
#[test]
fn builtin_abnf_outside_the_repository() {
    let dir = std::env::temp_dir().join(format!("iribis-builtin-abnf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    assert!(!dir.join("grammar/abnf").exists());

    // No files: the built-in ABNF of rfc3987bis, the lab's own transcription
    // of it.
    let o = iri_in(&dir, &["grammar", "from-abnf"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let abnf = iribis_lab::abnf::Grammar::profile("rfc3987bis").unwrap();
    assert_eq!(stdout(&o), iribis_lab::from_abnf(&abnf).unwrap());
    PestGrammar::parse(&stdout(&o), "out.pest").unwrap();
    for profile in ["rfc3987bis", "rfc3987", "rfc3986", "leiri"] {
        let o = iri_in(&dir, &["grammar", "from-abnf", "--builtin", profile]);
        assert_eq!(o.status.code(), Some(0), "{profile}: {o:?}");
        let abnf = iribis_lab::abnf::Grammar::profile(profile).unwrap();
        assert_eq!(
            stdout(&o),
            iribis_lab::from_abnf(&abnf).unwrap(),
            "{profile}"
        );
    }
    // --builtin and files: the files after it, their rules replacing.
    std::fs::write(
        dir.join("zone.abnf"),
        "IP-literal = \"[\" ( IPv6address / IPv6addrz / IPvFuture ) \"]\"\n\
         IPv6addrz = IPv6address \"%25\" ZoneID\n\
         ZoneID = 1*( unreserved / pct-encoded )\n",
    )
    .unwrap();
    let o = iri_in(
        &dir,
        &[
            "grammar",
            "from-abnf",
            "--builtin",
            "rfc3987bis",
            "zone.abnf",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let text = stdout(&o);
    assert!(
        text.contains(
            "// (from zone.abnf)\n// PEG: alternatives 1 and 2 can both start with \"0\""
        ),
        "{text}"
    );
    assert!(
        text.contains("IPv6addrz = { IPv6address ~ \"%25\" ~ ZoneID }"),
        "{text}"
    );
    // Files alone: as before (zone.abnf alone uses rules it does not define).
    let o = iri_in(&dir, &["grammar", "from-abnf", "zone.abnf"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("which no rule defines"));
    let o = iri_in(&dir, &["grammar", "from-abnf", "--builtin", "rfc9999"]);
    assert_eq!(o.status.code(), Some(2));

    // show --abnf: each file of the profile, in load order, under its name.
    for (profile, files) in iribis::grammar::ABNF_PROFILES {
        let o = iri_in(&dir, &["grammar", "show", "--abnf", "--profile", profile]);
        assert_eq!(o.status.code(), Some(0), "{profile}: {o:?}");
        let text = stdout(&o);
        assert!(text.starts_with(&format!(
            "; The built-in ABNF of iribis, profile {profile}:"
        )));
        let mut rest = text.as_str();
        for name in *files {
            let head = format!("\n; ======== grammar/abnf/{name} ========\n\n");
            let at = rest
                .find(&head)
                .unwrap_or_else(|| panic!("{profile}: {name}"));
            rest = &rest[at + head.len()..];
            assert!(
                rest.starts_with(iribis::grammar::abnf_file(name).unwrap()),
                "{profile}: {name}"
            );
        }
    }
    // Without --abnf, the pest grammar as before.
    let o = iri_in(&dir, &["grammar", "show"]);
    assert_eq!(stdout(&o), PestGrammar::builtin_source(Profile::Rfc3987bis));
    std::fs::remove_dir_all(&dir).unwrap();
}
