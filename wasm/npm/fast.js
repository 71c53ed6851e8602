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

/** In `Dfa.units`, what a surrogate code unit stands for: no column. */
const SURROGATE = 0xffff;

/**
 * A DFA of dfa-tables.js, laid out for the walk.
 *
 * `bytes`: per state, a row of 256 entries, the next state for each byte
 * at `state << 8 | byte` and the state's acceptance at
 * `state << 8 | ACCEPT`: ASCII, most of any reference, and the four bytes
 * of a character beyond U+FFFF step through it.
 *
 * `units` and `columns`: a character of the rest of U+0080-FFFF (two or
 * three UTF-8 bytes) in one step. `units` gives each code unit the number
 * of a column (SURROGATE for D800-DFFF), and `columns` holds the columns
 * one after the other, the next state of each of the n states after the
 * character's bytes at `column * n + state`. Characters whose bytes lead
 * every state alike share a column: one to three columns stand for the
 * 63,488 characters.
 */
class Dfa {
  constructor(bytes, units, columns, n) {
    this.bytes = bytes;
    this.units = units;
    this.columns = columns;
    this.n = n;
  }
}

/** The DFA of dfa-tables.js's string `base64`. */
function decode(base64) {
  const b = bytesOf(base64);
  const n = b[0] | (b[1] << 8);
  const classes = b[2] | (b[3] << 8);
  const cls = b.subarray(4, 260);
  const accept = b.subarray(260, 260 + n);
  const next = new Uint16Array(n * classes);
  for (let i = 0, at = 260 + n; i < next.length; i++, at += 2) next[i] = b[at] | (b[at + 1] << 8);
  const bytes = new Uint16Array(n << 8);
  for (let q = 0; q < n; q++) {
    for (let byte = 0; byte < 256; byte++) bytes[(q << 8) | byte] = next[q * classes + cls[byte]];
    bytes[(q << 8) | ACCEPT] = accept[q];
  }
  // The characters of two and three bytes by the classes of their bytes
  // (characters alike in those are alike), then those by their columns.
  const units = new Uint16Array(0x10000).fill(SURROGATE);
  const byClasses = new Int32Array(classes * classes * (classes + 1)).fill(-1);
  const sequences = [];
  for (let c = 0x80; c < 0x10000; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const two = c < 0x800;
    const b0 = two ? 0xc0 | (c >> 6) : 0xe0 | (c >> 12);
    const b1 = two ? 0x80 | (c & 0x3f) : 0x80 | ((c >> 6) & 0x3f);
    const b2 = 0x80 | (c & 0x3f);
    // Two bytes' classes (a, b) as (a, b, classes): no class is numbered that.
    const key = (cls[b0] * classes + cls[b1]) * (classes + 1) + (two ? classes : cls[b2]);
    if (byClasses[key] < 0) {
      byClasses[key] = sequences.length;
      sequences.push(two ? [b0, b1] : [b0, b1, b2]);
    }
    units[c] = byClasses[key];
  }
  const numbers = new Map();
  const columns = [];
  const renumber = sequences.map((seq) => {
    const column = new Uint16Array(n);
    for (let q = 0; q < n; q++) {
      let r = q;
      for (const byte of seq) r = next[r * classes + cls[byte]];
      column[q] = r;
    }
    const text = column.join(",");
    let k = numbers.get(text);
    if (k === undefined) {
      k = columns.length;
      numbers.set(text, k);
      columns.push(column);
    }
    return k;
  });
  for (let c = 0x80; c < 0x10000; c++) if (units[c] !== SURROGATE) units[c] = renumber[units[c]];
  const flat = new Uint16Array(columns.length * n);
  columns.forEach((column, k) => flat.set(column, k * n));
  return new Dfa(bytes, units, flat, n);
}

/**
 * Whether the DFA `d` accepts the UTF-8 form of `s`: one load a code unit
 * (ASCII by `bytes`, the rest of the first 64K code points by `units` and
 * `columns`), four for a character beyond U+FFFF.
 */
function accepts(d, s) {
  const bytes = d.bytes;
  const units = d.units;
  const columns = d.columns;
  const n = d.n;
  const length = s.length;
  let q = START;
  let i = 0;
  while (i < length) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      // Two ASCII code units a turn when they come in pairs: half the
      // turns of the loop, half the tests for the dead state.
      if (i + 1 < length) {
        const e = s.charCodeAt(i + 1);
        if (e < 0x80) {
          q = bytes[(bytes[(q << 8) | c] << 8) | e];
          i += 2;
          if (q === 0) return false;
          continue;
        }
      }
      q = bytes[(q << 8) | c];
      i++;
    } else {
      const k = units[c];
      if (k !== SURROGATE) {
        q = columns[k * n + q];
        i++;
      } else {
        // A high surrogate and the low one after it: one code point of
        // four UTF-8 bytes. NaN past the end fails the test.
        const e = s.charCodeAt(i + 1);
        if (c > 0xdbff || !(e >= 0xdc00 && e <= 0xdfff)) return false;
        i += 2;
        const p = ((c - 0xd800) << 10) + (e - 0xdc00) + 0x10000;
        q = bytes[(q << 8) | 0xf0 | (p >> 18)];
        q = bytes[(q << 8) | 0x80 | ((p >> 12) & 0x3f)];
        q = bytes[(q << 8) | 0x80 | ((p >> 6) & 0x3f)];
        q = bytes[(q << 8) | 0x80 | (p & 0x3f)];
      }
    }
    // The dead state leads only to itself: stop at it.
    if (q === 0) return false;
  }
  return bytes[(q << 8) | ACCEPT] === 1;
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

/** The DFAs decoded so far and their walkers, by "profile rule" (the tables' own names). */
const DECODED = new Map();

/** The DFA of `rule` under `profile` in dfa-tables.js and its walker, decoded once. */
function decoded(profile, rule) {
  const key = `${profile} ${rule}`;
  let d = DECODED.get(key);
  if (d === undefined) {
    const dfa = decode(TABLES[profile][rule]);
    d = { dfa, walker: (s) => accepts(dfa, s) };
    DECODED.set(key, d);
  }
  return d;
}

/** The walker of dfa-tables.js's DFA of `rule` under `profile`. */
function walkerOf(profile, rule) {
  return decoded(profile, rule).walker;
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
/** Its DFA. */
let DEFAULT_DFA = null;

/** Whether `s` is an IRI reference of rfc3987bis: isValid without options, with no walker between. */
function isValidDefault(s) {
  return accepts(DEFAULT_DFA ?? (DEFAULT_DFA = decoded("rfc3987bis", "IRI-reference").dfa), s);
}

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

exports.isValidDefault = isValidDefault;
exports.walkerFor = walkerFor;
exports.walkerForOptions = walkerForOptions;
exports.hasLoneSurrogate = hasLoneSurrogate;
