//! Where inputs come from: the arguments, or one per line of standard input
//! (or of a file), each with its line number.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use crate::output::Failure;

/// Inputs, one at a time, from wherever they come.
pub(crate) type Lines = Box<dyn Iterator<Item = io::Result<Line>>>;

/// One input and where it comes from.
pub(crate) struct Line {
    /// The 1-based line of standard input (or of the file) it was read from;
    /// for arguments, the 1-based position of the argument.
    pub(crate) number: usize,
    /// Given as an argument (`number` is then its position), not read from
    /// a line.
    pub(crate) argument: bool,
    pub(crate) input: Input,
    /// Whether the next input can be read without waiting: false when
    /// reading it may block (a pipe or terminal whose data so far has all
    /// been read), so that the answers so far must be flushed first.
    pub(crate) ready: bool,
    /// The bytes it took in the input, terminator included (0 for an
    /// argument): the progress of a file.
    pub(crate) bytes: usize,
}

/// One input: its text, or its bytes when they are not UTF-8.
pub(crate) enum Input {
    Text(String),
    NotUtf8(NotUtf8),
}

/// An input that is not UTF-8, kept as it is: nothing is computed from a
/// substitute text.
pub(crate) struct NotUtf8 {
    bytes: Vec<u8>,
    /// The byte offset of the first octet that is not UTF-8.
    byte: usize,
    /// For a line decoded from another encoding (`--encoding`): its text,
    /// a U+FFFD at `byte` standing for octets the encoding cannot decode.
    undecodable: Option<Box<iribis_documents::Undecodable>>,
}

impl NotUtf8 {
    fn new(bytes: Vec<u8>, byte: usize) -> Self {
        NotUtf8 {
            bytes,
            byte,
            undecodable: None,
        }
    }

    /// The text with U+FFFD in place of each sequence that is not UTF-8:
    /// for the `input` key of the JSON output only.
    pub(crate) fn lossy(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }

    /// The error: where the first octet that is not UTF-8 is, in bytes and in
    /// characters (of the valid text before it).
    pub(crate) fn failure(&self) -> Failure {
        if let Some(u) = &self.undecodable {
            let text = String::from_utf8_lossy(&self.bytes);
            let message = u
                .to_string()
                .replace(" of the document", " of the input")
                .replace(
                "convert the document to the encoding it declares (or declare the one it is in)",
                "give the encoding the input is in with --encoding",
            );
            return Failure::at(&text, self.byte, message, "input", "3987bis §3.1");
        }
        let valid = std::str::from_utf8(&self.bytes[..self.byte]).unwrap_or_default();
        let char = valid.chars().count();
        let octet = self.bytes.get(self.byte).copied().unwrap_or_default();
        let message = format!(
            "not UTF-8 at byte {}, character {char}: the octet {octet:02X} cannot stand there in UTF-8, and an IRI is a sequence of Unicode characters: convert the line from its charset to UTF-8 (3987bis §3.1), or percent-encode the octet as %{octet:02X}",
            self.byte
        );
        // The line as shown: its text, with each octet that is not UTF-8
        // written \xHH (escaping the rest is the report's job).
        let mut shown = String::new();
        let mut at = None;
        for chunk in self.bytes.utf8_chunks() {
            shown.push_str(chunk.valid());
            if chunk.invalid().is_empty() {
                continue;
            }
            at.get_or_insert(shown.len());
            for b in chunk.invalid() {
                shown.push_str(&format!("\\x{b:02X}"));
            }
        }
        Failure::with_report(
            self.byte,
            char,
            message,
            "input",
            "3987bis §3.1",
            &shown,
            at.map_or((0, 0), |at| (at, at + 4)),
        )
    }
}

impl From<Vec<u8>> for Input {
    fn from(bytes: Vec<u8>) -> Self {
        match String::from_utf8(bytes) {
            Ok(s) => Input::Text(s),
            Err(e) => {
                let byte = e.utf8_error().valid_up_to();
                Input::NotUtf8(NotUtf8::new(e.into_bytes(), byte))
            }
        }
    }
}

impl From<OsString> for Input {
    fn from(arg: OsString) -> Self {
        match arg.into_string() {
            Ok(s) => Input::Text(s),
            Err(os) => Input::from(os.as_encoded_bytes().to_vec()),
        }
    }
}

/// The arguments when there are any; otherwise each line of standard input,
/// with only its terminator ("\n" or "\r\n") removed: nothing is trimmed, and
/// an empty line is an input (the empty reference).
pub(crate) fn inputs(args: Vec<OsString>) -> Box<dyn Iterator<Item = io::Result<Line>>> {
    if !args.is_empty() {
        return Box::new(args.into_iter().enumerate().map(|(i, a)| {
            Ok(Line {
                number: i + 1,
                argument: true,
                input: Input::from(a),
                ready: true,
                bytes: 0,
            })
        }));
    }
    Box::new(lines(io::stdin().lock(), stdin_is_file()))
}

