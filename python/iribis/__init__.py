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
:mod:`iribis.spark` (checking a Spark DataFrame column).
"""

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
    "relativize",
    "resolve",
    "to_iri",
    "to_uri",
]
