//! Lowering: from pest pairs to the offsets of the components.
//!
//! Every span comes from a pair; nothing here re-scans the text. The walk
//! descends only into the pairs that contain components (the reference,
//! hier-part, authority and IP-literal levels) and stops at each component's
//! pair, so its cost is in the number of components, not of characters.

use crate::prelude::*;
use core::net::{Ipv4Addr, Ipv6Addr};

use pest::RuleType;
use pest::iterators::Pair;

use super::Visit;
use crate::meta::{HostMeta, Meta, Slot, Span};
use crate::rule::Sym;

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
