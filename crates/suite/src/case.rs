//! The cases of the suite, the answers of an implementation, and how one is
//! judged against the other: the data of the suite's files and of the
//! adapter protocol, as JSON.

use std::fmt;

use serde_json::{Map, Value, json};

use iribis::Profile;

/// The operation a case tests: the `op` of a case line.
///
/// ```
/// use iribis_suite::Op;
///
/// assert_eq!("to-uri".parse::<Op>(), Ok(Op::ToUri));
/// assert_eq!(Op::ToUri.name(), "to-uri");
/// assert_eq!(Op::ALL.len(), 8);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// Whether the input matches `rule` under `profile` (`{"valid": bool}`).
    Valid,
    /// The components of an `IRI-reference` (RFC 3986 §3, 3987bis §2.2).
    Components,
    /// Reference resolution of `input` against `base` (RFC 3986 §5.2).
    Resolve,
    /// Syntax-based normalization (RFC 3986 §6.2.2, RFC 3987 §5.3.2).
    Normalize,
    /// IRI → URI mapping (3987bis §3, RFC 3987 §3.1).
    ToUri,
    /// URI → IRI conversion (3987bis §4.2, RFC 3987 §3.2).
    ToIri,
    /// The comparison ladder of RFC 3987 §5.3: whether `input` and `other`
    /// are equivalent by simple string comparison (§5.3.1), after
    /// syntax-based normalization (§5.3.2) and after scheme-based
    /// normalization (§5.3.3).
    Compare,
    /// The normative requirements beyond the grammar (RFC 3987 §3.1 NFC,
    /// §4.1-4.2 bidi; 3987bis §5.1 (b)-(d)) that `input` breaks.
    Check,
}

impl Op {
    /// Every operation, in the order of the suite's files.
    pub const ALL: [Op; 8] = [
        Op::Valid,
        Op::Components,
        Op::Resolve,
        Op::Normalize,
        Op::ToUri,
        Op::ToIri,
        Op::Compare,
        Op::Check,
    ];

    /// The name on a case line and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Op::Valid => "valid",
            Op::Components => "components",
            Op::Resolve => "resolve",
            Op::Normalize => "normalize",
            Op::ToUri => "to-uri",
            Op::ToIri => "to-iri",
            Op::Compare => "compare",
            Op::Check => "check",
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Op {
    type Err = iribis::UnknownName;

    fn from_str(s: &str) -> Result<Op, Self::Err> {
        Op::ALL.into_iter().find(|o| o.name() == s).ok_or_else(|| {
            iribis::UnknownName::new(
                "operation",
                s,
                &[
                    "valid",
                    "components",
                    "resolve",
                    "normalize",
                    "to-uri",
                    "to-iri",
                    "compare",
                    "check",
                ],
            )
        })
    }
}

/// A position in an input: its byte offset and its character (Unicode
/// scalar value) offset, both from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// The byte offset in the UTF-8 input.
    pub byte: usize,
    /// The character offset.
    pub char: usize,
}

/// The eight components of a reference, as the `components` operation
/// reports them: `None` for an absent component, `Some("")` for an empty
/// one (`http://h?` has an empty query, `http://h` none).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parts {
    /// `scheme`, without its ":".
    pub scheme: Option<String>,
    /// `iauthority`, without its "//".
    pub authority: Option<String>,
    /// `iuserinfo`, without its "@".
    pub userinfo: Option<String>,
    /// `ihost` as written (an IP literal with its brackets).
    pub host: Option<String>,
    /// `port`, without its ":".
    pub port: Option<String>,
    /// The path (always present in a reference, possibly empty).
    pub path: Option<String>,
    /// `iquery`, without its "?".
    pub query: Option<String>,
    /// `ifragment`, without its "#".
    pub fragment: Option<String>,
}

impl Parts {
    /// The names of the components, in the order of a reference.
    pub const KEYS: [&'static str; 8] = [
        "scheme",
        "authority",
        "userinfo",
        "host",
        "port",
        "path",
        "query",
        "fragment",
    ];

    /// The component named `key` (one of [`Parts::KEYS`]).
    pub fn get(&self, key: &str) -> Option<&Option<String>> {
        Some(match key {
            "scheme" => &self.scheme,
            "authority" => &self.authority,
            "userinfo" => &self.userinfo,
            "host" => &self.host,
            "port" => &self.port,
            "path" => &self.path,
            "query" => &self.query,
            "fragment" => &self.fragment,
            _ => return None,
        })
    }

    fn get_mut(&mut self, key: &str) -> Option<&mut Option<String>> {
        Some(match key {
            "scheme" => &mut self.scheme,
            "authority" => &mut self.authority,
            "userinfo" => &mut self.userinfo,
            "host" => &mut self.host,
            "port" => &mut self.port,
            "path" => &mut self.path,
            "query" => &mut self.query,
            "fragment" => &mut self.fragment,
            _ => return None,
        })
    }

