// The npm package iribis as a user gets it: installed from its tarball
// (wasm/build.sh packs it; .ci/run installs it here with `npm install
// --no-save`), loaded by require and import.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
const iribis = require("iribis");

test("the package loads by import too", async () => {
  const m = await import("iribis");
  assert.equal(m.default.isValid, iribis.isValid);
  assert.equal(typeof m.isValid, "function");
});

test("isValid: profiles and start rules", () => {
  assert.equal(iribis.isValid("https://例え.jp/résumé?q=日本#s"), true);
  assert.equal(iribis.isValid("https://例え.jp/", { profile: "rfc3986" }), false);
  assert.equal(iribis.isValid("//h/p", { rule: "IRI" }), false);
  assert.equal(iribis.isValid("//h/p"), true);
  assert.equal(iribis.isValid("a b", { profile: "leiri" }), true);
  assert.equal(iribis.isValid("a b"), false);
  assert.equal(iribis.isValid("[::1]", { rule: "IP-literal" }), true);
  assert.equal(iribis.isValid("192.0.2.256", { rule: "IPv4address" }), false);
  assert.equal(iribis.isValid("http://h/", { rule: "URI" }), true);
  assert.equal(iribis.isValid("http://例え.jp/", { rule: "URI" }), false);
  assert.equal(iribis.isValid("http://h/", { rule: "IRI", profile: "rfc3986" }), true);
  assert.equal(iribis.isValid(""), true);
  assert.equal(iribis.isValid("", { rule: "IRI" }), false);
  assert.equal(iribis.isValid("http://h/", undefined), true);
  assert.equal(iribis.isValid("http://h/", null), true);
  assert.equal(iribis.isValid("http://h/", {}), true);
  // A lone surrogate is no character: valid by no rule (fast.test.mjs
  // has more).
  assert.equal(iribis.isValid("http://h/\uD800"), false);
});

test("Validator: the options resolved once", () => {
  const v = new iribis.Validator({ rule: "IRI" });
  assert.equal(v.isValid("http://例え.jp/"), true);
  assert.equal(v.isValid("//h/p"), false);
  const uri = new iribis.Validator({ rule: "URI-reference", profile: "rfc3986" });
  assert.equal(uri.isValid("http://例え.jp/"), false);
  assert.equal(new iribis.Validator().isValid("../a"), true);
  assert.throws(() => new iribis.Validator({ rule: "no-such-rule" }), RangeError);
  v.free();
});

test("bad options: TypeError and RangeError, with the names to use", () => {
  assert.throws(() => iribis.isValid("a", { profile: "rfc9999" }), (e) => e instanceof RangeError && /rfc3987bis/.test(e.message));
  assert.throws(() => iribis.isValid("a", { rule: "no-such-rule" }), (e) => e instanceof RangeError && /IRI-reference/.test(e.message));
  assert.throws(() => iribis.isValid("a", { rule: "ihost", profile: "rfc3986" }), (e) => e instanceof RangeError && /rfc3986 profile has no rule ihost/.test(e.message));
  assert.throws(() => iribis.isValid("a", { profile: 3 }), TypeError);
  assert.throws(() => iribis.isValid("a", "IRI"), TypeError);
  assert.throws(() => iribis.toUri("a", { idna: "yes" }), TypeError);
  assert.throws(() => iribis.normalize("a", { level: "deep" }), RangeError);
  assert.throws(() => iribis.check("a", { severities: "lenient" }), RangeError);
  assert.throws(() => iribis.check("a", { severities: { NO_SUCH_CODE: "allow" } }), RangeError);
  assert.throws(() => iribis.check("a", { severities: { DOT_SEGMENT: "fatal" } }), RangeError);
  assert.throws(() => iribis.check("a", { severities: 3 }), TypeError);
});

