//! Host spoofing through the command: the explanations pinned,
//! `iri check --protected-domains`, and `iri to-iri` keeping spoofable
//! labels in punycode (the checks themselves: tests/checker/spoof.rs).

use crate::common;
use iribis::check::Code;

/// The explanation of every host spoofing code, as `iri check --explain`
/// prints it.
#[test]
fn explanations() {
    let mut out = String::new();
    for code in Code::ALL.iter().filter(|c| c.name().starts_with("HOST_")) {
        let o = common::run_iri(&["check", "--explain", code.name()], b"");
        assert_eq!(o.status.code(), Some(0));
        out.push_str(&String::from_utf8(o.stdout).unwrap());
        out.push('\n');
    }
    common::settings().bind(|| insta::assert_snapshot!(out));
}

/// `iri check --protected-domains FILE`: findings, JSON, exit status.
#[test]
fn protected_domains_cli() {
    let dir = std::env::temp_dir().join(format!("iribis-spoof-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let list = dir.join("protected.txt");
    std::fs::write(&list, "# mine\npaypal.com\n\ngoogle.com\n").unwrap();
    let list = list.to_str().unwrap();
    let look = "http://p\u{430}ypal.com/login";
    // A warning by default: exit 0, the finding in the JSON.
    let o = common::run_iri(&["check", "--json", "--protected-domains", list, look], b"");
    assert_eq!(o.status.code(), Some(0));
    let v = &common::json_lines(&o)[0];
    let codes: Vec<&str> = v["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"HOST_PROTECTED_LOOKALIKE"), "{codes:?}");
    let f = v["violations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "HOST_PROTECTED_LOOKALIKE")
        .unwrap();
    assert_eq!(
        (
            f["char"].as_u64(),
            f["len"].as_u64(),
            f["component"].as_str()
        ),
        (Some(7), Some(10), Some("host"))
    );
    assert_eq!(v["valid"], serde_json::Value::Bool(true));
    // An error under strict, or denied: exit 1.
    for extra in [
        &["--severities", "strict"][..],
        &["--deny", "HOST_PROTECTED_LOOKALIKE"][..],
    ] {
        let mut args = vec!["check", "--protected-domains", list];
        args.extend_from_slice(extra);
        args.push(look);
        assert_eq!(
            common::run_iri(&args, b"").status.code(),
            Some(1),
            "{extra:?}"
        );
    }
    // The listed domain and its subdomains are fine.
    for ok in [
        "http://paypal.com/",
        "https://www.paypal.com/",
        "http://googles.com/",
    ] {
        let o = common::run_iri(
            &[
                "check",
                "--deny",
                "HOST_PROTECTED_LOOKALIKE",
                "--protected-domains",
                list,
                ok,
            ],
            b"",
        );
        assert_eq!(o.status.code(), Some(0), "{ok}");
    }
    // Without the list, no such finding.
    let o = common::run_iri(&["check", "--deny", "HOST_PROTECTED_LOOKALIKE", look], b"");
    assert_eq!(o.status.code(), Some(0));
    // A missing file or a line that is no domain: a usage error, exit 2.
    let o = common::run_iri(
        &["check", "--protected-domains", "/nonexistent/list", look],
        b"",
    );
    assert_eq!(o.status.code(), Some(2));
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "paypal.com\na..b\n").unwrap();
    let o = common::run_iri(
        &["check", "--protected-domains", bad.to_str().unwrap(), look],
        b"",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("line 2"),
        "{o:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `iri to-iri`: a label that fails the checks stays in punycode, the
/// explanation says why, `--decode-spoofable` decodes it.
#[test]
fn to_iri_keeps_spoofable_labels() {
    let run = |args: &[&str]| {
        let o = common::run_iri(args, b"");
        assert_eq!(o.status.code(), Some(0), "{o:?}");
        String::from_utf8(o.stdout).unwrap()
    };
    assert_eq!(
        run(&["to-iri", "http://xn--gogle-lkg.com/"]),
        "http://xn--gogle-lkg.com/\n"
    );
    assert_eq!(
        run(&["to-iri", "--decode-spoofable", "http://xn--gogle-lkg.com/"]),
        "http://g\u{585}ogle.com/\n"
    );
    assert_eq!(
        run(&["to-iri", "http://xn--e1argc3h.xn--p1ai/"]),
        "http://\u{455}\u{441}\u{43E}\u{440}\u{435}.\u{440}\u{444}/\n"
    );
    // Only the failing label stays encoded.
    assert_eq!(
        run(&["to-iri", "http://xn--googl-3we.xn--3e0b707e/"]),
        "http://xn--googl-3we.\u{D55C}\u{AD6D}/\n"
    );
    let explain = run(&["to-iri", "--explain", "http://xn--gogle-lkg.com/"]);
    assert!(
        explain.contains("note: xn--gogle-lkg (g\u{585}ogle) kept in punycode")
            && explain.contains("HOST_MIXED_SCRIPTS"),
        "{explain}"
    );
    let json = run(&["to-iri", "--json", "--explain", "http://xn--gogle-lkg.com/"]);
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert!(
        v["steps"][6]["notes"][0]
            .as_str()
            .unwrap()
            .contains("HOST_MIXED_SCRIPTS")
    );
    assert!(v["steps"][5].get("notes").is_none());
}