    /// The components of a parsed reference.
    pub fn of<T: iribis::Storage>(r: &iribis::IriRef<T>) -> Parts {
        let r = r.as_borrowed();
        Parts {
            scheme: r.scheme().map(str::to_owned),
            authority: r.authority().map(str::to_owned),
            userinfo: r.userinfo().map(str::to_owned),
            host: r.host_str().map(str::to_owned),
            port: r.port().map(str::to_owned),
            path: Some(r.path().to_owned()),
            query: r.query().map(str::to_owned),
            fragment: r.fragment().map(str::to_owned),
        }
    }

    fn to_json(&self) -> Value {
        let mut m = Map::new();
        for k in Parts::KEYS {
            let v = self.get(k).and_then(Option::as_deref);
            m.insert(k.to_owned(), v.map_or(Value::Null, Value::from));
        }
        Value::Object(m)
    }
}

/// What a case expects: the answer a conforming implementation gives,
/// without its `id`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// `{"valid": true}`, or `{"valid": false, "at": {"byte", "char"}}`
    /// with the first character that cannot belong to any valid input
    /// (the end of the input when it stops too early).
    Valid {
        /// Whether the input matches the rule.
        valid: bool,
        /// Where it stops being a prefix of a valid input (for `false`).
        at: Option<Position>,
    },
    /// `{"components": {...}}`.
    Components(Parts),
    /// `{"result": "...", "also": [...]}`: the answer, and other answers
    /// the spec allows as well (a registered name in punycode instead of
    /// percent-encoded, the non-strict resolution of `http:g`, ...).
    Result {
        /// The answer.
        result: String,
        /// Other answers that conform too.
        also: Vec<String>,
    },
    /// `{"error": true}`: the operation must fail (the input or base is
    /// not what it must be).
    Error,
    /// `{"equivalent": {"simple", "syntax", "scheme"}}`: the rungs of the
    /// comparison ladder (RFC 3987 §5.3) at which two IRIs are equivalent.
    Equivalent(Ladder),
    /// `{"requirements": [...]}`: the requirements beyond the grammar an
    /// input breaks, by the ids of [`REQUIREMENTS`], sorted.
    Requirements(Vec<String>),
}

/// The rungs of the comparison ladder (RFC 3987 §5.3) at which two IRIs
/// are equivalent: `None` where an answer does not say.
///
/// ```
/// use iribis_suite::{judge, Answer, Case, Ladder, Verdict};
///
/// let case = Case::from_line(r#"{"id":"c","op":"compare","profile":"rfc3987","input":"http://a/%7e","other":"http://a/~","expect":{"equivalent":{"simple":false,"syntax":true,"scheme":true}},"source":"RFC 3987 §5.3.2.3"}"#).unwrap();
/// assert!(case.request().ends_with(r#""other":"http://a/~"}"#));
/// // An implementation that only compares strings says so much.
/// let simple = Answer::Equivalent(Ladder { simple: Some(false), ..Ladder::default() });
/// assert_eq!(judge(&case, &simple, false), Verdict::Pass);
/// let wrong = Answer::Equivalent(Ladder { syntax: Some(false), ..Ladder::default() });
/// assert!(matches!(judge(&case, &wrong, false), Verdict::Fail(_)));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ladder {
    /// Simple string comparison (RFC 3987 §5.3.1).
    pub simple: Option<bool>,
    /// After syntax-based normalization (RFC 3987 §5.3.2).
    pub syntax: Option<bool>,
    /// After scheme-based normalization (RFC 3987 §5.3.3).
    pub scheme: Option<bool>,
}

