//! Conversions between IRIs and URIs (3987bis §3 and §4, RFC 3987 §3.1 and
//! §3.2), LEIRIs to IRIs (3987bis §6.2), and pre-processing of raw strings
//! (iri-processing-draft-2011 §4).

use crate::prelude::*;
use alloc::borrow::Cow;
use core::fmt;

use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};

use crate::components::Component;
use crate::compose::Builder;
use crate::error::ParseError;
use crate::host::Host;
use crate::iri::parse_owned;
use crate::iri::{IriRef, ParseOptions, Storage};
use crate::percent::{Before, Stage, appropriate_at, decode_all_utf8, not_in_uris, render, walk};
use crate::profile::Profile;
use crate::rule::GrammarRule;
use crate::scheme::DNS_SCHEMES;

/// The characters that §3.3 percent-encodes: everything not allowed
/// anywhere in a URI. Non-ASCII characters always are; of ASCII, those of
/// [`not_in_uris`] (the characters a LEIRI allows and a URI does not,
/// 3987bis §6.3). `%` is not in the set: existing percent-encodings stay as
/// they are.
const NOT_IN_URIS: &AsciiSet = &{
    // CONTROLS has U+0000–001F and DEL.
    let mut set = CONTROLS.add(b' ');
    let mut b = b'!';
    while b < 0x7F {
        if not_in_uris(b) {
            set = set.add(b);
        }
        b += 1;
    }
    set
};

/// Options of IRI → URI conversion ([`to_uri`]).
///
/// ```
/// use iribis::to_uri;
/// use iribis::convert::ToUriOptions;
///
/// let idna = ToUriOptions::new().idna(true);
/// assert_eq!(to_uri("http://résumé.example.org/", &idna)?, "http://xn--rsum-bpad.example.org/");
/// # Ok::<(), iribis::convert::ConvertError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct ToUriOptions {
    profile: Profile,
    idna: bool,
    idna_mode: IdnaMode,
    query_charset: Option<Charset>,
}

/// A document charset other than UTF-8 (3987bis §3.5): a WHATWG encoding,
/// with the `charsets` feature.
#[cfg(feature = "charsets")]
type Charset = &'static encoding_rs::Encoding;

/// Without the `charsets` feature there is no charset but UTF-8, which
/// needs none: this type has no value.
#[cfg(not(feature = "charsets"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Charset {}

/// The WHATWG labels of UTF-8, which need no encoder.
#[cfg(not(feature = "charsets"))]
const UTF8_LABELS: &[&str] = &[
    "unicode-1-1-utf-8",
    "unicode11utf8",
    "unicode20utf8",
    "utf-8",
    "utf8",
    "x-unicode20utf8",
];

impl ToUriOptions {
    /// The defaults: profile `rfc3987bis`, registered names percent-encoded
    /// (§3.4.1), queries in UTF-8.
    pub fn new() -> Self {
        Self::default()
    }

    /// The profile the input is parsed with; with [`Profile::Leiri`] the
    /// characters a LEIRI allows and an IRI does not are percent-encoded
    /// too (3987bis §6.2), so LEIRI → URI works in one step.
    pub fn profile(mut self, profile: Profile) -> Self {
        self.profile = profile;
        self
    }

    /// Convert a registered name with IDNA (3987bis §3.4.2: `résumé` →
    /// `xn--rsum-bpad`) instead of percent-encoding it (§3.4.1), in the
    /// [`IdnaMode`] set (by default [`IdnaMode::Idna2008`], RFC 5891's
    /// lookup as 3987bis asks).
    pub fn idna(mut self, idna: bool) -> Self {
        self.idna = idna;
        self
    }

    /// Convert a registered name with IDNA in `mode`, which turns
    /// [`idna`](Self::idna) on.
    ///
    /// ```
    /// use iribis::to_uri;
    /// use iribis::convert::{IdnaMode, ToUriOptions};
    ///
    /// // U+2603 SNOWMAN is DISALLOWED in IDNA2008 (RFC 5892): the conversion fails.
    /// let strict = ToUriOptions::new().idna_mode(IdnaMode::Idna2008);
    /// let e = to_uri("http://☃.com/", &strict).unwrap_err();
    /// assert!(e.to_string().contains("U+2603"));
    /// // UTS #46, as browsers map, takes it.
    /// let browser = ToUriOptions::new().idna_mode(IdnaMode::Uts46);
    /// assert_eq!(to_uri("http://☃.com/", &browser)?, "http://xn--n3h.com/");
    /// # Ok::<(), iribis::convert::ConvertError>(())
    /// ```
    pub fn idna_mode(mut self, mode: IdnaMode) -> Self {
        self.idna = true;
        self.idna_mode = mode;
        self
    }

