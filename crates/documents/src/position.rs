//! Line and column of a byte offset in a document read as a stream: the
//! bytes from a little behind the furthest position asked for up to the
//! read head are kept, nothing before them, so memory stays bounded by how
//! far the reader is ahead of the positions asked for, plus [`BEHIND`].

use std::collections::VecDeque;

/// The UTF-8 byte order mark.
pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// How many bytes behind the furthest position asked for are kept, so
/// that a position a reader learns of late (a parser that reports an error
/// once it has read past it) is still exact.
const BEHIND: u64 = 1024 * 1024;

/// The most bytes between two remembered positions: a position behind the
/// furthest is counted from the remembered one before it.
const STRIDE: u64 = 64 * 1024;

/// A mark nearer than this to the one before the last replaces the last.
const NEAR: u64 = 4 * 1024;

/// Counts lines and characters over a stream's UTF-8 bytes.
pub(crate) struct Tracker {
    /// The bytes from `marks[0]`'s offset up to the read head.
    bytes: VecDeque<u8>,
    /// Positions worked out (offset, 0-based line and column), in order,
    /// at most [`STRIDE`] bytes apart; the first is where `bytes` starts,
    /// the last the furthest position asked for. Never empty.
    marks: VecDeque<(u64, usize, usize)>,
}

impl Default for Tracker {
    /// A stream read from its first byte.
    fn default() -> Self {
        Tracker::starting_at(0)
    }
}

impl Tracker {
    /// A tracker whose first byte is at `offset` of the document, line 1,
    /// column 1 (after a byte order mark, which takes no column: editors
    /// do not show it).
    pub(crate) fn starting_at(offset: u64) -> Self {
        Tracker {
            bytes: VecDeque::new(),
            marks: VecDeque::from([(offset, 0, 0)]),
        }
    }

    /// Appends bytes read from the stream.
    pub(crate) fn push(&mut self, bytes: &[u8]) {
        self.bytes.extend(bytes);
    }

    /// The 1-based line and column (in characters: every octet that is not
    /// a UTF-8 continuation octet starts one) of the byte at `offset`. A
    /// line ends at LF (so CRLF too). An offset past the read head gives
    /// the head's position; one behind the furthest asked for is exact up
    /// to [`BEHIND`] bytes back, and older ones give the oldest position
    /// kept.
    pub(crate) fn locate(&mut self, offset: u64) -> (usize, usize) {
        let start = self.marks[0].0;
        let head = start + self.bytes.len() as u64;
        let offset = offset.min(head);
        let &(furthest, ..) = self.marks.back().expect("a mark");
        if offset < furthest {
            // Behind: from the last mark at or before it, not remembered.
            let k = self.marks.partition_point(|m| m.0 <= offset);
            let Some(&mark) = k.checked_sub(1).and_then(|k| self.marks.get(k)) else {
                let (_, line, column) = self.marks[0];
                return (line + 1, column + 1);
            };
            let (_, line, column) = self.count(mark, offset);
            return (line + 1, column + 1);
        }
        // Ahead: remembered, a mark every STRIDE bytes.
        let mut mark = *self.marks.back().expect("a mark");
        while mark.0 < offset {
            mark = self.count(mark, offset.min(mark.0 + STRIDE));
            // Positions asked for close together (an IRI every few bytes)
            // move the last mark instead of adding one.
            let n = self.marks.len();
            if n >= 2 && mark.0 - self.marks[n - 2].0 < NEAR {
                self.marks.pop_back();
            }
            self.marks.push_back(mark);
        }
        // What lies more than BEHIND bytes back is dropped.
        while self.marks.len() > 1 && self.marks[1].0 + BEHIND <= mark.0 {
            self.marks.pop_front();
        }
        let drop = usize::try_from(self.marks[0].0 - start).unwrap_or(usize::MAX);
        self.bytes.drain(..drop.min(self.bytes.len()));
        (mark.1 + 1, mark.2 + 1)
    }

