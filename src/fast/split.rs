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
//! bracketed. So this module never checks validity; its marks are used
//! only for input the DFA accepted.
//!
//! The expression is written here as a small automaton over seven classes
//! of bytes, [`Delimiters`], which the DFA walk (`super::Validator::walk`)
//! steps in the same loop as the grammar's DFA: its chain of table lookups
//! does not wait for the DFA's, so it costs next to nothing beside it, and
//! each transition that passes a delimiter writes the position into
//! [`Marks`] without a branch. [`split`] then reads the components off the
//! marks.
//!
//! The spans follow the pest lowering exactly (`crate::syntax::lower`): a
//! component whose delimiter is present is `Some`, possibly empty; the path
//! is always present.

use std::net::{Ipv4Addr, Ipv6Addr};

use crate::syntax::lower::{HostMeta, Meta, Slot};

/// The class of each byte: 0 for all but the six delimiters below.
static CLASS: [u8; 256] = {
    let mut t = [0; 256];
    t[b':' as usize] = 1;
    t[b'/' as usize] = 2;
    t[b'?' as usize] = 3;
    t[b'#' as usize] = 4;
    t[b'@' as usize] = 5;
    t[b']' as usize] = 6;
    t
};
const CLASSES: usize = 8;

/// The states of the Appendix B automaton.
mod state {
    /// Nothing read yet.
    pub const START: u8 = 0;
    /// In a first run of bytes with none of ":/?#": a scheme if a ":"
    /// follows, else the path.
    pub const FIRST: u8 = 1;
    /// Just after the scheme's ":".
    pub const SCHEME: u8 = 2;
    /// After a first "/" where the hierarchical part starts.
    pub const SLASH: u8 = 3;
    /// In the authority, after "//".
    pub const AUTHORITY: u8 = 4;
    pub const PATH: u8 = 5;
    pub const QUERY: u8 = 6;
    pub const FRAGMENT: u8 = 7;
}

/// What a transition marks: the index into [`Marks`] that takes the byte's
/// position (`NONE` is a slot nobody reads).
mod mark {
    pub const NONE: u8 = 0;
    /// The ":" that ends the scheme.
    pub const SCHEME_END: u8 = 1;
    /// The second "/" of "//".
    pub const AUTHORITY_START: u8 = 2;
    /// The "/" that ends the authority.
    pub const AUTHORITY_SLASH: u8 = 3;
    /// The "@" after the userinfo.
    pub const AT: u8 = 4;
    /// A ":" in the authority (the last one is kept).
    pub const COLON: u8 = 5;
    /// A "]" in the authority.
    pub const CLOSE: u8 = 6;
    /// The "?" that starts the query.
    pub const QUESTION: u8 = 7;
    /// The "#" that starts the fragment.
    pub const HASH: u8 = 8;
}

/// The automaton's transitions, by `state * CLASSES + class`: the next
/// state, premultiplied by `CLASSES` (so a step is one lookup and one
/// addition, no longer than a step of the grammar's DFA), and the mark.
static NEXT: [u8; 8 * CLASSES] = table(0);
static MARK: [u8; 8 * CLASSES] = table(1);

const fn table(part: usize) -> [u8; 8 * CLASSES] {
    use mark::*;
    use state::*;
    // Columns: other, ":", "/", "?", "#", "@", "]", (unused).
    let q = (QUERY, QUESTION);
    let h = (FRAGMENT, HASH);
    let p = (PATH, NONE);
    let first = (FIRST, NONE);
    let auth = (AUTHORITY, NONE);
    let query = (QUERY, NONE);
    let frag = (FRAGMENT, NONE);
    let rows: [[(u8, u8); CLASSES]; 8] = [
        // START: a scheme needs one character at least, so ":" starts a path.
        [first, p, (SLASH, NONE), q, h, first, first, p],
        // FIRST
        [first, (SCHEME, SCHEME_END), p, q, h, first, first, p],
        // SCHEME
        [p, p, (SLASH, NONE), q, h, p, p, p],
        // SLASH
        [p, p, (AUTHORITY, AUTHORITY_START), q, h, p, p, p],
        // AUTHORITY
        [
            auth,
            (AUTHORITY, COLON),
            (PATH, AUTHORITY_SLASH),
            q,
            h,
            (AUTHORITY, AT),
            (AUTHORITY, CLOSE),
            auth,
        ],
        // PATH
        [p, p, p, q, h, p, p, p],
        // QUERY
        [query, query, query, query, h, query, query, query],
        // FRAGMENT
        [frag; CLASSES],
    ];
    let mut t = [0; 8 * CLASSES];
    let mut i = 0;
    while i < 8 * CLASSES {
        let (next, mark) = rows[i / CLASSES][i % CLASSES];
        t[i] = if part == 0 {
            next * CLASSES as u8
        } else {
            mark
        };
        i += 1;
    }
    t
}