    /// The charset of the document the IRI comes from, by its WHATWG label
    /// (`windows-1252`, `shift_jis`, ...): for `http` and `https` the
    /// query's characters are encoded in it before percent-encoding
    /// (3987bis §3.5). A character the charset cannot represent is written
    /// as an HTML numeric character reference (`&#233;`), percent-encoded,
    /// as browsers submit forms: the server sees what a form would send.
    ///
    /// Charsets other than UTF-8 need the `charsets` feature (on with
    /// `cli`); without it only the labels of UTF-8 are known.
    ///
    /// ```
    /// use iribis::to_uri;
    /// use iribis::convert::ToUriOptions;
    ///
    /// let utf8 = ToUriOptions::new().query_charset("UTF-8")?;
    /// assert_eq!(to_uri("http://h/?q=é", &utf8)?, "http://h/?q=%C3%A9");
    /// # #[cfg(feature = "charsets")]
    /// # {
    /// let latin1 = ToUriOptions::new().query_charset("windows-1252")?;
    /// assert_eq!(to_uri("http://h/?q=é", &latin1)?, "http://h/?q=%E9");
    /// # }
    /// assert!(ToUriOptions::new().query_charset("no-such-charset").is_err());
    /// # Ok::<(), iribis::convert::ConvertError>(())
    /// ```
    pub fn query_charset(mut self, label: &str) -> Result<Self, ConvertError> {
        #[cfg(feature = "charsets")]
        {
            let encoding = encoding_rs::Encoding::for_label(label.as_bytes())
                .ok_or_else(|| ConvertError::UnknownCharset(label.to_owned()))?;
            self.query_charset =
                Some(encoding.output_encoding()).filter(|&e| e != encoding_rs::UTF_8);
        }
        #[cfg(not(feature = "charsets"))]
        {
            let label = label.trim_matches(|c: char| c.is_ascii_whitespace());
            if !UTF8_LABELS.iter().any(|l| l.eq_ignore_ascii_case(label)) {
                return Err(ConvertError::UnknownCharset(label.to_owned()));
            }
            self.query_charset = None;
        }
        Ok(self)
    }
}

/// Which IDNA converts a registered name for [`ToUriOptions::idna_mode`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IdnaMode {
    /// RFC 5891's lookup (§5.3–5.5), as 3987bis §3.4.2 asks: a label with
    /// a code point IDNA2008 does not allow (RFC 5892: symbols and emoji
    /// such as `☃` or `❤`, compatibility forms such as full-width `ａ`,
    /// default-ignorable characters) fails the conversion, naming the code
    /// point and the rule. Uppercase letters are lowercased first (RFC
    /// 5895 §2 step 1), nothing else is mapped; then UTS #46 ToASCII with
    /// UseSTD3ASCIIRules, CheckHyphens and VerifyDnsLength writes the
    /// A-labels and applies the hyphen, length and bidi (RFC 5893) rules.
    #[default]
    Idna2008,
    /// UTS #46 nontransitional processing alone, the mapping browsers
    /// apply (with UseSTD3ASCIIRules, CheckHyphens and VerifyDnsLength, as
    /// RFC 3987 §3.1 asks of ToASCII): full-width and other compatibility
    /// forms are mapped, and symbols and emoji that IDNA2008 refuses are
    /// converted (`☃` → `xn--n3h`).
    Uts46,
}

/// The error of a conversion.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum ConvertError {
    /// The input does not parse.
    Parse(ParseError),
    /// IDNA (3987bis §3.4.2: RFC 5891's lookup, or UTS #46 ToASCII with
    /// UseSTD3ASCIIRules, CheckHyphens and VerifyDnsLength, as
    /// [`IdnaMode`] says) rejects a label of the registered name.
    Idna {
        /// The label, as it was after percent-decoding; the whole name when
        /// no label fails on its own (a rule on the whole name: its length,
        /// or the bidi rule of RFC 5893 across labels).
        label: String,
    },
    /// No charset has this label.
    UnknownCharset(String),
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConvertError::Parse(e) => write!(f, "cannot convert an invalid {}", e.noun()),
            ConvertError::Idna { label } => write!(
                f,
                "IDNA rejects the host label {label:?} (3987bis §3.4.2): {}; convert without IDNA to percent-encode it instead (§3.4.1)",
                idna_reason(label)
            ),
            #[cfg(feature = "charsets")]
            ConvertError::UnknownCharset(l) => write!(
                f,
                "no charset is called {l:?}: use a WHATWG encoding label such as windows-1252, shift_jis or euc-kr"
            ),
            #[cfg(not(feature = "charsets"))]
            ConvertError::UnknownCharset(l) => write!(
                f,
                "no charset but UTF-8 in this build ({l:?} was asked for): document charsets need the `charsets` feature"
            ),
        }
    }
}

