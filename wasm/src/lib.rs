//! The WebAssembly build of iribis: the npm package `iribis` (for Node and
//! bundlers) and, with the `playground` feature, the grammar playground's
//! backend for the static page.
//!
//! Every function takes strings and an optional options object, and returns
//! strings, booleans or plain objects; the library does the work. Names of
//! profiles, rules, levels, presets, severities and codes are those of the
//! `iri` command. A string that does not parse throws an `Error` named
//! `IriParseError` carrying `byte`, `char`, `component`, `expected` and
//! `spec`; a bad option throws a `TypeError` (wrong type) or a `RangeError`
//! (unknown name). Options are the object's own properties: one it inherits
//! (from `Object.prototype`, say) is not read.
//!
//! The package's entry point is `wasm/npm/index.js`, which calls the
//! functions of wasm-bindgen's glue after checking that each argument read
//! as a string is one (a `TypeError` otherwise): the glue copies whatever it
//! is given into the module's memory as if it were a string.

use iribis::check::{CheckOptions, Preset, Severities};
use iribis::convert::{ConvertError, ToIriOptions, ToUriOptions};
use iribis::normalize::Level;
use iribis::readings::{ReadHost, Reader, Reading};
use iribis::resolve::ResolveOptions;
use iribis::{Components, GrammarRule, Iri, IriRef, ParseOptions, Profile};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;

mod js;
#[cfg(feature = "playground")]
mod playground;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** A profile: the grammar a string is read by. */
export type Profile = "rfc3987bis" | "rfc3987" | "rfc3986" | "leiri";

/** Where parsing starts: any ABNF rule of the profile ("IRI-reference" by default). */
export interface RuleOptions {
  /** "rfc3987bis" (draft-ietf-iri-3987bis-13) by default. */
  profile?: Profile;
  /** An ABNF rule name ("IRI-reference", "IRI", "absolute-IRI", "ihost", "IPv6address"...); the pest spelling "IRI_reference" works too. */
  rule?: string;
}

/** The components of a parsed reference: null when absent, "" when empty. */
export interface IriRef {
  /** The input, as given. */
  input: string;
  scheme: string | null;
  authority: string | null;
  userinfo: string | null;
  host: string | null;
  hostType: "reg-name" | "IPv4address" | "IPv6address" | "IPvFuture" | null;
  /** The port as written. */
  port: string | null;
  /** The port as a number, when present, not empty and at most 65535. */
  portNumber: number | null;
  /** Always a string for the reference rules; null below them (rule "ihost"...). */
  path: string | null;
  query: string | null;
  fragment: string | null;
}

/** Thrown when a string does not match the rule: where, in which component, why. */
export interface IriParseError extends Error {
  name: "IriParseError";
  /** Byte offset (UTF-8) of the error, 0-based. */
  byte: number;
  /** Character (Unicode scalar value) offset, 0-based. */
  char: number;
  component: "scheme" | "authority" | "userinfo" | "host" | "port" | "path" | "query" | "fragment" | "input";
  /** What could have stood at the position, as `iri parse --json` lists it: literals in double quotes ("\"?\""), ABNF rule names ("ipchar"), "the end". */
  expected: string[];
  /** The spec section the rule comes from. */
  spec: string;
  /** The input. */
  input: string;
}

export type Severity = "allow" | "info" | "warning" | "error";

export interface CheckOptions {
  profile?: Profile;
  /** A preset ("default", "strict", "leiri"), or code names mapped to severities with an optional "preset" key. */
  severities?: "default" | "strict" | "leiri" | ({ preset?: "default" | "strict" | "leiri" } & Record<string, string>);
}

/** One finding of check(): the object of `iri check --json`, its keys in camelCase. */
export interface Finding {
  /** The stable code (see `iri check --explain CODE`). */
  code: string;
  severity: Exclude<Severity, "allow">;
  /** The spec section it rests on. */
  spec: string;
  /** One sentence about this input. */
  message: string;
  byte: number;
  char: number;
  /** The span's length in characters. */
  len: number;
  component: string;
  /** On a SYNTAX_ERROR: what could have stood at the position, as IriParseError's `expected`. */
  expected?: string[];
  /** On a READING_ finding and HOST_NOT_ALLOWED: the readers that read the input otherwise ("whatwg", "inet_aton", "decoded"). */
  readers?: Reader[];
  /** The host they reach, in canonical form, when they reach one. */
  reached?: string;
  /** Its class when it is an IP address ("loopback", "private", "link-local"...). */
  addressClass?: string;
  /** The host and path the WHATWG URL Standard reads, or null when it rejects the input. */
  whatwg?: { host: string | null; path: string } | null;
}

