//! The schemes whose specifications the operations consult: their default
//! ports and which of them name hosts in the DNS. Scheme-based
//! normalization ([`crate::normalize`]), IRI → URI and URI → IRI conversion
//! ([`crate::convert`]) and the checker read these tables; they are public
//! as `iribis::normalize::DEFAULT_PORTS` and `iribis::normalize::DNS_SCHEMES`.

/// The default ports that scheme-based normalization removes, from each
/// scheme's specification (RFC 9110 §4.2 for http and https, RFC 6455 §3
/// for ws and wss, RFC 1738 §3 for ftp, gopher, telnet and nntp, RFC 4516
/// for ldap, RFC 2326 for rtsp, RFC 5092 for imap, RFC 2384 for pop, RFC
/// 3261 for sip and sips).
///
/// ```
/// use iribis::normalize::DEFAULT_PORTS;
///
/// assert!(DEFAULT_PORTS.contains(&("https", 443)));
/// ```
pub const DEFAULT_PORTS: &[(&str, u16)] = &[
    ("http", 80),
    ("https", 443),
    ("ws", 80),
    ("wss", 443),
    ("ftp", 21),
    ("gopher", 70),
    ("telnet", 23),
    ("nntp", 119),
    ("ldap", 389),
    ("rtsp", 554),
    ("imap", 143),
    ("pop", 110),
    ("sip", 5060),
    ("sips", 5061),
];

/// The schemes whose registered names are DNS names, compared by
/// scheme-based normalization through IDNA (UTS #46 mapping, then
/// ToUnicode): `résumé.example` and `xn--rsum-bpad.example` are the same
/// host there.
///
/// ```
/// use iribis::normalize::DNS_SCHEMES;
///
/// assert!(DNS_SCHEMES.contains(&"wss") && !DNS_SCHEMES.contains(&"mailto"));
/// ```
pub const DNS_SCHEMES: &[&str] = &["http", "https", "ws", "wss", "ftp"];
