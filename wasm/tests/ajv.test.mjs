// iribis/ajv on the JSON-Schema-Test-Suite's optional format tests for
// iri, iri-reference, uri and uri-reference (draft 2020-12; data/, copied
// with its README).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const Ajv2020 = require("ajv/dist/2020");
const iribisFormats = require("iribis/ajv");

const FORMATS = ["iri", "iri-reference", "uri", "uri-reference"];
const suite = (name) => JSON.parse(readFileSync(new URL(`data/json-schema-test-suite/${name}.json`, import.meta.url), "utf8"));

const ajv = iribisFormats(new Ajv2020({ strict: false }));

for (const name of FORMATS) {
  for (const group of suite(name)) {
    test(`${name}: ${group.description}`, () => {
      const validate = ajv.compile(group.schema);
      for (const t of group.tests) {
        assert.equal(validate(t.data), t.valid, `${name}: ${t.description}: ${JSON.stringify(t.data)}`);
      }
    });
  }
}

test("the plugin's formats are iribis's", () => {
  assert.deepEqual(Object.keys(iribisFormats.FORMATS), FORMATS);
  assert.equal(iribisFormats.default, iribisFormats);
  const only = iribisFormats(new Ajv2020(), ["iri"]);
  assert.equal(only.validate({ format: "iri" }, "http://例え.jp/"), true);
  assert.equal(only.validate({ format: "iri" }, "/relative"), false);
  assert.throws(() => only.compile({ format: "uri" }), /unknown format "uri"/);
  assert.throws(() => iribisFormats(new Ajv2020(), ["email"]), RangeError);
});

test("names an object inherits are no formats", () => {
  // A plain object's prototype has these: FORMATS[name] finds them, and the
  // plugin must still refuse them as it refuses "email" (issue 54).
  for (const name of ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf", "isPrototypeOf"]) {
    const ajv = new Ajv2020();
    assert.throws(() => iribisFormats(ajv, [name]), (e) => e instanceof RangeError && e.message.startsWith(`unknown format "${name}"`), name);
    assert.throws(() => ajv.compile({ format: name }), /unknown format/, `${name} was added`);
  }
  assert.throws(() => iribisFormats(new Ajv2020(), [Symbol("iri")]), RangeError);
  assert.throws(() => iribisFormats(new Ajv2020(), [42]), RangeError);
});

test("uri is RFC 3986, iri is 3987bis", () => {
  assert.equal(ajv.validate({ format: "uri" }, "http://例え.jp/"), false);
  assert.equal(ajv.validate({ format: "iri" }, "http://例え.jp/"), true);
  assert.equal(ajv.validate({ format: "uri-reference" }, "../a b"), false);
  assert.equal(ajv.validate({ format: "iri-reference" }, "../résumé"), true);
  assert.equal(ajv.validate({ type: "object", properties: { id: { format: "iri" } } }, { id: 3 }), true);
});
