//! The grammar playground's API: its four requests (the built-in grammar,
//! a parse, a check against the ABNF, a diff against the built-in grammar)
//! as functions from a JSON request to a JSON answer, the same for every
//! front end. The static page answers them in the browser, from the
//! WebAssembly build of this module (`wasm/src/playground.rs`), in a worker
//! that it can stop. Each front end brings its own way of getting grammars
//! ([`Grammars`]): the page's caches the last few it loaded.
//! docs/grammar-lab.md describes the JSON.
//!
//! ```
//! use std::sync::Arc;
//! use iribis_lab::playground::{self, ApiError, Grammars};
//! use iribis_lab::PestGrammar;
//! use iribis::Profile;
//!
//! struct Plain;
//! impl Grammars for Plain {
//!     fn builtin(&self, profile: Profile) -> Arc<PestGrammar> {
//!         Arc::new(PestGrammar::builtin(profile))
//!     }
//!     fn load(&self, text: &str) -> Result<Arc<PestGrammar>, ApiError> {
//!         playground::load(text).map(Arc::new)
//!     }
//! }
//!
//! let request = serde_json::json!({"rule": "port", "input": "8080"});
//! let answer = playground::parse(request.as_object().unwrap(), &Plain).unwrap();
//! assert_eq!(answer["valid"], true);
//! assert_eq!(answer["components"]["port"], "8080");
//! ```

use std::sync::Arc;

use serde_json::{Map, Value, json};

use crate::abnf::Grammar;
use crate::{CheckReport, DiffReport, PestGrammar, RuntimeFailure, RuntimeTree};
use crate::{Scan, Side, Status};
use iribis::Profile;
use iribis::render::{error_report, escape_invisible};

/// The longest input parsed, in bytes.
pub const MAX_INPUT: usize = 16 * 1024;

/// How many test strings a check row shows where pest and the ABNF
/// disagree.
const COUNTEREXAMPLES: usize = 5;

/// How many inputs the diff shows per kind of difference.
const DIFF_EXAMPLES: usize = 5;

/// What the edited grammar is called in its error messages and
/// explanations (the page finds its line numbers after it).
pub const ORIGIN: &str = "playground.pest";

/// What went wrong with a request, for programs: the answer's
/// `error.kind`, as [`ErrorKind::name`] spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// `bad-request`: the request is not a JSON object, a field has the
    /// wrong type, or the profile is unknown.
    BadRequest,
    /// `unknown-request`: no request of the API has this name.
    UnknownRequest,
    /// `too-large`: the input or the request is over its size limit
    /// ([`MAX_INPUT`] for an input).
    TooLarge,
    /// `grammar`: the edited grammar does not load (pest's report, with
    /// `playground.pest:LINE:COLUMN`).
    Grammar,
    /// `rule`: the grammar has no such start rule (the error lists its
    /// rules).
    Rule,
    /// `abnf`: the extra ABNF does not parse.
    Abnf,
    /// `check`: the grammar cannot be checked against the ABNF (an ABNF
    /// rule uses one that nothing defines).
    Check,
    /// `limit`: pest or the lab gave up at one of its limits.
    Limit,
}

impl ErrorKind {
    /// The kind as the JSON answer spells it.
    ///
    /// ```
    /// use iribis_lab::playground::ErrorKind;
    ///
    /// assert_eq!(ErrorKind::BadRequest.name(), "bad-request");
    /// assert_eq!(ErrorKind::Limit.name(), "limit");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::BadRequest => "bad-request",
            ErrorKind::UnknownRequest => "unknown-request",
            ErrorKind::TooLarge => "too-large",
            ErrorKind::Grammar => "grammar",
            ErrorKind::Rule => "rule",
            ErrorKind::Abnf => "abnf",
            ErrorKind::Check => "check",
            ErrorKind::Limit => "limit",
        }
    }
}

