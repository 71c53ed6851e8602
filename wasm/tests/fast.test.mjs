// isValid, Validator.isValid and the ajv formats walk the reference rules'
// DFAs in JavaScript (the package's fast.js over dfa-tables.js): their
// verdicts must be the WebAssembly module's, the library's own, on every
// line of both corpora (benches/data/) and every input of the conformance
// suite's `valid` cases (conformance/valid.jsonl), for each profile and
// each reference rule.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";

const require = createRequire(import.meta.url);
const iribis = require("iribis");
const iribisFormats = require("iribis/ajv");
const Ajv2020 = require("ajv/dist/2020");
// wasm-bindgen's glue, whose isValid enters the module: the reference.
const wasm = require(`${dirname(require.resolve("iribis"))}/iribis.js`);

const repo = (path) => new URL(`../../${path}`, import.meta.url);
const linesOf = (path) => readFileSync(repo(path), "utf8").split("\n").filter((s, i, all) => i < all.length - 1 || s !== "");
const cases = linesOf("conformance/valid.jsonl").map((line) => JSON.parse(line));
const inputs = {
  "benches/data/mixed-iris-20k.txt": linesOf("benches/data/mixed-iris-20k.txt"),
  "benches/data/kasztp-urls.txt": linesOf("benches/data/kasztp-urls.txt"),
  "conformance/valid.jsonl": cases.filter((c) => c.op === "valid").map((c) => c.input),
};

const PROFILES = ["rfc3987bis", "rfc3987", "leiri", "rfc3986"];
const RULES = ["IRI-reference", "IRI", "absolute-IRI", "irelative-ref", "URI-reference", "URI", "absolute-URI", "relative-ref"];

/**
 * The module's verdict on `s`, with a lone surrogate invalid: the module
 * reads one as U+FFFD (wasm-bindgen's UTF-8), which no string with one is.
 */
const moduleVerdict = (module, s) =>
  module.isValid(s) && !/[\uD800-\uDFFF]/.test(s.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ""));

test("the inputs are there", () => {
  assert.equal(inputs["benches/data/mixed-iris-20k.txt"].length, 20000);
  // 48,009 newlines, and a last line without one.
  assert.equal(inputs["benches/data/kasztp-urls.txt"].length, 48010);
  assert.ok(inputs["conformance/valid.jsonl"].length > 30000);
});

for (const [name, strings] of Object.entries(inputs)) {
  for (const profile of PROFILES) {
    test(`${name}: every reference rule under ${profile}, isValid and Validator as the module`, () => {
      for (const rule of RULES) {
        const options = { profile, rule };
        const validator = new iribis.Validator(options);
        const module = new wasm.Validator(options);
        for (const s of strings) {
          const expected = module.isValid(s);
          assert.equal(iribis.isValid(s, options), expected, `${profile} ${rule} ${JSON.stringify(s)}`);
          assert.equal(validator.isValid(s), expected, `Validator ${profile} ${rule} ${JSON.stringify(s)}`);
        }
        validator.free();
        module.free();
      }
    });
  }
  test(`${name}: isValid(s) and the ajv formats as the module`, () => {
    const ajv = iribisFormats(new Ajv2020());
    for (const [format, options] of Object.entries(iribisFormats.FORMATS)) {
      const validate = ajv.compile({ type: "string", format });
      const module = new wasm.Validator(options);
      for (const s of strings) {
        assert.equal(validate(s), module.isValid(s), `${format} ${JSON.stringify(s)}`);
      }
      module.free();
    }
    for (const s of strings) assert.equal(iribis.isValid(s), wasm.isValid(s), JSON.stringify(s));
  });
}

test("the suite's valid cases of the reference rules get their expected verdicts", () => {
  let checked = 0;
  for (const c of cases) {
    if (c.op !== "valid" || !RULES.includes(c.rule)) continue;
    assert.equal(iribis.isValid(c.input, { profile: c.profile, rule: c.rule }), c.expect.valid, c.id);
    checked++;
  }
  assert.ok(checked > 10000, `${checked} cases`);
});

test("a lone surrogate is valid by no rule; a surrogate pair is one character", () => {
  const lone = ["\uD800", "\uDC00", "\uDBFF", "\uDFFF", "\uDC00\uD800", "\uD800\uDBFF", "\uDBFF\uE000"];
  for (const profile of PROFILES) {
    for (const rule of [...RULES, "ihost", "ifragment", "fragment"]) {
      const options = { profile, rule };
      let known = true;
      try {
        new wasm.Validator(options).free();
      } catch {
        known = false; // ihost and ifragment are not rfc3986's
      }
      if (!known) continue;
      const validator = new iribis.Validator(options);
      for (const bad of lone) {
        for (const s of [bad, `http://h/${bad}`, `http://h/${bad}x`, `${bad}http://h/`, `http://h/?${bad}#`]) {
          assert.equal(iribis.isValid(s, options), false, `${profile} ${rule} ${JSON.stringify(s)}`);
          assert.equal(validator.isValid(s), false, `Validator ${profile} ${rule} ${JSON.stringify(s)}`);
        }
      }
      validator.free();
    }
  }
  // U+1F600 (four UTF-8 bytes) is a ucschar of 3987bis (§2.2: %x10000-1FFFD).
  assert.equal(iribis.isValid("http://h/\uD83D\uDE00"), true);
  assert.equal(iribis.isValid("http://h/\uD83D\uDE00", { profile: "rfc3986" }), false);
  // U+E0000..U+E0FFF, iprivate of 3987bis, only in the query.
  assert.equal(iribis.isValid("http://h/?\uDB40\uDC00", { rule: "IRI" }), true);
  assert.equal(iribis.isValid("http://h/\uDB40\uDC00", { rule: "IRI" }), false);
  // LEIRI allows U+FFFD (§6.1's %xE000-FFFD), which a lone surrogate is not.
  assert.equal(iribis.isValid("a\uFFFD", { profile: "leiri" }), true);
  assert.equal(iribis.isValid("a\uD800", { profile: "leiri" }), false);
});

