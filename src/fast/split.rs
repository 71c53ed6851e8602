//! The components of a valid reference from its delimiters alone.
//!
//! RFC 3986 Appendix B gives the regular expression
//! `^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?` that splits
//! every URI reference into scheme, authority, path, query and fragment.
//! For an input already known to match the grammar (of any profile: the
//! IRI profiles only add non-ASCII characters, LEIRI also ASCII characters
//! none of which is a delimiter), the split is exact: a scheme contains none
//! of ":/?#", an authority none of "/?#", a path none of "?#", a query no
//! "#". Inside the authority the same holds one level down: `iuserinfo` has
//! no "@", a registered name and an IPv4 address no ":", an IP literal is
//! bracketed. So this module never checks validity; it is only ever given
//! input the DFA accepted.
//!
//! The spans follow the pest lowering exactly (`crate::syntax::lower`): a
//! component whose delimiter is present is `Some`, possibly empty; the path
//! is always present.

use std::net::{Ipv4Addr, Ipv6Addr};

use crate::syntax::lower::{HostMeta, Meta};

/// Splits a valid `IRI-reference` (or `URI-reference`) into its components.
#[inline]
pub(crate) fn split(input: &str, meta: &mut Meta) {
    let b = input.as_bytes();
    let n = b.len();
    let mut at = 0;

    // scheme ":" — the first of ":/?#" is a ":" (3986 App. B, group 2).
    let mut i = 0;
    while i < n && !matches!(b[i], b':' | b'/' | b'?' | b'#') {
        i += 1;
    }
    if i < n && b[i] == b':' {
        meta.scheme = Some((0, i));
        at = i + 1;
    }

    // "//" authority — up to the next "/", "?" or "#" (group 4).
    if b[at..].starts_with(b"//") {
        let start = at + 2;
        let end = memchr::memchr3(b'/', b'?', b'#', &b[start..]).map_or(n, |j| start + j);
        meta.authority = Some((start, end));
        authority(input, start, end, meta);
        at = end;
    }

    // path — up to "?" or "#" (group 5).
    let end = memchr::memchr2(b'?', b'#', &b[at..]).map_or(n, |j| at + j);
    meta.path = Some((at, end));
    at = end;

    // "?" query — up to "#" (group 7).
    if at < n && b[at] == b'?' {
        let end = memchr::memchr(b'#', &b[at + 1..]).map_or(n, |j| at + 1 + j);
        meta.query = Some((at + 1, end));
        at = end;
    }

    // "#" fragment — the rest (group 9).
    if at < n && b[at] == b'#' {
        meta.fragment = Some((at + 1, n));
    }
}

/// `iauthority = [ iuserinfo "@" ] ihost [ ":" port ]` over `input[start..end]`.
fn authority(input: &str, start: usize, end: usize, meta: &mut Meta) {
    let b = input.as_bytes();
    let mut host_start = start;
    // iuserinfo has no "@", nor has ihost or port: any "@" ends the userinfo.
    if let Some(i) = memchr::memchr(b'@', &b[start..end]) {
        meta.userinfo = Some((start, start + i));
        host_start = start + i + 1;
    }
    let host_end = if b.get(host_start) == Some(&b'[') {
        // IP-literal: up to and with the "]", which appears nowhere inside.
        let close = b[host_start..end]
            .iter()
            .position(|&c| c == b']')
            .map_or(end, |i| host_start + i + 1);
        close
    } else {
        // ireg-name and IPv4address have no ":".
        b[host_start..end]
            .iter()
            .position(|&c| c == b':')
            .map_or(end, |i| host_start + i)
    };
    if host_end < end {
        // The byte at host_end is the ":" of the port.
        meta.port = Some((host_end + 1, end));
    }
    let host = &input[host_start..host_end];
    meta.host = Some(((host_start, host_end), host_kind(host, host_start)));
}

/// The kind of a valid `ihost`, as `ihost = IP-literal / IPv4address /
/// ireg-name` decides it: a host is an IPv4 address when the whole of it is
/// one (so "1.2.3.4.5" and "256.1.1.1" are registered names).
fn host_kind(host: &str, offset: usize) -> HostMeta {
    let b = host.as_bytes();
    if b.first() == Some(&b'[') {
        let inner = &host[1..host.len() - 1];
        if matches!(inner.as_bytes().first(), Some(b'v' | b'V')) {
            // IPvFuture = "v" 1*HEXDIG "." ...: the first "." ends the version.
            let dot = inner.find('.').map_or(inner.len(), |i| i);
            return HostMeta::IpvFuture {
                dot: offset + 1 + dot,
            };
        }
        return match inner.parse::<Ipv6Addr>() {
            Ok(a) => HostMeta::Ipv6(a),
            // Unreachable for input the grammar accepted; a registered name
            // is the least wrong answer and the cross-check tests would show it.
            Err(_) => HostMeta::RegName,
        };
    }
    match ipv4(b) {
        Some(a) => HostMeta::Ipv4(a),
        None => HostMeta::RegName,
    }
}

/// `IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet`,
/// with `dec-octet` 0 to 255 without leading zeros (RFC 3986 §3.2.2).
fn ipv4(b: &[u8]) -> Option<Ipv4Addr> {
    let mut octets = [0u8; 4];
    let mut parts = b.split(|&c| c == b'.');
    for o in &mut octets {
        let p = parts.next()?;
        if p.is_empty()
            || p.len() > 3
            || (p.len() > 1 && p[0] == b'0')
            || !p.iter().all(u8::is_ascii_digit)
        {
            return None;
        }
        let v = p.iter().fold(0u32, |v, &d| v * 10 + u32::from(d - b'0'));
        *o = u8::try_from(v).ok()?;
    }
    if parts.next().is_some() {
        return None;
    }
    Some(Ipv4Addr::from(octets))
}
