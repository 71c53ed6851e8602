//! What other software reads in an IRI: the readings of one reference by
//! several readers, and where they part.
//!
//! A conformance checker says whether a string is an IRI. People who check
//! links before they trust them (link checkers, crawlers, SSRF and
//! open-redirect filters, allow-lists) also need to know whether the
//! software that will follow the link reads the same string the same way.
//! Often it does not. [`readings()`] gives every reading of an [`IriRef`]:
//!
//! - [`Reader::Rfc3987bis`]: the reference as 3987bis parses it, the
//!   components as written;
//! - [`Reader::Whatwg`]: the WHATWG URL Standard's parse, what browsers
//!   (and fetch, Node.js, Deno) read, through `url` (rust-url), its Rust
//!   implementation, pinned to one release; only for a reference with a
//!   scheme (a relative reference needs a base URL there);
//! - [`Reader::InetAton`]: for a host that looks numeric, the IPv4 address a
//!   C resolver connects to ([`inet_aton`]: getaddrinfo, curl and most
//!   HTTP clients outside browsers), RFC 3986 §7.4;
//! - [`Reader::Decoded`]: for an authority with percent-encodings, the host
//!   a reader sees that percent-decodes the reference (as often as it
//!   changes) before splitting it, as naive filters and double-decoding
//!   servers do.
//!
//! [`Readings::differences`] lists where the readings part after the
//! canonicalization every reader agrees on (ASCII case, IDNA ToASCII,
//! IPv6 compression, the default port, percent-encoding of characters
//! outside ASCII, the dot segments RFC 3986 §5.2.4 removes, `file://localhost`
//! for `file:///`), each with its `READING_` [`Code`]:
//!
//! - `READING_HOST_DIFFERS`: another reader reaches another host (or port):
//!   numeric forms (`http://0x7f.1/` is 127.0.0.1), percent-decoded hosts
//!   (`%6c%6fcalhost`), UTS #46-mapped hosts (full-width `０ｘ７ｆ.１`;
//!   full-width `ｌｏｃａｌｈｏｓｔ`, which browsers map to `localhost` and
//!   3987bis §3.4.2's lookup, RFC 5891's with no mapping, refuses), a
//!   special scheme without `//` (`http:evil.example`);
//! - `READING_REJECTED`: browsers reject what 3987bis accepts
//!   (`http://a.b.c.127.0.0.1/`, `http://ex%00ample.com/`);
//! - `READING_ENCODED_DOT_SEGMENT`: `%2e`, `.%2e`, `%2e.`, `%2e%2e` path
//!   segments, which browsers resolve as `.` and `..`;
//! - `READING_PATH_DIFFERS`: any other path a reader resolves differently
//!   (a backslash of a LEIRI, a Windows drive letter in a `file:` path);
//! - `READING_USERINFO_ENCODED_DELIMITER`: a userinfo hiding `/ \ ? #`
//!   behind percent-encodings (`http://evil.com%2f@good.com/`), so that a
//!   reader that decodes first reaches another host.
//!
//! The checker ([`check()`](fn@super::check)) reports them, and with
//! [`AllowedHosts`] reports every reading's host outside a list
//! (`HOST_NOT_ALLOWED`). An IP address a reader reaches has an
//! [`AddressClass`] from the IANA special-purpose registries.
//!
//! Nothing here calls the operating system: no resolver, no thread, so the
//! module builds for `wasm32-unknown-unknown`.
//!
//! ```
//! use iribis::readings::{readings, Reader};
//! use iribis::IriRef;
//!
//! let r = IriRef::parse("http://0x7f.1/a/%2e%2e/admin")?;
//! let all = readings(&r);
//! let whatwg = all.whatwg.as_ref().unwrap().as_ref().unwrap();
//! assert_eq!(whatwg.host.as_ref().unwrap().to_string(), "127.0.0.1");
//! assert_eq!(whatwg.path.as_deref(), Some("/admin"));
//! let codes: Vec<&str> = all.differences().iter().map(|d| d.code.name()).collect();
//! assert_eq!(codes, ["READING_HOST_DIFFERS", "READING_ENCODED_DOT_SEGMENT"]);
//! assert_eq!(all.differences()[0].readers, [Reader::Whatwg, Reader::InetAton]);
//! # Ok::<(), iribis::ParseError>(())
//! ```

mod address;
mod inet_aton;
#[cfg(feature = "serde")]
mod serialize;

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

pub use address::AddressClass;
pub use inet_aton::inet_aton;
#[cfg(feature = "serde")]
pub use serialize::ReadingsJson;

use crate::catalogue::Code;
use crate::components::Component;
use crate::convert;
use crate::host::Host;
use crate::iri::{IriRef, Storage};

/// A program that reads IRIs, as [`readings()`] models it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Reader {
    /// draft-ietf-iri-3987bis-13: the reference as this crate parses it.
    Rfc3987bis,
    /// The WHATWG URL Standard (browsers, fetch), through rust-url.
    Whatwg,
    /// `inet_aton(3)`: C resolvers, curl, most HTTP clients outside
    /// browsers, on a host that looks numeric.
    InetAton,
    /// A reader that percent-decodes the reference before splitting it.
    Decoded,
}

impl Reader {
    /// Every reader, in the order [`Readings`] lists them.
    pub const ALL: [Reader; 4] = [
        Reader::Rfc3987bis,
        Reader::Whatwg,
        Reader::InetAton,
        Reader::Decoded,
    ];

    /// The reader's name in JSON: `rfc3987bis`, `whatwg`, `inet_aton`,
    /// `decoded`.
    ///
    /// ```
    /// assert_eq!(iribis::readings::Reader::InetAton.name(), "inet_aton");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Reader::Rfc3987bis => "rfc3987bis",
            Reader::Whatwg => "whatwg",
            Reader::InetAton => "inet_aton",
            Reader::Decoded => "decoded",
        }
    }

    /// Who reads this way, in a few words for messages.
    ///
    /// ```
    /// use iribis::readings::Reader;
    /// assert_eq!(Reader::Whatwg.describe(), "browsers (the WHATWG URL Standard)");
    /// ```
    pub fn describe(self) -> &'static str {
        match self {
            Reader::Rfc3987bis => "3987bis",
            Reader::Whatwg => "browsers (the WHATWG URL Standard)",
            Reader::InetAton => "C resolvers (inet_aton: getaddrinfo, curl)",
            Reader::Decoded => "a reader that percent-decodes before splitting",
        }
    }
}

impl fmt::Display for Reader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A host as one reader has it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ReadHost {
    /// A name: for 3987bis the `ireg-name` as written; for the WHATWG URL
    /// Standard the domain of a special scheme (ASCII, after percent-decoding
    /// and UTS #46); for the decoding reader the decoded text.
    Name(String),
    /// A WHATWG opaque host (a scheme that is not special), as written
    /// with characters outside ASCII percent-encoded.
    Opaque(String),
    /// An IPv4 address.
    Ipv4(Ipv4Addr),
    /// An IPv6 address.
    Ipv6(Ipv6Addr),
    /// An `IPvFuture` literal, without its brackets.
    IpvFuture(String),
    /// The empty host (`file:///x`).
    Empty,
}

