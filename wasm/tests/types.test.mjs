// The TypeScript types of the package: tsc checks types-usage.ts against
// the installed package (iribis.d.ts from wasm-bindgen's typed signatures
// and the custom section of wasm/src/lib.rs, ajv.d.ts by hand).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

test("tsc accepts the typed uses and rejects the mistyped ones", () => {
  const dir = fileURLToPath(new URL(".", import.meta.url));
  const tsc = fileURLToPath(new URL("node_modules/typescript/bin/tsc", import.meta.url));
  const r = spawnSync(process.execPath, [tsc, "--noEmit", "-p", "tsconfig.json"], { cwd: dir, encoding: "utf8" });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
