"""Recovery of a coupling-facility structure on Spark: one job over every member's log.

The rules of mqsh.recovery.cfstruct.reference as one SQL query, over the members'
records as one relation with a member column: sealed extents read from the
copies of their shared records, sorted by kind (only the columns and row
groups the query needs; "copies" below), the rest parsed in this process and
written as scratch Parquet for the job in the same order. LRSN
order is what decides, and it lies in the records themselves: a unit ends
once, after its work, so its ending - the unit's CMT or BCK records grouped -
decides each of its puts and gets, and the entry ids of the gets that count
then take out a committed put (or a backed up entry) that no get outside a
unit, or in a unit that committed, took. The job gives the entries; what a
recovery counts (records applied, entries restored, blocks per owner) comes
from the extents' tallies (mqsh.recovery.cfstruct.counts), and the backup's count
is checked before the job starts.
"""

from __future__ import annotations

import contextlib
import functools
import shutil
import time
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from mqsh.recovery.cfstruct.counts import Counts, counts
from mqsh.recovery.cfstruct.logs import (
    COLUMNS,
    ENTRY_FIELDS,
    ENTRY_SCHEMA,
    Source,
    by_entry_id,
    check_count,
    prepare,
)
from mqsh.recovery.cfstruct.outcome import Backup, CfRecovered, Purged
from mqsh.recovery.spark.log_frame import COPY_SCHEMA, parquet_reader, table_frame
from mqsh.recovery.spark.session import planning_failures
from mqsh.store import columnar, extent_tables, shared_units
from mqsh.store.records import (
    ENTRY,
    ENTRY_COUNT,
    KIND,
    LRSN,
    LSN,
    MEMBER,
    OUTCOME,
    STATE,
    STRUCTURE,
    STRUCTURES,
    UNIT,
    WHOLE,
)

STALE_SECONDS = 24 * 3600  # a scratch file older than this was left by a recovery that was killed
READ = [name for name in COLUMNS if name != ENTRY_COUNT]  # a backup's end's count is checked apart
ENTRY_COLUMNS = ", ".join(
    name for name in ENTRY_FIELDS if name != STRUCTURE
)  # the entries' but the structure
BACKED_UP = f"{KIND} = 'SBKP' AND {STRUCTURE} = :cf AND member = :backup AND {LSN} BETWEEN :first AND :last"
# The entries left. Spark inlines a CTE wherever it is named, so each use of {records} is a scan
# of every member's records: three (the endings, the gets, the puts), each with a filter of its
# own, so that it reads only the rows and columns that part needs. The backed-up entries are read
# apart: only the backing-up member's extents holding the backup are, their other row groups
# skipped by the LSN statistics.
RECOVERY = f"""
WITH held AS (  -- the units whose work the backup holds (a unit once for each entry)
  SELECT {MEMBER} AS held_member, {UNIT} AS held_u FROM {{records}} WHERE {BACKED_UP} AND {STATE} IS NOT NULL
),
ends AS (  -- each unit's ending, as r * 2 (+ 1 for a backout): one row a unit, few beside the moves.
  -- A unit settled where it ended (mqsh.store.shared_units) needs it only for the work a backup
  -- holds. A join, not IN (SELECT ...): Spark would plan the endings twice, once for each use.
  SELECT /*+ BROADCAST(held) */ member, {UNIT}, min({LRSN} * 2 + CAST({KIND} = 'BCK' AS BIGINT)) AS ending
  FROM {{records}} LEFT JOIN held ON member = held_member AND {UNIT} = held_u
  WHERE {KIND} IN ('CMT', 'BCK') AND {LRSN} > :lrsn AND array_contains({STRUCTURES}, :cf)
    AND ({WHOLE} IS NOT TRUE OR held_u IS NOT NULL)
  GROUP BY member, {UNIT}
),
puts AS (  -- puts as the unit (its member mm, its id uu) that made them; a backed-up entry is
  -- its unit's put if that unit held it as one (st P), else the entry as it was backed up
  SELECT member AS mm, IF({OUTCOME} IS NULL, {UNIT}, NULL) AS uu, {ENTRY_COLUMNS} FROM {{records}}
  WHERE {KIND} = 'SPUT' AND {STRUCTURE} = :cf AND {LRSN} > :lrsn AND coalesce({OUTCOME}, 0) = 0
  UNION ALL
  SELECT IF({STATE} = 'P', {MEMBER}, member), IF({STATE} = 'P', {UNIT}, NULL), {ENTRY_COLUMNS} FROM {{records}}
  WHERE {BACKED_UP}
),
gets AS (  -- gets likewise; a backed-up entry a unit held as its get is that unit's get
  SELECT member AS mm, IF({OUTCOME} IS NULL, {UNIT}, NULL) AS uu, {ENTRY} FROM {{records}}
  WHERE {KIND} = 'SGET' AND {STRUCTURE} = :cf AND {LRSN} > :lrsn AND coalesce({OUTCOME}, 0) = 0
  UNION ALL
  SELECT {MEMBER}, {UNIT}, {ENTRY} FROM {{records}} WHERE {BACKED_UP} AND {STATE} <> 'P'
),
-- The moves that count: outside a unit, or in a unit that committed. The endings go to every
-- task, the moves stay put. An entry got twice is in gone twice: the anti join needs it once or
-- more, and making its ids distinct would be a shuffle and a hash aggregation of every get's id.
gone AS (
  SELECT /*+ BROADCAST(ends) */ {ENTRY}
  FROM gets LEFT JOIN ends ON gets.mm = ends.member AND gets.uu = ends.{UNIT}
  WHERE gets.uu IS NULL OR ends.ending % 2 = 0
),
counted AS (
  SELECT /*+ BROADCAST(ends) */ puts.*
  FROM puts LEFT JOIN ends ON puts.mm = ends.member AND puts.uu = ends.{UNIT}
  WHERE puts.uu IS NULL OR ends.ending % 2 = 0
)
-- The gets that took entries go to every task.
SELECT /*+ BROADCAST(gone) */ {ENTRY_COLUMNS} FROM counted LEFT ANTI JOIN gone USING ({ENTRY})
"""


