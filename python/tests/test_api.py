"""The module-level API: parse, errors, operations, check."""

import pytest

import iribis
from conftest import vectors


def test_components_absent_and_empty():
    r = iribis.parse("http://user@例え.jp:8080/a/b?q=1#top")
    assert (r.scheme, r.authority, r.userinfo, r.host, r.port, r.port_number) == (
        "http",
        "user@例え.jp:8080",
        "user",
        "例え.jp",
        "8080",
        8080,
    )
    assert (r.host_type, r.path, r.query, r.fragment) == ("reg-name", "/a/b", "q=1", "top")
    assert str(r) == "http://user@例え.jp:8080/a/b?q=1#top"
    empty = iribis.parse("http://h:?#")
    assert (empty.port, empty.port_number, empty.path, empty.query, empty.fragment) == (
        "",
        None,
        "",
        "",
        "",
    )
    bare = iribis.parse("mailto:a@example.org")
    assert (bare.authority, bare.host, bare.host_type, bare.port, bare.query) == (None,) * 5
    assert iribis.parse("").path == ""
    assert iribis.parse("file:///x").authority == ""
    assert iribis.parse("http://h:99999/").port_number is None


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("http://192.0.2.1/", "IPv4address"),
        ("http://[::1]/", "IPv6address"),
        ("http://[v1F.x:y]/", "IPvFuture"),
        ("http://256.1.1.1/", "reg-name"),
    ],
)
def test_host_type(text, kind):
    assert iribis.parse(text).host_type == kind


def test_rules_and_profiles():
    assert iribis.parse("http://h/#f", rule="IRI").fragment == "f"
    assert iribis.parse("http://h/#f", rule="IRI_reference").fragment == "f"
    with pytest.raises(iribis.ParseError):
        iribis.parse("http://h/#f", rule="absolute-IRI")
    with pytest.raises(iribis.ParseError):
        iribis.parse("http://h/", rule="irelative-ref")
    auth = iribis.parse("user@[::1]:80", rule="iauthority")
    assert (auth.userinfo, auth.host, auth.host_type, auth.port_number, auth.path) == (
        "user",
        "[::1]",
        "IPv6address",
        80,
        None,
    )
    assert iribis.is_valid("http://h/a b", profile="leiri")
    assert not iribis.is_valid("http://h/a b")
    assert iribis.is_valid("http://h/", rule="URI")
    assert not iribis.is_valid("http://例え.jp/", rule="URI")
    assert not iribis.is_valid("http://例え.jp/", rule="URI-reference")
    assert iribis.is_valid("http://h/?\U000e0041")
    assert not iribis.is_valid("http://h/?\U000e0041", profile="rfc3987")


def test_unknown_names_are_value_errors():
    with pytest.raises(ValueError, match="unknown rule"):
        iribis.is_valid("a", rule="no-such-rule")
    with pytest.raises(ValueError, match="unknown profile"):
        iribis.parse("a", profile="rfc3988")
    with pytest.raises(ValueError, match="rfc3986 profile has no rule ihost"):
        iribis.parse("a", rule="ihost", profile="rfc3986")
    with pytest.raises(ValueError, match="unknown normalization level"):
        iribis.normalize("a", level="exact")
    with pytest.raises(ValueError, match="unknown severity preset"):
        iribis.check("a", severities="lenient")
    with pytest.raises(ValueError, match="unknown code"):
        iribis.check("a", severities={"NO_SUCH_CODE": "allow"})
    with pytest.raises(ValueError, match="unknown severity"):
        iribis.check("a", severities={"DOT_SEGMENT": "fatal"})
    with pytest.raises(TypeError):
        iribis.check("a", severities=3)