impl Ladder {
    /// The names of the rungs, from the cheapest.
    pub const KEYS: [&'static str; 3] = ["simple", "syntax", "scheme"];

    /// The rung named `key`.
    pub fn get(&self, key: &str) -> Option<bool> {
        match key {
            "simple" => self.simple,
            "syntax" => self.syntax,
            "scheme" => self.scheme,
            _ => None,
        }
    }

    fn set(&mut self, key: &str, v: bool) {
        match key {
            "simple" => self.simple = Some(v),
            "syntax" => self.syntax = Some(v),
            _ => self.scheme = Some(v),
        }
    }

    fn to_json(self) -> Value {
        let mut m = Map::new();
        for k in Ladder::KEYS {
            if let Some(v) = self.get(k) {
                m.insert(k.into(), Value::Bool(v));
            }
        }
        Value::Object(m)
    }

    fn from_json(v: &Value, all: bool) -> Result<Ladder, String> {
        let m = v.as_object().ok_or("`equivalent` is not an object")?;
        let mut l = Ladder::default();
        for k in Ladder::KEYS {
            match m.get(k) {
                Some(Value::Bool(b)) => l.set(k, *b),
                Some(_) => return Err(format!("`equivalent.{k}` is not a boolean")),
                None if all => return Err(format!("`equivalent` lacks `{k}`")),
                None => {}
            }
        }
        if Ladder::KEYS.iter().all(|k| l.get(k).is_none()) {
            return Err("`equivalent` has none of simple, syntax, scheme".into());
        }
        Ok(l)
    }
}

/// The requirements beyond the grammar that the `check` operation asks
/// about: (id, where the specs state it, what it says).
///
/// ```
/// use iribis_suite::{judge, Answer, Case, Verdict, REQUIREMENTS};
///
/// assert!(REQUIREMENTS.iter().any(|(id, _, _)| *id == "bidi-formatting"));
/// let case = Case::from_line(r#"{"id":"k","op":"check","profile":"rfc3987","input":"http://h/a\u200da\u0301","expect":{"requirements":["joiner","not-nfc"]},"source":"3987bis §5.1 (d)"}"#).unwrap();
/// // A checker of NFC alone is judged on NFC alone.
/// let nfc = Answer::Requirements { broken: vec!["not-nfc".into()], checks: Some(vec!["not-nfc".into()]) };
/// assert_eq!(judge(&case, &nfc, false), Verdict::Pass);
/// let missed = Answer::Requirements { broken: vec!["not-nfc".into()], checks: None };
/// assert!(matches!(judge(&case, &missed, false), Verdict::Fail(_)));
/// ```
pub const REQUIREMENTS: &[(&str, &str, &str)] = &[
    (
        "bidi-formatting",
        "RFC 3987 §4.1",
        "IRIs MUST NOT contain bidirectional formatting characters (LRM, RLM, ALM, LRE, RLE, PDF, LRO, RLO, the isolates); LEIRIs lift this (3987bis §6.1)",
    ),
    (
        "bidi-mixed-direction",
        "RFC 3987 §4.2 rule 1",
        "a component SHOULD NOT mix left-to-right and right-to-left characters (host labels: RFC 5893)",
    ),
    (
        "bidi-rtl-boundary",
        "RFC 3987 §4.2 rule 2",
        "a component with right-to-left characters SHOULD start and end with one (host labels: RFC 5893)",
    ),
    (
        "not-nfc",
        "RFC 3987 §3.1 step 1b (3987bis §3.1)",
        "an IRI created from text SHOULD be in Unicode Normalization Form C, component by component",
    ),
    (
        "lookalike",
        "3987bis §5.1 (b)",
        "avoid characters with a strong visual look-alike: full-width and half-width forms, look-alikes of delimiters",
    ),
    (
        "combining-mark-at-start",
        "3987bis §5.1 (c)",
        "avoid a combining mark at the start of a component, where it shows on the delimiter before it",
    ),
    (
        "joiner",
        "3987bis §5.1 (d)",
        "avoid ZERO WIDTH JOINER and ZERO WIDTH NON-JOINER but where a script needs them",
    ),
];

impl Expect {
    /// The JSON object of the `expect` key.
    pub fn to_json(&self) -> Value {
        match self {
            Expect::Valid { valid, at } => {
                let mut m = Map::new();
                m.insert("valid".into(), Value::Bool(*valid));
                if let Some(p) = at {
                    m.insert("at".into(), json!({"byte": p.byte, "char": p.char}));
                }
                Value::Object(m)
            }
            Expect::Components(p) => json!({ "components": p.to_json() }),
            Expect::Result { result, also } => {
                let mut m = Map::new();
                m.insert("result".into(), Value::from(result.as_str()));
                if !also.is_empty() {
                    m.insert("also".into(), Value::from(also.clone()));
                }
                Value::Object(m)
            }
            Expect::Error => json!({ "error": true }),
            Expect::Equivalent(l) => json!({ "equivalent": l.to_json() }),
            Expect::Requirements(r) => json!({ "requirements": r }),
        }
    }

