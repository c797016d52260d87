"""Replay in process at columnar speed: what mqsh.recovery.replay.reference means, as Arrow operations.

The Spark replay's method (mqsh.recovery.replay.spark), done here with
pyarrow, for a log one process holds comfortably:

* each object's fate comes from the extents' summaries: a sealed extent's
  columnar copy carries its summary, the active extent (and the one the
  restart point falls in) are summarized as they are parsed;
* the message moves come from the extents' settled moves (mqsh.store.settled),
  or from their records where a queue's file or epoch starts inside what an
  extent settled, and where an extent has no copy;
* the survivors' query (mqsh.recovery.replay.survivors_sql.SURVIVORS) is answered by
  joins and group-bys over the moves kept to their queues' epochs.

The log is read as the reference reader reads it: ExtentMissing for a gap,
LogCorrupt for a damaged record, a torn last line of the newest extent left
out. A copy found damaged inside is made again from its extent, once.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from mqsh.recovery.replay import fates as fating
from mqsh.recovery.replay import summaries
from mqsh.recovery.replay.fates import Replayed
from mqsh.recovery.replay.reference import State, queue_key
from mqsh.store import columnar, extent_tables, putnotes, settled
from mqsh.store import log as logstore
from mqsh.store.putnotes import Putters
from mqsh.store.records import (
    DOCUMENT_PUT_TIME,
    KIND,
    LSN,
    MESSAGES,
    MSGID,
    OBJECT_KEY_COLUMN,
    PRIORITY,
    PUT_TIME,
    SIZE,
    STATE,
    SUMMARY_FIRST,
    UNIT,
)
from mqsh.store.records import UNIT_ENDINGS as ENDING_KINDS

UNIT_ENDINGS = pa.array(ENDING_KINDS)
OPERATIONS = pa.array(["PUT", "GET"])


@dataclass
class ExtentPart:
    """What the replay reads of one extent: its records from the restart point on, their facts, moves."""

    facts: dict  # extent_tables.summarize's shape
    bodies: summaries.BodyReader
    records: Callable[[], pa.Table]  # read when needed (a sealed extent's from its copy)
    moves: columnar.Moves | None  # settled when sealed; None: the records' moves are taken as they are
    endings: Callable[[], pa.Table]  # the extent's CMT and BCK records (kind, unit): settling drops some

    def moves_for(self, cuts: dict[str, list[int]]) -> pa.Table:
        """The extent's moves; a queue a replay counts afresh from inside what it settled is read raw."""
        if self.moves is None:
            return settled.raw_moves(self.records())
        table = columnar.moves_table(self.moves)
        if table is None:
            return settled.raw_moves(self.records())  # moves unreadable: the records say the same
        dirty = sorted(
            key
            for key, (first, last) in self.moves.spans.items()
            if any(first <= cut < last for cut in cuts.get(key, ()))
        )
        if not dirty:
            return table
        raw = settled.raw_moves(self.records())
        names = pa.array(dirty, pa.string())
        return pa.concat_tables(
            [
                raw.filter(pc.is_in(raw[OBJECT_KEY_COLUMN], value_set=names)),
                table.filter(pc.invert(pc.is_in(table[OBJECT_KEY_COLUMN], value_set=names))),
            ]
        )


def _text_table(extent: Path, newest: bool, from_lsn: int) -> pa.Table:
    try:
        return extent_tables.extent_table(extent.read_bytes(), newest, from_lsn)
    except extent_tables.DamagedExtent:
        good, _last = logstore.valid_end(extent)
        raise logstore.LogCorrupt(extent.name, good) from None


def _endings(table: pa.Table) -> pa.Table:
    return table.filter(pc.is_in(table[KIND], value_set=UNIT_ENDINGS)).select([KIND, UNIT])


def _in_memory(table: pa.Table) -> ExtentPart:
    return ExtentPart(
        extent_tables.summarize(table),
        functools.partial(columnar.bodies_at, table),
        lambda: table,
        None,
        functools.cache(functools.partial(_endings, table)),
    )


def read_parts(
    log_dir: Path, first_extent: int, from_lsn: int, remake_copies: bool = False
) -> list[ExtentPart]:
    """The extents from first_extent on, each as the replay reads it (records with lsn >= from_lsn)."""
    ring = logstore.read_ring(log_dir)
    extents = [
        logstore.extent_path(log_dir, number, ring) for number in logstore.extents_from(log_dir, first_extent)
    ]
    parts = []
    for index, extent in enumerate(extents):
        newest = index == len(extents) - 1
        copy = None if newest else columnar.ensure_copy(extent, remake_copies)
        facts = columnar.summary_of(copy) if copy is not None else None
        if facts is not None and (facts[SUMMARY_FIRST] is None or facts[SUMMARY_FIRST] >= from_lsn):
            parts.append(
                ExtentPart(
                    facts,
                    functools.partial(columnar.bodies_at, copy),
                    functools.cache(functools.partial(pq.read_table, copy)),
                    columnar.usable_moves(extent),
                    functools.cache(
                        functools.partial(
                            pq.read_table,
                            copy,
                            columns=[KIND, UNIT],
                            filters=[(KIND, "in", list(ENDING_KINDS))],
                        )
                    ),
                )
            )
            continue
        table = pq.read_table(copy) if copy is not None else _text_table(extent, newest, from_lsn)
        parts.append(_in_memory(table.filter(pc.greater_equal(table[LSN], from_lsn))))
    return parts