/** A reader: 3987bis itself, browsers (the WHATWG URL Standard), C resolvers (inet_aton), or a reader that percent-decodes first. */
export type Reader = "rfc3987bis" | "whatwg" | "inet_aton" | "decoded";

/** What one reader reads: null where it reads no such component. */
export interface Reading {
  scheme: string | null;
  userinfo: string | null;
  host: string | null;
  hostType: string | null;
  /** The class of the host when it is an IP address. */
  addressClass: string | null;
  port: string | null;
  path: string | null;
  query: string | null;
  fragment: string | null;
}

/** Where two readings part, after the normalization all agree on: a READING_ code of `iri check`. */
export interface ReadingDifference {
  code: string;
  component: string;
  byte: number;
  char: number;
  len: number;
  readers: Reader[];
  reached: string | null;
  addressClass: string | null;
  message: string;
}

export interface Readings {
  /** Each reader's reading, `{error}` when it rejects the input, or null when it does not read it. */
  readings: Record<Reader, Reading | { error: string } | null>;
  differences: ReadingDifference[];
}

export interface CheckReport {
  /** The input parses under the profile and no finding has error severity. */
  valid: boolean;
  /** The findings, in input order. */
  violations: Finding[];
}

export interface ToUriOptions {
  /** Registered names through IDNA (xn--) instead of percent-encoding (3987bis §3.4.2). */
  idna?: boolean;
  /** The WHATWG label of the document charset of an http(s) query (§3.5). */
  queryCharset?: string;
  /** "leiri": a LEIRI's extra characters are encoded too. */
  profile?: Profile;
}

export interface ToIriOptions {
  /** xn-- labels of DNS hosts become Unicode unless they fail the spoofing checks (default true). */
  idna?: boolean;
}

export interface ResolveOptions {
  /** false: a reference whose scheme is the base's is read as if it had none ("http:g"). Default true. */
  strict?: boolean;
}

export type Level = "simple" | "syntax" | "scheme";

export interface NormalizeOptions {
  /** "syntax" (RFC 3987 §5.3.2) by default, or "scheme" (§5.3.3). */
  level?: Level;
}

export interface CompareOptions {
  /** The highest rung tried: "scheme" by default. */
  level?: Level;
  /** Leave fragments out (§5.1). */
  ignoreFragment?: boolean;
}

/** Whether `s` matches the start rule (IRI-reference by default) under the profile (rfc3987bis by default). */
export function isValid(s: string, options?: RuleOptions | null): boolean;
/** A start rule and profile resolved once: `isValid` for many strings, about three times faster a call than isValid(s, options). */
export class Validator {
  constructor(options?: RuleOptions | null);
  /** Whether `s` matches the start rule. */
  isValid(s: string): boolean;
  /** Frees the validator now (it is freed when collected otherwise). */
  free(): void;
}
/** The components of `s` parsed from the start rule; throws an IriParseError when it does not match. */
export function parse(s: string, options?: RuleOptions | null): IriRef;
/** The conformance report of `s`: every finding not allowed by the severities, in input order. */
export function check(s: string, options?: CheckOptions | null): CheckReport;
/** IRI → URI (3987bis §3): characters not allowed in a URI percent-encoded as UTF-8; with `idna`, registered names through IDNA. */
export function toUri(s: string, options?: ToUriOptions | null): string;
/** URI → IRI (3987bis §4.2): percent-encoded UTF-8 decoded where allowed and safe to show. */
export function toIri(s: string, options?: ToIriOptions | null): string;
/** Resolves `reference` against the IRI `base` (RFC 3986 §5.2). */
export function resolve(base: string, reference: string, options?: ResolveOptions | null): string;
/** The shortest reference that resolves against the IRI `base` to the IRI `target`. */
export function relativize(base: string, target: string): string;
/** The normal form of `s` (RFC 3987 §5.3.2, or §5.3.3 with level "scheme"). */
export function normalize(s: string, options?: NormalizeOptions | null): string;
/** Every reading of `s` (3987bis, browsers, C resolvers, decode-first) and where they part; throws an IriParseError when `s` does not parse. */
export function readings(s: string, options?: { profile?: Profile } | null): Readings;
/** The lowest rung of RFC 3987 §5.3's ladder at which `a` and `b` are equivalent, or null. */
export function compare(a: string, b: string, options?: CompareOptions | null): Level | null;
"#;

