"""docs/release.md names the wheel as scripts/wheel builds it."""

import importlib.metadata
import re
from pathlib import Path

import pytest

RELEASE = Path(__file__).parents[2] / "docs" / "release.md"


def test_release_docs_name_the_installed_release_wheel():
    wheel = importlib.metadata.distribution("iribis").read_text("WHEEL")
    tags = re.findall(r"^Tag: (\S+)$", wheel, re.M)
    platforms = [t.split("-")[2] for t in tags]
    if not all(p.startswith("manylinux") for p in platforms):
        pytest.skip(f"not the release wheel (tags {tags}): a build for this machine only")
    python, abi = tags[0].split("-")[:2]
    built = f"iribis-VERSION-{python}-{abi}-{'.'.join(platforms)}.whl"
    documented = re.findall(r"`(iribis-VERSION-[^`]+\.whl)`", RELEASE.read_text(encoding="utf-8"))
    assert documented == [built]
