//! The native module of the `iribis` Python package, `iribis._iribis`: the
//! library's parse, check, conversions, resolution and normalization, and
//! their batch forms over lists and Arrow arrays (`batch`).
//!
//! Every function takes and returns Python values; the library does the
//! work. Names of profiles, rules, levels, presets, severities and codes are
//! the ones the `iri` command takes. A `str` argument is read in place
//! (`text`); a `str` that is not valid Unicode (lone surrogates) is no IRI:
//! the predicates answer `False`, the parsing functions raise `ParseError`.
//! Inputs of 64 KiB or more are worked on with the GIL released.

use iribis::check::{CheckOptions, Preset, Severities, Violation as Finding};
use iribis::convert::{ConvertError, ToIriOptions, ToUriOptions};
use iribis::normalize::Level;
use iribis::resolve::ResolveOptions;
use iribis::{Components, GrammarRule, Iri, IriRef, Profile};
use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

mod batch;
mod documents;
mod readings;
mod text;

use text::{detached, Text};

create_exception!(
    iribis,
    ParseError,
    PyValueError,
    "The input does not match the rule: where (``byte``, ``char``), in which\n\
     ``component``, why (``message``) and what could have stood there\n\
     (``expected``: literals in double quotes, ABNF rule names, ``the end``);\n\
     ``spec`` is the section the rule comes from.\n\
     ``str(e)`` is one line.\n\n\
     >>> import iribis\n\
     >>> try:\n\
     ...     iribis.parse('http://example.org/a b')\n\
     ... except iribis.ParseError as e:\n\
     ...     print(e.byte, e.char, e.component)\n\
     ...     print(e.message)\n\
     20 20 path\n\
     a space is not allowed in a path: percent-encode it as %20\n"
);

/// The Python exception for a library parse error, its details attached.
fn parse_error(py: Python<'_>, e: &iribis::ParseError) -> PyErr {
    let err = ParseError::new_err(e.to_string());
    let value = err.value(py);
    let expected = expected_of(e);
    let attach = || -> PyResult<()> {
        value.setattr("byte", e.byte())?;
        value.setattr("char", e.char())?;
        value.setattr("message", e.message())?;
        value.setattr("component", e.component().name())?;
        value.setattr("expected", expected)?;
        value.setattr("spec", e.spec())?;
        value.setattr("input", e.input())?;
        Ok(())
    };
    match attach() {
        Ok(()) => err,
        Err(other) => other,
    }
}

/// What could have stood at an error's position, as every report of the
/// library and the `iri` command writes it: literals in double quotes
/// (`"?"`), rules by ABNF name, `the end`.
pub(crate) fn expected_of(e: &iribis::ParseError) -> Vec<String> {
    e.expected_all().iter().map(ToString::to_string).collect()
}

/// A profile by name, or `ValueError`.
pub(crate) fn profile_of(name: &str) -> PyResult<Profile> {
    name.parse()
        .map_err(|e: iribis::UnknownName| PyValueError::new_err(e.to_string()))
}

/// A start rule and the profile it is parsed under, found by the library
/// ([`GrammarRule::lookup`]); the library picks the fast path for the
/// reference rules.
#[derive(Clone, Copy)]
pub(crate) struct Start {
    rule: GrammarRule,
    profile: Profile,
}

impl Start {
    /// `IRI-reference` under `rfc3987bis`, the defaults.
    pub(crate) const DEFAULT: Start = Start {
        rule: GrammarRule::IRI_REFERENCE,
        profile: Profile::Rfc3987bis,
    };

