//! iribis's own adapter: the answer the library gives to each request.

use iribis::Components;
use iribis::GrammarRule;
use iribis::convert::{ToIriOptions, ToUriOptions};
use iribis::{Iri, IriRef, ParseOptions};

use super::case::{Answer, Ladder, Op, Parts, Position, Request};
use super::sources::requirement;

/// iribis's answer to a request of the adapter protocol (what `iri suite
/// adapter` writes for each line it reads).
///
/// `valid` takes any rule of the profile by its ABNF name and says where
/// an invalid input goes wrong; `components`, `normalize` and `to-uri`
/// parse the input as an `IRI-reference` of the profile; `resolve` needs a
/// base with a scheme (RFC 3986 §5.1); `to-iri` follows 3987bis §4.2 with
/// the library's defaults (and a `to-uri` request's `charset`, 3987bis
/// §3.5); `compare` climbs RFC 3987 §5.3's ladder with
/// [`iribis::normalize::equivalent`]; `check` runs the checker and maps its
/// codes to the requirements they stand for
/// ([`REQUIREMENTS`](crate::REQUIREMENTS)).
///
/// ```
/// use iribis_suite::{answer, Answer, Request};
///
/// let r = Request::from_line(r#"{"id":"1","op":"valid","profile":"rfc3987bis","rule":"IPv4address","input":"1.2.3.256","base":null}"#).unwrap();
/// assert!(matches!(answer(&r), Answer::Valid { valid: false, at: Some(p) } if p.char == 8));
/// let r = Request::from_line(r#"{"id":"2","op":"resolve","profile":"rfc3986","rule":null,"input":"../g","base":"http://a/b/c/d;p?q"}"#).unwrap();
/// assert_eq!(answer(&r), Answer::Result("http://a/b/g".into()));
/// ```
pub fn answer(request: &Request) -> Answer {
    let profile = request.profile;
    let input = request.input.as_str();
    let options = ParseOptions::new().profile(profile);
    fn parse<'a>(s: &'a str, o: &ParseOptions) -> Result<IriRef<&'a str>, iribis::ParseError> {
        IriRef::parse_with(s, o)
    }
    match request.op {
        Op::Valid => {
            let Some(rule) = request
                .rule
                .as_deref()
                .and_then(GrammarRule::from_name)
                .and_then(|r| r.in_profile(profile))
            else {
                return Answer::Unsupported;
            };
            if rule.matches(input, profile) {
                return Answer::Valid {
                    valid: true,
                    at: None,
                };
            }
            let at = Components::parse(input, rule, profile)
                .err()
                .map(|e| Position {
                    byte: e.byte(),
                    char: e.char(),
                });
            Answer::Valid { valid: false, at }
        }
        Op::Components => match parse(input, &options) {
            Ok(r) => {
                let p = Parts::of(&r);
                Answer::Components(
                    Parts::KEYS
                        .iter()
                        .map(|k| (k.to_string(), p.get(k).cloned().flatten()))
                        .collect(),
                )
            }
            Err(e) => Answer::Error(e.to_string()),
        },
        Op::Resolve => {
            let Some(base) = request.base.as_deref() else {
                return Answer::Error("a resolution needs a base".into());
            };
            let base = match parse(base, &options).map(Iri::try_from) {
                Ok(Ok(b)) => b,
                Ok(Err(_)) => {
                    return Answer::Error(
                        "the base is a relative reference (RFC 3986 §5.1)".into(),
                    );
                }
                Err(e) => return Answer::Error(format!("the base does not parse: {e}")),
            };
            match parse(input, &options) {
                Ok(r) => Answer::Result(base.resolve(&r).to_string()),
                Err(e) => Answer::Error(e.to_string()),
            }
        }
        Op::Normalize => match parse(input, &options) {
            Ok(r) => Answer::Result(r.normalize().to_string()),
            Err(e) => Answer::Error(e.to_string()),
        },
        Op::ToUri => {
            let options = ToUriOptions::new().profile(profile);
            let options = match request.charset.as_deref() {
                None => options,
                Some(c) => match options.query_charset(c) {
                    Ok(o) => o,
                    Err(e) => return Answer::Error(e.to_string()),
                },
            };
            match iribis::to_uri(input, &options) {
                Ok(s) => Answer::Result(s),
                Err(e) => Answer::Error(e.to_string()),
            }
        }
        Op::ToIri => match iribis::to_iri(input, &ToIriOptions::new()) {
            Ok(s) => Answer::Result(s),
            Err(e) => Answer::Error(e.to_string()),
        },
        Op::Compare => {
            use iribis::normalize::{Level, equivalent};
            let Some(other) = request.other.as_deref() else {
                return Answer::Error("a comparison needs `other`".into());
            };
            let (a, b) = match (parse(input, &options), parse(other, &options)) {
                (Ok(a), Ok(b)) => (a, b),
                (Err(e), _) | (_, Err(e)) => return Answer::Error(e.to_string()),
            };
            Answer::Equivalent(Ladder {
                simple: Some(equivalent(&a, &b, Level::Simple)),
                syntax: Some(equivalent(&a, &b, Level::Syntax)),
                scheme: Some(equivalent(&a, &b, Level::Scheme)),
            })
        }
        Op::Check => {
            use iribis::check::{CheckOptions, Code};
            let report = iribis::check(input, &CheckOptions::new().profile(profile));
            if let Some(v) = report
                .violations
                .iter()
                .find(|v| v.code == Code::SyntaxError)
            {
                return Answer::Error(v.message.clone());
            }
            let mut broken: Vec<String> = report
                .violations
                .iter()
                .filter_map(|v| requirement(v.code))
                .map(str::to_owned)
                .collect();
            broken.sort();
            broken.dedup();
            Answer::Requirements {
                broken,
                checks: None,
            }
        }
    }
}
