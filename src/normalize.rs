//! Normalization and the comparison ladder (RFC 3987 §5.3, RFC 3986 §6.2).
//!
//! Syntax-based normalization (RFC 3987 §5.3.2, RFC 3986 §6.2.2) changes
//! only what the generic syntax says cannot matter: the case of the scheme
//! and of an ASCII host, the case of percent-encoding hex digits,
//! percent-encodings that stand for characters allowed unencoded where they
//! are, characters that must not stand unencoded (percent-encoded, as the
//! IRI → URI mapping encodes them), and dot segments. Scheme-based normalization (RFC 3987 §5.3.3, RFC
//! 3986 §6.2.3) adds what the schemes in [`DEFAULT_PORTS`] and
//! [`DNS_SCHEMES`] define. Neither normalizes Unicode: RFC 3987 §5.3.2.2
//! says comparison must not, so NFC and NFKC are separate, explicit
//! operations ([`IriRef::to_nfc`], [`IriRef::to_nfkc`]).

use crate::prelude::*;
use core::fmt;

use crate::chars;
use crate::components::Component;
use crate::compose::Builder;
use crate::iri::IriRef;
use crate::meta::HostMeta;
use crate::percent::{allowed_in_normal_form, decode_into, not_in_uris};
use crate::resolve::remove_dot_segments;

pub use crate::scheme::{DEFAULT_PORTS, DNS_SCHEMES};

/// How far [`IriRef::normalize_with`] goes, and the rungs of the
/// comparison ladder of RFC 3987 §5.3 ([`equivalent`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Level {
    /// Character by character, with nothing normalized (RFC 3987 §5.3.1).
    Simple,
    /// Syntax-based normalization (RFC 3987 §5.3.2, RFC 3986 §6.2.2).
    #[default]
    Syntax,
    /// Syntax- and scheme-based normalization (RFC 3987 §5.3.3, RFC 3986
    /// §6.2.3).
    Scheme,
}

impl Level {
    /// The name used by the command line: `simple`, `syntax` or `scheme`.
    ///
    /// ```
    /// assert_eq!(iribis::normalize::Level::Scheme.name(), "scheme");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Level::Simple => "simple",
            Level::Syntax => "syntax",
            Level::Scheme => "scheme",
        }
    }

    /// The rung as the comparison ladder names it.
    ///
    /// ```
    /// assert_eq!(iribis::normalize::Level::Syntax.rung(), "syntax-based");
    /// ```
    pub fn rung(self) -> &'static str {
        match self {
            Level::Simple => "simple string",
            Level::Syntax => "syntax-based",
            Level::Scheme => "scheme-based",
        }
    }
}

impl core::str::FromStr for Level {
    type Err = crate::profile::UnknownName;

    fn from_str(s: &str) -> Result<Self, crate::profile::UnknownName> {
        match s {
            "simple" => Ok(Level::Simple),
            "syntax" => Ok(Level::Syntax),
            "scheme" => Ok(Level::Scheme),
            _ => Err(crate::profile::UnknownName::new(
                "normalization level",
                s,
                &["simple", "syntax", "scheme"],
            )),
        }
    }
}

