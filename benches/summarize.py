#!/usr/bin/env python3
"""Summarize `cargo bench -p iribis-benches --bench parse` into the table of docs/performance.md.

Reads criterion's estimates under target/criterion/ and prints, per corpus,
ns per reference, MB/s and the ratio of iribis to each library (a ratio
below 1 means iribis is faster). Usage:

    cargo bench -p iribis-benches --bench parse && python3 benches/summarize.py [--target DIR]
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TARGET = os.path.join(HERE, "..", "target")
if "--target" in sys.argv:
    TARGET = sys.argv[sys.argv.index("--target") + 1]
CRIT = os.path.join(TARGET, "criterion")

CORPORA = [
    ("kasztp-urls", "kasztp-urls.txt"),
    ("kasztp-urls-valid", "kasztp-urls-valid"),
    ("mixed-iris-20k", "mixed-iris-20k.txt"),
    ("one-char", None),
]
ORDER = ["iribis", "iribis-pest", "oxiri", "iri-string", "fluent-uri", "url"]


def mean_ns(group, lib):
    path = os.path.join(CRIT, group, lib, "new", "estimates.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)["mean"]["point_estimate"]


def valid_subset():
    """Line count and bytes of the valid kasztp lines, from the bench's
    own record of its throughput."""
    path = os.path.join(CRIT, "kasztp-urls-valid", "iribis", "new", "benchmark.json")
    with open(path) as f:
        b = json.load(f)
    return VALID_LINES, b["throughput"]["Bytes"]


# IriRef::parse accepts 47,669 of the 48,010 lines of kasztp-urls.txt
# (tests/fast_path.rs checks that the DFA and pest agree on every one).
VALID_LINES = 47669


def main():
    for group, file in CORPORA:
        if file == "kasztp-urls-valid":
            # The lines iribis accepts (the bench computes the same subset).
            n, size = valid_subset()
        elif file:
            with open(os.path.join(HERE, "data", file), "rb") as f:
                data = f.read()
            # As Rust's str::lines: split at "\n", drop a final "\r".
            lines = data.decode("utf-8").split("\n")
            if lines and lines[-1] == "":
                lines.pop()
            lines = [l[:-1] if l.endswith("\r") else l for l in lines]
            n, size = len(lines), sum(len(l.encode("utf-8")) for l in lines)
        else:
            n, size = 1, 1
        times = {lib: mean_ns(group, lib) for lib in ORDER}
        times = {k: v for k, v in times.items() if v is not None}
        if not times:
            continue
        base = times.get("iribis")
        title = f"{group} ({n} references, {size} bytes)" if file else f'{group} (the reference "a")'
        print(f"### {title}\n")
        print("| library | ns/reference | MB/s | iribis ÷ library |")
        print("|---|---:|---:|---:|")
        for lib, t in times.items():
            per = t / n
            mbs = size / (t / 1e9) / 1e6 if file else float("nan")
            ratio = base / t if base else float("nan")
            mbs_s = f"{mbs:.0f}" if file else "-"
            print(f"| {lib} | {per:.1f} | {mbs_s} | {ratio:.2f} |")
        print()


def ops():
    """The groups of benches/ops.rs: criterion's throughput there is the
    number of references, so the table gives ns per reference only."""
    for group in [
        "resolve-mixed",
        "normalize-mixed",
        "to-uri-mixed",
        "to-iri-mixed",
    ]:
        times = {}
        n = None
        for lib in ORDER:
            t = mean_ns(group, lib)
            if t is None:
                continue
            times[lib] = t
            with open(os.path.join(CRIT, group, lib, "new", "benchmark.json")) as f:
                n = json.load(f)["throughput"]["Elements"]
        if not times:
            continue
        base = times.get("iribis")
        print(f"### {group} ({n} references)\n")
        print("| library | ns/reference | iribis ÷ library |")
        print("|---|---:|---:|")
        for lib, t in times.items():
            ratio = base / t if base else float("nan")
            print(f"| {lib} | {t / n:.1f} | {ratio:.2f} |")
        print()


main()
ops()
