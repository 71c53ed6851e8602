//! An ABNF reader (RFC 5234, with the case-sensitive strings of RFC 7405):
//! grammar files in, a map of rules with a small syntax tree out.
//!
//! The text is parsed by the `abnf` crate; this module turns its rules into
//! our own tree ([`Node`]), which says only what a rule means (groups are
//! gone, `[x]` is a repetition of 0 to 1, `=/` is folded into its rule), and
//! combines several files the way our profiles do: a rule defined in a later
//! file replaces the rule of the same name defined earlier
//! (see `grammar/abnf/` and [`PROFILES`]).
//!
//! The module depends on nothing else in this crate, so a build script of
//! this crate can compile it too (a `#[path]` to this file, with `abnf` as a
//! build dependency). The spec files are embedded ([`builtin_file`]), so
//! [`Grammar::profile`] needs no files at run time.
//!
//! ```
//! use iribis_lab::abnf::{Grammar, Node};
//!
//! let g = Grammar::profile("rfc3987bis")?;
//! // The erratum file replaced the printed ireg-name.
//! assert_eq!(g.get("ireg-name").unwrap().origin, "3987bis-errata.abnf");
//! // Rule names are case-insensitive (RFC 5234 §2.1).
//! assert!(matches!(g.get("digit").unwrap().node, Node::Range(0x30, 0x39)));
//! # Ok::<(), iribis_lab::abnf::AbnfError>(())
//! ```

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::Path;

/// The deepest nesting of groups (`( )`, `[ ]`) an ABNF text may have; the
/// grammar lab holds runtime pest grammars to the same number of nested
/// brackets. Reading is recursive, so a deeper text is refused before it is
/// parsed: `grammar nesting deeper than 1,000 levels`. In WebAssembly
/// (`wasm32-unknown-unknown`, the playground's static page), where the
/// readers run on the caller's stack, 100.
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
pub const MAX_NESTING: usize = 1000;
/// The deepest nesting of groups: 100 in WebAssembly, whose readers run on
/// the caller's stack (no threads); 1,000 natively.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub const MAX_NESTING: usize = 100;

/// The largest repetition count (`n*m` in ABNF, `{n}` in pest) the grammar
/// lab accepts: `repetition count 100000 is larger than 10000`. A count is
/// copied out in full by pest (`e{n}` is n copies of `e`) and by the strings
/// the lab derives from a rule. In WebAssembly (the playground's static
/// page), where the copies are walked on the caller's stack, 1,000.
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
pub const MAX_REPETITION: u32 = 10_000;
/// The largest repetition count: 1,000 in WebAssembly, whose lab walks the
/// copies on the caller's stack; 10,000 natively.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub const MAX_REPETITION: u32 = 1_000;

/// The stack of the thread the ABNF text is parsed on (the abnf crate's
/// parser recurses on groups, at most [`MAX_NESTING`] deep).
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
const READER_STACK: usize = 256 << 20;

/// What a rule matches.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Node {
    /// `a / b / c`: any of the alternatives (RFC 5234 §3.2). ABNF
    /// alternation is unordered; the order is kept as written.
    Alternation(Vec<Node>),
    /// `a b c`: each in turn (RFC 5234 §3.1).
    Concatenation(Vec<Node>),
    /// `min*max element` (RFC 5234 §3.6, §3.7), `[element]` (§3.8, as 0 to 1).
    Repetition {
        /// The least number of occurrences.
        min: u32,
        /// The most, `None` for no limit.
        max: Option<u32>,
        /// What is repeated.
        node: Box<Node>,
    },
    /// A quoted string (RFC 5234 §2.3): case-insensitive unless written
    /// `%s"..."` (RFC 7405). May be empty (`""`).
    Chars {
        /// The characters between the quotes.
        text: String,
        /// `true` only for `%s"..."`.
        case_sensitive: bool,
    },
    /// `%xA0-D7FF`: one code point in the inclusive range (RFC 5234 §2.4).
    Range(u32, u32),
    /// `%x0D.0A`: these code points in sequence (RFC 5234 §2.4); a single
    /// value `%x22` is a sequence of one.
    Sequence(Vec<u32>),
    /// A reference to another rule, spelled as written.
    Rule(String),
    /// `<prose>`: a prose description (RFC 5234 §4); RFC 3986 writes
    /// `0<pchar>`, zero repetitions of it, for the empty string.
    Prose(String),
}