/// An error answer: what its JSON says, `{"error": {"kind", "message"}}`
/// (and `"rules"`, the grammar's rules, for an unknown start rule).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// What went wrong, for programs.
    pub kind: ErrorKind,
    /// What went wrong, for people.
    pub message: String,
    /// The rules of the grammar, when the start rule was not one of them.
    pub rules: Option<Vec<String>>,
}

impl ApiError {
    /// An error of `kind`.
    ///
    /// ```
    /// use iribis_lab::playground::{ApiError, ErrorKind};
    ///
    /// let e = ApiError::new(ErrorKind::TooLarge, "the input is too long");
    /// assert_eq!(
    ///     e.json().to_string(),
    ///     r#"{"error":{"kind":"too-large","message":"the input is too long"}}"#
    /// );
    /// ```
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> ApiError {
        ApiError {
            kind,
            message: message.into(),
            rules: None,
        }
    }

    /// The error as the API answers it: `{"error": {"kind", "message"}}`.
    pub fn json(&self) -> Value {
        let mut e = json!({"kind": self.kind.name(), "message": self.message});
        if let Some(rules) = &self.rules {
            e["rules"] = json!(rules);
        }
        json!({ "error": e })
    }
}

/// Where the requests get their grammars.
pub trait Grammars {
    /// The built-in grammar of `profile` (a front end loads each once).
    fn builtin(&self, profile: Profile) -> Arc<PestGrammar>;
    /// The request's grammar text, loaded (or taken from a cache): see
    /// [`load`] for the errors to give.
    fn load(&self, text: &str) -> Result<Arc<PestGrammar>, ApiError>;
}

/// Loads an edited grammar, named [`ORIGIN`] in its errors: a grammar that
/// does not load is a [`ErrorKind::Grammar`] error with pest's report.
///
/// ```
/// use iribis_lab::playground::{self, ErrorKind};
///
/// let e = playground::load("a = { b }").unwrap_err();
/// assert_eq!(e.kind, ErrorKind::Grammar);
/// assert!(e.message.contains("playground.pest:1:7"));
/// ```
pub fn load(text: &str) -> Result<PestGrammar, ApiError> {
    PestGrammar::parse(text, ORIGIN)
        .map_err(|e| ApiError::new(ErrorKind::Grammar, format!("the grammar has errors:\n{e}")))
}

/// A string field: `default` when absent or null, an error when of another
/// type.
fn field<'b>(
    body: &'b Map<String, Value>,
    key: &str,
    default: Option<&'b str>,
) -> Result<Option<&'b str>, ApiError> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(ApiError::new(
            ErrorKind::BadRequest,
            format!("{key:?} must be a string"),
        )),
    }
}

/// A profile by name (`rfc3987bis` when absent), or a
/// [`ErrorKind::BadRequest`] error.
///
/// ```
/// use iribis::Profile;
/// use iribis_lab::playground::{profile_of, ErrorKind};
///
/// assert_eq!(profile_of(Some("leiri")).unwrap(), Profile::Leiri);
/// assert_eq!(profile_of(Some("rfc9999")).unwrap_err().kind, ErrorKind::BadRequest);
/// ```
pub fn profile_of(name: Option<&str>) -> Result<Profile, ApiError> {
    match name {
        None => Ok(Profile::Rfc3987bis),
        Some(n) => n.parse().map_err(|_| {
            ApiError::new(
                ErrorKind::BadRequest,
                format!("unknown profile {n:?}: rfc3987bis, rfc3987, rfc3986 or leiri"),
            )
        }),
    }
}

/// `/api/grammar?profile=P`: the built-in grammar's text and rules,
/// `{"profile", "text", "rules"}`.
pub fn grammar(profile: Option<&str>, grammars: &impl Grammars) -> Result<Value, ApiError> {
    let profile = profile_of(profile)?;
    let g = grammars.builtin(profile);
    Ok(json!({
        "profile": profile.name(),
        "text": PestGrammar::builtin_source(profile),
        "rules": rule_list(&g),
    }))
}

fn rule_list(g: &PestGrammar) -> Vec<&str> {
    g.rule_names().map(crate::spelling).collect()
}

