//! What the document readers' tests and fuzz targets share (the feature
//! `documents`): a reader that gives a document in the pieces the caller
//! chose, and the items of one reading, checked for what holds of any
//! reading.

use std::io::{self, Read};

use iribis_documents::{Format, Found, Options, What, read};

/// A document given in pieces, cut where `cuts` says (offsets in order).
///
/// ```
/// use std::io::Read;
/// let mut pieces = iribis_testkit::documents::Pieces { data: b"abcd", cuts: vec![1, 3], at: 0 };
/// let mut buf = [0; 4];
/// assert_eq!(pieces.read(&mut buf).unwrap(), 1);
/// assert_eq!(pieces.read(&mut buf).unwrap(), 2);
/// ```
pub struct Pieces<'a> {
    /// The whole document.
    pub data: &'a [u8],
    /// The offsets where a read ends, in order.
    pub cuts: Vec<usize>,
    /// How much of `data` has been read.
    pub at: usize,
}

impl Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let next_cut = self
            .cuts
            .iter()
            .copied()
            .find(|&c| c > self.at)
            .unwrap_or(self.data.len());
        let n = buf
            .len()
            .min(next_cut - self.at)
            .min(self.data.len() - self.at);
        buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Every item of `data` read as `format` in the given pieces, checked for
/// what holds of any reading: places from 1, offsets in the document and
/// in order, nothing empty where text must be.
pub fn items(format: Format, data: &[u8], cuts: Vec<usize>) -> Vec<Found> {
    let mut all: Vec<Found> = Vec::new();
    let reader = Pieces { data, cuts, at: 0 };
    read(reader, &Options::new(format), |f| {
        assert!(f.line >= 1 && f.column >= 1, "{f:?}");
        if let What::SyntaxError { message } = &f.what {
            assert!(!message.is_empty());
        }
        all.push(f);
        Ok(())
    })
    .expect("reading from memory does not fail");
    let mut last = (0, 0);
    for f in &all {
        if matches!(f.what, What::SyntaxError { .. }) {
            continue;
        }
        assert!(
            (f.line, f.column) >= last,
            "out of order: {f:?} after {last:?}"
        );
        last = (f.line, f.column);
    }
    all
}

/// The items that do not depend on where the reads were cut: all but the
/// RDF/XML parser's syntax errors (its thread reports where it stopped
/// reading, which a cut can move), in document order, a syntax error first
/// at its offset (the readers give an error that a parser reports late, once
/// it has read past it, after the items it lies behind; its place is exact).
pub fn stable(format: Format, items: Vec<Found>) -> Vec<Found> {
    let mut stable: Vec<Found> = items
        .into_iter()
        .filter(|f| format != Format::RdfXml || !matches!(f.what, What::SyntaxError { .. }))
        .collect();
    stable.sort_by_key(|f| (f.offset, !matches!(f.what, What::SyntaxError { .. })));
    stable
}

/// `data` read as `format` whole and cut every `step` bytes: the same
/// stable items.
pub fn same_whatever_the_cuts(format: Format, data: &[u8], step: usize) {
    let whole = items(format, data, Vec::new());
    let cuts = (1..data.len()).step_by(step.max(1)).collect();
    let cut = items(format, data, cuts);
    assert_eq!(
        stable(format, whole),
        stable(format, cut),
        "cut every {step} bytes"
    );
}