impl Line {
    /// Where an input comes from, for a message on standard error:
    /// `argument 2` or `line 2`.
    pub(crate) fn place_of(argument: bool, number: usize) -> String {
        if argument {
            format!("argument {number}")
        } else {
            format!("line {number}")
        }
    }
}

/// `--file PATH`, on every command that reads inputs.
#[derive(clap::Args, Clone, Debug, Default)]
pub(crate) struct FileArg {
    /// Read the inputs from this file, one per line, instead of the
    /// arguments (`-`: standard input); JSON `line` is the line number.
    // Every command gives its positional inputs the id `inputs`.
    #[arg(long, value_name = "PATH", conflicts_with = "inputs")]
    pub(crate) file: Option<PathBuf>,
    /// The encoding of the lines of standard input or of --file (a WHATWG
    /// label: shift_jis, latin1, utf-16le, ...; a byte order mark wins),
    /// decoded before they are read.
    #[arg(long, value_name = "LABEL")]
    pub(crate) encoding: Option<String>,
}

impl FileArg {
    /// The inputs: the lines of the `--file` when there is one, else the
    /// arguments, else the lines of standard input; lines decoded from the
    /// encoding `--encoding` names when given.
    pub(crate) fn inputs(&self, args: Vec<OsString>) -> io::Result<Lines> {
        let label = self.encoding.as_deref();
        match &self.file {
            Some(path) if path.as_os_str() == "-" => stdin_lines(label),
            Some(path) => {
                let (file, regular) = open(path)?;
                read_lines(file, regular, label)
            }
            None => inputs_in(args, label),
        }
    }
}

/// Opens an input file, and says whether it is a regular file (which a
/// read never makes wait). The errors name the file; a directory is one.
pub(crate) fn open(path: &Path) -> io::Result<(File, bool)> {
    let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    let file = File::open(path).map_err(named)?;
    let meta = file.metadata().map_err(named)?;
    if meta.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}: is a directory, not a file of inputs", path.display()),
        ));
    }
    Ok((file, meta.is_file()))
}

/// Whether standard input is a regular file, which never makes a read wait.
#[cfg(unix)]
pub(crate) fn stdin_is_file() -> bool {
    use std::os::fd::AsFd;
    io::stdin()
        .as_fd()
        .try_clone_to_owned()
        .map(std::fs::File::from)
        .and_then(|f| f.metadata())
        .is_ok_and(|m| m.is_file())
}

/// Whether standard input is a regular file: not known here, so treated as
/// a stream that may block.
#[cfg(not(unix))]
pub(crate) fn stdin_is_file() -> bool {
    false
}

/// Each line of `reader` as one input, with only its terminator ("\n" or
/// "\r\n") removed. Unless `regular` (a regular file, where a read never
/// waits), a line is `ready` only when the next complete line is already
/// buffered: otherwise reading it may block, and the answers so far are
/// flushed first (`tail -f log | iri check` answers each line at once).
pub(crate) fn lines(reader: impl Read, regular: bool) -> impl Iterator<Item = io::Result<Line>> {
    let mut reader = BufReader::with_capacity(64 * 1024, reader);
    let mut number = 0;
    std::iter::from_fn(move || {
        // The line goes straight into a spare vector (see `recycle`), or
        // into a new one of its length: one copy of it.
        let mut buf = SPARE.take();
        buf.clear();
        match read_line(&mut reader, &mut buf) {
            Ok(0) => {
                SPARE.set(buf);
                None
            }
            Ok(bytes) => {
                if buf.last() == Some(&b'\n') {
                    buf.pop();
                    if buf.last() == Some(&b'\r') {
                        buf.pop();
                    }
                }
                number += 1;
                let ready = regular || memchr::memchr(b'\n', reader.buffer()).is_some();
                Some(Ok(Line {
                    number,
                    argument: false,
                    input: Input::from(buf),
                    ready,
                    bytes,
                }))
            }
            Err(e) => Some(Err(e)),
        }
    })
}