/// A rule of a [`Grammar`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Rule {
    /// The name as defined (`IPv6address`, `ireg-name`).
    pub name: String,
    /// What it matches; a rule extended with `=/` is an [`Node::Alternation`]
    /// of all its parts.
    pub node: Node,
    /// The file (or other origin) the definition was read from.
    pub origin: String,
}

/// A set of ABNF rules, in definition order, looked up by name regardless of
/// case.
#[derive(Clone, Debug, Default)]
pub struct Grammar {
    rules: Vec<Rule>,
    /// Lowercase name to index in `rules`.
    index: HashMap<String, usize>,
}

/// An ABNF file that cannot be read or parsed, or a rule list that does not
/// make sense (`=/` of an undefined rule, a rule defined twice in one file).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct AbnfError {
    /// The file (or other origin) at fault.
    pub origin: String,
    /// The line, counting from 1, when known.
    pub line: Option<usize>,
    /// What is wrong; the abnf crate's report for syntax errors.
    pub message: String,
}

impl fmt::Display for AbnfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}: {}", self.origin, line, self.message),
            None => write!(f, "{}: {}", self.origin, self.message),
        }
    }
}

impl std::error::Error for AbnfError {}

/// The ABNF files of each profile, in load order (names of files in
/// `grammar/abnf/`; see [`builtin_file`]).
pub const PROFILES: &[(&str, &[&str])] = iribis::grammar::ABNF_PROFILES;

/// The text of a file of `grammar/abnf/`, built into the library
/// ([`iribis::grammar::abnf_file`]).
///
/// ```
/// let text = iribis_lab::abnf::builtin_file("3987bis-errata.abnf").unwrap();
/// assert!(text.contains("ireg-name"));
/// assert!(iribis_lab::abnf::builtin_file("nope.abnf").is_none());
/// ```
pub fn builtin_file(name: &str) -> Option<&'static str> {
    iribis::grammar::abnf_file(name)
}

/// The pest spelling of an ABNF rule name: `-` becomes `_`.
///
/// ```
/// assert_eq!(iribis_lab::abnf::pest_name("IP-literal"), "IP_literal");
/// ```
pub fn pest_name(abnf_name: &str) -> String {
    abnf_name.replace('-', "_")
}

impl Grammar {
    /// An empty grammar.
    ///
    /// ```
    /// assert!(iribis_lab::abnf::Grammar::new().is_empty());
    /// ```
    pub fn new() -> Grammar {
        Grammar::default()
    }

    /// Parses one ABNF text; `origin` names it in errors and in
    /// [`Rule::origin`].
    ///
    /// ```
    /// use iribis_lab::abnf::{Grammar, Node};
    ///
    /// let g = Grammar::parse("a = \"x\" b\nb = 1*2%x30-39\n", "mine.abnf")?;
    /// assert_eq!(g.len(), 2);
    /// assert_eq!(
    ///     g.get("b").unwrap().node,
    ///     Node::Repetition { min: 1, max: Some(2), node: Box::new(Node::Range(0x30, 0x39)) }
    /// );
    /// assert!(Grammar::parse("a = (b\n", "bad.abnf").is_err());
    /// # Ok::<(), iribis_lab::abnf::AbnfError>(())
    /// ```
    pub fn parse(text: &str, origin: &str) -> Result<Grammar, AbnfError> {
        let mut g = Grammar::new();
        g.add(text, origin)?;
        Ok(g)
    }

