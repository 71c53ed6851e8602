//! IPv6 addresses (RFC 3986 §3.2.2) against `std::net::Ipv6Addr`: for any
//! string of hex digits, ":" and ".", the reference `//[s]` has an IPv6
//! host exactly when std parses `s`, and then the same address, under every
//! profile. The rule `IPv6address` alone agrees too (pest path).
#![no_main]

use std::net::Ipv6Addr;

use iribis::{GrammarRule, Host, IriRef, ParseOptions, Profile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else { return };
    if !s.bytes().all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.') {
        return;
    }
    let std = s.parse::<Ipv6Addr>().ok();
    let reference = format!("//[{s}]");
    for profile in Profile::ALL {
        let ours = match IriRef::parse_with(&reference, &ParseOptions::new().profile(profile)) {
            Ok(r) => match r.host() {
                Some(Host::Ipv6(a)) => Some(a),
                other => panic!("{reference:?} under {profile}: host {other:?}"),
            },
            Err(_) => None,
        };
        assert_eq!(ours, std, "{s:?} under {profile}: iribis {ours:?}, std {std:?}");
        let rule = GrammarRule::from_name("IPv6address").expect("a rule");
        // pest alone, and the rule's own DFA alone (which gives error
        // positions), each against std.
        let pest = iribis::pest_accepts(s, rule, profile);
        assert_eq!(pest, std.is_some(), "{s:?} at IPv6address under {profile} (pest)");
        let dfa = iribis::dfa_accepts(s, rule, profile);
        assert_eq!(dfa, Some(std.is_some()), "{s:?} at IPv6address under {profile} (DFA)");
    }
});