impl<T: crate::iri::Storage> IriRef<T> {
    /// Syntax-based normalization (RFC 3987 §5.3.2, RFC 3986 §6.2.2).
    ///
    /// - the scheme in lowercase, and the host when it is all ASCII (IP
    ///   literals included);
    /// - characters that must not stand unencoded where they are
    ///   percent-encoded as IRI → URI mapping encodes them (3987bis §3.3):
    ///   bidi formatting characters (RFC 3987 §4.1 forbids them in IRIs)
    ///   and, in a reference parsed under the `leiri` profile, the
    ///   characters a LEIRI allows and an IRI does not (3987bis §6.2,
    ///   §6.3), so the normal form is always an IRI reference;
    /// - percent-encoding hex digits in uppercase;
    /// - percent-encodings of unreserved characters decoded, and those of
    ///   UTF-8 sequences that form a character allowed unencoded in that
    ///   component (a `ucschar`, or an `iprivate` in the query) decoded too,
    ///   but never a reserved character nor a bidi formatting character
    ///   (in a reference parsed under the `rfc3986` profile, only the
    ///   unreserved ASCII characters: the normal form of a URI is a URI);
    /// - dot segments removed wherever resolution would remove them
    ///   whatever the base (RFC 3986 §5.2.2): from the path of a reference
    ///   with a scheme or an authority and from an absolute path, and from
    ///   a relative path all but those whose removal could change what it
    ///   resolves to (`./a:b`, `../a` and `a/../b` stay; `./a/./b` and
    ///   `a/b/../c` become `a/b` and `a/c`).
    ///
    /// Delimiters of empty components are kept, and nothing is normalized
    /// to NFC. Normalizing twice changes nothing, and a reference and its
    /// URI ([`crate::to_uri`]) have the same normal form.
    ///
    /// Nothing here depends on the scheme: a default port stays
    /// (`http://a:80/` keeps its `:80`), and so do an empty path after an
    /// authority and an IDN host in punycode. Scheme-based normalization,
    /// [`normalize_with(Level::Scheme)`](IriRef::normalize_with), removes the
    /// port, writes the empty path as "/" and maps the host
    /// (RFC 3986 §6.2.3).
    ///
    /// ```
    /// use iribis::IriRef;
    /// use iribis::normalize::Level;
    ///
    /// let r = IriRef::parse("HTTP://www.Example.ORG/%7euser/./ros%c3%a9/../x%2Fy?%41#")?;
    /// assert_eq!(r.normalize(), "http://www.example.org/~user/x%2Fy?A#");
    /// let r = IriRef::parse("http://example.org/ros%C3%A9")?;
    /// assert_eq!(r.normalize(), "http://example.org/rosé");
    /// let r = IriRef::parse("http://example.org/\u{202E}")?;
    /// assert_eq!(r.normalize(), "http://example.org/%E2%80%AE");
    /// assert_eq!(IriRef::parse("foo:a/../b")?.normalize(), "foo:/b");
    /// assert_eq!(IriRef::parse("./a/./b:c")?.normalize(), "a/b:c");
    /// assert_eq!(IriRef::parse("./a:b")?.normalize(), "./a:b");
    /// // Scheme-independent: the default port stays.
    /// assert_eq!(IriRef::parse("HTTP://a:80")?.normalize(), "http://a:80");
    /// assert_eq!(IriRef::parse("HTTP://a:80")?.normalize_with(Level::Scheme), "http://a/");
    /// let uri = iribis::ParseOptions::new().profile(iribis::Profile::Rfc3986);
    /// assert_eq!(IriRef::parse_with("http://h/ros%c3%a9", &uri)?.normalize(), "http://h/ros%C3%A9");
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn normalize(&self) -> IriRef<String> {
        self.normalize_with(Level::Syntax)
    }

