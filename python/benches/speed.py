"""The speed ratios of issue 19, measured in one run.

    python benches/speed.py [CORPUS]

CORPUS is a file of IRI references, one per line (default: the repository's
benches/data/mixed-iris-20k.txt). Needs ``pip install rfc3987 regex pyarrow``
(rfc3987 is GPL-3.0: installed for comparison only).

Prints, per reference, the time of ``rfc3987.match`` with each of its two
backends (it uses the ``regex`` module when it can import it, else ``re``:
both are loaded here, one after the other), ``iribis.is_valid`` (one call per
reference), ``iribis.is_valid_many`` over a list and over a pyarrow array, and
``iribis.check``/``check_many``; the ratio of each rfc3987.match's time to
each; and the import times of ``iribis`` and ``rfc3987`` in a fresh
interpreter. Each time is the best of several runs, on one thread.
"""

from __future__ import annotations

import importlib.util
import statistics
import subprocess
import sys
import timeit
from pathlib import Path

import pyarrow as pa

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


def load_rfc3987(with_regex: bool):
    """A fresh copy of the rfc3987 module, with or without the regex module."""
    spec = importlib.util.find_spec("rfc3987")
    module = importlib.util.module_from_spec(spec)
    if with_regex:
        spec.loader.exec_module(module)
    else:
        saved = sys.modules.get("regex", False)
        sys.modules["regex"] = None  # makes `import regex` fail
        try:
            spec.loader.exec_module(module)
        finally:
            if saved is False:
                del sys.modules["regex"]
            else:
                sys.modules["regex"] = saved
    assert module.REGEX == with_regex, "install the regex module: pip install regex"
    return module


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    items = path.read_text(encoding="utf-8").split("\n")[:-1]
    n = len(items)
    array = pa.array(items, pa.string())
    with_re, with_regex = load_rfc3987(False), load_rfc3987(True)
    # Same verdicts first: a ratio of different answers would mean nothing.
    # (This also compiles their regular expressions before the timing.)
    agree = [sum(bool(m.match(s)) == iribis.is_valid(s) for s in items) for m in (with_re, with_regex)]

    rows = {
        "rfc3987.match (regex)": best(lambda: [with_regex.match(s) for s in items], 3) / n,
        "rfc3987.match (re)": best(lambda: [with_re.match(s) for s in items], 3) / n,
        "iribis.is_valid": best(lambda: [iribis.is_valid(s) for s in items], 5) / n,
        "iribis.is_valid_many(list)": best(lambda: iribis.is_valid_many(items), 7) / n,
        "iribis.is_valid_many(pyarrow)": best(lambda: iribis.is_valid_many(array), 7) / n,
        "iribis.check": best(lambda: [iribis.check(s) for s in items], 3) / n,
        "iribis.check_many(pyarrow)": best(lambda: iribis.check_many(array), 3) / n,
    }
    regex_t, re_t = rows["rfc3987.match (regex)"], rows["rfc3987.match (re)"]
    print(f"{path.name}: {n:,} references; verdicts agree with rfc3987 on {agree[0]:,} (re), {agree[1]:,} (regex)")
    print(f"| {'':30} | per reference | rfc3987 (regex) ÷ | rfc3987 (re) ÷ |")
    print(f"|{'-' * 32}|--------------:|------------------:|---------------:|")
    for name, t in rows.items():
        print(f"| {name:30} | {t * 1e9:>10,.0f} ns | {regex_t / t:>16,.1f}× | {re_t / t:>13,.1f}× |")
    ours, theirs = import_time("iribis"), import_time("rfc3987")
    print(f"import iribis: {ours * 1e3:.1f} ms; import rfc3987: {theirs * 1e3:.1f} ms (median of 7)")


if __name__ == "__main__":
    main()
