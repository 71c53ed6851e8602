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
//! bracketed. So this module never checks validity; its result is used
//! only for input the DFA accepted.
//!
//! The walk of the DFA (`super::Validator::walk_packed`) counts the bytes it
//! spent in the phases of the expression's automaton (`super::phase`),
//! by [`group`]; since the phases come in the order of the components, the
//! counts say where each component starts and ends.
//!
//! The spans follow the pest lowering exactly (`crate::syntax::lower`): a
//! component whose delimiter is present is `Some`, possibly empty; the path
//! is always present.
//!
//! Every span is a range of the input between characters, in order, when
//! the walk that counted the bytes used tables that passed
//! `super::proof::check`; the accessors of `IriRef` rely on that without
//! checking, through the `Proven` that `super::proof::Proven::split` returns
//! (that module says why the spans fit). Each end of a span is 0, the
//! input's length, the start of a group, or one past the first byte of a
//! group of [`STEPPED_OVER`].

use core::net::{Ipv4Addr, Ipv6Addr};

use super::phase;
use crate::meta::{HostMeta, Meta, Slot};

/// The groups of phases whose bytes the walk counts: as few as the split
/// needs, so that the counts fit in one byte each of a 64-bit word.
pub(crate) const GROUPS: usize = 8;
/// `START`, `FIRST`: a scheme, or the start of a path.
const LEAD: usize = 0;
/// `SCHEME`, `SLASH`: the scheme's ":" if there is one (the group starts
/// with it), then the first "/" of "//".
const COLON_SLASH: usize = 1;
/// `AUTHORITY`.
const AUTHORITY: usize = 2;
/// `COLON`: from a ":" in the authority before any "@".
const COLON: usize = 3;
/// `HOST`, `LITERAL`, `CLOSED`: from the "@" that ends a userinfo (the
/// group starts with it) or else from the "[" of an IP literal.
const HOST: usize = 4;
/// `PORT`.
const PORT: usize = 5;
/// `PATH`.
const PATH: usize = 6;
/// `QUERY`.
const QUERY: usize = 7;
// `FRAGMENT` is not counted: it is the rest of the input.

/// The phases whose groups the split steps one byte into, past the
/// delimiter that starts them: the "/" before an authority, the ":" of a
/// userinfo or a port, the userinfo's "@" (checked as it is read: the group
/// of `HOST` may start with an IP literal's "["), the port's ":", "?" and
/// "#". `super::proof::check` refuses tables that enter them on a byte that
/// is not ASCII.
pub(super) const STEPPED_OVER: [u8; 6] = [
    phase::AUTHORITY,
    phase::COLON,
    phase::HOST,
    phase::PORT,
    phase::QUERY,
    phase::FRAGMENT,
];

/// The group whose bytes the walk counts for a state in `phase`, if any.
pub(crate) const fn group(phase: u8) -> Option<usize> {
    match phase {
        phase::START | phase::FIRST => Some(LEAD),
        phase::SCHEME | phase::SLASH => Some(COLON_SLASH),
        phase::AUTHORITY => Some(AUTHORITY),
        phase::COLON => Some(COLON),
        phase::HOST | phase::LITERAL | phase::CLOSED => Some(HOST),
        phase::PORT => Some(PORT),
        phase::PATH => Some(PATH),
        phase::QUERY => Some(QUERY),
        _ => None,
    }
}

/// A count of one byte in `phase`, in the walk's 64-bit word of counts:
/// one in the byte of its group, or zero.
pub(crate) fn count_of(phase: u8) -> u64 {
    group(phase).map_or(0, |g| 1 << (8 * g))
}

/// How many bytes the walk spent in each group, by group.
pub(crate) type Counts = [usize; GROUPS];

/// Adds the walk's word of counts, a byte a group, to `counts`.
#[inline(always)]
pub(crate) fn carry(bytes: u64, counts: &mut Counts) {
    for (g, count) in counts.iter_mut().enumerate() {
        *count += usize::from((bytes >> (8 * g)) as u8);
    }
}

/// Where each group starts, read off the walk's counts: the bytes spent in
/// the groups before it (for a group not visited, where it would have).
pub(crate) trait Starts {
    /// Where group `g` starts; `at(GROUPS)` is where the fragment starts,
    /// or the end.
    fn at(&self, g: usize) -> usize;
    /// Whether the walk spent any byte in group `g`.
    fn visited(&self, g: usize) -> bool;
}

