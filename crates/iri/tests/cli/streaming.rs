//! Streaming: a command fed one line at a time through a pipe answers each
//! line before the next is written (`tail -f log | iri check`). The test
//! reads each answer before it writes the next line; if an answer were held
//! back it would wait forever, so every read has a generous deadline after
//! which the child is killed and the test fails (a hang guard, not a
//! timing assertion).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::Duration;

/// Far more than any answer takes: only a held-back answer reaches it.
const DEADLINE: Duration = Duration::from_secs(60);

struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    what: String,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        Session::spawn(Command::new(env!("CARGO_BIN_EXE_iri")).args(args), args)
    }

    /// As `start`, with the command held to one core (`taskset`), where
    /// `iri check` answers line by line instead of in batches.
    #[cfg(target_os = "linux")]
    fn start_on_one_core(args: &[&str]) -> Session {
        let mut command = Command::new("taskset");
        command
            .args(["-c", "0", env!("CARGO_BIN_EXE_iri")])
            .args(args);
        Session::spawn(&mut command, args)
    }

    fn spawn(command: &mut Command, args: &[&str]) -> Session {
        let mut child = command
            .env_remove("CLICOLOR_FORCE")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (send, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in stdout.lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            lines,
            what: args.join(" "),
        }
    }

    /// Writes one line and returns the next `n` lines of output.
    fn ask(&mut self, line: &str, n: usize) -> Vec<String> {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
        (0..n)
            .map(|_| match self.lines.recv_timeout(DEADLINE) {
                Ok(l) => l,
                Err(_) => {
                    let _ = self.child.kill();
                    panic!("{}: no answer to {line:?}: held back", self.what);
                }
            })
            .collect()
    }

    fn finish(mut self) -> i32 {
        drop(self.stdin);
        let status = self.child.wait().unwrap();
        status.code().unwrap_or(-1)
    }
}

#[test]
fn json_answers_stream() {
    for args in [
        &["parse", "--json"][..],
        &["check", "--json"],
        &["to-uri", "--json"],
        &["to-iri", "--json"],
        &["normalize", "--json"],
        &["resolve", "--base", "http://b/", "--json"],
    ] {
        let mut s = Session::start(args);
        for (i, input) in ["http://a/%7e", "http://[x", "http://c/d"]
            .iter()
            .enumerate()
        {
            let answer = s.ask(input, 1);
            let v: serde_json::Value = serde_json::from_str(&answer[0]).unwrap();
            assert_eq!(v["line"], i + 1, "{args:?}: {v}");
        }
        assert_eq!(s.finish(), 1, "{args:?}");
    }
}

/// `iri check` on one core takes another path (no batches) that must
/// stream too.
#[cfg(target_os = "linux")]
#[test]
fn check_streams_on_one_core() {
    for args in [&["check", "--json"][..], &["check"]] {
        let mut s = Session::start_on_one_core(args);
        for input in ["http://a/%7e", "http://[x", "http://c/d"] {
            // A JSON line, or the human report's first line.
            assert!(!s.ask(input, 1)[0].is_empty(), "{args:?}");
        }
        assert_eq!(s.finish(), 1, "{args:?}");
    }
}

#[test]
fn plain_transforms_stream_one_line_each() {
    for (args, outputs) in [
        (&["to-uri"][..], ["http://a/%7e", "", "http://c/d"]),
        (&["normalize"], ["http://a/~", "", "http://c/d"]),
        (
            &["resolve", "--base", "http://b/"],
            ["http://a/%7e", "", "http://c/d"],
        ),
    ] {
        let mut s = Session::start(args);
        for (input, output) in ["http://a/%7e", "http://[x", "http://c/d"]
            .iter()
            .zip(outputs)
        {
            assert_eq!(s.ask(input, 1), [output], "{args:?}");
        }
        assert_eq!(s.finish(), 1, "{args:?}");
    }
}

#[test]
fn check_human_streams_and_only_invalid() {
    let mut s = Session::start(&["check"]);
    // Each line numbered, as `grep -n` does.
    assert_eq!(s.ask("http://a/", 2), ["1: http://a/: valid", ""]);
    let answer = s.ask("http://[x", 6);
    assert_eq!(answer[0], "2: http://[x: invalid");
    assert!(answer[1].starts_with("error[SYNTAX_ERROR]"), "{answer:?}");
    assert_eq!(s.finish(), 1);
    // With --only-invalid a valid line has no answer: the invalid line
    // after it is the next output.
    let mut s = Session::start(&["check", "--only-invalid"]);
    assert!(s.ask("http://a/", 0).is_empty());
    assert_eq!(s.ask("http://[x", 1), ["2: http://[x: invalid"]);
    assert_eq!(s.finish(), 1);
}

#[test]
fn documents_stream() {
    // `tail -f log.nt | iri check --from ntriples`: each line's IRIs at once.
    let mut s = Session::start(&["check", "--json", "--from", "ntriples", "-"]);
    let answer = s.ask(
        "<http://a.example/s> <http://a.example/p> <http://a.example/o> .",
        3,
    );
    let v: serde_json::Value = serde_json::from_str(&answer[2]).unwrap();
    assert_eq!(
        (v["line"].as_u64(), v["column"].as_u64()),
        (Some(1), Some(44))
    );
    let answer = s.ask(
        "<http://a.example/s> <http://a.example/p> <http://a b> .",
        3,
    );
    let v: serde_json::Value = serde_json::from_str(&answer[2]).unwrap();
    assert_eq!(v["valid"], false);
    assert_eq!(s.finish(), 1);
    // Turtle, with a prefix declared on the line before.
    let mut s = Session::start(&["check", "--json", "--from", "turtle", "-"]);
    s.ask("@prefix ex: <http://a.example/> .", 1);
    let answer = s.ask("ex:s ex:p ex:o .", 3);
    let v: serde_json::Value = serde_json::from_str(&answer[2]).unwrap();
    assert_eq!(v["resolved"], "http://a.example/o");
    assert_eq!(s.finish(), 0);
}
