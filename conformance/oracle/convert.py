"""IRI → URI (draft-ietf-iri-3987bis-13 §3.3–§3.6, RFC 3987 §3.1; LEIRI → IRI
§6.2) and URI → IRI (3987bis §4.2), with hosts through Python's `idna`
package (IDNA2008, RFC 5891) or, for RFC 3987, the standard library's
IDNA2003 (RFC 3490 ToASCII).
"""

from __future__ import annotations

import encodings.idna as idna2003
import re
import stringprep
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


# ---------------------------------------------------------------- §3.5

# WHATWG Encoding Standard labels (https://encoding.spec.whatwg.org/#names-and-labels,
# the labels a `charset` key names) of the encodings the oracle knows, each to
# the Python codec that encodes like it. "utf-8" and the UTF-16 encodings are
# based on UCS: §3.5 does not apply to them (and a URL's query is never
# encoded in UTF-16), so they map to None. windows-1252 is what the labels of
# ISO-8859-1 and US-ASCII name; Shift_JIS and EUC-KR encode as Windows-31J
# and windows-949 do.
_WHATWG = {
    None: "unicode-1-1-utf-8 unicode11utf8 unicode20utf8 utf-8 utf8 x-unicode20utf8 "
    "csunicode iso-10646-ucs-2 ucs-2 unicode unicodefeff utf-16 utf-16le utf-16be unicodefffe",
    "cp1252": "ansi_x3.4-1968 ascii cp1252 cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 "
    "iso8859-1 iso88591 iso_8859-1 iso_8859-1:1987 l1 latin1 us-ascii windows-1252 x-cp1252",
    "cp932": "csshiftjis ms932 ms_kanji shift-jis shift_jis sjis windows-31j x-sjis",
    "cp949": "cseuckr csksc56011987 euc-kr iso-ir-149 korean ks_c_5601-1987 ks_c_5601-1989 "
    "ksc5601 ksc_5601 windows-949",
    "euc_jp": "cseucpkdfmtjapanese euc-jp x-euc-jp",
    "gbk": "chinese csgb2312 csiso58gb231280 gb2312 gb_2312 gb_2312-80 gbk iso-ir-58 x-gbk",
    "gb18030": "gb18030",
    "big5hkscs": "big5 big5-hkscs cn-big5 csbig5 x-x-big5",
    "koi8_r": "cskoi8r koi koi8 koi8-r koi8_r",
    "koi8_u": "koi8-ru koi8-u",
    "iso8859_2": "csisolatin2 iso-8859-2 iso-ir-101 iso8859-2 iso88592 iso_8859-2 l2 latin2",
    "iso8859_5": "csisolatincyrillic cyrillic iso-8859-5 iso-ir-144 iso8859-5 iso88595 iso_8859-5",
    "iso8859_7": "csisolatingreek ecma-118 elot_928 greek greek8 iso-8859-7 iso-ir-126 "
    "iso8859-7 iso88597 iso_8859-7 sun_eu_greek",
    "iso8859_15": "csisolatin9 iso-8859-15 iso8859-15 iso885915 iso_8859-15 l9",
    **{f"cp125{n}": f"cp125{n} windows-125{n} x-cp125{n}" for n in (0, 1, 3, 4, 5, 6, 7, 8)},
}
WHATWG_LABELS = {label: codec for codec, labels in _WHATWG.items() for label in labels.split()}


class UnknownCharset(ValueError):
    """A label the oracle's table does not have."""


class Unencodable(ValueError):
    """A character of the query the document charset cannot encode: §3.5
    does not say what to do (browsers' forms write an HTML character
    reference; a converter may also fail)."""


def query_codec(label: str) -> str | None:
    """The Python codec of a WHATWG label (ASCII whitespace trimmed, case
    ignored), None for a charset based on UCS."""
    key = label.strip("\t\n\f\r ").lower()
    if key not in WHATWG_LABELS:
        raise UnknownCharset(label)
    return WHATWG_LABELS[key]


def pct_encode_query(query: str, codec: str, keep_unreserved: bool) -> str:
    """3987bis §3.5 with §3.3: each character of the query not allowed in a
    URI converted to octets in the document charset, each octet as %HH.
    `keep_unreserved`: octets of unreserved characters (the ASCII trail
    byte of a double-byte character) written as those characters, which
    RFC 3986 §2.3 makes equivalent."""
    out = []
    for c in query:
        if c in URI_CHARS:
            out.append(c)
            continue
        try:
            octets = c.encode(codec)
        except UnicodeEncodeError as e:
            raise Unencodable(c) from e
        for b in octets:
            ch = chr(b)
            out.append(ch if keep_unreserved and ch in UNRESERVED_ASCII else f"%{b:02X}")
    return "".join(out)