impl ReadHost {
    /// `name`, `opaque`, `ipv4`, `ipv6`, `ipvfuture` or `empty`.
    ///
    /// ```
    /// use iribis::readings::ReadHost;
    /// assert_eq!(ReadHost::Ipv4([127, 0, 0, 1].into()).kind_name(), "ipv4");
    /// ```
    pub fn kind_name(&self) -> &'static str {
        match self {
            ReadHost::Name(_) => "name",
            ReadHost::Opaque(_) => "opaque",
            ReadHost::Ipv4(_) => "ipv4",
            ReadHost::Ipv6(_) => "ipv6",
            ReadHost::IpvFuture(_) => "ipvfuture",
            ReadHost::Empty => "empty",
        }
    }

    /// The IP address, for an IPv4 or IPv6 host.
    pub fn ip(&self) -> Option<IpAddr> {
        match self {
            ReadHost::Ipv4(a) => Some(IpAddr::V4(*a)),
            ReadHost::Ipv6(a) => Some(IpAddr::V6(*a)),
            _ => None,
        }
    }

    /// The class of the IP address, for an IPv4 or IPv6 host.
    ///
    /// ```
    /// use iribis::readings::{AddressClass, ReadHost};
    /// let metadata = ReadHost::Ipv4([169, 254, 169, 254].into());
    /// assert_eq!(metadata.address_class(), Some(AddressClass::LinkLocal));
    /// ```
    pub fn address_class(&self) -> Option<AddressClass> {
        self.ip().map(AddressClass::of)
    }
}

/// As a URL writes it: an IPv6 address in brackets, a name as it is.
impl fmt::Display for ReadHost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadHost::Name(s) | ReadHost::Opaque(s) => f.write_str(s),
            ReadHost::Ipv4(a) => write!(f, "{a}"),
            ReadHost::Ipv6(a) => write!(f, "[{a}]"),
            ReadHost::IpvFuture(s) => write!(f, "[{s}]"),
            ReadHost::Empty => Ok(()),
        }
    }
}

/// What one reader makes of a reference. A reader that reads only the host
/// (inet_aton, the decoding reader) leaves the components it does not read
/// `None`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Reading {
    /// Who reads.
    pub reader: Reader,
    /// The scheme.
    pub scheme: Option<String>,
    /// The userinfo (WHATWG: the username, then `:` and the password when
    /// there is one).
    pub userinfo: Option<String>,
    /// The host; `None` when there is no authority.
    pub host: Option<ReadHost>,
    /// The port as written (WHATWG: the number, absent when it is the
    /// scheme's default).
    pub port: Option<String>,
    /// The path.
    pub path: Option<String>,
    /// The query.
    pub query: Option<String>,
    /// The fragment.
    pub fragment: Option<String>,
}

impl Reading {
    fn host_only(reader: Reader, host: ReadHost) -> Self {
        Reading {
            reader,
            scheme: None,
            userinfo: None,
            host: Some(host),
            port: None,
            path: None,
            query: None,
            fragment: None,
        }
    }
}

/// A reader's refusal: the WHATWG URL Standard's parse failing on a
/// reference 3987bis accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Rejection {
    /// Who refuses.
    pub reader: Reader,
    /// Why, as the reader says it (rust-url's error: `invalid IPv4
    /// address`, `invalid domain character`, `empty host`, ...).
    pub message: String,
    /// The component the reason is about.
    pub component: Component,
}

/// Every reading of one reference, and where they part.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Readings {
    /// 3987bis's own: the components as parsed, the host as written.
    pub rfc3987bis: Reading,
    /// The WHATWG URL Standard's: `None` for a relative reference (it
    /// needs a base URL), `Err` when it rejects the reference.
    pub whatwg: Option<Result<Reading, Rejection>>,
    /// inet_aton's: for a registered name inet_aton reads as an address,
    /// or an IPv4 address (which it reads as itself).
    pub inet_aton: Option<Reading>,
    /// The decoding reader's: for a reference with a percent-encoding in
    /// its authority (or, without an authority, an encoded `/` or `\` at
    /// the start of its path).
    pub decoded: Option<Reading>,
    differences: Vec<Difference>,
}

impl Readings {
    /// Where the readings part after the canonicalization they agree on,
    /// in the order of the input, one [`Difference`] per finding.
    pub fn differences(&self) -> &[Difference] {
        &self.differences
    }

    /// Each reading there is, in [`Reader::ALL`]'s order, with the
    /// WHATWG rejection in place of its reading.
    pub fn all(&self) -> Vec<(Reader, Result<&Reading, &Rejection>)> {
        let mut out = vec![(Reader::Rfc3987bis, Ok(&self.rfc3987bis))];
        if let Some(w) = &self.whatwg {
            out.push((Reader::Whatwg, w.as_ref()));
        }
        if let Some(i) = &self.inet_aton {
            out.push((Reader::InetAton, Ok(i)));
        }
        if let Some(d) = &self.decoded {
            out.push((Reader::Decoded, Ok(d)));
        }
        out
    }

    /// The host each reader reaches, in canonical form (see
    /// [`AllowedHosts`]), with the readers that reach it, in
    /// [`Reader::ALL`]'s order of the first one.
    pub fn hosts(&self) -> Vec<(String, Vec<Reader>)> {
        let scheme = self.rfc3987bis.scheme.as_deref();
        let mut out: Vec<(String, Vec<Reader>)> = Vec::new();
        for (reader, reading) in self.all() {
            let Some(host) = reading.ok().and_then(|r| r.host.as_ref()) else {
                continue;
            };
            let key = host_key(host, scheme).canonical_text();
            match out.iter_mut().find(|(k, _)| *k == key) {
                Some((_, readers)) => readers.push(reader),
                None => out.push((key, vec![reader])),
            }
        }
        out
    }
}

/// One place where the readings part: a `READING_` code, the span of the
/// input it is about, the readers that read it otherwise, and what they
/// reach.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Difference {
    /// The code it is reported under.
    pub code: Code,
    /// The component of the span.
    pub component: Component,
    /// Byte offset of the span's start in the input.
    pub start: usize,
    /// Byte offset of the span's end.
    pub end: usize,
    /// The readers that read it otherwise than 3987bis.
    pub readers: Vec<Reader>,
    /// The host those readers reach, when they reach one.
    pub reached: Option<ReadHost>,
    /// One sentence: who reads what.
    pub message: String,
}

impl Difference {
    /// The class of the address the readers reach, when it is an IP
    /// address or a name that is always the loopback (`localhost` and the
    /// names below it, RFC 6761 §6.3).
    ///
    /// ```
    /// use iribis::readings::{readings, AddressClass};
    /// use iribis::IriRef;
    ///
    /// // Browsers map the full-width name to `localhost`; 3987bis's lookup
    /// // (RFC 5891, no mapping) refuses it.
    /// let r = IriRef::parse("http://ｌｏｃａｌｈｏｓｔ/")?;
    /// let all = readings(&r);
    /// let d = &all.differences()[0];
    /// assert_eq!(d.code.name(), "READING_HOST_DIFFERS");
    /// assert_eq!(d.address_class(), Some(AddressClass::Loopback));
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn address_class(&self) -> Option<AddressClass> {
        self.reached.as_ref().and_then(|h| match h {
            ReadHost::Name(n) => name_class(&canonical_name(n)),
            _ => h.address_class(),
        })
    }
}

/// What the other readers make of an input, on a finding about it (the
/// `READING_` codes and `HOST_NOT_ALLOWED` of [`check()`](fn@super::check)).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Detail {
    /// The readers that read the input otherwise than 3987bis (or reach a
    /// host outside the allowed ones).
    pub readers: Vec<Reader>,
    /// The host they reach, in canonical form, when they reach one.
    pub reached: Option<String>,
    /// Its class, when it is an IP address.
    pub address_class: Option<AddressClass>,
    /// What the WHATWG URL Standard reads, or `None` when it rejects the
    /// input or does not read it (a relative reference).
    pub whatwg: Option<WhatwgParts>,
}

