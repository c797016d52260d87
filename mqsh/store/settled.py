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

from mqsh.store.records import UNIT_ENDINGS

SCHEMA = pa.schema(
    [
        ("key", pa.string()),
        ("lsn", pa.int64()),
        ("t", pa.string()),
        ("m", pa.string()),
        ("p", pa.int32()),
        ("s", pa.int64()),
        ("tm", pa.string()),
        ("u", pa.string()),
    ]
)
Spans = dict[str, list[int]]  # queue key -> [first, last] LSN of the records settled


def queue_keys(names: pa.Array) -> pa.Array:
    """Queue names as the object keys replay tracks them by (QUEUE/name)."""
    return pc.binary_join_element_wise("QUEUE/", names, "")


def _moves_and_endings(table: pa.Table) -> tuple[pa.Table, pa.Table]:
    """Puts and gets, and endings (one row per queue a CMT or BCK names), in the moves' shape."""
    operations = table.filter(pc.is_in(table["t"], value_set=pa.array(["PUT", "GET"])))
    moves = pa.table(
        {"key": queue_keys(operations["q"]), **{name: operations[name] for name in SCHEMA.names[1:]}},
        schema=SCHEMA,
    )
    ending_records = table.filter(pc.is_in(table["t"], value_set=pa.array(UNIT_ENDINGS)))
    owner = pc.list_parent_indices(ending_records["qs"])
    listed = pc.list_flatten(ending_records["qs"])
    endings = pa.table(
        {
            "key": queue_keys(listed),
            "lsn": pc.take(ending_records["lsn"], owner),
            "t": pc.take(ending_records["t"], owner),
            "m": pa.nulls(len(listed), pa.string()),
            "p": pa.nulls(len(listed), pa.int32()),
            "s": pa.nulls(len(listed), pa.int64()),
            "tm": pa.nulls(len(listed), pa.string()),
            "u": pc.take(ending_records["u"], owner),
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
    """An extent's records (as columnar.extent_table makes them) as (moves, spans)."""
    moves, endings = _moves_and_endings(table)
    # Each unit ends once per queue and the first ending counts: coded lsn * 2, + 1 for a backout.
    coded = endings.append_column(
        "code", pc.add(pc.multiply(endings["lsn"], 2), pc.cast(pc.equal(endings["t"], "BCK"), pa.int64()))
    )
    outcomes = coded.group_by(["key", "u"]).aggregate([("code", "min")]).rename_columns(["key", "u", "code"])
    moves = moves.join(outcomes, keys=["key", "u"], join_type="left outer")  # a null unit matches nothing
    resolved = pc.is_valid(moves["code"])
    ended = moves.filter(resolved)
    settled = [
        ended.select(["key", "lsn"]),
        pa.table({"key": ended["key"], "lsn": pc.shift_right(ended["code"], 1)}),
    ]
    # Backed out: never happened. Committed: as if no unit held it.
    committed = pc.equal(pc.bit_wise_and(pc.fill_null(moves["code"], 0), 1), 0)
    moves = moves.filter(pc.or_(pc.invert(resolved), committed))
    moves = moves.set_column(
        moves.schema.get_field_index("u"),
        "u",
        pc.if_else(pc.is_valid(moves["code"]), pa.scalar(None, pa.string()), moves["u"]),
    )
    # A committed put and a committed get of the same message on the same queue cancel out.
    free = moves.filter(pc.is_null(moves["u"]))
    put = free.filter(pc.equal(free["t"], "PUT")).select(["key", "m"])
    got = free.filter(pc.equal(free["t"], "GET")).group_by(["key", "m"]).aggregate([])
    pairs = put.join(got, keys=["key", "m"], join_type="inner")
    moves = moves.join(
        pairs.append_column("gone", pa.repeat(True, len(pairs))), keys=["key", "m"], join_type="left outer"
    )
    cancelled = pc.and_(pc.is_null(moves["u"]), pc.is_valid(moves["gone"]))
    settled.append(moves.filter(cancelled).select(["key", "lsn"]))
    moves = pa.concat_tables(
        [
            moves.filter(pc.invert(cancelled)).select(SCHEMA.names),
            endings.filter(pc.invert(began_at_or_after(endings["u"], pc.min(table["lsn"])))),
        ]
    )
    spans = pa.concat_tables(settled).group_by("key").aggregate([("lsn", "min"), ("lsn", "max")])
    return (
        moves.sort_by("lsn"),
        {
            key: [first, last]
            for key, first, last in zip(*(spans[name].to_pylist() for name in ("key", "lsn_min", "lsn_max")))
        },
    )
