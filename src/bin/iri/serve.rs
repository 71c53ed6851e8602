//! `iri grammar serve`: the grammar lab's playground, a page served on
//! 127.0.0.1 where one edits a pest grammar beside the built-in one and sees
//! the parse tree, the components, the error explanation, the check against
//! the ABNF and the corpus diff of what one types, through the same lab
//! functions as the `iri grammar` commands.
//!
//! The server answers only on the loopback interface, and only requests
//! that name a loopback host (`Host`, and `Origin` when present), so that a
//! web page elsewhere cannot reach it through DNS rebinding. The HTTP side
//! ([`http`]) reads each request with a timeout and within limits on its
//! head, its body and the connections; the endpoints here bound the input,
//! the checks and diffs running, the grammars loading and (through pest's
//! call limit) the work of every parse. Every answer of the API is JSON,
//! errors included: `{"error": {"kind", "message"}}`.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::net::TcpListener;
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use iribis::abnf::Grammar;
use iribis::lab::{self, CheckReport, PestGrammar, Scan, Side, Status};
use iribis::Profile;
use serde_json::{json, Map, Value};

use crate::Outcome;

mod http;

use http::{Api, ApiError, Call, Page, Site};

/// The default port: the RFC's number.
pub(crate) const DEFAULT_PORT: u16 = 3987;

/// The longest input parsed, in bytes.
const MAX_INPUT: usize = 16 * 1024;

/// pest calls allowed per parse (pest's process-wide call limit, which this
/// process alone uses; a whole number of millions, as its message says): a
/// grammar that would backtrack exponentially on an input is stopped, and
/// reported as having given up, after about a second.
const CALL_LIMIT: usize = 5_000_000;

/// Parsed grammars kept, by text: the page sends the grammar with every
/// keystroke in the input.
const CACHED_GRAMMARS: usize = 4;

/// How many test strings a check row shows where pest and the ABNF
/// disagree.
const COUNTEREXAMPLES: usize = 5;

/// How many inputs the diff shows per kind of difference.
const DIFF_EXAMPLES: usize = 5;

/// How long a request waits for its grammar to load.
const LOAD_TIMEOUT: Duration = Duration::from_secs(20);

/// Grammars loading at once (some may have run over [`LOAD_TIMEOUT`]).
const MAX_LOADS: usize = 2;

/// What the grammar is called in its error messages and explanations.
const ORIGIN: &str = "playground.pest";

#[derive(clap::Args)]
pub(crate) struct ServeArgs {
    /// The port on 127.0.0.1 (0: any free port). The URL is printed on
    /// standard output.
    #[arg(long, default_value_t = DEFAULT_PORT)]
    port: u16,
    /// Seconds a client has to send its whole request (head and body), and
    /// then to read the answer (default 10); a connection that runs over is
    /// answered 408 and closed.
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    timeout: Option<Duration>,
}

/// `--timeout`: seconds, more than 0 and at most an hour.
fn parse_timeout(s: &str) -> Result<Duration, String> {
    match s.parse::<f64>() {
        Ok(t) if t > 0.0 && t <= 3600.0 => Ok(Duration::from_secs_f64(t)),
        _ => Err(format!(
            "{s:?} is not a number of seconds above 0 and at most 3600"
        )),
    }
}

/// The page, embedded.
const PAGES: &[Page] = &[
    Page {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: include_str!("playground/index.html"),
    },
    Page {
        path: "/app.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("playground/app.js"),
    },
    Page {
        path: "/style.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("playground/style.css"),
    },
];

/// The keys of a request body that the endpoints read.
const FIELDS: &[&str] = &["grammar", "profile", "rule", "input", "extra_abnf", "trees"];

/// What the request threads share.
struct State {
    /// Grammars being loaded.
    loading: AtomicUsize,
    /// Held while a check or a diff runs: one at a time.
    heavy: Mutex<()>,
    grammars: Mutex<VecDeque<(String, Arc<PestGrammar>)>>,
    /// The built-in grammars loaded so far.
    builtins: Mutex<Vec<(Profile, Arc<PestGrammar>)>>,
    /// The last check's request and answer.
    last_check: Mutex<Option<(Value, Value)>>,
}

/// The playground's endpoints over the lab.
struct Lab(Arc<State>);

impl Api for Lab {
    fn call(&self, call: Call<'_>) -> Result<Value, ApiError> {
        match call {
            Call::Grammar { query } => builtin(&self.0, query),
            Call::Parse(body) => parse(&self.0, body),
            Call::Check(body) => check(&self.0, body),
            Call::Diff(body) => diff(&self.0, body),
        }
    }
}

