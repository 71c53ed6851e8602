//! `iri tree`: the whole derivation of one input.

use std::io::{self, Write};

use iribis::{GrammarRule, Profile, SyntaxTree};

use crate::parse::rule_arg;
use crate::Outcome;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// The input.
    input: String,
    /// The start rule, by ABNF name (`IPv6address`, `ireg-name`).
    #[arg(long, default_value = "IRI-reference", value_parser = rule_arg)]
    rule: GrammarRule,
    /// The grammar: rfc3987bis, rfc3987, rfc3986 or leiri.
    #[arg(long, default_value = "rfc3987bis")]
    profile: Profile,
}

pub(crate) fn run(args: Args) -> io::Result<Outcome> {
    crate::parse::check_rule(args.rule, args.profile)?;
    let mut out = io::stdout().lock();
    match SyntaxTree::parse(&args.input, args.rule, args.profile) {
        Ok(tree) => {
            write!(out, "{tree}")?;
            Ok(Outcome::AllValid)
        }
        Err(e) => {
            writeln!(out, "{e}")?;
            Ok(Outcome::SomeInvalid)
        }
    }
}
