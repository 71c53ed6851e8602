// The grammar playground, a static page (wasm/site/, copied into
// target/wasm/site/ by wasm/build.sh) whose backend is the WebAssembly build
// of iribis_lab::playground, run in Web Workers (worker.js). It makes the
// playground's requests (docs/grammar-lab.md describes their JSON):
// /api/grammar, /api/parse (on every edit, debounced), /api/check and
// /api/diff (slow: after a pause in the editing, one at a time, or on
// demand). Grammar files are read here, from the file picker or from files
// dropped on the page. Every text from the backend or from a file is put in
// the page as text, never as markup.
"use strict";

const $ = (id) => document.getElementById(id);
const ui = {
  profile: $("profile"), builtin: $("builtin"), builtinName: $("builtin-name"), copy: $("copy"),
  grammar: $("grammar"), grammarStatus: $("grammar-status"), grammarError: $("grammar-error"),
  files: $("files"), filesNote: $("files-note"),
  rule: $("rule"), input: $("input"), verdict: $("verdict"), inputView: $("input-view"),
  tree: $("tree"), hideChars: $("hide-chars"), parseError: $("parse-error"), components: $("components"),
  checkPanel: $("check-panel"), checkStatus: $("check-status"), runCheck: $("run-check"), auto: $("auto"),
  failuresOnly: $("failures-only"), extraAbnf: $("extra-abnf"), checkStale: $("check-stale"),
  checkSummary: $("check-summary"), check: $("check"),
  diffPanel: $("diff-panel"), diffStatus: $("diff-status"), trees: $("trees"), diffStale: $("diff-stale"),
  diffSummary: $("diff-summary"), diff: $("diff"),
};

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function el(tag, props, ...children) {
  const e = document.createElement(tag);
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      if (k === "dataset") Object.assign(e.dataset, v);
      else if (k === "class") e.className = v;
      else e[k] = v;
    }
  }
  for (const c of children) {
    if (c !== null && c !== undefined) e.append(c);
  }
  return e;
}

function debounce(fn, ms) {
  let t = null;
  return () => { clearTimeout(t); t = setTimeout(fn, ms); };
}

// ---- the backend: WebAssembly in the browser ---------------------------------

// Two module workers (one for parses, one for the slow check and diff), each
// running the WebAssembly build of the playground's API (worker.js). A
// request that runs past its time is answered with a `limit` error and its
// worker replaced, as is one whose worker trapped: nothing inside the
// module can interrupt pest_meta, so ending the worker is the bound.
// `request` resolves to the answer's JSON, never rejects.
const request = (() => {
  const TIMEOUT_S = { parse: 20, heavy: 300 };
  const lanes = {};
  let next = 0;
  const fail = (kind, message) => ({ error: { kind, message } });
  function stop(name, json) {
    const lane = lanes[name];
    if (!lane) return;
    delete lanes[name];
    lane.worker.terminate();
    for (const done of lane.pending.values()) done(json);
  }
  function lane(name) {
    if (lanes[name]) return lanes[name];
    const worker = new Worker(new URL("worker.js", document.baseURI), { type: "module" });
    const l = { worker, pending: new Map() };
    worker.onmessage = (e) => {
      const done = l.pending.get(e.data.id);
      l.pending.delete(e.data.id);
      if (done) done(e.data.json);
      if (e.data.restart && lanes[name] === l) stop(name, e.data.json);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      if (lanes[name] === l) stop(name, fail("internal", `the WebAssembly worker failed: ${e.message || "it did not load"}`));
    };
    lanes[name] = l;
    return l;
  }
  return (path, body) => {
    const name = path === "/api/check" || path === "/api/diff" ? "heavy" : "parse";
    const l = lane(name);
    const id = ++next;
    return new Promise((ok) => {
      const timer = setTimeout(() => stop(name, fail("limit",
        `the request did not finish in ${TIMEOUT_S[name]} s (pest_meta's validation takes time exponential in some chains of rule references): stopped`)),
      TIMEOUT_S[name] * 1000);
      l.pending.set(id, (json) => { clearTimeout(timer); ok(json); });
      l.worker.postMessage({ id, path, body: body === undefined ? "" : JSON.stringify(body) });
    });
  };
})();

// ---- the grammars ---------------------------------------------------------

let builtinText = "";