/// The host and path the WHATWG URL Standard reads.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct WhatwgParts {
    /// The host as a URL writes it (an IPv6 address in brackets); `None`
    /// when the URL has none (`mailto:`).
    pub host: Option<String>,
    /// The path.
    pub path: String,
}

impl Readings {
    /// The WHATWG URL Standard's host and path, when it reads the input.
    pub fn whatwg_parts(&self) -> Option<WhatwgParts> {
        match &self.whatwg {
            Some(Ok(w)) => Some(WhatwgParts {
                host: w.host.as_ref().map(ToString::to_string),
                path: w.path.clone().unwrap_or_default(),
            }),
            _ => None,
        }
    }

    /// The [`Detail`] of a difference.
    pub fn detail(&self, difference: &Difference) -> Detail {
        Detail {
            readers: difference.readers.clone(),
            reached: difference
                .reached
                .as_ref()
                .map(|h| host_key(h, self.rfc3987bis.scheme.as_deref()).canonical_text()),
            address_class: difference.address_class(),
            whatwg: self.whatwg_parts(),
        }
    }
}

/// The class of a host in the canonical form of [`Readings::hosts`], when
/// it is an IP address or `localhost` (or a name below it: the loopback).
pub fn address_class_of(host: &str) -> Option<AddressClass> {
    let bare = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    match bare.parse::<IpAddr>() {
        Ok(a) => Some(AddressClass::of(a)),
        Err(_) => name_class(host),
    }
}

/// The class of a name in canonical form that is always an address of one
/// class: `localhost` and the names below it are the loopback (RFC 6761
/// §6.3; browsers answer them so without asking DNS).
fn name_class(name: &str) -> Option<AddressClass> {
    let name = name.strip_suffix('.').unwrap_or(name);
    (name == "localhost" || name.ends_with(".localhost")).then_some(AddressClass::Loopback)
}

/// The schemes the WHATWG URL Standard calls special, whose hosts are
/// domains or IP addresses and whose paths are hierarchical.
pub(crate) const SPECIAL_SCHEMES: [&str; 6] = ["ftp", "file", "http", "https", "ws", "wss"];

fn is_special(scheme: Option<&str>) -> bool {
    scheme.is_some_and(|s| SPECIAL_SCHEMES.iter().any(|x| x.eq_ignore_ascii_case(s)))
}

fn is_file(scheme: Option<&str>) -> bool {
    scheme.is_some_and(|s| s.eq_ignore_ascii_case("file"))
}

/// Every reading of `r` (see the [module docs](self)).
///
/// ```
/// use iribis::readings::{readings, ReadHost};
/// use iribis::IriRef;
///
/// let r = IriRef::parse("http://2130706433/")?;
/// let all = readings(&r);
/// assert_eq!(all.rfc3987bis.host, Some(ReadHost::Name("2130706433".into())));
/// assert_eq!(all.inet_aton.as_ref().unwrap().host, Some(ReadHost::Ipv4([127, 0, 0, 1].into())));
/// assert_eq!(all.differences()[0].code.name(), "READING_HOST_DIFFERS");
///
/// // Only normalization apart: no difference.
/// let r = IriRef::parse("HTTP://EXAMPLE.org:80/a/../r%C3%A9sum%C3%A9")?;
/// assert!(readings(&r).differences().is_empty());
/// # Ok::<(), iribis::ParseError>(())
/// ```
pub fn readings<T: Storage>(r: &IriRef<T>) -> Readings {
    let r = r.as_borrowed();
    let ours = rfc3987bis(&r);
    let whatwg = r.scheme().map(|_| whatwg(r.as_str()));
    let inet_aton = inet_aton_reading(&r);
    let decoded = decoded_reading(&r);
    let mut readings = Readings {
        rfc3987bis: ours,
        whatwg,
        inet_aton,
        decoded,
        differences: Vec::new(),
    };
    readings.differences = differences(&r, &readings);
    readings
}

/// What the cheap look at a host says ([`host_may_differ`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HostLook {
    /// Every reader reads it alike: a plain ASCII name that does not end in
    /// a number, an IPv4 or IPv6 address, an authority where one belongs.
    Alike,
    /// An internationalized name (characters outside ASCII or an A-label,
    /// no percent-encoding, not ending in a number): whether readers part
    /// depends on the name and the kind of scheme only, so the checker
    /// remembers the answer per name ([`host_reads_alike`]).
    Name,
    /// Readers may part: a percent-encoding, a number at the end, an
    /// IPvFuture literal, a special scheme without a host.
    Maybe,
}

/// The cheap look at the host of `r`: with [`rest_may_differ`], whether
/// another reader can read `r` otherwise than 3987bis, so that the checker
/// computes [`readings()`] only where they can part. Never `Alike` with
/// `rest_may_differ` false (and the checker's look at its findings) where
/// [`Readings::differences`] is not empty (tests/checker/readings.rs checks
/// it, through the checker, on every input of its properties).
///
/// The checker knows already the host (`r.host()`), the scheme in
/// lowercase, and whether the host is a plain ASCII name
/// (`crate::host::is_plain_ascii_name`).
pub(crate) fn host_may_differ(
    r: &IriRef<&str>,
    host: Option<Host<'_>>,
    scheme: Option<&str>,
    plain: bool,
) -> HostLook {
    let special = || matches!(scheme, Some("http" | "https" | "ws" | "wss" | "ftp"));
    match host {
        Some(Host::RegName(h)) if !h.is_empty() => {
            if ends_in_number(h) || (!plain && h.contains('%')) {
                HostLook::Maybe
            } else if !plain {
                HostLook::Name
            } else if r.profile() == crate::Profile::Leiri && leiri_only(h) {
                HostLook::Maybe
            } else {
                HostLook::Alike
            }
        }
        Some(Host::Ipv4(_) | Host::Ipv6(_)) => HostLook::Alike,
        Some(Host::IpvFuture(_)) => HostLook::Maybe,
        // An empty host: browsers want one after a special scheme's "//",
        // and after a userinfo or before a port in any scheme.
        Some(Host::RegName(_)) => {
            if special() || r.userinfo().is_some() || r.port().is_some() {
                HostLook::Maybe
            } else {
                HostLook::Alike
            }
        }
        // A special scheme without an authority: browsers find a host in
        // the path. An encoded '/' or '\\' at the start of the path: a
        // decoding reader finds an authority (`/%2F%2Fevil.example`).
        None if special() || decodes_differently(r) => HostLook::Maybe,
        None => HostLook::Alike,
    }
}

/// Whether a name has an ASCII character a LEIRI allows and an IRI does
/// not (3987bis §6.3: space, controls, `"<>\\^`{|}`), which browsers refuse
/// in a host.
fn leiri_only(name: &str) -> bool {
    name.bytes()
        .any(|b| b <= 0x20 || b == 0x7F || b"\"<>\\^`{|}".contains(&b))
}

/// The cheap look at the rest of `r` but the path and a LEIRI's
/// characters (which the checker looks at with what it has found:
/// `check::found_may_differ`): a userinfo with a percent-encoding, a port
/// past 65535, a `file:` userinfo or port.
pub(crate) fn rest_may_differ(r: &IriRef<&str>) -> bool {
    if r.userinfo().is_none() && r.port().is_none() {
        return false;
    }
    // A file: URL has no userinfo nor port in the WHATWG URL Standard.
    is_file(r.scheme())
        || r.userinfo().is_some_and(|u| u.contains('%'))
        || r.port()
            .is_some_and(|p| p.len() > 5 || (p.len() == 5 && p > "65535"))
}

