//! The floor of `benches/lines.py`: read each line of standard input and
//! write it back as a JSON string, one per line, as `iri ... --json` does
//! with its input key. No parsing: whatever `iri` spends beyond this is
//! its own work. Standard library only, so that `rustc -O` builds it alone:
//!
//!     rustc -O --edition 2021 benches/floor.rs -o target/floor
//!     target/floor < lines.txt > /dev/null

use std::io::{self, BufRead, BufWriter, Write};

fn main() -> io::Result<()> {
    let stdin = io::stdin().lock();
    let mut input = io::BufReader::with_capacity(64 * 1024, stdin);
    let mut out = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        let text = String::from_utf8_lossy(&line);
        out.write_all(b"\"")?;
        // Runs of bytes that need no escape are written at once.
        let mut start = 0;
        for (i, b) in text.bytes().enumerate() {
            if b == b'"' || b == b'\\' || b < 0x20 {
                out.write_all(&text.as_bytes()[start..i])?;
                match b {
                    b'"' => out.write_all(b"\\\"")?,
                    b'\\' => out.write_all(b"\\\\")?,
                    _ => write!(out, "\\u{b:04x}")?,
                }
                start = i + 1;
            }
        }
        out.write_all(&text.as_bytes()[start..])?;
        out.write_all(b"\"\n")?;
    }
    out.flush()
}
