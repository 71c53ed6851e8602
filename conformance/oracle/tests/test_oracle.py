"""The oracle on hand cases from the spec texts: each expected value is printed
in the section named beside it."""

from __future__ import annotations

import json

import pytest

import check
import uri
from abnf import AbnfError, Grammar, read_rules
from convert import decode_choices, to_iri, to_uri
from grammar import grammar

BASE = "http://a/b/c/d;p?q"

# RFC 3986 §5.4.1.
NORMAL = [
    ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"),
    ("g/", "http://a/b/c/g/"), ("/g", "http://a/g"), ("//g", "http://g"),
    ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
    ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"),
    ("g?y#s", "http://a/b/c/g?y#s"), (";x", "http://a/b/c/;x"),
    ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
    ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"),
    ("..", "http://a/b/"), ("../", "http://a/b/"), ("../g", "http://a/b/g"),
    ("../..", "http://a/"), ("../../", "http://a/"), ("../../g", "http://a/g"),
]  # fmt: skip

# RFC 3986 §5.4.2 (the last one, "http:g", strict; its loose reading below).
ABNORMAL = [
    ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"),
    ("/./g", "http://a/g"), ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."),
    (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"),
    ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"), ("g/./h", "http://a/b/c/g/h"),
    ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
    ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"),
    ("g?y/../x", "http://a/b/c/g?y/../x"), ("g#s/./x", "http://a/b/c/g#s/./x"),
    ("g#s/../x", "http://a/b/c/g#s/../x"), ("http:g", "http:g"),
]  # fmt: skip


@pytest.mark.parametrize("ref,expected", NORMAL + ABNORMAL)
def test_rfc3986_5_4_examples(ref, expected):
    assert uri.resolve(ref, BASE) == expected


def test_rfc3986_5_4_2_backward_compatible_reading():
    assert uri.resolve("http:g", BASE, strict=False) == "http://a/b/c/g"


def test_rfc3986_5_2_4_examples():
    assert uri.remove_dot_segments("/a/b/c/./../../g") == "/a/g"
    assert uri.remove_dot_segments("mid/content=5/../6") == "mid/6"


def test_relative_base_is_an_error():
    # RFC 3986 §5.1: a base must be absolute.
    with pytest.raises(uri.NotAbsolute):
        uri.resolve("g", "/a/b")


def test_printed_resolution_can_write_a_path_that_reads_as_an_authority():
    # §5.2.4 then §5.3 as printed: the suite's notes and the oracle's judge
    # know this answer and its "/." reading.
    assert uri.resolve("/.//g", "foo:a/b") == "foo://g"


def test_rfc3986_appendix_b():
    got = uri.components("http://www.ics.uci.edu/pub/ietf/uri/#Related")
    assert got == {
        "scheme": "http", "authority": "www.ics.uci.edu", "userinfo": None,
        "host": "www.ics.uci.edu", "port": None, "path": "/pub/ietf/uri/",
        "query": None, "fragment": "Related",
    }  # fmt: skip
    # RFC 3986 §3.2.3 (an empty port), §3.2.2 (an IP literal keeps brackets).
    assert uri.components("ftp://u@[::1]:")["port"] == ""
    assert uri.components("ftp://u@[::1]:")["host"] == "[::1]"
    assert uri.components("ftp://u@[::1]:")["userinfo"] == "u"


def test_normalization_examples():
    # RFC 3986 §6.2.2.
    assert uri.normalize("eXAMPLE://a/./b/../b/%63/%7bfoo%7d", iri=False) == (
        "example://a/b/c/%7Bfoo%7D"
    )
    # RFC 3986 §6.2.2.1.
    assert uri.normalize("HTTP://www.EXAMPLE.com/", iri=False) == "http://www.example.com/"
    # RFC 3987 §5.3.2.
    assert uri.normalize("eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9", iri=True) == (
        "example://a/b/c/%7Bfoo%7D/ros\u00e9"
    )
    # RFC 3987 §5.3.2.3.
    assert uri.normalize("http://example.org/%7euser", iri=True) == "http://example.org/~user"
    # RFC 3987 §5.3.2.2: no character normalization.
    nfd = "http://www.example.org/re\u0301sume\u0301.html"
    assert uri.normalize(nfd, iri=True) == nfd


def test_to_uri_examples():
    # 3987bis §3.4.1, and RFC 3987 §3.1's ToASCII (the draft's §3.4.2 prints
    # "xn--rsum-bad", which is not the punycode of "résumé").
    primary, alts = to_uri("http://r\u00e9sum\u00e9.example.org", "rfc3987bis")
    assert primary == "http://r%C3%A9sum%C3%A9.example.org"
    assert alts == ["http://xn--rsum-bpad.example.org"]
    # 3987bis §3.4.3.
    assert to_uri("http://www.example.org/red%09ros\u00e9#red", "rfc3987bis")[0] == (
        "http://www.example.org/red%09ros%C3%A9#red"
    )
    # RFC 3987 §3.1, outside the BMP.
    assert to_uri("http://example.com/\U00010300\U00010301\U00010302", "rfc3987")[0] == (
        "http://example.com/%F0%90%8C%80%F0%90%8C%81%F0%90%8C%82"
    )


def test_to_uri_idna2008_refuses_what_idna2003_maps():
    # U+F900 is not in NFC: RFC 5891 §5.4 refuses the label; RFC 3490's
    # nameprep maps it to U+8C48 first.
    assert to_uri("http://\uf900/", "rfc3987bis") == ("http://%EF%A4%80/", [])
    assert to_uri("http://\uf900/", "rfc3987") == ("http://%EF%A4%80/", ["http://xn--oh3a/"])


def test_to_iri_examples():
    # 3987bis §4.3, its three examples.
    assert to_iri("http://www.example.org/D%C3%BCrst")[0] == "http://www.example.org/D\u00fcrst"
    assert to_iri("http://www.example.org/D%FCrst")[0] == "http://www.example.org/D%FCrst"
    primary, alts = to_iri("http://xn--99zt52a.example.org/%e2%80%ae")
    assert primary == "http://\u7d0d\u8c46.example.org/%E2%80%AE"
    assert alts == ["http://xn--99zt52a.example.org/%E2%80%AE"]
    # §4.2 step 2: "%", reserved characters and US-ASCII not allowed in URIs
    # stay as written.
    assert to_iri("http://a/%25%2f%20%41")[0] == "http://a/%25%2f%20A"
    # iprivate is allowed in a query only (§2.2).
    assert to_iri("http://a/%EE%80%80?%EE%80%80")[0] == "http://a/%EE%80%80?\ue000"


def test_section_5_1_choices():
    # A no-break space may stay encoded (§5.1 (b)); a U+00E9 may not.
    assert decode_choices("http://h/%C2%A0") == "http://h/\u00a0"
    assert decode_choices("http://h/%C3%A9") == "http://h/%C3%A9"


def test_abnf_reader():
    g = Grammar(
        [
            'top = 1*2( "Ab" / %x30-39 ) [ sep ] 0<sep>\nsep = ";" ; a comment\n',
            "sep =/ %d44.45\n",
        ]
    )
    m = g.matcher("TOP")
    assert m.match("aB").valid  # case-insensitive literal (RFC 5234 §2.3)
    assert m.match("ab9;").valid
    assert m.match("7,-").valid  # =/ and a %d concatenation
    assert not m.match("").valid and m.match("").at == 0
    assert m.match("ab99").at == 3  # at most two repetitions
    assert m.match("ab;x").at == 3
    assert m.match("a").at == 1  # stops too early: the length
    with pytest.raises(AbnfError):
        Grammar(["a = b\nb = a\n"]).matcher("a")
    with pytest.raises(AbnfError):
        read_rules("a = (b\n")


def test_profiles_first_impossible_character():
    dec = grammar("rfc3987bis").matcher("dec-octet")
    assert dec.match("255").valid and dec.match("256").at == 2
    ref = grammar("rfc3986").matcher("URI-reference")
    assert ref.match("a://[::&]").at == 7
    assert ref.match("http://r\u00e9").at == 8
    assert grammar("rfc3987bis").matcher("IRI-reference").match("http://r\u00e9").valid
    # 3987bis §2.2: iprivate in a query only; RFC 3987 without the tag range.
    iri = grammar("rfc3987bis").matcher("IRI")
    assert iri.match("a:?\ue000").valid and iri.match("a:/\ue000").at == 3
    assert iri.match("a:?\U000e0000").valid
    assert grammar("rfc3987").matcher("IRI").match("a:?\U000e0000").at == 3
    # 3987bis §6.1: a space in a LEIRI.
    assert grammar("leiri").matcher("IRI").match("a:/ ").valid


def _write_suite(tmp_path, cases):
    (tmp_path / "cases.jsonl").write_text(
        "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases), encoding="utf-8"
    )


def test_runner_agrees_disagrees_and_tracks_expected(tmp_path, capsys):
    good = {"id": "r/1", "op": "resolve", "profile": "rfc3986", "input": "g", "base": BASE,
            "expect": {"result": "http://a/b/c/g"}, "source": "RFC 3986 §5.4.1"}  # fmt: skip
    bad = dict(good, id="r/2", expect={"result": "http://a/b/g"})
    also_wrong = dict(good, id="r/3", expect={"result": "http://a/b/c/g", "also": ["x:y"]})
    _write_suite(tmp_path, [good])
    assert check.main(["--suite", str(tmp_path)]) == 0
    capsys.readouterr()
    _write_suite(tmp_path, [good, bad, also_wrong])
    assert check.main(["--suite", str(tmp_path), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert [d["id"] for d in out["disagreements"]] == ["r/2", "r/3"]
    expected = tmp_path / "expected.json"
    expected.write_text(json.dumps({"disagreements": [{"id": "r/2"}, {"id": "r/3"}]}))
    assert check.main(["--suite", str(tmp_path), "--expected", str(expected)]) == 0
    # An entry that agrees now is stale: the run fails until it is removed.
    _write_suite(tmp_path, [good, also_wrong])
    assert check.main(["--suite", str(tmp_path), "--expected", str(expected)]) == 1
    assert "no longer disagrees" in capsys.readouterr().out


def test_runner_skips_with_a_reason():
    v = check.judge({"id": "n", "op": "normalize", "profile": "leiri", "input": "a:b",
                     "expect": {"result": "a:b"}, "source": "-"})  # fmt: skip
    assert v.kind == "skip" and "LEIRI" in v.why
    v = check.judge({"id": "x", "op": "compare", "profile": "rfc3987bis", "input": "a:b",
                     "expect": {}, "source": "-"})  # fmt: skip
    assert v.kind == "skip"


def test_leiri_ucschar_name_is_ambiguous():
    case = {"id": "v", "op": "valid", "profile": "leiri", "rule": "ucschar", "input": " ",
            "expect": {"valid": True}, "source": "-"}  # fmt: skip
    assert check.judge(case).kind == "disagree"
    assert check.judge(dict(case, rule="leiri-ucschar")).kind == "agree"


def test_to_iri_rfc3987():
    # RFC 3987 §3.2.1: ToUnicode is a MAY there, and its iprivate has no
    # plane-14 range (§2.2).
    primary, alts = to_iri("http://xn--99zt52a.example.org/?%F3%A0%80%80", "rfc3987")
    assert primary == "http://xn--99zt52a.example.org/?%F3%A0%80%80"
    assert alts == ["http://\u7d0d\u8c46.example.org/?%F3%A0%80%80"]
    assert to_iri("http://h/?%F3%A0%80%80")[0] == "http://h/?\U000e0000"
