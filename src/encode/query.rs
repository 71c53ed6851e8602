//! Writing a query's `key=value` pairs: [`QueryBuilder`] for a new query,
//! [`QueryPairsMut`] to edit the query of a reference in place.

use crate::prelude::*;
use alloc::borrow::Cow;

use crate::compose::{Parts, recompose};
use crate::decode::{decode_pair_part, split_pair};
use crate::edit::Kind;
use crate::profile::Profile;

/// How the keys and values of a query's pairs write a space.
///
/// No IRI or URI specification gives a query pairs; they are the
/// convention of HTML forms (`application/x-www-form-urlencoded`, WHATWG
/// URL §5), which write a space `+`. Elsewhere a `+` is a `+`, so the
/// default writes a space `%20` (RFC 3986 §2.1), which every reader takes
/// for a space (under [`Profile::Leiri`], whose query allows a space, it
/// stays a space). Both styles encode `+` itself as `%2B`, so a query in the
/// percent style reads the same with and without
/// [`plus_as_space`](crate::QueryPairs::plus_as_space); one in the form
/// style needs it.
///
/// ```
/// use iribis::encode::{QueryBuilder, QueryStyle};
/// use iribis::Profile;
///
/// let mut form = QueryBuilder::new(QueryStyle::Form, Profile::Rfc3987bis);
/// form.append_pair("q", "1 + 1");
/// assert_eq!(form.as_str(), "q=1+%2B+1");
/// let mut percent = QueryBuilder::default();
/// percent.append_pair("q", "1 + 1");
/// assert_eq!(percent.as_str(), "q=1%20%2B%201");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum QueryStyle {
    /// A space is `%20` (RFC 3986 §2.1): read back by
    /// [`IriRef::query_pairs`](crate::IriRef::query_pairs) either way.
    #[default]
    Percent,
    /// A space is `+` (`application/x-www-form-urlencoded`): read back with
    /// [`QueryPairs::plus_as_space`](crate::QueryPairs::plus_as_space).
    Form,
}

impl QueryStyle {
    /// Whether a reader of this style takes `+` for a space.
    fn plus_as_space(self) -> bool {
        self == QueryStyle::Form
    }
}

/// Appends `key=value` to `out`, each encoded by
/// [`key_or_value`](super::key_or_value).
fn push_pair(out: &mut String, key: &str, value: &str, style: QueryStyle, profile: Profile) {
    super::key_or_value(key, style, profile).push_to(out);
    out.push('=');
    super::key_or_value(value, style, profile).push_to(out);
}

/// Writes a query from `key=value` pairs of raw text, each key and value
/// percent-encoded for the profile by
/// [`encode::key_or_value`](super::key_or_value), pairs joined by `&`.
///
/// The result matches the profile's `iquery` and
/// [`IriRef::query_pairs`](crate::IriRef::query_pairs) reads the pairs back
/// (with [`plus_as_space`](crate::QueryPairs::plus_as_space) in the form
/// style). A pair is always written with its `=`, even with an empty value.
///
/// ```
/// use iribis::encode::QueryBuilder;
/// use iribis::Iri;
///
/// let mut q = QueryBuilder::default();
/// q.append_pair("a", "1").append_pair("b", "c&d").extend_pairs([("日本", "é")]);
/// assert_eq!(q.as_str(), "a=1&b=c%26d&日本=é");
/// let iri = Iri::builder().scheme("http").host("h").path("/").query(q.as_str()).build()?;
/// assert_eq!(iri, "http://h/?a=1&b=c%26d&日本=é");
/// let pairs: Vec<_> = iri.query_pairs().collect();
/// assert_eq!((&*pairs[1].0, &*pairs[1].1), ("b", "c&d"));
/// # Ok::<(), iribis::ParseError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QueryBuilder {
    query: String,
    style: QueryStyle,
    profile: Profile,
}

impl QueryBuilder {
    /// An empty query, to write in `style` for `profile`.
    ///
    /// ```
    /// use iribis::encode::{QueryBuilder, QueryStyle};
    /// use iribis::Profile;
    ///
    /// let mut q = QueryBuilder::new(QueryStyle::Percent, Profile::Rfc3986);
    /// q.append_pair("q", "日本");
    /// assert_eq!(q.as_str(), "q=%E6%97%A5%E6%9C%AC");
    /// ```
    pub fn new(style: QueryStyle, profile: Profile) -> Self {
        QueryBuilder {
            query: String::new(),
            style,
            profile,
        }
    }

    /// Appends the pair `key=value`.
    ///
    /// ```
    /// let mut q = iribis::encode::QueryBuilder::default();
    /// q.append_pair("k", "").append_pair("", "v");
    /// assert_eq!(q.as_str(), "k=&=v");
    /// ```
    pub fn append_pair(&mut self, key: &str, value: &str) -> &mut Self {
        if !self.query.is_empty() {
            self.query.push('&');
        }
        push_pair(&mut self.query, key, value, self.style, self.profile);
        self
    }

