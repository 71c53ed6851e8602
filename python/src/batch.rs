//! Batches: `is_valid_many` and `check_many` over a list of strings or an
//! Arrow string array.
//!
//! An Arrow array comes in through the Arrow C data interface (its
//! `__arrow_c_array__` PyCapsules) without copying its buffers; arrow-pyarrow
//! validates it (offsets, UTF-8) before it is read, so no foreign buffer is
//! trusted. A list's strings are read in place, held by a tuple of the
//! list's references taken while the GIL is held (the list may change once
//! it is released; a tuple cannot); another iterable's by a reference each.
//!
//! A batch is cut into slices of at most [`SLICE_ITEMS`] items (fewer in a
//! batch of known length: [`slice_items`]) or about
//! [`SLICE_BYTES`] bytes, worked on as a pipeline: the calling thread reads
//! them in turn, with the GIL held (a Python iterable's strings can only be
//! read so), and hands each to a queue that one helper thread per other
//! core walks with no GIL; once everything is read, the calling thread
//! releases the GIL and walks slices too, taking the GIL back for a moment
//! after each to run the signal handlers, so Ctrl-C stops a batch within a
//! slice's time. Reading slice k+1 thus overlaps walking slice k, where the
//! batch used to read everything before walking anything.

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

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
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyIterator, PyList, PyString, PyTuple};

use crate::text::{Unpaired, DETACH_AT};
use crate::{check_options, Start, Violation};

/// A slice of work ends after this many items...
const SLICE_ITEMS: usize = 4096;
/// ... or fewer when the batch's length is known (a list, a tuple, an
/// Arrow array) and above that: a 16th of it, from this many, so that a
/// batch of tens of thousands of items has slices enough to end with every
/// core busy (the last slice read is walked by one thread while the others
/// have none to take).
const SLICE_ITEMS_MIN: usize = 256;
/// ... or once its items hold this many bytes: on the slowest path
/// (`check_many`) a slice then takes milliseconds, the most a Ctrl-C waits
/// (one item is never cut: a single 100 MB item is one slice).
const SLICE_BYTES: usize = 256 * 1024;

/// One item of a Python iterable.
enum Item<'a> {
    None,
    /// A `str` of a tuple: its UTF-8, read in place, the string held by
    /// the tuple.
    Str(&'a str),
    /// A `str` of any other iterable: its UTF-8, read in place, the string
    /// held by a reference of its own.
    Held(PyBackedStr),
    /// A `str` with lone surrogates.
    Unpaired(Box<Unpaired>),
}

impl Item<'_> {
    fn entry(&self) -> Option<Entry<'_>> {
        match self {
            Item::None => None,
            Item::Str(s) => Some(Entry::Str(s)),
            Item::Held(s) => Some(Entry::Str(s)),
            Item::Unpaired(u) => Some(Entry::Unpaired(u)),
        }
    }
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

/// A batch as given.
enum Batch<'py> {
    /// An Arrow `string`, `large_string` or `string_view` array.
    Arrow(ArrayRef),
    /// A Python iterable of `str` and `None`, read as it is worked on.
    Iterable(Bound<'py, PyAny>),
}

