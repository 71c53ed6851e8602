//! Lowering: from pest pairs to the offsets of the components.
//!
//! Every span comes from a pair; nothing here re-scans the text. The walk
//! descends only into the pairs that contain components (the reference,
//! hier-part, authority and IP-literal levels) and stops at each component's
//! pair, so its cost is in the number of components, not of characters.

use std::net::{Ipv4Addr, Ipv6Addr};

use pest::iterators::Pair;
use pest::RuleType;

use super::{Sym, Visit};

/// A byte range of the input: `(start, end)`.
pub(crate) type Span = (usize, usize);

/// What lowering learns about the host besides its span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HostMeta {
    RegName,
    Ipv4(Ipv4Addr),
    Ipv6(Ipv6Addr),
    /// `dot` is the byte offset of the "." between version and address.
    IpvFuture {
        dot: usize,
    },
}

/// A component's span as stored in a [`Meta`]: `start == usize::MAX` marks
/// an absent component, so the slot takes two words rather than the three
/// of an `Option<Span>` (results are copied by value, and their size showed
/// in the profile of the fast path).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Slot {
    start: usize,
    end: usize,
}

impl Slot {
    /// An absent component.
    pub(crate) const NONE: Slot = Slot {
        start: usize::MAX,
        end: 0,
    };

    /// A present component, possibly empty.
    #[inline]
    pub(crate) fn new((start, end): Span) -> Slot {
        debug_assert!(start <= end && start != usize::MAX);
        Slot { start, end }
    }

    /// The span, `None` when the component is absent.
    #[inline]
    pub(crate) fn get(self) -> Option<Span> {
        (self.start != usize::MAX).then_some((self.start, self.end))
    }

    #[inline]
    pub(crate) fn is_some(self) -> bool {
        self.start != usize::MAX
    }

    #[inline]
    pub(crate) fn is_none(self) -> bool {
        self.start == usize::MAX
    }
}

impl Default for Slot {
    fn default() -> Self {
        Slot::NONE
    }
}

impl std::fmt::Debug for Slot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.get().fmt(f)
    }
}

/// The components found in a parse, as spans of the input. An absent
/// component has an empty [`Slot`]; a present but empty one the span
/// `(i, i)`. `host_kind` describes the host when `host` is present.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Meta {
    pub(crate) scheme: Slot,
    pub(crate) authority: Slot,
    pub(crate) userinfo: Slot,
    pub(crate) host: Slot,
    pub(crate) host_kind: HostMeta,
    pub(crate) port: Slot,
    pub(crate) path: Slot,
    pub(crate) query: Slot,
    pub(crate) fragment: Slot,
}

impl Default for Meta {
    #[inline]
    fn default() -> Self {
        Meta {
            scheme: Slot::NONE,
            authority: Slot::NONE,
            userinfo: Slot::NONE,
            host: Slot::NONE,
            host_kind: HostMeta::RegName,
            port: Slot::NONE,
            path: Slot::NONE,
            query: Slot::NONE,
            fragment: Slot::NONE,
        }
    }
}

impl Meta {
    /// The host's span and kind.
    #[inline]
    pub(crate) fn host(&self) -> Option<(Span, HostMeta)> {
        self.host.get().map(|s| (s, self.host_kind))
    }

    /// Sets the host's span and kind.
    #[inline]
    pub(crate) fn set_host(&mut self, span: Span, kind: HostMeta) {
        self.host = Slot::new(span);
        self.host_kind = kind;
    }
}

/// The [`Visit`] that lowers a parse into a [`Meta`].
pub(crate) struct Lower;

impl Visit for Lower {
    type Out = Meta;

    fn visit<R: RuleType>(self, pair: Pair<'_, R>, sym: fn(R) -> Option<Sym>) -> Meta {
        let mut meta = Meta::default();
        walk(pair, sym, &mut meta);
        meta
    }
}

fn span<R: RuleType>(pair: &Pair<'_, R>) -> Span {
    let s = pair.as_span();
    (s.start(), s.end())
}

