//! `iri grammar from-abnf`: ABNF in, pest out, with the spots where PEG's
//! ordered choice and greedy repetition may change the language flagged.

use std::collections::HashMap;
use std::fmt;

use super::language::{CharSet, normalize, undefined};
use super::{PestGrammar, limits};
use crate::abnf::{Grammar, Node, pest_name};

/// Why [`from_abnf`] wrote nothing: the ABNF uses a rule it does not define,
/// or the transcription does not load in pest (a left-recursive rule, which
/// PEG cannot run; a rule named like a pest built-in; a grammar over the
/// lab's limits once pest unrolls its repetitions). Displays the reasons.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FromAbnfError {
    message: String,
}

impl fmt::Display for FromAbnfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FromAbnfError {}

/// Transcribes an ABNF grammar into pest, rule by rule, mechanically: names
/// (`-` written `_`), alternation (`|`, in the ABNF's order), concatenation
/// (`~`), repetitions (`*`, `+`, `?`, `{m,n}`), ranges (`'\u{..}'..'\u{..}'`),
/// case-insensitive strings (`^"..."`). Each rule has its ABNF (as read) in a
/// `///` comment above it.
///
/// PEG is not ABNF: a choice commits to the first alternative that matches,
/// and a repetition takes as much as it can and never gives back. Each
/// alternation where an earlier alternative can match the empty string or
/// start with the same character as a later one, and each repetition that
/// can take a character what follows it needs, gets a `// PEG:` comment: the
/// places to order or guard by hand before `iri grammar check` can pass.
///
/// ```
/// use iribis_lab::abnf::Grammar;
///
/// let abnf = Grammar::parse("octet = DIGIT / \"2\" DIGIT DIGIT\nDIGIT = %x30-39\n", "t.abnf")?;
/// let pest = iribis_lab::from_abnf(&abnf).unwrap();
/// assert!(pest.contains("octet = { DIGIT | \"2\" ~ DIGIT ~ DIGIT }"));
/// assert!(pest.contains("// PEG: alternatives 1 and 2 can both start with \"2\":"));
/// iribis_lab::PestGrammar::parse(&pest, "out.pest").unwrap();
///
/// // Left recursion is ABNF, but no PEG can run it.
/// let left = Grammar::parse("list = list \",\" item / item\nitem = \"x\"\n", "left.abnf")?;
/// let err = iribis_lab::from_abnf(&left).unwrap_err().to_string();
/// assert!(err.contains("rule list is left-recursive"), "{err}");
/// # Ok::<(), iribis_lab::abnf::AbnfError>(())
/// ```
///
/// # Errors
///
/// When the ABNF uses a rule it does not define, or when the transcription
/// does not load in pest: every transcription returned has been loaded
/// with [`PestGrammar::parse`] first.
pub fn from_abnf(g: &Grammar) -> Result<String, FromAbnfError> {
    let undefined = undefined(g);
    if !undefined.is_empty() {
        return Err(FromAbnfError {
            message: undefined.join("\n"),
        });
    }
    // The transcription recurses over the ABNF, rule references included.
    let text =
        limits::on_big_stack(|| transcribe(g)).map_err(|message| FromAbnfError { message })?;
    match PestGrammar::parse(&text, "the transcription") {
        Ok(_) => Ok(text),
        Err(e) => Err(FromAbnfError {
            message: format!(
                "the pest transcription of the ABNF does not load, so it is not written:\n{e}"
            ),
        }),
    }
}

