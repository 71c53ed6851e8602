//! Delta debugging (Zeller and Hildebrandt, "Simplifying and Isolating
//! Failure-Inducing Input", 2002): the smallest input, in characters, on
//! which a test still fails.

/// Shrinks `input` to a 1-minimal one on which `fails` still holds: no
/// single character can be removed without the failure going away. The
/// test is called at most `budget` times; `input` itself must fail.
///
/// ```
/// use iribis_suite::shrink;
///
/// // The smallest string with a space after a colon.
/// let small = shrink("http://example.org/a: b", 1000, |s| s.contains(": "));
/// assert_eq!(small, ": ");
/// ```
pub fn shrink(input: &str, budget: usize, mut fails: impl FnMut(&str) -> bool) -> String {
    let mut chars: Vec<char> = input.chars().collect();
    let mut calls = 0;
    let mut n = 2;
    while chars.len() >= 2 && calls < budget {
        let chunk = chars.len().div_ceil(n);
        let mut reduced = false;
        let mut start = 0;
        while start < chars.len() && calls < budget {
            let end = (start + chunk).min(chars.len());
            // The complement of chars[start..end].
            let candidate: Vec<char> = chars[..start]
                .iter()
                .chain(&chars[end..])
                .copied()
                .collect();
            calls += 1;
            if fails(&candidate.iter().collect::<String>()) {
                chars = candidate;
                n = (n - 1).max(2);
                reduced = true;
                break;
            }
            start = end;
        }
        if !reduced {
            if chunk <= 1 {
                break;
            }
            n = (n * 2).min(chars.len());
        }
    }
    // One character left: the empty input may fail too.
    if chars.len() == 1 && calls < budget && fails("") {
        chars.clear();
    }
    chars.into_iter().collect()
}
