"""The Python package's speed beside the ``rfc3987`` package, in one run.

    python python/benches/speed.py [--callgrind] [--regex] [CORPUS ...]

Each CORPUS is a file of IRI references, one per line (default: the two
1,000-line samples of python/tests/data and the two corpora of
benches/data, 20,000 mixed IRI references and 48,009 real URLs). Needs
``pip install rfc3987 pyarrow`` (and ``regex`` for ``--regex``; rfc3987 is
GPL-3.0: installed for comparison only).

Wall clock (the default): per reference, the best of several runs, of
``rfc3987.match`` as ``pip install rfc3987`` gives it (the stdlib ``re``
backend; with ``--regex`` also its ``regex`` backend), a loop of
``iribis.is_valid`` calls, ``iribis.is_valid_many`` over a list and over a
pyarrow array, and the same for ``check``; then the ratio of
rfc3987.match's time to each, and of the ``is_valid`` loop's time to each
(a batch exists to save the per-call cost). Every run reads fresh ``str``
objects, as a program that validates each string once does: CPython keeps
the UTF-8 of a non-ASCII ``str`` once it has been asked for it, so reusing
the same objects would time the second call, not the first.

``--callgrind``: instructions per reference instead (valgrind's callgrind,
repeatable on a noisy machine), as the difference between an interpreter
that does the case twice over the corpus and one that does it once (so
imports, first-call setup and fixed costs cancel), divided by the number of
references; with Python's hash seed fixed and its garbage collector off,
which otherwise move the counts by hundreds of instructions a reference.
Each case runs in its own interpreter under valgrind; callgrind counts the
instructions of every thread, so a batch's count is its whole work, however
it is split across cores.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import os
import re
import subprocess
import sys
import timeit
from pathlib import Path

ROOT = Path(__file__).parents[2]
DEFAULT = [
    ROOT / "python" / "tests" / "data" / "mixed-iris-1k.txt",
    ROOT / "python" / "tests" / "data" / "kasztp-urls-1k.txt",
    ROOT / "benches" / "data" / "mixed-iris-20k.txt",
    ROOT / "benches" / "data" / "kasztp-urls.txt",
]


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


def cases(with_regex: bool) -> dict:
    """Each case by name: a function that imports what the case needs and
    returns a function of a list of fresh strings and a pyarrow array of
    them (``None`` for the cases that do not use it), which does the work
    once. (Under callgrind a case imports only what it uses.)"""

    def rfc3987(regex: bool):
        match = load_rfc3987(regex).match
        return lambda items, array: [match(s) for s in items]

    def iribis_(call):
        def setup():
            import iribis

            return call(iribis)

        return setup

    out = {"rfc3987.match (re)": lambda: rfc3987(False)}
    if with_regex:
        out["rfc3987.match (regex)"] = lambda: rfc3987(True)
    out.update(
        {
            # Bound once, as rfc3987.match is above: the loop times the
            # calls, not a module attribute lookup per item.
            "iribis.is_valid (a loop)": iribis_(lambda i: (lambda f: lambda items, array: [f(s) for s in items])(i.is_valid)),
            "iribis.is_valid_many(list)": iribis_(lambda i: lambda items, array: i.is_valid_many(items)),
            "iribis.is_valid_many(pyarrow)": iribis_(lambda i: lambda items, array: i.is_valid_many(array)),
            "iribis.check (a loop)": iribis_(lambda i: (lambda f: lambda items, array: [f(s) for s in items])(i.check)),
            "iribis.check_many(list)": iribis_(lambda i: lambda items, array: i.check_many(items)),
            "iribis.check_many(pyarrow)": iribis_(lambda i: lambda items, array: i.check_many(array)),
        }
    )
    return out


def arrow(items: list, name: str):
    """The pyarrow string array of `items`, for a case that reads one."""
    if "pyarrow" not in name:
        return None
    import pyarrow as pa

    return pa.array(items, pa.string())


def fresh(text: str) -> list[str]:
    """The lines of `text` as new str objects (no UTF-8 cached yet)."""
    return text.split("\n")[:-1]


def chosen(with_regex: bool, only) -> dict:
    """The cases, those named by `only` (and rfc3987.match (re), the
    baseline, and the is_valid loop) when given."""
    keep = ["rfc3987.match (re)", "iribis.is_valid (a loop)", *(only or [""])]
    return {name: setup for name, setup in cases(with_regex).items() if any(w in name for w in keep)}


def wall(paths: list[Path], with_regex: bool, only=None) -> None:
    import iribis

    table = {name: setup() for name, setup in chosen(with_regex, only).items()}
    re_match = load_rfc3987(False).match
    for path in paths:
        text = path.read_text(encoding="utf-8")
        items = fresh(text)
        n = len(items)
        agree = sum(bool(re_match(s)) == iribis.is_valid(s) for s in items)
        times = {}
        for name, fn in table.items():
            array = arrow(items, name)
            slow = name.startswith(("rfc3987", "iribis.check (")) or "check_many(list)" in name
            repeat = 3 if slow else 7
            runs = []
            for _ in range(repeat):
                batch = fresh(text)
                runs.append(timeit.timeit(lambda: fn(batch, array), number=1))
            times[name] = min(runs) / n
        base, loop = times["rfc3987.match (re)"], times["iribis.is_valid (a loop)"]
        print(f"\n{path.name}: {n:,} references; iribis.is_valid agrees with rfc3987.match (re) on {agree:,}")
        print(f"| {'':30} | per reference | rfc3987 (re) ÷ | is_valid loop ÷ |")
        print(f"|{'-' * 32}|--------------:|---------------:|----------------:|")
        for name, t in times.items():
            print(f"| {name:30} | {t * 1e9:>10,.0f} ns | {base / t:>13,.1f}× | {loop / t:>14,.2f}× |")


def callgrind(paths: list[Path], with_regex: bool, only=None) -> None:
    names = list(chosen(with_regex, only))
    for path in paths:
        n = len(fresh(path.read_text(encoding="utf-8")))
        counts = {}
        for name in names:
            twice, once = (count(name, path, runs, with_regex) for runs in (2, 1))
            counts[name] = (twice - once) / n
        base, loop = counts["rfc3987.match (re)"], counts["iribis.is_valid (a loop)"]
        print(f"\n{path.name}: {n:,} references, instructions per reference (callgrind)")
        print(f"| {'':30} | instructions | rfc3987 (re) ÷ | is_valid loop ÷ |")
        print(f"|{'-' * 32}|-------------:|---------------:|----------------:|")
        for name, c in counts.items():
            print(f"| {name:30} | {c:>12,.0f} | {base / c:>13,.1f}× | {loop / c:>14,.2f}× |")


def count(name: str, path: Path, runs: int, with_regex: bool) -> int:
    """The instructions of an interpreter that does case `name` `runs`
    times over `path`, counted by callgrind."""
    args = [sys.executable, __file__, "--one", name, "--runs", str(runs), str(path)]
    if with_regex:
        args.append("--regex")
    # A fixed hash seed: with a random one, dict and set lookups (imports,
    # interning) cost a different number of instructions in each process.
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *args],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    found = re.search(r"Collected : (\d+)", run.stderr)
    assert found, run.stderr
    return int(found.group(1))


def one(name: str, path: Path, runs: int, with_regex: bool) -> None:
    """Case `name` `runs` times over the corpus, fresh strings each time
    (under callgrind)."""
    gc.disable()  # a collection would fall in one count and not the other
    fn = cases(with_regex)[name]()
    text = path.read_text(encoding="utf-8")
    array = arrow(fresh(text), name)
    batches = [fresh(text) for _ in range(2)]  # as many whatever `runs` is
    for batch in batches[:runs]:
        fn(batch, array)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="*", type=Path, default=DEFAULT)
    parser.add_argument("--callgrind", action="store_true", help="count instructions instead of time")
    parser.add_argument("--regex", action="store_true", help="also rfc3987 with the regex module")
    parser.add_argument(
        "--only", action="append", metavar="WORD", help="only the cases whose name has WORD (repeatable)"
    )
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--runs", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        one(args.one, args.corpus[0], args.runs, args.regex)
    elif args.callgrind:
        callgrind(args.corpus, args.regex, args.only)
    else:
        wall(args.corpus, args.regex, args.only)


if __name__ == "__main__":
    main()
