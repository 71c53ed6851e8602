// Validity without entering WebAssembly: the minimal DFA over UTF-8 bytes
// of each reference rule of each profile (dfa-tables.js, generated from the
// ABNF by gen/src/js.rs, the same language as the library's own tables),
// walked over a JavaScript string's UTF-16 code units, each character
// stepped through the bytes of its UTF-8 form (RFC 3629 §3). Crossing into
// WebAssembly, which copies the string into the module's memory as UTF-8,
// costs several times this walk.
//
// A lone surrogate (a code unit D800-DFFF that is not half of a pair) is
// not a character: no rule of any profile admits it (3987bis §2.2's
// ucschar and iprivate, and §6.1's leiri-ucschar, leave D800-DFFF out), so
// a string that has one is not valid.
"use strict";

const TABLES = require("./dfa-tables.js");

/** The state every walk starts in; state 0 is dead. */
const START = 1;
/**
 * The column of each state's row that holds whether an input may end
 * there (1) or not (0): the byte FF, which no UTF-8 sequence has (RFC 3629
 * §1), so that no walk steps on it.
 */
const ACCEPT = 0xff;

/** The bytes of one of dfa-tables.js's base64 strings. */
function bytesOf(base64) {
  const text = atob(base64);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/**
 * The DFA of dfa-tables.js's string `base64` as one table: per state, a
 * row of 256 entries, the next state for each byte at `state << 8 | byte`
 * and the state's acceptance at `state << 8 | ACCEPT`.
 */
function decode(base64) {
  const b = bytesOf(base64);
  const n = b[0] | (b[1] << 8);
  const classes = b[2] | (b[3] << 8);
  const cls = b.subarray(4, 260);
  const accept = b.subarray(260, 260 + n);
  const next = 260 + n;
  const table = new Uint16Array(n << 8);
  for (let q = 0; q < n; q++) {
    for (let byte = 0; byte < 256; byte++) {
      const at = next + 2 * (q * classes + cls[byte]);
      table[(q << 8) | byte] = b[at] | (b[at + 1] << 8);
    }
    table[(q << 8) | ACCEPT] = accept[q];
  }
  return table;
}

/**
 * Whether the DFA `t` (as `decode` makes it) accepts the UTF-8 form of
 * `s`. ASCII, most of any reference, is one load a code unit; the other
 * characters step through their two to four bytes.
 */
function accepts(t, s) {
  let q = START;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      q = t[(q << 8) | c];
    } else if (c < 0x800) {
      q = t[(q << 8) | 0xc0 | (c >> 6)];
      q = t[(q << 8) | 0x80 | (c & 0x3f)];
    } else if (c < 0xd800 || c > 0xdfff) {
      q = t[(q << 8) | 0xe0 | (c >> 12)];
      q = t[(q << 8) | 0x80 | ((c >> 6) & 0x3f)];
      q = t[(q << 8) | 0x80 | (c & 0x3f)];
    } else {
      // A high surrogate and the low one after it: one code point of
      // four UTF-8 bytes. NaN past the end fails the test.
      const d = s.charCodeAt(i + 1);
      if (c > 0xdbff || !(d >= 0xdc00 && d <= 0xdfff)) return false;
      i++;
      const p = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
      q = t[(q << 8) | 0xf0 | (p >> 18)];
      q = t[(q << 8) | 0x80 | ((p >> 12) & 0x3f)];
      q = t[(q << 8) | 0x80 | ((p >> 6) & 0x3f)];
      q = t[(q << 8) | 0x80 | (p & 0x3f)];
    }
    // The dead state leads only to itself: stop at it.
    if (q === 0) return false;
  }
  return t[(q << 8) | ACCEPT] === 1;
}

/**
 * The reference rules by name in ASCII lowercase, in the ABNF spelling and
 * the pest one (as the library's GrammarRule::from_name reads them): the
 * rule's name under the IRI profiles and under rfc3986.
 */