/// The parse error of [`ConvertError::Parse`] is its source.
///
/// ```
/// use std::error::Error;
/// use iribis::convert::ToUriOptions;
///
/// let e = iribis::to_uri("http://h/a b", &ToUriOptions::new()).unwrap_err();
/// assert_eq!(e.to_string(), "cannot convert an invalid IRI reference");
/// assert_eq!(
///     e.source().unwrap().to_string(),
///     "invalid IRI reference at character 10: a space is not allowed in a path: percent-encode it as %20"
/// );
/// ```
impl core::error::Error for ConvertError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            ConvertError::Parse(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ParseError> for ConvertError {
    fn from(e: ParseError) -> Self {
        ConvertError::Parse(e)
    }
}

/// IRI → URI (3987bis §3.3–3.6): every character not allowed in a URI
/// becomes the uppercase `%HH` of its UTF-8 octets; characters allowed in
/// URIs and existing percent-encodings stay exactly as they are. The
/// identity on URIs, and idempotent.
///
/// ```
/// use iribis::to_uri;
/// use iribis::convert::ToUriOptions;
///
/// let o = ToUriOptions::new();
/// assert_eq!(to_uri("http://www.example.org/red%09rosé#red", &o)?, "http://www.example.org/red%09ros%C3%A9#red");
/// assert_eq!(to_uri("http://résumé.example.org", &o)?, "http://r%C3%A9sum%C3%A9.example.org");
/// # Ok::<(), iribis::convert::ConvertError>(())
/// ```
pub fn to_uri(input: &str, options: &ToUriOptions) -> Result<String, ConvertError> {
    Ok(convert_to_uri(input, options, false)?
        .pop()
        .map(|s| s.text)
        .unwrap_or_default())
}

impl<T: Storage> IriRef<T> {
    /// IRI → URI ([`to_uri`]) on a parsed reference, read under its own
    /// profile (a LEIRI's extra characters are percent-encoded too); the
    /// options' profile is not used. The result is a URI reference, of the
    /// `rfc3986` profile.
    ///
    /// ```
    /// use iribis::{IriRef, Profile};
    /// use iribis::convert::ToUriOptions;
    ///
    /// let iri = IriRef::parse("http://résumé.example.org/日本")?;
    /// let uri = iri.to_uri(&ToUriOptions::new().idna(true))?;
    /// assert_eq!(uri, "http://xn--rsum-bpad.example.org/%E6%97%A5%E6%9C%AC");
    /// assert_eq!(uri.host_str(), Some("xn--rsum-bpad.example.org"));
    /// assert_eq!(uri.profile(), Profile::Rfc3986);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_uri(&self, options: &ToUriOptions) -> Result<IriRef<String>, ConvertError> {
        let options = ToUriOptions {
            profile: self.profile(),
            ..options.clone()
        };
        typed(to_uri(self.as_str(), &options)?, Profile::Rfc3986)
    }

    /// URI → IRI ([`to_iri`]) on a parsed reference; the result is of the
    /// `rfc3987bis` profile.
    ///
    /// ```
    /// use iribis::IriRef;
    /// use iribis::convert::ToIriOptions;
    ///
    /// let uri = IriRef::parse("http://xn--99zt52a.example.org/D%C3%BCrst")?;
    /// let iri = uri.to_iri(&ToIriOptions::new())?;
    /// assert_eq!(iri, "http://納豆.example.org/Dürst");
    /// assert_eq!(iri.path(), "/Dürst");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_iri(&self, options: &ToIriOptions) -> Result<IriRef<String>, ConvertError> {
        typed(to_iri(self.as_str(), options)?, Profile::Rfc3987bis)
    }
}

/// A conversion's result, parsed.
fn typed(text: String, profile: Profile) -> Result<IriRef<String>, ConvertError> {
    Ok(parse_owned(text, GrammarRule::IRI_REFERENCE, profile)?)
}

/// One step of a conversion, for `--explain`: its number and name in the
/// spec, and the string after it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Step {
    /// The step as the spec numbers or names it (`"2"`, `"§3.4.2"`).
    pub label: String,
    /// What the step does.
    pub what: &'static str,
    /// The string after the step; octets not yet interpreted as characters
    /// are written `<c3>`, as 3987bis §4.3 writes them.
    pub text: String,
    /// Why the step left something as it was (step 7: an `xn--` label
    /// kept in punycode because it fails the host spoofing checks).
    pub notes: Vec<String>,
}

/// IRI → URI, step by step (RFC 3987 §3.1 steps 1–2 with 3987bis §3.4 and
/// §3.5): the last step's text is [`to_uri`]'s result.
///
/// ```
/// use iribis::convert::{ToUriOptions, to_uri_steps};
///
/// let steps = to_uri_steps("http://h/ü", &ToUriOptions::new())?;
/// assert_eq!(steps[1].text, "http://h/<c3><bc>");
/// assert_eq!(steps.last().unwrap().text, "http://h/%C3%BC");
/// # Ok::<(), iribis::convert::ConvertError>(())
/// ```
pub fn to_uri_steps(input: &str, options: &ToUriOptions) -> Result<Vec<Step>, ConvertError> {
    convert_to_uri(input, options, true)
}

