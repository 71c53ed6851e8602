//! The grammar lab (`iribis_lab`, `iri grammar ...`): the built-in pest
//! grammars checked against the spec's ABNF, diffs of modified grammars over
//! the default corpus, the ABNF-to-pest transcription; reports pinned by
//! snapshots.

use iribis_testkit as common;

use std::time::Instant;

use iribis_lab::abnf::Grammar;

use iribis_lab::{self as lab, DiffKind, PestGrammar, Scan, Side, Status};

use iribis::Profile;

/// The built-in grammar of `profile` with one exact piece of text replaced.
fn edited(profile: Profile, from: &str, to: &str) -> PestGrammar {
    let text = PestGrammar::builtin_source(profile);
    assert!(
        text.contains(from),
        "{from:?} is not in the built-in grammar"
    );
    PestGrammar::parse(&text.replacen(from, to, 1), "edited.pest").unwrap()
}

/// Whether the transcription of `rule`, or of a rule it uses, has a
/// `// PEG:` comment.
fn flagged_or_uses_flagged(text: &str, abnf: &Grammar, rule: &str) -> bool {
    fn refs(n: &iribis_lab::abnf::Node, out: &mut Vec<String>) {
        use iribis_lab::abnf::Node;
        match n {
            Node::Alternation(v) | Node::Concatenation(v) => v.iter().for_each(|n| refs(n, out)),
            Node::Repetition { node, .. } => refs(node, out),
            Node::Rule(r) => out.push(r.to_ascii_lowercase()),
            _ => {}
        }
    }
    let flagged = |r: &str| {
        let head = format!("/// {} = ", abnf.get(r).map_or(r, |x| x.name.as_str()));
        text.split("\n\n")
            .any(|block| block.starts_with(&head) && block.contains("// PEG:"))
    };
    let mut seen = vec![rule.to_ascii_lowercase()];
    let mut i = 0;
    while i < seen.len() {
        if flagged(&seen[i]) {
            return true;
        }
        if let Some(r) = abnf.get(&seen[i].clone()) {
            let mut out = Vec::new();
            refs(&r.node, &mut out);
            for x in out {
                if !seen.contains(&x) {
                    seen.push(x);
                }
            }
        }
        i += 1;
    }
    false
}

#[test]
fn builtin_grammars_pass_the_check() {
    for profile in Profile::ALL {
        let t = Instant::now();
        let (abnf, printed) = lab::check_abnf(profile).unwrap();
        let report = lab::check(
            &abnf,
            &PestGrammar::builtin(profile),
            Some(&printed),
            Scan::Classes,
        )
        .unwrap();
        eprintln!("check {profile}: {:?}", t.elapsed());
        assert!(report.passed(), "{report}");
        // The erratum is listed, not hidden.
        if profile != Profile::Rfc3986 {
            let ireg = report.rows.iter().find(|r| r.rule == "ireg-name").unwrap();
            assert_eq!(ireg.status, Status::Erratum, "{report}");
        }
        common::settings().bind(|| {
            insta::assert_snapshot!(format!("check_{profile}"), report.to_string());
        });
    }
}

