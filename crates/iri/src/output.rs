//! What every command writes: one answer per input, in input order, as a
//! human report or one JSON object per line; errors in one shape.
//!
//! Human output never holds a raw control, bidi formatting or other
//! invisible character of an input: [`iribis::render::escape_invisible`] and the
//! windowed reports of [`iribis::render::underline`] show them as `\u{..}`. JSON
//! output writes the same characters as `\uXXXX` escapes (serde_json leaves
//! DEL, C1 controls, U+2028 and U+2029 raw), so that it is safe in a
//! terminal too and still valid JSON.

use std::any::Any;
use std::io::{self, Write};
use std::panic::AssertUnwindSafe;

use iribis::ParseError;
use iribis::render::{error_report, escape_invisible, is_invisible};
use serde_json::{Map, Value};

use crate::Outcome;
use crate::inputs::{Input, Line};

/// An input's error, in the shape every command gives it: the JSON object
/// `{"byte","char","message","component","expected","spec"}` and a human
/// report with a window of the input.
pub(crate) struct Failure(Box<Details>);

#[derive(serde::Serialize)]
struct Details {
    byte: usize,
    char: usize,
    message: String,
    component: &'static str,
    expected: Vec<String>,
    spec: Option<String>,
    #[serde(skip)]
    report: Report,
}

/// The human report, or the parse error that writes it when asked.
enum Report {
    Text(String),
    Parse(ParseError),
}

impl Failure {
    fn new(details: Details) -> Failure {
        Failure(Box::new(details))
    }

    /// A parse error: its position, component, expected rules and report
    /// (written only if asked for).
    pub(crate) fn parse(e: ParseError) -> Failure {
        Failure::new(Details {
            byte: e.byte(),
            char: e.char(),
            message: e.message(),
            component: e.component().name(),
            expected: e.expected_all().iter().map(|x| x.to_string()).collect(),
            spec: Some(e.spec().into()),
            report: Report::Parse(e),
        })
    }

    /// An error at byte `byte` of `input` (a character boundary), in
    /// `component`, by `spec`.
    pub(crate) fn at(
        input: &str,
        byte: usize,
        message: String,
        component: &'static str,
        spec: &str,
    ) -> Failure {
        let byte = byte.min(input.len());
        let char = input.get(..byte).map_or(0, |s| s.chars().count());
        let end = byte + input[byte..].chars().next().map_or(0, char::len_utf8);
        Failure::with_report(byte, char, message, component, spec, input, (byte, end))
    }

    /// An error at `byte` and `char` whose report shows `shown` with the
    /// bytes `span` of it underlined.
    pub(crate) fn with_report(
        byte: usize,
        char: usize,
        message: String,
        component: &'static str,
        spec: &str,
        shown: &str,
        span: (usize, usize),
    ) -> Failure {
        let report = error_report(&message, byte, char, component, spec, shown, span);
        Failure::new(Details {
            byte,
            char,
            message,
            component,
            expected: Vec::new(),
            spec: Some(spec.into()),
            report: Report::Text(report),
        })
    }

    /// A runtime grammar's failure, explained (`iri parse --grammar`): its
    /// report is the explanation's.
    pub(crate) fn explained(e: iribis_lab::playground::Explained) -> Failure {
        Failure::new(Details {
            byte: e.byte,
            char: e.char,
            message: e.message,
            component: e.component,
            expected: e.expected,
            spec: Some(e.spec),
            report: Report::Text(e.report),
        })
    }

