"""An extent's records as Arrow tables: what a columnar copy holds, and what is worked out from it.

The records replay works on become typed columns, named and typed as the
record definitions give them (mqsh.store.records.column_types); an object
record (OBJ, IMG) also keeps its whole JSON text in the body column, because
its attributes and message images have no fixed shape. From that table come
the extent's summary (summarize: what replay needs to know of each object
apart from its messages), the records a recovery of a coupling-facility
structure reads (shared_records) and their tally. mqsh.store.columnar writes
them beside the extent and finds them again.
"""

from __future__ import annotations

import io
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.json as pajson

from mqsh.store import records, settled, shared_units
from mqsh.store.log import LSN_PREFIX, checked_body
from mqsh.store.records import (
    BLOCK,
    BLOCKS,
    BODY,
    CREATED,
    ENTRY,
    ENTRY_COUNT,
    INT,
    KIND,
    LONG,
    LRSN,
    LSN,
    MEMBER,
    OBJECT_KEY,
    OBJECT_KEY_COLUMN,
    OBJECT_KINDS,
    OWNER,
    PRIORITY,
    PUT_TIME,
    QUEUE,
    QUEUES,
    SHARED_QUEUE,
    SIZE,
    STATE,
    STRING,
    STRINGS,
    STRUCTURE,
    STRUCTURES,
    SUMMARY_COUNT,
    SUMMARY_FIRST,
    SUMMARY_NEWEST,
    SUMMARY_OBJECTS,
    UNIT,
    UNIT_ENDINGS,
)

# name -> type of the typed columns, as the record definitions give them; the Spark replay derives
# its schema from this too.
FIELDS = records.column_types()
OBJECT_RECORDS = (records.ObjectChanged.KIND, records.ObjectImage.KIND)
# BLOCKS (n) is an object's name in OBJ and IMG records and a block count in these: a JSON column of
# two types cannot be read typed, so it is read apart, from these records only.
COUNTED_RECORDS = (records.SharedBlock.KIND, records.SharedPut.KIND, records.BackupEntry.KIND)
# Absent from copies made before they were.
SHARED_FIELDS = (STRUCTURE, SHARED_QUEUE, ENTRY, OWNER, BLOCK, BLOCKS, LRSN, STRUCTURES, STATE, MEMBER)
# The shared-message records (a structure's changes, a backup's start, entries and end), and the
# columns a recovery of a structure reads of them and of the unit endings that name structures.
SHARED_RECORDS = tuple(
    kind.KIND
    for kind in (
        records.SharedBlock,
        records.SharedPut,
        records.SharedGet,
        records.BackupStarted,
        records.BackupEntry,
        records.BackupEnded,
    )
)
SHARED_COLUMNS = [
    LSN,
    KIND,
    STRUCTURE,
    SHARED_QUEUE,
    ENTRY,
    PRIORITY,
    SIZE,
    PUT_TIME,
    UNIT,
    OWNER,
    BLOCK,
    BLOCKS,
    LRSN,
    STRUCTURES,
    ENTRY_COUNT,
    STATE,
    MEMBER,
    *shared_units.SCHEMA.names,
]
SHARED_ORDER = [(KIND, "ascending"), (LSN, "ascending")]  # by kind, then LSN
# With the unit endings, the records a recovery counts, and what tally reads of them.
TALLIED_CHANGES = (
    records.SharedBlock.KIND,
    records.SharedPut.KIND,
    records.SharedGet.KIND,
    records.BackupEntry.KIND,
)
TALLIED_COLUMNS = [KIND, STRUCTURE, OWNER, LRSN, LSN, STRUCTURES]
_ARROW_TYPES = {
    LONG: pa.int64(),
    INT: pa.int32(),
    STRING: pa.string(),
    STRINGS: pa.list_(pa.string()),
}
ARROW_KINDS = {arrow: kind for kind, arrow in _ARROW_TYPES.items()}  # the FIELDS kind of an Arrow type
SCHEMA = pa.schema([(name, _ARROW_TYPES[kind]) for name, kind in FIELDS.items()])
_PARSED = pa.schema([field for field in SCHEMA if field.name != BLOCKS])
_COUNTS = pa.schema([(BLOCKS, SCHEMA.field(BLOCKS).type)])


class DamagedExtent(Exception):
    """A sealed extent holds a line that fails its checksum: no copy is made of it."""


