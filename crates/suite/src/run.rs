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
use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use iribis::Profile;

use super::case::{Answer, Case, Op, Verdict, judge};

/// What the reader thread hands over: a line, or the end of the output.
enum Line {
    Text(String),
    End,
}

/// A running adapter: the command under test, one request per line in,
/// one answer per line out.
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
    to_child: Option<Sender<String>>,
    lines: Receiver<Line>,
    stderr: Arc<Mutex<VecDeque<String>>>,
}

/// How many lines of an adapter's standard error are kept, for the report
/// of a crash.
const STDERR_LINES: usize = 8;

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
        std::thread::spawn(move || {
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
        });
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(Line::End);
                        break;
                    }
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&buf)
                            .trim_end_matches(['\n', '\r'])
                            .to_owned();
                        if tx.send(Line::Text(text)).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let kept = Arc::new(Mutex::new(VecDeque::new()));
        let keep = Arc::clone(&kept);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if let Ok(mut k) = keep.lock() {
                    if k.len() == STDERR_LINES {
                        k.pop_front();
                    }
                    k.push_back(line);
                }
            }
        });
        Ok(Adapter {
            command: command.to_owned(),
            child,
            to_child: Some(to_child),
            lines,
            stderr: kept,
        })
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
    /// closed its output (it exited), `Err(())` when none came in time.
    #[allow(clippy::result_unit_err)]
    pub fn receive(&mut self, timeout: Duration) -> Result<Option<String>, ()> {
        match self.lines.recv_timeout(timeout) {
            Ok(Line::Text(t)) => Ok(Some(t)),
            Ok(Line::End) | Err(RecvTimeoutError::Disconnected) => Ok(None),
            Err(RecvTimeoutError::Timeout) => Err(()),
        }
    }

    /// How the adapter ended, and the last lines of its standard error
    /// (after `receive` gave `Ok(None)`).
    fn exit_report(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(500);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(s)) => break Some(s),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10))
                }
                _ => break None,
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

    /// Stops the adapter (closing its input first, so that a well-behaved
    /// one ends by itself).
    pub fn stop(&mut self) {
        self.to_child = None;
        let deadline = Instant::now() + Duration::from_millis(200);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
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
}

impl Failure {
    /// The case's JSON with `got` and `why` added.
    pub fn to_json(&self) -> Value {
        let mut v = self.case.to_json();
        if let Some(m) = v.as_object_mut() {
            m.insert("got".into(), self.got.clone());
            m.insert("why".into(), Value::from(self.why.as_str()));
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
    /// The failures grouped by the rule their case exercises
    /// ([`Case::group`]), most failures first: the group, its number of
    /// failures, and its shortest failing case.
    pub fn by_rule(&self) -> Vec<(String, usize, &Failure)> {
        let mut groups: BTreeMap<&str, (usize, &Failure)> = BTreeMap::new();
        for f in &self.failures {
            let e = groups.entry(f.case.group()).or_insert((0, f));
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
    /// "failures": [CASE + "got" + "why"], "restarts"}`.
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

    fn record(&mut self, case: &Case, verdict: Verdict, got: Value) {
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
                got,
                why,
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
        let wait = (last + options.timeout).saturating_duration_since(Instant::now());
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
                        report.record(case, verdict, answer.to_json());
                        continue;
                    }
                    Ok((id, _)) => Some(format!(
                        "malformed answer: the answer names case {id:?} where {:?} was due (answers must come in order)",
                        case.id
                    )),
                    Err(e) => {
                        idle_restarts = 0;
                        let why = format!("malformed answer: {e}: {}", clip(&line));
                        report.record(case, Verdict::Fail(why), Value::Null);
                        continue;
                    }
                }
            }
            Ok(None) => {
                pending.pop_front();
                done += 1;
                Some(adapter.exit_report())
            }
            Err(()) => {
                pending.pop_front();
                done += 1;
                Some(format!(
                    "no answer within {} s",
                    options.timeout.as_secs_f64()
                ))
            }
        };
        let Some(why) = trouble else { continue };
        report.record(case, Verdict::Fail(why.clone()), Value::Null);
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