/// Whether every reader reads the internationalized name `host` alike
/// under a scheme of `kind` (0: special, 1: `file`, 2: any other), where
/// the rest of the reference gives them nothing to part on
/// ([`rest_may_differ`] false, and nothing in the path): the readings of
/// `kind://host/`.
pub(crate) fn host_reads_alike(host: &str, kind: u8) -> bool {
    let scheme = match kind {
        0 => "http",
        1 => "file",
        _ => "foo",
    };
    let text = format!("{scheme}://{host}/");
    IriRef::parse(&text).is_ok_and(|r| readings(&r).differences().is_empty())
}

/// The kind of `scheme` for [`host_reads_alike`].
pub(crate) fn scheme_kind(scheme: Option<&str>) -> u8 {
    if is_file(scheme) {
        1
    } else if is_special(scheme) {
        0
    } else {
        2
    }
}

/// The WHATWG URL Standard's "ends in a number": the last label (after one
/// trailing dot) is all digits, or `0x` and hex digits; such a host goes
/// through the IPv4 parser, and inet_aton reads no other.
fn ends_in_number(host: &str) -> bool {
    let b = host.as_bytes();
    let b = b.strip_suffix(b".").unwrap_or(b);
    // A number ends in a hex digit, or in the x of "0x": most names do not.
    if !b
        .last()
        .is_some_and(|&c| c.is_ascii_hexdigit() || c == b'x' || c == b'X')
    {
        return false;
    }
    let start = b.iter().rposition(|&c| c == b'.').map_or(0, |i| i + 1);
    let last = &b[start..];
    if !last.is_empty() && last.iter().all(u8::is_ascii_digit) {
        return true;
    }
    matches!(last, [b'0', b'x' | b'X', rest @ ..] if rest.iter().all(u8::is_ascii_hexdigit))
}

fn rfc3987bis(r: &IriRef<&str>) -> Reading {
    Reading {
        reader: Reader::Rfc3987bis,
        scheme: r.scheme().map(str::to_owned),
        userinfo: r.userinfo().map(str::to_owned),
        host: r.host().map(|h| match h {
            Host::RegName("") => ReadHost::Empty,
            Host::RegName(n) => ReadHost::Name(n.to_owned()),
            Host::Ipv4(a) => ReadHost::Ipv4(a),
            Host::Ipv6(a) => ReadHost::Ipv6(a),
            Host::IpvFuture(f) => ReadHost::IpvFuture(f.to_string()),
        }),
        port: r.port().map(str::to_owned),
        path: Some(r.path().to_owned()),
        query: r.query().map(str::to_owned),
        fragment: r.fragment().map(str::to_owned),
    }
}

/// The WHATWG URL Standard's reading, through rust-url.
fn whatwg(input: &str) -> Result<Reading, Rejection> {
    let url = url::Url::parse(input).map_err(|e| Rejection {
        reader: Reader::Whatwg,
        message: e.to_string(),
        component: match e {
            url::ParseError::InvalidPort => Component::Port,
            url::ParseError::Overflow | url::ParseError::RelativeUrlWithoutBase => Component::Input,
            _ => Component::Host,
        },
    })?;
    let special = is_special(Some(url.scheme()));
    let mut host = match url.host() {
        Some(url::Host::Domain("")) => Some(ReadHost::Empty),
        Some(url::Host::Domain(d)) if special => Some(ReadHost::Name(d.to_owned())),
        Some(url::Host::Domain(d)) => Some(ReadHost::Opaque(d.to_owned())),
        Some(url::Host::Ipv4(a)) => Some(ReadHost::Ipv4(a)),
        Some(url::Host::Ipv6(a)) => Some(ReadHost::Ipv6(a)),
        None if url.has_authority() => Some(ReadHost::Empty),
        None => None,
    };
    // rust-url drops the host of a `file:` URL whose path starts with a
    // Windows drive letter (`file://host/C:/x`), which the Standard no
    // longer does and WPT's URL tests do not expect (`file://example.net/C:/`
    // keeps `example.net`): the host as the Standard's file host state reads
    // it.
    if url.scheme() == "file"
        && matches!(host, None | Some(ReadHost::Empty))
        && starts_with_drive_letter(url.path().strip_prefix('/').unwrap_or(""))
        && let Some(kept) = file_host(input)
    {
        host = Some(kept);
    }
    // rust-url drops the empty segments at the start of a `file:` path
    // (`file:////foo` is `/foo` there); the Standard keeps them, and WPT's
    // URL tests expect `//foo`.
    let mut path = url.path().to_owned();
    if url.scheme() == "file" {
        let slashes = file_path_slashes(input);
        let had = path.len() - path.trim_start_matches('/').len();
        if slashes > had {
            path.insert_str(0, &"/".repeat(slashes - had));
        }
    }
    let userinfo = match (url.username(), url.password()) {
        ("", None) => None,
        (user, None) => Some(user.to_owned()),
        (user, Some(password)) => Some(format!("{user}:{password}")),
    };
    Ok(Reading {
        reader: Reader::Whatwg,
        scheme: Some(url.scheme().to_owned()),
        userinfo,
        host,
        port: url.port().map(|p| p.to_string()),
        path: Some(path),
        query: url.query().map(str::to_owned),
        fragment: url.fragment().map(str::to_owned),
    })
}

/// A Windows drive letter at the start of `path` (the URL Standard's
/// "starts with a Windows drive letter": a letter, `:` or `|`, then the end
/// or `/ \\ ? #`).
fn starts_with_drive_letter(path: &str) -> bool {
    let b = path.as_bytes();
    b.len() >= 2
        && b[0].is_ascii_alphabetic()
        && matches!(b[1], b':' | b'|')
        && b.get(2).is_none_or(|c| b"/\\?#".contains(c))
}

/// The host of a `file:` URL as the URL Standard's file host state reads
/// it (§4.4): after `file:` and two slashes (or backslashes), the text up
/// to the next `/ \\ ? #`; none when that is empty or a Windows drive
/// letter, the empty host for `localhost`. Tabs and newlines are removed
/// first, and the leading and trailing C0 controls and spaces (the basic
/// URL parser's first steps).
fn file_host(input: &str) -> Option<ReadHost> {
    let trimmed = input.trim_matches(|c: char| c <= ' ');
    let text: String = trimmed
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let rest = text
        .get(..5)?
        .eq_ignore_ascii_case("file:")
        .then(|| &text[5..])?;
    let rest = rest.strip_prefix(['/', '\\'])?.strip_prefix(['/', '\\'])?;
    let buffer = &rest[..rest.find(['/', '\\', '?', '#']).unwrap_or(rest.len())];
    let b = buffer.as_bytes();
    let drive = b.len() == 2 && b[0].is_ascii_alphabetic() && matches!(b[1], b':' | b'|');
    if buffer.is_empty() || drive {
        return None;
    }
    match url::Host::parse(buffer).ok()? {
        url::Host::Domain(d) if d == "localhost" => Some(ReadHost::Empty),
        url::Host::Domain(d) => Some(ReadHost::Name(d)),
        url::Host::Ipv4(a) => Some(ReadHost::Ipv4(a)),
        url::Host::Ipv6(a) => Some(ReadHost::Ipv6(a)),
    }
}

