"""Check a file of IRIs on Spark and write the violations.

    python examples/check_iris.py INPUT OUTPUT [--column NAME] [--profile P] [--severities S]

INPUT is a text file (one IRI per line: the column is the line) or a Parquet
file or directory (``*.parquet``; ``--column`` names the column, ``iri`` by
default). OUTPUT is a Parquet directory with one row per finding: the
input's columns (the IRI among them), whether the IRI is valid (parses, and
no finding of error severity) and the finding's code (``iri check --explain
CODE`` explains it; ``iribis.check`` on the IRI gives the details). IRIs
without findings are left out; a summary of the codes is printed. Runs on a
local Spark unless ``spark-submit`` says otherwise.
"""

from __future__ import annotations

import argparse
import sys

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from iribis.spark import check_column


def violations(df: DataFrame, column: str, profile: str, severities: str) -> DataFrame:
    """One row per violation of `column` in `df`."""
    checked = check_column(df, column, profile=profile, severities=severities)
    codes = f"{column}_codes"
    rows = checked.where(F.size(codes) > 0)
    return rows.select(
        *df.columns,
        F.col(f"{column}_valid").alias("valid"),
        F.explode(codes).alias("code"),
    )


def main(argv: list[str], spark: SparkSession | None = None) -> int:
    args = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    args.add_argument("input")
    args.add_argument("output")
    args.add_argument("--column", default="iri")
    args.add_argument("--profile", default="rfc3987bis")
    args.add_argument("--severities", default="default")
    opts = args.parse_args(argv)
    spark = spark or SparkSession.builder.appName("iribis check").getOrCreate()
    if opts.input.endswith(".parquet"):
        df, column = spark.read.parquet(opts.input), opts.column
    else:
        df = spark.read.text(opts.input).withColumnRenamed("value", opts.column)
        column = opts.column
    found = violations(df, column, opts.profile, opts.severities)
    found.write.mode("overwrite").parquet(opts.output)
    summary = found.groupBy("code").count().orderBy(F.desc("count")).collect()
    for row in summary:
        print(f"{row['count']:>8}  {row['code']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