    /// The start of `rule` (an ABNF or pest name) under `profile`, or
    /// `ValueError` when there is no such rule in that profile.
    pub(crate) fn new(rule: &str, profile: &str) -> PyResult<Start> {
        // The defaults first: most calls give neither, and comparing two
        // strings costs less than the lookups below (a tenth of a short
        // reference's parse).
        if rule == "IRI-reference" && profile == "rfc3987bis" {
            return Ok(Start::DEFAULT);
        }
        let profile = profile_of(profile)?;
        let rule =
            GrammarRule::lookup(rule, profile).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Start { rule, profile })
    }

    /// Parses `s` from this start rule.
    pub(crate) fn parse<'a>(self, s: &'a str) -> Result<Components<'a>, iribis::ParseError> {
        Components::parse(s, self.rule, self.profile)
    }

    /// Whether `s` matches the rule.
    pub(crate) fn accepts(self, s: &str) -> bool {
        self.rule.matches(s, self.profile)
    }
}

/// A parsed IRI reference: its text and components.
///
/// A component is ``None`` when absent and ``""`` when empty
/// (``http://h?`` has an empty query, ``http://h`` none). ``port`` is the
/// text as written; ``port_number`` the number, when it fits in 16 bits.
/// ``host_type`` is ``"reg-name"``, ``"IPv4address"``, ``"IPv6address"`` or
/// ``"IPvFuture"``. For a start rule below the reference level (``ihost``,
/// ``iauthority``...), the components the rule does not have are ``None``,
/// the path too.
///
/// >>> import iribis
/// >>> r = iribis.parse("http://user@[2001:db8::7]:8080/résumé?q#")
/// >>> r.scheme, r.userinfo, r.host, r.host_type, r.port_number
/// ('http', 'user', '[2001:db8::7]', 'IPv6address', 8080)
/// >>> r.path, r.query, r.fragment
/// ('/résumé', 'q', '')
/// >>> str(r)
/// 'http://user@[2001:db8::7]:8080/résumé?q#'
/// >>> r == "http://user@[2001:db8::7]:8080/résumé?q#"
/// True
#[pyclass(frozen, module = "iribis", name = "IriRef")]
pub struct PyIriRef {
    text: String,
    #[pyo3(get)]
    scheme: Option<String>,
    #[pyo3(get)]
    authority: Option<String>,
    #[pyo3(get)]
    userinfo: Option<String>,
    #[pyo3(get)]
    host: Option<String>,
    #[pyo3(get)]
    host_type: Option<&'static str>,
    #[pyo3(get)]
    port: Option<String>,
    #[pyo3(get)]
    port_number: Option<u16>,
    #[pyo3(get)]
    path: Option<String>,
    #[pyo3(get)]
    query: Option<String>,
    #[pyo3(get)]
    fragment: Option<String>,
}

#[pymethods]
impl PyIriRef {
    fn __str__(&self) -> &str {
        &self.text
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("IriRef({})", PyString::new(py, &self.text).repr()?))
    }

    /// Equal to another `IriRef` or a `str` with the same text (simple
    /// string comparison, RFC 3987 §5.3.1).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        if let Ok(r) = other.cast::<PyIriRef>() {
            return r.get().text == self.text;
        }
        other
            .cast::<PyString>()
            .is_ok_and(|s| s.to_cow().is_ok_and(|s| s == self.text))
    }

    /// The hash of the text, as `str`'s, so that `IriRef` and `str` keys
    /// agree.
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        PyString::new(py, &self.text).hash()
    }
}