    /// Normalization at `level`: [`Level::Simple`] copies the reference,
    /// [`Level::Syntax`] is [`IriRef::normalize`], and [`Level::Scheme`]
    /// also removes an empty port and the scheme's default port
    /// ([`DEFAULT_PORTS`]), writes the empty path after an authority as "/"
    /// for the schemes of that table (RFC 3986 §6.2.3), and
    /// maps the registered name of a [`DNS_SCHEMES`] IRI through IDNA to
    /// its Unicode form.
    ///
    /// ```
    /// use iribis::IriRef;
    /// use iribis::normalize::Level;
    ///
    /// let r = IriRef::parse("HTTP://xn--rsum-bpad.Example:80")?;
    /// assert_eq!(r.normalize_with(Level::Scheme), "http://résumé.example/");
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn normalize_with(&self, level: Level) -> IriRef<String> {
        if level == Level::Simple {
            return IriRef::from_parts(self.as_str().to_owned(), *self.meta());
        }
        let scheme_level = level == Level::Scheme;
        // Each component is normalized straight into the result: one
        // allocation for the whole (and one more for a relative path).
        let mut out = Builder::with_capacity(self.as_str().len() + 1);
        if let Some(s) = self.scheme() {
            out.scheme(s);
            out.text_mut()[..s.len()].make_ascii_lowercase();
        }
        let scheme = self.scheme().unwrap_or("");
        let uri = self.profile() == crate::Profile::Rfc3986;
        let dns = DNS_SCHEMES.iter().any(|d| d.eq_ignore_ascii_case(scheme));
        let default_port = |p: &str| {
            DEFAULT_PORTS
                .iter()
                .any(|&(s, d)| s.eq_ignore_ascii_case(scheme) && p.parse() == Ok(d))
        };
        if self.authority().is_some() {
            let (host_span, host_meta) = self.meta().host().unwrap_or(((0, 0), HostMeta::RegName));
            let host = self.host_str().unwrap_or("");
            let userinfo = self.userinfo().map(|u| {
                move |out: &mut String| percent_normalize_into(u, Component::Userinfo, uri, out)
            });
            let port = self
                .port()
                .filter(|p| !scheme_level || !(p.is_empty() || default_port(p)));
            let reg_name = host_meta == HostMeta::RegName;
            // At the scheme level a DNS name is also decoded from its
            // A-labels (normalized once, then one or the other written).
            let dns_name = (scheme_level && reg_name && dns).then(|| {
                let mut normal = String::with_capacity(host.len());
                normalize_reg_name(host, uri, &mut normal);
                idn_host(&normal).unwrap_or(normal)
            });
            out.authority_with(
                userinfo,
                |out: &mut String| match &dns_name {
                    Some(name) => out.push_str(name),
                    None if reg_name => normalize_reg_name(host, uri, out),
                    None => {
                        let at = out.len();
                        out.push_str(host);
                        out[at..].make_ascii_lowercase();
                    }
                },
                host_meta,
                host_span,
                port,
            );
        }
        let start = out.len();
        let path = self.path();
        if self.scheme().is_some() || self.authority().is_some() || path.starts_with('/') {
            // RFC 3986 §5.2.2 gives such a path to remove_dot_segments as
            // it is, whatever the base.
            percent_normalize_into(path, Component::Path, uri, out.text_mut());
            remove_dot_segments(out.text_mut(), start);
        } else {
            let path = percent_normalize(path, Component::Path, uri);
            normalize_relative_path(&path, out.text_mut());
        }
        if scheme_level
            && out.len() == start
            && self.authority().is_some()
            && DEFAULT_PORTS
                .iter()
                .any(|&(s, _)| s.eq_ignore_ascii_case(scheme))
        {
            out.text_mut().push('/');
        }
        out.path_from(start);
        if let Some(q) = self.query() {
            out.query_with(|out| percent_normalize_into(q, Component::Query, uri, out));
        }
        if let Some(f) = self.fragment() {
            out.fragment_with(|out| percent_normalize_into(f, Component::Fragment, uri, out));
        }
        out.finish()
    }

    /// The reference with each component in Unicode Normalization Form C,
    /// as 3987bis §3.1 asks of IRIs created from text that may not be.
    /// Normalizing the components one by one keeps their boundaries.
    ///
    /// ```
    /// use iribis::IriRef;
    ///
    /// let r = IriRef::parse("http://h/re\u{301}sume\u{301}")?;
    /// assert_eq!(r.to_nfc().unwrap(), "http://h/résumé");
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn to_nfc(&self) -> Result<IriRef<String>, UnicodeNormalizationError> {
        self.unicode_normalize(Form::Nfc)
    }

    /// The reference with each component in Normalization Form KC
    /// (3987bis §8.5 discusses when to prefer it). An error when NFKC
    /// would turn a character into a delimiter or into one not allowed
    /// there (FULLWIDTH SOLIDUS into "/", say).
    ///
    /// ```
    /// use iribis::IriRef;
    ///
    /// let r = IriRef::parse("http://h/ｆｉｌｅ")?;
    /// assert_eq!(r.to_nfkc().unwrap(), "http://h/file");
    /// assert!(IriRef::parse("http://h/a／b")?.to_nfkc().is_err());
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn to_nfkc(&self) -> Result<IriRef<String>, UnicodeNormalizationError> {
        self.unicode_normalize(Form::Nfkc)
    }

