"""IRI → URI (draft-ietf-iri-3987bis-13 §3.3–§3.6, RFC 3987 §3.1; LEIRI → IRI
§6.2) and URI → IRI (3987bis §4.2), with hosts through Python's `idna`
package (IDNA2008, RFC 5891) or, for RFC 3987, the standard library's
IDNA2003 (RFC 3490 ToASCII).
"""

from __future__ import annotations

import encodings.idna as idna2003
import re
import unicodedata

import idna

from uri import (
    BIDI_FORMATTING,
    IPRIVATE,
    UCSCHAR,
    UNRESERVED_ASCII,
    Ref,
    in_ranges,
    pct,
    recompose,
    split,
    split_authority,
    utf8_chars,
)

# RFC 3986 §2.2 reserved.
RESERVED = frozenset(":/?#[]@!$&'()*+,;=")
# Characters allowed somewhere in a URI (RFC 3986 §2): unreserved, reserved, "%".
URI_CHARS = UNRESERVED_ASCII | RESERVED | {"%"}

# Schemes whose registered names are domain names (RFC 7230 §2.7 http and
# https, RFC 6455 §3 ws and wss, RFC 1738 §3.2 ftp): where 3987bis §3.4.2 and
# §4.2 step 7 (RFC 3987 §3.1 and §3.2) let a converter use IDNA.
DNS_SCHEMES = frozenset(["http", "https", "ws", "wss", "ftp"])


class ConversionFailed(ValueError):
    """IDNA refused a label: 3987bis §3.4.2, "the entire IRI conversion fails"."""


# ---------------------------------------------------------------- IRI → URI


def pct_encode_non_uri(text: str) -> str:
    """3987bis §3.3: every character not allowed anywhere in a URI, as the
    %HH of its UTF-8 octets (uppercase); the rest, "%" included, unchanged."""
    return "".join(c if c in URI_CHARS else pct(c.encode("utf-8", "surrogatepass")) for c in text)


def _label_to_ascii(label: str, idna_2003: bool) -> str:
    if all(ord(c) < 0x80 for c in label):
        return label
    if idna_2003:
        # RFC 3490 §4.1 ToASCII (nameprep, AllowUnassigned TRUE: RFC 3987 §3.1
        # when not creating IRIs), then UseSTD3ASCIIRules (step 3).
        try:
            out = idna2003.ToASCII(label).decode("ascii")
        except UnicodeError as e:
            raise ConversionFailed(f"ToASCII refuses {label!r}: {e}") from e
        if not re.fullmatch(r"[A-Za-z0-9-]+", out) or out.startswith("-") or out.endswith("-"):
            raise ConversionFailed(f"{label!r} breaks the STD3 rules (RFC 3490 §4.1 step 3)")
        return out
    # RFC 5891 §5.4 (validation of the U-label) and §5.5 (Punycode), no
    # mapping (§5.2 is not among the steps 3987bis §3.4.2 names).
    try:
        return idna.alabel(label).decode("ascii")
    except (idna.IDNAError, UnicodeError, ValueError) as e:
        raise ConversionFailed(f"RFC 5891 refuses {label!r}: {e}") from e


def host_to_ascii(host: str, idna_2003: bool) -> str:
    """3987bis §3.4.2 (RFC 3987 §3.1's ToASCII for `idna_2003`): the
    percent-encodings decoded when all are UTF-8, then each dot-separated
    label converted."""
    if "%" in host:
        try:
            octets = re.sub(r"%([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), host).encode(
                "latin-1"
            )
            host = octets.decode("utf-8")
        except (UnicodeError, ValueError):
            return host  # "leave the entire field as is"
    return ".".join(_label_to_ascii(label, idna_2003) for label in host.split("."))


