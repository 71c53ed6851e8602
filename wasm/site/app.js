// The playground of `iri grammar serve`, and of the static page (site/,
// built by wasm/build.sh). Talks to the JSON endpoints of the playground's
// API (see docs/grammar-lab.md): /api/grammar, /api/parse (on every edit,
// debounced), /api/check and /api/diff (slow: after a pause in the editing,
// one at a time, or on demand). The backend is the server that serves the
// page, or, when the page says `data-backend="wasm"`, the same API answered
// in the browser by WebAssembly workers (wasm/site/worker.js). Every text
// from the backend is put in the page as text, never as markup.
"use strict";

const $ = (id) => document.getElementById(id);
const ui = {
  profile: $("profile"), builtin: $("builtin"), builtinName: $("builtin-name"), copy: $("copy"),
  grammar: $("grammar"), grammarStatus: $("grammar-status"), grammarError: $("grammar-error"),
  rule: $("rule"), input: $("input"), verdict: $("verdict"), inputView: $("input-view"),
  tree: $("tree"), hideChars: $("hide-chars"), parseError: $("parse-error"), components: $("components"),
  checkStatus: $("check-status"), runCheck: $("run-check"), auto: $("auto"), failuresOnly: $("failures-only"),
  extraAbnf: $("extra-abnf"), checkSummary: $("check-summary"), check: $("check"),
  diffStatus: $("diff-status"), trees: $("trees"), diffSummary: $("diff-summary"), diff: $("diff"),
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

// ---- the backend: the server, or WebAssembly in the browser ----------------

// `iri grammar serve`: the API over HTTP, from the page's own server.
function httpBackend() {
  async function request(path, init) {
    const r = await fetch(path, init);
    let json;
    try { json = await r.json(); } catch (e) { json = { error: { kind: "http", message: `HTTP ${r.status}` } }; }
    return { status: r.status, json };
  }
  return {
    get: (path) => request(path),
    post: (path, body) => request(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }),
  };
}

// The static page: the same requests answered by two module workers (one
// for parses, one for the slow check and diff), each running the
// WebAssembly build of the playground's API. What the server bounds with a
// thread and a timeout, this bounds by ending the worker: a request that
// runs past its time is answered with a `limit` error and its worker
// replaced, as is one whose worker trapped (worker.js).
function wasmBackend() {
  const TIMEOUT_S = { parse: 20, heavy: 300 };
  const lanes = {};
  let next = 0;
  const fail = (status, kind, message) => ({ status, json: { error: { kind, message } } });
  function stop(name, answer) {
    const lane = lanes[name];
    if (!lane) return;
    delete lanes[name];
    lane.worker.terminate();
    for (const done of lane.pending.values()) done({ answer });
  }
  function lane(name) {
    if (lanes[name]) return lanes[name];
    const worker = new Worker(new URL("worker.js", document.baseURI), { type: "module" });
    const l = { worker, pending: new Map() };
    worker.onmessage = (e) => {
      const done = l.pending.get(e.data.id);
      l.pending.delete(e.data.id);
      if (done) done(e.data);
      if (e.data.restart && lanes[name] === l) stop(name, e.data.answer);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      if (lanes[name] === l) stop(name, fail(500, "internal", `the WebAssembly worker failed: ${e.message || "it did not load"}`));
    };
    lanes[name] = l;
    return l;
  }
  function request(path, body) {
    const name = path === "/api/check" || path === "/api/diff" ? "heavy" : "parse";
    const l = lane(name);
    const id = ++next;
    return new Promise((ok) => {
      const timer = setTimeout(() => stop(name, fail(422, "limit",
        `the request did not finish in ${TIMEOUT_S[name]} s (pest_meta's validation takes time exponential in some chains of rule references): stopped`)),
      TIMEOUT_S[name] * 1000);
      l.pending.set(id, (message) => { clearTimeout(timer); ok(message.answer); });
      l.worker.postMessage({ id, path, body: body === undefined ? "" : JSON.stringify(body) });
    });
  }
  return { get: (path) => request(path), post: request };
}

const backend = document.documentElement.dataset.backend === "wasm" ? wasmBackend() : httpBackend();
const post = (path, body) => backend.post(path, body);

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

// ---- the grammars ---------------------------------------------------------

let builtinText = "";

