//! The trace interpreter (`PestGrammar::trace`, `iri tree --trace`) on any
//! input: with a NUL byte, the text before it is a pest grammar and the
//! bytes after it the input, traced from each of the grammar's first rules;
//! without, the first byte picks a built-in grammar and a start rule and
//! the rest is the input. Never panics; when the trace has a verdict it is
//! pest's; events stay within the cap, their offsets on character
//! boundaries of the input; the rendering holds no byte a terminal acts on.
#![no_main]

use std::sync::OnceLock;

use iribis_lab::{PestGrammar, TraceMode, TraceOptions, Verdict};
use iribis::Profile;
use libfuzzer_sys::fuzz_target;

/// A byte or character a terminal acts on (as the cli target's).
fn terminal_control(text: &str) -> Option<char> {
    text.chars().find(|&c| {
        (c.is_control() && c != '\n')
            || matches!(c, '\u{61C}' | '\u{200E}' | '\u{200F}' | '\u{2028}' | '\u{2029}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
    })
}

fn run(g: &PestGrammar, rule: &str, input: &str, options: &TraceOptions) {
    let Ok(trace) = g.trace(rule, input, options) else {
        // A grammar the trace does not follow (pest's stack).
        return;
    };
    assert!(trace.events.len() <= options.max_events, "{rule} {input:?}");
    for e in trace.events.iter().take(200) {
        for at in [e.start, e.end] {
            assert!(input.is_char_boundary(at), "{rule} {input:?}: {e:?}");
        }
        assert_eq!(input[..e.start].chars().count(), e.start_char, "{e:?}");
        assert_eq!(input[..e.end].chars().count(), e.end_char, "{e:?}");
        if e.matched {
            assert!(e.start <= e.end, "{rule} {input:?}: {e:?}");
        }
        if e.won {
            assert!(e.matched && !e.undone && trace.verdict == Verdict::Matched, "{e:?}");
        }
    }
    let pest = g.tree(rule, input);
    match (&trace.verdict, &pest) {
        (Verdict::Stopped(_), _) => {}
        (_, Err(f)) if f.limit.is_some() => {}
        (Verdict::Matched, Ok(_)) | (Verdict::Failed { .. }, Err(_)) => {}
        (v, p) => panic!("{rule} {input:?}: the trace says {v:?}, pest {p:?}"),
    }
    if let Verdict::Failed { byte, char } = trace.verdict {
        assert!(input.is_char_boundary(byte), "{rule} {input:?}: {byte}");
        assert_eq!(input[..byte].chars().count(), char);
    }
    let shown = trace.render(input, false);
    assert!(terminal_control(&shown).is_none(), "{rule} {input:?}: {shown}");
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    // Small caps too, to cut traces short.
    let options = TraceOptions::new()
        .mode(if first & 1 == 0 { TraceMode::All } else { TraceMode::Won })
        .max_events(if first & 2 == 0 { 10_000 } else { 16 });
    if let Some(nul) = data.iter().position(|&b| b == 0) {
        let text = String::from_utf8_lossy(&data[..nul]);
        let input = String::from_utf8_lossy(&data[nul + 1..]);
        let Ok(g) = PestGrammar::parse(&text, "fuzz.pest") else {
            return;
        };
        let rules: Vec<String> = g.rule_names().take(4).map(String::from).collect();
        for r in &rules {
            run(&g, r, &input, &options);
        }
        return;
    }
    // The built-in grammars, loaded once (and their trace programs
    // compiled once): loading each run would be most of its time.
    static BUILTIN: OnceLock<Vec<PestGrammar>> = OnceLock::new();
    let builtin = BUILTIN.get_or_init(|| {
        [
            Profile::Rfc3987bis,
            Profile::Rfc3987,
            Profile::Rfc3986,
            Profile::Leiri,
        ]
        .map(PestGrammar::builtin)
        .into()
    });
    let g = &builtin[usize::from(first >> 2) % 4];
    let rules: Vec<&str> = g.rule_names().collect();
    let rule = rules[usize::from(first >> 4) % rules.len()].to_string();
    let input = String::from_utf8_lossy(rest);
    run(g, &rule, &input, &options);
    // And from the reference rule, which every input exercises most.
    let top = g
        .resolve("IRI_reference")
        .or_else(|| g.resolve("URI_reference"))
        .map(String::from);
    if let Some(top) = top {
        run(g, &top, &input, &options);
    }
});