    fn from_json(v: &Value) -> Result<Expect, String> {
        let m = v.as_object().ok_or("`expect` is not an object")?;
        if let Some(valid) = m.get("valid") {
            let valid = valid.as_bool().ok_or("`expect.valid` is not a boolean")?;
            let at = m.get("at").map(position).transpose()?;
            return Ok(Expect::Valid { valid, at });
        }
        if let Some(c) = m.get("components") {
            return Ok(Expect::Components(parts(c, true)?));
        }
        if let Some(r) = m.get("result") {
            let result = r.as_str().ok_or("`expect.result` is not a string")?;
            let also = match m.get("also") {
                None => Vec::new(),
                Some(a) => a
                    .as_array()
                    .ok_or("`expect.also` is not a list")?
                    .iter()
                    .map(|s| s.as_str().map(str::to_owned))
                    .collect::<Option<_>>()
                    .ok_or("`expect.also` holds a value that is not a string")?,
            };
            return Ok(Expect::Result {
                result: result.to_owned(),
                also,
            });
        }
        if m.contains_key("error") {
            return Ok(Expect::Error);
        }
        if let Some(l) = m.get("equivalent") {
            return Ok(Expect::Equivalent(Ladder::from_json(l, true)?));
        }
        if let Some(r) = m.get("requirements") {
            return Ok(Expect::Requirements(strings(r, "requirements")?));
        }
        Err(
            "`expect` has none of valid, components, result, error, equivalent, requirements"
                .into(),
        )
    }
}

/// A list of strings (`what` names it in an error).
fn strings(v: &Value, what: &str) -> Result<Vec<String>, String> {
    v.as_array()
        .ok_or_else(|| format!("`{what}` is not a list"))?
        .iter()
        .map(|s| s.as_str().map(str::to_owned))
        .collect::<Option<_>>()
        .ok_or_else(|| format!("`{what}` holds a value that is not a string"))
}

fn position(v: &Value) -> Result<Position, String> {
    let n = |k: &str| {
        v.get(k)
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok())
    };
    match (n("byte"), n("char")) {
        (Some(byte), Some(char)) => Ok(Position { byte, char }),
        (Some(byte), None) => Ok(Position {
            byte,
            char: usize::MAX,
        }),
        (None, Some(char)) => Ok(Position {
            byte: usize::MAX,
            char,
        }),
        (None, None) => Err("a position needs `byte` or `char`".into()),
    }
}

/// The components of an object; with `all`, every key must be there.
fn parts(v: &Value, all: bool) -> Result<Parts, String> {
    let m = v.as_object().ok_or("`components` is not an object")?;
    let mut p = Parts::default();
    for k in Parts::KEYS {
        match m.get(k) {
            Some(Value::Null) => {}
            Some(Value::String(s)) => *p.get_mut(k).expect("a key of KEYS") = Some(s.clone()),
            Some(_) => return Err(format!("`components.{k}` is neither a string nor null")),
            None if all => return Err(format!("`components` lacks `{k}`")),
            None => {}
        }
    }
    Ok(p)
}

/// One case of the suite: one line of its JSON Lines files.
///
/// `{"id", "op", "profile", "rule"?, "input", "base"?, "expect", "source"}`,
/// and the optional `note` (where a source or a common reading disagrees
/// with the spec, and why the expectation is what it is), `exercises` (the
/// ABNF rule the case is about, when `rule` is a whole reference) and
/// `generator` (how a generated case was made).
///
/// ```
/// use iribis_suite::{Case, Expect, Op};
/// use iribis::Profile;
///
/// let line = r#"{"id":"x","op":"valid","profile":"rfc3986","rule":"URI","input":"a:b","expect":{"valid":true},"source":"RFC 3986 §3"}"#;
/// let case = Case::from_line(line).unwrap();
/// assert_eq!((case.op, case.profile), (Op::Valid, Profile::Rfc3986));
/// assert_eq!(case.expect, Expect::Valid { valid: true, at: None });
/// assert_eq!(case.to_line(), line);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// A stable identifier, unique in the suite.
    pub id: String,
    /// The operation.
    pub op: Op,
    /// The grammar the inputs follow.
    pub profile: Profile,
    /// For `valid`, the ABNF rule (as the profile's ABNF names it:
    /// `URI-reference` under `rfc3986`); for the other operations, the
    /// reference rule the input matches, when given.
    pub rule: Option<String>,
    /// The input.
    pub input: String,
    /// For `resolve`, the base.
    pub base: Option<String>,
    /// For `compare`, the IRI compared with `input`.
    pub other: Option<String>,
    /// The expected answer.
    pub expect: Expect,
    /// Where the case comes from: a spec section, an ABNF rule, or another
    /// project's test suite (with its licence).
    pub source: String,
    /// The rule the case exercises inside a whole reference (for the
    /// runner's grouping of failures), when it is not `rule` itself.
    pub exercises: Option<String>,
    /// How a generated case was made: `transition`, `near-miss`,
    /// `range-endpoint`, `in-context`, `template`, `fuzz`.
    pub generator: Option<String>,
    /// A remark for the reader: a reading the spec rejects, a source that
    /// expected otherwise.
    pub note: Option<String>,
    /// Keys this version does not know, kept as they were.
    pub extra: Map<String, Value>,
}

impl Case {
    /// The request an adapter reads for this case, as [`Request::from_line`]
    /// reads [`Case::request`]'s line. Without its `id`, it is what the
    /// case asks: the suite has one case per request.
    ///
    /// ```
    /// use iribis_suite::{Case, Expect, Op, Request};
    /// use iribis::Profile;
    ///
    /// let expect = Expect::Valid { valid: true, at: None };
    /// let a = Case::new("a", Op::Valid, Profile::Rfc3986, "a:b", expect.clone(), "RFC 3986 §3");
    /// let b = Case::new("b", Op::Valid, Profile::Rfc3986, "a:b", expect, "a peer's suite");
    /// assert_eq!(Request::from_line(&a.request()).unwrap(), a.to_request());
    /// let asks = |c: &Case| Request { id: String::new(), ..c.to_request() };
    /// assert_eq!(asks(&a), asks(&b));
    /// ```
    pub fn to_request(&self) -> Request {
        Request {
            id: self.id.clone(),
            op: self.op,
            profile: self.profile,
            rule: self.rule.clone(),
            input: self.input.clone(),
            base: self.base.clone(),
            other: self.other.clone(),
            charset: self
                .extra
                .get("charset")
                .and_then(Value::as_str)
                .map(str::to_owned),
        }
    }