/// An `Error` named `IriParseError` with the parse error's details.
fn parse_error(e: &iribis::ParseError) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    err.set_name("IriParseError");
    let expected: Array = e
        .expected_all()
        .iter()
        .map(|x| JsValue::from_str(&x.to_string()))
        .collect();
    let o: &JsValue = err.as_ref();
    set(o, "byte", e.byte() as f64);
    set(o, "char", e.char() as f64);
    set(o, "component", e.component().name());
    set(o, "expected", expected);
    set(o, "spec", e.spec());
    set(o, "input", e.input());
    err.into()
}

fn type_error(message: &str) -> JsValue {
    js_sys::TypeError::new(message).into()
}

fn range_error(message: &str) -> JsValue {
    js_sys::RangeError::new(message).into()
}

/// Sets a property; on a plain object or an `Error` it cannot fail.
fn set(o: &JsValue, key: &str, value: impl Into<JsValue>) {
    let _ = Reflect::set(o, &JsValue::from_str(key), &value.into());
}

thread_local! {
    /// The option names as JS strings, made once: decoding a string out of
    /// the module's memory costs more than the rest of an `isValid` call.
    static KEYS: std::cell::RefCell<Vec<(String, JsValue)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The JS string `key`, made once.
fn js_key(key: &str) -> JsValue {
    KEYS.with(|keys| {
        let mut keys = keys.borrow_mut();
        if let Some((_, v)) = keys.iter().find(|(k, _)| k == key) {
            return v.clone();
        }
        let v = JsValue::from_str(key);
        keys.push((key.to_string(), v.clone()));
        v
    })
}

/// `Some(s)` as a string, `None` as `null`.
fn nullable(s: Option<&str>) -> JsValue {
    s.map_or(JsValue::NULL, JsValue::from_str)
}

/// The options object: absent (`undefined` or `null`) or an object.
struct Options(Option<JsValue>);

impl Options {
    fn new(options: JsValue) -> Result<Options, JsValue> {
        if options.is_undefined() || options.is_null() {
            Ok(Options(None))
        } else if options.is_object() {
            Ok(Options(Some(options)))
        } else {
            Err(type_error("the options must be an object"))
        }
    }

    /// The option `key`: an own property of the object (an inherited one,
    /// as `Object.prototype.profile` would be, is not an option), `None`
    /// when absent, `undefined` or `null`.
    fn get(&self, key: &str) -> Result<Option<JsValue>, JsValue> {
        let Some(o) = &self.0 else { return Ok(None) };
        let key = js_key(key);
        let v = Reflect::get(o, &key)?;
        if v.is_undefined() || v.is_null() {
            return Ok(None);
        }
        // Ownership is asked only of a value found, so that `{}`, the
        // common options, costs one lookup a key (an inherited getter runs,
        // and its value is dropped here).
        Ok(Some(v).filter(|_| Object::has_own(o.unchecked_ref::<Object>(), &key)))
    }

    fn string(&self, key: &str) -> Result<Option<String>, JsValue> {
        match self.get(key)? {
            None => Ok(None),
            Some(v) => v
                .as_string()
                .map(Some)
                .ok_or_else(|| type_error(&format!("the option {key} must be a string"))),
        }
    }

    fn boolean(&self, key: &str, default: bool) -> Result<bool, JsValue> {
        match self.get(key)? {
            None => Ok(default),
            Some(v) => v
                .as_bool()
                .ok_or_else(|| type_error(&format!("the option {key} must be a boolean"))),
        }
    }

    fn profile(&self) -> Result<Profile, JsValue> {
        match self.string("profile")? {
            None => Ok(Profile::Rfc3987bis),
            Some(name) => name
                .parse()
                .map_err(|e: iribis::UnknownName| range_error(&e.to_string())),
        }
    }

    /// The profile and the start rule (`IRI-reference` by default; under
    /// `rfc3986` the IRI reference-level rules stand for the URI ones).
    /// The last few answers are kept by the options' values: `isValid` in
    /// a loop, and the ajv plugin, pass the same names again and again, and
    /// finding a rule by name costs several times matching a reference.
    fn start(&self) -> Result<(Profile, GrammarRule), JsValue> {
        let profile = self.get("profile")?.unwrap_or(JsValue::UNDEFINED);
        let rule = self.get("rule")?.unwrap_or(JsValue::UNDEFINED);
        let known = STARTS.with(|starts| {
            starts
                .borrow()
                .iter()
                .find(|s| s.profile == profile && s.rule == rule)
                .map(|s| s.start)
        });
        if let Some(start) = known {
            return Ok(start);
        }
        let start = self.resolve_start()?;
        STARTS.with(|starts| {
            let mut starts = starts.borrow_mut();
            if starts.len() == STARTS_KEPT {
                starts.remove(0);
            }
            starts.push(Start {
                profile,
                rule,
                start,
            });
        });
        Ok(start)
    }

    fn resolve_start(&self) -> Result<(Profile, GrammarRule), JsValue> {
        let profile = self.profile()?;
        let rule = match self.string("rule")? {
            None => GrammarRule::IRI_REFERENCE,
            Some(name) => {
                GrammarRule::lookup(&name, profile).map_err(|e| range_error(&e.to_string()))?
            }
        };
        Ok((profile, rule))
    }
}

/// A start rule found for the option values `profile` and `rule` (JS
/// strings, or `undefined`), compared with `===`.
struct Start {
    profile: JsValue,
    rule: JsValue,
    start: (Profile, GrammarRule),
}

/// How many [`Start`]s are kept: the four formats of the ajv plugin, and
/// some.
const STARTS_KEPT: usize = 8;

thread_local! {
    static STARTS: std::cell::RefCell<Vec<Start>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Whether `s` matches the start rule (`rule`, default `IRI-reference`)
/// under `profile` (default `rfc3987bis`).
#[wasm_bindgen(js_name = isValid, skip_typescript)]
pub fn is_valid(s: &str, options: JsValue) -> Result<bool, JsValue> {
    let (profile, rule) = Options::new(options)?.start()?;
    Ok(rule.matches(s, profile))
}

/// A start rule and profile resolved once, for many strings: `isValid`
/// without reading options on every call (the ajv plugin's formats).
#[wasm_bindgen(skip_typescript)]
pub struct Validator {
    profile: Profile,
    rule: GrammarRule,
}

#[wasm_bindgen]
impl Validator {
    /// The validator of the start rule and profile of `options` (as
    /// [`is_valid`]'s).
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<Validator, JsValue> {
        let (profile, rule) = Options::new(options)?.resolve_start()?;
        Ok(Validator { profile, rule })
    }

    /// Whether `s` matches the start rule.
    #[wasm_bindgen(js_name = isValid)]
    pub fn is_valid(&self, s: &str) -> bool {
        self.rule.matches(s, self.profile)
    }
}

/// The components of `s` parsed from the start rule, or an
/// `IriParseError`.
#[wasm_bindgen(skip_typescript)]
pub fn parse(s: &str, options: JsValue) -> Result<JsValue, JsValue> {
    let (profile, rule) = Options::new(options)?.start()?;
    let c = Components::parse(s, rule, profile).map_err(|e| parse_error(&e))?;
    let o: JsValue = Object::new().into();
    set(&o, "input", s);
    set(&o, "scheme", nullable(c.scheme()));
    set(&o, "authority", nullable(c.authority()));
    set(&o, "userinfo", nullable(c.userinfo()));
    set(&o, "host", nullable(c.host_str()));
    set(&o, "hostType", nullable(c.host().map(|h| h.kind_name())));
    set(&o, "port", nullable(c.port()));
    let number = c.port().and_then(|p| p.parse::<u16>().ok());
    set(
        &o,
        "portNumber",
        number.map_or(JsValue::NULL, JsValue::from),
    );
    set(&o, "path", nullable(c.path()));
    set(&o, "query", nullable(c.query()));
    set(&o, "fragment", nullable(c.fragment()));
    Ok(o)
}

/// The check options: `profile`, and `severities` as a preset name or an
/// object of code names to severity names (with an optional `preset`).
fn check_options(options: &Options) -> Result<CheckOptions, JsValue> {
    let unknown = |e: iribis::UnknownName| range_error(&e.to_string());
    let profile = options.profile()?;
    let severities = match options.get("severities")? {
        None => return Ok(CheckOptions::new().profile(profile)),
        Some(v) if v.is_string() => Severities::new(
            v.as_string()
                .unwrap_or_default()
                .parse::<Preset>()
                .map_err(unknown)?,
        ),
        Some(v) if v.is_object() => {
            let map = Options(Some(v.clone()));
            let mut pairs = Vec::new();
            for key in Object::keys(&Object::from(v)).iter() {
                let key = key.as_string().unwrap_or_default();
                match map.string(&key)? {
                    // A preset of null or undefined is the default one.
                    None if key == "preset" => {}
                    value => pairs.push((key, value.unwrap_or_default())),
                }
            }
            Severities::from_pairs(pairs).map_err(unknown)?
        }
        Some(_) => {
            return Err(type_error(
                "severities must be a preset name or an object of code names to severities",
            ));
        }
    };
    Ok(CheckOptions::new().profile(profile).severities(severities))
}

/// What the other readers read, on a finding or a difference: `readers`,
/// `reached` and `addressClass`.
fn set_reach(o: &JsValue, d: &iribis::readings::Detail) {
    let readers: Array = d
        .readers
        .iter()
        .map(|r| JsValue::from_str(r.name()))
        .collect();
    set(o, "readers", readers);
    set(o, "reached", nullable(d.reached.as_deref()));
    set(
        o,
        "addressClass",
        nullable(d.address_class.map(|c| c.name())),
    );
}

/// The conformance report of `s`: whether it is valid, and every finding
/// not allowed by the severities, in input order (an input that does not
/// parse gets one `SYNTAX_ERROR`). The library's serialization of the
/// report, `iri check --json`'s shape, with its keys in camelCase.
#[wasm_bindgen(skip_typescript)]
pub fn check(s: &str, options: JsValue) -> Result<JsValue, JsValue> {
    let options = check_options(&Options::new(options)?)?;
    js::to_js(&iribis::check(s, &options))
}

/// A conversion error: the parse error, or a `RangeError` (IDNA, unknown
/// charset).
fn convert_error(e: &ConvertError) -> JsValue {
    match e {
        ConvertError::Parse(p) => parse_error(p),
        other => range_error(&other.to_string()),
    }
}

/// IRI → URI (3987bis §3): every character not allowed in a URI becomes the
/// `%HH` of its UTF-8 octets; with `idna`, registered names go through IDNA.
#[wasm_bindgen(js_name = toUri, skip_typescript)]
pub fn to_uri(s: &str, options: JsValue) -> Result<String, JsValue> {
    let options = Options::new(options)?;
    let mut o = ToUriOptions::new()
        .idna(options.boolean("idna", false)?)
        .profile(options.profile()?);
    if let Some(label) = options.string("queryCharset")? {
        o = o.query_charset(&label).map_err(|e| convert_error(&e))?;
    }
    iribis::to_uri(s, &o).map_err(|e| convert_error(&e))
}

/// URI → IRI (3987bis §4.2): percent-encoded UTF-8 decoded where the
/// character is allowed and safe to show; `xn--` labels decoded unless they
/// fail the spoofing checks (`idna: false` keeps them).
#[wasm_bindgen(js_name = toIri, skip_typescript)]
pub fn to_iri(s: &str, options: JsValue) -> Result<String, JsValue> {
    let idna = Options::new(options)?.boolean("idna", true)?;
    iribis::to_iri(s, &ToIriOptions::new().idna(idna)).map_err(|e| convert_error(&e))
}

/// Parses `s` as an IRI (with a scheme), for the functions that need one.
fn iri<'a>(s: &'a str, what: &str) -> Result<Iri<&'a str>, JsValue> {
    match Iri::parse(s) {
        Ok(i) => Ok(i),
        Err(_) if IriRef::parse(s).is_ok() => Err(range_error(&format!(
            "the {what} {s:?} is a relative reference: it must be an IRI, with a scheme (RFC 3986 §5.1)"
        ))),
        Err(e) => Err(parse_error(&e)),
    }
}