/// IRI → URI; with `explain`, every step, else only the last (no work is
/// spent on the intermediate strings).
fn convert_to_uri(
    input: &str,
    options: &ToUriOptions,
    explain: bool,
) -> Result<Vec<Step>, ConvertError> {
    let r = IriRef::parse_with(input, &ParseOptions::new().profile(options.profile))?;
    // §3.4: the registered name, by IDNA when asked.
    let host_converted = match (options.idna, r.host()) {
        (true, Some(Host::RegName(name))) => idna_host(name, options.idna_mode)?,
        _ => None,
    };
    // §3.5: the query of http(s) in the document's charset.
    let charset = options.query_charset.filter(|_| {
        matches!(
            r.scheme().map(str::to_ascii_lowercase).as_deref(),
            Some("http" | "https")
        )
    });
    // The IRI (a copy with its host converted, if it was), and its
    // query's span: the query alone is encoded in the document charset.
    let written = host_converted
        .as_deref()
        .map(|host| Builder::copy_with_host(&r, host));
    let (text, meta) = match &written {
        Some(w) => (w.as_str(), w.meta()),
        None => (r.as_str(), r.meta()),
    };
    let (q0, q1) = meta.query.get().unwrap_or((text.len(), text.len()));
    let pieces = [
        (&text[..q0], None),
        (&text[q0..q1], charset),
        (&text[q1..], None),
    ];
    let mut encoded = String::with_capacity(input.len() + input.len() / 2);
    for (piece, charset) in pieces {
        percent_encode_into(&mut encoded, piece, charset);
    }
    if !explain {
        return Ok(vec![Step {
            label: "2.2".into(),
            what: "each of those octets percent-encoded (%HH, uppercase) in place of its character",
            text: encoded,
            notes: Vec::new(),
        }]);
    }
    let octets: String = pieces
        .into_iter()
        .map(|(piece, charset)| show_octets(piece, charset))
        .collect();
    let mut steps = vec![Step {
        label: "1".into(),
        what: "the IRI, as characters",
        text: input.to_owned(),
        notes: Vec::new(),
    }];
    if host_converted.is_some() {
        steps.push(Step {
            label: "§3.4.2".into(),
            what: "the registered name converted with IDNA (ToASCII)",
            text: text.to_owned(),
            notes: Vec::new(),
        });
    }
    steps.push(Step {
        label: "2.1".into(),
        what: if charset.is_some() {
            "each character not allowed in a URI as its UTF-8 octets (the query's in the document charset, §3.5)"
        } else {
            "each character not allowed in a URI as its UTF-8 octets"
        },
        text: octets,
        notes: Vec::new(),
    });
    steps.push(Step {
        label: "2.2".into(),
        what: "each of those octets percent-encoded (%HH, uppercase) in place of its character",
        text: encoded,
        notes: Vec::new(),
    });
    Ok(steps)
}

/// The bytes `c` is encoded to: UTF-8, or in a query the document charset
/// (unrepresentable characters as an HTML numeric character reference).
fn encode_char(c: &str, charset: Option<Charset>) -> Cow<'_, [u8]> {
    match charset {
        #[cfg(feature = "charsets")]
        Some(e) => Cow::Owned(e.encode(c).0.into_owned()),
        #[cfg(not(feature = "charsets"))]
        Some(e) => match e {},
        None => Cow::Borrowed(c.as_bytes()),
    }
}

fn needs_encoding(c: char) -> bool {
    !c.is_ascii() || not_in_uris(c as u8)
}

/// Appends `text` to `out` with each character not allowed in a URI as its
/// percent-encoded octets (3987bis §3.3 step 2): UTF-8, or `charset` for a
/// query (§3.5).
fn percent_encode_into(out: &mut String, text: &str, charset: Option<Charset>) {
    if charset.is_none() {
        out.extend(utf8_percent_encode(text, NOT_IN_URIS));
        return;
    }
    for (i, c) in text.char_indices() {
        let s = &text[i..i + c.len_utf8()];
        if needs_encoding(c) {
            // Unreserved octets stay literal, as a browser writes them (the
            // digits of "&#20363;", the ASCII trail byte of a Shift_JIS
            // character): they are the same octets either way.
            for &b in encode_char(s, charset).iter() {
                if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                    out.push(b as char);
                } else {
                    out.push_str(&format!("%{b:02X}"));
                }
            }
        } else {
            out.push_str(s);
        }
    }
}

fn show_octets(text: &str, charset: Option<Charset>) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        let s = &text[i..i + c.len_utf8()];
        if needs_encoding(c) {
            for b in encode_char(s, charset).iter() {
                out.push_str(&format!("<{b:02x}>"));
            }
        } else {
            out.push_str(s);
        }
    }
    out
}

/// What 3987bis §3.4.2 makes of an `ireg-name`: the one implementation of
/// "decode the name and run ToASCII on its labels", shared by [`to_uri`]
/// with IDNA and the checker's `INVALID_IDN`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum IdnaName {
    /// Not an internationalized name: after decoding it is ASCII and has no
    /// `xn--` label, so there is nothing to convert; the field is left as
    /// is (and §3.3 applies).
    NotIdn,
    /// A percent-encoding is not UTF-8: "leave the entire field as is
    /// without any change, since punycode encoding would not succeed"
    /// (§3.4.2), and §3.3 applies.
    NotUtf8,
    /// The name after ToASCII.
    Ascii(String),
    /// ToASCII fails on this label (percent-decoded), or on the whole name
    /// when no label fails on its own.
    Rejected(String),
}