const RULES = new Map();
for (const [iri, uri] of [
  ["IRI-reference", "URI-reference"],
  ["IRI", "URI"],
  ["absolute-IRI", "absolute-URI"],
  ["irelative-ref", "relative-ref"],
]) {
  for (const name of [iri, uri]) {
    // A URI rule is the same under every profile: the IRI profiles'
    // grammars take RFC 3986's, whose DFA is rfc3986's own.
    const pair = name === iri ? { iri, uri } : { iri: null, uri };
    RULES.set(asciiLowercase(name), pair);
    RULES.set(asciiLowercase(name.replace("-", "_")), pair);
  }
}

/** `s` with A-Z in lowercase and nothing else changed (Rust's eq_ignore_ascii_case). */
function asciiLowercase(s) {
  return s.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
}

/** The walkers made so far, by "profile rule" (the tables' own names). */
const WALKERS = new Map();

/** The walker of dfa-tables.js's DFA of `rule` under `profile`, made once. */
function walkerOf(profile, rule) {
  const key = `${profile} ${rule}`;
  let walker = WALKERS.get(key);
  if (walker === undefined) {
    const t = decode(TABLES[profile][rule]);
    walker = (s) => accepts(t, s);
    WALKERS.set(key, walker);
  }
  return walker;
}

/**
 * The walker for the options' values `profile` and `rule` (strings, or
 * undefined for the defaults rfc3987bis and IRI-reference), as the library
 * resolves them: profile and rule names in any ASCII case, the rule in the
 * ABNF or the pest spelling, the IRI rules standing for the URI ones under
 * rfc3986. null when dfa-tables.js has no DFA for them (another rule, or a
 * name the library refuses): the caller asks the WebAssembly module.
 */
function walkerFor(profile, rule) {
  const p = profile === undefined ? "rfc3987bis" : asciiLowercase(profile);
  const r = RULES.get(rule === undefined ? "iri-reference" : asciiLowercase(rule));
  if (r === undefined || !Object.hasOwn(TABLES, p)) return null;
  if (p === "rfc3986" || r.iri === null) return walkerOf("rfc3986", r.uri);
  return walkerOf(p, r.iri);
}

/** The option `key` as the module reads it: an own property, absent when undefined or null. */
function option(options, key) {
  const v = options[key];
  return v === undefined || v === null || !Object.hasOwn(options, key) ? undefined : v;
}

/** The walker of the default options (rfc3987bis, IRI-reference), once made. */
let DEFAULT = null;

/** The last few options' values and their walkers, as [profile, rule, walker]. */
const RECENT = [];
/** How many RECENT keeps: the four formats of the ajv plugin, and some. */
const RECENT_KEPT = 8;

/**
 * The walker for an `isValid` options argument, or null when the
 * WebAssembly module must answer: options that are not an object (it
 * throws the TypeError), a profile or rule that is not a string, or a
 * rule that dfa-tables.js has no DFA for.
 */
function walkerForOptions(options) {
  if (options === undefined || options === null) return DEFAULT ?? (DEFAULT = walkerOf("rfc3987bis", "IRI-reference"));
  if (typeof options !== "object") return null;
  const profile = option(options, "profile");
  const rule = option(options, "rule");
  for (let i = 0; i < RECENT.length; i++) {
    const r = RECENT[i];
    if (r[0] === profile && r[1] === rule) return r[2];
  }
  const strings = (profile === undefined || typeof profile === "string")
    && (rule === undefined || typeof rule === "string");
  const walker = strings ? walkerFor(profile, rule) : null;
  if (RECENT.length === RECENT_KEPT) RECENT.shift();
  RECENT.push([profile, rule, walker]);
  return walker;
}

/** Whether `s` has a lone surrogate: a string that is no sequence of characters. */
function hasLoneSurrogate(s) {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
}

exports.walkerFor = walkerFor;
exports.walkerForOptions = walkerForOptions;
exports.hasLoneSurrogate = hasLoneSurrogate;
