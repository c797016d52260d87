"""Recovery of a coupling-facility structure on Spark: one job over every member's log.

The rules of mqsh.recovery.cf_reference as one SQL query, over the members'
records unioned with a member column: sealed extents read from their columnar
copies (only the columns and row groups the query needs), the rest parsed in
this process and written beside them as scratch Parquet for the job. LRSN
order is what decides, and it lies in the records themselves: a unit ends
once, after its work, so its ending - the unit's CMT or BCK records grouped -
decides each of its puts and gets, and the entry ids of the gets that count
then take out a committed put (or a backed up entry) that no get outside a
unit, or in a unit that committed, took. Entries and the counts come back
together, so the recovery is one Spark job.
"""

from __future__ import annotations

import contextlib
import functools
import time
import uuid
from collections.abc import Iterator, Mapping
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from mqsh.recovery.cf_logs import (
    ENTRY_FIELDS,
    ENTRY_SCHEMA,
    check_count,
    prepare,
)
from mqsh.recovery.cf_outcome import Backup, CfRecovered
from mqsh.recovery.spark_log import COPY_SCHEMA, table_frame
from mqsh.recovery.spark_session import planning_failures
from mqsh.store import columnar

STALE_SECONDS = 24 * 3600  # a scratch file older than this was left by a recovery that was killed
READ = ["lsn", "t", "cf", "sq", "e", "p", "s", "tm", "u", "o", "b", "n", "r", "cfs", "st", "mb"]
BACKED_UP = "t = 'SBKP' AND cf = :cf AND member = :backup AND lsn BETWEEN :first AND :last"
# Rows of two parts: part E an entry left, part S a count of records of one kind (t), and of
# SBLK records per data set owner (o), with their highest LRSN. Spark inlines a CTE wherever it is
# named, so each use of {records} is a scan of every member's records: four (the endings, the gets,
# the puts, the counts), each with a filter of its own, so that it reads only the rows and columns
# that part needs. The backed-up entries are read apart: only the backing-up member's extents
# holding the backup are, their other row groups skipped by the LSN statistics.
RECOVERY = f"""
WITH ends AS (  -- each unit's ending, as r * 2 (+ 1 for a backout): one row a unit, few beside the moves
  SELECT member, u, min(r * 2 + CAST(t = 'BCK' AS BIGINT)) AS ending FROM {{records}}
  WHERE t IN ('CMT', 'BCK') AND r > :lrsn AND array_contains(cfs, :cf) GROUP BY member, u
),
puts AS (  -- puts as the unit (its member mm, its id uu) that made them; a backed-up entry is
  -- its unit's put if that unit held it as one (st P), else the entry as it was backed up
  SELECT member AS mm, u AS uu, e, sq, p, s, tm, o, b, n FROM {{records}}
  WHERE t = 'SPUT' AND cf = :cf AND r > :lrsn
  UNION ALL
  SELECT IF(st = 'P', mb, member), IF(st = 'P', u, NULL), e, sq, p, s, tm, o, b, n FROM {{records}}
  WHERE {BACKED_UP}
),
gets AS (  -- gets likewise; a backed-up entry a unit held as its get is that unit's get
  SELECT member AS mm, u AS uu, e FROM {{records}} WHERE t = 'SGET' AND cf = :cf AND r > :lrsn
  UNION ALL
  SELECT mb, u, e FROM {{records}} WHERE {BACKED_UP} AND st <> 'P'
),
-- The moves that count: outside a unit, or in a unit that committed. The endings go to every
-- task, the moves stay put. An entry got twice is in gone twice: the anti join needs it once or
-- more, and making its ids distinct would be a shuffle and a hash aggregation of every get's id.
gone AS (
  SELECT /*+ BROADCAST(ends) */ e FROM gets LEFT JOIN ends ON gets.mm = ends.member AND gets.uu = ends.u
  WHERE gets.uu IS NULL OR ends.ending % 2 = 0
),
counted AS (
  SELECT /*+ BROADCAST(ends) */ puts.* FROM puts LEFT JOIN ends ON puts.mm = ends.member AND puts.uu = ends.u
  WHERE puts.uu IS NULL OR ends.ending % 2 = 0
)
-- Every aggregation here keeps numbers only: a string or struct kept per group would make Spark
-- sort the records instead of hashing them. The gets that took entries go to every task.
SELECT /*+ BROADCAST(gone) */ 'E' AS part, e, sq, p, s, tm, o, b, n,
       CAST(NULL AS STRING) AS t, CAST(NULL AS BIGINT) AS records, CAST(NULL AS BIGINT) AS top
FROM counted LEFT ANTI JOIN gone USING (e)
UNION ALL
SELECT 'S', NULL, NULL, NULL, NULL, NULL, IF(t = 'SBLK', o, NULL) AS owner, NULL, NULL, t, count(*), max(r)
FROM {{records}}
WHERE (t IN ('SBLK', 'SPUT', 'SGET') AND cf = :cf AND r > :lrsn)
   OR (t IN ('CMT', 'BCK') AND r > :lrsn AND array_contains(cfs, :cf))
   OR ({BACKED_UP})
GROUP BY t, owner
"""


