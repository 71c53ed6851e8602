//! The HTTP/1.1 side of `iri grammar serve`: the connection loop, reading a
//! request within limits, the checks every request passes (a loopback
//! `Host`, no foreign `Origin`, JSON bodies), the routes, and the answer.
//! The playground's endpoints are behind [`Api`].
//!
//! httparse parses the request head; the limits are ours. Each connection
//! has a thread of its own and carries one request: the answer says
//! `Connection: close`, and the connection is closed after it. A client has
//! [`Site::timeout`] to send its whole request (head and body, however
//! slowly it trickles in) and as long again to read the answer; past
//! [`MAX_HEAD`] bytes of head the answer is `431`, past [`MAX_BODY`] bytes
//! of body `413` (from `Content-Length`, unread); past [`MAX_CONNECTIONS`]
//! connections `503`, and past [`BUSY_CONNECTIONS`] more the connection is
//! closed at once. A body is never read past what the request is allowed:
//! what the client still sends after the answer is read and dropped, a
//! little at a time and for [`LINGER`] at most, so that closing does not
//! reset the connection before the client has read the answer.
//!
//! The file depends on std, httparse, httpdate, serde and serde_json only:
//! the fuzz target `serve` (fuzz/fuzz_targets/serve.rs) compiles it as it
//! is and drives [`exchange`] with bytes (`Scripted`, built for the tests
//! and the fuzz target).

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use serde_json::{json, Map, Value};

/// The longest request head (request line and header fields): 16 KiB, as
/// Node's HTTP server allows. The page's own heads are under 1 KiB, but a
/// browser sends along the cookies of every other server on 127.0.0.1
/// (cookies ignore the port). Longer: `431`.
pub(crate) const MAX_HEAD: usize = 16 * 1024;

/// Header fields in a head; more: `431`.
pub(crate) const MAX_HEADERS: usize = 64;

/// The largest request body read (a grammar, an input, ABNF): 1 MiB, some
/// thirty times the built-in grammar. Larger: `413`, from `Content-Length`,
/// without reading it.
pub(crate) const MAX_BODY: usize = 1 << 20;

/// Connections served at once, each on a thread of its own, from accepting
/// it to closing it (a slow client holds one until its timeout).
pub(crate) const MAX_CONNECTIONS: usize = 32;

/// Connections past [`MAX_CONNECTIONS`] that are still answered, with
/// `503` `busy` once their head is in; past those, a connection is closed
/// as soon as it is accepted.
pub(crate) const BUSY_CONNECTIONS: usize = 16;

/// Requests being answered at once, once read (a parse, a check, a diff, a
/// built-in grammar); more get `503` `busy`.
pub(crate) const MAX_IN_FLIGHT: usize = 8;

/// How long a client has to send its request, and then to read the answer,
/// unless `--timeout` says otherwise.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// After the answer, what the client still sends (a body refused unread)
/// is read and dropped for at most this long...
pub(crate) const LINGER: Duration = Duration::from_secs(2);

/// ...and at most this many bytes, through a buffer of 8 KiB.
pub(crate) const LINGER_BYTES: u64 = 2 << 20;

/// The message of a panic's `500`.
const INTERNAL: &str =
    "internal error (a bug in iri: please report it, with the grammar and the input)";

/// An error answer: the status code, and what its JSON says.
#[derive(Debug)]
pub(crate) struct ApiError {
    pub(crate) status: u16,
    pub(crate) kind: &'static str,
    pub(crate) message: String,
    /// More keys of the error object (the rules of a grammar).
    pub(crate) extra: Option<Box<(&'static str, Value)>>,
    /// A `405`'s `Allow` field (RFC 9110 §15.5.6).
    allow: Option<&'static str>,
}

impl ApiError {
    pub(crate) fn new(status: u16, kind: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            kind,
            message: message.into(),
            extra: None,
            allow: None,
        }
    }

    /// With one more key in the error object.
    pub(crate) fn with(mut self, key: &'static str, value: Value) -> ApiError {
        self.extra = Some(Box::new((key, value)));
        self
    }

    fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(400, "bad-request", message)
    }

    fn busy(message: impl Into<String>) -> ApiError {
        ApiError::new(503, "busy", message)
    }

    /// `{"error": {"kind", "message", ...}}`.
    pub(crate) fn json(&self) -> Value {
        let mut e = json!({"kind": self.kind, "message": self.message});
        if let Some(extra) = &self.extra {
            e[extra.0] = extra.1.clone();
        }
        json!({ "error": e })
    }
}