fn walk<R: RuleType>(pair: Pair<'_, R>, sym: fn(R) -> Option<Sym>, meta: &mut Meta) {
    use Sym::*;
    match sym(pair.as_rule()) {
        Some(scheme) => meta.scheme = Slot::new(span(&pair)),
        Some(iauthority | authority) => {
            meta.authority = Slot::new(span(&pair));
            walk_children(pair, sym, meta);
        }
        Some(iuserinfo | userinfo) => meta.userinfo = Slot::new(span(&pair)),
        Some(ihost | host) => {
            let whole = span(&pair);
            walk_children(pair, sym, meta);
            if meta.host.is_some() {
                // The ihost span: for an IP literal, brackets included.
                meta.host = Slot::new(whole);
            }
        }
        Some(IP_literal) => {
            let whole = span(&pair);
            walk_children(pair, sym, meta);
            if meta.host.is_some() {
                meta.host = Slot::new(whole);
            }
        }
        Some(ireg_name | reg_name) => meta.set_host(span(&pair), HostMeta::RegName),
        Some(IPv4address) => {
            let s = span(&pair);
            meta.set_host(s, HostMeta::Ipv4(ipv4(pair, sym)));
        },
        Some(IPv6address) => {
            let s = span(&pair);
            meta.set_host(s, HostMeta::Ipv6(ipv6(pair, sym)));
        },
        Some(IPvFuture) => {
            let s = span(&pair);
            let dot = pair
                .into_inner()
                .filter(|p| sym(p.as_rule()) == Some(HEXDIG))
                .last()
                .map_or_else(|| unreachable!("IPvFuture has at least one HEXDIG"), |p| p.as_span().end());
            meta.set_host(s, HostMeta::IpvFuture { dot });
        }
        Some(port) => meta.port = Slot::new(span(&pair)),
        Some(
            ipath | ipath_abempty | ipath_absolute | ipath_noscheme | ipath_rootless | ipath_empty
            | path | path_abempty | path_absolute | path_noscheme | path_rootless | path_empty,
        ) => meta.path = Slot::new(span(&pair)),
        Some(iquery | query) => meta.query = Slot::new(span(&pair)),
        Some(ifragment | fragment) => meta.fragment = Slot::new(span(&pair)),
        Some(
            IRI_reference | IRI | absolute_IRI | irelative_ref | ihier_part | irelative_part
            | URI_reference | URI | absolute_URI | relative_ref | hier_part | relative_part,
        )
        // The WHOLE_ wrapper.
        | None => walk_children(pair, sym, meta),
        // Rules below the component level have no components to lower.
        Some(_) => {}
    }
}

fn walk_children<R: RuleType>(pair: Pair<'_, R>, sym: fn(R) -> Option<Sym>, meta: &mut Meta) {
    for child in pair.into_inner() {
        walk(child, sym, meta);
    }
}

/// The address of an `IPv4address` pair, from its four `dec-octet` pairs.
fn ipv4<R: RuleType>(pair: Pair<'_, R>, sym: fn(R) -> Option<Sym>) -> Ipv4Addr {
    let mut octets = [0u8; 4];
    let decs = pair
        .into_inner()
        .filter(|p| sym(p.as_rule()) == Some(Sym::dec_octet));
    // IPv4address has exactly four dec-octets, each at most "255".
    for (octet, p) in octets.iter_mut().zip(decs) {
        *octet = p
            .as_str()
            .parse()
            .unwrap_or_else(|_| unreachable!("dec-octet is 0..=255"));
    }
    Ipv4Addr::from(octets)
}

/// The address of an `IPv6address` pair, from its `h16` and `ls32` pairs.
///
/// The "::" is not a pair: it is found as the gap between two pieces (or
/// before the first, or after the last) that is two colons wide.
fn ipv6<R: RuleType>(pair: Pair<'_, R>, sym: fn(R) -> Option<Sym>) -> Ipv6Addr {
    let text = pair.as_str();
    let base = pair.as_span().start();
    let mut groups: Vec<u16> = Vec::with_capacity(8);
    let mut gap_at: Option<usize> = None;
    let mut prev_end = base;
    let mut note_gap = |from: usize, to: usize, len: usize| {
        if text[from - base..to - base].contains("::") {
            gap_at = Some(len);
        }
    };
    for piece in pair.into_inner() {
        let (start, end) = span(&piece);
        note_gap(prev_end, start, groups.len());
        prev_end = end;
        match sym(piece.as_rule()) {
            Some(Sym::h16) => groups.push(h16(piece.as_str())),
            Some(Sym::ls32) => {
                for part in piece.into_inner() {
                    match sym(part.as_rule()) {
                        Some(Sym::h16) => groups.push(h16(part.as_str())),
                        Some(Sym::IPv4address) => {
                            let [a, b, c, d] = ipv4(part, sym).octets();
                            groups.push(u16::from_be_bytes([a, b]));
                            groups.push(u16::from_be_bytes([c, d]));
                        }
                        _ => unreachable!("ls32 is h16 \":\" h16 or IPv4address"),
                    }
                }
            }
            _ => unreachable!("IPv6address is made of h16 and ls32"),
        }
    }
    note_gap(prev_end, base + text.len(), groups.len());
    let mut out = [0u16; 8];
    match gap_at {
        Some(at) => {
            let tail = groups.len() - at;
            out[..at].copy_from_slice(&groups[..at]);
            out[8 - tail..].copy_from_slice(&groups[at..]);
        }
        None => out.copy_from_slice(&groups),
    }
    Ipv6Addr::from(out)
}

fn h16(s: &str) -> u16 {
    u16::from_str_radix(s, 16).unwrap_or_else(|_| unreachable!("h16 is 1 to 4 hex digits"))
}