/// 3987bis §3.4.2 on an `ireg-name`: if every percent-encoding is UTF-8,
/// all are decoded; then, if the name is internationalized (a non-ASCII
/// character or an `xn--` label), the whole name goes through UTS #46
/// ToASCII with UseSTD3ASCIIRules, CheckHyphens and VerifyDnsLength (RFC
/// 3987 §3.1; RFC 5891 §4.2.3.1, §5.4), a trailing root dot allowed. In
/// [`IdnaMode::Idna2008`], each label must first pass RFC 5891 §5.4's
/// lookup test ([`crate::idna2008::refusal`]).
pub(crate) fn ireg_name_to_ascii(name: &str, mode: IdnaMode) -> IdnaName {
    let Some(decoded) = decode_all_utf8(name) else {
        return IdnaName::NotUtf8;
    };
    // An ASCII name is an IDN only with an A-label.
    if decoded.is_ascii() && !crate::host::has_a_label(decoded.as_bytes()) {
        return IdnaName::NotIdn;
    }
    if mode == IdnaMode::Idna2008
        && let Some(label) = idna2008_refused_label(&decoded)
    {
        return IdnaName::Rejected(label.to_owned());
    }
    match uts46_to_ascii(&decoded, idna::uts46::DnsLength::VerifyAllowRootDot) {
        Some(ascii) => IdnaName::Ascii(ascii.into_owned()),
        None => {
            let labels = decoded.strip_suffix('.').unwrap_or(&decoded);
            let label = labels
                .split('.')
                .find(|l| uts46_to_ascii(l, idna::uts46::DnsLength::Verify).is_none())
                .unwrap_or(&decoded);
            IdnaName::Rejected(label.to_owned())
        }
    }
}

/// The first label of `decoded` (a percent-decoded name) that RFC 5891
/// §5.4's lookup refuses: the judgement the conversion and the readings
/// share.
pub(crate) fn idna2008_refused_label(decoded: &str) -> Option<&str> {
    decoded
        .split('.')
        .find(|l| crate::idna2008::refusal(l).is_some())
}

fn uts46_to_ascii(name: &str, length: idna::uts46::DnsLength) -> Option<Cow<'_, str>> {
    use idna::uts46::{AsciiDenyList, Hyphens, Uts46};
    Uts46::new()
        .to_ascii(name.as_bytes(), AsciiDenyList::STD3, Hyphens::Check, length)
        .ok()
}

/// Why ToASCII rejects `label` (as [`IdnaName::Rejected`] gives it), in a
/// few words naming the rule.
pub(crate) fn idna_reason(label: &str) -> String {
    let ldh = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '.';
    if let Some(c) = label.chars().find(|&c| c.is_ascii() && !ldh(c)) {
        let shown = if c.is_ascii_graphic() {
            format!("'{c}'")
        } else {
            format!("U+{:04X}", c as u32)
        };
        return format!(
            "{shown} is not a letter, digit or hyphen (UseSTD3ASCIIRules, RFC 3987 §3.1)"
        );
    }
    if label.is_empty() || label.contains("..") {
        return "a label is empty (VerifyDnsLength)".into();
    }
    let a_label = label
        .get(..4)
        .is_some_and(|p| p.eq_ignore_ascii_case("xn--"));
    if label.starts_with('-') || label.ends_with('-') {
        return "a label starts or ends with a hyphen (CheckHyphens, RFC 5891 §4.2.3.1)".into();
    }
    if !a_label && label.get(2..4) == Some("--") {
        return "\"--\" in the third and fourth positions is reserved for A-labels such as xn-- (CheckHyphens, RFC 5891 §4.2.3.1)".into();
    }
    if let Some(r) = crate::idna2008::refusal(label) {
        let shown = if crate::unicode::is_default_ignorable(r.c) || r.c.is_control() {
            format!("U+{:04X}", r.c as u32)
        } else {
            format!("'{}' (U+{:04X})", r.c, r.c as u32)
        };
        return format!("{shown} is refused by IDNA2008: {}", r.rule);
    }
    if a_label {
        return "it is not a valid A-label: its Punycode does not decode to a valid U-label (RFC 5891 §5.4)".into();
    }
    if uts46_to_ascii(label, idna::uts46::DnsLength::Ignore).is_some() {
        return if label.contains('.') {
            "the name is longer than 253 octets in ASCII (VerifyDnsLength)".into()
        } else {
            "its A-label is longer than 63 octets (VerifyDnsLength, RFC 5891 §5.4)".into()
        };
    }
    "a character IDNA disallows, or a break of its joiner (CONTEXTJ) or bidi (RFC 5893) rules"
        .into()
}