/// `iri grammar serve`: serves until interrupted.
pub(crate) fn serve(args: &ServeArgs) -> io::Result<Outcome> {
    pest::set_call_limit(NonZeroUsize::new(CALL_LIMIT));
    let listener = TcpListener::bind(("127.0.0.1", args.port)).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("cannot listen on 127.0.0.1:{}: {e}", args.port),
        )
    })?;
    let port = listener.local_addr()?.port();
    {
        let mut out = io::stdout().lock();
        writeln!(out, "http://127.0.0.1:{port}/")?;
        out.flush()?;
    }
    eprintln!("iri: the grammar playground is at http://127.0.0.1:{port}/ (loopback only; Ctrl-C to stop)");
    let state = Arc::new(State {
        loading: AtomicUsize::new(0),
        heavy: Mutex::new(()),
        grammars: Mutex::new(VecDeque::new()),
        builtins: Mutex::new(Vec::new()),
        last_check: Mutex::new(None),
    });
    let site = Site::new(
        port,
        PAGES,
        FIELDS,
        Box::new(Lab(state)),
        args.timeout.unwrap_or(http::DEFAULT_TIMEOUT),
    );
    http::run(listener, Arc::new(site));
    Ok(Outcome::AllValid)
}

/// A string field: `default` when absent or null, an error when of another
/// type.
fn field<'b>(
    body: &'b Map<String, Value>,
    key: &str,
    default: Option<&'b str>,
) -> Result<Option<&'b str>, ApiError> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(ApiError::new(
            400,
            "bad-request",
            format!("{key:?} must be a string"),
        )),
    }
}

fn profile_of(name: Option<&str>) -> Result<Profile, ApiError> {
    match name {
        None => Ok(Profile::Rfc3987bis),
        Some(n) => n.parse().map_err(|_| {
            ApiError::new(
                400,
                "bad-request",
                format!("unknown profile {n:?}: rfc3987bis, rfc3987, rfc3986 or leiri"),
            )
        }),
    }
}

/// `GET /api/grammar?profile=P`: the built-in grammar's text and rules.
fn builtin(state: &State, query: &str) -> Result<Value, ApiError> {
    let profile = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("profile="))
        .map(|p| profile_of(Some(p)))
        .transpose()?
        .unwrap_or(Profile::Rfc3987bis);
    let g = builtin_grammar(state, profile);
    Ok(json!({
        "profile": profile.name(),
        "text": PestGrammar::builtin_source(profile),
        "rules": rule_list(&g),
    }))
}

fn rule_list(g: &PestGrammar) -> Vec<&str> {
    g.rule_names().map(lab::spelling).collect()
}

/// The grammar of a request: its `"grammar"` text (parsed, or taken from
/// the cache), or the profile's built-in one when absent; and its name in
/// reports.
fn grammar_of(
    state: &Arc<State>,
    body: &Map<String, Value>,
    profile: Profile,
) -> Result<(Arc<PestGrammar>, String), ApiError> {
    let Some(text) = field(body, "grammar", None)? else {
        return Ok((
            builtin_grammar(state, profile),
            format!("built-in {profile}"),
        ));
    };
    let cached = state
        .grammars
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .iter()
        .find(|(t, _)| t == text)
        .map(|(_, g)| Arc::clone(g));
    let g = match cached {
        Some(g) => g,
        None => load(state, text)?,
    };
    Ok((g, ORIGIN.to_string()))
}

/// Loads a grammar on a thread of its own and waits at most
/// [`LOAD_TIMEOUT`] for it: pest_meta's validation takes time exponential
/// in some chains of rule references, which nothing can interrupt. A load
/// that runs over goes on in the background (at most [`MAX_LOADS`] at
/// once) and puts its grammar in the cache when done.
fn load(state: &Arc<State>, text: &str) -> Result<Arc<PestGrammar>, ApiError> {
    if state.loading.fetch_add(1, Ordering::SeqCst) >= MAX_LOADS {
        state.loading.fetch_sub(1, Ordering::SeqCst);
        return Err(ApiError::new(
            503,
            "busy",
            "earlier grammars are still loading (pest_meta takes minutes on some grammars): try again later",
        ));
    }
    let (send, receive) = std::sync::mpsc::channel();
    let (shared, owned) = (Arc::clone(state), text.to_string());
    let spawned = std::thread::Builder::new()
        .name("iri-serve-load".into())
        .spawn(move || {
            let loaded = PestGrammar::parse(&owned, ORIGIN).map(Arc::new);
            if let Ok(g) = &loaded {
                let mut cache = shared.grammars.lock().unwrap_or_else(|p| p.into_inner());
                if cache.len() >= CACHED_GRAMMARS {
                    cache.pop_front();
                }
                cache.push_back((owned, Arc::clone(g)));
            }
            shared.loading.fetch_sub(1, Ordering::SeqCst);
            // The request may have stopped waiting.
            let _ = send.send(loaded);
        });
    if let Err(e) = spawned {
        state.loading.fetch_sub(1, Ordering::SeqCst);
        return Err(ApiError::new(
            503,
            "busy",
            format!("cannot start a thread to load the grammar: {e}"),
        ));
    }
    match receive.recv_timeout(LOAD_TIMEOUT) {
        Ok(Ok(g)) => Ok(g),
        Ok(Err(e)) => Err(ApiError::new(
            422,
            "grammar",
            format!("the grammar has errors:\n{e}"),
        )),
        Err(_) => Err(ApiError::new(
            422,
            "limit",
            format!(
                "the grammar did not load in {} s: pest_meta's validation takes time exponential in some chains of rule references; it goes on in the background",
                LOAD_TIMEOUT.as_secs()
            ),
        )),
    }
}