def to_uri_in(text: str, profile: str, charset: str) -> tuple[list[str], list[str]]:
    """IRI → URI of an IRI read from a document in `charset` (3987bis §3.5:
    for http and https, the query in the document charset before
    percent-encoding; everything else as §3.3). Returns the answers the text
    gives (each octet as %HH; the same with unreserved octets written as
    characters, RFC 3986 §2.3) and the IDNA alternatives. Raises
    UnknownCharset, Unencodable."""
    codec = query_codec(charset)
    r = split(text)
    primary, alternatives = to_uri(text, profile)
    if codec is None or r.scheme is None or r.scheme.lower() not in ("http", "https"):
        return [primary], alternatives
    if r.query is None:
        return [primary], alternatives

    def with_query(uri_text: str, keep: bool) -> str:
        u = split(uri_text)
        # The query of the URI is the IRI's with its non-URI characters
        # encoded: map the IRI's query instead.
        return recompose(
            Ref(u.scheme, u.authority, u.path, pct_encode_query(r.query, codec, keep), u.fragment)
        )

    answers = []
    for keep in (False, True):
        a = with_query(primary, keep)
        if a not in answers:
            answers.append(a)
    alts = []
    for alt in alternatives:
        for keep in (False, True):
            a = with_query(alt, keep)
            if a not in alts and a not in answers:
                alts.append(a)
    return answers, alts


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


# The ASCII characters whose look-alikes §5.1 (b) names: space, RFC 3986's
# delimiters, and the characters RFC 2396 called "unwise" and "delims".
_LOOKALIKE_OF = " :/?#[]@!$&'()*+,;=<>\"{}|\\^`%"
# Their Unicode names, and "SLASH", the name "/" is known by: a symbol or
# punctuation named after one of them is a look-alike (FRACTION SLASH,
# DIVISION SLASH, SMALL COLON...).
_LOOKALIKE_NAMES = {unicodedata.name(c) for c in _LOOKALIKE_OF} | {"SLASH"}

# Unicode's Bidi_Control characters (PropList.txt): the seven RFC 3987 §4.1
# lists, and ALM and the isolates (LRI, RLI, FSI, PDI), which came later.
BIDI_CONTROL = frozenset([0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
                          0x2066, 0x2067, 0x2068, 0x2069])  # fmt: skip


def lookalike(ch: str) -> bool:
    """3987bis §5.1 (b), as far as the text decides: a character with a
    compatibility decomposition (full-width and half-width forms, the
    no-break space: NFKC changes it), one of the characters RFC 3491
    (Nameprep) excludes (RFC 3454 tables C.1.2 and C.2.2, by the standard
    library's `stringprep`), or a symbol or punctuation named after space or
    a delimiter."""
    if unicodedata.normalize("NFKC", ch) != ch:
        return True
    if stringprep.in_table_c12(ch) or stringprep.in_table_c22(ch):
        return True
    if unicodedata.category(ch)[0] in "SP" and ord(ch) >= 0x80:
        name = unicodedata.name(ch, "")
        return any(n in name for n in _LOOKALIKE_NAMES)
    return False


def section_5_1_choice(ch: str, at_start: bool = True) -> bool:
    """A character 3987bis §4.2 step 4 may re-percent-encode by choice ("results
    may vary"): one §5.1 discourages without forbidding. (b) look-alikes
    (above); (c) a combining mark (general category M*) at the start of a
    component (`at_start`); (d) ZWNJ and ZWJ; a bidi formatting character
    RFC 3987 §4.1's list does not name (ALM, the isolates: formatting
    characters all the same, Bidi_Control); and a character of the plane-14
    range %xE0000-E0FFF, which 3987bis's iprivate allows and RFC 3987's
    forbids (tags, variation selectors)."""
    cp = ord(ch)
    return (
        lookalike(ch)
        or (at_start and unicodedata.category(ch) in ("Mn", "Mc", "Me"))
        or cp in (0x200C, 0x200D)
        or cp in BIDI_CONTROL
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
            # §5.1 (c): the start of a component, or of a path segment.
            at_start = m.start() == 0 or part[m.start() - 1] == "/"
            for kind, value, raw in utf8_chars(octets):
                written = "".join(triplets[used : used + len(raw)])
                first = used == 0
                used += len(raw)
                if (
                    kind == "char"
                    and section_5_1_choice(value, at_start and first)
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
