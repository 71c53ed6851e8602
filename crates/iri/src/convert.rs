//! `iri to-uri` and `iri to-iri`: conversions, one result per input, in
//! input order; `--explain` shows the string after each step.

use std::ffi::OsString;
use std::io;

use iribis::convert::{ConvertError, IdnaMode, Step, ToIriOptions, ToUriOptions};
use iribis::render::{escape_controls, escape_invisible};
use iribis::{IriRef, ParseOptions, Profile};
use serde_json::{Map, json};

use crate::Outcome;
use crate::inputs::{FileArg, Line, Preprocess};
use crate::output::{self, Answer, Errors, Failure, Shape, answer_each};

#[derive(clap::Args)]
pub(crate) struct ToUriArgs {
    /// The grammar of the inputs: rfc3987bis, rfc3987, rfc3986 or leiri
    /// (leiri also encodes what a LEIRI allows and an IRI does not).
    #[arg(long, default_value = "rfc3987bis")]
    profile: Profile,
    /// Convert registered names with IDNA (xn--) instead of percent-encoding
    /// them (3987bis §3.4.2): by RFC 5891's lookup, which refuses what
    /// IDNA2008 does not allow (symbols, emoji, full-width forms);
    /// --idna=uts46 maps and converts as browsers do (UTS #46).
    #[arg(
        long,
        value_name = "MODE",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "idna2008"
    )]
    idna: Option<IdnaFlag>,
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
    /// The IRIs; without any (and without --file), each line of standard
    /// input is one.
    inputs: Vec<OsString>,
    #[command(flatten)]
    file: FileArg,
}

/// The values of `to-uri --idna=MODE`.
#[derive(clap::ValueEnum, Clone, Copy)]
enum IdnaFlag {
    /// RFC 5891's lookup, as 3987bis §3.4.2 asks (the default).
    Idna2008,
    /// UTS #46 nontransitional processing, the mapping browsers apply.
    Uts46,
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
    /// Decode xn-- labels that fail the host spoofing checks too (mixed
    /// scripts, look-alikes; `iri check` names them): by default they stay
    /// in punycode, as browsers show them, and --explain says why.
    #[arg(long)]
    decode_spoofable: bool,
    /// Print the string after each step of 3987bis §4.2.
    #[arg(long)]
    explain: bool,
    /// One JSON object per input, one per line.
    #[arg(long)]
    json: bool,
    /// The URIs; without any (and without --file), each line of standard
    /// input is one.
    inputs: Vec<OsString>,
    #[command(flatten)]
    file: FileArg,
}

/// The error of a conversion, in the shape of every error.
fn failure(input: &str, e: ConvertError) -> Failure {
    match e {
        ConvertError::Parse(p) => Failure::parse(p),
        ConvertError::Idna { .. } => {
            // The host is where IDNA failed.
            let host = IriRef::parse_with(input, &ParseOptions::new().profile(Profile::Leiri))
                .ok()
                .and_then(|r| {
                    r.host_str()
                        .map(|h| h.as_ptr() as usize - input.as_ptr() as usize)
                });
            Failure::at(
                input,
                host.unwrap_or(0),
                e.to_string(),
                "host",
                "3987bis §3.4.2",
            )
        }
        other => Failure::at(input, 0, other.to_string(), "input", "3987bis §3.5"),
    }
}

/// Writes each input's result: `key` holds the converted string.
fn run(
    given: impl Iterator<Item = io::Result<Line>>,
    key: &str,
    explain: bool,
    json: bool,
    steps: impl Fn(&str) -> Result<Converted, ConvertError>,
) -> io::Result<Outcome> {
    let shape = Shape {
        head: Vec::new(),
        input: "input",
        valid: true,
    };
    // Plain results one per line; with --explain, the report in place.
    let errors = if explain {
        Errors::Inline
    } else {
        Errors::Stderr
    };
    answer_each(given, json, &shape, errors, |text| match steps(text) {
        Ok(Converted { result, .. }) if json && !explain => {
            // The common line, written by hand (no serde_json::Value).
            let mut raw = output::scratch();
            output::push_json_plain(&mut raw, key);
            raw.push(b':');
            output::push_json_str(&mut raw, result.as_str());
            Answer::ok_raw(raw, String::new())
        }
        Ok(Converted { result, steps }) => {
            let mut fields = Map::new();
            fields.insert(key.into(), result.as_str().into());
            if explain {
                fields.insert(
                    "steps".into(),
                    steps
                        .iter()
                        .map(|s| {
                            let mut step = json!({"step": s.label, "what": s.what, "text": s.text});
                            if !s.notes.is_empty() {
                                step["notes"] = s.notes.clone().into();
                            }
                            step
                        })
                        .collect(),
                );
            }
            let human = if json {
                String::new()
            } else if explain {
                steps
                    .iter()
                    .map(|s| {
                        let mut out = format!(
                            "{:>5}. {}\n       ({})\n",
                            s.label,
                            escape_invisible(&s.text),
                            escape_invisible(s.what)
                        );
                        for note in &s.notes {
                            out.push_str(&format!("       note: {}\n", escape_invisible(note)));
                        }
                        out
                    })
                    .collect()
            } else {
                escape_controls(&result).into_owned()
            };
            Answer::ok(fields, human)
        }
        Err(e) => Answer::failed(failure(text, e)),
    })
}

pub(crate) fn run_to_uri(args: ToUriArgs) -> io::Result<Outcome> {
    let mut options = ToUriOptions::new().profile(args.profile);
    if let Some(mode) = args.idna {
        options = options.idna_mode(match mode {
            IdnaFlag::Idna2008 => IdnaMode::Idna2008,
            IdnaFlag::Uts46 => IdnaMode::Uts46,
        });
    }
    if let Some(label) = &args.query_charset {
        options = options
            .query_charset(label)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
    }
    let given = args.preprocess.apply(args.file.inputs(args.inputs)?);
    // Without --explain only the result is computed: memory stays a few
    // bytes per input byte on long lines.
    run(given, "uri", args.explain, args.json, |s| {
        if args.explain {
            iribis::convert::to_uri_steps(s, &options).map(Converted::explained)
        } else {
            iribis::to_uri(s, &options).map(Converted::alone)
        }
    })
}

pub(crate) fn run_to_iri(args: ToIriArgs) -> io::Result<Outcome> {
    let options = ToIriOptions::new()
        .idna(!args.no_idna)
        .decode_all(args.decode_all)
        .decode_spoofable(args.decode_spoofable);
    run(
        args.file.inputs(args.inputs)?,
        "iri",
        args.explain,
        args.json,
        |s| {
            if args.explain {
                iribis::convert::to_iri_steps(s, &options).map(Converted::explained)
            } else {
                iribis::to_iri(s, &options).map(Converted::alone)
            }
        },
    )
}

/// The result of a conversion, and its steps when explained.
struct Converted {
    result: String,
    steps: Vec<Step>,
}

impl Converted {
    /// The result alone (without `--explain`).
    fn alone(result: String) -> Self {
        Converted {
            result,
            steps: Vec::new(),
        }
    }

    /// The steps, the last of which is the result.
    fn explained(steps: Vec<Step>) -> Self {
        Converted {
            result: steps.last().map(|s| s.text.clone()).unwrap_or_default(),
            steps,
        }
    }
}
