"""check_document's first argument: a ``str`` is a path, the document's
content goes as ``bytes``, and the error of a path not found says so."""

import pytest

import iribis

HINT = "check_document takes a path as str and the document's content as bytes"


def test_markup_given_as_str_is_read_as_a_path_and_the_error_says_to_pass_bytes():
    text = "<a href='x'>"
    with pytest.raises(OSError) as raised:
        iribis.check_document(text, format="html")
    message = str(raised.value)
    assert message.startswith(f"{text}: ")
    assert "No such file or directory" in message
    assert HINT in message
    # The same text as bytes is the document.
    [record] = iribis.check_document(text.encode(), format="html")
    assert record["input"] == "x"


def test_a_missing_path_given_as_str_names_the_path_and_the_types(tmp_path):
    missing = tmp_path / "missing.html"
    with pytest.raises(OSError, match="missing.html: No such file or directory") as raised:
        iribis.check_document(str(missing), format="html")
    assert HINT in str(raised.value)


def test_a_missing_pathlike_is_only_not_found(tmp_path):
    # An os.PathLike is a path for sure: no word about str and bytes.
    missing = tmp_path / "missing.html"
    with pytest.raises(OSError, match="missing.html: No such file or directory") as raised:
        iribis.check_document(missing, format="html")
    assert HINT not in str(raised.value)


def test_the_docstring_says_str_is_a_path_and_bytes_the_content():
    doc = " ".join(iribis.check_document.__doc__.split())
    assert "a ``str`` is always a path, so a document's text goes as ``bytes``" in doc