    /// A case with no rule, base, note or other optional key.
    ///
    /// ```
    /// use iribis_suite::{Case, Expect, Op};
    /// use iribis::Profile;
    ///
    /// let expect = Expect::Result { result: "http://a/g".into(), also: vec![] };
    /// let mut case = Case::new("r1", Op::Resolve, Profile::Rfc3986, "/g", expect, "RFC 3986 §5.4.1");
    /// case.base = Some("http://a/b/c/d;p?q".into());
    /// assert!(case.to_line().contains(r#""base":"http://a/b/c/d;p?q""#));
    /// ```
    pub fn new(
        id: impl Into<String>,
        op: Op,
        profile: Profile,
        input: impl Into<String>,
        expect: Expect,
        source: impl Into<String>,
    ) -> Case {
        Case {
            id: id.into(),
            op,
            profile,
            rule: None,
            input: input.into(),
            base: None,
            other: None,
            expect,
            source: source.into(),
            exercises: None,
            generator: None,
            note: None,
            extra: Map::new(),
        }
    }

    /// The case as one line of JSON (no line break), keys in a fixed order.
    pub fn to_line(&self) -> String {
        serde_json::to_string(&self.to_json()).expect("a JSON value serializes")
    }

    /// The case as a JSON object.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("id".into(), Value::from(self.id.as_str()));
        m.insert("op".into(), Value::from(self.op.name()));
        m.insert("profile".into(), Value::from(self.profile.name()));
        if let Some(r) = &self.rule {
            m.insert("rule".into(), Value::from(r.as_str()));
        }
        m.insert("input".into(), Value::from(self.input.as_str()));
        if let Some(b) = &self.base {
            m.insert("base".into(), Value::from(b.as_str()));
        }
        if let Some(o) = &self.other {
            m.insert("other".into(), Value::from(o.as_str()));
        }
        m.insert("expect".into(), self.expect.to_json());
        m.insert("source".into(), Value::from(self.source.as_str()));
        for (k, v) in [
            ("exercises", &self.exercises),
            ("generator", &self.generator),
            ("note", &self.note),
        ] {
            if let Some(v) = v {
                m.insert(k.into(), Value::from(v.as_str()));
            }
        }
        for (k, v) in &self.extra {
            m.insert(k.clone(), v.clone());
        }
        Value::Object(m)
    }

    /// Reads a case from one line of a suite file.
    pub fn from_line(line: &str) -> Result<Case, String> {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
        Case::from_json(&v)
    }

    /// Reads a case from its JSON object.
    pub fn from_json(v: &Value) -> Result<Case, String> {
        let m = v.as_object().ok_or("a case is a JSON object")?;
        let text = |k: &str| -> Result<Option<String>, String> {
            match m.get(k) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(format!("`{k}` is not a string")),
            }
        };
        let need = |k: &str| text(k)?.ok_or_else(|| format!("the case lacks `{k}`"));
        let op = need("op")?.parse::<Op>().map_err(|e| e.to_string())?;
        let profile = need("profile")?
            .parse::<Profile>()
            .map_err(|e| e.to_string())?;
        let expect = Expect::from_json(m.get("expect").ok_or("the case lacks `expect`")?)?;
        let known = [
            "id",
            "op",
            "profile",
            "rule",
            "input",
            "base",
            "other",
            "expect",
            "source",
            "exercises",
            "generator",
            "note",
        ];
        let extra = m
            .iter()
            .filter(|(k, _)| !known.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Ok(Case {
            id: need("id")?,
            op,
            profile,
            rule: text("rule")?,
            input: need("input")?,
            base: text("base")?,
            other: text("other")?,
            expect,
            source: need("source")?,
            exercises: text("exercises")?,
            generator: text("generator")?,
            note: text("note")?,
            extra,
        })
    }

    /// The request an adapter reads for this case: `{"id", "op",
    /// "profile", "rule", "input", "base"}` (`rule` and `base` null when
    /// the case has none), and `"other"` for a `compare` case.
    ///
    /// ```
    /// # use iribis_suite::Case;
    /// let line = r#"{"id":"r1","op":"resolve","profile":"rfc3986","input":"../g","base":"http://a/b/c/d;p?q","expect":{"result":"http://a/b/g"},"source":"RFC 3986 §5.4.1"}"#;
    /// let case = Case::from_line(line).unwrap();
    /// assert_eq!(case.request(), r#"{"id":"r1","op":"resolve","profile":"rfc3986","rule":null,"input":"../g","base":"http://a/b/c/d;p?q"}"#);
    /// ```
    pub fn request(&self) -> String {
        let opt = |s: &Option<String>| s.as_deref().map_or(Value::Null, Value::from);
        let mut m = Map::new();
        m.insert("id".into(), Value::from(self.id.as_str()));
        m.insert("op".into(), Value::from(self.op.name()));
        m.insert("profile".into(), Value::from(self.profile.name()));
        m.insert("rule".into(), opt(&self.rule));
        m.insert("input".into(), Value::from(self.input.as_str()));
        m.insert("base".into(), opt(&self.base));
        if self.other.is_some() {
            m.insert("other".into(), opt(&self.other));
        }
        if let Some(c) = self.extra.get("charset") {
            m.insert("charset".into(), c.clone());
        }
        serde_json::to_string(&Value::Object(m)).expect("a JSON value serializes")
    }

    /// The rule failures of this case are grouped under: what it
    /// exercises, else its rule, else its operation.
    pub fn group(&self) -> &str {
        self.exercises
            .as_deref()
            .or(self.rule.as_deref())
            .unwrap_or(self.op.name())
    }
}

