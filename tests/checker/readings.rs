//! What other readers read (src/readings/): the table of known
//! differences, one table per class with each reader's answer pinned,
//! inet_aton against the C library's answers, WPT's URL tests through both
//! readers, the property that a finding is reported exactly when the
//! readings differ after normalization, 3,000 ordinary corpus URLs and the
//! allowed hosts (through the command: crates/iri/tests/cli/readings.rs).
#![cfg(feature = "readings")]

use std::net::Ipv4Addr;

use iribis::check::{CheckOptions, Code};

use iribis::readings::{AllowedHosts, ReadHost, Reader, Readings, inet_aton, readings};

use iribis::{IriRef, ParseOptions, Profile, check};

fn read(input: &str) -> Readings {
    let r = IriRef::parse(input).unwrap_or_else(|e| panic!("{input:?}: {e}"));
    readings(&r)
}

fn codes(input: &str) -> Vec<&'static str> {
    read(input)
        .differences()
        .iter()
        .map(|d| d.code.name())
        .collect()
}

/// The WHATWG reading's host, `Err(message)` when it rejects.
fn whatwg_host(input: &str) -> Result<String, String> {
    match read(input).whatwg {
        Some(Ok(w)) => Ok(w.host.map_or(String::new(), |h| h.to_string())),
        Some(Err(e)) => Err(e.message),
        None => Err("no reading".into()),
    }
}

/// One table per class: (input, the finding expected or none, the
/// readers, the host they reach).
fn class_table(code: Code, table: &[(&str, bool, &[Reader], Option<&str>)]) {
    for &(input, expect, readers, reached) in table {
        let r = read(input);
        let found = r.differences().iter().find(|d| d.code == code);
        assert_eq!(
            found.is_some(),
            expect,
            "{code} on {input}: {:?}",
            r.differences()
        );
        if let Some(d) = found {
            assert_eq!(d.readers, readers, "{input}");
            let detail = r.detail(d);
            assert_eq!(detail.reached.as_deref(), reached, "{input}");
        }
    }
}

/// A WPT case: the fields the readers are compared on.
struct WptCase {
    input: String,
    base: Option<String>,
    failure: bool,
    hostname: String,
    port: String,
    pathname: String,
}

fn wpt_cases() -> Vec<WptCase> {
    let data: serde_json::Value =
        serde_json::from_str(include_str!("../../tests/data/wpt/urltestdata.json")).unwrap();
    let text = |v: &serde_json::Value, k: &str| v[k].as_str().unwrap_or("").to_owned();
    data.as_array()
        .unwrap()
        .iter()
        .filter(|v| v.is_object())
        .map(|v| WptCase {
            input: text(v, "input"),
            base: v["base"].as_str().map(str::to_owned),
            failure: v["failure"].as_bool().unwrap_or(false),
            hostname: text(v, "hostname"),
            port: text(v, "port"),
            pathname: text(v, "pathname"),
        })
        .collect()
}

/// The oracle of the tests: whether a 3987bis host and a WHATWG hostname
/// are one host after the agreed canonicalization (written here apart from
/// the library's: lowercase, UTS #46 ToASCII of a name with non-ASCII
/// characters after decoding the non-ASCII percent-encodings, IPv6
/// compression).
fn same_host(ours: Option<&str>, theirs: &str) -> bool {
    let Some(ours) = ours else {
        return theirs.is_empty();
    };
    if let (Some(a), Some(b)) = (ours.strip_prefix('['), theirs.strip_prefix('[')) {
        let a = a.trim_end_matches(']').parse::<std::net::Ipv6Addr>().ok();
        let b = b.trim_end_matches(']').parse::<std::net::Ipv6Addr>().ok();
        return a.is_some() && a == b;
    }
    // An opaque host (a scheme that is not special) is as written, with
    // characters outside ASCII percent-encoded: canonical on both sides.
    canonical(ours) == canonical(theirs)
}

fn canonical(name: &str) -> String {
    // Decode %80-%FF runs, if they are UTF-8.
    let mut bytes = Vec::new();
    let b = name.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let hex = name
            .get(i + 1..i + 3)
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match hex {
            Some(v) if b[i] == b'%' && v >= 0x80 => {
                bytes.push(v);
                i += 3;
            }
            _ => {
                bytes.push(b[i]);
                i += 1;
            }
        }
    }
    let text = String::from_utf8(bytes).unwrap_or_else(|_| name.to_owned());
    let lower = text.to_lowercase();
    let upper_escapes = |s: String| {
        let mut out = String::new();
        let mut rest = s.as_str();
        while let Some(p) = rest.find('%') {
            out.push_str(&rest[..p]);
            let esc: String = rest[p..].chars().take(3).collect();
            out.push_str(&esc.to_uppercase());
            rest = &rest[p + esc.len()..];
        }
        out.push_str(rest);
        out
    };
    if lower.is_ascii() && !lower.split('.').any(|l| l.starts_with("xn--")) {
        return upper_escapes(lower);
    }
    use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};
    match Uts46::new().to_ascii(
        lower.as_bytes(),
        AsciiDenyList::EMPTY,
        Hyphens::Allow,
        DnsLength::Ignore,
    ) {
        Ok(a) => upper_escapes(a.into_owned()),
        Err(_) => lower,
    }
}

