//! What an ABNF rule means, computed from [`crate::abnf`]'s tree: the set of
//! characters of a single-character rule, whether a string matches a rule
//! (ABNF is not ordered: every alternative, every repetition count is
//! tried), and strings derived from a rule to test another grammar with.

use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

use crate::abnf::{Grammar, Node, Rule};

/// Sorted, disjoint, inclusive code point ranges.
pub(crate) type CharSet = Vec<(u32, u32)>;

/// Sorts and merges ranges, keeping only code points (up to U+10FFFF; a
/// range written backwards or past the last code point holds nothing there).
pub(crate) fn normalize(mut v: CharSet) -> CharSet {
    v.retain_mut(|(a, b)| {
        *b = (*b).min(0x10_FFFF);
        a <= b
    });
    v.sort_unstable();
    let mut out: CharSet = Vec::new();
    for (a, b) in v {
        match out.last_mut() {
            Some(last) if a <= last.1.saturating_add(1) => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

pub(crate) fn contains(set: &CharSet, c: u32) -> bool {
    set.binary_search_by(|&(a, b)| {
        if b < c {
            std::cmp::Ordering::Less
        } else if a > c {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    })
    .is_ok()
}

/// Each use of a rule the grammar does not define, as a message naming the
/// origin, the rule that uses it and the name, in rule order.
pub(crate) fn undefined(g: &Grammar) -> Vec<String> {
    let mut out = Vec::new();
    for rule in g.rules() {
        let mut todo = vec![&rule.node];
        while let Some(n) = todo.pop() {
            match n {
                Node::Alternation(v) | Node::Concatenation(v) => todo.extend(v.iter().rev()),
                Node::Repetition { node, .. } => todo.push(node),
                Node::Rule(name) if g.get(name).is_none() => out.push(format!(
                    "{}: rule {} uses {name}, which no rule defines",
                    rule.origin, rule.name
                )),
                _ => {}
            }
        }
    }
    out
}

/// The characters of a rule whose language is a set of single characters
/// (`ALPHA`, `ucschar`, `sub-delims`, ...); `None` for any other rule.
pub(crate) fn char_set(g: &Grammar, node: &Node) -> Option<CharSet> {
    char_set_depth(g, node, 0).map(normalize)
}

fn char_set_depth(g: &Grammar, node: &Node, depth: usize) -> Option<CharSet> {
    if depth > 64 {
        return None;
    }
    match node {
        Node::Alternation(alts) => {
            let mut out = Vec::new();
            for a in alts {
                out.extend(char_set_depth(g, a, depth + 1)?);
            }
            Some(out)
        }
        Node::Concatenation(v) if v.len() == 1 => char_set_depth(g, &v[0], depth + 1),
        Node::Repetition {
            min: 1,
            max: Some(1),
            node,
        } => char_set_depth(g, node, depth + 1),
        Node::Range(a, b) => Some(vec![(*a, *b)]),
        Node::Sequence(v) if v.len() == 1 => Some(vec![(v[0], v[0])]),
        Node::Chars {
            text,
            case_sensitive,
        } => {
            let mut chars = text.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                return None;
            };
            if *case_sensitive || !c.is_ascii_alphabetic() {
                Some(vec![(c as u32, c as u32)])
            } else {
                let (l, u) = (c.to_ascii_lowercase() as u32, c.to_ascii_uppercase() as u32);
                Some(vec![(l, l), (u, u)])
            }
        }
        Node::Rule(name) => char_set_depth(g, &g.get(name)?.node, depth + 1),
        _ => None,
    }
}

/// Whether the whole of `input` matches `rule` by the ABNF (RFC 5234:
/// alternatives unordered, repetitions of any allowed count). `None` when the
/// rule is unknown.
pub(crate) fn abnf_accepts(g: &Grammar, rule: &str, input: &str) -> Option<bool> {
    let node = &g.get(rule)?.node;
    let chars: Vec<char> = input.chars().collect();
    let mut m = Matcher {
        g,
        chars: &chars,
        memo: HashMap::default(),
        rules: HashMap::default(),
    };
    Some(m.ends(node, 0).contains(&chars.len()))
}

struct Matcher<'a> {
    g: &'a Grammar,
    chars: &'a [char],
    /// (rule address, start) to the ends of its matches.
    memo: HashMap<(usize, usize), Rc<[usize]>, Quick>,
    /// Address of a referencing name to the rule it names.
    rules: HashMap<usize, Option<&'a Rule>, Quick>,
}

impl Matcher<'_> {
    /// Every position where a match of `node` starting at `pos` can end,
    /// sorted, each once.
    fn ends(&mut self, node: &Node, pos: usize) -> Rc<[usize]> {
        let out: Vec<usize> = match node {
            Node::Alternation(alts) => {
                let mut out = Vec::new();
                for a in alts {
                    out.extend_from_slice(&self.ends(a, pos));
                }
                sorted(out)
            }
            Node::Concatenation(parts) => {
                let mut at = vec![pos];
                for p in parts {
                    let mut next = Vec::new();
                    for &q in &at {
                        next.extend_from_slice(&self.ends(p, q));
                    }
                    at = sorted(next);
                    if at.is_empty() {
                        break;
                    }
                }
                at
            }
            Node::Repetition { min, max, node } => {
                let (min, max) = (*min as usize, max.map(|m| m as usize));
                let mut out = Vec::new();
                if min == 0 {
                    out.push(pos);
                }
                // More than min + (characters left) + 1 rounds can add no
                // new end: each round either advances or repeats its set.
                let limit = max
                    .unwrap_or(usize::MAX)
                    .min(min + (self.chars.len() - pos) + 1);
                let mut frontier = vec![pos];
                for k in 1..=limit {
                    let mut next = Vec::new();
                    for &q in &frontier {
                        next.extend_from_slice(&self.ends(node, q));
                    }
                    let next = sorted(next);
                    let done = next.is_empty() || (k > min && next == frontier);
                    if k >= min {
                        out.extend_from_slice(&next);
                    }
                    if done {
                        break;
                    }
                    frontier = next;
                }
                sorted(out)
            }
            Node::Chars {
                text,
                case_sensitive,
            } => {
                let mut p = pos;
                for c in text.chars() {
                    let same = self.chars.get(p).is_some_and(|&d| {
                        c == d || (!case_sensitive && c.is_ascii() && c.eq_ignore_ascii_case(&d))
                    });
                    if !same {
                        return Rc::from([]);
                    }
                    p += 1;
                }
                vec![p]
            }
            Node::Range(a, b) => match self.chars.get(pos) {
                Some(&c) if (*a..=*b).contains(&(c as u32)) => vec![pos + 1],
                _ => Vec::new(),
            },
            Node::Sequence(v) => {
                let ok = v
                    .iter()
                    .enumerate()
                    .all(|(i, &x)| self.chars.get(pos + i).map(|&c| c as u32) == Some(x));
                if ok { vec![pos + v.len()] } else { Vec::new() }
            }
            Node::Rule(name) => {
                // The rule, looked up once per reference (by the address of
                // the name in the tree, which stays put while matching).
                let g = self.g;
                let rule = *self
                    .rules
                    .entry(name.as_ptr() as usize)
                    .or_insert_with(|| g.get(name));
                let Some(rule) = rule else {
                    return Rc::from([]);
                };
                let key = (rule as *const Rule as usize, pos);
                if let Some(done) = self.memo.get(&key) {
                    return done.clone();
                }
                // Marks the rule as in progress: a left-recursive reference
                // matches nothing rather than looping.
                self.memo.insert(key, Rc::from([]));
                let out = self.ends(&rule.node, pos);
                self.memo.insert(key, out.clone());
                return out;
            }
            // A prose description cannot be run; only zero repetitions of it
            // (RFC 3986's 0<pchar>) match, handled above.
            Node::Prose(_) => Vec::new(),
        };
        Rc::from(out)
    }
}

/// A hasher for the matcher's integer keys: SipHash, the default, is built
/// against attacker-chosen keys, which addresses and positions are not, and
/// it dominated the time of `iri grammar check` in debug builds.
pub(crate) type Quick = std::hash::BuildHasherDefault<QuickHasher>;

#[derive(Default)]
pub(crate) struct QuickHasher(u64);

impl std::hash::Hasher for QuickHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

/// Sorted, each once.
fn sorted(mut v: Vec<usize>) -> Vec<usize> {
    v.sort_unstable();
    v.dedup();
    v
}

/// How many strings the generator keeps per node and per rule.
const PER_NODE: usize = 48;
const PER_RULE: usize = 400;

/// The longest string the generator writes, in characters: a rule whose
/// strings are all longer (`a = 300"x"`, or repetitions nested) gets none,
/// which bounds the memory and time of the check whatever the counts.
pub(crate) const MAX_SAMPLE_CHARS: usize = 256;

/// At most how many positions of a string get near-misses.
const MISS_POSITIONS: usize = 64;

/// `s` repeated `n` times, when that stays within [`MAX_SAMPLE_CHARS`].
fn repeat(s: &str, n: usize) -> Option<String> {
    let len = s.chars().count().checked_mul(n)?;
    (len <= MAX_SAMPLE_CHARS).then(|| s.repeat(n))
}

/// Whether `s` is short enough to keep.
fn short_enough(s: &str) -> bool {
    s.len() <= MAX_SAMPLE_CHARS || s.chars().count() <= MAX_SAMPLE_CHARS
}

/// Strings derived from the ABNF of `rule`: its shortest string, each
/// alternative, each repetition count at and around its bounds, the ends of
/// each range, case variants of strings; and then near-misses of those, one
/// character off (deleted, doubled, or replaced by a neighbouring code point
/// or by a delimiter). Some are in the rule's language, some not; the check
/// compares another grammar's verdict with the ABNF's on each.
pub(crate) fn samples(g: &Grammar, rule: &str) -> Vec<String> {
    let Some(r) = g.get(rule) else {
        return Vec::new();
    };
    let mut r#gen = Generator {
        g,
        short: HashMap::new(),
    };
    let mut base = r#gen.variants(&r.node, 0);
    base.sort();
    base.dedup();
    let mut out: BTreeSet<String> = base.iter().cloned().collect();
    const OTHERS: [char; 10] = [':', '/', '?', '#', '[', ']', '@', '%', '.', '\u{E9}'];
    let mut misses = BTreeSet::new();
    for s in &base {
        let chars: Vec<char> = s.chars().collect();
        let step = chars.len().div_ceil(MISS_POSITIONS).max(1);
        for i in (0..chars.len()).step_by(step) {
            let mut del = chars.clone();
            del.remove(i);
            misses.insert(del.iter().collect::<String>());
            let mut dup = chars.clone();
            dup.insert(i, chars[i]);
            misses.insert(dup.iter().collect::<String>());
            for c in [
                char::from_u32(chars[i] as u32 + 1),
                (chars[i] as u32).checked_sub(1).and_then(char::from_u32),
            ]
            .into_iter()
            .flatten()
            .chain(OTHERS)
            {
                let mut rep = chars.clone();
                rep[i] = c;
                misses.insert(rep.iter().collect::<String>());
            }
        }
        for c in OTHERS {
            misses.insert(format!("{s}{c}"));
        }
    }
    let misses: Vec<String> = misses.into_iter().filter(|m| !out.contains(m)).collect();
    out.extend(spread(
        misses,
        PER_RULE.saturating_sub(out.len()).max(PER_RULE / 2),
    ));
    out.into_iter().collect()
}

