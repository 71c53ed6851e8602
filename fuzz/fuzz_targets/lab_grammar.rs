//! Any text as a runtime pest grammar: loading never panics, aborts or
//! overflows the stack (limits are errors), and a grammar that loads runs
//! each of its rules on a few inputs without panicking; pest giving up on
//! an input (the stack limit) is a failure with `limit` set, not a verdict.
#![no_main]

use iribis_lab::PestGrammar;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(g) = PestGrammar::parse(&text, "fuzz.pest") else {
        return;
    };
    let rules: Vec<String> = g.rule_names().take(8).map(String::from).collect();
    for r in &rules {
        for input in ["", "a", "(x)", "http://a/b?c#d", "\u{E9}\u{10FFFF}"] {
            match g.tree(r, input) {
                Ok(t) => {
                    let _ = t.render(input);
                    assert!(g.accepts(r, input), "{r} {input:?}: a tree but not accepted");
                }
                Err(f) => {
                    assert!(f.byte <= input.len(), "{r} {input:?}: {f}");
                    if f.limit.is_none() {
                        assert!(!g.accepts(r, input), "{r} {input:?}: rejected but accepted");
                    }
                }
            }
        }
    }
});