/// A call of the playground's API, its request read and checked.
pub(crate) enum Call<'r> {
    /// `GET /api/grammar?QUERY`.
    Grammar { query: &'r str },
    /// `POST /api/parse` and its JSON object.
    Parse(&'r Map<String, Value>),
    /// `POST /api/check`.
    Check(&'r Map<String, Value>),
    /// `POST /api/diff`.
    Diff(&'r Map<String, Value>),
}

/// The playground's endpoints.
pub(crate) trait Api: Send + Sync {
    /// The JSON answer to `call` (status `200`), or the error.
    fn call(&self, call: Call<'_>) -> Result<Value, ApiError>;
}

/// A page served as it is.
pub(crate) struct Page {
    pub(crate) path: &'static str,
    pub(crate) content_type: &'static str,
    pub(crate) body: &'static str,
}

/// What the connections share: the server's port (for the `Host` and
/// `Origin` checks), its pages and API, its timeout and its counters.
pub(crate) struct Site {
    port: u16,
    pages: &'static [Page],
    api: Box<dyn Api>,
    /// The keys of a request body that the API reads: the others are
    /// skipped unread, and arrays and objects are kept empty, so that a
    /// body takes no more memory parsed than as text.
    fields: &'static [&'static str],
    timeout: Duration,
    connections: Arc<AtomicUsize>,
    in_flight: Arc<AtomicUsize>,
}

impl Site {
    pub(crate) fn new(
        port: u16,
        pages: &'static [Page],
        fields: &'static [&'static str],
        api: Box<dyn Api>,
        timeout: Duration,
    ) -> Site {
        Site {
            port,
            pages,
            api,
            fields,
            timeout,
            connections: Arc::new(AtomicUsize::new(0)),
            in_flight: Arc::new(AtomicUsize::new(0)),
        }
    }
}

/// One of `max` places, given back when dropped.
struct Slot {
    count: Arc<AtomicUsize>,
    /// How many were taken before this one.
    rank: usize,
}

impl Slot {
    fn take(count: &Arc<AtomicUsize>, max: usize) -> Option<Slot> {
        let rank = count.fetch_add(1, Ordering::SeqCst);
        let slot = Slot {
            count: Arc::clone(count),
            rank,
        };
        (rank < max).then_some(slot)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.count.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Accepts connections for ever, each on a thread of its own. The loop
/// itself never reads or writes: a slow client costs only its own thread
/// and slot, until its timeout.
pub(crate) fn run(listener: TcpListener, site: Arc<Site>) {
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(s) => s,
            // Out of file descriptors, or a connection reset before it was
            // accepted: nothing to answer; a pause, so that a lasting
            // error does not spin.
            Err(_) => {
                std::thread::sleep(Duration::from_millis(10));
                continue;
            }
        };
        let Some(slot) = Slot::take(&site.connections, MAX_CONNECTIONS + BUSY_CONNECTIONS) else {
            // Closed at once.
            continue;
        };
        let busy = slot.rank >= MAX_CONNECTIONS;
        let shared = Arc::clone(&site);
        let spawned = std::thread::Builder::new()
            .name("iri-serve".into())
            .spawn(move || {
                let _slot = slot;
                let mut stream = stream;
                // One write per answer; Nagle's algorithm would only delay.
                let _ = stream.set_nodelay(true);
                exchange(&mut stream, &shared, busy);
            });
        if let Err(e) = spawned {
            // The closure, the connection and its slot with it, is dropped.
            eprintln!("iri: cannot start a thread for a connection: {e}");
        }
    }
}

/// A connection as [`exchange`] needs it: bytes both ways, a time limit on
/// the next read or write, and closing the writing side.
pub(crate) trait Socket: Read + Write {
    /// The next reads wait at most `left`.
    fn limit_reads(&mut self, left: Duration) -> io::Result<()>;
    /// The next writes wait at most `left`.
    fn limit_writes(&mut self, left: Duration) -> io::Result<()>;
    /// Sends the end of the answer (TCP FIN); reading goes on.
    fn close_writing(&mut self);
}

impl Socket for TcpStream {
    fn limit_reads(&mut self, left: Duration) -> io::Result<()> {
        self.set_read_timeout(Some(left))
    }

    fn limit_writes(&mut self, left: Duration) -> io::Result<()> {
        self.set_write_timeout(Some(left))
    }

    fn close_writing(&mut self) {
        let _ = self.shutdown(Shutdown::Write);
    }
}

/// A socket whose reads and writes all end by `deadline`.
struct Timed<'s, S> {
    socket: &'s mut S,
    deadline: Instant,
}

impl<S: Socket> Timed<'_, S> {
    fn left(&self) -> io::Result<Duration> {
        match self.deadline.checked_duration_since(Instant::now()) {
            Some(left) if !left.is_zero() => Ok(left),
            _ => Err(io::ErrorKind::TimedOut.into()),
        }
    }
}

impl<S: Socket> Read for Timed<'_, S> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.left()?;
        self.socket.limit_reads(left)?;
        self.socket.read(buf)
    }
}

impl<S: Socket> Write for Timed<'_, S> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let left = self.left()?;
        self.socket.limit_writes(left)?;
        self.socket.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.socket.flush()
    }
}

/// Whether a read failed because its time ran out (a socket's timeout is
/// `WouldBlock` on Unix, `TimedOut` on Windows).
fn timed_out(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}

/// Serves one connection: reads its request, writes the answer (a panic
/// anywhere on the way is answered `500`), closes it. With `busy`, any
/// request is answered `503`.
pub(crate) fn exchange<S: Socket>(socket: &mut S, site: &Site, busy: bool) {
    let deadline = Instant::now() + site.timeout;
    let reply = catch_unwind(AssertUnwindSafe(|| {
        answer(&mut Timed { socket, deadline }, site, busy)
    }))
    .unwrap_or_else(|_| Some(ApiError::new(500, "internal", INTERNAL).into()));
    if let Some(reply) = reply {
        let mut out = Timed {
            socket,
            deadline: Instant::now() + site.timeout,
        };
        // The client may have gone: nothing to do about it.
        let _ = out.write_all(&reply.bytes()).and_then(|()| out.flush());
    }
    socket.close_writing();
    let mut rest = Timed {
        socket,
        deadline: Instant::now() + LINGER.min(site.timeout),
    };
    let _ = io::copy(&mut (&mut rest).take(LINGER_BYTES), &mut io::sink());
}

