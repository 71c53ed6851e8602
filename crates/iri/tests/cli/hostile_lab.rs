//! The grammar lab on hostile grammars and ABNF through the command:
//! each attack, scaled to run in seconds in a debug build. A limit
//! reached is exit status 2 and a message, never a crash; no input is
//! called invalid when pest gave up on it; memory stays within a budget,
//! enforced with `ulimit -v` around the binary.

use std::path::{Path, PathBuf};

use std::process::{Command, Output};

use iribis_lab::abnf::Grammar;

use iribis_lab::{self as lab, PestGrammar};

/// A scratch directory for this test's files.
fn dir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("iribis-hostile-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// Runs `iri ARGS` under a virtual memory budget of `kib` KiB.
fn iri_within(kib: u64, args: &[&str]) -> Output {
    let mut script = format!("ulimit -v {kib}; exec \"$0\"");
    for i in 1..=args.len() {
        script.push_str(&format!(" \"${i}\""));
    }
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_iri"))
        .args(args)
        .output()
        .unwrap()
}

/// The budget of every run: 2 GiB of address space, in which the lab's
/// thread (its stack reserved from the nesting limit, not 2 GiB) starts.
const BUDGET: u64 = 2 << 20;

/// Exit status 2 (not a signal: an abort or a stack overflow has no code),
/// and stderr containing `message`.
fn fails_with(out: &Output, message: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert!(stderr.contains(message), "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
}

/// Under a 2 GiB address-space limit (`prlimit --as=2147483648`), every
/// grammar command starts, and the deepest grammars the limits let through
/// load: the lab's thread once reserved a 2 GiB stack, and could not start
/// there (issue 54).
#[test]
fn the_lab_starts_within_two_gib_and_loads_its_deepest_grammars() {
    let d = dir("two-gib");
    let small = write(&d, "small.abnf", "a = \"x\" / b\nb = \"y\"\n");
    let out = iri_within(BUDGET, &["grammar", "from-abnf", &small]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("a = "));
    // 999 levels of nesting, the most MAX_NESTING allows, in ABNF and pest.
    let deep = write(
        &d,
        "deep.abnf",
        &format!("a = {}\"x\"{}\n", "(".repeat(999), ")".repeat(999)),
    );
    let out = iri_within(BUDGET, &["grammar", "from-abnf", &deep]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A chain of 150 rules each nesting 999 levels around the next: the
    // longest recursion over a grammar that the validation limit admits.
    let mut chain = String::new();
    for k in 0..150 {
        chain.push_str(&format!(
            "r{k} = {{ {}r{} ~ \"x\"{} | \"y\" }}\n",
            "(".repeat(999),
            k + 1,
            ")".repeat(999)
        ));
    }
    chain.push_str("r150 = { \"b\" }\n");
    let g = write(&d, "chain.pest", &chain);
    let out = iri_within(BUDGET, &["parse", "--grammar", &g, "--rule", "r0", "y"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn repetition_counts_over_the_cap_are_errors() {
    let d = dir("repetition");
    let g = write(&d, "rep.pest", "a = { \"x\"{30000} }\n");
    let out = iri_within(BUDGET, &["parse", "--grammar", &g, "--rule", "a", "x"]);
    fails_with(
        &out,
        "rep.pest:1: repetition count 30000 is larger than 10000",
    );
    // {m,n}, {,n} and {m,} are held to it too.
    for rep in ["{1,10001}", "{,99999999999999999999}", "{20000,}"] {
        let e = PestGrammar::parse(&format!("a = {{ \"x\"{rep} }}"), "t.pest").unwrap_err();
        assert!(e.to_string().contains("is larger than 10000"), "{rep}: {e}");
    }
    // At the cap, it loads.
    PestGrammar::parse("a = { \"x\"{10000} }", "t.pest").unwrap();
}

#[test]
fn deep_nesting_is_an_error_before_any_parser_recurses() {
    let d = dir("nesting");
    let deep = format!(
        "a = {{ {}\"x\"{} }}\n",
        "(".repeat(10_000),
        ")".repeat(10_000)
    );
    let g = write(&d, "deep.pest", &deep);
    let out = iri_within(BUDGET, &["parse", "--grammar", &g, "--rule", "a", "x"]);
    fails_with(
        &out,
        "deep.pest:1: grammar nesting deeper than 1,000 levels",
    );
    let abnf = write(
        &d,
        "deep.abnf",
        &format!("a = {}\"x\"{}\n", "(".repeat(10_000), ")".repeat(10_000)),
    );
    let out = iri_within(BUDGET, &["grammar", "from-abnf", &abnf]);
    fails_with(
        &out,
        "deep.abnf:1: grammar nesting deeper than 1,000 levels",
    );
    let out = iri_within(BUDGET, &["grammar", "check", "--abnf", &abnf]);
    fails_with(&out, "grammar nesting deeper than 1,000 levels");
    // Options nest too, and block comments in pest.
    let opt = format!("a = {}\"x\"{}\n", "[".repeat(1001), "]".repeat(1001));
    assert!(
        Grammar::parse(&opt, "t.abnf")
            .unwrap_err()
            .to_string()
            .contains("nesting deeper than 1,000 levels")
    );
    let comments = format!(
        "{}{}\na = {{ \"x\" }}",
        "/*".repeat(5000),
        "*/".repeat(5000)
    );
    assert!(
        PestGrammar::parse(&comments, "t.pest")
            .unwrap_err()
            .to_string()
            .contains("nesting deeper than 1,000 levels")
    );
    // 1,000 levels load, with room to spare on the lab's stack.
    let ok = format!("a = {{ {}\"x\"{} }}", "(".repeat(1000), ")".repeat(1000));
    assert!(PestGrammar::parse(&ok, "t.pest").unwrap().accepts("a", "x"));
    let ok = format!("a = {}\"x\"{}\n", "(".repeat(1000), ")".repeat(1000));
    lab::from_abnf(&Grammar::parse(&ok, "t.abnf").unwrap()).unwrap();
}

#[test]
fn unrolled_repetitions_are_held_to_a_size() {
    // Each count is under the cap; their product is not.
    let e = PestGrammar::parse("a = { ((\"x\"{1000}){1000}){1000} }", "t.pest").unwrap_err();
    assert!(
        e.to_string()
            .contains("t.pest: the grammar is larger than 1,000,000 expressions"),
        "{e}"
    );
    let d = dir("size");
    let abnf = write(&d, "nested.abnf", "a = 10000(10000(10000\"x\"))\n");
    let out = iri_within(BUDGET, &["grammar", "from-abnf", &abnf]);
    fails_with(
        &out,
        "the pest transcription of the ABNF does not load, so it is not written",
    );
    fails_with(&out, "larger than 1,000,000 expressions");
}

#[test]
fn huge_repetitions_in_abnf_fail_at_once_within_a_small_budget() {
    let d = dir("abnf-repetition");
    let abnf = write(
        &d,
        "huge.abnf",
        "a = 100000*100000ALPHA\nALPHA = %x41-5A / %x61-7A\n",
    );
    // 64 MiB: the ABNF is refused before anything is derived from it.
    let out = iri_within(64 << 10, &["grammar", "check", "--abnf", &abnf]);
    fails_with(
        &out,
        "huge.abnf:1: repetition count 100000 is larger than 10000",
    );
    let out = iri_within(64 << 10, &["grammar", "from-abnf", &abnf]);
    fails_with(&out, "repetition count 100000 is larger than 10000");
}

#[test]
fn string_generation_is_bounded_at_the_cap() {
    // Counts at the cap, nested: the strings are astronomically long, the
    // check derives none (and says so), within the budget.
    let d = dir("generation");
    let abnf = write(
        &d,
        "big.abnf",
        "a = 10000*10000ALPHA\nb = 10000(10000(10000\"x\"))\nc = 2*3ALPHA\nALPHA = %x41-5A / %x61-7A\n",
    );
    let pest = write(
        &d,
        "big.pest",
        "a = { ALPHA{10000} }\nb = { \"x\" }\nc = { ALPHA{2,3} }\nALPHA = { ASCII_ALPHA }\n",
    );
    let out = iri_within(
        BUDGET,
        &["grammar", "check", "--grammar", &pest, "--abnf", &abnf],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    // b: pest accepts "x", which the ABNF (10^12 x's) does not.
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let row = |r: &str| {
        stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(r))
            .unwrap_or_else(|| panic!("no row {r}: {stdout}"))
            .to_string()
    };
    // a has no test string either, but its automata (10,000 states) are
    // compared: decided.
    assert!(row("a").contains(" proven "), "{stdout}");
    assert!(
        row("b").contains("DIFFERS    root cause: pest accepts \"x\" (the ABNF does not)"),
        "{stdout}"
    );
    assert!(row("c").contains(" proven "), "{stdout}");
}

#[test]
fn undefined_rules_fail_the_check_and_the_transcription() {
    let d = dir("undefined");
    let abnf = write(&d, "undef.abnf", "a = b \"x\"\n");
    let pest = write(&d, "a.pest", "a = { \"x\" }\n");
    let out = iri_within(
        BUDGET,
        &["grammar", "check", "--grammar", &pest, "--abnf", &abnf],
    );
    fails_with(&out, "undef.abnf: rule a uses b, which no rule defines");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let out = iri_within(BUDGET, &["grammar", "from-abnf", &abnf]);
    fails_with(&out, "rule a uses b, which no rule defines");
    assert!(out.stdout.is_empty());
}

#[test]
fn from_abnf_writes_pest_that_loads_or_says_why() {
    let d = dir("from-abnf");
    let left = write(
        &d,
        "left.abnf",
        "list = list \",\" item / item\nitem = \"x\"\n",
    );
    let out = iri_within(BUDGET, &["grammar", "from-abnf", &left]);
    fails_with(&out, "rule list is left-recursive");
    assert!(out.stdout.is_empty());
    // A name pest keeps for itself.
    let keyword = Grammar::parse("ANY = \"x\"\n", "kw.abnf").unwrap();
    assert!(lab::from_abnf(&keyword).is_err());
    // The ABNF of every profile transcribes, and loads.
    for (p, _) in iribis_lab::abnf::PROFILES {
        let g = Grammar::profile(p).unwrap();
        PestGrammar::parse(&lab::from_abnf(&g).unwrap(), "t.pest").unwrap();
    }
}

#[test]
fn pest_giving_up_is_an_error_not_a_verdict() {
    let d = dir("stack-limit");
    let g = write(&d, "rec.pest", "a = { \"(\" ~ a ~ \")\" | \"x\" }\n");
    let input = format!("{}x{}", "(".repeat(20_000), ")".repeat(20_000));
    for command in ["parse", "tree"] {
        let out = iri_within(BUDGET, &[command, "--grammar", &g, "--rule", "a", &input]);
        fails_with(
            &out,
            "the grammar needs more nested calls than the stack holds",
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(!stdout.contains("no match"), "{command}: {stdout}");
    }
    // The library says the same.
    let g = PestGrammar::parse("a = { \"(\" ~ a ~ \")\" | \"x\" }", "rec.pest").unwrap();
    let f = g.tree("a", &input).unwrap_err();
    assert_eq!(f.limit.as_deref(), Some("stack limit reached"));
    assert!(f.expected.is_empty());
    assert!(!g.accepts("a", &input));
    // And a diff has no verdict to compare.
    let side = lab::Side {
        grammar: &g,
        rule: "a",
        name: "rec.pest",
    };
    let e = lab::diff(side, side, [input], false).unwrap_err();
    assert!(e.to_string().contains("needs more nested calls"), "{e}");
    // A shallow input still has its verdict.
    assert!(g.accepts("a", "((x))"));
    assert!(g.tree("a", "((x)").unwrap_err().limit.is_none());
}

/// The check's table padded its rule column with a format width taken
/// from the longest rule name, which panics past 65,535: a rule of a
/// runtime grammar can be named longer than that.
#[test]
fn a_rule_name_longer_than_a_format_width() {
    let d = dir("long-name");
    let name = "a".repeat(70_000);
    let abnf = write(&d, "long.abnf", &format!("{name} = \"x\"\n"));
    let pest = write(&d, "long.pest", &format!("{name} = {{ \"x\" }}\n"));
    let out = iri_within(
        BUDGET,
        &["grammar", "check", "--grammar", &pest, "--abnf", &abnf],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "status {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    // The root cause first (when the rule differs), then the table.
    assert!(
        stdout.starts_with("rule") || stdout.starts_with("root cause: "),
        "{:.200}",
        stdout
    );
    assert!(
        stdout.lines().any(|l| l.starts_with("rule ")),
        "{:.200}",
        stdout
    );
    assert!(
        stdout.lines().any(|l| l.starts_with(&name)),
        "no row for the rule"
    );
}

/// pest_meta's validator follows rule references again for each question
/// it asks, remembering nothing: a chain of rules each referring to the
/// next three times took 22 s at 12 rules and 377 s at 14 (3^n paths), and
/// its optimizer's restorer walks a chain again from every choice (a
/// 10,000-rule chain, minutes). The lab counts those steps before pest_meta
/// runs and refuses the grammar, at once, naming the rule.
#[test]
fn grammars_that_would_validate_for_minutes_are_refused() {
    let chain = |n: usize, body: &str| {
        let mut g = String::new();
        for k in 0..n {
            let next = format!("r{}", k + 1);
            g.push_str(&format!("r{k} = {{ {} }}\n", body.replace('N', &next)));
        }
        g + &format!("r{n} = {{ \"b\" }}\n")
    };
    let d = dir("validation-steps");
    let branching = write(
        &d,
        "branching.pest",
        &chain(40, "N | N ~ \"a\" | N ~ \"c\""),
    );
    let out = iri_within(
        BUDGET,
        &["parse", "--grammar", &branching, "--rule", "r0", "b"],
    );
    fails_with(
        &out,
        "branching.pest: rule r0: loading the grammar would take pest_meta's validator and optimizer more than 10,000,000 steps (the lab's limit), the most of them for rule r0: rule r0 reaches rules along ",
    );
    let long = chain(10_000, "\"x\" ~ N | \"y\"");
    let e = PestGrammar::parse(&long, "long.pest").unwrap_err();
    assert!(e.to_string().contains("a long chain of rules"), "{e}");
    // The same shapes, small, load.
    let g = PestGrammar::parse(&chain(6, "N | N ~ \"a\" | N ~ \"c\""), "t.pest").unwrap();
    assert!(g.accepts("r0", "b"));
    PestGrammar::parse(&chain(200, "\"x\" ~ N | \"y\""), "t.pest").unwrap();
    assert_eq!(lab::MAX_VALIDATION_STEPS, 10_000_000);
}