@contextlib.contextmanager
def _handed_over(logs) -> Iterator[dict[str, list[str]]]:
    """Each member's parsed extents (the active one) as a scratch Parquet file beside its copies.

    Every part of the query scans the records again; an Arrow table handed to
    Spark is turned into rows at each scan, at several times the cost of
    Spark's reading Parquet. The file is written where the copies are, so a
    cluster that reads the copies reads it too, and removed once the job is
    done. A member whose file cannot be written has its table handed over.
    """
    written: dict[str, list[str]] = {}
    try:
        for log in logs:
            tables = [source.select(READ) for source in log.sources if isinstance(source, pa.Table)]
            if not tables:
                continue
            target = columnar.copy_path(log.log_dir / f"recover-{uuid.uuid4().hex}.LOG")
            _remove_stale(target.parent)
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                pq.write_table(pa.concat_tables(tables), target, compression="none")
            except (OSError, pa.ArrowException):
                with contextlib.suppress(OSError):  # no directory there, so no file either
                    target.unlink(missing_ok=True)
                continue
            written.setdefault(log.member, []).append(str(target))
        yield written
    finally:
        for paths in written.values():
            for path in paths:
                Path(path).unlink(missing_ok=True)


def _remove_stale(directory: Path) -> None:
    """Scratch files a recovery killed before its end left behind. Only old ones: another recovery (of
    another structure) may be reading its own at this moment, and no recovery runs for a day."""
    limit = time.time() - STALE_SECONDS
    for stale in directory.glob("recover-*.parquet"):
        with contextlib.suppress(OSError):
            if stale.stat().st_mtime < limit:
                stale.unlink()


def _frame(spark, logs, cf: str, lrsn: int, scratch: Mapping[str, list[str]]):
    """Every member's records (those that may count, as READ columns) as one DataFrame with a member column."""
    from pyspark.sql import functions as F

    after = F.col("r") > lrsn
    may_count = (F.col("cf") == cf) | (F.col("t").isin("CMT", "BCK") & after)
    parts = []
    for log in logs:
        copies = [str(source) for source in log.sources if isinstance(source, Path)]
        copies += scratch.get(log.member, [])
        if copies:
            # The schema is given, so Spark starts no job to read a footer for it.
            parts.append(spark.read.schema(COPY_SCHEMA).parquet(*copies).select(*READ).where(may_count)
                         .withColumn("member", F.lit(log.member)))
        if log.member not in scratch:
            tables = [source for source in log.sources if isinstance(source, pa.Table)]
            if tables:
                table = pa.concat_tables(tables).select(READ)
                table = table.filter(pc.or_kleene(pc.equal(table["cf"], cf), pc.greater(table["r"], lrsn)))
                parts.append(table_frame(spark, table.append_column(
                    "member", pa.repeat(pa.scalar(log.member), len(table)))))
    return functools.reduce(lambda left, right: left.unionByName(right), parts) if parts else None


def recover(runner, cf: str, members: Mapping[str, Path], backup: Backup | None) -> CfRecovered:
    """The structure recovered in one Spark job on runner (mqsh.recovery.spark_session.SparkRunner)."""

    def work() -> CfRecovered:
        lrsn, logs, said = prepare(cf, members, backup)
        spark = runner.session()
        with _handed_over(logs) as scratch, planning_failures():
            frame = _frame(spark, logs, cf, lrsn, scratch)
            if frame is None:
                rows = pa.table({"part": pa.array([], pa.string())})
            else:
                query = spark.sql(RECOVERY, args={
                    "cf": cf, "lrsn": lrsn, "backup": backup.member if backup else "",
                    "first": backup.start_lsn if backup else 0, "last": backup.end_lsn if backup else -1},
                    records=frame)
                rows = runner.run(query.toArrow)
        return _result(rows, cf, lrsn, backup, said)

    return runner.call(work)


def _result(rows: pa.Table, cf: str, lrsn: int, backup: Backup | None, said: int | None) -> CfRecovered:
    if len(rows) == 0:
        if backup is not None:
            check_count(backup, said, 0)
        return CfRecovered(ENTRY_SCHEMA.empty_table(), lrsn, 0, 0, {})
    counts = rows.filter(pc.equal(rows["part"], "S")).to_pylist()
    restored = sum(row["records"] for row in counts if row["t"] == "SBKP")
    if backup is not None:
        check_count(backup, said, restored)
    entries = rows.filter(pc.equal(rows["part"], "E"))
    entries = entries.append_column("cf", pa.repeat(pa.scalar(cf), len(entries)))
    tops = [row["top"] for row in counts if row["top"] is not None]
    return CfRecovered(
        entries.select(list(ENTRY_FIELDS)).cast(ENTRY_SCHEMA).sort_by("e"),
        max([lrsn, *tops]), sum(row["records"] for row in counts if row["t"] != "SBKP"), restored,
        {row["o"]: row["records"] for row in counts if row["t"] == "SBLK"})
