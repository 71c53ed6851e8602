//! `iri parse`: components or errors, one result per input, in input order.

use std::ffi::OsString;
use std::io;

use iribis::readings::ReadingsJson;
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
        // The library takes the fast path (the DFA, then the delimiters)
        // for the reference rules, and the parse tree's lowering for any
        // other rule.
        match Components::parse(text, rule, args.profile) {
            Ok(_) if args.readings => {
                let r = match IriRef::parse_with(text, &options) {
                    Ok(r) => r,
                    Err(e) => return Answer::failed(Failure::parse(e)),
                };
                let all = iribis::readings::readings(&r);
                if args.json {
                    let mut m = fields(&Components::from(r));
                    if let Value::Object(more) = json_of(ReadingsJson::new(text, &all)) {
                        m.extend(more);
                    }
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

/// The library's serialization of `value` (`docs/schema/components.json`).
fn json_of(value: impl serde::Serialize) -> Value {
    serde_json::to_value(value).unwrap_or_else(|e| unreachable!("components serialize: {e}"))
}

/// The JSON fields of a valid IRI reference, borrowed from it: every
/// component key, null when the component is absent. The library's
/// serialization of [`Components`], written faster (a test holds the two
/// to the same bytes).
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

/// The JSON fields of a valid input, as the library serializes its
/// components: for the reference-level rules every component key (null
/// when absent); below that level, only the components the rule has.
fn fields(c: &Components<'_>) -> Map<String, Value> {
    match json_of(c) {
        Value::Object(m) => m,
        other => unreachable!("components serialize as an object, not {other}"),
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use iribis::readings::readings;
    use serde_json::json;

    /// The lines of a benchmark corpus.
    fn corpus(name: &str) -> Vec<String> {
        let path = format!("{}/../../benches/data/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        text.lines().map(str::to_owned).collect()
    }

    fn corpora() -> Vec<String> {
        let mut lines = corpus("kasztp-urls.txt");
        lines.extend(corpus("mixed-iris-20k.txt"));
        lines
    }

    /// The hand-written JSON of the common case is the library's
    /// serialization of the components, byte for byte.
    #[test]
    fn the_fast_writer_writes_the_library_json() {
        let mut checked = 0;
        for line in corpora() {
            let Ok(r) = IriRef::parse(&line) else {
                continue;
            };
            let plain = output::is_json_plain(&line);
            let mut fast = b"{".to_vec();
            fast.extend(Fields::of_ref(&r).json(plain));
            fast.push(b'}');
            let library = serde_json::to_string(&Components::from(r)).unwrap();
            assert_eq!(String::from_utf8(fast).unwrap(), library, "{line:?}");
            checked += 1;
        }
        assert!(checked > 60_000, "{checked} references");
    }

    fn validator(def: Option<&str>) -> jsonschema::Validator {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/schema/components.json"
        );
        let mut schema: Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        if let Some(def) = def {
            schema = json!({ "$defs": schema["$defs"].take(), "$ref": format!("#/$defs/{def}") });
        }
        jsonschema::validator_for(&schema).unwrap()
    }

    fn assert_valid(v: &jsonschema::Validator, value: &Value) {
        let errors: Vec<String> = v.iter_errors(value).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{value}: {errors:#?}");
    }

    /// The library's components, at the reference rules and below, and its
    /// readings, match docs/schema/components.json.
    #[test]
    fn the_library_json_matches_its_schema() {
        let components = validator(None);
        let by_reader = validator(Some("readings"));
        let rules: Vec<GrammarRule> = ["iauthority", "ihost", "ipath", "iquery", "scheme"]
            .iter()
            .map(|n| GrammarRule::from_name(n).unwrap())
            .chain(GrammarRule::references().iter().copied())
            .collect();
        for (i, line) in corpora().iter().enumerate() {
            if let Ok(r) = IriRef::parse(line.as_str()) {
                assert_valid(&components, &json_of(Components::from(r)));
                if i % 8 == 0 {
                    assert_valid(&by_reader, &json_of(ReadingsJson::new(line, &readings(&r))));
                }
            }
            if i % 64 == 0 {
                for &rule in &rules {
                    for part in [line.as_str(), line.split('/').nth(2).unwrap_or("")] {
                        if let Ok(c) = Components::parse(part, rule, Profile::Rfc3987bis) {
                            assert_valid(&components, &json_of(c));
                        }
                    }
                }
            }
        }
        // Each reader's shape, rejections included.
        let input = "http://a.b.c.1.2.3.4/%2e%2e/x";
        let all = readings(&IriRef::parse(input).unwrap());
        let value = json_of(ReadingsJson::new(input, &all));
        assert_eq!(
            value["readings"]["whatwg"],
            json!({"error": "invalid IPv4 address"})
        );
        assert_valid(&by_reader, &value);
    }
}