/// Resolves `reference` against the IRI `base` (RFC 3986 §5.2).
#[wasm_bindgen(skip_typescript)]
pub fn resolve(base: &str, reference: &str, options: JsValue) -> Result<String, JsValue> {
    let strict = Options::new(options)?.boolean("strict", true)?;
    let base = iri(base, "base")?;
    let reference = IriRef::parse(reference).map_err(|e| parse_error(&e))?;
    Ok(base
        .resolve_with(&reference, &ResolveOptions::new().strict(strict))
        .into_string())
}

/// The shortest reference that resolves against `base` to `target`.
#[wasm_bindgen(skip_typescript)]
pub fn relativize(base: &str, target: &str) -> Result<String, JsValue> {
    let base = iri(base, "base")?;
    let target = iri(target, "target")?;
    Ok(base.relativize(&target).into_string())
}

fn level_of(options: &Options, default: Level) -> Result<Level, JsValue> {
    match options.string("level")? {
        None => Ok(default),
        Some(name) => name
            .parse()
            .map_err(|e: iribis::UnknownName| range_error(&e.to_string())),
    }
}

/// The normal form of `s` at `level` (`syntax` by default, or `scheme`).
#[wasm_bindgen(skip_typescript)]
pub fn normalize(s: &str, options: JsValue) -> Result<String, JsValue> {
    let level = level_of(&Options::new(options)?, Level::Syntax)?;
    let r = IriRef::parse(s).map_err(|e| parse_error(&e))?;
    Ok(r.normalize_with(level).into_string())
}