def test_is_valid_keywords():
    # A keyword left out, or given as None, takes its default, which the
    # signature names.
    assert iribis.is_valid("//h/p")
    assert iribis.is_valid("http://例え.jp/", rule=None, profile=None)
    assert not iribis.is_valid("//h/p", rule="IRI")
    assert not iribis.is_valid("//h/p", rule="IRI", profile=None)
    assert not iribis.is_valid("http://例え.jp/", profile="rfc3986")
    assert not iribis.is_valid("http://例え.jp/", rule=None, profile="rfc3986")
    assert iribis.is_valid("http://h/" + "a" * 100 + "?" + "b" * 100)
    assert not iribis.is_valid("http://h/" + "a" * 100 + "?" + "b" * 99 + " ")
    assert iribis.is_valid.__text_signature__ == "(s, *, rule='IRI-reference', profile='rfc3987bis')"
    with pytest.raises(ValueError, match="unknown rule"):
        iribis.is_valid("a", rule="no-such-rule")
    with pytest.raises(ValueError, match="unknown profile"):
        iribis.is_valid("a", profile="rfc1738")


def test_parse_error():
    with pytest.raises(iribis.ParseError) as info:
        iribis.parse("http://例え.jp/a b?q#f")
    e = info.value
    assert isinstance(e, ValueError)
    assert (e.byte, e.char, e.component) == (18, 14, "path")
    assert e.message == "a space is not allowed in a path: percent-encode it as %20"
    assert str(e) == (
        "invalid IRI reference at character 14: "
        "a space is not allowed in a path: percent-encode it as %20"
    )
    # The one list of every surface (`iri parse --json` gives the same).
    assert e.expected == ['"#"', '"?"', "path-sep", "ipchar", "the end"]
    assert e.spec == "3987bis §2.2"
    assert e.input == "http://例え.jp/a b?q#f"
    port = pytest.raises(iribis.ParseError, iribis.parse, "http://[::1]:8o/").value
    assert (port.byte, port.component) == (14, "port")
    end = pytest.raises(iribis.ParseError, iribis.parse, "http://[::1").value
    assert (end.byte, end.char) == (11, 11)


def test_iriref_equality_and_hash():
    a = iribis.parse("http://h/")
    assert a == iribis.parse("http://h/")
    assert a == "http://h/"
    assert a != "http://h"
    assert a != 3
    assert {a: 1}["http://h/"] == 1
    assert repr(a) == "IriRef('http://h/')"


def test_resolve_vectors():
    cases = vectors("resolve")
    assert len(cases) > 50
    for v in cases:
        assert iribis.resolve(v["base"], v["ref"]) == v["expected"], v


def test_resolve_errors():
    with pytest.raises(ValueError, match="relative reference"):
        iribis.resolve("/relative/base", "g")
    with pytest.raises(iribis.ParseError):
        iribis.resolve("http://a/b", "c d")
    with pytest.raises(iribis.ParseError):
        iribis.resolve("http://a b/", "c")
    assert iribis.resolve("http://a/b", "http:g") == "http:g"
    assert iribis.resolve("http://a/b", "http:g", strict=False) == "http://a/g"


def test_relativize_round_trips(corpus):
    base = "http://a/b/c/d;p?q"
    for target in ["http://a/b/e/f?x#y", "http://a/b/c/d;p?q#f", "https://other/", "http://a/"]:
        r = iribis.relativize(base, target)
        assert iribis.resolve(base, r) == target
        assert len(r) <= len(target)
    with pytest.raises(ValueError, match="relative reference"):
        iribis.relativize(base, "../x")


def test_normalize_and_compare():
    assert iribis.normalize("HTTP://www.Example.ORG/%7euser/./ros%c3%a9/../x") == (
        "http://www.example.org/~user/x"
    )
    assert iribis.normalize("HTTP://h:80", level="scheme") == "http://h/"
    assert iribis.normalize("HTTP://h:80", level="simple") == "HTTP://h:80"
    assert iribis.compare("http://a/", "http://a/") == "simple"
    assert iribis.compare("http://a/~x", "http://a/%7Ex") == "syntax"
    assert iribis.compare("http://a/", "http://a:80/") == "scheme"
    assert iribis.compare("http://a/", "http://a:80/", level="syntax") is None
    assert iribis.compare("http://a/", "http://a/#f") is None
    assert iribis.compare("http://a/", "http://a/#f", ignore_fragment=True) == "simple"
    with pytest.raises(iribis.ParseError):
        iribis.compare("http://a/", "a b")


