//! `iribis.readings(s)`: what other software reads in an IRI, as the
//! library's `iribis::readings` gives it (browsers through the WHATWG URL
//! Standard, C resolvers' inet_aton, a reader that decodes first), as
//! plain Python dicts and lists: the library's serialization of them.

use iribis::readings::ReadingsJson;
use iribis::{IriRef, ParseOptions};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::documents::python_value;
use crate::{parsed, profile_of, text};

/// Every reading of the IRI reference `s`, and where they part.
///
/// Returns a dict: ``"readings"`` maps each reader (``"rfc3987bis"``,
/// ``"whatwg"``, ``"inet_aton"``, ``"decoded"``) to its components
/// (``scheme``, ``userinfo``, ``host``, ``host_type``, ``address_class``,
/// ``port``, ``path``, ``query``, ``fragment``; ``None`` where it reads
/// none), to ``{"error": message}`` when it rejects ``s``, or to ``None``
/// when it does not read ``s`` (the WHATWG reader needs a scheme, inet_aton a
/// host that looks numeric, the decoding reader a percent-encoding in the
/// authority). ``"differences"`` lists where they part after normalization,
/// as ``iri check`` reports it: ``code`` (a ``READING_`` code),
/// ``component``, ``byte`` and ``char`` (offsets of the span), ``len`` (in
/// characters), ``readers``, ``reached`` (the host they reach),
/// ``address_class`` and ``message``. Raises :class:`ParseError` when ``s``
/// does not parse under ``profile``.
///
/// >>> import iribis
/// >>> r = iribis.readings("http://0x7f.1/a/%2e%2e/b")
/// >>> r["readings"]["whatwg"]["host"], r["readings"]["whatwg"]["path"]
/// ('127.0.0.1', '/b')
/// >>> r["readings"]["inet_aton"]["address_class"]
/// 'loopback'
/// >>> [d["code"] for d in r["differences"]]
/// ['READING_HOST_DIFFERS', 'READING_ENCODED_DOT_SEGMENT']
/// >>> iribis.readings("http://a.b.c.1.2.3.4/")["readings"]["whatwg"]
/// {'error': 'invalid IPv4 address'}
/// >>> iribis.readings("https://example.org/a")["differences"]
/// []
#[pyfunction]
#[pyo3(signature = (s, *, profile = "rfc3987bis"))]
pub(crate) fn readings<'py>(
    py: Python<'py>,
    s: &Bound<'_, PyString>,
    profile: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let profile = profile_of(profile)?;
    let input = text::read(s)?;
    let s = input.as_str();
    let r = parsed(
        py,
        &input,
        IriRef::parse_with(s, &ParseOptions::new().profile(profile)),
    )?;
    let all = iribis::readings::readings(&r);
    // The library's serialization, `iri parse --readings --json`'s shape.
    let value = serde_json::to_value(ReadingsJson::new(s, &all))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    python_value(py, &value)?
        .cast_into::<PyDict>()
        .map_err(Into::into)
}
