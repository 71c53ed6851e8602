//! Adapters of the iribis conformance suite (conformance/README.md) for
//! other Rust crates: `iribis-suite-peers oxiri|iri-string|fluent-uri|url`
//! reads one request per line and writes one answer per line.
//!
//! Each adapter answers only what its crate offers, through the crate's
//! public API, and `unsupported` for the rest; where a rule or component
//! has no direct counterpart, the mapping is written next to it.

use std::io::{self, BufRead, Write};

use serde_json::{json, Map, Value};

/// A request of the protocol.
struct Request {
    op: String,
    profile: String,
    rule: Option<String>,
    input: String,
    base: Option<String>,
}

/// An answer without its id.
enum Answer {
    Valid(bool),
    Components(Vec<(&'static str, Option<String>)>),
    Result(String),
    Error(String),
    Unsupported,
}

type Adapter = fn(&Request) -> Answer;

fn main() {
    let name = std::env::args().nth(1).unwrap_or_default();
    let adapter: Adapter = match name.as_str() {
        "oxiri" => oxiri_adapter,
        "iri-string" => iri_string_adapter,
        "fluent-uri" => fluent_uri_adapter,
        "url" => url_adapter,
        _ => {
            eprintln!("usage: iribis-suite-peers oxiri|iri-string|fluent-uri|url");
            std::process::exit(2);
        }
    };
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let Ok(v) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
        let id = s("id").unwrap_or_default();
        let r = Request {
            op: s("op").unwrap_or_default(),
            profile: s("profile").unwrap_or_default(),
            rule: s("rule"),
            input: s("input").unwrap_or_default(),
            base: s("base"),
        };
        // A panic in the crate under test is an answer too.
        let answer = std::panic::catch_unwind(|| adapter(&r))
            .unwrap_or_else(|_| Answer::Error("the crate panicked".into()));
        let mut m = Map::new();
        m.insert("id".into(), Value::from(id));
        match answer {
            Answer::Valid(b) => {
                m.insert("valid".into(), Value::from(b));
            }
            Answer::Components(c) => {
                let c: Map<String, Value> = c
                    .into_iter()
                    .map(|(k, v)| (k.to_owned(), v.map_or(Value::Null, Value::from)))
                    .collect();
                m.insert("components".into(), Value::Object(c));
            }
            Answer::Result(r) => {
                m.insert("result".into(), Value::from(r));
            }
            Answer::Error(e) => {
                m.insert("error".into(), Value::from(e));
            }
            Answer::Unsupported => {
                m.insert("unsupported".into(), json!(true));
            }
        }
        let _ = writeln!(out, "{}", Value::Object(m));
        let _ = out.flush();
    }
}

/// The IRI profiles: RFC 3987, and 3987bis (whose grammar differs from
/// RFC 3987's only in the tag characters of `iprivate`), which the IRI
/// crates are run against as the nearest grammar they implement.
fn iri_profile(p: &str) -> bool {
    p == "rfc3987" || p == "rfc3987bis"
}

/// oxiri: RFC 3987 IRIs and references (`Iri`, `IriRef`).
fn oxiri_adapter(r: &Request) -> Answer {
    use oxiri::{Iri, IriRef};
    if !iri_profile(&r.profile) {
        return Answer::Unsupported;
    }
    let input = r.input.as_str();
    match r.op.as_str() {
        "valid" => match r.rule.as_deref() {
            Some("IRI-reference") => Answer::Valid(IriRef::parse(input).is_ok()),
            Some("IRI") => Answer::Valid(Iri::parse(input).is_ok()),
            // No type of its own: an IRI without a fragment.
            Some("absolute-IRI") => Answer::Valid(Iri::parse(input).is_ok_and(|i| i.fragment().is_none())),
            // No type of its own: a reference without a scheme.
            Some("irelative-ref") => Answer::Valid(IriRef::parse(input).is_ok_and(|i| i.scheme().is_none())),
            _ => Answer::Unsupported,
        },
        "components" => match IriRef::parse(input) {
            // oxiri does not split the authority.
            Ok(i) => Answer::Components(vec![
                ("scheme", i.scheme().map(str::to_owned)),
                ("authority", i.authority().map(str::to_owned)),
                ("path", Some(i.path().to_owned())),
                ("query", i.query().map(str::to_owned)),
                ("fragment", i.fragment().map(str::to_owned)),
            ]),
            Err(e) => Answer::Error(e.to_string()),
        },
        "resolve" => {
            let base = match Iri::parse(r.base.as_deref().unwrap_or("")) {
                Ok(b) => b,
                Err(e) => return Answer::Error(format!("base: {e}")),
            };
            let reference = match IriRef::parse(input) {
                Ok(x) => x,
                Err(e) => return Answer::Error(e.to_string()),
            };
            match base.resolve(&reference) {
                Ok(x) => Answer::Result(x.into_inner()),
                Err(e) => Answer::Error(e.to_string()),
            }
        }
        _ => Answer::Unsupported,
    }
}

/// iri-string: RFC 3987 IRIs (`Iri*Str`) and RFC 3986 URIs (`Uri*Str`).
fn iri_string_adapter(r: &Request) -> Answer {
    use iri_string::spec::{IriSpec, UriSpec};
    if iri_profile(&r.profile) {
        iri_string_with::<IriSpec>(r)
    } else if r.profile == "rfc3986" {
        iri_string_with::<UriSpec>(r)
    } else {
        Answer::Unsupported
    }
}

fn iri_string_with<S: iri_string::spec::Spec>(r: &Request) -> Answer {
    use iri_string::types::{RiAbsoluteStr, RiReferenceStr, RiRelativeStr, RiStr};
    let input = r.input.as_str();
    let uri = r.profile == "rfc3986";
    match r.op.as_str() {
        "valid" => match r.rule.as_deref() {
            Some("IRI-reference" | "URI-reference") => Answer::Valid(RiReferenceStr::<S>::new(input).is_ok()),
            Some("IRI" | "URI") => Answer::Valid(RiStr::<S>::new(input).is_ok()),
            Some("absolute-IRI" | "absolute-URI") => Answer::Valid(RiAbsoluteStr::<S>::new(input).is_ok()),
            Some("irelative-ref" | "relative-ref") => Answer::Valid(RiRelativeStr::<S>::new(input).is_ok()),
            _ => Answer::Unsupported,
        },
        "components" => match RiReferenceStr::<S>::new(input) {
            Ok(i) => {
                let a = i.authority_components();
                Answer::Components(vec![
                    ("scheme", i.scheme_str().map(str::to_owned)),
                    ("authority", i.authority_str().map(str::to_owned)),
                    ("userinfo", a.as_ref().and_then(|a| a.userinfo()).map(str::to_owned)),
                    ("host", a.as_ref().map(|a| a.host().to_owned())),
                    ("port", a.as_ref().and_then(|a| a.port()).map(str::to_owned)),
                    ("path", Some(i.path_str().to_owned())),
                    ("query", i.query_str().map(str::to_owned)),
                    ("fragment", i.fragment_str().map(str::to_owned)),
                ])
            }
            Err(e) => Answer::Error(e.to_string()),
        },
        "resolve" => {
            // The base's fragment is ignored (RFC 3986 §5.1): iri-string
            // takes an absolute IRI, so it is cut off here.
            let base = r.base.as_deref().unwrap_or("");
            let base = base.split_once('#').map_or(base, |(b, _)| b);
            let base = match RiAbsoluteStr::<S>::new(base) {
                Ok(b) => b,
                Err(e) => return Answer::Error(format!("base: {e}")),
            };
            // A result that RFC 3986 cannot write (a path starting with
            // "//" and no authority) is written with "/." before the path,
            // as iri-string's `Display` does.
            match RiReferenceStr::<S>::new(input) {
                Ok(i) => Answer::Result(i.resolve_against(base).to_string()),
                Err(e) => Answer::Error(e.to_string()),
            }
        }
        // Normalization is offered for IRIs (with a scheme) only.
        "normalize" => match RiStr::<S>::new(input) {
            Ok(i) => match i.ensure_rfc3986_normalizable() {
                Ok(()) => Answer::Result(i.normalize().to_string()),
                Err(e) => Answer::Error(e.to_string()),
            },
            Err(_) if RiReferenceStr::<S>::new(input).is_ok() => Answer::Unsupported,
            Err(e) => Answer::Error(e.to_string()),
        },
        "to-uri" if !uri => match iri_string::types::IriReferenceStr::new(input) {
            Ok(i) => Answer::Result(i.encode_to_uri().to_string()),
            Err(e) => Answer::Error(e.to_string()),
        },
        _ => Answer::Unsupported,
    }
}

/// fluent-uri 0.4: RFC 3986 URIs (`Uri`, `UriRef`) and RFC 3987 IRIs
/// (`Iri`, `IriRef`).
fn fluent_uri_adapter(r: &Request) -> Answer {
    use fluent_uri::{Iri, IriRef, Uri, UriRef};
    let input = r.input.as_str();
    let iri = iri_profile(&r.profile);
    if !iri && r.profile != "rfc3986" {
        return Answer::Unsupported;
    }
    macro_rules! parts {
        ($x:expr) => {{
            let x = $x;
            let a = x.authority();
            Answer::Components(vec![
                ("scheme", x.scheme().map(|s| s.as_str().to_owned())),
                ("authority", a.as_ref().map(|a| a.as_str().to_owned())),
                ("userinfo", a.as_ref().and_then(|a| a.userinfo()).map(|u| u.as_str().to_owned())),
                ("host", a.as_ref().map(|a| a.host().to_owned())),
                ("port", a.as_ref().and_then(|a| a.port()).map(|p| p.as_str().to_owned())),
                ("path", Some(x.path().as_str().to_owned())),
                ("query", x.query().map(|q| q.as_str().to_owned())),
                ("fragment", x.fragment().map(|f| f.as_str().to_owned())),
            ])
        }};
    }
    match r.op.as_str() {
        "valid" => {
            let ok = match (iri, r.rule.as_deref()) {
                (true, Some("IRI-reference")) => IriRef::parse(input).is_ok(),
                (true, Some("IRI")) => Iri::parse(input).is_ok(),
                (true, Some("absolute-IRI")) => Iri::parse(input).is_ok_and(|i| !i.has_fragment()),
                (true, Some("irelative-ref")) => IriRef::parse(input).is_ok_and(|i| !i.has_scheme()),
                (false, Some("URI-reference")) => UriRef::parse(input).is_ok(),
                (false, Some("URI")) => Uri::parse(input).is_ok(),
                (false, Some("absolute-URI")) => Uri::parse(input).is_ok_and(|i| !i.has_fragment()),
                (false, Some("relative-ref")) => UriRef::parse(input).is_ok_and(|i| !i.has_scheme()),
                _ => return Answer::Unsupported,
            };
            Answer::Valid(ok)
        }
        "components" if iri => match IriRef::parse(input) {
            Ok(x) => parts!(x),
            Err(e) => Answer::Error(e.to_string()),
        },
        "components" => match UriRef::parse(input) {
            Ok(x) => parts!(x),
            Err(e) => Answer::Error(e.to_string()),
        },
        "resolve" => {
            let base = r.base.as_deref().unwrap_or("");
            let out = if iri {
                match (Iri::parse(base), IriRef::parse(input)) {
                    (Ok(b), Ok(x)) => x.resolve_against(&b).map(|x| x.as_str().to_owned()).map_err(|e| e.to_string()),
                    (Err(e), _) => Err(format!("base: {e}")),
                    (_, Err(e)) => Err(e.to_string()),
                }
            } else {
                match (Uri::parse(base), UriRef::parse(input)) {
                    (Ok(b), Ok(x)) => x.resolve_against(&b).map(|x| x.as_str().to_owned()).map_err(|e| e.to_string()),
                    (Err(e), _) => Err(format!("base: {e}")),
                    (_, Err(e)) => Err(e.to_string()),
                }
            };
            match out {
                Ok(s) => Answer::Result(s),
                Err(e) => Answer::Error(e),
            }
        }
        "normalize" if iri => match IriRef::parse(input) {
            Ok(x) => Answer::Result(x.normalize().as_str().to_owned()),
            Err(e) => Answer::Error(e.to_string()),
        },
        "normalize" => match UriRef::parse(input) {
            Ok(x) => Answer::Result(x.normalize().as_str().to_owned()),
            Err(e) => Answer::Error(e.to_string()),
        },
        "to-uri" if iri => match IriRef::parse(input) {
            Ok(x) => Answer::Result(x.to_uri_ref().as_str().to_owned()),
            Err(e) => Answer::Error(e.to_string()),
        },
        _ => Answer::Unsupported,
    }
}

/// url: the WHATWG URL Standard, not RFC 3986/3987. It parses absolute
/// URLs only (a relative reference needs a base), and serializes what it
/// parses in its own normal form. Run against `rfc3986` (and the IRI
/// profiles, since it takes non-ASCII input) for the rules it can answer:
/// `URI`/`IRI` and `absolute-URI`/`absolute-IRI`.
fn url_adapter(r: &Request) -> Answer {
    use url::Url;
    let input = r.input.as_str();
    if r.profile == "leiri" {
        return Answer::Unsupported;
    }
    match r.op.as_str() {
        "valid" => match r.rule.as_deref() {
            Some("URI" | "IRI") => Answer::Valid(Url::parse(input).is_ok()),
            Some("absolute-URI" | "absolute-IRI") => {
                Answer::Valid(Url::parse(input).is_ok_and(|u| u.fragment().is_none()))
            }
            _ => Answer::Unsupported,
        },
        "components" => match Url::parse(input) {
            Ok(u) => {
                let userinfo = match (u.username(), u.password()) {
                    ("", None) => None,
                    (n, None) => Some(n.to_owned()),
                    (n, Some(p)) => Some(format!("{n}:{p}")),
                };
                let has_authority = u.has_authority();
                Answer::Components(vec![
                    ("scheme", Some(u.scheme().to_owned())),
                    ("authority", has_authority.then(|| u.authority().to_owned())),
                    ("userinfo", userinfo),
                    ("host", u.host_str().map(str::to_owned)),
                    ("port", u.port().map(|p| p.to_string())),
                    ("path", Some(u.path().to_owned())),
                    ("query", u.query().map(str::to_owned)),
                    ("fragment", u.fragment().map(str::to_owned)),
                ])
            }
            // A relative reference: url needs a base to parse it.
            Err(url::ParseError::RelativeUrlWithoutBase) => Answer::Unsupported,
            Err(e) => Answer::Error(e.to_string()),
        },
        "resolve" => match Url::parse(r.base.as_deref().unwrap_or("")) {
            Ok(b) => match b.join(input) {
                Ok(u) => Answer::Result(u.to_string()),
                Err(e) => Answer::Error(e.to_string()),
            },
            Err(e) => Answer::Error(format!("base: {e}")),
        },
        // Its serialization is its normalization and its mapping to ASCII.
        "normalize" | "to-uri" => match Url::parse(input) {
            Ok(u) => Answer::Result(u.to_string()),
            Err(url::ParseError::RelativeUrlWithoutBase) => Answer::Unsupported,
            Err(e) => Answer::Error(e.to_string()),
        },
        _ => Answer::Unsupported,
    }
}
