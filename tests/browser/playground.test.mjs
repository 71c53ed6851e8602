// The playground of `iri grammar serve` in a real browser: Debian's chromium
// driven by playwright-core (no browser download). Edits the port rule of the
// grammar so that it accepts "x", types an input that uses it, reads the
// highlighted span of the port node in the tree, and waits for the ABNF
// check to report the difference with a counterexample; then the failure
// explanation and a grammar error. Saves docs/playground.png.
//
//   IRI_BIN=target/debug/iri node tests/browser/playground.test.mjs
//
// The same test drives the static page (site/, built by wasm/build.sh),
// whose backend is WebAssembly in the browser, served by a plain file
// server (python3 -m http.server):
//
//   PLAYGROUND_SITE=target/wasm/site PLAYGROUND_SCREENSHOT=target/site.png \
//       node tests/browser/playground.test.mjs
//
// Exit status 0 when every step passes, 1 otherwise.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const bin = resolve(root, process.env.IRI_BIN ?? "target/debug/iri");
const chromiumPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
// CI writes it elsewhere (PLAYGROUND_SCREENSHOT), to leave the tree clean.
const screenshot = resolve(root, process.env.PLAYGROUND_SCREENSHOT ?? "docs/playground.png");
// The check runs in a debug build on a shared machine: allow it time.
const SLOW = 150_000;

