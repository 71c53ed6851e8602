"""Adapter for the PyPI package rfc3986-validator (a regular expression of
RFC 3986 Appendix A): validity of URI and URI-reference."""

from rfc3986_validator import validate_rfc3986

from protocol import UNSUPPORTED, serve

RULES = {"URI": "URI", "URI-reference": "URI_reference"}


def answer(r):
    if r["op"] != "valid" or r["profile"] != "rfc3986" or r.get("rule") not in RULES:
        return UNSUPPORTED
    return {"valid": bool(validate_rfc3986(r["input"], rule=RULES[r["rule"]]))}


if __name__ == "__main__":
    serve(answer)