/// How many slashes start the path of the `file:` URL `input` as the URL
/// Standard's path state reads it (§4.4): the path's segments
/// split at `/` and `\\`, a double-dot segment removing the last one (but
/// a lone Windows drive letter), a single-dot one nothing, either at the
/// end leaving an empty one.
fn file_path_slashes(input: &str) -> usize {
    let text: String = input
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let Some(rest) = text
        .get(..5)
        .filter(|s| s.eq_ignore_ascii_case("file:"))
        .map(|_| &text[5..])
    else {
        return 0;
    };
    let rest = &rest[..rest.find(['?', '#']).unwrap_or(rest.len())];
    let slash = |s: &str| s.starts_with(['/', '\\']);
    // Where the path's first segment starts.
    let path = if slash(rest) && slash(&rest[1..]) {
        let after = &rest[2..];
        let end = after.find(['/', '\\']).unwrap_or(after.len());
        let b = &after.as_bytes()[..end];
        if b.len() == 2 && b[0].is_ascii_alphabetic() && matches!(b[1], b':' | b'|') {
            after
        } else if end < after.len() {
            &after[end + 1..]
        } else {
            ""
        }
    } else if slash(rest) {
        &rest[1..]
    } else {
        rest
    };
    let mut segments: Vec<&str> = Vec::new();
    let parts: Vec<&str> = path.split(['/', '\\']).collect();
    for (i, seg) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        let lower = seg.to_ascii_lowercase();
        let double = matches!(lower.as_str(), ".." | ".%2e" | "%2e." | "%2e%2e");
        let single = matches!(lower.as_str(), "." | "%2e");
        if double {
            let drive = segments.len() == 1 && {
                let b = segments[0].as_bytes();
                b.len() == 2 && b[0].is_ascii_alphabetic() && matches!(b[1], b':' | b'|')
            };
            if !drive {
                segments.pop();
            }
            if last {
                segments.push("");
            }
        } else if single {
            if last {
                segments.push("");
            }
        } else {
            segments.push(seg);
        }
    }
    let empty = segments.iter().take_while(|s| s.is_empty()).count();
    // The path is `/` and the segments joined with `/`.
    if empty == segments.len() {
        empty.max(1)
    } else {
        empty + 1
    }
}

fn inet_aton_reading(r: &IriRef<&str>) -> Option<Reading> {
    let addr = match r.host()? {
        Host::Ipv4(a) => a,
        Host::RegName(n) if ends_in_number(n) => inet_aton(&canonical_name(n))?,
        Host::RegName(n) if !n.is_ascii() || n.contains('%') => {
            let c = canonical_name(n);
            if !ends_in_number(&c) {
                return None;
            }
            inet_aton(&c)?
        }
        _ => return None,
    };
    Some(Reading::host_only(Reader::InetAton, ReadHost::Ipv4(addr)))
}

/// At most this many rounds of decoding: each round shortens the text by
/// two bytes per escape, so a fixed point comes soon; a reference built to
/// unfold deeper is cut there.
const DECODE_ROUNDS: usize = 8;

/// `text` percent-decoded as often as that changes it (at most
/// [`DECODE_ROUNDS`] times), octets that are not UTF-8 as U+FFFD.
fn decode_repeatedly(text: &str) -> String {
    let mut s = text.to_owned();
    for _ in 0..DECODE_ROUNDS {
        if !s.contains('%') {
            break;
        }
        let next = percent_encoding::percent_decode_str(&s)
            .decode_utf8_lossy()
            .into_owned();
        if next == s {
            break;
        }
        s = next;
    }
    s
}

/// Whether the decoding reader reads `r`: a `%` in the authority, or none
/// and a path starting with an encoded `/` or `\`.
fn decodes_differently(r: &IriRef<&str>) -> bool {
    match r.authority() {
        Some(a) => a.contains('%'),
        None => {
            let p = r.path().trim_start_matches('/').as_bytes();
            p.len() >= 3
                && p[0] == b'%'
                && (p[1..3].eq_ignore_ascii_case(b"2f") || p[1..3].eq_ignore_ascii_case(b"5c"))
        }
    }
}

/// The decoding reader: the whole reference decoded, then split: the
/// authority after `//` up to the first `/`, `\`, `?` or `#`, the userinfo
/// up to its last `@`, the host up to a `:` (outside brackets).
fn decoded_reading(r: &IriRef<&str>) -> Option<Reading> {
    if !decodes_differently(r) {
        return None;
    }
    let text = decode_repeatedly(r.as_str());
    let rest = match r.scheme() {
        Some(s) => text.get(s.len() + 1..).unwrap_or(""),
        None => &text,
    };
    // The authority ends at the next delimiter. Where the reference has an
    // authority, it starts after its two slashes (RFC 3986 §3.2), so that
    // a decoded `/` right after them ends it: `http://%2F%2F@evil.example/`
    // has the empty host there. Where the encoded slashes start the path
    // (`/%2F%2Fevil.example`), the authority starts after all of them, as
    // browsers skip the slashes of the decoded text a server redirects
    // them to.
    let slashes = rest.len() - rest.trim_start_matches(['/', '\\']).len();
    if slashes < 2 {
        return None;
    }
    let after = if r.authority().is_some() {
        &rest[2..]
    } else {
        &rest[slashes..]
    };
    let authority = &after[..after.find(['/', '\\', '?', '#']).unwrap_or(after.len())];
    // The userinfo up to the last '@', as the WHATWG URL Standard, RFC
    // 3986's grammar, Python's urlsplit and Go's net/url split it: a
    // decoded '@' (`alice%40corp@host`, an e-mail address as the user name)
    // leaves the host where it is; a decoded '/', '\', '?' or '#' ends the
    // authority before it.
    let (userinfo, host_port) = match authority.rsplit_once('@') {
        Some((user, host)) => (Some(user), host),
        None => (None, authority),
    };
    let host = if let Some(inner) = host_port.strip_prefix('[') {
        let inner = &inner[..inner.find(']').unwrap_or(inner.len())];
        match inner.parse::<Ipv6Addr>() {
            Ok(a) => ReadHost::Ipv6(a),
            Err(_) => ReadHost::IpvFuture(inner.to_owned()),
        }
    } else {
        let h = &host_port[..host_port.find(':').unwrap_or(host_port.len())];
        match h.parse::<Ipv4Addr>() {
            Ok(a) => ReadHost::Ipv4(a),
            Err(_) if h.is_empty() => ReadHost::Empty,
            Err(_) => ReadHost::Name(h.to_owned()),
        }
    };
    let mut reading = Reading::host_only(Reader::Decoded, host);
    reading.userinfo = userinfo.map(str::to_owned);
    Some(reading)
}

/// A host in the form every reader agrees on.
#[derive(Clone, Debug, PartialEq, Eq)]
enum HostKey {
    Name(String),
    Ip(IpAddr),
    Future(String),
    Empty,
    /// A name 3987bis's lookup refuses ([`lookup_refuses`]): no host, and
    /// unlike any host another reader reaches.
    Refused,
}

impl HostKey {
    /// As [`AllowedHosts`] compares it: a name without its root dot, an
    /// IPv6 address in brackets.
    fn canonical_text(&self) -> String {
        match self {
            HostKey::Name(n) => n.strip_suffix('.').unwrap_or(n).to_owned(),
            HostKey::Ip(IpAddr::V4(a)) => a.to_string(),
            HostKey::Ip(IpAddr::V6(a)) => format!("[{a}]"),
            HostKey::Future(f) => format!("[{f}]"),
            HostKey::Empty | HostKey::Refused => String::new(),
        }
    }
}

