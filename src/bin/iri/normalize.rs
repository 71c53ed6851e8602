//! `iri normalize` and `iri compare`.

use std::io::{self, Write};

use iribis::{compare, IriRef, Level};
use serde_json::json;

use crate::Outcome;

#[derive(clap::Args)]
pub(crate) struct NormalizeArgs {
    /// syntax (RFC 3987 §5.3.2) or scheme (§5.3.3: default ports, empty
    /// paths, IDN hosts).
    #[arg(long, default_value = "syntax")]
    level: Level,
    /// Put each component in Unicode Normalization Form C first (3987bis
    /// §3.1); comparison itself never does (RFC 3987 §5.3.2.2).
    #[arg(long)]
    nfc: bool,
    /// One JSON object per input, one per line.
    #[arg(long)]
    json: bool,
    /// The inputs; without any, each line of standard input is one.
    inputs: Vec<String>,
}

#[derive(clap::Args)]
pub(crate) struct CompareArgs {
    /// The highest rung to try: simple, syntax or scheme.
    #[arg(long, default_value = "scheme")]
    level: Level,
    /// Leave fragments out of the comparison (RFC 3987 §5.1).
    #[arg(long)]
    ignore_fragment: bool,
    /// Print `{"a":…,"b":…,"equivalent":…,"rung":…}`.
    #[arg(long)]
    json: bool,
    /// The first IRI (resolve relative references first: iri resolve).
    a: String,
    /// The second IRI.
    b: String,
}

pub(crate) fn run_normalize(args: NormalizeArgs) -> io::Result<Outcome> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut outcome = Outcome::AllValid;
    for input in crate::inputs::inputs(args.inputs) {
        let text = match input? {
            crate::inputs::Input::Text(t) => t,
            crate::inputs::Input::NotUtf8 { lossy, .. } => lossy,
        };
        let result = IriRef::parse(&text)
            .map_err(|e| (e.byte(), e.char(), e.message(), e.to_string()))
            .and_then(|r| {
                if args.nfc {
                    r.to_nfc()
                        .map_err(|e| (0, 0, e.to_string(), format!("error: {e}")))
                } else {
                    Ok(r.into_owned())
                }
            })
            .map(|r| r.normalize_with(args.level));
        match (&result, args.json) {
            (Ok(n), true) => writeln!(out, "{}", json!({"input": text, "normalized": n.as_str()}))?,
            (Ok(n), false) => writeln!(out, "{n}")?,
            (Err((byte, ch, message, _)), true) => writeln!(
                out,
                "{}",
                json!({"input": text, "error": {"byte": byte, "char": ch, "message": message}})
            )?,
            (Err((.., report)), false) => writeln!(out, "{report}\n")?,
        }
        if result.is_err() {
            outcome = Outcome::SomeInvalid;
        }
    }
    out.flush()?;
    Ok(outcome)
}

pub(crate) fn run_compare(args: CompareArgs) -> io::Result<Outcome> {
    let (a, b) = (parse_arg(&args.a)?, parse_arg(&args.b)?);
    let rung = compare(&a, &b, args.level, args.ignore_fragment);
    let mut out = io::stdout().lock();
    if args.json {
        writeln!(
            out,
            "{}",
            json!({"a": args.a, "b": args.b, "equivalent": rung.is_some(), "rung": rung.map(Level::name)})
        )?;
    } else {
        match rung {
            Some(l) => writeln!(out, "equivalent at the {} rung", l.rung())?,
            None => writeln!(
                out,
                "not equivalent (compared up to the {} rung{})",
                args.level.rung(),
                if args.ignore_fragment {
                    ", fragments ignored"
                } else {
                    ""
                }
            )?,
        }
    }
    Ok(if rung.is_some() {
        Outcome::AllValid
    } else {
        Outcome::SomeInvalid
    })
}

/// An argument that must parse, or a usage error with the parse report.
fn parse_arg(s: &str) -> io::Result<IriRef<&str>> {
    IriRef::parse(s).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, format!("\n{e}")))
}
