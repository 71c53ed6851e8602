//! `iri to-iri --decode-all` and `iri to-uri --idna`: the command's flags
//! for the conversions (the conversions themselves: tests/operations/convert.rs).

/// `iri to-iri --decode-all` (3987bis §4.2 step 4 without §5.1's advice),
/// and `iri to-uri --idna` naming the label IDNA rejects (§3.4.2).
#[test]
fn cli_flags() {
    let run = |args: &[&str]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_iri"))
            .args(args)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8(o.stdout).unwrap().trim_end().to_owned(),
        )
    };
    let uri = "http://h/%EF%BC%A1%E2%80%8D%C3%A9";
    assert_eq!(
        run(&["to-iri", uri]),
        (Some(0), "http://h/%EF%BC%A1%E2%80%8Dé".into())
    );
    assert_eq!(
        run(&["to-iri", "--decode-all", uri]),
        (Some(0), "http://h/Ａ\u{200D}é".into())
    );
    let (code, out) = run(&["to-iri", "--explain", uri]);
    assert_eq!(code, Some(0));
    assert!(out.contains("http://h/%EF%BC%A1%E2%80%8Dé"), "{out}");
    let (code, out) = run(&["to-uri", "--idna", "--json", "http://é!.org/"]);
    assert_eq!(code, Some(1));
    assert!(
        out.contains("\\\"é!\\\"") && out.contains("UseSTD3ASCIIRules"),
        "{out}"
    );
    assert_eq!(
        run(&["to-uri", "--idna", "http://é%41.org/"]),
        (Some(0), "http://xn--a-9fa.org/".into())
    );
}
