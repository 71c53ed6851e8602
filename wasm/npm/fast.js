// Validity without entering WebAssembly: the minimal DFA over UTF-8 bytes
// of each reference rule of each profile (dfa-tables.js, generated from the
// ABNF by gen/src/js.rs, the same language as the library's own tables),
// walked over a JavaScript string's UTF-16 code units: each code unit of
// the first 64K code points is one step, over the columns its character's
// UTF-8 bytes (RFC 3629 §3) lead to, and a surrogate pair is stepped
// through the four bytes of its character. Crossing into
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
 * Code units are read as `charCodeAt.call(s, i)` and the length as
 * `(s + "").length`, not `s.charCodeAt(i)` and `s.length`: V8 looks those
 * two properties up by the string's map, and strings have many (one- and
 * two-byte, flat, concatenated, sliced, internalized). Once a walk has met
 * more than four, `s.charCodeAt` became a generic property lookup and call
 * for every code unit, and every later walk, of any string, ran about 3.5
 * times as long (a program that validated one concatenated string, then
 * JSON values). A known function and a value known to be a string need no
 * lookup.
 */
const charCodeAt = String.prototype.charCodeAt;

/** In `Dfa.unit`, the mark of a surrogate code unit (D800-DFFF): no column. */
const SURROGATE = 0x80;

