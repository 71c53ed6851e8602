"""iribis.rfc3987 against the rfc3987 package itself (GPL-3.0: installed in the
test environment as an oracle only, never vendored).

On the corpora, where RFC 3987 and 3987bis agree, the two give the same
verdicts, dicts and resolutions. Every input where they differ is listed in
KNOWN with the reason (docs/python.md explains each); a listed input that
starts to agree fails, so the list stays exact.
"""

import pytest

from conftest import vectors
from iribis import rfc3987 as ours

theirs = pytest.importorskip("rfc3987")

RULES = ["IRI_reference", "IRI", "absolute_IRI", "irelative_ref", "URI_reference", "URI"]
BASE = "http://a/b/c/d;p?q"

LEADING_ZERO = "the package's IPv4 inside IPv6 takes leading zeros; dec-octet does not"
IPVFUTURE = "'v' of IPvFuture is case-insensitive (RFC 5234 §2.3); the package takes only 'v'"
NEWLINE = "the package's '$' matches before a final newline; a newline is not in any rule"
TAGS = "3987bis adds U+E0000-E0FFF to iprivate (query only); RFC 3987 does not"
#: Input -> (reason, the rules where the two differ).
KNOWN = {
    "http://[::ffff:001.02.03.004]/": (LEADING_ZERO, "IRI_reference IRI absolute_IRI URI_reference URI"),
    "http://[::ffff:192.168.0.01]": (LEADING_ZERO, "IRI_reference IRI absolute_IRI URI_reference URI"),
    "http://[::ffff:01.2.3.4]": (LEADING_ZERO, "IRI_reference IRI absolute_IRI URI_reference URI"),
    "http://[V0.a]/": (IPVFUTURE, "IRI_reference IRI absolute_IRI URI_reference URI"),
    "\n": (NEWLINE, "IRI_reference irelative_ref URI_reference"),
    "http://ƒøø.ßår/\n": (NEWLINE, "IRI_reference IRI absolute_IRI"),
    "http://a/?x\U000e0000y": (TAGS, "IRI_reference IRI absolute_IRI"),
    "http://a/?x\U000e0fffy": (TAGS, "IRI_reference IRI absolute_IRI"),
}
#: (base, reference) -> reason, for resolve.
KNOWN_RESOLVE = {
    ("http://a/b/c/d/e/../..", ""): "RFC 3986 §5.2.2 keeps the base path of an empty reference "
    "as it is; the package removes its dot segments",
    ("a:/", "/.//."): "the package writes 'a://', which reads back with an authority; "
    "iribis writes 'a:/.//' (docs/resolution.md)",
}


def shape(d):
    """The package's dict as our drop-in gives it: without the ``regex``
    module (what ``pip install rfc3987`` gives) it has exactly the five keys;
    with it, the named groups of the rule's pattern too."""
    if isinstance(d, dict) and theirs.REGEX:
        return {k: d.get(k) for k in ("scheme", "authority", "path", "query", "fragment")}
    return d


def outcome(f, *args, **kw):
    try:
        return f(*args, **kw)
    except ValueError as e:
        return type(e)


@pytest.mark.parametrize("rule", RULES)
def test_corpus_verdicts_and_dicts(corpus, rule):
    assert len(corpus) == 2000
    for s in corpus:
        verdict = theirs.match(s, rule) is not None
        assert (ours.match(s, rule) is not None) == verdict, s
        if verdict:
            assert ours.parse(s, rule) == shape(theirs.parse(s, rule)), s
            assert ours.compose(**ours.parse(s, rule)) == s
        else:
            with pytest.raises(ValueError, match="is not a valid"):
                ours.parse(s, rule)


def test_vectors_differ_only_where_known():
    inputs = sorted({v["input"] for v in vectors("syntax")} | set(KNOWN))
    differ = {}
    for s in inputs:
        rules = [r for r in RULES if bool(ours.match(s, r)) != bool(theirs.match(s, r))]
        if rules:
            differ[s] = " ".join(rules)
    assert differ == {s: rules for s, (_, rules) in KNOWN.items()}


def test_resolve_agrees_on_corpus(corpus):
    for base in [BASE, "urn:a:b", "foo:a/b", "http://例え.jp/a/"]:
        for s in corpus:
            for strict in (True, False):
                for parts in (True, False):
                    expected = shape(outcome(theirs.resolve, base, s, strict, parts))
                    assert outcome(ours.resolve, base, s, strict, parts) == expected, (base, s)


def test_resolve_vectors_differ_only_where_known():
    differ = {}
    for v in vectors("resolve"):
        mine = ours.resolve(v["base"], v["ref"])
        assert mine == v["expected"], v
        if outcome(theirs.resolve, v["base"], v["ref"]) != mine:
            differ[(v["base"], v["ref"])] = mine
    assert set(differ) == set(KNOWN_RESOLVE)


def test_resolve_dicts_and_errors():
    parts = theirs.parse("../g?y#s")
    assert ours.resolve(BASE, parts) == theirs.resolve(BASE, parts) == "http://a/b/g?y#s"
    base = theirs.parse(BASE, "IRI")
    assert ours.resolve(base, "g", return_parts=True) == shape(
        theirs.resolve(base, "g", return_parts=True)
    )
    for base, ref in [("/relative", "g"), ("http://a b/", "g"), (BASE, "a b")]:
        assert outcome(ours.resolve, base, ref) is outcome(theirs.resolve, base, ref) is ValueError


def test_rules_by_package_name():
    for rule in ["pct_encoded", "IPv6address", "ihost", "ipath_abempty", "ucschar", "hexdig"]:
        for s in ["%C7", "::1", "例え.jp", "/a/b", "é", "F", "a b"]:
            assert bool(ours.match(s, rule)) == bool(theirs.match(s, rule)), (rule, s)
    with pytest.raises(KeyError):
        theirs.match("a", "no_such_rule")
    with pytest.raises(KeyError):
        ours.match("a", "no_such_rule")
    with pytest.raises(ValueError):
        ours.parse("a", "no_such_rule")


def test_match_object():
    m = ours.match("http://h/p?q#f")
    assert m and m.group() == m.group(0) == m[0] == "http://h/p?q#f"
    assert m.span() == (0, 14) and (m.start(), m.end()) == (0, 14)
    assert m.group("query", "fragment") == ("q", "f")
    assert m.groupdict() == shape(theirs.parse("http://h/p?q#f"))
    with pytest.raises(IndexError):
        m.group("nope")


@pytest.mark.parametrize(
    "s", ["", "a b", "http://a/b\n", "//h", "?#", "a:b:c", "http://h:/?", "#", "a//b", "x://"]
)
def test_non_validating_split(s):
    assert ours.parse(s, rule=None) == theirs.parse(s, rule=None)


def test_compose_aliases():
    kw = {"scheme": "a", "authority": "h", "path": "/p", "query": "", "fragment": "f", "x": 1}
    assert ours.compose(**kw) == theirs.compose(**kw) == "a://h/p?#f"
    assert ours.compose() == theirs.compose() == ""
    # The i-names stand in for the plain ones, as the package's signature
    # promises; the package itself drops them (a known difference).
    inames = {"scheme": "a", "iauthority": "h", "ipath": "/p", "iquery": "", "ifragment": "f"}
    assert ours.compose(**inames) == "a://h/p?#f"
    assert theirs.compose(**inames) == "a:"