/// The answer to the connection's request; `None` when there is nothing to
/// answer (the client sent nothing, or left before its head was in).
fn answer<S: Socket>(conn: &mut Timed<'_, S>, site: &Site, busy: bool) -> Option<Response> {
    let (head, start) = match read_head(conn, site) {
        Ok(h) => h,
        Err(e) => return e.map(Response::from),
    };
    if busy {
        return Some(ApiError::busy("too many connections at once: try again").into());
    }
    Some(route(conn, site, &head, start).unwrap_or_else(Response::from))
}

/// A request's line and header fields.
struct Head {
    method: String,
    target: String,
    /// The minor version: 0 for HTTP/1.0, 1 for HTTP/1.1.
    version: u8,
    fields: Vec<(String, Vec<u8>)>,
}

impl Head {
    /// The values of the fields named `name` (case-insensitive).
    fn values<'h>(&'h self, name: &'static str) -> impl Iterator<Item = &'h [u8]> + 'h {
        self.fields
            .iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_slice())
    }

    /// The value of the field `name` when it is there once; two are an
    /// error (which would the server believe?).
    fn single(&self, name: &'static str) -> Result<Option<&str>, ApiError> {
        let mut values = self.values(name);
        let Some(value) = values.next() else {
            return Ok(None);
        };
        if values.next().is_some() {
            return Err(ApiError::bad(format!(
                "more than one {name} header field (RFC 9110 §5.3)"
            )));
        }
        std::str::from_utf8(value)
            .map(Some)
            .map_err(|_| ApiError::bad(format!("the {name} header field is not ASCII")))
    }
}

/// Reads the request head: the head, and the bytes read past it (the start
/// of the body). `Err(None)` when there is nothing to answer.
fn read_head<S: Socket>(
    conn: &mut Timed<'_, S>,
    site: &Site,
) -> Result<(Head, Vec<u8>), Option<ApiError>> {
    let too_large = || {
        ApiError::new(
            431,
            "headers-too-large",
            format!("the request head is longer than {MAX_HEAD} bytes, or has more than {MAX_HEADERS} header fields"),
        )
    };
    let mut buf = Vec::with_capacity(2048);
    let mut chunk = [0u8; 4096];
    // Where the request line starts (past the empty lines a request may
    // start with), and where to look for the empty line that ends the head.
    let mut lead = None;
    let mut scanned = 0;
    loop {
        // One byte past the limit tells a head that is too long.
        let room = (MAX_HEAD + 1 - buf.len()).min(chunk.len());
        let n = match conn.read(&mut chunk[..room]) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) if timed_out(&e) => {
                // A connection opened ahead of time (browsers do) and never
                // used is closed without a word.
                return Err((!buf.is_empty()).then(|| {
                    ApiError::new(
                        408,
                        "timeout",
                        format!(
                            "the request head did not arrive within {} s",
                            site.timeout.as_secs_f64()
                        ),
                    )
                }));
            }
            Err(_) => return Err(None),
        };
        if n == 0 {
            return Err((!buf.is_empty())
                .then(|| ApiError::bad("the connection ended before the request head did")));
        }
        buf.extend_from_slice(&chunk[..n]);
        // The head ends with an empty line ("\r\n" or "\n", RFC 9112 §2.2),
        // after the request line.
        if lead.is_none() {
            lead = buf[scanned..]
                .iter()
                .position(|&b| b != b'\r' && b != b'\n')
                .map(|i| scanned + i);
        }
        let ends = lead.is_some_and(|lead| {
            buf[scanned.max(lead)..]
                .windows(2)
                .any(|w| w == b"\n\n" || w == b"\n\r")
        });
        // The next look starts with this one's last two bytes ("\n\r" then
        // "\n").
        scanned = buf.len().saturating_sub(2);
        if !ends {
            if buf.len() > MAX_HEAD {
                return Err(Some(too_large()));
            }
            continue;
        }
        let mut fields = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut request = httparse::Request::new(&mut fields);
        match request.parse(&buf) {
            Ok(httparse::Status::Complete(len)) if len <= MAX_HEAD => {
                let head = Head {
                    method: request.method.unwrap_or_default().to_string(),
                    target: request.path.unwrap_or_default().to_string(),
                    version: request.version.unwrap_or(1),
                    fields: request
                        .headers
                        .iter()
                        .map(|h| (h.name.to_string(), h.value.trim_ascii().to_vec()))
                        .collect(),
                };
                return Ok((head, buf[len..].to_vec()));
            }
            Ok(httparse::Status::Complete(_)) => return Err(Some(too_large())),
            // "\n\r" followed by something other than "\n": not the end.
            Ok(httparse::Status::Partial) if buf.len() <= MAX_HEAD => {}
            Ok(httparse::Status::Partial) | Err(httparse::Error::TooManyHeaders) => {
                return Err(Some(too_large()))
            }
            Err(e) => {
                return Err(Some(ApiError::bad(format!(
                    "the request head is malformed: {e}"
                ))))
            }
        }
    }
}