async function loadBuiltin() {
  const profile = ui.profile.value;
  const g = await request(`/api/grammar?profile=${encodeURIComponent(profile)}`);
  if (g.error) {
    ui.builtin.value = "";
    showGrammarError(`the built-in grammar did not load: ${g.error.message}`, "");
    return;
  }
  const wasBuiltin = ui.grammar.value === builtinText || ui.grammar.value === "";
  builtinText = g.text;
  ui.builtin.value = g.text;
  ui.builtinName.textContent = g.profile;
  if (wasBuiltin) ui.grammar.value = g.text;
  setRules(g.rules);
}

function setRules(rules) {
  const current = ui.rule.value || "IRI-reference";
  const same = rules.length === ui.rule.options.length &&
    rules.every((r, i) => ui.rule.options[i].value === r);
  if (!same) {
    ui.rule.replaceChildren(...rules.map((r) => el("option", { value: r, textContent: r })));
  }
  if (rules.includes(current)) ui.rule.value = current;
  else if (rules.includes("IRI-reference")) ui.rule.value = "IRI-reference";
  else if (rules.includes("URI-reference")) ui.rule.value = "URI-reference";
}

// A grammar's errors (`text` the grammar they are about), or none.
function showGrammarError(message, text) {
  const where = message && fileLine(message, text);
  ui.grammarError.hidden = !message;
  ui.grammarError.textContent = (message || "") + (where ? `\n(${where})` : "");
  ui.grammar.classList.toggle("bad", !!message);
}

// A grammar may hold files one after the other, each under a line
// `// ======== NAME ========` and an empty line (as the built-in grammar's
// text does, and files loaded together): the first line of an error's
// position as a line of its file, "line 97 of the editor is line 79 of
// rfc3986.pest"; null outside such a file.
const FILE_HEADER = /^\/\/ ======== (.+) ========$/;
function fileLine(message, text) {
  const m = /playground\.pest:(\d+)/.exec(message);
  if (!m) return null;
  const line = Number(m[1]);
  const lines = text.split("\n", line);
  for (let h = lines.length - 1; h >= 0; h--) {
    const header = FILE_HEADER.exec(lines[h]);
    if (!header) continue;
    // The header is on line h + 1, its file's first line on h + 3.
    const inFile = line - (h + 2);
    return inFile >= 1 ? `line ${line} of the editor is line ${inFile} of ${header[1]}` : null;
  }
  return null;
}

// Clicking a grammar error puts the cursor on its line.
ui.grammarError.addEventListener("click", () => {
  const m = /playground\.pest:(\d+)(?::(\d+))?/.exec(ui.grammarError.textContent);
  if (!m) return;
  const lines = ui.grammar.value.split("\n");
  const line = Math.min(Number(m[1]), lines.length) - 1;
  let start = 0;
  for (let i = 0; i < line; i++) start += lines[i].length + 1;
  ui.grammar.focus();
  ui.grammar.setSelectionRange(start, start + lines[line].length);
});

// ---- parse, on every edit ---------------------------------------------------

let parseBusy = false;
let parseAgain = false;
let lastParse = null;

async function parseNow() {
  if (parseBusy) { parseAgain = true; return; }
  parseBusy = true;
  try {
    do {
      parseAgain = false;
      const body = {
        grammar: ui.grammar.value,
        profile: ui.profile.value,
        rule: ui.rule.value || "IRI-reference",
        input: ui.input.value,
      };
      const res = await request("/api/parse", body);
      if (!parseAgain) showParse(body, res);
    } while (parseAgain);
  } finally {
    parseBusy = false;
  }
}
const scheduleParse = debounce(parseNow, 120);

function showParse(body, res) {
  lastParse = { body, res };
  // An answer with "valid" is a parse (its "error" the input's); without,
  // the request's error.
  const err = res.valid === undefined ? res.error : null;
  ui.parseError.hidden = true;
  if (err && err.kind === "grammar") {
    showGrammarError(err.message, body.grammar);
    ui.grammarStatus.textContent = "does not load";
    ui.grammarStatus.className = "status bad";
    ui.verdict.textContent = "";
    ui.tree.replaceChildren();
    ui.components.replaceChildren();
    showInput(body.input, null);
    freshness();
    return;
  }
  showGrammarError(null);
  if (err) {
    if (err.rules) setRules(err.rules);
    ui.parseError.hidden = false;
    ui.parseError.textContent = err.message;
    ui.verdict.textContent = "";
    ui.tree.replaceChildren();
    ui.components.replaceChildren();
    showInput(body.input, null);
    return;
  }
  setRules(res.rules);
  ui.grammarStatus.textContent = `${res.rules.length} rules`;
  ui.grammarStatus.className = "status good";
  const builtin = res.builtin_valid === undefined ? "" :
    ` (built-in: ${res.builtin_valid ? "valid" : "invalid"})`;
  ui.verdict.textContent = (res.valid ? `valid ${res.rule}` : `invalid ${res.rule}`) + builtin;
  ui.verdict.className = "verdict " + (res.valid ? "valid" : "invalid");
  if (res.valid) {
    showTree(res.input, res.nodes);
    showComponents(res.components);
    showInput(res.input, null);
  } else {
    ui.tree.replaceChildren();
    ui.components.replaceChildren();
    ui.parseError.hidden = false;
    ui.parseError.textContent = res.report;
    showInput(res.input, res.error.byte);
  }
}