test("parse: components, absent and empty", () => {
  const r = iribis.parse("http://user@[2001:db8::7]:8080/résumé?q#");
  assert.deepEqual({ ...r }, {
    input: "http://user@[2001:db8::7]:8080/résumé?q#",
    scheme: "http",
    authority: "user@[2001:db8::7]:8080",
    userinfo: "user",
    host: "[2001:db8::7]",
    hostType: "IPv6address",
    port: "8080",
    portNumber: 8080,
    path: "/résumé",
    query: "q",
    fragment: "",
  });
  const rel = iribis.parse("../a?b");
  assert.equal(rel.scheme, null);
  assert.equal(rel.path, "../a");
  assert.equal(rel.fragment, null);
  assert.equal(iribis.parse("").path, "");
  assert.equal(iribis.parse("http://h:99999/").portNumber, null);
  assert.equal(iribis.parse("http://h:/").port, "");
  const host = iribis.parse("例え.jp", { rule: "ihost" });
  assert.equal(host.hostType, "reg-name");
  assert.equal(host.path, null);
});

test("parse errors: IriParseError with position, component, expected rules, spec", () => {
  let err;
  try { iribis.parse("http://例え.jp/a b"); } catch (e) { err = e; }
  assert.ok(err instanceof Error);
  assert.equal(err.name, "IriParseError");
  assert.equal(err.byte, 18);
  assert.equal(err.char, 14);
  assert.equal(err.component, "path");
  // The one list of every surface (`iri parse --json` gives the same).
  assert.deepEqual(err.expected, ['"#"', '"?"', "path-sep", "ipchar", "the end"]);
  assert.match(err.spec, /3987bis/);
  assert.equal(err.input, "http://例え.jp/a b");
  assert.match(err.message, /at character 14/);
  assert.throws(() => iribis.parse("http://例え.jp/", { profile: "rfc3986" }), { name: "IriParseError", char: 7 });
});

test("check: the report and its findings", () => {
  const r = iribis.check("http://h:80/a/./b");
  assert.equal(r.valid, true);
  assert.deepEqual(r.violations.map((v) => [v.code, v.severity, v.char, v.len, v.component]),
    [["DEFAULT_PORT", "info", 8, 3, "port"], ["DOT_SEGMENT", "warning", 14, 1, "path"]]);
  assert.equal(r.violations[1].spec, "RFC 3986 §3.3");
  assert.equal(typeof r.violations[1].message, "string");
  const bad = iribis.check("http://h/a b");
  assert.equal(bad.valid, false);
  assert.deepEqual(bad.violations.map((v) => v.code), ["SYNTAX_ERROR"]);
  assert.deepEqual(iribis.check("http://h/./a", { severities: { DOT_SEGMENT: "allow" } }).violations, []);
  const strict = iribis.check("HTTP://h/", { severities: "strict" });
  assert.ok(strict.violations.some((v) => v.code === "UPPERCASE_SCHEME"));
  // Host spoofing (UTS #39): a Cyrillic 'а' among Latin letters.
  const spoof = iribis.check("http://pаypal.com/");
  assert.ok(spoof.violations.some((v) => v.code.startsWith("HOST_")), JSON.stringify(spoof));
});

test("readings: what browsers and C resolvers reach", () => {
  const r = iribis.readings("http://0x7f.1/a/%2e%2e/b");
  assert.deepEqual(Object.keys(r.readings).sort(), ["decoded", "inet_aton", "rfc3987bis", "whatwg"]);
  assert.equal(r.readings.rfc3987bis.host, "0x7f.1");
  assert.equal(r.readings.whatwg.host, "127.0.0.1");
  assert.equal(r.readings.whatwg.path, "/b");
  assert.equal(r.readings.inet_aton.addressClass, "loopback");
  assert.deepEqual(r.differences.map((d) => [d.code, d.component, d.char, d.len]),
    [["READING_HOST_DIFFERS", "host", 7, 6], ["READING_ENCODED_DOT_SEGMENT", "path", 16, 6]]);
  assert.deepEqual(r.differences[0].readers, ["whatwg", "inet_aton"]);
  assert.equal(r.differences[0].reached, "127.0.0.1");
  assert.deepEqual(iribis.readings("http://a.b.c.1.2.3.4/").readings.whatwg, { error: "invalid IPv4 address" });
  assert.deepEqual(iribis.readings("https://example.org/a").differences, []);
  assert.throws(() => iribis.readings("http://h/a b"), { name: "IriParseError" });
  // check() carries the same details on its READING_ findings.
  const [f] = iribis.check("http://2130706433/").violations.filter((v) => v.code === "READING_HOST_DIFFERS");
  assert.equal(f.reached, "127.0.0.1");
  assert.equal(f.addressClass, "loopback");
  assert.deepEqual(f.whatwg, { host: "127.0.0.1", path: "/" });
});

