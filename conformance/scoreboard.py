#!/usr/bin/env python3
"""Runs the conformance suite against every adapter of conformance/adapters/
and writes docs/conformance.md: each implementation's pass rate per
operation and profile, and its main deviations, each with the shortest
failing case and the rule it breaks.

Not part of CI (it builds and installs other projects' code). Needs cargo,
python3 with venv, java (11+) and node (18+); a missing one is skipped and
said so. Usage, from anywhere:

    python3 conformance/scoreboard.py            # run everything, write the page
    python3 conformance/scoreboard.py --render   # only rewrite the page from the last results
    python3 conformance/scoreboard.py --only oxiri --only url

Results go to target/conformance-results/NAME.json (the runner's --json
report); fuzzing reports found there as fuzz-NAME.json (from `iri suite fuzz
--json`) are summarized too.
"""

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "target", "conformance-results")
VENV = os.path.join(ROOT, "target", "conformance-venv")
PEERS = os.path.join(ROOT, "conformance", "adapters", "rust")
PEERS_BIN = os.path.join(PEERS, "target", "release", "iribis-suite-peers")
PY = os.path.join(VENV, "bin", "python")
PYDIR = os.path.join(ROOT, "conformance", "adapters", "python")

# name, language, what it implements, how to run its adapter, what it needs
IMPLEMENTATIONS = [
    ("iribis", "Rust", "draft-ietf-iri-3987bis-13, RFC 3987, RFC 3986, LEIRIs (this project)", "{iri} suite adapter", "iri"),
    ("oxiri", "Rust", "RFC 3987 IRIs (oxiri 0.3.1)", PEERS_BIN + " oxiri", "rust"),
    ("iri-string", "Rust", "RFC 3987 IRIs and RFC 3986 URIs (iri-string 0.7.14)", PEERS_BIN + " iri-string", "rust"),
    ("fluent-uri", "Rust", "RFC 3986 URIs and RFC 3987 IRIs (fluent-uri 0.4.1)", PEERS_BIN + " fluent-uri", "rust"),
    ("url", "Rust", "the WHATWG URL Standard (url 2.5.8)", PEERS_BIN + " url", "rust"),
    ("rfc3987 (PyPI)", "Python", "RFC 3987 and RFC 3986, every rule as a regular expression (rfc3987 1.3.8)", PY + " " + os.path.join(PYDIR, "rfc3987_adapter.py"), "python"),
    ("rfc3986 (PyPI)", "Python", "RFC 3986 URI references, and IRI references (rfc3986 2.0.0)", PY + " " + os.path.join(PYDIR, "rfc3986_adapter.py"), "python"),
    ("rfc3986-validator (PyPI)", "Python", "RFC 3986 Appendix A as one regular expression (rfc3986-validator 0.1.1)", PY + " " + os.path.join(PYDIR, "rfc3986_validator_adapter.py"), "python"),
    ("urllib.parse", "Python", "Python's standard library (urlsplit, urljoin)", PY + " " + os.path.join(PYDIR, "urllib_adapter.py"), "python"),
    ("java.net.URI", "Java", "RFC 2396 with RFC 2732's IPv6 literals", "java " + os.path.join(ROOT, "conformance", "adapters", "java", "UriAdapter.java"), "java"),
    ("Node URL", "JavaScript", "the WHATWG URL Standard (Node.js's URL)", "node " + os.path.join(ROOT, "conformance", "adapters", "node", "url-adapter.mjs"), "node"),
]

OPS = ["valid", "components", "resolve", "normalize", "to-uri", "to-iri", "compare", "check"]
PROFILES = ["rfc3987bis", "rfc3987", "rfc3986", "leiri"]

