//! `iri parse`: components or errors, one result per input, in input order.

use std::ffi::OsString;
use std::io;

use iribis::render::escape_invisible;
use iribis::{Components, GrammarRule, IriRef, ParseOptions, Profile};
use serde_json::{Map, Value};

use crate::Outcome;
use crate::output::{self, Answer, Failure, Shape, answer_all};

#[derive(clap::Args)]
pub(crate) struct Args {
    /// The inputs; without any (and without --file), each line of
    /// standard input is one input.
    inputs: Vec<OsString>,
    #[command(flatten)]
    file: crate::inputs::FileArg,
    /// The grammar: rfc3987bis, rfc3987, rfc3986 or leiri.
    #[arg(long, default_value = "rfc3987bis")]
    profile: Profile,
    /// The start rule, by ABNF name (`IRI`, `absolute-IRI`, `ireg-name`).
    /// With --grammar, any rule of that grammar (pest or ABNF spelling).
    #[arg(long, default_value = "IRI-reference")]
    rule: String,
    /// Run this pest grammar (loaded at run time) instead of the profile's;
    /// its failures are explained by the profile's rules.
    #[arg(long, value_name = "FILE.pest")]
    grammar: Option<std::path::PathBuf>,
    /// One JSON object per input, one per line.
    #[arg(long)]
    json: bool,
    /// Also show what other readers read: browsers (the WHATWG URL
    /// Standard), inet_aton (C resolvers) for a numeric-looking host, a
    /// reader that percent-decodes first; side by side, the components
    /// that differ marked (with --json, `readings` and `differences`).
    #[arg(long, conflicts_with = "grammar")]
    readings: bool,
    #[command(flatten)]
    preprocess: crate::inputs::Preprocess,
}

/// Parses a `--rule` value: an ABNF (or pest) rule name, regardless of case
/// (RFC 5234 §2.1); an unknown name gets the closest rules as suggestions.
pub(crate) fn rule_arg(name: &str) -> Result<GrammarRule, String> {
    GrammarRule::from_name(name).ok_or_else(|| {
        let builtin = iribis_lab::PestGrammar::builtin(Profile::Rfc3987bis);
        let close: Vec<&str> = builtin
            .suggest(name)
            .into_iter()
            .map(iribis_lab::spelling)
            .collect();
        if close.is_empty() {
            format!("no rule named {name:?} in the grammar (ABNF names such as IRI-reference, ihost, IPv6address)")
        } else {
            format!("no rule named {name:?} in the grammar: did you mean {}?", close.join(", "))
        }
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
    let lines = args.preprocess.apply(args.file.inputs(args.inputs)?);
    if let Some(path) = &args.grammar {
        return crate::grammar::parse_with(path, &args.rule, args.profile, lines, args.json);
    }
    let rule = rule_arg(&args.rule).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    check_rule(rule, args.profile)?;
    if args.readings && rule != GrammarRule::IRI_REFERENCE {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "--readings reads whole references: it takes no --rule",
        ));
    }
    let shape = Shape {
        head: Vec::new(),
        input: "input",
        valid: true,
    };
    let options = ParseOptions::new().profile(args.profile);
    answer_all(lines, args.json, &shape, |text| {
        // The common case, JSON for a reference, straight from the parse:
        // no copy of it into a `Components`.
        if args.json && !args.readings && rule == GrammarRule::IRI_REFERENCE {
            return match IriRef::parse_with(text, &options) {
                Ok(r) => {
                    let plain = output::is_json_plain(text);
                    Answer::ok_raw(Fields::of_ref(&r).json(plain), String::new())
                        .with_plain_input(plain)
                }
                Err(e) => Answer::failed(Failure::parse(e)),
            };
        }
        // The reference rule takes the fast path (the DFA, then the
        // delimiters); any other rule the parse tree's lowering.
        let result = if rule == GrammarRule::IRI_REFERENCE {
            IriRef::parse_with(text, &options).map(Components::from)
        } else {
            Components::parse(text, rule, args.profile)
        };
        match result {
            Ok(_) if args.readings => {
                let r = match IriRef::parse_with(text, &options) {
                    Ok(r) => r,
                    Err(e) => return Answer::failed(Failure::parse(e)),
                };
                let all = iribis::readings::readings(&r);
                if args.json {
                    let mut m = fields(&Components::from(r));
                    crate::readings::add_json(&mut m, text, &all);
                    Answer::ok(m, String::new())
                } else {
                    Answer::ok(Map::new(), crate::readings::side_by_side(text, &all))
                }
            }
            Ok(c) if args.json => Answer::ok(fields(&c), String::new()),
            Ok(c) => Answer::ok(Map::new(), human(text, &c)),
            Err(e) => Answer::failed(Failure::parse(e)),
        }
    })
}