test("conversions", () => {
  assert.equal(iribis.toUri("http://résumé.example.org/日本"), "http://r%C3%A9sum%C3%A9.example.org/%E6%97%A5%E6%9C%AC");
  assert.equal(iribis.toUri("http://résumé.example.org/", { idna: true }), "http://xn--rsum-bpad.example.org/");
  assert.equal(iribis.toUri("http://h/?q=é", { queryCharset: "windows-1252" }), "http://h/?q=%E9");
  assert.throws(() => iribis.toUri("http://h/", { queryCharset: "no-such-charset" }), RangeError);
  assert.throws(() => iribis.toUri("http://h/a b"), { name: "IriParseError" });
  assert.equal(iribis.toUri("http://h/a b", { profile: "leiri" }), "http://h/a%20b");
  assert.equal(iribis.toIri("http://xn--99zt52a.example.org/D%C3%BCrst"), "http://納豆.example.org/Dürst");
  assert.equal(iribis.toIri("http://xn--99zt52a.example.org/", { idna: false }), "http://xn--99zt52a.example.org/");
  assert.equal(iribis.toIri("http://xn--rsum-bpad.example/%C3%A9"), "http://résumé.example/é");
});

test("resolve, relativize, normalize, compare", () => {
  assert.equal(iribis.resolve("http://a/b/c/d;p?q", "../../g"), "http://a/g");
  assert.equal(iribis.resolve("http://例え.jp/a/b", "../c?d#e"), "http://例え.jp/c?d#e");
  assert.equal(iribis.resolve("http://a/b", "http:g", { strict: false }), "http://a/g");
  assert.equal(iribis.resolve("http://a/b", "http:g"), "http:g");
  assert.throws(() => iribis.resolve("/relative", "g"), (e) => e instanceof RangeError && /relative reference/.test(e.message));
  assert.throws(() => iribis.resolve("http://a/", "a b"), { name: "IriParseError" });
  assert.equal(iribis.relativize("http://a/b/c/d;p?q", "http://a/b/e/f?x#y"), "../e/f?x#y");
  assert.equal(iribis.normalize("HTTP://www.Example.ORG/%7euser/./a/../b"), "http://www.example.org/~user/b");
  assert.equal(iribis.normalize("HTTP://xn--rsum-bpad.Example:80", { level: "scheme" }), "http://résumé.example/");
  assert.equal(iribis.compare("http://example.org/~a", "HTTP://example.org:80/%7Ea"), "scheme");
  assert.equal(iribis.compare("http://example.org/~a", "HTTP://example.org/%7Ea", { level: "syntax" }), "syntax");
  assert.equal(iribis.compare("http://a/", "http://b/"), null);
  assert.equal(iribis.compare("http://a/#x", "http://a/#y", { ignoreFragment: true }), "simple");
});

test("long and hostile inputs answer, never crash", () => {
  const long = "http://h/" + "a".repeat(1 << 20);
  assert.equal(iribis.isValid(long), true);
  assert.equal(iribis.parse(long).path.length, (1 << 20) + 1);
  const bad = "http://h/" + "%".repeat(100_000);
  assert.throws(() => iribis.parse(bad), { name: "IriParseError", char: 10 });
  assert.equal(iribis.check(bad).valid, false);
  assert.equal(iribis.isValid("http://[" + ":".repeat(50_000) + "]/"), false);
  assert.equal(iribis.isValid("\u202Ehttp://h/"), false);
});

