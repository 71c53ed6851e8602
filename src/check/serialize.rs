//! A finding and a report serialized (the `serde` feature): the objects of
//! `iri check --json`, whose shape docs/schema/check.json gives. The
//! command writes them with serde_json; the Python and WebAssembly bindings
//! build their objects from the same serialization.

use serde::ser::{Serialize, SerializeStruct, Serializer};

use super::{Code, Report, Violation};
use crate::error::Expected;

/// The finding's object: `code`, `severity`, `spec`, `message`, `byte`,
/// `char`, `len` and `component`; a `SYNTAX_ERROR` adds `expected` (what
/// the grammar allowed at `byte`, as [`Expected`] writes each item); a
/// finding with readers' details (the `READING_` codes and
/// `HOST_NOT_ALLOWED`, with the `readings` feature) adds `readers`,
/// `reached` and `address_class` when known, and `whatwg` (`null` when
/// the WHATWG URL Standard rejects the input or does not read it).
///
/// ```
/// use iribis::check::{self, CheckOptions};
///
/// let report = check::check("http://example.org/a/./b", &CheckOptions::default());
/// assert_eq!(
///     serde_json::to_string(&report.violations[0])?,
///     concat!(
///         r#"{"code":"DOT_SEGMENT","severity":"warning","spec":"RFC 3986 §3.3","#,
///         r#""message":"the path has a '.' segment: write the path without it (RFC 3986 §5.2.4)","#,
///         r#""byte":21,"char":21,"len":1,"component":"path"}"#
///     )
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
impl Serialize for Violation {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let syntax = self.code == Code::SyntaxError;
        #[cfg(feature = "readings")]
        let detail = self.detail.as_deref();
        #[cfg(feature = "readings")]
        let len = 8
            + usize::from(syntax)
            + detail.map_or(0, |d| {
                2 + usize::from(d.reached.is_some()) + usize::from(d.address_class.is_some())
            });
        #[cfg(not(feature = "readings"))]
        let len = 8 + usize::from(syntax);
        let mut object = serializer.serialize_struct("Violation", len)?;
        object.serialize_field("code", self.code.name())?;
        object.serialize_field("severity", self.severity.name())?;
        object.serialize_field("spec", self.spec)?;
        object.serialize_field("message", &self.message)?;
        object.serialize_field("byte", &self.byte)?;
        object.serialize_field("char", &self.char)?;
        object.serialize_field("len", &self.len)?;
        object.serialize_field("component", self.component.name())?;
        if syntax {
            object.serialize_field("expected", &ExpectedList(&self.expected))?;
        } else {
            object.skip_field("expected")?;
        }
        #[cfg(feature = "readings")]
        match detail {
            Some(d) => {
                object.serialize_field("readers", &ReaderList(&d.readers))?;
                match &d.reached {
                    Some(host) => object.serialize_field("reached", host)?,
                    None => object.skip_field("reached")?,
                }
                match d.address_class {
                    Some(class) => object.serialize_field("address_class", class.name())?,
                    None => object.skip_field("address_class")?,
                }
                object.serialize_field("whatwg", &d.whatwg.as_ref().map(Whatwg))?;
            }
            None => {
                for key in ["readers", "reached", "address_class", "whatwg"] {
                    object.skip_field(key)?;
                }
            }
        }
        object.end()
    }
}

/// The report's object: `valid` and `violations`, the findings in order.
///
/// ```
/// use iribis::check::{self, CheckOptions};
///
/// let report = check::check("http://example.org/", &CheckOptions::default());
/// assert_eq!(serde_json::to_string(&report)?, r#"{"valid":true,"violations":[]}"#);
/// # Ok::<(), serde_json::Error>(())
/// ```
impl Serialize for Report {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut object = serializer.serialize_struct("Report", 2)?;
        object.serialize_field("valid", &self.valid)?;
        object.serialize_field("violations", &self.violations)?;
        object.end()
    }
}

/// A `SYNTAX_ERROR`'s `expected`: each item as a string, as it displays.
struct ExpectedList<'a>(&'a [Expected]);

impl Serialize for ExpectedList<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(Displayed))
    }
}

/// A value serialized as the string it displays as.
struct Displayed<'a, T>(&'a T);

impl<T: core::fmt::Display> Serialize for Displayed<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self.0)
    }
}

