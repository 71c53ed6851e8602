//! Line and column of a byte offset in a document read as a stream: the
//! bytes between the last position asked for and the read head are kept,
//! nothing before it, so memory stays bounded by how far the reader is
//! ahead of the positions asked for.

use std::collections::VecDeque;

/// The UTF-8 byte order mark.
pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Counts lines and characters over a stream's UTF-8 bytes.
#[derive(Default)]
pub(crate) struct Tracker {
    /// The bytes from `at` up to the read head.
    pending: VecDeque<u8>,
    /// The offset of `pending`'s first byte.
    at: u64,
    /// 0-based line and column (in characters) at `at`.
    line: usize,
    column: usize,
}

impl Tracker {
    /// A tracker whose first byte is at `offset` of the document, line 1,
    /// column 1 (after a byte order mark, which takes no column: editors
    /// do not show it).
    pub(crate) fn starting_at(offset: u64) -> Self {
        Tracker {
            at: offset,
            ..Tracker::default()
        }
    }

    /// Appends bytes read from the stream.
    pub(crate) fn push(&mut self, bytes: &[u8]) {
        self.pending.extend(bytes);
    }

    /// The 1-based line and column (in characters: every octet that is not
    /// a UTF-8 continuation octet starts one) of the byte at `offset`. A
    /// line ends at LF (so CRLF too). Offsets asked for must not decrease:
    /// an offset behind the last one gives the last one's position, an
    /// offset past the read head the head's.
    pub(crate) fn locate(&mut self, offset: u64) -> (usize, usize) {
        let ahead = offset.saturating_sub(self.at);
        let n = usize::try_from(ahead)
            .unwrap_or(usize::MAX)
            .min(self.pending.len());
        let (front, back) = self.pending.as_slices();
        let (a, b) = if n <= front.len() {
            (&front[..n], &back[..0])
        } else {
            (front, &back[..n - front.len()])
        };
        for part in [a, b] {
            let mut rest = part;
            while let Some(i) = memchr::memchr(b'\n', rest) {
                self.line += 1;
                self.column = 0;
                rest = &rest[i + 1..];
            }
            self.column += rest.iter().filter(|&&b| b & 0xC0 != 0x80).count();
        }
        self.pending.drain(..n);
        self.at += n as u64;
        (self.line + 1, self.column + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::Tracker;

    #[test]
    fn columns_count_characters() {
        let mut t = Tracker::default();
        t.push("ab\nçé <x".as_bytes());
        assert_eq!(t.locate(0), (1, 1));
        assert_eq!(t.locate(1), (1, 2));
        assert_eq!(t.locate(3), (2, 1));
        // ç and é are two octets each: '<' is the fourth character.
        assert_eq!(t.locate(8), (2, 4));
        t.push(b"y\nz");
        assert_eq!(t.locate(12), (3, 1));
        // Behind: the last position.
        assert_eq!(t.locate(5), (3, 1));
        // After a byte order mark: offsets count it, columns do not.
        let mut t = Tracker::starting_at(3);
        t.push(b"<a>");
        assert_eq!(t.locate(4), (1, 2));
    }
}