/// Where the delimiters were, by [`mark`]; `usize::MAX` for none. Sixteen
/// slots, so that any 4-bit mark indexes it without a bounds check.
pub(crate) type Marks = [usize; 16];

/// The Appendix B automaton, stepped one byte at a time.
pub(crate) struct Delimiters {
    /// The state, premultiplied by `CLASSES`. A `usize` and a table
    /// lookup with a bounds check (a branch always predicted) rather than
    /// a mask: the mask's instructions would lengthen the chain from one
    /// step to the next beyond the grammar DFA's.
    at: usize,
    pub(crate) marks: Marks,
}

impl Delimiters {
    #[inline(always)]
    pub(crate) fn new() -> Self {
        Delimiters {
            at: usize::from(state::START) * CLASSES,
            marks: [usize::MAX; 16],
        }
    }

    /// Reads the byte `c` at position `i`: no branch, two table lookups
    /// and one store.
    #[inline(always)]
    pub(crate) fn step(&mut self, c: u8, i: usize) {
        let k = self.at + usize::from(CLASS[usize::from(c)]);
        self.marks[usize::from(MARK[k] & 15)] = i;
        self.at = usize::from(NEXT[k]);
    }
}

/// Splits a valid `IRI-reference` (or `URI-reference`) into its components,
/// from the marks of its delimiters.
#[inline]
pub(crate) fn split(input: &str, marks: &Marks, meta: &mut Meta) {
    let n = input.len();
    let at = |m: u8| marks[usize::from(m)];
    let present = |m: u8| marks[usize::from(m)] != usize::MAX;
    // The query ends at the "#", the path at the "?" or "#", or the end.
    let hash = at(mark::HASH).min(n);
    let path_end = at(mark::QUESTION).min(hash);

    let mut path_start = 0;
    if present(mark::SCHEME_END) {
        meta.scheme = Slot::new((0, at(mark::SCHEME_END)));
        path_start = at(mark::SCHEME_END) + 1;
    }
    if present(mark::AUTHORITY_START) {
        let start = at(mark::AUTHORITY_START) + 1;
        let end = at(mark::AUTHORITY_SLASH).min(path_end);
        authority(input, start, end, marks, meta);
        path_start = end;
    }
    meta.path = Slot::new((path_start, path_end));
    if path_end < hash {
        meta.query = Slot::new((path_end + 1, hash));
    }
    if hash < n {
        meta.fragment = Slot::new((hash + 1, n));
    }
}

/// `iauthority = [ iuserinfo "@" ] ihost [ ":" port ]` over `start..end`.
///
/// `iuserinfo` has no "@" (nor has the host or the port), so an "@" ends
/// the userinfo; a registered name, an IPv4 address and a port have no ":"
/// and an IP literal ends with its "]", so a ":" after both the "@" and the
/// "]" starts the port (a ":" in the userinfo comes before the "@").
#[inline]
fn authority(input: &str, start: usize, end: usize, marks: &Marks, meta: &mut Meta) {
    let at = |m: u8| marks[usize::from(m)];
    meta.authority = Slot::new((start, end));
    let mut host_start = start;
    if at(mark::AT) != usize::MAX {
        meta.userinfo = Slot::new((start, at(mark::AT)));
        host_start = at(mark::AT) + 1;
    }
    let colon = at(mark::COLON);
    let close = at(mark::CLOSE);
    let host_end =
        if colon != usize::MAX && colon >= host_start && (close == usize::MAX || colon > close) {
            meta.port = Slot::new((colon + 1, end));
            colon
        } else {
            end
        };
    let host = &input[host_start..host_end];
    meta.set_host((host_start, host_end), host_kind(host, host_start));
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
