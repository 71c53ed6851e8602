//! `iri grammar serve`: the playground's JSON endpoints, driven over plain
//! TCP (HTTP/1.0, one request per connection) against the real binary on a
//! free port.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

use serde_json::{json, Value};

/// The server, stopped when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start() -> Server {
    start_with(None, &[])
}

/// The server with more arguments, and with at most `kib` KiB of address
/// space (`ulimit -v`; glibc held to two malloc arenas, which otherwise
/// reserve 64 MiB of address space for each of up to eight a core): an
/// allocation past the budget fails, and the server with it.
fn start_with(kib: Option<u64>, args: &[&str]) -> Server {
    let budget = kib.map_or(String::new(), |k| format!("ulimit -v {k} && "));
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("{budget}exec \"$0\" grammar serve --port 0 \"$@\""))
        .arg(env!("CARGO_BIN_EXE_iri"))
        .args(args)
        .env("MALLOC_ARENA_MAX", "2")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start iri grammar serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("read the URL");
    let port = line
        .trim()
        .strip_prefix("http://127.0.0.1:")
        .and_then(|rest| rest.strip_suffix('/'))
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("not the URL on 127.0.0.1: {line:?}"));
    Server { child, port }
}

/// The status, the headers (lowercased names) and the body of the answer to
/// `head` (the request line and headers, without the blank line) and
/// `body`.
fn exchange(port: u16, head: &str, body: &[u8]) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    // Every answer closes its connection; a server that kept it open would
    // fail the test, not hang it.
    s.set_read_timeout(Some(std::time::Duration::from_secs(120)))
        .unwrap();
    s.write_all(format!("{head}\r\n\r\n").as_bytes())
        .expect("write");
    // The server may answer (and close) before reading a body it refuses.
    let _ = s.write_all(body);
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).expect("read");
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a complete answer");
    let text = String::from_utf8(raw[..end].to_vec()).expect("ASCII headers");
    let mut lines = text.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|c| c.parse().ok())
        .expect("a status line");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    (status, headers, raw[end + 4..].to_vec())
}

fn header<'h>(headers: &'h [(String, String)], name: &str) -> Option<&'h str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// POSTs JSON with a loopback Host; the status and the JSON answer (which
/// every answer of the API is, errors included).
fn post(server: &Server, path: &str, body: &Value) -> (u16, Value) {
    let body = body.to_string();
    let head = format!(
        "POST {path} HTTP/1.0\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: {}",
        server.port,
        body.len()
    );
    let (status, headers, answer) = exchange(server.port, &head, body.as_bytes());
    assert_eq!(
        header(&headers, "content-type"),
        Some("application/json; charset=utf-8"),
        "{path}"
    );
    let v = serde_json::from_slice(&answer).expect("a JSON answer");
    (status, v)
}

fn get(server: &Server, path: &str, host: &str) -> (u16, Vec<(String, String)>, Vec<u8>) {
    exchange(
        server.port,
        &format!("GET {path} HTTP/1.0\r\nHost: {host}"),
        b"",
    )
}

