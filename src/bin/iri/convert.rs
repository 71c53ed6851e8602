//! `iri to-uri` and `iri to-iri`: conversions, one result per input, in
//! input order; `--explain` shows the string after each step.

use std::io::{self, BufWriter, Write};

use iribis::{ConvertError, Profile, Step, ToIriOptions, ToUriOptions};
use serde_json::{json, Value};

use crate::inputs::{inputs, Input, Preprocess};
use crate::Outcome;

#[derive(clap::Args)]
pub(crate) struct ToUriArgs {
    /// The grammar of the inputs: rfc3987bis, rfc3987, rfc3986 or leiri
    /// (leiri also encodes what a LEIRI allows and an IRI does not).
    #[arg(long, default_value = "rfc3987bis")]
    profile: Profile,
    /// Convert registered names with IDNA (xn--) instead of percent-encoding
    /// them (3987bis §3.4.2).
    #[arg(long)]
    idna: bool,
    /// The charset of the document the IRIs come from, for the query of
    /// http(s) IRIs (3987bis §3.5), by WHATWG label: windows-1252, shift_jis…
    #[arg(long, value_name = "NAME")]
    query_charset: Option<String>,
    /// Print the string after each step of the conversion.
    #[arg(long)]
    explain: bool,
    /// One JSON object per input, one per line.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    preprocess: Preprocess,
    /// The IRIs; without any, each line of standard input is one.
    inputs: Vec<String>,
}

#[derive(clap::Args)]
pub(crate) struct ToIriArgs {
    /// Leave xn-- labels of DNS hosts as they are (3987bis §4.2 step 7).
    #[arg(long)]
    no_idna: bool,
    /// Decode the characters 3987bis §5.1 advises against too (look-alikes,
    /// invisible characters, combining marks starting a component); bidi
    /// formatting characters stay encoded (RFC 3987 §4.1).
    #[arg(long)]
    decode_all: bool,
    /// Print the string after each step of 3987bis §4.2.
    #[arg(long)]
    explain: bool,
    /// One JSON object per input, one per line.
    #[arg(long)]
    json: bool,
    /// The URIs; without any, each line of standard input is one.
    inputs: Vec<String>,
}

fn error_json(e: &ConvertError) -> Value {
    match e {
        ConvertError::Parse(p) => {
            json!({"byte": p.byte(), "char": p.char(), "message": p.message()})
        }
        other => json!({"message": other.to_string()}),
    }
}

fn human_error(e: &ConvertError) -> String {
    match e {
        ConvertError::Parse(p) => format!("{p}\n"),
        other => format!("error: {other}\n"),
    }
}

/// Writes each input's result: `key` holds the converted string.
fn run(
    given: impl Iterator<Item = io::Result<Input>>,
    key: &str,
    explain: bool,
    json: bool,
    steps: impl Fn(&str) -> Result<Vec<Step>, ConvertError>,
) -> io::Result<Outcome> {
    let mut out = BufWriter::new(io::stdout().lock());
    let mut outcome = Outcome::AllValid;
    for input in given {
        let text = match input? {
            Input::Text(t) => t,
            Input::NotUtf8 { lossy, valid_up_to } => {
                let message = "the line is not UTF-8: an IRI is a sequence of Unicode characters (percent-encode octets as %HH)";
                if json {
                    writeln!(
                        out,
                        "{}",
                        json!({"input": lossy, "error": {"byte": valid_up_to, "message": message}})
                    )?;
                } else {
                    writeln!(out, "error: {message}\n  | {lossy}\n")?;
                }
                outcome = Outcome::SomeInvalid;
                continue;
            }
        };
        match steps(&text) {
            Ok(steps) => {
                let result = steps.last().map_or("", |s| s.text.as_str());
                if json {
                    let mut v = json!({"input": text, key: result});
                    if explain {
                        v["steps"] = steps
                            .iter()
                            .map(|s| json!({"step": s.label, "what": s.what, "text": s.text}))
                            .collect();
                    }
                    writeln!(out, "{v}")?;
                } else if explain {
                    for s in &steps {
                        writeln!(out, "{:>5}. {}\n       ({})", s.label, s.text, s.what)?;
                    }
                    writeln!(out)?;
                } else {
                    writeln!(out, "{result}")?;
                }
            }
            Err(e) => {
                if json {
                    writeln!(out, "{}", json!({"input": text, "error": error_json(&e)}))?;
                } else {
                    writeln!(out, "{}", human_error(&e))?;
                }
                outcome = Outcome::SomeInvalid;
            }
        }
    }
    out.flush()?;
    Ok(outcome)
}

pub(crate) fn run_to_uri(args: ToUriArgs) -> io::Result<Outcome> {
    let mut options = ToUriOptions::new().profile(args.profile).idna(args.idna);
    if let Some(label) = &args.query_charset {
        options = options
            .query_charset(label)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
    }
    let given = args.preprocess.apply(inputs(args.inputs));
    // Without --explain only the result is computed: memory stays a few
    // bytes per input byte on long lines.
    run(given, "uri", args.explain, args.json, |s| {
        if args.explain {
            iribis::to_uri_steps(s, &options)
        } else {
            iribis::to_uri(s, &options).map(result_step)
        }
    })
}

pub(crate) fn run_to_iri(args: ToIriArgs) -> io::Result<Outcome> {
    let options = ToIriOptions::new()
        .idna(!args.no_idna)
        .decode_all(args.decode_all);
    run(inputs(args.inputs), "iri", args.explain, args.json, |s| {
        if args.explain {
            iribis::to_iri_steps(s, &options)
        } else {
            iribis::to_iri(s, &options).map(result_step)
        }
    })
}

/// The result alone, as the last (and only) step.
fn result_step(text: String) -> Vec<Step> {
    vec![Step {
        label: String::new(),
        what: "",
        text,
    }]
}