/// Appends the next line of `reader` to `buf`, its "\n" included, and
/// says how many bytes it took (0 at the end): `read_until`, with the
/// newline found by `memchr` (SIMD where the CPU has it).
fn read_line(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<usize> {
    let mut read = 0;
    loop {
        let available = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let (used, done) = match memchr::memchr(b'\n', available) {
            Some(i) => (i + 1, true),
            None => (available.len(), available.is_empty()),
        };
        buf.extend_from_slice(&available[..used]);
        reader.consume(used);
        read += used;
        if done {
            return Ok(read);
        }
    }
}

/// Each line of `reader`, decoded from the encoding `label` names (a
/// WHATWG label; a byte order mark wins), as [`lines`] gives them: a line
/// with octets the encoding cannot decode is an error that says which and
/// where, never a U+FFFD to check.
pub(crate) fn decoded_lines<R: Read + 'static>(
    reader: R,
    regular: bool,
    label: &str,
) -> io::Result<impl Iterator<Item = io::Result<Line>> + use<R>> {
    let decoded = iribis_documents::DecodingReader::new(reader, label)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, format!("--encoding: {e}")))?;
    let log = decoded.undecodable();
    let mut at = 0u64;
    Ok(lines(decoded, regular).map(move |line| {
        let mut line = line?;
        let start = at;
        at += line.bytes as u64;
        if let Some((bad, mut u)) = log.first_within(start, at) {
            let bytes = match std::mem::replace(&mut line.input, Input::Text(String::new())) {
                Input::Text(t) => t.into_bytes(),
                Input::NotUtf8(n) => n.bytes,
            };
            let byte = usize::try_from(bad - start).unwrap_or(0).min(bytes.len());
            u.char = String::from_utf8_lossy(&bytes[..byte]).chars().count();
            line.input = Input::NotUtf8(NotUtf8 {
                bytes,
                byte,
                undecodable: Some(Box::new(u)),
            });
        }
        Ok(line)
    }))
}

/// [`inputs`], the lines of standard input decoded from `label` when
/// given (`--encoding`; arguments are text already).
pub(crate) fn inputs_in(args: Vec<OsString>, label: Option<&str>) -> io::Result<Lines> {
    if args.is_empty() {
        stdin_lines(label)
    } else {
        Ok(inputs(args))
    }
}

/// The lines of standard input, decoded from `label` when given.
pub(crate) fn stdin_lines(label: Option<&str>) -> io::Result<Lines> {
    read_lines(io::stdin().lock(), stdin_is_file(), label)
}

/// The lines of `reader` ([`lines`]), decoded from `label` when given
/// ([`decoded_lines`]).
pub(crate) fn read_lines(
    reader: impl Read + 'static,
    regular: bool,
    label: Option<&str>,
) -> io::Result<Lines> {
    match label {
        None => Ok(Box::new(lines(reader, regular))),
        Some(label) => Ok(Box::new(decoded_lines(reader, regular, label)?)),
    }
}

/// `--preprocess[=keep|split|encode]`: raw strings cleaned up before
/// parsing (iri-processing-draft-2011 §4), off by default.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub(crate) struct Preprocess {
    /// Trim leading and trailing space, CR, LF and TAB from each input
    /// first (--preprocess or --preprocess=keep: inner spaces stay); with
    /// =split, also split it on runs of spaces into several inputs (a blank
    /// line stays one input, the empty reference), with =encode write inner
    /// spaces as %20. The mode needs the '=': `--preprocess split` is the
    /// flag followed by the input "split"
    #[arg(long, value_name = "SPACES", num_args = 0..=1, require_equals = true, default_missing_value = "keep", value_parser = spaces_arg)]
    preprocess: Option<iribis::convert::InnerSpaces>,
}

fn spaces_arg(s: &str) -> Result<iribis::convert::InnerSpaces, String> {
    match s {
        "keep" => Ok(iribis::convert::InnerSpaces::Keep),
        "split" => Ok(iribis::convert::InnerSpaces::Split),
        "encode" => Ok(iribis::convert::InnerSpaces::Encode),
        _ => Err(format!("{s:?}: use keep, split or encode")),
    }
}

impl Preprocess {
    /// The inputs, pre-processed when asked, each keeping its line number;
    /// a line that is not UTF-8 is passed on as it is. Every line gives at
    /// least one input: one that `split` leaves nothing of gives the empty
    /// reference.
    pub(crate) fn apply(
        self,
        inputs: impl Iterator<Item = io::Result<Line>>,
    ) -> impl Iterator<Item = io::Result<Line>> {
        // The parts of a split line wait here; a line passed on as it is
        // costs no allocation.
        let mut parts_left = std::collections::VecDeque::new();
        let mut inputs = inputs;
        std::iter::from_fn(move || {
            if let Some(part) = parts_left.pop_front() {
                return Some(part);
            }
            match (self.preprocess, inputs.next()?) {
                (
                    Some(spaces),
                    Ok(Line {
                        number,
                        argument,
                        input: Input::Text(t),
                        ready,
                        bytes,
                    }),
                ) => {
                    let mut parts = iribis::convert::preprocess(&t, spaces);
                    if parts.is_empty() {
                        parts.push(String::new());
                    }
                    let last = parts.len() - 1;
                    parts_left.extend(parts.into_iter().enumerate().map(|(i, s)| {
                        Ok(Line {
                            number,
                            argument,
                            input: Input::Text(s),
                            ready: ready || i < last,
                            bytes: if i == last { bytes } else { 0 },
                        })
                    }));
                    parts_left.pop_front()
                }
                (_, other) => Some(other),
            }
        })
    }
}

thread_local! {
    /// A vector a written answer gave back (see [`recycle`]).
    static SPARE: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Gives the text of an answered line back, so that reading the next line
/// on this thread copies into it instead of allocating.
pub(crate) fn recycle(text: String) {
    SPARE.set(text.into_bytes());
}
