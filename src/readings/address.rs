//! What kind of address an IP address is: the IANA IPv4 and IPv6
//! Special-Purpose Address Registries (RFC 6890 and the RFCs each entry
//! cites), with the multicast, reserved and limited-broadcast blocks of the
//! IPv4 and IPv6 address space registries, as a table of blocks: the most
//! specific block that holds an address gives its class.
//!
//! The table is data, cited entry by entry (registry snapshot of 2025;
//! `3fff::/20` is RFC 9637's, 2024). An IPv4-mapped IPv6 address
//! (`::ffff:a.b.c.d`, RFC 4291 §2.5.5.2) has the class of the IPv4 address
//! it maps: a dual-stack socket connects to that one.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The class of an IP address: where a connection to it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AddressClass {
    /// Reachable on the Internet (no special-purpose block holds it).
    Public,
    /// This host: `127.0.0.0/8` (RFC 1122), `::1/128` (RFC 4291).
    Loopback,
    /// Private networks: `10.0.0.0/8`, `172.16.0.0/12`, `192.168.0.0/16`
    /// (RFC 1918), unique local `fc00::/7` (RFC 4193).
    Private,
    /// The link only: `169.254.0.0/16` (RFC 3927; `169.254.169.254` is the
    /// cloud providers' instance metadata service), `fe80::/10`
    /// (RFC 4291).
    LinkLocal,
    /// No address: `0.0.0.0/32` (RFC 1122: this host on this network, which
    /// most systems connect to as the loopback), `::/128`.
    Unspecified,
    /// "This network": `0.0.0.0/8` (RFC 791).
    ThisNetwork,
    /// Carrier-grade NAT: `100.64.0.0/10` (RFC 6598).
    Shared,
    /// For documentation: `192.0.2.0/24`, `198.51.100.0/24`,
    /// `203.0.113.0/24` (RFC 5737), `2001:db8::/32` (RFC 3849),
    /// `3fff::/20` (RFC 9637).
    Documentation,
    /// For benchmarking: `198.18.0.0/15` (RFC 2544), `2001:2::/48`
    /// (RFC 5180).
    Benchmarking,
    /// Multicast: `224.0.0.0/4` (RFC 5771), `ff00::/8` (RFC 4291).
    Multicast,
    /// The limited broadcast `255.255.255.255/32` (RFC 919, RFC 8190).
    Broadcast,
    /// Reserved for future use: `240.0.0.0/4` (RFC 1112), the deprecated
    /// 6to4 relay anycast `192.88.99.0/24` (RFC 7526), the deprecated
    /// site-local `fec0::/10` (RFC 3879).
    Reserved,
    /// IETF protocol assignments that are not global destinations:
    /// `192.0.0.0/24` (RFC 6890), `2001::/23` (RFC 2928), the discard
    /// prefix `100::/64` (RFC 6666), SRv6 SIDs `5f00::/16` (RFC 9602).
    IetfProtocol,
    /// Address translation: NAT64 `64:ff9b::/96` (RFC 6052) and
    /// `64:ff9b:1::/48` (RFC 8215), 6to4 `2002::/16` (RFC 3056), Teredo
    /// `2001::/32` (RFC 4380).
    Translation,
}

impl AddressClass {
    /// The class's name in JSON and in messages: `public`, `loopback`,
    /// `private`, `link-local`, `unspecified`, `this-network`, `shared`,
    /// `documentation`, `benchmarking`, `multicast`, `broadcast`,
    /// `reserved`, `ietf-protocol`, `translation`.
    ///
    /// ```
    /// use iribis::readings::AddressClass;
    /// assert_eq!(AddressClass::LinkLocal.name(), "link-local");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            AddressClass::Public => "public",
            AddressClass::Loopback => "loopback",
            AddressClass::Private => "private",
            AddressClass::LinkLocal => "link-local",
            AddressClass::Unspecified => "unspecified",
            AddressClass::ThisNetwork => "this-network",
            AddressClass::Shared => "shared",
            AddressClass::Documentation => "documentation",
            AddressClass::Benchmarking => "benchmarking",
            AddressClass::Multicast => "multicast",
            AddressClass::Broadcast => "broadcast",
            AddressClass::Reserved => "reserved",
            AddressClass::IetfProtocol => "ietf-protocol",
            AddressClass::Translation => "translation",
        }
    }

    /// The class of `addr`: the most specific block of the table that
    /// holds it, else [`AddressClass::Public`].
    ///
    /// ```
    /// use std::net::IpAddr;
    /// use iribis::readings::AddressClass;
    ///
    /// let class = |s: &str| AddressClass::of(s.parse::<IpAddr>().unwrap());
    /// assert_eq!(class("127.0.0.1"), AddressClass::Loopback);
    /// assert_eq!(class("169.254.169.254"), AddressClass::LinkLocal);
    /// assert_eq!(class("10.1.2.3"), AddressClass::Private);
    /// assert_eq!(class("::ffff:192.168.0.1"), AddressClass::Private);
    /// assert_eq!(class("93.184.215.14"), AddressClass::Public);
    /// ```
    pub fn of(addr: IpAddr) -> AddressClass {
        match addr {
            IpAddr::V4(a) => Self::of_v4(a),
            IpAddr::V6(a) => match a.to_ipv4_mapped() {
                Some(v4) => Self::of_v4(v4),
                None => Self::of_v6(a),
            },
        }
    }

    fn of_v4(a: Ipv4Addr) -> AddressClass {
        let bits = u32::from(a);
        V4.iter()
            .filter(|&&(net, len, _)| len == 0 || bits >> (32 - len) == net >> (32 - len))
            .max_by_key(|&&(_, len, _)| len)
            .map_or(AddressClass::Public, |&(.., class)| class)
    }

    fn of_v6(a: Ipv6Addr) -> AddressClass {
        let bits = u128::from(a);
        V6.iter()
            .filter(|&&(net, len, _)| bits >> (128 - len) == net >> (128 - len))
            .max_by_key(|&&(_, len, _)| len)
            .map_or(AddressClass::Public, |&(.., class)| class)
    }
}