# What the numbers alone do not say: read before the tables. Written by hand
# from the results; the script keeps them with the implementation.
NOTES = {
    "iribis": "The reference the suite is generated from: it passes every case by construction, and the CI checks that it does.",
    "oxiri": "Checks whole references only (no rule-level API, no authority split, no normalization or conversion). It follows RFC 3987, so the 3987bis `iprivate` tag range (U+E0000–E0FFF in a query) is the one grammar difference; it refuses to resolve where the result would need a path starting with `//` and no authority. There the suite accepts two answers, the `/.` form and RFC 3986 §5.2.4 and §5.3 as printed (`foo://g`), but no refusal: the RFC's algorithm always gives a result.",
    "iri-string": "Close to the grammar in both profiles. Its resolution decodes `%2e` as a dot segment before removing dot segments, which RFC 3986 §5.2.4 does not (decoding is normalization's business); its normalization decodes a percent-encoded bidi formatting character (U+202E), which RFC 3987 §4.1 forbids in an IRI.",
    "fluent-uri": "Close to the grammar. Its resolver refuses a base with a rootless path and no authority (`foo:`, `urn:x`), where RFC 3986 §5.2 resolves; like iri-string it treats `%2e` as a dot in resolution; its normalization leaves the dot segments of a rootless path (`foo:a/../b`) and goes further than syntax-based normalization elsewhere (default ports, IPv6 canonical form).",
    "url": "Implements the WHATWG URL Standard, which is a different specification: it parses absolute URLs only, accepts and repairs what RFC 3986 rejects (spaces, backslashes, bad percent-encodings), rejects some RFC-valid URIs, and serializes everything it parses in its own normal form. The scores say how far the two standards are apart, not whether url is right.",
    "rfc3987 (PyPI)": "The only peer with a rule-level API: every ABNF rule is a regular expression, so most `valid` cases run. Its deviations sit in single rules: IPvFuture's \"v\" only in lowercase (ABNF strings are case-insensitive), `dec-octet` with a leading zero, a trailing line feed accepted (Python's `$`), and a resolver that rewrites a base path starting with `/.//`.",
    "rfc3986 (PyPI)": "Validation through its validators module; resolution, normalization and `encode()` for IRIs. Its validators check each component loosely (controls, noncharacters and a lone `%` pass; some `ucschar` ranges are refused), its IRI components come back percent-encoded, and its resolver writes `foo:/` for `.` against `foo:`.",
    "rfc3986-validator (PyPI)": "Validation only, of two rules (`URI` and `URI-reference`). It rejects IPvFuture literals with an uppercase `V` and lets leading zeros into an IPv4 address inside an IPv6 literal.",
    "urllib.parse": "Splits without validating: every string gets components, an empty host, query or fragment cannot be told from an absent one, and its `hostname` (the host the adapter reports) drops an IP literal's brackets and lowercases. `urljoin` does not resolve against a base without an authority (`foo:`).",
    "java.net.URI": "Implements RFC 2396, the predecessor of RFC 3986: differences in what a scheme, a port, a userinfo and IPvFuture may hold are the older grammar's, and opaque URIs (`mailto:x`) have no path in its model.",
    "Node URL": "The WHATWG URL Standard, as for the url crate: the two agree on most cases. Like the url adapter, its adapter answers `unsupported` for a reference without a scheme (URL needs a base to take one) and an error for an input with a scheme that URL rejects, so its refusals count as failures where the suite expects components or a result.",
}


def run(cmd, **kw):
    return subprocess.run(cmd, shell=isinstance(cmd, str), **kw)


def iri_binary():
    for p in ("release", "debug"):
        b = os.path.join(ROOT, "target", p, "iri")
        if os.path.exists(b):
            return b
    run(["cargo", "build", "--quiet"], cwd=ROOT, check=True)
    return os.path.join(ROOT, "target", "debug", "iri")


def prepare(needs):
    """Builds or installs what the adapters need; gives the ones that can run."""
    ok = {"iri"}
    if "rust" in needs and shutil.which("cargo"):
        r = run(["cargo", "build", "--release", "--quiet", "--manifest-path", os.path.join(PEERS, "Cargo.toml")])
        if r.returncode == 0:
            ok.add("rust")
    if "python" in needs:
        if not os.path.exists(PY):
            run([sys.executable, "-m", "venv", VENV], check=True)
        r = run([PY, "-m", "pip", "install", "--quiet", "-r", os.path.join(PYDIR, "requirements.txt")])
        if r.returncode == 0:
            ok.add("python")
    if "java" in needs and shutil.which("java"):
        ok.add("java")
    if "node" in needs and shutil.which("node"):
        ok.add("node")
    return ok


