//! Compiles the spec's ABNF into DFAs for the fast path (`src/fast/`).
//!
//! For each profile, the ABNF files of `grammar/abnf/` are read with the
//! crate's own ABNF reader (`src/abnf/`, included here by path), the start
//! rule is expanded into one regular expression syntax tree (`regex-syntax`
//! `Hir`: no rule of the grammar is recursive, so this terminates and the
//! language is regular), and `regex-automata` determinizes it into a dense
//! DFA over UTF-8 bytes, which is serialized into `OUT_DIR` in the target's
//! byte order.
//!
//! ABNF semantics map one to one: alternation is unordered (the DFA reports
//! every match, `MatchKind::All`), quoted strings are case-insensitive in
//! ASCII (RFC 5234 §2.3), `%x` ranges are ranges of code points (RFC 5234
//! §2.4) that the regex compiler turns into UTF-8 byte sequences.

#[path = "src/abnf/mod.rs"]
#[allow(dead_code)]
mod abnf;

use std::collections::HashMap;
use std::path::PathBuf;

use regex_automata::dfa::{dense, StartKind};
use regex_automata::nfa::thompson;
use regex_automata::MatchKind;
use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange, Hir, Repetition};

use crate::abnf::{Grammar, Node};

/// (profile, start rule): the four reference rules of each profile, under
/// their RFC 3986 names for `rfc3986`.
const TARGETS: &[(&str, &str)] = &[
    ("rfc3987bis", "IRI-reference"),
    ("rfc3987bis", "IRI"),
    ("rfc3987bis", "absolute-IRI"),
    ("rfc3987bis", "irelative-ref"),
    ("rfc3987", "IRI-reference"),
    ("rfc3987", "IRI"),
    ("rfc3987", "absolute-IRI"),
    ("rfc3987", "irelative-ref"),
    ("leiri", "IRI-reference"),
    ("leiri", "IRI"),
    ("leiri", "absolute-IRI"),
    ("leiri", "irelative-ref"),
    ("rfc3986", "URI-reference"),
    ("rfc3986", "URI"),
    ("rfc3986", "absolute-URI"),
    ("rfc3986", "relative-ref"),
];

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=grammar/abnf");
    println!("cargo::rerun-if-changed=src/abnf");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let big_endian = std::env::var("CARGO_CFG_TARGET_ENDIAN").is_ok_and(|e| e == "big");
    let mut grammars = HashMap::new();
    for &(profile, rule) in TARGETS {
        let grammar = grammars.entry(profile).or_insert_with(|| {
            Grammar::profile(profile).unwrap_or_else(|e| panic!("grammar/abnf: {e}"))
        });
        let hir = Translator::new(grammar)
            .rule(rule)
            .unwrap_or_else(|e| panic!("profile {profile}, rule {rule}: {e}"));
        let nfa = thompson::Compiler::new()
            .configure(thompson::Config::new().shrink(true))
            .build_from_hir(&hir)
            .unwrap_or_else(|e| panic!("profile {profile}, rule {rule}: NFA: {e}"));
        let dfa = dense::Builder::new()
            .configure(
                dense::Config::new()
                    .match_kind(MatchKind::All)
                    .start_kind(StartKind::Anchored)
                    .minimize(true),
            )
            .build_from_nfa(&nfa)
            .unwrap_or_else(|e| panic!("profile {profile}, rule {rule}: DFA: {e}"));
        let (bytes, pad) = if big_endian {
            dfa.to_bytes_big_endian()
        } else {
            dfa.to_bytes_little_endian()
        };
        let path = out.join(format!("{profile}-{rule}.dfa"));
        std::fs::write(&path, &bytes[pad..]).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

/// Expands rules into `Hir`, each rule once.
struct Translator<'g> {
    grammar: &'g Grammar,
    done: HashMap<String, Hir>,
    /// The rules being expanded, to report a recursive rule.
    stack: Vec<String>,
}

impl<'g> Translator<'g> {
    fn new(grammar: &'g Grammar) -> Self {
        Translator {
            grammar,
            done: HashMap::new(),
            stack: Vec::new(),
        }
    }

    fn rule(&mut self, name: &str) -> Result<Hir, String> {
        let key = name.to_ascii_lowercase();
        if let Some(h) = self.done.get(&key) {
            return Ok(h.clone());
        }
        if self.stack.contains(&key) {
            return Err(format!(
                "rule {name} is recursive ({}): its language may not be regular",
                self.stack.join(" -> ")
            ));
        }
        let Some(rule) = self.grammar.get(name) else {
            return Err(format!("rule {name} is not defined"));
        };
        self.stack.push(key.clone());
        let hir = self.node(&rule.node);
        self.stack.pop();
        let hir = hir.map_err(|e| format!("in rule {name}: {e}"))?;
        self.done.insert(key, hir.clone());
        Ok(hir)
    }

    fn node(&mut self, node: &Node) -> Result<Hir, String> {
        Ok(match node {
            Node::Alternation(v) => {
                Hir::alternation(v.iter().map(|n| self.node(n)).collect::<Result<_, _>>()?)
            }
            Node::Concatenation(v) => {
                Hir::concat(v.iter().map(|n| self.node(n)).collect::<Result<_, _>>()?)
            }
            // `0<pchar>` (RFC 3986's path-empty) and any `*0x`: the empty string.
            Node::Repetition { max: Some(0), .. } => Hir::empty(),
            Node::Repetition { min, max, node } => Hir::repetition(Repetition {
                min: *min,
                max: *max,
                greedy: true,
                sub: Box::new(self.node(node)?),
            }),
            Node::Chars {
                text,
                case_sensitive,
            } => Hir::concat(
                text.chars()
                    .map(|c| {
                        if !case_sensitive && c.is_ascii_alphabetic() {
                            class(&[
                                (c.to_ascii_lowercase() as u32, c.to_ascii_lowercase() as u32),
                                (c.to_ascii_uppercase() as u32, c.to_ascii_uppercase() as u32),
                            ])
                        } else {
                            class(&[(c as u32, c as u32)])
                        }
                    })
                    .collect(),
            ),
            Node::Range(a, b) => class(&[(*a, *b)]),
            Node::Sequence(v) => Hir::concat(v.iter().map(|&c| class(&[(c, c)])).collect()),
            Node::Rule(name) => self.rule(name)?,
            Node::Prose(p) => return Err(format!("prose <{p}> has no meaning a DFA can take")),
        })
    }
}

/// A class of code points from inclusive ranges. The surrogates
/// U+D800..U+DFFF are not characters of a Rust string and are left out.
fn class(ranges: &[(u32, u32)]) -> Hir {
    let mut out = Vec::new();
    for &(a, b) in ranges {
        for (lo, hi) in [(a, b.min(0xD7FF)), (a.max(0xE000), b.min(0x10FFFF))] {
            if lo <= hi {
                let lo = char::from_u32(lo).expect("not a surrogate");
                let hi = char::from_u32(hi).expect("not a surrogate");
                out.push(ClassUnicodeRange::new(lo, hi));
            }
        }
    }
    Hir::class(regex_syntax::hir::Class::Unicode(ClassUnicode::new(out)))
}
