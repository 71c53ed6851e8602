"""Checking a column of IRIs in a Spark DataFrame, on Arrow batches.

:func:`check_column` adds ``<column>_valid`` (boolean: the input parses and
has no finding of error severity) and ``<column>_codes`` (array of the codes
of :func:`iribis.check`'s findings), both null where the column is. The work
runs in the executors' Python workers on Arrow record batches
(``DataFrame.mapInArrow``), each batch checked in one call with the GIL
released. Needs pyspark 3.3 or later and pyarrow on the executors.

>>> from pyspark.sql import SparkSession                         # doctest: +SKIP
>>> spark = SparkSession.builder.master("local[1]").getOrCreate()  # doctest: +SKIP
>>> df = spark.createDataFrame([("http://h/./a",), (None,)], "iri string")  # doctest: +SKIP
>>> check_column(df, "iri").collect()                            # doctest: +SKIP
[Row(iri='http://h/./a', iri_valid=True, iri_codes=['DOT_SEGMENT']), Row(iri=None, iri_valid=None, iri_codes=None)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Mapping, Optional, Union

if TYPE_CHECKING:
    import pyarrow
    from pyspark.sql import DataFrame

__all__ = ["check_column"]


def check_column(
    df: "DataFrame",
    column: str,
    *,
    profile: str = "rfc3987bis",
    severities: Optional[Union[str, Mapping[str, str]]] = None,
) -> "DataFrame":
    """`df` with ``<column>_valid`` and ``<column>_codes`` added.

    `column` must be a string column; `profile` and `severities` are those
    of :func:`iribis.check`. Raises ``ValueError`` when the column is not
    there, is not of strings, or an output column's name is taken.
    """
    from pyspark.sql.types import ArrayType, BooleanType, StringType, StructField, StructType

    fields = {f.name: f for f in df.schema.fields}
    if column not in fields:
        raise ValueError(f"no column {column!r} in the DataFrame: it has {sorted(fields)}")
    if not isinstance(fields[column].dataType, StringType):
        raise ValueError(f"column {column!r} is {fields[column].dataType.simpleString()}, not string")
    valid_name, codes_name = f"{column}_valid", f"{column}_codes"
    for name in (valid_name, codes_name):
        if name in fields:
            raise ValueError(f"the DataFrame already has a column {name!r}")
    # Fail on a bad profile or severities here, not in an executor.
    from . import _iribis

    _iribis.check("", profile=profile, severities=severities)
    schema = StructType(
        list(df.schema.fields)
        + [
            StructField(valid_name, BooleanType(), True),
            StructField(codes_name, ArrayType(StringType(), True), True),
        ]
    )
    severities = dict(severities) if isinstance(severities, Mapping) else severities

    def run(batches: Iterator["pyarrow.RecordBatch"]) -> Iterator["pyarrow.RecordBatch"]:
        import pyarrow as pa

        from iribis import _iribis as native

        for batch in batches:
            valid, codes = native._valid_and_codes(
                batch.column(column), profile=profile, severities=severities
            )
            yield pa.RecordBatch.from_arrays(
                list(batch.columns) + [valid, codes],
                names=list(batch.schema.names) + [valid_name, codes_name],
            )

    return df.mapInArrow(run, schema)
