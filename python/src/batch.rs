//! Batches: `is_valid_many` and `check_many` over a list of strings or an
//! Arrow string array.
//!
//! An Arrow array comes in through the Arrow C data interface (its
//! `__arrow_c_array__` PyCapsules) without copying its buffers; arrow-pyarrow
//! validates it (offsets, UTF-8) before it is read, so no foreign buffer is
//! trusted. The work runs with the GIL released; a list's strings are
//! copied out first, while the GIL is held.

use std::sync::Arc;

use arrow_array::{make_array, Int64Array};
use arrow_array::{
    Array, ArrayRef, BooleanArray, LargeStringArray, ListArray, StringArray, StringViewArray,
    StructArray,
};
use arrow_buffer::{BooleanBuffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_data::ArrayData;
use arrow_pyarrow::{FromPyArrow, ToPyArrow};
use arrow_schema::{DataType, Field, Fields};
use iribis::check::{CheckOptions, Report};
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::{check_options, Start, Violation};

/// The strings of a batch, nulls included.
enum Items {
    /// An Arrow `string`, `large_string` or `string_view` array.
    Arrow(ArrayRef),
    /// The items of a Python iterable: `str` or `None`, their UTF-8 held
    /// by Python (no copy where the interpreter keeps it).
    List(Vec<Option<PyBackedStr>>),
}

impl Items {
    /// Reads `items`: an object with `__arrow_c_array__` (a pyarrow array)
    /// zero-copy, else any iterable of `str` and `None`.
    fn read(items: &Bound<'_, PyAny>) -> PyResult<Items> {
        if items.hasattr("__arrow_c_array__")? {
            let data = ArrayData::from_pyarrow_bound(items)?;
            return match data.data_type() {
                DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => {
                    Ok(Items::Arrow(make_array(data)))
                }
                other => Err(PyTypeError::new_err(format!(
                    "expected an Arrow array of strings (string, large_string or string_view), not {other}"
                ))),
            };
        }
        let mut list = Vec::with_capacity(items.len().unwrap_or(0));
        for item in items.try_iter()? {
            let item = item?;
            list.push(if item.is_none() {
                None
            } else {
                Some(item.extract::<PyBackedStr>()?)
            });
        }
        Ok(Items::List(list))
    }

    /// The items by index, whatever holds them.
    fn view(&self) -> View<'_> {
        match self {
            Items::List(list) => View::List(list),
            Items::Arrow(array) => {
                let any = array.as_any();
                if let Some(a) = any.downcast_ref::<StringArray>() {
                    View::Utf8(a)
                } else if let Some(a) = any.downcast_ref::<LargeStringArray>() {
                    View::Large(a)
                } else if let Some(a) = any.downcast_ref::<StringViewArray>() {
                    View::Views(a)
                } else {
                    View::List(&[])
                }
            }
        }
    }

    /// `f` on each item, in order, on every core for a large batch: the
    /// items are cut into one contiguous run per thread and the results
    /// joined in order (the GIL is released by the caller).
    fn map<T: Send>(&self, f: impl Fn(Option<&str>) -> T + Sync) -> Vec<T> {
        let view = self.view();
        let n = view.len();
        let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
        // Below a few thousand items a thread costs more than it saves.
        let threads = cores.min(n / 4096).max(1);
        if threads == 1 {
            return (0..n).map(|i| f(view.get(i))).collect();
        }
        let per = n.div_ceil(threads);
        let (f, view) = (&f, &view);
        std::thread::scope(|scope| {
            let runs: Vec<_> = (0..threads)
                .map(|t| {
                    scope.spawn(move || {
                        (t * per..((t + 1) * per).min(n))
                            .map(|i| f(view.get(i)))
                            .collect::<Vec<T>>()
                    })
                })
                .collect();
            let mut out = Vec::with_capacity(n);
            for run in runs {
                match run.join() {
                    Ok(part) => out.extend(part),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            out
        })
    }

    /// The nulls of an Arrow array.
    fn nulls(&self) -> Option<NullBuffer> {
        match self {
            Items::Arrow(array) => array.logical_nulls(),
            Items::List(_) => None,
        }
    }
}

/// The items of a batch by index.
enum View<'a> {
    List(&'a [Option<PyBackedStr>]),
    Utf8(&'a StringArray),
    Large(&'a LargeStringArray),
    Views(&'a StringViewArray),
}

impl<'a> View<'a> {
    fn len(&self) -> usize {
        match self {
            View::List(l) => l.len(),
            View::Utf8(a) => a.len(),
            View::Large(a) => a.len(),
            View::Views(a) => a.len(),
        }
    }

    /// Item `i`, `None` where it is null.
    fn get(&self, i: usize) -> Option<&'a str> {
        match self {
            View::List(l) => l[i].as_deref(),
            View::Utf8(a) => (!a.is_null(i)).then(|| a.value(i)),
            View::Large(a) => (!a.is_null(i)).then(|| a.value(i)),
            View::Views(a) => (!a.is_null(i)).then(|| a.value(i)),
        }
    }
}

/// Whether each item matches the start rule `rule` under `profile`:
/// a list of ``bool`` (``None`` for ``None``) for a list, a pyarrow
/// ``BooleanArray`` with the input's nulls for an Arrow array (a
/// ``ChunkedArray`` for a ``ChunkedArray``, chunk by chunk). The GIL is
/// released while the items are parsed.
///
/// >>> import iribis, pyarrow as pa
/// >>> iribis.is_valid_many(["http://例え.jp/", "a b", None])
/// [True, False, None]
/// >>> iribis.is_valid_many(pa.array(["http://h/", "%zz", None], pa.large_string())).to_pylist()
/// [True, False, None]
#[pyfunction]
#[pyo3(signature = (items, *, rule = "IRI-reference", profile = "rfc3987bis"))]
fn is_valid_many<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    rule: &str,
    profile: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let start = Start::new(rule, profile)?;
    if let Some(out) = per_chunk(items, |c| is_valid_many(py, c, rule, profile))? {
        return Ok(out);
    }
    let items = Items::read(items)?;
    let valid = py.detach(|| items.map(|s| s.map(|s| start.accepts(s))));
    match items {
        Items::List(_) => Ok(PyList::new(py, valid)?.into_any()),
        Items::Arrow(_) => {
            let values: BooleanBuffer = valid.iter().map(|v| v.unwrap_or(false)).collect();
            BooleanArray::new(values, items.nulls())
                .to_data()
                .to_pyarrow(py)
        }
    }
}

/// For a pyarrow `ChunkedArray` (a table's column): `f` on each chunk, the
/// results as a `ChunkedArray` (of `f`'s type even without chunks); `None`
/// for anything else.
fn per_chunk<'py>(
    items: &Bound<'py, PyAny>,
    f: impl Fn(&Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = items.py();
    if items.hasattr("__arrow_c_array__")?
        || !items.hasattr("__arrow_c_stream__")?
        || !items.hasattr("chunks")?
    {
        return Ok(None);
    }
    let pa = py.import("pyarrow")?;
    let empty = pa.call_method1("array", (PyList::empty(py), pa.call_method0("string")?))?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("type", f(&empty)?.getattr("type")?)?;
    let mut out = Vec::new();
    for chunk in items.getattr("chunks")?.try_iter()? {
        out.push(f(&chunk?)?);
    }
    Ok(Some(pa.call_method(
        "chunked_array",
        (out,),
        Some(&kwargs),
    )?))
}

/// The reports of every item, computed with the GIL released.
fn reports(py: Python<'_>, items: &Items, options: &CheckOptions) -> Vec<Option<Report>> {
    py.detach(|| items.map(|s| s.map(|s| iribis::check(s, options))))
}

/// :func:`check` on each item: for a list, a list of lists of
/// :class:`Violation` (``None`` for ``None``); for an Arrow array, a pyarrow
/// ``ListArray`` of structs ``{code, severity, spec, message, byte, char,
/// len, component}``, null where the input is (a ``ChunkedArray`` of them
/// for a ``ChunkedArray``). The GIL is released while the items are
/// checked.
///
/// >>> import iribis, pyarrow as pa
/// >>> [[v.code for v in vs] if vs is not None else None
/// ...  for vs in iribis.check_many(["http://h/./a", "http://h/", None])]
/// [['DOT_SEGMENT'], [], None]
/// >>> out = iribis.check_many(pa.array(["http://h/a b", None]))
/// >>> out.to_pylist()[0][0]["code"], out.to_pylist()[1]
/// ('SYNTAX_ERROR', None)
#[pyfunction]
#[pyo3(signature = (items, *, profile = "rfc3987bis", severities = None))]
fn check_many<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    profile: &str,
    severities: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let options = check_options(profile, severities)?;
    if let Some(out) = per_chunk(items, |c| check_many(py, c, profile, severities))? {
        return Ok(out);
    }
    let items = Items::read(items)?;
    let reports = reports(py, &items, &options);
    match items {
        Items::List(_) => {
            let lists = reports
                .into_iter()
                .map(|r| {
                    r.map(|r| {
                        r.violations
                            .into_iter()
                            .map(Violation::from)
                            .collect::<Vec<_>>()
                    })
                })
                .collect::<Vec<_>>();
            Ok(PyList::new(py, lists)?.into_any())
        }
        Items::Arrow(_) => {
            let nulls = items.nulls();
            violations_array(reports, nulls)?.to_data().to_pyarrow(py)
        }
    }
}

/// For `iribis.spark`: the reports of an Arrow string array as two arrays,
/// whether each item is valid (`Report::valid`) and its codes
/// (`list<string>`), both null where the input is.
#[pyfunction]
#[pyo3(signature = (items, *, profile = "rfc3987bis", severities = None))]
fn _valid_and_codes<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    profile: &str,
    severities: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyTuple>> {
    let options = check_options(profile, severities)?;
    let items = Items::read(items)?;
    if let Items::List(_) = items {
        return Err(PyTypeError::new_err("expected an Arrow array of strings"));
    }
    let reports = reports(py, &items, &options);
    let nulls = items.nulls();
    let valid: BooleanBuffer = reports
        .iter()
        .map(|r| r.as_ref().is_some_and(|r| r.valid))
        .collect();
    let valid = BooleanArray::new(valid, nulls.clone());
    let mut lengths = Vec::with_capacity(reports.len());
    let mut codes = Vec::new();
    for r in &reports {
        let found = r.as_ref().map_or(&[][..], |r| &r.violations[..]);
        lengths.push(found.len());
        codes.extend(found.iter().map(|v| v.code.name()));
    }
    let codes = ListArray::try_new(
        Arc::new(Field::new("item", DataType::Utf8, true)),
        offsets(&lengths)?,
        Arc::new(strings(codes)?),
        nulls,
    )
    .map_err(arrow_error)?;
    PyTuple::new(
        py,
        [
            valid.to_data().to_pyarrow(py)?,
            codes.to_data().to_pyarrow(py)?,
        ],
    )
}

/// The offsets of lists of these lengths, or `OverflowError` past
/// `i32::MAX` values.
fn offsets(lengths: &[usize]) -> PyResult<OffsetBuffer<i32>> {
    let mut offsets = Vec::with_capacity(lengths.len() + 1);
    let mut end: i32 = 0;
    offsets.push(end);
    for &len in lengths {
        end = i32::try_from(len)
            .ok()
            .and_then(|len| end.checked_add(len))
            .ok_or_else(too_large)?;
        offsets.push(end);
    }
    Ok(OffsetBuffer::new(ScalarBuffer::from(offsets)))
}

/// A string array of `values`, or `OverflowError` when their bytes do not
/// fit 32-bit offsets.
fn strings<S: AsRef<str>>(values: Vec<S>) -> PyResult<StringArray> {
    let bytes: usize = values.iter().map(|s| s.as_ref().len()).sum();
    if i32::try_from(bytes).is_err() {
        return Err(too_large());
    }
    Ok(StringArray::from_iter_values(values))
}

fn too_large() -> PyErr {
    PyOverflowError::new_err(
        "the batch's results do not fit 32-bit Arrow offsets: pass smaller batches",
    )
}

fn arrow_error(e: arrow_schema::ArrowError) -> PyErr {
    PyTypeError::new_err(e.to_string())
}

/// The violations of each report as a `list<struct<...>>` array.
fn violations_array(
    reports: Vec<Option<Report>>,
    nulls: Option<NullBuffer>,
) -> PyResult<ListArray> {
    let mut lengths = Vec::with_capacity(reports.len());
    let (mut code, mut severity, mut spec, mut message, mut component) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut byte, mut char, mut len) = (Vec::new(), Vec::new(), Vec::new());
    let int = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    for report in reports {
        let found = report.map(|r| r.violations).unwrap_or_default();
        lengths.push(found.len());
        for v in found {
            code.push(v.code.name());
            severity.push(v.severity.name());
            spec.push(v.code.spec());
            component.push(v.component.name());
            byte.push(int(v.byte));
            char.push(int(v.char));
            len.push(int(v.len));
            message.push(v.message);
        }
    }
    let text = |name: &str| Field::new(name, DataType::Utf8, false);
    let number = |name: &str| Field::new(name, DataType::Int64, false);
    let fields = Fields::from(vec![
        text("code"),
        text("severity"),
        text("spec"),
        text("message"),
        number("byte"),
        number("char"),
        number("len"),
        text("component"),
    ]);
    let columns: Vec<ArrayRef> = vec![
        Arc::new(strings(code)?),
        Arc::new(strings(severity)?),
        Arc::new(strings(spec)?),
        Arc::new(strings(message)?),
        Arc::new(Int64Array::from(byte)),
        Arc::new(Int64Array::from(char)),
        Arc::new(Int64Array::from(len)),
        Arc::new(strings(component)?),
    ];
    let values = StructArray::try_new(fields.clone(), columns, None).map_err(arrow_error)?;
    ListArray::try_new(
        Arc::new(Field::new("item", DataType::Struct(fields), false)),
        offsets(&lengths)?,
        Arc::new(values),
        nulls,
    )
    .map_err(arrow_error)
}

/// Adds the batch functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(is_valid_many, m)?)?;
    m.add_function(wrap_pyfunction!(check_many, m)?)?;
    m.add_function(wrap_pyfunction!(_valid_and_codes, m)?)?;
    Ok(())
}