/// The class scan stands for running pest_vm on every code point: both must
/// give the same verdicts. Run on three rules (the two large sets of the
/// default profile, and sub-delims checked against a wrong ABNF, so that
/// the scans must agree on differences too) to keep the exhaustive scan,
/// 1,112,064 pest_vm runs, to seconds in a debug build.
#[test]
fn exhaustive_scan_agrees_with_the_class_scan() {
    let full = Grammar::profile("rfc3987bis").unwrap();
    // The two rules as printed.
    let bis = iribis_lab::abnf::builtin_file("3987bis.abnf").unwrap();
    let rules: String = bis
        .split("\n\n")
        .filter(|block| block.starts_with("ucschar") || block.starts_with("iprivate"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut abnf = Grammar::parse(&rules, "3987bis.abnf").unwrap();
    for r in ["ucschar", "iprivate"] {
        assert_eq!(abnf.get(r).unwrap().node, full.get(r).unwrap().node);
    }
    abnf.add("sub-delims = \"!\" / \"$\" / %x80-10FFFF\n", "test.abnf")
        .unwrap();
    let pest = PestGrammar::builtin(Profile::Rfc3987bis);
    let t = Instant::now();
    let classes = lab::check(&abnf, &pest, None, Scan::Classes).unwrap();
    let by_class = t.elapsed();
    let t = Instant::now();
    let every = lab::check(&abnf, &pest, None, Scan::Exhaustive).unwrap();
    eprintln!(
        "3 rules: class scan {by_class:?}, exhaustive scan {:?}",
        t.elapsed()
    );
    assert_eq!(classes.rows, every.rows);
    let row = |rule: &str| {
        classes
            .rows
            .iter()
            .find(|r| r.rule == rule)
            .unwrap()
            .clone()
    };
    assert_eq!(row("ucschar").status, Status::Proven);
    assert_eq!(row("iprivate").status, Status::Proven);
    let sub = row("sub-delims");
    assert_eq!(sub.status, Status::Differs);
    assert_eq!(
        sub.detail,
        "pest accepts 9 the ABNF does not (U+0026..U+002C, U+003B, U+003D); pest rejects 1111936 the ABNF accepts (U+0080..U+10FFFF)"
    );
    assert!(classes.scan.contains("classes"), "{}", classes.scan);
    assert_eq!(every.scan, "every code point, one pest_vm run each");
}

#[test]
fn check_finds_what_is_wrong() {
    let (abnf, printed) = lab::check_abnf(Profile::Rfc3987bis).unwrap();
    let row = |g: &PestGrammar, rule: &str| {
        let report = lab::check(&abnf, g, Some(&printed), Scan::Classes).unwrap();
        assert!(!report.passed());
        report.rows.into_iter().find(|r| r.rule == rule).unwrap()
    };
    // A range one off.
    let g = edited(
        Profile::Rfc3987bis,
        "'\\u{A0}'..'\\u{D7FF}'",
        "'\\u{A1}'..'\\u{D7FF}'",
    );
    let r = row(&g, "ucschar");
    assert_eq!(
        (r.status, r.detail.as_str()),
        (Status::Differs, "pest rejects 1 the ABNF accepts (U+00A0)")
    );
    // The ABNF's order of dec-octet in a PEG.
    let g = edited(
        Profile::Rfc3987bis,
        "dec_octet = {\n    \"25\" ~ '\\u{30}'..'\\u{35}'\n  | \"2\" ~ '\\u{30}'..'\\u{34}' ~ DIGIT\n  | \"1\" ~ DIGIT{2}\n  | '\\u{31}'..'\\u{39}' ~ DIGIT\n  | DIGIT\n}",
        "dec_octet = { DIGIT | '\\u{31}'..'\\u{39}' ~ DIGIT | \"1\" ~ DIGIT{2} | \"2\" ~ '\\u{30}'..'\\u{34}' ~ DIGIT | \"25\" ~ '\\u{30}'..'\\u{35}' }",
    );
    let r = row(&g, "dec-octet");
    assert_eq!(r.status, Status::Differs, "{}", r.detail);
    assert!(
        r.strings
            .iter()
            .any(|t| t.text == "10" && !t.pest && t.abnf),
        "{}",
        r.detail
    );
    // The printed ireg-name instead of the erratum's.
    let g = edited(
        Profile::Rfc3987bis,
        "ireg_name = { (iunreserved | pct_form | sub_delims)* }",
        "ireg_name = { (iunreserved | sub_delims)* }",
    );
    let r = row(&g, "ireg-name");
    assert_eq!(r.status, Status::Differs, "{}", r.detail);
    assert!(
        r.detail
            .starts_with("departs from the rule printed in 3987bis.abnf"),
        "{}",
        r.detail
    );
    // A rule renamed: the ABNF's is missing, the new one is extra.
    let g = edited(
        Profile::Rfc3987bis,
        "path_sep = { \"/\" }",
        "path_sep = { slash }\nslash = { \"/\" }",
    );
    let report = lab::check(&abnf, &g, Some(&printed), Scan::Classes).unwrap();
    assert!(report.passed(), "path-sep is still right");
    assert!(
        report
            .rows
            .iter()
            .any(|r| r.rule == "slash" && r.status == Status::Extra)
    );
    let g = PestGrammar::parse(
        &PestGrammar::builtin_source(Profile::Rfc3986)
            .replace("reserved = { gen_delims | sub_delims }", ""),
        "no-reserved.pest",
    )
    .unwrap();
    let (abnf, _) = lab::check_abnf(Profile::Rfc3986).unwrap();
    let report = lab::check(&abnf, &g, None, Scan::Classes).unwrap();
    let r = report.rows.iter().find(|r| r.rule == "reserved").unwrap();
    assert_eq!(
        (r.status, r.detail.as_str()),
        (Status::Missing, "no pest rule reserved")
    );
}

#[test]
fn diff_of_modified_grammars() {
    let base = PestGrammar::builtin(Profile::Rfc3987bis);
    let side = |g, name| Side {
        grammar: g,
        rule: "IRI_reference",
        name,
    };
    let corpus = || lab::default_corpus().map(String::from);
    let mut out = String::new();

    // The ireg-name erratum undone.
    let printed = edited(
        Profile::Rfc3987bis,
        "ireg_name = { (iunreserved | pct_form | sub_delims)* }",
        "ireg_name = { (iunreserved | sub_delims)* }",
    );
    let report = lab::diff(
        side(&base, "built-in"),
        side(&printed, "ireg-name-as-printed.pest"),
        corpus(),
        true,
    )
    .unwrap();
    assert!(
        report
            .differences
            .iter()
            .all(|d| d.kind == DiffKind::NowRejected)
    );
    assert!(
        report
            .differences
            .iter()
            .any(|d| d.input == "http://r%C3%A9sum%C3%A9.example.org")
    );
    out.push_str("## ireg-name as printed (no pct-form)\n");
    out.push_str(&report.render("built-in rfc3987bis", "ireg-name-as-printed.pest", 10));

    // RFC 6874 zone identifiers added.
    let zone = edited(
        Profile::Rfc3987bis,
        "IP_literal = { \"[\" ~ (IPv6address | IPvFuture) ~ \"]\" }",
        "IP_literal = { \"[\" ~ (IPv6addrz | IPv6address | IPvFuture) ~ \"]\" }\nIPv6addrz = { IPv6address ~ \"%25\" ~ ZoneID }\nZoneID = { (unreserved | pct_encoded)+ }",
    );
    let report = lab::diff(
        side(&base, "built-in"),
        side(&zone, "zone.pest"),
        corpus(),
        true,
    )
    .unwrap();
    let inputs: Vec<&str> = report
        .differences
        .iter()
        .map(|d| d.input.as_str())
        .collect();
    assert_eq!(
        inputs,
        [
            "http://[fe80::1%25eth0]/",
            "http://[fe80::a%25en1]:8080/p",
            "http://[::1%25lo%2F0]/"
        ]
    );
    out.push_str("\n## RFC 6874 zone identifiers\n");
    out.push_str(&report.render("built-in rfc3987bis", "zone.pest", 10));

    // dec-octet in the ABNF's order: a PEG takes "2" of "255" as a whole
    // dec-octet, and every address with a two- or three-digit octet breaks.
    let dec = edited(
        Profile::Rfc3987bis,
        "dec_octet = {\n    \"25\" ~ '\\u{30}'..'\\u{35}'\n  | \"2\" ~ '\\u{30}'..'\\u{34}' ~ DIGIT\n  | \"1\" ~ DIGIT{2}\n  | '\\u{31}'..'\\u{39}' ~ DIGIT\n  | DIGIT\n}",
        "dec_octet = { DIGIT | '\\u{31}'..'\\u{39}' ~ DIGIT | \"1\" ~ DIGIT{2} | \"2\" ~ '\\u{30}'..'\\u{34}' ~ DIGIT | \"25\" ~ '\\u{30}'..'\\u{35}' }",
    );
    let report = lab::diff(
        side(&base, "built-in"),
        side(&dec, "dec-octet.pest"),
        corpus(),
        true,
    )
    .unwrap();
    assert!(
        report
            .differences
            .iter()
            .any(|d| d.input == "http://[::ffff:1.2.3.4]/" || d.input.contains("192.0.2"))
    );
    out.push_str("\n## dec-octet in the ABNF's order\n");
    out.push_str(&report.render("built-in rfc3987bis", "dec-octet.pest", 4));

    // ls32 with its alternatives swapped (IPv4address first): at one
    // position they cannot both match, so nothing in the corpus changes and
    // the check passes either way.
    let ls32 = edited(
        Profile::Rfc3987bis,
        "ls32 = { h16 ~ \":\" ~ h16 | IPv4address }",
        "ls32 = { IPv4address | h16 ~ \":\" ~ h16 }",
    );
    let report = lab::diff(
        side(&base, "built-in"),
        side(&ls32, "ls32.pest"),
        corpus(),
        true,
    )
    .unwrap();
    assert!(report.differences.is_empty(), "{report:?}");
    let (abnf, printed) = lab::check_abnf(Profile::Rfc3987bis).unwrap();
    assert!(
        lab::check(&abnf, &ls32, Some(&printed), Scan::Classes)
            .unwrap()
            .passed()
    );

    // The same grammar: nothing differs, trees included.
    let report = lab::diff(
        side(&base, "built-in"),
        side(&PestGrammar::builtin(Profile::Rfc3987bis), "again"),
        corpus(),
        true,
    )
    .unwrap();
    assert!(report.differences.is_empty());
    assert_eq!(report.inputs, lab::default_corpus().count());

    common::settings().bind(|| insta::assert_snapshot!("diff_modified_grammars", out));
}

#[test]
fn from_abnf_output_compiles_and_is_checked() {
    let abnf = Grammar::profile("rfc3987bis").unwrap();
    let text = lab::from_abnf(&abnf).unwrap();
    let pest = PestGrammar::parse(&text, "from-abnf.pest").unwrap();
    // Against the same ABNF: the rules whose PEG ordering was flagged and
    // not fixed by hand show up as differing; the rest pass.
    let report = lab::check(&abnf, &pest, None, Scan::Classes).unwrap();
    for r in &report.rows {
        if r.status == Status::Differs {
            let pest_name = r.rule.replace('-', "_");
            assert!(
                flagged_or_uses_flagged(&text, &abnf, &r.rule),
                "{} differs but nothing flags it or a rule it uses\n{}",
                pest_name,
                r.detail
            );
        }
    }
    common::settings().bind(|| {
        insta::assert_snapshot!("from_abnf_3987bis", text);
        insta::assert_snapshot!("check_of_from_abnf_3987bis", report.to_string());
    });
}

/// The check holds both ways and names one root cause, on small
/// grammars (fast): a pest rule that accepts too much, one that accepts too
/// little through a PEG choice, and their users.
#[test]
fn check_both_ways_with_a_root_cause() {
    let abnf = Grammar::parse(
        "authority = host [ \":\" port ]\nhost = 1*ALPHA\nport = *DIGIT\nALPHA = %x41-5A / %x61-7A\nDIGIT = %x30-39\n",
        "mini.abnf",
    )
    .unwrap();
    let good = "authority = { host ~ (\":\" ~ port)? }\nhost = { ALPHA+ }\nport = { DIGIT* }\nALPHA = { 'A'..'Z' | 'a'..'z' }\nDIGIT = { '0'..'9' }\n";
    let report = lab::check(
        &abnf,
        &PestGrammar::parse(good, "good.pest").unwrap(),
        None,
        Scan::Classes,
    )
    .unwrap();
    assert!(report.passed(), "{report}");
    assert!(
        report.rows.iter().all(|r| r.status == Status::Proven),
        "{report}"
    );
    // Too much: port accepts "x".
    let wide = good.replace("port = { DIGIT* }", "port = { (DIGIT | \"x\")* }");
    let report = lab::check(
        &abnf,
        &PestGrammar::parse(&wide, "wide.pest").unwrap(),
        None,
        Scan::Classes,
    )
    .unwrap();
    assert!(!report.passed());
    let port = report.rows.iter().find(|r| r.rule == "port").unwrap();
    assert_eq!(port.status, Status::Differs);
    assert!(
        port.detail.starts_with("pest accepts \"x\""),
        "{}",
        port.detail
    );
    let auth = report.rows.iter().find(|r| r.rule == "authority").unwrap();
    assert_eq!(auth.follows, ["port"], "{report}");
    assert_eq!(
        report
            .root_causes()
            .map(|r| r.rule.as_str())
            .collect::<Vec<_>>(),
        ["port"]
    );
    // Too little, by PEG ordering: the regular reading is right, the PEG is not.
    let abnf2 = Grammar::parse("a = \"1\" / \"12\"\n", "a.abnf").unwrap();
    let peg = PestGrammar::parse("a = { \"1\" | \"12\" }", "a.pest").unwrap();
    let report = lab::check(&abnf2, &peg, None, Scan::Classes).unwrap();
    assert_eq!(report.rows[0].status, Status::Differs, "{report}");
    assert!(
        report.rows[0].detail.contains("pest rejects \"12\""),
        "{report}"
    );
    let fixed = PestGrammar::parse("a = { \"12\" | \"1\" }", "a.pest").unwrap();
    let report = lab::check(&abnf2, &fixed, None, Scan::Classes).unwrap();
    assert_eq!(report.rows[0].status, Status::Proven, "{report}");
    // Shown strings: both verdicts.
    assert!(
        report.render_strings().contains("accepts  accepts  \"12\""),
        "{}",
        report.render_strings()
    );
}

/// A runtime grammar's failure is explained by what stands where it
/// stopped: a '%' in an IP literal is not allowed whatever follows it
/// (3987bis §2.2, RFC 3986 §3.2.2), whichever rule the parse starts from; a
/// '%' elsewhere is a bad percent-encoding only when two hexadecimal digits
/// do not follow it.
#[test]
fn runtime_failures_explained_by_what_stands_there() {
    let p = Profile::Rfc3987bis;
    // The walkthrough's zone grammar, IPv6address first: it stops at '%'.
    let zone = edited(
        p,
        "IP_literal = { \"[\" ~ (IPv6address | IPvFuture) ~ \"]\" }",
        "IP_literal = { \"[\" ~ (IPv6address | IPv6addrz | IPvFuture) ~ \"]\" }\n\
         IPv6addrz = { IPv6address ~ \"%25\" ~ ZoneID }\n\
         ZoneID = { (unreserved | pct_encoded)+ }",
    );
    let explain = |g: &PestGrammar, rule: &str, input: &str| {
        let f = g.tree(rule, input).unwrap_err();
        let e = f.explain(input, rule, p).unwrap();
        (e.message(), e.component().name())
    };
    for (rule, input) in [
        ("IP_literal", "[fe80::1%25eth0]"),
        ("IP_literal", "[fe80::1%eth0]"),
        ("ihost", "[fe80::1%25eth0]"),
        ("iauthority", "u@[fe80::1%25eth0]:80"),
        ("IRI_reference", "http://[fe80::1%25eth0]/"),
        ("IPv6address", "fe80::1%25eth0"),
    ] {
        for g in [&zone, &PestGrammar::builtin(p)] {
            let (message, component) = explain(g, rule, input);
            assert!(
                message.starts_with("'%' is not allowed in an IP literal"),
                "{rule} {input}: {message}"
            );
            assert_eq!(component, "host", "{rule} {input}");
        }
    }
    // The same message by the built-in parser itself.
    let e = iribis::IriRef::parse("http://[fe80::1%25eth0]/").unwrap_err();
    assert!(
        e.message()
            .starts_with("'%' is not allowed in an IP literal")
    );
    // Outside an IP literal: "%zz" is a bad percent-encoding, "%41" where
    // the grammar takes no pct-form is a character not allowed there.
    let plain = edited(
        p,
        "ipchar = { iunreserved | pct_form | sub_delims | \":\" | \"@\" }",
        "ipchar = { iunreserved | sub_delims | \":\" | \"@\" }",
    );
    let (message, component) = explain(&plain, "IRI_reference", "http://a/%zz");
    assert!(
        message.starts_with("'%' must be followed by two hexadecimal digits"),
        "{message}"
    );
    assert_eq!(component, "path");
    let (message, _) = explain(&plain, "IRI_reference", "http://a/%41");
    assert!(
        message.starts_with("'%' (U+0025) is not allowed in"),
        "{message}"
    );
    let (message, _) = explain(&PestGrammar::builtin(p), "IRI_reference", "http://a/%4");
    assert!(
        message.starts_with("'%' must be followed by two hexadecimal digits"),
        "{message}"
    );
}
