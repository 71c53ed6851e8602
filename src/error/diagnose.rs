//! Where and why an input fails to parse: the position from the rule's
//! minimal DFA, the component from the delimiters before it, and the
//! explanation from the pest parser's attempts there.
//!
//! The position is exact by construction ([`crate::fast::dead`]): the first
//! character after which no continuation can make the input valid. pest is
//! asked what it tried there, not on the input but on the shortest input
//! that leads the DFA to the same state, followed by the character at the
//! position: the same continuations are valid after both, and the input
//! pest reads is a few bytes long whatever the input's length, so that an
//! invalid input costs little more than a valid one (a few thousand
//! instructions of pest instead of some thousand per byte of input) and
//! the memory pest's token queue takes (some 240 bytes per input byte) stays
//! bounded. On every invalid line of the benchmark corpora, under three
//! profiles, the reports are the same as pest's on the whole input.
//! Where pest's furthest attempt is not the DFA's position (it backs out of
//! an IP literal at its `[`), the report names what the DFA allows there.

use crate::chars;
use crate::error::{Details, ErrorKind};
use crate::fast::dead::{Allowed, DeadEnd, Dfa};
use crate::prelude::*;
use crate::profile::Profile;
use crate::rule::{Component, GrammarRule, Sym};
use crate::syntax;

/// The details of `input`'s failure to match `rule` under `profile`.
pub(crate) fn details(input: &str, rule: GrammarRule, profile: Profile) -> Details {
    if !rule.is_in(profile) {
        return Details::no_such_rule();
    }
    let dead = Dfa::of(rule, profile).and_then(|dfa| dfa.dead_end(input));
    match dead {
        Some(dead) => from_dead_end(input, rule, profile, dead),
        // No DFA for the rule (the tests check that every rule of every
        // profile has one), or the DFA accepts what pest rejected (which the
        // cross-check tests and fuzz targets rule out): pest decides alone.
        None => from_pest(input, rule, profile),
    }
}

fn from_dead_end(input: &str, rule: GrammarRule, profile: Profile, dead: DeadEnd) -> Details {
    let allowed = dead.allowed();
    let prefix = dead.shortest_prefix();
    let at = input[dead.byte..].chars().next().map_or(0, char::len_utf8);
    let text = prefix.clone() + &input[dead.byte..dead.byte + at];
    let rules = match syntax::attempts(profile, rule, &text) {
        Some(a) if a.byte == prefix.len() => a.expected,
        _ => Vec::new(),
    };
    let (expected, literals) = expectation(rules, &allowed, profile);
    finish(
        input,
        rule,
        profile,
        dead.byte,
        expected,
        literals,
        allowed.end,
    )
}

/// The rules and literal strings a report names as expected: pest's rules
/// (with DIGIT read as HEXDIG where the hexadecimal letters are allowed
/// too), and the punctuation the DFA allows that none of those rules
/// matches. When pest named nothing at the position, the allowed characters
/// are named by class (DIGIT, HEXDIG, ALPHA, ucschar) and one by one.
fn expectation(
    mut rules: Vec<Sym>,
    allowed: &Allowed,
    profile: Profile,
) -> (Vec<Sym>, Vec<String>) {
    // The letters of HEXDIG, and no other: where every letter may stand,
    // a rule with ALPHA in it names them.
    let hex_letters = (b'A'..=b'F').chain(b'a'..=b'f').all(|c| allowed.has(c))
        && !allowed.has(b'G')
        && !allowed.has(b'g');
    let digits = (b'0'..=b'9').all(|c| allowed.has(c));
    if rules.is_empty() {
        let letters = (b'A'..=b'Z').chain(b'a'..=b'z').all(|c| allowed.has(c));
        if letters {
            rules.push(Sym::ALPHA);
        }
        if digits {
            rules.push(if hex_letters { Sym::HEXDIG } else { Sym::DIGIT });
        }
        if allowed.non_ascii && profile.is_iri() {
            rules.push(Sym::ucschar);
        }
    } else if hex_letters {
        for s in &mut rules {
            if *s == Sym::DIGIT {
                *s = Sym::HEXDIG;
            }
        }
    }
    rules.sort();
    rules.dedup();
    let dfas: Vec<Dfa> = rules
        .iter()
        .filter_map(|&r| Dfa::of(GrammarRule(r), profile))
        .collect();
    let matched_by_rules = |c: u8| {
        let mut buf = [0; 4];
        let text = char::from(c).encode_utf8(&mut buf);
        dfas.iter().any(|dfa| dfa.accepts_all(text))
    };
    // "%" is better said by pct-encoded, which a rule names when it is
    // allowed; letters and digits by the rules that contain them.
    let literals = (0..128u8)
        .filter(|&c| allowed.has(c) && c != b'%')
        .filter(|&c| !matched_by_rules(c))
        .filter(|&c| rules.is_empty() || !c.is_ascii_alphanumeric())
        .map(|c| char::from(c).to_string())
        .collect();
    (rules, literals)
}

