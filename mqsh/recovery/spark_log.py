"""The log as Spark reads it for replay: one DataFrame of records, checked, and their summary.

Sealed extents are read from their columnar copies where a good one exists,
and from their checksummed text (checked in Spark) where none does; the
active extent is parsed once, in process, since every job of a replay reads
it and it may still grow. Alongside the records comes the extents' summary
(mqsh.recovery.summaries), when every sealed extent has a copy to take it
from.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from mqsh.recovery import summaries
from mqsh.recovery.replay import Record
from mqsh.store import columnar
from mqsh.store import log as logstore

SPARK_TYPES = {"long": "bigint", "int": "int", "string": "string", "strings": "array<string>"}
RECORD_SCHEMA = "struct<" + ",".join(f"{name}:{SPARK_TYPES[kind]}" for name, kind in columnar.FIELDS.items()) + ">"
COPY_SCHEMA = ", ".join([*(f"{name} {SPARK_TYPES[kind]}" for name, kind in columnar.FIELDS.items()), "body string"])
Run = Callable[[Callable[[], Any]], Any]  # runs one Spark action (progress, cancellation)


def _jsonl_frame(spark, paths: list[Path]):
    """Lines of extents, checksums verified in Spark; rows (file, ok, record columns, body)."""
    from pyspark.sql import functions as F

    value = F.col("value")
    body = value.substr(F.lit(10), F.length(value))
    stated = F.conv(value.substr(1, 8), 16, 10).cast("bigint")
    parsed = F.from_json(body, RECORD_SCHEMA)
    ok = ((F.length(value) >= 10) & (value.substr(9, 1) == " ")
          & (stated == F.crc32(body.cast("binary"))) & parsed["lsn"].isNotNull())
    lines = spark.read.text([str(path) for path in paths])
    return lines.select(F.col("_metadata.file_name").alias("file"), ok.alias("ok"), parsed.alias("r"),
                        F.when(parsed["t"].isin(*columnar.OBJECT_RECORDS), body).alias("body"))


def _check_lines(frame, paths: list[Path], run: Run) -> None:
    """LogCorrupt for the first sealed extent read as text that holds a damaged line."""
    from pyspark.sql import functions as F

    damaged = {row["file"] for row in run(lambda: frame.where(~F.col("ok")).select("file").distinct().collect())}
    for path in paths:
        if path.name in damaged:
            good, _last = logstore.valid_end(path)
            raise logstore.LogCorrupt(path.name, good)


def _active_table(path: Path) -> pa.Table:
    """The newest extent's records, read here rather than by Spark.

    It has no columnar copy (it may still grow), and every job of the replay
    reads it: parsed once into Arrow, it is not parsed again by each of them.
    """
    try:
        return columnar.extent_table(path.read_bytes(), newest=True)
    except columnar.DamagedExtent:
        good, _last = logstore.valid_end(path)
        raise logstore.LogCorrupt(path.name, good) from None


def log_frame(spark, log_dir: Path, first_extent: int, from_lsn: int, run: Run, use_copies: bool = True):
    """The records replay reads (lsn >= from_lsn from first_extent on): a DataFrame, and their summary.

    Sealed extents come from their columnar copies where a good one exists
    (and use_copies), the others from their text, checked in Spark; the
    active extent is read in process. The summary (summaries.LogSummary) adds
    up the copies' summaries, or is None when some extent has no copy to
    take one from.
    """
    from pyspark.sql import functions as F

    extents = [log_dir / logstore.extent_name(number) for number in logstore.extents_from(log_dir, first_extent)]
    if not extents:
        return None, None
    *sealed, active = extents
    copies = {path: columnar.usable_copy(path) if use_copies else None for path in sealed}
    columns = [*columnar.FIELDS, "body"]
    active_table = _active_table(active)
    records = spark.createDataFrame(active_table)
    parquet = [str(copy) for copy in copies.values() if copy is not None]
    if parquet:
        # The schema is known: given, Spark starts no job to read it from a file's footer.
        records = records.unionByName(spark.read.schema(COPY_SCHEMA).parquet(*parquet).select(*columns))
    text = [path for path in sealed if copies[path] is None]
    if text:
        lines = _jsonl_frame(spark, text)
        _check_lines(lines, text, run)
        records = records.unionByName(
            lines.where("ok").select(*(F.col("r")[name].alias(name) for name in columnar.FIELDS), "body"))
    summary = None if text else _summary(list(copies.values()), active_table, from_lsn)
    return records.where(F.col("lsn") >= from_lsn).withColumn("log", F.lit(0)), summary


def _summary(copies: list[Path], active_table: pa.Table, from_lsn: int) -> summaries.LogSummary | None:
    """The copies' summaries and the active extent's, added up; None when a copy has none to give."""
    summary = summaries.LogSummary()
    _add_records(summary, active_table, from_lsn)
    for copy in copies:
        facts = columnar.summary_of(copy)
        if facts is None:
            return None  # a copy made without one: the facts come from the records, on Spark
        if facts["first"] is None or facts["first"] >= from_lsn:
            summary.add(facts, functools.partial(columnar.bodies_at, copy))
            continue
        try:  # the extent the restart point falls in: only its records from there on count
            _add_records(summary, pq.read_table(copy), from_lsn)
        except (OSError, pa.ArrowException):
            return None  # a copy that cannot be read: Spark's reading of it decides
    return summary


def _add_records(summary: summaries.LogSummary, table: pa.Table, from_lsn: int) -> None:
    """Records held in memory, those from from_lsn on, into summary."""
    table = table.filter(pc.greater_equal(table["lsn"], from_lsn))
    summary.add(columnar.summarize(table), functools.partial(columnar.bodies_at, table))


def records_frame(spark, logs: list[list[Record]]):
    """Records held in memory (one list per log) as the DataFrame replay_frames takes."""
    tables = []
    for log, records in enumerate(logs):
        table = columnar.extent_table(b"".join(logstore.encode(record) for record in records))
        tables.append(table.append_column("log", pa.array([log] * len(table), pa.int32())))
    # One chunk: an empty chunk would end what createDataFrame reads of the table.
    return spark.createDataFrame(pa.concat_tables(tables).combine_chunks())
