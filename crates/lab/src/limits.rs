//! The limits of the grammar lab: how deep, how repeated and how large a
//! runtime pest grammar may be, checked on the text before any recursive
//! parser sees it, and the thread with a known stack that the recursive
//! steps (pest_meta's parser, validator and optimizer, our own walks) run
//! on. A limit reached is an error, never a crash.
//!
//! The ABNF side has its own pre-scan in [`crate::abnf`] (the module must
//! compile alone in the build script), with the same two numbers.

use std::fmt::Write as _;

pub use crate::abnf::{MAX_NESTING, MAX_REPETITION};

/// The most expressions a runtime pest grammar may have once pest_meta has
/// unrolled its repetitions (`e{3}` is three copies of `e`, `e+` two): each
/// string, character, range, rule reference and operator counts one. It
/// bounds the memory pest_meta takes and the depth of every recursion over
/// the grammar, which the lab's thread stack (`STACK`) is sized for. In
/// WebAssembly (`wasm32-unknown-unknown`, the playground's static page),
/// which has no threads and runs the lab on the caller's stack, 100,000.
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
pub const MAX_EXPRESSIONS: u64 = 1_000_000;
/// The most expressions a runtime pest grammar may have: 100,000 in
/// WebAssembly, whose lab runs on the caller's stack; 1,000,000 natively.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub const MAX_EXPRESSIONS: u64 = 100_000;

/// The stack one level of grammar nesting takes in the deepest recursion
/// over a grammar within the limits, rounded up: pest_meta's parser,
/// validator and optimizer and the lab's own walks on a `(((…)))` 999
/// levels deep (`r = { ((…"x"…)) }`), or on a chain of 150 rules each
/// nesting 999 levels around a reference to the next (the longest such
/// chain [`crate::MAX_VALIDATION_STEPS`] lets through), needed 3.5 MiB in a
/// debug build and failed in 3 MiB: about 3.5 KiB a level.
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
const NESTING_LEVEL_STACK: usize = 4 << 10;

/// How many times the measured need [`STACK`] reserves: room for a build
/// with larger frames, a new pest_meta, and the inputs pest_vm parses on
/// the same thread (pest_vm stops with "stack limit reached" when less
/// than 64 KiB are left, so a deep input is an error, never a crash).
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
const STACK_MARGIN: usize = 64;

/// The stack of the thread that loads and checks grammars:
/// [`MAX_NESTING`] levels of [`NESTING_LEVEL_STACK`], [`STACK_MARGIN`]
/// times over (250 MiB of address space, of which only what a recursion
/// touches is ever committed). It must fit beside the process under an
/// address-space limit of 2 GiB (`ulimit -v`, `prlimit --as`): the 2 GiB
/// it once reserved kept every grammar command from starting there.
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
pub(crate) const STACK: usize = MAX_NESTING * NESTING_LEVEL_STACK * STACK_MARGIN;