/// The details of a failure that another grammar found (a grammar of the
/// lab, loaded at run time): its position and the rules it expected there,
/// explained as the built-in grammar explains its own failures (the
/// component from the delimiters before the position, the kind of error
/// from the character there).
pub(crate) fn explain_at(
    input: &str,
    rule: GrammarRule,
    profile: Profile,
    byte: usize,
    expected: Vec<GrammarRule>,
    end_allowed: bool,
) -> Details {
    let mut byte = byte.min(input.len());
    while !input.is_char_boundary(byte) {
        byte -= 1;
    }
    let expected = expected.into_iter().map(|r| r.0).collect();
    finish(
        input,
        rule,
        profile,
        byte,
        expected,
        Vec::new(),
        end_allowed,
    )
}

/// pest alone: for a rule without a DFA, or an input the DFA accepts.
fn from_pest(input: &str, rule: GrammarRule, profile: Profile) -> Details {
    match syntax::attempts(profile, rule, input) {
        Some(a) => {
            let byte = a.byte.min(input.len());
            finish(input, rule, profile, byte, a.expected, Vec::new(), false)
        }
        None => finish(
            input,
            rule,
            profile,
            input.len(),
            Vec::new(),
            Vec::new(),
            false,
        ),
    }
}

fn finish(
    input: &str,
    rule: GrammarRule,
    profile: Profile,
    byte: usize,
    expected: Vec<Sym>,
    literals: Vec<String>,
    end_allowed: bool,
) -> Details {
    let prefix = &input[..byte];
    let place = locate(prefix, rule.0);
    let kind = classify(prefix, &input[byte..], &place, profile, rule.0);
    Details {
        char: prefix.chars().count(),
        byte,
        component: place.component,
        kind,
        expected: expected.into_iter().map(GrammarRule).collect(),
        literals,
        end_allowed,
    }
}

/// Where a position is, worked out from the text before it.
pub(crate) struct Place {
    pub(crate) component: Component,
    /// Inside an unclosed "[" of an IP literal host.
    pub(crate) in_ip_literal: bool,
    /// In a rule that only an IP literal's brackets hold (IPv6address,
    /// IPvFuture and their parts), taken as the start rule.
    in_ip_address: bool,
    /// In a relative reference's path, still in its first segment.
    first_relative_segment: bool,
    /// The text of the port so far, when in the port.
    port: Option<String>,
}

/// Locates the end of `prefix` (a prefix of a failed input that the parser
/// accepted so far) in the components of the start rule, by the delimiters
/// of RFC 3986 Appendix B. Used for error messages only: successful parses
/// take their components from the parse tree.
pub(crate) fn locate(prefix: &str, rule: Sym) -> Place {
    use Sym::{
        IP_literal, IPv6address, IPvFuture, IRI, IRI_reference, URI, URI_reference, absolute_IRI,
        absolute_URI, authority, h16, host, iauthority, ihost, irelative_ref, ls32, relative_ref,
    };
    let mut place = Place {
        component: Component::of_rule(rule),
        in_ip_literal: false,
        in_ip_address: false,
        first_relative_segment: false,
        port: None,
    };
    let needs_scheme = matches!(rule, IRI | absolute_IRI | URI | absolute_URI);
    let may_scheme = needs_scheme || matches!(rule, IRI_reference | URI_reference);
    let relative_only = matches!(rule, irelative_ref | relative_ref);
    if !(may_scheme || relative_only) {
        match rule {
            iauthority | authority => in_authority(prefix, &mut place),
            // The host rules: only an IP literal's brackets matter.
            ihost | host | IP_literal => {
                place.in_ip_literal = prefix.starts_with('[') && !prefix.contains(']');
            }
            // Rules that stand inside an IP literal's brackets alone.
            IPv6address | IPvFuture | h16 | ls32 => place.in_ip_address = true,
            _ => {}
        }
        return place;
    }
    let mut rest = prefix;
    let mut has_scheme = false;
    if may_scheme {
        match prefix.find([':', '/', '?', '#']) {
            Some(i) if prefix.as_bytes()[i] == b':' && is_scheme(&prefix[..i]) => {
                rest = &prefix[i + 1..];
                has_scheme = true;
            }
            _ if needs_scheme => {
                place.component = Component::Scheme;
                return place;
            }
            _ => {}
        }
    }
    if let Some(auth) = rest.strip_prefix("//") {
        match auth.find(['/', '?', '#']) {
            None => {
                in_authority(auth, &mut place);
                return place;
            }
            Some(i) => rest = &auth[i..],
        }
    } else if !has_scheme && !rest.starts_with('/') {
        place.first_relative_segment = !rest.contains(['/', '?', '#']);
    }
    place.component = match rest.find(['?', '#']) {
        None => Component::Path,
        Some(i) if rest.as_bytes()[i] == b'#' => Component::Fragment,
        Some(i) if rest[i..].contains('#') => Component::Fragment,
        Some(_) => Component::Query,
    };
    place
}