def slug(name):
    return "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-")


def score(selected):
    iri = iri_binary()
    os.makedirs(RESULTS, exist_ok=True)
    ready = prepare({i[4] for i in selected})
    for name, _, _, cmd, need in selected:
        if need not in ready:
            print("skipped %s: %s is not available" % (name, need), file=sys.stderr)
            continue
        print("running %s" % name, file=sys.stderr)
        out = os.path.join(RESULTS, slug(name) + ".json")
        with open(out, "w") as f:
            r = run([iri, "suite", "run", "--suite", os.path.join(ROOT, "conformance"),
                     "--adapter", cmd.format(iri=iri), "--name", name, "--json", "--timeout", "30", "--shrink"], stdout=f)
        if r.returncode not in (0, 1):
            print("  %s: the run failed (exit %d)" % (name, r.returncode), file=sys.stderr)


def esc(s, limit=70):
    """A string for a Markdown table cell: JSON-quoted (controls and
    invisible characters escaped), cut, pipes escaped."""
    if s is None:
        return "absent"
    q = json.dumps(s, ensure_ascii=False)
    q = "".join(c if c.isprintable() else "\\u{%X}" % ord(c) for c in q)
    if len(q) > limit:
        q = q[: limit - 1] + "…\""
    return "`" + q.replace("|", "\\|").replace("`", "'") + "`"


def direction(f):
    op = f["op"]
    if op == "valid":
        return "accepts invalid" if not f["expect"]["valid"] else "rejects valid"
    if op == "components":
        keys = sorted({part.split(" ")[0] for part in f["why"].split(", ") if " instead of " in part})
        return ("wrong " + "/".join(keys)) if keys else "refuses"
    got = f.get("got") or {}
    if "error" in f["expect"]:
        return "answers where an error is due"
    if "error" in got:
        return "refuses"
    return "different result"


def fuzz_direction(f):
    if f["op"] == "valid":
        return "rejects valid" if f["expect"]["valid"] else "accepts invalid"
    return "other components"


def deviations(report, top=8):
    groups = collections.OrderedDict()
    for f in report["failures"]:
        rule = f.get("exercises") or f.get("rule") or f["op"]
        key = (f["op"], rule, direction(f))
        g = groups.setdefault(key, [])
        g.append(f)
    rows = []
    for (op, rule, d), fs in groups.items():
        best = min(fs, key=lambda f: (len(f["input"]) + len(f.get("base") or ""), f["id"]))
        # The runner's --shrink: the group's shortest case shrunk against
        # the implementation, and the rule the minimal input breaks.
        m = report.get("by_rule", {}).get(rule, {}).get("minimal")
        if m and m["op"] == op and direction(dict(m, why=best["why"], got=best.get("got"))) == d:
            best = dict(best, input=m["input"], expect=m["expect"], shrunk=True)
            rule = m.get("breaks", rule)
        rows.append((len(fs), op, rule, d, best))
    # Groups whose minimal inputs break the same rule the same way are one.
    merged = collections.OrderedDict()
    for count, op, rule, d, best in rows:
        key = (op, rule, d)
        if key in merged:
            c, b = merged[key]
            size = lambda f: (len(f["input"]) + len(f.get("base") or ""), f["id"])
            merged[key] = (c + count, min(b, best, key=size))
        else:
            merged[key] = (count, best)
    rows = [(c, op, rule, d, b) for (op, rule, d), (c, b) in merged.items()]
    rows.sort(key=lambda r: (-r[0], r[1], r[2]))
    return rows[:top], len(rows)


def expected_text(f):
    e = f["expect"]
    if "valid" in e:
        return "valid" if e["valid"] else "invalid at char %d" % e.get("at", {}).get("char", -1)
    if "result" in e:
        return esc(e["result"], 50)
    if "error" in e:
        return "an error"
    return "components"


