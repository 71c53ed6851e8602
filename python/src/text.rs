//! A Python `str` argument as UTF-8: read in place, and what a `str` that is
//! not valid Unicode reads as.
//!
//! `PyUnicode_AsUTF8AndSize` (in the limited API from Python 3.10, hence
//! the abi3-py310 floor) gives the UTF-8 of a `str` without copying it when
//! the string is ASCII (CPython stores those as their UTF-8), and for any
//! other string a copy that CPython makes once and keeps with the string.
//!
//! A Python `str` can hold lone surrogates (`'\ud800'`: JSON can carry one
//! as `"\ud800"`, and `surrogateescape` decoding makes them). Such a string
//! is not a sequence of Unicode scalar values, so it has no UTF-8 and is
//! not an IRI (3987bis §2.2: an IRI is a sequence of characters from the
//! UCS). The predicates answer `False` for it, and the functions that parse
//! raise `ParseError` at the first surrogate, with the component and the
//! expected rules that the position has.

use iribis::ParseError as LibError;
use pyo3::exceptions::PyUnicodeEncodeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::{parse_error, ParseError};

/// Inputs of at least this many bytes are parsed with the GIL released, so
/// that a 100 MB input does not stop the interpreter's other threads; below
/// it, releasing and taking the GIL back would cost more than it lets run.
pub(crate) const DETACH_AT: usize = 64 * 1024;

/// `f()`, with the GIL released when the input is `len` bytes or more.
pub(crate) fn detached<T: Send>(py: Python<'_>, len: usize, f: impl FnOnce() -> T + Send) -> T {
    if len >= DETACH_AT {
        py.detach(f)
    } else {
        f()
    }
}

/// The stand-in for a lone surrogate: U+FFFF, a noncharacter that no rule
/// of any profile matches (`ucschar` and `iprivate` stop at U+FFEF and
/// U+F8FF in the BMP, LEIRI's extra range at U+FFFD), three bytes in UTF-8
/// as a surrogate is when `surrogatepass` writes it.
const STAND_IN: &str = "\u{FFFF}";

/// A `str` with lone surrogates: its text with each surrogate replaced by
/// [`STAND_IN`], so that byte and character offsets are the original's,
/// and where the first surrogate is.
pub(crate) struct Unpaired {
    /// The text, each lone surrogate replaced by U+FFFF.
    pub(crate) text: String,
    /// The byte offset of the first surrogate (UTF-8, a surrogate counting
    /// three bytes).
    byte: usize,
    /// The code point of the first surrogate.
    surrogate: u32,
}

impl Unpaired {
    /// The text of `s`, which `PyUnicode_AsUTF8AndSize` refused; `None` when
    /// it has no surrogate after all (the refusal was something else).
    pub(crate) fn of(s: &Bound<'_, PyString>) -> PyResult<Option<Unpaired>> {
        let encoded = s.call_method1("encode", ("utf-8", "surrogatepass"))?;
        let bytes = encoded.cast::<PyBytes>()?.as_bytes();
        let mut text = Vec::with_capacity(bytes.len());
        let mut first = None;
        let mut rest = bytes;
        while !rest.is_empty() {
            // U+D800..U+DFFF, written as UTF-8 would write them: ED A0..BF 80..BF.
            if let [0xED, hi @ 0xA0..=0xBF, lo @ 0x80..=0xBF, ..] = *rest {
                let code = 0xD000 | u32::from(hi & 0x3F) << 6 | u32::from(lo & 0x3F);
                first.get_or_insert((text.len(), code));
                text.extend_from_slice(STAND_IN.as_bytes());
                rest = &rest[3..];
            } else {
                text.push(rest[0]);
                rest = &rest[1..];
            }
        }
        let Some((byte, surrogate)) = first else {
            return Ok(None);
        };
        // Every byte sequence but the surrogates' was UTF-8 already.
        let text =
            String::from_utf8(text).map_err(|e| PyUnicodeEncodeError::new_err(e.to_string()))?;
        Ok(Some(Unpaired {
            text,
            byte,
            surrogate,
        }))
    }