def to_uri(text: str, profile: str) -> tuple[str, list[str]]:
    """The URI of an IRI (or LEIRI) reference: the percent-encoding of
    3987bis §3.3 on every component (§3.4.1 for the registered name, §3.6
    reassembly; LEIRI: §6.2 then §3.3, which together encode the same
    characters), and the alternatives the specs allow: the registered name of a
    DNS scheme through IDNA (3987bis §3.4.2: IDNA2008; RFC 3987 §3.1: IDNA2003
    ToASCII), when every label converts."""
    primary = pct_encode_non_uri(text)
    alternatives = []
    r = split(text)
    if r.scheme is not None and r.scheme.lower() in DNS_SCHEMES and r.authority is not None:
        userinfo, host, port = split_authority(r.authority)
        if not host.startswith("[") and (any(ord(c) >= 0x80 for c in host) or "%" in host):
            try:
                ascii_host = host_to_ascii(host, idna_2003=(profile == "rfc3987"))
            except ConversionFailed:
                ascii_host = None
            if ascii_host is not None and ascii_host != host:
                authority = (userinfo + "@" if userinfo is not None else "") + ascii_host
                authority += ":" + port if port is not None else ""
                alt = recompose(Ref(r.scheme, authority, r.path, r.query, r.fragment))
                alt = pct_encode_non_uri(alt)
                if alt != primary:
                    alternatives.append(alt)
    return primary, alternatives


# ---------------------------------------------------------------- URI → IRI


# RFC 3987 §2.2 iprivate: 3987bis's without the range %xE0000-E0FFF.
IPRIVATE_3987 = tuple(r for r in IPRIVATE if r != (0xE0000, 0xE0FFF))


def _appropriate(ch: str, component: str, profile: str = "rfc3987bis") -> bool:
    """3987bis §4.2 step 4 (RFC 3987 §3.2 step 4): a character the IRI may
    hold in `component`: §2.2 (ucschar everywhere but the scheme and port;
    iprivate in the query only, RFC 3987's without the plane-14 range) and not
    a bidi formatting character (RFC 3987 §4.1, the [Bidi] restriction
    3987bis §6.1 lifts for LEIRIs only)."""
    if ch in UNRESERVED_ASCII:
        return True
    cp = ord(ch)
    if cp < 0x80 or cp in BIDI_FORMATTING:
        return False
    if in_ranges(cp, UCSCHAR):
        return True
    private = IPRIVATE_3987 if profile == "rfc3987" else IPRIVATE
    return component == "query" and in_ranges(cp, private)


def _convert_component(text: str, component: str, profile: str) -> str:
    """Steps 2–4 and 6 on one component."""

    def sub(m: re.Match) -> str:
        triplets = [m.group(0)[i : i + 3] for i in range(0, len(m.group(0)), 3)]
        out = []
        run: list[int] = []

        def flush() -> None:
            octets = bytes(run)
            run.clear()
            for kind, value, raw in utf8_chars(octets):
                # Step 3: octets outside a strictly legal UTF-8 sequence, and
                # step 4: characters not appropriate, re-percent-encoded.
                if kind == "char" and _appropriate(value, component, profile):
                    out.append(value)
                else:
                    out.append(pct(raw))

        for t in triplets:
            b = int(t[1:], 16)
            # Step 2: not "%", reserved characters, nor US-ASCII not allowed
            # in URIs: these stay as written.
            if b < 0x80 and chr(b) not in UNRESERVED_ASCII:
                flush()
                out.append(t)
            else:
                run.append(b)
        flush()
        return "".join(out)

    return re.sub(r"(?:%[0-9A-Fa-f]{2})+", sub, text)


def _host_to_unicode(host: str, idna_2003: bool) -> str:
    """3987bis §4.2 step 7: ToUnicode on each punycode label (RFC 5891
    §5.3 A-label checks; RFC 3490 §4.2 ToUnicode for RFC 3987 §3.2), a label
    it refuses kept as it is."""
    labels = []
    for label in host.split("."):
        if label[:4].lower() == "xn--":
            try:
                label = idna2003.ToUnicode(label) if idna_2003 else idna.ulabel(label)
            except (idna.IDNAError, UnicodeError, ValueError):
                pass
        labels.append(label)
    return ".".join(labels)