    /// Adds the rules of an ABNF text: a rule of the same name as one
    /// already present (from an earlier text) replaces it in place; `=/`
    /// adds alternatives to a rule defined earlier in this text or before.
    ///
    /// ```
    /// use iribis_lab::abnf::{Grammar, Node};
    ///
    /// let mut g = Grammar::parse("a = \"x\"\nb = a\n", "one.abnf")?;
    /// g.add("a = \"y\"\n", "two.abnf")?;
    /// assert_eq!(g.get("a").unwrap().origin, "two.abnf");
    /// assert_eq!(g.rules().next().unwrap().name, "a");
    /// # Ok::<(), iribis_lab::abnf::AbnfError>(())
    /// ```
    pub fn add(&mut self, text: &str, origin: &str) -> Result<(), AbnfError> {
        // The abnf crate wants each rule, the last one too, ended by a
        // newline, and accepts a bare LF for CRLF.
        let mut owned;
        let mut text = text;
        if !text.ends_with('\n') {
            owned = text.to_string();
            owned.push('\n');
            text = &owned;
        }
        scan(text, origin)?;
        let parsed = read(text, origin)?;
        let mut defined_here: HashSet<String> = HashSet::new();
        for (r, node) in parsed {
            let key = r.name().to_ascii_lowercase();
            match r.kind() {
                abnf::types::Kind::Basic => {
                    if defined_here.contains(&key) {
                        return Err(AbnfError {
                            origin: origin.to_string(),
                            line: line_of(text, r.name()),
                            message: format!(
                                "rule {} is defined twice: write its other alternatives with =/ or remove one",
                                r.name()
                            ),
                        });
                    }
                    defined_here.insert(key.clone());
                    let rule = Rule {
                        name: r.name().to_string(),
                        node,
                        origin: origin.to_string(),
                    };
                    match self.index.get(&key) {
                        Some(&i) => self.rules[i] = rule,
                        None => {
                            self.index.insert(key, self.rules.len());
                            self.rules.push(rule);
                        }
                    }
                }
                abnf::types::Kind::Incremental => {
                    let Some(&i) = self.index.get(&key) else {
                        return Err(AbnfError {
                            origin: origin.to_string(),
                            line: line_of(text, r.name()),
                            message: format!(
                                "rule {} is extended with =/ before it is defined: define it with = first",
                                r.name()
                            ),
                        });
                    };
                    let old =
                        std::mem::replace(&mut self.rules[i].node, Node::Alternation(Vec::new()));
                    let mut alts = match old {
                        Node::Alternation(a) => a,
                        other => vec![other],
                    };
                    match node {
                        Node::Alternation(more) => alts.extend(more),
                        other => alts.push(other),
                    }
                    self.rules[i].node = Node::Alternation(alts);
                }
            }
        }
        Ok(())
    }

    /// Reads and adds files in order (see [`Grammar::add`]); each rule's
    /// origin is the file's path as given.
    ///
    /// ```no_run
    /// let g = iribis_lab::abnf::Grammar::load(&["../../grammar/abnf/rfc3986.abnf"])?;
    /// assert!(g.get("URI").is_some());
    /// # Ok::<(), iribis_lab::abnf::AbnfError>(())
    /// ```
    pub fn load<P: AsRef<Path>>(paths: &[P]) -> Result<Grammar, AbnfError> {
        let mut g = Grammar::new();
        for p in paths {
            let p = p.as_ref();
            let origin = p.display().to_string();
            let text = std::fs::read_to_string(p).map_err(|e| AbnfError {
                origin: origin.clone(),
                line: None,
                message: format!("cannot read the file: {e}"),
            })?;
            g.add(&text, &origin)?;
        }
        Ok(g)
    }

    /// The ABNF of a profile (`rfc3987bis`, `rfc3987`, `leiri`, `rfc3986`)
    /// from the embedded files of [`PROFILES`]; each rule's origin is the
    /// bare file name.
    ///
    /// ```
    /// let g = iribis_lab::abnf::Grammar::profile("rfc3986")?;
    /// assert!(g.get("URI-reference").is_some());
    /// assert!(iribis_lab::abnf::Grammar::profile("rfc9999").is_err());
    /// # Ok::<(), iribis_lab::abnf::AbnfError>(())
    /// ```
    pub fn profile(name: &str) -> Result<Grammar, AbnfError> {
        let Some((_, files)) = PROFILES.iter().find(|(p, _)| *p == name) else {
            let known: Vec<&str> = PROFILES.iter().map(|(p, _)| *p).collect();
            return Err(AbnfError {
                origin: name.to_string(),
                line: None,
                message: format!("no such profile: use one of {}", known.join(", ")),
            });
        };
        let mut g = Grammar::new();
        for f in *files {
            let text = builtin_file(f)
                .unwrap_or_else(|| unreachable!("every file of PROFILES is embedded"));
            g.add(text, f)?;
        }
        Ok(g)
    }

    /// Adds a rule built by the lab (not read from ABNF text), replacing one
    /// of the same name.
    pub(crate) fn insert(&mut self, rule: Rule) {
        let key = rule.name.to_ascii_lowercase();
        match self.index.get(&key) {
            Some(&i) => self.rules[i] = rule,
            None => {
                self.index.insert(key, self.rules.len());
                self.rules.push(rule);
            }
        }
    }