/// The grammar of a request: its `"grammar"` text, or the profile's
/// built-in one when absent; and its name in reports.
fn grammar_of(
    body: &Map<String, Value>,
    profile: Profile,
    grammars: &impl Grammars,
) -> Result<(Arc<PestGrammar>, String), ApiError> {
    match field(body, "grammar", None)? {
        None => Ok((grammars.builtin(profile), format!("built-in {profile}"))),
        Some(text) => Ok((grammars.load(text)?, ORIGIN.to_string())),
    }
}

/// The pest name of the start rule `rule` in `g` (ABNF or pest spelling,
/// case-insensitive; in a URI grammar, the IRI reference-level names stand
/// for their URI counterparts), or a message naming the grammar `name` and
/// the closest rules it has.
///
/// ```
/// use iribis::Profile;
/// use iribis_lab::{playground::start_rule, PestGrammar};
///
/// let g = PestGrammar::builtin(Profile::Rfc3986);
/// assert_eq!(start_rule(&g, "IRI-reference", "built-in").unwrap(), "URI_reference");
/// assert!(start_rule(&g, "ip-litral", "built-in").unwrap_err().ends_with("did you mean IP-literal?"));
/// ```
pub fn start_rule<'g>(g: &'g PestGrammar, rule: &str, name: &str) -> Result<&'g str, String> {
    let uri = iribis::GrammarRule::from_name(rule)
        .map_or(rule, |r| r.for_profile(Profile::Rfc3986).abnf_name());
    g.resolve(rule).or_else(|| g.resolve(uri)).ok_or_else(|| {
        let close: Vec<String> = g
            .suggest(rule)
            .into_iter()
            .map(|r| crate::spelling(r).to_string())
            .collect();
        let hint = if close.is_empty() {
            "name one of its rules with --rule (names are case-insensitive; - and _ are the same)"
                .to_string()
        } else {
            format!("did you mean {}?", close.join(", "))
        };
        format!("{name} has no rule {rule:?}: {hint}")
    })
}

/// The start rule of a request in `g`, or a [`ErrorKind::Rule`] error
/// listing the grammar's rules.
fn rule_of<'g>(g: &'g PestGrammar, rule: &str, name: &str) -> Result<&'g str, ApiError> {
    start_rule(g, rule, name).map_err(|message| ApiError {
        kind: ErrorKind::Rule,
        message,
        rules: Some(rule_list(g).into_iter().map(String::from).collect()),
    })
}

/// The components of a runtime grammar's tree, by the spec's rule names
/// (the first node of each in pre-order; the IRI and URI spellings alike),
/// and the host's type: what `iri parse` shows for the built-in grammar.
///
/// ```
/// use iribis::Profile;
/// use iribis_lab::{playground::components, PestGrammar};
///
/// let g = PestGrammar::builtin(Profile::Rfc3987bis);
/// let input = "http://[::1]:80/a";
/// let tree = g.tree("IRI", input).unwrap();
/// assert_eq!(
///     components(&tree, input),
///     [("scheme", "http"), ("authority", "[::1]:80"), ("host", "[::1]"),
///      ("host_type", "IPv6address"), ("port", "80"), ("path", "/a")]
/// );
/// ```
pub fn components<'t>(tree: &RuntimeTree, input: &'t str) -> Vec<(&'static str, &'t str)> {
    let of = |names: &[&str]| {
        tree.nodes
            .iter()
            .find(|n| names.contains(&n.rule.as_str()))
            .map(|n| &input[n.start..n.end])
    };
    let mut out = Vec::new();
    let paths = [
        "ipath_abempty",
        "ipath_absolute",
        "ipath_noscheme",
        "ipath_rootless",
        "ipath_empty",
        "path_abempty",
        "path_absolute",
        "path_noscheme",
        "path_rootless",
        "path_empty",
    ];
    let fields: [(&str, &[&str]); 8] = [
        ("scheme", &["scheme"]),
        ("authority", &["iauthority", "authority"]),
        ("userinfo", &["iuserinfo", "userinfo"]),
        ("host", &["ihost", "host"]),
        ("port", &["port"]),
        ("path", &paths),
        ("query", &["iquery", "query"]),
        ("fragment", &["ifragment", "fragment"]),
    ];
    for (key, names) in fields {
        if let Some(text) = of(names) {
            out.push((key, text));
            if key == "host" {
                let kind = [
                    ("IPv6address", "IPv6address"),
                    ("IPvFuture", "IPvFuture"),
                    ("IPv4address", "IPv4address"),
                    ("ireg_name", "reg-name"),
                    ("reg_name", "reg-name"),
                ]
                .into_iter()
                .find(|(r, _)| {
                    tree.nodes.iter().any(|n| {
                        n.rule == *r && &input[n.start..n.end] == text.trim_matches(['[', ']'])
                    })
                });
                if let Some((_, k)) = kind {
                    out.push(("host_type", k));
                }
            }
        }
    }
    out
}

