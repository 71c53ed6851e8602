//! The DFAs of the four reference rules of each profile as a JavaScript
//! module (`wasm/npm/dfa-tables.js`), for the npm package's validator that
//! walks a JavaScript string without entering WebAssembly
//! (`wasm/npm/fast.js`).
//!
//! Each DFA is the rule's minimal DFA over UTF-8 bytes, from the same
//! ABNF and the same determinization as the library's tables, without the
//! delimiter automaton the library crosses its tables with (a verdict
//! needs no component). States that no input tells apart are merged (the
//! determinizer keeps apart states that differ only in whether the byte
//! before ended a match), and so are classes of bytes that lead every
//! state alike. The module holds each DFA as one base64 string of bytes:
//!
//! - the number of states n and of classes c, little-endian `u16`s;
//! - the class of each of the 256 bytes, a byte each;
//! - per state, whether an input may end there (1) or not (0), a byte each;
//! - per state, its c next states, little-endian `u16`s.
//!
//! State 0 is dead (it leads only to itself), state 1 the start.

use std::collections::HashMap;
use std::fmt::Write as _;

use iribis_lab::abnf::Grammar;

use crate::{PROFILES, RuleDfa, TARGETS, minimal_dfa, minimize_states};

/// The module, relative to the repository root.
pub const PATH: &str = "wasm/npm/dfa-tables.js";

/// The module's first line: the [`crate::HEADER`] as a comment.
fn header() -> String {
    format!("// {}", crate::HEADER)
}

/// A reference rule's DFA as the module holds it.
struct JsDfa {
    class: [u8; 256],
    accept: Vec<bool>,
    /// Per state, the next state of each class (state major).
    next: Vec<u16>,
    classes: usize,
}

impl JsDfa {
    /// The DFA of `rule`, minimized over states and classes.
    fn new(rule: &RuleDfa) -> Result<JsDfa, String> {
        let (n, c) = (rule.accept.len(), rule.classes);
        // Minimized first by acceptance (the dead state apart).
        let initial = (0..n)
            .map(|s| match (s == 0, rule.accept[s]) {
                (true, _) => 0,
                (false, false) => 1,
                (false, true) => 2,
            })
            .collect();
        let (order, number) = minimize_states(initial, |s| {
            (0..c).map(|k| usize::from(rule.next[s * c + k])).collect()
        });
        let renumber = |s: u16| number[usize::from(s)];
        // Classes whose columns agree on every state are one class.
        let mut columns: HashMap<Vec<usize>, usize> = HashMap::new();
        let mut merged = vec![0usize; c];
        for (k, m) in merged.iter_mut().enumerate() {
            let column: Vec<usize> = order
                .iter()
                .map(|&s| renumber(rule.next[s * c + k]))
                .collect();
            let fresh = columns.len();
            *m = *columns.entry(column).or_insert(fresh);
        }
        let classes = columns.len();
        let mut next = vec![0u16; order.len() * classes];
        for (t, &s) in order.iter().enumerate() {
            for k in 0..c {
                next[t * classes + merged[k]] = renumber(rule.next[s * c + k]) as u16;
            }
        }
        if order.len() > usize::from(u16::MAX) {
            return Err(format!("{} states, more than a u16 can name", order.len()));
        }
        Ok(JsDfa {
            class: std::array::from_fn(|b| merged[usize::from(rule.class[b])] as u8),
            accept: order.iter().map(|&s| rule.accept[s]).collect(),
            next,
            classes,
        })
    }

    /// The bytes of the module's string (see the module's documentation).
    fn to_bytes(&self) -> Vec<u8> {
        let n = self.accept.len();
        let mut out = Vec::new();
        for k in [n, self.classes] {
            out.extend((k as u16).to_le_bytes());
        }
        out.extend(self.class);
        out.extend(self.accept.iter().map(|&a| u8::from(a)));
        out.extend(self.next.iter().flat_map(|s| s.to_le_bytes()));
        out
    }
}

/// `bytes` in base64 (RFC 4648 §4, with padding).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let v = chunk
            .iter()
            .enumerate()
            .fold(0u32, |v, (i, &b)| v | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(v >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The module's text: per profile, per reference rule (by the profile's
/// own ABNF name), the DFA's base64 string.
///
/// ```
/// let module = iribis_gen::js::module().unwrap();
/// assert!(module.contains("\"rfc3986\": {\n    \"URI-reference\": \""));
/// ```
pub fn module() -> Result<String, String> {
    let mut grammars = HashMap::new();
    for p in PROFILES {
        grammars.insert(
            p,
            Grammar::profile(p).map_err(|e| format!("grammar/abnf: {e}"))?,
        );
    }
    let mut out = header();
    out.push_str(
        "// The minimal DFA over UTF-8 bytes of each reference rule of each profile, from\n\
         // grammar/abnf/ (gen/src/js.rs describes the bytes); wasm/npm/fast.js walks them.\n\
         \"use strict\";\n\nmodule.exports = {\n",
    );
    for profile in PROFILES {
        let _ = writeln!(out, "  \"{profile}\": {{");
        for &(p, rule) in TARGETS.iter().filter(|(p, _)| *p == profile) {
            let err = |e: String| format!("profile {p}, rule {rule}: {e}");
            let dfa = minimal_dfa(&grammars[p], rule).map_err(err)?;
            let js = JsDfa::new(&RuleDfa::new(&dfa).map_err(err)?).map_err(err)?;
            let _ = writeln!(out, "    \"{rule}\": \"{}\",", base64(&js.to_bytes()));
        }
        out.push_str("  },\n");
    }
    out.push_str("};\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::base64;

    #[test]
    fn base64_of_rfc_4648_s_test_vectors() {
        // RFC 4648 §10.
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), coded);
        }
    }
}