    /// The rule of this name, compared without regard to case.
    pub fn get(&self, name: &str) -> Option<&Rule> {
        self.index
            .get(&name.to_ascii_lowercase())
            .map(|&i| &self.rules[i])
    }

    /// The rules in the order they were first defined.
    pub fn rules(&self) -> impl Iterator<Item = &Rule> {
        self.rules.iter()
    }

    /// The number of rules.
    pub fn len(&self) -> usize {
        self.rules.len()
    }

    /// Whether there are no rules.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }
}

/// Parses with the abnf crate and converts each rule's tree, on a thread
/// with a known stack (both recurse on groups, which [`scan`] has bounded).
fn read(text: &str, origin: &str) -> Result<Vec<(abnf::types::Rule, Node)>, AbnfError> {
    let run = || {
        abnf::rulelist(text)
            .map(|rules| {
                rules
                    .into_iter()
                    .map(|r| {
                        let node = convert(r.node());
                        (r, node)
                    })
                    .collect::<Vec<_>>()
            })
            .map_err(|e| syntax_error(&e.to_string(), origin))
    };
    // No threads in WebAssembly (see `limits::on_big_stack`): read on
    // the caller's stack, which the wasm MAX_NESTING is sized for.
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    return run();
    #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
    std::thread::scope(|s| {
        let thread = std::thread::Builder::new()
            .name("iribis-abnf".into())
            .stack_size(READER_STACK)
            .spawn_scoped(s, run);
        match thread.map(|t| t.join()) {
            Ok(Ok(result)) => result,
            Ok(Err(_)) => Err(AbnfError {
                origin: origin.to_string(),
                line: None,
                message: "internal error while reading the ABNF (please report it)".into(),
            }),
            Err(e) => Err(AbnfError {
                origin: origin.to_string(),
                line: None,
                message: format!("cannot start the thread that reads the ABNF: {e}"),
            }),
        }
    })
}

/// Checks an ABNF text against [`MAX_NESTING`] and [`MAX_REPETITION`]
/// without parsing it: comments, strings, prose and numeric values are
/// skipped, brackets counted, and the numbers left are repetition counts.
fn scan(text: &str, origin: &str) -> Result<(), AbnfError> {
    let b = text.as_bytes();
    let (mut i, mut line, mut depth) = (0, 1, 0usize);
    let fail = |line: usize, message: String| AbnfError {
        origin: origin.to_string(),
        line: Some(line),
        message,
    };
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => line += 1,
            b';' => {
                while i + 1 < b.len() && b[i + 1] != b'\n' {
                    i += 1;
                }
            }
            b'"' | b'<' => {
                let end = if c == b'"' { b'"' } else { b'>' };
                i += 1;
                while i < b.len() && b[i] != end {
                    line += usize::from(b[i] == b'\n');
                    i += 1;
                }
            }
            b'%' => {
                // %x41-5A, %d13.10, %s"..." (the string is skipped next).
                i += 1;
                if b.get(i).is_some_and(|c| b"xXdDbB".contains(c)) {
                    i += 1;
                    while i < b.len() && (b[i].is_ascii_hexdigit() || b[i] == b'.' || b[i] == b'-')
                    {
                        i += 1;
                    }
                }
                continue;
            }
            b'(' | b'[' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(fail(
                        line,
                        format!("grammar nesting deeper than {MAX_NESTING_TEXT} levels"),
                    ));
                }
            }
            b')' | b']' => depth = depth.saturating_sub(1),
            _ if c.is_ascii_alphabetic() => {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'-') {
                    i += 1;
                }
                continue;
            }
            _ if c.is_ascii_digit() => {
                let start = i;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                let n = &text[start..i];
                if n.parse::<u32>().map_or(true, |n| n > MAX_REPETITION) {
                    let n = n.trim_start_matches('0');
                    return Err(fail(
                        line,
                        format!("repetition count {n} is larger than {MAX_REPETITION}"),
                    ));
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// [`MAX_NESTING`] as written in messages.
const MAX_NESTING_TEXT: &str = "1,000";

/// Our tree for a node of the abnf crate.
fn convert(node: &abnf::types::Node) -> Node {
    use abnf::types::{Node as A, TerminalValues};
    match node {
        A::Alternatives(v) => Node::Alternation(v.iter().map(convert).collect()),
        A::Concatenation(v) => Node::Concatenation(v.iter().map(convert).collect()),
        A::Repetition { repeat, node } => {
            let (min, max) = repeat.min_max();
            Node::Repetition {
                min: min.map_or(0, to_u32),
                max: max.map(to_u32),
                node: Box::new(convert(node)),
            }
        }
        A::Rulename(name) => Node::Rule(name.clone()),
        A::Group(inner) => convert(inner),
        A::Optional(inner) => Node::Repetition {
            min: 0,
            max: Some(1),
            node: Box::new(convert(inner)),
        },
        A::String(s) => Node::Chars {
            text: s.value().to_string(),
            case_sensitive: s.is_case_sensitive(),
        },
        A::TerminalValues(TerminalValues::Range(a, b)) => Node::Range(*a, *b),
        A::TerminalValues(TerminalValues::Concatenation(v)) => Node::Sequence(v.clone()),
        A::Prose(p) => Node::Prose(p.clone()),
    }
}

/// A repetition count; counts beyond `u32` cannot occur in a grammar anyone
/// could run, so they saturate.
fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The line (from 1) where `name` is defined first or extended, for errors.
fn line_of(text: &str, name: &str) -> Option<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            l.get(..name.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(name))
                && l[name.len()..].trim_start().starts_with('=')
        })
        .last()
        .map(|(i, _)| i + 1)
}

