"""The space scan in process, at columnar speed (pyarrow), and the read of a structure's entries into Arrow.

The rules of mqsh.recovery.spacemap.reference over whole columns. The runs
of blocks in use come from the entries' extents sorted by first block: an
extent starts a new run where it begins past the furthest end of the extents
before it (a running maximum), and a run ends at the furthest end of its own.
"""

from __future__ import annotations

import sqlite3

import pyarrow as pa
import pyarrow.compute as pc

from mqsh.recovery.spacemap.reference import SpaceScan
from mqsh.store.records import BLOCK, BLOCKS, ENTRY, OWNER

BATCH_ROWS = (
    1_000_000  # rowids read per statement: keeps each column's text far below SQLite's 1 GB string limit
)
SEPARATOR = "\x1f"  # between the values of a column's text: no entry id holds it
# One batch: each column as one text, built by SQLite, which Arrow then splits and parses - no Python
# object for each value (1 M entries: 0.6 s, against 2.9 s fetching rows and building arrays from them).
# The aggregates step over the same rows in the same order, so the columns line up; NULLs read as
# space_reference.extent reads them (group_concat would skip them).
BATCH = (
    f"SELECT count(*), group_concat({ENTRY}, {{sep}}), group_concat(coalesce({BLOCK}, 0), {{sep}}), "
    f"group_concat(coalesce(nullif({BLOCKS}, 0), 1), {{sep}}) FROM entry WHERE {OWNER} = ? "
    "AND rowid BETWEEN ? AND ?"
).format(sep=f"char({ord(SEPARATOR)})")
SCHEMA = pa.schema([(ENTRY, pa.string()), (BLOCK, pa.int64()), (BLOCKS, pa.int64())])


def _split(text: str, kind: pa.DataType) -> pa.Array:
    return pc.split_pattern(pa.array([text]), SEPARATOR).flatten().cast(kind)


def read_entries(db: sqlite3.Connection, owner: str) -> pa.Table:
    """owner's entries (entry id, first block, blocks) as a table, read in one snapshot of the structure.

    Through the structure's own connection: a second SQLite library in the
    process (an Arrow-native driver) would hold its own POSIX locks on the
    same file, which either library's close would release for both.
    """
    outside = not db.in_transaction
    if outside:
        db.execute("BEGIN")  # a read transaction: every batch sees the same structure
    try:
        low, high = db.execute("SELECT min(rowid), max(rowid) FROM entry").fetchone()
        batches = []
        for start in range(low or 0, (high or -1) + 1, BATCH_ROWS):
            count, e, b, n = db.execute(BATCH, (owner, start, start + BATCH_ROWS - 1)).fetchone()
            if count:
                batches.append(
                    pa.table(
                        [_split(e, pa.string()), _split(b, pa.int64()), _split(n, pa.int64())], schema=SCHEMA
                    )
                )
    finally:
        if outside:
            db.execute("COMMIT")
    return pa.concat_tables(batches) if batches else SCHEMA.empty_table()


def runs(firsts: pa.Array, ends: pa.Array) -> list[tuple[int, int]]:
    """Runs of blocks in use, (first, count), from extents [first, end) sorted by first."""
    if len(firsts) == 0:
        return []
    reach = pc.cumulative_max(ends)  # the furthest end so far
    starts = pa.concat_arrays([pa.array([True]), pc.greater(firsts[1:], reach[:-1])])
    begin = pc.indices_nonzero(starts)
    last = pa.concat_arrays(
        [pc.subtract(begin[1:], pa.scalar(1, begin.type)), pa.array([len(firsts) - 1], begin.type)]
    )
    first = pc.take(firsts, begin)
    return list(zip(first.to_pylist(), pc.subtract(pc.take(reach, last), first).to_pylist()))


def scan(entries: pa.Table, total: int) -> SpaceScan:
    """The scan of an owner's entries (read_entries) against a data set of total blocks."""
    if len(entries) == 0:
        return SpaceScan([], 0, None, [])
    ends = pc.add(entries[BLOCK], entries[BLOCKS])
    past = entries.filter(pc.greater(ends, total))
    newest = entries.slice(pc.index(entries[ENTRY], pc.max(entries[ENTRY])).as_py(), 1).to_pylist()[0]
    order = pc.sort_indices(entries[BLOCK])
    return SpaceScan(
        runs(pc.take(entries[BLOCK], order).combine_chunks(), pc.take(ends, order).combine_chunks()),
        len(entries),
        (newest[ENTRY], newest[BLOCK], newest[BLOCKS]),
        past.sort_by(ENTRY)[ENTRY].to_pylist(),
    )