    /// A panic while answering one input: a bug, reported as that input's
    /// error so that the other inputs still get theirs.
    fn internal(payload: &(dyn Any + Send)) -> Failure {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into());
        let message =
            format!("internal error: {what} (a bug in iri: please report it, with this input)");
        Failure::new(Details {
            byte: 0,
            char: 0,
            report: Report::Text(format!("error: {}", escape_invisible(&message))),
            message,
            component: "input",
            expected: Vec::new(),
            spec: None,
        })
    }

    /// What would have been allowed at the position: literals in double
    /// quotes, rules by ABNF name, `the end` (as [`iribis::Expected`] writes
    /// them).
    pub(crate) fn expected(mut self, expected: Vec<String>) -> Self {
        self.0.expected = expected;
        self
    }

    /// The `error` object of the JSON output.
    pub(crate) fn json(&self) -> Value {
        serde_json::to_value(&*self.0).unwrap_or(Value::Null)
    }

    /// Appends the `error` object of the JSON output to `buf`, serialized
    /// from the fields (its invisible characters not escaped yet).
    pub(crate) fn push_json(&self, buf: &mut Vec<u8>) -> io::Result<()> {
        Ok(serde_json::to_writer(buf, &*self.0)?)
    }

    /// The character offset of the error.
    pub(crate) fn char(&self) -> usize {
        self.0.char
    }

    /// The message (raw: escape it for a terminal).
    pub(crate) fn message(&self) -> &str {
        &self.0.message
    }

    /// The human report (terminal-safe), without a final newline.
    pub(crate) fn report(&self) -> String {
        match &self.0.report {
            Report::Text(t) => t.clone(),
            Report::Parse(e) => e.report(),
        }
    }
}

/// Buffered standard output, and whether to colour it: for `styled`
/// output, when `--color` says so (by default, on a terminal, unless
/// `NO_COLOR` is set; never into a pipe); never for JSON or SARIF.
pub(crate) fn stdout(styled: bool) -> (Spill<Box<dyn Write>>, bool) {
    let raw = io::stdout();
    let color = styled && anstream::AutoStream::choice(&raw) != anstream::ColorChoice::Never;
    let sink: Box<dyn Write> = if color {
        // Translated to console calls where a console needs them.
        Box::new(anstream::AutoStream::always(raw.lock()))
    } else {
        Box::new(raw.lock())
    };
    (Spill::new(sink), color)
}

/// Runs `f`, turning a panic into the input's [`Failure`].
pub(crate) fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, Failure> {
    std::panic::catch_unwind(AssertUnwindSafe(f)).map_err(|p| Failure::internal(&*p))
}

/// `text` escaped line by line: its newlines kept, every other invisible
/// character shown as `\u{..}`.
pub(crate) fn escape_lines(text: &str) -> String {
    text.split_inclusive('\n')
        .map(|line| match line.strip_suffix('\n') {
            Some(l) => format!("{}\n", escape_invisible(l)),
            None => escape_invisible(line).into_owned(),
        })
        .collect()
}

/// Writes `value` as one line of JSON (see [`write_json_part`]).
pub(crate) fn write_json(out: &mut impl Write, value: &Value) -> io::Result<()> {
    write_json_part(out, value)?;
    writeln!(out)
}

/// Writes `value` as JSON, with every invisible character (DEL, C1
/// controls, bidi formatting characters, U+2028, U+2029...) written as a
/// `\uXXXX` escape. Such characters appear only inside JSON strings, where
/// the escape means the same character.
pub(crate) fn write_json_part(out: &mut impl Write, value: &Value) -> io::Result<()> {
    write_safe_json(out, &value.to_string())
}

/// Writes `value` as JSON, serialized straight from its borrowed fields,
/// with its invisible characters as `\uXXXX` escapes.
pub(crate) fn write_serialized(
    out: &mut impl Write,
    value: &impl serde::Serialize,
) -> io::Result<()> {
    let mut buf = Vec::with_capacity(256);
    serde_json::to_writer(&mut buf, value)?;
    write_safe_json_bytes(out, &buf)
}

/// Writes `text`, JSON, with its invisible characters as `\uXXXX` escapes.
fn write_safe_json(out: &mut impl Write, text: &str) -> io::Result<()> {
    write_safe_json_bytes(out, text.as_bytes())
}

/// Writes `json` (UTF-8 JSON), with its invisible characters as `\uXXXX`
/// escapes, in one pass: runs without one are written as they are, and
/// only the characters outside ASCII (and DEL) are looked at, since
/// serde_json escapes the C0 controls. Octets that are not UTF-8 are
/// written as they are.
pub(crate) fn write_safe_json_bytes(out: &mut impl Write, json: &[u8]) -> io::Result<()> {
    let mut start = 0;
    let mut i = 0;
    while i < json.len() {
        // Eight bytes at a time while none is DEL or outside ASCII.
        while let Some(word) = json.get(i..i + 8) {
            let word = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
            if needs_a_look(word) {
                break;
            }
            i += 8;
        }
        let Some(&b) = json.get(i) else { break };
        if b < 0x7F {
            i += 1;
            continue;
        }
        let len = utf8_len(b);
        let c = json
            .get(i..i + len)
            .and_then(|s| std::str::from_utf8(s).ok())
            .and_then(|s| s.chars().next());
        match c {
            Some(c) if is_invisible(c) => {
                out.write_all(&json[start..i])?;
                let mut escape = Vec::with_capacity(12);
                push_unicode_escape(&mut escape, c);
                out.write_all(&escape)?;
                i += len;
                start = i;
            }
            Some(_) => i += len,
            None => i += 1,
        }
    }
    out.write_all(&json[start..])
}

