//! `iri tree`: the whole derivation of one input.

use std::io::{self, Write};

use std::ffi::OsString;

use iribis::tree::SyntaxTree;
use iribis::Profile;

use crate::inputs::Input;
use crate::output::escape_lines;
use crate::parse::rule_arg;
use crate::Outcome;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// The input.
    input: OsString,
    /// The start rule, by ABNF name (`IPv6address`, `ireg-name`).
    /// With --grammar, any rule of that grammar (pest or ABNF spelling).
    #[arg(long, default_value = "IRI-reference")]
    rule: String,
    /// Run this pest grammar (loaded at run time) instead of the profile's;
    /// its failures are explained by the profile's rules.
    #[arg(long, value_name = "FILE.pest")]
    grammar: Option<std::path::PathBuf>,
    /// The grammar: rfc3987bis, rfc3987, rfc3986 or leiri.
    #[arg(long, default_value = "rfc3987bis")]
    profile: Profile,
    /// One JSON object: the input, the rule, and every node (rule, byte
    /// span, depth, text) in pre-order, or the error.
    #[arg(long)]
    json: bool,
}

/// A node of `iri tree --json`.
#[derive(serde::Serialize)]
pub(crate) struct JsonNode<'a> {
    pub(crate) rule: &'a str,
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) depth: usize,
    pub(crate) text: &'a str,
}

/// Writes the JSON object of `iri tree --json`:
/// `{"input","rule","valid","nodes"}` or `{"input","rule","valid","error"}`.
pub(crate) fn write_json(
    out: &mut impl Write,
    input: &str,
    rule: &str,
    nodes: Option<&[JsonNode<'_>]>,
    error: Option<serde_json::Value>,
) -> io::Result<()> {
    let mut v = serde_json::json!({"input": input, "rule": rule, "valid": nodes.is_some()});
    if let Some(nodes) = nodes {
        v["nodes"] = serde_json::to_value(nodes).map_err(io::Error::other)?;
    }
    if let Some(e) = error {
        v["error"] = e;
    }
    crate::output::write_json(out, &v)
}

pub(crate) fn run(args: Args) -> io::Result<Outcome> {
    if let Some(path) = &args.grammar {
        let input = match Input::from(args.input) {
            Input::Text(t) => t,
            Input::NotUtf8(n) => {
                writeln!(io::stdout().lock(), "{}", n.failure().report())?;
                return Ok(Outcome::SomeInvalid);
            }
        };
        return crate::grammar::tree_with(path, &args.rule, args.profile, &input, args.json);
    }
    let rule = rule_arg(&args.rule).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    crate::parse::check_rule(rule, args.profile)?;
    let mut out = io::stdout().lock();
    let input = match Input::from(args.input) {
        Input::Text(t) => t,
        Input::NotUtf8(n) => {
            writeln!(out, "{}", n.failure().report())?;
            return Ok(Outcome::SomeInvalid);
        }
    };
    match SyntaxTree::parse(&input, rule, args.profile) {
        Ok(tree) if args.json => {
            let nodes: Vec<JsonNode> = tree
                .nodes()
                .iter()
                .map(|n| JsonNode {
                    rule: n.rule.abnf_name(),
                    start: n.start,
                    end: n.end,
                    depth: n.depth,
                    text: tree.text(n),
                })
                .collect();
            write_json(&mut out, &input, rule.abnf_name(), Some(&nodes), None)?;
            Ok(Outcome::AllValid)
        }
        Err(e) if args.json => {
            let name = e.rule().abnf_name();
            let failure = crate::output::Failure::parse(e);
            write_json(&mut out, &input, name, None, Some(failure.json()))?;
            Ok(Outcome::SomeInvalid)
        }
        Ok(tree) => {
            // Each node shows its text as a Rust string literal; what that
            // leaves raw (bidi formatting characters) is escaped.
            write!(out, "{}", escape_lines(&tree.to_string()))?;
            Ok(Outcome::AllValid)
        }
        Err(e) => {
            writeln!(out, "{}", e.report())?;
            Ok(Outcome::SomeInvalid)
        }
    }
}
