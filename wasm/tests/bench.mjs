// The npm package beside ajv-formats' regular expressions, side by side in
// one run. Not a test:
//
//   node wasm/tests/bench.mjs [CORPUS...]
//
// CORPUS defaults to both of benches/data/: mixed-iris-20k.txt (20,000
// mixed IRI references) and kasztp-urls.txt (48,009 real URLs). For each
// corpus, each pair below is timed in alternating rounds (every checker
// once a round, the pairs in the same order, after one round to warm up; ROUNDS=15
// by default): the time per reference is the median over the rounds, and
// the ratio the median of the rounds' ratios iribis ÷ theirs (the goal is
// at most 0.5). Times are the process's CPU time (process.cpuUsage), which
// a busy machine's other processes disturb less than the wall clock.
// The references are strings as JSON.parse makes them, the strings that
// ajv validates; SLICED=1 takes them as split("\n") leaves them, slices
// of the file's string, which V8 reads more slowly a character at a time.
// Within a pair, each side goes first every other round; run with
// `node --expose-gc bench.mjs` and every timed loop starts on a collected
// heap (the WebAssembly rows and ajv's error objects leave garbage that
// the next loop would otherwise pay for).
// KINDS=1 first calls every checker on strings of every kind V8 keeps apart
// (concatenated, sliced, literal, one- and two-byte), as a program that
// validates more than JSON values does, then times the same strings.
//
// - ajv + iribis/ajv against ajv + ajv-formats, formats uri-reference and
//   uri; iri-reference and iri against ajv-formats' uri-reference and uri
//   (it has no IRI formats);
// - iribis.isValid(s) (3987bis IRI-reference), isValid(s, options) and
//   Validator.isValid (rfc3986 URI-reference) against ajv-formats'
//   uri-reference regular expression;
// - the ways around the JavaScript walk (fast.js), for the record: the
//   WebAssembly module's own isValid (the string copied into its memory on
//   every call) and, when the module has the functions for it, its isValid
//   over a buffer reused and filled by TextEncoder.encodeInto.
//
// ajv-formats' verdicts differ from iribis's on some references (its
// regular expressions are not RFC 3986's grammar): the counts are printed,
// and SHOW_DIFFERENCES=1 prints some.
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const iribis = require("iribis");
const iribisFormats = require("iribis/ajv");
// The glue around the module, which the package's exports do not name.
const wasm = require(`${dirname(require.resolve("iribis"))}/iribis.js`);
const { fullFormats } = require("ajv-formats/dist/formats");
const addFormats = require("ajv-formats");
const Ajv2020 = require("ajv/dist/2020");

const ROUNDS = Number(process.env.ROUNDS ?? 15);
const corpora = process.argv.length > 2
  ? process.argv.slice(2)
  : ["mixed-iris-20k.txt", "kasztp-urls.txt"].map((f) => new URL(`../../benches/data/${f}`, import.meta.url));

/**
 * A loop calling `fn` on every line, compiled apart for each checker so
 * that its call site sees one function (a shared loop would be
 * megamorphic, and slow both sides alike). `label` makes each loop's text
 * its own: V8 caches `new Function` by its text, and loops of one text
 * share their call feedback.
 */
function loop(fn, label) {
  // eslint-disable-next-line no-new-func
  const run = new Function("fn", "lines", `
    let accepted = 0;
    for (let i = 0; i < lines.length; i++) if (fn(lines[i])) accepted++;
    return accepted; // ${label}`);
  return (lines) => run(fn, lines);
}

/** isValid over a buffer in the module's memory, filled by encodeInto; null without the functions. */
function bufferChecker(start) {
  if (typeof wasm.__isValidBuffer !== "function") return null;
  const memory = wasm.__memory();
  const encoder = new TextEncoder();
  let capacity = 1 << 16;
  let ptr = wasm.__buffer(capacity);
  let target = new Uint8Array(memory.buffer, ptr, capacity);
  return (s) => {
    if (s.length * 3 > capacity || target.buffer !== memory.buffer) {
      capacity = Math.max(capacity, s.length * 3);
      ptr = wasm.__buffer(capacity);
      target = new Uint8Array(memory.buffer, ptr, capacity);
    }
    return wasm.__isValidBuffer(encoder.encodeInto(s, target).written, start);
  };
}

const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];

function compile(schemaFormat, plugin) {
  return plugin(new Ajv2020({ strictTypes: false })).compile({ type: "string", format: schemaFormat });
}