    /// The bytes kept from `offset` on, `len` at most (none when the byte
    /// at `offset` is not kept).
    pub(crate) fn bytes_at(&self, offset: u64, len: usize) -> Vec<u8> {
        let start = self.marks[0].0;
        let Some(skip) = offset
            .checked_sub(start)
            .and_then(|k| usize::try_from(k).ok())
        else {
            return Vec::new();
        };
        let from = skip.min(self.bytes.len());
        let to = skip.saturating_add(len).min(self.bytes.len());
        self.bytes.range(from..to).copied().collect()
    }

    /// The position of `to`, counted from `from` (a mark at or before it,
    /// both within the bytes kept).
    fn count(&self, from: (u64, usize, usize), to: u64) -> (u64, usize, usize) {
        let (at, mut line, mut column) = from;
        let start = self.marks[0].0;
        let lo = usize::try_from(at - start).unwrap_or(usize::MAX);
        let hi = usize::try_from(to - start).unwrap_or(usize::MAX);
        let (front, back) = self.bytes.as_slices();
        let parts = if hi <= front.len() {
            [&front[lo..hi], &back[..0]]
        } else if lo >= front.len() {
            [&back[lo - front.len()..hi - front.len()], &front[..0]]
        } else {
            [&front[lo..], &back[..hi - front.len()]]
        };
        for part in parts {
            let mut rest = part;
            while let Some(i) = memchr::memchr(b'\n', rest) {
                line += 1;
                column = 0;
                rest = &rest[i + 1..];
            }
            column += rest.iter().filter(|&&b| b & 0xC0 != 0x80).count();
        }
        (to, line, column)
    }
}

#[cfg(test)]
mod tests {
    use super::{BEHIND, NEAR, STRIDE, Tracker};

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
        // Behind: exact, and the furthest position stays where it was.
        assert_eq!(t.locate(5), (2, 2));
        assert_eq!(t.locate(1), (1, 2));
        assert_eq!(t.locate(12), (3, 1));
        // Past the head: the head's.
        assert_eq!(t.locate(99), (3, 2));
        // After a byte order mark: offsets count it, columns do not.
        let mut t = Tracker::starting_at(3);
        t.push(b"<a>");
        assert_eq!(t.locate(4), (1, 2));
        // The bytes kept, from an offset.
        assert_eq!(t.bytes_at(4, 9), b"a>");
        assert_eq!(t.bytes_at(2, 9), b"");
        assert_eq!(t.bytes_at(9, 9), b"");
    }

    #[test]
    fn memory_stays_bounded_and_late_positions_exact() {
        let mut t = Tracker::default();
        let line = [b"a".repeat(99), b"\n".to_vec()].concat();
        for i in 0..100_000u64 {
            t.push(&line);
            let furthest = i * 100 + 50;
            assert_eq!(t.locate(furthest), (i as usize + 1, 51));
            if i % 997 == 0 && furthest > BEHIND {
                // A position BEHIND bytes back is still exact.
                let back = furthest - BEHIND + 1;
                assert_eq!(
                    t.locate(back),
                    ((back / 100) as usize + 1, (back % 100) as usize + 1)
                );
            }
        }
        assert!(
            t.bytes.len() as u64 <= BEHIND + 2 * STRIDE,
            "{}",
            t.bytes.len()
        );
        // Two marks in 4 KiB at most, not one per position asked for.
        assert!(
            t.marks.len() as u64 <= 2 * BEHIND / NEAR + 2,
            "{}",
            t.marks.len()
        );
        // One jump of many strides keeps marks STRIDE apart.
        let mut t = Tracker::default();
        t.push(&b"x".repeat(10 * STRIDE as usize));
        assert_eq!(t.locate(10 * STRIDE - 1), (1, 10 * STRIDE as usize));
        assert_eq!(t.locate(5 * STRIDE + 2), (1, 5 * STRIDE as usize + 3));
    }
}
