"""A drop-in for the ``rfc3987`` package: ``match``, ``parse``, ``compose``, ``resolve``.

Same signatures, the same rule names (ABNF names with ``_`` for ``-``:
``IRI_reference``, ``absolute_IRI``, ``ipath_abempty``, ``IPv6address``...),
the same dicts and the same exceptions, so that moving off the GPL-licensed
package is an import change::

    # from rfc3987 import match, parse, compose, resolve
    from iribis.rfc3987 import match, parse, compose, resolve

The grammar is draft-ietf-iri-3987bis-13's (iribis's default profile), which
differs from RFC 3987 in a few places, and iribis follows the ABNF where the
package's regular expressions do not; ``docs/python.md`` lists the
differences.

>>> from iribis.rfc3987 import match, parse, compose, resolve
>>> bool(match("http://例え.jp/résumé"))
True
>>> match("%C7X", "pct_encoded") is None
True
>>> d = parse("http://tools.ietf.org/html/rfc3986#appendix-A", rule="URI")
>>> d
{'scheme': 'http', 'authority': 'tools.ietf.org', 'path': '/html/rfc3986', 'query': None, 'fragment': 'appendix-A'}
>>> compose(**d)
'http://tools.ietf.org/html/rfc3986#appendix-A'
>>> resolve("http://a/b/c/d;p?q", "../g")
'http://a/b/g'
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Union

from . import _iribis

__all__ = ["match", "parse", "compose", "resolve"]

Parts = Dict[str, Optional[str]]

#: The keys of the dicts of :func:`parse` and ``resolve(..., return_parts=True)``.
_KEYS = ("scheme", "authority", "path", "query", "fragment")


def _start(rule: str) -> str:
    """The rule by name, as the ``rfc3987`` package takes it: ``KeyError`` if unknown."""
    if not isinstance(rule, str):
        raise KeyError(rule)
    try:
        _iribis.is_valid("", rule=rule)
    except ValueError:
        raise KeyError(rule) from None
    return rule


class Match:
    """What :func:`match` returns for a match: true, and like a ``re.Match``
    of the whole string (``group()``, ``span()``, ``groupdict()``)."""

    __slots__ = ("string", "rule")

    def __init__(self, string: str, rule: str) -> None:
        self.string = string
        self.rule = rule

    def group(self, *groups: Union[int, str]) -> Any:
        """Group 0 is the whole string; a name is a component (``scheme``...)."""
        if not groups:
            return self.string
        found = [self._group(g) for g in groups]
        return found[0] if len(found) == 1 else tuple(found)

    def _group(self, g: Union[int, str]) -> Optional[str]:
        if g == 0:
            return self.string
        parts = self.groupdict()
        if g in parts:
            return parts[g]  # type: ignore[index]
        raise IndexError("no such group")

    def __getitem__(self, g: Union[int, str]) -> Optional[str]:
        return self._group(g)

    def groupdict(self) -> Parts:
        """The components, as :func:`parse` gives them."""
        return parse(self.string, self.rule)

    def start(self, group: int = 0) -> int:
        return 0

    def end(self, group: int = 0) -> int:
        return len(self.string)

    def span(self, group: int = 0) -> tuple:
        return (0, len(self.string))

    def __bool__(self) -> bool:
        return True

    def __repr__(self) -> str:
        return f"<iribis.rfc3987.Match span={self.span()!r} rule={self.rule!r} match={self.string!r}>"


def match(string: str, rule: str = "IRI_reference") -> Optional[Match]:
    """A :class:`Match` if the whole of `string` matches `rule`, else ``None``.

    >>> bool(match("%C7", "pct_encoded")), bool(match("%c7", "pct_encoded"))
    (True, True)
    >>> match("http://h/a b") is None
    True
    >>> match("::0:0:0:0:0.0.0.0", "IPv6address").group()
    '::0:0:0:0:0.0.0.0'
    """
    if _iribis.is_valid(string, rule=_start(rule)):
        return Match(string, rule)
    return None


def _split(string: str) -> Parts:
    """RFC 3986 Appendix B: the components by their delimiters alone."""
    parts: Parts = dict.fromkeys(_KEYS)
    rest = string
    hash_at = rest.find("#")
    if hash_at >= 0:
        rest, parts["fragment"] = rest[:hash_at], rest[hash_at + 1 :]
    question = rest.find("?")
    if question >= 0:
        rest, parts["query"] = rest[:question], rest[question + 1 :]
    colon = rest.find(":")
    if colon > 0 and not any(c in "/?#" for c in rest[:colon]):
        parts["scheme"], rest = rest[:colon], rest[colon + 1 :]
    if rest.startswith("//"):
        slash = rest.find("/", 2)
        end = len(rest) if slash < 0 else slash
        parts["authority"], rest = rest[2:end], rest[end:]
    parts["path"] = rest
    return parts


def parse(string: str, rule: Optional[str] = "IRI_reference") -> Parts:
    """The components of `string` as a dict with the keys ``scheme``,
    ``authority``, ``path``, ``query`` and ``fragment`` (``None`` when
    absent), after checking that it matches `rule`; ``ValueError`` when it
    does not. With ``rule=None``, splits without validation (RFC 3986
    Appendix B).

    >>> parse("//例え.jp/a?b", "irelative_ref")
    {'scheme': None, 'authority': '例え.jp', 'path': '/a', 'query': 'b', 'fragment': None}
    >>> parse("a b")
    Traceback (most recent call last):
    ...
    ValueError: 'a b' is not a valid 'IRI_reference'.
    >>> parse("a b", rule=None)["path"]
    'a b'
    """
    if rule is None:
        return _split(string)
    try:
        r = _iribis.parse(string, rule=_start(rule))
    except _iribis.ParseError:
        raise ValueError(f"{string!r} is not a valid {rule!r}.") from None
    except KeyError:
        raise ValueError(rule) from None
    return {
        "scheme": r.scheme,
        "authority": r.authority,
        "path": r.path,
        "query": r.query,
        "fragment": r.fragment,
    }


def compose(
    scheme: Optional[str] = None,
    authority: Optional[str] = None,
    path: Optional[str] = None,
    query: Optional[str] = None,
    fragment: Optional[str] = None,
    iauthority: Optional[str] = None,
    ipath: Optional[str] = None,
    iquery: Optional[str] = None,
    ifragment: Optional[str] = None,
    **kw: Any,
) -> str:
    """The reference made of these components (RFC 3986 §5.3); the ``i``
    names stand in for the plain ones when those are ``None``, and other
    keywords are ignored, so a dict from :func:`parse` can be passed whole.

    >>> compose(scheme="http", authority="例え.jp", path="/a", query="", fragment=None)
    'http://例え.jp/a?'
    >>> compose(ipath="a/b", ifragment="f")
    'a/b#f'
    """
    authority = iauthority if authority is None else authority
    path = ipath if path is None else path
    query = iquery if query is None else query
    fragment = ifragment if fragment is None else fragment
    out = []
    if scheme is not None:
        out.append(scheme + ":")
    if authority is not None:
        out.append("//" + authority)
    out.append(path or "")
    if query is not None:
        out.append("?" + query)
    if fragment is not None:
        out.append("#" + fragment)
    return "".join(out)


def resolve(
    base: Union[str, Mapping[str, Optional[str]]],
    uriref: Union[str, Mapping[str, Optional[str]]],
    strict: bool = True,
    return_parts: bool = False,
) -> Union[str, Parts]:
    """Resolves `uriref` against `base` (RFC 3986 §5.2); either may be a
    string or a dict of components. With ``strict=False`` a reference with
    the base's scheme is read as if it had none; with ``return_parts=True``
    the result is a dict as :func:`parse` gives. ``ValueError`` when the base
    is not an IRI or the reference does not parse.

    >>> resolve("http://a/b", "http:g"), resolve("http://a/b", "http:g", strict=False)
    ('http:g', 'http://a/g')
    >>> resolve("urn:root/less", "../../name")
    'urn:/name'
    >>> resolve("http://a/b/c/d;p?q", "../g", return_parts=True)
    {'scheme': 'http', 'authority': 'a', 'path': '/b/g', 'query': None, 'fragment': None}
    >>> resolve("/relative", "g")
    Traceback (most recent call last):
    ...
    ValueError: '/relative' is not a valid 'IRI'.
    """
    if not isinstance(base, str):
        base = compose(**base)
    if not isinstance(uriref, str):
        uriref = compose(**uriref)
    if not _iribis.is_valid(base, rule="IRI"):
        raise ValueError(f"{base!r} is not a valid 'IRI'.")
    if not _iribis.is_valid(uriref):
        raise ValueError(f"{uriref!r} is not a valid 'IRI_reference'.")
    out = _iribis.resolve(base, uriref, strict=strict)
    return parse(out) if return_parts else out
