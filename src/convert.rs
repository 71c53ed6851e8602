//! Conversions between IRIs and URIs (3987bis §3 and §4, RFC 3987 §3.1 and
//! §3.2), LEIRIs to IRIs (3987bis §6.2), and pre-processing of raw strings
//! (iri-processing-draft-2011 §4).

use std::borrow::Cow;
use std::fmt;

use percent_encoding::{utf8_percent_encode, AsciiSet, CONTROLS};

use crate::chars;
use crate::{Component, Host, IriRef, ParseError, ParseOptions, Profile};

/// The characters that §3.3 percent-encodes: everything not allowed
/// anywhere in a URI. Non-ASCII characters always are; of ASCII, the
/// controls, space and `"<>\^`{|}` (the characters a LEIRI allows and a URI
/// does not, 3987bis §6.3). `%` is not in the set: existing
/// percent-encodings stay as they are.
const NOT_IN_URIS_ASCII: &[u8] = b" \"<>\\^`{|}";
const NOT_IN_URIS: &AsciiSet = &{
    let mut set = CONTROLS.add(NOT_IN_URIS_ASCII[0]);
    let mut i = 1;
    while i < NOT_IN_URIS_ASCII.len() {
        set = set.add(NOT_IN_URIS_ASCII[i]);
        i += 1;
    }
    set
};

/// Options of IRI → URI conversion ([`to_uri`]).
///
/// ```
/// use iribis::{to_uri, ToUriOptions};
///
/// let idna = ToUriOptions::new().idna(true);
/// assert_eq!(to_uri("http://résumé.example.org/", &idna)?, "http://xn--rsum-bpad.example.org/");
/// # Ok::<(), iribis::ConvertError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct ToUriOptions {
    profile: Profile,
    idna: bool,
    query_charset: Option<&'static encoding_rs::Encoding>,
}

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
    /// `xn--rsum-bpad`) instead of percent-encoding it (§3.4.1).
    pub fn idna(mut self, idna: bool) -> Self {
        self.idna = idna;
        self
    }

    /// The charset of the document the IRI comes from, by its WHATWG label
    /// (`windows-1252`, `shift_jis`, ...): for `http` and `https` the
    /// query's characters are encoded in it before percent-encoding
    /// (3987bis §3.5). A character the charset cannot represent is written
    /// as an HTML numeric character reference (`&#233;`), percent-encoded,
    /// as browsers submit forms: the server sees what a form would send.
    pub fn query_charset(mut self, label: &str) -> Result<Self, ConvertError> {
        let encoding = encoding_rs::Encoding::for_label(label.as_bytes())
            .ok_or_else(|| ConvertError::UnknownCharset(label.to_owned()))?;
        self.query_charset = Some(encoding.output_encoding());
        Ok(self)
    }
}

/// The error of a conversion.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum ConvertError {
    /// The input does not parse.
    Parse(ParseError),
    /// IDNA (3987bis §3.4.2) rejects a label of the registered name.
    Idna {
        /// The label, as it was after percent-decoding.
        label: String,
    },
    /// No charset has this label.
    UnknownCharset(String),
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConvertError::Parse(e) => f.write_str(&e.message()),
            ConvertError::Idna { label } => write!(
                f,
                "IDNA rejects the host label {label:?} (3987bis §3.4.2): convert without --idna to percent-encode it instead (§3.4.1)"
            ),
            ConvertError::UnknownCharset(l) => write!(
                f,
                "no charset is called {l:?}: use a WHATWG encoding label such as windows-1252, shift_jis or euc-kr"
            ),
        }
    }
}

impl std::error::Error for ConvertError {}

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
/// use iribis::{to_uri, ToUriOptions};
///
/// let o = ToUriOptions::new();
/// assert_eq!(to_uri("http://www.example.org/red%09rosé#red", &o)?, "http://www.example.org/red%09ros%C3%A9#red");
/// assert_eq!(to_uri("http://résumé.example.org", &o)?, "http://r%C3%A9sum%C3%A9.example.org");
/// # Ok::<(), iribis::ConvertError>(())
/// ```
pub fn to_uri(input: &str, options: &ToUriOptions) -> Result<String, ConvertError> {
    Ok(convert_to_uri(input, options, false)?
        .pop()
        .map(|s| s.text)
        .unwrap_or_default())
}