// The input, with the hovered node's byte span (or the failure's character)
// marked.
function showInput(input, failByte, span) {
  const bytes = encoder.encode(input);
  const cut = (a, b) => decoder.decode(bytes.slice(a, b));
  if (span) {
    const [s, e] = span;
    ui.inputView.replaceChildren(cut(0, s), el("mark", { textContent: cut(s, e) }), cut(e, bytes.length));
  } else if (failByte !== null && failByte !== undefined) {
    const rest = cut(failByte, bytes.length);
    const ch = rest.length ? String.fromCodePoint(rest.codePointAt(0)) : " ";
    ui.inputView.replaceChildren(cut(0, failByte), el("span", { class: "fail", textContent: ch }),
      rest.slice(ch.length));
  } else {
    ui.inputView.replaceChildren(input);
  }
  if (!input) ui.inputView.append(el("span", { class: "muted", textContent: "(empty input)" }));
}

function showTree(input, nodes) {
  const bytes = encoder.encode(input);
  const cut = (a, b) => decoder.decode(bytes.slice(a, b));
  const hide = ui.hideChars.checked;
  const rows = [];
  nodes.forEach((n) => {
    if (hide && n.depth > 0 && [...n.text].length === 1) return;
    const mark = el("mark", { class: n.start === n.end ? "empty" : "", textContent: n.text });
    const row = el("div", { class: "node", dataset: { rule: n.rule, start: n.start, end: n.end } },
      el("span", { class: "rule", textContent: n.rule }),
      el("span", { class: "span", textContent: `${n.start}..${n.end}` }),
      el("span", { class: "over" }, cut(0, n.start), mark, cut(n.end, bytes.length)));
    row.firstChild.style.paddingLeft = `${n.depth * 1.1}em`;
    row.title = `${n.rule}: bytes ${n.start}..${n.end}`;
    row.addEventListener("mouseenter", () => showInput(input, null, [n.start, n.end]));
    row.addEventListener("mouseleave", () => showInput(input, null));
    rows.push(row);
  });
  ui.tree.replaceChildren(...rows);
}

function showComponents(components) {
  const rows = Object.entries(components || {}).map(([k, v]) =>
    el("tr", { dataset: { key: k } }, el("td", { textContent: k }),
      v === "" ? el("td", { class: "empty", textContent: "(empty)" }) : el("td", { textContent: v })));
  if (!rows.length) rows.push(el("tr", {}, el("td", { class: "empty", textContent: "no components: the start rule is not one of the spec's reference rules" })));
  ui.components.replaceChildren(...rows);
}

// ---- check and diff: slow, one at a time, after a pause ----------------------

let heavyBusy = false;
let heavyAgain = false;

function running(statusEl, what) {
  const t0 = performance.now();
  statusEl.className = "status running";
  const tick = () => { statusEl.textContent = `running ${what}… ${((performance.now() - t0) / 1000).toFixed(1)} s`; };
  tick();
  const timer = setInterval(tick, 100);
  return () => { clearInterval(timer); return (performance.now() - t0) / 1000; };
}

// "done" or "not run", then the time it took in its own element (which the
// browser test hides in its screenshot, to keep that picture the same from
// run to run).
function done(statusEl, what, secs, note = "") {
  statusEl.replaceChildren(what, el("span", { class: "elapsed", textContent: ` (${secs.toFixed(1)} s${note})` }));
}

