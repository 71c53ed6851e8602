//! The grammar lab: run pest grammars loaded at run time, trace their PEG
//! parse ([`PestGrammar::trace`]), compare two of them over a corpus, check
//! a pest grammar against the spec's ABNF, and transcribe ABNF into pest. The `iri grammar` commands are built on it.
//!
//! ```
//! use iribis::Profile;
//! use iribis_lab::PestGrammar;
//!
//! // The built-in grammar, edited: ireg-name without the erratum's pct-form.
//! let text = PestGrammar::builtin_source(Profile::Rfc3987bis)
//!     .replace("ireg_name = { (iunreserved | pct_form | sub_delims)* }", "ireg_name = { (iunreserved | sub_delims)* }");
//! let edited = PestGrammar::parse(&text, "edited.pest").unwrap();
//! let builtin = PestGrammar::builtin(Profile::Rfc3987bis);
//! assert!(builtin.accepts("IRI", "http://r%C3%A9sum%C3%A9.example.org"));
//! assert!(!edited.accepts("IRI", "http://r%C3%A9sum%C3%A9.example.org"));
//! ```

pub mod abnf;
mod automaton;
mod diff;
mod fidelity;
mod from_abnf;
mod language;
mod limits;
mod meta_cost;
pub mod playground;
mod runtime;
mod trace;

pub use diff::{DiffKind, DiffReport, Difference, Side, diff};
pub use fidelity::{CheckReport, CheckRow, Scan, Status, TestString, check, check_abnf};
pub use from_abnf::{FromAbnfError, from_abnf};
pub use language::shortest;
pub use limits::{MAX_EXPRESSIONS, MAX_NESTING, MAX_REPETITION};
pub use meta_cost::MAX_VALIDATION_STEPS;
pub use runtime::{GrammarError, PestGrammar, RuntimeFailure, RuntimeNode, RuntimeTree, spelling};
pub use trace::{
    Attempt, DEFAULT_MAX_EVENTS, MAX_TRACE_DEPTH, MAX_TRACE_STEPS, Trace, TraceEvent, TraceMode,
    TraceOptions, Verdict,
};

/// The default corpus of `iri grammar diff`: every spec example, every
/// table-test input and a few inputs for common experiments (RFC 6874 zone
/// identifiers, percent-encoded hosts): `crates/lab/corpus/`, one input per
/// line, built in.
///
/// ```
/// let corpus: Vec<&str> = iribis_lab::default_corpus().collect();
/// assert!(corpus.contains(&"http://r%C3%A9sum%C3%A9.example.org"));
/// assert!(corpus.contains(&""));
/// ```
pub fn default_corpus() -> impl Iterator<Item = &'static str> {
    [
        include_str!("../corpus/spec-examples.txt"),
        include_str!("../corpus/rules.txt"),
        include_str!("../corpus/experiments.txt"),
    ]
    .into_iter()
    .flat_map(str::lines)
}
