//! Parsing never panics, on any bytes: every profile, every reference rule
//! and, for the pest path, the component rules too; every error gives a
//! position on a character boundary and a report (which runs pest on
//! demand for the fast path's rejections). Bytes that are not UTF-8 are
//! read as the CLI reads them, with U+FFFD for each bad sequence.
#![no_main]

use iribis::{AbsoluteIri, Components, GrammarRule, Iri, IriRef, ParseError, ParseOptions, Profile, RelativeRef};
use libfuzzer_sys::fuzz_target;

fn check_error(input: &str, e: &ParseError) {
    assert!(e.byte() <= input.len() && input.is_char_boundary(e.byte()), "{input:?}: error at byte {}", e.byte());
    assert_eq!(e.char(), input[..e.byte()].chars().count(), "{input:?}: char offset");
    let report = e.report();
    assert!(report.starts_with("error: "), "{input:?}: report {report:?}");
    let line = e.to_string();
    assert!(line.starts_with("invalid ") && !line.contains('\n'), "{input:?}: display {line:?}");
}

fuzz_target!(|data: &[u8]| {
    let input = String::from_utf8_lossy(data);
    let input = input.as_ref();
    for profile in Profile::ALL {
        let opts = ParseOptions::new().profile(profile);
        let results = [
            IriRef::parse_with(input, &opts).err(),
            Iri::parse_with(input, &opts).err(),
            AbsoluteIri::parse_with(input, &opts).err(),
            RelativeRef::parse_with(input, &opts).err(),
        ];
        for e in results.iter().flatten() {
            check_error(input, e);
        }
        for name in ["ihost", "host", "iauthority", "ipath", "path", "iquery", "IPv6address", "scheme", "port"] {
            let Some(rule) = GrammarRule::from_name(name) else { continue };
            // A rule the profile lacks is an error too, which must report.
            if let Err(e) = Components::parse(input, rule, profile) {
                check_error(input, &e);
            }
        }
    }
});