/// A name in the form readers agree on: percent-encoded octets outside
/// ASCII decoded (when they are UTF-8: 3987bis §3.4.1 writes `résumé` as
/// `r%C3%A9sum%C3%A9`, and §3.4.2 reads it back), the hex digits of the
/// other percent-encodings in uppercase, ASCII in lowercase, then UTS #46
/// ToASCII as the WHATWG URL Standard applies it (no STD3 rules, hyphens
/// and lengths unchecked) when the name is not ASCII or has an A-label.
/// A name ToASCII rejects stays as it is then.
fn canonical_name(name: &str) -> String {
    let mut s = decode_non_ascii(name);
    s.make_ascii_lowercase();
    uppercase_escapes(&mut s);
    if s.is_ascii() && !crate::host::has_a_label(s.as_bytes()) {
        return s;
    }
    use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};
    match Uts46::new().to_ascii(
        s.as_bytes(),
        AsciiDenyList::EMPTY,
        Hyphens::Allow,
        DnsLength::Ignore,
    ) {
        Ok(ascii) => {
            let mut a = ascii.into_owned();
            uppercase_escapes(&mut a);
            a
        }
        Err(_) => s,
    }
}

/// Whether 3987bis's reading of the registered name `name` reaches no host
/// where the WHATWG URL Standard's UTS #46 processing reaches one.
///
/// 3987bis §3.4.2 converts an `ireg-name` for lookup by decoding its
/// percent-encoded UTF-8 and applying RFC 5891's lookup (§5.3–5.5) to each
/// label between U+002E FULL STOPs. That lookup maps nothing: a label with
/// a code point IDNA2008 does not allow (RFC 5892) or outside NFC is
/// refused (RFC 5891 §5.4), and so is an A-label that decodes to one.
/// Browsers map first (UTS #46 §4.1: compatibility forms, ignored
/// characters, the other full stops as label separators) and allow the
/// symbols and emoji IDNA2008 disallows, so a full-width `ｌｏｃａｌｈｏｓｔ`,
/// `ⓛⓞⓒⓐⓛⓗⓞⓢⓣ`, `a`U+00AD`b`, `example。com`, `☃.com` or `i❤.ws`
/// reaches a host in browsers and none under 3987bis. The judgement is
/// the one `to_uri` with IDNA makes ([`convert::idna2008_refused_label`]),
/// so the conversion fails exactly where this says no host is reached.
///
/// Lowercasing (the DNS compares names without case, RFC 4343; RFC 5895
/// §2 step 1) leaves the label the same one: `BÜCHER.de` is not refused.
/// A name UTS #46 itself rejects is not counted here: the WHATWG reading
/// rejects it then.
fn lookup_refuses(name: &str) -> bool {
    let decoded = decode_non_ascii(name);
    if decoded.is_ascii() && !crate::host::has_a_label(decoded.as_bytes()) {
        return false;
    }
    if convert::idna2008_refused_label(&decoded).is_none() {
        return false;
    }
    use idna::uts46::{AsciiDenyList, Hyphens, Uts46};
    Uts46::new()
        .to_unicode(decoded.as_bytes(), AsciiDenyList::EMPTY, Hyphens::Allow)
        .1
        .is_ok()
}