/// The built-in grammar of `profile`, loaded once.
fn builtin_grammar(state: &State, profile: Profile) -> Arc<PestGrammar> {
    let mut loaded = state.builtins.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, g)) = loaded.iter().find(|(p, _)| *p == profile) {
        return Arc::clone(g);
    }
    let g = Arc::new(PestGrammar::builtin(profile));
    loaded.push((profile, Arc::clone(&g)));
    g
}

/// The pest name of the request's `"rule"` in `g`, or an error with the
/// closest rules and all of them.
fn rule_of<'g>(g: &'g PestGrammar, rule: &str, name: &str) -> Result<&'g str, ApiError> {
    crate::grammar::resolve(g, rule, name)
        .map_err(|e| ApiError::new(422, "rule", e.to_string()).with("rules", json!(rule_list(g))))
}

/// `POST /api/parse`: `{"grammar"?, "profile"?, "rule"?, "input"}`.
fn parse(state: &Arc<State>, body: &Map<String, Value>) -> Result<Value, ApiError> {
    let profile = profile_of(field(body, "profile", None)?)?;
    let input = field(body, "input", Some(""))?.unwrap_or_default();
    if input.len() > MAX_INPUT {
        return Err(ApiError::new(
            413,
            "too-large",
            format!("the input is longer than {MAX_INPUT} bytes"),
        ));
    }
    let rule_name = field(body, "rule", Some("IRI-reference"))?.unwrap_or("IRI-reference");
    let (g, name) = grammar_of(state, body, profile)?;
    let rule = rule_of(&g, rule_name, &name)?;
    let shown = lab::spelling(rule);
    let mut v = json!({
        "grammar": name,
        "rules": rule_list(&g),
        "rule": shown,
        "input": input,
    });
    match g.tree(rule, input) {
        Ok(tree) => {
            let nodes: Vec<Value> = tree
                .nodes
                .iter()
                .map(|n| {
                    json!({
                        "rule": lab::spelling(&n.rule),
                        "start": n.start,
                        "end": n.end,
                        "depth": n.depth,
                        "text": input.get(n.start..n.end).unwrap_or(""),
                    })
                })
                .collect();
            let mut components = Map::new();
            for (k, text) in crate::grammar::components(&tree, input) {
                components.insert(k.into(), text.into());
            }
            v["valid"] = true.into();
            v["nodes"] = nodes.into();
            v["components"] = components.into();
        }
        Err(f) if f.limit.is_some() => {
            let mut message = format!("{name}: {f}");
            if f.limit
                .as_deref()
                .is_some_and(|l| l.starts_with("call limit"))
            {
                message.push_str(&format!(
                    " (the playground allows {} million rule calls a parse)",
                    CALL_LIMIT / 1_000_000
                ));
            }
            return Err(ApiError::new(422, "limit", message));
        }
        Err(f) => {
            let (failure, report) =
                crate::grammar::explained(&f, input, rule, profile, shown, &name);
            v["valid"] = false.into();
            v["error"] = failure.json();
            v["report"] = report.into();
        }
    }
    // The built-in grammar's verdict on the same input, for comparison.
    let base = builtin_grammar(state, profile);
    if let Some(r) = base.resolve(rule) {
        v["builtin_valid"] = base.accepts(r, input).into();
    }
    Ok(v)
}

/// The ABNF to check against: the profile's, then the request's
/// `"extra_abnf"` text (rules added or replaced).
fn abnf_of(profile: Profile, extra: Option<&str>) -> Result<(Grammar, Option<Grammar>), ApiError> {
    let bad = |e: String| ApiError::new(422, "abnf", e);
    let (mut abnf, mut printed) = lab::check_abnf(profile).map_err(|e| bad(e.to_string()))?;
    if let Some(text) = extra.filter(|t| !t.trim().is_empty()) {
        abnf.add(text, "extra.abnf")
            .map_err(|e| bad(e.to_string()))?;
        printed
            .add(text, "extra.abnf")
            .map_err(|e| bad(e.to_string()))?;
    }
    Ok((abnf, Some(printed)))
}

