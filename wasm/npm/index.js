// The package's entry point: the functions of iribis.js (wasm-bindgen's
// glue around the WebAssembly module), each checking first that the
// arguments it reads as strings are strings. The glue copies a string into
// the module's memory without looking at its type: a number or an object
// would reach the module as garbage (a RuntimeError from inside it), null as
// a TypeError about `.length`. Here such an argument is a TypeError that
// names the function, the argument and what it got, before the module is
// entered. Options objects are checked by the module itself.
//
// isValid and Validator.isValid walk the reference rules' DFAs in
// JavaScript (fast.js) and enter the module for the other rules; a string
// with a lone surrogate, which the glue would pass as U+FFFD, is valid by
// no rule.
"use strict";

const wasm = require("./iribis.js");
const fast = require("./fast.js");

/** What `value` is, for the message: its `typeof`, or "null" or "array". */
function describe(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** The TypeError of `fn` for its argument `name` (omitted when it is the only string). */
function notAString(fn, name, value) {
  const what = name === undefined ? "a string" : `a string for ${name}`;
  return new TypeError(`${fn}: expected ${what}, got ${describe(value)}`);
}

/** `Reflect.apply`, taken once: a program that replaces it changes no call. */
const apply = Reflect.apply;

/**
 * The argument list `isValid` calls a walker with when it has options. A
 * call through `Reflect.apply` with a list V8 cannot see into is one its
 * optimizing compiler does not inline. Inlined, the walk with options took
 * the inlining budget of every caller of `isValid` (V8 shares what a
 * function has seen between its callers, and inlines the most called path
 * first): in a program that also calls `isValid(s, options)`, `isValid(s)`
 * then called its walker out of line, which reads its tables as variables
 * rather than constants, and took 1.2 times as long.
 */
const ARGS = [""];

function isValid(s, options) {
  if (typeof s !== "string") throw notAString("isValid", undefined, s);
  if (options === undefined) return fast.isValidDefault(s);
  const walker = fast.walkerForOptions(options);
  if (walker !== null) {
    ARGS[0] = s;
    const valid = apply(walker, undefined, ARGS);
    ARGS[0] = "";
    return valid;
  }
  // The module reads the options (and throws when they are wrong) first.
  const valid = wasm.isValid(s, options);
  return valid && !fast.hasLoneSurrogate(s);
}

function parse(s, options) {
  if (typeof s !== "string") throw notAString("parse", undefined, s);
  return wasm.parse(s, options);
}

function check(s, options) {
  if (typeof s !== "string") throw notAString("check", undefined, s);
  return wasm.check(s, options);
}

function toUri(s, options) {
  if (typeof s !== "string") throw notAString("toUri", undefined, s);
  return wasm.toUri(s, options);
}

function toIri(s, options) {
  if (typeof s !== "string") throw notAString("toIri", undefined, s);
  return wasm.toIri(s, options);
}

function resolve(base, reference, options) {
  if (typeof base !== "string") throw notAString("resolve", "base", base);
  if (typeof reference !== "string") throw notAString("resolve", "reference", reference);
  return wasm.resolve(base, reference, options);
}

function relativize(base, target) {
  if (typeof base !== "string") throw notAString("relativize", "base", base);
  if (typeof target !== "string") throw notAString("relativize", "target", target);
  return wasm.relativize(base, target);
}

function normalize(s, options) {
  if (typeof s !== "string") throw notAString("normalize", undefined, s);
  return wasm.normalize(s, options);
}

function compare(a, b, options) {
  if (typeof a !== "string") throw notAString("compare", "a", a);
  if (typeof b !== "string") throw notAString("compare", "b", b);
  return wasm.compare(a, b, options);
}

function readings(s, options) {
  if (typeof s !== "string") throw notAString("readings", undefined, s);
  return wasm.readings(s, options);
}

/**
 * The module's Validator (which reads and checks the options), its
 * `isValid` checking its argument first and walking the rule's DFA in
 * JavaScript when fast.js has it.
 */
class Validator extends wasm.Validator {
  #walker;

  constructor(options) {
    super(options);
    this.#walker = fast.walkerForOptions(options);
  }

  isValid(s) {
    if (typeof s !== "string") throw notAString("Validator.isValid", undefined, s);
    if (this.#walker !== null) return this.#walker(s);
    return super.isValid(s) && !fast.hasLoneSurrogate(s);
  }
}

exports.isValid = isValid;
exports.Validator = Validator;
exports.parse = parse;
exports.check = check;
exports.toUri = toUri;
exports.toIri = toIri;
exports.resolve = resolve;
exports.relativize = relativize;
exports.normalize = normalize;
exports.compare = compare;
exports.readings = readings;