test("non-string arguments: a TypeError naming the function and what it got, before WebAssembly", () => {
  const calls = {
    isValid: (x) => iribis.isValid(x),
    parse: (x) => iribis.parse(x),
    check: (x) => iribis.check(x),
    toUri: (x) => iribis.toUri(x),
    toIri: (x) => iribis.toIri(x),
    normalize: (x) => iribis.normalize(x),
    readings: (x) => iribis.readings(x),
    "Validator.isValid": (x) => new iribis.Validator({}).isValid(x),
  };
  const values = [[42, "number"], [{}, "object"], [null, "null"], [undefined, "undefined"],
    [["http://h/"], "array"], [true, "boolean"], [7n, "bigint"], [Symbol("s"), "symbol"],
    [new String("http://h/"), "object"], [() => "http://h/", "function"]];
  for (const [name, call] of Object.entries(calls)) {
    for (const [value, got] of values) {
      assert.throws(() => call(value), (e) => e instanceof TypeError
        && e.message === `${name}: expected a string, got ${got}`, `${name}(${String(got)})`);
    }
  }
  const two = [
    ["resolve", "base", (x) => iribis.resolve(x, "g")],
    ["resolve", "reference", (x) => iribis.resolve("http://a/", x)],
    ["relativize", "base", (x) => iribis.relativize(x, "http://a/b")],
    ["relativize", "target", (x) => iribis.relativize("http://a/", x)],
    ["compare", "a", (x) => iribis.compare(x, "http://a/")],
    ["compare", "b", (x) => iribis.compare("http://a/", x)],
  ];
  for (const [name, arg, call] of two) {
    for (const [value, got] of values) {
      assert.throws(() => call(value), (e) => e instanceof TypeError
        && e.message === `${name}: expected a string for ${arg}, got ${got}`, `${name} ${arg} ${String(got)}`);
    }
  }
  // The module's memory is as it was: strings still answer.
  assert.equal(iribis.isValid("http://例え.jp/"), true);
  assert.equal(iribis.parse("http://h/p").path, "/p");
  assert.equal(new iribis.Validator({ rule: "IRI" }).isValid("http://h/"), true);
});

test("the entry point checks every function of the WebAssembly module", () => {
  // iribis.js, wasm-bindgen's glue, beside the package's entry point.
  const glue = require(join(dirname(require.resolve("iribis")), "iribis.js"));
  assert.deepEqual(Object.keys(iribis).sort(), Object.keys(glue).sort());
  for (const name of Object.keys(glue)) assert.notEqual(iribis[name], glue[name], name);
  const v = new iribis.Validator({ rule: "IRI" });
  assert.ok(v instanceof glue.Validator);
  v.free();
});

/** Runs `fn` with `props` added to Object.prototype, and removes them after. */
function withPollutedPrototype(props, fn) {
  for (const [key, value] of Object.entries(props)) {
    Object.defineProperty(Object.prototype, key, { value, configurable: true, writable: true });
  }
  try {
    fn();
  } finally {
    for (const key of Object.keys(props)) delete Object.prototype[key];
  }
}

test("options are own properties: a polluted Object.prototype changes no call", () => {
  const polluted = { profile: "rfc3986", rule: "IRI", idna: true, level: "scheme", strict: false,
    ignoreFragment: true, queryCharset: "windows-1252", severities: "strict", preset: "strict" };
  withPollutedPrototype(polluted, () => {
    assert.equal({}.profile, "rfc3986");
    assert.equal(iribis.isValid("http://例え.jp/", {}), true);
    assert.equal(iribis.isValid("//h/p", {}), true);
    assert.equal(new iribis.Validator({}).isValid("http://例え.jp/"), true);
    assert.equal(iribis.parse("http://例え.jp/", {}).host, "例え.jp");
    assert.equal(iribis.toUri("http://résumé.example/?q=é", {}), "http://r%C3%A9sum%C3%A9.example/?q=%C3%A9");
    assert.equal(iribis.resolve("http://a/b", "http:g", {}), "http:g");
    assert.equal(iribis.normalize("HTTP://h:80/", {}), "http://h:80/");
    assert.equal(iribis.compare("http://a/#x", "http://a/#y", {}), null);
    const severities = (r) => r.violations.map((v) => [v.code, v.severity]);
    assert.deepEqual(severities(iribis.check("HTTP://h/", {})), [["UPPERCASE_SCHEME", "info"]]);
    assert.deepEqual(severities(iribis.check("HTTP://h/", { severities: {} })), [["UPPERCASE_SCHEME", "info"]]);
    assert.equal(iribis.readings("http://例え.jp/", {}).readings.rfc3987bis.host, "例え.jp");
    // An own property is read as always.
    assert.equal(iribis.isValid("http://例え.jp/", { profile: "rfc3986" }), false);
  });
  withPollutedPrototype({ idna: false, profile: "leiri" }, () => {
    assert.equal(iribis.toIri("http://xn--rsum-bpad.example/", {}), "http://résumé.example/");
    assert.equal(iribis.isValid("a b", {}), false);
  });
  assert.equal({}.profile, undefined);
});