    /// Appends each pair in order.
    ///
    /// ```
    /// let mut q = iribis::encode::QueryBuilder::default();
    /// q.extend_pairs(vec![("a".to_string(), "1"), ("a".to_string(), "2")]);
    /// assert_eq!(q.as_str(), "a=1&a=2");
    /// ```
    pub fn extend_pairs<I, K, V>(&mut self, pairs: I) -> &mut Self
    where
        I: IntoIterator<Item = (K, V)>,
        K: AsRef<str>,
        V: AsRef<str>,
    {
        for (k, v) in pairs {
            self.append_pair(k.as_ref(), v.as_ref());
        }
        self
    }

    /// The query written so far, without a "?".
    ///
    /// ```
    /// assert_eq!(iribis::encode::QueryBuilder::default().as_str(), "");
    /// ```
    pub fn as_str(&self) -> &str {
        &self.query
    }

    /// Whether no pair was written.
    ///
    /// ```
    /// let mut q = iribis::encode::QueryBuilder::default();
    /// assert!(q.is_empty());
    /// assert!(!q.append_pair("", "").is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.query.is_empty()
    }

    /// The query, without a "?".
    ///
    /// ```
    /// let mut q = iribis::encode::QueryBuilder::default();
    /// q.append_pair("a", "b c");
    /// assert_eq!(q.into_string(), "a=b%20c");
    /// ```
    pub fn into_string(self) -> String {
        self.query
    }
}

impl AsRef<str> for QueryBuilder {
    fn as_ref(&self) -> &str {
        &self.query
    }
}

/// Edits the `key=value` pairs of a reference's query in place, from the
/// `query_pairs_mut` of the owned reference types
/// ([`IriRef::query_pairs_mut`](crate::IriRef::query_pairs_mut), ...).
///
/// Keys and values are raw text, encoded as [`QueryBuilder`] encodes them,
/// in the [`QueryStyle`] chosen with [`QueryPairsMut::style`] (the percent
/// style by default); keys are compared with the keys the query has,
/// decoded as [`IriRef::query_pairs`](crate::IriRef::query_pairs) decodes
/// them in that style. Each edit leaves the pieces it does not touch as
/// they were written, and the reference valid: the query is rewritten at
/// once, and the edits cannot fail. A query left with no pair is removed.
///
/// ```
/// use iribis::encode::QueryStyle;
/// use iribis::Iri;
///
/// let mut iri: Iri<String> = "http://h/p?a=1&b=2&a=3#f".parse()?;
/// iri.query_pairs_mut().set_pair("a", "x y").append_pair("c", "&");
/// assert_eq!(iri, "http://h/p?a=x%20y&b=2&c=%26#f");
/// iri.query_pairs_mut().remove_pairs("b");
/// assert_eq!(iri.query(), Some("a=x%20y&c=%26"));
/// iri.query_pairs_mut().style(QueryStyle::Form).set_pair("a", "x y");
/// assert_eq!(iri.query(), Some("a=x+y&c=%26"));
/// iri.query_pairs_mut().clear();
/// assert_eq!(iri, "http://h/p#f");
/// # Ok::<(), iribis::ParseError>(())
/// ```
#[must_use = "the editor does nothing unless its methods are called"]
pub struct QueryPairsMut<'a, K> {
    target: &'a mut K,
    style: QueryStyle,
}

impl<K> core::fmt::Debug for QueryPairsMut<'_, K> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("QueryPairsMut")
            .field("style", &self.style)
            .finish_non_exhaustive()
    }
}

impl<'a, K: Kind> QueryPairsMut<'a, K> {
    pub(crate) fn new(target: &'a mut K) -> Self {
        QueryPairsMut {
            target,
            style: QueryStyle::Percent,
        }
    }

    /// Encodes and compares in `style` from now on.
    ///
    /// ```
    /// use iribis::encode::QueryStyle;
    ///
    /// let mut r: iribis::IriRef<String> = "?q=a+b".parse()?;
    /// // The form style reads "a+b" as "a b", and writes a space "+".
    /// r.query_pairs_mut().style(QueryStyle::Form).remove_pairs("q").append_pair("q w", "1");
    /// assert_eq!(r, "?q+w=1");
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn style(self, style: QueryStyle) -> Self {
        QueryPairsMut { style, ..self }
    }

    /// The profile of the reference, which the pairs are encoded for.
    fn profile(&self) -> Profile {
        self.target.inner().profile()
    }

    /// Whether `piece` is a pair whose key, decoded, is `key`.
    fn has_key(&self, piece: &str, key: &str) -> bool {
        !piece.is_empty()
            && decode_pair_part(split_pair(piece).0, self.style.plus_as_space()) == key
    }

