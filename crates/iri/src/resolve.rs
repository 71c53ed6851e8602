//! `iri resolve` and `iri relativize`: references against a base, one
//! result per input, in input order.

use std::ffi::OsString;
use std::io;

use iribis::render::{escape_controls, escape_invisible};
use iribis::resolve::ResolveOptions;
use iribis::{Iri, IriRef};
use serde_json::Map;

use crate::Outcome;
use crate::inputs::FileArg;
use crate::output::{Answer, Errors, Failure, Shape, answer_each};

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
    /// The references; without any (and without --file), each line of
    /// standard input is one.
    #[arg(id = "inputs", value_name = "REFS")]
    refs: Vec<OsString>,
    #[command(flatten)]
    file: FileArg,
}

#[derive(clap::Args)]
pub(crate) struct RelativizeArgs {
    /// The base: an absolute IRI (a fragment is ignored).
    #[arg(long)]
    base: String,
    /// One JSON object per input, one per line.
    #[arg(long)]
    json: bool,
    /// The targets (IRIs); without any (and without --file), each line of
    /// standard input is one.
    #[arg(id = "inputs", value_name = "TARGETS")]
    targets: Vec<OsString>,
    #[command(flatten)]
    file: FileArg,
}

/// The base, or a usage error that says what is wrong with it.
fn base(text: &str) -> io::Result<Iri<&str>> {
    let usage = |m: String| io::Error::new(io::ErrorKind::InvalidInput, m);
    let r = IriRef::parse(text)
        .map_err(|e| usage(format!("the base is not an IRI:\n{}", e.report())))?;
    Iri::try_from(r).map_err(|_| {
        usage(format!(
            "the base \"{}\" is a relative reference: a base must be an absolute IRI, with a scheme (RFC 3986 §5.1)",
            escape_invisible(text)
        ))
    })
}

pub(crate) fn run_resolve(args: ResolveArgs) -> io::Result<Outcome> {
    let base = base(&args.base)?;
    let options = ResolveOptions::new().strict(!args.non_strict);
    let shape = Shape {
        head: vec![("base", args.base.as_str().into())],
        input: "ref",
        valid: true,
    };
    answer_each(
        args.file.inputs(args.refs)?,
        args.json,
        &shape,
        Errors::Stderr,
        |r| match IriRef::parse(r) {
            Ok(reference) => {
                let resolved = base.resolve_with(&reference, &options);
                let mut fields = Map::new();
                fields.insert("resolved".into(), resolved.as_str().into());
                let human = if args.json {
                    String::new()
                } else {
                    escape_controls(resolved.as_str()).into_owned()
                };
                Answer::ok(fields, human)
            }
            Err(e) => Answer::failed(Failure::parse(e)),
        },
    )
}

pub(crate) fn run_relativize(args: RelativizeArgs) -> io::Result<Outcome> {
    let base = base(&args.base)?;
    let shape = Shape {
        head: vec![("base", args.base.as_str().into())],
        input: "target",
        valid: true,
    };
    answer_each(
        args.file.inputs(args.targets)?,
        args.json,
        &shape,
        Errors::Stderr,
        |t| {
            let target = match IriRef::parse(t).map(Iri::try_from) {
                Ok(Ok(target)) => target,
                Ok(Err(_)) => {
                    let message =
                        "the target is a relative reference: resolve it first (iri resolve)".into();
                    let failure = Failure::at(t, 0, message, "scheme", "RFC 3986 §5.1")
                        .expected(vec!["scheme".into()]);
                    return Answer::failed(failure);
                }
                Err(e) => return Answer::failed(Failure::parse(e)),
            };
            let r = base.relativize(&target);
            let mut fields = Map::new();
            fields.insert("relative".into(), r.as_str().into());
            let human = if r.as_str().is_empty() {
                "\"\" (the empty reference)".to_owned()
            } else {
                escape_controls(r.as_str()).into_owned()
            };
            Answer::ok(fields, human)
        },
    )
}