/// Parses `s` from the start rule `rule` (an ABNF rule name such as
/// ``IRI-reference``, ``IRI``, ``absolute-IRI``, ``irelative-ref``, ``ihost``;
/// the pest spelling ``IRI_reference`` works too) under `profile`
/// (``rfc3987bis``, ``rfc3987``, ``rfc3986`` or ``leiri``).
///
/// Raises :class:`ParseError` when `s` does not match, ``ValueError`` for an
/// unknown rule or profile.
///
/// >>> import iribis
/// >>> iribis.parse("../a?b").path
/// '../a'
/// >>> iribis.parse("例え.jp", rule="ihost").host_type
/// 'reg-name'
/// >>> iribis.parse("http://例え.jp/", profile="rfc3986")
/// Traceback (most recent call last):
/// ...
/// iribis.ParseError: invalid URI reference at character 7: '例' (U+4F8B) is not allowed in a URI, which is ASCII only: percent-encode it as %E4%BE%8B
#[pyfunction]
#[pyo3(signature = (s, *, rule = "IRI-reference", profile = "rfc3987bis"))]
fn parse(py: Python<'_>, s: &Bound<'_, PyString>, rule: &str, profile: &str) -> PyResult<PyIriRef> {
    let start = Start::new(rule, profile)?;
    let input = text::read(s)?;
    let s = input.as_str();
    let c = parsed(py, &input, detached(py, s.len(), || start.parse(s)))?;
    let owned = |o: Option<&str>| o.map(str::to_owned);
    Ok(PyIriRef {
        text: s.to_owned(),
        scheme: owned(c.scheme()),
        authority: owned(c.authority()),
        userinfo: owned(c.userinfo()),
        host: owned(c.host_str()),
        host_type: c.host().map(|h| h.kind_name()),
        port: owned(c.port()),
        port_number: c.port().and_then(|p| p.parse().ok()),
        path: owned(c.path()),
        query: owned(c.query()),
        fragment: owned(c.fragment()),
    })
}

/// Whether `s` matches the start rule `rule` under `profile` (see
/// :func:`parse`).
///
/// >>> import iribis
/// >>> iribis.is_valid("http://例え.jp/résumé")
/// True
/// >>> iribis.is_valid("http://例え.jp/", profile="rfc3986")
/// False
/// >>> iribis.is_valid("//h/p", rule="IRI")
/// False
/// >>> iribis.is_valid("[::1]", rule="IP-literal")
/// True
/// >>> iribis.is_valid("http://h/\ud800")   # a lone surrogate: not Unicode
/// False
// The defaults are `None` to PyO3 and named by the text signature and the
// stub: a call that gives neither keyword, the common one, compares no
// strings, 56 instructions a call fewer (callgrind, docs/python.md).
// `None` given by the caller is the default too.
#[pyfunction]
#[pyo3(
    signature = (s, *, rule = None, profile = None),
    text_signature = "(s, *, rule='IRI-reference', profile='rfc3987bis')"
)]
fn is_valid(
    py: Python<'_>,
    s: &Bound<'_, PyString>,
    rule: Option<&str>,
    profile: Option<&str>,
) -> PyResult<bool> {
    let start = match (rule, profile) {
        (None, None) => Start::DEFAULT,
        _ => Start::new(
            rule.unwrap_or("IRI-reference"),
            profile.unwrap_or("rfc3987bis"),
        )?,
    };
    Ok(match text::utf8(s)? {
        Some(s) => detached(py, s.len(), || start.accepts(s)),
        None => false,
    })
}

/// The value of a library call on `input`'s text, or its error as a
/// Python exception: `ParseError` with the details, about the first lone
/// surrogate of a string that has them (unless an error comes before it).
pub(crate) fn parsed<T>(
    py: Python<'_>,
    input: &Text<'_, '_>,
    result: Result<T, iribis::ParseError>,
) -> PyResult<T> {
    match (input, result) {
        (Text::Utf8(_), Ok(value)) => Ok(value),
        (Text::Utf8(_), Err(e)) => Err(parse_error(py, &e)),
        (Text::Unpaired(u, s), result) => Err(u.error(py, result.err().as_ref(), s)),
    }
}

/// Parses `s` as an IRI (with a scheme), for the functions that need one.
fn iri<'a>(py: Python<'_>, s: &'a Text<'_, '_>, what: &str) -> PyResult<Iri<&'a str>> {
    let text = s.as_str();
    match (Iri::parse(text), s) {
        (Err(_), Text::Utf8(_)) if IriRef::parse(text).is_ok() => {
            Err(PyValueError::new_err(format!(
                "the {what} {text:?} is a relative reference: it must be an IRI, with a scheme (RFC 3986 §5.1)"
            )))
        }
        (result, _) => parsed(py, s, result),
    }
}