    /// Replaces the query with `pieces` joined by `&`, or removes it when
    /// they are all empty.
    fn write(&mut self, pieces: &[Cow<'_, str>]) {
        let query = pieces
            .iter()
            .any(|p| !p.is_empty())
            .then(|| pieces.join("&"));
        let inner = self.target.inner();
        let parts = Parts {
            query: query.as_deref(),
            ..Parts::of(inner)
        };
        // The other components are those of a valid reference, and the
        // query is pieces of the profile's valid query joined by "&", or
        // pairs encoded for its `iquery` (every output of `key_or_value`
        // matches it: tests/operations/encode.rs): the recomposition
        // checks what it must and cannot fail.
        match recompose(&parts, K::RULE, inner.profile()) {
            Ok(new) => *self.target.inner_mut() = new,
            Err(e) => unreachable!("an edited query is valid: {e}"),
        }
    }

    /// The query's pieces between `&`s, as written.
    fn pieces(&self) -> Vec<Cow<'static, str>> {
        match self.target.inner().query() {
            Some(q) => q.split('&').map(|p| Cow::Owned(p.to_owned())).collect(),
            None => Vec::new(),
        }
    }

    /// `key=value`, encoded.
    fn pair(&self, key: &str, value: &str) -> Cow<'static, str> {
        let mut out = String::new();
        push_pair(&mut out, key, value, self.style, self.profile());
        Cow::Owned(out)
    }

    /// Appends the pair `key=value` (after an `&`, unless the query is empty
    /// or ends with one); a reference without a query gets one.
    ///
    /// ```
    /// let mut r: iribis::IriRef<String> = "http://h/".parse()?;
    /// r.query_pairs_mut().append_pair("a", "1").append_pair("a", "é");
    /// assert_eq!(r, "http://h/?a=1&a=é");
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn append_pair(&mut self, key: &str, value: &str) -> &mut Self {
        self.extend_pairs([(key, value)])
    }

    /// Appends each pair in order, as [`QueryPairsMut::append_pair`] does,
    /// rewriting the reference once.
    ///
    /// ```
    /// let mut r: iribis::IriRef<String> = "?x".parse()?;
    /// r.query_pairs_mut().extend_pairs([("a", "1"), ("b", "2")]);
    /// assert_eq!(r, "?x&a=1&b=2");
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn extend_pairs<I, Key, Value>(&mut self, pairs: I) -> &mut Self
    where
        I: IntoIterator<Item = (Key, Value)>,
        Key: AsRef<str>,
        Value: AsRef<str>,
    {
        let mut pieces = self.pieces();
        // An empty last piece (an empty query, or one ending with "&") is
        // where the first new pair goes.
        if pieces.last().is_some_and(|p| p.is_empty()) {
            pieces.pop();
        }
        let before = pieces.len();
        pieces.extend(
            pairs
                .into_iter()
                .map(|(k, v)| self.pair(k.as_ref(), v.as_ref())),
        );
        if pieces.len() > before {
            self.write(&pieces);
        }
        self
    }

    /// Sets `key` to `value`: the first pair of `key` gets the value where
    /// it stands and the others are removed; without one, the pair is
    /// appended.
    ///
    /// ```
    /// let mut r: iribis::IriRef<String> = "?a=1&b=2&a=3".parse()?;
    /// r.query_pairs_mut().set_pair("a", "4").set_pair("c", "5");
    /// assert_eq!(r, "?a=4&b=2&c=5");
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn set_pair(&mut self, key: &str, value: &str) -> &mut Self {
        let mut pieces = self.pieces();
        let Some(first) = pieces.iter().position(|p| self.has_key(p, key)) else {
            return self.append_pair(key, value);
        };
        let mut i = 0;
        pieces.retain(|p| {
            i += 1;
            i - 1 <= first || !self.has_key(p, key)
        });
        pieces[first] = self.pair(key, value);
        self.write(&pieces);
        self
    }

    /// Removes every pair of `key`.
    ///
    /// ```
    /// let mut r: iribis::IriRef<String> = "?a=1&b=2&a".parse()?;
    /// r.query_pairs_mut().remove_pairs("a");
    /// assert_eq!(r, "?b=2");
    /// r.query_pairs_mut().remove_pairs("b");
    /// assert_eq!(r.query(), None);
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn remove_pairs(&mut self, key: &str) -> &mut Self {
        let mut pieces = self.pieces();
        let before = pieces.len();
        pieces.retain(|p| !self.has_key(p, key));
        if pieces.len() < before {
            self.write(&pieces);
        }
        self
    }

    /// Removes the query.
    ///
    /// ```
    /// let mut r: iribis::IriRef<String> = "/p?a=1#f".parse()?;
    /// r.query_pairs_mut().clear();
    /// assert_eq!(r, "/p#f");
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn clear(&mut self) -> &mut Self {
        self.write(&[]);
        self
    }
}