/// The counts of an input shorter than 256 bytes, as the walk leaves them:
/// a byte per group in one word. Their running sums are one multiplication
/// away (each byte of the product is the sum of the bytes at and below it,
/// which no input this short can carry out of its byte), so each start is
/// a shift of a register.
pub(crate) struct Packed {
    counts: u64,
    sums: u64,
}

impl Packed {
    #[inline(always)]
    pub(crate) fn new(counts: u64) -> Packed {
        Packed {
            counts,
            sums: counts.wrapping_mul(0x0101_0101_0101_0101),
        }
    }
}

impl Starts for Packed {
    #[inline(always)]
    fn at(&self, g: usize) -> usize {
        match g {
            0 => 0,
            g => usize::from((self.sums >> (8 * (g - 1))) as u8),
        }
    }

    #[inline(always)]
    fn visited(&self, g: usize) -> bool {
        (self.counts >> (8 * g)) as u8 != 0
    }
}

/// The counts of an input of any length, in `usize`s.
pub(crate) struct Wide {
    visited: [bool; GROUPS],
    at: [usize; GROUPS + 1],
}

impl Wide {
    pub(crate) fn new(counts: &Counts) -> Wide {
        let mut at = [0; GROUPS + 1];
        for g in 0..GROUPS {
            at[g + 1] = at[g] + counts[g];
        }
        Wide {
            visited: counts.map(|c| c > 0),
            at,
        }
    }
}

impl Starts for Wide {
    fn at(&self, g: usize) -> usize {
        self.at[g]
    }

    fn visited(&self, g: usize) -> bool {
        self.visited[g]
    }
}

/// Splits a valid `IRI-reference` (or `URI-reference`) into its components,
/// from the bytes the walk spent in each group of phases. Called through
/// `super::proof::Proven::split`.
#[inline]
pub(super) fn split(input: &str, starts: &impl Starts, meta: &mut Meta) {
    let (b, n) = (input.as_bytes(), input.len());
    let at = |g: usize| starts.at(g);
    let visited = |g: usize| starts.visited(g);

    let mut path_start = 0;
    if visited(COLON_SLASH) && b[at(COLON_SLASH)] == b':' {
        meta.scheme = Slot::new((0, at(COLON_SLASH)));
        path_start = at(COLON_SLASH) + 1;
    }
    if visited(AUTHORITY) {
        // From after the second "/" to the delimiter that ends it.
        let (start, end) = (at(AUTHORITY) + 1, at(PATH));
        meta.authority = Slot::new((start, end));
        let mut host_start = start;
        if visited(HOST) && b[at(HOST)] == b'@' {
            meta.userinfo = Slot::new((start, at(HOST)));
            host_start = at(HOST) + 1;
        }
        // The port's ":" is the first one when there is neither userinfo
        // nor IP literal (a registered name and an IPv4 address have none).
        let colon = if visited(PORT) {
            Some(at(PORT))
        } else if visited(COLON) && !visited(HOST) {
            Some(at(COLON))
        } else {
            None
        };
        let host_end = colon.unwrap_or(end);
        if let Some(colon) = colon {
            meta.port = Slot::new((colon + 1, end));
        }
        meta.set_host(
            (host_start, host_end),
            host_kind(input, host_start, host_end),
        );
        path_start = end;
    }
    let path_end = at(QUERY);
    meta.path = Slot::new((path_start, path_end));
    let fragment = at(GROUPS);
    if visited(QUERY) {
        meta.query = Slot::new((path_end + 1, fragment));
    }
    if fragment < n {
        meta.fragment = Slot::new((fragment + 1, n));
    }
    debug_assert!(meta.fits(input), "{meta:?} of {input:?}");
}