/// The lowest rung of the comparison ladder (RFC 3987 §5.3), up to
/// `level`, at which `a` and `b` are equivalent, or `null`.
#[wasm_bindgen(skip_typescript)]
pub fn compare(a: &str, b: &str, options: JsValue) -> Result<JsValue, JsValue> {
    let options = Options::new(options)?;
    let level = level_of(&options, Level::Scheme)?;
    let ignore_fragment = options.boolean("ignoreFragment", false)?;
    let a = IriRef::parse(a).map_err(|e| parse_error(&e))?;
    let b = IriRef::parse(b).map_err(|e| parse_error(&e))?;
    Ok(nullable(
        iribis::normalize::compare(&a, &b, level, ignore_fragment).map(Level::name),
    ))
}

/// What one reader reads, as a plain object.
fn reading(r: &Reading) -> JsValue {
    let o: JsValue = Object::new().into();
    set(&o, "scheme", nullable(r.scheme.as_deref()));
    set(&o, "userinfo", nullable(r.userinfo.as_deref()));
    let host = r.host.as_ref().map(ToString::to_string);
    set(&o, "host", nullable(host.as_deref()));
    set(
        &o,
        "hostType",
        nullable(r.host.as_ref().map(ReadHost::kind_name)),
    );
    set(
        &o,
        "addressClass",
        nullable(
            r.host
                .as_ref()
                .and_then(ReadHost::address_class)
                .map(|c| c.name()),
        ),
    );
    set(&o, "port", nullable(r.port.as_deref()));
    set(&o, "path", nullable(r.path.as_deref()));
    set(&o, "query", nullable(r.query.as_deref()));
    set(&o, "fragment", nullable(r.fragment.as_deref()));
    o
}