/// §3.4.2 for [`to_uri`]: the converted name, `None` to leave the field to
/// §3.3, or the error naming the label ToASCII rejects.
fn idna_host(name: &str, mode: IdnaMode) -> Result<Option<String>, ConvertError> {
    match ireg_name_to_ascii(name, mode) {
        IdnaName::Ascii(a) => Ok(Some(a)),
        IdnaName::NotIdn | IdnaName::NotUtf8 => Ok(None),
        IdnaName::Rejected(label) => Err(ConvertError::Idna { label }),
    }
}

/// URI → IRI (3987bis §4.2 steps 1–7; RFC 3987 §3.2).
///
/// Step 4 keeps percent-encoded, besides what §2.2 does not allow where it
/// stands, the characters §5.1 and RFC 3987 §4.1 advise against: bidi
/// formatting characters, ZWJ and ZWNJ and other invisible characters,
/// look-alikes (compatibility characters such as full-width `Ａ`, the
/// characters Nameprep excludes, look-alikes of space and of the
/// delimiters), and a combining mark at the start of a component.
/// [`ToIriOptions::decode_all`] decodes all but the bidi formatting
/// characters.
///
/// ```
/// use iribis::to_iri;
/// use iribis::convert::ToIriOptions;
///
/// let o = ToIriOptions::new();
/// assert_eq!(to_iri("http://www.example.org/D%C3%BCrst", &o)?, "http://www.example.org/Dürst");
/// assert_eq!(to_iri("http://www.example.org/r%E9sum%E9.html", &o)?, "http://www.example.org/r%E9sum%E9.html");
/// assert_eq!(to_iri("http://xn--99zt52a.example.org/%e2%80%ae", &o)?, "http://納豆.example.org/%E2%80%AE");
/// // Full-width 'Ａ' looks like 'A' (§5.1(b)).
/// assert_eq!(to_iri("http://h/%EF%BC%A1", &o)?, "http://h/%EF%BC%A1");
/// assert_eq!(to_iri("http://h/%EF%BC%A1", &o.decode_all(true))?, "http://h/Ａ");
/// # Ok::<(), iribis::convert::ConvertError>(())
/// ```
pub fn to_iri(input: &str, options: &ToIriOptions) -> Result<String, ConvertError> {
    Ok(convert_to_iri(input, options, false)?
        .pop()
        .map(|s| s.text)
        .unwrap_or_default())
}

/// Options of URI → IRI conversion ([`to_iri`]).
#[derive(Clone, Copy, Debug)]
pub struct ToIriOptions {
    idna: bool,
    decode_all: bool,
    decode_spoofable: bool,
}

impl Default for ToIriOptions {
    fn default() -> Self {
        ToIriOptions {
            idna: true,
            decode_all: false,
            decode_spoofable: false,
        }
    }
}

impl ToIriOptions {
    /// The default: step 7 converts `xn--` labels of [`DNS_SCHEMES`]
    /// hosts with ToUnicode, and step 4 keeps the characters 3987bis §5.1
    /// advises against percent-encoded.
    pub fn new() -> Self {
        Self::default()
    }

    /// With `false`, `xn--` labels stay as they are (`iri to-iri --no-idna`).
    pub fn idna(mut self, idna: bool) -> Self {
        self.idna = idna;
        self
    }

    /// With `true`, step 4 decodes every character §2.2 allows where it
    /// stands, the ones §5.1 advises against too (look-alikes, invisible
    /// characters, combining marks at the start of a component); only the
    /// bidi formatting characters, which RFC 3987 §4.1 says an IRI "MUST
    /// NOT contain", stay encoded (`iri to-iri --decode-all`).
    ///
    /// ```
    /// use iribis::to_iri;
    /// use iribis::convert::ToIriOptions;
    ///
    /// let all = ToIriOptions::new().decode_all(true);
    /// assert_eq!(to_iri("http://h/a%E2%80%8Db", &all)?, "http://h/a\u{200D}b");
    /// assert_eq!(to_iri("http://h/a%E2%80%8Db", &ToIriOptions::new())?, "http://h/a%E2%80%8Db");
    /// # Ok::<(), iribis::convert::ConvertError>(())
    /// ```
    pub fn decode_all(mut self, decode_all: bool) -> Self {
        self.decode_all = decode_all;
        self
    }

    /// Step 7 keeps an `xn--` label in punycode when it fails the host
    /// spoofing checks of [`crate::spoof::check_label`] (mixed scripts,
    /// look-alikes of Latin or of digits, restricted characters, stacked
    /// marks, misplaced kana), as browsers display it; the explanation is
    /// in the step's [`Step::notes`]. With `true`, such a label is decoded
    /// anyway (`iri to-iri --decode-spoofable`). The checks need the
    /// `spoof` feature; without it every valid label is decoded.
    ///
    /// ```
    /// use iribis::to_iri;
    /// use iribis::convert::ToIriOptions;
    ///
    /// let o = ToIriOptions::new();
    /// # #[cfg(feature = "spoof")]
    /// assert_eq!(to_iri("http://xn--paypl-g9d.com/", &o)?, "http://xn--paypl-g9d.com/");
    /// assert_eq!(to_iri("http://xn--paypl-g9d.com/", &o.decode_spoofable(true))?, "http://paypαl.com/");
    /// assert_eq!(to_iri("http://xn--bcher-kva.de/", &o)?, "http://bücher.de/");
    /// # Ok::<(), iribis::convert::ConvertError>(())
    /// ```
    pub fn decode_spoofable(mut self, decode_spoofable: bool) -> Self {
        self.decode_spoofable = decode_spoofable;
        self
    }
}