def test_conversion_vectors():
    for v in vectors("to_uri"):
        profile = v.get("profile", "rfc3987bis")
        assert iribis.to_uri(v["input"], profile=profile) == v["expected"], v
    for v in vectors("to_iri"):
        assert iribis.to_iri(v["input"]) == v["expected"], v


def test_conversion_options_and_errors():
    assert iribis.to_uri("http://résumé.example.org/", idna=True) == (
        "http://xn--rsum-bpad.example.org/"
    )
    assert iribis.to_uri("http://h/?q=é", query_charset="windows-1252") == "http://h/?q=%E9"
    assert iribis.to_uri("http://h/?q=é", query_charset="utf-8") == "http://h/?q=%C3%A9"
    with pytest.raises(ValueError, match="no charset"):
        iribis.to_uri("http://h/", query_charset="no-such-charset")
    with pytest.raises(ValueError, match="IDNA rejects"):
        iribis.to_uri("http://ü-.example/", idna=True)
    with pytest.raises(iribis.ParseError):
        iribis.to_uri("http://h/a b")
    assert iribis.to_uri("http://h/a b", profile="leiri") == "http://h/a%20b"
    assert iribis.to_iri("http://xn--bcher-kva.de/") == "http://bücher.de/"
    assert iribis.to_iri("http://xn--bcher-kva.de/", idna=False) == "http://xn--bcher-kva.de/"
    with pytest.raises(iribis.ParseError):
        iribis.to_iri("http://h/%zz")


def test_check():
    found = iribis.check("HTTP://example.org:80/a/./b?%7e")
    assert [v.code for v in found] == [
        "UPPERCASE_SCHEME",
        "DEFAULT_PORT",
        "DOT_SEGMENT",
        "PERCENT_ENCODED_UNRESERVED",
        "PERCENT_ENCODING_LOWERCASE",
    ]
    dot = found[2]
    assert (dot.byte, dot.char, dot.len, dot.component) == (24, 24, 1, "path")
    assert dot.severity == "warning"
    assert dot.spec and dot.message
    bidi = iribis.check("http://example.org/a\u202eb")
    assert any(v.severity == "error" for v in bidi)
    syntax = iribis.check("http://h/a b")
    assert [(v.code, v.byte, v.component) for v in syntax] == [("SYNTAX_ERROR", 10, "path")]
    assert [v.severity for v in iribis.check("http://example.org:80/")] == ["info"]
    strict = iribis.check("http://example.org:80/", severities="strict")
    assert [v.severity for v in strict] == ["warning"]
    assert iribis.check("http://example.org:80/", severities={"DEFAULT_PORT": "allow"}) == []
    mixed = iribis.check(
        "http://example.org:80/", severities={"preset": "strict", "DEFAULT_PORT": "info"}
    )
    assert [v.severity for v in mixed] == ["info"]
    assert iribis.check("http://h/./a", severities="strict")[0].severity == "error"
    assert iribis.check("http://h/a b", profile="leiri")[0].code != "SYNTAX_ERROR"


def test_check_vectors():
    known = {"http://example.org/#André"}  # crates/suite/data/conformance/known-differences.txt
    for v in vectors("syntax"):
        codes = [x.code for x in iribis.check(v["input"])]
        if v["rule"] == "IRI-reference":
            assert ("SYNTAX_ERROR" not in codes) == v["valid"], v
        if "check" in v and v["input"] not in known:
            assert set(v["check"]) <= set(codes), v


def test_syntax_vectors():
    cases = vectors("syntax")
    assert len(cases) > 100
    for v in cases:
        assert iribis.is_valid(v["input"], rule=v["rule"]) == v["valid"], v