#[test]
fn serves_the_page_and_its_assets_on_loopback_only() {
    let server = start();
    let host = format!("127.0.0.1:{}", server.port);
    let (status, headers, body) = get(&server, "/", &host);
    assert_eq!(status, 200);
    assert_eq!(
        header(&headers, "content-type"),
        Some("text/html; charset=utf-8")
    );
    // Nothing from elsewhere: the policy allows this server alone.
    assert!(header(&headers, "content-security-policy")
        .is_some_and(|p| p.starts_with("default-src 'self'")));
    let page = String::from_utf8(body).unwrap();
    assert!(page.contains("<script src=\"app.js\""), "{page}");
    for remote in ["src=\"http", "href=\"http", "src=\"//", "href=\"//"] {
        assert!(!page.contains(remote), "the page loads {remote}...");
    }
    for asset in ["/app.js", "/style.css"] {
        let (status, _, body) = get(&server, asset, &format!("localhost:{}", server.port));
        assert_eq!(status, 200, "{asset}");
        let text = String::from_utf8(body).unwrap();
        for remote in ["https://", "url(http", "url(//", "import "] {
            assert!(!text.contains(remote), "{asset} loads {remote}...");
        }
    }

    // DNS rebinding: another name, or another port, is refused.
    for bad in [
        format!("evil.example:{}", server.port),
        format!("127.0.0.1.evil.example:{}", server.port),
        format!("127.0.0.1:{}", server.port.wrapping_add(1)),
    ] {
        let (status, _, body) = get(&server, "/", &bad);
        assert_eq!(status, 403, "{bad}");
        let v: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["error"]["kind"], "forbidden", "{bad}");
    }
    let (status, _, _) = exchange(server.port, "GET / HTTP/1.0", b"");
    assert_eq!(status, 400, "no Host header");
    // A page elsewhere posting to the API.
    let body = json!({"input": "x"}).to_string();
    let head = format!(
        "POST /api/parse HTTP/1.0\r\nHost: 127.0.0.1:{}\r\nOrigin: http://evil.example\r\nContent-Type: application/json\r\nContent-Length: {}",
        server.port,
        body.len()
    );
    let (status, _, _) = exchange(server.port, &head, body.as_bytes());
    assert_eq!(status, 403);
    // A form post (no preflight in a browser) is not JSON.
    let head = format!(
        "POST /api/parse HTTP/1.0\r\nHost: 127.0.0.1:{}\r\nContent-Type: text/plain\r\nContent-Length: {}",
        server.port,
        body.len()
    );
    let (status, _, answer) = exchange(server.port, &head, body.as_bytes());
    assert_eq!(status, 415);
    let v: Value = serde_json::from_slice(&answer).unwrap();
    assert_eq!(v["error"]["kind"], "unsupported-media-type");
    let (status, _, answer) = get(&server, "/nope", &host);
    assert_eq!(status, 404);
    assert_eq!(
        serde_json::from_slice::<Value>(&answer).unwrap()["error"]["kind"],
        "not-found"
    );
}

#[test]
fn refuses_bad_requests_with_json_errors() {
    let server = start();
    // A body over the limit is refused from its Content-Length, unread.
    let head = format!(
        "POST /api/parse HTTP/1.0\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: {}",
        server.port,
        2 << 20
    );
    let (status, _, answer) = exchange(server.port, &head, b"{\"input\": \"");
    assert_eq!(status, 413);
    let v: Value = serde_json::from_slice(&answer).unwrap();
    assert_eq!(v["error"]["kind"], "too-large");
    // And an input over its own limit, inside a body that is not.
    let (status, v) = post(
        &server,
        "/api/parse",
        &json!({"input": "a".repeat(100_000)}),
    );
    assert_eq!(
        (status, v["error"]["kind"].as_str()),
        (413, Some("too-large"))
    );

    for (body, what) in [
        ("{", "the body is not JSON"),
        ("[1]", "the body must be a JSON object"),
        ("{\"input\": 3}", "\"input\" must be a string"),
        (
            "{\"input\": \"x\", \"profile\": \"rfc9999\"}",
            "unknown profile",
        ),
    ] {
        let head = format!(
            "POST /api/parse HTTP/1.0\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: {}",
            server.port,
            body.len()
        );
        let (status, _, answer) = exchange(server.port, &head, body.as_bytes());
        assert_eq!(status, 400, "{body}");
        let v: Value = serde_json::from_slice(&answer).unwrap();
        assert_eq!(v["error"]["kind"], "bad-request", "{body}");
        assert!(
            v["error"]["message"].as_str().unwrap().starts_with(what),
            "{body}: {v}"
        );
    }

    // A grammar pest_meta rejects: its report, with the line and column.
    let (status, v) = post(
        &server,
        "/api/parse",
        &json!({"grammar": "a = { b }\n", "rule": "a", "input": "x"}),
    );
    assert_eq!(status, 422);
    assert_eq!(v["error"]["kind"], "grammar");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(message.contains("--> playground.pest:1:7"), "{message}");
    assert!(message.contains("rule b is undefined"), "{message}");
    // The lab's limits hold for the playground's grammars too.
    let deep = format!("a = {{ {}\"x\"{} }}", "(".repeat(5000), ")".repeat(5000));
    let (status, v) = post(
        &server,
        "/api/parse",
        &json!({"grammar": deep, "input": "x"}),
    );
    assert_eq!(status, 422);
    assert_eq!(
        v["error"]["message"],
        "the grammar has errors:\nplayground.pest:1: grammar nesting deeper than 1,000 levels"
    );
    // An unknown rule: the closest ones, and every rule for the page's list.
    let (status, v) = post(
        &server,
        "/api/parse",
        &json!({"rule": "ip-litral", "input": "[::1]"}),
    );
    assert_eq!(status, 422);
    assert_eq!(v["error"]["kind"], "rule");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .ends_with("did you mean IP-literal?"),
        "{v}"
    );
    assert!(v["error"]["rules"]
        .as_array()
        .unwrap()
        .contains(&json!("IP-literal")));
    // The check and the diff report the same errors.
    let (status, v) = post(&server, "/api/check", &json!({"grammar": "a = {"}));
    assert_eq!(
        (status, v["error"]["kind"].as_str()),
        (422, Some("grammar"))
    );
    let (status, v) = post(&server, "/api/check", &json!({"extra_abnf": "a = b\n"}));
    assert_eq!(
        (status, v["error"]["kind"].as_str()),
        (422, Some("check")),
        "{v}"
    );
    // A request the server still answers after all that.
    let (status, _) = post(&server, "/api/parse", &json!({"input": "a:b"}));
    assert_eq!(status, 200);
}

