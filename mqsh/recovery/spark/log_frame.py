"""The log as Spark reads it for replay: one DataFrame of records, checked, and their summary.

Sealed extents are read from their columnar copies where a good one exists,
and from their checksummed text (checked in Spark) where none does; the
active extent is parsed once, in process, since every job of a replay reads
it and it may still grow. Alongside the records comes the extents' summary
(mqsh.recovery.replay.summaries), when every sealed extent has a copy to take it
from, and then also the extents whose message moves were settled when they
were sealed (mqsh.store.settled), with the records of the others.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from mqsh.recovery.replay import summaries
from mqsh.recovery.replay.reference import Record
from mqsh.store import columnar, extent_tables, settled
from mqsh.store import log as logstore
from mqsh.store.records import BLOCKS, BODY, INT, KIND, LONG, LSN, STRING, STRINGS, SUMMARY_FIRST

SPARK_TYPES = {LONG: "bigint", INT: "int", STRING: "string", STRINGS: "array<string>"}
# n is read as text (a string field takes a JSON number as its text), since OBJ and IMG records
# hold a name there, and made a number for the records that count blocks in it.
RECORD_SCHEMA = (
    "struct<"
    + ",".join(
        f"{name}:{'string' if name == BLOCKS else SPARK_TYPES[kind]}"
        for name, kind in extent_tables.FIELDS.items()
    )
    + ">"
)
COPY_SCHEMA = ", ".join(
    [*(f"{name} {SPARK_TYPES[kind]}" for name, kind in extent_tables.FIELDS.items()), f"{BODY} string"]
)
MOVES_SCHEMA = ", ".join(
    f"{field.name} {SPARK_TYPES[extent_tables.ARROW_KINDS[field.type]]}" for field in settled.SCHEMA
)
Run = Callable[[Callable[[], Any]], Any]  # runs one Spark action (progress, cancellation)
# Parquet's dictionary filter reads a copy's dictionaries into hash sets at every scan, to skip
# row groups without a value asked for: an extent's worth of distinct LSNs each time, where the
# row groups' minimum and maximum (still used) already skip those outside the LSNs asked for.
NO_DICTIONARY_FILTER = {"parquet.filter.dictionary.enabled": "false"}
# Settled moves so few that one task does their work faster than a spread of them; their
# table stays under mqsh.recovery.spark.session.LOCAL_TABLE_BYTES, so that Spark takes it as a local relation.
FEW_MOVES = 10_000


def parquet_reader(spark, schema: str = COPY_SCHEMA):
    """A reader of the log's Parquet files (columnar copies, settled moves) of a known schema:
    given, Spark starts no job to read it from a file's footer."""
    return spark.read.schema(schema).options(**NO_DICTIONARY_FILTER)


def _jsonl_frame(spark, paths: list[Path]):
    """Lines of extents, checksums verified in Spark; rows (file, ok, record columns, body)."""
    from pyspark.sql import functions as F

    value = F.col("value")
    body = value.substr(F.lit(10), F.length(value))
    stated = F.conv(value.substr(1, 8), 16, 10).cast("bigint")
    parsed = F.from_json(body, RECORD_SCHEMA)
    ok = (
        (F.length(value) >= 10)
        & (value.substr(9, 1) == " ")
        & (stated == F.crc32(body.cast("binary")))
        & parsed[LSN].isNotNull()
    )
    lines = spark.read.text([str(path) for path in paths])
    return lines.select(
        F.col("_metadata.file_name").alias("file"),
        ok.alias("ok"),
        parsed.alias("record"),
        F.when(parsed[KIND].isin(*extent_tables.OBJECT_RECORDS), body).alias(BODY),
    )


def _text_field(name: str):
    """A record column of the lines _jsonl_frame reads, typed as extent_tables.FIELDS types it."""
    from pyspark.sql import functions as F

    field = F.col("record")[name]
    if name == BLOCKS:
        field = F.when(F.col("record")[KIND].isin(*extent_tables.COUNTED_RECORDS), field.cast("int"))
    return field.alias(name)


def _check_lines(frame, paths: list[Path], run: Run) -> None:
    """LogCorrupt for the first sealed extent read as text that holds a damaged line."""
    from pyspark.sql import functions as F

    damaged = {
        row["file"] for row in run(lambda: frame.where(~F.col("ok")).select("file").distinct().collect())
    }
    for path in paths:
        if path.name in damaged:
            good, _last = logstore.valid_end(path)
            raise logstore.LogCorrupt(path.name, good)