/// A request as an adapter reads it (see [`Case::request`]).
///
/// ```
/// use iribis_suite::{Op, Request};
///
/// let r = Request::from_line(r#"{"id":"a","op":"valid","profile":"rfc3987bis","rule":"IRI","input":"x:y","base":null}"#).unwrap();
/// assert_eq!((r.op, r.rule.as_deref(), r.base), (Op::Valid, Some("IRI"), None));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Request {
    /// The case's `id`, to be echoed in the answer.
    pub id: String,
    /// The operation.
    pub op: Op,
    /// The profile.
    pub profile: Profile,
    /// The rule, if any.
    pub rule: Option<String>,
    /// The input.
    pub input: String,
    /// The base, for `resolve`.
    pub base: Option<String>,
    /// The IRI compared with `input`, for `compare`.
    pub other: Option<String>,
    /// For `to-uri`, the charset of the document the IRI comes from (a
    /// WHATWG encoding label), when it is not UTF-8 (3987bis §3.5).
    pub charset: Option<String>,
}

impl Request {
    /// Reads one request line.
    pub fn from_line(line: &str) -> Result<Request, String> {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
        let m = v.as_object().ok_or("a request is a JSON object")?;
        let text = |k: &str| -> Result<Option<String>, String> {
            match m.get(k) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(format!("`{k}` is not a string")),
            }
        };
        let need = |k: &str| text(k)?.ok_or_else(|| format!("the request lacks `{k}`"));
        Ok(Request {
            id: need("id")?,
            op: need("op")?
                .parse()
                .map_err(|e: iribis::UnknownName| e.to_string())?,
            profile: need("profile")?
                .parse()
                .map_err(|e: iribis::UnknownName| e.to_string())?,
            rule: text("rule")?,
            input: need("input")?,
            base: text("base")?,
            other: text("other")?,
            charset: text("charset")?,
        })
    }
}

/// What an implementation answered for a case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `{"id", "valid": bool}`, optionally with `"at": {"byte"?, "char"?}`
    /// where the implementation saw the first wrong character.
    Valid {
        /// The verdict.
        valid: bool,
        /// Where the input went wrong, if the implementation says.
        at: Option<Position>,
    },
    /// `{"id", "components": {...}}`: the keys the implementation can
    /// tell; a key it leaves out is not compared.
    Components(Vec<(String, Option<String>)>),
    /// `{"id", "result": "..."}`.
    Result(String),
    /// `{"id", "error": "..."}`: the implementation refused the input.
    Error(String),
    /// `{"id", "unsupported": true}`: the implementation has no such
    /// operation, rule or profile.
    Unsupported,
    /// `{"id", "equivalent": {"simple"?, "syntax"?, "scheme"?}}`: the rungs
    /// of the comparison ladder the implementation can tell; a rung left
    /// out is not compared.
    Equivalent(Ladder),
    /// `{"id", "requirements": [...], "checks"?: [...]}`: the requirements
    /// (ids of [`REQUIREMENTS`]) the input breaks; with `checks`, the ones
    /// the implementation checks at all (the others are not compared).
    Requirements {
        /// The requirements broken.
        broken: Vec<String>,
        /// The requirements checked, when not all of them.
        checks: Option<Vec<String>>,
    },
}

