"""Internationalized Resource Identifiers, done exactly.

Parse, validate, check, convert, resolve and normalize IRIs by the ABNF of
draft-ietf-iri-3987bis-13 (with RFC 3987, RFC 3986 and Legacy Extended IRIs
as profiles), in Rust. Batches take lists or pyarrow string arrays.

>>> import iribis
>>> iribis.is_valid("https://例え.jp/résumé?q=日本#s")
True
>>> r = iribis.parse("https://例え.jp/résumé?q=日本#s")
>>> (r.scheme, r.host, r.path, r.query, r.fragment)
('https', '例え.jp', '/résumé', 'q=日本', 's')
>>> iribis.to_uri("https://例え.jp/résumé", idna=True)
'https://xn--r8jz45g.jp/r%C3%A9sum%C3%A9'

Submodules: :mod:`iribis.rfc3987` (a drop-in for the ``rfc3987`` package),
:mod:`iribis.jsonschema` (a ``jsonschema`` format checker) and
:mod:`iribis.spark` (checking a Spark DataFrame column). Each is imported on
first use, so ``import iribis`` is enough, and imports neither jsonschema
nor pyspark:

>>> import jsonschema
>>> jsonschema.validate("http://例え.jp/", {"format": "iri"},
...                     format_checker=iribis.jsonschema.format_checker)
"""

import importlib as _importlib
import os as _os
import sys as _sys


def _not_built(error: ModuleNotFoundError) -> ModuleNotFoundError:
    """The error for a package directory without its native module: most
    often the source directory python/iribis, imported because Python was
    started in python/ (the current directory comes first on sys.path)."""
    here = _os.path.dirname(_os.path.abspath(__file__))
    others = [
        _os.path.join(path, "iribis")
        for path in _sys.path
        if path
        and _os.path.abspath(_os.path.join(path, "iribis")) != here
        and _os.path.isfile(_os.path.join(path, "iribis", "__init__.py"))
    ]
    lines = [
        f"iribis's native module iribis._iribis is not built in {here}, the package Python found first.",
        "It is most likely the source directory: Python looks in the current directory before the installed packages.",
    ]
    if others:
        lines.append(f"An installed iribis is at {others[0]}: start Python from another directory to use it,")
    else:
        lines.append("Install the package (`pip install ./python` from the checkout's root) and start Python from another directory,")
    lines.append("or build it here in place: `maturin develop --release` (in a venv, from python/).")
    return ModuleNotFoundError("\n".join(lines), name=error.name, path=error.path)


try:
    _importlib.import_module(f"{__name__}._iribis")
except ModuleNotFoundError as _error:
    if _error.name != f"{__name__}._iribis":
        raise
    raise _not_built(_error) from None

from ._iribis import (
    IriRef,
    ParseError,
    Violation,
    check,
    check_document,
    check_many,
    compare,
    is_valid,
    is_valid_many,
    normalize,
    parse,
    readings,
    relativize,
    resolve,
    to_iri,
    to_uri,
)

__all__ = [
    "IriRef",
    "ParseError",
    "Violation",
    "check",
    "check_document",
    "check_many",
    "compare",
    "is_valid",
    "is_valid_many",
    "normalize",
    "parse",
    "readings",
    "relativize",
    "resolve",
    "to_iri",
    "to_uri",
]

#: The submodules, imported on first use, and the extra that installs what
#: each needs beyond iribis (``import iribis`` imports none of it).
_SUBMODULES = {"jsonschema": "jsonschema", "rfc3987": None, "spark": "spark"}

#: The installed distribution's version (``pip show iribis``), read from its
#: metadata on first use, so that ``import iribis`` does not import
#: :mod:`importlib.metadata`.
__version__: str


def __getattr__(name: str):
    if name == "__version__":
        from importlib.metadata import version

        globals()["__version__"] = found = version(__name__)
        return found
    if name not in _SUBMODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        return _importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as e:
        extra = _SUBMODULES[name]
        if extra is None or (e.name or "").startswith(__name__):
            raise
        raise ModuleNotFoundError(
            f"iribis.{name} needs the {e.name} package: pip install 'iribis[{extra}]'", name=e.name
        ) from e


def __dir__():
    # A submodule once imported is a global too: a set lists it once.
    return sorted({*globals(), *_SUBMODULES, "__version__"})
