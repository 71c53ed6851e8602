// The grammar playground's backend in the browser: a module Web Worker that
// answers the requests of `iri grammar serve`'s API (/api/grammar,
// /api/parse, /api/check, /api/diff) with the same JSON, from the
// WebAssembly build of iribis::lab::playground (wasm/src/playground.rs).
// The page (app.js) starts two: one for parses, one for the slow check and
// diff, and ends one that runs past its time.
//
// A trap (the stack exhausted by an input that nests deeper than the
// browser's stack holds, which pest cannot see coming in WebAssembly; or a
// bug) leaves the module unsound: the answer says so and asks the page to
// start a new worker.
import init, { Playground } from "./playground.js";

const ready = init({ module_or_path: new URL("playground_bg.wasm", import.meta.url) });
let backend = null;

self.onmessage = async (event) => {
  const { id, path, body } = event.data;
  try {
    await ready;
    backend ??= new Playground();
    const answer = JSON.parse(backend.request(path, body ?? ""));
    self.postMessage({ id, answer });
  } catch (e) {
    const stack = e instanceof RangeError || /out of bounds|stack/i.test(String(e));
    const error = stack
      ? { kind: "limit", message: `the grammar needs more nested calls than the browser's stack holds for this input: no verdict (${e})` }
      : { kind: "internal", message: `internal error (a bug in iribis: please report it, with the grammar and the input): ${e}` };
    self.postMessage({ id, answer: { status: stack ? 422 : 500, json: { error } }, restart: true });
  }
};