impl<'py> Batch<'py> {
    /// `items`: an object with `__arrow_c_array__` (a pyarrow array), read
    /// zero-copy, else any iterable of `str` and `None` but a `str`,
    /// `bytes` or `bytearray` itself (whose items are characters or
    /// numbers: a single string is almost certainly a mistake).
    fn of(items: &Bound<'py, PyAny>) -> PyResult<Batch<'py>> {
        if items.hasattr("__arrow_c_array__")? {
            let data = ArrayData::from_pyarrow_bound(items)?;
            return match data.data_type() {
                DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => {
                    Ok(Batch::Arrow(make_array(data)))
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
        Ok(Batch::Iterable(items.clone()))
    }

    /// `f` on each item (`None` for a null or `None`), the results in
    /// order, through [`pipeline`]. The signal handlers' exception
    /// (`KeyboardInterrupt`), an item that is neither `str` nor `None`, an
    /// iterator's exception or a batch that fills the memory stop the batch
    /// and are returned.
    ///
    /// `allocates`: whether `f` allocates memory (a report's findings).
    /// Then an iterable other than a list or tuple is read whole before it
    /// is worked on, so that an endless one fills the memory with its
    /// items, where reading notices (`MemoryError`), and not in `f`, where
    /// a failed allocation aborts the interpreter; the items of a list or
    /// tuple are all there already, so are pipelined whatever `f`.
    fn map<T: Send>(
        &self,
        py: Python<'py>,
        allocates: bool,
        f: impl Fn(Option<Entry<'_>>) -> T + Sync,
    ) -> PyResult<Vec<T>> {
        match self {
            Batch::Iterable(items) => {
                let tuple = if items.is_exact_instance_of::<PyList>() {
                    // tuple(list), which is PyList_AsTuple: a MemoryError
                    // when the copy does not fit (PyO3's to_tuple panics).
                    let tuple = py.get_type::<PyTuple>().call1((items,))?;
                    Some(tuple.cast_into::<PyTuple>()?)
                } else {
                    items.cast_exact::<PyTuple>().ok().cloned()
                };
                let eager = !allocates || tuple.is_some();
                let mut reader = Reader::new(items, tuple.as_ref())?;
                pipeline(
                    py,
                    eager,
                    || reader.slice(),
                    |items: &Vec<Item<'_>>, out: &mut Vec<T>| {
                        out.extend(items.iter().map(|i| f(i.entry())));
                    },
                    Vec::len,
                )
            }
            Batch::Arrow(array) => {
                let view = View::of(array);
                let mut cut = Cut {
                    view: &view,
                    next: 0,
                };
                pipeline(
                    py,
                    true,
                    || Ok(cut.slice()),
                    |range: &Range<usize>, out: &mut Vec<T>| {
                        out.extend(range.clone().map(|i| f(view.get(i))));
                    },
                    Range::len,
                )
            }
        }
    }

    /// The nulls of an Arrow array.
    fn nulls(&self) -> Option<NullBuffer> {
        match self {
            Batch::Arrow(array) => array.logical_nulls(),
            Batch::Iterable(_) => None,
        }
    }
}

/// A slice read: its items, and whether it is the batch's last.
struct Read<S> {
    slice: S,
    /// Whether no slice follows.
    last: bool,
    /// The bytes of its strings.
    bytes: usize,
}

/// The items a slice of a batch of `n` items ends after: a batch of one
/// slice is worked on at once, with no thread.
fn slice_items(n: usize) -> usize {
    if n <= SLICE_ITEMS {
        SLICE_ITEMS
    } else {
        (n / 16).clamp(SLICE_ITEMS_MIN, SLICE_ITEMS)
    }
}

/// The MemoryError of a batch too large for the memory (its items, or
/// its results), `items` read so far.
fn too_many(items: usize) -> PyErr {
    PyMemoryError::new_err(format!(
        "the batch's first {items} items fill the memory: pass fewer items at a time"
    ))
}

/// The items of a Python iterable, a slice at a time.
struct Reader<'a, 'py> {
    py: Python<'py>,
    source: Source<'a, 'py>,
    /// The items read so far.
    count: usize,
    /// The item read after the last slice, which starts the next one.
    next: Option<Item<'a>>,
    /// The items a slice ends after.
    cap: usize,
}

/// Where a Python iterable's items come from: a tuple (the one given, or a
/// list's, `PyList_AsTuple`, which copies its references), whose strings
/// it holds for as long as the batch lasts, so that they are read with no
/// reference of their own; anything else through the iterator protocol.
///
/// A list is not read in place: once the GIL is released, another thread
/// may change it and drop the strings being walked. Its tuple costs 8
/// bytes an item (and an increment and decrement of each string's count,
/// in C), where a reference per string costs PyO3's iterator, a `Py` and
/// its release: fewer instructions under the GIL, which a batch is made of.
enum Source<'a, 'py> {
    Tuple(pyo3::types::iter::BorrowedTupleIterator<'a, 'py>),
    Other(Bound<'py, PyIterator>),
}

impl<'a, 'py> Reader<'a, 'py> {
    /// A reader of `tuple` (a list's or the tuple given) if there is one,
    /// else of `items`.
    fn new(items: &Bound<'py, PyAny>, tuple: Option<&'a Bound<'py, PyTuple>>) -> PyResult<Self> {
        let (source, cap) = match tuple {
            Some(tuple) => (
                Source::Tuple(tuple.iter_borrowed()),
                slice_items(tuple.len()),
            ),
            None => (Source::Other(items.try_iter()?), SLICE_ITEMS),
        };
        Ok(Reader {
            py: items.py(),
            source,
            count: 0,
            next: None,
            cap,
        })
    }

    /// The next item read, `None` after the last.
    fn next_item(&mut self) -> PyResult<Option<Item<'a>>> {
        let at = self.count;
        self.count += 1;
        match &mut self.source {
            Source::Tuple(t) => t.next().map(|item| tuple_item(at, item)).transpose(),
            Source::Other(i) => i.next().map(|item| held_item(at, item?)).transpose(),
        }
    }

    /// How many items are left, for a tuple; 0 for anything else, whose
    /// `__len__` is only a hint and may be anything (`range(10**11)` has no
    /// items in memory).
    fn left(&self) -> usize {
        match &self.source {
            Source::Tuple(t) => t.len(),
            Source::Other(_) => 0,
        }
    }

    /// The next slice, `None` after the last. The signal handlers run
    /// before each (an iterator written in C runs none of its own, and an
    /// endless one must stay interruptible).
    fn slice(&mut self) -> PyResult<Option<Read<Vec<Item<'a>>>>> {
        self.py.check_signals()?;
        let first = match self.next.take() {
            Some(item) => item,
            None => match self.next_item()? {
                Some(item) => item,
                None => return Ok(None),
            },
        };
        // Room for the items the slice will likely hold: as many as fit
        // SLICE_BYTES if they are as long as the first, up to the items a
        // tuple has left (an iterable's are counted as they come, from 16),
        // so that a slice of one 1 MB string holds room for one.
        let likely = SLICE_BYTES / first.entry().map_or(0, Entry::len).max(1) + 1;
        let room = match self.left() {
            0 => 16,
            left => left + 1,
        }
        .min(likely)
        .min(self.cap);
        let mut items: Vec<Item<'a>> = Vec::new();
        // An iterable larger than memory (an endless one) gets a
        // MemoryError, which Python code can catch, not the abort of a
        // failed allocation.
        if items.try_reserve_exact(room).is_err() {
            return Err(too_many(self.count));
        }
        let mut bytes = first.entry().map_or(0, Entry::len);
        items.push(first);
        if let Source::Tuple(tuple) = &mut self.source {
            // A tuple's length is known: no item is read ahead.
            while items.len() < self.cap && bytes < SLICE_BYTES {
                let Some(item) = tuple.next() else { break };
                let item = tuple_item(self.count, item)?;
                self.count += 1;
                if items.len() == items.capacity() && grow(&mut items, self.cap).is_err() {
                    return Err(too_many(self.count));
                }
                bytes += item.entry().map_or(0, Entry::len);
                items.push(item);
            }
            return Ok(Some(Read {
                slice: items,
                last: tuple.len() == 0,
                bytes,
            }));
        }
        loop {
            if items.len() == self.cap || bytes >= SLICE_BYTES {
                // The next item says whether this slice is the last.
                self.next = self.next_item()?;
                let last = self.next.is_none();
                return Ok(Some(Read {
                    slice: items,
                    last,
                    bytes,
                }));
            }
            let Some(item) = self.next_item()? else {
                return Ok(Some(Read {
                    slice: items,
                    last: true,
                    bytes,
                }));
            };
            if items.len() == items.capacity() && grow(&mut items, self.cap).is_err() {
                return Err(too_many(self.count));
            }
            bytes += item.entry().map_or(0, Entry::len);
            items.push(item);
        }
    }
}

/// Room for more of a slice's items (as many again, up to `cap`), or the
/// error of an allocation that failed.
fn grow(items: &mut Vec<Item<'_>>, cap: usize) -> Result<(), std::collections::TryReserveError> {
    items.try_reserve(items.len().min(cap - items.len()).max(1))
}

/// Item `at` of a tuple, its string borrowed from the tuple.
fn tuple_item<'a>(at: usize, item: Borrowed<'a, '_, PyAny>) -> PyResult<Item<'a>> {
    if item.is_none() {
        return Ok(Item::None);
    }
    match item.extract::<&'a str>() {
        Ok(s) => Ok(Item::Str(s)),
        Err(e) => match item.cast::<PyString>() {
            Ok(s) => unpaired(&s, e),
            Err(_) => Err(not_str(at, &item)),
        },
    }
}

/// Item `at` of an iterable, its string held by a reference of its own.
fn held_item<'a>(at: usize, item: Bound<'_, PyAny>) -> PyResult<Item<'a>> {
    if item.is_none() {
        return Ok(Item::None);
    }
    let Ok(s) = item.cast::<PyString>() else {
        return Err(not_str(at, &item));
    };
    match PyBackedStr::try_from(s.clone()) {
        Ok(backed) => Ok(Item::Held(backed)),
        Err(e) => unpaired(s, e),
    }
}

