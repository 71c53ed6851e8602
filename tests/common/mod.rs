//! Shared by the integration tests: insta settings and a plain-text rendering
//! of parse results for snapshots.
#![allow(dead_code)]

use iribis::{IriRef, ParseError, ParseOptions, Profile};

/// insta settings: snapshots live in the top-level `snapshots/` folder.
pub fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots"));
    s.set_prepend_module_to_snapshot(true);
    s
}

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

/// The examples of a data file: every line but `# ` comments; `""` stands
/// for the empty string.
pub fn examples(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.starts_with("# ") && *l != "#")
        .map(|l| {
            if l == "\"\"" {
                String::new()
            } else {
                l.to_owned()
            }
        })
        .collect()
}

/// `\u{XXXX}` stands for that character; `""` alone for the empty input.
pub fn unescape(s: &str) -> String {
    if s == "\"\"" {
        return String::new();
    }
    let mut out = String::new();
    let mut rest = s;
    while let Some(at) = rest.find("\\u{") {
        out.push_str(&rest[..at]);
        let close = rest[at..].find('}').expect("unclosed \\u{") + at;
        let code = u32::from_str_radix(&rest[at + 3..close], 16).expect("hex in \\u{}");
        out.push(char::from_u32(code).expect("a Unicode scalar value"));
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// Runs the `iri` binary with `args`, `stdin` on its standard input.
pub fn run_iri(args: &[&str], stdin: &[u8]) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    // Colour only when a test asks for it, whatever the environment.
    let mut child = Command::new(env!("CARGO_BIN_EXE_iri"))
        .args(args)
        .env_remove("CLICOLOR_FORCE")
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

/// Runs the `iri` binary with at most `kib` KiB of address space (`ulimit
/// -v`), `stdin` written from a thread of its own (so a large input and a
/// large output cannot block each other): a run that needs more memory
/// fails to allocate, and so fails the test that reads its output.
pub fn run_iri_within(kib: usize, args: &[&str], stdin: &[u8]) -> std::process::Output {
    run_iri_within_for(kib, None, args, stdin)
}

/// [`run_iri_within`], and killed after `seconds` if given (then the test
/// that reads its output fails: the run was not linear).
pub fn run_iri_within_for(
    kib: usize,
    seconds: Option<u64>,
    args: &[&str],
    stdin: &[u8],
) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let timeout = seconds.map_or(String::new(), |s| format!("timeout -s KILL {s} "));
    let script = format!("ulimit -v {kib} && exec {timeout}\"$0\" \"$@\"");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_iri"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("iri runs");
    let mut input = child.stdin.take().expect("a pipe");
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // The command may stop reading early only by failing, which the
        // assertions on its output report.
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("iri ends");
    writer.join().expect("the writer ends");
    out
}

/// The JSON Lines of a run's standard output.
pub fn json_lines(o: &std::process::Output) -> Vec<serde_json::Value> {
    String::from_utf8(o.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Characters that matter to the grammar: every delimiter, "%" and hex
/// digits, the IPv6 and IPvFuture characters, non-ASCII characters of each
/// class (ucschar, iprivate in and out of the tag range, noncharacters,
/// LEIRI-only characters, a bidi formatting character). Shared by the
/// generated strings of tests/fast_path.rs and tests/error_positions.rs.
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