def to_iri(text: str, profile: str = "rfc3987bis") -> tuple[str, list[str]]:
    """The IRI of a URI reference, 3987bis §4.2 steps 1–4, 6 and 7 (step 5,
    optional, not taken), and the alternative without step 7 (a SHOULD).
    Under `rfc3987`, RFC 3987 §3.2 steps 1–5, with ToUnicode the alternative
    (a MAY of "implementations with scheme-specific knowledge")."""
    r = split(text)
    host = userinfo = port = None
    if r.authority is not None:
        userinfo, host, port = split_authority(r.authority)
        if userinfo is not None:
            userinfo = _convert_component(userinfo, "userinfo", profile)
        host = _convert_component(host, "host", profile)

    def assemble(h: str | None) -> str:
        auth = None
        if h is not None:
            auth = (userinfo + "@" if userinfo is not None else "") + h
            auth += ":" + port if port is not None else ""
        return recompose(
            Ref(
                r.scheme,
                auth,
                _convert_component(r.path, "path", profile),
                _convert_component(r.query, "query", profile) if r.query is not None else None,
                _convert_component(r.fragment, "fragment", profile)
                if r.fragment is not None
                else None,
            )
        )

    without_step7 = assemble(host)
    if (
        host is not None
        and r.scheme is not None
        and r.scheme.lower() in DNS_SCHEMES
        and not host.startswith("[")
    ):
        with_step7 = assemble(_host_to_unicode(host, idna_2003=(profile == "rfc3987")))
        if with_step7 != without_step7:
            if profile == "rfc3987":
                return without_step7, [with_step7]
            return with_step7, [without_step7]
    return without_step7, []


def section_5_1_choice(ch: str) -> bool:
    """A character 3987bis §4.2 step 4 may re-percent-encode by choice ("results
    may vary"): one §5.1 discourages without forbidding. (b) look-alikes: a
    character with a compatibility or singleton decomposition (NFKC changes
    it: full-width and half-width forms, no-break space, ligatures, CJK
    compatibility ideographs); (c) a combining mark; (d) ZWNJ and ZWJ; and a
    character of the plane-14 range %xE0000-E0FFF, which 3987bis's iprivate
    allows and RFC 3987's forbids (tags, variation selectors)."""
    cp = ord(ch)
    return (
        unicodedata.normalize("NFKC", ch) != ch
        or unicodedata.category(ch) in ("Mn", "Mc", "Me")
        or cp in (0x200C, 0x200D)
        or 0xE0000 <= cp <= 0xE0FFF
    )


def decode_choices(text: str, profile: str = "rfc3987bis") -> str:
    """Decodes, in every component of an IRI reference, the percent-encoded
    UTF-8 sequences of characters that are §5.1 choices (above) and
    appropriate there: an IRI that kept some of them encoded becomes the one
    that kept none."""
    r = split(text)

    def dec(part: str | None, component: str) -> str | None:
        if part is None:
            return None

        def sub(m: re.Match) -> str:
            triplets = [m.group(0)[i : i + 3] for i in range(0, len(m.group(0)), 3)]
            octets = bytes(int(t[1:], 16) for t in triplets)
            out, used = [], 0
            for kind, value, raw in utf8_chars(octets):
                written = "".join(triplets[used : used + len(raw)])
                used += len(raw)
                if (
                    kind == "char"
                    and section_5_1_choice(value)
                    and _appropriate(value, component, profile)
                ):
                    out.append(value)
                else:
                    out.append(written)
            return "".join(out)

        return re.sub(r"(?:%[0-9A-Fa-f]{2})+", sub, part)

    authority = None
    if r.authority is not None:
        userinfo, host, port = split_authority(r.authority)
        authority = (dec(userinfo, "userinfo") + "@" if userinfo is not None else "") + dec(
            host, "host"
        )
        authority += ":" + port if port is not None else ""
    return recompose(
        Ref(
            r.scheme,
            authority,
            dec(r.path, "path"),
            dec(r.query, "query"),
            dec(r.fragment, "fragment"),
        )
    )
