"""iribis.check_document: the IRIs inside documents, as `iri check --from
FORMAT --json` reports them, in every encoding the format's rules find."""

import pathlib

import pytest

import iribis

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCUMENTS = ROOT / "tests" / "data" / "documents"


def test_every_format_reads_its_fixture():
    for fmt, name in [
        ("ntriples", "doc.nt"),
        ("nquads", "doc.nq"),
        ("turtle", "doc.ttl"),
        ("trig", "doc.trig"),
        ("rdfxml", "doc.rdf"),
        ("html", "doc.html"),
        ("xml", "doc.xml"),
    ]:
        records = iribis.check_document(DOCUMENTS / name, format=fmt, base="http://base.example/doc")
        assert records, fmt
        for r in records:
            assert r["encoding"] == "UTF-8"
            assert r["line"] >= 1 and r["column"] >= 1
            assert set(r) >= {"input", "valid", "violations", "line", "column", "encoding"}


def test_records_match_the_cli_shape():
    doc = b"<http://e/s> <http://e/p> <http://e/a b> .\n<http://e/s> <http://e/p> .\n"
    records = iribis.check_document(doc, format="ntriples")
    bad = next(r for r in records if r["input"] == "http://e/a b")
    assert bad["valid"] is False
    assert bad["violations"][0]["code"] == "SYNTAX_ERROR"
    assert (bad["line"], bad["column"]) == (1, 28)
    assert list(bad) == ["input", "valid", "violations", "line", "column", "encoding"]
    error = next(r for r in records if "syntax_error" in r)
    assert error["input"] == "" and error["valid"] is False
    assert error["syntax_error"]["format"] == "ntriples"
    assert error["line"] == 2


def test_a_path_a_pathlike_and_bytes_agree():
    path = DOCUMENTS / "doc.ttl"
    base = "http://base.example/doc"
    a = iribis.check_document(str(path), format="turtle", base=base)
    b = iribis.check_document(path, format="turtle", base=base)
    c = iribis.check_document(path.read_bytes(), format="turtle", base=base)
    assert a == b == c
    # Without a base, a file's own location is the base.
    [first, *_] = iribis.check_document(DOCUMENTS / "doc.html", format="html")
    assert first["resolved"].startswith("file:///")


def test_encodings():
    page = '<meta charset="shift_jis"><a href="http://例え.jp/?q=日本">x</a>'.encode("shift_jis")
    [r] = iribis.check_document(page, format="html")
    assert r["input"] == "http://例え.jp/?q=日本"
    assert r["encoding"] == "Shift_JIS"
    assert [v["code"] for v in r["violations"]] == ["QUERY_DOCUMENT_CHARSET"]
    assert "%93%FA%96%7B" in r["violations"][0]["message"]
    # The encoding given wins over the declaration; a UTF-16 document is read.
    [r] = iribis.check_document(
        '<meta charset="latin1"><a href="http://e/пример">'.encode("cp1251"),
        format="html",
        encoding="windows-1251",
    )
    assert (r["input"], r["encoding"]) == ("http://e/пример", "windows-1251")
    [r] = iribis.check_document('<a href="http://e/a b">'.encode("utf-16"), format="html")
    assert r["encoding"] in ("UTF-16LE", "UTF-16BE") and r["valid"] is False
    # Octets the encoding cannot decode: an error that says where.
    [r] = iribis.check_document(b'<meta charset=shift_jis><a href="http://e/\xa0">', format="html")
    assert r["error"]["message"].startswith("not Shift_JIS at byte 42")


def test_severities_and_profile():
    doc = b"<http://e/./a> <http://e/p> <http://e/o> ."
    [r, *_] = iribis.check_document(doc, format="ntriples", severities={"DOT_SEGMENT": "allow"})
    assert r["violations"] == []
    [r, *_] = iribis.check_document(doc, format="ntriples", severities="strict")
    assert r["valid"] is False


def test_bad_arguments():
    with pytest.raises(ValueError):
        iribis.check_document(b"", format="json")
    with pytest.raises(ValueError):
        iribis.check_document(b"", format="turtle", base="rel/dir/")
    with pytest.raises(ValueError):
        iribis.check_document(b"", format="html", encoding="no-such")
    with pytest.raises(ValueError):
        iribis.check_document(b"", format="turtle", encoding="latin1")
    with pytest.raises(TypeError):
        iribis.check_document(42, format="html")
    with pytest.raises(OSError):
        iribis.check_document("/nonexistent/doc.html", format="html")


def test_hostile_documents_are_bounded():
    laughs = "".join('<!ENTITY l%d "%s">' % (i, ("&l%d;" % (i - 1)) * 10) for i in range(1, 10))
    doc = (
        '<!DOCTYPE rdf:RDF [<!ENTITY l0 "lol">' + laughs + "]>"
        '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        '<rdf:Description rdf:about="http://e/&l8;"/></rdf:RDF>'
    ).encode()
    records = iribis.check_document(doc, format="rdfxml")
    assert any("billion laughs" in r["syntax_error"]["message"] for r in records if "syntax_error" in r)


def _late_meta(filler):
    """A link in windows-1251 (п), a comment of ``filler`` bytes, a
    ``<meta charset=windows-1251>``, another link (ж)."""
    return (
        b'<a href="http://e/\xef"><!--'
        + b"x" * filler
        + b'--><meta charset=windows-1251><a href="http://e/\xe6">'
    )


def test_a_late_meta_reads_the_page_again(tmp_path):
    # HTML §13.2.3.4: the <meta> past the prescan's 1,024 bytes changes the
    # guessed encoding, and the page is read again from the start.
    for filler in (3000, 1024 * 1024 + 10):
        doc = _late_meta(filler)
        path = tmp_path / "late.html"
        path.write_bytes(doc)
        for source in (doc, path):
            records = iribis.check_document(source, format="html")
            assert [(r["input"], r["encoding"]) for r in records] == [
                ("http://e/п", "windows-1251"),
                ("http://e/ж", "windows-1251"),
            ]


def test_a_replacement_encoding_has_no_iri():
    doc = b'<meta charset="iso-2022-kr"><a href="http://e/a b">x</a>'
    [r] = iribis.check_document(doc, format="html")
    assert r["input"] == "" and r["valid"] is False
    assert r["encoding"] == "replacement"
    assert [v["code"] for v in r["violations"]] == ["DOCUMENT_REPLACEMENT_ENCODING"]
    [r] = iribis.check_document(
        doc, format="html", severities={"DOCUMENT_REPLACEMENT_ENCODING": "allow"}
    )
    assert r["valid"] is True and r["violations"] == []


def test_relative_iris_in_ntriples_are_errors(tmp_path):
    path = tmp_path / "rel.nt"
    path.write_bytes(b"<http://e/s> <p> <http://e/o> .\n")
    records = iribis.check_document(path, format="ntriples")
    rel = records[1]
    assert rel["input"] == "p" and rel["valid"] is False
    assert "resolved" not in rel
    assert [v["code"] for v in rel["violations"]] == ["RDF_RELATIVE_IRI"]


def test_rdf_type_attribute_is_checked():
    doc = (
        b'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        b'<rdf:Description rdf:about="http://example.org/r" rdf:type="http://example.org/a b"/>'
        b"</rdf:RDF>"
    )
    bad = [r for r in iribis.check_document(doc, format="rdfxml") if not r["valid"]]
    assert [r["input"] for r in bad] == ["http://example.org/a b"]