fn transcribe(g: &Grammar) -> String {
    let mut firsts = Firsts {
        g,
        memo: HashMap::new(),
    };
    let mut out = String::from(
        "// Transcribed from ABNF by `iri grammar from-abnf`. The `// PEG:` comments\n// mark where PEG's ordered choice or greedy repetition may change the\n// language: check them by hand, then run `iri grammar check`.\n",
    );
    let first_origin = g
        .rules()
        .next()
        .map(|r| r.origin.clone())
        .unwrap_or_default();
    for rule in g.rules() {
        out.push('\n');
        let one_line = abnf_text(&rule.node, 0);
        let long = one_line.len() + rule.name.len() > 90;
        match &rule.node {
            Node::Alternation(v) if long => {
                let pad = " ".repeat(rule.name.len() + 1);
                for (i, a) in v.iter().enumerate() {
                    let head = if i == 0 {
                        format!("{} =", rule.name)
                    } else {
                        format!("{pad}/")
                    };
                    out.push_str(&format!("/// {head} {}\n", abnf_text(a, 1)));
                }
            }
            _ => out.push_str(&format!("/// {} = {one_line}\n", rule.name)),
        }
        if rule.origin != first_origin {
            out.push_str(&format!("// (from {})\n", rule.origin));
        }
        let mut flags = Vec::new();
        firsts.flag(&rule.node, &mut flags, true);
        for f in flags {
            out.push_str(&comment(&f));
        }
        if has_prose(&rule.node) {
            out.push_str("// PROSE: a prose description cannot be transcribed; it is written as a\n// rule that never matches: write it by hand.\n");
        }
        match &rule.node {
            Node::Alternation(v) if long => {
                out.push_str(&format!("{} = {{\n", pest_name(&rule.name)));
                for (i, a) in firsts.pest_alternatives(v).iter().enumerate() {
                    out.push_str(&format!("  {} {a}\n", if i == 0 { " " } else { "|" }));
                }
                out.push_str("}\n");
            }
            _ => out.push_str(&format!(
                "{} = {{ {} }}\n",
                pest_name(&rule.name),
                firsts.pest_text(&rule.node, 0)
            )),
        }
    }
    out
}

/// Whether `node` has a prose value (`<...>`), which no automaton or
/// string can stand for, where it can match.
pub(crate) fn has_prose(node: &Node) -> bool {
    match node {
        Node::Alternation(v) | Node::Concatenation(v) => v.iter().any(has_prose),
        Node::Repetition { max: Some(0), .. } => false,
        Node::Repetition { node, .. } => has_prose(node),
        Node::Prose(_) => true,
        _ => false,
    }
}

/// Binding strength: 0 top, 1 inside a concatenation, 2 inside a repetition.
fn abnf_text(node: &Node, ctx: u8) -> String {
    match node {
        Node::Alternation(v) => {
            let s = v
                .iter()
                .map(|n| abnf_text(n, 1))
                .collect::<Vec<_>>()
                .join(" / ");
            if ctx > 0 { format!("( {s} )") } else { s }
        }
        Node::Concatenation(v) => {
            let s = v
                .iter()
                .map(|n| abnf_text(n, 1))
                .collect::<Vec<_>>()
                .join(" ");
            if ctx > 1 { format!("( {s} )") } else { s }
        }
        Node::Repetition {
            min: 0,
            max: Some(1),
            node,
        } => format!("[ {} ]", abnf_text(node, 0)),
        Node::Repetition { min, max, node } => {
            let inner = abnf_text(node, 2);
            match (min, max) {
                (m, Some(n)) if m == n => format!("{m}{inner}"),
                (0, None) => format!("*{inner}"),
                (m, None) => format!("{m}*{inner}"),
                (0, Some(n)) => format!("*{n}{inner}"),
                (m, Some(n)) => format!("{m}*{n}{inner}"),
            }
        }
        Node::Chars {
            text,
            case_sensitive: false,
        } => format!("\"{text}\""),
        Node::Chars {
            text,
            case_sensitive: true,
        } => format!("%s\"{text}\""),
        Node::Range(a, b) => format!("%x{a:X}-{b:X}"),
        Node::Sequence(v) => format!(
            "%x{}",
            v.iter()
                .map(|c| format!("{c:X}"))
                .collect::<Vec<_>>()
                .join(".")
        ),
        Node::Rule(r) => r.clone(),
        Node::Prose(p) => format!("<{p}>"),
    }
}

fn pest_char(c: u32) -> String {
    format!("'\\u{{{c:02X}}}'")
}

fn pest_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            _ => out.push_str(&format!("\\u{{{:02X}}}", c as u32)),
        }
    }
    out.push('"');
    out
}

