//! The request handling of `iri grammar serve` (src/bin/iri/serve/http.rs,
//! compiled here as it is) on any bytes a client sends: a connection gets
//! at most one answer (after a `100 Continue` it asked for), and nothing
//! only when the client sent nothing; the answer is well-formed HTTP/1.1
//! with the fields every answer has (`Content-Length` true, `Connection:
//! close`, the security fields), its errors JSON with a kind and a
//! message, `Allow` on a 405; no more is read before answering than the
//! head and body limits allow; the endpoints see only requests that passed
//! the checks, with a body of known fields and no nested values. The
//! endpoints are a stand-in that echoes (the lab has its own targets).
//!
//! The first byte chooses how the connection behaves: bits 0-2 the size of
//! the pieces reads return (1, 2, 3, 7, 64, 512, 4096 bytes or all), bit
//! 3 whether the connection then times out (or ends), bit 4 whether it is
//! one over the connection cap; with bit 5, the rest is `PREFIX 0xFF
//! FRAGMENT`, the fragment repeated to 20 KiB, 70 KiB, 1.1 MiB or 4 MiB
//! (bits 6-7), to reach the limits from short inputs (then in pieces of
//! 4096 bytes at least, so that an input takes milliseconds). The
//! dictionary fuzz/serve.dict holds the words of a request.
#![no_main]

use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

#[allow(dead_code)]
#[path = "../../src/bin/iri/serve/http.rs"]
mod http;

use http::{Api, ApiError, Call, Page, Scripted, Site};

const FIELDS: &[&str] = &["grammar", "profile", "rule", "input", "extra_abnf", "trees"];

const PAGES: &[Page] = &[Page {
    path: "/",
    content_type: "text/html; charset=utf-8",
    body: "<!doctype html>",
}];

/// Whether the stand-in was called, for the answer's check.
static CALLED: AtomicBool = AtomicBool::new(false);

struct Echo;

impl Api for Echo {
    fn call(&self, call: Call<'_>) -> Result<Value, ApiError> {
        CALLED.store(true, Ordering::SeqCst);
        let (name, body) = match call {
            Call::Grammar { query } => return Ok(json!({ "grammar": query })),
            Call::Parse(b) => ("parse", b),
            Call::Check(b) => ("check", b),
            Call::Diff(b) => ("diff", b),
        };
        for (k, v) in body {
            assert!(
                FIELDS.contains(&k.as_str()),
                "an unknown field {k:?} reached the API"
            );
            let empty = match v {
                Value::Array(a) => a.is_empty(),
                Value::Object(o) => o.is_empty(),
                _ => true,
            };
            assert!(empty, "a nested value reached the API: {v}");
        }
        if body.get("input") == Some(&json!("refuse")) {
            return Err(ApiError::new(422, "limit", "refused"));
        }
        Ok(json!({ name: body }))
    }
}

/// A fragment, over and over, for `left` bytes: copied from a block of
/// whole fragments of 4 KiB or more, not a byte at a time.
struct Repeat {
    block: Vec<u8>,
    at: usize,
    left: usize,
}

impl Repeat {
    fn new(fragment: &[u8], left: usize) -> Repeat {
        let copies = if fragment.is_empty() {
            0
        } else {
            4096usize.div_ceil(fragment.len())
        };
        let left = if fragment.is_empty() { 0 } else { left };
        Repeat {
            block: fragment.repeat(copies),
            at: 0,
            left,
        }
    }
}

impl Read for Repeat {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut n = 0;
        while n < buf.len() && self.left > 0 {
            let k = (self.block.len() - self.at)
                .min(buf.len() - n)
                .min(self.left);
            buf[n..n + k].copy_from_slice(&self.block[self.at..self.at + k]);
            (n, self.left, self.at) = (n + k, self.left - k, (self.at + k) % self.block.len());
        }
        Ok(n)
    }
}

