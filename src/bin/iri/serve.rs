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

use iribis::lab::playground::{self, Grammars};
use iribis::lab::PestGrammar;
use iribis::Profile;
use serde_json::{json, Map, Value};

use crate::Outcome;

mod http;

use http::{Api, ApiError, Call, Page, Site};

/// The default port: the RFC's number.
pub(crate) const DEFAULT_PORT: u16 = 3987;

/// pest calls allowed per parse (pest's process-wide call limit, which this
/// process alone uses; a whole number of millions, as its message says): a
/// grammar that would backtrack exponentially on an input is stopped, and
/// reported as having given up, after about a second.
const CALL_LIMIT: usize = 5_000_000;

/// Parsed grammars kept, by text: the page sends the grammar with every
/// keystroke in the input.
const CACHED_GRAMMARS: usize = 4;

/// How long a request waits for its grammar to load.
const LOAD_TIMEOUT: Duration = Duration::from_secs(20);

/// Grammars loading at once (some may have run over [`LOAD_TIMEOUT`]).
const MAX_LOADS: usize = 2;

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

impl From<playground::ApiError> for ApiError {
    fn from(e: playground::ApiError) -> ApiError {
        let rules = e.rules.map(|r| json!(r));
        let error = ApiError::new(e.status, e.kind, e.message);
        match rules {
            Some(rules) => error.with("rules", rules),
            None => error,
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

/// `GET /api/grammar?profile=P`: the built-in grammar's text and rules.
fn builtin(state: &Arc<State>, query: &str) -> Result<Value, ApiError> {
    let profile = query.split('&').find_map(|kv| kv.strip_prefix("profile="));
    Ok(playground::grammar(profile, &Backend(state))?)
}

/// `POST /api/parse`; a parse stopped by pest's call limit says what the
/// limit is here.
fn parse(state: &Arc<State>, body: &Map<String, Value>) -> Result<Value, ApiError> {
    playground::parse(body, &Backend(state)).map_err(|mut e| {
        if e.kind == "limit" && e.message.contains("call limit") {
            e.message.push_str(&format!(
                " (the playground allows {} million rule calls a parse)",
                CALL_LIMIT / 1_000_000
            ));
        }
        e.into()
    })
}

/// The requests' grammars: the built-in ones loaded once, edited ones
/// cached by text and loaded on a thread of their own within a timeout.
struct Backend<'s>(&'s Arc<State>);

impl Grammars for Backend<'_> {
    fn builtin(&self, profile: Profile) -> Arc<PestGrammar> {
        builtin_grammar(self.0, profile)
    }

    fn load(&self, text: &str) -> Result<Arc<PestGrammar>, playground::ApiError> {
        let cached = self
            .0
            .grammars
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .find(|(t, _)| t == text)
            .map(|(_, g)| Arc::clone(g));
        match cached {
            Some(g) => Ok(g),
            None => load(self.0, text),
        }
    }
}

/// Loads a grammar on a thread of its own and waits at most
/// [`LOAD_TIMEOUT`] for it: pest_meta's validation takes time exponential
/// in some chains of rule references, which nothing can interrupt. A load
/// that runs over goes on in the background (at most [`MAX_LOADS`] at
/// once) and puts its grammar in the cache when done.
fn load(state: &Arc<State>, text: &str) -> Result<Arc<PestGrammar>, playground::ApiError> {
    use playground::ApiError;
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
            let loaded = playground::load(&owned).map(Arc::new);
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
        Ok(loaded) => loaded,
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

/// `POST /api/check`: one at a time; the last answer is kept, and the same
/// request again is answered from it (`"cached": true`).
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
    let _running = heavy(state)?;
    let v = playground::check(body, &Backend(state))?;
    *state.last_check.lock().unwrap_or_else(|p| p.into_inner()) = Some((key, v.clone()));
    Ok(v)
}

/// `POST /api/diff`: one at a time, as a check.
fn diff(state: &Arc<State>, body: &Map<String, Value>) -> Result<Value, ApiError> {
    let _running = heavy(state)?;
    Ok(playground::diff(body, &Backend(state))?)
}