#[test]
fn parses_with_an_edited_grammar_tree_components_and_explanations() {
    let server = start();
    let (status, _, body) = get(
        &server,
        "/api/grammar",
        &format!("127.0.0.1:{}", server.port),
    );
    assert_eq!(status, 200);
    let builtin: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(builtin["profile"], "rfc3987bis");
    let text = builtin["text"].as_str().unwrap();
    assert!(text.contains("port = { DIGIT* }"));
    let edited = text.replace("port = { DIGIT* }", "port = { (DIGIT | \"x\")* }");

    let input = "http://example.org:8x0/a?q#f";
    let (status, v) = post(
        &server,
        "/api/parse",
        &json!({"grammar": edited, "input": input}),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["valid"], true);
    assert_eq!(v["rule"], "IRI-reference");
    assert_eq!(v["grammar"], "playground.pest");
    assert_eq!(v["builtin_valid"], false);
    let nodes = v["nodes"].as_array().unwrap();
    assert_eq!(
        nodes[0],
        json!({"rule": "IRI-reference", "start": 0, "end": input.len(), "depth": 0, "text": input})
    );
    let port = nodes
        .iter()
        .find(|n| n["rule"] == "port")
        .expect("a port node");
    assert_eq!(
        (&port["start"], &port["end"], &port["text"]),
        (&json!(19), &json!(22), &json!("8x0"))
    );
    // A parent before its children, one level deeper.
    let host = nodes.iter().position(|n| n["rule"] == "ihost").unwrap();
    assert_eq!(
        nodes[host + 1]["depth"],
        nodes[host]["depth"].as_u64().unwrap() + 1
    );
    assert_eq!(
        v["components"],
        json!({
            "scheme": "http",
            "authority": "example.org:8x0",
            "host": "example.org",
            "host_type": "reg-name",
            "port": "8x0",
            "path": "/a",
            "query": "q",
            "fragment": "f",
        })
    );

    // The built-in grammar rejects it, explained as `iri parse` does.
    let (status, v) = post(&server, "/api/parse", &json!({"input": input}));
    assert_eq!(status, 200);
    assert_eq!(v["valid"], false);
    assert_eq!(v["grammar"], "built-in rfc3987bis");
    assert_eq!(v["error"]["byte"], 22);
    assert_eq!(v["error"]["component"], "authority");
    assert_eq!(
        v["error"]["message"],
        "a port is digits only, and this one has 'x' (U+0078)"
    );
    let report = v["report"].as_str().unwrap();
    assert!(report.starts_with("error: "), "{report}");
    assert!(
        report.contains("no match: stopped at character 22"),
        "{report}"
    );

    // A runtime copy of the built-in grammar explains a failure as the
    // built-in parser does (the zone identifier of RFC 6874).
    let (status, v) = post(
        &server,
        "/api/parse",
        &json!({"grammar": text, "input": "http://[::1%25eth0]/"}),
    );
    assert_eq!(status, 200);
    assert_eq!(v["valid"], false);
    assert_eq!(v["error"]["component"], "host");
    assert!(v["error"]["message"]
        .as_str()
        .unwrap()
        .starts_with("'%' is not allowed in an IP literal"));

    // Another start rule, in pest spelling, and a multi-byte input: byte
    // spans.
    let (status, v) = post(
        &server,
        "/api/parse",
        &json!({"grammar": edited, "rule": "ireg_name", "input": "résumé"}),
    );
    assert_eq!(status, 200);
    assert_eq!(v["rule"], "ireg-name");
    assert_eq!(v["nodes"][0]["end"], "résumé".len());
    assert_eq!(v["components"], json!({}));
}