/// A runtime grammar's failure explained as the built-in grammar explains
/// its own (see [`RuntimeFailure::explain`]): the error object of
/// `iri parse --json` and the human report of `iri parse --grammar`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Explained {
    /// Byte offset of the failure.
    pub byte: usize,
    /// Character offset of the failure.
    pub char: usize,
    /// The built-in explanation, or "no match for" the start rule.
    pub message: String,
    /// The component the failure is in (`input` when unknown).
    pub component: &'static str,
    /// The rules expected there, in ABNF spelling.
    pub expected: Vec<String>,
    /// The grammar's name, in the place of the spec section.
    pub spec: String,
    /// The report: the explanation with a window of the input and a caret,
    /// then pest's own words (terminal-safe; no final newline).
    pub report: String,
}

impl Explained {
    /// The error object of `iri parse --json`: `{"byte", "char", "message",
    /// "component", "expected", "spec"}`.
    pub fn json(&self) -> Value {
        json!({
            "byte": self.byte,
            "char": self.char,
            "message": self.message,
            "component": self.component,
            "expected": self.expected,
            "spec": self.spec,
        })
    }
}

/// Explains `f`, the failure of the start rule `rule` (pest name; shown as
/// `shown`) on `input`, by `profile`'s built-in explanations; `spec` names
/// the grammar.
///
/// ```
/// use iribis::Profile;
/// use iribis_lab::{playground::explain, PestGrammar};
///
/// let g = PestGrammar::builtin(Profile::Rfc3987bis);
/// let f = g.tree("IRI_reference", "http://h:8y/").unwrap_err();
/// let e = explain(&f, "http://h:8y/", "IRI_reference", Profile::Rfc3987bis, "IRI-reference", "my.pest");
/// assert_eq!((e.byte, e.char, e.component), (11, 11, "authority"));
/// assert!(e.report.starts_with("error: a port is digits only"));
/// assert!(e.report.ends_with("= no match: stopped at character 11 (byte 11), expected iunreserved, pct-encoded or sub-delims"));
/// ```
pub fn explain(
    f: &RuntimeFailure,
    input: &str,
    rule: &str,
    profile: Profile,
    shown: &str,
    spec: &str,
) -> Explained {
    let expected = f.expected_items();
    let (message, component) = match f.explain(input, rule, profile) {
        Some(e) => (e.message(), e.component().name()),
        None => (format!("no match for {shown}"), "input"),
    };
    let byte = f.byte.min(input.len());
    let char = input.get(..byte).map_or(0, |s| s.chars().count());
    let end = byte + input[byte..].chars().next().map_or(0, char::len_utf8);
    let report = format!(
        "{}\n  = {}",
        error_report(&message, byte, char, component, spec, input, (byte, end)),
        escape_invisible(&f.to_string())
    );
    Explained {
        byte,
        char,
        message,
        component,
        expected,
        spec: spec.to_string(),
        report,
    }
}