/// The value of the field `name` in `fields`, which must be there once.
fn field<'h>(fields: &[httparse::Header<'h>], name: &str) -> &'h [u8] {
    let mut found = fields.iter().filter(|h| h.name.eq_ignore_ascii_case(name));
    let value = found
        .next()
        .unwrap_or_else(|| panic!("no {name} field"))
        .value;
    assert!(found.next().is_none(), "two {name} fields");
    value
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let piece = [1, 2, 3, 7, 64, 512, 4096, usize::MAX][usize::from(flags & 7)];
    let time_out = flags & 8 != 0;
    let busy = flags & 16 != 0;
    let (prefix, repeat) = match rest.iter().position(|&b| b == 0xFF) {
        Some(i) if flags & 32 != 0 => {
            let left = [20 << 10, 70 << 10, 1100 << 10, 4 << 20][usize::from(flags >> 6)];
            (&rest[..i], Repeat::new(&rest[i + 1..], left))
        }
        _ => (rest, Repeat::new(&[], 0)),
    };
    // Megabytes a byte at a time would take a second an input.
    let piece = if repeat.left > 0 {
        piece.max(4096)
    } else {
        piece
    };
    let sends_nothing = prefix.is_empty() && repeat.left == 0;

    let site = Site::new(3987, PAGES, FIELDS, Box::new(Echo), Duration::from_secs(10));
    CALLED.store(false, Ordering::SeqCst);
    let mut conn = Scripted::new(prefix.chain(repeat), piece, time_out);
    http::exchange(&mut conn, &site, busy);
    let called = CALLED.load(Ordering::SeqCst);

    assert!(conn.closed_writing, "the connection was not closed");
    if conn.written.is_empty() {
        assert!(sends_nothing, "no answer to a client that sent something");
        assert!(!called);
        return;
    }
    let read = conn.read_before_answer.unwrap();
    let bound = (http::MAX_HEAD + 1 + http::MAX_BODY) as u64;
    assert!(read <= bound, "{read} bytes read before answering");

    let mut written = &conn.written[..];
    if let Some(rest) = written.strip_prefix(b"HTTP/1.1 100 Continue\r\n\r\n") {
        written = rest;
    }
    let mut fields = [httparse::EMPTY_HEADER; 32];
    let mut answer = httparse::Response::new(&mut fields);
    let len = match answer.parse(written) {
        Ok(httparse::Status::Complete(len)) => len,
        other => panic!(
            "not an answer ({other:?}): {:?}",
            String::from_utf8_lossy(written)
        ),
    };
    assert_eq!(answer.version, Some(1));
    let status = answer.code.unwrap();
    assert!(
        [200, 400, 403, 404, 405, 408, 411, 413, 415, 422, 431, 500, 503].contains(&status),
        "status {status}"
    );
    let fields = answer.headers;
    let body = &written[len..];
    assert_eq!(
        field(fields, "Content-Length"),
        body.len().to_string().as_bytes()
    );
    assert_eq!(field(fields, "Connection"), b"close");
    assert_eq!(field(fields, "Cache-Control"), b"no-store");
    assert_eq!(field(fields, "X-Content-Type-Options"), b"nosniff");
    assert_eq!(field(fields, "Referrer-Policy"), b"no-referrer");
    assert!(field(fields, "Content-Security-Policy").starts_with(b"default-src 'self'"));
    assert!(httpdate::parse_http_date(std::str::from_utf8(field(fields, "Date")).unwrap()).is_ok());
    let json = field(fields, "Content-Type") == b"application/json; charset=utf-8";
    if status != 200 {
        assert!(json, "an error that is not JSON");
        let v: Value = serde_json::from_slice(body).expect("a JSON error");
        assert!(
            v["error"]["kind"].is_string() && v["error"]["message"].is_string(),
            "{v}"
        );
        if status == 500 {
            panic!("a 500: {v}");
        }
    }
    if status == 405 {
        assert!(matches!(field(fields, "Allow"), b"GET" | b"POST"));
    }
    if busy {
        assert!(!called, "the API was called over the connection cap");
        assert!(
            matches!(status, 400 | 408 | 431 | 503),
            "status {status} over the cap"
        );
    }
    // The API answered (200 JSON), or was called and refused.
    if status == 200 && json {
        assert!(called);
    }
    if status == 422 {
        assert!(called);
    }
});
