//! The grammar playground's backend in the browser: the requests of
//! `iribis_lab::playground`, answered inside a Web Worker of the static
//! page, in their JSON.
//!
//! The page bounds what runs here: each worker answers one request at a
//! time (one for parses, one for the slow check and diff), and a request
//! that runs too long (pest_meta's validation of some small grammars, which
//! nothing inside can interrupt) is ended by terminating the worker and
//! starting a new one. The lab's recursion, which runs on a thread with a
//! 2 GiB stack natively, runs on the module's own stack here, whose size
//! `build.rs` sets and the lab's limits are held to (see
//! `iribis_lab::MAX_EXPRESSIONS`).

use std::cell::RefCell;
use std::collections::VecDeque;
use std::num::NonZeroUsize;
use std::sync::Arc;

use iribis::Profile;
use iribis_lab::playground::{self, ApiError, ErrorKind, Grammars};
use iribis_lab::PestGrammar;
use serde_json::{json, Map, Value};
use wasm_bindgen::prelude::*;

/// pest calls allowed per parse: a grammar that would backtrack
/// exponentially gives up with a `limit` error.
const CALL_LIMIT: usize = 5_000_000;

/// Edited grammars kept, by text: the page sends the grammar with every
/// keystroke in the input.
const CACHED_GRAMMARS: usize = 4;

/// The largest request read.
const MAX_BODY: usize = 1 << 20;

/// One backend: the grammars it has loaded.
#[wasm_bindgen]
pub struct Playground {
    builtins: RefCell<Vec<(Profile, Arc<PestGrammar>)>>,
    grammars: RefCell<VecDeque<(String, Arc<PestGrammar>)>>,
}

impl Grammars for Playground {
    fn builtin(&self, profile: Profile) -> Arc<PestGrammar> {
        let mut loaded = self.builtins.borrow_mut();
        if let Some((_, g)) = loaded.iter().find(|(p, _)| *p == profile) {
            return Arc::clone(g);
        }
        let g = Arc::new(PestGrammar::builtin(profile));
        loaded.push((profile, Arc::clone(&g)));
        g
    }

    fn load(&self, text: &str) -> Result<Arc<PestGrammar>, ApiError> {
        if let Some((_, g)) = self.grammars.borrow().iter().find(|(t, _)| t == text) {
            return Ok(Arc::clone(g));
        }
        let g = Arc::new(playground::load(text)?);
        let mut cache = self.grammars.borrow_mut();
        if cache.len() >= CACHED_GRAMMARS {
            cache.pop_front();
        }
        cache.push_back((text.to_string(), Arc::clone(&g)));
        Ok(g)
    }
}

impl Default for Playground {
    fn default() -> Self {
        Playground::new()
    }
}

#[wasm_bindgen]
impl Playground {
    /// A backend with nothing loaded yet.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Playground {
        // This module alone uses pest in its worker: the limit is its own.
        pest::set_call_limit(NonZeroUsize::new(CALL_LIMIT));
        Playground {
            builtins: RefCell::new(Vec::new()),
            grammars: RefCell::new(VecDeque::new()),
        }
    }

    /// Answers one request of the playground's API: `path` is
    /// `/api/grammar?profile=P`, `/api/parse`, `/api/check` or `/api/diff`,
    /// `body` the request's JSON text (empty for `/api/grammar`). The answer
    /// is `{"json": ANSWER}` as JSON text, where ANSWER is the request's
    /// answer or `{"error": {"kind", "message"}}`.
    pub fn request(&self, path: &str, body: &str) -> String {
        let (path, query) = path.split_once('?').unwrap_or((path, ""));
        let answer = match path {
            "/api/grammar" => {
                let profile = query.split('&').find_map(|kv| kv.strip_prefix("profile="));
                playground::grammar(profile, self)
            }
            "/api/parse" | "/api/check" | "/api/diff" => read(body).and_then(|body| match path {
                "/api/parse" => playground::parse(&body, self),
                "/api/check" => playground::check(&body, self),
                _ => playground::diff(&body, self),
            }),
            _ => Err(ApiError::new(
                ErrorKind::UnknownRequest,
                format!("no request {path}"),
            )),
        };
        let json = answer.unwrap_or_else(|e| e.json());
        json!({ "json": json }).to_string()
    }
}

/// The request's JSON object, within [`MAX_BODY`].
fn read(body: &str) -> Result<Map<String, Value>, ApiError> {
    if body.len() > MAX_BODY {
        return Err(ApiError::new(
            ErrorKind::TooLarge,
            format!("the request body is larger than {MAX_BODY} bytes"),
        ));
    }
    match serde_json::from_str(body) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(ApiError::new(
            ErrorKind::BadRequest,
            "the body must be a JSON object",
        )),
        Err(e) => Err(ApiError::new(
            ErrorKind::BadRequest,
            format!("the body is not JSON: {e}"),
        )),
    }
}
