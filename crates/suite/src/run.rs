//! The runner: an adapter process fed the cases of a suite, its answers
//! judged, and the report.
//!
//! The adapter is a child process (run by the shell, so a command line
//! with arguments works). Requests go to its standard input from a thread
//! of their own, so a stuck adapter can never block the runner; answers
//! come back line by line through another thread. A few requests are in
//! flight at once. Each answer must come within the timeout of the one
//! before it (or of the request, for the first); an adapter that falls
//! silent, exits, or answers out of order has failed that case and is
//! started again for the rest.

use std::collections::{BTreeMap, VecDeque};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use iribis::Profile;

use super::case::{Answer, Case, Op, Verdict, judge};
use super::generate::Groups;

/// The longest answer line the runner reads, in bytes (1 MiB): a longer
/// one fails its case (the rest of it is read and dropped), so that an
/// adapter cannot make the runner hold a line of any length.
pub const MAX_ANSWER_LINE: usize = 1 << 20;

/// How many lines of an adapter's standard error are kept, for the report
/// of a crash.
const STDERR_LINES: usize = 8;

/// How many bytes of each line of an adapter's standard error are kept;
/// the rest of a longer line is read and dropped (and counted).
const STDERR_LINE_BYTES: usize = 512;

/// How many answer lines may wait, read, for the runner to take them: past
/// that the reader stops reading, and the adapter blocks on its output.
const QUEUED_LINES: usize = 256;

/// What the reader thread hands over: a line, a line too long to keep, or
/// the end of the output.
enum Line {
    Text(String),
    TooLong,
    End,
}

/// Why [`Adapter::receive`] has no answer line while the adapter runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NoAnswer {
    /// No line came within the time given.
    Timeout,
    /// The line is longer than [`MAX_ANSWER_LINE`] bytes: it is dropped
    /// (the reader skips to its end), and the next line is the next
    /// answer.
    TooLong,
}

/// A running adapter: the command under test, one request per line in,
/// one answer per line out.
///
/// On Unix the command runs in a process group of its own, and stopping
/// the adapter ends the whole group: the processes the adapter started
/// end with it.
///
/// ```no_run
/// use std::time::Duration;
/// use iribis_suite::Adapter;
///
/// let mut a = Adapter::start("iri suite adapter")?;
/// a.send(r#"{"id":"1","op":"valid","profile":"rfc3986","rule":"URI","input":"a:b","base":null}"#)?;
/// assert_eq!(a.receive(Duration::from_secs(10)).unwrap().unwrap(), r#"{"id":"1","valid":true}"#);
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct Adapter {
    command: String,
    child: Child,
    /// Whether the adapter's process group has been ended (after which its
    /// id may be another group's).
    ended: bool,
    to_child: Option<Sender<String>>,
    lines: Receiver<Line>,
    stderr: Arc<Mutex<VecDeque<String>>>,
}

/// Reads the adapter's answers line by line into `tx`, each line at most
/// [`MAX_ANSWER_LINE`] bytes: past that, [`Line::TooLong`] is sent at once
/// and the rest of the line is read and dropped.
fn read_answers(stdout: impl Read, tx: SyncSender<Line>) {
    let mut reader = BufReader::with_capacity(1 << 16, stdout);
    let mut line: Vec<u8> = Vec::new();
    let mut skipping = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok(c) => c,
        };
        let (part, used, ends) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        if !skipping {
            if line.len() + part.len() > MAX_ANSWER_LINE {
                skipping = true;
                line = Vec::new();
                if tx.send(Line::TooLong).is_err() {
                    return;
                }
            } else {
                line.extend_from_slice(part);
            }
        }
        reader.consume(used);
        if ends {
            if !skipping && tx.send(Line::Text(text_of(&line))).is_err() {
                return;
            }
            skipping = false;
            line.clear();
        }
    }
    // A last line without its line break.
    if !skipping && !line.is_empty() {
        let _ = tx.send(Line::Text(text_of(&line)));
    }
    let _ = tx.send(Line::End);
}

/// A line as text, without its carriage return.
fn text_of(line: &[u8]) -> String {
    String::from_utf8_lossy(line)
        .trim_end_matches(['\n', '\r'])
        .to_owned()
}