/// Appends `s` as a JSON string, escaped as serde_json escapes it (`\"`,
/// `\\`, `\n` and the other short forms, `\u00xx` for the other C0
/// controls) and with its invisible characters as `\uxxxx`, as
/// [`write_safe_json_bytes`] writes them: safe to print as it is. Eight
/// bytes at a time where there is nothing to escape, the common case; a
/// short string (or the end of one) is looked at as one word, padded.
pub(crate) fn push_json_str(buf: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    buf.reserve(bytes.len() + 2);
    buf.push(b'"');
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let word = word_at(bytes, i);
        if !needs_a_look_in_json(word) {
            i += 8;
            continue;
        }
        // Byte by byte to the end of the word (a character outside ASCII
        // may take the position past it).
        let stop = (i + 8).min(bytes.len());
        while i < stop {
            let b = bytes[i];
            if b >= 0x7F {
                // A character outside ASCII (or DEL): escaped when invisible.
                if !may_begin_an_invisible(b, bytes.get(i + 1).copied().unwrap_or(0)) {
                    i += utf8_len(b);
                    continue;
                }
                let c = s[i..].chars().next().unwrap_or(' ');
                if is_invisible(c) {
                    buf.extend_from_slice(&bytes[start..i]);
                    push_unicode_escape(buf, c);
                    start = i + c.len_utf8();
                }
                i += c.len_utf8();
                continue;
            }
            let short = match b {
                b'"' => b'"',
                b'\\' => b'\\',
                b'\n' => b'n',
                b'\r' => b'r',
                b'\t' => b't',
                0x08 => b'b',
                0x0C => b'f',
                0x20.. => {
                    i += 1;
                    continue;
                }
                _ => 0,
            };
            buf.extend_from_slice(&bytes[start..i]);
            if short == 0 {
                push_unicode_escape(buf, char::from(b));
            } else {
                buf.extend_from_slice(&[b'\\', short]);
            }
            i += 1;
            start = i;
        }
    }
    buf.extend_from_slice(&bytes[start..]);
    buf.push(b'"');
}

/// Whether a character whose first two bytes are `lead` and `next` may be
/// [invisible](is_invisible): DEL, or the lead byte of a C1 control or soft
/// hyphen (0xC2), U+034F (0xCD), U+061C (0xD8), U+115F, U+17B4 or the
/// Mongolian selectors (0xE1), the general punctuation block (0xE2), the
/// Hangul filler U+3164 (0xE3 0x85), private use and specials (0xEE,
/// 0xEF), or any character beyond the BMP. The others
/// (Latin, Greek, Cyrillic, Arabic, kana, CJK...) are not decoded.
fn may_begin_an_invisible(lead: u8, next: u8) -> bool {
    matches!(
        lead,
        0x7F | 0xC2 | 0xCD | 0xD8 | 0xE1 | 0xE2 | 0xEE | 0xEF | 0xF0..
    ) || (lead, next) == (0xE3, 0x85)
}

/// The length of the UTF-8 sequence that `lead` begins (1 for a byte that
/// begins none).
fn utf8_len(lead: u8) -> usize {
    match lead {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => 1,
    }
}

/// Whether `s` is written by [`push_json_str`] as it is, between quotes:
/// no byte of it needs a look (ASCII, no control, `"`, `\\` or DEL). Every
/// part of such a string is then written as it is too.
pub(crate) fn is_json_plain(s: &str) -> bool {
    let bytes = s.as_bytes();
    (0..bytes.len())
        .step_by(8)
        .all(|i| !needs_a_look_in_json(word_at(bytes, i)))
}

