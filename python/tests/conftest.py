"""Shared paths and corpora of the Python tests."""

import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
#: The repository's conformance vectors (crates/suite/data/conformance), shared with the Rust tests.
VECTORS = Path(__file__).parents[2] / "crates" / "suite" / "data" / "conformance" / "vectors.jsonl"


def lines(name):
    """The lines of a corpus in python/tests/data, without their terminators."""
    text = (DATA / name).read_text(encoding="utf-8")
    return text.split("\n")[:-1]


def vectors(kind):
    """The conformance vectors of one kind."""
    with VECTORS.open(encoding="utf-8") as f:
        return [v for v in map(json.loads, f) if v["kind"] == kind]


@pytest.fixture(scope="session")
def corpus():
    """1,000 lines each of the mixed IRIs and of the kasztp URLs (seeded samples)."""
    return lines("mixed-iris-1k.txt") + lines("kasztp-urls-1k.txt")
