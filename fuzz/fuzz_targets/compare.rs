//! The comparison ladder (RFC 3987 §5.3): `compare` is symmetric at every
//! level and with or without fragments, reflexive, and monotone (equal at
//! a rung means equal at every higher rung it reaches); normalization is
//! idempotent at each level.
#![no_main]

use iribis::IriRef;
use iribis::normalize::{Level, compare, equivalent};
use libfuzzer_sys::fuzz_target;

const LEVELS: [Level; 3] = [Level::Simple, Level::Syntax, Level::Scheme];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (a, b) = text.split_once('\n').unwrap_or((text, ""));
    let (Ok(a), Ok(b)) = (IriRef::parse(a), IriRef::parse(b)) else { return };
    for level in LEVELS {
        for ignore in [false, true] {
            let ab = compare(&a, &b, level, ignore);
            let ba = compare(&b, &a, level, ignore);
            assert_eq!(ab, ba, "{:?} and {:?} at {level:?} (ignoring fragments: {ignore})", a.as_str(), b.as_str());
            assert_eq!(compare(&a, &a, level, ignore), Some(Level::Simple), "{:?} against itself", a.as_str());
            if let Some(at) = ab {
                assert!(at <= level);
                for higher in LEVELS.into_iter().filter(|&l| l >= at) {
                    assert!(compare(&a, &b, higher, ignore).is_some(), "{:?} and {:?}: equal at {at:?}, not at {higher:?}", a.as_str(), b.as_str());
                }
            }
        }
        assert_eq!(equivalent(&a, &b, level), equivalent(&b, &a, level));
        let once = a.normalize_with(level);
        let twice = once.normalize_with(level);
        assert_eq!(once.as_str(), twice.as_str(), "normalizing {:?} at {level:?} twice", a.as_str());
    }
});
