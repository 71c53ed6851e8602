// The grammar playground in a real browser: the static page (site/, built by
// wasm/build.sh), whose backend is WebAssembly in Web Workers, served by a
// plain file server that the test starts (python3 -m http.server), in
// Debian's chromium driven by playwright-core (no browser download).
//
// Loads the grammar's three pest files through the file picker, with the
// port rule edited so that it accepts "x"; types an input that uses it,
// reads the highlighted span of the port node in the tree, and waits for
// the ABNF check to report the difference with a counterexample. Then the
// failure explanation; the check and diff marked out of date after an edit
// and cleared after an edit that does not load; a grammar error placed in
// its file; a file dropped on the page; files refused (too large, not
// UTF-8) with a message; and no failed request or console error throughout
// (no /favicon.ico 404). Saves a screenshot (docs/playground.png unless
// PLAYGROUND_SCREENSHOT says where).
//
//   bash wasm/build.sh
//   (cd tests/browser && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci)
//   PLAYGROUND_SITE=target/wasm/site PLAYGROUND_SCREENSHOT=target/site.png \
//       node tests/browser/playground.test.mjs
//
// Exit status 0 when every step passes, 1 otherwise.

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const site = resolve(root, process.env.PLAYGROUND_SITE ?? "target/wasm/site");
const chromiumPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
// CI writes it elsewhere (PLAYGROUND_SCREENSHOT), to leave the tree clean.
const screenshot = resolve(root, process.env.PLAYGROUND_SCREENSHOT ?? "docs/playground.png");
// The check and the diff share two cores with other work: allow them time.
const SLOW = 150_000;
// The page's limit on what a load reads (MAX_GRAMMAR_BYTES in app.js).
const MAX_GRAMMAR_BYTES = 512 * 1024;

const t0 = Date.now();
const log = (m) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)} s] ${m}`);

function assert(ok, message) {
  if (!ok) throw new Error(`assertion failed: ${message}`);
}

// What went wrong in the page, the browser or the server: the test fails
// on any of it.
const pageErrors = [];

// Starts the file server on a free port; resolves to [process, url]. Every
// request it answers with an error status goes into pageErrors (a missing
// /favicon.ico among them, which the browser asks for by itself, not the
// page).
function startServer() {
  const server = spawn("python3", ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", site],
    { stdio: ["ignore", "pipe", "pipe"] });
  createInterface({ input: server.stderr }).on("line", (line) => {
    // 127.0.0.1 - - [date] "GET /favicon.ico HTTP/1.1" 404 -
    const m = /"([A-Z]+ \S+) HTTP\/[\d.]+" (\d{3})/.exec(line);
    if (m && Number(m[2]) >= 400) pageErrors.push(`the server answered ${m[2]} to ${m[1]}`);
  });
  return new Promise((ok, fail) => {
    server.on("error", fail);
    server.on("exit", (code) => fail(new Error(`python3 -m http.server exited (${code}) before printing its port`)));
    createInterface({ input: server.stdout }).on("line", (line) => {
      // "Serving HTTP on 127.0.0.1 port 41234 (http://127.0.0.1:41234/) ..."
      const port = /port (\d+)/.exec(line)?.[1];
      if (port) ok([server, `http://127.0.0.1:${port}/`]);
    });
  });
}

// The pest files of the rfc3987bis grammar, in the built-in grammar's order.
const grammarFiles = ["rfc3986.pest", "iri.pest", "ucschar-3987bis.pest"]
  .map((name) => ({ name, text: readFileSync(join(root, "grammar", name), "utf8") }));
// The editor's text after loading several files: each under a header line.
const joined = (files) => files.map((f, i) =>
  `${i ? "\n" : ""}// ======== ${f.name} ========\n\n${f.text}${f.text.endsWith("\n") ? "" : "\n"}`).join("");
// The heavy work (check, then diff) is over and both are shown.
const heavyDone = () => !document.getElementById("run-check").disabled &&
  document.getElementById("check-status").textContent.startsWith("done") &&
  document.getElementById("diff-status").textContent.startsWith("done");