async function loadBuiltin() {
  const profile = ui.profile.value;
  const g = (await backend.get(`/api/grammar?profile=${encodeURIComponent(profile)}`)).json;
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

function showGrammarError(message) {
  ui.grammarError.hidden = !message;
  ui.grammarError.textContent = message || "";
  ui.grammar.classList.toggle("bad", !!message);
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
      let r;
      try { r = await post("/api/parse", body); } catch (e) {
        r = { status: 0, json: { error: { kind: "network", message: `the server does not answer: ${e}` } } };
      }
      if (r.json.error && r.json.error.kind === "busy") { await sleep(200); parseAgain = true; continue; }
      if (!parseAgain) showParse(body, r.json);
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
    showGrammarError(err.message);
    ui.grammarStatus.textContent = "does not load";
    ui.grammarStatus.className = "status bad";
    ui.verdict.textContent = "";
    ui.tree.replaceChildren();
    ui.components.replaceChildren();
    showInput(body.input, null);
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
      const grammar = ui.grammar.value;
      const profile = ui.profile.value;
      let stop = running(ui.checkStatus, "the check");
      let r = await post("/api/check", { grammar, profile, extra_abnf: ui.extraAbnf.value });
      while (r.json.error && r.json.error.kind === "busy") { await sleep(300); r = await post("/api/check", { grammar, profile, extra_abnf: ui.extraAbnf.value }); }
      let secs = stop();
      if (heavyAgain) continue;
      showCheck(r.json, secs);
      stop = running(ui.diffStatus, "the diff");
      // The selected start rule, in both grammars (the corpus holds IRI
      // references: with a smaller rule, few inputs match, and the
      // summary says how many).
      const body = { grammar, profile, rule: ui.rule.value || "IRI-reference", trees: ui.trees.checked };
      r = await post("/api/diff", body);
      while (r.json.error && r.json.error.kind === "busy") { await sleep(300); r = await post("/api/diff", body); }
      secs = stop();
      if (heavyAgain) continue;
      showDiff(r.json, secs);
    } while (heavyAgain);
  } catch (e) {
    ui.checkStatus.textContent = `the server does not answer: ${e}`;
    ui.checkStatus.className = "status bad";
  } finally {
    heavyBusy = false;
    ui.runCheck.disabled = false;
  }
}
const scheduleHeavy = debounce(() => { if (ui.auto.checked) heavyNow(); }, 1200);

let lastCheck = null;

// A check or diff the server refused: its status, the error as the
// summary, and an empty table.
function showNotRun(status, summary, table, error, secs) {
  done(status, "not run", secs);
  status.className = "status bad";
  summary.textContent = error.message;
  summary.className = "summary bad";
  table.replaceChildren();
}

function showCheck(res, secs) {
  lastCheck = res;
  if (res.error) return showNotRun(ui.checkStatus, ui.checkSummary, ui.check, res.error, secs);
  done(ui.checkStatus, "done", secs, res.cached ? ", the last answer" : "");
  ui.checkStatus.className = "status " + (res.passed ? "good" : "bad");
  const counts = res.counts.map((c) => `${c.count} ${c.status}`).join(", ");
  let summary = `${res.passed ? "passed" : "FAILED"}: ${res.rows.length} rules: ${counts}`;
  if (res.root_causes.length) summary += ` — root cause${res.root_causes.length > 1 ? "s" : ""}: ${res.root_causes.join(", ")}`;
  ui.checkSummary.textContent = summary;
  ui.checkSummary.className = "summary " + (res.passed ? "good" : "bad");
  renderCheckRows();
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

function showDiff(res, secs) {
  if (res.error) return showNotRun(ui.diffStatus, ui.diffSummary, ui.diff, res.error, secs);
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
}

// ---- wiring -----------------------------------------------------------------

ui.grammar.addEventListener("input", () => { scheduleParse(); scheduleHeavy(); });
ui.extraAbnf.addEventListener("input", scheduleHeavy);
ui.input.addEventListener("input", scheduleParse);
ui.rule.addEventListener("change", () => { parseNow(); scheduleHeavy(); });
ui.hideChars.addEventListener("change", () => {
  if (lastParse && lastParse.res.valid) showTree(lastParse.res.input, lastParse.res.nodes);
});
ui.failuresOnly.addEventListener("change", renderCheckRows);
ui.trees.addEventListener("change", heavyNow);
ui.runCheck.addEventListener("click", heavyNow);
ui.copy.addEventListener("click", () => {
  ui.grammar.value = ui.builtin.value;
  parseNow();
  scheduleHeavy();
});
ui.profile.addEventListener("change", async () => {
  await loadBuiltin();
  parseNow();
  scheduleHeavy();
});

(async () => {
  await loadBuiltin();
  await parseNow();
  if (ui.auto.checked) heavyNow();
})();