def _active_table(path: Path, from_lsn: int) -> pa.Table:
    """The newest extent's records, read here rather than by Spark.

    It has no columnar copy (it may still grow), and every job of the replay
    reads it: parsed once into Arrow, it is not parsed again by each of them.
    """
    try:
        return extent_tables.extent_table(path.read_bytes(), newest=True, from_lsn=from_lsn)
    except extent_tables.DamagedExtent:
        good, _last = logstore.valid_end(path)
        raise logstore.LogCorrupt(path.name, good) from None


@dataclass
class SettledExtent:
    """An extent's message moves as far as they settle within it (mqsh.store.settled).

    A sealed extent's were settled when it was sealed and are read from files;
    the active extent's, and those of the part of an extent after the restart
    point, are settled as the replay reads them and held in memory.
    """

    moves: Path | pa.Table
    records: Path | pa.Table  # read instead for a queue whose moves cannot stay settled
    spans: settled.Spans
    rows: int  # in moves

    def unsettled_queues(self, cuts: dict[str, list[int]]) -> list[str]:
        """Queues for which a point replay counts afresh from falls inside what was settled."""
        return sorted(
            key
            for key, (first, last) in self.spans.items()
            if any(first <= cut < last for cut in cuts.get(key, ()))
        )


@dataclass
class Settled:
    """The log as message moves: the extents' settled moves, and the records of extents without."""

    extents: list[SettledExtent]
    unsettled: Any  # DataFrame of the records of sealed extents whose copy has no moves, or None

    @property
    def few(self) -> bool:
        """Moves only, and so few that they are all in memory: one task's work."""
        return self.unsettled is None and sum(extent.rows for extent in self.extents) <= FEW_MOVES


@dataclass
class LogRead:
    records_of: Callable[[], Any]  # the DataFrame of every record replay reads, with a log column
    summary: summaries.LogSummary | None  # None when some extent has no copy to take one from
    settled: Settled | None  # only beside a summary, which decides where moves cannot stay settled
    release: Callable[[], Any]  # frees what Spark keeps of the read (extents' text parsed) once replayed


def log_frame(
    spark, log_dir: Path, first_extent: int, from_lsn: int, run: Run, remake_copies: bool = False
) -> LogRead | None:
    """The records replay reads (lsn >= from_lsn from first_extent on), their summary and settled moves.

    Sealed extents come from their columnar copies (every one made again
    first with remake_copies), those with none from their text, checked in
    Spark; the active extent is read in process. None when there is no
    extent at all.
    """
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    ring = logstore.read_ring(log_dir)
    extents = [
        logstore.extent_path(log_dir, number, ring) for number in logstore.extents_from(log_dir, first_extent)
    ]
    if not extents:
        return None
    *sealed, active = extents
    copies = {path: columnar.ensure_copy(path, remake_copies) for path in sealed}
    active_table = _active_table(active, from_lsn)
    active_table = active_table.filter(pc.greater_equal(active_table[LSN], from_lsn))
    text = [path for path in sealed if copies[path] is None]
    # Kept once parsed: the check, the objects' fates and the messages' moves each read the
    # text, and parsing JSON is most of what reading it costs. Partitions that do not fit in
    # memory are parsed again when read, as they would be without it.
    lines = _jsonl_frame(spark, text).persist(StorageLevel.MEMORY_ONLY) if text else None

    def release() -> None:
        if lines is not None:
            with contextlib.suppress(Exception):  # a session that failed keeps nothing worth freeing
                lines.unpersist()

    if lines is not None:
        try:
            _check_lines(lines, text, run)
        except BaseException:
            release()
            raise

    def sealed_frame(paths: list[Path]):
        """The records of the sealed extents given (among them all those read as text), or None."""
        parts = []
        parquet = [str(copies[path]) for path in paths if copies[path] is not None]
        if parquet:
            parts.append(parquet_reader(spark).parquet(*parquet).select(*extent_tables.FIELDS, BODY))
        if lines is not None:
            parts.append(
                lines.where("ok").select(*(_text_field(name) for name in extent_tables.FIELDS), BODY)
            )
        if not parts:
            return None
        return (
            functools.reduce(lambda left, right: left.unionByName(right), parts)
            .where(F.col(LSN) >= from_lsn)
            .withColumn("log", F.lit(0))
        )

    @functools.cache
    def records_of():
        # Built on demand: listing many copies costs, and a settled log may not need them.
        records = table_frame(spark, active_table).withColumn("log", F.lit(0))
        others = sealed_frame(sealed)
        return records if others is None else others.unionByName(records)

    found = None if text else _summary(sealed, copies, active_table, from_lsn)
    if found is None:
        return LogRead(records_of, None, None, release)
    summary, whole, partial = found
    settled_extents, unsettled = _settled_extents(whole, copies, [*partial, active_table])
    return LogRead(
        records_of, summary, Settled(settled_extents, sealed_frame(unsettled) if unsettled else None), release
    )