    fn unicode_normalize(&self, form: Form) -> Result<IriRef<String>, UnicodeNormalizationError> {
        let norm = |s: &str| -> String {
            match form {
                Form::Nfc => crate::unicode::nfc(s).into_owned(),
                Form::Nfkc => crate::unicode::nfkc(s).into_owned(),
            }
        };
        let parts = [
            (Component::Scheme, self.scheme().map(norm)),
            (Component::Userinfo, self.userinfo().map(norm)),
            (Component::Host, self.host_str().map(norm)),
            (Component::Port, self.port().map(norm)),
            (Component::Path, Some(norm(self.path()))),
            (Component::Query, self.query().map(norm)),
            (Component::Fragment, self.fragment().map(norm)),
        ];
        // A character that became a delimiter or "%" would change the
        // structure even where the result still parses ("a／b" → "a/b").
        let structural = |s: &str| s.chars().filter(|c| ":/?#[]@%".contains(*c)).count();
        let originals = [
            self.scheme(),
            self.userinfo(),
            self.host_str(),
            self.port(),
            Some(self.path()),
            self.query(),
            self.fragment(),
        ];
        if let Some(i) = originals
            .iter()
            .zip(&parts)
            .position(|(orig, (_, new))| orig.map(structural) != new.as_deref().map(structural))
        {
            return Err(UnicodeNormalizationError {
                form,
                component: parts[i].0,
            });
        }
        let [scheme, userinfo, host, port, path, query, fragment] = &parts;
        let mut out = Builder::with_capacity(self.as_str().len());
        if let Some(s) = &scheme.1 {
            out.scheme(s);
        }
        if self.authority().is_some() {
            // The host's kind is found again by the parse below.
            let host = host.1.as_deref().unwrap_or("");
            out.authority(
                userinfo.1.as_deref(),
                host,
                HostMeta::RegName,
                (0, 0),
                port.1.as_deref(),
            );
        }
        let start = out.len();
        out.text_mut().push_str(path.1.as_deref().unwrap_or(""));
        out.path_from(start);
        if let Some(q) = &query.1 {
            out.query(q);
        }
        if let Some(f) = &fragment.1 {
            out.fragment(f);
        }
        let result = IriRef::try_from(out.into_text());
        let same = |r: &IriRef<String>| {
            [
                r.scheme(),
                r.userinfo(),
                r.host_str(),
                r.port(),
                Some(r.path()),
                r.query(),
                r.fragment(),
            ]
            .iter()
            .zip(&parts)
            .position(|(got, (_, want))| *got != want.as_deref())
        };
        match result {
            Ok(r) => match same(&r) {
                None => Ok(r),
                Some(i) => Err(UnicodeNormalizationError {
                    form,
                    component: parts[i].0,
                }),
            },
            Err(e) => Err(UnicodeNormalizationError {
                form,
                component: e.component(),
            }),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    Nfc,
    Nfkc,
}

/// The error of [`IriRef::to_nfc`] and [`IriRef::to_nfkc`]: normalizing a
/// component turned it into text that is not that component (a character
/// became a delimiter or one not allowed there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnicodeNormalizationError {
    form: Form,
    component: Component,
}

impl UnicodeNormalizationError {
    /// The component whose normalized text no longer fits it.
    pub fn component(&self) -> Component {
        self.component
    }
}

impl fmt::Display for UnicodeNormalizationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let form = match self.form {
            Form::Nfc => "NFC",
            Form::Nfkc => "NFKC",
        };
        write!(
            f,
            "{form} turns the {} into text that is not allowed there (a compatibility character became a delimiter or a disallowed character): percent-encode it first (3987bis §8.5)",
            self.component.name()
        )
    }
}

