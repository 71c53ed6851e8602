//! Shared by the command's tests: running `iri` (within a memory budget
//! when asked) and the workspace's shared helpers ([`iribis_testkit`]).
#![allow(dead_code)]

pub use iribis_testkit::*;

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