impl Firsts<'_> {
    /// The pest alternatives of an ABNF alternation, in the order pest
    /// needs.
    fn pest_alternatives(&mut self, v: &[Node]) -> Vec<String> {
        // ABNF alternatives are unordered, but pest rejects a choice
        // with an alternative that cannot fail before others: those
        // that can match the empty string go last, and all but the
        // last of them are tried only before the end of the input (at
        // the end, the last one matches the same empty string).
        let nullable: Vec<bool> = v.iter().map(|n| self.first(n).nullable).collect();
        let mut parts = Vec::new();
        for (a, _) in v.iter().zip(&nullable).filter(|(_, n)| !**n) {
            parts.push(self.pest_text(a, 1));
        }
        let empties: Vec<&Node> = v
            .iter()
            .zip(&nullable)
            .filter(|(_, n)| **n)
            .map(|(a, _)| a)
            .collect();
        for (i, a) in empties.iter().enumerate() {
            parts.push(if i + 1 < empties.len() {
                format!("&ANY ~ {}", self.pest_text(a, 2))
            } else {
                self.pest_text(a, 1)
            });
        }
        parts
    }

    /// The pest expression of `node`; `ctx` is the binding strength as for
    /// [`abnf_text`].
    fn pest_text(&mut self, node: &Node, ctx: u8) -> String {
        match node {
            Node::Alternation(v) => {
                let parts = self.pest_alternatives(v);
                let s = parts.join(" | ");
                if ctx > 0 { format!("({s})") } else { s }
            }
            Node::Concatenation(v) => {
                let s = v
                    .iter()
                    .map(|n| self.pest_text(n, 1))
                    .collect::<Vec<_>>()
                    .join(" ~ ");
                if ctx > 1 { format!("({s})") } else { s }
            }
            // 0<pchar>: zero repetitions of anything is the empty string.
            Node::Repetition { max: Some(0), .. } => "\"\"".into(),
            Node::Repetition { min, max, node } => {
                let inner = self.pest_text(node, 2);
                match (min, max) {
                    (0, Some(1)) => format!("{inner}?"),
                    (0, None) => format!("{inner}*"),
                    (1, None) => format!("{inner}+"),
                    (m, Some(n)) if m == n => format!("{inner}{{{m}}}"),
                    (m, None) => format!("{inner}{{{m},}}"),
                    (0, Some(n)) => format!("{inner}{{0,{n}}}"),
                    (m, Some(n)) => format!("{inner}{{{m},{n}}}"),
                }
            }
            Node::Chars {
                text,
                case_sensitive,
            } => {
                if !case_sensitive && text.chars().any(|c| c.is_ascii_alphabetic()) {
                    format!("^{}", pest_string(text))
                } else {
                    pest_string(text)
                }
            }
            Node::Range(a, b) => format!("{}..{}", pest_char(*a), pest_char(*b)),
            Node::Sequence(v) => match v
                .iter()
                .map(|&c| char::from_u32(c))
                .collect::<Option<String>>()
            {
                Some(s) => pest_string(&s),
                // A surrogate code point: no string holds it.
                None => NEVER.into(),
            },
            Node::Rule(r) => pest_name(r),
            Node::Prose(_) => NEVER.into(),
        }
    }
}

/// A pest expression that never matches.
const NEVER: &str = "!\"\" ~ \"\"";

/// The characters a match can start with, and whether it can be empty.
#[derive(Clone, Default)]
struct First {
    set: CharSet,
    nullable: bool,
}

struct Firsts<'a> {
    g: &'a Grammar,
    memo: HashMap<String, First>,
}

