//! Shared by the library's test binaries: a plain-text rendering of parse
//! results for snapshots, the alphabet of generated inputs, and the
//! workspace's shared helpers ([`iribis_testkit`]).
#![allow(dead_code)]

pub use iribis_testkit::*;

use iribis::{IriRef, ParseError, ParseOptions, Profile};

/// One line per present component, `name: "value"`; absent components are
/// left out, so `query: ""` (empty) and no query line (absent) differ.
pub fn components(r: &IriRef<&str>) -> String {
    let mut out = String::new();
    let mut line = |name: &str, v: Option<&str>| {
        if let Some(v) = v {
            out.push_str(&format!("  {name}: {v:?}\n"));
        }
    };
    line("scheme", r.scheme());
    line("authority", r.authority());
    line("userinfo", r.userinfo());
    let host = r
        .host()
        .map(|h| format!("{} {}", h.kind_name(), r.host_str().unwrap_or("")));
    line("host", host.as_deref());
    line("port", r.port());
    line("path", Some(r.path()));
    line("query", r.query());
    line("fragment", r.fragment());
    out
}

/// The rendering of one parse: the input, then its components or the
/// error's report.
pub fn render(input: &str, result: Result<IriRef<&str>, ParseError>) -> String {
    match result {
        Ok(r) => format!("{input:?}\n{}", components(&r)),
        Err(e) => format!(
            "{input:?}\n  INVALID {:?} at byte {} char {}\n{}\n",
            e.kind(),
            e.byte(),
            e.char(),
            indent(&e.report())
        ),
    }
}

pub fn parse(input: &str, profile: Profile) -> Result<IriRef<&str>, ParseError> {
    IriRef::parse_with(input, &ParseOptions::new().profile(profile))
}

fn indent(s: &str) -> String {
    s.lines()
        .map(|l| format!("    {l}\n"))
        .collect::<String>()
        .trim_end()
        .to_owned()
}

/// Characters that matter to the grammar: every delimiter, "%" and hex
/// digits, the IPv6 and IPvFuture characters, non-ASCII characters of each
/// class (ucschar, iprivate in and out of the tag range, noncharacters,
/// LEIRI-only characters, a bidi formatting character). Shared by the
/// generated strings of tests/syntax/fast_path.rs and
/// tests/syntax/error_positions.rs.
pub const IRI_ALPHABET: &[char] = &[
    'a',
    'B',
    'v',
    'F',
    'z',
    '0',
    '1',
    '2',
    '5',
    '9',
    ':',
    '/',
    '?',
    '#',
    '[',
    ']',
    '@',
    '!',
    '$',
    '&',
    '\'',
    '(',
    ')',
    '*',
    '+',
    ',',
    ';',
    '=',
    '-',
    '.',
    '_',
    '~',
    '%',
    ' ',
    '<',
    '"',
    '{',
    '|',
    '\\',
    '^',
    '`',
    '\u{7f}',
    '\u{1}',
    'é',
    '日',
    '\u{A0}',
    '\u{E000}',
    '\u{E0041}',
    '\u{F0000}',
    '\u{FFFE}',
    '\u{FDD0}',
    '😀',
    '\u{10FFFF}',
    '\u{202E}',
];