@dataclass
class HandedOver:
    """What the job reads: the scratch folder, one sub-folder a member, and what could not go in it."""

    folder: Path | None  # read as one relation with the member as its partition column; None if empty
    apart: dict[str, list[Source]]  # a member's copies read where they are, its tables handed over


@contextlib.contextmanager
def _handed_over(logs) -> Iterator[HandedOver]:
    """Every member's sources gathered in one scratch folder beside the first member's copies.

    Under it each member has a folder of its own, named as Spark names a
    partition (member=QM1): its copies linked in, its parsed extents (the
    active one) written there as Parquet. Read as one relation, the member
    is a column Spark gives each file's rows as it reads them; a relation a
    member, with the member as a literal, makes every scan of the records
    one scan of each, with as many plans and tasks. An Arrow table handed to
    Spark is turned into rows at each scan, at several times the cost of
    reading Parquet, so it is handed over only when it cannot be written;
    a copy that cannot be linked is read where it is. The folder is where
    the copies are, so a cluster that reads the copies reads it too, and is
    removed once the job is done.
    """
    folder = columnar.copies_dir(logs[0].log_dir) / f"recover-{uuid.uuid4().hex}" if logs else None
    apart: dict[str, list[Source]] = {}
    gathered = False
    try:
        for log in logs:  # a killed recovery's, beside whichever member was first then
            _remove_stale(columnar.copies_dir(log.log_dir))
        if folder is not None:
            try:
                folder.mkdir(parents=True)
            except OSError:
                folder = None  # no directory there: every member's sources are read apart
        for log in logs:
            placed, left = _gather(log, folder)
            gathered = gathered or placed
            if left:
                apart[log.member] = left
        yield HandedOver(folder if gathered else None, apart)
    finally:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


def _gather(log, folder: Path | None) -> tuple[bool, list[Source]]:
    """(whether anything of log went into its folder under folder, its sources that did not)."""
    copies = [source for source in log.sources if isinstance(source, Path)]
    tables = [source.select(READ) for source in log.sources if isinstance(source, pa.Table)]
    if folder is None:
        return False, [*copies, *tables]
    member_folder = folder / f"member={quote(log.member, safe='')}"  # '/' and '%' escaped, as Spark does
    try:
        member_folder.mkdir()
    except OSError:
        return False, [*copies, *tables]
    placed, left = False, []
    for copy in copies:
        try:
            (member_folder / copy.name).symlink_to(copy.resolve())
            placed = True
        except OSError:
            left.append(copy)
    if tables:
        parsed = member_folder / "parsed.parquet"
        try:
            # In the copies' order and row groups: the parts of the query skip the kinds they do not read.
            table = pa.concat_tables(tables).sort_by(extent_tables.SHARED_ORDER)
            pq.write_table(table, parsed, compression="none", row_group_size=columnar.SHARED_ROWS_PER_GROUP)
            placed = True
        except (OSError, pa.ArrowException):
            with contextlib.suppress(OSError):
                parsed.unlink(missing_ok=True)  # a part written would be read as a damaged file
            left.extend(tables)
    return placed, left