    /// What is wrong, in the words of `ParseError.message`.
    fn message(&self) -> String {
        format!(
            "U+{:04X} is a lone surrogate (half of a UTF-16 pair without the other half): the string is not valid Unicode, and no IRI can hold it",
            self.surrogate
        )
    }

    /// The character offset of the first surrogate.
    fn char(&self) -> usize {
        self.text[..self.byte].chars().count()
    }

    /// The error for parsing the original `str` (`input`), given the
    /// library's error `e` on the stand-in text: at the first surrogate, an
    /// error that names it; before it, `e` itself (about the original).
    /// `e` is `None` when the stand-in parsed, which no rule allows.
    pub(crate) fn error(
        &self,
        py: Python<'_>,
        e: Option<&LibError>,
        input: &Bound<'_, PyString>,
    ) -> PyErr {
        let err = match e {
            Some(e) if e.byte() < self.byte => parse_error(py, e),
            _ => self.surrogate_error(py, e),
        };
        if let Err(other) = err.value(py).setattr("input", input) {
            return other;
        }
        err
    }

    /// The error at the first surrogate: the component and the expected
    /// rules of the library's error there, the message about the surrogate.
    fn surrogate_error(&self, py: Python<'_>, e: Option<&LibError>) -> PyErr {
        let message = self.message();
        // The library's one line: "invalid NOUN at character N: MESSAGE",
        // its noun that of the rule parsed.
        let noun = e.map_or("IRI reference", LibError::noun);
        let char = self.char();
        let err = ParseError::new_err(format!("invalid {noun} at character {char}: {message}"));
        let value = err.value(py);
        let expected: Vec<String> = e.map_or_else(Vec::new, crate::expected_of);
        let attach = || -> PyResult<()> {
            value.setattr("byte", self.byte)?;
            value.setattr("char", char)?;
            value.setattr("message", message)?;
            value.setattr("component", e.map_or("input", |e| e.component().name()))?;
            value.setattr("expected", expected)?;
            value.setattr("spec", e.map_or("3987bis §2.2", LibError::spec))?;
            Ok(())
        };
        match attach() {
            Ok(()) => err,
            Err(other) => other,
        }
    }

    /// The library's report on the stand-in text, its syntax error at the
    /// first surrogate (the only finding a text that does not parse gets)
    /// worded about the surrogate.
    pub(crate) fn check(&self, options: &iribis::check::CheckOptions) -> iribis::check::Report {
        let mut report = iribis::check(&self.text, options);
        for v in &mut report.violations {
            if v.code == iribis::check::Code::SyntaxError && v.byte == self.byte {
                v.message = self.message();
            }
        }
        report
    }
}

/// A `str` argument's text.
pub(crate) enum Text<'a, 'py> {
    /// Valid Unicode: its UTF-8, read in place.
    Utf8(&'a str),
    /// A string with lone surrogates, and the string.
    Unpaired(Unpaired, &'a Bound<'py, PyString>),
}

impl Text<'_, '_> {
    /// The UTF-8 to parse: the text, or the stand-in text of one with
    /// surrogates.
    pub(crate) fn as_str(&self) -> &str {
        match self {
            Text::Utf8(s) => s,
            Text::Unpaired(u, _) => &u.text,
        }
    }
}

/// The text of `s`, read in place where CPython has its UTF-8.
pub(crate) fn read<'a, 'py>(s: &'a Bound<'py, PyString>) -> PyResult<Text<'a, 'py>> {
    match s.to_str() {
        Ok(utf8) => Ok(Text::Utf8(utf8)),
        Err(e) if e.is_instance_of::<PyUnicodeEncodeError>(s.py()) => match Unpaired::of(s)? {
            Some(u) => Ok(Text::Unpaired(u, s)),
            None => Err(e),
        },
        Err(e) => Err(e),
    }
}

/// The UTF-8 of `s`, or `None` for a string that is not valid Unicode.
pub(crate) fn utf8<'a>(s: &'a Bound<'_, PyString>) -> PyResult<Option<&'a str>> {
    match s.to_str() {
        Ok(utf8) => Ok(Some(utf8)),
        Err(e) if e.is_instance_of::<PyUnicodeEncodeError>(s.py()) => Ok(None),
        Err(e) => Err(e),
    }
}