def survivors(moves: pa.Table, epochs: pa.Table, base_messages: pa.Table) -> pa.Table:
    """The survivors' query (mqsh.recovery.replay.survivors_sql.SURVIVORS), over moves kept to their epochs.

    Rows join queues (moves, the messages of an image that starts an epoch, the
    messages of a queue's file that carry on); each put and get meets its unit's
    first ending on the queue; a message is gone if a get took it, held if a get
    in a unit still in flight got it.
    """
    schema = pa.schema(
        [
            ("log", pa.int32()),
            (OBJECT_KEY_COLUMN, pa.string()),
            ("olsn", pa.int64()),
            ("pos", pa.int64()),
            *fating.MESSAGE_SCHEMA,
            ("kind", pa.string()),
        ]
    )
    parts = [
        pa.table(
            {
                "log": moves["log"],
                OBJECT_KEY_COLUMN: moves[OBJECT_KEY_COLUMN],
                "olsn": moves[LSN],
                "pos": pa.repeat(pa.scalar(0, pa.int64()), len(moves)),
                MSGID: moves[MSGID],
                PRIORITY: moves[PRIORITY],
                SIZE: moves[SIZE],
                DOCUMENT_PUT_TIME: moves[PUT_TIME],
                STATE: pc.if_else(pc.is_null(moves[UNIT]), "C", "P"),
                UNIT: moves[UNIT],
                "kind": moves[KIND],
            },
            schema=schema,
        )
    ]
    queues = epochs.to_pylist()
    arrivals = [
        {
            **message,
            "log": queue["log"],
            OBJECT_KEY_COLUMN: queue[OBJECT_KEY_COLUMN],
            "olsn": queue["epoch"],
            "pos": pos,
            "kind": "PUT",
        }
        for queue in queues
        if queue["image"] is not None
        for pos, message in enumerate(json.loads(queue["image"]).get(MESSAGES) or [])
    ]
    carried = {(queue["log"], queue[OBJECT_KEY_COLUMN]) for queue in queues if queue["base"]}
    arrivals += [
        {**message, "olsn": -1, "kind": "PUT"}
        for message in base_messages.to_pylist()
        if (message["log"], message[OBJECT_KEY_COLUMN]) in carried
    ]
    parts.append(pa.Table.from_pylist(arrivals, schema=schema))
    rows = pa.concat_tables(parts)
    kind = rows["kind"]
    ends = rows.filter(pc.is_in(kind, value_set=UNIT_ENDINGS))
    # A unit's first ending on the queue counts, coded lsn * 2, + 1 for a backout.
    ends = pa.table(
        {
            "log": ends["log"],
            OBJECT_KEY_COLUMN: ends[OBJECT_KEY_COLUMN],
            UNIT: ends[UNIT],
            "ending": pc.add(
                pc.multiply(ends["olsn"], 2), pc.cast(pc.equal(ends["kind"], "BCK"), pa.int64())
            ),
        }
    )
    ends = ends.group_by(["log", OBJECT_KEY_COLUMN, UNIT]).aggregate([("ending", "min")])
    moved = rows.filter(pc.is_in(kind, value_set=OPERATIONS)).join(
        ends, ["log", OBJECT_KEY_COLUMN, UNIT], join_type="left outer"
    )
    committed = pc.equal(pc.bit_wise_and(moved["ending_min"], 1), 0)  # null while in flight
    moved = moved.append_column("committed", committed)
    gets = moved.filter(pc.equal(moved["kind"], "GET"))
    taken = gets.filter(pc.or_(pc.is_null(gets[UNIT]), pc.fill_null(gets["committed"], False)))
    held = (
        gets.filter(pc.is_null(gets["ending_min"]))
        .group_by(["log", OBJECT_KEY_COLUMN, MSGID])
        .aggregate([(UNIT, "max")])
    )
    puts = (
        moved.filter(pc.equal(moved["kind"], "PUT"))
        .join(
            taken.select(["log", OBJECT_KEY_COLUMN, MSGID]),
            ["log", OBJECT_KEY_COLUMN, MSGID],
            join_type="left anti",
        )
        .join(held, ["log", OBJECT_KEY_COLUMN, MSGID], join_type="left outer")
    )
    st = puts[STATE]
    flipped = pc.equal(pc.equal(st, "P"), puts["committed"])  # a committed put, or a held get backed out
    st = pc.if_else(
        pc.equal(st, "C"),
        "C",
        pc.if_else(
            pc.is_null(puts["ending_min"]), st, pc.if_else(flipped, "C", pa.scalar(None, pa.string()))
        ),
    )
    puts = puts.set_column(puts.schema.get_field_index(STATE), STATE, st).filter(pc.is_valid(st))
    is_committed, got_in = pc.equal(puts[STATE], "C"), puts[f"{UNIT}_max"]
    kept = ("log", OBJECT_KEY_COLUMN, "olsn", "pos", MSGID, PRIORITY, SIZE, DOCUMENT_PUT_TIME)
    return pa.table(
        {
            **{name: puts[name] for name in kept},
            STATE: pc.if_else(pc.and_(is_committed, pc.is_valid(got_in)), "G", puts[STATE]),
            UNIT: pc.if_else(is_committed, got_in, puts[UNIT]),
        }
    )


