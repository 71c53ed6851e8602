//! Any text as ABNF: reading never panics or aborts, and `from_abnf` either
//! says why it cannot transcribe the rules or returns pest that loads.
#![no_main]

use iribis_lab::abnf::Grammar;
use iribis_lab::{from_abnf, PestGrammar};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(abnf) = Grammar::parse(&text, "fuzz.abnf") else {
        return;
    };
    if let Ok(pest) = from_abnf(&abnf) {
        if let Err(e) = PestGrammar::parse(&pest, "out.pest") {
            panic!("from_abnf returned pest that does not load: {e}\n{pest}");
        }
    }
});