impl Firsts<'_> {
    fn first(&mut self, node: &Node) -> First {
        match node {
            Node::Alternation(v) => {
                let mut f = First::default();
                for n in v {
                    let x = self.first(n);
                    f.set.extend(x.set);
                    f.nullable |= x.nullable;
                }
                f.set = normalize(f.set);
                f
            }
            Node::Concatenation(v) => {
                let mut f = First {
                    set: Vec::new(),
                    nullable: true,
                };
                for n in v {
                    let x = self.first(n);
                    f.set.extend(x.set);
                    if !x.nullable {
                        f.nullable = false;
                        break;
                    }
                }
                f.set = normalize(f.set);
                f
            }
            Node::Repetition { max: Some(0), .. } => First {
                set: Vec::new(),
                nullable: true,
            },
            Node::Repetition { min, node, .. } => {
                let x = self.first(node);
                First {
                    set: x.set,
                    nullable: *min == 0 || x.nullable,
                }
            }
            Node::Chars {
                text,
                case_sensitive,
            } => match text.chars().next() {
                None => First {
                    set: Vec::new(),
                    nullable: true,
                },
                Some(c) if !case_sensitive && c.is_ascii_alphabetic() => {
                    let (l, u) = (c.to_ascii_lowercase() as u32, c.to_ascii_uppercase() as u32);
                    First {
                        set: normalize(vec![(l, l), (u, u)]),
                        nullable: false,
                    }
                }
                Some(c) => First {
                    set: vec![(c as u32, c as u32)],
                    nullable: false,
                },
            },
            Node::Range(a, b) => First {
                set: normalize(vec![(*a, *b)]),
                nullable: false,
            },
            Node::Sequence(v) => match v.first() {
                Some(&c) => First {
                    set: vec![(c, c)],
                    nullable: false,
                },
                None => First {
                    set: Vec::new(),
                    nullable: true,
                },
            },
            Node::Rule(name) => {
                let key = name.to_ascii_lowercase();
                if let Some(f) = self.memo.get(&key) {
                    return f.clone();
                }
                // In progress: a recursive reference adds nothing.
                self.memo.insert(key.clone(), First::default());
                let g = self.g;
                let f = g.get(name).map(|r| self.first(&r.node)).unwrap_or_default();
                self.memo.insert(key, f.clone());
                f
            }
            Node::Prose(_) => First::default(),
        }
    }

    /// Collects the PEG warnings of `node` and everything inside it.
    fn flag(&mut self, node: &Node, out: &mut Vec<String>, top: bool) {
        match node {
            Node::Alternation(v) => {
                let firsts: Vec<First> = v.iter().map(|n| self.first(n)).collect();
                let place = if top {
                    String::new()
                } else {
                    format!(" in ( {} )", short(&abnf_text(node, 0)))
                };
                // The first alternative that can match the empty string
                // (not being last) or start like a later one: each against
                // the union of the later ones, from the right.
                let n = v.len();
                let mut meets_later = vec![false; n];
                let mut later: CharSet = Vec::new();
                for i in (0..n).rev() {
                    meets_later[i] = common(&firsts[i].set, &later).is_some();
                    later = union(&later, &firsts[i].set);
                }
                let first_flag =
                    (0..n).find(|&i| (firsts[i].nullable && i + 1 < n) || meets_later[i]);
                if let Some(i) = first_flag {
                    if firsts[i].nullable && i + 1 < n {
                        out.push(format!(
                            "alternative {} can match the empty string{place}, so it cannot fail: moved last (pest requires it); it still wins over a later one that would match more",
                            i + 1
                        ));
                    } else if let Some((j, c)) = (i + 1..n)
                        .find_map(|j| common(&firsts[i].set, &firsts[j].set).map(|c| (j, c)))
                    {
                        out.push(format!(
                            "alternatives {} and {} can both start with {}{place}: PEG takes the first that matches a prefix, even if a later one would match more; order the longer first or add a lookahead",
                            i + 1,
                            j + 1,
                            show(c)
                        ));
                    }
                }
                for n in v {
                    self.flag(n, out, false);
                }
            }
            Node::Concatenation(v) => {
                // What can start the rest after each part, from the right.
                let mut rest = vec![First::default(); v.len() + 1];
                rest[v.len()].nullable = true;
                for i in (0..v.len()).rev() {
                    let x = self.first(&v[i]);
                    rest[i] = if x.nullable {
                        First {
                            set: normalize([x.set, rest[i + 1].set.clone()].concat()),
                            nullable: rest[i + 1].nullable,
                        }
                    } else {
                        x
                    };
                }
                for (i, n) in v.iter().enumerate() {
                    if let Node::Repetition {
                        min,
                        max,
                        node: inner,
                    } = n
                        && max.is_none_or(|m| m > *min)
                    {
                        let after = &rest[i + 1];
                        let mine = self.first(inner);
                        if let Some(c) = common(&mine.set, &after.set) {
                            let what = if *min == 0 && *max == Some(1) {
                                "optional"
                            } else {
                                "repetition"
                            };
                            out.push(format!(
                                    "the {what} {} can take {}, which can also start what follows it: PEG never gives back what it took",
                                    short(&abnf_text(n, 1)),
                                    show(c)
                                ));
                        }
                    }
                    self.flag(n, out, false);
                }
            }
            Node::Repetition { node, .. } => self.flag(node, out, false),
            _ => {}
        }
    }
}