async function heavyNow() {
  if (heavyBusy) { heavyAgain = true; return; }
  heavyBusy = true;
  ui.runCheck.disabled = true;
  try {
    do {
      heavyAgain = false;
      const checked = ranOn("check");
      let stop = running(ui.checkStatus, "the check");
      let res = await request("/api/check", { grammar: checked.grammar, profile: checked.profile, extra_abnf: checked.extra });
      let secs = stop();
      if (heavyAgain) continue;
      showCheck(res, secs, checked);
      // The selected start rule, in both grammars (the corpus holds IRI
      // references: with a smaller rule, few inputs match, and the
      // summary says how many). The grammar is the one just checked.
      const diffed = { ...ranOn("diff"), grammar: checked.grammar, profile: checked.profile };
      stop = running(ui.diffStatus, "the diff");
      res = await request("/api/diff", diffed);
      secs = stop();
      if (heavyAgain) continue;
      showDiff(res, secs, diffed);
    } while (heavyAgain);
  } finally {
    heavyBusy = false;
    ui.runCheck.disabled = false;
    freshness();
  }
}
const scheduleHeavy = debounce(() => { if (ui.auto.checked) heavyNow(); }, 1200);

// ---- whether the check and the diff on display are the page's ---------------

// What a check or a diff depends on, as the page stands now (the diff's
// fields are its request's).
function ranOn(kind) {
  const common = { grammar: ui.grammar.value, profile: ui.profile.value };
  return kind === "check"
    ? { ...common, extra: ui.extraAbnf.value }
    : { ...common, rule: ui.rule.value || "IRI-reference", trees: ui.trees.checked };
}
const CHANGED = {
  grammar: "your grammar has changed", profile: "the profile has changed",
  extra: "the extra ABNF has changed", rule: "the start rule has changed", trees: "“compare trees” has changed",
};

// What the check and the diff on display ran on (null: nothing shown).
const shown = { check: null, diff: null };
const heavyPanels = {
  check: { panel: ui.checkPanel, status: ui.checkStatus, stale: ui.checkStale, summary: ui.checkSummary, table: ui.check },
  diff: { panel: ui.diffPanel, status: ui.diffStatus, stale: ui.diffStale, summary: ui.diffSummary, table: ui.diff },
};

// After every change and every answer: a check or diff of another grammar
// than the editor's, when the editor's does not load, is cleared (there is
// nothing to compare until it loads); one that ran on other inputs than the
// page's is marked out of date until it runs again.
function freshness() {
  const res = lastParse && lastParse.res;
  const broken = res && lastParse.body.grammar === ui.grammar.value &&
    res.valid === undefined && res.error && res.error.kind === "grammar";
  for (const [kind, p] of Object.entries(heavyPanels)) {
    const ran = shown[kind];
    let changed = [];
    if (ran && broken && ran.grammar !== ui.grammar.value) {
      shown[kind] = null;
      if (kind === "check") lastCheck = null;
      if (!p.status.classList.contains("running")) {
        p.status.textContent = "not run";
        p.status.className = "status bad";
      }
      p.summary.textContent = "your grammar does not load (its errors are above): nothing to compare";
      p.summary.className = "summary bad";
      p.table.replaceChildren();
    } else if (ran) {
      const now = ranOn(kind);
      changed = Object.keys(now).filter((k) => now[k] !== ran[k]).map((k) => CHANGED[k]);
    }
    p.panel.classList.toggle("stale", changed.length > 0);
    p.stale.hidden = changed.length === 0;
    p.stale.textContent = changed.length ? `out of date: ${changed.join(", ")} since this ran` : "";
  }
}

let lastCheck = null;

// A check or diff the backend refused: its status, the error as the
// summary, and an empty table.
function showNotRun(status, summary, table, error, secs) {
  done(status, "not run", secs);
  status.className = "status bad";
  summary.textContent = error.message;
  summary.className = "summary bad";
  table.replaceChildren();
}

function showCheck(res, secs, ran) {
  lastCheck = res;
  shown.check = ran;
  if (res.error) showNotRun(ui.checkStatus, ui.checkSummary, ui.check, res.error, secs);
  else {
    done(ui.checkStatus, "done", secs);
    ui.checkStatus.className = "status " + (res.passed ? "good" : "bad");
    const counts = res.counts.map((c) => `${c.count} ${c.status}`).join(", ");
    let summary = `${res.passed ? "passed" : "FAILED"}: ${res.rows.length} rules: ${counts}`;
    if (res.root_causes.length) summary += ` — root cause${res.root_causes.length > 1 ? "s" : ""}: ${res.root_causes.join(", ")}`;
    ui.checkSummary.textContent = summary;
    ui.checkSummary.className = "summary " + (res.passed ? "good" : "bad");
    renderCheckRows();
  }
  freshness();
}

