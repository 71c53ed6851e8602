#!/usr/bin/env python3
"""Throughput and peak memory of the `iri` command on a million lines.

Builds `iri` in release mode, writes N lines (the two corpora of
benches/data/ repeated, in order) to a temporary file, and times

    floor < FILE                     (benches/floor.rs: each line written back
                                      as a JSON string, nothing parsed)
    iri check --json --file FILE     (the checker, on every core it may use)
    iri check --json < FILE          (the same, standard input)
    iri to-uri --json < FILE
    iri parse --json < FILE

with output to /dev/null, each run three times (the best is kept), at N
and at N/4 (with `--cores 1`, each pinned to one core with taskset); the
last column is the time over the floor's. The peak memory (maximum resident set size) should not grow
with N, as `iri` streams its input in batches. Prints a Markdown table.

With --rounds R, instead: R rounds of the floor, `iri parse --json` and
`iri check --json` (standard input), one after the other in each round,
each pinned to one core, on the same N lines; each round's times and
ratios to that round's floor, then the highest ratio of each command
(the goals: parse within 3x, check within 4x, on every round).

Usage: python3 benches/lines.py [N] [--cores 1] [--rounds R]   (default 1,000,000)
"""
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def corpus_lines():
    out = []
    for name in ["kasztp-urls.txt", "mixed-iris-20k.txt"]:
        with open(os.path.join(HERE, "data", name), "rb") as f:
            out.extend(f.read().split(b"\n"))
    return [l for l in out if l]


def write_lines(path, n):
    lines = corpus_lines()
    with open(path, "wb") as f:
        for i in range(n):
            f.write(lines[i % len(lines)])
            f.write(b"\n")


def hwm_kib(pid):
    """The process's peak resident set size so far (VmHWM), in KiB."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def run(argv, stdin_path, program):
    """Wall time and peak RSS (MiB) of one run. The peak is VmHWM from
    /proc, read every 5 ms until the process exits: the rusage of
    wait4 would also count this script's memory, shared with the child
    between fork and exec."""
    with open(stdin_path or os.devnull, "rb") as stdin:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.DEVNULL)
        peak = 0
        while proc.poll() is None:
            # Before the exec the counter is this script's: skip those reads.
            try:
                exe = os.readlink(f"/proc/{proc.pid}/exe")
            except OSError:  # it has just exited
                exe = None
            if exe == os.path.realpath(program):
                peak = max(peak, hwm_kib(proc.pid))
            time.sleep(0.005)
        elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1):  # 1: some line is invalid, as expected
        sys.exit(f"{' '.join(argv)} exited with {proc.returncode}")
    return elapsed, peak / 1024


def rounds(n, r, iri, floor):
    """R alternating rounds of the floor, parse --json and check --json on one core."""
    pin = ["taskset", "-c", str(min(os.sched_getaffinity(0)))]
    print(f"{r} rounds on {n:,} lines, one core each: seconds, and the ratio to the round's floor.\n")
    print("| round | floor | parse --json | check --json | parse × floor | check × floor |")
    print("|---:|---:|---:|---:|---:|---:|")
    worst = [0.0, 0.0]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, f"{n}.txt")
        write_lines(path, n)
        for k in range(r):
            base = run(pin + [floor], path, floor)[0]
            parse = run(pin + [iri, "parse", "--json"], path, iri)[0]
            check = run(pin + [iri, "check", "--json"], path, iri)[0]
            ratios = [parse / base, check / base]
            worst = [max(w, x) for w, x in zip(worst, ratios)]
            print(f"| {k + 1} | {base:.3f} | {parse:.3f} | {check:.3f} | {ratios[0]:.2f} | {ratios[1]:.2f} |")
    print(f"\nHighest ratios: parse {worst[0]:.2f}x (goal 3), check {worst[1]:.2f}x (goal 4).")


def main():
    if "--help" in sys.argv or "-h" in sys.argv:
        print(__doc__.strip())
        return
    r = None
    if "--rounds" in sys.argv:
        at = sys.argv.index("--rounds")
        r = int(sys.argv[at + 1])
        del sys.argv[at : at + 2]
    args = [a for a in sys.argv[1:] if a != "--cores" and a != "1"]
    one_core = "--cores" in sys.argv
    n = int(args[0]) if args else 1_000_000
    subprocess.run(
        ["cargo", "build", "--release", "--quiet", "-p", "iribis-cli", "--bin", "iri"], cwd=ROOT, check=True
    )
    iri = os.path.join(ROOT, "target", "release", "iri")
    floor = os.path.join(ROOT, "target", "floor")
    subprocess.run(
        ["rustc", "-O", "--edition", "2021", os.path.join(HERE, "floor.rs"), "-o", floor],
        check=True,
    )
    if r is not None:
        rounds(n, r, iri, floor)
        return
    pin = ["taskset", "-c", str(min(os.sched_getaffinity(0)))] if one_core else []
    print(f"`iri` on {n:,} lines (and on {n // 4:,}, for the memory), best time and highest peak of 3 runs; "
          f"{len(os.sched_getaffinity(0))} of the machine's {os.cpu_count()} cores.\n")
    print("| command | lines | seconds | lines/s | peak RSS (MiB) | × floor |")
    print("|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for count in [n, n // 4]:
            path = os.path.join(tmp, f"{count}.txt")
            write_lines(path, count)
            commands = [
                ("floor", [floor], path),
                ("check --json --file", [iri, "check", "--json", "--file", path], None),
                ("check --json (stdin)", [iri, "check", "--json"], path),
                ("to-uri --json", [iri, "to-uri", "--json"], path),
                ("parse --json", [iri, "parse", "--json"], path),
            ]
            base = None
            for label, argv, stdin in commands:
                runs = [run(pin + argv, stdin, argv[0]) for _ in range(3)]
                secs = min(t for t, _ in runs)
                rss = max(m for _, m in runs)
                base = base or secs
                name = label if label == "floor" else f"iri {label}"
                print(f"| `{name}` | {count:,} | {secs:.2f} | {count / secs:,.0f} | {rss:.1f} | {secs / base:.1f} |")


main()