impl Answer {
    /// The answer line for the case `id`.
    ///
    /// ```
    /// use iribis_suite::Answer;
    ///
    /// let a = Answer::Result("http://a/g".into());
    /// assert_eq!(a.to_line("r1"), r#"{"id":"r1","result":"http://a/g"}"#);
    /// assert_eq!(Answer::from_line(&a.to_line("r1")).unwrap(), ("r1".to_owned(), a));
    /// ```
    pub fn to_line(&self, id: &str) -> String {
        let mut m = Map::new();
        m.insert("id".into(), Value::from(id));
        match self {
            Answer::Valid { valid, at } => {
                m.insert("valid".into(), Value::Bool(*valid));
                if let Some(p) = at {
                    m.insert("at".into(), json!({"byte": p.byte, "char": p.char}));
                }
            }
            Answer::Components(parts) => {
                let mut c = Map::new();
                for (k, v) in parts {
                    c.insert(k.clone(), v.as_deref().map_or(Value::Null, Value::from));
                }
                m.insert("components".into(), Value::Object(c));
            }
            Answer::Result(r) => {
                m.insert("result".into(), Value::from(r.as_str()));
            }
            Answer::Error(e) => {
                m.insert("error".into(), Value::from(e.as_str()));
            }
            Answer::Unsupported => {
                m.insert("unsupported".into(), Value::Bool(true));
            }
            Answer::Equivalent(l) => {
                m.insert("equivalent".into(), l.to_json());
            }
            Answer::Requirements { broken, checks } => {
                m.insert("requirements".into(), Value::from(broken.clone()));
                if let Some(c) = checks {
                    m.insert("checks".into(), Value::from(c.clone()));
                }
            }
        }
        serde_json::to_string(&Value::Object(m)).expect("a JSON value serializes")
    }

    /// Reads an answer line: the `id` and the answer, or what is wrong
    /// with the line.
    pub fn from_line(line: &str) -> Result<(String, Answer), String> {
        let v: Value = serde_json::from_str(line.trim_end())
            .map_err(|e| format!("the answer is not JSON ({e})"))?;
        let m = v.as_object().ok_or("the answer is not a JSON object")?;
        let id = match m.get("id") {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Number(n)) => n.to_string(),
            _ => return Err("the answer has no `id`".into()),
        };
        let answer = if m.get("unsupported").and_then(Value::as_bool) == Some(true) {
            Answer::Unsupported
        } else if let Some(v) = m.get("valid") {
            let valid = v.as_bool().ok_or("`valid` is not a boolean")?;
            let at = m.get("at").and_then(|p| position(p).ok());
            Answer::Valid { valid, at }
        } else if let Some(c) = m.get("components") {
            let c = c.as_object().ok_or("`components` is not an object")?;
            let mut out = Vec::new();
            for k in Parts::KEYS {
                match c.get(k) {
                    None => {}
                    Some(Value::Null) => out.push((k.to_owned(), None)),
                    Some(Value::String(s)) => out.push((k.to_owned(), Some(s.clone()))),
                    Some(_) => {
                        return Err(format!("`components.{k}` is neither a string nor null"));
                    }
                }
            }
            if out.is_empty() {
                return Err("`components` has none of the eight components".into());
            }
            Answer::Components(out)
        } else if let Some(r) = m.get("result") {
            Answer::Result(r.as_str().ok_or("`result` is not a string")?.to_owned())
        } else if let Some(l) = m.get("equivalent") {
            Answer::Equivalent(Ladder::from_json(l, false)?)
        } else if let Some(r) = m.get("requirements") {
            Answer::Requirements {
                broken: strings(r, "requirements")?,
                checks: m.get("checks").map(|c| strings(c, "checks")).transpose()?,
            }
        } else if let Some(e) = m.get("error") {
            Answer::Error(match e {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
        } else {
            return Err(
                "the answer has none of valid, components, result, equivalent, requirements, error, unsupported".into(),
            );
        };
        Ok((id, answer))
    }

    /// The answer as JSON, without its id (the `got` of a failure).
    pub fn to_json(&self) -> Value {
        let line = self.to_line("");
        let mut v: Value = serde_json::from_str(&line).expect("our own JSON");
        if let Some(m) = v.as_object_mut() {
            m.remove("id");
        }
        v
    }
}

/// The verdict on one answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The answer is the expected one.
    Pass,
    /// It is not; why, in a few words.
    Fail(String),
    /// The implementation does not support the case.
    Unsupported,
}