/// The eight bytes of `bytes` from `i` as one word, little-endian; past the
/// end, spaces (which need no look).
fn word_at(bytes: &[u8], i: usize) -> u64 {
    match bytes.get(i..i + 8) {
        Some(w) => u64::from_le_bytes(w.try_into().unwrap_or([0; 8])),
        // Byte by byte: a copy of a slice of unknown length would be a
        // call to memcpy.
        None => bytes[i.min(bytes.len())..]
            .iter()
            .enumerate()
            .fold(u64::from_le_bytes([b' '; 8]), |w, (k, &b)| {
                w & !(0xFF << (8 * k)) | u64::from(b) << (8 * k)
            }),
    }
}

/// Appends `s`, a part of a string that [`is_json_plain`], as a JSON
/// string: between quotes, as it is.
pub(crate) fn push_json_plain(buf: &mut Vec<u8>, s: &str) {
    buf.reserve(s.len() + 2);
    buf.push(b'"');
    buf.extend_from_slice(s.as_bytes());
    buf.push(b'"');
}

/// Whether one of the eight bytes of `word` needs a look from
/// [`push_json_str`]: a C0 control, `"`, `\`, DEL or a byte outside ASCII.
/// One test without branches: each term borrows into a byte's high bit
/// only where that byte (or one below it, which then is a hit itself) is
/// one of them; `"`, `\` and DEL keep the byte's high bit, so `!word`
/// clears what a byte outside ASCII set, and `word` itself adds it back.
fn needs_a_look_in_json(word: u64) -> bool {
    let below_space = word.wrapping_sub(ONES * 0x20);
    let quote = (word ^ (ONES * u64::from(b'"'))).wrapping_sub(ONES);
    let backslash = (word ^ (ONES * u64::from(b'\\'))).wrapping_sub(ONES);
    let del = (word ^ (ONES * 0x7F)).wrapping_sub(ONES);
    ((below_space | quote | backslash | del) & !word | word) & HIGH != 0
}

/// Whether one of the eight bytes of `word` is outside ASCII or DEL: the
/// bytes [`write_safe_json_bytes`] must look at.
fn needs_a_look(word: u64) -> bool {
    word & HIGH != 0 || has_byte(word, 0x7F)
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Whether one of the eight bytes of `word` is below `n` (at most 0x80):
/// subtracting `n` from such a byte borrows into its high bit, which the
/// byte did not have.
fn has_byte_below(word: u64, n: u8) -> bool {
    word.wrapping_sub(ONES * u64::from(n)) & !word & HIGH != 0
}

/// Whether one of the eight bytes of `word` is `b`: a zero byte of
/// `word ^ b...b`.
fn has_byte(word: u64, b: u8) -> bool {
    has_byte_below(word ^ (ONES * u64::from(b)), 1)
}

/// `\uxxxx` for each UTF-16 unit of `c` (lowercase hex, as serde_json
/// writes the escapes of controls).
fn push_unicode_escape(buf: &mut Vec<u8>, c: char) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for unit in c.encode_utf16(&mut [0; 2]) {
        buf.extend_from_slice(b"\\u");
        for shift in [12, 8, 4, 0] {
            buf.push(HEX[usize::from((*unit >> shift) as u8 & 15)]);
        }
    }
}

/// The decimal digits of `n`, in `buf`.
pub(crate) fn itoa(mut n: usize, buf: &mut [u8; 20]) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &buf[i..];
        }
    }
}

/// Writes `failure`'s report to standard error, saying which input it is
/// about: `place` is `line N` or `argument N` ([`Line::place_of`]).
pub(crate) fn diagnose(place: String, failure: &Failure) -> io::Result<()> {
    let mut err = io::stderr().lock();
    writeln!(err, "iri: {place}: {}\n", failure.report())
}

/// Standard output with its buffer open: a JSON line is built in place
/// rather than in a line buffer then copied into a `BufWriter`'s (the JSON
/// of `iri parse` is five times its input: the copy was an eighth of the
/// command's time). Written out once it holds 64 KiB, and when flushed or
/// dropped.
pub(crate) struct Spill<W: Write> {
    pub(crate) buf: Vec<u8>,
    sink: W,
}

impl<W: Write> Spill<W> {
    const SIZE: usize = 64 * 1024;

    pub(crate) fn new(sink: W) -> Self {
        Spill {
            buf: Vec::with_capacity(Self::SIZE + 4096),
            sink,
        }
    }

