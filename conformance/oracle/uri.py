"""Components, reference resolution and syntax-based normalization, as RFC 3986
prints them (Appendix B, §3.2, §5.2, §5.3, §6.2.2) with RFC 3987 §5.3.2 and
draft-ietf-iri-3987bis-13 §5.5 for IRIs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

# RFC 3986 Appendix B, verbatim; DOTALL so that a control character (a line
# feed in a LEIRI) is matched by "." like any other.
APPENDIX_B = re.compile(r"^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?", re.DOTALL)


@dataclass(frozen=True)
class Ref:
    """The five components of RFC 3986 §3 (None: undefined, §5.2.1)."""

    scheme: str | None
    authority: str | None
    path: str
    query: str | None
    fragment: str | None


def split(text: str) -> Ref:
    """RFC 3986 Appendix B: the five components of any string."""
    m = APPENDIX_B.match(text)
    assert m is not None  # every group is optional: the regex matches any string
    return Ref(m.group(2), m.group(4), m.group(5), m.group(7), m.group(9))


def split_authority(authority: str) -> tuple[str | None, str, str | None]:
    """RFC 3986 §3.2: authority = [ userinfo "@" ] host [ ":" port ].

    Neither a host nor a port has "@", and a host has ":" only inside the
    brackets of an IP literal (§3.2.2), so the first "@" ends the userinfo and
    the first ":" after the host starts the port.
    """
    userinfo = None
    if "@" in authority:
        userinfo, _, authority = authority.partition("@")
    if authority.startswith("[") and "]" in authority:
        end = authority.index("]") + 1
        host, rest = authority[:end], authority[end:]
        port = rest[1:] if rest.startswith(":") else None
        if rest and not rest.startswith(":"):
            host, port = authority, None
        return userinfo, host, port
    host, colon, port = authority.partition(":")
    return userinfo, host, (port if colon else None)


def components(text: str) -> dict[str, str | None]:
    """The eight components of a reference, delimiters left out, as written."""
    r = split(text)
    userinfo = host = port = None
    if r.authority is not None:
        userinfo, host, port = split_authority(r.authority)
    return {
        "scheme": r.scheme,
        "authority": r.authority,
        "userinfo": userinfo,
        "host": host,
        "port": port,
        "path": r.path,
        "query": r.query,
        "fragment": r.fragment,
    }


def recompose(r: Ref) -> str:
    """RFC 3986 §5.3, as printed."""
    out = ""
    if r.scheme is not None:
        out += r.scheme + ":"
    if r.authority is not None:
        out += "//" + r.authority
    out += r.path
    if r.query is not None:
        out += "?" + r.query
    if r.fragment is not None:
        out += "#" + r.fragment
    return out


def remove_dot_segments(path: str) -> str:
    """RFC 3986 §5.2.4, step by step as printed."""
    inp, out = path, ""
    while inp:
        if inp.startswith("../"):  # A
            inp = inp[3:]
        elif inp.startswith("./"):  # A
            inp = inp[2:]
        elif inp.startswith("/./"):  # B
            inp = "/" + inp[3:]
        elif inp == "/.":  # B
            inp = "/"
        elif inp.startswith("/../") or inp == "/..":  # C
            inp = "/" + inp[4:] if inp.startswith("/../") else "/"
            cut = out.rfind("/")
            out = out[:cut] if cut >= 0 else ""
        elif inp in (".", ".."):  # D
            inp = ""
        else:  # E
            start = 1 if inp.startswith("/") else 0
            nxt = inp.find("/", start)
            seg = inp if nxt < 0 else inp[:nxt]
            out += seg
            inp = inp[len(seg) :]
    return out


def merge(base: Ref, ref_path: str) -> str:
    """RFC 3986 §5.2.3."""
    if base.authority is not None and base.path == "":
        return "/" + ref_path
    cut = base.path.rfind("/")
    return base.path[: cut + 1] + ref_path if cut >= 0 else ref_path


class NotAbsolute(ValueError):
    """The base has no scheme: RFC 3986 §5.1 requires an absolute base."""


def transform(ref: str, base: str, strict: bool = True) -> Ref:
    """RFC 3986 §5.2.2 (with §5.2.1's requirement of a scheme in the base)."""
    R, B = split(ref), split(base)
    if B.scheme is None:
        raise NotAbsolute(f"base {base!r} has no scheme (RFC 3986 §5.1, §5.2.1)")
    if not strict and R.scheme is not None and R.scheme.lower() == B.scheme.lower():
        R = replace(R, scheme=None)
    if R.scheme is not None:
        return Ref(R.scheme, R.authority, remove_dot_segments(R.path), R.query, R.fragment)
    if R.authority is not None:
        return Ref(B.scheme, R.authority, remove_dot_segments(R.path), R.query, R.fragment)
    if R.path == "":
        query = R.query if R.query is not None else B.query
        return Ref(B.scheme, B.authority, B.path, query, R.fragment)
    if R.path.startswith("/"):
        path = remove_dot_segments(R.path)
    else:
        path = remove_dot_segments(merge(B, R.path))
    return Ref(B.scheme, B.authority, path, R.query, R.fragment)


def resolve(ref: str, base: str, strict: bool = True) -> str:
    """RFC 3986 §5.2 then §5.3, as printed."""
    return recompose(transform(ref, base, strict))


# ---------------------------------------------------------------- normalization

UNRESERVED_ASCII = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_PCT = re.compile(r"(?:%[0-9A-Fa-f]{2})+")

# RFC 3987 §4.1 (and the Bidi document 3987bis §6.1 points to): an IRI must not
# contain the bidirectional formatting characters LRM, RLM, LRE, RLE, PDF, LRO,
# RLO.
BIDI_FORMATTING = frozenset([0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E])

# draft-ietf-iri-3987bis-13 §2.2 ucschar and iprivate.
UCSCHAR = (
    (0xA0, 0xD7FF), (0xF900, 0xFDCF), (0xFDF0, 0xFFEF),
    (0x10000, 0x1FFFD), (0x20000, 0x2FFFD), (0x30000, 0x3FFFD),
    (0x40000, 0x4FFFD), (0x50000, 0x5FFFD), (0x60000, 0x6FFFD),
    (0x70000, 0x7FFFD), (0x80000, 0x8FFFD), (0x90000, 0x9FFFD),
    (0xA0000, 0xAFFFD), (0xB0000, 0xBFFFD), (0xC0000, 0xCFFFD),
    (0xD0000, 0xDFFFD), (0xE1000, 0xEFFFD),
)  # fmt: skip
IPRIVATE = ((0xE000, 0xF8FF), (0xE0000, 0xE0FFF), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD))


