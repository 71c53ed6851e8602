// The grammar playground's backend: a module Web Worker that answers the
// page's requests (/api/grammar, /api/parse, /api/check, /api/diff) with the
// JSON of iribis_lab::playground, from its WebAssembly build
// (wasm/src/playground.rs). The page (app.js) starts two: one for parses,
// one for the slow check and diff, and ends one that runs past its time.
// Each message is {id, path, body}; each answer {id, json}, and `restart`
// when the worker must be replaced.
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
    const { json } = JSON.parse(backend.request(path, body ?? ""));
    self.postMessage({ id, json });
  } catch (e) {
    const stack = e instanceof RangeError || /out of bounds|stack/i.test(String(e));
    const error = stack
      ? { kind: "limit", message: `the grammar needs more nested calls than the browser's stack holds for this input: no verdict (${e})` }
      : { kind: "internal", message: `internal error (a bug in iribis: please report it, with the grammar and the input): ${e}` };
    self.postMessage({ id, json: { error }, restart: true });
  }
};