/// Reads the adapter's standard error to its end (so that the adapter
/// never blocks on it), keeping the last [`STDERR_LINES`] lines, each cut
/// to [`STDERR_LINE_BYTES`] bytes.
fn read_stderr(stderr: impl Read, keep: &Mutex<VecDeque<String>>) {
    let mut reader = BufReader::with_capacity(1 << 16, stderr);
    let mut line: Vec<u8> = Vec::new();
    let mut dropped = 0usize;
    let push = |line: &mut Vec<u8>, dropped: &mut usize| {
        let mut text = text_of(line);
        if *dropped > 0 {
            text.push_str(&format!("… ({} more bytes)", *dropped));
        }
        if let Ok(mut k) = keep.lock() {
            if k.len() == STDERR_LINES {
                k.pop_front();
            }
            k.push_back(text);
        }
        line.clear();
        *dropped = 0;
    };
    loop {
        let chunk = match reader.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok(c) => c,
        };
        let (part, used, ends) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        let room = STDERR_LINE_BYTES.saturating_sub(line.len()).min(part.len());
        line.extend_from_slice(&part[..room]);
        dropped = dropped.saturating_add(part.len() - room);
        reader.consume(used);
        if ends {
            push(&mut line, &mut dropped);
        }
    }
    if !line.is_empty() || dropped > 0 {
        push(&mut line, &mut dropped);
    }
}

/// The stack of the threads that move an adapter's lines: they call
/// nothing deep.
const IO_THREAD_STACK: usize = 256 * 1024;

/// Starts a thread that moves an adapter's lines; an error (no memory for
/// its stack, too many threads) instead of a panic when it cannot start.
fn io_thread(name: &str, f: impl FnOnce() + Send + 'static) -> io::Result<()> {
    std::thread::Builder::new()
        .name(name.to_owned())
        .stack_size(IO_THREAD_STACK)
        .spawn(f)
        .map(drop)
}

impl Adapter {
    /// Starts `command` with the shell (`sh -c`; `cmd /C` on Windows).
    pub fn start(command: &str) -> io::Result<Adapter> {
        let mut cmd = if cfg!(windows) {
            let mut c = Command::new("cmd");
            c.args(["/C", command]);
            c
        } else {
            let mut c = Command::new("sh");
            c.args(["-c", command]);
            c
        };
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // A group of its own, whose id is the shell's process id.
            cmd.process_group(0);
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let stdin: ChildStdin = child
            .stdin
            .take()
            .ok_or_else(|| io::Error::other("no stdin"))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| io::Error::other("no stdout"))?;
        let stderr = child
            .stderr
            .take()
            .ok_or_else(|| io::Error::other("no stderr"))?;
        let (to_child, requests) = mpsc::channel::<String>();
        let (tx, lines) = mpsc::sync_channel(QUEUED_LINES);
        let kept = Arc::new(Mutex::new(VecDeque::new()));
        let keep = Arc::clone(&kept);
        let threads = io_thread("adapter stdin", move || {
            let mut stdin = io::BufWriter::new(stdin);
            while let Ok(line) = requests.recv() {
                let mut batch = line;
                batch.push('\n');
                // Whatever else is queued goes in the same write.
                while let Ok(more) = requests.try_recv() {
                    batch.push_str(&more);
                    batch.push('\n');
                }
                if stdin
                    .write_all(batch.as_bytes())
                    .and_then(|()| stdin.flush())
                    .is_err()
                {
                    break;
                }
            }
        })
        .and_then(|()| {
            io_thread("adapter stdout", move || read_answers(stdout, tx))?;
            io_thread("adapter stderr", move || read_stderr(stderr, &keep))
        });
        let adapter = Adapter {
            command: command.to_owned(),
            child,
            ended: false,
            to_child: Some(to_child),
            lines,
            stderr: kept,
        };
        // Without its threads, the adapter is stopped as it is dropped.
        threads.map(|()| adapter)
    }

    /// Sends one request line (without its line break).
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        match &self.to_child {
            Some(tx) => tx.send(line.to_owned()).map_err(|_| {
                io::Error::new(io::ErrorKind::BrokenPipe, "the adapter stopped reading")
            }),
            None => Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "the adapter is closed",
            )),
        }
    }

    /// The next answer line: `Ok(Some(line))`, `Ok(None)` when the adapter
    /// closed its output (it exited), `Err(NoAnswer::Timeout)` when none
    /// came in time, `Err(NoAnswer::TooLong)` for a line longer than
    /// [`MAX_ANSWER_LINE`] bytes.
    pub fn receive(&mut self, timeout: Duration) -> Result<Option<String>, NoAnswer> {
        match self.lines.recv_timeout(timeout) {
            Ok(Line::Text(t)) => Ok(Some(t)),
            Ok(Line::TooLong) => Err(NoAnswer::TooLong),
            Ok(Line::End) | Err(RecvTimeoutError::Disconnected) => Ok(None),
            Err(RecvTimeoutError::Timeout) => Err(NoAnswer::Timeout),
        }
    }

    /// How the adapter ended, if it did; what it left running in its group
    /// is ended with it.
    fn exited(&mut self) -> Option<ExitStatus> {
        let status = self.child.try_wait().ok().flatten()?;
        self.end_group();
        Some(status)
    }

    /// Ends the adapter's process group with SIGKILL, once (on Unix; a
    /// group that is already empty has nothing to end).
    fn end_group(&mut self) {
        if self.ended {
            return;
        }
        self.ended = true;
        #[cfg(unix)]
        {
            use rustix::process::{Pid, Signal, kill_process_group};
            let _ = kill_process_group(Pid::from_child(&self.child), Signal::KILL);
        }
    }

    /// How the adapter ended, and the last lines of its standard error
    /// (after `receive` gave `Ok(None)`).
    fn exit_report(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(500);
        let status = loop {
            match self.exited() {
                Some(s) => break Some(s),
                None if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
                None => break None,
            }
        };
        let mut out = match status {
            Some(s) => format!("the adapter exited ({s})"),
            None => "the adapter closed its output".to_owned(),
        };
        let tail: Vec<String> = self
            .stderr
            .lock()
            .map(|k| k.iter().cloned().collect())
            .unwrap_or_default();
        if !tail.is_empty() {
            out.push_str(": ");
            out.push_str(&tail.join(" | "));
        }
        out
    }

    /// Stops the adapter: closes its input, so that a well-behaved one
    /// ends by itself, then ends it and every process left in its process
    /// group.
    pub fn stop(&mut self) {
        self.to_child = None;
        let deadline = Instant::now() + Duration::from_millis(200);
        while Instant::now() < deadline {
            if self.exited().is_some() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.end_group();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The command the adapter was started with.
    pub fn command(&self) -> &str {
        &self.command
    }
}

impl Drop for Adapter {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Options of [`run`].
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// How long an answer may take, from the request or the answer before.
    pub timeout: Duration,
    /// Compare the position of the first wrong character, when the adapter
    /// gives one.
    pub positions: bool,
    /// How many requests are in flight at once.
    pub window: usize,
    /// The name of the implementation in the report (the command, if not
    /// given).
    pub name: Option<String>,
    /// Shrink the shortest failing `valid` or `components` case of each
    /// rule against the adapter ([`super::minimize`]), and name the rule
    /// the minimal input breaks ([`Report::minimal`]).
    pub shrink: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            timeout: Duration::from_secs(10),
            positions: false,
            window: 64,
            name: None,
            shrink: false,
        }
    }
}

