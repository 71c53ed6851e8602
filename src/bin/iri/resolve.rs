//! `iri resolve` and `iri relativize`: references against a base, one
//! result per input, in input order.

use std::io::{self, BufWriter, Write};

use iribis::{Iri, IriRef, ParseError, ResolveOptions};
use serde_json::{json, Value};

use crate::inputs::{inputs, Input};
use crate::Outcome;

#[derive(clap::Args)]
pub(crate) struct ResolveArgs {
    /// The base: an absolute IRI (a fragment is ignored).
    #[arg(long)]
    base: String,
    /// Read a reference whose scheme equals the base's as if it had none
    /// (`http:g` as `g`; RFC 3986 §5.2.2's non-strict parser).
    #[arg(long)]
    non_strict: bool,
    /// One JSON object per input, one per line.
    #[arg(long)]
    json: bool,
    /// The references; without any, each line of standard input is one.
    refs: Vec<String>,
}

#[derive(clap::Args)]
pub(crate) struct RelativizeArgs {
    /// The base: an absolute IRI (a fragment is ignored).
    #[arg(long)]
    base: String,
    /// One JSON object per input, one per line.
    #[arg(long)]
    json: bool,
    /// The targets (IRIs); without any, each line of standard input is one.
    targets: Vec<String>,
}

/// The base, or a usage error that says what is wrong with it.
fn base(text: &str) -> io::Result<Iri<&str>> {
    let usage = |m: String| io::Error::new(io::ErrorKind::InvalidInput, m);
    let r = IriRef::parse(text).map_err(|e| usage(format!("the base is not an IRI:\n{e}")))?;
    Iri::try_from(r).map_err(|_| {
        usage(format!(
            "the base {text:?} is a relative reference: a base must be an absolute IRI, with a scheme (RFC 3986 §5.1)"
        ))
    })
}

fn error_json(e: &ParseError) -> Value {
    json!({"byte": e.byte(), "char": e.char(), "message": e.message()})
}

/// Runs `each` on every input, writing what it returns, and tracks whether
/// every input succeeded.
fn for_each_input(
    given: Vec<String>,
    mut each: impl FnMut(&str) -> (Value, String, bool),
    json: bool,
) -> io::Result<Outcome> {
    let mut out = BufWriter::new(io::stdout().lock());
    let mut outcome = Outcome::AllValid;
    for input in inputs(given) {
        let (value, human, ok) = match input? {
            Input::Text(text) => each(&text),
            Input::NotUtf8 { lossy, valid_up_to } => {
                let message = "the line is not UTF-8: an IRI is a sequence of Unicode characters (percent-encode octets as %HH)";
                (
                    json!({"input": lossy, "error": {"byte": valid_up_to, "message": message}}),
                    format!("error: {message}\n  | {lossy}"),
                    false,
                )
            }
        };
        if json {
            writeln!(out, "{value}")?;
        } else {
            writeln!(out, "{human}")?;
        }
        if !ok {
            outcome = Outcome::SomeInvalid;
        }
    }
    out.flush()?;
    Ok(outcome)
}

pub(crate) fn run_resolve(args: ResolveArgs) -> io::Result<Outcome> {
    let base = base(&args.base)?;
    let options = ResolveOptions::new().strict(!args.non_strict);
    let b = args.base.clone();
    for_each_input(
        args.refs,
        |r| match IriRef::parse(r) {
            Ok(reference) => {
                let resolved = base.resolve_with(&reference, &options);
                (
                    json!({"base": b, "ref": r, "resolved": resolved.as_str()}),
                    resolved.to_string(),
                    true,
                )
            }
            Err(e) => (
                json!({"base": b, "ref": r, "error": error_json(&e)}),
                format!("{e}\n"),
                false,
            ),
        },
        args.json,
    )
}

pub(crate) fn run_relativize(args: RelativizeArgs) -> io::Result<Outcome> {
    let base = base(&args.base)?;
    let b = args.base.clone();
    for_each_input(
        args.targets,
        |t| {
            let target = match IriRef::parse(t).map(Iri::try_from) {
                Ok(Ok(target)) => target,
                Ok(Err(_)) => {
                    let message =
                        "the target is a relative reference: resolve it first (iri resolve)";
                    return (
                        json!({"base": b, "target": t, "error": {"byte": 0, "char": 0, "message": message}}),
                        format!("error: {message}\n  | {t}\n"),
                        false,
                    );
                }
                Err(e) => {
                    return (
                        json!({"base": b, "target": t, "error": error_json(&e)}),
                        format!("{e}\n"),
                        false,
                    )
                }
            };
            let r = base.relativize(&target);
            (
                json!({"base": b, "target": t, "relative": r.as_str()}),
                if r.as_str().is_empty() {
                    "\"\" (the empty reference)".to_owned()
                } else {
                    r.to_string()
                },
                true,
            )
        },
        args.json,
    )
}