/// A `str` whose UTF-8 `PyUnicode_AsUTF8AndSize` refused with `e`: a
/// string with lone surrogates, or `e`.
fn unpaired<'a>(s: &Bound<'_, PyString>, e: PyErr) -> PyResult<Item<'a>> {
    if !e.is_instance_of::<PyUnicodeEncodeError>(s.py()) {
        return Err(e);
    }
    match Unpaired::of(s)? {
        Some(u) => Ok(Item::Unpaired(Box::new(u))),
        None => Err(e),
    }
}

/// The TypeError of item `at`, which is neither `str` nor `None`.
fn not_str(at: usize, item: &Bound<'_, PyAny>) -> PyErr {
    match item.get_type().name() {
        Ok(name) => PyTypeError::new_err(format!(
            "item {at} of the batch is a {name}: expected str or None"
        )),
        Err(e) => e,
    }
}

/// An Arrow array cut into slices as they are asked for.
struct Cut<'v, 'a> {
    view: &'v View<'a>,
    /// Where the next slice starts.
    next: usize,
}

impl Cut<'_, '_> {
    fn slice(&mut self) -> Option<Read<Range<usize>>> {
        let (start, n) = (self.next, self.view.len());
        if start == n {
            return None;
        }
        let mut bytes = 0;
        let mut end = start;
        let cap = slice_items(n);
        while end < n && end - start < cap && bytes < SLICE_BYTES {
            bytes += self.view.get(end).map_or(0, Entry::len);
            end += 1;
        }
        self.next = end;
        Some(Read {
            slice: start..end,
            last: end == n,
            bytes,
        })
    }
}

