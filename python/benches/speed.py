"""The speed ratios of issue 19, measured in one run.

    python benches/speed.py [CORPUS]

CORPUS is a file of IRI references, one per line (default: the repository's
benches/data/mixed-iris-20k.txt). Prints, per reference, the time of
``rfc3987.match`` (the GPL package, installed for comparison only),
``iribis.is_valid`` (one call per reference), ``iribis.is_valid_many`` over a
list and over a pyarrow array, and ``iribis.check``/``check_many``; the ratios
of rfc3987.match's time to each; and the import time of ``iribis`` and of
``rfc3987`` in a fresh interpreter. Each time is the best of several runs.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import timeit
from pathlib import Path

import pyarrow as pa
import rfc3987

import iribis

DEFAULT = Path(__file__).parents[2] / "benches" / "data" / "mixed-iris-20k.txt"


def best(fn, repeat: int, number: int = 1) -> float:
    """The best time of `fn`, in seconds per call."""
    return min(timeit.repeat(fn, repeat=repeat, number=number)) / number


def import_time(module: str, runs: int = 7) -> float:
    """The median time of `import module` in a fresh interpreter, in seconds."""
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    times = [
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
        for _ in range(runs)
    ]
    return statistics.median(times)


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    items = path.read_text(encoding="utf-8").split("\n")[:-1]
    n = len(items)
    array = pa.array(items, pa.string())
    # Same verdicts first: a ratio of different answers would mean nothing.
    agree = sum(bool(rfc3987.match(s)) == iribis.is_valid(s) for s in items)
    rfc3987.match(items[0])  # compile its regular expression before timing

    rows = {
        "rfc3987.match": best(lambda: [rfc3987.match(s) for s in items], 3) / n,
        "iribis.is_valid": best(lambda: [iribis.is_valid(s) for s in items], 5) / n,
        "iribis.is_valid_many(list)": best(lambda: iribis.is_valid_many(items), 7) / n,
        "iribis.is_valid_many(pyarrow)": best(lambda: iribis.is_valid_many(array), 7) / n,
        "iribis.check": best(lambda: [iribis.check(s) for s in items], 3) / n,
        "iribis.check_many(pyarrow)": best(lambda: iribis.check_many(array), 3) / n,
    }
    base = rows["rfc3987.match"]
    print(f"{path.name}: {n:,} references, verdicts agree on {agree:,}")
    print(f"{'':32} {'per reference':>14} {'rfc3987.match ÷':>16}")
    for name, t in rows.items():
        print(f"{name:32} {t * 1e9:>11,.0f} ns {base / t:>15,.1f}×")
    ours, theirs = import_time("iribis"), import_time("rfc3987")
    print(f"import iribis: {ours * 1e3:.1f} ms; import rfc3987: {theirs * 1e3:.1f} ms (median of 7)")


if __name__ == "__main__":
    main()