def got_text(f):
    g = f.get("got")
    if g is None:
        return f["why"][:60]
    if "valid" in g:
        return "valid" if g["valid"] else "invalid"
    if "result" in g:
        return esc(g["result"], 50)
    if "error" in g:
        if f.get("shrunk"):
            return "an error"
        return "error: " + esc(str(g["error"])[:40], 50)
    if "components" in g:
        if f.get("shrunk"):
            return "other components"
        return f["why"][:80].replace("|", "\\|")
    return f["why"][:60]


def rate(t):
    run_ = t["passed"] + t["failed"]
    if run_ == 0:
        return "—"
    return "%.1f%% (%d/%d)" % (100.0 * t["passed"] / run_, t["passed"], run_)


def render():
    reports = []
    for name, lang, what, _, _ in IMPLEMENTATIONS:
        path = os.path.join(RESULTS, slug(name) + ".json")
        if os.path.exists(path):
            with open(path) as f:
                try:
                    reports.append((name, lang, what, json.load(f)))
                except ValueError:
                    pass
    with open(os.path.join(ROOT, "conformance", "index.json")) as f:
        index = json.load(f)
    out = []
    w = out.append
    w("<!-- Written by conformance/scoreboard.py from the runner's reports: edit the script, not this page. -->")
    w("# Conformance: how IRI and URI implementations read the specs")
    w("")
    w("The [conformance suite](../conformance/README.md) (version %s, %d cases) run against %d implementations in %d languages, each through an adapter in [conformance/adapters/](../conformance/adapters/). "
      "This is a map of where each implementation reads the specs differently, with the smallest case that shows it, not a ranking: "
      "several of them implement another specification on purpose (the WHATWG URL Standard, RFC 2396), and the suite measures the distance to draft-ietf-iri-3987bis-13, RFC 3987 and RFC 3986." %
      (index["version"], index["cases"], len(reports), len({r[1] for r in reports})))
    w("")
    w("Regenerate with `python3 conformance/scoreboard.py` (not part of CI: it builds and installs the other projects). "
      "A pass rate counts the cases an adapter answered; the cases it says it does not support (an operation, rule or profile the implementation does not offer) are left out and counted in the last column. "
      "The IRI implementations are run against both `rfc3987` and `rfc3987bis` (the grammars differ only in the tag characters U+E0000–E0FFF, which 3987bis allows in a query).")
    w("")
    w("## Summary")
    w("")
    w("| implementation | language | implements | cases answered | passed | unsupported |")
    w("|---|---|---|---:|---:|---:|")
    for name, lang, what, r in reports:
        answered = r["passed"] + r["failed"]
        w("| [%s](#%s) | %s | %s | %d | %s | %d |" % (name, slug(name), lang, what, answered, rate(r) if answered else "—", r["unsupported"]))
    w("")
    for name, lang, what, r in reports:
        w("## %s" % name)
        w("")
        w("%s, %s. %s" % (lang, what, NOTES.get(name, "")))
        w("")
        w("| op | " + " | ".join(PROFILES) + " |")
        w("|---|" + "---|" * len(PROFILES))
        both = r.get("by_op_and_profile", {})
        for op in OPS:
            cells = []
            for p in PROFILES:
                t = both.get(op, {}).get(p)
                cells.append(rate(t) if t else "—")
            if all(c == "—" for c in cells):
                continue
            w("| %s | %s |" % (op, " | ".join(cells)))
        w("")
        rows, n = deviations(r)
        if not rows:
            w("No deviation: every case it answered passed.")
            w("")
            continue
        w("Main deviations (%d kinds in all; the shortest failing case of each, shrunk against the implementation by delta debugging where marked ✂, with the rule that minimal input breaks):" % n)
        w("")
        w("| cases | op | rule | deviation | shortest case | expected | got |")
        w("|---:|---|---|---|---|---|---|")
        for count, op, rule, d, f in rows:
            case = ("✂ " if f.get("shrunk") else "") + esc(f["input"], 46)
            if f.get("base") is not None:
                case += " against " + esc(f["base"], 30)
            case += " (%s)" % f["profile"]
            w("| %d | %s | %s | %s | %s | %s | %s |" % (count, op, rule, d, case, expected_text(f), got_text(f)))
        w("")
    fuzz = []
    for name, _, _, _, _ in IMPLEMENTATIONS:
        path = os.path.join(RESULTS, "fuzz-" + slug(name) + ".json")
        if os.path.exists(path):
            with open(path) as f:
                try:
                    fuzz.append((name, json.load(f)))
                except ValueError:
                    pass
    # A finding is new when the static suite has no failing case of its
    # operation, profile, rule and direction for that implementation (said
    # again here from the static report, which may be newer than the run).
    static = {name: r for name, _, _, r in reports}
    for name, fz in fuzz:
        failing = set()
        for f in static.get(name, {}).get("failures", []):
            failing.add((f["op"], f["profile"], f.get("exercises") or f.get("rule"), fuzz_direction(f)))
        for f in fz["findings"]:
            if name in static:
                f["new"] = (f["op"], f["profile"], f.get("exercises") or f.get("rule"), fuzz_direction(f)) not in failing
    if fuzz:
        w("## Differential fuzzing")
        w("")
        w("Ten minutes against each Rust peer (`nice`d, one at a time, on a shared two-core machine; `--profile rfc3987 --profile rfc3987bis`, and `rfc3986` where the crate has URIs; url with `--rule IRI`, the only rule it parses). "
          "For oxiri, iri-string and fluent-uri every disagreement was the 3987bis tag range (U+E0000–E0FFF in a query), which the static suite's range-end cases hold, in `valid` cases and in `components` cases for every range end in context. "
          "For url, the 64 minimal findings (schemes with controls or in uppercase, an empty host after a userinfo, IPvFuture literals, `/.` paths, a lone `%`) are cases of the suite (`generator` `fuzz`, crates/suite/src/findings.jsonl); the table below counts them against the suite that holds them.")
        w("")
        w("`iri suite fuzz --adapter CMD --seconds N` draws references from the grammar's automata and near misses of them, asks the implementation and the spec, and shrinks each disagreement by delta debugging to a minimal input attributed to a rule. "
          "It first runs the static suite's cases of the same operations and profiles: a finding is *new* when no static case of its rule and direction fails for that implementation.")
        w("")
        w("| implementation | seconds | inputs asked | disagreements | findings kept | new to the suite |")
        w("|---|---:|---:|---:|---:|---:|")
        for name, fz in fuzz:
            new = [f for f in fz["findings"] if f.get("new")]
            w("| %s | %s | %d | %d | %d | %d |" % (name, fz["seconds"], fz["tried"], fz["disagreements"], len(fz["findings"]), len(new)))
        w("")
        for name, fz in fuzz:
            new = [f for f in fz["findings"] if f.get("new")]
            if not new:
                continue
            w("New findings for %s:" % name)
            w("")
            w("| op | profile | rule | minimal input | expected | why |")
            w("|---|---|---|---|---|---|")
            for f in new:
                w("| %s | %s | %s | %s | %s | %s |" % (f["op"], f["profile"], f.get("exercises") or f.get("rule"), esc(f["input"], 46), expected_text(f), f["why"][:70].replace("|", "\\|")))
            w("")
    path = os.path.join(ROOT, "docs", "conformance.md")
    with open(path, "w") as f:
        f.write("\n".join(out).rstrip() + "\n")
    print("wrote %s" % path, file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--render", action="store_true", help="only rewrite docs/conformance.md from the last results")
    ap.add_argument("--only", action="append", default=[], help="run only this implementation (repeatable)")
    args = ap.parse_args()
    if not args.render:
        selected = [i for i in IMPLEMENTATIONS if not args.only or i[0] in args.only]
        score(selected)
    render()


if __name__ == "__main__":
    main()
