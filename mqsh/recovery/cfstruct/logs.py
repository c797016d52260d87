"""What a recovery of a coupling-facility structure reads, and what it gives back.

RECOVER CFSTRUCT rebuilds a structure from its latest backup (records SBKS,
SBKP..., SBKE in the log of the member that took it) and every member's log
records for the structure since the backup's LRSN. This module holds what
every engine shares (its inputs, result and errors are mqsh.recovery.cfstruct.outcome's):
the records that count, and each member's log
as the engines read it - which extents, and of each its shared records: the
file of them kept beside a sealed extent's columnar copy, or those of its
parsed text.

Which extents: LRSNs grow along a member's log (a member takes each one just
before it writes the record), so its log is read back from the newest extent
to the first one holding a record at or before the backup's LRSN - before it,
nothing is newer - and, for the backing-up member, to the extent holding the
backup. With no backup everything counts, and the log is read from its first
extent - unless the structure was purged (RECOVER CFSTRUCT TYPE(PURGE)) and
not backed up since: the purge is then where the recovery starts, its LRSN
in place of a backup's. After a purge, with a backup since or not, a
member's log is read back no further than the extent holding the record
after its last one at the purge: nothing before may come back, so it is not
needed. A log whose oldest extent left is not the log's first and does not
reach back that far has lost what the recovery needs: the extent before it
is named as missing.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from mqsh.recovery.cfstruct.outcome import (
    Backup,
    BackupUnusable,
    MemberExtentMissing,
    MemberLogCorrupt,
    Purged,
)
from mqsh.store import columnar, extent_tables
from mqsh.store import log as logstore
from mqsh.store.records import (
    BLOCK,
    BLOCKS,
    ENTRY,
    ENTRY_COUNT,
    KIND,
    LRSN,
    LSN,
    OWNER,
    PRIORITY,
    PUT_TIME,
    SHARED_QUEUE,
    SIZE,
    STRUCTURE,
    STRUCTURES,
    UNIT_ENDINGS,
)

CHANGES = ("SBLK", "SPUT", "SGET")  # a structure's changes, each naming it in cf
ENDINGS = UNIT_ENDINGS  # naming the structures their unit touched in cfs
BACKUP_MARKS = ("SBKS", "SBKE")
COLUMNS = extent_tables.SHARED_COLUMNS
ENTRY_FIELDS = (STRUCTURE, SHARED_QUEUE, ENTRY, PRIORITY, SIZE, PUT_TIME, OWNER, BLOCK, BLOCKS)
ENTRY_SCHEMA = pa.schema([extent_tables.SCHEMA.field(name) for name in ENTRY_FIELDS])


@contextlib.contextmanager
def member_log(member: str) -> Iterator[None]:
    """The log's own errors, as errors that name the member."""
    try:
        yield
    except logstore.ExtentMissing as missing:
        raise MemberExtentMissing(member, missing.extent, missing.number) from None
    except logstore.LogCorrupt as damage:
        raise MemberLogCorrupt(member, damage) from None


def missing(member: str, log_dir: Path, number: int) -> MemberExtentMissing:
    return MemberExtentMissing(member, logstore.extent_file_name(log_dir, number), number)


Source = Path | pa.Table  # a sealed extent's shared records (extent_tables.shared_records), or those parsed


@dataclass
class MemberLog:
    """The part of one member's log a recovery reads: its extents, oldest first, and each one's source."""

    member: str
    log_dir: Path
    extents: list[int]
    sources: list[Source]


def _source(extent: Path, newest: bool) -> Source:
    """A sealed extent's shared-records file (made again with its copy if missing), else those parsed
    (the newest extent's once per version of the file)."""
    if newest:
        version = columnar.file_version(extent.stat())
        known = _parsed_newest.get(extent.parent)
        if known is not None and known[:2] == (extent, version):
            return known[2]
        records = _parsed(extent, newest=True)
        _keep_parsed(extent, version, records)
        return records
    columnar.ensure_copy(extent)
    shared = columnar.usable_shared(extent)
    return shared if shared is not None else _parsed(extent, newest=False)