/// Locates the end of `auth`, the text of an authority so far (no `/`,
/// `?` or `#` in it): in the userinfo, the host (inside an IP literal's
/// `[` or not) or the port.
fn in_authority(auth: &str, place: &mut Place) {
    let host = match auth.find('@') {
        Some(at) => &auth[at + 1..],
        None => auth,
    };
    if let Some(lit) = host.strip_prefix('[') {
        match lit.find(']') {
            None => {
                place.component = Component::Host;
                place.in_ip_literal = true;
            }
            Some(close) if lit[close + 1..].starts_with(':') => {
                place.component = Component::Port;
                place.port = Some(lit[close + 2..].to_owned());
            }
            Some(_) => place.component = Component::Host,
        }
    } else if let Some(colon) = host.rfind(':') {
        place.component = if auth.contains('@') {
            Component::Port
        } else {
            // Still either userinfo ("user:pw" before "@") or host:port.
            Component::Authority
        };
        place.port = Some(host[colon + 1..].to_owned());
    } else {
        place.component = if auth.contains('@') {
            Component::Host
        } else {
            Component::Authority
        };
    }
}

fn is_scheme(s: &str) -> bool {
    let mut b = s.bytes();
    b.next().is_some_and(|c| c.is_ascii_alphabetic())
        && b.all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'))
}

/// The kind of error at the end of `prefix`, `rest` the input from there.
fn classify(prefix: &str, rest: &str, place: &Place, profile: Profile, rule: Sym) -> ErrorKind {
    let tail: Vec<char> = prefix.chars().rev().take(2).collect();
    // The last one or two characters before the position are "%" or "%" HEXDIG.
    let in_percent = match tail.as_slice() {
        ['%', ..] => true,
        [h, '%'] => h.is_ascii_hexdigit(),
        _ => false,
    };
    if in_percent && place.component != Component::Scheme {
        return ErrorKind::InvalidPercentEncoding;
    }
    let Some(ch) = rest.chars().next() else {
        return if place.component == Component::Scheme
            && matches!(
                rule,
                Sym::IRI | Sym::absolute_IRI | Sym::URI | Sym::absolute_URI
            ) {
            ErrorKind::MissingScheme
        } else {
            ErrorKind::UnexpectedEnd
        };
    };
    // A '%' where the character itself is wrong, whatever follows it: no
    // IP literal holds one (3987bis §2.2, RFC 3986 §3.2.2: IP-literal has
    // no pct-encoded), and a '%' there is an RFC 6874 zone identifier.
    if ch == '%' && (place.in_ip_literal || place.in_ip_address) {
        return ErrorKind::InvalidIpLiteral { ch };
    }
    // Elsewhere a '%' the grammar did not take is one that pct-encoded
    // could not: not followed by two hexadecimal digits. One that is
    // (where a grammar of the lab allows no pct-encoded) is a character
    // not allowed there, as any other.
    let hex = |i| rest.as_bytes().get(i).is_some_and(u8::is_ascii_hexdigit);
    if ch == '%' && place.component != Component::Scheme && !(hex(1) && hex(2)) {
        return ErrorKind::InvalidPercentEncoding;
    }
    match place.component {
        Component::Scheme if matches!(ch, '/' | '?' | '#') || (ch == ':' && !prefix.is_empty()) => {
            return ErrorKind::MissingScheme;
        }
        Component::Scheme => return ErrorKind::InvalidScheme { ch },
        // A start rule that only an IP literal's brackets hold is inside
        // one: percent-encoding is no way out there either.
        _ if place.in_ip_literal || place.in_ip_address => {
            return ErrorKind::InvalidIpLiteral { ch };
        }
        Component::Port | Component::Authority
            if place
                .port
                .as_deref()
                .is_some_and(|p| !p.bytes().all(|b| b.is_ascii_digit())) =>
        {
            let bad = place
                .port
                .as_deref()
                .unwrap_or("")
                .chars()
                .find(|c| !c.is_ascii_digit());
            return ErrorKind::InvalidPort {
                ch: bad.unwrap_or(ch),
            };
        }
        Component::Port if !ch.is_ascii_digit() && !matches!(ch, '/' | '?' | '#') => {
            return ErrorKind::InvalidPort { ch };
        }
        Component::Path if ch == ':' && place.first_relative_segment => {
            return ErrorKind::ColonInFirstSegment;
        }
        _ => {}
    }
    if ch.is_ascii() {
        return ErrorKind::DisallowedCharacter { ch };
    }
    match profile {
        Profile::Rfc3986 => ErrorKind::NonAsciiInUri { ch },
        _ if chars::is_iprivate(ch, profile) && place.component != Component::Query => {
            ErrorKind::PrivateUseOutsideQuery { ch }
        }
        _ if !chars::is_extended(ch, profile) && !chars::is_iprivate(ch, profile) => {
            ErrorKind::NotUcschar { ch }
        }
        _ => ErrorKind::DisallowedCharacter { ch },
    }
}