/// [`split`] in `const`, from the counts of a walk in `const` that
/// accepted `input` (`super::literal`): `at[g]` is where group `g` starts,
/// `at[GROUPS]` where the fragment does. A trait's method cannot be called
/// in `const` on stable Rust, so this is [`split`] over [`Wide`]'s arrays
/// written again; the tests check that both give the same components. Its
/// spans are not trusted: the literal's proof is `Proven::fitting`.
pub(crate) const fn split_const(
    input: &str,
    at: &[usize; GROUPS + 1],
    visited: &[bool; GROUPS],
) -> Meta {
    let (b, n) = (input.as_bytes(), input.len());
    let mut meta = Meta::NONE;
    let mut path_start = 0;
    if visited[COLON_SLASH] && b[at[COLON_SLASH]] == b':' {
        meta.scheme = Slot::new((0, at[COLON_SLASH]));
        path_start = at[COLON_SLASH] + 1;
    }
    if visited[AUTHORITY] {
        let (start, end) = (at[AUTHORITY] + 1, at[PATH]);
        meta.authority = Slot::new((start, end));
        let mut host_start = start;
        if visited[HOST] && b[at[HOST]] == b'@' {
            meta.userinfo = Slot::new((start, at[HOST]));
            host_start = at[HOST] + 1;
        }
        let colon = if visited[PORT] {
            Some(at[PORT])
        } else if visited[COLON] && !visited[HOST] {
            Some(at[COLON])
        } else {
            None
        };
        let host_end = match colon {
            Some(colon) => {
                meta.port = Slot::new((colon + 1, end));
                colon
            }
            None => end,
        };
        meta.set_host(
            (host_start, host_end),
            host_kind_const(b, host_start, host_end),
        );
        path_start = end;
    }
    let path_end = at[QUERY];
    meta.path = Slot::new((path_start, path_end));
    let fragment = at[GROUPS];
    if visited[QUERY] {
        meta.query = Slot::new((path_end + 1, fragment));
    }
    if fragment < n {
        meta.fragment = Slot::new((fragment + 1, n));
    }
    meta
}

/// [`host_kind`] in `const`, the host `b[start..end]`.
const fn host_kind_const(b: &[u8], start: usize, end: usize) -> HostMeta {
    let host = b.split_at(end).0.split_at(start).1;
    match host {
        [b'[', inner @ .., b']'] => {
            if let [b'v' | b'V', ..] = inner {
                let mut dot = 0;
                while dot < inner.len() && inner[dot] != b'.' {
                    dot += 1;
                }
                return HostMeta::IpvFuture {
                    dot: start + 1 + dot,
                };
            }
            match ipv6(inner) {
                Some(a) => HostMeta::Ipv6(a),
                None => HostMeta::RegName,
            }
        }
        [b'0'..=b'9', ..] => match ipv4(host) {
            Some(a) => HostMeta::Ipv4(a),
            None => HostMeta::RegName,
        },
        _ => HostMeta::RegName,
    }
}

/// The kind of a valid `ihost`, as `ihost = IP-literal / IPv4address /
/// ireg-name` decides it: a host is an IPv4 address when the whole of it is
/// one (so "1.2.3.4.5" and "256.1.1.1" are registered names). The host is
/// `input[start..end]`. Inlined for its first byte, which settles most
/// registered names (a letter).
#[inline(always)]
fn host_kind(input: &str, start: usize, end: usize) -> HostMeta {
    let host = input.as_bytes().get(start..end).unwrap_or_default();
    match host.first() {
        Some(b'[') => ip_literal(input, start, end),
        Some(b'0'..=b'9') => ipv4(host).map_or(HostMeta::RegName, HostMeta::Ipv4),
        _ => HostMeta::RegName,
    }
}

/// The kind of a valid `IP-literal`, `input[start..end]` (brackets
/// included).
fn ip_literal(input: &str, offset: usize, end: usize) -> HostMeta {
    let host = &input[offset..end];
    let inner = &host[1..host.len() - 1];
    if matches!(inner.as_bytes().first(), Some(b'v' | b'V')) {
        // IPvFuture = "v" 1*HEXDIG "." ...: the first "." ends the version.
        let dot = inner.find('.').map_or(inner.len(), |i| i);
        return HostMeta::IpvFuture {
            dot: offset + 1 + dot,
        };
    }
    let parsed = ipv6(inner.as_bytes());
    debug_assert_eq!(parsed, inner.parse::<Ipv6Addr>().ok(), "{inner:?}");
    match parsed.or_else(|| inner.parse::<Ipv6Addr>().ok()) {
        Some(a) => HostMeta::Ipv6(a),
        // Unreachable for input the grammar accepted; a registered name
        // is the least wrong answer and the cross-check tests would show it.
        None => HostMeta::RegName,
    }
}

