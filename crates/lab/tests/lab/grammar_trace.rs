//! The traced PEG interpreter (`PestGrammar::trace`, `iri tree --trace`):
//! it agrees with pest on acceptance and on the parse tree over the
//! built-in corpus and slices of the benchmark data, for every profile;
//! snapshots of a plain and a JSON trace; the command line.

use iribis_lab::{self as lab, Attempt, PestGrammar, TraceMode, TraceOptions, Verdict};

use iribis::Profile;

/// Every `step`-th line of a file of benches/data.
fn bench_slice(name: &str, step: usize) -> Vec<String> {
    let path = format!(
        "{}/benches/data/{name}",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../..")
    );
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .step_by(step)
        .map(str::to_string)
        .collect()
}

/// The trace's verdict and tree are pest's (pest_vm running the same
/// grammar, which `runtime.rs` checks against the compiled parsers).
fn agree(g: &PestGrammar, rule: &str, input: &str, mode: TraceMode) -> bool {
    let options = TraceOptions::new().mode(mode).max_events(usize::MAX);
    let t = g.trace(rule, input, &options).unwrap();
    let pest = g.tree(rule, input);
    assert_eq!(
        t.verdict == Verdict::Matched,
        pest.is_ok(),
        "{rule} {input:?}: {:?}",
        t.verdict
    );
    assert!(!t.truncated);
    if let Ok(tree) = &pest {
        assert_eq!(t.tree().as_ref(), Some(tree), "{rule} {input:?}");
    }
    pest.is_ok()
}

#[test]
fn trace_agrees_with_pest_over_the_corpus() {
    let corpus: Vec<&str> = lab::default_corpus().collect();
    for profile in Profile::ALL {
        let g = PestGrammar::builtin(profile);
        let rule = if profile == Profile::Rfc3986 {
            "URI_reference"
        } else {
            "IRI_reference"
        };
        let accepted = corpus
            .iter()
            .filter(|i| agree(&g, rule, i, TraceMode::Won))
            .count();
        // Not vacuous: both verdicts are exercised.
        assert!(
            accepted > 100 && accepted < corpus.len(),
            "{profile}: {accepted}"
        );
    }
    // Real-world URLs (some invalid) and generated IRIs, by the default
    // profile, and a few other start rules.
    let g = PestGrammar::builtin(Profile::Rfc3987bis);
    let mut inputs = bench_slice("kasztp-urls.txt", 200);
    inputs.extend(bench_slice("mixed-iris-20k.txt", 50));
    assert!(inputs.len() > 600);
    for input in &inputs {
        agree(&g, "IRI_reference", input, TraceMode::Won);
    }
    for (rule, input) in [
        ("IP_literal", "[::ffff:192.0.2.1]"),
        ("IPv6address", "1:2:3:4:5:6:7::"),
        ("ihost", "r%C3%A9sum%C3%A9.example.org"),
        ("dec_octet", "255"),
        ("ls32", "1.2.3.4"),
        ("ipath_abempty", "/a/./b/../c"),
    ] {
        assert!(agree(&g, rule, input, TraceMode::All), "{rule} {input}");
    }
}

#[test]
fn both_modes_find_the_same_winning_parse() {
    // The events of --trace=won are exactly the won events of --trace.
    let g = PestGrammar::builtin(Profile::Rfc3987bis);
    for input in lab::default_corpus().step_by(7) {
        let all = g
            .trace(
                "IRI_reference",
                input,
                &TraceOptions::new().max_events(usize::MAX),
            )
            .unwrap();
        let won = g
            .trace(
                "IRI_reference",
                input,
                &TraceOptions::new()
                    .mode(TraceMode::Won)
                    .max_events(usize::MAX),
            )
            .unwrap();
        assert_eq!(all.verdict, won.verdict, "{input:?}");
        if all.verdict == Verdict::Matched {
            let winners: Vec<_> = all.events.iter().filter(|e| e.won).cloned().collect();
            assert_eq!(winners, won.events, "{input:?}");
        } else {
            // Nothing wins a failed parse.
            assert!(all.events.iter().all(|e| !e.won), "{input:?}");
        }
    }
}

/// A grammar with the constructs the built-in grammars do not use:
/// implicit whitespace, atomic, compound-atomic and silent rules, a
/// lookahead, case-insensitive strings, repetition bounds.
#[test]
fn trace_agrees_with_pest_on_other_constructs() {
    let g = PestGrammar::parse(
        r#"
WHITESPACE = _{ " " }
list = { SOI ~ item ~ ("," ~ item)* ~ ","? }
item = _{ number | word | quoted }
number = @{ "-"? ~ ASCII_DIGIT{1,3} ~ !ASCII_ALPHA }
word = ${ ^"w" ~ inner }
inner = { ASCII_ALPHA* }
quoted = @{ "'" ~ (!"'" ~ ANY)* ~ "'" }
"#,
        "t.pest",
    )
    .unwrap();
    let mut matched = 0;
    for input in [
        "1, 2 ,3",
        "-12, Wab, 'x y'",
        "1234",
        "12a",
        "w a",
        "W,w",
        "'unterminated",
        "1,",
        "1 , 'a,b' , wz ",
        " 1",
        "",
    ] {
        matched += usize::from(agree(&g, "list", input, TraceMode::All));
    }
    assert!(matched >= 5, "{matched}");
}

