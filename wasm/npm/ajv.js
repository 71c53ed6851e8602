// An ajv format plugin: `iri`, `iri-reference`, `uri` and `uri-reference`
// checked by iribis (its DFAs walked in JavaScript: fast.js) instead of
// regular expressions: `iri` and `iri-reference` by
// draft-ietf-iri-3987bis-13 (the rules IRI and IRI-reference), `uri` and
// `uri-reference` by RFC 3986 (URI and URI-reference).
//
//   const Ajv = require("ajv/dist/2020");
//   const ajv = require("iribis/ajv")(new Ajv());
//   ajv.validate({ format: "iri" }, "http://例え.jp/"); // true
"use strict";

// fast.js's walkers, not index.js's Validator: ajv applies a string format
// to strings only, so the check of the argument's type would be redundant.
const { walkerFor } = require("./fast.js");

/** Each format, the rule and the profile it is checked with. */
const FORMATS = Object.freeze({
  iri: Object.freeze({ rule: "IRI", profile: "rfc3987bis" }),
  "iri-reference": Object.freeze({ rule: "IRI-reference", profile: "rfc3987bis" }),
  uri: Object.freeze({ rule: "URI", profile: "rfc3986" }),
  "uri-reference": Object.freeze({ rule: "URI-reference", profile: "rfc3986" }),
});

/**
 * Adds (or replaces) the formats named in `formats` (all four by default)
 * on `ajv` and returns it. Formats apply to strings only, as JSON Schema
 * says: other types pass.
 */
function iribisFormats(ajv, formats) {
  const names = formats ?? Object.keys(FORMATS);
  for (const name of names) {
    // Own names only: `toString`, `constructor` or `__proto__` are found on
    // any object's prototype, and are no format of ours.
    const options = typeof name === "string" && Object.hasOwn(FORMATS, name) ? FORMATS[name] : undefined;
    if (!options) {
      throw new RangeError(`unknown format ${typeof name === "string" ? JSON.stringify(name) : String(name)}: iribis checks ${Object.keys(FORMATS).join(", ")}`);
    }
    ajv.addFormat(name, { type: "string", validate: walkerFor(options.profile, options.rule) });
  }
  return ajv;
}

module.exports = iribisFormats;
module.exports.default = iribisFormats;
module.exports.iribisFormats = iribisFormats;
module.exports.FORMATS = FORMATS;
