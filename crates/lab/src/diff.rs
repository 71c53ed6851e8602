//! `iri grammar diff`: two grammars over the same inputs.

use std::fmt;

use super::{GrammarError, PestGrammar, RuntimeFailure, RuntimeNode, spelling};

/// A grammar and the start rule to run it from.
#[derive(Clone, Copy, Debug)]
pub struct Side<'a> {
    /// The grammar.
    pub grammar: &'a PestGrammar,
    /// Its start rule, by pest name.
    pub rule: &'a str,
    /// How reports name it (a file name, or `built-in rfc3987bis`).
    pub name: &'a str,
}

/// How one input fares differently under the two grammars.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum DiffKind {
    /// The base grammar accepts it, the new one does not.
    NowRejected,
    /// The new grammar accepts it, the base one does not.
    NowAccepted,
    /// Both accept it with different parse trees; the rules at the first
    /// node where they part (`None`: one tree ends there), spelled as
    /// [`spelling`] spells them.
    TreeChanged {
        /// The base grammar's rule at the first differing node.
        base: Option<String>,
        /// The new grammar's rule there.
        new: Option<String>,
    },
}

impl DiffKind {
    /// A short name: `now-rejected`, `now-accepted`, `tree-changed`.
    pub fn name(&self) -> &'static str {
        match self {
            DiffKind::NowRejected => "now-rejected",
            DiffKind::NowAccepted => "now-accepted",
            DiffKind::TreeChanged { .. } => "tree-changed",
        }
    }
}

impl fmt::Display for DiffKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiffKind::NowRejected => {
                f.write_str("accepted by the base grammar, rejected by the new one")
            }
            DiffKind::NowAccepted => {
                f.write_str("rejected by the base grammar, accepted by the new one")
            }
            DiffKind::TreeChanged { base, new } => write!(
                f,
                "accepted by both, trees part at {} (base) / {} (new)",
                base.as_deref().unwrap_or("the end"),
                new.as_deref().unwrap_or("the end")
            ),
        }
    }
}

/// One input that the grammars treat differently.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Difference {
    /// The input.
    pub input: String,
    /// How it differs.
    pub kind: DiffKind,
    /// The rejecting grammar's failure, or where the trees part.
    pub detail: String,
}

/// The result of [`diff`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DiffReport {
    /// How many inputs were run.
    pub inputs: usize,
    /// How many of them the base grammar accepts: with a corpus of IRI
    /// references and a start rule such as `port`, few, and a diff that
    /// finds nothing has then tested little.
    pub base_accepted: usize,
    /// How many of them the new grammar accepts.
    pub new_accepted: usize,
    /// Every input that differs, in input order.
    pub differences: Vec<Difference>,
}

impl DiffReport {
    /// The kinds of difference found, each with its count, in a fixed order
    /// (rejected, accepted, then tree changes by rule).
    pub fn kinds(&self) -> Vec<(DiffKind, usize)> {
        let mut kinds: Vec<(DiffKind, usize)> = Vec::new();
        for d in &self.differences {
            match kinds.iter_mut().find(|(k, _)| *k == d.kind) {
                Some((_, n)) => *n += 1,
                None => kinds.push((d.kind.clone(), 1)),
            }
        }
        kinds.sort();
        kinds
    }

    /// Writes the report: counts, then per kind of difference up to
    /// `examples` inputs.
    pub fn render(&self, base: &str, new: &str, examples: usize) -> String {
        let mut out = format!(
            "base: {base}\nnew:  {new}\n{} inputs, {} differ (accepted: {} by the base grammar, {} by the new one)\n",
            self.inputs,
            self.differences.len(),
            self.base_accepted,
            self.new_accepted
        );
        for (kind, count) in self.kinds() {
            out.push_str(&format!("\n{} ({count}): {kind}\n", kind.name()));
            let of_kind = self.differences.iter().filter(|d| d.kind == kind);
            for d in of_kind.clone().take(examples) {
                out.push_str(&format!("  {:?}\n      {}\n", d.input, d.detail));
            }
            if count > examples {
                out.push_str(&format!(
                    "  ... and {} more (--json lists every input)\n",
                    count - examples
                ));
            }
        }
        out
    }
}