    /// Writes the buffer out if it holds 64 KiB or more.
    pub(crate) fn spill_if_full(&mut self) -> io::Result<()> {
        if self.buf.len() >= Self::SIZE {
            self.sink.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }
}

impl<W: Write> Write for Spill<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(data);
        self.spill_if_full()?;
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.sink.write_all(&self.buf)?;
        self.buf.clear();
        self.sink.flush()
    }
}

impl<W: Write> Drop for Spill<W> {
    fn drop(&mut self) {
        // As a BufWriter does: what is left is written, errors ignored
        // (the paths that end normally have flushed already).
        let _ = self.sink.write_all(&self.buf);
    }
}

thread_local! {
    /// The buffer of serialized fields the last answer gave back.
    static SCRATCH: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// An empty buffer for an answer's serialized fields ([`Answer::ok_raw`]):
/// the one the last answer written gave back, so that the common path
/// allocates none per line.
pub(crate) fn scratch() -> Vec<u8> {
    let mut buf = SCRATCH.take();
    buf.clear();
    buf
}

/// One input's answer: its JSON fields (after the input and `valid`, before
/// `line`), its human report (terminal-safe; a newline follows it) and
/// whether it succeeded.
pub(crate) struct Answer {
    pub(crate) fields: Map<String, Value>,
    /// Fields serialized already, `"key":value` pairs joined by commas,
    /// written after `fields`: the common path builds no `Value` per line.
    /// Escaped for a terminal already when the answer succeeded (see
    /// [`push_json_str`]); a failure's error object is not.
    pub(crate) serialized: Vec<u8>,
    pub(crate) human: String,
    pub(crate) ok: bool,
    /// The error, whose report is the human output (written only then).
    pub(crate) failure: Option<Failure>,
    /// Known to be [plain](is_json_plain): the input is written as it is,
    /// without a second look.
    pub(crate) input_plain: bool,
}

impl Answer {
    /// The answer for an input that failed.
    pub(crate) fn failed(failure: Failure) -> Answer {
        let mut serialized = b"\"error\":".to_vec();
        // Writing into a vector fails only on a serializer error, which
        // these plain fields cannot cause.
        let _ = failure.push_json(&mut serialized);
        Answer {
            fields: Map::new(),
            serialized,
            human: String::new(),
            ok: false,
            failure: Some(failure),
            input_plain: false,
        }
    }

    /// The answer for an input that succeeded.
    pub(crate) fn ok(fields: Map<String, Value>, human: String) -> Answer {
        Answer {
            fields,
            serialized: Vec::new(),
            human,
            ok: true,
            failure: None,
            input_plain: false,
        }
    }

    /// The answer for an input that succeeded, its fields written already
    /// as `"key":value` pairs joined by commas (see [`push_json_str`]).
    pub(crate) fn ok_raw(serialized: Vec<u8>, human: String) -> Answer {
        Answer {
            fields: Map::new(),
            serialized,
            human,
            ok: true,
            failure: None,
            input_plain: false,
        }
    }

    /// Says that the input [is plain](is_json_plain), as the answer found.
    pub(crate) fn with_plain_input(mut self, plain: bool) -> Answer {
        self.input_plain = plain;
        self
    }
}

/// The keys of a command's JSON objects around its answer's fields.
pub(crate) struct Shape {
    /// Keys written before the input, the same for every input (`base`).
    pub(crate) head: Vec<(&'static str, Value)>,
    /// The key of the input: `input`, `ref`, `target`.
    pub(crate) input: &'static str,
    /// Whether the object has `valid` after the input.
    pub(crate) valid: bool,
}

/// How human output shows an input's error.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Errors {
    /// The report, on standard output in the answer's place.
    Inline,
    /// Plain output, one stdout line per input: an empty line for an
    /// invalid input, whose report goes to standard error with its line
    /// number (the transforms: `to-uri < in > out` keeps the lines aligned).
    Stderr,
}

/// Answers every input with `each`, in order: the JSON object
/// `{head..., input, ["valid"], fields..., "line"}` or the human report.
/// An input that is not UTF-8 gets its error without `each` running; a
/// panic in `each` becomes that input's error. The output is flushed
/// whenever reading the next input may wait.
pub(crate) fn answer_all(
    lines: impl Iterator<Item = io::Result<Line>>,
    json: bool,
    shape: &Shape,
    each: impl FnMut(&str) -> Answer,
) -> io::Result<Outcome> {
    answer_each(lines, json, shape, Errors::Inline, each)
}

/// [`answer_all`], with human errors shown as `errors` says.
pub(crate) fn answer_each(
    lines: impl Iterator<Item = io::Result<Line>>,
    json: bool,
    shape: &Shape,
    errors: Errors,
    mut each: impl FnMut(&str) -> Answer,
) -> io::Result<Outcome> {
    let mut out = Spill::new(io::stdout().lock());
    let mut outcome = Outcome::AllValid;
    let mut digits = [0; 20];
    for next in lines {
        let Line {
            number,
            argument,
            input,
            ready,
            ..
        } = next?;
        let (text, mut answer) = match input {
            Input::Text(t) => {
                let answer = guarded(|| each(&t)).unwrap_or_else(Answer::failed);
                (t, answer)
            }
            Input::NotUtf8(n) => (n.lossy(), Answer::failed(n.failure())),
        };
        if json {
            // Written pair by pair straight into the output's buffer: the
            // answer's fields are not copied into a second map, nor the
            // line into a second buffer.
            let start = out.buf.len();
            let line = &mut out.buf;
            line.push(b'{');
            for (k, v) in &shape.head {
                serde_json::to_writer(&mut *line, k)?;
                line.push(b':');
                serde_json::to_writer(&mut *line, v)?;
                line.push(b',');
            }
            // A key is plain ASCII; the usual one a constant (a move, not a
            // call to memcpy).
            if shape.input == "input" {
                line.extend_from_slice(b"\"input\":");
            } else {
                push_json_plain(line, shape.input);
                line.push(b':');
            }
            if answer.input_plain {
                push_json_plain(line, &text);
            } else {
                push_json_str(line, &text);
            }
            // The input under the key every command has, too.
            if shape.input != "input" {
                line.extend_from_slice(b",\"input\":");
                push_json_str(line, &text);
            }
            if shape.valid && answer.ok {
                line.extend_from_slice(b",\"valid\":true");
            } else if shape.valid {
                line.extend_from_slice(b",\"valid\":false");
            }
            for (k, v) in &answer.fields {
                line.push(b',');
                serde_json::to_writer(&mut *line, k)?;
                line.push(b':');
                serde_json::to_writer(&mut *line, v)?;
            }
            if !answer.serialized.is_empty() {
                line.push(b',');
                line.extend_from_slice(&answer.serialized);
                SCRATCH.set(std::mem::take(&mut answer.serialized));
            }
            line.extend_from_slice(b",\"line\":");
            line.extend_from_slice(itoa(number, &mut digits));
            line.push(b'}');
            // What push_json_str wrote has its invisible characters escaped
            // already; what serde_json wrote gets the pass that does it.
            if !(shape.head.is_empty() && answer.fields.is_empty() && answer.failure.is_none()) {
                let raw = line.split_off(start);
                write_safe_json_bytes(&mut *line, &raw)?;
            }
            line.push(b'\n');
            out.spill_if_full()?;
        } else if let Some(failure) = &answer.failure {
            if errors == Errors::Stderr {
                writeln!(out)?;
                // The report after the lines before it, in a terminal.
                out.flush()?;
                diagnose(Line::place_of(argument, number), failure)?;
            } else {
                writeln!(out, "{}\n", failure.report())?;
            }
        } else {
            writeln!(out, "{}", answer.human)?;
        }
        if !answer.ok {
            outcome = Outcome::SomeInvalid;
        }
        if !ready {
            out.flush()?;
        }
        crate::inputs::recycle(text);
    }
    out.flush()?;
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::{
        is_invisible, is_json_plain, may_begin_an_invisible, needs_a_look, needs_a_look_in_json,
        push_json_str, write_safe_json_bytes,
    };

    /// Every invisible character begins with bytes that may begin one.
    #[test]
    fn invisible_characters_have_their_bytes_looked_at() {
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let mut buf = [0; 4];
            let bytes = c.encode_utf8(&mut buf).as_bytes();
            let next = bytes.get(1).copied().unwrap_or(0);
            if is_invisible(c) && bytes[0] >= 0x7F {
                assert!(may_begin_an_invisible(bytes[0], next), "U+{:04X}", c as u32);
            }
        }
    }

    /// The same JSON as serde_json followed by the pass that escapes
    /// invisible characters, for every ASCII byte at every offset, and for
    /// non-ASCII text, invisible characters and characters beyond the BMP.
    #[test]
    fn json_strings_as_serde_json_and_the_safe_pass_write_them() {
        let chars = (0u8..0x80).map(char::from).chain([
            'é',
            '\u{202E}',
            '\u{200B}',
            '\u{9B}',
            '\u{E0001}',
            '😀',
            '\u{FEFF}',
            'ж',
            '日',
            'ب',
            '\u{61C}',
            '\u{180E}',
            '\u{AD}',
            '\u{34F}',
            '\u{3164}',
            '\u{3042}',
            '\u{FE0F}',
        ]);
        for c in chars {
            for before in 0..17 {
                let s = format!("{}{c}é{}", "a".repeat(before), "z".repeat(before % 5));
                let mut ours = Vec::new();
                push_json_str(&mut ours, &s);
                let mut theirs = Vec::new();
                write_safe_json_bytes(&mut theirs, &serde_json::to_vec(&s).unwrap()).unwrap();
                assert_eq!(
                    String::from_utf8(ours).unwrap(),
                    String::from_utf8(theirs).unwrap(),
                    "{s:?}"
                );
            }
        }
    }

    /// The one-word test agrees with a look at each byte: every byte value
    /// at every position among clean bytes, and pairs of bytes at once
    /// (a hit below must not hide or fake one above).
    #[test]
    fn words_that_need_a_look_in_json() {
        let look = |b: u8| b < 0x20 || b == b'"' || b == b'\\' || b >= 0x7F;
        for i in 0..8 {
            for b in 0..=255u8 {
                let mut w = *b"abcd~ 09";
                w[i] = b;
                assert_eq!(
                    needs_a_look_in_json(u64::from_le_bytes(w)),
                    look(b),
                    "{b:#x} at {i}"
                );
                for c in [
                    0u8, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0xFF,
                ] {
                    let mut w = w;
                    w[(i + 3) % 8] = c;
                    let want = w.iter().any(|&b| look(b));
                    assert_eq!(needs_a_look_in_json(u64::from_le_bytes(w)), want, "{w:?}");
                }
            }
        }
    }

    /// A string is plain exactly when push_json_str writes it as it is,
    /// whatever its length and wherever the byte that needs a look falls.
    #[test]
    fn plain_strings_are_written_as_they_are() {
        for c in ['a', '"', '\\', '\n', '\u{7F}', 'é', '\u{202E}', '~', ' '] {
            for before in 0..19 {
                let s = format!("{}{c}{}", "x".repeat(before), "y".repeat(before % 3));
                let mut written = Vec::new();
                push_json_str(&mut written, &s);
                let as_is = written == format!("\"{s}\"").into_bytes();
                assert_eq!(is_json_plain(&s), as_is && s.is_ascii(), "{s:?}");
            }
        }
        assert!(is_json_plain(""));
    }

    #[test]
    fn words_that_need_a_look() {
        let word = |b: &[u8; 8]| u64::from_le_bytes(*b);
        assert!(!needs_a_look(word(b"abcdefgh")));
        assert!(!needs_a_look(word(b"~~~~~~~~")));
        for i in 0..8 {
            let mut b = *b"abcdefgh";
            b[i] = 0x7F;
            assert!(needs_a_look(word(&b)), "DEL at {i}");
            b[i] = 0xC3;
            assert!(needs_a_look(word(&b)), "0xC3 at {i}");
        }
    }

    /// An invisible character is escaped wherever it falls among the
    /// eight-byte words, and nothing else changes.
    #[test]
    fn invisible_characters_escaped_at_every_offset() {
        for before in 0..20 {
            for (c, escaped) in [('\u{202E}', "\\u202e"), ('\u{7F}', "\\u007f")] {
                let json = format!("\"{}{c}é{}\"", "a".repeat(before), "b".repeat(before % 9));
                let mut out = Vec::new();
                write_safe_json_bytes(&mut out, json.as_bytes()).unwrap();
                let want = json.replace(c, escaped);
                assert_eq!(String::from_utf8(out).unwrap(), want);
            }
        }
    }
}