/** The bytes of one of dfa-tables.js's base64 strings. */
function bytesOf(base64) {
  const text = atob(base64);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/**
 * A DFA of dfa-tables.js, laid out for a walk over UTF-16 code units in
 * which every code unit of the first 64K code points takes the same step,
 * with no branch on what kind of character it is.
 *
 * `unit`: the column of each code unit: one per class of ASCII bytes (each
 * such character is one UTF-8 byte), then one per set of characters of
 * U+0080-FFFF whose two or three UTF-8 bytes lead every state alike (one to
 * three of them stand for those 63,488 characters), and SURROGATE for
 * D800-DFFF.
 *
 * `rows`: per state a row of `stride` entries, the next state after each
 * column at `row + column`, with states written as the offsets of their
 * rows (state × stride), so that a step is one addition and one load; the
 * row's last entry says whether an input may end in that state (1) or not
 * (0).
 *
 * `next`, `classes`, `cls`: the byte-level DFA (the next state of each
 * state and class of bytes, the class of each byte), which steps a
 * character beyond U+FFFF, a surrogate pair, through its four bytes.
 */
class Dfa {
  constructor(unit, rows, stride, next, classes, cls) {
    this.unit = unit;
    this.rows = rows;
    this.stride = stride;
    this.next = next;
    this.classes = classes;
    this.cls = cls;
  }
}

/** The DFA of dfa-tables.js's string `base64`. */
function decode(base64) {
  const b = bytesOf(base64);
  const n = b[0] | (b[1] << 8);
  const classes = b[2] | (b[3] << 8);
  // A copy, so that the walk's tables do not keep the decoded string alive.
  const cls = b.slice(4, 260);
  const accept = b.subarray(260, 260 + n);
  const next = new Uint16Array(n * classes);
  for (let i = 0, at = 260 + n; i < next.length; i++, at += 2) next[i] = b[at] | (b[at + 1] << 8);
  // One column per class of ASCII bytes, numbered as they first appear.
  const unit = new Uint8Array(0x10000);
  const ascii = [];
  for (let c = 0; c < 0x80; c++) {
    let k = ascii.indexOf(cls[c]);
    if (k < 0) k = ascii.push(cls[c]) - 1;
    unit[c] = k;
  }
  // Then one per distinct column of next states of the other characters;
  // characters whose UTF-8 bytes fall in the same classes step alike.
  const targets = [];
  const byClasses = new Int32Array(classes * classes * (classes + 1)).fill(-1);
  for (let c = 0x80; c < 0x10000; c++) {
    if (c >= 0xd800 && c <= 0xdfff) {
      unit[c] = SURROGATE;
      continue;
    }
    const two = c < 0x800;
    const b0 = two ? 0xc0 | (c >> 6) : 0xe0 | (c >> 12);
    const b1 = two ? 0x80 | (c & 0x3f) : 0x80 | ((c >> 6) & 0x3f);
    const b2 = 0x80 | (c & 0x3f);
    // Two bytes' classes (a, b) as (a, b, classes): no class is numbered that.
    const key = (cls[b0] * classes + cls[b1]) * (classes + 1) + (two ? classes : cls[b2]);
    if (byClasses[key] < 0) {
      const bytes = two ? [b0, b1] : [b0, b1, b2];
      const column = new Uint16Array(n);
      for (let q = 0; q < n; q++) column[q] = bytes.reduce((r, byte) => next[r * classes + cls[byte]], q);
      const text = column.join(",");
      let k = targets.findIndex((t) => t.text === text);
      if (k < 0) k = targets.push({ text, column }) - 1;
      byClasses[key] = ascii.length + k;
    }
    unit[c] = byClasses[key];
  }
  const columns = ascii.length + targets.length;
  let stride = 1;
  while (stride < columns + 1) stride <<= 1;
  if (stride > SURROGATE || n * stride > 0x10000) {
    throw new RangeError(`dfa-tables.js: ${n} states and ${columns} columns do not fit the walk's tables`);
  }
  const rows = new Uint16Array(n * stride);
  for (let q = 0; q < n; q++) {
    const row = q * stride;
    ascii.forEach((c, k) => (rows[row + k] = next[q * classes + c] * stride));
    targets.forEach((t, k) => (rows[row + ascii.length + k] = t.column[q] * stride));
    rows[row + stride - 1] = accept[q];
  }
  return new Dfa(unit, rows, stride, next, classes, cls);
}

/**
 * Whether the DFA `d` accepts the UTF-8 form of `s`: two code units a
 * turn, each one lookup of its column and one of the next state. From
 * its first surrogate on, a string is walked by `acceptsPairs`.
 */
function accepts(d, s) {
  const unit = d.unit;
  const rows = d.rows;
  const length = (s + "").length;
  let q = START * d.stride;
  let i = 0;
  for (; i + 1 < length; i += 2) {
    const a = unit[charCodeAt.call(s, i)];
    const b = unit[charCodeAt.call(s, i + 1)];
    if (((a | b) & SURROGATE) !== 0) return acceptsPairs(d, s, q, i);
    q = rows[rows[q + a] + b];
    if (q === 0) return false;
  }
  if (i < length) {
    const a = unit[charCodeAt.call(s, i)];
    if (a === SURROGATE) return acceptsPairs(d, s, q, i);
    q = rows[q + a];
  }
  return rows[q + d.stride - 1] === 1;
}

/**
 * `accepts` for the rest of a string with a surrogate, from its code unit
 * `i` in state `q` (the offset of its row), a code unit at a time: a
 * surrogate pair is the four UTF-8 bytes of its character, stepped through
 * the byte-level DFA; a lone surrogate is no character, and rejected.
 */
function acceptsPairs(d, s, q, i) {
  const { unit, rows, stride, next, classes, cls } = d;
  const length = (s + "").length;
  for (; i < length; i++) {
    const a = unit[charCodeAt.call(s, i)];
    if (a !== SURROGATE) {
      q = rows[q + a];
    } else {
      const c = charCodeAt.call(s, i);
      const e = charCodeAt.call(s, i + 1);
      if (c > 0xdbff || !(e >= 0xdc00 && e <= 0xdfff)) return false;
      i++;
      const p = ((c - 0xd800) << 10) + (e - 0xdc00) + 0x10000;
      let r = q / stride;
      r = next[r * classes + cls[0xf0 | (p >> 18)]];
      r = next[r * classes + cls[0x80 | ((p >> 12) & 0x3f)]];
      r = next[r * classes + cls[0x80 | ((p >> 6) & 0x3f)]];
      r = next[r * classes + cls[0x80 | (p & 0x3f)]];
      q = r * stride;
    }
    if (q === 0) return false;
  }
  return rows[q + stride - 1] === 1;
}

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

/** The walkers of the DFAs decoded so far, by "profile rule" (the tables' own names). */
const WALKERS = new Map();

/** The walker of dfa-tables.js's DFA of `rule` under `profile`, its DFA decoded once. */
function walkerOf(profile, rule) {
  const key = `${profile} ${rule}`;
  let walker = WALKERS.get(key);
  if (walker === undefined) {
    const dfa = decode(TABLES[profile][rule]);
    walker = (s) => accepts(dfa, s);
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

/**
 * `Object.prototype.hasOwnProperty`, called on the options: the same
 * answer as `Object.hasOwn`, which costs node 20 about 20 ns a call where
 * this costs a few (the two options of a call read in 17 ns against 54).
 */
const hasOwnProperty = Object.prototype.hasOwnProperty;

/** The option `key` as the module reads it: an own property, absent when undefined or null. */
function option(options, key) {
  const v = options[key];
  return v === undefined || v === null || !hasOwnProperty.call(options, key) ? undefined : v;
}

/** The walker of the default options (rfc3987bis, IRI-reference), once made. */
let DEFAULT = null;

/**
 * Whether `s` is an IRI reference of rfc3987bis: isValid without options.
 * Through the walker, whose DFA V8 sees as a constant of its closure: a
 * DFA read from a variable here made the walk 5-10 % slower.
 */
function isValidDefault(s) {
  return (DEFAULT ?? (DEFAULT = walkerOf("rfc3987bis", "IRI-reference")))(s);
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