const t0 = Date.now();
const log = (m) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)} s] ${m}`);

function assert(ok, message) {
  if (!ok) throw new Error(`assertion failed: ${message}`);
}

// The static page's folder, when the test is of it.
const site = process.env.PLAYGROUND_SITE ? resolve(root, process.env.PLAYGROUND_SITE) : null;

// Starts the server on a free port; resolves to [process, url]: `iri
// grammar serve`, or a plain file server for the static page.
function startServer() {
  const [command, args, what] = site
    ? ["python3", ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", site], "python3 -m http.server"]
    : [bin, ["grammar", "serve", "--port", "0"], "iri grammar serve"];
  // (The file server's log of each request is left out.)
  const server = spawn(command, args, { stdio: ["ignore", "pipe", site ? "ignore" : "inherit"] });
  return new Promise((ok, fail) => {
    server.on("error", fail);
    server.on("exit", (code) => fail(new Error(`${what} exited (${code}) before printing its URL`)));
    createInterface({ input: server.stdout }).on("line", (line) => {
      // "Serving HTTP on 127.0.0.1 port 41234 (http://127.0.0.1:41234/) ..."
      const port = site ? /port (\d+)/.exec(line)?.[1] : null;
      if (!site) ok([server, line.trim()]);
      else if (port) ok([server, `http://127.0.0.1:${port}/`]);
    });
  });
}

let server = null;
let context = null;
const profileDir = mkdtempSync(join(tmpdir(), "iri-playground-chromium-"));
const pageErrors = [];
let status = 0;
try {
  const [proc, url] = await startServer();
  server = proc;
  assert(/^http:\/\/127\.0\.0\.1:\d+\/$/.test(url), `the URL on 127.0.0.1: ${url}`);
  log(`${site ? "static page" : "server"} at ${url}`);

  context = await chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
    viewport: { width: 1440, height: 1200 },
  });
  const page = context.pages()[0] ?? await context.newPage();
  page.on("pageerror", (e) => pageErrors.push(`page error: ${e.message}`));
  page.on("console", (m) => {
    // The API answers a grammar that does not load with 422 and its errors
    // as JSON, which the page shows; chromium logs the status too.
    if (m.type() === "error" && !m.text().includes("status of 422")) pageErrors.push(`console error: ${m.text()}`);
  });
  // Nothing but the server: a request elsewhere fails the test.
  const origin = new URL(url).origin;
  await page.route("**/*", (route) => {
    if (new URL(route.request().url()).origin !== origin) {
      pageErrors.push(`request outside the server: ${route.request().url()}`);
      return route.abort();
    }
    return route.continue();
  });

  await page.goto(url);
  await page.waitForFunction(() => document.getElementById("builtin").value.includes("port = { DIGIT* }"));
  const builtin = await page.inputValue("#builtin");
  assert(await page.inputValue("#grammar") === builtin, "the editor starts with the built-in grammar");
  // The start rule list comes from the grammar.
  await page.waitForSelector('#rule option[value="IP-literal"]', { state: "attached" });
  assert(await page.inputValue("#rule") === "IRI-reference", "the default start rule");
  log("page loaded");

  // Edit the port rule so that it accepts "x" too.
  const edited = builtin.replace("port = { DIGIT* }", 'port = { (DIGIT | "x")* }');
  assert(edited !== builtin, "the port rule is in the grammar");
  await page.fill("#grammar", edited);
  const input = "http://example.org:8x0/a?q#f";
  await page.fill("#input", input);

  // The tree: the port node's span, highlighted over the input.
  const portMark = page.locator('#tree .node[data-rule="port"] .over mark');
  // The tree of the edited grammar replaces the one of the page's first input.
  await page.waitForFunction(() => {
    const m = document.querySelector('#tree .node[data-rule="port"] .over mark');
    return m && m.textContent === "8x0";
  }, null, { timeout: 20_000 });
  assert(await portMark.textContent() === "8x0", `port span: ${await portMark.textContent()}`);
  const portNode = page.locator('#tree .node[data-rule="port"]');
  assert(await portNode.getAttribute("data-start") === "19" && await portNode.getAttribute("data-end") === "22",
    "the port's byte span 19..22");
  const verdict = await page.textContent("#verdict");
  assert(verdict === "valid IRI-reference (built-in: invalid)", `verdict: ${verdict}`);
  const hostMark = await page.textContent('#tree .node[data-rule="ihost"] .over mark');
  assert(hostMark === "example.org", `ihost span: ${hostMark}`);
  // The components.
  const port = await page.textContent('#components tr[data-key="port"] td:last-child');
  assert(port === "8x0", `port component: ${port}`);
  const hostType = await page.textContent('#components tr[data-key="host_type"] td:last-child');
  assert(hostType === "reg-name", `host_type: ${hostType}`);
  // Hovering a node highlights its span in the input.
  await portNode.hover();
  const hovered = await page.textContent("#input-view mark");
  assert(hovered === "8x0", `hovered span: ${hovered}`);
  log("tree, components and hover checked");

  // The check against the ABNF finds the difference, with a counterexample.
  const portRow = page.locator('#check tr[data-rule="port"][data-status="DIFFERS"]');
  await portRow.waitFor({ timeout: SLOW });
  const cx = portRow.locator('.cx[data-text="x"]');
  assert(await cx.count() === 1, "the counterexample \"x\"");
  assert((await cx.textContent()).includes("pest accepts, the ABNF does not"), await cx.textContent());
  const summary = await page.textContent("#check-summary");
  assert(summary.startsWith("FAILED") && summary.includes("root cause: port"), `check summary: ${summary}`);
  log("check reports port DIFFERS with \"x\"");
  // And the corpus diff ran on the same grammar.
  await page.waitForFunction(() => /inputs of the built-in corpus as IRI-reference, \d+ differ/.test(
    document.getElementById("diff-summary").textContent), null, { timeout: SLOW });
  await page.waitForFunction(() => document.getElementById("diff-status").textContent.startsWith("done"),
    null, { timeout: SLOW });
  log(`diff: ${await page.textContent("#diff-summary")}`);

  // Show the edited rule in the editor, and hover the port's node.
  await page.evaluate(() => {
    const ta = document.getElementById("grammar");
    const at = ta.value.indexOf("port = {");
    const line = ta.value.slice(0, at).split("\n").length - 1;
    const height = ta.scrollHeight / ta.value.split("\n").length;
    ta.scrollTop = Math.max(0, (line - 6) * height);
  });
  await portNode.hover();
  // The elapsed times change from run to run: hidden in the picture, so
  // that it changes only when the page does (through the CSSOM: the page's
  // Content-Security-Policy refuses an injected stylesheet).
  await page.evaluate(() => {
    for (const e of document.querySelectorAll(".elapsed")) e.style.visibility = "hidden";
  });
  await page.screenshot({ path: screenshot, fullPage: true });
  log(`screenshot: ${screenshot}`);

  // The corpus diff runs from the selected start rule.
  await page.selectOption("#rule", "IRI");
  await page.waitForFunction(() => /inputs of the built-in corpus as IRI, \d+ differ \(accepted: \d+ by the built-in grammar/.test(
    document.getElementById("diff-summary").textContent), null, { timeout: SLOW });
  log(`diff from IRI: ${await page.textContent("#diff-summary")}`);
  await page.selectOption("#rule", "IRI-reference");

  // A failure is explained as `iri parse` explains it.
  await page.fill("#input", "http://example.org:8y0/");
  await page.waitForFunction(() => document.getElementById("parse-error").textContent.includes("a port is digits only"));
  const report = await page.textContent("#parse-error");
  assert(report.includes("has 'y' (U+0079)") && report.includes("(playground.pest)"), `report: ${report}`);
  // Where pest stopped (byte 22, after the port's characters), as the CLI's caret.
  assert(await page.locator("#input-view .fail").textContent() === "/", "the failing character is marked");
  // A grammar that does not load says where.
  await page.fill("#grammar", edited.replace('port = { (DIGIT | "x")* }', "port = { DIGITS* }"));
  await page.waitForFunction(() => !document.getElementById("grammar-error").hidden);
  const gerr = await page.textContent("#grammar-error");
  assert(gerr.includes("playground.pest:") && gerr.includes("DIGITS"), `grammar error: ${gerr}`);
  log("failure explanation and grammar error checked");

  assert(pageErrors.length === 0, pageErrors.join("\n"));
  log("passed");
} catch (e) {
  console.error(`playground browser test FAILED: ${e.stack ?? e}`);
  for (const m of pageErrors) console.error(m);
  status = 1;
} finally {
  if (context) await context.close().catch(() => {});
  if (server) server.kill();
  rmSync(profileDir, { recursive: true, force: true });
}
process.exit(status);
