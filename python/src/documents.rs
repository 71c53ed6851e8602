//! `iribis.check_document`: the IRIs inside a document (N-Triples, N-Quads,
//! Turtle, TriG, RDF/XML, HTML, XML), read by the library's document
//! readers (`iribis_documents`) in any encoding their rules find, each
//! checked, as the records `iri check --from FORMAT --json` writes.

use std::path::PathBuf;

use iribis::check::{Checker, Report, Violation as Finding};
use std::io::Cursor;

use iribis_documents::{read, read_seekable, Format, Found, Options, Undecodable, What};
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyBool, PyDict, PyList, PyString};
use serde_json::Value;

/// One record, as Rust values: built without the GIL, turned into a dict
/// with it.
struct Record {
    found: Found,
    answer: Option<Result<Report, Undecodable>>,
}

/// The document: a path to read, or its bytes (a `bytes` object's read in
/// place, without a copy that a large document could not afford).
enum Source {
    Path(PathBuf),
    Backed(PyBackedBytes),
    Bytes(Vec<u8>),
}

/// The ``file:`` IRI of a path, from its absolute form (RFC 8089 §2):
/// every octet outside the unreserved characters and ``/`` percent-encoded.
fn file_iri(path: &std::path::Path) -> Option<String> {
    let absolute = std::path::absolute(path).ok()?;
    let text = absolute.to_str()?;
    let mut iri = String::from("file://");
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            iri.push(char::from(b));
        } else {
            iri.push_str(&format!("%{b:02X}"));
        }
    }
    Some(iri)
}

/// A finding as a dict: the library's serialization of it, the object
/// `iri check --json` writes (docs/schema/check.json), keys in its order.
fn violation<'py>(py: Python<'py>, v: &Finding) -> PyResult<Bound<'py, PyAny>> {
    let value = serde_json::to_value(v).map_err(|e| PyValueError::new_err(e.to_string()))?;
    python_value(py, &value)
}