/// The oracle's path comparison: percent-decoded but for `/ ? # %`, the
/// dot segments of RFC 3986 §5.2.4 removed (before decoding), an empty
/// path after a special authority as `/`.
fn path_form(path: &str, special_authority: bool) -> String {
    let path = if path.is_empty() && special_authority {
        "/"
    } else {
        path
    };
    let mut input: Vec<&str> = path.split('/').collect();
    let absolute = path.starts_with('/');
    if absolute {
        input.remove(0);
    }
    let mut out: Vec<&str> = Vec::new();
    let last = input.len().saturating_sub(1);
    let mut trailing = false;
    for (i, seg) in input.iter().enumerate() {
        match *seg {
            "." => trailing = i == last,
            ".." => {
                out.pop();
                trailing = i == last;
            }
            s => {
                out.push(s);
                trailing = false;
            }
        }
    }
    let mut joined = String::new();
    if absolute {
        joined.push('/');
    }
    joined.push_str(&out.join("/"));
    if trailing && !joined.ends_with('/') {
        joined.push('/');
    }
    let b = joined.as_bytes();
    let mut bytes = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let hex = joined
            .get(i + 1..i + 3)
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match hex {
            Some(v) if b[i] == b'%' && !b"/?#%".contains(&v) => {
                bytes.push(v);
                i += 3;
            }
            Some(v) if b[i] == b'%' => {
                bytes.extend_from_slice(format!("%{v:02X}").as_bytes());
                i += 3;
            }
            _ => {
                bytes.push(b[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The oracle's refusal: a label (between U+002E, after decoding the
/// non-ASCII percent-encodings) with characters outside ASCII whose UTS #46
/// ToASCII is not `xn--` and the Punycode of the label itself, lowercased
/// and without variation selectors: the mapping changed it.
fn lookup_refused(name: &str) -> bool {
    let decoded = canonical_decode(name);
    decoded.split('.').filter(|l| !l.is_ascii()).any(|label| {
        let same: String = label.to_lowercase();
        // A symbol is DISALLOWED in IDNA2008 (RFC 5892 §2.1: not a letter,
        // mark or digit, and no exception lists one), as is a variation
        // selector (§2.3, default-ignorable), when browsers take the name.
        use icu_properties::{CodePointMapData, props::GeneralCategory as G};
        let disallowed = same.chars().any(|c| {
            matches!(c, '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}')
                || matches!(
                    CodePointMapData::<G>::new().get(c),
                    G::OtherSymbol | G::MathSymbol | G::CurrencySymbol | G::ModifierSymbol
                )
        });
        use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};
        let Ok(ascii) = Uts46::new().to_ascii(
            same.as_bytes(),
            AsciiDenyList::EMPTY,
            Hyphens::Allow,
            DnsLength::Ignore,
        ) else {
            return false;
        };
        let own = idna::punycode::encode_str(&same).map(|p| format!("xn--{p}"));
        disallowed || own.as_deref() != Some(&*ascii)
    })
}

/// The non-ASCII percent-encodings of a name decoded, when they are UTF-8.
fn canonical_decode(name: &str) -> String {
    let mut bytes = Vec::new();
    let b = name.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match name
            .get(i + 1..i + 3)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            Some(v) if b[i] == b'%' && v >= 0x80 => {
                bytes.push(v);
                i += 3;
            }
            _ => {
                bytes.push(b[i]);
                i += 1;
            }
        }
    }
    String::from_utf8(bytes).unwrap_or_else(|_| name.to_owned())
}

const SPECIAL: [&str; 6] = ["http", "https", "ws", "wss", "ftp", "file"];

/// Whether the readings of `r` differ after normalization, by the oracle.
fn oracle_differs(r: &IriRef<&str>, all: &Readings) -> bool {
    let scheme = r.scheme().map(str::to_ascii_lowercase);
    let special = scheme.as_deref().is_some_and(|s| SPECIAL.contains(&s));
    let file = scheme.as_deref() == Some("file");
    let ours_host = r.host_str().map(|h| {
        if matches!(
            r.host(),
            Some(iribis::Host::Ipv6(_) | iribis::Host::Ipv4(_))
        ) {
            h.to_owned()
        } else if matches!(r.host(), Some(iribis::Host::IpvFuture(_))) {
            h.to_ascii_lowercase()
        } else {
            canonical(h)
        }
    });
    let file_host = |h: Option<String>| match h {
        Some(h) if file && h == "localhost" => Some(String::new()),
        None if file => Some(String::new()),
        other => other,
    };
    let ours_host = file_host(ours_host);
    // 3987bis §3.4.2 looks a name up by RFC 5891 (no mapping), browsers by
    // UTS #46: where the mapping changes a label, 3987bis reaches no host.
    let ours_host = match r.host() {
        Some(iribis::Host::RegName(n)) if special && lookup_refused(n) => {
            Some("\u{0}refused".to_owned())
        }
        _ => ours_host,
    };
    let host_text = |h: &ReadHost| match h {
        ReadHost::Name(n) | ReadHost::Opaque(n) => canonical(n),
        other => other.to_string(),
    };
    let mut differs = false;
    if let Some(w) = &all.whatwg {
        match w {
            Err(_) => differs = true,
            Ok(w) => {
                let theirs = file_host(w.host.as_ref().map(host_text));
                let same = match (&ours_host, &theirs) {
                    (Some(a), Some(b)) => same_host(Some(a), b) || a == b,
                    (a, b) => a == b,
                };
                if !same {
                    differs = true;
                }
                let from_path = ours_host.as_deref().is_none_or(str::is_empty)
                    && theirs.as_deref().is_some_and(|h| !h.is_empty());
                if !from_path && w.host.is_some() == r.authority().is_some() {
                    let authority = special && r.authority().is_some();
                    let a = path_form(r.path(), authority);
                    let b = path_form(w.path.as_deref().unwrap_or(""), authority);
                    if a != b {
                        differs = true;
                    }
                }
            }
        }
    }
    for other in [&all.inet_aton, &all.decoded].into_iter().flatten() {
        let theirs = file_host(other.host.as_ref().map(host_text));
        let same = match (&ours_host, &theirs) {
            (Some(a), Some(b)) => same_host(Some(a), b) || a == b,
            (a, b) => a == b,
        };
        if !same {
            differs = true;
        }
    }
    differs
}

/// Every row of the table of known differences gets its READING_ finding, with what
/// the other reader reads.
#[test]
fn every_known_difference_is_reported() {
    let table: &[(&str, &str, Result<&str, &str>)] = &[
        ("http://0x7f.1/", "READING_HOST_DIFFERS", Ok("127.0.0.1")),
        ("http://127.1/", "READING_HOST_DIFFERS", Ok("127.0.0.1")),
        (
            "http://2130706433/",
            "READING_HOST_DIFFERS",
            Ok("127.0.0.1"),
        ),
        (
            "http://0177.0.0.1/",
            "READING_HOST_DIFFERS",
            Ok("127.0.0.1"),
        ),
        (
            "http://192.168.0.1%2e/",
            "READING_HOST_DIFFERS",
            Ok("192.168.0.1"),
        ),
        (
            "http://%6c%6fcalhost/",
            "READING_HOST_DIFFERS",
            Ok("localhost"),
        ),
        (
            "http://０ｘ７ｆ.１/",
            "READING_HOST_DIFFERS",
            Ok("127.0.0.1"),
        ),
        (
            "http://a.b.c.127.0.0.1/",
            "READING_REJECTED",
            Err("invalid IPv4 address"),
        ),
        (
            "http://09.0.0.1/",
            "READING_REJECTED",
            Err("invalid IPv4 address"),
        ),
        (
            "http://ex%00ample.com/",
            "READING_REJECTED",
            Err("invalid international domain name"),
        ),
        (
            "http://example.com/a/%2e%2e/b",
            "READING_ENCODED_DOT_SEGMENT",
            Ok("example.com"),
        ),
        (
            "http://good.com%2523@evil.com/",
            "READING_USERINFO_ENCODED_DELIMITER",
            Ok("evil.com"),
        ),
        (
            "http://evil.com%2f@good.com/",
            "READING_USERINFO_ENCODED_DELIMITER",
            Ok("good.com"),
        ),
    ];
    for &(input, code, whatwg) in table {
        assert!(codes(input).contains(&code), "{input}: {:?}", codes(input));
        let got = whatwg_host(input);
        assert_eq!(got.as_deref().map_err(String::as_str), whatwg, "{input}");
        // And the checker reports it.
        let report = check(input, &CheckOptions::default());
        assert!(
            report.violations.iter().any(|v| v.code.name() == code),
            "{input}: {:?}",
            report.violations
        );
    }
    // The path browsers go to.
    let r = read("http://example.com/a/%2e%2e/b");
    assert_eq!(r.whatwg.unwrap().unwrap().path.as_deref(), Some("/b"));
    // What the decoding reader reaches.
    for (input, host) in [
        ("http://good.com%2523@evil.com/", "good.com"),
        ("http://evil.com%2f@good.com/", "evil.com"),
    ] {
        let d = read(input).decoded.unwrap();
        assert_eq!(d.host, Some(ReadHost::Name(host.into())), "{input}");
    }
    // Not a reading difference: a mapping that only lowercases leaves the
    // label the same one. A symbol is one (RFC 5892 §2.1 disallows it): the
    // label to_uri --idna refuses is one 3987bis reaches no host with.
    assert!(codes("http://BÜCHER.de/").is_empty());
    assert_eq!(
        codes("http://i\u{2764}\u{FE0F}.ws/"),
        ["READING_HOST_DIFFERS"]
    );
    assert_eq!(codes("http://\u{2603}.com/"), ["READING_HOST_DIFFERS"]);
}

/// Hosts browsers map with UTS #46 and 3987bis §3.4.2 looks up unmapped
/// (RFC 5891 §5.3–5.5): the lookup refuses the label, so 3987bis reaches no
/// host and browsers reach the mapped one. The cases and the hosts
/// browsers reach are the ones of the issue that found them (Node's WHATWG
/// URL); each is checked through the readings, the checker with its memo
/// of names (as `iri check` runs), and for the class of what is reached.
#[test]
fn mapped_hosts() {
    let cases: &[(&str, &str, Option<&str>)] = &[
        ("http://ｌｏｃａｌｈｏｓｔ/", "localhost", Some("loopback")),
        ("http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/", "localhost", Some("loopback")),
        ("http://ℓocalhost/", "localhost", Some("loopback")),
        ("http://loca\u{217C}host/", "localhost", Some("loopback")),
        (
            "http://ｍｅｔａｄａｔａ.google.internal/",
            "metadata.google.internal",
            None,
        ),
        ("http://a\u{AD}b/", "ab", None),
        (
            "http://GOO\u{200B}\u{2060}\u{FEFF}goo.com/",
            "googoo.com",
            None,
        ),
        ("http://Ⅷ.com/", "viii.com", None),
        ("http://ﬀ.com/", "ff.com", None),
        ("http://㍱.com/", "hpa.com", None),
        ("http://example。com/", "example.com", None),
        ("http://example．com/", "example.com", None),
        ("http://example｡com/", "example.com", None),
        (
            "http://%ef%bd%8c%ef%bd%8f%ef%bd%83alhost/",
            "localhost",
            Some("loopback"),
        ),
        (
            "https://ｌｏｃａｌｈｏｓｔ:8080/x",
            "localhost",
            Some("loopback"),
        ),
    ];
    let mut checker = iribis::check::Checker::new(CheckOptions::default());
    for &(input, host, class) in cases {
        let all = read(input);
        let found: Vec<_> = all
            .differences()
            .iter()
            .filter(|d| d.code == Code::ReadingHostDiffers)
            .collect();
        assert_eq!(found.len(), 1, "{input}: {:?}", all.differences());
        let detail = all.detail(found[0]);
        assert!(detail.readers.contains(&Reader::Whatwg), "{input}");
        assert_eq!(detail.reached.as_deref(), Some(host), "{input}");
        assert_eq!(detail.address_class.map(|c| c.name()), class, "{input}");
        assert!(
            found[0].message.contains("RFC 5891"),
            "{}",
            found[0].message
        );
        for report in [check(input, &CheckOptions::default()), checker.check(input)] {
            let v = report
                .violations
                .iter()
                .find(|v| v.code == Code::ReadingHostDiffers)
                .unwrap_or_else(|| panic!("{input}: {:?}", report.violations));
            let d = v.detail.as_ref().unwrap();
            assert_eq!(d.reached.as_deref(), Some(host), "{input}");
            assert_eq!(d.address_class.map(|c| c.name()), class, "{input}");
        }
    }
    // Only lowercased: the same label.
    for input in [
        "http://BÜCHER.de/",
        "http://bücher.de/",
        "http://r\u{E9}sum\u{E9}.example/",
        "http://xn--bcher-kva.de/",
        "http://例え.jp/",
        // No browser looks an opaque host up.
        "foo://ｌｏｃａｌｈｏｓｔ/",
    ] {
        assert!(codes(input).is_empty(), "{input}: {:?}", codes(input));
        let report = checker.check(input);
        assert!(
            !report
                .violations
                .iter()
                .any(|v| v.code.name().starts_with("READING_")),
            "{input}"
        );
    }
    // A reader that decodes first and splits after `//` reaches the empty
    // host: that is a host, and not 3987bis's.
    let all = read("http://%2F%2F@evil.example/");
    let d = &all.differences()[0];
    assert_eq!(d.code, Code::ReadingUserinfoEncodedDelimiter);
    assert_eq!(d.reached, Some(ReadHost::Empty));
    assert_eq!(d.readers, [Reader::Decoded]);
}

#[test]
fn numeric_hosts() {
    use Reader::{InetAton as I, Whatwg as W};
    class_table(
        Code::ReadingHostDiffers,
        &[
            ("http://0x7f.1/", true, &[W, I], Some("127.0.0.1")),
            ("http://0x7F000001/", true, &[W, I], Some("127.0.0.1")),
            ("http://017700000001/", true, &[W, I], Some("127.0.0.1")),
            ("http://127.0.1/", true, &[W, I], Some("127.0.0.1")),
            ("http://0xa9fea9fe/", true, &[W, I], Some("169.254.169.254")),
            ("http://0/", true, &[W, I], Some("0.0.0.0")),
            ("http://010.0.0.1/", true, &[W, I], Some("8.0.0.1")),
            ("http://127.0.0.1./", true, &[W], Some("127.0.0.1")),
            ("https://1.1/", true, &[W, I], Some("1.0.0.1")),
            ("ws://3232235521/", true, &[W, I], Some("192.168.0.1")),
            // Not special: browsers keep an opaque host, C resolvers do not.
            ("ssh://0x7f.1/", true, &[I], Some("127.0.0.1")),
            ("redis://2130706433:6379/", true, &[I], Some("127.0.0.1")),
            ("//0x7f.1/", true, &[I], Some("127.0.0.1")),
            // The same host in every reading.
            ("http://127.0.0.1/", false, &[], None),
            ("http://[::1]/", false, &[], None),
            ("http://[::ffff:7f00:1]/", false, &[], None),
            ("http://1.2.3.4.example/", false, &[], None),
            ("http://example.123a/", false, &[], None),
            ("ssh://1.2.3.4/", false, &[], None),
        ],
    );
    // The address classes of the reached hosts.
    for (input, class) in [
        ("http://0x7f.1/", "loopback"),
        ("http://0xa9fea9fe/", "link-local"),
        ("http://0/", "unspecified"),
        ("http://012.1/", "private"),
        ("http://100.64.1/", "shared"),
        ("http://3221225985/", "documentation"),
        ("http://0xe0.1/", "multicast"),
        ("http://0x08080808/", "public"),
    ] {
        let r = read(input);
        let d = &r.differences()[0];
        assert_eq!(d.address_class().map(|c| c.name()), Some(class), "{input}");
    }
}

#[test]
fn percent_decoded_and_mapped_hosts() {
    use Reader::{Decoded as D, InetAton as I, Whatwg as W};
    class_table(
        Code::ReadingHostDiffers,
        &[
            ("http://%6c%6fcalhost/", true, &[W, D], Some("localhost")),
            ("http://EXAMPLE%2eCOM/", true, &[W, D], Some("example.com")),
            ("http://a%3a80/", true, &[D], Some("a")),
            ("http://０ｘ７ｆ.１/", true, &[W, I], Some("127.0.0.1")),
            ("http://１２７.０.０.１/", true, &[W, I], Some("127.0.0.1")),
            ("http://127。0。0。1/", true, &[W, I], Some("127.0.0.1")),
            ("foo://%6c%6fcalhost/", true, &[D], Some("localhost")),
            // A decoding reader finds an authority in the path (the open
            // redirect of a server that decodes, then sends `Location`).
            ("/%2F%2Fevil.example/x", true, &[D], Some("evil.example")),
            ("/%5C%5Cevil.example/x", true, &[D], Some("evil.example")),
            // A special scheme without "//": browsers find a host in the path.
            ("http:evil.example/x", true, &[W], Some("evil.example")),
            ("https:/evil.example/x", true, &[W], Some("evil.example")),
            ("http:///evil.example/x", true, &[W], Some("evil.example")),
            // Full-width letters: browsers map them (UTS #46), 3987bis's
            // lookup (RFC 5891) refuses the label.
            (
                "http://ＥＸＡＭＰＬＥ.com/",
                true,
                &[W],
                Some("example.com"),
            ),
            // Normalization only.
            ("http://r%C3%A9sum%C3%A9.example/", false, &[], None),
            ("http://R%c3%a9SUM%C3%A9.example/", false, &[], None),
            ("http://résumé.example/", false, &[], None),
            ("http://xn--rsum-bpad.example/", false, &[], None),
            ("HTTP://Example.COM:80/", false, &[], None),
            ("http://example.com:0080/", false, &[], None),
            ("file://localhost/etc/hosts", false, &[], None),
            ("file:/etc/hosts", false, &[], None),
            ("mailto:a@example.org", false, &[], None),
            ("urn:isbn:0-486-27557-4", false, &[], None),
        ],
    );
}

#[test]
fn rejected_by_browsers() {
    use Reader::Whatwg as W;
    class_table(
        Code::ReadingRejected,
        &[
            ("http://a.b.c.127.0.0.1/", true, &[W], None),
            ("http://09.0.0.1/", true, &[W], None),
            ("http://1.2.3.4.5/", true, &[W], None),
            ("http://256.0.0.1/", true, &[W], None),
            ("http://0x100000000/", true, &[W], None),
            ("http://ex%00ample.com/", true, &[W], None),
            ("http://a%2520b/", true, &[W], None),
            ("http://[v1.x]/", true, &[W], None),
            ("foo://[v1.x]/", true, &[W], None),
            ("http://xn--a.example/", true, &[W], None),
            ("http://example.org:65536/", true, &[W], None),
            ("https://", true, &[W], None),
            ("http://example.org:65535/", false, &[], None),
            ("http://a_b.example/", false, &[], None),
            ("http://-a-.example/", false, &[], None),
            ("foo://a%2520b/", false, &[], None),
        ],
    );
    let r = read("http://example.org:65536/");
    assert_eq!(r.differences()[0].component.name(), "port");
    assert_eq!(
        r.whatwg.unwrap().unwrap_err().message,
        "invalid port number"
    );
}

#[test]
fn encoded_dot_segments() {
    use Reader::Whatwg as W;
    let e = Some("example.com");
    class_table(
        Code::ReadingEncodedDotSegment,
        &[
            ("http://example.com/a/%2e%2e/b", true, &[W], e),
            ("http://example.com/a/%2E%2E/b", true, &[W], e),
            ("http://example.com/a/.%2e/b", true, &[W], e),
            ("http://example.com/a/%2e./b", true, &[W], e),
            ("http://example.com/a/%2e/b", true, &[W], e),
            ("http://example.com/%2e%2e", true, &[W], e),
            ("ws://example.com/a/%2e%2e/", true, &[W], e),
            ("foo://example.com/a/%2e%2e/b", true, &[W], e),
            ("http://example.com/a/../b", false, &[], None),
            ("http://example.com/a/%2e%2e%2e/b", false, &[], None),
            ("http://example.com/a/%2e%2ex/b", false, &[], None),
            ("http://example.com/a%2e%2e/b", false, &[], None),
            ("http://example.com/?q=/%2e%2e/", false, &[], None),
            ("urn:a/%2e%2e/b", false, &[], None),
        ],
    );
    // One finding per segment, the span on it, the path browsers reach.
    let r = read("http://h/%2e%2e/x/%2E/y");
    let spans: Vec<(usize, usize)> = r.differences().iter().map(|d| (d.start, d.end)).collect();
    assert_eq!(spans, [(9, 15), (18, 21)]);
    assert_eq!(r.whatwg_parts().unwrap().path, "/x/y");
}

#[test]
fn other_paths() {
    use Reader::Whatwg as W;
    let leiri = |s: &str| {
        let r = IriRef::parse_with(s, &ParseOptions::new().profile(Profile::Leiri)).unwrap();
        readings(&r)
            .differences()
            .iter()
            .map(|d| d.code.name())
            .collect::<Vec<_>>()
    };
    assert_eq!(leiri("http://h/a\\b"), ["READING_PATH_DIFFERS"]);
    assert_eq!(leiri("http://h/a\\..\\b"), ["READING_PATH_DIFFERS"]);
    assert!(leiri("foo://h/a\\b").is_empty());
    assert!(leiri("http://h/a b/{c}").is_empty());
    class_table(
        Code::ReadingPathDiffers,
        &[
            ("file:///C:/../x", true, &[W], Some("")),
            ("file:///C:/a/./b", false, &[], None),
            ("http://h", false, &[], None),
            ("http://h/r%C3%A9sum%C3%A9", false, &[], None),
            ("http://h/résumé", false, &[], None),
            ("http://h/a/./b/../c", false, &[], None),
            ("urn:a/./b", false, &[], None),
        ],
    );
}

#[test]
fn userinfo_delimiters() {
    use Reader::Decoded as D;
    class_table(
        Code::ReadingUserinfoEncodedDelimiter,
        &[
            ("http://evil.com%2f@good.com/", true, &[D], Some("evil.com")),
            ("http://evil.com%2F@good.com/", true, &[D], Some("evil.com")),
            ("http://evil.com%5c@good.com/", true, &[D], Some("evil.com")),
            ("http://evil.com%3f@good.com/", true, &[D], Some("evil.com")),
            ("http://evil.com%23@good.com/", true, &[D], Some("evil.com")),
            (
                "http://good.com%2523@evil.com/",
                true,
                &[D],
                Some("good.com"),
            ),
            ("http://a:b%252f@good.com/", true, &[D], Some("a")),
            ("ssh://evil.com%2f@good.com/", true, &[D], Some("evil.com")),
            // An e-mail address as the user name: readers split at the last '@'.
            ("http://alice%40corp@good.com/", false, &[], None),
            ("http://user%20name:pass@good.com/", false, &[], None),
            ("http://good.com/%2f@evil.com", false, &[], None),
        ],
    );
}

/// inet_aton against the C library's answers (tests/data/inet-aton.tsv,
/// written by tests/data/inet-aton.py through Python's socket.inet_aton).
#[test]
fn inet_aton_agrees_with_the_c_library() {
    let mut n = 0;
    for line in include_str!("../../tests/data/inet-aton.tsv").lines() {
        if line.starts_with('#') {
            continue;
        }
        let (input, want) = line.split_once('\t').unwrap();
        let want = (want != "-").then(|| want.parse::<Ipv4Addr>().unwrap());
        assert_eq!(inet_aton(input), want, "{input:?}");
        n += 1;
    }
    assert!(n > 2000, "{n}");
}

/// WPT's URL test data (tests/data/wpt/) through both readers: every case
/// of an absolute input with an authority. The WHATWG reader gives WPT's
/// hostname, port and path (or its failure) but for the url crate's own
/// known failures; 3987bis accepts some of the inputs, and on those the
/// checker reports a READING_ finding exactly when the WHATWG host (or its
/// failure) is not the 3987bis host after normalization.
#[test]
fn wpt_host_parsing() {
    let known: Vec<String> = include_str!("../../tests/data/wpt/expected_failures.txt")
        .lines()
        .map(str::to_owned)
        .collect();
    let (mut read, mut accepted, mut differ) = (0, 0, 0);
    let mut wrong = Vec::new();
    for case in wpt_cases() {
        let absolute = case.input.split_once("://").is_some_and(|(s, _)| {
            !s.is_empty()
                && s.chars().next().unwrap().is_ascii_alphabetic()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        });
        if !absolute {
            continue;
        }
        let Ok(r) = IriRef::parse_with(&case.input, &ParseOptions::new().profile(Profile::Leiri))
        else {
            continue;
        };
        read += 1;
        let all = readings(&r);
        let got = match &all.whatwg {
            Some(Ok(w)) => Some((
                w.host.as_ref().map_or(String::new(), |h| h.to_string()),
                w.port.clone().unwrap_or_default(),
                w.path.clone().unwrap_or_default(),
            )),
            _ => None,
        };
        let want = (!case.failure).then(|| {
            (
                case.hostname.clone(),
                case.port.clone(),
                case.pathname.clone(),
            )
        });
        // Named as the url crate's expected_failures.txt names them.
        let name = match &case.base {
            Some(b) => format!(
                "<{}> against <{}>",
                case.input.escape_default(),
                b.escape_default()
            ),
            None => format!("<{}>", case.input.escape_default()),
        };
        let known_failure = known.contains(&name);
        if got != want && !known_failure {
            wrong.push(format!("{name}: got {got:?}, WPT {want:?}"));
        }
        if known_failure {
            // rust-url's answer is not WPT's there: nothing to compare.
            continue;
        }
        // Through 3987bis itself.
        let Ok(ours) = IriRef::parse(&case.input) else {
            continue;
        };
        accepted += 1;
        let host_findings = readings(&ours)
            .differences()
            .iter()
            .filter(|d| matches!(d.code, Code::ReadingHostDiffers | Code::ReadingRejected))
            .filter(|d| {
                d.readers
                    .iter()
                    .any(|r| matches!(r, Reader::Whatwg | Reader::InetAton))
            })
            .count();
        let file = ours
            .scheme()
            .is_some_and(|s| s.eq_ignore_ascii_case("file"));
        let host_differs = match &want {
            None => true,
            // 3987bis §3.4.2's lookup (RFC 5891, no mapping) refuses a
            // label UTS #46 changes: no host, where browsers reach one.
            Some(_) if matches!(ours.host(), Some(iribis::Host::RegName(n)) if lookup_refused(n)) => {
                true
            }
            Some((host, ..)) if file && host.is_empty() => !ours
                .host_str()
                .is_none_or(|h| h.is_empty() || canonical(h) == "localhost"),
            Some((host, ..)) => !same_host(ours.host_str(), host),
        };
        let inet = readings(&ours)
            .inet_aton
            .is_some_and(|i| i.host.map(|h| h.to_string()).as_deref() != ours.host_str());
        if host_differs || inet {
            differ += 1;
        }
        assert_eq!(host_findings > 0, host_differs || inet, "{name}");
    }
    eprintln!(
        "WPT: {read} absolute cases read, {accepted} accepted by 3987bis, {differ} of them read otherwise"
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(
        read > 300 && accepted > 150 && differ > 40,
        "{read} {accepted} {differ}"
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]

    /// A finding is reported exactly when the readings differ after the
    /// normalization every reader agrees on (the oracle above, written
    /// apart from the library), and the checker (which computes readings
    /// only where its cheap test says they can differ) reports exactly
    /// those findings.
    #[test]
    fn a_finding_iff_the_readings_differ(
        scheme in "(http|https|ws|ftp|file|ssh|foo|HTTP|blob:http)",
        slashes in "(//|/|///|)",
        userinfo in "(|%2F%2F@|bücher\\.de@|user@|a%40b@|evil.com%2f@|x%2523@|u%5C@|p:w%3F@|name%20x@)",
        host in "(ⓛⓞⓒⓐⓛⓗⓞⓢⓣ|example。com|BÜCHER\\.de|a\u{AD}b|%ef%bd%8c%ef%bd%8fcalhost|example\\.com|EXAMPLE\\.com|0x7f\\.1|127\\.1|127\\.0\\.0\\.1|2130706433|0177\\.0\\.0\\.1|09\\.0\\.0\\.1|a\\.b\\.c\\.1\\.2\\.3\\.4|1\\.2\\.3\\.4\\.|%6c%6fcalhost|r%C3%A9sum%C3%A9\\.ex|résumé\\.ex|xn--rsum-bpad\\.ex|ｌｏｃａｌｈｏｓｔ|０ｘ７ｆ\\.１|ex%00ample|ex%2eample|\\[::1\\]|\\[::FFFF:127\\.0\\.0\\.1\\]|\\[v1\\.x\\]|localhost|a_b\\.c|xn--a\\.com|)",
        port in "(|:|:80|:8080|:0443|:65536)",
        path in "(|/|/a|/a/\\.\\./b|/a/%2e%2e/b|/%2E|/a/\\.%2e|/r%C3%A9sum%C3%A9|/C:/\\.\\./x|/a%2fb|/\\./x)",
        tail in "(|\\?q=%2e%2e|#f)",
    ) {
        let input = format!("{scheme}:{slashes}{userinfo}{host}{port}{path}{tail}");
        let Ok(r) = IriRef::parse(&input) else { return Ok(()) };
        let all = readings(&r);
        proptest::prop_assert_eq!(
            !all.differences().is_empty(),
            oracle_differs(&r, &all),
            "{} {:?}",
            input,
            all
        );
        let from_check: Vec<(Code, usize)> = check(&input, &CheckOptions::default())
            .violations
            .iter()
            .filter(|v| v.code.name().starts_with("READING_"))
            .map(|v| (v.code, v.byte))
            .collect();
        let mut from_readings: Vec<(Code, usize)> =
            all.differences().iter().map(|d| (d.code, d.start)).collect();
        from_readings.sort_by_key(|&(c, b)| (b, c));
        proptest::prop_assert_eq!(from_check, from_readings, "{}", input);
    }
}

/// 3,000 ordinary URLs of the shared corpora (every 23rd line of the URL
/// corpus, every 16th of the mixed one, as benches/data has them): the
/// READING_ findings among them, each one looked at (see the comments).
#[test]
fn ordinary_corpus_urls() {
    let urls = include_str!("../../benches/data/kasztp-urls.txt");
    let mixed = include_str!("../../benches/data/mixed-iris-20k.txt");
    let sample: Vec<&str> = urls
        .lines()
        .step_by(23)
        .take(1750)
        .chain(mixed.lines().step_by(16).take(1250))
        .collect();
    assert_eq!(sample.len(), 3000);
    let mut found = Vec::new();
    for line in &sample {
        for v in check(line, &CheckOptions::default()).violations {
            if v.code.name().starts_with("READING_") {
                found.push(format!("{} {line}", v.code.name()));
            }
        }
    }
    // Hosts of symbols and emoji (☃.net, 🦀.rs, i❤️.ws) are real
    // differences: IDNA2008 disallows them (RFC 5892 §2.1), so 3987bis's
    // lookup reaches no host where browsers reach one.
    let (symbols, found): (Vec<String>, Vec<String>) = found.into_iter().partition(|f| {
        f.starts_with("READING_HOST_DIFFERS ")
            && ["☃.", "🦀.", "i❤\u{fe0f}."].iter().any(|h| f.contains(h))
    });
    assert!(symbols.len() >= 10, "{symbols:?}");
    // The others are real differences: browsers reject an IPvFuture literal
    // (there is no IPvFuture in the WHATWG URL Standard).
    let expected: Vec<String> = [
        "READING_REJECTED http://[v1.fe80::a+en1]/login/2023.ttl/62405/ar",
        "READING_REJECTED http://[v1.fe80::a+en1]/faq/ru",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(found, expected);
}

/// The library's allowed hosts: every reader counts, names are compared
/// canonically, `*.suffix` allows what is below the suffix.
#[test]
fn allowed_hosts_library() {
    let allowed =
        AllowedHosts::parse("example.com\n*.example.org\n[2001:db8::1]\nbücher.de\n").unwrap();
    let outside = |s: &str| -> Vec<String> {
        let r = IriRef::parse(s).unwrap();
        allowed
            .outside(&readings(&r))
            .into_iter()
            .map(|(h, _)| h)
            .collect()
    };
    assert!(outside("https://example.com/").is_empty());
    assert!(outside("https://a.b.example.org/").is_empty());
    assert!(outside("https://[2001:DB8:0:0::1]/").is_empty());
    assert!(outside("https://xn--bcher-kva.de/").is_empty());
    assert!(outside("https://BÜCHER.de/").is_empty());
    assert_eq!(outside("https://example.org/"), ["example.org"]);
    assert_eq!(outside("https://example.com.evil/"), ["example.com.evil"]);
    assert_eq!(outside("https://evilexample.org/"), ["evilexample.org"]);
    assert_eq!(outside("https://example.com%2f@evil.net/"), ["evil.net"]);
    assert_eq!(outside("https://evil.net%2f@example.com/"), ["evil.net"]);
    assert_eq!(outside("file:///etc/passwd"), [""]);
    for bad in ["a..b", "http://x", "*.1.2.3.4", "a b", ""] {
        assert!(AllowedHosts::parse(bad).is_err() || bad.is_empty(), "{bad}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2048))]

    /// On any input that parses, under any profile: the readings never
    /// panic, every difference spans characters of the input, and the
    /// checker reports exactly the differences.
    #[test]
    fn readings_of_any_reference(
        input in "([a-zA-Z][a-z+.-]{0,5}:|blob:https?:|file:)?(//)?([a-z0-9.%@:/\\\\?#\\[\\]_~!$&'()*+,;=\t -]|%[0-9a-fA-F]{2}|[é例ㄧ丁０-９ｘ．。｡ⓛｌÜ\u{AD}\u{FE0F}])*",
        profile in proptest::sample::select(Profile::ALL.to_vec()),
    ) {
        let Ok(r) = IriRef::parse_with(&input, &ParseOptions::new().profile(profile)) else {
            return Ok(());
        };
        let all = readings(&r);
        for d in all.differences() {
            proptest::prop_assert!(d.start <= d.end && d.end <= input.len(), "{:?}", d);
            proptest::prop_assert!(input.is_char_boundary(d.start) && input.is_char_boundary(d.end));
            proptest::prop_assert!(d.code.name().starts_with("READING_"));
        }
        let options = CheckOptions::new().profile(profile);
        let from_check: Vec<(Code, usize)> = check(&input, &options)
            .violations
            .iter()
            .filter(|v| v.code.name().starts_with("READING_"))
            .map(|v| (v.code, v.byte))
            .collect();
        let mut from_readings: Vec<(Code, usize)> =
            all.differences().iter().map(|d| (d.code, d.start)).collect();
        from_readings.sort_by_key(|&(c, b)| (b, c));
        proptest::prop_assert_eq!(from_check, from_readings, "{}", input);
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4096))]

    /// `check` reports exactly what the readings report, under every
    /// profile, through `check()` and through a `Checker` that remembers
    /// names (as `iri check` does): references built from the parts where
    /// readers part (numeric, mapped and encoded hosts, userinfos hiding a
    /// delimiter or shaped like a host, a LEIRI's backslashes, spaces and
    /// tabs, drive letters, encoded dot segments, `blob:` with a nested
    /// URL, `file:` hosts), each under each profile.
    #[test]
    fn check_reports_what_the_readings_report(
        scheme in "(http|https|ws|ftp|file|ssh|foo|HTTP|blob:http|blob:https|mailto)",
        slashes in "(//|/|///|////|\\\\\\\\|)",
        userinfo in "(|user@|evil\\.com\\\\@|evil\\.com%2f@|%2F%2F@|a b@|a\t@|bücher\\.de@|paypal。com@|u:p@)",
        host in "(example\\.com|0x7f\\.1|127\\.1|ｌｏｃａｌｈｏｓｔ|ⓛⓞⓒⓐⓛⓗⓞⓢⓣ|example。com|BÜCHER\\.de|i\u{2764}\u{FE0F}\\.ws|a\u{AD}b|%6c%6fcalhost|%ef%bd%8c%ef%bd%8fcalhost|０ｘ７ｆ\\.１|\\[::1\\]|\\[v1\\.x\\]|localhost|ex ample|ex\tample|host|C:|)",
        port in "(|:|:80|:65536)",
        path in "(|/|/a|/a\\\\b|/a b|/a\tb|/C:/x|/C:/\\.\\./x|/a/%2e%2e/b|/%2F%2Fevil|\\\\x|/\\./x)",
        tail in "(|\\?q|#f|\t|  )",
        memo_first in "(http://ｌｏｃａｌｈｏｓｔ/|http://example\\.com/)",
    ) {
        let input = format!("{scheme}:{slashes}{userinfo}{host}{port}{path}{tail}");
        for profile in Profile::ALL {
            let Ok(r) = IriRef::parse_with(&input, &ParseOptions::new().profile(profile)) else {
                continue;
            };
            let all = readings(&r);
            let mut from_readings: Vec<(Code, usize, Option<String>)> = all
                .differences()
                .iter()
                .map(|d| (d.code, d.start, all.detail(d).reached))
                .collect();
            from_readings.sort_by_key(|(c, b, _)| (*b, *c));
            let options = CheckOptions::new().profile(profile);
            let mut checker = iribis::check::Checker::new(options.clone());
            checker.check(&memo_first);
            for report in [check(&input, &options), checker.check(&input), checker.check(&input)] {
                let from_check: Vec<(Code, usize, Option<String>)> = report
                    .violations
                    .iter()
                    .filter(|v| v.code.name().starts_with("READING_"))
                    .map(|v| (v.code, v.byte, v.detail.as_ref().and_then(|d| d.reached.clone())))
                    .collect();
                proptest::prop_assert_eq!(&from_check, &from_readings, "{:?} under {}", input, profile.name());
            }
        }
    }
}

/// The differences the comparison of `check` with the readings found, each
/// a regression test: every one is reported by both, under the profile
/// named.
/// Where rust-url (the WHATWG reader) contradicts WPT on a `file:` URL,
/// the readings follow WPT: every absolute `file:` case of
/// urltestdata.json gets WPT's hostname and pathname, those rust-url lists
/// as its own failures (`file:////foo` is `//foo`, `file://spider///` is
/// `///`) included, and where the two agree with 3987bis there is no
/// finding.
#[test]
fn wpt_file_urls() {
    let known: Vec<&str> = include_str!("../../tests/data/wpt/expected_failures.txt")
        .lines()
        .collect();
    let (mut seen, mut corrected) = (0, 0);
    for case in wpt_cases() {
        if case.base.is_some()
            || case.failure
            || !case.input.to_ascii_lowercase().starts_with("file:")
        {
            continue;
        }
        let Ok(r) = IriRef::parse_with(&case.input, &ParseOptions::new().profile(Profile::Leiri))
        else {
            continue;
        };
        seen += 1;
        let all = readings(&r);
        let Some(Ok(w)) = &all.whatwg else {
            panic!("{:?}: {:?}", case.input, all.whatwg);
        };
        let got = (
            w.host.as_ref().map_or(String::new(), |h| h.to_string()),
            w.path.clone().unwrap_or_default(),
        );
        assert_eq!(
            got,
            (case.hostname.clone(), case.pathname.clone()),
            "{:?}",
            case.input
        );
        if known.contains(&format!("<{}>", case.input.escape_default()).as_str()) {
            corrected += 1;
        }
    }
    assert!(seen >= 30 && corrected >= 10, "{seen} {corrected}");
    for input in [
        "file:////foo",
        "file:////",
        "file://host/C:/x",
        "file://example.net/C:/",
        "file://localhost////foo",
        "file://spider///",
    ] {
        assert!(
            codes(input).is_empty(),
            "{input}: {:?}",
            read(input).differences()
        );
        let report = check(input, &CheckOptions::default());
        assert!(
            !report
                .violations
                .iter()
                .any(|v| v.code.name().starts_with("READING_")),
            "{input}"
        );
    }
    assert_eq!(whatwg_host("file://host/C:/x").as_deref(), Ok("host"));
    assert_eq!(
        read("file:////").whatwg.unwrap().unwrap().path.as_deref(),
        Some("//")
    );
}

#[test]
fn check_agrees_with_the_readings() {
    let cases: &[(Profile, &str, &str)] = &[
        // Browsers read the backslash as a slash and go to evil.com.
        (
            Profile::Leiri,
            "http://evil.com\\@good.com/",
            "READING_HOST_DIFFERS",
        ),
        // Browsers strip tabs and newlines anywhere.
        (
            Profile::Leiri,
            "http://example.com/a\tb",
            "READING_PATH_DIFFERS",
        ),
        (
            Profile::Leiri,
            "http://exa\tmple.com/",
            "READING_HOST_DIFFERS",
        ),
        // A space in a host: browsers refuse it.
        (Profile::Leiri, "http://ex ample.com/", "READING_REJECTED"),
        // `blob:` with a nested URL: the tab goes in browsers.
        (
            Profile::Leiri,
            "blob:https://exa\tmple.com/",
            "READING_PATH_DIFFERS",
        ),
    ];
    for &(profile, input, code) in cases {
        let r = IriRef::parse_with(input, &ParseOptions::new().profile(profile))
            .unwrap_or_else(|e| panic!("{input:?}: {e}"));
        let all = readings(&r);
        assert!(
            all.differences().iter().any(|d| d.code.name() == code),
            "{input:?}: {:?}",
            all.differences()
        );
        let options = CheckOptions::new().profile(profile).severities(
            iribis::check::Severities::new(iribis::check::Preset::Leiri)
                .set(Code::LeiriOnlyCharacter, iribis::check::Severity::Allow),
        );
        let report = check(input, &options);
        assert!(
            report.violations.iter().any(|v| v.code.name() == code),
            "{input:?}: {:?}",
            report.violations
        );
    }
}