def _first_from(bodies: list[bytes], from_lsn: int) -> int:
    """The index of the first body whose LSN is from_lsn or later: records are in LSN order.

    Found by each record's LSN prefix (log.LSN_PREFIX), so the records before a
    restart point are checked but never parsed; 0 where a record does not start
    so, and the caller's filter then decides.
    """
    low, high = 0, len(bodies)
    while low < high:
        middle = (low + high) // 2
        prefix = LSN_PREFIX.match(bodies[middle])
        if prefix is None:
            return 0
        if int(prefix[1]) < from_lsn:
            low = middle + 1
        else:
            high = middle
    return low


def extent_table(data: bytes, newest: bool = False, from_lsn: int = 0) -> pa.Table:
    """The records of an extent's bytes as columns; DamagedExtent if a line fails its checksum.

    The newest extent may end in a write cut short by a crash (the torn-tail
    rule of log.read_records): with newest, that last line is left out. Every
    line is checked; only those from from_lsn on are parsed (and a few before).
    """
    lines = data.split(b"\n")
    unfinished = lines.pop()  # what follows the last newline: nothing, or a line never finished
    bodies = [checked_body(line) for line in lines]
    if unfinished:
        bodies.append(None)
    if newest and bodies and bodies[-1] is None:
        bodies.pop()
    bodies_read = [body for body in bodies if body is not None]
    if len(bodies_read) != len(bodies):
        raise DamagedExtent()
    if from_lsn:
        bodies_read = bodies_read[_first_from(bodies_read, from_lsn) :]
    if not bodies_read:
        return SCHEMA.empty_table().append_column(BODY, pa.array([], pa.string()))
    texts = pa.array(bodies_read, pa.binary())
    try:
        table = _read_json(b"\n".join(bodies_read), _PARSED)
        table = table.append_column(BLOCKS, _block_counts(table[KIND], texts))
    except pa.ArrowInvalid:
        raise DamagedExtent() from None
    objects = pc.is_in(table[KIND], value_set=pa.array(OBJECT_RECORDS))
    body = pc.if_else(objects, texts.cast(pa.string()), pa.scalar(None, pa.string()))
    return table.select(list(FIELDS)).append_column(BODY, body)


def _read_json(text: bytes, schema: pa.Schema) -> pa.Table:
    return pajson.read_json(
        io.BytesIO(text),
        parse_options=pajson.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore"),
    )


def _block_counts(kinds: pa.ChunkedArray, texts: pa.Array) -> pa.Array:
    """The BLOCKS column: the block count of each shared-message record (COUNTED_RECORDS), null elsewhere."""
    counted = pc.is_in(kinds, value_set=pa.array(COUNTED_RECORDS)).combine_chunks()
    none = pa.nulls(len(texts), _COUNTS.field(BLOCKS).type)
    if not pc.any(counted).as_py():
        return none
    chosen = texts.filter(counted)
    joined = pc.binary_join(pa.ListArray.from_arrays(pa.array([0, len(chosen)], pa.int32()), chosen), b"\n")
    counts = _read_json(joined[0].as_py(), _COUNTS)[BLOCKS].combine_chunks()
    return pc.replace_with_mask(none, counted, counts)


def summarize(table: pa.Table) -> dict[str, Any]:
    """An extent's records (a table as extent_table makes) as replay's per-object facts.

    count: records; first: the first LSN; newest: object key -> [newest LSN of
    a record touching it, newest CLR LSN or None]; objects: [lsn, t, k, c] of
    every OBJ, IMG and DEL record. A record touches the object it names (k),
    its queue (q), or, for a commit or backout, each queue it lists (qs).
    """
    if len(table) == 0:
        return {SUMMARY_COUNT: 0, SUMMARY_FIRST: None, SUMMARY_NEWEST: {}, SUMMARY_OBJECTS: []}
    kind, lsn = table[KIND], table[LSN]
    is_object = pc.is_in(kind, value_set=pa.array(OBJECT_KINDS))
    endings = table.filter(pc.is_in(kind, value_set=pa.array(UNIT_ENDINGS)))
    listed = pc.list_flatten(endings[QUEUES])
    no_lsn = pa.scalar(None, pa.int64())
    touches = pa.concat_tables(
        [
            pa.table(
                {
                    OBJECT_KEY_COLUMN: pc.if_else(
                        is_object, table[OBJECT_KEY], settled.queue_keys(table[QUEUE])
                    ),
                    LSN: lsn,
                    "clr": pc.if_else(pc.equal(kind, records.Clear.KIND), lsn, no_lsn),
                }
            ),
            pa.table(
                {
                    OBJECT_KEY_COLUMN: settled.queue_keys(listed),
                    LSN: pc.take(endings[LSN], pc.list_parent_indices(endings[QUEUES])),
                    "clr": pa.nulls(len(listed), pa.int64()),
                }
            ),
        ]
    )
    newest = (
        touches.filter(pc.is_valid(touches[OBJECT_KEY_COLUMN]))
        .group_by(OBJECT_KEY_COLUMN)
        .aggregate([(LSN, "max"), ("clr", "max")])
    )
    objects = table.filter(is_object).select([LSN, KIND, OBJECT_KEY, CREATED])
    return {
        SUMMARY_COUNT: len(table),
        SUMMARY_FIRST: pc.min(lsn).as_py(),
        SUMMARY_NEWEST: dict(
            zip(
                newest[OBJECT_KEY_COLUMN].to_pylist(),
                zip(newest[f"{LSN}_max"].to_pylist(), newest["clr_max"].to_pylist()),
            )
        ),
        SUMMARY_OBJECTS: [list(row.values()) for row in objects.to_pylist()],
    }