/// Passed, failed and unsupported cases.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Cases run.
    pub total: usize,
    /// Cases answered as expected.
    pub passed: usize,
    /// Cases answered otherwise (or not at all).
    pub failed: usize,
    /// Cases the adapter does not support.
    pub unsupported: usize,
}

impl Tally {
    fn add(&mut self, v: &Verdict) {
        self.total += 1;
        match v {
            Verdict::Pass => self.passed += 1,
            Verdict::Fail(_) => self.failed += 1,
            Verdict::Unsupported => self.unsupported += 1,
        }
    }

    fn to_json(self) -> Value {
        json!({"total": self.total, "passed": self.passed, "failed": self.failed, "unsupported": self.unsupported})
    }
}

/// A case that failed: the case, what came back, and why it is wrong.
#[derive(Clone, Debug)]
pub struct Failure {
    /// The case.
    pub case: Case,
    /// The answer (without its id), or `null` when none came.
    pub got: Value,
    /// Why it fails, in a few words.
    pub why: String,
    /// The rule the failure is grouped under in [`Report::by_rule`]: the
    /// rule the case is about (`exercises`) when its input is built around
    /// one character or shrunk, else, for a `valid` case of a whole
    /// reference that goes wrong at a position, the innermost rule at that
    /// position, else the rule the case names (else its operation).
    pub group: String,
}

impl Failure {
    /// The case's JSON with `got`, `why` and `group` added.
    pub fn to_json(&self) -> Value {
        let mut v = self.case.to_json();
        if let Some(m) = v.as_object_mut() {
            m.insert("got".into(), self.got.clone());
            m.insert("why".into(), Value::from(self.why.as_str()));
            m.insert("group".into(), Value::from(self.group.as_str()));
        }
        v
    }

    /// The size of the case, to find the shortest of a group.
    fn size(&self) -> (usize, usize) {
        let n = self.case.input.chars().count()
            + self.case.base.as_deref().map_or(0, |b| b.chars().count());
        (n, self.case.id.len())
    }
}

