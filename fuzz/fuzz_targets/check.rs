//! The checker on any input, under every profile and preset: it never
//! panics; every span lies on character boundaries inside the input, with
//! the right character offset; the findings come in order of position; the
//! report is the same when made again (no state carried between calls);
//! an input that does not parse is never valid.
#![no_main]

use iribis::{check, IriRef, ParseOptions, Profile};
use iribis::check::{CheckOptions, Preset, Severities};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else { return };
    for profile in Profile::ALL {
        for preset in [Preset::Default, Preset::Strict, Preset::Leiri] {
            let options = CheckOptions::new().profile(profile).severities(Severities::new(preset));
            let report = check(input, &options);
            let mut last = 0;
            for v in &report.violations {
                assert!(v.byte <= input.len() && input.is_char_boundary(v.byte), "{input:?}: {v:?}");
                assert_eq!(v.char, input[..v.byte].chars().count(), "{input:?}: {v:?}");
                assert!(v.char + v.len <= input.chars().count() + 1, "{input:?}: {v:?}");
                assert!(v.byte >= last || v.byte == 0, "{input:?}: findings out of order");
                last = v.byte;
                assert!(!v.message.is_empty());
            }
            assert_eq!(report, check(input, &options), "{input:?}: a second check differs");
            if IriRef::parse_with(input, &ParseOptions::new().profile(profile)).is_err() {
                assert!(!report.valid, "{input:?} does not parse under {profile}, yet checks valid");
            }
        }
    }
});
