//! `iri check --allowed-hosts` and `iri parse --readings` (what other
//! readers read, in the library: tests/checker/readings.rs).

use crate::common;

/// `iri check --allowed-hosts FILE`: an error naming the reader when any
/// reading's host is outside the list; the JSON keys of a reading finding.
#[test]
fn allowed_hosts_cli() {
    let dir = std::env::temp_dir().join(format!("iribis-readings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let list = dir.join("allowed.txt");
    std::fs::write(&list, "# ours\ngood.example\n*.cdn.example\n127.0.0.1\n").unwrap();
    let list = list.to_str().unwrap();
    let run = |input: &str| {
        let o = common::run_iri(&["check", "--json", "--allowed-hosts", list, input], b"");
        (o.status.code(), common::json_lines(&o).remove(0))
    };
    for ok in [
        "https://good.example/a",
        "https://GOOD.example./a",
        "https://img.cdn.example/x.png",
        "http://127.0.0.1:8080/",
        "mailto:someone@elsewhere.example",
    ] {
        let (status, v) = run(ok);
        assert_eq!(status, Some(0), "{ok}: {v}");
    }
    for (bad, host, readers) in [
        (
            "https://evil.example/",
            "evil.example",
            vec!["rfc3987bis", "whatwg"],
        ),
        (
            "https://cdn.example/",
            "cdn.example",
            vec!["rfc3987bis", "whatwg"],
        ),
        (
            "http://evil.example%2f@good.example/",
            "evil.example",
            vec!["decoded"],
        ),
        ("http://0x7f.1/", "0x7f.1", vec!["rfc3987bis"]),
        ("http:evil.example/", "evil.example", vec!["whatwg"]),
    ] {
        let (status, v) = run(bad);
        assert_eq!(status, Some(1), "{bad}: {v}");
        let f = v["violations"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["code"] == "HOST_NOT_ALLOWED" && f["reached"] == host)
            .unwrap_or_else(|| panic!("{bad}: {v}"));
        let got: Vec<&str> = f["readers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        assert_eq!(got, readers, "{bad}");
        assert_eq!(f["severity"], "error");
    }
    // 0x7f.1 reaches 127.0.0.1 (allowed) in browsers, but its 3987bis host
    // is not listed; a reading finding carries what browsers read.
    let (_, v) = run("http://0x7f.1/");
    let f = v["violations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "READING_HOST_DIFFERS")
        .unwrap();
    assert_eq!(f["whatwg"]["host"], "127.0.0.1");
    assert_eq!(f["whatwg"]["path"], "/");
    assert_eq!(f["address_class"], "loopback");
    assert_eq!(f["readers"], serde_json::json!(["whatwg", "inet_aton"]));
    // A rejection: whatwg is null.
    let o = common::run_iri(&["check", "--json", "http://a.b.c.1.2.3.4/"], b"");
    let v = &common::json_lines(&o)[0];
    let f = &v["violations"][0];
    assert_eq!(
        (f["code"].as_str(), f["whatwg"].is_null()),
        (Some("READING_REJECTED"), true)
    );
    // A line that is no host: a usage error naming it.
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "good.example\nhttp://x/\n").unwrap();
    let o = common::run_iri(
        &[
            "check",
            "--allowed-hosts",
            bad.to_str().unwrap(),
            "http://a/",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("line 2"),
        "{o:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `iri parse --readings`: the side-by-side table and its JSON.
#[test]
fn parse_readings_cli() {
    let o = common::run_iri(
        &[
            "parse",
            "--readings",
            "http://0x7f.1/a/%2e%2e/b?q",
            "http://evil.com%2f@good.com/",
            "http://a.b.c.1.2.3.4/",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8(o.stdout).unwrap();
    common::settings().bind(|| insta::assert_snapshot!(out));
    let o = common::run_iri(
        &["parse", "--readings", "--json", "http://0x7f.1/a/%2e%2e/b"],
        b"",
    );
    let v = &common::json_lines(&o)[0];
    assert_eq!(v["host"], "0x7f.1");
    assert_eq!(v["readings"]["whatwg"]["host"], "127.0.0.1");
    assert_eq!(v["readings"]["whatwg"]["path"], "/b");
    assert_eq!(v["readings"]["inet_aton"]["address_class"], "loopback");
    assert!(v["readings"]["decoded"].is_null());
    let codes: Vec<&str> = v["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(
        codes,
        ["READING_HOST_DIFFERS", "READING_ENCODED_DOT_SEGMENT"]
    );
    let o = common::run_iri(
        &["parse", "--readings", "--json", "http://a.b.c.1.2.3.4/"],
        b"",
    );
    let v = &common::json_lines(&o)[0];
    assert_eq!(v["readings"]["whatwg"]["error"], "invalid IPv4 address");
    // Without --readings, parse --json is as it was.
    let o = common::run_iri(&["parse", "--json", "http://0x7f.1/"], b"");
    assert!(common::json_lines(&o)[0].get("readings").is_none());
}

/// `iri check` reports what `iri parse --readings` reports: a LEIRI's
/// backslash in the userinfo (browsers read it as a slash and go to
/// evil.com), with LEIRI_ONLY_CHARACTER allowed, and a host browsers map
/// with UTS #46 (3987bis's lookup, RFC 5891's, refuses it), with the class
/// of what browsers reach.
#[test]
fn check_reports_what_parse_readings_reports() {
    for (args, input, reached, class) in [
        (
            &["--profile", "leiri", "--allow", "LEIRI_ONLY_CHARACTER"][..],
            "http://evil.com\\@good.com/",
            "evil.com",
            None,
        ),
        (
            &[][..],
            "http://ｌｏｃａｌｈｏｓｔ/",
            "localhost",
            Some("loopback"),
        ),
        (&[][..], "http://example。com/", "example.com", None),
    ] {
        let mut check_args = vec!["check", "--json"];
        check_args.extend_from_slice(args);
        check_args.push(input);
        let o = common::run_iri(&check_args, b"");
        assert_eq!(o.status.code(), Some(1), "{input}");
        let v = common::json_lines(&o).remove(0);
        let found: Vec<&serde_json::Value> = v["violations"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["code"].as_str().unwrap().starts_with("READING_"))
            .collect();
        let host = found
            .iter()
            .find(|f| f["code"] == "READING_HOST_DIFFERS")
            .unwrap_or_else(|| panic!("{input}: {v}"));
        assert_eq!(host["reached"], reached, "{input}");
        assert_eq!(host["address_class"].as_str(), class, "{input}");
        let from_check: Vec<&str> = found.iter().map(|f| f["code"].as_str().unwrap()).collect();
        let mut parse_args = vec!["parse", "--readings", "--json"];
        parse_args.extend(args.iter().take(2));
        parse_args.push(input);
        let o = common::run_iri(&parse_args, b"");
        let p = common::json_lines(&o).remove(0);
        let codes: Vec<&str> = p["differences"]
            .as_array()
            .unwrap_or_else(|| panic!("{input}: {p}"))
            .iter()
            .map(|d| d["code"].as_str().unwrap())
            .collect();
        assert_eq!(codes, from_check, "{input}: {p}");
    }
}