/// `/api/parse`: `{"grammar"?, "profile"?, "rule"? (default
/// IRI-reference), "input"}`, answered with the tree, components and
/// verdicts, or the failure explained.
pub fn parse(body: &Map<String, Value>, grammars: &impl Grammars) -> Result<Value, ApiError> {
    let profile = profile_of(field(body, "profile", None)?)?;
    let input = field(body, "input", Some(""))?.unwrap_or_default();
    if input.len() > MAX_INPUT {
        return Err(ApiError::new(
            ErrorKind::TooLarge,
            format!("the input is longer than {MAX_INPUT} bytes"),
        ));
    }
    let rule_name = field(body, "rule", Some("IRI-reference"))?.unwrap_or("IRI-reference");
    let (g, name) = grammar_of(body, profile, grammars)?;
    let rule = rule_of(&g, rule_name, &name)?;
    let shown = crate::spelling(rule);
    let mut v = json!({
        "grammar": name,
        "rules": rule_list(&g),
        "rule": shown,
        "input": input,
    });
    match g.tree(rule, input) {
        Ok(tree) => {
            let nodes: Vec<Value> = tree
                .nodes
                .iter()
                .map(|n| {
                    json!({
                        "rule": crate::spelling(&n.rule),
                        "start": n.start,
                        "end": n.end,
                        "depth": n.depth,
                        "text": input.get(n.start..n.end).unwrap_or(""),
                    })
                })
                .collect();
            let mut parts = Map::new();
            for (k, text) in components(&tree, input) {
                parts.insert(k.into(), text.into());
            }
            v["valid"] = true.into();
            v["nodes"] = nodes.into();
            v["components"] = parts.into();
        }
        Err(f) if f.limit.is_some() => {
            return Err(ApiError::new(ErrorKind::Limit, format!("{name}: {f}")));
        }
        Err(f) => {
            let e = explain(&f, input, rule, profile, shown, &name);
            v["valid"] = false.into();
            v["error"] = e.json();
            v["report"] = e.report.into();
        }
    }
    // The built-in grammar's verdict on the same input, for comparison.
    let base = grammars.builtin(profile);
    if let Some(r) = base.resolve(rule) {
        v["builtin_valid"] = base.accepts(r, input).into();
    }
    Ok(v)
}

/// The ABNF to check against: the profile's, then the request's
/// `"extra_abnf"` text (rules added or replaced).
fn abnf_of(profile: Profile, extra: Option<&str>) -> Result<(Grammar, Option<Grammar>), ApiError> {
    let bad = |e: String| ApiError::new(ErrorKind::Abnf, e);
    let (mut abnf, mut printed) = crate::check_abnf(profile).map_err(|e| bad(e.to_string()))?;
    if let Some(text) = extra.filter(|t| !t.trim().is_empty()) {
        abnf.add(text, "extra.abnf")
            .map_err(|e| bad(e.to_string()))?;
        printed
            .add(text, "extra.abnf")
            .map_err(|e| bad(e.to_string()))?;
    }
    Ok((abnf, Some(printed)))
}

/// `/api/check`: `{"grammar"?, "profile"?, "extra_abnf"?}`, what
/// `iri grammar check --grammar FILE --extra-abnf FILE` reports. Slow
/// (seconds): a front end runs one at a time.
pub fn check(body: &Map<String, Value>, grammars: &impl Grammars) -> Result<Value, ApiError> {
    let profile = profile_of(field(body, "profile", None)?)?;
    let (abnf, printed) = abnf_of(profile, field(body, "extra_abnf", None)?)?;
    let (g, name) = grammar_of(body, profile, grammars)?;
    let report = crate::check(&abnf, &g, printed.as_ref(), Scan::Classes)
        .map_err(|e| ApiError::new(ErrorKind::Check, format!("cannot check {name}: {e}")))?;
    Ok(check_json(&report))
}