/// URI → IRI, with the string after each step of 3987bis §4.2 in the
/// layout of its §4.3 examples (octets as `<c3>`).
///
/// ```
/// use iribis::convert::{ToIriOptions, to_iri_steps};
///
/// let steps = to_iri_steps("http://www.example.org/D%FCrst", &ToIriOptions::new())?;
/// let texts: Vec<&str> = steps.iter().map(|s| s.text.as_str()).collect();
/// assert_eq!(texts[1], "http://www.example.org/D<fc>rst");
/// assert_eq!(texts[2], "http://www.example.org/D%FCrst");
/// # Ok::<(), iribis::convert::ConvertError>(())
/// ```
pub fn to_iri_steps(input: &str, options: &ToIriOptions) -> Result<Vec<Step>, ConvertError> {
    convert_to_iri(input, options, true)
}

/// URI → IRI: the seven steps when `steps`, else only the last (the
/// result). Each component is walked once, without a buffer per octet: the
/// result takes one string about as long as the input.
fn convert_to_iri(
    input: &str,
    options: &ToIriOptions,
    steps: bool,
) -> Result<Vec<Step>, ConvertError> {
    let r = IriRef::parse(input)?;
    let scheme = r.scheme().map(str::to_ascii_lowercase);
    let dns = options.idna
        && scheme.as_deref().is_some_and(|s| DNS_SCHEMES.contains(&s))
        && matches!(r.host(), Some(Host::RegName(_)));
    let decode_all = options.decode_all;
    let spoof_check = !options.decode_spoofable;
    let mut notes = Vec::new();
    let count = if steps { 7 } else { 1 };
    let mut texts: Vec<String> = (0..count)
        .map(|_| String::with_capacity(input.len()))
        .collect();
    let mut host = String::new();
    // Each piece of the reference after each step (or the last only).
    let mut push = |piece: &str, component: Option<Component>| {
        let is_dns_host = dns && component == Some(Component::Host);
        let Some(component) = component.filter(|_| piece.contains('%')) else {
            // Nothing to decode: steps 1-6 leave the piece as it is.
            let (before, last) = texts.split_at_mut(count - 1);
            for t in before {
                t.push_str(piece);
            }
            if is_dns_host {
                last[0].push_str(&to_unicode_labels(
                    piece,
                    decode_all,
                    spoof_check,
                    &mut notes,
                ));
            } else {
                last[0].push_str(piece);
            }
            return;
        };
        let keep = |c: char, before: Before| appropriate_at(c, component, before, decode_all);
        host.clear();
        if steps {
            texts[0].push_str(piece);
            let (head, tail) = texts.split_at_mut(5);
            let [_, two, three, four, five] = head else {
                unreachable!("seven texts")
            };
            walk(piece, &keep, &mut |t| {
                render(two, &t, Stage::Decoded);
                render(three, &t, Stage::Utf8Checked);
                render(four, &t, Stage::Appropriate);
                render(five, &t, Stage::Appropriate);
                render(&mut host, &t, Stage::Final);
            });
            tail[0].push_str(&host);
            if is_dns_host {
                tail[1].push_str(&to_unicode_labels(
                    &host,
                    decode_all,
                    spoof_check,
                    &mut notes,
                ));
            } else {
                tail[1].push_str(&host);
            }
        } else if is_dns_host {
            walk(piece, &keep, &mut |t| render(&mut host, &t, Stage::Final));
            texts[0].push_str(&to_unicode_labels(
                &host,
                decode_all,
                spoof_check,
                &mut notes,
            ));
        } else {
            let out = &mut texts[0];
            walk(piece, &keep, &mut |t| render(out, &t, Stage::Final));
        }
    };
    if let Some(s) = r.scheme() {
        push(s, None);
        push(":", None);
    }
    if r.authority().is_some() {
        push("//", None);
        if let Some(u) = r.userinfo() {
            push(u, Some(Component::Userinfo));
            push("@", None);
        }
        let host = r.host_str().unwrap_or("");
        match r.host() {
            Some(Host::RegName(_)) => push(host, Some(Component::Host)),
            _ => push(host, None),
        }
        if let Some(p) = r.port() {
            push(":", None);
            push(p, None);
        }
    }
    push(r.path(), Some(Component::Path));
    if let Some(q) = r.query() {
        push("?", None);
        push(q, Some(Component::Query));
    }
    if let Some(f) = r.fragment() {
        push("#", None);
        push(f, Some(Component::Fragment));
    }
    const WHAT: [&str; 7] = [
        "the URI, as US-ASCII octets",
        "percent-encodings decoded, but those of '%', reserved characters and ASCII not allowed in URIs",
        "octets that are not part of strictly legal UTF-8 re-encoded",
        "octets of characters not appropriate in an IRI where they stand re-encoded (§2.2, §5.1)",
        "the query re-encoded for a document charset: not done (queries are taken as UTF-8)",
        "the octets interpreted as UTF-8",
        "punycode labels of a DNS host converted with ToUnicode",
    ];
    let first = 7 - count;
    Ok(texts
        .into_iter()
        .enumerate()
        .map(|(i, text)| Step {
            label: (first + i + 1).to_string(),
            what: WHAT[first + i],
            text,
            notes: if i + 1 == count {
                core::mem::take(&mut notes)
            } else {
                Vec::new()
            },
        })
        .collect())
}