def shared_records(table: pa.Table) -> pa.Table:
    """The records of an extent (a table as extent_table makes) that a recovery of a structure reads.

    The shared-message records, and the unit endings with an LRSN (those of
    units that touched a structure), in SHARED_COLUMNS, sorted by kind and
    then LSN: written in row groups of a few kinds each (mqsh.store.columnar),
    a reader that wants one kind (the endings, the gets, the puts) skips the
    other kinds' groups by their statistics. The units of work that end
    within the extent are settled (mqsh.store.shared_units).
    """
    kind = table[KIND]
    taken = pc.or_(
        pc.is_in(kind, value_set=pa.array(SHARED_RECORDS)),
        pc.and_(pc.is_in(kind, value_set=pa.array(UNIT_ENDINGS)), pc.is_valid(table[LRSN])),
    )
    shared = table.filter(taken).select(SHARED_COLUMNS[: -len(shared_units.SCHEMA)])
    for name, column in zip(shared_units.SCHEMA.names, shared_units.settle(shared, pc.min(table[LSN]))):
        shared = shared.append_column(name, column)
    return shared.sort_by(SHARED_ORDER)


def tally(shared: pa.Table) -> list[list[Any]]:
    """The shared records of a table (with TALLIED_COLUMNS) counted by kind, structure and,
    for SBLK, data set owner: [t, cf, o, records, dated, lowest r, highest r, lowest LSN, highest
    LSN] a group.

    A group gives its count of records, how many have an LRSN (dated), and
    the range of their LRSNs and LSNs. A unit ending counts once for each
    structure its cfs lists. Written with the shared records of a sealed
    extent, it tells a recovery what it counts of the extent without reading
    its records, unless the backup falls inside a group's range.
    """
    kind = shared[KIND]
    changes = shared.filter(pc.is_in(kind, value_set=pa.array(TALLIED_CHANGES)))
    endings = shared.filter(pc.is_in(kind, value_set=pa.array(UNIT_ENDINGS)))
    listed = pa.table(
        {"row": pc.list_parent_indices(endings[STRUCTURES]), STRUCTURE: pc.list_flatten(endings[STRUCTURES])}
    )
    listed = listed.group_by(["row", STRUCTURE]).aggregate([])  # a structure listed twice is listed once
    rows = pa.concat_tables(
        [
            pa.table(
                {
                    KIND: changes[KIND],
                    STRUCTURE: changes[STRUCTURE],
                    OWNER: pc.if_else(
                        pc.equal(changes[KIND], records.SharedBlock.KIND),
                        changes[OWNER],
                        pa.scalar(None, pa.string()),
                    ),
                    LRSN: changes[LRSN],
                    LSN: changes[LSN],
                }
            ),
            pa.table(
                {
                    KIND: pc.take(endings[KIND], listed["row"]),
                    STRUCTURE: listed[STRUCTURE],
                    OWNER: pa.nulls(len(listed), pa.string()),
                    LRSN: pc.take(endings[LRSN], listed["row"]),
                    LSN: pc.take(endings[LSN], listed["row"]),
                }
            ),
        ]
    )
    groups = rows.group_by([KIND, STRUCTURE, OWNER]).aggregate(
        [([], "count_all"), (LRSN, "count"), (LRSN, "min"), (LRSN, "max"), (LSN, "min"), (LSN, "max")]
    )
    counted = [f"{LRSN}_count", f"{LRSN}_min", f"{LRSN}_max", f"{LSN}_min", f"{LSN}_max"]
    return [
        [row[name] for name in (KIND, STRUCTURE, OWNER, "count_all", *counted)] for row in groups.to_pylist()
    ]