/// The outcome of a run.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The implementation's name.
    pub implementation: String,
    /// All cases.
    pub tally: Tally,
    /// Per operation.
    pub by_op: BTreeMap<Op, Tally>,
    /// Per profile.
    pub by_profile: BTreeMap<&'static str, Tally>,
    /// Per operation and profile.
    pub by_op_profile: BTreeMap<(Op, &'static str), Tally>,
    /// The failures, in the suite's order.
    pub failures: Vec<Failure>,
    /// How many times the adapter was started again after a crash, a
    /// timeout or a stream out of order.
    pub restarts: usize,
    /// With [`RunOptions::shrink`]: per group of [`Report::by_rule`], the
    /// shortest failing case shrunk to a minimal input, and the rule that
    /// input is about.
    pub minimal: BTreeMap<String, (Case, String)>,
}

impl Report {
    /// The failures grouped by rule ([`Failure::group`]), most failures
    /// first: the group, its number of failures, and its shortest failing
    /// case.
    pub fn by_rule(&self) -> Vec<(String, usize, &Failure)> {
        let mut groups: BTreeMap<&str, (usize, &Failure)> = BTreeMap::new();
        for f in &self.failures {
            let e = groups.entry(f.group.as_str()).or_insert((0, f));
            e.0 += 1;
            if f.size() < e.1.size() {
                e.1 = f;
            }
        }
        let mut v: Vec<(String, usize, &Failure)> = groups
            .into_iter()
            .map(|(g, (n, f))| (g.to_owned(), n, f))
            .collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        v
    }

    /// The report as one JSON object: `{"implementation", "total",
    /// "passed", "failed", "unsupported", "by_op", "by_profile",
    /// "by_op_and_profile", "by_rule": {RULE: {"failed", "example"}},
    /// "failures": [CASE + "got" + "why" + "group"], "restarts"}`.
    pub fn to_json(&self) -> Value {
        let mut by_op = Map::new();
        for (op, t) in &self.by_op {
            by_op.insert(op.name().into(), t.to_json());
        }
        let mut by_profile = Map::new();
        for (p, t) in &self.by_profile {
            by_profile.insert((*p).into(), t.to_json());
        }
        let mut both = Map::new();
        for ((op, p), t) in &self.by_op_profile {
            let e = both
                .entry(op.name())
                .or_insert_with(|| Value::Object(Map::new()));
            if let Some(m) = e.as_object_mut() {
                m.insert((*p).into(), t.to_json());
            }
        }
        let mut by_rule = Map::new();
        for (g, n, f) in self.by_rule() {
            let mut entry = json!({"failed": n, "example": f.to_json()});
            if let (Some((c, rule)), Some(m)) = (self.minimal.get(&g), entry.as_object_mut()) {
                let mut v = c.to_json();
                if let Some(o) = v.as_object_mut() {
                    o.insert("breaks".into(), Value::from(rule.as_str()));
                }
                m.insert("minimal".into(), v);
            }
            by_rule.insert(g, entry);
        }
        json!({
            "implementation": self.implementation,
            "total": self.tally.total,
            "passed": self.tally.passed,
            "failed": self.tally.failed,
            "unsupported": self.tally.unsupported,
            "by_op": by_op,
            "by_profile": by_profile,
            "by_op_and_profile": both,
            "by_rule": by_rule,
            "failures": self.failures.iter().map(Failure::to_json).collect::<Vec<_>>(),
            "restarts": self.restarts,
        })
    }

    fn record(
        &mut self,
        groups: &mut Groups,
        case: &Case,
        answer: Option<&Answer>,
        verdict: Verdict,
    ) {
        self.tally.add(&verdict);
        self.by_op.entry(case.op).or_default().add(&verdict);
        let p: &'static str = profile_name(case.profile);
        self.by_profile.entry(p).or_default().add(&verdict);
        self.by_op_profile
            .entry((case.op, p))
            .or_default()
            .add(&verdict);
        if let Verdict::Fail(why) = verdict {
            self.failures.push(Failure {
                case: case.clone(),
                got: answer.map_or(Value::Null, Answer::to_json),
                why,
                group: groups.of(case, answer),
            });
        }
    }
}

fn profile_name(p: Profile) -> &'static str {
    p.name()
}

/// Why a run could not go on.
#[derive(Debug)]
#[non_exhaustive]
pub enum RunError {
    /// The adapter could not be started.
    Start(io::Error),
    /// The adapter failed again and again without answering anything.
    NoAnswers(String),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Start(e) => write!(f, "the adapter could not be started: {e}"),
            RunError::NoAnswers(why) => write!(f, "the adapter answers nothing: {why}"),
        }
    }
}

impl std::error::Error for RunError {}

