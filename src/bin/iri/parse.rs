//! `iri parse`: components or errors, one result per input, in input order.

use std::io::{self, BufWriter, Write};

use iribis::{Components, GrammarRule, IriRef, ParseError, ParseOptions, Profile};
use serde_json::{json, Map, Value};

use crate::inputs::{inputs, Input};
use crate::Outcome;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// The inputs; without any, each line of standard input is one input.
    inputs: Vec<String>,
    /// The grammar: rfc3987bis, rfc3987, rfc3986 or leiri.
    #[arg(long, default_value = "rfc3987bis")]
    profile: Profile,
    /// The start rule, by ABNF name (`IRI`, `absolute-IRI`, `ireg-name`).
    /// With --grammar, any rule of that grammar (pest or ABNF spelling).
    #[arg(long, default_value = "IRI-reference")]
    rule: String,
    /// Run this pest grammar (loaded at run time) instead of the profile's.
    #[arg(long, value_name = "FILE.pest", conflicts_with = "profile")]
    grammar: Option<std::path::PathBuf>,
    /// One JSON object per input, one per line.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    preprocess: crate::inputs::Preprocess,
}

/// Parses a `--rule` value: an ABNF (or pest) rule name.
pub(crate) fn rule_arg(name: &str) -> Result<GrammarRule, String> {
    GrammarRule::from_name(name).ok_or_else(|| {
        format!("no rule named {name:?} in the grammar (ABNF names such as IRI-reference, ihost, IPv6address)")
    })
}

/// A usage error when `profile`'s grammar has no `rule`.
pub(crate) fn check_rule(rule: GrammarRule, profile: Profile) -> io::Result<()> {
    match rule.in_profile(profile) {
        Some(_) => Ok(()),
        None => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("the {profile} profile has no rule {rule}"),
        )),
    }
}

pub(crate) fn run(args: Args) -> io::Result<Outcome> {
    if let Some(path) = &args.grammar {
        return crate::grammar::parse_with(path, &args.rule, args.inputs, args.json);
    }
    let rule = rule_arg(&args.rule).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    check_rule(rule, args.profile)?;
    let mut out = BufWriter::new(io::stdout().lock());
    let mut outcome = Outcome::AllValid;
    for input in args.preprocess.apply(inputs(args.inputs)) {
        let valid = match input? {
            Input::Text(text) => {
                // The reference rule takes the fast path (the DFA, then the
                // delimiters); any other rule the parse tree's lowering.
                let result = if rule == GrammarRule::IRI_REFERENCE {
                    IriRef::parse_with(&text, &ParseOptions::new().profile(args.profile))
                        .map(Components::from)
                } else {
                    Components::parse(&text, rule, args.profile)
                };
                let valid = result.is_ok();
                if args.json {
                    writeln!(out, "{}", to_json(&text, &result))?;
                } else {
                    match &result {
                        Ok(c) => write_human(&mut out, &text, c)?,
                        Err(e) => writeln!(out, "{e}\n")?,
                    }
                }
                valid
            }
            Input::NotUtf8 { lossy, valid_up_to } => {
                let chars = lossy.get(..valid_up_to).map_or(0, |s| s.chars().count());
                let message = "the line is not UTF-8: an IRI is a sequence of Unicode characters (percent-encode octets as %HH)";
                if args.json {
                    let error = json!({"byte": valid_up_to, "char": chars, "message": message});
                    writeln!(
                        out,
                        "{}",
                        json!({"input": lossy, "valid": false, "error": error})
                    )?;
                } else {
                    writeln!(out, "error: {message}\n --> byte {valid_up_to}, character {chars}\n  |\n  | {lossy}\n")?;
                }
                false
            }
        };
        if !valid {
            outcome = Outcome::SomeInvalid;
        }
    }
    out.flush()?;
    Ok(outcome)
}

fn opt(s: Option<&str>) -> Value {
    s.map_or(Value::Null, |s| Value::String(s.to_owned()))
}

/// The JSON object of one result. For the reference-level rules every
/// component key is present (null when absent); below that level, only the
/// components the rule has.
fn to_json(input: &str, result: &Result<Components<'_>, ParseError>) -> Value {
    let mut m = Map::new();
    m.insert("input".into(), input.into());
    match result {
        Ok(c) => {
            m.insert("valid".into(), true.into());
            let full = c.path().is_some();
            let fields = [
                ("scheme", c.scheme()),
                ("authority", c.authority()),
                ("userinfo", c.userinfo()),
                ("host", c.host_str()),
                ("host_type", c.host().map(|h| h.kind_name())),
                ("port", c.port()),
                ("path", c.path()),
                ("query", c.query()),
                ("fragment", c.fragment()),
            ];
            for (k, v) in fields {
                if full || v.is_some() {
                    m.insert(k.into(), opt(v));
                }
            }
        }
        Err(e) => {
            m.insert("valid".into(), false.into());
            m.insert(
                "error".into(),
                json!({
                    "byte": e.byte(),
                    "char": e.char(),
                    "message": e.message(),
                    "component": e.component().name(),
                    "expected": e.expected().iter().map(|r| r.abnf_name()).collect::<Vec<_>>(),
                    "spec": e.spec(),
                }),
            );
        }
    }
    Value::Object(m)
}

fn write_human(out: &mut impl Write, input: &str, c: &Components<'_>) -> io::Result<()> {
    writeln!(out, "{input}")?;
    let host = c
        .host()
        .map(|h| format!("{} ({})", c.host_str().unwrap_or(""), h.kind_name()));
    let rows = [
        ("scheme", c.scheme().map(str::to_owned)),
        ("authority", c.authority().map(str::to_owned)),
        ("userinfo", c.userinfo().map(str::to_owned)),
        ("host", host),
        ("port", c.port().map(str::to_owned)),
        ("path", c.path().map(str::to_owned)),
        ("query", c.query().map(str::to_owned)),
        ("fragment", c.fragment().map(str::to_owned)),
    ];
    for (name, value) in rows {
        match value.as_deref() {
            None => {}
            Some("") => writeln!(out, "  {name:<10} (empty)")?,
            Some(v) => writeln!(out, "  {name:<10} {v}")?,
        }
    }
    writeln!(out)
}