/// `text` as `// PEG: ` comment lines of at most about 100 columns.
fn comment(text: &str) -> String {
    let mut out = String::new();
    let mut line = String::from("// PEG:");
    for word in text.split(' ') {
        if line.len() + 1 + word.len() > 100 && line.len() > 8 {
            out.push_str(&line);
            out.push('\n');
            line = String::from("//     ");
        }
        line.push(' ');
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// The smallest character in both sets (sorted and disjoint, as
/// [`normalize`] leaves them), in one walk over the two.
fn common(a: &CharSet, b: &CharSet) -> Option<u32> {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let ((x, y), (p, q)) = (a[i], b[j]);
        let lo = x.max(p);
        if lo <= y.min(q) {
            return Some(lo);
        }
        if y < q {
            i += 1;
        } else {
            j += 1;
        }
    }
    None
}

/// Both sets in one (sorted, merged), in one walk.
fn union(a: &CharSet, b: &CharSet) -> CharSet {
    let mut all: CharSet = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let next = if j == b.len() || (i < a.len() && a[i] <= b[j]) {
            i += 1;
            a[i - 1]
        } else {
            j += 1;
            b[j - 1]
        };
        match all.last_mut() {
            Some((_, hi)) if next.0 <= hi.saturating_add(1) => *hi = (*hi).max(next.1),
            _ => all.push(next),
        }
    }
    all
}

fn show(c: u32) -> String {
    match char::from_u32(c) {
        Some(ch) if (' '..='~').contains(&ch) => format!("{:?}", ch.to_string()),
        _ => format!("U+{c:04X}"),
    }
}

fn short(s: &str) -> String {
    if s.chars().count() <= 60 {
        return s.to_string();
    }
    let cut: String = s.chars().take(57).collect();
    format!("{cut}...")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PestGrammar;

    #[test]
    fn our_abnf_compiles_in_every_profile() {
        for (p, _) in crate::abnf::PROFILES {
            let g = Grammar::profile(p).unwrap();
            let text = from_abnf(&g).unwrap();
            let pest = PestGrammar::parse(&text, "from-abnf.pest")
                .unwrap_or_else(|e| panic!("{p}: {e}\n{text}"));
            assert_eq!(pest.rule_names().count(), g.len());
        }
    }

    #[test]
    fn transcription() {
        let g = Grammar::parse(
            "r = 1*4a [ %s\"Xy\" ] 2b *3c 2*d 0<e>\na = %x41-5A\nb = %x0D.0A\nc = \"q\\\"\nd = \"-\"\n",
            "t.abnf",
        )
        .unwrap();
        let text = from_abnf(&g).unwrap();
        assert!(
            text.contains("r = { a{1,4} ~ \"Xy\"? ~ b{2} ~ c{0,3} ~ d{2,} ~ \"\" }"),
            "{text}"
        );
        assert!(text.contains("a = { '\\u{41}'..'\\u{5A}' }"), "{text}");
        assert!(text.contains("b = { \"\\u{0D}\\u{0A}\" }"), "{text}");
        assert!(text.contains("c = { ^\"q\\\\\" }"), "{text}");
        PestGrammar::parse(&text, "t.pest").unwrap();
    }
}