function renderCheckRows() {
  const res = lastCheck;
  if (!res || res.error) return;
  const only = ui.failuresOnly.checked;
  // The root causes first: the rules that differ while all they refer to
  // agrees; then the rules that only follow from them.
  const rank = (r) => (r.failure && r.follows.length === 0 ? 0 : r.failure ? 1 : 2);
  const rows = res.rows.filter((r) => !only || r.failure)
    .map((r, i) => [rank(r), i, r]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2]);
  const head = el("tr", {}, el("th", { textContent: "rule" }), el("th", { textContent: "status" }),
    el("th", { textContent: "detail and counterexamples" }));
  const body = rows.map((r) => {
    const cell = el("td", {}, el("span", { class: "detail", textContent: r.detail }));
    for (const c of r.counterexamples) {
      const who = c.pest ? " pest accepts, the ABNF does not" : " pest rejects, the ABNF accepts";
      cell.append(el("span", { class: "cx", dataset: { text: c.text } }, JSON.stringify(c.text),
        el("span", { class: "who", textContent: who })));
    }
    return el("tr", { dataset: { rule: r.rule, status: r.status } },
      el("td", { class: "rule", textContent: r.rule }),
      el("td", { class: "st " + (r.failure ? "fail" : "ok"), textContent: r.status }), cell);
  });
  if (!body.length) body.push(el("tr", {}, el("td", { colSpan: 3, class: "muted", textContent: "no rule fails" })));
  ui.check.replaceChildren(head, ...body);
}

function showDiff(res, secs, ran) {
  shown.diff = ran;
  if (res.error) {
    showNotRun(ui.diffStatus, ui.diffSummary, ui.diff, res.error, secs);
    freshness();
    return;
  }
  done(ui.diffStatus, "done", secs);
  ui.diffStatus.className = "status " + (res.differing ? "bad" : "good");
  ui.diffSummary.textContent = `${res.inputs} inputs of the built-in corpus as ${res.new.rule}, ` +
    `${res.differing} differ (accepted: ${res.accepted.base} by the built-in grammar, ${res.accepted.new} by yours)`;
  ui.diffSummary.className = "summary " + (res.differing ? "bad" : "good");
  const parts = [];
  for (const k of res.kinds) {
    const where = k.kind === "tree-changed" ? ` at ${k.base_rule ?? "(end)"} / ${k.new_rule ?? "(end)"}` : "";
    parts.push(el("div", { class: "kind", dataset: { kind: k.kind } }, `${k.kind} (${k.count})${where} `,
      el("span", { class: "muted", textContent: k.description })));
    const shown = res.differences.filter((d) => d.kind === k.kind).slice(0, 5);
    for (const d of shown) {
      parts.push(el("div", { class: "diffline" }, JSON.stringify(d.input),
        el("span", { class: "detail", textContent: d.detail })));
    }
  }
  ui.diff.replaceChildren(...parts);
  freshness();
}

// ---- grammar files: the file picker, or files dropped on the page -------------

// The most bytes a load reads, all its files together. Every request
// carries the grammar as a JSON string, and the backend reads at most 1 MiB
// a request (MAX_BODY in wasm/src/playground.rs); half of it leaves room for
// JSON's escapes, the input and the extra ABNF. A built-in grammar is about
// 26 KB. Larger files are refused before any of them is read.
const MAX_GRAMMAR_BYTES = 512 * 1024;

// The files the editor's text came from, and that text (to say "edited").
let loaded = null;
// What the note under the picker says when no file is loaded.
const FILES_HINT = ui.filesNote.textContent;

// A file name as the page shows it, and in the comment above its text:
// controls, line breaks and bidi formatting characters written as \u{…}.
const printable = (name) =>
  name.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g,
    (c) => `\\u{${c.codePointAt(0).toString(16).toUpperCase()}}`);

function showFiles(message, bad = false) {
  ui.filesNote.textContent = message;
  ui.filesNote.className = "files-note" + (bad ? " bad" : "");
}

function showLoaded() {
  if (!loaded) return;
  const names = loaded.names.join(", ");
  const how = loaded.names.length > 1 ? ", one after the other in this order" : "";
  const edited = ui.grammar.value === loaded.text ? "" : " (edited since)";
  showFiles(`from ${names}${how}${edited}`);
}