/// How many restarts in a row without an answer in between end the run.
const MAX_IDLE_RESTARTS: usize = 3;

/// Runs `cases` through the adapter `command` and judges its answers.
/// `progress` is called with the number of cases done so far, now and
/// then.
///
/// A case whose answer does not come in time, or is not JSON, or names
/// another case, or that the adapter exits on, fails with the reason; the
/// adapter is then started again for the cases after it (unless it fails
/// four times in a row without answering anything, which
/// ends the run with an error).
pub fn run(
    command: &str,
    cases: &[Case],
    options: &RunOptions,
    mut progress: impl FnMut(usize),
) -> Result<Report, RunError> {
    let mut report = Report {
        implementation: options.name.clone().unwrap_or_else(|| command.to_owned()),
        ..Report::default()
    };
    let mut groups = Groups::default();
    let mut adapter = Adapter::start(command).map_err(RunError::Start)?;
    let mut todo: VecDeque<usize> = (0..cases.len()).collect();
    let mut pending: VecDeque<usize> = VecDeque::new();
    let mut last = Instant::now();
    let mut idle_restarts = 0;
    let mut done = 0;
    let window = options.window.max(1);
    loop {
        while pending.len() < window {
            let Some(i) = todo.pop_front() else { break };
            if pending.is_empty() {
                last = Instant::now();
            }
            // A failed send shows up as the end of the output.
            let _ = adapter.send(&cases[i].request());
            pending.push_back(i);
        }
        let Some(&i) = pending.front() else { break };
        let case = &cases[i];
        // A timeout past the end of time waits for ever.
        let wait = last
            .checked_add(options.timeout)
            .map_or(options.timeout, |t| {
                t.saturating_duration_since(Instant::now())
            });
        let trouble = match adapter.receive(wait) {
            Ok(Some(line)) => {
                pending.pop_front();
                last = Instant::now();
                done += 1;
                if done % 1000 == 0 {
                    progress(done);
                }
                match Answer::from_line(&line) {
                    Ok((id, answer)) if id == case.id => {
                        idle_restarts = 0;
                        let verdict = judge(case, &answer, options.positions);
                        report.record(&mut groups, case, Some(&answer), verdict);
                        continue;
                    }
                    Ok((id, _)) => Some(format!(
                        "malformed answer: the answer names case {id:?} where {:?} was due (answers must come in order)",
                        case.id
                    )),
                    Err(e) => {
                        idle_restarts = 0;
                        let why = format!("malformed answer: {e}: {}", clip(&line));
                        report.record(&mut groups, case, None, Verdict::Fail(why));
                        continue;
                    }
                }
            }
            Ok(None) => {
                pending.pop_front();
                done += 1;
                Some(adapter.exit_report())
            }
            Err(NoAnswer::TooLong) => {
                // The reader skips to the end of the line: the next line
                // is the next answer.
                pending.pop_front();
                last = Instant::now();
                done += 1;
                idle_restarts = 0;
                let why = format!(
                    "malformed answer: the answer line is longer than 1 MiB ({MAX_ANSWER_LINE} bytes); the rest of it was skipped"
                );
                report.record(&mut groups, case, None, Verdict::Fail(why));
                continue;
            }
            Err(NoAnswer::Timeout) => {
                pending.pop_front();
                done += 1;
                Some(format!(
                    "no answer within {} s",
                    options.timeout.as_secs_f64()
                ))
            }
        };
        let Some(why) = trouble else { continue };
        report.record(&mut groups, case, None, Verdict::Fail(why.clone()));
        // Start again, with the requests that were in flight first.
        adapter.stop();
        while let Some(j) = pending.pop_back() {
            todo.push_front(j);
        }
        if todo.is_empty() {
            break;
        }
        idle_restarts += 1;
        if idle_restarts > MAX_IDLE_RESTARTS {
            return Err(RunError::NoAnswers(why));
        }
        report.restarts += 1;
        adapter = Adapter::start(command).map_err(RunError::Start)?;
        last = Instant::now();
    }
    adapter.stop();
    progress(done);
    if options.shrink {
        let groups: Vec<(String, Case)> = report
            .by_rule()
            .into_iter()
            .map(|(g, _, f)| (g, f.case.clone()))
            .collect();
        for (g, case) in groups {
            if let Some(m) = super::minimize(command, &case, options.timeout) {
                report.minimal.insert(g, m);
            }
        }
    }
    Ok(report)
}

/// A line cut to a length that reads in a report.
fn clip(line: &str) -> String {
    let mut s: String = line.chars().take(120).collect();
    if s.len() < line.len() {
        s.push('…');
    }
    s
}
