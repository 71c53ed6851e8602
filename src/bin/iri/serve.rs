//! `iri grammar serve`: the grammar lab's playground, a page served on
//! 127.0.0.1 where one edits a pest grammar beside the built-in one and sees
//! the parse tree, the components, the error explanation, the check against
//! the ABNF and the corpus diff of what one types, through the same lab
//! functions as the `iri grammar` commands.
//!
//! The server answers only on the loopback interface, and only requests
//! that name a loopback host (`Host`, and `Origin` when present), so that a
//! web page elsewhere cannot reach it through DNS rebinding; it bounds the
//! request body, the input, the requests in flight and (through pest's call
//! limit) the work of every parse. Every answer of the API is JSON, errors
//! included: `{"error": {"kind", "message"}}`.

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::num::NonZeroUsize;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use iribis::lab::playground::{self, ApiError, Grammars};
use iribis::lab::PestGrammar;
use iribis::Profile;
use serde_json::{json, Map, Value};
use tiny_http::{Header, Method, Request, Response, Server};

use crate::Outcome;

/// The default port: the RFC's number.
pub(crate) const DEFAULT_PORT: u16 = 3987;

/// The largest request body read (a grammar, an input, ABNF): 1 MiB, some
/// thirty times the built-in grammar.
const MAX_BODY: usize = 1 << 20;

/// Requests answered at once; more get `503` with `"kind": "busy"`.
const MAX_IN_FLIGHT: usize = 8;

/// pest calls allowed per parse (pest's process-wide call limit, which this
/// process alone uses): a grammar that would backtrack exponentially on an
/// input is stopped, and reported as having given up, after about a second.
const CALL_LIMIT: usize = 5_000_000;

/// Parsed grammars kept, by text: the page sends the grammar with every
/// keystroke in the input.
const CACHED_GRAMMARS: usize = 4;

/// How long a request waits for its grammar to load.
const LOAD_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(20);

/// Grammars loading at once (some may have run over [`LOAD_TIMEOUT`]).
const MAX_LOADS: usize = 2;

#[derive(clap::Args)]
pub(crate) struct ServeArgs {
    /// The port on 127.0.0.1 (0: any free port). The URL is printed on
    /// standard output.
    #[arg(long, default_value_t = DEFAULT_PORT)]
    port: u16,
}

/// The page, embedded.
const INDEX_HTML: &str = include_str!("playground/index.html");
const APP_JS: &str = include_str!("playground/app.js");
const STYLE_CSS: &str = include_str!("playground/style.css");

/// What the request threads share.
struct State {
    port: u16,
    in_flight: AtomicUsize,
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

/// `iri grammar serve`: serves until interrupted.
pub(crate) fn serve(args: &ServeArgs) -> io::Result<Outcome> {
    pest::set_call_limit(NonZeroUsize::new(CALL_LIMIT));
    let server = Server::http(("127.0.0.1", args.port)).map_err(|e| {
        io::Error::new(
            io::ErrorKind::AddrInUse,
            format!("cannot listen on 127.0.0.1:{}: {e}", args.port),
        )
    })?;
    let port = server
        .server_addr()
        .to_ip()
        .map(|a| a.port())
        .ok_or_else(|| io::Error::other("the server has no IP address"))?;
    {
        let mut out = io::stdout().lock();
        writeln!(out, "http://127.0.0.1:{port}/")?;
        out.flush()?;
    }
    eprintln!("iri: the grammar playground is at http://127.0.0.1:{port}/ (loopback only; Ctrl-C to stop)");
    let state = Arc::new(State {
        port,
        in_flight: AtomicUsize::new(0),
        loading: AtomicUsize::new(0),
        heavy: Mutex::new(()),
        grammars: Mutex::new(VecDeque::new()),
        builtins: Mutex::new(Vec::new()),
        last_check: Mutex::new(None),
    });
    for request in server.incoming_requests() {
        if state.in_flight.fetch_add(1, Ordering::SeqCst) >= MAX_IN_FLIGHT {
            state.in_flight.fetch_sub(1, Ordering::SeqCst);
            let busy = ApiError::new(503, "busy", "too many requests at once: try again");
            let _ = request.respond(json_response(busy.status, &busy.json()));
            continue;
        }
        let state = Arc::clone(&state);
        let spawned = std::thread::Builder::new()
            .name("iri-serve".into())
            .spawn(move || {
                answer(&state, request);
                state.in_flight.fetch_sub(1, Ordering::SeqCst);
            });
        if let Err(e) = spawned {
            eprintln!("iri: cannot start a thread for a request: {e}");
        }
    }
    Ok(Outcome::AllValid)
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes())
        .unwrap_or_else(|()| unreachable!("the headers are ASCII: {name}"))
}

