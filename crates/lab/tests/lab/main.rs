//! The grammar lab: runtime grammars, the check against the ABNF, diffs, traces, transcription from ABNF, its default corpus, and hostile grammars.

mod grammar_lab;
mod grammar_trace;
mod hostile_lab;