/// The slices read and not yet taken, shared by the reading thread and
/// its helpers.
struct Queue<S> {
    pending: Mutex<Pending<S>>,
    /// Signalled when a slice is added or the queue closes.
    changed: Condvar,
    /// Set to stop every thread after its current slice (an error).
    stop: AtomicBool,
    /// The signal handlers' exception that stopped the batch.
    interrupted: Mutex<Option<PyErr>>,
}

struct Pending<S> {
    /// Slices by their number in the batch.
    slices: VecDeque<(usize, S)>,
    /// Whether no slice will be added.
    closed: bool,
}

impl<S> Queue<S> {
    fn new() -> Queue<S> {
        Queue {
            pending: Mutex::new(Pending {
                slices: VecDeque::new(),
                closed: false,
            }),
            changed: Condvar::new(),
            stop: AtomicBool::new(false),
            interrupted: Mutex::new(None),
        }
    }

    /// The state; a thread that panicked holding it left nothing half done
    /// (a push or a pop), so a poisoned lock is taken all the same.
    fn lock(&self) -> MutexGuard<'_, Pending<S>> {
        self.pending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Adds slice `k`; `false` when there is no memory for it.
    fn push(&self, k: usize, slice: S) -> bool {
        let mut pending = self.lock();
        if pending.slices.try_reserve(1).is_err() {
            return false;
        }
        pending.slices.push_back((k, slice));
        drop(pending);
        self.changed.notify_one();
        true
    }

    /// No slice will be added: the helpers end once the queue is empty.
    fn close(&self) {
        self.lock().closed = true;
        self.changed.notify_all();
    }

    /// Every thread ends after its current slice.
    fn halt(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.close();
    }