/// Resolves the reference `ref` against the IRI `base` (RFC 3986 §5.2; the
/// base's fragment is ignored). With ``strict=False``, a reference whose
/// scheme equals the base's is read as if it had none (``http:g``).
///
/// Raises :class:`ParseError` when either does not parse, ``ValueError``
/// when the base is a relative reference.
///
/// >>> import iribis
/// >>> iribis.resolve("http://a/b/c/d;p?q", "../../g")
/// 'http://a/g'
/// >>> iribis.resolve("http://例え.jp/a/b", "../c?d#e")
/// 'http://例え.jp/c?d#e'
/// >>> iribis.resolve("http://a/b", "http:g", strict=False)
/// 'http://a/g'
#[pyfunction]
#[pyo3(signature = (base, r#ref, *, strict = true))]
fn resolve(
    py: Python<'_>,
    base: &Bound<'_, PyString>,
    r#ref: &Bound<'_, PyString>,
    strict: bool,
) -> PyResult<String> {
    let (base, r#ref) = (text::read(base)?, text::read(r#ref)?);
    let len = base.as_str().len() + r#ref.as_str().len();
    let base = iri(py, &base, "base")?;
    let reference = parsed(py, &r#ref, IriRef::parse(r#ref.as_str()))?;
    let options = ResolveOptions::new().strict(strict);
    Ok(detached(py, len, || {
        base.resolve_with(&reference, &options).into_string()
    }))
}

/// The shortest reference that resolves against `base` to `target`, the
/// inverse of :func:`resolve`. Both must be IRIs.
///
/// >>> import iribis
/// >>> iribis.relativize("http://a/b/c/d;p?q", "http://a/b/e/f?x#y")
/// '../e/f?x#y'
/// >>> iribis.resolve("http://a/b/c/d;p?q", "../e/f?x#y")
/// 'http://a/b/e/f?x#y'
#[pyfunction]
fn relativize(
    py: Python<'_>,
    base: &Bound<'_, PyString>,
    target: &Bound<'_, PyString>,
) -> PyResult<String> {
    let (base, target) = (text::read(base)?, text::read(target)?);
    let len = base.as_str().len() + target.as_str().len();
    let base = iri(py, &base, "base")?;
    let target = iri(py, &target, "target")?;
    Ok(detached(py, len, || base.relativize(&target).into_string()))
}

/// A normalization level by name, or `ValueError`.
fn level_of(name: &str) -> PyResult<Level> {
    name.parse()
        .map_err(|e: iribis::UnknownName| PyValueError::new_err(e.to_string()))
}

/// The normal form of `s` at `level`: ``"simple"`` (unchanged),
/// ``"syntax"`` (RFC 3987 §5.3.2: case, percent-encodings, dot segments) or
/// ``"scheme"`` (§5.3.3: also default ports, empty paths and IDN hosts).
///
/// >>> import iribis
/// >>> iribis.normalize("HTTP://www.Example.ORG/%7euser/./a/../b")
/// 'http://www.example.org/~user/b'
/// >>> iribis.normalize("HTTP://xn--rsum-bpad.Example:80", level="scheme")
/// 'http://résumé.example/'
#[pyfunction]
#[pyo3(signature = (s, level = "syntax"))]
fn normalize(py: Python<'_>, s: &Bound<'_, PyString>, level: &str) -> PyResult<String> {
    let level = level_of(level)?;
    let input = text::read(s)?;
    let s = input.as_str();
    let normal = detached(py, s.len(), || {
        IriRef::parse(s).map(|r| r.normalize_with(level).into_string())
    });
    parsed(py, &input, normal)
}

/// The lowest rung of the comparison ladder (RFC 3987 §5.3), up to `level`,
/// at which `a` and `b` are equivalent: ``"simple"``, ``"syntax"`` or
/// ``"scheme"``; ``None`` when they differ at every rung up to `level`.
/// With ``ignore_fragment=True`` fragments are left out (§5.1).
///
/// >>> import iribis
/// >>> iribis.compare("http://example.org/~a", "HTTP://example.org:80/%7Ea")
/// 'scheme'
/// >>> iribis.compare("http://example.org/~a", "HTTP://example.org/%7Ea", level="syntax")
/// 'syntax'
/// >>> iribis.compare("http://a/", "http://b/") is None
/// True
#[pyfunction]
#[pyo3(signature = (a, b, level = "scheme", *, ignore_fragment = false))]
fn compare(
    py: Python<'_>,
    a: &Bound<'_, PyString>,
    b: &Bound<'_, PyString>,
    level: &str,
    ignore_fragment: bool,
) -> PyResult<Option<&'static str>> {
    let level = level_of(level)?;
    let (a, b) = (text::read(a)?, text::read(b)?);
    let len = a.as_str().len() + b.as_str().len();
    let a = parsed(py, &a, IriRef::parse(a.as_str()))?;
    let b = parsed(py, &b, IriRef::parse(b.as_str()))?;
    Ok(detached(py, len, || {
        iribis::normalize::compare(&a, &b, level, ignore_fragment).map(Level::name)
    }))
}

/// A conversion error as a Python exception: the parse error, or
/// `ValueError` (IDNA, unknown charset).
fn convert_error(py: Python<'_>, e: &ConvertError) -> PyErr {
    match e {
        ConvertError::Parse(p) => parse_error(py, p),
        other => PyValueError::new_err(other.to_string()),
    }
}

/// The value of a conversion of `input`'s text, or its error as a Python
/// exception; for a string with lone surrogates, always the parse error
/// (the stand-in text never converts: it never parses).
fn converted(
    py: Python<'_>,
    input: &Text<'_, '_>,
    result: Result<String, ConvertError>,
) -> PyResult<String> {
    match (input, result) {
        (Text::Utf8(_), Ok(value)) => Ok(value),
        (Text::Utf8(_), Err(e)) => Err(convert_error(py, &e)),
        (Text::Unpaired(u, s), Err(ConvertError::Parse(e))) => Err(u.error(py, Some(&e), s)),
        (Text::Unpaired(u, s), _) => Err(u.error(py, None, s)),
    }
}

/// IRI → URI (3987bis §3): every character not allowed in a URI becomes
/// the ``%HH`` of its UTF-8 octets. With ``idna=True`` registered names go
/// through IDNA (``xn--``) instead (§3.4.2); `query_charset` is the WHATWG
/// label of the document charset of an http(s) query (§3.5); with
/// ``profile="leiri"`` a LEIRI's extra characters are encoded too.
///
/// >>> import iribis
/// >>> iribis.to_uri("http://résumé.example.org/日本")
/// 'http://r%C3%A9sum%C3%A9.example.org/%E6%97%A5%E6%9C%AC'
/// >>> iribis.to_uri("http://résumé.example.org/", idna=True)
/// 'http://xn--rsum-bpad.example.org/'
/// >>> iribis.to_uri("http://h/?q=é", query_charset="windows-1252")
/// 'http://h/?q=%E9'
#[pyfunction]
#[pyo3(signature = (s, *, idna = false, query_charset = None, profile = "rfc3987bis"))]
fn to_uri(
    py: Python<'_>,
    s: &Bound<'_, PyString>,
    idna: bool,
    query_charset: Option<&str>,
    profile: &str,
) -> PyResult<String> {
    let mut options = ToUriOptions::new().idna(idna).profile(profile_of(profile)?);
    if let Some(label) = query_charset {
        options = options
            .query_charset(label)
            .map_err(|e| convert_error(py, &e))?;
    }
    let input = text::read(s)?;
    let s = input.as_str();
    let uri = detached(py, s.len(), || iribis::to_uri(s, &options));
    converted(py, &input, uri)
}

/// URI → IRI (3987bis §4.2): percent-encoded UTF-8 decoded where the
/// character is allowed and safe to show; with ``idna=True`` (the default)
/// ``xn--`` labels of DNS hosts become Unicode, unless they fail the host
/// spoofing checks.
///
/// >>> import iribis
/// >>> iribis.to_iri("http://xn--99zt52a.example.org/D%C3%BCrst")
/// 'http://納豆.example.org/Dürst'
/// >>> iribis.to_iri("http://xn--99zt52a.example.org/", idna=False)
/// 'http://xn--99zt52a.example.org/'
#[pyfunction]
#[pyo3(signature = (s, *, idna = true))]
fn to_iri(py: Python<'_>, s: &Bound<'_, PyString>, idna: bool) -> PyResult<String> {
    let input = text::read(s)?;
    let s = input.as_str();
    let options = ToIriOptions::new().idna(idna);
    let iri = detached(py, s.len(), || iribis::to_iri(s, &options));
    converted(py, &input, iri)
}

/// One finding of :func:`check`: its stable ``code``, ``severity``
/// (``"info"``, ``"warning"`` or ``"error"``), the ``spec`` section it rests
/// on, a ``message`` about this input, and its span: ``byte`` and ``char``
/// offsets of its start, ``len`` in characters, and the ``component``.
///
/// >>> import iribis
/// >>> v = iribis.check("http://example.org/a/./b")[0]
/// >>> v
/// Violation(code='DOT_SEGMENT', severity='warning', byte=21, char=21, len=1, component='path')
/// >>> v.spec
/// 'RFC 3986 §3.3'
#[pyclass(frozen, eq, module = "iribis")]
#[derive(PartialEq)]
pub struct Violation {
    #[pyo3(get)]
    code: &'static str,
    #[pyo3(get)]
    severity: &'static str,
    #[pyo3(get)]
    spec: &'static str,
    #[pyo3(get)]
    message: String,
    #[pyo3(get)]
    byte: usize,
    #[pyo3(get)]
    char: usize,
    #[pyo3(get)]
    len: usize,
    #[pyo3(get)]
    component: &'static str,
    /// On a `READING_` finding and `HOST_NOT_ALLOWED`: the readers that
    /// read the input otherwise (empty on the other codes).
    #[pyo3(get)]
    readers: Vec<&'static str>,
    /// The host they reach, in canonical form, when they reach one.
    #[pyo3(get)]
    reached: Option<String>,
    /// Its class (`loopback`, `private`, `link-local`...), when it is an IP
    /// address.
    #[pyo3(get)]
    address_class: Option<&'static str>,
    /// The host and path the WHATWG URL Standard reads, when it reads the
    /// input (a `READING_` finding).
    whatwg: Option<(Option<String>, String)>,
}

impl From<Finding> for Violation {
    fn from(v: Finding) -> Violation {
        let detail = v.detail.as_deref();
        Violation {
            code: v.code.name(),
            severity: v.severity.name(),
            spec: v.spec,
            byte: v.byte,
            char: v.char,
            len: v.len,
            component: v.component.name(),
            readers: detail.map_or_else(Vec::new, |d| d.readers.iter().map(|r| r.name()).collect()),
            reached: detail.and_then(|d| d.reached.clone()),
            address_class: detail.and_then(|d| d.address_class).map(|c| c.name()),
            whatwg: detail
                .and_then(|d| d.whatwg.as_ref())
                .map(|w| (w.host.clone(), w.path.clone())),
            message: v.message,
        }
    }
}

#[pymethods]
impl Violation {
    /// ``{"host": ..., "path": ...}`` as the WHATWG URL Standard reads the
    /// input, on a ``READING_`` finding where it reads it; else ``None``.
    ///
    /// >>> import iribis
    /// >>> [v] = [v for v in iribis.check("http://0x7f.1/") if v.code == "READING_HOST_DIFFERS"]
    /// >>> v.readers, v.reached, v.address_class, v.whatwg
    /// (['whatwg', 'inet_aton'], '127.0.0.1', 'loopback', {'host': '127.0.0.1', 'path': '/'})
    #[getter]
    fn whatwg<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some((host, path)) = &self.whatwg else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        d.set_item("host", host.as_deref())?;
        d.set_item("path", path)?;
        Ok(Some(d))
    }

    fn __repr__(&self) -> String {
        format!(
            "Violation(code='{}', severity='{}', byte={}, char={}, len={}, component='{}')",
            self.code, self.severity, self.byte, self.char, self.len, self.component
        )
    }
}

