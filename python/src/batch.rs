//! Batches: `is_valid_many` and `check_many` over a list of strings or an
//! Arrow string array.
//!
//! An Arrow array comes in through the Arrow C data interface (its
//! `__arrow_c_array__` PyCapsules) without copying its buffers; arrow-pyarrow
//! validates it (offsets, UTF-8) before it is read, so no foreign buffer is
//! trusted. A list's strings are read in place, each held by a reference
//! taken while the GIL is held (the list may change once it is released).
//!
//! The work runs with the GIL released, cut into slices of at most
//! [`SLICE_ITEMS`] items or about [`SLICE_BYTES`] bytes which every core
//! takes in turn; between two slices the calling thread takes the GIL back
//! for a moment to run the signal handlers, so Ctrl-C stops a batch within
//! a slice's time.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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
use pyo3::exceptions::{PyMemoryError, PyOverflowError, PyTypeError, PyUnicodeEncodeError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString, PyTuple};

use crate::text::{Unpaired, DETACH_AT};
use crate::{check_options, Start, Violation};

/// A slice of work ends after this many items...
const SLICE_ITEMS: usize = 4096;
/// ... or once its items hold this many bytes: on the slowest path
/// (`check_many`) a slice then takes milliseconds, the most a Ctrl-C waits
/// (one item is never cut: a single 100 MB item is one slice).
const SLICE_BYTES: usize = 256 * 1024;
/// While a Python iterable is read, the signal handlers run every this
/// many items (an iterator written in C runs none of its own).
const READ_CHECK_EVERY: usize = 1 << 16;

/// One item of a Python iterable.
enum Item {
    None,
    /// A `str`: its UTF-8, held by the string (read in place).
    Str(PyBackedStr),
    /// A `str` with lone surrogates.
    Unpaired(Box<Unpaired>),
}

/// One item of a batch, as the work sees it.
#[derive(Clone, Copy)]
enum Entry<'a> {
    Str(&'a str),
    Unpaired(&'a Unpaired),
}

impl Entry<'_> {
    fn len(self) -> usize {
        match self {
            Entry::Str(s) => s.len(),
            Entry::Unpaired(u) => u.text.len(),
        }
    }

    /// Whether it matches the rule: never for a string that is not
    /// Unicode.
    fn accepted_by(self, start: Start) -> bool {
        match self {
            Entry::Str(s) => start.accepts(s),
            Entry::Unpaired(_) => false,
        }
    }

    fn check(self, options: &CheckOptions) -> Report {
        match self {
            Entry::Str(s) => iribis::check(s, options),
            Entry::Unpaired(u) => u.check(options),
        }
    }
}

/// The strings of a batch, nulls included.
enum Items {
    /// An Arrow `string`, `large_string` or `string_view` array.
    Arrow(ArrayRef),
    /// The items of a Python iterable.
    List(Vec<Item>),
}