/// Runs both grammars over `inputs`. Without `trees`, only acceptance is
/// compared; with it, the parse trees of inputs both accept are too.
///
/// # Errors
///
/// When pest gives up on an input with either grammar (it needs more nested
/// calls than the stack holds, see [`RuntimeFailure::limit`]): that input
/// has no verdict to compare.
///
/// ```
/// use iribis_lab::{diff, DiffKind, PestGrammar, Side};
///
/// let base = PestGrammar::parse("n = { ASCII_DIGIT+ }", "base.pest").unwrap();
/// let new = PestGrammar::parse("n = { ASCII_DIGIT{1,2} }", "new.pest").unwrap();
/// let report = diff(
///     Side { grammar: &base, rule: "n", name: "base.pest" },
///     Side { grammar: &new, rule: "n", name: "new.pest" },
///     ["1", "12", "123", "x"].map(String::from),
///     false,
/// )
/// .unwrap();
/// assert_eq!(report.inputs, 4);
/// assert_eq!((report.base_accepted, report.new_accepted), (3, 2));
/// assert_eq!(report.differences.len(), 1);
/// assert_eq!(report.differences[0].input, "123");
/// assert_eq!(report.differences[0].kind, DiffKind::NowRejected);
/// ```
pub fn diff(
    base: Side<'_>,
    new: Side<'_>,
    inputs: impl IntoIterator<Item = String>,
    trees: bool,
) -> Result<DiffReport, GrammarError> {
    let mut n = 0;
    let (mut base_accepted, mut new_accepted) = (0, 0);
    let mut differences = Vec::new();
    for input in inputs {
        n += 1;
        let a = base.grammar.tree(base.rule, &input);
        let b = new.grammar.tree(new.rule, &input);
        base_accepted += usize::from(a.is_ok());
        new_accepted += usize::from(b.is_ok());
        // pest gave up on one side: there is no verdict to compare.
        for (side, result) in [(&base, &a), (&new, &b)] {
            if let Err(f) = result
                && f.limit.is_some()
            {
                return Err(GrammarError {
                    message: format!("{}: input {input:?}: {f}", side.name),
                });
            }
        }
        let found = match (a, b) {
            (Ok(_), Err(f)) => Some((
                DiffKind::NowRejected,
                format!("{}: {}", new.name, failure(&f)),
            )),
            (Err(f), Ok(_)) => Some((
                DiffKind::NowAccepted,
                format!("{}: {}", base.name, failure(&f)),
            )),
            (Ok(ta), Ok(tb)) if trees && ta.nodes != tb.nodes => {
                let i = ta
                    .nodes
                    .iter()
                    .zip(&tb.nodes)
                    .take_while(|(x, y)| x == y)
                    .count();
                let (x, y) = (ta.nodes.get(i), tb.nodes.get(i));
                Some((
                    DiffKind::TreeChanged {
                        base: x.map(|n| spelling(&n.rule).to_owned()),
                        new: y.map(|n| spelling(&n.rule).to_owned()),
                    },
                    format!(
                        "node {i}: base {} / new {}",
                        node(x, &input),
                        node(y, &input)
                    ),
                ))
            }
            _ => None,
        };
        if let Some((kind, detail)) = found {
            differences.push(Difference {
                input,
                kind,
                detail,
            });
        }
    }
    Ok(DiffReport {
        inputs: n,
        base_accepted,
        new_accepted,
        differences,
    })
}

/// A failure as reports write it: the expected rules in the spec's
/// spelling (see [`spelling`]).
fn failure(f: &RuntimeFailure) -> String {
    let mut f = f.clone();
    for r in &mut f.expected {
        *r = spelling(r).to_owned();
    }
    f.to_string()
}

fn node(n: Option<&RuntimeNode>, input: &str) -> String {
    match n {
        None => "(none)".into(),
        Some(n) => format!(
            "{} {}..{} {:?} at depth {}",
            spelling(&n.rule),
            n.start,
            n.end,
            input.get(n.start..n.end).unwrap_or(""),
            n.depth
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_trees() {
        let base =
            PestGrammar::parse("r = { a | b }\na = { \"x\" }\nb = { \"y\" }", "b.pest").unwrap();
        let new = PestGrammar::parse(
            "r = { b | a | c }\na = { \"y\" }\nb = { \"x\" }\nc = { \"z\" }",
            "n.pest",
        )
        .unwrap();
        let report = diff(
            Side {
                grammar: &base,
                rule: "r",
                name: "b.pest",
            },
            Side {
                grammar: &new,
                rule: "r",
                name: "n.pest",
            },
            ["x", "y", "z", "w"].map(String::from),
            true,
        )
        .unwrap();
        let kinds: Vec<(String, usize)> = report
            .kinds()
            .into_iter()
            .map(|(k, n)| (k.name().to_string(), n))
            .collect();
        let names: Vec<(&str, usize)> = kinds.iter().map(|(k, n)| (k.as_str(), *n)).collect();
        assert_eq!(
            names,
            [
                ("now-accepted", 1),
                ("tree-changed", 1),
                ("tree-changed", 1)
            ]
        );
        assert_eq!(
            report.differences[0].kind,
            DiffKind::TreeChanged {
                base: Some("a".into()),
                new: Some("b".into())
            }
        );
        let render = report.render("b.pest", "n.pest", 1);
        assert!(render.contains("4 inputs, 3 differ"), "{render}");
        assert!(
            render.contains("tree-changed (1): accepted by both, trees part at a (base) / b (new)"),
            "{render}"
        );
        // Without --trees only acceptance counts.
        let report = diff(
            Side {
                grammar: &base,
                rule: "r",
                name: "b.pest",
            },
            Side {
                grammar: &new,
                rule: "r",
                name: "n.pest",
            },
            ["x", "y"].map(String::from),
            false,
        )
        .unwrap();
        assert!(report.differences.is_empty());
    }
}