/// A shortest string of `node` in `g` (of at most 256
/// characters), when it has one: the context the conformance suite writes
/// around a character range or a repetition it tests.
///
/// ```
/// use iribis_lab::abnf::Grammar;
///
/// let g = Grammar::parse("digits = 2DIGIT \".\" 1*DIGIT\nDIGIT = %x30-39\n", "mine.abnf").unwrap();
/// let rule = g.get("digits").unwrap();
/// assert_eq!(iribis_lab::shortest(&g, &rule.node).unwrap().len(), 4);
/// ```
pub fn shortest(g: &Grammar, node: &Node) -> Option<String> {
    Generator {
        g,
        short: HashMap::new(),
    }
    .shortest(node)
}

/// At most `n` of `v`, evenly spread over it (deterministic).
fn spread(v: Vec<String>, n: usize) -> Vec<String> {
    if v.len() <= n {
        return v;
    }
    let step = v.len() as f64 / n as f64;
    (0..n)
        .map(|i| v[(i as f64 * step) as usize].clone())
        .collect()
}

struct Generator<'a> {
    g: &'a Grammar,
    /// Shortest string of each rule (lowercase name); `None` while being
    /// computed or when the rule has none that can be written down.
    short: HashMap<String, Option<String>>,
}

impl Generator<'_> {
    /// A shortest string of `node`, when it has one the generator can write.
    fn shortest(&mut self, node: &Node) -> Option<String> {
        match node {
            Node::Alternation(alts) => alts
                .iter()
                .filter_map(|a| self.shortest(a))
                .min_by_key(|s| s.chars().count()),
            Node::Concatenation(parts) => {
                let mut s = String::new();
                for p in parts {
                    s.push_str(&self.shortest(p)?);
                    if !short_enough(&s) {
                        return None;
                    }
                }
                Some(s)
            }
            Node::Repetition { min, node, .. } => {
                if *min == 0 {
                    return Some(String::new());
                }
                repeat(&self.shortest(node)?, *min as usize)
            }
            Node::Chars { text, .. } => Some(text.clone()).filter(|t| short_enough(t)),
            Node::Range(a, b) => (*a..=(*b).min(0x10_FFFF))
                .find_map(char::from_u32)
                .map(String::from),
            Node::Sequence(v) => v
                .iter()
                .map(|&c| char::from_u32(c))
                .collect::<Option<String>>()
                .filter(|s| short_enough(s)),
            Node::Rule(name) => {
                let key = name.to_ascii_lowercase();
                if let Some(s) = self.short.get(&key) {
                    return s.clone();
                }
                self.short.insert(key.clone(), None);
                let g = self.g;
                let s = g.get(name).and_then(|r| self.shortest(&r.node));
                self.short.insert(key, s.clone());
                s
            }
            Node::Prose(_) => None,
        }
    }

    /// Strings covering `node`: every alternative, repetition counts at the
    /// bounds, range ends, case variants; references followed to a depth.
    fn variants(&mut self, node: &Node, depth: usize) -> Vec<String> {
        let mut out: Vec<String> = match node {
            Node::Alternation(alts) => {
                round_robin(alts.iter().map(|a| self.variants(a, depth)).collect())
            }
            Node::Concatenation(parts) => {
                let base: Vec<Option<String>> = parts.iter().map(|p| self.shortest(p)).collect();
                // The shortest strings before and after each part (each
                // within the length cap, or `None`): a variant of part i is
                // written between them, in time linear in the parts.
                let n = base.len();
                let mut before: Vec<Option<String>> = vec![Some(String::new())];
                for b in &base {
                    let next = match (&before[before.len() - 1], b) {
                        (Some(a), Some(b)) => Some(format!("{a}{b}")).filter(|s| short_enough(s)),
                        _ => None,
                    };
                    before.push(next);
                }
                // after[i]: the parts from i on.
                let mut after: Vec<Option<String>> = vec![None; n + 1];
                after[n] = Some(String::new());
                for i in (0..n).rev() {
                    after[i] = match (&base[i], &after[i + 1]) {
                        (Some(b), Some(a)) => Some(format!("{b}{a}")).filter(|s| short_enough(s)),
                        _ => None,
                    };
                }
                let mut lists = Vec::new();
                for (i, p) in parts.iter().enumerate() {
                    let (Some(head), Some(tail)) = (&before[i], &after[i + 1]) else {
                        continue;
                    };
                    let out = self
                        .variants(p, depth)
                        .into_iter()
                        .map(|v| format!("{head}{v}{tail}"))
                        .filter(|s| short_enough(s))
                        .collect();
                    lists.push(out);
                }
                round_robin(lists)
            }
            Node::Repetition {
                min,
                max,
                node: inner,
            } => {
                let Some(one) = self.shortest(inner) else {
                    return if *max == Some(0) || *min == 0 {
                        vec![String::new()]
                    } else {
                        Vec::new()
                    };
                };
                let (min, max) = (*min as usize, max.map(|m| m as usize));
                let mut counts = vec![min, min + 1, min + 2];
                if let Some(m) = max {
                    counts.extend([m.saturating_sub(1), m, m + 1]);
                }
                counts.sort_unstable();
                counts.dedup();
                let mut out: Vec<String> = counts
                    .into_iter()
                    .filter(|&c| c <= 12)
                    .filter_map(|c| repeat(&one, c))
                    .collect();
                // Each variant of the element, once among the shortest copies.
                let n = min.max(1);
                if max.is_none_or(|m| m >= 1)
                    && let Some(rest) = repeat(&one, n - 1)
                {
                    for v in self.variants(inner, depth) {
                        out.push(format!("{rest}{v}"));
                        // Two different elements in a row, when allowed.
                        if max.is_none_or(|m| m >= 2) && n < 2 {
                            out.push(format!("{v}{one}"));
                        }
                    }
                }
                out
            }
            Node::Chars {
                text,
                case_sensitive,
            } => {
                let mut out = vec![text.clone()];
                if !case_sensitive && text.chars().any(|c| c.is_ascii_alphabetic()) {
                    let flipped: String = text
                        .chars()
                        .map(|c| {
                            if c.is_ascii_lowercase() {
                                c.to_ascii_uppercase()
                            } else {
                                c.to_ascii_lowercase()
                            }
                        })
                        .collect();
                    out.push(flipped);
                }
                out
            }
            Node::Range(a, b) => [*a, *b, a + b.saturating_sub(*a) / 2]
                .into_iter()
                .filter(|c| (*a..=*b).contains(c))
                .filter_map(char::from_u32)
                .map(String::from)
                .collect(),
            Node::Sequence(v) => v
                .iter()
                .map(|&c| char::from_u32(c))
                .collect::<Option<String>>()
                .into_iter()
                .collect(),
            Node::Rule(name) => {
                let g = self.g;
                match g.get(name) {
                    Some(r) if depth < 3 => self.variants(&r.node, depth + 1),
                    Some(_) => self.shortest(node).into_iter().collect(),
                    None => Vec::new(),
                }
            }
            Node::Prose(_) => Vec::new(),
        };
        let mut seen = BTreeSet::new();
        out.retain(|s| short_enough(s) && seen.insert(s.clone()));
        out.truncate(PER_NODE);
        out
    }
}

