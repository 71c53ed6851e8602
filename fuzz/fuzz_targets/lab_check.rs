//! `lab::check` on small grammars built from the input: an ABNF text and a
//! pest text, split at the first NUL byte. Never panics; when it reports,
//! every rule of the ABNF has a row and no row says "ok" without having run
//! a string or scanned the code points.
#![no_main]

use iribis_lab::abnf::Grammar;
use iribis_lab::{check, PestGrammar, Scan, Status};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (abnf_text, pest_text) = text.split_once('\0').unwrap_or((&text, ""));
    let Ok(abnf) = Grammar::parse(abnf_text, "fuzz.abnf") else {
        return;
    };
    // Without a pest text, check the ABNF's own transcription.
    let pest_text = if pest_text.is_empty() {
        match iribis_lab::from_abnf(&abnf) {
            Ok(t) => t,
            Err(_) => return,
        }
    } else {
        pest_text.to_string()
    };
    let Ok(pest) = PestGrammar::parse(&pest_text, "fuzz.pest") else {
        return;
    };
    let Ok(report) = check(&abnf, &pest, None, Scan::Classes) else {
        return;
    };
    assert!(report.rows.len() >= abnf.len());
    for row in &report.rows {
        if row.status == Status::Tested {
            assert!(!row.strings.is_empty(), "{row:?}");
        }
    }
});