/// Whether a `Host` field (or an origin's host and port) names this server
/// on the loopback interface: `127.0.0.1`, `localhost` or `[::1]`, with its
/// port (left out only when it is 80, http's default).
pub(crate) fn loopback_host(host: &str, port: u16) -> bool {
    let (name, given) = match host.rsplit_once(':') {
        Some((n, p)) if !n.is_empty() && !p.contains(']') => (n, Some(p)),
        _ => (host, None),
    };
    let name_ok = name == "127.0.0.1" || name.eq_ignore_ascii_case("localhost") || name == "[::1]";
    let port_ok = match given {
        None => port == 80,
        Some(p) => !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) && p.parse() == Ok(port),
    };
    name_ok && port_ok
}

/// The checks before any route: one `Host`, naming this server; at most
/// one `Origin`, this server's.
fn gate(head: &Head, port: u16) -> Result<(), ApiError> {
    // DNS rebinding: a page of evil.example whose name now resolves to
    // 127.0.0.1 sends `Host: evil.example`. Two Host fields: RFC 9112 §3.2.
    match head.single("Host") {
        Ok(Some(h)) if loopback_host(h, port) => {}
        Ok(Some(_)) => {
            return Err(ApiError::new(
                403,
                "forbidden",
                "the Host header does not name this server on the loopback interface (127.0.0.1, localhost, with its port)",
            ))
        }
        Ok(None) => return Err(ApiError::bad("no Host header")),
        Err(_) => {
            return Err(ApiError::bad(
                "more than one Host header field (RFC 9112 §3.2)",
            ))
        }
    }
    // A page elsewhere (another port is another origin) posting here.
    if let Some(origin) = head.single("Origin")? {
        let ok = origin
            .strip_prefix("http://")
            .is_some_and(|h| loopback_host(h, port));
        if !ok {
            return Err(ApiError::new(
                403,
                "forbidden",
                "requests from other origins are refused",
            ));
        }
    }
    Ok(())
}

fn not_allowed(method: &str, path: &str, allow: &'static str) -> ApiError {
    ApiError {
        allow: Some(allow),
        ..ApiError::new(
            405,
            "method-not-allowed",
            format!("{method} is not allowed on {path}"),
        )
    }
}

fn route<S: Socket>(
    conn: &mut Timed<'_, S>,
    site: &Site,
    head: &Head,
    start: Vec<u8>,
) -> Result<Response, ApiError> {
    gate(head, site.port)?;
    let (path, query) = head.target.split_once('?').unwrap_or((&head.target, ""));
    let method = head.method.as_str();
    if let Some(page) = site.pages.iter().find(|p| p.path == path) {
        if method != "GET" {
            return Err(not_allowed(method, path, "GET"));
        }
        return Ok(Response::new(200, page.content_type, page.body.into()));
    }
    let (post, allowed) = match path {
        "/api/grammar" => (false, "GET"),
        "/api/parse" | "/api/check" | "/api/diff" => (true, "POST"),
        _ => return Err(ApiError::new(404, "not-found", format!("no page {path}"))),
    };
    if method != allowed {
        return Err(not_allowed(method, path, allowed));
    }
    if !post {
        let _slot = in_flight(site)?;
        let v = site.api.call(Call::Grammar { query })?;
        return Ok(Response::json(200, &v));
    }
    let body = read_body(conn, site, head, start)?;
    // Read, a request waits for nothing: it is answered now, or refused.
    let _slot = in_flight(site)?;
    let object = json_object(&body, site.fields)?;
    drop(body);
    let call = match path {
        "/api/parse" => Call::Parse(&object),
        "/api/check" => Call::Check(&object),
        _ => Call::Diff(&object),
    };
    let v = site.api.call(call)?;
    Ok(Response::json(200, &v))
}

fn in_flight(site: &Site) -> Result<Slot, ApiError> {
    Slot::take(&site.in_flight, MAX_IN_FLIGHT)
        .ok_or_else(|| ApiError::busy("too many requests at once: try again"))
}