    /// Every thread ends after its current slice, and the batch raises
    /// `e`.
    fn interrupt(&self, e: PyErr) {
        *self
            .interrupted
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e);
        self.halt();
    }

    /// The exception given to [`Queue::interrupt`].
    fn interrupted(&self) -> Option<PyErr> {
        self.interrupted
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
    }

    /// The next slice, `None` once stopped or once the queue is empty and
    /// closed; a helper (`wait`) waits for one while it is open.
    fn take(&self, wait: bool) -> Option<(usize, S)> {
        let mut pending = self.lock();
        loop {
            if self.stop.load(Ordering::Relaxed) {
                return None;
            }
            if let Some(next) = pending.slices.pop_front() {
                return Some(next);
            }
            if pending.closed || !wait {
                return None;
            }
            pending = self
                .changed
                .wait(pending)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }
}

/// Closes the queue however the reading thread leaves (an error, a
/// panic), so that no helper waits for ever.
struct Closing<'q, S>(&'q Queue<S>);

impl<S> Drop for Closing<'_, S> {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// A slice walked: its number, the slice (given back, so that its
/// references are dropped where the GIL is held), its results.
type Walked<S, T> = (usize, S, Vec<T>);

/// The results of `fill` on every slice `read_slice` gives (`len` items each),
/// in order. `read_slice` runs on the calling thread with the GIL held; the
/// slices are walked with it released.
///
/// A batch of one small slice is walked at once; one large slice is walked
/// with the GIL released, on the calling thread alone. Otherwise each
/// slice read goes to a queue that one helper thread per other core takes
/// slices from, from the first slice on when `eager` (while the calling
/// thread reads on), else once everything is read; then the calling thread
/// releases the GIL and takes slices too, running the signal handlers
/// after each (their exception stops the batch). Every slice comes back to
/// the calling thread, which drops it with the GIL held (the references of
/// a Python iterable's strings).
fn pipeline<S, T>(
    py: Python<'_>,
    eager: bool,
    mut read_slice: impl FnMut() -> PyResult<Option<Read<S>>>,
    fill: impl Fn(&S, &mut Vec<T>) + Sync,
    len: impl Fn(&S) -> usize + Sync,
) -> PyResult<Vec<T>>
where
    S: Send + Sync,
    T: Send,
{
    let Some(first) = read_slice()? else {
        return Ok(Vec::new());
    };
    // A slice's results, in memory reserved without aborting.
    let walk = |slice: &S| -> Option<Vec<T>> {
        let mut out = Vec::new();
        out.try_reserve_exact(len(slice)).ok()?;
        fill(slice, &mut out);
        Some(out)
    };
    if first.last {
        let out = if first.bytes < DETACH_AT {
            walk(&first.slice)
        } else {
            let out = py.detach(|| walk(&first.slice));
            py.check_signals()?;
            out
        };
        return out.ok_or_else(|| too_many(len(&first.slice)));
    }
    let queue = Queue::new();
    // Set by a thread that found no memory for its results.
    let starved = AtomicBool::new(false);
    let (queue, walk, starved) = (&queue, &walk, &starved);
    // Takes slices until none is left (`wait`: until the queue is closed
    // and empty) or the batch stops, and gives them back walked. Room for
    // each slice is made before it is taken, so that a slice is never
    // dropped away from the GIL.
    let work = move |wait: bool| -> Vec<Walked<S, T>> {
        let mut done = Vec::new();
        while done.try_reserve(1).is_ok() {
            let Some((k, slice)) = queue.take(wait) else {
                return done;
            };
            let out = walk(&slice);
            let walked = out.is_some();
            done.push((k, slice, out.unwrap_or_default()));
            if !walked {
                break;
            }
            if !wait {
                if let Err(e) = Python::attach(|py| py.check_signals()) {
                    queue.interrupt(e);
                    return done;
                }
            }
        }
        starved.store(true, Ordering::Relaxed);
        queue.halt();
        done
    };
    let helpers = std::thread::available_parallelism().map_or(1, |c| c.get()) - 1;
    let (mut walked, read) = std::thread::scope(|scope| -> PyResult<(Vec<Walked<S, T>>, usize)> {
        let closing = Closing(queue);
        // A thread the system does not give (no memory left) is one helper
        // fewer, not a panic.
        let spawn = || -> Vec<_> {
            (0..helpers)
                .map_while(|_| {
                    std::thread::Builder::new()
                        .spawn_scoped(scope, move || work(true))
                        .ok()
                })
                .collect()
        };
        let mut threads = if eager { spawn() } else { Vec::new() };
        // Read on, each slice to the queue as soon as it is read.
        let (mut failed, mut read) = (None, 0);
        let mut next = Some(first);
        let mut k = 0;
        while let Some(r) = next.take() {
            let n = len(&r.slice);
            if !queue.push(k, r.slice) {
                failed = Some(too_many(read));
                break;
            }
            (k, read) = (k + 1, read + n);
            if !r.last {
                match read_slice() {
                    Ok(r) => next = r,
                    Err(e) => failed = Some(e),
                }
            }
        }
        if failed.is_some() {
            queue.halt();
        } else {
            queue.close();
            if !eager {
                threads = spawn();
            }
        }
        // The calling thread's share of the slices with the GIL released,
        // then the helpers' end.
        let (mut walked, panicked, theirs) = py.detach(|| {
            let mine = work(false);
            let (mut panicked, mut theirs) = (None, Vec::new());
            for thread in threads {
                match thread.join() {
                    Ok(done) => theirs.push(done),
                    Err(panic) => panicked = Some(panic),
                }
            }
            (mine, panicked, theirs)
        });
        drop(closing);
        if let Some(panic) = panicked {
            std::panic::resume_unwind(panic);
        }
        for done in theirs {
            if walked.try_reserve(done.len()).is_err() {
                return Err(too_many(read));
            }
            walked.extend(done);
        }
        match failed.or_else(|| queue.interrupted()) {
            Some(e) => Err(e),
            None if starved.load(Ordering::Relaxed) => Err(too_many(read)),
            None => Ok((walked, read)),
        }
    })?;
    walked.sort_unstable_by_key(|w| w.0);
    let mut out = Vec::new();
    if out
        .try_reserve_exact(walked.iter().map(|w| w.2.len()).sum())
        .is_err()
    {
        return Err(too_many(read));
    }
    for (_, _slice, part) in walked {
        out.extend(part);
    }
    Ok(out)
}

