//! `iribis.readings(s)`: what other software reads in an IRI, as the
//! library's `iribis::readings` gives it (browsers through the WHATWG URL
//! Standard, C resolvers' inet_aton, a reader that decodes first), as
//! plain Python dicts and lists.

use iribis::readings::{ReadHost, Reader, Reading, Readings};
use iribis::{IriRef, ParseOptions};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

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
    let out = PyDict::new(py);
    let by_reader = PyDict::new(py);
    for reader in Reader::ALL {
        by_reader.set_item(reader.name(), py.None())?;
    }
    for (reader, reading) in all.all() {
        match reading {
            Ok(reading) => by_reader.set_item(reader.name(), reading_dict(py, reading)?)?,
            Err(rejection) => {
                let d = PyDict::new(py);
                d.set_item("error", &rejection.message)?;
                by_reader.set_item(reader.name(), d)?;
            }
        }
    }
    out.set_item("readings", by_reader)?;
    out.set_item("differences", differences(py, s, &all)?)?;
    Ok(out)
}

fn reading_dict<'py>(py: Python<'py>, r: &Reading) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("scheme", r.scheme.as_deref())?;
    d.set_item("userinfo", r.userinfo.as_deref())?;
    d.set_item("host", r.host.as_ref().map(ToString::to_string))?;
    d.set_item("host_type", r.host.as_ref().map(ReadHost::kind_name))?;
    d.set_item(
        "address_class",
        r.host
            .as_ref()
            .and_then(ReadHost::address_class)
            .map(|c| c.name()),
    )?;
    d.set_item("port", r.port.as_deref())?;
    d.set_item("path", r.path.as_deref())?;
    d.set_item("query", r.query.as_deref())?;
    d.set_item("fragment", r.fragment.as_deref())?;
    Ok(d)
}

fn differences<'py>(py: Python<'py>, s: &str, all: &Readings) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for d in all.differences() {
        let detail = all.detail(d);
        let item = PyDict::new(py);
        item.set_item("code", d.code.name())?;
        item.set_item("component", d.component.name())?;
        item.set_item("byte", d.start)?;
        item.set_item("char", s.get(..d.start).map_or(0, |p| p.chars().count()))?;
        item.set_item(
            "len",
            s.get(d.start..d.end).map_or(0, |p| p.chars().count()),
        )?;
        let readers: Vec<&str> = d.readers.iter().map(|r| r.name()).collect();
        item.set_item("readers", readers)?;
        item.set_item("reached", detail.reached)?;
        item.set_item("address_class", detail.address_class.map(|c| c.name()))?;
        item.set_item("message", &d.message)?;
        list.append(item)?;
    }
    Ok(list)
}
