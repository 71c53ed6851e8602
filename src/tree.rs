//! Parse trees: the whole derivation of an input under any start rule.

use crate::prelude::*;
use core::fmt;

use pest::RuleType;
use pest::iterators::Pair;

use crate::error::ParseError;
use crate::profile::Profile;
use crate::rule::{GrammarRule, Sym};
use crate::syntax::{self, Visit};

/// One node of a [`SyntaxTree`]: a rule and the bytes it matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Node {
    /// The rule that matched.
    pub rule: GrammarRule,
    /// Byte offset where the match starts.
    pub start: usize,
    /// Byte offset where the match ends (exclusive).
    pub end: usize,
    /// Depth in the tree: 0 for the start rule.
    pub depth: usize,
}

/// The derivation of an input: every rule that matched, in pre-order, with
/// its span. Built by [`SyntaxTree::parse`]; `iri tree` prints it.
///
/// ```
/// use iribis::{GrammarRule, Profile};
/// use iribis::tree::SyntaxTree;
///
/// let rule = GrammarRule::from_name("IPv4address").unwrap();
/// let tree = SyntaxTree::parse("192.0.2.1", rule, Profile::default())?;
/// let octets: Vec<&str> = tree
///     .nodes()
///     .iter()
///     .filter(|n| n.rule.abnf_name() == "dec-octet")
///     .map(|n| tree.text(n))
///     .collect();
/// assert_eq!(octets, ["192", "0", "2", "1"]);
/// # Ok::<(), iribis::ParseError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxTree<'a> {
    input: &'a str,
    nodes: Vec<Node>,
}

impl<'a> SyntaxTree<'a> {
    pub(crate) fn new(input: &'a str, nodes: Vec<Node>) -> Self {
        SyntaxTree { input, nodes }
    }

    /// Parses the whole of `input` with `rule` as the start rule. Under the
    /// `rfc3986` profile the IRI reference-level rules stand for the URI ones.
    pub fn parse(input: &'a str, rule: GrammarRule, profile: Profile) -> Result<Self, ParseError> {
        let rule = rule.for_profile(profile);
        syntax::parse(profile, rule, input, Build { input })
    }

    /// The nodes in pre-order (a parent before its children).
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The text a node matched.
    pub fn text(&self, node: &Node) -> &'a str {
        &self.input[node.start..node.end]
    }

    /// The input.
    pub fn input(&self) -> &'a str {
        self.input
    }
}

/// One line per node, indented by depth: the ABNF rule name, the byte span and
/// the matched text.
impl fmt::Display for SyntaxTree<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for n in &self.nodes {
            writeln!(
                f,
                "{}{} {}..{} {:?}",
                // Not a format width, which must stay under 65,536.
                " ".repeat(n.depth * 2),
                n.rule.abnf_name(),
                n.start,
                n.end,
                self.text(n),
            )?;
        }
        Ok(())
    }
}

/// The [`Visit`] that copies the whole derivation into a [`SyntaxTree`].
struct Build<'a> {
    input: &'a str,
}

impl<'a> Visit for Build<'a> {
    type Out = SyntaxTree<'a>;

    fn visit<R: RuleType>(self, pair: Pair<'_, R>, sym: fn(R) -> Option<Sym>) -> SyntaxTree<'a> {
        let mut nodes = Vec::new();
        // Skip the WHOLE_ wrapper and EOI: the tree starts at the start rule.
        for child in pair.into_inner() {
            push(child, sym, 0, &mut nodes);
        }
        SyntaxTree::new(self.input, nodes)
    }
}

fn push<R: RuleType>(
    pair: Pair<'_, R>,
    sym: fn(R) -> Option<Sym>,
    depth: usize,
    nodes: &mut Vec<Node>,
) {
    let Some(s) = sym(pair.as_rule()) else { return };
    let span = pair.as_span();
    nodes.push(Node {
        rule: GrammarRule(s),
        start: span.start(),
        end: span.end(),
        depth,
    });
    for child in pair.into_inner() {
        push(child, sym, depth + 1, nodes);
    }
}