impl core::error::Error for UnicodeNormalizationError {}

/// Whether two IRIs are equivalent at `level` of the comparison ladder
/// (RFC 3987 §5.3): the same characters ([`Level::Simple`], never through a
/// URI mapping), the same after syntax-based, or after scheme-based
/// normalization. Fragments count; see [`compare`] to ignore them.
///
/// Relative references must be resolved against their base first
/// ([`crate::iri::Iri::resolve`]): two relative references that are equal here
/// may name different resources, and two that differ may name the same.
///
/// ```
/// use iribis::IriRef;
/// use iribis::normalize::{Level, equivalent};
///
/// let a = IriRef::parse("http://example.org/~smith/")?;
/// let b = IriRef::parse("HTTP://EXAMPLE.org/%7Esmith/")?;
/// assert!(!equivalent(&a, &b, Level::Simple));
/// assert!(equivalent(&a, &b, Level::Syntax));
/// # Ok::<(), iribis::ParseError>(())
/// ```
pub fn equivalent<A: crate::iri::Storage, B: crate::iri::Storage>(
    a: &IriRef<A>,
    b: &IriRef<B>,
    level: Level,
) -> bool {
    compare(a, b, level, false).is_some()
}

/// The lowest rung, up to `level`, at which `a` and `b` are equivalent
/// (RFC 3987 §5.3), or `None` when they differ at every rung up to it.
/// With `ignore_fragment`, fragments are left out of the comparison
/// (RFC 3987 §5.1: a fragment is not part of the resource's identity).
///
/// ```
/// use iribis::IriRef;
/// use iribis::normalize::{Level, compare};
///
/// let a = IriRef::parse("http://example.org/")?;
/// let b = IriRef::parse("http://example.org:80/#top")?;
/// assert_eq!(compare(&a, &b, Level::Scheme, false), None);
/// assert_eq!(compare(&a, &b, Level::Scheme, true), Some(Level::Scheme));
/// # Ok::<(), iribis::ParseError>(())
/// ```
pub fn compare<A: crate::iri::Storage, B: crate::iri::Storage>(
    a: &IriRef<A>,
    b: &IriRef<B>,
    level: Level,
    ignore_fragment: bool,
) -> Option<Level> {
    let cut = |s: &str, fragment: Option<&str>| -> usize {
        match (ignore_fragment, fragment) {
            (true, Some(f)) => s.len() - f.len() - 1,
            _ => s.len(),
        }
    };
    let same =
        |x: &str, fx: Option<&str>, y: &str, fy: Option<&str>| x[..cut(x, fx)] == y[..cut(y, fy)];
    [Level::Simple, Level::Syntax, Level::Scheme]
        .into_iter()
        .take_while(|&l| l <= level)
        .find(|&l| {
            let (x, y) = (a.normalize_with(l), b.normalize_with(l));
            same(x.as_str(), x.fragment(), y.as_str(), y.fragment())
        })
}

/// A registered name, percent-normalized and, when it is ASCII, in
/// lowercase but for its percent-encodings' hex digits (RFC 3986 §6.2.2.1),
/// appended to `out`.
fn normalize_reg_name(host: &str, uri: bool, out: &mut String) {
    let at = out.len();
    percent_normalize_into(host, Component::Host, uri, out);
    let written = &mut out[at..];
    if !written.is_ascii() {
        return;
    }
    // Lowercase between the %HH triplets, which stay uppercase.
    let mut from = 0;
    while let Some(k) = written[from..].find('%') {
        written[from..from + k].make_ascii_lowercase();
        from = (from + k + 3).min(written.len());
    }
    written[from..].make_ascii_lowercase();
}

/// The registered name `host` (syntax-normalized) through UTS #46 mapping
/// and ToUnicode, when that succeeds and gives a valid `ireg-name`.
fn idn_host(host: &str) -> Option<String> {
    if host.is_empty() || host.contains('%') {
        return None;
    }
    let (unicode, result) = idna::domain_to_unicode(host);
    let valid = result.is_ok()
        && !unicode.is_empty()
        && unicode
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-._~".contains(c) || chars::is_ucschar(c));
    valid.then_some(unicode)
}