#[test]
fn checks_and_diffs_an_edited_grammar() {
    let server = start();
    let text = iribis::lab::PestGrammar::builtin_source(iribis::Profile::Rfc3987bis);
    let edited = text.replace("port = { DIGIT* }", "port = { (DIGIT | \"x\")* }");
    let (status, v) = post(
        &server,
        "/api/diff",
        &json!({"grammar": edited, "trees": true}),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        v["new"],
        json!({"grammar": "playground.pest", "rule": "IRI-reference"})
    );
    assert_eq!(
        v["base"],
        json!({"grammar": "built-in rfc3987bis", "rule": "IRI-reference"})
    );
    assert!(v["inputs"].as_u64().unwrap() > 400);
    assert_eq!(
        v["differing"].as_u64().unwrap(),
        v["differences"].as_array().unwrap().len() as u64
    );
    assert!(v["accepted"]["base"].as_u64().unwrap() > 300, "{v}");
    // From another start rule: the corpus's IRI references, few of which
    // are a port by themselves (the per-rule table inputs are); the counts
    // say so.
    let (status, v) = post(
        &server,
        "/api/diff",
        &json!({"grammar": edited, "rule": "port"}),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["new"]["rule"], "port");
    let accepted = v["accepted"]["base"].as_u64().unwrap();
    assert!(accepted > 0 && accepted < 100, "{v}");
    assert!(v["accepted"]["new"].as_u64().unwrap() >= accepted, "{v}");

    let (status, v) = post(&server, "/api/check", &json!({"grammar": edited}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["passed"], false);
    assert_eq!(v["root_causes"], json!(["port"]));
    let port = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["rule"] == "port")
        .expect("a port row");
    assert_eq!(port["status"], "DIFFERS");
    assert_eq!(port["failure"], true);
    assert_eq!(port["follows"], json!([]));
    let first = &port["counterexamples"][0];
    assert_eq!(first, &json!({"text": "x", "pest": true, "abnf": false}));
    // Rules that refer to port follow from it.
    let authority = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["rule"] == "iauthority")
        .unwrap();
    assert_eq!(authority["status"], "DIFFERS");
    assert_eq!(authority["follows"], json!(["port"]));
}

// The hardening issue (26): the server against hostile clients. Memory is
// held to a budget with `ulimit -v`; no assertion is about time (a slow
// client is waited for, with generous socket timeouts as a safeguard).

/// A budget of address space for the server when it does not load a
/// grammar: ten times what it takes with 48 connections open.
const BUDGET_KIB: u64 = 512 * 1024;

/// Sends `request` (from a thread of its own: the server may answer and
/// close before it has all been sent) and reads until the server closes;
/// what it answered, possibly nothing.
fn send(port: u16, request: impl AsRef<[u8]> + Send + 'static) -> Vec<u8> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(std::time::Duration::from_secs(120)))
        .unwrap();
    let mut writer = s.try_clone().unwrap();
    let sending = std::thread::spawn(move || {
        let _ = writer.write_all(request.as_ref());
    });
    let mut raw = Vec::new();
    // A reset after the answer (the server stopped reading) is no error.
    let mut buf = [0u8; 65536];
    loop {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => raw.extend_from_slice(&buf[..n]),
        }
    }
    drop(s);
    sending.join().unwrap();
    raw
}