impl Items {
    /// Reads `items`: an object with `__arrow_c_array__` (a pyarrow array)
    /// zero-copy, else any iterable of `str` and `None` but a `str`,
    /// `bytes` or `bytearray` itself (whose items are characters or
    /// numbers: a single string is almost certainly a mistake).
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
        if items.is_instance_of::<PyString>()
            || items.is_instance_of::<PyBytes>()
            || items.is_instance_of::<PyByteArray>()
        {
            return Err(PyTypeError::new_err(format!(
                "expected a list (or another iterable) of str, or a pyarrow string array, not a {}: for one string, call the single form (is_valid, check) or pass [s]",
                items.get_type().name()?
            )));
        }
        // A list's or tuple's length is the number of items it holds; any
        // other `__len__` is only a hint, and may be anything (`range(10**11)`
        // has no items in memory): reserve nothing for it.
        let exact =
            items.is_exact_instance_of::<PyList>() || items.is_exact_instance_of::<PyTuple>();
        let mut list = Vec::with_capacity(if exact { items.len()? } else { 0 });
        for (i, item) in items.try_iter()?.enumerate() {
            if i % READ_CHECK_EVERY == READ_CHECK_EVERY - 1 {
                items.py().check_signals()?;
            }
            let item = item?;
            // An iterable larger than memory (an endless one) gets a
            // MemoryError, which Python code can catch, not the abort of a
            // failed allocation.
            if list.len() == list.capacity() && list.try_reserve(list.len().max(64)).is_err() {
                return Err(PyMemoryError::new_err(format!(
                    "the batch's first {i} items fill the memory: pass fewer items at a time"
                )));
            }
            list.push(if item.is_none() {
                Item::None
            } else if let Ok(s) = item.cast::<PyString>() {
                match PyBackedStr::try_from(s.clone()) {
                    Ok(backed) => Item::Str(backed),
                    Err(e) if !e.is_instance_of::<PyUnicodeEncodeError>(s.py()) => return Err(e),
                    Err(e) => match Unpaired::of(s)? {
                        Some(u) => Item::Unpaired(Box::new(u)),
                        None => return Err(e),
                    },
                }
            } else {
                return Err(PyTypeError::new_err(format!(
                    "item {i} of the batch is a {}: expected str or None",
                    item.get_type().name()?
                )));
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

    /// `f` on each item, the results in order. A batch of one small slice
    /// is worked on at once; any other with the GIL released, its slices
    /// taken in turn by one thread per core (the calling thread one of
    /// them), which checks for signals after each of its slices: a signal
    /// handler's exception (`KeyboardInterrupt`) stops the batch and is
    /// returned.
    fn map<T: Send>(
        &self,
        py: Python<'_>,
        f: impl Fn(Option<Entry<'_>>) -> T + Sync,
    ) -> PyResult<Vec<T>> {
        let view = self.view();
        let n = view.len();
        let mut ends = Vec::new();
        let (mut items, mut bytes, mut total) = (0, 0, 0);
        for i in 0..n {
            let len = view.get(i).map_or(0, Entry::len);
            (items, bytes, total) = (items + 1, bytes + len, total + len);
            if items == SLICE_ITEMS || bytes >= SLICE_BYTES || i + 1 == n {
                ends.push(i + 1);
                (items, bytes) = (0, 0);
            }
        }
        if ends.len() <= 1 && total < DETACH_AT {
            return Ok((0..n).map(|i| f(view.get(i))).collect());
        }
        let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
        let threads = cores.min(ends.len());
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let (f, view, ends) = (&f, &view, &ends[..]);
        // Takes slices until none is left or `stop`; the calling thread
        // (`signals`) runs the signal handlers after each.
        let work = |signals: bool| -> (Vec<(usize, Vec<T>)>, Option<PyErr>) {
            let mut done = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&end) = ends.get(k) else { break };
                let start = k.checked_sub(1).map_or(0, |j| ends[j]);
                done.push((k, (start..end).map(|i| f(view.get(i))).collect()));
                if signals {
                    if let Err(e) = Python::attach(|py| py.check_signals()) {
                        stop.store(true, Ordering::Relaxed);
                        return (done, Some(e));
                    }
                }
            }
            (done, None)
        };
        py.detach(|| {
            std::thread::scope(|scope| {
                let helpers: Vec<_> = (1..threads)
                    .map(|_| scope.spawn(|| work(false).0))
                    .collect();
                let (mut parts, interrupted) = work(true);
                for helper in helpers {
                    match helper.join() {
                        Ok(more) => parts.extend(more),
                        Err(panic) => std::panic::resume_unwind(panic),
                    }
                }
                if let Some(e) = interrupted {
                    return Err(e);
                }
                parts.sort_unstable_by_key(|&(k, _)| k);
                let mut out = Vec::with_capacity(n);
                for (_, part) in parts {
                    out.extend(part);
                }
                Ok(out)
            })
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
    List(&'a [Item]),
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
    fn get(&self, i: usize) -> Option<Entry<'a>> {
        match self {
            View::List(l) => match &l[i] {
                Item::None => None,
                Item::Str(s) => Some(Entry::Str(s)),
                Item::Unpaired(u) => Some(Entry::Unpaired(u)),
            },
            View::Utf8(a) => (!a.is_null(i)).then(|| Entry::Str(a.value(i))),
            View::Large(a) => (!a.is_null(i)).then(|| Entry::Str(a.value(i))),
            View::Views(a) => (!a.is_null(i)).then(|| Entry::Str(a.value(i))),
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
    let valid = items.map(py, |s| s.map(|s| s.accepted_by(start)))?;
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
fn reports(py: Python<'_>, items: &Items, options: &CheckOptions) -> PyResult<Vec<Option<Report>>> {
    items.map(py, |s| s.map(|s| s.check(options)))
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
    let reports = reports(py, &items, &options)?;
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
    let reports = reports(py, &items, &options)?;
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