impl fmt::Display for AddressClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

const fn v4(a: u8, b: u8, c: u8, d: u8) -> u32 {
    u32::from_be_bytes([a, b, c, d])
}

/// IPv4 blocks: (network, prefix length, class). Entries of the IANA IPv4
/// Special-Purpose Address Registry whose "Globally Reachable" is True
/// (`192.0.0.9/32`, `192.0.0.10/32`, `192.31.196.0/24`, `192.52.193.0/24`,
/// `192.175.48.0/24`) are public and left out.
const V4: &[(u32, u32, AddressClass)] = &[
    (v4(0, 0, 0, 0), 8, AddressClass::ThisNetwork), // RFC 791
    (v4(0, 0, 0, 0), 32, AddressClass::Unspecified), // RFC 1122 §3.2.1.3
    (v4(10, 0, 0, 0), 8, AddressClass::Private),    // RFC 1918
    (v4(100, 64, 0, 0), 10, AddressClass::Shared),  // RFC 6598
    (v4(127, 0, 0, 0), 8, AddressClass::Loopback),  // RFC 1122 §3.2.1.3
    (v4(169, 254, 0, 0), 16, AddressClass::LinkLocal), // RFC 3927
    (v4(172, 16, 0, 0), 12, AddressClass::Private), // RFC 1918
    (v4(192, 0, 0, 0), 24, AddressClass::IetfProtocol), // RFC 6890 §2.1
    (v4(192, 0, 0, 9), 32, AddressClass::Public),   // PCP anycast, RFC 7723
    (v4(192, 0, 0, 10), 32, AddressClass::Public),  // TURN anycast, RFC 8155
    (v4(192, 0, 2, 0), 24, AddressClass::Documentation), // TEST-NET-1, RFC 5737
    (v4(192, 88, 99, 0), 24, AddressClass::Reserved), // 6to4 relay anycast, RFC 7526
    (v4(192, 168, 0, 0), 16, AddressClass::Private), // RFC 1918
    (v4(198, 18, 0, 0), 15, AddressClass::Benchmarking), // RFC 2544
    (v4(198, 51, 100, 0), 24, AddressClass::Documentation), // TEST-NET-2, RFC 5737
    (v4(203, 0, 113, 0), 24, AddressClass::Documentation), // TEST-NET-3, RFC 5737
    (v4(224, 0, 0, 0), 4, AddressClass::Multicast), // RFC 5771
    (v4(240, 0, 0, 0), 4, AddressClass::Reserved),  // RFC 1112 §4
    (v4(255, 255, 255, 255), 32, AddressClass::Broadcast), // RFC 919, RFC 8190
];

