//! The grammar lab: run pest grammars loaded at run time, trace their PEG
//! parse ([`PestGrammar::trace`]), compare two of them over a corpus, check
//! a pest grammar against the spec's ABNF, and transcribe ABNF into pest. The `iri grammar` commands are built on it.
//!
//! ```
//! use iribis::{lab::PestGrammar, Profile};
//!
//! // The built-in grammar, edited: ireg-name without the erratum's pct-form.
//! let text = PestGrammar::builtin_source(Profile::Rfc3987bis)
//!     .replace("ireg_name = { (iunreserved | pct_form | sub_delims)* }", "ireg_name = { (iunreserved | sub_delims)* }");
//! let edited = PestGrammar::parse(&text, "edited.pest").unwrap();
//! let builtin = PestGrammar::builtin(Profile::Rfc3987bis);
//! assert!(builtin.accepts("IRI", "http://r%C3%A9sum%C3%A9.example.org"));
//! assert!(!edited.accepts("IRI", "http://r%C3%A9sum%C3%A9.example.org"));
//! ```

mod automaton;
mod diff;
mod fidelity;
mod from_abnf;
pub(crate) mod language;
mod limits;
mod meta_cost;
#[cfg(feature = "playground")]
pub mod playground;
mod runtime;
mod trace;

pub use diff::{diff, DiffKind, DiffReport, Difference, Side};
pub use fidelity::{check, check_abnf, CheckReport, CheckRow, Scan, Status, TestString};
pub use from_abnf::{from_abnf, FromAbnfError};
pub use limits::{MAX_EXPRESSIONS, MAX_NESTING, MAX_REPETITION};
pub use meta_cost::MAX_VALIDATION_STEPS;
pub use runtime::{spelling, GrammarError, PestGrammar, RuntimeFailure, RuntimeNode, RuntimeTree};
pub use trace::{
    Attempt, Trace, TraceEvent, TraceMode, TraceOptions, Verdict, DEFAULT_MAX_EVENTS,
    MAX_TRACE_DEPTH, MAX_TRACE_STEPS,
};

/// The default corpus of `iri grammar diff`: every spec example, every
/// table-test input and a few inputs for common experiments (RFC 6874 zone
/// identifiers, percent-encoded hosts): `grammar/corpus/`, one input per
/// line, built in.
///
/// ```
/// let corpus: Vec<&str> = iribis::lab::default_corpus().collect();
/// assert!(corpus.contains(&"http://r%C3%A9sum%C3%A9.example.org"));
/// assert!(corpus.contains(&""));
/// ```
pub fn default_corpus() -> impl Iterator<Item = &'static str> {
    [
        include_str!("../../grammar/corpus/spec-examples.txt"),
        include_str!("../../grammar/corpus/rules.txt"),
        include_str!("../../grammar/corpus/experiments.txt"),
    ]
    .into_iter()
    .flat_map(str::lines)
}
