"""iribis.spark.check_column and the example, on one local Spark session."""

import importlib.util
import os
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import iribis

pyspark = pytest.importorskip("pyspark")
from pyspark.sql import SparkSession  # noqa: E402

from iribis.spark import check_column  # noqa: E402

EXAMPLE = Path(__file__).parents[1] / "examples" / "check_iris.py"
ROWS = [
    ("http://h/./a", 1),
    (None, 2),
    ("a b", 3),
    ("http://例え.jp/résumé", 4),
    ("http://example.org/a\u202eb", 5),
]


@pytest.fixture(scope="module")
def spark():
    # The Python workers run this interpreter, which has iribis and pyarrow.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[1]")
        .appName("iribis tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "1")
        .getOrCreate()
    )
    yield session
    session.stop()


def test_check_column(spark):
    df = spark.createDataFrame(ROWS, "iri string, n int")
    out = check_column(df, "iri")
    assert out.columns == ["iri", "n", "iri_valid", "iri_codes"]
    assert out.schema["iri_valid"].dataType.simpleString() == "boolean"
    assert out.schema["iri_codes"].dataType.simpleString() == "array<string>"
    rows = {r["n"]: r for r in out.collect()}
    for text, n in ROWS:
        row = rows[n]
        if text is None:
            assert (row["iri_valid"], row["iri_codes"]) == (None, None)
            continue
        found = iribis.check(text)
        assert row["iri_codes"] == [v.code for v in found]
        assert row["iri_valid"] == (
            not any(v.severity == "error" for v in found) and iribis.is_valid(text)
        )
    strict = check_column(df, "iri", severities={"DOT_SEGMENT": "error"})
    assert strict.where("n = 1").first()["iri_valid"] is False


def test_check_column_errors(spark):
    df = spark.createDataFrame([("a", 1)], "iri string, n int")
    with pytest.raises(ValueError, match="no column"):
        check_column(df, "nope")
    with pytest.raises(ValueError, match="not string"):
        check_column(df, "n")
    with pytest.raises(ValueError, match="already has"):
        check_column(df.withColumnRenamed("n", "iri_valid"), "iri")
    with pytest.raises(ValueError, match="unknown profile"):
        check_column(df, "iri", profile="rfc3988")


def test_example(spark, tmp_path):
    spec = importlib.util.spec_from_file_location("check_iris", EXAMPLE)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    source = tmp_path / "iris.txt"
    source.write_text("http://h/./a\nhttp://h/\na b\n", encoding="utf-8")
    out = tmp_path / "out"
    assert example.main([str(source), str(out)], spark=spark) == 0
    table = pq.read_table(out).sort_by("iri")
    assert table.to_pydict() == {
        "iri": ["a b", "http://h/./a"],
        "valid": [False, True],
        "code": ["SYNTAX_ERROR", "DOT_SEGMENT"],
    }