fn response(status: u16, body: Vec<u8>, content_type: &str) -> Response<io::Cursor<Vec<u8>>> {
    Response::from_data(body)
        .with_status_code(status)
        .with_header(header("Content-Type", content_type))
        .with_header(header("Cache-Control", "no-store"))
        .with_header(header("X-Content-Type-Options", "nosniff"))
        .with_header(header("Referrer-Policy", "no-referrer"))
        .with_header(header(
            "Content-Security-Policy",
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
        ))
}

fn json_response(status: u16, value: &Value) -> Response<io::Cursor<Vec<u8>>> {
    response(
        status,
        value.to_string().into_bytes(),
        "application/json; charset=utf-8",
    )
}

/// Answers one request; a panic (a bug) is answered as a `500` JSON error,
/// and the server goes on.
fn answer(state: &Arc<State>, mut request: Request) {
    let result = catch_unwind(AssertUnwindSafe(|| route(state, &mut request)));
    let reply = match result {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => {
            let mut r = json_response(e.status, &e.json());
            if e.status == 413 {
                // The body was not read: the connection cannot serve
                // another request.
                r = r.with_header(header("Connection", "close"));
            }
            r
        }
        Err(_) => {
            let e = ApiError::new(
                500,
                "internal",
                "internal error (a bug in iri: please report it, with the grammar and the input)",
            );
            json_response(e.status, &e.json())
        }
    };
    // The client may have gone: nothing to do about it.
    let _ = request.respond(reply);
}

/// Whether a `Host` (or an origin's host) names this server on the loopback
/// interface: `127.0.0.1`, `localhost` or `[::1]`, with our port or none.
fn loopback_host(host: &str, port: u16) -> bool {
    let (name, given) = match host.rsplit_once(':') {
        Some((n, p)) if !n.is_empty() && !p.contains(']') => (n, Some(p)),
        _ => (host, None),
    };
    let name_ok = name == "127.0.0.1" || name.eq_ignore_ascii_case("localhost") || name == "[::1]";
    name_ok && given.is_none_or(|p| p.parse::<u16>() == Ok(port))
}

fn header_value<'r>(request: &'r Request, name: &'static str) -> Option<&'r str> {
    request
        .headers()
        .iter()
        .find(|h| h.field.equiv(name))
        .map(|h| h.value.as_str())
}

type Reply = Response<io::Cursor<Vec<u8>>>;

