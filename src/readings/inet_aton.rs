//! What a C resolver connects to: `inet_aton(3)`'s grammar of IPv4
//! addresses, which `getaddrinfo` (with `AI_NUMERICHOST` or before a DNS
//! look-up), curl and most HTTP clients outside browsers use on a host.
//!
//! The grammar, as the Linux man page inet(3) and POSIX's
//! `inet_addr()` document it: one to four *parts* separated by `.`; each
//! part a number in C's notation, decimal, octal with a leading `0`, or
//! hexadecimal with a leading `0x` or `0X` (at least one hex digit after
//! it); with
//!
//! - four parts `a.b.c.d`, each one byte of the address;
//! - three parts `a.b.c`, `c` the last two bytes (a class B host part);
//! - two parts `a.b`, `b` the last three bytes (a class A host part);
//! - one part `a`, all four bytes;
//!
//! each part at most what its bytes hold. Nothing else is an address: an
//! empty part, a trailing dot, `8` or `9` in an octal part, a sign. RFC
//! 3986 §7.4 ("Rare IP Address Formats") warns about exactly these forms.
//! glibc also stops at the first white space and ignores what follows; a
//! host of an IRI has none, so that is left out. `tests/checker/readings.rs`
//! compares this function with Python's `socket.inet_aton` (glibc's) on
//! `tests/data/inet-aton.tsv`.

use std::net::Ipv4Addr;

/// The IPv4 address `inet_aton` reads in `text`, or `None` when it reads
/// none (and a resolver would look the name up instead).
///
/// ```
/// use std::net::Ipv4Addr;
/// use iribis::readings::inet_aton;
///
/// let loopback = Some(Ipv4Addr::new(127, 0, 0, 1));
/// for s in ["127.0.0.1", "127.1", "0x7f.1", "0177.0.0.1", "2130706433", "0X7F000001"] {
///     assert_eq!(inet_aton(s), loopback, "{s}");
/// }
/// assert_eq!(inet_aton("1.2.65535"), Some(Ipv4Addr::new(1, 2, 255, 255)));
/// for s in ["09.0.0.1", "256.1", "1.2.3.4.", "1..2", "0x", "a.b.c.d", "1.2.3.4.5", ""] {
///     assert_eq!(inet_aton(s), None, "{s}");
/// }
/// ```
pub fn inet_aton(text: &str) -> Option<Ipv4Addr> {
    let mut parts = [0u32; 4];
    let mut count = 0;
    for part in text.split('.') {
        if count == 4 {
            return None;
        }
        parts[count] = number(part)?;
        count += 1;
    }
    // The last part fills the bytes the others leave.
    let (head, last) = (&parts[..count - 1], parts[count - 1]);
    if head.iter().any(|&p| p > 0xFF) {
        return None;
    }
    let free_bits = 8 * (4 - head.len() as u32);
    if free_bits < 32 && last >> free_bits != 0 {
        return None;
    }
    let value = head
        .iter()
        .enumerate()
        .fold(last, |v, (i, &p)| v | (p << (24 - 8 * i as u32)));
    Some(Ipv4Addr::from(value))
}

/// One part: a C integer constant (decimal, `0` octal, `0x` hex), no sign,
/// at most 32 bits.
fn number(part: &str) -> Option<u32> {
    let b = part.as_bytes();
    let (digits, radix) = match b {
        [b'0', b'x' | b'X', rest @ ..] => (rest, 16),
        [b'0', rest @ ..] => (rest, 8),
        _ => (b, 10),
    };
    if digits.is_empty() {
        // "0" alone is octal zero; "0x" has no digit; "" is no number.
        return (radix == 8).then_some(0);
    }
    let mut value: u32 = 0;
    for &d in digits {
        let v = (d as char).to_digit(radix)?;
        value = value.checked_mul(radix)?.checked_add(v)?;
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_part_count_fills_the_rest() {
        assert_eq!(inet_aton("1"), Some(Ipv4Addr::new(0, 0, 0, 1)));
        assert_eq!(inet_aton("1.2"), Some(Ipv4Addr::new(1, 0, 0, 2)));
        assert_eq!(
            inet_aton("1.16777215"),
            Some(Ipv4Addr::new(1, 255, 255, 255))
        );
        assert_eq!(inet_aton("1.16777216"), None);
        assert_eq!(inet_aton("1.2.3"), Some(Ipv4Addr::new(1, 2, 0, 3)));
        assert_eq!(inet_aton("1.2.65536"), None);
        assert_eq!(inet_aton("4294967295"), Some(Ipv4Addr::BROADCAST));
        assert_eq!(inet_aton("4294967296"), None);
        assert_eq!(inet_aton("0xffffffff"), Some(Ipv4Addr::BROADCAST));
        assert_eq!(inet_aton("0x100000000"), None);
        assert_eq!(inet_aton("0"), Some(Ipv4Addr::UNSPECIFIED));
        assert_eq!(inet_aton("00"), Some(Ipv4Addr::UNSPECIFIED));
        assert_eq!(inet_aton("0x0"), Some(Ipv4Addr::UNSPECIFIED));
        assert_eq!(inet_aton("+1"), None);
        assert_eq!(inet_aton("1.-2"), None);
        assert_eq!(inet_aton("0xg"), None);
        assert_eq!(inet_aton("08"), None);
        assert_eq!(inet_aton(".1"), None);
        assert_eq!(inet_aton("99999999999999999999"), None);
        assert_eq!(
            inet_aton("0000000000000000000000001"),
            Some(Ipv4Addr::new(0, 0, 0, 1))
        );
    }
}