def _parsed(extent: Path, newest: bool) -> pa.Table:
    """The extent's shared records from its text, with their tally (LogCorrupt if a line fails its checksum)."""
    try:
        return columnar.with_tally(
            extent_tables.shared_records(extent_tables.extent_table(extent.read_bytes(), newest))
        )
    except extent_tables.DamagedExtent:
        good, _last = logstore.valid_end(extent)
        raise logstore.LogCorrupt(extent.name, good) from None


# A log directory's newest extent as last parsed, kept while the file is unchanged: it has no
# copy, and a recovery made again in the same process (a rehearsal, a retry) would parse it again.
# The least recently parsed go first once they hold more than PARSED_KEPT_BYTES.
_parsed_newest: dict[Path, tuple[Path, tuple[int, ...], pa.Table]] = {}
PARSED_KEPT_BYTES = 256 << 20


def _keep_parsed(extent: Path, version: tuple[int, ...], records: pa.Table) -> None:
    _parsed_newest.pop(extent.parent, None)
    _parsed_newest[extent.parent] = (extent, version, records)
    while sum(kept[2].nbytes for kept in _parsed_newest.values()) > PARSED_KEPT_BYTES:
        del _parsed_newest[next(iter(_parsed_newest))]


def _lowest(source: Source, name: str) -> int | None:
    """The lowest value of an integer column (None when it holds none), from a copy's statistics if it can."""
    if isinstance(source, pa.Table):
        return pc.min(source[name]).as_py()
    footer = pq.read_metadata(source)
    index = footer.schema.to_arrow_schema().get_field_index(name)
    lows = []
    for group in range(footer.num_row_groups):
        column = footer.row_group(group).column(index)
        statistics = column.statistics
        if statistics is None or (not statistics.has_min_max and statistics.null_count != column.num_values):
            return pc.min(pq.read_table(source, columns=[name])[name]).as_py()
        if statistics.has_min_max:
            lows.append(statistics.min)
    return min(lows) if lows else None


def member_logs(
    members: Mapping[str, Path], lrsn: int, backup: Backup | None, purged: Purged | None = None
) -> list[MemberLog]:
    """Each member's log from the extent holding the first record the recovery needs (module docstring)."""
    floors = purged.lsns if purged is not None else {}
    return [
        _member_log(
            member,
            Path(log_dir),
            lrsn,
            backup if backup and backup.member == member else None,
            floors.get(member),
        )
        for member, log_dir in sorted(members.items())
    ]


def _member_log(
    member: str, log_dir: Path, lrsn: int, backup: Backup | None, floor: int | None = None
) -> MemberLog:
    with member_log(member):
        present = logstore.list_extents(log_dir)
        ring = logstore.read_ring(log_dir)
        sources: dict[int, Source] = {}
        start = None
        for number in reversed(present):
            path = logstore.extent_path(log_dir, number, ring)
            sources[number] = _source(path, newest=number == present[-1])
            lowest_r = _lowest(sources[number], LRSN)
            reaches_lrsn = lrsn > 0 and lowest_r is not None and lowest_r <= lrsn
            first = logstore.first_lsn(path)
            reaches_backup = backup is None or (first is not None and first <= backup.start_lsn)
            # An extent starting at or before the first record after the purge: those before hold none.
            reaches_floor = floor is not None and first is not None and first <= floor + 1
            if (reaches_lrsn or reaches_floor) and reaches_backup:
                start = number
                break
        if start is None:
            if present and present[0] != 0:
                raise missing(member, log_dir, present[0] - 1)
            start = 0
        extents = logstore.extents_from(log_dir, start) if present else []
        for number in extents:
            if number not in sources:  # a gap the walk back went past is found by extents_from
                sources[number] = _source(logstore.extent_path(log_dir, number, ring), number == present[-1])
    return MemberLog(member, log_dir, extents, [sources[number] for number in extents])


def read_source(source: Source, wanted: ds.Expression, columns: list[str] = COLUMNS) -> pa.Table:
    """The records of a source that match wanted, in columns (a copy's row groups skipped by their statistics)."""
    if isinstance(source, pa.Table):
        return source.filter(wanted).select(columns)
    return pq.read_table(source, columns=columns, filters=wanted)


