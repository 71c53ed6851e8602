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

use crate::syntax::lower::{HostMeta, Meta, Slot};

/// The index of the first byte of `b[from..]` for which `stop` holds, or
/// `b.len()`.
///
/// A plain loop rather than `memchr`: references are short (44 bytes on
/// average in the URL corpus), and for short haystacks the loop wins over
/// the vector search's setup (measured with the parse benchmark).
#[inline(always)]
fn find(b: &[u8], from: usize, stop: impl Fn(u8) -> bool) -> usize {
    let mut i = from;
    while i < b.len() && !stop(b[i]) {
        i += 1;
    }
    i
}

/// Splits a valid `IRI-reference` (or `URI-reference`) into its components.
#[inline]
pub(crate) fn split(input: &str, meta: &mut Meta) {
    let b = input.as_bytes();
    let n = b.len();
    // The path ends at the first "?" or "#", the query at the first "#".
    let (path_end, hash) = match memchr::memchr2(b'?', b'#', b) {
        None => (n, n),
        Some(h) if b[h] == b'#' => (h, h),
        Some(q) => (q, memchr::memchr(b'#', &b[q..]).map_or(n, |h| q + h)),
    };
    let mut at = 0;

    // scheme ":" — the first of ":/?#" is a ":" (3986 App. B, group 2).
    let i = find(&b[..path_end], 0, |c| c == b':' || c == b'/');
    if i < path_end && b[i] == b':' {
        meta.scheme = Slot::new((0, i));
        at = i + 1;
    }

    // "//" authority — up to the next "/", "?" or "#" (group 4).
    if path_end >= at + 2 && b[at] == b'/' && b[at + 1] == b'/' {
        at = authority(&input[..path_end], at + 2, meta);
    }

    // path — up to "?" or "#" (group 5).
    meta.path = Slot::new((at, path_end));

    // "?" query — up to "#" (group 7).
    if path_end < hash {
        meta.query = Slot::new((path_end + 1, hash));
    }

    // "#" fragment — the rest (group 9).
    if hash < n {
        meta.fragment = Slot::new((hash + 1, n));
    }
}

/// The bytes the authority scan stops at: "/", "@", ":" and "]".
static AUTHORITY_MARK: [u8; 256] = {
    let mut t = [0; 256];
    t[b'/' as usize] = 1;
    t[b'@' as usize] = 1;
    t[b':' as usize] = 1;
    t[b']' as usize] = 1;
    t
};

/// `iauthority = [ iuserinfo "@" ] ihost [ ":" port ]` from `start` to the
/// first "/" or the end of `input` (which the caller cut at the first "?"
/// or "#"); returns where it ends.
///
/// One scan notes the "@" and the last ":" and "]": `iuserinfo` has no "@"
/// (nor has the host or the port), so an "@" ends the userinfo; a
/// registered name, an IPv4 address and a port have no ":" and an IP
/// literal ends with its "]", so a ":" after both the "@" and the "]"
/// starts the port (a ":" in the userinfo comes before the "@").
#[inline]
fn authority(input: &str, start: usize, meta: &mut Meta) -> usize {
    let b = input.as_bytes();
    let mut host_start = start;
    let mut colon = None;
    let mut close = None;
    let mut i = start;
    loop {
        // Most bytes are none of the four: skip them with one table test.
        while i < b.len() && AUTHORITY_MARK[usize::from(b[i])] == 0 {
            i += 1;
        }
        match b.get(i) {
            None | Some(b'/') => break,
            Some(b'@') => host_start = i + 1,
            Some(b':') => colon = Some(i),
            _ => close = Some(i), // "]"
        }
        i += 1;
    }
    let end = i;
    meta.authority = Slot::new((start, end));
    if host_start > start {
        meta.userinfo = Slot::new((start, host_start - 1));
    }
    let host_end = match colon {
        Some(c) if c >= host_start && close.is_none_or(|k| c > k) => {
            meta.port = Slot::new((c + 1, end));
            c
        }
        _ => end,
    };
    let host = &input[host_start..host_end];
    meta.set_host((host_start, host_end), host_kind(host, host_start));
    end
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
    // A registered name usually starts with a letter: no need to look further.
    if !b.first().is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let mut octets = [0u8; 4];
    let mut k = 0; // the octet being read
    let mut digits = 0; // its digits so far
    let mut value = 0u32;
    for &c in b {
        match c {
            b'0'..=b'9' => {
                // No leading zero: a "0" must be the whole octet.
                if digits == 3 || (digits == 1 && value == 0) {
                    return None;
                }
                value = value * 10 + u32::from(c - b'0');
                digits += 1;
            }
            b'.' if digits > 0 && k < 3 => {
                octets[k] = u8::try_from(value).ok()?;
                k += 1;
                digits = 0;
                value = 0;
            }
            _ => return None,
        }
    }
    if k != 3 || digits == 0 {
        return None;
    }
    octets[3] = u8::try_from(value).ok()?;
    Some(Ipv4Addr::from(octets))
}