fn opt(s: Option<&str>) -> Value {
    s.map_or(Value::Null, |s| Value::String(s.to_owned()))
}

/// The JSON keys of the components, in the order every command writes
/// them ([`Fields::json`] writes the same, as constant byte strings).
pub(crate) const COMPONENT_KEYS: [&str; 9] = [
    "scheme",
    "authority",
    "userinfo",
    "host",
    "host_type",
    "port",
    "path",
    "query",
    "fragment",
];

/// The JSON fields of a valid IRI reference, borrowed from it: every
/// component key, null when the component is absent.
struct Fields<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    userinfo: Option<&'a str>,
    host: Option<&'a str>,
    host_type: Option<&'static str>,
    port: Option<&'a str>,
    path: Option<&'a str>,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

impl<'a> Fields<'a> {
    /// The fields as JSON `"key":value` pairs joined by commas, written by
    /// hand: the strings through [`output::push_json_str`], which skips
    /// eight bytes at a time where serde_json looks at each, or as they are
    /// when they are parts of an input that [`output::is_json_plain`].
    fn json(&self, plain: bool) -> Vec<u8> {
        let mut buf = output::scratch();
        let value = |buf: &mut Vec<u8>, value: Option<&str>| match value {
            Some(v) if plain => output::push_json_plain(buf, v),
            Some(v) => output::push_json_str(buf, v),
            None => buf.extend_from_slice(b"null"),
        };
        // Each key a constant of its own, not an element of an array the
        // loop goes through: the compiler writes a key of known length as
        // a few moves, where one of unknown length costs a call to memcpy.
        buf.extend_from_slice(b"\"scheme\":");
        value(&mut buf, self.scheme);
        buf.extend_from_slice(b",\"authority\":");
        value(&mut buf, self.authority);
        buf.extend_from_slice(b",\"userinfo\":");
        value(&mut buf, self.userinfo);
        buf.extend_from_slice(b",\"host\":");
        value(&mut buf, self.host);
        buf.extend_from_slice(b",\"host_type\":");
        value(&mut buf, self.host_type);
        buf.extend_from_slice(b",\"port\":");
        value(&mut buf, self.port);
        buf.extend_from_slice(b",\"path\":");
        value(&mut buf, self.path);
        buf.extend_from_slice(b",\"query\":");
        value(&mut buf, self.query);
        buf.extend_from_slice(b",\"fragment\":");
        value(&mut buf, self.fragment);
        buf
    }

    /// The fields of a reference; every reference has a path.
    fn of_ref(r: &'a IriRef<&'a str>) -> Self {
        Fields {
            scheme: r.scheme(),
            authority: r.authority(),
            userinfo: r.userinfo(),
            host: r.host_str(),
            host_type: r.host().map(|h| h.kind_name()),
            port: r.port(),
            path: Some(r.path()),
            query: r.query(),
            fragment: r.fragment(),
        }
    }
}

/// The JSON fields of a valid input. For the reference-level rules every
/// component key is present (null when absent); below that level, only the
/// components the rule has.
fn fields(c: &Components<'_>) -> Map<String, Value> {
    let mut m = Map::new();
    let full = c.path().is_some();
    let values = [
        c.scheme(),
        c.authority(),
        c.userinfo(),
        c.host_str(),
        c.host().map(|h| h.kind_name()),
        c.port(),
        c.path(),
        c.query(),
        c.fragment(),
    ];
    for (k, v) in COMPONENT_KEYS.into_iter().zip(values) {
        if full || v.is_some() {
            m.insert(k.into(), opt(v));
        }
    }
    m
}

/// The input and its components, one per line, escaped for a terminal.
fn human(input: &str, c: &Components<'_>) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(4 * input.len() + 64);
    let _ = writeln!(out, "{}", escape_invisible(input));
    let mut row = |name: &str, value: Option<&str>, kind: Option<&str>| {
        let _ = match (value, kind) {
            (None, _) => Ok(()),
            (Some(v), Some(k)) => writeln!(out, "  {name:<10} {} ({k})", escape_invisible(v)),
            (Some(""), None) => writeln!(out, "  {name:<10} (empty)"),
            (Some(v), None) => writeln!(out, "  {name:<10} {}", escape_invisible(v)),
        };
    };
    row("scheme", c.scheme(), None);
    row("authority", c.authority(), None);
    row("userinfo", c.userinfo(), None);
    row("host", c.host_str(), c.host().map(|h| h.kind_name()));
    row("port", c.port(), None);
    row("path", c.path(), None);
    row("query", c.query(), None);
    row("fragment", c.fragment(), None);
    out
}