#[test]
fn choice_order_is_visible() {
    // The walkthrough's mistake: IPv6address before IPv6addrz. The trace
    // shows alternative 1 matching "fe80::1", then IP-literal failing at
    // the '%': alternative 2 is never tried.
    let builtin = PestGrammar::builtin_source(Profile::Rfc3987bis);
    let wrong = builtin.replace(
        "IP_literal = { \"[\" ~ (IPv6address | IPvFuture) ~ \"]\" }",
        "IP_literal = { \"[\" ~ (IPv6address | IPv6addrz | IPvFuture) ~ \"]\" }\nIPv6addrz = { IPv6address ~ \"%25\" ~ ZoneID }\nZoneID = { (unreserved | pct_encoded)+ }",
    );
    assert_ne!(wrong, builtin);
    let g = PestGrammar::parse(&wrong, "zone.pest").unwrap();
    let input = "[fe80::1%25eth0]";
    let t = g.trace("IP_literal", input, &TraceOptions::new()).unwrap();
    assert_eq!(t.verdict, Verdict::Failed { byte: 8, char: 8 });
    let choice: Vec<(usize, bool, usize)> = t
        .events
        .iter()
        .filter(|e| matches!(&e.attempt, Attempt::Alternative { rule, count: 3, .. } if &**rule == "IP_literal"))
        .map(|e| match &e.attempt {
            Attempt::Alternative { index, .. } => (*index, e.matched, e.end),
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(choice, [(1, true, 8)]);
    let fixed = PestGrammar::parse(
        &wrong.replace(
            "(IPv6address | IPv6addrz | IPvFuture)",
            "(IPv6addrz | IPv6address | IPvFuture)",
        ),
        "fixed.pest",
    )
    .unwrap();
    let t = fixed
        .trace(
            "IP_literal",
            input,
            &TraceOptions::new().mode(TraceMode::Won),
        )
        .unwrap();
    assert_eq!(t.verdict, Verdict::Matched);
    assert!(t.render(input, false).starts_with(
        "IP-literal 0..16 matched \"[fe80::1%25eth0]\"\n  alt 1/3 IPv6addrz 1..15 matched \"fe80::1%25eth0\"\n"
    ));
}

mod random_grammars {
    //! Random small grammars over {a, b, space}: every construct the trace
    //! follows, combined; the trace and pest must agree on every input.

    use super::*;
    use proptest::prelude::*;

    /// An expression in pest syntax that may use rules `r{from}` and later.
    fn expr(from: usize, rules: usize) -> impl Strategy<Value = String> {
        let mut leaves = vec![
            Just("\"a\"".to_string()).boxed(),
            Just("\"ab\"".to_string()).boxed(),
            Just("\"b\"".to_string()).boxed(),
            Just("^\"A\"".to_string()).boxed(),
            Just("'a'..'b'".to_string()).boxed(),
            Just("ANY".to_string()).boxed(),
            Just("ASCII_ALPHA".to_string()).boxed(),
        ];
        if from < rules {
            leaves.push((from..rules).prop_map(|r| format!("r{r}")).boxed());
        }
        let leaf = proptest::strategy::Union::new(leaves);
        leaf.prop_recursive(3, 16, 2, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} ~ {b})")),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} | {b})")),
                inner.clone().prop_map(|a| format!("({a})?")),
                // Repeated bodies always consume: pest loops on one that
                // does not (its validator catches most, not all).
                inner.clone().prop_map(|a| format!("(\"a\" ~ {a})*")),
                inner.clone().prop_map(|a| format!("('a'..'b' ~ {a})+")),
                (inner.clone(), 0u32..3, 1u32..3)
                    .prop_map(|(a, m, n)| format!("(ANY ~ {a}){{{m}, {}}}", m + n)),
                (inner.clone(), 1u32..3).prop_map(|(a, n)| format!("(\"b\" ~ {a}){{{n}}}")),
                (inner.clone(), 1u32..3).prop_map(|(a, n)| format!("(\"a\" ~ {a}){{,{n}}}")),
                (inner.clone(), 0u32..2).prop_map(|(a, n)| format!("(ANY ~ {a}){{{n},}}")),
                inner.clone().prop_map(|a| format!("&({a})")),
                inner.clone().prop_map(|a| format!("!({a})")),
            ]
        })
    }

    /// A grammar of three rules, `r0` the start, each referring only to
    /// later ones (no left recursion), with random rule types, and maybe
    /// implicit whitespace.
    fn grammar() -> impl Strategy<Value = String> {
        let ty = prop_oneof![Just(""), Just("_"), Just("@"), Just("$"), Just("!")];
        (
            (expr(1, 3), expr(2, 3), expr(3, 3)),
            (ty.clone(), ty.clone(), ty),
            any::<bool>(),
        )
            .prop_map(|((e0, e1, e2), (t0, t1, t2), ws)| {
                let mut g =
                    format!("r0 = {t0}{{ {e0} }}\nr1 = {t1}{{ {e1} }}\nr2 = {t2}{{ {e2} }}\n");
                if ws {
                    g.push_str("WHITESPACE = _{ \" \" }\n");
                }
                g
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        #[test]
        fn trace_agrees_with_pest(
            text in grammar(),
            inputs in proptest::collection::vec("[ab A]{0,6}", 12),
        ) {
            // pest_meta refuses some (an alternative after one that cannot
            // fail, a repetition of what may consume nothing): skip them.
            let Ok(g) = PestGrammar::parse(&text, "random.pest") else {
                return Ok(());
            };
            for input in &inputs {
                for mode in [TraceMode::All, TraceMode::Won] {
                    let options = TraceOptions::new().mode(mode).max_events(usize::MAX);
                    let t = g.trace("r0", input, &options).unwrap();
                    let pest = g.tree("r0", input);
                    prop_assert_eq!(
                        t.verdict == Verdict::Matched,
                        pest.is_ok(),
                        "{}\non {:?}: {:?}",
                        text,
                        input,
                        t.verdict
                    );
                    if let Ok(tree) = pest {
                        prop_assert_eq!(t.tree(), Some(tree), "{}\non {:?}", text, input);
                    }
                }
            }
        }
    }
}