/// Decodes the percent-encoded octets at or above 0x80 when all of them
/// together with the text around them are UTF-8; else the text as it is.
fn decode_non_ascii(text: &str) -> String {
    if !text.contains('%') {
        return text.to_owned();
    }
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(v) = text
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
            && v >= 0x80
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

/// `%2e` → `%2E`, in place.
fn uppercase_escapes(s: &mut String) {
    if !s.contains('%') {
        return;
    }
    let mut b = std::mem::take(s).into_bytes();
    for i in 0..b.len() {
        if b[i] == b'%'
            && i + 2 < b.len()
            && b[i + 1].is_ascii_hexdigit()
            && b[i + 2].is_ascii_hexdigit()
        {
            b[i + 1].make_ascii_uppercase();
            b[i + 2].make_ascii_uppercase();
        }
    }
    *s = String::from_utf8(b).unwrap_or_default();
}

/// The agreed form of a reader's host under `scheme`: a `file:` host
/// `localhost` is the empty host (RFC 8089 §3, the WHATWG file host
/// state).
fn host_key(host: &ReadHost, scheme: Option<&str>) -> HostKey {
    let key = match host {
        // An opaque host is text, but it reaches the address it spells.
        ReadHost::Opaque(n) => match n.parse::<Ipv4Addr>() {
            Ok(a) => HostKey::Ip(IpAddr::V4(a)),
            Err(_) => HostKey::Name(canonical_name(n)),
        },
        ReadHost::Name(n) => HostKey::Name(canonical_name(n)),
        ReadHost::Ipv4(a) => HostKey::Ip(IpAddr::V4(*a)),
        ReadHost::Ipv6(a) => HostKey::Ip(IpAddr::V6(*a)),
        ReadHost::IpvFuture(f) => HostKey::Future(f.to_ascii_lowercase()),
        ReadHost::Empty => HostKey::Empty,
    };
    match key {
        HostKey::Name(n) if is_file(scheme) && n == "localhost" => HostKey::Empty,
        other => other,
    }
}

/// The agreed form of an absent host: for `file:`, the empty host
/// (`file:/x` is `file:///x`).
fn absent_host_key(scheme: Option<&str>) -> Option<HostKey> {
    is_file(scheme).then_some(HostKey::Empty)
}

/// A path in the form readers agree on: the dot segments RFC 3986 §5.2.4
/// removes removed, then percent-encoded octets decoded but those of `/`,
/// `?`, `#` and `%` (which would change what the path is), with the
/// characters outside ASCII, and the ones some readers encode, as
/// themselves; an empty path after an authority of a special scheme as `/`.
fn path_key(path: &str, special_authority: bool) -> String {
    let mut p = if path.is_empty() && special_authority {
        "/".to_owned()
    } else {
        path.to_owned()
    };
    crate::resolve::remove_dot_segments(&mut p, 0);
    let b = p.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(v) = p
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            if matches!(v, b'/' | b'?' | b'#' | b'%') {
                out.extend_from_slice(format!("%{v:02X}").as_bytes());
            } else {
                out.push(v);
            }
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether a path segment is a percent-encoded dot segment the WHATWG URL
/// Standard resolves (§4.4's single-dot and double-dot URL path segments,
/// with at least one `%2e`).
fn encoded_dot_segment(seg: &str) -> bool {
    seg.contains('%')
        && [".%2e", "%2e.", "%2e%2e", "%2e"]
            .iter()
            .any(|form| seg.eq_ignore_ascii_case(form))
}

/// The byte span of `part`, a slice of `input`.
fn span(input: &str, part: &str) -> (usize, usize) {
    let start = part.as_ptr() as usize - input.as_ptr() as usize;
    (start, start + part.len())
}

/// Names for messages.
fn show(host: &ReadHost) -> String {
    match host {
        ReadHost::Empty => "the empty host".to_owned(),
        ReadHost::Ipv4(_) | ReadHost::Ipv6(_) => {
            let class = host
                .address_class()
                .map_or(String::new(), |c| format!(" ({c})"));
            format!("the address {host}{class}")
        }
        _ => format!("'{host}'"),
    }
}

fn readers_text(readers: &[Reader]) -> String {
    let names: Vec<&str> = readers.iter().map(|r| r.describe()).collect();
    names.join(" and ")
}

/// "browsers (...) and C resolvers (...) reach", "3987bis reaches": the
/// readers and the verb that agrees with them.
pub(crate) fn reach(readers: &[Reader]) -> String {
    let singular = matches!(readers, [Reader::Rfc3987bis | Reader::Decoded]);
    format!(
        "{} {}",
        readers_text(readers),
        if singular { "reaches" } else { "reach" }
    )
}

/// The characters a userinfo must not hide behind percent-encoding: each
/// ends the authority of a reader that decodes first.
const DELIMITERS: [char; 4] = ['/', '\\', '?', '#'];

fn differences(r: &IriRef<&str>, all: &Readings) -> Vec<Difference> {
    let input = r.as_str();
    let scheme = r.scheme();
    let special = is_special(scheme);
    // A name the lookup of 3987bis §3.4.2 refuses reaches no host; it is
    // compared so where browsers look names up (a special scheme's domain),
    // not against the opaque host of another scheme, which no one looks up.
    let refused =
        special && matches!(&all.rfc3987bis.host, Some(ReadHost::Name(n)) if lookup_refuses(n));
    let ours = if refused {
        Some(HostKey::Refused)
    } else {
        all.rfc3987bis
            .host
            .as_ref()
            .map(|h| host_key(h, scheme))
            .or_else(|| absent_host_key(scheme))
    };
    // Where a host finding points: the host, or else the path (where a
    // reader found a host) or the whole input.
    let host_span = match r.host_str() {
        Some(h) if !h.is_empty() => (span(input, h), Component::Host),
        _ if !r.path().is_empty() => (span(input, r.path()), Component::Path),
        _ => ((0, input.len()), Component::Input),
    };
    let mut out: Vec<Difference> = Vec::new();
    // The hosts other readers reach, grouped by host, when they are not
    // 3987bis's (`None`: a reader that reads no host where 3987bis does).
    // Ports are read alike where a reader accepts them (a number, the
    // default as none): only the WHATWG rejection of one past 65535 parts.
    let mut reached: Vec<(Option<ReadHost>, Vec<Reader>)> = Vec::new();
    let mut reach_host = |reader: Reader, host: Option<&ReadHost>| {
        let key = host.map(|h| host_key(h, scheme));
        if key == ours {
            return;
        }
        match reached
            .iter_mut()
            .find(|(h, _)| h.as_ref().map(|h| host_key(h, scheme)) == key)
        {
            Some((_, readers)) => readers.push(reader),
            None => reached.push((host.cloned(), vec![reader])),
        }
    };
    match &all.whatwg {
        None => {}
        Some(Err(rejection)) => {
            let ((start, end), component) = match (rejection.component, r.port()) {
                (Component::Port, Some(p)) => (span(input, p), Component::Port),
                (Component::Host | Component::Port, _) => host_span,
                _ => ((0, input.len()), Component::Input),
            };
            out.push(Difference {
                code: Code::ReadingRejected,
                component,
                start,
                end,
                readers: vec![Reader::Whatwg],
                reached: None,
                message: format!(
                    "{} reject this IRI ({}), which 3987bis accepts",
                    Reader::Whatwg.describe(),
                    rejection.message
                ),
            });
        }
        Some(Ok(w)) => {
            reach_host(Reader::Whatwg, w.host.as_ref());
            // The paths, unless the WHATWG reading found its host in what
            // 3987bis reads as the path (`http:evil.example/x`, `http:///x`):
            // the host finding says it all then.
            let ours_named = !matches!(ours, None | Some(HostKey::Empty)) || refused;
            let host_from_path = !ours_named && !matches!(w.host, None | Some(ReadHost::Empty));
            if w.host.is_some() == r.authority().is_some() && !host_from_path {
                path_differences(r, w, special, &mut out);
            }
        }
    }
    if let Some(host) = all.inet_aton.as_ref().and_then(|i| i.host.as_ref()) {
        reach_host(Reader::InetAton, Some(host));
    }
    if let Some(d) = &all.decoded {
        let hidden = r
            .userinfo()
            .map(decode_repeatedly)
            .filter(|u| u.contains(DELIMITERS));
        match (hidden, r.userinfo()) {
            (Some(decoded), Some(u)) if d.host.as_ref().map(|h| host_key(h, scheme)) != ours => {
                let (start, end) = span(input, u);
                let mut shown: Vec<String> = Vec::new();
                for c in decoded.chars().filter(|c| DELIMITERS.contains(c)) {
                    let quoted = format!("'{c}'");
                    if !shown.contains(&quoted) {
                        shown.push(quoted);
                    }
                }
                out.push(Difference {
                    code: Code::ReadingUserinfoEncodedDelimiter,
                    component: Component::Userinfo,
                    start,
                    end,
                    readers: vec![Reader::Decoded],
                    reached: d.host.clone(),
                    message: format!(
                        "the userinfo hides {} behind percent-encoding: {} {}{}",
                        shown.join(", "),
                        reach(&[Reader::Decoded]),
                        d.host.as_ref().map_or("no host".to_owned(), show),
                        ours_text(all, refused)
                    ),
                });
            }
            _ => reach_host(Reader::Decoded, d.host.as_ref()),
        }
    }
    if !reached.is_empty() {
        let ((start, end), component) = host_span;
        let what: Vec<String> = reached
            .iter()
            .map(|(host, readers)| match host {
                Some(h) => format!("{} {}", reach(readers), show(h)),
                None => format!("{} no host", reach(readers)),
            })
            .collect();
        out.push(Difference {
            code: Code::ReadingHostDiffers,
            component,
            start,
            end,
            readers: reached
                .iter()
                .flat_map(|(_, r)| r.iter().copied())
                .collect(),
            reached: reached.iter().find_map(|(h, _)| h.clone()),
            message: format!("{}{}", what.join("; "), ours_text(all, refused)),
        });
    }
    out.sort_by_key(|d| (d.start, d.code));
    out
}

/// 3987bis's host for messages, after what the other readers reach:
/// ", not ..., which 3987bis reads"; `refused`: its lookup refuses the
/// name ([`lookup_refuses`]).
fn ours_text(all: &Readings, refused: bool) -> String {
    match &all.rfc3987bis.host {
        Some(h) if refused => format!(
            ", where 3987bis reaches no host: it looks {} up as RFC 5891 §5.3–5.5 do \
             (§3.4.2), with no mapping, and the lookup refuses it",
            show(h)
        ),
        Some(h) => format!(", not {}, which 3987bis reads", show(h)),
        None => ", not no host, as 3987bis reads it".to_owned(),
    }
}

/// The path findings: each percent-encoded dot segment the WHATWG reading
/// resolved, or else the path as a whole.
fn path_differences(r: &IriRef<&str>, w: &Reading, special: bool, out: &mut Vec<Difference>) {
    let input = r.as_str();
    let path = r.path();
    let theirs = w.path.as_deref().unwrap_or("");
    let with_authority = special && r.authority().is_some();
    if path_key(path, with_authority) == path_key(theirs, with_authority) {
        return;
    }
    let before = out.len();
    let mut at = span(input, path).0;
    for seg in path.split('/') {
        if encoded_dot_segment(seg) {
            out.push(Difference {
                code: Code::ReadingEncodedDotSegment,
                component: Component::Path,
                start: at,
                end: at + seg.len(),
                readers: vec![Reader::Whatwg],
                reached: w.host.clone(),
                message: format!(
                    "{} read '{seg}' as '{}' and resolve the path to '{theirs}', not '{path}'",
                    Reader::Whatwg.describe(),
                    if seg.len() > 3 { ".." } else { "." },
                ),
            });
        }
        at += seg.len() + 1;
    }
    if out.len() == before {
        let (start, end) = span(input, path);
        out.push(Difference {
            code: Code::ReadingPathDiffers,
            component: Component::Path,
            start,
            end,
            readers: vec![Reader::Whatwg],
            reached: w.host.clone(),
            message: format!(
                "{} read the path as '{theirs}', not '{path}'",
                Reader::Whatwg.describe()
            ),
        });
    }
}

/// The hosts a list allows: exact hosts and `*.suffix` entries, one per
/// line (`iri check --allowed-hosts FILE`). Names are compared in the form
/// every reader agrees on (ASCII lowercase, IDNA ToASCII, no root dot), IP
/// addresses as addresses (`127.0.0.1`, `[::1]` or `::1`). `*.example.com`
/// allows every name below `example.com` but not `example.com` itself.
///
/// ```
/// use iribis::readings::{readings, AllowedHosts};
/// use iribis::IriRef;
///
/// let allowed = AllowedHosts::parse("example.com\n*.example.org\n# comment\n[::1]\n")?;
/// let outside = |s: &str| {
///     let r = IriRef::parse(s).unwrap();
///     allowed.outside(&readings(&r)).into_iter().map(|(host, _)| host).collect::<Vec<_>>()
/// };
/// assert!(outside("https://EXAMPLE.com./a").is_empty());
/// assert!(outside("https://www.example.org/").is_empty());
/// assert_eq!(outside("https://example.org/"), ["example.org"]);
/// assert_eq!(outside("http://evil.com%2f@example.com/"), ["evil.com"]);
/// assert_eq!(outside("http://0x7f.1/"), ["0x7f.1", "127.0.0.1"]);
/// # Ok::<(), String>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AllowedHosts {
    exact: Vec<String>,
    suffixes: Vec<String>,
}

impl AllowedHosts {
    /// No host allowed.
    pub fn new() -> Self {
        Self::default()
    }

    /// One host or `*.suffix` per line; blank lines and lines starting with
    /// `#` are skipped. An error names the first line that is neither.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut out = AllowedHosts::new();
        crate::host::read_list(text, |line| out.add(line))?;
        Ok(out)
    }

    /// Adds a host (a name, an IPv4 address, an IPv6 address with or
    /// without brackets) or a `*.suffix`.
    pub fn add(&mut self, entry: &str) -> Result<(), String> {
        let (wild, host) = match entry.strip_prefix("*.") {
            Some(rest) => (true, rest),
            None => (false, entry),
        };
        let bare = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(host);
        let key = if let Ok(a) = bare.parse::<IpAddr>() {
            if wild {
                return Err(format!(
                    "{entry:?}: '*.' goes before a name, not an address"
                ));
            }
            HostKey::Ip(a).canonical_text()
        } else {
            let name = canonical_name(host);
            let name = name.strip_suffix('.').unwrap_or(&name).to_owned();
            let bad = name.is_empty()
                || name.split('.').any(str::is_empty)
                || name.contains(['/', '@', ':', '?', '#', '*', ' ', '[', ']', '\\']);
            if bad {
                return Err(format!("{entry:?} is not a host name or `*.suffix`"));
            }
            name
        };
        if wild {
            self.suffixes.push(format!(".{key}"));
        } else {
            self.exact.push(key);
        }
        Ok(())
    }

    /// How many entries there are.
    pub fn len(&self) -> usize {
        self.exact.len() + self.suffixes.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the list allows `host` (in the canonical form of
    /// [`Readings::hosts`]).
    pub fn allows(&self, host: &str) -> bool {
        !host.is_empty()
            && (self.exact.iter().any(|h| h == host)
                || self.suffixes.iter().any(|s| host.ends_with(s.as_str())))
    }

    /// The hosts readers of `readings` reach that the list does not allow,
    /// each with the readers that reach it.
    pub fn outside(&self, readings: &Readings) -> Vec<(String, Vec<Reader>)> {
        readings
            .hosts()
            .into_iter()
            .filter(|(host, _)| !self.allows(host))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_names() {
        assert_eq!(canonical_name("EXAMPLE.com"), "example.com");
        assert_eq!(
            canonical_name("r%C3%A9sum%C3%A9.example"),
            "xn--rsum-bpad.example"
        );
        assert_eq!(
            canonical_name("r%c3%a9sum%c3%a9.example"),
            "xn--rsum-bpad.example"
        );
        assert_eq!(canonical_name("%6c%6fcalhost"), "%6C%6Fcalhost");
        assert_eq!(canonical_name("ｌｏｃａｌｈｏｓｔ"), "localhost");
        assert_eq!(
            canonical_name("\u{ff10}\u{ff58}\u{ff17}\u{ff46}.\u{ff11}"),
            "0x7f.1"
        );
        // Not UTF-8: as it is.
        assert_eq!(canonical_name("a%FFb"), "a%FFb");
    }

    #[test]
    fn paths() {
        assert_eq!(path_key("/a/../b", true), "/b");
        assert_eq!(path_key("", true), "/");
        assert_eq!(path_key("", false), "");
        assert_eq!(path_key("/a/%2e%2e/b", true), "/a/../b");
        assert_eq!(path_key("/r%C3%A9sum%C3%A9", true), "/résumé");
        assert_eq!(path_key("/a%2fb", true), "/a%2Fb");
        assert!(encoded_dot_segment("%2E%2e"));
        assert!(encoded_dot_segment(".%2E"));
        assert!(!encoded_dot_segment(".."));
        assert!(!encoded_dot_segment("%2e%2e%2e"));
    }

    #[test]
    fn lookups_refused() {
        for name in [
            "ｌｏｃａｌｈｏｓｔ",
            "ⓛⓞⓒⓐⓛⓗⓞⓢⓣ",
            "\u{2113}ocalhost",
            "a\u{AD}b",
            "example\u{3002}com",
            "\u{FB00}.com",
            "%ef%bd%8c%ef%bd%8f%ef%bd%83alhost",
            "e\u{301}.example",
            // Symbols and emoji are DISALLOWED in IDNA2008 (RFC 5892 §2.1),
            // as A-labels too: the same labels to_uri --idna refuses.
            "\u{2603}.com",
            "i\u{2764}.ws",
            "i\u{2764}\u{FE0F}.ws",
            "xn--n3h.com",
        ] {
            assert!(lookup_refuses(name), "{name}");
        }
        for name in [
            "example.com",
            "EXAMPLE.com",
            "BÜCHER.de",
            "fa\u{DF}.de",
            "xn--bcher-kva.de",
            "r%C3%A9sum%C3%A9.example",
            "例え.jp",
            "a%FFb",
        ] {
            assert!(!lookup_refuses(name), "{name}");
        }
    }

    #[test]
    fn file_paths_as_the_standard_reads_them() {
        for (input, slashes) in [
            ("file:////foo", 2),
            ("file:////", 2),
            ("file://localhost////foo", 4),
            ("file://localhost//a//../..//foo", 3),
            ("file://spider///", 3),
            ("file:///C:/../..//x", 1),
            ("file:.//p", 2),
            ("file://h/a?//q", 1),
            ("http://h//", 0),
        ] {
            assert_eq!(file_path_slashes(input), slashes, "{input}");
        }
    }

    #[test]
    fn numbers_at_the_end() {
        for h in ["1", "a.1", "a.1.", "0x", "0x7f", "a.0XfF"] {
            assert!(ends_in_number(h), "{h}");
        }
        for h in ["", "a", "1.a", "0xg", "1a", "a.1.."] {
            assert!(!ends_in_number(h), "{h}");
        }
    }
}