/// The first of each list, then the second of each, and so on: so that a
/// cut keeps something of every list.
fn round_robin(lists: Vec<Vec<String>>) -> Vec<String> {
    let longest = lists.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = Vec::new();
    for i in 0..longest {
        out.extend(lists.iter().filter_map(|l| l.get(i).cloned()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bis() -> Grammar {
        Grammar::profile("rfc3987bis").unwrap()
    }

    #[test]
    fn char_sets() {
        let g = bis();
        let set = |r: &str| char_set(&g, &g.get(r).unwrap().node);
        assert_eq!(
            set("HEXDIG"),
            Some(vec![(0x30, 0x39), (0x41, 0x46), (0x61, 0x66)])
        );
        assert_eq!(set("ALPHA"), Some(vec![(0x41, 0x5A), (0x61, 0x7A)]));
        assert!(set("iunreserved").is_some_and(|s| contains(&s, 0xA0)
            && contains(&s, '~' as u32)
            && !contains(&s, 0xE000)));
        assert_eq!(set("h16"), None);
        assert_eq!(set("ipath-empty"), None);
    }

    #[test]
    fn abnf_matching_is_unordered() {
        let g = bis();
        // In ABNF order "2" would be a whole dec-octet; the ABNF still
        // matches "255" (a PEG in that order would not).
        assert_eq!(abnf_accepts(&g, "dec-octet", "255"), Some(true));
        assert_eq!(abnf_accepts(&g, "dec-octet", "256"), Some(false));
        assert_eq!(abnf_accepts(&g, "IPv6address", "1::2"), Some(true));
        assert_eq!(
            abnf_accepts(&g, "IPv6address", "1:2:3:4:5:6:7:8:9"),
            Some(false)
        );
        assert_eq!(abnf_accepts(&g, "ipath", "a:b"), Some(true));
        assert_eq!(abnf_accepts(&g, "h16", "aBcD"), Some(true));
        assert_eq!(abnf_accepts(&g, "h16", "abcde"), Some(false));
        assert_eq!(
            abnf_accepts(&g, "IRI", "http://r%C3%A9sum%C3%A9.example.org"),
            Some(true)
        );
        assert_eq!(abnf_accepts(&g, "IRI-reference", ""), Some(true));
        assert_eq!(abnf_accepts(&g, "nope", ""), None);
        let uri = Grammar::profile("rfc3986").unwrap();
        assert_eq!(abnf_accepts(&uri, "path-empty", ""), Some(true));
        assert_eq!(abnf_accepts(&uri, "path-empty", "a"), Some(false));
    }

    #[test]
    fn samples_cover_bounds_and_misses() {
        let g = bis();
        let s = samples(&g, "h16");
        for x in ["0", "0000", "00000", "F", "f"] {
            assert!(s.iter().any(|y| y == x), "{x} missing from {s:?}");
        }
        let s = samples(&g, "dec-octet");
        for x in ["255", "250", "240", "204", "109", "99", "9", "2552", "1000"] {
            assert!(s.iter().any(|y| y == x), "{x} missing from {s:?}");
        }
        assert!(samples(&g, "IPv6address").iter().any(|y| y == "::"));
        assert!(samples(&g, "IRI").len() <= PER_RULE + PER_NODE * 2);
    }
}