/// The request's JSON body, within [`MAX_BODY`]; `start` is what was read
/// of it with the head.
fn read_body<S: Socket>(
    conn: &mut Timed<'_, S>,
    site: &Site,
    head: &Head,
    mut start: Vec<u8>,
) -> Result<Vec<u8>, ApiError> {
    let json_type = head.single("Content-Type")?.is_some_and(|t| {
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
    if head.values("Transfer-Encoding").next().is_some() {
        // RFC 9112 §6.3: a server may ask for a length.
        return Err(ApiError::new(
            411,
            "length-required",
            "send the body with a Content-Length (no Transfer-Encoding)",
        ));
    }
    let length = match head.single("Content-Length")? {
        None => 0,
        Some(v) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => {
            // All digits: only too large a number fails.
            v.parse::<u64>().unwrap_or(u64::MAX)
        }
        Some(v) => {
            return Err(ApiError::bad(format!(
                "Content-Length {v:?} is not a number"
            )))
        }
    };
    if length > MAX_BODY as u64 {
        return Err(ApiError::new(
            413,
            "too-large",
            format!("the request body is larger than {MAX_BODY} bytes"),
        ));
    }
    let length = length as usize;
    // Whatever came after the body (a pipelined request) is not answered.
    start.truncate(length);
    let missing = length - start.len();
    if missing > 0
        && head.version == 1
        && head
            .single("Expect")?
            .is_some_and(|e| e.eq_ignore_ascii_case("100-continue"))
    {
        conn.write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
            .and_then(|()| conn.flush())
            .map_err(|e| ApiError::bad(format!("cannot write: {e}")))?;
    }
    let mut body = start;
    body.reserve_exact(missing);
    if let Err(e) = Read::take(&mut *conn, missing as u64).read_to_end(&mut body) {
        return Err(if timed_out(&e) {
            ApiError::new(
                408,
                "timeout",
                format!(
                    "the request did not arrive within {} s ({} of its {length} body bytes did)",
                    site.timeout.as_secs_f64(),
                    body.len()
                ),
            )
        } else {
            ApiError::bad(format!("cannot read the body: {e}"))
        });
    }
    if body.len() < length {
        return Err(ApiError::bad(format!(
            "the connection ended after {} of the body's {length} bytes",
            body.len()
        )));
    }
    Ok(body)
}

/// The body's JSON object, with only the `fields` the API reads: their
/// strings, numbers, booleans and nulls as they are, their arrays and
/// objects emptied (a field of the wrong type is refused by its name all
/// the same).
fn json_object(
    body: &[u8],
    fields: &'static [&'static str],
) -> Result<Map<String, Value>, ApiError> {
    use serde::de::DeserializeSeed;
    let mut de = serde_json::Deserializer::from_slice(body);
    let parsed = shallow::Top(fields)
        .deserialize(&mut de)
        .and_then(|top| de.end().map(|()| top));
    match parsed {
        Ok(Some(m)) => Ok(m),
        Ok(None) => Err(ApiError::bad("the body must be a JSON object")),
        Err(e) => Err(ApiError::bad(format!("the body is not JSON: {e}"))),
    }
}

/// Reading a JSON body without building what the API does not read.
mod shallow {
    use std::fmt;

    use serde::de::{
        self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor,
    };
    use serde_json::{Map, Value};

    /// The top of a body: `Some` of its object's known fields, `None` for
    /// any other JSON value.
    pub(super) struct Top(pub(super) &'static [&'static str]);

    impl<'de> DeserializeSeed<'de> for Top {
        type Value = Option<Map<String, Value>>;

        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_any(self)
        }
    }

    /// Any value but an object.
    fn other<E>() -> Result<Option<Map<String, Value>>, E> {
        Ok(None)
    }

    impl<'de> Visitor<'de> for Top {
        type Value = Option<Map<String, Value>>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON object")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut m = Map::new();
            while let Some(key) = map.next_key::<String>()? {
                if self.0.contains(&key.as_str()) {
                    m.insert(key, map.next_value_seed(Scalar)?);
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(Some(m))
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            other()
        }

        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            other()
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            other()
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            other()
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            other()
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            other()
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            other()
        }
    }

    /// A field's value: a scalar as it is, an array or object emptied.
    struct Scalar;

    impl<'de> DeserializeSeed<'de> for Scalar {
        type Value = Value;

        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
            d.deserialize_any(self)
        }
    }

    impl<'de> Visitor<'de> for Scalar {
        type Value = Value;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON value")
        }

        fn visit_bool<E: de::Error>(self, b: bool) -> Result<Value, E> {
            Ok(b.into())
        }
        fn visit_i64<E: de::Error>(self, n: i64) -> Result<Value, E> {
            Ok(n.into())
        }
        fn visit_u64<E: de::Error>(self, n: u64) -> Result<Value, E> {
            Ok(n.into())
        }
        fn visit_f64<E: de::Error>(self, n: f64) -> Result<Value, E> {
            Ok(n.into())
        }
        fn visit_str<E: de::Error>(self, s: &str) -> Result<Value, E> {
            Ok(s.into())
        }
        fn visit_string<E: de::Error>(self, s: String) -> Result<Value, E> {
            Ok(s.into())
        }
        fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
            Ok(Value::Null)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(Value::Array(Vec::new()))
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok(Value::Object(Map::new()))
        }
    }
}

/// An answer, with the headers every answer has.
pub(crate) struct Response {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
    /// A `405`'s `Allow`.
    allow: Option<&'static str>,
}

impl From<ApiError> for Response {
    fn from(e: ApiError) -> Response {
        Response {
            allow: e.allow,
            ..Response::json(e.status, &e.json())
        }
    }
}

/// The reason phrase of a status this server gives (RFC 9110 §15).
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}

impl Response {
    fn new(status: u16, content_type: &'static str, body: Vec<u8>) -> Response {
        Response {
            status,
            content_type,
            body,
            allow: None,
        }
    }

    fn json(status: u16, value: &Value) -> Response {
        Response::new(
            status,
            "application/json; charset=utf-8",
            value.to_string().into_bytes(),
        )
    }

