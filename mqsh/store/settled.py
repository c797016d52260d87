"""A sealed extent's message moves, settled once when it is sealed.

Replay decides which messages are still on a queue by matching, across the
whole log, every put with the get that takes it and every unit of work with
its ending. Most of that matching never leaves one extent: a message put and
got within it, a unit of work begun and ended within it. So when an extent is
sealed that part is done once, here, and kept already reconciled: the puts and
gets of a unit that ends in the extent take its outcome (backed out: they
never happened; committed: as if made outside a unit), and then a committed
put and the committed get that takes it cancel out. What is left is what
replay still has to match against the rest of the log: the moves. An ending
stays among them unless its unit began in the extent: a unit's id starts with
the LSN it began at (as the queue manager makes them), so one that may have
begun earlier keeps its ending for the records it left there.

Settling merges records, which is only right while replay counts all of them
or none: a replay starts counting a queue's records afresh after its object
file's LSN and after its latest image, clear or re-creation. spans gives, per
queue, the first and last LSN of the records settled; a replay whose point
falls inside a queue's span reads that queue's records in the extent instead.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from mqsh.store.records import (
    KIND,
    LSN,
    MSGID,
    OBJECT_KEY_COLUMN,
    PRIORITY,
    PUT_TIME,
    QUEUE,
    QUEUES,
    SIZE,
    UNIT,
    UNIT_ENDINGS,
    Backout,
    Get,
    Put,
)

SCHEMA = pa.schema(
    [
        (OBJECT_KEY_COLUMN, pa.string()),
        (LSN, pa.int64()),
        (KIND, pa.string()),
        (MSGID, pa.string()),
        (PRIORITY, pa.int32()),
        (SIZE, pa.int64()),
        (PUT_TIME, pa.string()),
        (UNIT, pa.string()),
    ]
)
Spans = dict[str, list[int]]  # queue key -> [first, last] LSN of the records settled


def queue_keys(names: pa.Array) -> pa.Array:
    """Queue names as the object keys replay tracks them by (QUEUE/name)."""
    return pc.binary_join_element_wise("QUEUE/", names, "")


def _moves_and_endings(table: pa.Table) -> tuple[pa.Table, pa.Table]:
    """Puts and gets, and endings (one row per queue a CMT or BCK names), in the moves' shape."""
    operations = table.filter(pc.is_in(table[KIND], value_set=pa.array([Put.KIND, Get.KIND])))
    moves = pa.table(
        {
            OBJECT_KEY_COLUMN: queue_keys(operations[QUEUE]),
            **{name: operations[name] for name in SCHEMA.names[1:]},
        },
        schema=SCHEMA,
    )
    ending_records = table.filter(pc.is_in(table[KIND], value_set=pa.array(UNIT_ENDINGS)))
    owner = pc.list_parent_indices(ending_records[QUEUES])
    listed = pc.list_flatten(ending_records[QUEUES])
    endings = pa.table(
        {
            OBJECT_KEY_COLUMN: queue_keys(listed),
            LSN: pc.take(ending_records[LSN], owner),
            KIND: pc.take(ending_records[KIND], owner),
            MSGID: pa.nulls(len(listed), pa.string()),
            PRIORITY: pa.nulls(len(listed), pa.int32()),
            SIZE: pa.nulls(len(listed), pa.int64()),
            PUT_TIME: pa.nulls(len(listed), pa.string()),
            UNIT: pc.take(ending_records[UNIT], owner),
        },
        schema=SCHEMA,
    )
    return moves, endings


def raw_moves(table: pa.Table) -> pa.Table:
    """Records' puts, gets and endings as moves, none settled: what a replay reads of a queue cut inside a span."""
    return pa.concat_tables(_moves_and_endings(table))


def began_at_or_after(units: pa.ChunkedArray, lsn: pa.Scalar) -> pa.ChunkedArray:
    """Whether each unit's id says it began at lsn or later (false when it does not say)."""
    start = pc.list_element(pc.split_pattern(units, ".", max_splits=1), 0)
    number = pc.if_else(pc.utf8_is_digit(start), start, "-1")  # utf8_is_digit is false for ""
    return pc.fill_null(pc.greater_equal(pc.cast(number, pa.int64()), lsn), False)


def settle(table: pa.Table) -> tuple[pa.Table, Spans]:
    """An extent's records (as extent_tables.extent_table makes them) as (moves, spans)."""
    moves, endings = _moves_and_endings(table)
    # Each unit ends once per queue and the first ending counts: coded lsn * 2, + 1 for a backout.
    coded = endings.append_column(
        "code",
        pc.add(pc.multiply(endings[LSN], 2), pc.cast(pc.equal(endings[KIND], Backout.KIND), pa.int64())),
    )
    outcomes = (
        coded.group_by([OBJECT_KEY_COLUMN, UNIT])
        .aggregate([("code", "min")])
        .rename_columns([OBJECT_KEY_COLUMN, UNIT, "code"])
    )
    moves = moves.join(
        outcomes, keys=[OBJECT_KEY_COLUMN, UNIT], join_type="left outer"
    )  # a null unit matches nothing
    resolved = pc.is_valid(moves["code"])
    ended = moves.filter(resolved)
    settled = [
        ended.select([OBJECT_KEY_COLUMN, LSN]),
        pa.table({OBJECT_KEY_COLUMN: ended[OBJECT_KEY_COLUMN], LSN: pc.shift_right(ended["code"], 1)}),
    ]
    # Backed out: never happened. Committed: as if no unit held it.
    committed = pc.equal(pc.bit_wise_and(pc.fill_null(moves["code"], 0), 1), 0)
    moves = moves.filter(pc.or_(pc.invert(resolved), committed))
    moves = moves.set_column(
        moves.schema.get_field_index(UNIT),
        UNIT,
        pc.if_else(pc.is_valid(moves["code"]), pa.scalar(None, pa.string()), moves[UNIT]),
    )
    # A committed put and a committed get of the same message on the same queue cancel out.
    free = moves.filter(pc.is_null(moves[UNIT]))
    put = free.filter(pc.equal(free[KIND], Put.KIND)).select([OBJECT_KEY_COLUMN, MSGID])
    got = free.filter(pc.equal(free[KIND], Get.KIND)).group_by([OBJECT_KEY_COLUMN, MSGID]).aggregate([])
    pairs = put.join(got, keys=[OBJECT_KEY_COLUMN, MSGID], join_type="inner")
    moves = moves.join(
        pairs.append_column("gone", pa.repeat(True, len(pairs))),
        keys=[OBJECT_KEY_COLUMN, MSGID],
        join_type="left outer",
    )
    cancelled = pc.and_(pc.is_null(moves[UNIT]), pc.is_valid(moves["gone"]))
    settled.append(moves.filter(cancelled).select([OBJECT_KEY_COLUMN, LSN]))
    moves = pa.concat_tables(
        [
            moves.filter(pc.invert(cancelled)).select(SCHEMA.names),
            endings.filter(pc.invert(began_at_or_after(endings[UNIT], pc.min(table[LSN])))),
        ]
    )
    spans = pa.concat_tables(settled).group_by(OBJECT_KEY_COLUMN).aggregate([(LSN, "min"), (LSN, "max")])
    return (
        moves.sort_by(LSN),
        {
            key: [first, last]
            for key, first, last in zip(
                *(spans[name].to_pylist() for name in (OBJECT_KEY_COLUMN, f"{LSN}_min", f"{LSN}_max"))
            )
        },
    )
