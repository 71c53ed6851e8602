//! `iri tree`: the whole derivation of one input.

use std::io::{self, Write};

use iribis::{Profile, SyntaxTree};

use crate::parse::rule_arg;
use crate::Outcome;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// The input.
    input: String,
    /// The start rule, by ABNF name (`IPv6address`, `ireg-name`).
    /// With --grammar, any rule of that grammar (pest or ABNF spelling).
    #[arg(long, default_value = "IRI-reference")]
    rule: String,
    /// Run this pest grammar (loaded at run time) instead of the profile's.
    #[arg(long, value_name = "FILE.pest", conflicts_with = "profile")]
    grammar: Option<std::path::PathBuf>,
    /// The grammar: rfc3987bis, rfc3987, rfc3986 or leiri.
    #[arg(long, default_value = "rfc3987bis")]
    profile: Profile,
}

pub(crate) fn run(args: Args) -> io::Result<Outcome> {
    if let Some(path) = &args.grammar {
        return crate::grammar::tree_with(path, &args.rule, &args.input);
    }
    let rule = rule_arg(&args.rule).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    crate::parse::check_rule(rule, args.profile)?;
    let mut out = io::stdout().lock();
    match SyntaxTree::parse(&args.input, rule, args.profile) {
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