fn check_json(report: &CheckReport) -> Value {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for r in &report.rows {
        match counts.iter_mut().find(|(s, _)| *s == r.status.name()) {
            Some((_, n)) => *n += 1,
            None => counts.push((r.status.name(), 1)),
        }
    }
    let rows: Vec<Value> = report
        .rows
        .iter()
        .map(|r| {
            let mut differing: Vec<&crate::TestString> =
                r.strings.iter().filter(|t| t.pest != t.abnf).collect();
            differing.sort_by_key(|t| (t.text.chars().count(), t.text.clone()));
            json!({
                "rule": r.rule,
                "status": r.status.name(),
                "failure": r.status.is_failure(),
                "detail": r.detail,
                "follows": r.follows,
                "strings": r.strings.len(),
                "differing": differing.len(),
                "counterexamples": differing.iter().take(COUNTEREXAMPLES).map(|t| json!({
                    "text": t.text, "pest": t.pest, "abnf": t.abnf,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "passed": report.passed(),
        "counts": counts.into_iter().map(|(s, n)| json!({"status": s, "count": n})).collect::<Vec<_>>(),
        "root_causes": report.root_causes().map(|r| r.rule.as_str()).collect::<Vec<_>>(),
        "scan": report.scan,
        "rows": rows,
        "differs": report.rows.iter().filter(|r| r.status == Status::Differs).count(),
    })
}

/// `/api/diff`: `{"grammar"?, "profile"?, "rule"?, "trees"?}`, what
/// `iri grammar diff FILE --json` reports over the built-in corpus (with
/// `"trees": true`, `--trees`), against the profile's built-in grammar.
/// Slow, as [`check`].
pub fn diff(body: &Map<String, Value>, grammars: &impl Grammars) -> Result<Value, ApiError> {
    let profile = profile_of(field(body, "profile", None)?)?;
    let rule_name = field(body, "rule", Some("IRI-reference"))?.unwrap_or("IRI-reference");
    let trees = match body.get("trees") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            return Err(ApiError::new(
                ErrorKind::BadRequest,
                "\"trees\" must be true or false",
            ));
        }
    };
    let (new, new_name) = grammar_of(body, profile, grammars)?;
    let base = grammars.builtin(profile);
    let base_name = format!("built-in {profile}");
    let base_side = Side {
        grammar: &base,
        rule: rule_of(&base, rule_name, &base_name)?,
        name: &base_name,
    };
    let new_side = Side {
        grammar: &new,
        rule: rule_of(&new, rule_name, &new_name)?,
        name: &new_name,
    };
    let corpus = crate::default_corpus().map(String::from);
    let report = crate::diff(base_side, new_side, corpus, trees)
        .map_err(|e| ApiError::new(ErrorKind::Limit, e.to_string()))?;
    Ok(diff_json(&report, base_side, new_side, DIFF_EXAMPLES))
}

/// The object of `iri grammar diff --json`: both sides, the counts, each
/// kind of difference with up to `examples` inputs, and every difference.
pub fn diff_json(report: &DiffReport, base: Side<'_>, new: Side<'_>, examples: usize) -> Value {
    let kinds: Vec<Value> = report
        .kinds()
        .into_iter()
        .map(|(kind, count)| {
            let mut k = json!({
                "kind": kind.name(),
                "description": kind.to_string(),
                "count": count,
                "examples": report
                    .differences
                    .iter()
                    .filter(|d| d.kind == kind)
                    .take(examples)
                    .map(|d| d.input.clone())
                    .collect::<Vec<_>>(),
            });
            if let crate::DiffKind::TreeChanged { base, new } = &kind {
                k["base_rule"] = json!(base);
                k["new_rule"] = json!(new);
            }
            k
        })
        .collect();
    json!({
        "base": {"grammar": base.name, "rule": crate::spelling(base.rule)},
        "new": {"grammar": new.name, "rule": crate::spelling(new.rule)},
        "inputs": report.inputs,
        "accepted": {"base": report.base_accepted, "new": report.new_accepted},
        "differing": report.differences.len(),
        "kinds": kinds,
        "differences": report.differences.iter().map(|d| json!({
            "input": d.input,
            "kind": d.kind.name(),
            "detail": d.detail,
        })).collect::<Vec<_>>(),
    })
}
