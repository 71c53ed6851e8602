"""Adapter for the PyPI package rfc3987 (regular expressions for every rule of
RFC 3987 §2.2 and RFC 3986 Appendix A)."""

import rfc3987

from protocol import UNSUPPORTED, serve

IRI_PROFILES = ("rfc3987", "rfc3987bis")


def answer(r):
    op, profile, text = r["op"], r["profile"], r["input"]
    if profile not in IRI_PROFILES + ("rfc3986",):
        return UNSUPPORTED
    if op == "valid":
        rule = (r.get("rule") or "").replace("-", "_")
        # The package names the URI rules without the "i": under rfc3986
        # the request's rule is already a URI rule.
        if rule not in rfc3987.patterns:
            return UNSUPPORTED
        return {"valid": rfc3987.match(text, rule) is not None}
    if op == "components":
        rule = "IRI_reference" if profile in IRI_PROFILES else "URI_reference"
        p = rfc3987.parse(text, rule)
        i = "i" if profile in IRI_PROFILES else ""
        return {"components": {
            "scheme": p["scheme"],
            "authority": p[i + "authority"],
            "userinfo": p[i + "userinfo"] if i else p.get("userinfo"),
            "host": p[i + "host"] if i else p.get("host"),
            "port": p["port"],
            "path": p[i + "path"] if i else p.get("path"),
            "query": p[i + "query"] if i else p.get("query"),
            "fragment": p[i + "fragment"] if i else p.get("fragment"),
        }}
    if op == "resolve":
        return {"result": rfc3987.resolve(r["base"], text)}
    return UNSUPPORTED


if __name__ == "__main__":
    serve(answer)