/// Step 7: each `xn--` label through ToUnicode; a label that does not
/// decode cleanly, or decodes to characters step 4 would keep encoded (not
/// allowed in an `ireg-name`, or advised against by §5.1), stays as it is,
/// and so does one that fails the host spoofing checks when `spoof_check`
/// (3987bis §10: as browsers display it), with a note saying why (with
/// the `spoof` feature).
#[cfg_attr(not(feature = "spoof"), allow(unused_variables, clippy::ptr_arg))]
fn to_unicode_labels(
    host: &str,
    decode_all: bool,
    spoof_check: bool,
    notes: &mut Vec<String>,
) -> String {
    // The top-level domain, for the whole-script confusables.
    #[cfg(feature = "spoof")]
    let tld = host
        .rsplit('.')
        .find(|l| !l.is_empty())
        .map(|l| idna::domain_to_unicode(l).0);
    let mut out = String::with_capacity(host.len());
    for (i, label) in host.split('.').enumerate() {
        if i > 0 {
            out.push('.');
        }
        if !label
            .get(..4)
            .is_some_and(|p| p.eq_ignore_ascii_case("xn--"))
        {
            out.push_str(label);
            continue;
        }
        let (u, result) = idna::domain_to_unicode(label);
        let mut before = Before::Start;
        let clean = result.is_ok()
            && !u.is_empty()
            && u.chars().all(|c| {
                let ok = c.is_ascii_alphanumeric()
                    || c == '-'
                    || (!c.is_ascii() && appropriate_at(c, Component::Host, before, decode_all));
                before = Before::Other;
                ok
            });
        #[cfg(feature = "spoof")]
        if clean
            && spoof_check
            && let Some(f) = crate::spoof::check_label(&u, tld.as_deref()).first()
        {
            notes.push(format!(
                    "{label} ({u}) kept in punycode, as browsers show it: {} ({}; the decode-spoofable option decodes it)",
                    f.message, f.code
                ));
            out.push_str(label);
            continue;
        }
        out.push_str(if clean { &u } else { label });
    }
    out
}

/// How [`preprocess`] treats spaces inside the trimmed string.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum InnerSpaces {
    /// Leave them (the parser will reject them, but under `leiri`).
    #[default]
    Keep,
    /// Split on runs of spaces into several references.
    Split,
    /// Write each as `%20`.
    Encode,
}

/// Pre-processing of a raw string before parsing (iri-processing-draft-2011
/// §4): leading and trailing ASCII whitespace (space, CR, LF, TAB only)
/// removed, then inner spaces kept, split on, or encoded.
///
/// ```
/// use iribis::convert::{InnerSpaces, preprocess};
///
/// assert_eq!(preprocess("\t http://h/a b \r\n", InnerSpaces::Encode), ["http://h/a%20b"]);
/// assert_eq!(preprocess(" a  b ", InnerSpaces::Split), ["a", "b"]);
/// assert_eq!(preprocess("\u{A0}a\u{A0}", InnerSpaces::Keep), ["\u{A0}a\u{A0}"]);
/// ```
pub fn preprocess(raw: &str, spaces: InnerSpaces) -> Vec<String> {
    let trimmed = raw.trim_matches([' ', '\r', '\n', '\t']);
    match spaces {
        InnerSpaces::Keep => vec![trimmed.to_owned()],
        InnerSpaces::Encode => vec![trimmed.replace(' ', "%20")],
        InnerSpaces::Split => trimmed
            .split(' ')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::{NOT_IN_URIS, needs_encoding, not_in_uris, utf8_percent_encode};

    /// §3.3 percent-encodes exactly the ASCII that `not_in_uris` names, in
    /// a query with a charset too.
    #[test]
    fn the_ascii_that_is_percent_encoded() {
        for b in 0..0x80u8 {
            let s = char::from(b).to_string();
            let encoded = utf8_percent_encode(&s, NOT_IN_URIS).to_string() != s;
            assert_eq!(encoded, not_in_uris(b), "{b:#04x}");
            assert_eq!(needs_encoding(char::from(b)), not_in_uris(b), "{b:#04x}");
        }
    }
}