def unit_rows(
    moves: pa.Table, endings: pa.Table, lost_queues: set[str], open_at_checkpoint: set[str]
) -> list[dict]:
    """Rows (log, u, queues, ended) for the units of work the replayed state cannot tell of.

    Units with work on queues whose files were lost at start (the replay has
    no queue to put it on), found in the moves: a unit that began and ended
    inside one sealed extent is settled there and needs no row. And units open
    at the checkpoint, which may have ended since (as in
    mqsh.recovery.replay.spark._unit_endings), found in the endings records
    themselves: one that began after the restart point may have been settled
    with its ending inside a later extent.
    """
    units: dict[str, dict] = {}

    def unit(uow: str) -> dict:
        return units.setdefault(uow, {"log": 0, UNIT: uow, "queues": set(), "ended": False})

    if lost_queues:
        lost = pc.is_in(
            moves[OBJECT_KEY_COLUMN], value_set=pa.array(sorted(map(queue_key, lost_queues)), pa.string())
        )
        wanted = moves.filter(pc.and_(pc.is_valid(moves[UNIT]), lost))
        for key, kind, uow in zip(*(wanted[name].to_pylist() for name in (OBJECT_KEY_COLUMN, KIND, UNIT))):
            if kind in ("PUT", "GET"):
                unit(uow)["queues"].add(key.partition("/")[2])
            else:
                unit(uow)["ended"] = True
    if open_at_checkpoint:
        opened = pa.array(sorted(open_at_checkpoint), pa.string())
        ended = endings.filter(pc.is_in(endings[UNIT], value_set=opened))
        for uow in ended[UNIT].to_pylist():
            unit(uow)["ended"] = True
    return list(units.values())


def _replay(
    state: State,
    parts: list[ExtentPart],
    open_at_checkpoint: dict[str, list[str]],
    lost_queues: set[str],
    notes: Putters | None = None,
) -> Replayed:
    summary = summaries.LogSummary()
    for part in parts:
        summary.add(part.facts, part.bodies)
    rows = summaries.fate_rows(summary, state)
    bases = [state]
    _objects, message_table = fating.base_tables(bases)
    results, fates = fating.read_rows(rows, bases, [open_at_checkpoint])

    @functools.cache
    def moves() -> pa.Table:
        cuts = fating.cuts(fates, state)
        table = pa.concat_tables([part.moves_for(cuts) for part in parts])
        return table.append_column("log", pa.repeat(pa.scalar(0, pa.int32()), len(table)))

    if lost_queues or open_at_checkpoint:
        endings = pa.concat_tables(part.endings() for part in parts) if open_at_checkpoint else None
        for row in unit_rows(moves(), endings, lost_queues, set(open_at_checkpoint)):
            fating.note_unit(results[0], row)
    if fates:
        fating.fill_queues(
            results,
            fates,
            bases,
            lambda epochs: survivors(fating.in_epoch(moves(), epochs), epochs, message_table),
            [notes],
        )
    fating.add_in_flight(results)
    return results[0]


def replay_log(
    state: State,
    log_dir: Path,
    first_extent: int,
    from_lsn: int,
    open_at_checkpoint: dict[str, list[str]],
    lost_queues: set[str],
) -> Replayed:
    """Replay a queue manager's log from its restart point over state (left unchanged).

    A copy is checked against its extent's size and CRC, not read through;
    one found damaged inside (its pages cannot be read) is made again from its
    extent and the replay made again, once.
    """
    if not logstore.list_extents(log_dir):
        return Replayed(dict(state), 0, [], fating.open_units(open_at_checkpoint))
    notes = putnotes.read(log_dir.parent)
    try:
        return _replay(
            state, read_parts(log_dir, first_extent, from_lsn), open_at_checkpoint, lost_queues, notes
        )
    except (OSError, pa.ArrowException):
        return _replay(
            state,
            read_parts(log_dir, first_extent, from_lsn, remake_copies=True),
            open_at_checkpoint,
            lost_queues,
            notes,
        )
