"""Adapter for Python's standard urllib.parse (urlsplit, urljoin). It does not
validate, and its split has no absent component: an empty query or fragment
reads as absent (None here)."""

from urllib.parse import urljoin, urlsplit

from protocol import UNSUPPORTED, none_if_empty, serve


def answer(r):
    op, profile, text = r["op"], r["profile"], r["input"]
    if profile not in ("rfc3986", "rfc3987", "rfc3987bis"):
        return UNSUPPORTED
    if op == "components":
        s = urlsplit(text)
        userinfo = None
        if s.username is not None:
            userinfo = s.username + (":" + s.password if s.password is not None else "")
        port = s.port  # raises ValueError for a port that is not a number
        return {"components": {
            "scheme": none_if_empty(s.scheme),
            "authority": none_if_empty(s.netloc),
            "userinfo": userinfo,
            "host": s.hostname,
            "port": None if port is None else str(port),
            "path": s.path,
            "query": none_if_empty(s.query),
            "fragment": none_if_empty(s.fragment),
        }}
    if op == "resolve":
        return {"result": urljoin(r["base"], text)}
    return UNSUPPORTED


if __name__ == "__main__":
    serve(answer)
