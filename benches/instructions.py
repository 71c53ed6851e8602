#!/usr/bin/env python3
"""Instructions per reference of each library's parse, counted by callgrind.

Times on this shared machine move by 10 to 25 % between runs; instruction
counts do not move at all for the same binary and input. This script builds
`benches/parse.rs` (the `bench` profile: release with debug info), runs it
under `valgrind --tool=callgrind` with `PARSE_ONCE=LIBRARY:FILE:PASSES` (see
the bench's header) once with one pass over the corpus and once with two,
and prints the difference divided by the number of lines: the instructions
of one warm parse of a line, the table building, the reading of the corpus
and the process's start left out. The ratios are iribis's count over each
library's.

Instructions are not time: a DFA walk is bound by the latency of its
dependent loads, a branchy parser by its mispredictions. Use the counts to
decide between two versions of the same code, and criterion's run of
`benches/parse.rs` for the ratios of time.

Usage: python3 benches/instructions.py [--libs iribis,oxiri,...] [--corpora kasztp-urls.txt,...]
(default: iribis, oxiri, iri-string, fluent-uri and url on the URL corpus;
the pest path is left out: under valgrind it takes many minutes).
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LIBS = ["iribis", "oxiri", "iri-string", "fluent-uri", "url"]
CORPORA = ["kasztp-urls.txt", "mixed-iris-20k.txt"]


def option(name, default):
    if name in sys.argv:
        return sys.argv[sys.argv.index(name) + 1].split(",")
    return default


def bench_binary():
    """Builds the parse bench and returns the path of its executable."""
    out = subprocess.run(
        ["cargo", "bench", "-p", "iribis-benches", "--bench", "parse", "--no-run", "--message-format=json"],
        cwd=ROOT,
        check=True,
        stdout=subprocess.PIPE,
    ).stdout
    for line in out.decode().splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if msg.get("reason") == "compiler-artifact" and msg["target"]["name"] == "parse":
            if msg.get("executable"):
                return msg["executable"]
    sys.exit("cargo built no executable for the parse bench")


def instructions(exe, lib, corpus, passes):
    """The total instruction count of one run (callgrind's `totals:`)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        env = dict(os.environ, PARSE_ONCE=f"{lib}:{corpus}:{passes}")
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", exe],
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        with open(out) as f:
            for line in f:
                if line.startswith("totals:") or line.startswith("summary:"):
                    return int(line.split()[1])
    sys.exit(f"no totals in callgrind's output for {lib} on {corpus}")


def main():
    libs = option("--libs", LIBS)
    corpora = option("--corpora", CORPORA)
    exe = bench_binary()
    for corpus in corpora:
        with open(os.path.join(HERE, "data", corpus), "rb") as f:
            lines = len(f.read().decode().splitlines())
        counts = {}
        for lib in libs:
            if lib == "url" and not corpus.startswith("kasztp"):
                continue  # url parses URLs, not references
            one = instructions(exe, lib, corpus, 1)
            two = instructions(exe, lib, corpus, 2)
            counts[lib] = (two - one) / lines
        print(f"\n#### {corpus} ({lines} lines): instructions per reference\n")
        print("| library | instructions | iribis ÷ library |")
        print("|---|---:|---:|")
        base = counts.get("iribis")
        for lib, n in counts.items():
            ratio = f"{base / n:.2f}" if base else "-"
            print(f"| {lib} | {n:.1f} | {ratio} |")


if __name__ == "__main__":
    main()