/// Percent-encoding normalization of one component's text, as RFC 3987
/// §5.3.2.3 describes it: "converting both IRIs to URIs (see section 3.1),
/// eliminating escape differences in the resulting URIs". Each character
/// that must not stand unencoded there (see [`must_encode`]) is written as
/// the `%HH` of its UTF-8 octets, as IRI → URI mapping writes it (3987bis
/// §3.3); then hex digits go to uppercase, and the encodings of unreserved
/// characters and of characters allowed unencoded in `component` are
/// decoded: steps 2-6 of URI → IRI conversion (3987bis §4.2). So a
/// reference and its URI have the same normal form.
fn percent_normalize(text: &str, component: Component, uri: bool) -> String {
    let mut out = String::with_capacity(text.len());
    percent_normalize_into(text, component, uri, &mut out);
    out
}

/// [`percent_normalize`], appending to `out`.
///
/// In a URI (`uri`: a reference parsed under the `rfc3986` profile) only
/// the unreserved ASCII characters are decoded (RFC 3986 §6.2.2.2): the
/// normal form of a URI is a URI.
fn percent_normalize_into(text: &str, component: Component, uri: bool, out: &mut String) {
    let keep = |c: char| (!uri || c.is_ascii()) && allowed_in_normal_form(c, component);
    // A scan of the bytes settles most text; the characters that start
    // with a suspect byte are looked at one by one.
    let suspect = |b: u8| SUSPECT[usize::from(b)];
    if !text.bytes().any(suspect) || !text.chars().any(|c| must_encode(c, component)) {
        decode_into(text, keep, out);
        return;
    }
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut encoded = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if must_encode(c, component) {
            for &b in c.encode_utf8(&mut [0; 4]).as_bytes() {
                encoded.push('%');
                encoded.push(char::from(HEX[usize::from(b >> 4)]));
                encoded.push(char::from(HEX[usize::from(b & 15)]));
            }
        } else {
            encoded.push(c);
        }
    }
    decode_into(&encoded, keep, out);
}

/// Whether `c` must not stand unencoded in `component` of an IRI, though
/// a parse lets it: the bidi formatting characters, which `ucschar`
/// includes and RFC 3987 §4.1 forbids ("IRIs MUST NOT contain
/// bidirectional formatting characters"), and what only the `leiri`
/// profile parses: the ASCII a LEIRI allows and an IRI does not (controls,
/// space, `` "<>\^`{|} ``) and the non-ASCII characters outside `ucschar`
/// (private use outside the query, tags, specials, noncharacters, C1
/// controls), which 3987bis §6.2 maps to IRIs by percent-encoding them
/// ("each character allowed in a Legacy Extended IRI (reference) but not
/// allowed in an IRI (reference) ... MUST be percent-encoded").
fn must_encode(c: char, component: Component) -> bool {
    if c.is_ascii() {
        not_in_uris(c as u8)
    } else {
        !allowed_in_normal_form(c, component)
    }
}

/// The bytes that start every character [`must_encode`] may be true for:
/// the ASCII of [`not_in_uris`], and the lead bytes of UTF-8 sequences of
/// U+0080–00BF (C1 controls), U+0600–063F (ALM), U+2000–2FFF (the other
/// bidi formatting characters) and U+E000 onwards (private use, specials,
/// noncharacters, tags). Every other non-ASCII character is a `ucschar`.
const SUSPECT: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = not_in_uris(b as u8) || matches!(b, 0xC2 | 0xD8 | 0xE2 | 0xEE..=0xF4);
        b += 1;
    }
    table
};