/// The items of an Arrow array by index.
enum View<'a> {
    Utf8(&'a StringArray),
    Large(&'a LargeStringArray),
    Views(&'a StringViewArray),
    /// Another type (refused before it gets here).
    None,
}

impl<'a> View<'a> {
    fn of(array: &'a ArrayRef) -> View<'a> {
        let any = array.as_any();
        if let Some(a) = any.downcast_ref::<StringArray>() {
            View::Utf8(a)
        } else if let Some(a) = any.downcast_ref::<LargeStringArray>() {
            View::Large(a)
        } else if let Some(a) = any.downcast_ref::<StringViewArray>() {
            View::Views(a)
        } else {
            View::None
        }
    }

    fn len(&self) -> usize {
        match self {
            View::Utf8(a) => a.len(),
            View::Large(a) => a.len(),
            View::Views(a) => a.len(),
            View::None => 0,
        }
    }

    /// Item `i`, `None` where it is null.
    fn get(&self, i: usize) -> Option<Entry<'a>> {
        match self {
            View::Utf8(a) => (!a.is_null(i)).then(|| Entry::Str(a.value(i))),
            View::Large(a) => (!a.is_null(i)).then(|| Entry::Str(a.value(i))),
            View::Views(a) => (!a.is_null(i)).then(|| Entry::Str(a.value(i))),
            View::None => None,
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
    let items = Batch::of(items)?;
    let valid = items.map(py, false, |s| s.map(|s| s.accepted_by(start)))?;
    match items {
        Batch::Iterable(_) => Ok(PyList::new(py, valid)?.into_any()),
        Batch::Arrow(_) => {
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
fn reports<'py>(
    py: Python<'py>,
    items: &Batch<'py>,
    options: &CheckOptions,
) -> PyResult<Vec<Option<Report>>> {
    items.map(py, true, |s| s.map(|s| s.check(options)))
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
    let items = Batch::of(items)?;
    let reports = reports(py, &items, &options)?;
    match items {
        Batch::Iterable(_) => {
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
        Batch::Arrow(_) => {
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
    let items = Batch::of(items)?;
    if let Batch::Iterable(_) = items {
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
            spec.push(v.spec);
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
