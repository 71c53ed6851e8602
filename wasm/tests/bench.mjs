// isValid in Node beside ajv-formats' regular expressions, on the mixed
// corpus (benches/data/mixed-iris-20k.txt: 20,000 references). Not a test:
//
//   node wasm/tests/bench.mjs [CORPUS]
//
// prints the time per reference (best of several rounds) of each checker
// for the formats uri-reference and uri (ajv-formats has no iri formats:
// iri-reference and iri are timed for iribis alone), directly and through
// an ajv validator, and how often the verdicts differ.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const iribis = require("iribis");
const iribisFormats = require("iribis/ajv");
const { fullFormats } = require("ajv-formats/dist/formats");
const addFormats = require("ajv-formats");
const Ajv2020 = require("ajv/dist/2020");

const corpus = process.argv[2] ?? new URL("../../benches/data/mixed-iris-20k.txt", import.meta.url);
const lines = readFileSync(corpus, "utf8").split("\n");
if (lines.at(-1) === "") lines.pop();

function time(fn, rounds = 9) {
  let best = Infinity;
  let accepted = 0;
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    accepted = 0;
    for (const s of lines) if (fn(s)) accepted++;
    const ns = Number(process.hrtime.bigint() - t0) / lines.length;
    best = Math.min(best, ns);
  }
  return { ns: best, accepted };
}

const rows = [];
const formats = [["uri-reference", "URI-reference", "rfc3986"], ["uri", "URI", "rfc3986"],
  ["iri-reference", "IRI-reference", "rfc3987bis"], ["iri", "IRI", "rfc3987bis"]];
for (const [format, rule, profile] of formats) {
  const options = { rule, profile };
  const ours = time((s) => iribis.isValid(s, options));
  const validator = new iribis.Validator(options);
  const oursOnce = time((s) => validator.isValid(s));
  const viaAjvOurs = iribisFormats(new Ajv2020()).compile({ format });
  const ajvOurs = time((s) => viaAjvOurs(s));
  const theirFormat = fullFormats[format];
  if (!theirFormat) {
    rows.push([`${format}: iribis.isValid`, ours, NaN]);
    rows.push([`${format}: iribis Validator.isValid`, oursOnce, NaN]);
    rows.push([`${format}: ajv + iribis/ajv`, ajvOurs, NaN]);
    continue;
  }
  // A regular expression (uri-reference), or a function around one (uri).
  const regex = typeof theirFormat === "function" ? theirFormat : (s) => theirFormat.test(s);
  const theirs = time(regex);
  const viaAjvTheirs = addFormats(new Ajv2020()).compile({ format });
  const ajvTheirs = time((s) => viaAjvTheirs(s));
  const differ = lines.filter((s) => iribis.isValid(s, options) !== regex(s));
  rows.push([`${format}: iribis.isValid`, ours, theirs.ns / ours.ns]);
  rows.push([`${format}: iribis Validator.isValid`, oursOnce, theirs.ns / oursOnce.ns]);
  rows.push([`${format}: ajv-formats regex`, theirs, 1]);
  rows.push([`${format}: ajv + iribis/ajv`, ajvOurs, ajvTheirs.ns / ajvOurs.ns]);
  rows.push([`${format}: ajv + ajv-formats`, ajvTheirs, 1]);
  rows.push([`${format}: verdicts differ on`, { ns: NaN, accepted: differ.length }, NaN]);
  if (process.env.SHOW_DIFFERENCES) for (const s of differ.slice(0, 10)) console.log(`  ${format} differs: ${JSON.stringify(s)} iribis=${iribis.isValid(s, options)}`);
}
const noOptions = time((s) => iribis.isValid(s));
console.log(`${lines.length} references from ${corpus}; node ${process.version}; best of 9 rounds`);
console.log("| checker | per reference | accepted | regex time ÷ this |");
console.log("|---|---:|---:|---:|");
for (const [name, r, ratio] of rows) {
  const ns = Number.isNaN(r.ns) ? "" : `${r.ns.toFixed(0)} ns`;
  console.log(`| ${name} | ${ns} | ${r.accepted.toLocaleString("en")} | ${Number.isNaN(ratio) ? "" : ratio.toFixed(2) + "×"} |`);
}
console.log(`| iribis.isValid(s), no options object | ${noOptions.ns.toFixed(0)} ns | ${noOptions.accepted.toLocaleString("en")} | |`);