/// Writes the relative-path reference `path` (no scheme, no authority, not
/// starting with "/", not empty when it matters) with the dot segments
/// removed that resolution would remove against every base, and nothing
/// else changed in meaning (RFC 3986 §5.2.2–5.2.4).
///
/// A relative path is merged onto the base's directory before
/// remove_dot_segments runs, so its meaning is a function of the base.
/// Read as a stack of segments, "seg/.." cancels and "." vanishes; what is
/// left is some leading "../" and then segments. Two things keep more:
///
/// - under a base whose path has no "/" and no authority (`foo:x`), the
///   merged path is the reference's path alone, where a leading "." or ".."
///   is dropped (§5.2.4 rules A and D) and popping the first segment makes
///   the path absolute (`a/../b` gives `/b`, while `b` gives `b`). So when
///   the first segment that is not a dot segment is popped, it is kept with
///   its "..": `a/b/../../c` becomes `a/../c`, not `c`. Unmatched ".."
///   segments after it may move before it (`a/../../c` becomes
///   `../a/../c`): both orders pop the same segments under every base.
/// - a first segment with a colon would read as a scheme, and an empty one
///   as the start of an authority or an absolute path (RFC 3986 §4.2), so
///   "./" stays in front of them; "." stands for the empty result, which
///   the empty reference (the base itself, query included) does not mean.
///
/// A trailing "." or ".." leaves a trailing "/" ("a/b/.." is "a/"), except
/// after a kept ".." (`..`, `a/..`), which means the same.
fn normalize_relative_path(path: &str, out: &mut String) {
    // Without a dot segment there is nothing to do: the first segment of a
    // relative path has no colon and is not empty, and percent-encoding
    // normalization never decodes "%3A".
    if !path.split('/').any(|s| s == "." || s == "..") {
        out.push_str(path);
        return;
    }
    let mut ups = 0;
    // The first segment pushed, once a ".." has popped it.
    let mut kept: Option<&str> = None;
    let mut stack: Vec<&str> = Vec::new();
    let mut segments = path.split('/').peekable();
    while let Some(s) = segments.next() {
        let last = segments.peek().is_none();
        match s {
            "." | ".." => {
                if s == ".." {
                    match stack.pop() {
                        Some(first) if stack.is_empty() && kept.is_none() => kept = Some(first),
                        Some(_) => {}
                        None => ups += 1,
                    }
                }
                if last {
                    stack.push("");
                }
            }
            _ => stack.push(s),
        }
    }
    let mut parts: Vec<&str> = Vec::with_capacity(ups + 3 + stack.len());
    let lead = kept.or(stack.first().copied());
    if ups == 0 && lead.is_none_or(|s| s.is_empty() || s.contains(':')) {
        parts.push(".");
    }
    parts.extend(core::iter::repeat_n("..", ups));
    if let Some(first) = kept {
        parts.extend([first, ".."]);
    }
    parts.extend(stack);
    if parts.len() >= 2
        && parts[parts.len() - 1].is_empty()
        && let "." | ".." = parts[parts.len() - 2]
    {
        parts.pop();
    }
    let mut first = true;
    for p in parts {
        if !first {
            out.push('/');
        }
        first = false;
        out.push_str(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_normalization() {
        let cases = [
            ("%7e%41%2f%2F", "~A%2F%2F"),
            ("ros%c3%a9", "rosé"),
            ("%C3", "%C3"),
            ("%C3%28", "%C3%28"),
            ("%C0%AF", "%C0%AF"),
            ("%ED%A0%80", "%ED%A0%80"),
            ("%E2%80%8E", "%E2%80%8E"),
            ("%EE%80%80", "%EE%80%80"),
            ("%EF%BF%BE", "%EF%BF%BE"),
            ("%20%25", "%20%25"),
            ("a%", "a%"),
            ("é%e9", "é%E9"),
        ];
        for (input, output) in cases {
            assert_eq!(
                percent_normalize(input, Component::Path, false),
                output,
                "{input}"
            );
        }
        assert_eq!(
            percent_normalize("%EE%80%80", Component::Query, false),
            "\u{E000}"
        );
        // A URI's normal form is a URI: only unreserved ASCII is decoded.
        assert_eq!(
            percent_normalize("ros%c3%a9%7e", Component::Path, true),
            "ros%C3%A9~"
        );
    }
}