/// Condenses the abnf crate's report (nom's verbose error: a stack of
/// contexts, each "N: at line L, in Kind:" followed by the line and a caret)
/// to its innermost context.
fn syntax_error(report: &str, origin: &str) -> AbnfError {
    let mut lines = report.lines();
    let head = lines.next().unwrap_or("");
    let line = head
        .split("at line ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse::<usize>().ok());
    let expected = head
        .rsplit("in ")
        .next()
        .unwrap_or("")
        .trim_end_matches(':')
        .trim();
    let source = lines.next().unwrap_or("");
    let caret = lines.next().unwrap_or("");
    let mut message =
        format!("invalid ABNF (the parser stopped in {expected}): fix the syntax at the caret");
    if !source.is_empty() {
        message.push_str(&format!("\n    {source}\n    {caret}"));
    }
    AbnfError {
        origin: origin.to_string(),
        line,
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rep(min: u32, max: Option<u32>, node: Node) -> Node {
        Node::Repetition {
            min,
            max,
            node: Box::new(node),
        }
    }

    #[test]
    fn every_profile_loads() {
        for (name, _) in PROFILES {
            let g = Grammar::profile(name).unwrap();
            assert!(g.len() > 30, "{name}: {} rules", g.len());
            // Every reference resolves (prose aside).
            fn refs<'a>(n: &'a Node, out: &mut Vec<&'a str>) {
                match n {
                    Node::Alternation(v) | Node::Concatenation(v) => {
                        v.iter().for_each(|n| refs(n, out))
                    }
                    Node::Repetition { node, .. } => refs(node, out),
                    Node::Rule(r) => out.push(r),
                    _ => {}
                }
            }
            for r in g.rules() {
                let mut out = Vec::new();
                refs(&r.node, &mut out);
                for x in out {
                    assert!(
                        g.get(x).is_some(),
                        "{name}: {} refers to undefined {x}",
                        r.name
                    );
                }
            }
        }
    }

    #[test]
    fn profiles_combine_files() {
        let bis = Grammar::profile("rfc3987bis").unwrap();
        let ireg = bis.get("ireg-name").unwrap();
        assert_eq!(ireg.origin, "3987bis-errata.abnf");
        assert_eq!(
            ireg.node,
            rep(
                0,
                None,
                Node::Alternation(vec![
                    Node::Rule("iunreserved".into()),
                    Node::Rule("pct-form".into()),
                    Node::Rule("sub-delims".into()),
                ])
            )
        );
        // Replaced in place: ireg-name keeps its position after ihost.
        let names: Vec<&str> = bis.rules().map(|r| r.name.as_str()).collect();
        let pos = |n: &str| names.iter().position(|x| *x == n).unwrap();
        assert_eq!(pos("ireg-name"), pos("pct-form") + 1);

        let rfc3987 = Grammar::profile("rfc3987").unwrap();
        let Node::Alternation(alts) = &rfc3987.get("iprivate").unwrap().node else {
            panic!()
        };
        assert_eq!(alts.len(), 3);
        let leiri = Grammar::profile("leiri").unwrap();
        assert_eq!(
            leiri.get("ucschar").unwrap().node,
            Node::Rule("leiri-ucschar".into())
        );
        assert_eq!(leiri.len(), bis.len());
    }

    #[test]
    fn values_of_the_spec_files() {
        let bis = Grammar::profile("rfc3987bis").unwrap();
        // Up to U+10FFFF.
        let Node::Alternation(alts) = &bis.get("leiri-ucschar").unwrap().node else {
            panic!()
        };
        assert_eq!(alts.last(), Some(&Node::Range(0x10000, 0x10FFFF)));
        assert_eq!(
            alts[0],
            Node::Chars {
                text: " ".into(),
                case_sensitive: false
            }
        );
        assert_eq!(
            alts[7],
            Node::Chars {
                text: "\\".into(),
                case_sensitive: false
            }
        );
        assert_eq!(bis.get("DQUOTE").unwrap().node, Node::Sequence(vec![0x22]));
        assert_eq!(
            bis.get("ipath-empty").unwrap().node,
            Node::Chars {
                text: String::new(),
                case_sensitive: false
            }
        );
        assert_eq!(
            bis.get("h16").unwrap().node,
            rep(1, Some(4), Node::Rule("HEXDIG".into()))
        );
        // 6( h16 ":" ) and [ *1( h16 ":" ) h16 ]
        let Node::Alternation(v6) = &bis.get("IPv6address").unwrap().node else {
            panic!()
        };
        assert_eq!(v6.len(), 9);
        let pair = Node::Concatenation(vec![
            Node::Rule("h16".into()),
            Node::Chars {
                text: ":".into(),
                case_sensitive: false,
            },
        ]);
        assert_eq!(
            v6[0],
            Node::Concatenation(vec![
                rep(6, Some(6), pair.clone()),
                Node::Rule("ls32".into())
            ])
        );
        let Node::Concatenation(fourth) = &v6[3] else {
            panic!()
        };
        assert_eq!(
            fourth[0],
            rep(
                0,
                Some(1),
                Node::Concatenation(vec![rep(0, Some(1), pair), Node::Rule("h16".into())])
            )
        );

        let uri = Grammar::profile("rfc3986").unwrap();
        // path-empty = 0<pchar>
        assert_eq!(
            uri.get("path-empty").unwrap().node,
            rep(0, Some(0), Node::Prose("pchar".into()))
        );
        assert!(uri.get("ucschar").is_none());
    }

    #[test]
    fn syntax_of_rfc_5234_and_7405() {
        let g = Grammar::parse(
            "; comment\r\na = %s\"aB\" / %i\"x\" / %d13.10 / %b101-111 ; tail\r\n    / <free text>\r\na =/ b\r\nb = \"\"\r\n",
            "t.abnf",
        )
        .unwrap();
        assert_eq!(
            g.get("A").unwrap().node,
            Node::Alternation(vec![
                Node::Chars {
                    text: "aB".into(),
                    case_sensitive: true
                },
                Node::Chars {
                    text: "x".into(),
                    case_sensitive: false
                },
                Node::Sequence(vec![13, 10]),
                Node::Range(5, 7),
                Node::Prose("free text".into()),
                Node::Rule("b".into()),
            ])
        );
        // No final newline.
        assert_eq!(Grammar::parse("a = b", "t").unwrap().len(), 1);
    }

    #[test]
    fn errors_say_where() {
        let e = Grammar::parse("a = b\nc = (d\n", "bad.abnf").unwrap_err();
        assert_eq!(e.origin, "bad.abnf");
        assert_eq!(e.line, Some(2), "{e}");
        assert!(e.to_string().starts_with("bad.abnf:2: invalid ABNF"), "{e}");

        let e = Grammar::parse("a = b\na = c\n", "twice.abnf").unwrap_err();
        assert_eq!(
            (e.line, e.message.contains("defined twice")),
            (Some(2), true),
            "{e}"
        );
        let e = Grammar::parse("x = y\na =/ c\n", "inc.abnf").unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
        let e = Grammar::load(&["/nonexistent/x.abnf"]).unwrap_err();
        assert!(e.message.starts_with("cannot read the file"), "{e}");
    }
}
