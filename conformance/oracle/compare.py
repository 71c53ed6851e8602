"""The comparison ladder (RFC 3987 §5.3, RFC 3986 §6.2) and the requirements
beyond the grammar (RFC 3987 §3.1, §4.1, §4.2; 3987bis §5.1 (c), (d)), each
as the set of answers the text allows: a rung or a requirement the readings
of the text answer alike is decided, one they answer differently is not.
"""

from __future__ import annotations

import re
import unicodedata

import idna

import uri
from convert import BIDI_CONTROL, DNS_SCHEMES

# ---------------------------------------------------------------- compare

# The default ports of the schemes whose specifications the oracle knows:
# RFC 7230 §2.7.1 and §2.7.2 (http 80, https 443), RFC 6455 §3 (ws 80,
# wss 443), RFC 1738 §3.2 (ftp 21).
DEFAULT_PORTS = {"http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21"}

# Schemes whose whole scheme-based normalization the oracle knows, so that
# it can say two IRIs are not equivalent after it: http and https (RFC 7230
# §2.7.3: scheme and host case-insensitive, the default port, an empty path
# as "/"; the rest compared as octets). For another scheme, RFC 3987 §5.3.3
# says "other scheme-specific normalizations are possible" (mailto's domain
# is case-insensitive, a URN's NID too): a "not equivalent" is not decided.
KNOWN_SCHEMES = frozenset(["http", "https"])


def _scheme_based(parts: uri.Ref, idn: bool) -> uri.Ref:
    """RFC 3987 §5.3.3 (RFC 3986 §6.2.3) on syntax-normalized components: an
    empty port, or the scheme's default, removed with its ":"; an empty path
    with an authority as "/"; with `idn`, the registered name of a DNS scheme
    through IDNA ("may also consider IDN components and their conversions to
    punycode as equivalent")."""
    scheme = parts.scheme
    if parts.authority is None or scheme is None:
        return parts
    userinfo, host, port = uri.split_authority(parts.authority)
    if port is not None and (port == "" or port == DEFAULT_PORTS.get(scheme)):
        port = None
    if idn and scheme in DNS_SCHEMES and not host.startswith("["):
        try:
            host = ".".join(
                idna.alabel(label).decode("ascii") if any(ord(c) >= 0x80 for c in label) else label
                for label in host.split(".")
            ).lower()
        except (idna.IDNAError, UnicodeError, ValueError):
            pass
    authority = (userinfo + "@" if userinfo is not None else "") + host
    authority += ":" + port if port is not None else ""
    return uri.Ref(scheme, authority, parts.path or "/", parts.query, parts.fragment)


def _syntax_forms(text: str, iri: bool) -> list[uri.Ref]:
    """Syntax-normalized components by each reading of the text, in the same
    order for every input: as printed, then (IRIs) with a query's iprivate
    decoded. The "/." reading of a path starting with "//" changes no
    comparison."""
    readings = [False, True] if iri else [False]
    return [uri.normalize_parts(text, iri, private) for private in readings]


def ladder(a: str, b: str, iri: bool) -> dict[str, set[bool] | None]:
    """For each rung, the answers the text allows (a set of one when it
    decides; None when it does not decide at all)."""
    out: dict[str, set[bool] | None] = {"simple": {a == b}}
    pairs = list(zip(_syntax_forms(a, iri), _syntax_forms(b, iri)))
    syntax = {x == y for x, y in pairs}
    out["syntax"] = syntax
    scheme: set[bool] = set()
    for x, y in pairs:
        plain = _scheme_based(x, False) == _scheme_based(y, False)
        scheme.add(plain)
        if not plain:
            scheme.add(_scheme_based(x, True) == _scheme_based(y, True))
    # A scheme-based "not equivalent" is decided only where the oracle
    # knows every normalization of the scheme.
    schemes = {x.scheme for pair in pairs for x in pair}
    if scheme == {False} and not schemes <= KNOWN_SCHEMES:
        return {**out, "scheme": None}
    out["scheme"] = {True} if syntax == {True} else scheme
    return out


# ---------------------------------------------------------------- check

# RFC 3987 §4.1's list: LRM, RLM, LRE, RLE, PDF, LRO, RLO.
BIDI_LISTED = frozenset([0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E])
RTL = frozenset(["R", "AL"])

# The ids the oracle judges; `lookalike` (3987bis §5.1 (b)) is open-ended
# ("and many others"): a checker's list cannot be held to the text.
JUDGED = ["bidi-formatting", "bidi-mixed-direction", "bidi-rtl-boundary", "not-nfc",
          "combining-mark-at-start", "joiner"]  # fmt: skip


