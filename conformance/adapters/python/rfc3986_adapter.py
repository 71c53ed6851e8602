"""Adapter for the PyPI package rfc3986 (python-hyper): URI references of
RFC 3986, and its IRIReference for RFC 3987."""

import rfc3986
from rfc3986 import validators

from protocol import UNSUPPORTED, serve

IRI_PROFILES = ("rfc3987", "rfc3987bis")


def reference(text, profile):
    if profile in IRI_PROFILES:
        return rfc3986.iri_reference(text)
    return rfc3986.uri_reference(text)


def is_valid(ref, **require):
    v = validators.Validator().check_validity_of(
        "scheme", "userinfo", "host", "port", "path", "query", "fragment")
    for k in require:
        v = v.require_presence_of(k)
    try:
        v.validate(ref)
        return True
    except Exception:
        return False


def answer(r):
    op, profile, text = r["op"], r["profile"], r["input"]
    if profile not in IRI_PROFILES + ("rfc3986",):
        return UNSUPPORTED
    ref = reference(text, profile)
    if op == "valid":
        rule = r.get("rule")
        if rule in ("URI-reference", "IRI-reference"):
            return {"valid": is_valid(ref)}
        if rule in ("URI", "IRI"):
            return {"valid": is_valid(ref, scheme=True)}
        if rule in ("absolute-URI", "absolute-IRI"):
            return {"valid": is_valid(ref, scheme=True) and ref.fragment is None}
        if rule in ("relative-ref", "irelative-ref"):
            return {"valid": is_valid(ref) and ref.scheme is None}
        return UNSUPPORTED
    if op == "components":
        if not is_valid(ref):
            return {"error": "invalid"}
        return {"components": {
            "scheme": ref.scheme, "authority": ref.authority,
            "userinfo": ref.userinfo, "host": ref.host, "port": ref.port,
            "path": ref.path if ref.path is not None else "",
            "query": ref.query, "fragment": ref.fragment,
        }}
    if op == "resolve":
        # The base as a URIReference, for IRIs too: IRIReference has no
        # normalize(), which resolve_with calls on its base.
        base = rfc3986.uri_reference(r["base"])
        return {"result": ref.resolve_with(base).unsplit()}
    if op == "normalize" and profile == "rfc3986":
        return {"result": ref.normalize().unsplit()}
    if op == "to-uri" and profile in IRI_PROFILES:
        return {"result": ref.encode().unsplit()}
    return UNSUPPORTED


if __name__ == "__main__":
    serve(answer)
