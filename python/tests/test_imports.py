"""Importing the package: the submodules after ``import iribis``, its
``__version__``, and a source directory without its native module."""

import importlib.metadata
import re
import shutil
import subprocess
import sys
from pathlib import Path

SOURCE = Path(__file__).parents[1] / "iribis"
PYPROJECT = Path(__file__).parents[1] / "pyproject.toml"


def run(code, cwd):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd, timeout=120)


def test_submodules_after_import_iribis(tmp_path):
    done = run(
        "import sys, iribis\n"
        "print('jsonschema' in sys.modules, 'pyspark' in sys.modules)\n"
        "checker = iribis.jsonschema.format_checker\n"
        "print('jsonschema' in sys.modules, iribis.rfc3987.match('a:b') is not None)\n"
        "print(all(name in dir(iribis) for name in ('jsonschema', 'rfc3987', 'spark')))\n"
        "try:\n    iribis.nothing\nexcept AttributeError as e:\n    print(e)\n",
        tmp_path,
    )
    assert done.stdout.split("\n")[:4] == [
        "False False",
        "True True",
        "True",
        "module 'iribis' has no attribute 'nothing'",
    ], done.stderr


def test_source_directory_says_why(tmp_path):
    # The package's Python files without the native module, as in a checkout
    # where Python is started in python/.
    (tmp_path / "iribis").mkdir()
    for f in SOURCE.glob("*.py"):
        shutil.copy(f, tmp_path / "iribis")
    done = run("import iribis", tmp_path)
    assert done.returncode == 1
    assert "ModuleNotFoundError: iribis's native module iribis._iribis is not built in" in done.stderr
    assert "Python looks in the current directory before the installed packages" in done.stderr
    assert "maturin develop" in done.stderr
    assert "An installed iribis is at" in done.stderr or "pip install ./python" in done.stderr


def test_dir_lists_each_name_once_after_the_submodules_are_imported(tmp_path):
    done = run(
        "import iribis\n"
        "before = dir(iribis)\n"
        "import iribis.jsonschema, iribis.rfc3987, iribis.spark\n"
        "after = dir(iribis)\n"
        "print(sorted({n for n in after if after.count(n) > 1}))\n"
        "print(before == after, after == sorted(after))\n",
        tmp_path,
    )
    assert done.stdout.split("\n")[:2] == ["[]", "True True"], done.stderr


def test_version_is_the_wheels_version():
    import iribis

    project = PYPROJECT.read_text(encoding="utf-8").split("[project]", 1)[1]
    declared = re.search(r'^version = "([^"]+)"$', project, re.M).group(1)
    assert iribis.__version__ == importlib.metadata.version("iribis") == declared
    assert "__version__" in dir(iribis)
    from iribis import __version__

    assert __version__ == declared


def test_version_is_read_on_first_use(tmp_path):
    # importlib.metadata (email, zipfile, csv...) is imported for
    # iribis.__version__, not by ``import iribis``.
    done = run(
        "import sys, iribis\n"
        "print('importlib.metadata' in sys.modules)\n"
        "print(iribis.__version__ == iribis.__dict__['__version__'])\n",
        tmp_path,
    )
    assert done.stdout.split("\n")[:2] == ["False", "True"], done.stderr