/// The check options of `profile` and `severities`: a preset name
/// (``default``, ``strict``, ``leiri``) or a mapping from code names to
/// severity names, with the preset under the key ``"preset"``; `None` for
/// the default preset.
pub(crate) fn check_options(
    profile: &str,
    severities: Option<&Bound<'_, PyAny>>,
) -> PyResult<CheckOptions> {
    let unknown = |e: iribis::UnknownName| PyValueError::new_err(e.to_string());
    let Some(severities) = severities else {
        return Ok(CheckOptions::new().profile(profile_of(profile)?));
    };
    let severities = if let Ok(name) = severities.extract::<String>() {
        Severities::new(name.parse::<Preset>().map_err(unknown)?)
    } else if let Ok(map) = severities.cast::<PyDict>() {
        let pairs = map
            .iter()
            .map(|(k, v)| Ok((k.extract::<String>()?, v.extract::<String>()?)))
            .collect::<PyResult<Vec<(String, String)>>>()?;
        Severities::from_pairs(pairs).map_err(unknown)?
    } else {
        return Err(PyTypeError::new_err(
            "severities must be a preset name or a dict of code names to severities",
        ));
    };
    Ok(CheckOptions::new()
        .profile(profile_of(profile)?)
        .severities(severities))
}

/// The conformance report of `s`: every finding not allowed by
/// `severities`, in input order. `severities` is a preset (``"default"``,
/// ``"strict"``, ``"leiri"``) or a dict of code names to severities
/// (``"allow"``, ``"info"``, ``"warning"``, ``"error"``), with an optional
/// ``"preset"`` key. An input that does not parse gets one
/// ``SYNTAX_ERROR``.
///
/// >>> import iribis
/// >>> [v.code for v in iribis.check("HTTP://example.org:80/a/./b?%7e")]
/// ['UPPERCASE_SCHEME', 'DEFAULT_PORT', 'DOT_SEGMENT', 'PERCENT_ENCODED_UNRESERVED', 'PERCENT_ENCODING_LOWERCASE']
/// >>> [(v.code, v.severity) for v in iribis.check("http://h/a b")]
/// [('SYNTAX_ERROR', 'error')]
/// >>> iribis.check("http://h/./a", severities={"DOT_SEGMENT": "allow"})
/// []
#[pyfunction]
#[pyo3(signature = (s, *, profile = "rfc3987bis", severities = None))]
fn check(
    py: Python<'_>,
    s: &Bound<'_, PyString>,
    profile: &str,
    severities: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<Violation>> {
    let options = check_options(profile, severities)?;
    let input = text::read(s)?;
    let len = input.as_str().len();
    let report = match &input {
        Text::Utf8(s) => detached(py, len, || iribis::check(s, &options)),
        Text::Unpaired(u, _) => detached(py, len, || u.check(&options)),
    };
    Ok(report.violations.into_iter().map(Violation::from).collect())
}

#[pymodule]
fn _iribis(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ParseError", m.py().get_type::<ParseError>())?;
    m.add_class::<PyIriRef>()?;
    m.add_class::<Violation>()?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(is_valid, m)?)?;
    m.add_function(wrap_pyfunction!(resolve, m)?)?;
    m.add_function(wrap_pyfunction!(relativize, m)?)?;
    m.add_function(wrap_pyfunction!(normalize, m)?)?;
    m.add_function(wrap_pyfunction!(compare, m)?)?;
    m.add_function(wrap_pyfunction!(to_uri, m)?)?;
    m.add_function(wrap_pyfunction!(to_iri, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(readings::readings, m)?)?;
    batch::register(m)?;
    documents::register(m)?;
    Ok(())
}
