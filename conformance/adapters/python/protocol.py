"""The adapter protocol of the iribis conformance suite (conformance/README.md):
one JSON request per line on standard input, one JSON answer per line on
standard output, in order, flushed after each."""

import json
import sys


def serve(answer):
    """Answers each request with answer(request) -> dict (without the id).
    An exception of the implementation under test is an `error` answer."""
    out = sys.stdout
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            request = json.loads(line)
        except ValueError as e:
            reply = {"id": "", "error": "malformed request: %s" % e}
        else:
            try:
                reply = answer(request)
            except Exception as e:  # the implementation refused or failed
                reply = {"error": "%s: %s" % (type(e).__name__, e)}
            reply = dict(id=request.get("id", ""), **reply)
        out.write(json.dumps(reply, ensure_ascii=False) + "\n")
        out.flush()


UNSUPPORTED = {"unsupported": True}


def none_if_empty(s):
    return s if s else None