def backup_marks(log: MemberLog, backup: Backup, cf: str) -> int:
    """Check the backup's SBKS and SBKE records; the count of entries its SBKE says were backed up."""
    wanted = ds.field(LSN).isin([backup.start_lsn, backup.end_lsn]) & ds.field(KIND).isin(list(BACKUP_MARKS))
    marks = pa.concat_tables([read_source(source, wanted) for source in log.sources]) if log.sources else None
    found = {(row[LSN], row[KIND]): row for row in marks.to_pylist()} if marks is not None else {}
    started, ended = found.get((backup.start_lsn, "SBKS")), found.get((backup.end_lsn, "SBKE"))
    if started is None or ended is None or started[STRUCTURE] != cf or ended[STRUCTURE] != cf:
        raise BackupUnusable(
            backup.member, f"no backup of {cf} from LSN {backup.start_lsn} to {backup.end_lsn}"
        )
    if started[LRSN] < backup.lrsn:  # it is as of its start, or an LRSN before (EXCLINT): never after
        raise BackupUnusable(backup.member, f"it started at LRSN {started[LRSN]}, before {backup.lrsn}")
    return ended[ENTRY_COUNT] or 0


def check_count(backup: Backup, said: int, restored: int) -> None:
    if said != restored:
        raise BackupUnusable(backup.member, f"its end says {said} entries, {restored} are there")


def entries_table(rows: list[dict]) -> pa.Table:
    """Entries (dicts of ENTRY_FIELDS) as the result's table, sorted by entry id."""
    return by_entry_id(pa.Table.from_pylist(rows, schema=ENTRY_SCHEMA))


def by_entry_id(table: pa.Table) -> pa.Table:
    """table sorted by entry id (e). Arrow gathers a column on one thread: the columns are gathered
    side by side, which at millions of entries takes a half to a third of the time."""
    order = pc.sort_indices(table[ENTRY])
    with ThreadPoolExecutor(max_workers=min(table.num_columns, os.cpu_count() or 1) or 1) as pool:
        columns = list(pool.map(lambda column: column.take(order), table.columns))
    return pa.table(columns, schema=table.schema)


def prepare(
    cf: str, members: Mapping[str, Path], backup: Backup | None, purged: Purged | None = None
) -> tuple[int, list[MemberLog], int | None]:
    """(the LRSN the recovery starts after - the backup's, else the purge's, else 0 -, each member's log
    to read, the entry count the backup's end gives). backup is given only if taken after the purge
    (its LRSN at or after the purge's); the purge bounds the logs read either way."""
    if backup is not None and backup.member not in members:
        raise BackupUnusable(backup.member, "its log is not among those to read")
    lrsn = backup.lrsn if backup is not None else purged.lrsn if purged is not None else 0
    logs = member_logs(members, lrsn, backup, purged)
    said = None
    if backup is not None:
        with member_log(backup.member):
            said = backup_marks(next(log for log in logs if log.member == backup.member), backup, cf)
    return lrsn, logs, said


def wanted(cf: str, lrsn: int, backup: Backup | None) -> ds.Expression:
    """The records of one member's log a recovery takes (backup: the member's, if it took it).

    Unit endings are taken whatever structures they list: whether cfs lists cf
    is looked at once they are read (listing_cf).
    """
    kind, after = ds.field(KIND), ds.field(LRSN) > lrsn
    taken = (kind.isin(list(CHANGES)) & (ds.field(STRUCTURE) == cf) & after) | (
        kind.isin(list(ENDINGS)) & after
    )
    if backup is not None:
        taken = taken | (
            (kind == "SBKP")
            & (ds.field(STRUCTURE) == cf)
            & (ds.field(LSN) >= backup.start_lsn)
            & (ds.field(LSN) <= backup.end_lsn)
        )
    return taken


def listing_cf(records: pa.Table, cf: str) -> pa.Table:
    """records without the unit endings whose cfs does not list cf."""
    listed = pc.list_parent_indices(records[STRUCTURES]).filter(
        pc.equal(pc.list_flatten(records[STRUCTURES]), cf)
    )
    keep = pc.invert(pc.is_in(records[KIND], value_set=pa.array(ENDINGS)))
    if len(listed):
        rows = pc.subtract(pc.cumulative_sum(pa.repeat(pa.scalar(1, pa.int64()), len(records))), 1)
        keep = pc.or_(keep, pc.is_in(rows, value_set=pc.unique(listed)))
    return records.filter(keep)