def in_ranges(cp: int, ranges) -> bool:
    return any(lo <= cp <= hi for lo, hi in ranges)


def utf8_chars(octets: bytes):
    """Splits octets into ("char", c, raw) for each strictly legal UTF-8
    sequence (RFC 3629: no overlong form, no surrogate, at most U+10FFFF) and
    ("octet", b, raw) for every other octet."""
    i = 0
    while i < len(octets):
        b = octets[i]
        n = (
            1
            if b < 0x80
            else 2
            if 0xC2 <= b <= 0xDF
            else 3
            if 0xE0 <= b <= 0xEF
            else 4
            if 0xF0 <= b <= 0xF4
            else 0
        )
        if n:
            raw = octets[i : i + n]
            try:
                ch = raw.decode("utf-8", errors="strict")
            except UnicodeDecodeError:
                ch = None
            if ch is not None and len(ch) == 1:
                yield ("char", ch, raw)
                i += n
                continue
        yield ("octet", b, octets[i : i + 1])
        i += 1


def pct(octets: bytes) -> str:
    """Percent-encoding with uppercase hexadecimal digits (RFC 3986 §2.1)."""
    return "".join(f"%{b:02X}" for b in octets)


def decode_where(text: str, keep) -> str:
    """Decodes the runs of percent-encoded octets whose characters `keep(ch)`
    accepts; every other triplet stays encoded, its hex digits uppercased."""

    def sub(m: re.Match) -> str:
        octets = bytes(int(m.group(0)[i + 1 : i + 3], 16) for i in range(0, len(m.group(0)), 3))
        out = []
        for kind, value, raw in utf8_chars(octets):
            if kind == "char" and keep(value):
                out.append(value)
            else:
                out.append(pct(raw))
        return "".join(out)

    return _PCT.sub(sub, text)


def iri_unreserved(ch: str) -> bool:
    """3987bis §2.2 iunreserved, less the bidi formatting characters an IRI
    must not hold (RFC 3987 §4.1)."""
    if ch in UNRESERVED_ASCII:
        return True
    cp = ord(ch)
    return in_ranges(cp, UCSCHAR) and cp not in BIDI_FORMATTING


def normalize_parts(text: str, iri: bool, private_query: bool = False) -> Ref:
    """The components `normalize` recomposes."""
    r = split(text)
    keep = iri_unreserved if iri else (lambda ch: ch in UNRESERVED_ASCII)
    scheme = r.scheme.lower() if r.scheme is not None else None
    authority = None
    if r.authority is not None:
        userinfo, host, port = split_authority(r.authority)
        host = decode_where(host, keep)
        if all(ord(c) < 0x80 for c in host):
            # Lowercase, then the percent-encodings' digits back to uppercase.
            host = decode_where(host.lower(), keep)
        authority = ""
        if userinfo is not None:
            authority += decode_where(userinfo, keep) + "@"
        authority += host
        if port is not None:
            authority += ":" + port
    path = decode_where(r.path, keep)
    if scheme is not None:
        path = remove_dot_segments(path)
    keep_q = keep
    if iri and private_query:
        keep_q = lambda ch: keep(ch) or in_ranges(ord(ch), IPRIVATE)  # noqa: E731
    query = decode_where(r.query, keep_q) if r.query is not None else None
    fragment = decode_where(r.fragment, keep) if r.fragment is not None else None
    return Ref(scheme, authority, path, query, fragment)


def normalize(text: str, iri: bool, private_query: bool = False) -> str:
    """Syntax-based normalization: RFC 3986 §6.2.2 (case, percent-encoding,
    dot segments) and §5.3 as printed; for IRIs (`iri`), RFC 3987 §5.3.2: the
    percent-encoded unreserved characters decoded are iunreserved ones, and a
    host is lowercased only when it is US-ASCII (§5.3.2.1). `private_query`:
    the other reading of §5.3.2.3 for IRIs, where a query's percent-encoded
    private-use characters (iprivate, which iquery allows) are decoded too."""
    return recompose(normalize_parts(text, iri, private_query))


def normalize_readings(text: str, iri: bool) -> dict[str, str]:
    """Every answer syntax-based normalization gives by a reading of the
    text, with the reading: as printed; with a query's private-use
    characters decoded (IRIs); and, when the path left has no authority and
    starts with "//" (§5.3 then writes an authority), "/." before it."""
    out: dict[str, str] = {}
    for private in ([False, True] if iri else [False]):
        parts = normalize_parts(text, iri, private)
        why = "RFC 3986 §6.2.2, RFC 3987 §5.3.2" + (
            " (a query's iprivate decoded)" if private else ""
        )
        out.setdefault(recompose(parts), why)
        if parts.authority is None and parts.path.startswith("//"):
            dotted = replace(parts, path="/." + parts.path)
            out.setdefault(recompose(dotted), why + ", '/.' before a path starting with '//'")
    return out