/// A JSON value as Python has it: `None`, `bool`, `int`, `float`, `str`,
/// `list` or `dict` (in the value's key order).
pub(crate) fn python_value<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any(),
            (None, Some(i)) => i.into_pyobject(py)?.into_any(),
            (None, None) => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(python_value(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(entries) => {
            let dict = PyDict::new(py);
            for (key, item) in entries {
                dict.set_item(key, python_value(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

impl Record {
    fn into_dict<'py>(self, py: Python<'py>, format: Format) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let f = &self.found;
        d.set_item("input", f.written())?;
        match (&f.what, &self.answer) {
            (What::SyntaxError { message }, _) => {
                d.set_item("valid", false)?;
                d.set_item("violations", PyList::empty(py))?;
                let e = PyDict::new(py);
                e.set_item("format", format.name())?;
                e.set_item("message", message)?;
                e.set_item("byte", f.offset)?;
                d.set_item("syntax_error", e)?;
            }
            (_, Some(Ok(report))) => {
                d.set_item("valid", report.valid)?;
                let list = PyList::empty(py);
                for v in &report.violations {
                    list.append(violation(py, v)?)?;
                }
                d.set_item("violations", list)?;
            }
            (_, Some(Err(u))) => {
                d.set_item("valid", false)?;
                d.set_item("violations", PyList::empty(py))?;
                let written = f.written();
                let byte = written
                    .char_indices()
                    .nth(u.char)
                    .map_or(written.len(), |(i, _)| i);
                let e = PyDict::new(py);
                e.set_item("byte", byte)?;
                e.set_item("char", u.char)?;
                e.set_item("message", u.to_string())?;
                e.set_item("component", "input")?;
                e.set_item("expected", PyList::empty(py))?;
                e.set_item("spec", "3987bis §3.1")?;
                d.set_item("error", e)?;
            }
            (_, None) => {}
        }
        d.set_item("line", f.line)?;
        d.set_item("column", f.column)?;
        if !matches!(f.what, What::SyntaxError { .. }) {
            if let Some(resolved) = f.resolved() {
                d.set_item("resolved", resolved)?;
            }
        }
        d.set_item("encoding", f.encoding)?;
        Ok(d)
    }
}

/// The IRIs inside a document, each checked: a list of dicts, one per IRI
/// (and per syntax error of the document), in document order, with the
/// keys of ``iri check --from FORMAT --json``: ``input`` (as written, the
/// format's escapes decoded), ``valid``, ``violations`` (dicts with
/// ``code``, ``severity``, ``spec``, ``message``, ``byte``, ``char``,
/// ``len``, ``component``; a ``SYNTAX_ERROR`` adds ``expected``, a
/// ``READING_`` finding and ``HOST_NOT_ALLOWED`` ``readers``, ``reached``,
/// ``address_class`` and ``whatwg``), ``line`` and ``column`` (1-based, in
/// characters of the decoded text), ``resolved`` (a relative reference
/// resolved, or the IRI a name stands for), ``encoding`` (the WHATWG name
/// of the document's encoding); a syntax error has ``syntax_error``
/// (``format``, ``message``, ``byte``), an IRI whose octets the encoding
/// cannot decode an ``error``. A finding about the document as a whole has
/// an empty ``input`` and one violation: ``DOCUMENT_REPLACEMENT_ENCODING``
/// (an HTML page browsers decode as one U+FFFD: no IRI of it is given),
/// ``DOCUMENT_ENCODING_NOT_REREAD``. An HTML page whose ``<meta>`` after
/// the first 1,024 bytes changes its guessed encoding is read again from
/// the start, as browsers do (HTML §13.2.3.4).
///
/// ``path_or_bytes`` is a path (``str`` or ``os.PathLike``: then the base
/// is the file's ``file:`` IRI unless ``base`` is given) or the document's
/// ``bytes``. ``format`` is ``"ntriples"``, ``"nquads"``, ``"turtle"``,
/// ``"trig"``, ``"rdfxml"``, ``"html"`` or ``"xml"``; ``base`` an absolute
/// IRI; ``encoding`` a WHATWG label, as a transport layer's charset (a
/// byte order mark wins over it; for HTML and XML it wins over the
/// document's declaration). ``profile`` and ``severities`` are
/// :func:`check`'s. A bad argument raises ``ValueError``, a file that
/// cannot be read ``OSError``: a ``str`` is always a path, so a document's
/// text goes as ``bytes`` (``text.encode()``). The document is read in
/// constant memory (the records are what the list holds), without the GIL.
///
/// >>> import iribis
/// >>> page = '<meta charset="shift_jis"><a href="http://例え.jp/?q=日本">x</a>'.encode("shift_jis")
/// >>> [r] = iribis.check_document(page, format="html")
/// >>> r["input"], r["encoding"], r["line"], r["column"]
/// ('http://例え.jp/?q=日本', 'Shift_JIS', 1, 36)
/// >>> [v["code"] for v in r["violations"]]
/// ['QUERY_DOCUMENT_CHARSET']
/// >>> doc = b"@base <http://example.org/> . <a> <b> <c d> ."
/// >>> [(r["input"], r["valid"]) for r in iribis.check_document(doc, format="turtle")]
/// [('http://example.org/', True), ('a', True), ('b', True), ('c d', False)]
#[pyfunction]
#[pyo3(signature = (path_or_bytes, *, format, base = None, encoding = None, profile = "rfc3987bis", severities = None))]
pub(crate) fn check_document<'py>(
    py: Python<'py>,
    path_or_bytes: &Bound<'py, PyAny>,
    format: &str,
    base: Option<&str>,
    encoding: Option<&str>,
    profile: &str,
    severities: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let format: Format = format
        .parse()
        .map_err(|e: iribis::UnknownName| PyValueError::new_err(e.to_string()))?;
    let source = if path_or_bytes.is_instance_of::<pyo3::types::PyString>() {
        Source::Path(PathBuf::from(path_or_bytes.extract::<String>()?))
    } else if let Ok(bytes) = path_or_bytes.extract::<PyBackedBytes>() {
        Source::Backed(bytes)
    } else if let Ok(bytes) = path_or_bytes.extract::<Vec<u8>>() {
        Source::Bytes(bytes)
    } else if let Ok(path) = path_or_bytes.extract::<PathBuf>() {
        Source::Path(path)
    } else {
        return Err(PyTypeError::new_err(
            "path_or_bytes must be a path (str or os.PathLike) or bytes",
        ));
    };
    let mut options = Options::new(format);
    if let Some(label) = encoding {
        options = options
            .encoding(label)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    match (base, &source) {
        (Some(b), _) => {
            options = options
                .base(b)
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
        }
        // A file's own location, when it makes an IRI.
        (None, Source::Path(p)) => {
            if let Some(with_base) = file_iri(p).and_then(|iri| options.clone().base(&iri).ok()) {
                options = with_base;
            }
        }
        (None, Source::Backed(_) | Source::Bytes(_)) => {}
    }
    let check_options = crate::check_options(profile, severities)?;
    // A str is a path, even when it holds the document's text.
    let str_hint = if path_or_bytes.is_instance_of::<PyString>() {
        " (check_document takes a path as str and the document's content as bytes)"
    } else {
        ""
    };
    let records = py.detach(move || -> std::io::Result<Vec<Record>> {
        let mut checker = Checker::new(check_options);
        let mut records = Vec::new();
        let mut sink = |found: Found| {
            let answer = found.check(&mut checker);
            records.push(Record { found, answer });
            Ok(())
        };
        // Bytes and regular files can be read again from the start (an
        // HTML page whose late <meta> changes its encoding, HTML
        // §13.2.3.4), whatever their length; a pipe within its first MiB.
        match source {
            Source::Backed(bytes) => read_seekable(Cursor::new(&bytes[..]), &options, &mut sink)?,
            Source::Bytes(bytes) => read_seekable(Cursor::new(&bytes[..]), &options, &mut sink)?,
            Source::Path(path) => {
                let file = std::fs::File::open(&path).map_err(|e| {
                    std::io::Error::new(e.kind(), format!("{}: {e}{str_hint}", path.display()))
                })?;
                if file.metadata().is_ok_and(|m| m.is_file()) {
                    read_seekable(file, &options, &mut sink)?
                } else {
                    read(file, &options, &mut sink)?
                }
            }
        }
        Ok(records)
    });
    let records = records.map_err(|e| PyOSError::new_err(e.to_string()))?;
    let list = PyList::empty(py);
    for r in records {
        list.append(r.into_dict(py, format)?)?;
    }
    Ok(list)
}

/// Adds the document functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check_document, m)?)?;
    Ok(())
}
