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
    /// Print `{"a":…,"b":…,"equivalent":…,"rung":…}`, or, when an input
    /// does not parse, `{"a":…,"b":…,"error":{"input":"a" or "b",…}}`.
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
    let mut out = io::stdout().lock();
    let (a, b) = match (IriRef::parse(&args.a), IriRef::parse(&args.b)) {
        (Ok(a), Ok(b)) => (a, b),
        (a, b) => {
            // An input that does not parse is a result, not a usage error:
            // exit 1, with its report (with --json, the first one's).
            let errors = [("a", a.err()), ("b", b.err())];
            let mut errors = errors
                .iter()
                .filter_map(|(name, e)| e.as_ref().map(|e| (*name, e)));
            if args.json {
                if let Some((name, e)) = errors.next() {
                    let error = json!({
                        "byte": e.byte(),
                        "char": e.char(),
                        "message": e.message(),
                        "component": e.component().name(),
                        "expected": e.expected().iter().map(|r| r.abnf_name()).collect::<Vec<_>>(),
                        "spec": e.spec(),
                        "input": name,
                    });
                    writeln!(out, "{}", json!({"a": args.a, "b": args.b, "error": error}))?;
                }
            } else {
                for (name, e) in errors {
                    writeln!(
                        out,
                        "{} is not an IRI reference:\n{e}\n",
                        name.to_uppercase()
                    )?;
                }
            }
            return Ok(Outcome::SomeInvalid);
        }
    };
    let rung = compare(&a, &b, args.level, args.ignore_fragment);
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