/// IPv6 blocks: (network, prefix length, class), from the IANA IPv6
/// Special-Purpose Address Registry and the IPv6 Address Space registry
/// (multicast, site-local). Globally reachable sub-blocks of `2001::/23`
/// (`2001:1::1/128`, `2001:1::2/128`, `2001:3::/32`, `2001:4:112::/48`,
/// `2001:20::/28`, `2001:30::/28`) are public.
const V6: &[(u128, u32, AddressClass)] = &[
    (0, 128, AddressClass::Unspecified),                // RFC 4291
    (1, 128, AddressClass::Loopback),                   // RFC 4291
    (0x0064_ff9b << 96, 96, AddressClass::Translation), // RFC 6052
    (0x0064_ff9b_0001 << 80, 48, AddressClass::Translation), // RFC 8215
    (0x0100 << 112, 64, AddressClass::IetfProtocol),    // discard-only, RFC 6666
    (0x2001 << 112, 23, AddressClass::IetfProtocol),    // RFC 2928
    (0x2001 << 112, 32, AddressClass::Translation),     // Teredo, RFC 4380
    ((0x2001 << 112) | (1 << 96) | 1, 128, AddressClass::Public), // PCP anycast, RFC 7723
    ((0x2001 << 112) | (1 << 96) | 2, 128, AddressClass::Public), // TURN anycast, RFC 8155
    ((0x2001 << 112) | (2 << 96), 48, AddressClass::Benchmarking), // RFC 5180
    ((0x2001 << 112) | (3 << 96), 32, AddressClass::Public), // AMT, RFC 7450
    (
        (0x2001 << 112) | (4 << 96) | (0x112 << 80),
        48,
        AddressClass::Public,
    ), // AS112-v6, RFC 7535
    ((0x2001 << 112) | (0x20 << 96), 28, AddressClass::Public), // ORCHIDv2, RFC 7343
    ((0x2001 << 112) | (0x30 << 96), 28, AddressClass::Public), // DRIP DETs, RFC 9374
    (
        (0x2001 << 112) | (0x0db8 << 96),
        32,
        AddressClass::Documentation,
    ), // RFC 3849
    (0x2002 << 112, 16, AddressClass::Translation),     // 6to4, RFC 3056
    (0x3fff << 112, 20, AddressClass::Documentation),   // RFC 9637
    (0x5f00 << 112, 16, AddressClass::IetfProtocol),    // SRv6 SIDs, RFC 9602
    (0xfc00 << 112, 7, AddressClass::Private),          // unique local, RFC 4193
    (0xfe80 << 112, 10, AddressClass::LinkLocal),       // RFC 4291
    (0xfec0 << 112, 10, AddressClass::Reserved),        // site-local, deprecated by RFC 3879
    (0xff00 << 112, 8, AddressClass::Multicast),        // RFC 4291
];

#[cfg(test)]
mod tests {
    use super::*;

    fn class(s: &str) -> &'static str {
        AddressClass::of(s.parse().unwrap()).name()
    }

    #[test]
    fn ipv4_blocks() {
        for (addr, want) in [
            ("0.0.0.0", "unspecified"),
            ("0.1.2.3", "this-network"),
            ("10.255.255.255", "private"),
            ("11.0.0.0", "public"),
            ("100.64.0.1", "shared"),
            ("100.128.0.1", "public"),
            ("127.0.0.1", "loopback"),
            ("127.255.255.254", "loopback"),
            ("169.254.169.254", "link-local"),
            ("172.16.0.1", "private"),
            ("172.31.255.255", "private"),
            ("172.32.0.0", "public"),
            ("192.0.0.1", "ietf-protocol"),
            ("192.0.0.9", "public"),
            ("192.0.2.7", "documentation"),
            ("192.88.99.1", "reserved"),
            ("192.168.0.1", "private"),
            ("198.18.0.1", "benchmarking"),
            ("198.19.255.255", "benchmarking"),
            ("198.20.0.0", "public"),
            ("198.51.100.1", "documentation"),
            ("203.0.113.255", "documentation"),
            ("224.0.0.251", "multicast"),
            ("239.255.255.250", "multicast"),
            ("240.0.0.1", "reserved"),
            ("255.255.255.254", "reserved"),
            ("255.255.255.255", "broadcast"),
            ("8.8.8.8", "public"),
        ] {
            assert_eq!(class(addr), want, "{addr}");
        }
    }

    #[test]
    fn ipv6_blocks() {
        for (addr, want) in [
            ("::", "unspecified"),
            ("::1", "loopback"),
            ("::2", "public"),
            ("::ffff:127.0.0.1", "loopback"),
            ("::ffff:169.254.169.254", "link-local"),
            ("::ffff:8.8.8.8", "public"),
            ("64:ff9b::1.2.3.4", "translation"),
            ("100::1", "ietf-protocol"),
            ("2001::1", "translation"),
            ("2001:1::1", "public"),
            ("2001:2::1", "benchmarking"),
            ("2001:db8::1", "documentation"),
            ("2001:4860::8888", "public"),
            ("2002:c000:204::1", "translation"),
            ("3fff::1", "documentation"),
            ("5f00::1", "ietf-protocol"),
            ("fc00::1", "private"),
            ("fd12:3456::1", "private"),
            ("fe80::1", "link-local"),
            ("fec0::1", "reserved"),
            ("ff02::1", "multicast"),
            ("2606:4700::1111", "public"),
        ] {
            assert_eq!(class(addr), want, "{addr}");
        }
    }
}
