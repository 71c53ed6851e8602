//! Percent-decoded views of components, and the query read as
//! `key=value` pairs.

use alloc::borrow::Cow;
use core::str::Utf8Error;

use percent_encoding::percent_decode_str;

/// A component's text, percent-decoded when asked: the octets each `%HH`
/// stands for (RFC 3986 §2.1), which are often, but need not be, UTF-8.
///
/// Decoding is for reading a component's data, never for writing it back:
/// a decoded "/" in a path segment or "&" in a query is data, not a
/// delimiter. Each conversion borrows the text when it has no `%`.
///
/// ```
/// use iribis::IriRef;
///
/// let r = IriRef::parse("http://h/r%C3%A9sum%C3%A9%2Fcv?q=%E6%97%A5#%FF")?;
/// let path = r.path_decoded();
/// assert_eq!(path.as_encoded(), "/r%C3%A9sum%C3%A9%2Fcv");
/// assert_eq!(path.to_str()?, "/résumé/cv");
/// assert_eq!(&*path.to_bytes(), "/résumé/cv".as_bytes());
/// // %FF is no UTF-8: the lossy view replaces it with U+FFFD.
/// let fragment = r.fragment_decoded().unwrap();
/// assert!(fragment.to_str().is_err());
/// assert_eq!(fragment.to_bytes().as_ref(), [0xFF]);
/// assert_eq!(fragment.to_str_lossy(), "\u{FFFD}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Decoded<'a> {
    text: &'a str,
}

impl<'a> Decoded<'a> {
    /// A view of `text`, such as a path segment from
    /// [`IriRef::path_segments`](crate::iri::IriRef::path_segments). A `%` not
    /// followed by two hexadecimal digits (which no parsed component has)
    /// is left as it is.
    ///
    /// ```
    /// use iribis::{Decoded, IriRef};
    ///
    /// let r = IriRef::parse("http://h/a%2Fb/c")?;
    /// let segments: Vec<_> = r.path_segments().map(|s| Decoded::new(s).to_str_lossy()).collect();
    /// assert_eq!(segments, ["a/b", "c"]);
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn new(text: &'a str) -> Self {
        Decoded { text }
    }

    /// The text as written, still percent-encoded.
    pub fn as_encoded(&self) -> &'a str {
        self.text
    }

    /// The decoded octets.
    pub fn to_bytes(&self) -> Cow<'a, [u8]> {
        percent_decode_str(self.text).into()
    }

    /// The decoded octets as UTF-8; an error when they are not UTF-8.
    pub fn to_str(&self) -> Result<Cow<'a, str>, Utf8Error> {
        percent_decode_str(self.text).decode_utf8()
    }

    /// The decoded octets as UTF-8, each invalid sequence replaced with
    /// U+FFFD REPLACEMENT CHARACTER.
    pub fn to_str_lossy(&self) -> Cow<'a, str> {
        percent_decode_str(self.text).decode_utf8_lossy()
    }
}

/// The query read as `key=value` pairs, from
/// [`IriRef::query_pairs`](crate::iri::IriRef::query_pairs).
///
/// No IRI or URI specification gives the query a structure (RFC 3986
/// §3.4: "non-hierarchical data"); pairs separated by `&`, each split at
/// its first `=`, is the convention of HTML forms
/// (`application/x-www-form-urlencoded`, WHATWG URL §5.1), which this
/// follows: empty pieces (`a&&b`) are skipped, a piece without `=` has an
/// empty value, and keys and values are percent-decoded as UTF-8, lossily.
/// Forms also write a space as `+`; that reading is opt-in
/// ([`QueryPairs::plus_as_space`]), since in any other query `+` is a `+`.
///
/// ```
/// use iribis::IriRef;
///
/// let r = IriRef::parse("http://h/?q=caf%C3%A9+au+lait&lang=fr&&flag&a=b=c")?;
/// let pairs: Vec<_> = r.query_pairs().collect();
/// let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (&**k, &**v)).collect();
/// assert_eq!(pairs, [("q", "café+au+lait"), ("lang", "fr"), ("flag", ""), ("a", "b=c")]);
/// let (key, value) = r.query_pairs().plus_as_space().next().unwrap();
/// assert_eq!((&*key, &*value), ("q", "café au lait"));
/// // "%2B" is a "+" either way.
/// let r = IriRef::parse("?sum=1%2B1")?;
/// assert_eq!(r.query_pairs().plus_as_space().next().unwrap().1, "1+1");
/// # Ok::<(), iribis::ParseError>(())
/// ```
#[derive(Clone, Debug)]
#[must_use = "iterators do nothing unless consumed"]
pub struct QueryPairs<'a> {
    pieces: core::str::Split<'a, char>,
    plus_as_space: bool,
}

impl<'a> QueryPairs<'a> {
    /// The pairs of `query` (without its "?"); none for an absent query.
    pub(crate) fn new(query: Option<&'a str>) -> Self {
        // An absent query and an empty one both have no pieces: splitting
        // "" gives one empty piece, which is skipped.
        QueryPairs {
            pieces: query.unwrap_or("").split('&'),
            plus_as_space: false,
        }
    }

    /// Reads `+` as a space, as `application/x-www-form-urlencoded` does
    /// (before percent-decoding, so `%2B` stays a `+`).
    pub fn plus_as_space(mut self) -> Self {
        self.plus_as_space = true;
        self
    }
}

/// A piece of a query between `&`s, split at its first `=` into a key and
/// a value (empty when there is no `=`).
pub(crate) fn split_pair(piece: &str) -> (&str, &str) {
    piece.split_once('=').unwrap_or((piece, ""))
}

/// A key or a value of a query's pairs, percent-decoded as UTF-8 (lossily),
/// `+` read as a space first with `plus_as_space`.
pub(crate) fn decode_pair_part(text: &str, plus_as_space: bool) -> Cow<'_, str> {
    if plus_as_space && text.contains('+') {
        let spaced = text.replace('+', " ");
        Cow::Owned(percent_decode_str(&spaced).decode_utf8_lossy().into_owned())
    } else {
        percent_decode_str(text).decode_utf8_lossy()
    }
}

impl<'a> Iterator for QueryPairs<'a> {
    type Item = (Cow<'a, str>, Cow<'a, str>);

    fn next(&mut self) -> Option<Self::Item> {
        let piece = self.pieces.by_ref().find(|p| !p.is_empty())?;
        let (key, value) = split_pair(piece);
        let plus = self.plus_as_space;
        Some((decode_pair_part(key, plus), decode_pair_part(value, plus)))
    }
}