/// Holds the one lock of the slow endpoints, or says it is taken.
fn heavy(state: &State) -> Result<std::sync::MutexGuard<'_, ()>, ApiError> {
    match state.heavy.try_lock() {
        Ok(g) => Ok(g),
        Err(std::sync::TryLockError::Poisoned(p)) => Ok(p.into_inner()),
        Err(std::sync::TryLockError::WouldBlock) => Err(ApiError::new(
            503,
            "busy",
            "a check or a diff is already running: one at a time",
        )),
    }
}

/// `POST /api/check`: `{"grammar"?, "profile"?, "extra_abnf"?}`, what
/// `iri grammar check --grammar FILE --extra-abnf FILE` reports.
fn check(state: &Arc<State>, body: &Map<String, Value>) -> Result<Value, ApiError> {
    let key = json!([
        body.get("grammar"),
        body.get("profile"),
        body.get("extra_abnf")
    ]);
    if let Some((k, v)) = &*state.last_check.lock().unwrap_or_else(|p| p.into_inner()) {
        if *k == key {
            let mut v = v.clone();
            v["cached"] = true.into();
            return Ok(v);
        }
    }
    let profile = profile_of(field(body, "profile", None)?)?;
    let (abnf, printed) = abnf_of(profile, field(body, "extra_abnf", None)?)?;
    let _running = heavy(state)?;
    let (g, name) = grammar_of(state, body, profile)?;
    let report = lab::check(&abnf, &g, printed.as_ref(), Scan::Classes)
        .map_err(|e| ApiError::new(422, "check", format!("cannot check {name}: {e}")))?;
    let v = check_json(&report);
    *state.last_check.lock().unwrap_or_else(|p| p.into_inner()) = Some((key, v.clone()));
    Ok(v)
}

fn check_json(report: &CheckReport) -> Value {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for r in &report.rows {
        match counts.iter_mut().find(|(s, _)| *s == r.status.name()) {
            Some((_, n)) => *n += 1,
            None => counts.push((r.status.name(), 1)),
        }
    }
    let rows: Vec<Value> = report
        .rows
        .iter()
        .map(|r| {
            let mut differing: Vec<&lab::TestString> =
                r.strings.iter().filter(|t| t.pest != t.abnf).collect();
            differing.sort_by_key(|t| (t.text.chars().count(), t.text.clone()));
            json!({
                "rule": r.rule,
                "status": r.status.name(),
                "failure": r.status.is_failure(),
                "detail": r.detail,
                "follows": r.follows,
                "strings": r.strings.len(),
                "differing": differing.len(),
                "counterexamples": differing.iter().take(COUNTEREXAMPLES).map(|t| json!({
                    "text": t.text, "pest": t.pest, "abnf": t.abnf,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "passed": report.passed(),
        "counts": counts.into_iter().map(|(s, n)| json!({"status": s, "count": n})).collect::<Vec<_>>(),
        "root_causes": report.root_causes().map(|r| r.rule.as_str()).collect::<Vec<_>>(),
        "scan": report.scan,
        "rows": rows,
        "differs": report.rows.iter().filter(|r| r.status == Status::Differs).count(),
    })
}

/// `POST /api/diff`: `{"grammar", "profile"?, "rule"?, "trees"?}`, what
/// `iri grammar diff FILE --json` reports over the built-in corpus (with
/// `"trees": true`, `--trees`), against the profile's built-in grammar.
fn diff(state: &Arc<State>, body: &Map<String, Value>) -> Result<Value, ApiError> {
    let profile = profile_of(field(body, "profile", None)?)?;
    let rule_name = field(body, "rule", Some("IRI-reference"))?.unwrap_or("IRI-reference");
    let trees = match body.get("trees") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            return Err(ApiError::new(
                400,
                "bad-request",
                "\"trees\" must be true or false",
            ))
        }
    };
    let _running = heavy(state)?;
    let (new, new_name) = grammar_of(state, body, profile)?;
    let base = builtin_grammar(state, profile);
    let base_name = format!("built-in {profile}");
    let base_side = Side {
        grammar: &base,
        rule: rule_of(&base, rule_name, &base_name)?,
        name: &base_name,
    };
    let new_side = Side {
        grammar: &new,
        rule: rule_of(&new, rule_name, &new_name)?,
        name: &new_name,
    };
    let corpus = lab::default_corpus().map(String::from);
    let report = lab::diff(base_side, new_side, corpus, trees)
        .map_err(|e| ApiError::new(422, "limit", e.to_string()))?;
    Ok(crate::grammar::diff_json(
        &report,
        base_side,
        new_side,
        DIFF_EXAMPLES,
    ))
}