/// Every reading of `s` (3987bis, browsers through the WHATWG URL Standard,
/// C resolvers' `inet_aton`, a reader that percent-decodes first) and where
/// they part after normalization, as `iri check` reports it.
#[wasm_bindgen(skip_typescript)]
pub fn readings(s: &str, options: JsValue) -> Result<JsValue, JsValue> {
    let profile = Options::new(options)?.profile()?;
    let r = IriRef::parse_with(s, &ParseOptions::new().profile(profile))
        .map_err(|e| parse_error(&e))?;
    let all = iribis::readings::readings(&r);
    let by_reader: JsValue = Object::new().into();
    for reader in Reader::ALL {
        set(&by_reader, reader.name(), JsValue::NULL);
    }
    for (reader, read) in all.all() {
        let value = match read {
            Ok(read) => reading(read),
            Err(rejection) => {
                let e: JsValue = Object::new().into();
                set(&e, "error", rejection.message.as_str());
                e
            }
        };
        set(&by_reader, reader.name(), value);
    }
    let differences: Array = all
        .differences()
        .iter()
        .map(|d| {
            let detail = all.detail(d);
            let o: JsValue = Object::new().into();
            set(&o, "code", d.code.name());
            set(&o, "component", d.component.name());
            set(&o, "byte", d.start as f64);
            let chars = |t: Option<&str>| t.map_or(0, |t| t.chars().count()) as f64;
            set(&o, "char", chars(s.get(..d.start)));
            set(&o, "len", chars(s.get(d.start..d.end)));
            set_reach(&o, &detail);
            set(&o, "message", d.message.as_str());
            o
        })
        .collect();
    let o: JsValue = Object::new().into();
    set(&o, "readings", by_reader);
    set(&o, "differences", differences);
    Ok(o)
}
