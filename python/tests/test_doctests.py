"""The examples of the docstrings (the native module's and the Python
modules'), of python/README.md and of docs/python.md, run as doctests."""

import doctest
import importlib
from pathlib import Path

import pytest

import iribis

MODULES = ["iribis", "iribis.rfc3987", "iribis.jsonschema", "iribis.spark"]
ROOT = Path(__file__).parents[2]
FILES = [ROOT / "python" / "README.md", ROOT / "docs" / "python.md"]


def native_tests():
    finder = doctest.DocTestFinder(exclude_empty=True)
    for name in sorted(dir(iribis._iribis)):
        obj = getattr(iribis._iribis, name)
        if name.startswith("__") or not getattr(obj, "__doc__", None):
            continue
        yield from finder.find(obj, f"iribis.{name}", module=False, globs={})


def module_tests():
    finder = doctest.DocTestFinder(exclude_empty=True)
    for name in MODULES:
        yield from finder.find(importlib.import_module(name))


def file_tests():
    parser = doctest.DocTestParser()
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        yield parser.get_doctest(text, {}, path.name, str(path), 0)


def all_tests():
    """Every docstring's test once: the package re-exports the native
    classes, which a finder on the package finds again."""
    seen = {}
    for test in [*native_tests(), *module_tests(), *file_tests()]:
        seen.setdefault(test.name, test)
    return list(seen.values())


ALL = all_tests()


def test_every_public_function_has_an_example():
    named = {t.name for t in ALL if t.examples}
    for name in iribis.__all__:
        assert f"iribis.{name}" in named, name


@pytest.mark.parametrize("test", ALL, ids=lambda t: t.name)
def test_docstring(test):
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    result = runner.run(test, out=lambda s: print(s, end=""))
    assert result.failed == 0