/// Judges `answer` against `case`. With `positions`, a `valid: false`
/// answer that says where the input went wrong must say the expected
/// place (in characters, or in bytes if it gives only bytes); without, the
/// place is not compared.
///
/// An `error` answer to a `valid` case counts as `valid: false` (an
/// implementation that throws on an invalid input says so); an `error`
/// answer where a result is expected, or the other way round, fails.
///
/// ```
/// use iribis_suite::{judge, Answer, Case, Verdict};
///
/// let case = Case::from_line(r#"{"id":"x","op":"valid","profile":"rfc3986","rule":"URI","input":"a b:","expect":{"valid":false,"at":{"byte":1,"char":1}},"source":"s"}"#).unwrap();
/// assert_eq!(judge(&case, &Answer::Error("bad".into()), false), Verdict::Pass);
/// let yes = Answer::Valid { valid: true, at: None };
/// assert!(matches!(judge(&case, &yes, false), Verdict::Fail(_)));
/// ```
pub fn judge(case: &Case, answer: &Answer, positions: bool) -> Verdict {
    let fail = |s: String| Verdict::Fail(s);
    match (&case.expect, answer) {
        (_, Answer::Unsupported) => Verdict::Unsupported,
        (
            Expect::Valid { valid, at },
            Answer::Valid {
                valid: got,
                at: got_at,
            },
        ) => {
            if valid != got {
                return fail(format!(
                    "expected {}, got {}",
                    if *valid { "valid" } else { "invalid" },
                    if *got { "valid" } else { "invalid" }
                ));
            }
            match (positions, at, got_at) {
                (true, Some(want), Some(got)) => {
                    let same = if got.char != usize::MAX {
                        got.char == want.char
                    } else {
                        got.byte == want.byte
                    };
                    if same {
                        Verdict::Pass
                    } else {
                        fail(format!(
                            "invalid as expected, but at character {} instead of {}",
                            if got.char != usize::MAX {
                                got.char.to_string()
                            } else {
                                format!("(byte {})", got.byte)
                            },
                            want.char
                        ))
                    }
                }
                _ => Verdict::Pass,
            }
        }
        (Expect::Valid { valid: true, .. }, Answer::Error(e)) => {
            fail(format!("expected valid, got an error: {e}"))
        }
        (Expect::Valid { valid: false, .. }, Answer::Error(_)) => Verdict::Pass,
        (Expect::Components(want), Answer::Components(got)) => {
            let mut wrong = Vec::new();
            for (k, v) in got {
                let w = want.get(k).cloned().flatten();
                if &w != v {
                    wrong.push(format!("{k} {} instead of {}", show(v), show(&w)));
                }
            }
            if wrong.is_empty() {
                Verdict::Pass
            } else {
                fail(wrong.join(", "))
            }
        }
        (Expect::Result { result, also }, Answer::Result(got)) => {
            if got == result || also.contains(got) {
                Verdict::Pass
            } else {
                fail(format!("expected {result:?}, got {got:?}"))
            }
        }
        (Expect::Error, Answer::Error(_)) => Verdict::Pass,
        (Expect::Equivalent(want), Answer::Equivalent(got)) => {
            let wrong: Vec<String> = Ladder::KEYS
                .iter()
                .filter_map(|k| {
                    let g = got.get(k)?;
                    (want.get(k) != Some(g))
                        .then(|| format!("{k}: {} instead of {}", same(g), same(!g)))
                })
                .collect();
            if wrong.is_empty() {
                Verdict::Pass
            } else {
                fail(wrong.join(", "))
            }
        }
        (Expect::Requirements(want), Answer::Requirements { broken, checks }) => {
            let asked = |id: &String| checks.as_ref().is_none_or(|c| c.contains(id));
            let missed: Vec<&str> = want
                .iter()
                .filter(|id| asked(id) && !broken.contains(id))
                .map(String::as_str)
                .collect();
            let known = |id: &String| REQUIREMENTS.iter().any(|(r, _, _)| r == id);
            let extra: Vec<&str> = broken
                .iter()
                .filter(|id| known(id) && !want.contains(id))
                .map(String::as_str)
                .collect();
            match (missed.is_empty(), extra.is_empty()) {
                (true, true) => Verdict::Pass,
                _ => fail(format!(
                    "missed [{}], reported in excess [{}]",
                    missed.join(", "),
                    extra.join(", ")
                )),
            }
        }
        (Expect::Error, Answer::Result(got)) => {
            fail(format!("expected an error, got the result {got:?}"))
        }
        (Expect::Error, Answer::Components(_)) => fail("expected an error, got components".into()),
        (Expect::Error, Answer::Equivalent(_) | Answer::Requirements { .. }) => {
            fail("expected an error, got an answer".into())
        }
        (_, Answer::Error(e)) => fail(format!("expected an answer, got an error: {e}")),
        (e, a) => fail(format!(
            "malformed answer: expected {}, got {}",
            match e {
                Expect::Valid { .. } => "`valid`",
                Expect::Components(_) => "`components`",
                Expect::Result { .. } => "`result`",
                Expect::Error => "`error`",
                Expect::Equivalent(_) => "`equivalent`",
                Expect::Requirements(_) => "`requirements`",
            },
            match a {
                Answer::Valid { .. } => "`valid`",
                Answer::Components(_) => "`components`",
                Answer::Result(_) => "`result`",
                Answer::Equivalent(_) => "`equivalent`",
                Answer::Requirements { .. } => "`requirements`",
                _ => "something else",
            }
        )),
    }
}

fn same(equivalent: bool) -> &'static str {
    if equivalent {
        "equivalent"
    } else {
        "different"
    }
}

fn show(v: &Option<String>) -> String {
    match v {
        Some(s) => format!("{s:?}"),
        None => "absent".into(),
    }
}
