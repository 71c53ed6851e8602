//! `iri normalize` and `iri compare`.

use std::io::{self, Write};

use std::ffi::OsString;

use iribis::normalize::{Level, compare};
use iribis::render::escape_controls;
use iribis::{Component, IriRef};
use serde_json::{Map, Value, json};

use crate::Outcome;
use crate::output::{Answer, Errors, Failure, Shape, answer_each, write_json};

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
    /// The inputs; without any (and without --file), each line of
    /// standard input is one.
    inputs: Vec<OsString>,
    #[command(flatten)]
    file: crate::inputs::FileArg,
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
    /// does not parse, `{"a":…,"b":…,"invalid":"a" or "b","error":{…}}`.
    #[arg(long)]
    json: bool,
    /// The first IRI (resolve relative references first: iri resolve).
    a: String,
    /// The second IRI.
    b: String,
}

pub(crate) fn run_normalize(args: NormalizeArgs) -> io::Result<Outcome> {
    let shape = Shape {
        head: Vec::new(),
        input: "input",
        valid: true,
    };
    answer_each(
        args.file.inputs(args.inputs)?,
        args.json,
        &shape,
        Errors::Stderr,
        |text| {
            let result = IriRef::parse(text).map_err(Failure::parse).and_then(|r| {
                let normal = r.normalize_with(args.level);
                if !args.nfc {
                    return Ok(normal);
                }
                // NFC after percent-decoding, so that an encoded
                // combining mark composes too ('e%CC%81' is 'é'), and
                // the syntax-based form again: a second run changes
                // nothing.
                normal
                    .to_nfc()
                    .map(|n| n.normalize_with(args.level))
                    .map_err(|e| {
                        let at = component_start(&r, e.component());
                        Failure::at(
                            text,
                            at,
                            e.to_string(),
                            e.component().name(),
                            "3987bis §8.5",
                        )
                    })
            });
            match result {
                Ok(n) => {
                    let mut fields = Map::new();
                    fields.insert("normalized".into(), n.as_str().into());
                    let human = if args.json {
                        String::new()
                    } else {
                        escape_controls(n.as_str()).into_owned()
                    };
                    Answer::ok(fields, human)
                }
                Err(f) => Answer::failed(f),
            }
        },
    )
}

/// The byte offset where `component` of `r` starts (0 when it has none).
fn component_start(r: &IriRef<&str>, component: Component) -> usize {
    let part = match component {
        Component::Scheme => r.scheme(),
        Component::Authority => r.authority(),
        Component::Userinfo => r.userinfo(),
        Component::Host => r.host_str(),
        Component::Port => r.port(),
        Component::Path => Some(r.path()),
        Component::Query => r.query(),
        Component::Fragment => r.fragment(),
        _ => None,
    };
    part.map_or(0, |p| p.as_ptr() as usize - r.as_str().as_ptr() as usize)
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
                    let mut line = Map::new();
                    line.insert("a".into(), args.a.as_str().into());
                    line.insert("b".into(), args.b.as_str().into());
                    line.insert("invalid".into(), name.into());
                    line.insert("error".into(), Failure::parse(e.clone()).json());
                    write_json(&mut out, &Value::Object(line))?;
                }
            } else {
                for (name, e) in errors {
                    writeln!(
                        out,
                        "{} is not an IRI reference:\n{}\n",
                        name.to_uppercase(),
                        e.report()
                    )?;
                }
            }
            return Ok(Outcome::SomeInvalid);
        }
    };
    let rung = compare(&a, &b, args.level, args.ignore_fragment);
    if args.json {
        write_json(
            &mut out,
            &json!({"a": args.a, "b": args.b, "equivalent": rung.is_some(), "rung": rung.map(Level::name)}),
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