/// The address of a valid `IPv6address` (RFC 3986 §3.2.2): groups of one
/// to four hexadecimal digits between ":", at most one "::" standing for
/// the zero groups it leaves out, the last 32 bits possibly an IPv4
/// address. `None` where `b` is not one. The DFA has checked it, so one
/// pass reads it, without the backtracking of `Ipv6Addr`'s parser:
/// `ip_literal` took 965 instructions a literal of the mixed corpus with
/// that parser, 437 with this one (callgrind). A `const fn`, which the
/// checked literals' split calls too (`crate::literal`).
pub(crate) const fn ipv6(b: &[u8]) -> Option<Ipv6Addr> {
    let mut groups = [0u16; 8];
    let mut n = 0; // the groups read
    let mut gap = None; // where the "::" is, in groups
    let mut i = 0;
    if b.len() >= 2 && b[0] == b':' && b[1] == b':' {
        gap = Some(0);
        i = 2;
    }
    while i < b.len() {
        let start = i;
        let mut value = 0u16;
        while i < b.len() && b[i] != b':' && b[i] != b'.' {
            let Some(digit) = (b[i] as char).to_digit(16) else {
                return None;
            };
            value = value << 4 | digit as u16;
            i += 1;
        }
        if i < b.len() && b[i] == b'.' {
            // The last 32 bits, written as an IPv4 address.
            let Some(v4) = ipv4(b.split_at(start).1) else {
                return None;
            };
            let [p, q, r, s] = v4.octets();
            if n + 2 > 8 {
                return None;
            }
            groups[n] = u16::from_be_bytes([p, q]);
            groups[n + 1] = u16::from_be_bytes([r, s]);
            n += 2;
            break;
        }
        if i - start < 1 || i - start > 4 || n >= 8 {
            return None;
        }
        groups[n] = value;
        n += 1;
        if i < b.len() {
            // A ":", or the "::".
            i += 1;
            if i == b.len() {
                return None;
            }
            if b[i] == b':' {
                if gap.is_some() {
                    return None;
                }
                gap = Some(n);
                i += 1;
            }
        }
    }
    let g = match gap {
        None if n == 8 => return Some(v6(groups)),
        Some(g) if n < 8 => g,
        _ => return None,
    };
    // The groups after the "::" go to the end, zeros before them.
    let mut full = [0u16; 8];
    let mut k = 0;
    while k < g {
        full[k] = groups[k];
        k += 1;
    }
    let shift = 8 - n;
    while k < n {
        full[k + shift] = groups[k];
        k += 1;
    }
    Some(v6(full))
}

/// The address of eight groups.
const fn v6(g: [u16; 8]) -> Ipv6Addr {
    Ipv6Addr::new(g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7])
}

/// `IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet`,
/// with `dec-octet` 0 to 255 without leading zeros (RFC 3986 §3.2.2). A
/// `const fn`, as [`ipv6`].
pub(crate) const fn ipv4(b: &[u8]) -> Option<Ipv4Addr> {
    let mut octets = [0u8; 4];
    let mut k = 0; // the octet being read
    let mut digits = 0; // its digits so far
    let mut value = 0u32;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        i += 1;
        match c {
            b'0'..=b'9' => {
                // No leading zero: a "0" must be the whole octet.
                if digits == 3 || (digits == 1 && value == 0) {
                    return None;
                }
                value = value * 10 + (c - b'0') as u32;
                digits += 1;
            }
            b'.' if digits > 0 && k < 3 => {
                if value > 255 {
                    return None;
                }
                octets[k] = value as u8;
                k += 1;
                digits = 0;
                value = 0;
            }
            _ => return None,
        }
    }
    if k != 3 || digits == 0 || value > 255 {
        return None;
    }
    octets[3] = value as u8;
    Some(Ipv4Addr::new(octets[0], octets[1], octets[2], octets[3]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ipv6` reads what the standard library's parser reads, and nothing
    /// it does not: every form of "::", the IPv4 tail, case, and inputs
    /// that are not addresses (which the DFA never passes on).
    #[test]
    fn ipv6_agrees_with_the_standard_parser() {
        let cases = [
            "::",
            "::1",
            "1::",
            "1:2:3:4:5:6:7:8",
            "1::8",
            "1:2::7:8",
            "::2:3:4:5:6:7:8",
            "1:2:3:4:5:6:7::",
            "1:2:3:4:5:6::8",
            "FFFF:abcd::Ef01",
            "0:0::0",
            "0000:00:0::0:000",
            "::ffff:1.2.3.4",
            "1:2:3:4:5:6:1.2.3.4",
            "1::1.2.3.4",
            "::255.255.255.255",
            "1::2:3:4:5:6:7:8",
            "1:2:3:4:5:6:7:8:9",
            "1:2:3:4:5:6:7",
            "1:2",
            ":::",
            "1::2::3",
            "12345::",
            "1:",
            ":1",
            "1.2.3.4",
            "::1.2.3",
            "::1.2.3.04",
            "::256.1.1.1",
            "1:2:3:4:5:6:7:1.2.3.4",
            "g::",
            "",
        ];
        for case in cases {
            assert_eq!(
                ipv6(case.as_bytes()),
                case.parse::<Ipv6Addr>().ok(),
                "{case:?}"
            );
        }
    }
}