// Reads the files into the editor: one file as it is; several one after
// the other, each under a `// ======== NAME ========` line as in the
// built-in grammar's text (pest takes a grammar's rules in any order, so the
// order only places them in the editor). Nothing changes when a file is too
// large, unreadable or not UTF-8: the message says which.
async function loadFiles(list) {
  const files = [...list];
  if (!files.length) return;
  const names = files.map((f) => printable(f.name));
  const total = files.reduce((n, f) => n + f.size, 0);
  if (total > MAX_GRAMMAR_BYTES) {
    const what = files.length > 1 ? `${names.join(", ")} hold` : `${names[0]} holds`;
    showFiles(`not loaded: ${what} ${total.toLocaleString("en")} bytes, more than the ` +
      `${MAX_GRAMMAR_BYTES.toLocaleString("en")} a grammar may have here`, true);
    return;
  }
  showFiles(`reading ${names.join(", ")}…`);
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  const texts = [];
  for (const [i, f] of files.entries()) {
    let bytes;
    try {
      bytes = await f.arrayBuffer();
    } catch (e) {
      showFiles(`not loaded: ${names[i]} cannot be read (${e.message})`, true);
      return;
    }
    if (bytes.byteLength > MAX_GRAMMAR_BYTES) {
      showFiles(`not loaded: ${names[i]} has grown to ${bytes.byteLength.toLocaleString("en")} bytes`, true);
      return;
    }
    try {
      texts.push(utf8.decode(bytes));
    } catch {
      showFiles(`not loaded: ${names[i]} is not UTF-8 text`, true);
      return;
    }
  }
  const text = files.length === 1 ? texts[0] : texts.map((t, i) =>
    `${i ? "\n" : ""}// ======== ${names[i]} ========\n\n${t}${t.endsWith("\n") ? "" : "\n"}`).join("");
  ui.grammar.value = text;
  ui.grammar.scrollTop = 0;
  loaded = { names, text };
  showLoaded();
  parseNow();
  scheduleHeavy();
  freshness();
}

ui.files.addEventListener("change", () => {
  const files = [...ui.files.files];
  // Cleared, so that choosing the same file again loads it again.
  ui.files.value = "";
  loadFiles(files);
});

// Files dragged over the page: it takes them wherever they are dropped
// (instead of the browser opening them); a drag of text into a text field
// is left to the browser.
const carriesFiles = (e) => !!e.dataTransfer && [...e.dataTransfer.types].includes("Files");
let dragDepth = 0;
document.addEventListener("dragenter", (e) => {
  if (!carriesFiles(e)) return;
  e.preventDefault();
  dragDepth++;
  document.body.classList.add("dropping");
});
document.addEventListener("dragleave", (e) => {
  if (!carriesFiles(e)) return;
  dragDepth = Math.max(0, dragDepth - 1);
  if (!dragDepth) document.body.classList.remove("dropping");
});
document.addEventListener("dragover", (e) => {
  if (!carriesFiles(e)) return;
  e.preventDefault();
  e.dataTransfer.dropEffect = "copy";
});
document.addEventListener("drop", (e) => {
  if (!carriesFiles(e)) return;
  e.preventDefault();
  dragDepth = 0;
  document.body.classList.remove("dropping");
  loadFiles(e.dataTransfer.files);
});

// ---- wiring -----------------------------------------------------------------

ui.grammar.addEventListener("input", () => { showLoaded(); freshness(); scheduleParse(); scheduleHeavy(); });
ui.extraAbnf.addEventListener("input", () => { freshness(); scheduleHeavy(); });
ui.input.addEventListener("input", scheduleParse);
ui.rule.addEventListener("change", () => { freshness(); parseNow(); scheduleHeavy(); });
ui.hideChars.addEventListener("change", () => {
  if (lastParse && lastParse.res.valid) showTree(lastParse.res.input, lastParse.res.nodes);
});
ui.failuresOnly.addEventListener("change", renderCheckRows);
ui.trees.addEventListener("change", () => { freshness(); heavyNow(); });
ui.runCheck.addEventListener("click", heavyNow);
ui.copy.addEventListener("click", () => {
  ui.grammar.value = ui.builtin.value;
  loaded = null;
  showFiles(FILES_HINT);
  freshness();
  parseNow();
  scheduleHeavy();
});
ui.profile.addEventListener("change", async () => {
  freshness();
  await loadBuiltin();
  freshness();
  parseNow();
  scheduleHeavy();
});

(async () => {
  await loadBuiltin();
  await parseNow();
  if (ui.auto.checked) heavyNow();
})();