fn route(state: &Arc<State>, request: &mut Request) -> Result<Reply, ApiError> {
    // DNS rebinding: a page of evil.example whose name now resolves to
    // 127.0.0.1 sends `Host: evil.example`.
    match header_value(request, "Host") {
        Some(h) if loopback_host(h, state.port) => {}
        Some(_) => {
            return Err(ApiError::new(
                403,
                "forbidden",
                "the Host header does not name this server on the loopback interface (127.0.0.1, localhost)",
            ))
        }
        None => return Err(ApiError::new(400, "bad-request", "no Host header")),
    }
    // A page elsewhere posting here.
    if let Some(origin) = header_value(request, "Origin") {
        let ok = origin
            .strip_prefix("http://")
            .is_some_and(|h| loopback_host(h, state.port));
        if !ok {
            return Err(ApiError::new(
                403,
                "forbidden",
                "requests from other origins are refused",
            ));
        }
    }
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let method = request.method().clone();
    match (&method, path) {
        (Method::Get, "/") => Ok(response(
            200,
            INDEX_HTML.as_bytes().to_vec(),
            "text/html; charset=utf-8",
        )),
        (Method::Get, "/app.js") => Ok(response(
            200,
            APP_JS.as_bytes().to_vec(),
            "text/javascript; charset=utf-8",
        )),
        (Method::Get, "/style.css") => Ok(response(
            200,
            STYLE_CSS.as_bytes().to_vec(),
            "text/css; charset=utf-8",
        )),
        (Method::Get, "/api/grammar") => builtin(state, query).map(|v| json_response(200, &v)),
        (Method::Post, "/api/parse" | "/api/check" | "/api/diff") => {
            let body = read_body(request)?;
            let v = match path {
                "/api/parse" => playground::parse(&body, &Backend(state))?,
                "/api/check" => check(state, &body)?,
                _ => diff(state, &body)?,
            };
            Ok(json_response(200, &v))
        }
        (_, "/" | "/app.js" | "/style.css" | "/api/grammar")
        | (_, "/api/parse" | "/api/check" | "/api/diff") => Err(ApiError::new(
            405,
            "method-not-allowed",
            format!("{method} is not allowed on {path}"),
        )),
        _ => Err(ApiError::new(404, "not-found", format!("no page {path}"))),
    }
}

/// The request's JSON object, within [`MAX_BODY`].
fn read_body(request: &mut Request) -> Result<Map<String, Value>, ApiError> {
    let json_type = header_value(request, "Content-Type").is_some_and(|t| {
        t.split(';')
            .next()
            .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
    });
    if !json_type {
        return Err(ApiError::new(
            415,
            "unsupported-media-type",
            "the body must be JSON (Content-Type: application/json)",
        ));
    }
    let too_large = || {
        ApiError::new(
            413,
            "too-large",
            format!("the request body is larger than {MAX_BODY} bytes"),
        )
    };
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(too_large());
    }
    let mut body = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| ApiError::new(400, "bad-request", format!("cannot read the body: {e}")))?;
    if body.len() > MAX_BODY {
        return Err(too_large());
    }
    match serde_json::from_slice(&body) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(ApiError::new(
            400,
            "bad-request",
            "the body must be a JSON object",
        )),
        Err(e) => Err(ApiError::new(
            400,
            "bad-request",
            format!("the body is not JSON: {e}"),
        )),
    }
}

/// `GET /api/grammar?profile=P`: the built-in grammar's text and rules.
fn builtin(state: &Arc<State>, query: &str) -> Result<Value, ApiError> {
    let profile = query.split('&').find_map(|kv| kv.strip_prefix("profile="));
    playground::grammar(profile, &Backend(state))
}

/// The requests' grammars: the built-in ones loaded once, edited ones
/// cached by text and loaded on a thread of their own within a timeout.
struct Backend<'s>(&'s Arc<State>);

impl Grammars for Backend<'_> {
    fn builtin(&self, profile: Profile) -> Arc<PestGrammar> {
        builtin_grammar(self.0, profile)
    }

    fn load(&self, text: &str) -> Result<Arc<PestGrammar>, ApiError> {
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
    playground::diff(body, &Backend(state))
}

#[cfg(test)]
mod tests {
    use super::loopback_host;

    #[test]
    fn loopback_hosts() {
        for ok in [
            "127.0.0.1:8080",
            "127.0.0.1",
            "localhost:8080",
            "LocalHost:8080",
            "[::1]:8080",
            "[::1]",
        ] {
            assert!(loopback_host(ok, 8080), "{ok}");
        }
        for bad in [
            "evil.example:8080",
            "127.0.0.1:8081",
            "localhost.:8080",
            "127.0.0.1.evil.example:8080",
            "localhost:",
            "",
            ":8080",
            "127.0.0.2:8080",
        ] {
            assert!(!loopback_host(bad, 8080), "{bad}");
        }
    }
}
