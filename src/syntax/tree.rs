//! The full parse tree, for `iri tree` and rule-level parsing.

use pest::iterators::Pair;
use pest::RuleType;

use super::{Sym, Visit};
use crate::rule::GrammarRule;
use crate::tree::{Node, SyntaxTree};

/// The [`Visit`] that copies the whole derivation into a [`SyntaxTree`].
pub(crate) struct Build<'a> {
    pub(crate) input: &'a str,
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
