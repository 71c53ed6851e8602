//! The host of an authority.

use core::fmt;
use core::net::{Ipv4Addr, Ipv6Addr};

#[cfg(any(feature = "readings", feature = "spoof"))]
use crate::prelude::*;

/// A host, as the `ihost` rule distinguishes them.
///
/// ```
/// use std::net::{Ipv4Addr, Ipv6Addr};
/// use iribis::{Host, IriRef};
///
/// let cases = [
///     ("http://例え.jp/", Some(Host::RegName("例え.jp"))),
///     ("http://192.0.2.1/", Some(Host::Ipv4(Ipv4Addr::new(192, 0, 2, 1)))),
///     ("http://[::1]/", Some(Host::Ipv6(Ipv6Addr::LOCALHOST))),
///     ("http://256.1.1.1/", Some(Host::RegName("256.1.1.1"))),
///     ("mailto:a@example.org", None),
/// ];
/// for (input, host) in cases {
///     assert_eq!(IriRef::parse(input)?.host(), host);
/// }
/// let iri = IriRef::parse("http://[v1F.x:y]/")?;
/// let Some(Host::IpvFuture(f)) = iri.host() else { panic!("not IPvFuture") };
/// assert_eq!((f.version(), f.address()), ("1F", "x:y"));
/// # Ok::<(), iribis::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Host<'a> {
    /// `ireg-name`: a registered name, possibly empty (`file:///x`), possibly
    /// percent-encoded. Not decoded and not case-folded.
    RegName(&'a str),
    /// `IPv4address`.
    Ipv4(Ipv4Addr),
    /// `IPv6address` inside an `IP-literal`.
    Ipv6(Ipv6Addr),
    /// `IPvFuture` inside an `IP-literal`.
    IpvFuture(IpvFuture<'a>),
}

impl Host<'_> {
    /// The host's kind as the JSON output names it: `reg-name`,
    /// `IPv4address`, `IPv6address` or `IPvFuture`.
    ///
    /// ```
    /// let iri = iribis::IriRef::parse("http://[::1]/")?;
    /// assert_eq!(iri.host().unwrap().kind_name(), "IPv6address");
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn kind_name(&self) -> &'static str {
        match self {
            Host::RegName(_) => "reg-name",
            Host::Ipv4(_) => "IPv4address",
            Host::Ipv6(_) => "IPv6address",
            Host::IpvFuture(_) => "IPvFuture",
        }
    }
}

/// An `IPvFuture` literal: `"v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`.
///
/// ```
/// use iribis::{Host, IriRef};
///
/// let iri = IriRef::parse("http://[V7.abc]/")?;
/// let Some(Host::IpvFuture(f)) = iri.host() else { unreachable!() };
/// assert_eq!(f.version(), "7");
/// assert_eq!(f.address(), "abc");
/// assert_eq!(f.to_string(), "V7.abc");
/// # Ok::<(), iribis::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IpvFuture<'a> {
    pub(crate) text: &'a str,
    pub(crate) dot: usize,
}

impl<'a> IpvFuture<'a> {
    /// The version: the hex digits after "v".
    pub fn version(&self) -> &'a str {
        &self.text[1..self.dot]
    }

    /// The address: everything after the ".".
    pub fn address(&self) -> &'a str {
        &self.text[self.dot + 1..]
    }
}

/// The literal as written, without brackets.
impl fmt::Display for IpvFuture<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text)
    }
}

/// Whether a registered name has an A-label: `xn--` (in any case) at the
/// start of a label (RFC 5890 §2.3.2.1). Most names have no `-` at all,
/// which one `memchr` tells.
pub(crate) fn has_a_label(name: &[u8]) -> bool {
    memchr::memchr(b'-', name).is_some()
        && name.iter().enumerate().any(|(i, &b)| {
            (b | 0x20) == b'x'
                && (i == 0 || name[i - 1] == b'.')
                && name
                    .get(i..i + 4)
                    .is_some_and(|p| p.eq_ignore_ascii_case(b"xn--"))
        })
}

/// Whether a registered name is plain ASCII to the host checks: no
/// character outside ASCII, no percent-encoding (which may hide one), no
/// A-label. IDNA has nothing to map in such a name, and UTS #39 nothing to
/// compare.
pub(crate) fn is_plain_ascii_name(name: &str) -> bool {
    name.is_ascii()
        && memchr::memchr(b'%', name.as_bytes()).is_none()
        && !has_a_label(name.as_bytes())
}

/// Reads a list of hosts, one per line (blank lines and lines starting with
/// `#` skipped), giving each to `add`; an error of `add` names its line.
/// The format of the files `iri check --allowed-hosts` and
/// `--protected-domains` read.
#[cfg(any(feature = "readings", feature = "spoof"))]
pub(crate) fn read_list(
    text: &str,
    mut add: impl FnMut(&str) -> Result<(), String>,
) -> Result<(), String> {
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        add(line).map_err(|e| format!("line {}: {e}", i + 1))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::has_a_label;

    #[test]
    fn a_labels_at_label_starts_in_any_case() {
        for name in [
            "xn--80ak6aa92e.com",
            "www.XN--80ak6aa92e.com",
            "a.Xn--b",
            "xn--",
        ] {
            assert!(has_a_label(name.as_bytes()), "{name}");
        }
        for name in [
            "example.com",
            "axn--b.com",
            "x-n--b.com",
            "xn-b.com",
            "a-b.xn-",
            "",
        ] {
            assert!(!has_a_label(name.as_bytes()), "{name}");
        }
    }
}