/// One step of a conversion, for `--explain`: its number and name in the
/// spec, and the string after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The step as the spec numbers or names it (`"2"`, `"§3.4.2"`).
    pub label: String,
    /// What the step does.
    pub what: &'static str,
    /// The string after the step; octets not yet interpreted as characters
    /// are written `<c3>`, as 3987bis §4.3 writes them.
    pub text: String,
}

/// IRI → URI, step by step (RFC 3987 §3.1 steps 1–2 with 3987bis §3.4 and
/// §3.5): the last step's text is [`to_uri`]'s result.
///
/// ```
/// use iribis::{to_uri_steps, ToUriOptions};
///
/// let steps = to_uri_steps("http://h/ü", &ToUriOptions::new())?;
/// assert_eq!(steps[1].text, "http://h/<c3><bc>");
/// assert_eq!(steps.last().unwrap().text, "http://h/%C3%BC");
/// # Ok::<(), iribis::ConvertError>(())
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
        (true, Some(Host::RegName(name))) => Some(idna_host(name)?),
        _ => None,
    };
    // §3.5: the query of http(s) in the document's charset.
    let charset = options
        .query_charset
        .filter(|e| *e != encoding_rs::UTF_8)
        .filter(|_| {
            matches!(
                r.scheme().map(str::to_ascii_lowercase).as_deref(),
                Some("http" | "https")
            )
        });
    let mut octets = String::new();
    let mut encoded = String::with_capacity(input.len() + input.len() / 2);
    let mut push = |piece: &str, query: bool| {
        if explain {
            octets.push_str(&show_octets(piece, query.then_some(charset).flatten()));
        }
        percent_encode_into(&mut encoded, piece, query.then_some(charset).flatten());
    };
    recompose(&r, host_converted.as_deref(), &mut push);
    if !explain {
        return Ok(vec![Step {
            label: "2.2".into(),
            what: "each of those octets percent-encoded (%HH, uppercase) in place of its character",
            text: encoded,
        }]);
    }
    let mut steps = vec![Step {
        label: "1".into(),
        what: "the IRI, as characters",
        text: input.to_owned(),
    }];
    if let Some(h) = &host_converted {
        let mut with_host = String::new();
        recompose(&r, Some(h), &mut |piece: &str, _| with_host.push_str(piece));
        steps.push(Step {
            label: "§3.4.2".into(),
            what: "the registered name converted with IDNA (ToASCII)",
            text: with_host,
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
    });
    steps.push(Step {
        label: "2.2".into(),
        what: "each of those octets percent-encoded (%HH, uppercase) in place of its character",
        text: encoded,
    });
    Ok(steps)
}

/// Calls `push` with the pieces of `r` in order, the delimiters included,
/// `true` for the query's text; `host` replaces the host's text.
fn recompose(r: &IriRef<&str>, host: Option<&str>, push: &mut dyn FnMut(&str, bool)) {
    if let Some(s) = r.scheme() {
        push(s, false);
        push(":", false);
    }
    if r.authority().is_some() {
        push("//", false);
        if let Some(u) = r.userinfo() {
            push(u, false);
            push("@", false);
        }
        push(host.or(r.host_str()).unwrap_or(""), false);
        if let Some(p) = r.port() {
            push(":", false);
            push(p, false);
        }
    }
    push(r.path(), false);
    if let Some(q) = r.query() {
        push("?", false);
        push(q, true);
    }
    if let Some(f) = r.fragment() {
        push("#", false);
        push(f, false);
    }
}

/// The bytes `c` is encoded to: UTF-8, or in a query the document charset
/// (unrepresentable characters as an HTML numeric character reference).
fn encode_char<'a>(c: &'a str, charset: Option<&'static encoding_rs::Encoding>) -> Cow<'a, [u8]> {
    match charset {
        Some(e) => Cow::Owned(e.encode(c).0.into_owned()),
        None => Cow::Borrowed(c.as_bytes()),
    }
}

fn needs_encoding(c: char) -> bool {
    !c.is_ascii() || c.is_ascii_control() || NOT_IN_URIS_ASCII.contains(&(c as u8))
}

