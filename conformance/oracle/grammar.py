"""The four profiles' grammars, read from the repository's ABNF files.

grammar/abnf/ holds the ABNF as printed (draft-ietf-iri-3987bis-13 §2.2 and
§6.1, RFC 3986 Appendix A) and, per profile, the rules that replace printed
ones; grammar/README.md lists which files make which profile, a later file's
rule replacing an earlier one of the same name.
"""

from __future__ import annotations

from pathlib import Path

from abnf import Grammar

FILES = {
    "rfc3987bis": ["3987bis.abnf", "3987bis-errata.abnf"],
    "rfc3987": ["3987bis.abnf", "3987bis-errata.abnf", "rfc3987.abnf"],
    "leiri": ["3987bis.abnf", "3987bis-errata.abnf", "leiri.abnf"],
    "rfc3986": ["rfc3986.abnf"],
}

# The rule a whole reference matches, per profile.
REFERENCE = {
    "rfc3987bis": "IRI-reference",
    "rfc3987": "IRI-reference",
    "leiri": "IRI-reference",
    "rfc3986": "URI-reference",
}

_cache: dict[tuple[str, str], Grammar] = {}


def default_abnf_dir() -> Path:
    """grammar/abnf/ of the repository this file is in."""
    return Path(__file__).resolve().parents[2] / "grammar" / "abnf"


def grammar(profile: str, abnf_dir: Path | None = None) -> Grammar:
    """The grammar of `profile` (one of FILES), read once."""
    d = Path(abnf_dir) if abnf_dir else default_abnf_dir()
    key = (profile, str(d))
    if key not in _cache:
        if profile not in FILES:
            raise KeyError(profile)
        _cache[key] = Grammar([(d / f).read_text(encoding="utf-8") for f in FILES[profile]])
    return _cache[key]
