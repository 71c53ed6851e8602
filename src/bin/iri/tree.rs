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
    /// Run this pest grammar (loaded at run time) instead of the profile's.
    #[arg(long, value_name = "FILE.pest", conflicts_with = "profile")]
    grammar: Option<std::path::PathBuf>,
    /// The grammar: rfc3987bis, rfc3987, rfc3986 or leiri.
    #[arg(long, default_value = "rfc3987bis")]
    profile: Profile,
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
        return crate::grammar::tree_with(path, &args.rule, &input);
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
