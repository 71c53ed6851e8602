"""A ``jsonschema`` format checker for ``iri``, ``iri-reference``, ``uri`` and ``uri-reference``.

``format_checker`` is a :class:`jsonschema.FormatChecker` with every format
jsonschema knows, the four IRI and URI formats checked by iribis: ``iri``
and ``iri-reference`` by draft-ietf-iri-3987bis-13 (the rules ``IRI`` and
``IRI-reference``), ``uri`` and ``uri-reference`` by RFC 3986 (``URI`` and
``URI-reference``). It needs neither the ``rfc3987`` package (GPL) nor
``rfc3987-syntax``. :func:`register` adds the four to a checker of your own.
A failed check keeps iribis's reason: the ``ValidationError``'s ``cause`` is
the :class:`iribis.ParseError`, with its position and message. A string with
lone surrogates (JSON can carry ``"\\ud800"``) is not valid Unicode, and so
is no IRI: it fails the four formats.

>>> import jsonschema
>>> from iribis.jsonschema import format_checker
>>> schema = {"format": "iri"}
>>> jsonschema.validate("http://ƒøø.ßår/?∂éœ=πîx#πîüx", schema, format_checker=format_checker)
>>> jsonschema.validate("/abc", schema, format_checker=format_checker)
Traceback (most recent call last):
...
jsonschema.exceptions.ValidationError: '/abc' is not a 'iri'
...
>>> try:
...     jsonschema.validate("http://例え.jp/a b", schema, format_checker=format_checker)
... except jsonschema.ValidationError as e:
...     print(e.message)
...     print(e.cause.message, "at character", e.cause.char)
'http://例え.jp/a b' is not a 'iri'
a space is not allowed in a path: percent-encode it as %20 at character 14
"""

from __future__ import annotations

import jsonschema as _jsonschema

from . import _iribis

__all__ = ["format_checker", "register", "FORMATS"]

#: Each format, the rule and the profile it is checked with.
FORMATS = {
    "iri": ("IRI", "rfc3987bis"),
    "iri-reference": ("IRI-reference", "rfc3987bis"),
    "uri": ("URI", "rfc3986"),
    "uri-reference": ("URI-reference", "rfc3986"),
}


def register(checker: _jsonschema.FormatChecker) -> _jsonschema.FormatChecker:
    """Adds (or replaces) the four formats on `checker` and returns it.

    >>> import jsonschema
    >>> checker = register(jsonschema.FormatChecker(formats=()))
    >>> sorted(checker.checkers)
    ['iri', 'iri-reference', 'uri', 'uri-reference']
    >>> checker.conforms("http://例え.jp/", "uri"), checker.conforms("http://例え.jp/", "iri")
    (False, True)
    >>> checker.conforms(12, "uri")
    True
    """
    for name, (rule, profile) in FORMATS.items():
        checker.checks(name, raises=_iribis.ParseError)(_checker(rule, profile))
    return checker


def _checker(rule: str, profile: str):
    def conforms(instance: object) -> bool:
        # Formats apply to strings only; other types conform.
        if not isinstance(instance, str):
            return True
        if _iribis.is_valid(instance, rule=rule, profile=profile):
            return True
        # The reason, as the ParseError that jsonschema keeps as the
        # error's cause (the validation fast path above builds none).
        _iribis.parse(instance, rule=rule, profile=profile)
        return False

    conforms.__name__ = f"is_{rule.replace('-', '_').lower()}"
    return conforms


#: Every format jsonschema checks, with iribis for the four IRI and URI formats.
format_checker = register(_jsonschema.FormatChecker())