/// Shared request bytes.
struct ArcBytes(std::sync::Arc<Vec<u8>>);

impl AsRef<[u8]> for ArcBytes {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// The status and JSON of an answer.
fn answer(raw: &[u8]) -> (u16, Value) {
    let text = String::from_utf8_lossy(raw);
    let status = text
        .strip_prefix("HTTP/1.1 ")
        .and_then(|t| t.get(..3))
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("not an answer: {text:?}"));
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// The server still answers: `GET /` is 200.
fn assert_alive(server: &Server) {
    let (status, _, _) = get(server, "/", &format!("127.0.0.1:{}", server.port));
    assert_eq!(status, 200, "the server no longer answers");
}

/// A connection that sent a POST head and part of its body, then stalls.
fn stalled(port: u16) -> TcpStream {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(120)))
        .unwrap();
    write!(s, "POST /api/parse HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{{\"input\"").unwrap();
    s
}

#[test]
fn item_1_content_length_of_a_terabyte_on_every_answer() {
    let server = start_with(Some(BUDGET_KIB), &["--timeout", "120"]);
    let port = server.port;
    let huge = "Content-Length: 1000000000000\r\n";
    for (head, status) in [
        (format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"), 200),
        (format!("GET /app.js HTTP/1.0\r\nHost: localhost:{port}\r\n"), 200),
        (format!("GET / HTTP/1.1\r\nHost: evil.example:{port}\r\n"), 403),
        (format!("GET /nope HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"), 404),
        (format!("PUT /api/parse HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"), 405),
        (format!("POST /api/parse HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"), 413),
        (format!("POST /api/parse HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: text/plain\r\n"), 415),
    ] {
        // The head, then as much of the body as the server takes.
        let mut request = format!("{head}{huge}\r\n").into_bytes();
        request.resize(request.len() + (4 << 20), b'x');
        let (got, _) = answer(&send(port, request));
        assert_eq!(got, status, "{head}");
        assert_alive(&server);
    }
    // And on the busy answer: every connection slot held.
    let held: Vec<TcpStream> = (0..32).map(|_| stalled(port)).collect();
    let request = format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{huge}\r\n");
    let (status, v) = answer(&send(port, request.into_bytes()));
    assert_eq!((status, v["error"]["kind"].as_str()), (503, Some("busy")));
    drop(held);
    // The slots come back as their connections close.
    let mut status = 0;
    for _ in 0..600 {
        status = get(&server, "/", &format!("127.0.0.1:{port}")).0;
        if status == 200 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert_eq!(status, 200);
}

#[test]
fn item_4_slow_clients_cost_only_their_own_connection() {
    let server = start_with(None, &["--timeout", "120"]);
    let port = server.port;
    // Eight bodies that never end (they held every request slot).
    let mut slow: Vec<TcpStream> = (0..8).map(|_| stalled(port)).collect();
    assert_alive(&server);
    let (status, v) = post(&server, "/api/parse", &json!({"input": "a:b"}));
    assert_eq!((status, &v["valid"]), (200, &json!(true)));
    // All 32 connection slots: the next connection is told at once that
    // the server is busy (the accept loop does not wait for anyone).
    slow.extend((8..32).map(|_| stalled(port)));
    let (status, _, body) = get(&server, "/", &format!("127.0.0.1:{port}"));
    assert_eq!(status, 503);
    let v: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(v["error"]["kind"], "busy");
    drop(slow);

    // With a short timeout, a stalled client is answered 408 and closed;
    // one that sent nothing is closed without a word.
    let server = start_with(None, &["--timeout", "0.5"]);
    let port = server.port;
    let slow: Vec<TcpStream> = (0..3).map(|_| stalled(port)).collect();
    let mut idle = TcpStream::connect(("127.0.0.1", port)).unwrap();
    idle.set_read_timeout(Some(std::time::Duration::from_secs(120)))
        .unwrap();
    let mut half = TcpStream::connect(("127.0.0.1", port)).unwrap();
    half.set_read_timeout(Some(std::time::Duration::from_secs(120)))
        .unwrap();
    half.write_all(b"GET / HTTP/1.1\r\nHost: 127.0").unwrap();
    for mut s in slow.into_iter().chain([half]) {
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).expect("closed by the server");
        let (status, v) = answer(&raw);
        assert_eq!(
            (status, v["error"]["kind"].as_str()),
            (408, Some("timeout"))
        );
    }
    let mut raw = Vec::new();
    idle.read_to_end(&mut raw).expect("closed by the server");
    assert_eq!(raw, b"");
    assert_alive(&server);
}

#[test]
fn item_10_heads_past_16_kib_get_431_within_a_memory_budget() {
    let server = start_with(Some(BUDGET_KIB), &[]);
    let port = server.port;
    // Twenty 50 MB headers at once (each took 100 MB, with no cap on
    // connections).
    let mut request = format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Big: ").into_bytes();
    request.resize(request.len() + (50 << 20), b'a');
    request.extend(b"\r\n\r\n");
    let request = std::sync::Arc::new(request);
    let big: Vec<_> = (0..20)
        .map(|_| {
            let request = std::sync::Arc::clone(&request);
            std::thread::spawn(move || answer(&send(port, ArcBytes(request))))
        })
        .collect();
    for t in big {
        let (status, v) = t.join().unwrap();
        assert_eq!(
            (status, v["error"]["kind"].as_str()),
            (431, Some("headers-too-large"))
        );
    }
    let many: String = (0..2000).map(|i| format!("X-{i}: a\r\n")).collect();
    for request in [
        format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{many}\r\n"),
        format!(
            "GET /{} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n",
            "a".repeat(100_000)
        ),
    ] {
        let (status, _) = answer(&send(port, request.into_bytes()));
        assert_eq!(status, 431);
    }
    // A browser's head with some cookies is well within the limit.
    let cookies = format!("Cookie: {}\r\n", "k=v; ".repeat(1500));
    let request = format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{cookies}\r\n");
    assert_eq!(answer(&send(port, request.into_bytes())).0, 200);
    assert_alive(&server);
}

#[test]
fn item_18_origin_with_another_port_and_two_hosts_are_refused() {
    let server = start();
    let port = server.port;
    for (fields, status) in [
        (
            format!("Host: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1"),
            403,
        ),
        (
            format!("Host: 127.0.0.1:{port}\r\nOrigin: http://localhost"),
            403,
        ),
        (
            format!(
                "Host: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{}",
                port.wrapping_add(1)
            ),
            403,
        ),
        (
            format!("Host: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}"),
            200,
        ),
        ("Host: 127.0.0.1".to_string(), 403),
        (format!("Host: 127.0.0.1:{port}\r\nHost: evil.example"), 400),
        (format!("Host: evil.example\r\nHost: 127.0.0.1:{port}"), 400),
        (
            format!("Host: 127.0.0.1:{port}\r\nHost: 127.0.0.1:{port}"),
            400,
        ),
    ] {
        let (got, _, body) = exchange(port, &format!("GET / HTTP/1.1\r\n{fields}"), b"");
        assert_eq!(got, status, "{fields}");
        if status != 200 {
            let v: Value = serde_json::from_slice(&body).unwrap();
            assert!(v["error"]["kind"].is_string(), "{v}");
        }
    }
}

#[test]
fn the_call_limit_message_names_the_call_limit() {
    let server = start();
    // Exponential backtracking: pest stops it at the call limit, long
    // before the stack limit.
    let grammar = "a = { b ~ \"y\" }\nb = { (\"x\" ~ b ~ \"z\" | \"x\" ~ b | \"x\")? }\n";
    let (status, v) = post(
        &server,
        "/api/parse",
        &json!({"grammar": grammar, "rule": "a", "input": "x".repeat(40)}),
    );
    assert_eq!(
        (status, v["error"]["kind"].as_str()),
        (422, Some("limit")),
        "{v}"
    );
    let message = v["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("more rule calls than pest's call limit allows"),
        "{message}"
    );
    assert!(
        message.contains("(pest: call limit reached, at character 40)"),
        "{message}"
    );
    assert!(
        message.ends_with("(the playground allows 5 million rule calls a parse)"),
        "{message}"
    );
    assert!(!message.contains("stack"), "{message}");
}