const uriRef = { profile: "rfc3986", rule: "URI-reference" };
const validator = new iribis.Validator(uriRef);
const regex = fullFormats["uri-reference"];
const uriFn = fullFormats.uri;
/** [name, iribis's checker, theirs, their name]: each pair timed side by side. */
const pairs = [
  ["ajv, uri-reference", compile("uri-reference", iribisFormats), compile("uri-reference", addFormats), "ajv + ajv-formats"],
  ["ajv, uri", compile("uri", iribisFormats), compile("uri", addFormats), "ajv + ajv-formats"],
  ["ajv, iri-reference", compile("iri-reference", iribisFormats), compile("uri-reference", addFormats), "ajv + ajv-formats uri-reference"],
  ["ajv, iri", compile("iri", iribisFormats), compile("uri", addFormats), "ajv + ajv-formats uri"],
  ["isValid(s)", (s) => iribis.isValid(s), (s) => regex.test(s), "uri-reference regex"],
  ["isValid(s, rfc3986 URI-reference)", (s) => iribis.isValid(s, uriRef), (s) => regex.test(s), "uri-reference regex"],
  ["Validator.isValid, rfc3986 URI-reference", (s) => validator.isValid(s), (s) => regex.test(s), "uri-reference regex"],
  ["uri: isValid(s, rfc3986 URI)", (s) => iribis.isValid(s, { profile: "rfc3986", rule: "URI" }), uriFn, "uri function"],
  ["wasm isValid (before fast.js)", (s) => wasm.isValid(s), (s) => regex.test(s), "uri-reference regex"],
];
const viaBuffer = bufferChecker(0);
if (viaBuffer) {
  pairs.push(["wasm encodeInto buffer, IRI-reference", viaBuffer, (s) => regex.test(s), "uri-reference regex"]);
  pairs.push(["wasm encodeInto buffer, URI-reference", bufferChecker(2), (s) => regex.test(s), "uri-reference regex"]);
}

/**
 * Strings of every kind V8 keeps apart, made from `lines`: concatenated,
 * sliced out of a bigger one, literal (internalized), with characters
 * beyond Latin-1 (two-byte) and not.
 */
function everyKind(lines) {
  const text = lines.join(" ");
  const strings = ["http://a/", "urn:x", "http://例え.jp/"];
  for (let k = 0; k < 200; k++) {
    const line = lines[(k * 97) % lines.length];
    strings.push(`${line.slice(0, -1)}x${k}`, text.slice(k * 31, k * 31 + 40), `http://例え.jp/${k}`, line);
  }
  return strings;
}

const kinds = process.env.KINDS ? "; every checker first called on strings of every kind (KINDS=1)" : "";
console.log(`node ${process.version}; ${ROUNDS} alternating rounds, medians of CPU time; strings ${process.env.SLICED ? "sliced" : "from JSON.parse"}${kinds}`);
console.log("| corpus | work | iribis | theirs | iribis ÷ theirs | verdicts differ |");
console.log("|---|---|---:|---:|---:|---:|");
for (const corpus of corpora) {
  let lines = readFileSync(corpus, "utf8").split("\n");
  if (lines.at(-1) === "") lines.pop();
  if (!process.env.SLICED) lines = JSON.parse(JSON.stringify(lines));
  const name = String(corpus).split("/").at(-1);
  const timed = pairs.map(([work, ours, theirs, their]) => ({
    work, their, loops: [loop(ours, `${name}: ${work}`), loop(theirs, `${name}: ${work}, ${their}`)], ns: [[], []], ratios: [],
    differ: lines.filter((s) => ours(s) !== theirs(s)),
  }));
  if (process.env.KINDS) {
    const strings = everyKind(lines);
    for (const [, ours, theirs] of pairs) {
      for (let r = 0; r < 20; r++) {
        for (const s of strings) {
          ours(s);
          theirs(s);
        }
      }
    }
  }
  for (let round = 0; round <= ROUNDS; round++) {
    for (const t of timed) {
      // Each side goes first every other round, and starts on a collected
      // heap where `gc` is exposed: no loop pays for another's garbage.
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      const ns = [0, 0];
      for (const side of order) {
        globalThis.gc?.();
        const t0 = process.cpuUsage();
        t.loops[side](lines);
        const spent = process.cpuUsage(t0);
        ns[side] = ((spent.user + spent.system) * 1000) / lines.length;
      }
      if (round === 0) continue;
      t.ns[0].push(ns[0]);
      t.ns[1].push(ns[1]);
      t.ratios.push(ns[0] / ns[1]);
    }
  }
  for (const t of timed) {
    console.log(`| ${name} | ${t.work} | ${median(t.ns[0]).toFixed(0)} ns | ${median(t.ns[1]).toFixed(0)} ns (${t.their}) | ${median(t.ratios).toFixed(2)} | ${t.differ.length} |`);
    if (process.env.SHOW_DIFFERENCES) {
      for (const s of t.differ.slice(0, 5)) console.log(`  ${t.work} differs: ${JSON.stringify(s)}`);
    }
  }
}
