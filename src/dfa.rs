//! The minimal DFA of every rule of every profile, generated from the ABNF.
//!
//! Each rule of the grammar, under each profile, is a regular language (no
//! rule is recursive), and `gen/` compiles it into a minimal DFA over UTF-8
//! bytes, checked in under `src/fast/tables/`. The parser's validation and
//! error positions walk these DFAs; [`Dfa`] lets any caller walk them too:
//! to generate inputs, to find where an input stops being valid, or to
//! compare another implementation's language with the spec's.
//!
//! ```
//! use iribis::{dfa::Dfa, GrammarRule, Profile};
//!
//! let rule = GrammarRule::from_name("IRI").unwrap();
//! let dfa = Dfa::of(rule, Profile::Rfc3987bis).unwrap();
//! assert!(dfa.accepts_all("http://例え.jp/"));
//! assert!(!dfa.accepts_all("http://例え.jp/a b"));
//! ```

pub use crate::fast::dead::{DeadEnd, Dfa};
