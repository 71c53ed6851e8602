//! The library and the command on large and hostile inputs: the error path
//! in bounded memory (the position from the DFA, pest only on a window),
//! reports that do not depend on threads, and error reports of bounded size
//! far into a long line. (crates/iri/tests/cli/hostile_input.rs has the
//! command line's escaping, error shapes and line numbers;
//! tests/syntax/error_positions.rs the exactness of positions.)

use iribis::check::CheckOptions;

use iribis::{IriRef, check};

/// The library's report of an error far into a line: no panic (a format
/// width past 65,535 did), and a bounded window rather than the whole line.
#[test]
fn report_far_into_a_line() {
    let input = format!("http://a/{} b", "é".repeat(70_000));
    let e = IriRef::parse(&input).unwrap_err();
    assert_eq!((e.byte(), e.char()), (9 + 140_000, 9 + 70_000));
    let report = e.to_string();
    assert!(report.len() < 2_000, "a report of {} bytes", report.len());
    assert!(report.contains("character 70009"), "{report}");
}

/// Found by the `long_inputs` fuzz target: a window measured in display
/// columns alone never filled with zero-width characters, so 50,000
/// combining marks before an error gave a report of 100 KB.
#[test]
fn report_after_zero_width_characters() {
    let input = format!("{}\u{FFFD}/\u{0}1", "\u{65D}".repeat(50_000));
    let e = IriRef::parse(&input).unwrap_err();
    let report = e.to_string();
    assert!(report.len() < 2_000, "a report of {} bytes", report.len());
    let v = check(&input, &CheckOptions::default());
    for v in &v.violations {
        let (shown, marks) = iribis::render::underline(&input, v.byte, v.byte + 2);
        assert!(shown.len() + marks.len() < 2_000, "{:?}", v.code);
    }
}
