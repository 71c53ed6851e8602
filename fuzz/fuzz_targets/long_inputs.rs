//! Long inputs: a fragment repeated to 100 KB or more, between a prefix
//! and a suffix, through every operation a user runs on untrusted data:
//! parsing (and the error report), the checker, both conversions,
//! normalization and resolution. Nothing panics, memory stays within
//! libFuzzer's -rss_limit_mb, and time stays within a budget linear in the
//! input's length (a quadratic step on 100 KB takes far longer).
#![no_main]

use std::time::{Duration, Instant};

use iribis::{check, to_iri, to_uri, Iri, IriRef};
use iribis::check::CheckOptions;
use iribis::normalize::Level;
use iribis::convert::{ToIriOptions, ToUriOptions};
use libfuzzer_sys::fuzz_target;

/// The time every operation together may take: generous per byte (the
/// fuzzer's instrumentation slows everything down), but linear.
fn budget(len: usize) -> Duration {
    Duration::from_millis(500) + Duration::from_micros(20 * len as u64)
}

fuzz_target!(|data: &[u8]| {
    // [prefix length, fragment length, prefix..., fragment..., suffix...]
    let [p, f, rest @ ..] = data else { return };
    let (p, f) = (usize::from(*p), usize::from(*f).max(1));
    if rest.len() < p + f {
        return;
    }
    let text = String::from_utf8_lossy(rest);
    let bytes = text.as_bytes();
    let (mut p, mut f) = (p.min(bytes.len()), (p + f).min(bytes.len()));
    while !text.is_char_boundary(p) {
        p -= 1;
    }
    while !text.is_char_boundary(f) {
        f += 1;
    }
    let (prefix, fragment, suffix) = (&text[..p], &text[p..f], &text[f..]);
    if fragment.is_empty() {
        return;
    }
    let times = 100_000 / fragment.len() + 1;
    let input = format!("{prefix}{}{suffix}", fragment.repeat(times));
    let start = Instant::now();

    match IriRef::parse(&input) {
        Ok(r) => {
            let _ = r.normalize_with(Level::Scheme);
            let base = Iri::parse("http://a/b/c/d;p?q").expect("a valid base");
            let _ = base.resolve(&r);
        }
        Err(e) => {
            assert!(input.is_char_boundary(e.byte()));
            let _ = e.message();
            let report = e.to_string();
            // The report shows a window around the error, not the line.
            assert!(report.len() < 4096, "a report of {} bytes", report.len());
        }
    }
    let report = check(&input, &CheckOptions::default());
    for v in &report.violations {
        assert!(input.is_char_boundary(v.byte), "a violation inside a character");
    }
    let _ = to_uri(&input, &ToUriOptions::new().idna(true));
    let _ = to_iri(&input, &ToIriOptions::new());

    let took = start.elapsed();
    assert!(
        took < budget(input.len()),
        "{} bytes took {took:?}, over the budget of {:?}",
        input.len(),
        budget(input.len())
    );
});
