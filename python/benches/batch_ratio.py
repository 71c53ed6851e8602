"""A list batch's time against a loop of single calls, in alternating rounds.

    python python/benches/batch_ratio.py [--rounds N] CORPUS ...

The goal is that ``iribis.is_valid_many(list)`` take at most half the
time of ``[iribis.is_valid(s) for s in list]``. ``speed.py`` times each case
in its own series of runs, so a moment of load on the shared machine lands
on one case and not the other; here every round times the loop, the list
batch and the batch over a pyarrow array one after the other, each over
fresh ``str`` objects (CPython keeps the UTF-8 of a non-ASCII ``str`` once
asked, so reused strings would time a second call), and the best of the
rounds is kept for each. A batch runs on every core: the ratio holds when
the machine's other cores are free. When the ``rfc3987`` package is
installed, each round also times a loop of ``rfc3987.match`` (its stdlib
``re`` backend, as ``speed.py`` loads it), for the per-call ratio.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import iribis
import pyarrow as pa

from speed import load_rfc3987


def fresh(text: str) -> list[str]:
    """New ``str`` objects for the corpus's lines."""
    return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")


def timed(run) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="+", type=Path)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    is_valid, many = iribis.is_valid, iribis.is_valid_many
    try:
        match = load_rfc3987(False).match
    except (AttributeError, ImportError):  # find_spec gives None: not installed
        match = None
    for path in args.corpus:
        text = path.read_text(encoding="utf-8")
        n = len(fresh(text))
        array = pa.array(fresh(text), pa.string())
        loop, batch, arrow, baseline = [], [], [], []
        for _ in range(args.rounds):
            items = fresh(text)
            loop.append(timed(lambda: [is_valid(s) for s in items]))
            items = fresh(text)
            batch.append(timed(lambda: many(items)))
            arrow.append(timed(lambda: many(array)))
            if match:
                items = fresh(text)
                baseline.append(timed(lambda: [match(s) for s in items]))
        per = [min(times) / n * 1e9 for times in (loop, batch, arrow)]
        print(
            f"{path.name}: {n:,} references, best of {args.rounds} rounds: loop {per[0]:.0f} ns, "
            f"list batch {per[1]:.0f} ns ({per[1] / per[0]:.2f} of the loop), "
            f"pyarrow batch {per[2]:.0f} ns ({per[2] / per[0]:.2f})"
        )
        if baseline:
            slow = min(baseline) / n * 1e9
            print(f"  rfc3987.match (re) {slow:,.0f} ns: {slow / per[0]:.1f} x a call of is_valid")


if __name__ == "__main__":
    main()