// Dispatches a drop of files (built in the page from [name, text] pairs) on
// the editor, as a drag from the desktop would; returns whether the page
// showed that it would take them while they were over it.
const dropFiles = (files) => {
  const dt = new DataTransfer();
  for (const [name, text] of files) dt.items.add(new File([text], name));
  const target = document.getElementById("grammar");
  const fire = (type) => target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
  fire("dragenter");
  const taken = !fire("dragover") && document.body.classList.contains("dropping");
  fire("drop");
  return taken && !document.body.classList.contains("dropping");
};

let server = null;
let context = null;
const profileDir = mkdtempSync(join(tmpdir(), "iri-playground-chromium-"));
let status = 0;
try {
  assert(existsSync(join(site, "index.html")), `${site}/index.html (build it with wasm/build.sh)`);
  const [proc, url] = await startServer();
  server = proc;
  assert(/^http:\/\/127\.0\.0\.1:\d+\/$/.test(url), `the URL on 127.0.0.1: ${url}`);
  log(`static page at ${url}`);

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
    if (m.type() === "error") pageErrors.push(`console error: ${m.text()}`);
  });
  page.on("response", (r) => {
    if (r.status() >= 400) pageErrors.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  // Nothing but the page's own site (its Content-Security-Policy refuses
  // the rest): a request elsewhere fails the test. Watched, not routed:
  // with a route, chromium asks for no icon, and the test would not see
  // a missing one.
  const origin = new URL(url).origin;
  page.on("request", (r) => {
    const where = new URL(r.url());
    if (where.protocol !== "data:" && where.origin !== origin) pageErrors.push(`request outside the site: ${r.url()}`);
  });

  await page.goto(url);
  await page.waitForFunction(() => document.getElementById("builtin").value.includes("port = { DIGIT* }"));
  const builtin = await page.inputValue("#builtin");
  assert(await page.inputValue("#grammar") === builtin, "the editor starts with the built-in grammar");
  // The start rule list comes from the grammar.
  await page.waitForSelector('#rule option[value="IP-literal"]', { state: "attached" });
  assert(await page.inputValue("#rule") === "IRI-reference", "the default start rule");
  assert(await page.getAttribute('link[rel="icon"]', "href") === "data:,", "the page's own (empty) icon");
  log("page loaded");

  // The grammar's three files through the file picker, the port rule
  // edited so that it accepts "x" too.
  const files = grammarFiles.map((f) => ({ ...f, text: f.text.replace("port = { DIGIT* }", 'port = { (DIGIT | "x")* }') }));
  assert(files[0].text !== grammarFiles[0].text, "the port rule is in rfc3986.pest");
  const picker = page.getByLabel("load .pest files");
  assert(await picker.getAttribute("accept") === ".pest" && await picker.getAttribute("multiple") !== null,
    "the picker takes several .pest files");
  await picker.setInputFiles(files.map((f) => ({ name: f.name, mimeType: "text/plain", buffer: Buffer.from(f.text) })));
  await page.waitForFunction((text) => document.getElementById("grammar").value === text, joined(files));
  const note = await page.textContent("#files-note");
  assert(note === "from rfc3986.pest, iri.pest, ucschar-3987bis.pest, one after the other in this order",
    `the files' names: ${note}`);
  const input = "http://example.org:8x0/a?q#f";
  await page.fill("#input", input);
  log("three files loaded through the picker");

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
  await page.waitForFunction(heavyDone, null, { timeout: SLOW });
  assert(await page.isHidden("#check-stale") && await page.isHidden("#diff-stale"), "the check and diff are the page's");
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
  log("failure explanation checked");

  // The check and diff on display, after edits: by hand from here ("after
  // each edit" off), and up to date to begin with.
  await page.uncheck("#auto");
  await page.waitForFunction(() => !document.getElementById("run-check").disabled, null, { timeout: SLOW });
  await page.click("#run-check");
  await page.waitForFunction(() => !document.getElementById("run-check").disabled &&
    document.getElementById("check-stale").hidden && document.getElementById("diff-stale").hidden, null, { timeout: SLOW });
  await page.waitForFunction(heavyDone, null, { timeout: SLOW });
  const editedText = await page.inputValue("#grammar");
  // An edit that loads: both are marked out of date, and kept.
  await page.fill("#grammar", `${editedText}\n// one more line\n`);
  await page.waitForSelector("#check-stale", { state: "visible" });
  const stale = await page.textContent("#check-stale");
  assert(stale === "out of date: your grammar has changed since this ran", `check marked: ${stale}`);
  assert(await page.isVisible("#diff-stale"), "the diff marked out of date");
  assert(await page.getAttribute("#check-panel", "class") === "panel stale", "the check panel greyed");
  assert(await page.locator('#check tr[data-rule="port"]').count() === 1, "the out-of-date check still shown");
  assert((await page.textContent("#files-note")).endsWith("(edited since)"), "the files' note says edited");
  await page.waitForFunction(() => document.getElementById("grammar-status").textContent.endsWith("rules"));
  // An edit that does not load: both are cleared.
  await page.fill("#grammar", editedText.replace('port = { (DIGIT | "x")* }', "port = { DIGITS* }"));
  await page.waitForFunction(() => !document.getElementById("grammar-error").hidden);
  await page.waitForFunction(() => !document.querySelector("#check tr") && !document.querySelector("#diff .kind"));
  for (const id of ["check", "diff"]) {
    const s = await page.textContent(`#${id}-summary`);
    assert(s.startsWith("your grammar does not load"), `${id} summary: ${s}`);
    assert(await page.isHidden(`#${id}-stale`), `no out-of-date mark on the cleared ${id}`);
  }
  // The grammar error says where, in the editor and in the file.
  const gerr = await page.textContent("#grammar-error");
  const errLine = Number(/playground\.pest:(\d+)/.exec(gerr)?.[1]);
  const fileLine = grammarFiles[0].text.split("\n").findIndex((l) => l.startsWith("port = {")) + 1;
  assert(gerr.includes("DIGITS") && gerr.includes(`line ${errLine} of the editor is line ${fileLine} of rfc3986.pest`),
    `grammar error: ${gerr}`);
  log("out-of-date and cleared check and diff, the grammar error in its file checked");

  // One file dropped on the editor: taken as it is.
  const dropped = builtin.replace("port = { DIGIT* }", 'port = { (DIGIT | "z")* }');
  assert(await page.evaluate(dropFiles, [["port-z.pest", dropped]]), "the page shows it takes the dragged file");
  await page.waitForFunction((text) => document.getElementById("grammar").value === text, dropped);
  assert(await page.textContent("#files-note") === "from port-z.pest", "the dropped file's name");
  await page.fill("#input", "http://example.org:8z0/");
  await page.waitForFunction(() => document.getElementById("verdict").textContent === "valid IRI-reference (built-in: invalid)");
  assert(await page.isHidden("#grammar-error"), "the dropped grammar loads");
  log("a file dropped on the editor loaded");

  // Files refused, with a message; the editor keeps its text.
  await picker.setInputFiles({ name: "latin1.pest", mimeType: "text/plain", buffer: Buffer.from([0x61, 0x20, 0x3d, 0x20, 0xe9]) });
  await page.waitForFunction(() => document.getElementById("files-note").textContent === "not loaded: latin1.pest is not UTF-8 text");
  assert(await page.getAttribute("#files-note", "class") === "files-note bad", "the refusal stands out");
  assert(await page.evaluate(dropFiles, [["a.pest", "a = { \"a\" }\n"], ["big.pest", " ".repeat(MAX_GRAMMAR_BYTES)]]), "a drop of two files");
  await page.waitForFunction(() => document.getElementById("files-note").textContent.startsWith("not loaded: a.pest, big.pest hold"));
  const tooLarge = await page.textContent("#files-note");
  assert(tooLarge === "not loaded: a.pest, big.pest hold 524,300 bytes, more than the 524,288 a grammar may have here", tooLarge);
  assert(await page.inputValue("#grammar") === dropped, "the editor unchanged by refused files");
  log("files refused: not UTF-8, too large");

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