test("a character is read alike at an even or an odd offset, and at the end", () => {
  // The walk takes two code units a turn and the last one alone; from its
  // first surrogate on, a string is walked a code unit at a time, in the
  // state the walk had reached (at either offset of the pair of units).
  const characters = ["a", "%41", "é", "日", "\uFFFD", "\uE000", "\uD83D\uDE00", "\uDB40\uDC00", "\uD800", "\uDC00", " "];
  const strings = [];
  for (const prefix of ["", "a", "ab", "http://h/", "http://h/x", "//h", "//h:"]) {
    for (const c of characters) {
      for (const suffix of ["", "x", "xy", "?q", "#f", "\u00E9"]) strings.push(prefix + c + suffix);
    }
  }
  for (const profile of PROFILES) {
    for (const rule of RULES) {
      const options = { profile, rule };
      const module = new wasm.Validator(options);
      for (const s of strings) {
        assert.equal(iribis.isValid(s, options), moduleVerdict(module, s), `${profile} ${rule} ${JSON.stringify(s)}`);
      }
      module.free();
    }
  }
});

test("strings of every kind V8 keeps apart get the verdicts of their text", () => {
  // Concatenated, sliced out of a bigger string, internalized (a property
  // name), as JSON.parse makes them: one text, one verdict.
  const lines = inputs["benches/data/mixed-iris-20k.txt"].filter((_, i) => i % 20 === 0);
  const kinds = (line) => [
    line.slice(0, line.length >> 1) + line.slice(line.length >> 1),
    ` ${line} `.slice(1, -1),
    Object.keys({ [line]: 0 })[0],
    line,
  ];
  for (const profile of PROFILES) {
    for (const rule of ["IRI-reference", "IRI", "URI-reference"]) {
      const options = { profile, rule };
      const module = new wasm.Validator(options);
      for (const line of lines) {
        const expected = moduleVerdict(module, line);
        for (const s of kinds(line)) {
          assert.equal(s, line);
          assert.equal(iribis.isValid(s, options), expected, `${profile} ${rule} ${JSON.stringify(s)}`);
        }
      }
      module.free();
    }
  }
});

test("options as the module reads them: names in any ASCII case, own properties only", () => {
  const uri = "http://例え.jp/";
  assert.equal(iribis.isValid(uri, { profile: "RFC3986" }), false);
  assert.equal(iribis.isValid(uri, { profile: "Rfc3987BIS", rule: "iri" }), true);
  assert.equal(iribis.isValid(uri, { rule: "uri_REFERENCE" }), false);
  assert.equal(iribis.isValid("//h", { rule: "Absolute_Iri" }), false);
  assert.equal(iribis.isValid("//h", { rule: "IRELATIVE_REF" }), true);
  // An inherited option is not an option; null and undefined are absent.
  assert.equal(iribis.isValid(uri, Object.create({ profile: "rfc3986" })), true);
  assert.equal(iribis.isValid(uri, { profile: null, rule: undefined }), true);
  const inherited = Object.create({ rule: "IRI" });
  inherited.profile = "rfc3986";
  assert.equal(iribis.isValid("//h", inherited), true);
  // A getter's value counts.
  assert.equal(iribis.isValid(uri, { get profile() { return "rfc3986"; } }), false);
  // The same options object, changed between calls.
  const options = { profile: "rfc3986" };
  assert.equal(iribis.isValid(uri, options), false);
  options.profile = "rfc3987";
  assert.equal(iribis.isValid(uri, options), true);
  // Only ASCII letters fold: U+0130 is no I.
  assert.throws(() => iribis.isValid(uri, { rule: "\u0130RI" }), RangeError);
  assert.throws(() => new iribis.Validator({ rule: "\u0130RI" }), RangeError);
  assert.throws(() => iribis.isValid(uri, { rule: 7 }), TypeError);
  assert.throws(() => iribis.isValid(uri, () => {}), TypeError);
  assert.throws(() => iribis.isValid(uri, { profile: "rfc3986", rule: "ihost" }), RangeError);
  // Other rules are the module's.
  assert.equal(iribis.isValid("例え.jp", { rule: "ihost" }), true);
  assert.equal(iribis.isValid("例え.jp", { rule: "host" }), false);
  assert.equal(new iribis.Validator({ rule: "IPv6address" }).isValid("::1"), true);
});
