//! The grammar lab on hostile grammars and ABNF, in the library: a limit
//! reached is an error that says which, never a crash; no input is called
//! invalid when pest gave up on it. (The command under memory budgets:
//! crates/iri/tests/cli/hostile_lab.rs.)

use iribis_lab::abnf::Grammar;

use iribis_lab::{self as lab, PestGrammar, Scan, Status};

#[test]
fn zero_strings_tested_is_never_ok() {
    // The shortest string of a is 300 characters, past what the check writes.
    let abnf = Grammar::parse("a = 300%s\"x\"\n", "long.abnf").unwrap();
    let pest = PestGrammar::parse("a = { \"x\"{300} }", "long.pest").unwrap();
    let report = lab::check(&abnf, &pest, None, Scan::Classes).unwrap();
    // No string, but the automata decide it.
    assert_eq!(report.rows[0].status, Status::Proven, "{report}");
    assert!(report.passed(), "{report}");
    // Prose: neither an automaton nor a string: a failure.
    let abnf = Grammar::parse("a = <anything at all>\n", "prose.abnf").unwrap();
    let pest = PestGrammar::parse("a = { \"x\" }", "prose.pest").unwrap();
    let report = lab::check(&abnf, &pest, None, Scan::Classes).unwrap();
    assert_eq!(report.rows[0].status, Status::Unchecked, "{report}");
    assert!(!report.passed(), "{report}");
}

#[test]
fn many_rules_load() {
    // Loading used to look up each rule reference in a list of every rule
    // (quadratic: 15 s for 100,000 rules); 20,000 rules, each referring
    // to an earlier one, now load in about a second in a debug build.
    let n = 20_000;
    let mut text = String::from("r0 = { \"z\" }\n");
    let mut abnf = String::from("r0 = \"z\"\n");
    for i in 1..n {
        let j = (i * 7919) % i;
        text.push_str(&format!("r{i} = {{ \"x\" ~ r{j} | \"y\" }}\n"));
        abnf.push_str(&format!("r{i} = \"x\" r{j} / \"y\"\n"));
    }
    let g = PestGrammar::parse(&text, "many.pest").unwrap();
    assert_eq!(g.rule_names().count(), n);
    assert_eq!(g.resolve("R19999"), Some("r19999"));
    assert!(g.accepts("r19999", "y"));
    let g = Grammar::parse(&abnf, "many.abnf").unwrap();
    assert_eq!(g.len(), n);
}

#[test]
fn fuzz_finding_unclosed_block_comments() {
    // pest_meta's parser backtracks over unclosed nested block comments in
    // time exponential in their number (this 160-byte input, exactly as
    // found, ran past the 20 s timeout): the lab refuses them first. Found by the fuzz target lab_grammar.
    let text = b"/*/*&&&\xfb\xfb\xfb\xfb\xfb\xfb\xfb\xfb\xfb\xfb\xfb\xfb\xfb/*/*/*`\xa8^\xa8\xa8/*\xfb\xfb\xfb\xfb\xfb/*@///\xfb/*/*//*`/*&/\xec\x09\xd6/*\xfb\xfb\xfb/*/*/*`\xa8^\xa8\xa8/*\xfb\xfb\xfb\xfb\xfb/*@///\xfb/*/*//*`/*&/\xec\x09\xd6/*\xfb\xfb/*/*,\xfb\xf3*////\xfb/*/*//*`/*&/\xec\x09\xd6/*\xfb\xfb/*/*//*`/*&/\x0d\xf6\xd6\xf7*/*";
    let text = String::from_utf8_lossy(text);
    let e = PestGrammar::parse(&text, "fuzz.pest").unwrap_err();
    assert!(
        e.to_string()
            .contains("a block comment /* is not closed with */"),
        "{e}"
    );
    let many = "/*".repeat(40);
    let e = PestGrammar::parse(&format!("a = {{ \"x\" }}\n{many}"), "t.pest").unwrap_err();
    assert_eq!(
        e.to_string(),
        "t.pest:2: a block comment /* is not closed with */"
    );
}