    /// The status line, the header fields and the body.
    fn bytes(&self) -> Vec<u8> {
        let mut head = format!(
            "HTTP/1.1 {} {}\r\nDate: {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\nContent-Security-Policy: default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'\r\n",
            self.status,
            reason(self.status),
            httpdate::fmt_http_date(SystemTime::now()),
            self.content_type,
            self.body.len(),
        );
        if let Some(allow) = self.allow {
            head.push_str(&format!("Allow: {allow}\r\n"));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(&self.body);
        bytes
    }
}

/// A connection played from bytes, for tests and the fuzz target: reads
/// give `input` in pieces of at most `piece` bytes, then the end of the
/// connection, or with `time_out` a read that timed out; what is written
/// is kept.
#[cfg(any(test, fuzzing))]
pub(crate) struct Scripted<R> {
    pub(crate) input: R,
    pub(crate) piece: usize,
    pub(crate) time_out: bool,
    pub(crate) written: Vec<u8>,
    /// Bytes read so far, and when the first byte was written.
    pub(crate) read: u64,
    pub(crate) read_before_answer: Option<u64>,
    pub(crate) closed_writing: bool,
}

#[cfg(any(test, fuzzing))]
impl<R: Read> Scripted<R> {
    pub(crate) fn new(input: R, piece: usize, time_out: bool) -> Scripted<R> {
        Scripted {
            input,
            piece: piece.max(1),
            time_out,
            written: Vec::new(),
            read: 0,
            read_before_answer: None,
            closed_writing: false,
        }
    }
}

#[cfg(any(test, fuzzing))]
impl<R: Read> Read for Scripted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.piece);
        let n = self.input.read(&mut buf[..n])?;
        if n == 0 && self.time_out && !buf.is_empty() {
            return Err(io::ErrorKind::WouldBlock.into());
        }
        self.read += n as u64;
        Ok(n)
    }
}

#[cfg(any(test, fuzzing))]
impl<R: Read> Write for Scripted<R> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        assert!(!self.closed_writing, "a write after the end of the answer");
        self.read_before_answer.get_or_insert(self.read);
        self.written.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(any(test, fuzzing))]
impl<R: Read> Socket for Scripted<R> {
    fn limit_reads(&mut self, _: Duration) -> io::Result<()> {
        Ok(())
    }

    fn limit_writes(&mut self, _: Duration) -> io::Result<()> {
        Ok(())
    }

    fn close_writing(&mut self) {
        self.closed_writing = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The API's stand-in: answers what it was asked; `"input": "panic"`
    /// panics.
    struct Echo;

    impl Api for Echo {
        fn call(&self, call: Call<'_>) -> Result<Value, ApiError> {
            match call {
                Call::Grammar { query } => Ok(json!({ "grammar": query })),
                Call::Parse(body) if body.get("input") == Some(&json!("panic")) => {
                    panic!("a bug in a handler")
                }
                Call::Parse(body) | Call::Check(body) | Call::Diff(body) => {
                    Ok(Value::Object(body.clone()))
                }
            }
        }
    }

    const PAGES: &[Page] = &[Page {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: "<!doctype html>",
    }];

    fn site() -> Site {
        Site::new(
            8080,
            PAGES,
            &["input", "rule"],
            Box::new(Echo),
            DEFAULT_TIMEOUT,
        )
    }

    /// An answer as [`play_with`] reads it.
    struct Answer {
        status: u16,
        /// The JSON body (null for another).
        json: Value,
        /// The bytes read before the answer was written.
        read: u64,
    }

    /// The answer to `input`, read in pieces of `piece` bytes, then the
    /// end (or with `time_out`, a read that times out); `None` for none.
    fn play_with(site: &Site, input: impl Read, piece: usize, time_out: bool) -> Option<Answer> {
        let mut conn = Scripted::new(input, piece, time_out);
        exchange(&mut conn, site, false);
        assert!(conn.closed_writing);
        if conn.written.is_empty() {
            return None;
        }
        // A 100 Continue first, when the request asked for it.
        let written = conn
            .written
            .strip_prefix(b"HTTP/1.1 100 Continue\r\n\r\n")
            .unwrap_or(&conn.written);
        let mut fields = [httparse::EMPTY_HEADER; 32];
        let mut r = httparse::Response::new(&mut fields);
        let Ok(httparse::Status::Complete(len)) = r.parse(written) else {
            panic!("not an answer: {:?}", String::from_utf8_lossy(written));
        };
        let body = &written[len..];
        let length = r
            .headers
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case("content-length"))
            .expect("a Content-Length");
        assert_eq!(length.value, body.len().to_string().as_bytes());
        Some(Answer {
            status: r.code.unwrap(),
            json: serde_json::from_slice(body).unwrap_or(Value::Null),
            read: conn.read_before_answer.unwrap(),
        })
    }

    fn play(input: &[u8]) -> (u16, Value) {
        let a = play_with(&site(), input, usize::MAX, false).expect("an answer");
        (a.status, a.json)
    }