/// Appends `text` to `out` with each character not allowed in a URI as its
/// percent-encoded octets (3987bis §3.3 step 2): UTF-8, or `charset` for a
/// query (§3.5).
fn percent_encode_into(
    out: &mut String,
    text: &str,
    charset: Option<&'static encoding_rs::Encoding>,
) {
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

fn show_octets(text: &str, charset: Option<&'static encoding_rs::Encoding>) -> String {
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

/// §3.4.2: percent-encodings that form UTF-8 decoded, then each label with
/// non-ASCII characters through IDNA ToASCII (UTS #46); ASCII labels stay.
fn idna_host(name: &str) -> Result<String, ConvertError> {
    let decoded = decode_utf8_percent(name);
    let mut out = String::with_capacity(decoded.len());
    for (i, label) in decoded.split('.').enumerate() {
        if i > 0 {
            out.push('.');
        }
        if label.is_ascii() {
            out.push_str(label);
            continue;
        }
        match idna::domain_to_ascii(label) {
            Ok(a) if !a.is_empty() && !a.contains('.') => out.push_str(&a),
            _ => {
                return Err(ConvertError::Idna {
                    label: label.to_owned(),
                })
            }
        }
    }
    Ok(out)
}

/// Decodes the runs of percent-encodings that form valid UTF-8 (of
/// non-ASCII characters); everything else stays.
fn decode_utf8_percent(text: &str) -> String {
    decode(text, |c| !c.is_ascii())
}

/// URI → IRI (3987bis §4.2 steps 1–7; RFC 3987 §3.2).
///
/// ```
/// use iribis::{to_iri, ToIriOptions};
///
/// let o = ToIriOptions::new();
/// assert_eq!(to_iri("http://www.example.org/D%C3%BCrst", &o)?, "http://www.example.org/Dürst");
/// assert_eq!(to_iri("http://www.example.org/r%E9sum%E9.html", &o)?, "http://www.example.org/r%E9sum%E9.html");
/// assert_eq!(to_iri("http://xn--99zt52a.example.org/%e2%80%ae", &o)?, "http://納豆.example.org/%E2%80%AE");
/// # Ok::<(), iribis::ConvertError>(())
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
}

impl Default for ToIriOptions {
    fn default() -> Self {
        ToIriOptions { idna: true }
    }
}

impl ToIriOptions {
    /// The default: step 7 converts `xn--` labels of [`crate::DNS_SCHEMES`]
    /// hosts with ToUnicode.
    pub fn new() -> Self {
        Self::default()
    }

    /// With `false`, `xn--` labels stay as they are (`iri to-iri --no-idna`).
    pub fn idna(mut self, idna: bool) -> Self {
        self.idna = idna;
        self
    }
}

/// URI → IRI, with the string after each step of 3987bis §4.2 in the
/// layout of its §4.3 examples (octets as `<c3>`).
///
/// ```
/// use iribis::{to_iri_steps, ToIriOptions};
///
/// let steps = to_iri_steps("http://www.example.org/D%FCrst", &ToIriOptions::new())?;
/// let texts: Vec<&str> = steps.iter().map(|s| s.text.as_str()).collect();
/// assert_eq!(texts[1], "http://www.example.org/D<fc>rst");
/// assert_eq!(texts[2], "http://www.example.org/D%FCrst");
/// # Ok::<(), iribis::ConvertError>(())
/// ```
pub fn to_iri_steps(input: &str, options: &ToIriOptions) -> Result<Vec<Step>, ConvertError> {
    convert_to_iri(input, options, true)
}

/// URI → IRI: the seven steps when `steps`, else only the last (the
/// result), which skips the work of the others: a piece without "%" comes
/// out of steps 1-6 unchanged.
fn convert_to_iri(
    input: &str,
    options: &ToIriOptions,
    steps: bool,
) -> Result<Vec<Step>, ConvertError> {
    let r = IriRef::parse(input)?;
    let mut texts: [String; 7] = Default::default();
    let scheme = r.scheme().map(str::to_ascii_lowercase);
    let dns = options.idna
        && scheme
            .as_deref()
            .is_some_and(|s| crate::DNS_SCHEMES.contains(&s))
        && matches!(r.host(), Some(Host::RegName(_)));
    // Each piece of the reference after steps 1-6, and after step 7.
    let mut push = |piece: &str, component: Option<Component>| {
        let is_dns_host = dns && component == Some(Component::Host);
        if !steps {
            let sixth = match component {
                Some(c) if piece.contains('%') => Cow::Owned(final_of(piece, c)),
                _ => Cow::Borrowed(piece),
            };
            if is_dns_host {
                texts[6].push_str(&to_unicode_labels(&sixth));
            } else {
                texts[6].push_str(&sixth);
            }
            return;
        }
        let rendered = match component {
            Some(c) => steps_of(piece, c),
            None => std::array::from_fn(|_| piece.to_owned()),
        };
        let seventh = if is_dns_host {
            to_unicode_labels(&rendered[5])
        } else {
            rendered[5].clone()
        };
        for (t, s) in texts.iter_mut().zip(rendered.into_iter().chain([seventh])) {
            t.push_str(&s);
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
    let first = if steps { 0 } else { 6 };
    Ok(texts
        .into_iter()
        .enumerate()
        .skip(first)
        .map(|(i, text)| Step {
            label: (i + 1).to_string(),
            what: WHAT[i],
            text,
        })
        .collect())
}

/// Step 7: each `xn--` label through ToUnicode; a label that does not
/// decode cleanly, or decodes to characters not allowed in an ireg-name,
/// stays as it is.
fn to_unicode_labels(host: &str) -> String {
    host.split('.')
        .map(|label| {
            if !label
                .get(..4)
                .is_some_and(|p| p.eq_ignore_ascii_case("xn--"))
            {
                return label.to_owned();
            }
            let (u, result) = idna::domain_to_unicode(label);
            let clean = result.is_ok()
                && !u.is_empty()
                && u.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || chars::is_ucschar(c));
            if clean {
                u
            } else {
                label.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// What a percent-encoded octet has become at one step.
#[derive(Clone, Copy)]
enum Octet<'a> {
    /// Still percent-encoded, as written (`%e2`).
    Encoded(&'a str),
    /// Re-encoded in step 3 or 4 (uppercase).
    Reencoded(u8),
    /// Decoded into an octet.
    Decoded(u8),
    /// A character of the input that was not percent-encoded.
    Char(&'a str),
}

/// The octets of one component after steps 2, 3 and 4 of 3987bis §4.2.
struct Stages<'a> {
    tokens: Vec<Octet<'a>>,
    step2: Vec<Octet<'a>>,
    step3: Vec<Octet<'a>>,
    step4: Vec<Octet<'a>>,
}

/// The text of one component after each of steps 1–6 of 3987bis §4.2.
fn steps_of(text: &str, component: Component) -> [String; 6] {
    let s = stages(text, component);
    [
        render(&s.tokens, false),
        render(&s.step2, false),
        render(&s.step3, false),
        render(&s.step4, false),
        // Step 5 (re-encoding the query for a legacy charset) is not done.
        render(&s.step4, false),
        render(&s.step4, true),
    ]
}

/// The text of one component after step 6 of 3987bis §4.2 only.
fn final_of(text: &str, component: Component) -> String {
    render(&stages(text, component).step4, true)
}

fn stages(text: &str, component: Component) -> Stages<'_> {
    let tokens = tokenize(text);
    // Step 2: decode but '%', reserved and ASCII not allowed in URIs.
    let step2: Vec<Octet<'_>> = tokens
        .iter()
        .map(|t| match *t {
            Octet::Encoded(s) => {
                let b = hex_octet(s);
                if b.is_ascii() && !(b.is_ascii_alphanumeric() || b"-._~".contains(&b)) {
                    Octet::Encoded(s)
                } else {
                    Octet::Decoded(b)
                }
            }
            other => other,
        })
        .collect();
    // Step 3: octets outside strictly legal UTF-8 sequences re-encoded.
    let mut step3 = step2.clone();
    let mut step4 = step2.clone();
    let mut i = 0;
    while i < step2.len() {
        let Octet::Decoded(first) = step2[i] else {
            i += 1;
            continue;
        };
        let len = utf8_len(first);
        let run: Vec<u8> = step2[i..]
            .iter()
            .take(len.max(1))
            .map_while(|t| match t {
                Octet::Decoded(b) => Some(*b),
                _ => None,
            })
            .collect();
        match (len > 0 && run.len() == len)
            .then(|| std::str::from_utf8(&run).ok())
            .flatten()
        {
            Some(s) => {
                let c = s.chars().next().unwrap_or('\0');
                if !appropriate(c, component) {
                    for k in 0..len {
                        step4[i + k] = Octet::Reencoded(run[k]);
                    }
                }
                i += len;
            }
            None => {
                step3[i] = Octet::Reencoded(first);
                step4[i] = Octet::Reencoded(first);
                i += 1;
            }
        }
    }
    Stages {
        tokens,
        step2,
        step3,
        step4,
    }
}

/// A stage as text: decoded octets as `<c3>` (§4.3's layout), or, with
/// `utf8`, runs of them read as UTF-8 (step 6).
fn render(stage: &[Octet<'_>], utf8: bool) -> String {
    const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";
    const HEX_LOWER: &[u8; 16] = b"0123456789abcdef";
    let hex = |out: &mut String, b: u8, digits: &[u8; 16]| {
        out.push(char::from(digits[usize::from(b >> 4)]));
        out.push(char::from(digits[usize::from(b & 15)]));
    };
    let mut out = String::with_capacity(stage.len());
    let mut pending: Vec<u8> = Vec::new();
    let flush = |out: &mut String, pending: &mut Vec<u8>| {
        if !pending.is_empty() {
            out.push_str(&String::from_utf8_lossy(pending));
            pending.clear();
        }
    };
    for t in stage {
        match *t {
            Octet::Decoded(b) if utf8 => pending.push(b),
            other => {
                flush(&mut out, &mut pending);
                match other {
                    Octet::Encoded(s) => out.push_str(s),
                    Octet::Reencoded(b) => {
                        out.push('%');
                        hex(&mut out, b, HEX_UPPER);
                    }
                    Octet::Decoded(b) if b.is_ascii() => out.push(char::from(b)),
                    Octet::Decoded(b) => {
                        out.push('<');
                        hex(&mut out, b, HEX_LOWER);
                        out.push('>');
                    }
                    Octet::Char(s) => out.push_str(s),
                }
            }
        }
    }
    flush(&mut out, &mut pending);
    out
}

fn tokenize(text: &str) -> Vec<Octet<'_>> {
    let mut out = Vec::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && i + 2 < b.len()
            && b[i + 1].is_ascii_hexdigit()
            && b[i + 2].is_ascii_hexdigit()
        {
            out.push(Octet::Encoded(&text[i..i + 3]));
            i += 3;
        } else {
            let len = text[i..].chars().next().map_or(1, char::len_utf8);
            out.push(Octet::Char(&text[i..i + len]));
            i += len;
        }
    }
    out
}

fn hex_octet(s: &str) -> u8 {
    u8::from_str_radix(&s[1..3], 16)
        .unwrap_or_else(|_| unreachable!("tokenize checked the hex digits"))
}

fn utf8_len(first: u8) -> usize {
    match first {
        0x00..=0x7F => 1,
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => 0,
    }
}

/// Whether `c` may stand unencoded in `component` of an IRI (3987bis §2.2)
/// and is not one of the characters §5.1 and RFC 3987 §4.1 keep out: the
/// bidi formatting characters.
pub(crate) fn appropriate(c: char, component: Component) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || "-._~".contains(c);
    }
    if chars::is_bidi_formatting(c) {
        return false;
    }
    chars::is_ucschar(c)
        || (component == Component::Query && chars::is_iprivate(c, Profile::Rfc3987bis))
}

/// Steps 2–6 of 3987bis §4.2 on one component's text, with `keep` deciding
/// which decoded characters stay decoded.
pub(crate) fn decode(text: &str, keep: impl Fn(char) -> bool) -> String {
    if !text.contains('%') {
        return text.to_owned();
    }
    let tokens = tokenize(text);
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i] {
            Octet::Char(s) => {
                out.push_str(s);
                i += 1;
            }
            Octet::Encoded(s) => {
                let first = hex_octet(s);
                let len = utf8_len(first);
                let run: Vec<u8> = tokens[i..]
                    .iter()
                    .take(len.max(1))
                    .map_while(|t| match t {
                        Octet::Encoded(s) => Some(hex_octet(s)),
                        _ => None,
                    })
                    .collect();
                let c = (len > 0 && run.len() == len)
                    .then(|| std::str::from_utf8(&run).ok())
                    .flatten()
                    .and_then(|s| s.chars().next())
                    .filter(|&c| keep(c));
                match c {
                    Some(c) => {
                        out.push(c);
                        i += len;
                    }
                    None => {
                        out.push_str(&format!("%{first:02X}"));
                        i += 1;
                    }
                }
            }
            Octet::Reencoded(_) | Octet::Decoded(_) => unreachable!("tokenize makes neither"),
        }
    }
    out
}

/// How [`preprocess`] treats spaces inside the trimmed string.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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
/// use iribis::{preprocess, InnerSpaces};
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
