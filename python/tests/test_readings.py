"""iribis.readings: what browsers, C resolvers and decoding readers read."""

import pytest

import iribis


def test_each_reader():
    r = iribis.readings("http://0x7f.1/a/%2e%2e/b?q#f")
    ours, whatwg, inet = (r["readings"][k] for k in ("rfc3987bis", "whatwg", "inet_aton"))
    assert (ours["host"], ours["host_type"], ours["path"]) == ("0x7f.1", "name", "/a/%2e%2e/b")
    assert (whatwg["host"], whatwg["host_type"], whatwg["path"]) == ("127.0.0.1", "ipv4", "/b")
    assert (whatwg["query"], whatwg["fragment"], whatwg["address_class"]) == ("q", "f", "loopback")
    assert (inet["host"], inet["scheme"], inet["path"]) == ("127.0.0.1", None, None)
    assert r["readings"]["decoded"] is None


def test_differences():
    r = iribis.readings("http://evil.com%2f@good.com/")
    (d,) = r["differences"]
    assert d["code"] == "READING_USERINFO_ENCODED_DELIMITER"
    assert (d["component"], d["byte"], d["char"], d["len"]) == ("userinfo", 7, 7, 11)
    assert (d["readers"], d["reached"], d["address_class"]) == (["decoded"], "evil.com", None)
    assert r["readings"]["decoded"]["host"] == "evil.com"
    d = iribis.readings("http://0xa9fea9fe/latest/meta-data/")["differences"][0]
    assert (d["reached"], d["address_class"]) == ("169.254.169.254", "link-local")


def test_rejection_and_relative():
    r = iribis.readings("http://a.b.c.1.2.3.4/")
    assert r["readings"]["whatwg"] == {"error": "invalid IPv4 address"}
    assert [d["code"] for d in r["differences"]] == ["READING_REJECTED"]
    r = iribis.readings("//0x7f.1/x")
    assert r["readings"]["whatwg"] is None
    assert r["readings"]["inet_aton"]["host"] == "127.0.0.1"


def test_normalization_only_is_no_difference():
    for s in ["HTTP://EXAMPLE.org:80/a/../b", "http://r%C3%A9sum%C3%A9.example/", "http://BÜCHER.de/"]:
        assert iribis.readings(s)["differences"] == [], s


def test_mapped_host_is_a_difference():
    # Browsers map full-width letters (UTS #46); 3987bis looks the name up
    # as RFC 5891 does, with no mapping, and reaches no host.
    (d,) = iribis.readings("http://ｌｏｃａｌｈｏｓｔ/")["differences"]
    assert d["code"] == "READING_HOST_DIFFERS"
    assert (d["readers"], d["reached"], d["address_class"]) == (["whatwg"], "localhost", "loopback")


def test_profiles_and_errors():
    r = iribis.readings("http://h/a\\b", profile="leiri")
    assert [d["code"] for d in r["differences"]] == ["READING_PATH_DIFFERS"]
    with pytest.raises(iribis.ParseError):
        iribis.readings("http://h/a b")
    with pytest.raises(ValueError):
        iribis.readings("http://h/", profile="nope")


def test_check_reports_the_same():
    codes = [v.code for v in iribis.check("http://0x7f.1/") if v.code.startswith("READING_")]
    assert codes == ["READING_HOST_DIFFERS"]