    fn post(extra: &str, body: &str) -> Vec<u8> {
        format!(
            "POST /api/parse HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\n{extra}Content-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    }

    fn kind(v: &Value) -> &str {
        v["error"]["kind"].as_str().unwrap_or("")
    }

    #[test]
    fn loopback_hosts_with_the_exact_port() {
        for ok in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LocalHost:8080",
            "[::1]:8080",
            "127.0.0.1:08080",
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
            // Port 80: another origin.
            "127.0.0.1",
            "localhost",
            "[::1]",
            "127.0.0.1:+8080",
            "127.0.0.1:8080 ",
            "[::1:8080]",
        ] {
            assert!(!loopback_host(bad, 8080), "{bad}");
        }
        // Without a port, only on http's own.
        assert!(loopback_host("127.0.0.1", 80));
        assert!(loopback_host("[::1]", 80));
    }

    #[test]
    fn item_18_origin_and_host_name_this_server_exactly() {
        let get = |fields: &str| play(format!("GET / HTTP/1.1\r\n{fields}\r\n").as_bytes());
        assert_eq!(get("Host: 127.0.0.1:8080\r\n").0, 200);
        assert_eq!(
            get("Host: 127.0.0.1:8080\r\nOrigin: http://127.0.0.1:8080\r\n").0,
            200
        );
        for origin in [
            "http://127.0.0.1",
            "http://localhost",
            "http://127.0.0.1:80",
            "http://127.0.0.1:8081",
            "https://127.0.0.1:8080",
            "http://127.0.0.1:8080/",
            "null",
        ] {
            let (status, v) = get(&format!("Host: 127.0.0.1:8080\r\nOrigin: {origin}\r\n"));
            assert_eq!((status, kind(&v)), (403, "forbidden"), "{origin}");
        }
        // Two Host fields (RFC 9112 §3.2), even equal ones, and two Origins.
        for fields in [
            "Host: 127.0.0.1:8080\r\nHost: evil.example\r\n",
            "Host: evil.example\r\nHost: 127.0.0.1:8080\r\n",
            "Host: 127.0.0.1:8080\r\nhost: 127.0.0.1:8080\r\n",
            "Host: 127.0.0.1:8080\r\nOrigin: http://127.0.0.1:8080\r\nOrigin: http://evil.example\r\n",
        ] {
            let (status, v) = get(fields);
            assert_eq!((status, kind(&v)), (400, "bad-request"), "{fields}");
            assert!(
                v["error"]["message"]
                    .as_str()
                    .unwrap()
                    .starts_with("more than one"),
                "{v}"
            );
        }
        assert_eq!(get("").0, 400, "no Host");
        assert_eq!(get("Host: 127.0.0.1\r\n").0, 403, "port 80");
    }

    #[test]
    fn item_1_a_huge_content_length_is_never_read_nor_allocated() {
        let huge = "Content-Length: 1000000000000\r\n";
        for (head, status) in [
            (
                format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n{huge}\r\n"),
                200,
            ),
            (
                format!("GET / HTTP/1.1\r\nHost: evil.example:8080\r\n{huge}\r\n"),
                403,
            ),
            (
                format!("POST /api/parse HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\n{huge}\r\n"),
                413,
            ),
        ] {
            // A body that never ends, as the header promises.
            let input = head.as_bytes().chain(io::repeat(b'x'));
            let Answer {
                status: got, read, ..
            } = play_with(&site(), input, 4096, false).expect("an answer");
            assert_eq!(got, status, "{head}");
            assert!(read < 8192, "{read} bytes read before answering");
        }
    }

    #[test]
    fn item_10_a_head_past_the_limit_is_431() {
        let long = format!(
            "GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nX-Long: {}\r\n\r\n",
            "a".repeat(MAX_HEAD)
        );
        let (status, v) = play(long.as_bytes());
        assert_eq!((status, kind(&v)), (431, "headers-too-large"));
        // A head that never ends: refused at the limit, not read on.
        let endless = b"GET / HTTP/1.1\r\nX: ".chain(io::repeat(b'a'));
        let Answer { status, read, .. } = play_with(&site(), endless, 1000, false).unwrap();
        assert_eq!(status, 431);
        assert!(read <= MAX_HEAD as u64 + 1, "{read}");
        let many: String = (0..MAX_HEADERS).map(|i| format!("X-{i}: a\r\n")).collect();
        let (status, _) =
            play(format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n{many}\r\n").as_bytes());
        assert_eq!(status, 431);
        // Just under the limits, the head is read: one byte at a time too.
        let fit = format!(
            "GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nX-Long: {}\r\n\r\n",
            "a".repeat(MAX_HEAD - 60)
        );
        assert!(fit.len() <= MAX_HEAD);
        assert_eq!(play(fit.as_bytes()).0, 200);
        let Answer { status, .. } = play_with(&site(), fit.as_bytes(), 1, false).unwrap();
        assert_eq!(status, 200);
    }

    #[test]
    fn bodies_within_the_limit_and_what_else_a_client_sends() {
        let (status, v) = play(&post("", r#"{"input": "a:b", "other": [1, [2]]}"#));
        assert_eq!((status, v), (200, json!({"input": "a:b"})));
        // Read in pieces of one byte, with Expect: 100-continue.
        let Answer {
            status, json: v, ..
        } = play_with(
            &site(),
            &post("Expect: 100-continue\r\n", r#"{"input": "x"}"#)[..],
            1,
            false,
        )
        .unwrap();
        assert_eq!((status, v), (200, json!({"input": "x"})));
        // Arrays and objects of a known field are kept empty.
        let (_, v) = play(&post(
            "",
            r#"{"input": [1, 2, {"a": 3}], "rule": {"b": []}}"#,
        ));
        assert_eq!(v, json!({"input": [], "rule": {}}));
        let big = format!("{{\"input\": \"{}\"}}", "a".repeat(MAX_BODY));
        let (status, v) = play(&post("", &big));
        assert_eq!((status, kind(&v)), (413, "too-large"));
        for (extra, body, status, what) in [
            (
                "Transfer-Encoding: chunked\r\n",
                "{}",
                411,
                "length-required",
            ),
            // Two lengths, even equal ones.
            ("Content-Length: 2\r\n", "{}", 400, "bad-request"),
            ("", "[1]", 400, "bad-request"),
            ("", "{} x", 400, "bad-request"),
            ("", &"[".repeat(100_000), 400, "bad-request"),
        ] {
            let (got, v) = play(&post(extra, body));
            assert_eq!((got, kind(&v)), (status, what), "{extra}{body}");
        }
        let bad_length = b"POST /api/parse HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\nContent-Length: +2\r\n\r\n{}";
        assert_eq!(play(bad_length).0, 400);
        let Answer { status, .. } = play_with(
            &site(),
            &b"PUT /api/parse HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n"[..],
            64,
            false,
        )
        .unwrap();
        assert_eq!(status, 405);
        let mut conn = Scripted::new(
            &b"DELETE / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n"[..],
            64,
            false,
        );
        exchange(&mut conn, &site(), false);
        let answer = String::from_utf8(conn.written).unwrap();
        assert!(
            answer.starts_with("HTTP/1.1 405 Method Not Allowed\r\n"),
            "{answer}"
        );
        assert!(answer.contains("\r\nAllow: GET\r\n"), "{answer}");
        assert!(answer.contains("\r\nConnection: close\r\n"), "{answer}");
        // Malformed heads.
        for head in [
            &b"GET / HTTP/2.0\r\nHost: 127.0.0.1:8080\r\n\r\n"[..],
            b"GET  / HTTP/1.1\r\n\r\n",
            b"\x00\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost 127.0.0.1:8080\r\n\r\n",
        ] {
            assert_eq!(play(head).0, 400, "{}", String::from_utf8_lossy(head));
        }
        // Empty lines before the request line are skipped (RFC 9112 §2.2).
        assert_eq!(
            play(b"\r\n\n\r\nGET / HTTP/1.1\nHost: 127.0.0.1:8080\n\n").0,
            200
        );
    }

    #[test]
    fn item_4_a_client_that_stalls_is_answered_408_or_dropped() {
        // The body stops short, and the next read times out.
        let Answer {
            status, json: v, ..
        } = play_with(&site(), &post("", r#"{"input": "x"}"#)[..40], 7, true).unwrap();
        assert_eq!((status, kind(&v)), (408, "timeout"));
        // Half a head.
        let Answer { status, .. } =
            play_with(&site(), &b"GET / HTTP/1.1\r\nHo"[..], 3, true).unwrap();
        assert_eq!(status, 408);
        // Nothing at all: closed without a word.
        assert!(play_with(&site(), &b""[..], 3, true).is_none());
        assert!(play_with(&site(), &b""[..], 3, false).is_none());
        // The connection ends early.
        let (status, v) = play(&post("", r#"{"input": "x"}"#)[..40]);
        assert_eq!((status, kind(&v)), (400, "bad-request"));
        let (status, _) = play(b"GET / HTTP/1.1\r\nHost: 127.0.0.1:80");
        assert_eq!(status, 400);
    }

    #[test]
    fn over_the_connection_cap_any_request_is_busy() {
        let mut conn = Scripted::new(io::Cursor::new(post("", "{}")), 64, false);
        exchange(&mut conn, &site(), true);
        let answer = String::from_utf8(conn.written).unwrap();
        assert!(answer.starts_with("HTTP/1.1 503 "), "{answer}");
        assert!(
            answer.ends_with(
                r#"{"error":{"kind":"busy","message":"too many connections at once: try again"}}"#
            ),
            "{answer}"
        );
    }

    #[test]
    fn a_panic_in_a_handler_is_a_500_and_the_server_goes_on() {
        let (status, v) = play(&post("", r#"{"input": "panic"}"#));
        assert_eq!((status, kind(&v)), (500, "internal"));
        // Over real connections: the server answers on.
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let port = listener.local_addr().unwrap().port();
        let site = Arc::new(Site::new(
            port,
            PAGES,
            &["input"],
            Box::new(Echo),
            DEFAULT_TIMEOUT,
        ));
        std::thread::spawn(move || run(listener, site));
        let ask = |body: &str| {
            let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
            s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
            write!(s, "POST /api/parse HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len()).unwrap();
            let mut answer = String::new();
            s.read_to_string(&mut answer).unwrap();
            answer
        };
        for _ in 0..3 {
            let answer = ask(r#"{"input": "panic"}"#);
            assert!(answer.starts_with("HTTP/1.1 500 "), "{answer}");
            assert!(answer.contains(r#""kind":"internal""#), "{answer}");
        }
        let answer = ask(r#"{"input": "a"}"#);
        assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
        assert!(answer.ends_with(r#"{"input":"a"}"#), "{answer}");
    }
}