def _settled_extents(
    whole: list[Path], copies: dict[Path, Path], in_memory: list[pa.Table]
) -> tuple[list[SettledExtent], list[Path]]:
    """The settled moves of sealed extents counted whole and of records in memory (settled here).

    With them come the sealed extents that have no usable moves, whose
    records are read instead. Few moves in all are read here from their
    files: handed to Spark in memory, they cost it no scan of many small
    files, and need no file system shared with Spark's workers.
    """
    from_memory = []
    for table in in_memory:
        moves, spans = settled.settle(table)
        from_memory.append(SettledExtent(moves, table, spans, len(moves)))
    found = {path: columnar.usable_moves(path) for path in whole}
    # An extent without moves is read from its records by Spark anyway: the others' files then stay files.
    few = (
        None not in found.values()
        and sum(moves.rows for moves in found.values()) + sum(extent.rows for extent in from_memory)
        <= FEW_MOVES
    )
    from_files, unsettled = [], []
    for path, moves in found.items():
        source = None if moves is None else _readable_moves(path, moves) if few else moves.path
        if source is None:
            unsettled.append(path)  # a copy made before moves were settled, or moves unreadable
        else:
            from_files.append(SettledExtent(source, copies[path], moves.spans, moves.rows))
    return from_files + from_memory, unsettled


def _readable_moves(extent: Path, moves: columnar.Moves) -> pa.Table | None:
    """A sealed extent's moves read here, made again once from the extent if their pages cannot be read.

    Their footer said they were made from the extent as it is: damaged inside
    since, they are made again rather than left for every replay to read the
    extent's records instead. None if that cannot be done (a full disk).
    """
    table = columnar.moves_table(moves)
    if table is None:
        columnar.moves_path(extent).unlink(missing_ok=True)
        columnar.write_copy(extent)
        remade = columnar.usable_moves(extent)
        table = columnar.moves_table(remade) if remade is not None else None
    return table


def _summary(
    sealed: list[Path], copies: dict[Path, Path], active_table: pa.Table, from_lsn: int
) -> tuple[summaries.LogSummary, list[Path], list[pa.Table]] | None:
    """The copies' summaries and the active extent's (from from_lsn on), added up.

    With it come the sealed extents that count whole, and the records from
    the restart point on of the one it falls in (if sealed). None when a copy
    has no summary to give or cannot be read.
    """
    summary, whole, partial = summaries.LogSummary(), [], []
    _add_records(summary, active_table)
    for path in sealed:
        facts = columnar.summary_of(copies[path])
        if facts is None:
            return None  # a copy made without one: the facts come from the records, on Spark
        if facts[SUMMARY_FIRST] is None or facts[SUMMARY_FIRST] >= from_lsn:
            summary.add(facts, functools.partial(columnar.bodies_at, copies[path]))
            whole.append(path)
            continue
        try:  # the extent the restart point falls in: only its records from there on count
            table = pq.read_table(copies[path])
        except (OSError, pa.ArrowException):
            return None  # a copy that cannot be read: Spark's reading of it decides
        partial.append(table.filter(pc.greater_equal(table[LSN], from_lsn)))
        _add_records(summary, partial[-1])
    return summary, whole, partial


def _add_records(summary: summaries.LogSummary, table: pa.Table) -> None:
    """Records held in memory into summary."""
    summary.add(extent_tables.summarize(table), functools.partial(columnar.bodies_at, table))


def table_frame(spark, table: pa.Table):
    """A table held in memory as a DataFrame."""
    from pyspark.sql.pandas.types import from_arrow_schema

    # Exactly one chunk: an empty chunk would end what createDataFrame reads of the table,
    # and a table of no chunks at all (an empty one, filtered) is refused. Spark Connect
    # takes the columns of an empty table only from a schema given beside it.
    if len(table):
        return spark.createDataFrame(table.combine_chunks())
    return spark.createDataFrame(table.schema.empty_table(), schema=from_arrow_schema(table.schema))


def records_frame(spark, logs: list[list[Record]]):
    """Records held in memory (one list per log) as the DataFrame replay_frames takes."""
    tables = []
    for log, records in enumerate(logs):
        table = extent_tables.extent_table(b"".join(logstore.encode(record) for record in records))
        tables.append(table.append_column("log", pa.array([log] * len(table), pa.int32())))
    return table_frame(spark, pa.concat_tables(tables))
