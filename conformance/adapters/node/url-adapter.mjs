// Adapter of the iribis conformance suite (conformance/README.md) for the
// WHATWG URL class of Node.js (the URL Standard, not RFC 3986/3987): run it
// with `node conformance/adapters/node/url-adapter.mjs`.
//
// URL parses absolute URLs only (a relative reference needs a base), and
// serializes what it parses in its own normal form. Its components cannot
// tell an empty query or fragment from an absent one: "" is reported as
// absent. An input without a scheme is `unsupported` (URL needs a base to
// take it); an input with one that URL rejects is a refusal, an `error`.

import { createInterface } from "node:readline";

const UNSUPPORTED = { unsupported: true };

function parse(text) {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

// RFC 3986 §3.1: a scheme, then ":". Without one, URL needs a base.
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

// The answer for an input URL did not parse: unsupported when it has no
// scheme (URL cannot take a relative reference without a base), else the
// refusal it is.
function failed(text) {
  if (!SCHEME.test(text)) return UNSUPPORTED;
  return { error: "URL refuses it: Invalid URL" };
}

function answer(r) {
  const { op, profile, rule, input } = r;
  if (!["rfc3986", "rfc3987", "rfc3987bis"].includes(profile)) return UNSUPPORTED;
  switch (op) {
    case "valid":
      if (["URI", "IRI"].includes(rule)) return { valid: parse(input) !== null };
      if (["absolute-URI", "absolute-IRI"].includes(rule)) {
        const u = parse(input);
        return { valid: u !== null && !input.includes("#") };
      }
      return UNSUPPORTED;
    case "components": {
      const u = parse(input);
      if (u === null) return failed(input);
      const userinfo = u.username || u.password ? u.username + (u.password ? ":" + u.password : "") : null;
      return {
        components: {
          scheme: u.protocol.replace(/:$/, ""),
          userinfo,
          host: u.hostname === "" && !input.includes("//") ? null : u.hostname,
          port: u.port === "" ? null : u.port,
          path: u.pathname,
          query: u.search === "" ? null : u.search.slice(1),
          fragment: u.hash === "" ? null : u.hash.slice(1),
        },
      };
    }
    case "resolve":
      return { result: new URL(input, r.base).href };
    case "normalize":
    case "to-uri": {
      const u = parse(input);
      return u === null ? failed(input) : { result: u.href };
    }
    default:
      return UNSUPPORTED;
  }
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  if (!line.trim()) continue;
  let r;
  try {
    r = JSON.parse(line);
  } catch (e) {
    process.stdout.write(JSON.stringify({ id: "", error: "malformed request: " + e.message }) + "\n");
    continue;
  }
  let a;
  try {
    a = answer(r);
  } catch (e) {
    a = { error: String(e && e.message) };
  }
  process.stdout.write(JSON.stringify({ id: r.id, ...a }) + "\n");
}