std::thread_local! {
    /// Whether this thread is one [`on_big_stack`] started.
    static ON_BIG_STACK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` on a thread with a [`STACK`]-sized stack and returns its result
/// (directly when already on such a thread: a check loads grammars too);
/// `Err` with a message when the thread cannot be started or `f` panicked
/// (which would be a bug: the message says so).
pub(crate) fn on_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> Result<T, String> {
    if ON_BIG_STACK.with(|on| on.get()) {
        return Ok(f());
    }
    // WebAssembly in a browser or Node has no threads: the lab runs on the
    // caller's stack, which the wasm limits of MAX_NESTING and
    // MAX_EXPRESSIONS are sized for (the page's worker also treats a trap
    // as a limit reached, and starts afresh).
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    return Ok(f());
    #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
    std::thread::scope(|s| {
        let handle = std::thread::Builder::new()
            .name("iribis-lab".into())
            .stack_size(STACK)
            .spawn_scoped(s, || {
                ON_BIG_STACK.with(|on| on.set(true));
                f()
            })
            .map_err(|e| format!("cannot start the grammar lab's thread: {e}"))?;
        handle.join().map_err(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            format!("internal error in the grammar lab (please report it): {what}")
        })
    })
}

/// Writes a count with thousands separators: `1,000`.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Checks a pest grammar's text against the limits without parsing it
/// recursively: bracket and block-comment nesting up to [`MAX_NESTING`],
/// repetition counts (`{n}`, `{m,n}`, `{,n}`, `{m,}`) up to
/// [`MAX_REPETITION`], and at most [`MAX_EXPRESSIONS`] expressions once
/// repetitions are unrolled. The scan only reads tokens: a text that is not
/// a grammar passes it and is left to pest_meta to report.
pub(crate) fn scan_pest(text: &str, origin: &str) -> Result<(), String> {
    let mut scan = PestScan::default();
    let b = text.as_bytes();
    let mut i = 0;
    let mut line = 1usize;
    let fail = |line: usize, what: String| -> Result<(), String> {
        let mut m = String::new();
        let _ = write!(m, "{origin}:{line}: {what}");
        Err(m)
    };
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                // Block comments nest in pest, and its parser recurses on them;
                // on unclosed ones it backtracks, in time exponential in how
                // many are open (30 took minutes: found by fuzzing).
                let opened = line;
                let mut depth = 0usize;
                while i < b.len() {
                    if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                        depth += 1;
                        if depth > MAX_NESTING {
                            return fail(line, nesting_message());
                        }
                        i += 2;
                    } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        line += usize::from(b[i] == b'\n');
                        i += 1;
                    }
                }
                if depth > 0 {
                    return fail(opened, "a block comment /* is not closed with */".into());
                }
            }
            b'"' | b'\'' => {
                // A string or a character, with backslash escapes.
                i += 1;
                while i < b.len() && b[i] != c {
                    line += usize::from(b[i] == b'\n');
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                scan.atom();
            }
            b'(' | b'[' => {
                scan.open();
                if scan.groups.len() > MAX_NESTING {
                    return fail(line, nesting_message());
                }
                i += 1;
            }
            b')' | b']' => {
                scan.close();
                i += 1;
            }
            b'{' => {
                let body = matches!(scan.prev, b'=' | b'_' | b'@' | b'$' | b'!');
                i += 1;
                if body {
                    scan.end_rule();
                } else {
                    // A repetition: numbers, commas and spaces up to `}`.
                    let start = i;
                    while i < b.len() && (b[i].is_ascii_digit() || b" ,\t\r\n".contains(&b[i])) {
                        i += 1;
                    }
                    let counts = &text[start..i];
                    if b.get(i) == Some(&b'}') {
                        i += 1;
                    }
                    let mut most = 0u64;
                    let mut parts = counts.split(',');
                    let first = parts.next().unwrap_or("").trim();
                    let second = parts.next().map(str::trim);
                    for n in [Some(first), second].into_iter().flatten() {
                        if n.is_empty() {
                            continue;
                        }
                        let v = n.parse::<u64>().unwrap_or(u64::MAX);
                        if v > MAX_REPETITION as u64 {
                            return fail(line, repetition_message(n));
                        }
                        most = most.max(v);
                    }
                    // `{m,}` unrolls to m copies and a repetition.
                    if second == Some("") {
                        most += 1;
                    }
                    line += counts.matches('\n').count();
                    scan.repeat(most);
                }
            }
            b'}' => {
                scan.end_rule();
                i += 1;
            }
            b'?' | b'*' => {
                scan.postfix(1);
                i += 1;
            }
            b'+' => {
                // `e+` unrolls to `e ~ e*`.
                scan.repeat(2);
                i += 1;
            }
            b'!' | b'&' => {
                scan.cur = scan.cur.saturating_add(1);
                i += 1;
            }
            _ if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                if &text[start..i] != "_" {
                    scan.atom();
                }
                scan.prev = b'a';
                if scan.total() > MAX_EXPRESSIONS {
                    return Err(size_message(origin));
                }
                continue;
            }
            _ => i += 1,
        }
        if !c.is_ascii_whitespace() {
            scan.prev = c;
        }
        if scan.total() > MAX_EXPRESSIONS {
            return Err(size_message(origin));
        }
    }
    Ok(())
}

fn nesting_message() -> String {
    format!(
        "grammar nesting deeper than {} levels",
        thousands(MAX_NESTING as u64)
    )
}

fn repetition_message(count: &str) -> String {
    let count = count.trim_start_matches('0');
    let count = if count.is_empty() { "0" } else { count };
    format!("repetition count {count} is larger than {MAX_REPETITION}")
}

fn size_message(origin: &str) -> String {
    format!(
        "{origin}: the grammar is larger than {} expressions once its repetitions are unrolled (pest writes e{{n}} as n copies of e)",
        thousands(MAX_EXPRESSIONS)
    )
}

/// The running counts of [`scan_pest`].
#[derive(Default)]
struct PestScan {
    /// Expressions of the rules already closed.
    done: u64,
    /// Expressions of the current group (or rule body, at the outer level).
    cur: u64,
    /// Expressions of the last term, which a postfix operator applies to.
    last: u64,
    /// The enclosing groups' counts.
    groups: Vec<u64>,
    /// The last significant byte (`a` for a word).
    prev: u8,
}

impl PestScan {
    fn total(&self) -> u64 {
        self.groups
            .iter()
            .fold(self.done.saturating_add(self.cur), |a, &g| {
                a.saturating_add(g)
            })
    }
    fn atom(&mut self) {
        self.cur = self.cur.saturating_add(1);
        self.last = 1;
    }
    fn open(&mut self) {
        self.groups.push(self.cur);
        self.cur = 0;
    }
    fn close(&mut self) {
        let inner = self.cur;
        self.cur = self.groups.pop().unwrap_or(0).saturating_add(inner);
        self.last = inner;
    }
    fn postfix(&mut self, n: u64) {
        self.cur = self.cur.saturating_add(n);
        self.last = self.last.saturating_add(n);
    }
    /// The last term unrolled into `k` copies.
    fn repeat(&mut self, k: u64) {
        let extra = self
            .last
            .saturating_mul(k.saturating_sub(1))
            .saturating_add(1);
        self.cur = self.cur.saturating_add(extra);
        self.last = self.last.saturating_mul(k).saturating_add(1);
    }
    fn end_rule(&mut self) {
        let open = std::mem::take(&mut self.groups);
        self.done = open
            .into_iter()
            .fold(self.done.saturating_add(self.cur), u64::saturating_add);
        self.cur = 0;
        self.last = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_found_before_parsing() {
        let deep = format!("a = {{ {}\"x\"{} }}", "(".repeat(1001), ")".repeat(1001));
        let e = scan_pest(&deep, "t.pest").unwrap_err();
        assert_eq!(e, "t.pest:1: grammar nesting deeper than 1,000 levels");
        let ok = format!("a = {{ {}\"x\"{} }}", "(".repeat(1000), ")".repeat(1000));
        scan_pest(&ok, "t.pest").unwrap();
        let e = scan_pest("a = { \"x\" }\nb = { \"x\"{30000} }", "t.pest").unwrap_err();
        assert_eq!(e, "t.pest:2: repetition count 30000 is larger than 10000");
        let e = scan_pest("b = { \"x\"{1, 99999999999999999999999} }", "t.pest").unwrap_err();
        assert!(
            e.ends_with("repetition count 99999999999999999999999 is larger than 10000"),
            "{e}"
        );
        // Nested repetitions multiply.
        let e = scan_pest("b = { ((\"x\"{1000}){1000}){10} }", "t.pest").unwrap_err();
        assert!(e.contains("larger than 1,000,000 expressions"), "{e}");
        scan_pest("b = { (\"x\"{1000}){990} }", "t.pest").unwrap();
        // Strings, characters and comments hide their brackets.
        scan_pest(
            &format!(
                "a = {{ \"{}\" | '(' }} // {}\n/* /* {} */ */",
                "(".repeat(2000),
                "(".repeat(2000),
                "{99999}"
            ),
            "t.pest",
        )
        .unwrap();
        let nested = format!("{}{}", "/*".repeat(1001), "*/".repeat(1001));
        assert!(scan_pest(&nested, "t.pest").is_err());
        let e = scan_pest("a = { \"x\" }\n/* /* */ b = { \"y\" }", "t.pest").unwrap_err();
        assert_eq!(e, "t.pest:2: a block comment /* is not closed with */");
    }

    #[test]
    fn counts_are_written_with_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_000_000), "1,000,000");
    }
}