/// The readers of a finding's details, by name.
#[cfg(feature = "readings")]
struct ReaderList<'a>(&'a [crate::readings::Reader]);

#[cfg(feature = "readings")]
impl Serialize for ReaderList<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|r| r.name()))
    }
}

/// The WHATWG URL Standard's `{"host", "path"}`.
#[cfg(feature = "readings")]
struct Whatwg<'a>(&'a crate::readings::WhatwgParts);

#[cfg(feature = "readings")]
impl Serialize for Whatwg<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut object = serializer.serialize_struct("Whatwg", 2)?;
        object.serialize_field("host", &self.0.host)?;
        object.serialize_field("path", &self.0.path)?;
        object.end()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Map, Value};

    use crate::check::{CheckOptions, Code, check};

    /// The schema of `iri check --json`, whose `violations` items are the
    /// finding's shape.
    const SCHEMA: &str = include_str!("../../docs/schema/check.json");

    /// The schema of one finding.
    fn finding_schema() -> Value {
        let schema: Value = serde_json::from_str(SCHEMA).expect("docs/schema/check.json is JSON");
        schema["properties"]["violations"]["items"].clone()
    }

    /// The findings of `input` as the library serializes them.
    fn findings(input: &str) -> Vec<Value> {
        let report = check(input, &CheckOptions::default());
        match serde_json::to_value(&report).expect("a report serializes") {
            Value::Object(mut o) => match o.remove("violations") {
                Some(Value::Array(all)) => all,
                other => panic!("violations: {other:?}"),
            },
            other => panic!("a report: {other:?}"),
        }
    }

    /// Whether `text` matches `pattern`, one of the two forms the schema
    /// uses: an anchored prefix of literal characters, or the code shape
    /// `^[A-Z][A-Z0-9_]*$`. Any other pattern fails the test.
    fn matches_pattern(pattern: &str, text: &str) -> bool {
        if pattern == "^[A-Z][A-Z0-9_]*$" {
            let mut chars = text.chars();
            return chars.next().is_some_and(|c| c.is_ascii_uppercase())
                && chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
        }
        match pattern.strip_prefix('^') {
            Some(prefix)
                if prefix
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                text.starts_with(prefix)
            }
            _ => panic!("a pattern this test does not read: {pattern}"),
        }
    }

    /// Whether `value` has the JSON type `name`.
    fn has_type(value: &Value, name: &str) -> bool {
        match name {
            "string" => value.is_string(),
            "integer" => value.is_u64() || value.is_i64(),
            "boolean" => value.is_boolean(),
            "null" => value.is_null(),
            "array" => value.is_array(),
            "object" => value.is_object(),
            _ => panic!("a type this test does not read: {name}"),
        }
    }

    /// The ways `value` breaks `schema`, at `path`: the keywords of
    /// docs/schema/check.json's finding (a keyword this reader does not
    /// know fails the test, so that a schema that grows one is read).
    fn violations_of(schema: &Value, value: &Value, path: &str) -> Vec<String> {
        let mut out = Vec::new();
        let Some(schema) = schema.as_object() else {
            panic!("{path}: a schema that is not an object");
        };
        for (keyword, rule) in schema {
            match keyword.as_str() {
                "description" | "title" => {}
                "type" => {
                    let names: Vec<&str> = match rule {
                        Value::String(one) => vec![one.as_str()],
                        Value::Array(all) => all.iter().filter_map(Value::as_str).collect(),
                        _ => panic!("{path}: type {rule}"),
                    };
                    if !names.iter().any(|n| has_type(value, n)) {
                        out.push(format!("{path}: {value} is not of type {rule}"));
                    }
                }
                "enum" => {
                    if !rule.as_array().is_some_and(|all| all.contains(value)) {
                        out.push(format!("{path}: {value} is not one of {rule}"));
                    }
                }
                "minimum" => {
                    if value
                        .as_f64()
                        .zip(rule.as_f64())
                        .is_some_and(|(v, m)| v < m)
                    {
                        out.push(format!("{path}: {value} is below {rule}"));
                    }
                }
                "pattern" => {
                    let pattern = rule.as_str().expect("a pattern is a string");
                    if value.as_str().is_some_and(|s| !matches_pattern(pattern, s)) {
                        out.push(format!("{path}: {value} does not match {pattern}"));
                    }
                }
                "required" => {
                    for key in rule.as_array().into_iter().flatten() {
                        let key = key.as_str().expect("a required key is a string");
                        if value.as_object().is_some_and(|o| !o.contains_key(key)) {
                            out.push(format!("{path}: no key {key}"));
                        }
                    }
                }
                "properties" => {
                    let properties = rule.as_object().expect("properties is an object");
                    for (key, v) in value.as_object().into_iter().flatten() {
                        match properties.get(key) {
                            Some(s) => out.extend(violations_of(s, v, &format!("{path}.{key}"))),
                            None if schema.get("additionalProperties") == Some(&false.into()) => {
                                out.push(format!("{path}: key {key} is not in the schema"));
                            }
                            None => {}
                        }
                    }
                }
                "additionalProperties" => {
                    assert_eq!(rule, &Value::Bool(false), "{path}: additionalProperties");
                }
                "items" => {
                    for (i, item) in value.as_array().into_iter().flatten().enumerate() {
                        out.extend(violations_of(rule, item, &format!("{path}[{i}]")));
                    }
                }
                "oneOf" => {
                    let passing = rule
                        .as_array()
                        .expect("oneOf is an array")
                        .iter()
                        .filter(|s| violations_of(s, value, path).is_empty())
                        .count();
                    if passing != 1 {
                        out.push(format!("{path}: {value} matches {passing} of oneOf"));
                    }
                }
                "allOf" => {
                    for s in rule.as_array().expect("allOf is an array") {
                        out.extend(violations_of(s, value, path));
                    }
                }
                "if" => {
                    if violations_of(rule, value, path).is_empty()
                        && let Some(then) = schema.get("then")
                    {
                        out.extend(violations_of(then, value, path));
                    }
                }
                "then" => {}
                other => panic!("{path}: a keyword this test does not read: {other}"),
            }
        }
        out
    }

    fn assert_valid(finding: &Value) {
        let broken = violations_of(&finding_schema(), finding, "finding");
        assert!(broken.is_empty(), "{finding}\n{}", broken.join("\n"));
    }

    fn keys(finding: &Value) -> Vec<&str> {
        finding
            .as_object()
            .map(Map::keys)
            .into_iter()
            .flatten()
            .map(String::as_str)
            .collect()
    }

    const COMMON: [&str; 8] = [
        "code",
        "severity",
        "spec",
        "message",
        "byte",
        "char",
        "len",
        "component",
    ];

    #[test]
    fn findings_have_the_schemas_shape() {
        for input in [
            "HTTP://example.org:80/a/./b?%7e",
            "http://例え.jp/a\u{202E}b",
            "http://user:pw@h/\u{301}x",
            "http://[::1",
        ] {
            let all = findings(input);
            assert!(!all.is_empty(), "{input}");
            for f in &all {
                assert_valid(f);
            }
        }
    }

    /// The schema reader tells a finding that breaks the schema: an extra
    /// key, a key missing, a wrong type, a value outside an enumeration, a
    /// code of the wrong shape, a `READING_` finding without its details.
    #[test]
    fn the_schema_reader_finds_what_breaks_a_finding() {
        let good = findings("http://example.org/a/./b")[0].clone();
        let schema = finding_schema();
        assert!(violations_of(&schema, &good, "f").is_empty());
        let broken = |key: &str, value: Option<Value>| {
            let mut f = good.as_object().cloned().expect("an object");
            match value {
                Some(v) => f.insert(key.into(), v),
                None => f.remove(key),
            };
            violations_of(&schema, &Value::Object(f), "f").len()
        };
        assert_eq!(broken("extra", Some(1.into())), 1);
        assert_eq!(broken("len", None), 1);
        assert_eq!(broken("byte", Some("1".into())), 1);
        assert_eq!(broken("char", Some((-1).into())), 1);
        assert_eq!(broken("severity", Some("allow".into())), 1);
        assert_eq!(broken("code", Some("dot".into())), 1);
        // No readers, no whatwg.
        assert_eq!(broken("code", Some("READING_X".into())), 2);
    }

    #[test]
    fn a_syntax_error_has_what_was_expected() {
        let [f] = &findings("http://example.org/a b")[..] else {
            panic!("one finding")
        };
        assert_valid(f);
        let mut want = COMMON.to_vec();
        want.push("expected");
        assert_eq!(keys(f), want);
        assert_eq!(
            f["expected"],
            serde_json::json!(["\"#\"", "\"?\"", "path-sep", "ipchar", "the end"])
        );
    }

    /// A syntax error cites the grammar of the profile it was checked
    /// under, as the parse error of that profile does; other findings
    /// their code's section under every profile.
    #[test]
    fn syntax_error_spec_is_the_profiles_grammar() {
        let mut cited = Vec::new();
        for profile in crate::Profile::ALL {
            let options = CheckOptions::new().profile(profile);
            // Invalid under every profile.
            let input = "http://[x";
            let parse_error =
                crate::IriRef::parse_with(input, &crate::ParseOptions::new().profile(profile))
                    .expect_err("an unclosed IP literal");
            let report = check(input, &options);
            let v = &report.violations[0];
            assert_eq!(v.code, Code::SyntaxError);
            assert_eq!(v.spec, parse_error.spec(), "{profile}");
            assert_eq!(v.spec, Code::SyntaxError.spec_for(profile), "{profile}");
            let json = serde_json::to_value(v).expect("a finding serializes");
            assert_eq!(json["spec"], parse_error.spec(), "{profile}");
            cited.push(v.spec);
            let dot = check("http://example.org/a/./b", &options);
            assert_eq!(dot.violations[0].spec, Code::DotSegment.spec(), "{profile}");
        }
        assert_eq!(
            cited,
            [
                "3987bis §2.2",
                "RFC 3987 §2.2",
                "RFC 3986 §3",
                "3987bis §6.1"
            ]
        );
    }

    #[test]
    fn other_findings_have_the_common_keys_only() {
        let f = &findings("http://example.org/a/./b")[0];
        assert_valid(f);
        assert_eq!(keys(f), COMMON);
    }

    /// A reading finding, byte for byte as docs/json.md shows it.
    #[cfg(feature = "readings")]
    #[test]
    fn a_reading_finding_has_what_the_readers_read() {
        let report = check("http://0x7f.1/", &CheckOptions::default());
        let f = serde_json::to_string(&report.violations[0]).expect("a finding serializes");
        assert_eq!(
            f,
            r#"{"code":"READING_HOST_DIFFERS","severity":"error","spec":"RFC 3986 §7.4; WHATWG URL §3.5","message":"browsers (the WHATWG URL Standard) and C resolvers (inet_aton: getaddrinfo, curl) reach the address 127.0.0.1 (loopback), not '0x7f.1', which 3987bis reads","byte":7,"char":7,"len":6,"component":"host","readers":["whatwg","inet_aton"],"reached":"127.0.0.1","address_class":"loopback","whatwg":{"host":"127.0.0.1","path":"/"}}"#
        );
        assert_valid(&serde_json::from_str(&f).expect("JSON"));
    }

    /// Where the WHATWG URL Standard reads nothing (a relative reference),
    /// `whatwg` is null; a host that is no IP address has no class.
    #[cfg(feature = "readings")]
    #[test]
    fn a_reading_finding_without_a_whatwg_reading() {
        let all = findings("//0x7f.1/a/%2e%2e/b");
        let readings: Vec<&Value> = all
            .iter()
            .filter(|f| {
                f["code"]
                    .as_str()
                    .is_some_and(|c| c.starts_with("READING_"))
            })
            .collect();
        assert!(!readings.is_empty(), "{all:?}");
        for f in readings {
            assert_valid(f);
            assert_eq!(f["whatwg"], Value::Null, "{f}");
        }
        // A name has no address class, but `localhost` (the loopback).
        let name = findings("http://%65vil.example/");
        let f = name
            .iter()
            .find(|f| f["code"] == "READING_HOST_DIFFERS")
            .expect("a reading finding");
        assert_valid(f);
        assert!(f.get("address_class").is_none(), "{f}");
        let name = findings("http://%6c%6fcalhost/");
        let f = name
            .iter()
            .find(|f| f["code"] == "READING_HOST_DIFFERS")
            .expect("a reading finding");
        assert_valid(f);
        assert_eq!(f["address_class"], "loopback", "{f}");
    }
}