def _bidi(component: str) -> tuple[bool, bool]:
    """RFC 3987 §4.2 on one component: (rule 1 broken: both right-to-left
    and left-to-right characters; rule 2 broken: right-to-left characters
    but not at both ends)."""
    classes = [unicodedata.bidirectional(c) for c in component]
    has_rtl = any(k in RTL for k in classes)
    mixed = has_rtl and "L" in classes
    boundary = has_rtl and (classes[0] not in RTL or classes[-1] not in RTL)
    return mixed, boundary


def _bidi_5893(label: str) -> tuple[bool, bool]:
    """RFC 5893 §2 on a host label (the restriction RFC 3987 §4.2 says host
    labels follow): rule 2 forbids L in an RTL label (mixed); rules 1 and 3
    its first character R or AL, its last R, AL, EN or AN, NSM aside."""
    classes = [unicodedata.bidirectional(c) for c in label]
    if not any(k in RTL or k == "AN" for k in classes):
        return False, False
    mixed = "L" in classes
    tail = [k for k in classes if k != "NSM"]
    boundary = classes[0] not in RTL or not tail or tail[-1] not in RTL | {"EN", "AN"}
    return mixed, boundary


def _components(text: str, fine: bool) -> dict[str, list[str]]:
    """The components RFC 3987 §4.2 names (iuserinfo, ireg-name, each
    isegment, iquery, ifragment), or with `fine` the smaller ones it allows
    (each host label, each name and value of a query)."""
    r = uri.split(text)
    out: dict[str, list[str]] = {"userinfo": [], "host": [], "path": [], "query": [],
                                 "fragment": []}  # fmt: skip
    if r.authority is not None:
        userinfo, host, _ = uri.split_authority(r.authority)
        if userinfo is not None:
            out["userinfo"].append(userinfo)
        if not host.startswith("["):
            out["host"] = host.split(".") if fine else [host]
    out["path"] = r.path.split("/")
    if r.query is not None:
        out["query"] = re.split(r"[&;=]", r.query) if fine else [r.query]
    if r.fragment is not None:
        out["fragment"].append(r.fragment)
    return {k: [p for p in v if p] for k, v in out.items()}


def _bidi_findings(text: str) -> list[set[str]]:
    """The bidi findings by each reading: the components as §4.2 lists them;
    the smaller ones it allows, with host labels by §4.2's rules or by RFC
    5893's."""
    readings = []
    for fine, labels_5893 in ((False, False), (True, False), (True, True)):
        found: set[str] = set()
        for kind, pieces in _components(text, fine).items():
            for p in pieces:
                rule = _bidi_5893 if kind == "host" and labels_5893 else _bidi
                mixed, boundary = rule(p)
                if mixed:
                    found.add("bidi-mixed-direction")
                if boundary:
                    found.add("bidi-rtl-boundary")
        readings.append(found)
    return readings


def _starts(text: str, fine: bool) -> list[str]:
    """The first characters of the components (with `fine`, of host labels
    and of a query's names and values too)."""
    return [p[0] for pieces in _components(text, fine).values() for p in pieces]


def _joiner(text: str) -> tuple[bool, bool]:
    """3987bis §5.1 (d): (surely discouraged, perhaps discouraged). A ZWNJ
    or ZWJ outside the contexts RFC 5892 Appendix A allows: after a virama
    (canonical combining class 9) both are allowed; ZWNJ also between
    joining letters, which needs Joining_Type data the standard library does
    not have. After an ASCII character or at the start, neither applies."""
    sure = maybe = False
    for i, c in enumerate(text):
        if c not in "\u200c\u200d":
            continue
        before = text[i - 1] if i else ""
        if before == "" or ord(before) < 0x80:
            sure = True
        elif unicodedata.combining(before) != 9:
            maybe = True
    return sure, sure or maybe


def requirements(text: str, profile: str) -> dict[str, set[bool]]:
    """For each judged id, whether the input breaks it, as the set of answers
    the readings of the text give."""
    out: dict[str, set[bool]] = {}
    listed = any(ord(c) in BIDI_LISTED for c in text)
    later = any(ord(c) in BIDI_CONTROL for c in text)
    if profile == "leiri":
        # 3987bis §6.1: LEIRIs lift the restriction.
        out["bidi-formatting"] = {False}
    else:
        out["bidi-formatting"] = {listed, later}
    readings = _bidi_findings(text)
    for rid in ("bidi-mixed-direction", "bidi-rtl-boundary"):
        out[rid] = {rid in found for found in readings}
    out["not-nfc"] = {not unicodedata.is_normalized("NFC", text)}
    mark = lambda c: unicodedata.category(c) in ("Mn", "Mc", "Me")  # noqa: E731
    out["combining-mark-at-start"] = {
        any(mark(c) for c in _starts(text, fine)) for fine in (False, True)
    }
    sure, maybe = _joiner(text)
    out["joiner"] = {sure, maybe}
    return out