def _remove_stale(directory: Path) -> None:
    """Scratch a recovery killed before its end left behind. Only old ones: another recovery (of
    another structure) may be reading its own at this moment, and no recovery runs for a day."""
    limit = time.time() - STALE_SECONDS
    for stale in directory.glob("recover-*"):
        with contextlib.suppress(OSError):
            if stale.lstat().st_mtime < limit:
                if stale.is_dir() and not stale.is_symlink():
                    shutil.rmtree(stale)
                else:
                    stale.unlink()


def _frame(spark, cf: str, lrsn: int, handed: HandedOver):
    """Every member's records (those that may count, as READ columns) as one DataFrame with a member column."""
    from pyspark.sql import functions as F
    from pyspark.sql.pandas.types import from_arrow_type

    # The copies' columns and those of the units settled when the extent was sealed.
    schema = ", ".join(
        [
            COPY_SCHEMA,
            *(f"{field.name} {from_arrow_type(field.type).simpleString()}" for field in shared_units.SCHEMA),
        ]
    )
    after = F.col(LRSN) > lrsn
    may_count = (F.col(STRUCTURE) == cf) | (F.col(KIND).isin("CMT", "BCK") & after)
    parts = []
    if handed.folder is not None:
        parts.append(
            parquet_reader(spark, f"{schema}, member string")
            .option("basePath", str(handed.folder))
            .parquet(str(handed.folder))
            .select(*READ, "member")
            .where(may_count)
        )
    for member, sources in handed.apart.items():
        copies = [str(source) for source in sources if isinstance(source, Path)]
        if copies:
            parts.append(
                parquet_reader(spark, schema)
                .parquet(*copies)
                .select(*READ)
                .where(may_count)
                .withColumn("member", F.lit(member))
            )
        tables = [source for source in sources if isinstance(source, pa.Table)]
        if tables:
            table = pa.concat_tables(tables)  # READ columns already (_gather)
            table = table.filter(pc.or_kleene(pc.equal(table[STRUCTURE], cf), pc.greater(table[LRSN], lrsn)))
            parts.append(
                table_frame(spark, table.append_column("member", pa.repeat(pa.scalar(member), len(table))))
            )
    return functools.reduce(lambda left, right: left.unionByName(right), parts) if parts else None


def recover(
    runner, cf: str, members: Mapping[str, Path], backup: Backup | None, purged: Purged | None = None
) -> CfRecovered:
    """The structure recovered in one Spark job on runner (mqsh.recovery.spark.session.SparkRunner)."""

    def work() -> CfRecovered:
        lrsn, logs, said = prepare(cf, members, backup, purged)
        counted = counts(cf, lrsn, logs, backup)
        if backup is not None:
            check_count(backup, said, counted.restored)
        spark = runner.session()
        with _handed_over(logs) as handed, planning_failures():
            frame = _frame(spark, cf, lrsn, handed)
            if frame is None:
                rows = ENTRY_SCHEMA.empty_table()
            else:
                query = spark.sql(
                    RECOVERY,
                    args={
                        "cf": cf,
                        "lrsn": lrsn,
                        "backup": backup.member if backup else "",
                        "first": backup.start_lsn if backup else 0,
                        "last": backup.end_lsn if backup else -1,
                    },
                    records=frame,
                )
                rows = runner.run(query.toArrow)
        return _result(rows, cf, lrsn, counted)

    return runner.call(work)


def _result(rows: pa.Table, cf: str, lrsn: int, counted: Counts) -> CfRecovered:
    """The entries the job gave, sorted, with the structure's name (a column of one value is
    not worth reordering, so it is added after), and the counts."""
    entries = by_entry_id(rows.select([name for name in ENTRY_FIELDS if name != STRUCTURE]))
    entries = entries.add_column(
        ENTRY_FIELDS.index(STRUCTURE), STRUCTURE, pa.repeat(pa.scalar(cf), len(entries))
    )
    top = lrsn if counted.top is None else max(lrsn, counted.top)
    return CfRecovered(entries.cast(ENTRY_SCHEMA), top, counted.applied, counted.restored, counted.blocks)
