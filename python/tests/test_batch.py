"""is_valid_many and check_many over lists and Arrow arrays."""

import pyarrow as pa
import pytest

import iribis

ITEMS = ["http://例え.jp/", "a b", None, "", "http://h/./a", "http://[::1"]


def test_lists_match_single_calls(corpus):
    items = corpus + [None, "a b"]
    assert iribis.is_valid_many(items) == [
        None if s is None else iribis.is_valid(s) for s in items
    ]
    many = iribis.check_many(items)
    assert many == [None if s is None else iribis.check(s) for s in items]


def test_any_iterable_and_options():
    assert iribis.is_valid_many(s for s in ["a", "a b"]) == [True, False]
    assert iribis.is_valid_many(("a b",), profile="leiri") == [True]
    assert iribis.is_valid_many(["a:b", "b"], rule="IRI") == [True, False]
    assert iribis.is_valid_many([]) == []
    with pytest.raises(TypeError):
        iribis.is_valid_many(["a", 3])
    with pytest.raises(ValueError, match="unknown rule"):
        iribis.is_valid_many(["a"], rule="nope")


@pytest.mark.parametrize("type_", [pa.string(), pa.large_string(), pa.string_view()])
def test_arrow_types_keep_nulls(type_):
    array = pa.array(ITEMS, type_)
    valid = iribis.is_valid_many(array)
    assert isinstance(valid, pa.BooleanArray)
    assert valid.to_pylist() == iribis.is_valid_many(ITEMS)
    checked = iribis.check_many(array)
    assert isinstance(checked, pa.ListArray)
    assert checked.null_count == 1
    rows = checked.to_pylist()
    for item, row in zip(ITEMS, rows):
        if item is None:
            assert row is None
            continue
        expected = iribis.check(item)
        assert [v["code"] for v in row] == [v.code for v in expected]
        assert [
            (v["severity"], v["spec"], v["message"], v["byte"], v["char"], v["len"], v["component"])
            for v in row
        ] == [
            (v.severity, v.spec, v.message, v.byte, v.char, v.len, v.component)
            for v in expected
        ]


def test_arrow_slices_and_chunks():
    array = pa.array(ITEMS).slice(1, 4)
    assert iribis.is_valid_many(array).to_pylist() == iribis.is_valid_many(ITEMS[1:5])
    assert iribis.check_many(array).to_pylist()[1] is None
    chunked = pa.chunked_array([pa.array(ITEMS[:3]), pa.array([], pa.string()), pa.array(ITEMS[3:])])
    valid = iribis.is_valid_many(chunked)
    assert isinstance(valid, pa.ChunkedArray) and valid.num_chunks == 3
    assert valid.to_pylist() == iribis.is_valid_many(ITEMS)
    checked = iribis.check_many(chunked)
    assert checked.num_chunks == 3
    assert checked.to_pylist() == iribis.check_many(pa.array(ITEMS)).to_pylist()
    table = pa.table({"iri": ITEMS})
    assert iribis.is_valid_many(table["iri"]).to_pylist() == iribis.is_valid_many(ITEMS)
    empty = iribis.check_many(pa.chunked_array([], pa.string()))
    assert empty.num_chunks == 0 and empty.type == checked.type


def test_arrow_output_schema():
    out = iribis.check_many(pa.array(["http://h/./a"]))
    assert out.type.value_type == pa.struct(
        [
            pa.field("code", pa.string(), False),
            pa.field("severity", pa.string(), False),
            pa.field("spec", pa.string(), False),
            pa.field("message", pa.string(), False),
            pa.field("byte", pa.int64(), False),
            pa.field("char", pa.int64(), False),
            pa.field("len", pa.int64(), False),
            pa.field("component", pa.string(), False),
        ]
    )


def test_arrow_wrong_type():
    with pytest.raises(TypeError, match="Arrow array of strings"):
        iribis.is_valid_many(pa.array([1, 2]))


def test_valid_and_codes_for_spark():
    array = pa.array(["http://h/./a", "a b", None, "http://example.org/a\u202eb"])
    valid, codes = iribis._iribis._valid_and_codes(array)
    assert valid.to_pylist() == [True, False, None, False]
    assert codes.to_pylist() == [
        ["DOT_SEGMENT"],
        ["SYNTAX_ERROR"],
        None,
        [v.code for v in iribis.check("http://example.org/a\u202eb")],
    ]
    strict, _ = iribis._iribis._valid_and_codes(array, severities="strict")
    assert strict.to_pylist()[0] is (
        iribis.check("http://h/./a", severities="strict")[0].severity != "error"
    )
    with pytest.raises(TypeError):
        iribis._iribis._valid_and_codes(["a"])
