"""What both whole-log replays (columnar in process, and Spark) decide once their relational work is done.

The reference replayer (mqsh.recovery.replay.reference) applies records one by one.
The whole-log replays reach the same state in two steps. First, per object,
a handful of facts (mqsh.recovery.replay.summaries.fate_rows: the newest record,
CLR, image, deletion, creations) decide its fate: does it exist, with which
attributes, and where does its current "epoch" of messages start. Then the
messages of each surviving queue's epoch are worked out from the log's moves
(puts, gets, unit endings) by the survivors' query, in Arrow or in Spark.

This module holds what the two share: the fate of an object, the epochs table
the survivors' query reads, and the states built from the query's answer.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from mqsh.core.objects import MQObject, StoredMessage
from mqsh.recovery.replay import reference as replay
from mqsh.recovery.replay.reference import Record, State
from mqsh.store.putnotes import Putters
from mqsh.store.records import (
    ATTRIBUTES,
    BODY,
    DOCUMENT_PUT_TIME,
    KIND,
    LSN,
    MESSAGES,
    MSGID,
    NAME,
    OBJECT_KEY,
    OBJECT_KEY_COLUMN,
    OBJECT_TYPE,
    PRIORITY,
    SIZE,
    STATE,
    UNIT,
    UNIT_ENDINGS,
)

# A message's fields, as its document keys them, and their columns' types.
MESSAGE_SCHEMA = (
    (MSGID, pa.string()),
    (PRIORITY, pa.int32()),
    (SIZE, pa.int64()),
    (DOCUMENT_PUT_TIME, pa.string()),
    (STATE, pa.string()),
    (UNIT, pa.string()),
)
MESSAGE_FIELDS = tuple(name for name, _type in MESSAGE_SCHEMA)

# The epochs of the queues that survive -> the messages left on them: log, key, olsn, pos (queue order)
# and the message's fields (MESSAGE_FIELDS).
Survivors = Callable[[pa.Table], pa.Table]


@dataclass
class Replayed:
    state: State
    count: int  # records read
    object_records: list[Record]  # OBJ/IMG/DEL records (lsn, t, k, c), in LSN order
    units: dict[str, set[str]] = field(default_factory=dict)  # units of work left open -> their queues


@dataclass
class Fate:
    exists: bool
    lsn: int
    record: dict[str, Any] | None  # the newest OBJ/IMG body, when one is fresh
    epoch: int | None  # LSN the queue's current messages start after; None = the base messages carry on
    image: str | None  # body of the IMG that starts the epoch


def fate(row: dict[str, Any], base: MQObject | None) -> Fate:
    """An object's fate from its facts (a fates row), over its object file's state (base)."""
    last = row["last_obj"]
    exists = last[KIND] != "DEL" if last is not None else base is not None
    record = json.loads(last[BODY]) if exists and last is not None else None
    created = None
    if base is None or row["last_del"] is not None:
        after = row["last_del"] if row["last_del"] is not None else -1
        created = min((lsn for lsn in row["creations"] or [] if lsn > after), default=None)
    starts = [lsn for lsn in (row["last_img"], row["last_clr"], created) if lsn is not None]
    epoch = max(starts) if starts else None
    image = row["img"] if epoch is not None and epoch == row["last_img"] else None
    if image is not None and record is not None and last[BODY] == image and not record.get(MESSAGES):
        image = None  # the image (already read as the newest record) holds no messages to join the queue
    lsn = max(row["max_lsn"], base.lsn if base is not None else -1)
    return Fate(exists, lsn, record, epoch, image)


def base_tables(bases: list[State]) -> tuple[pa.Table, pa.Table]:
    """Objects (log, key, base_lsn) and their persistent messages (log, key, pos, fields) as Arrow tables."""
    objects: dict[str, list] = {"log": [], OBJECT_KEY_COLUMN: [], "base_lsn": []}
    messages: dict[str, list] = {name: [] for name in ("log", OBJECT_KEY_COLUMN, "pos", *MESSAGE_FIELDS)}
    for log, state in enumerate(bases):
        for key, obj in state.items():
            objects["log"].append(log)
            objects[OBJECT_KEY_COLUMN].append(key)
            objects["base_lsn"].append(obj.lsn)
            for pos, message in enumerate(obj.messages):
                if message.persistent:
                    for name, value in (
                        ("log", log),
                        (OBJECT_KEY_COLUMN, key),
                        ("pos", pos),
                        *((name, value) for name, value in message.to_document().items() if name in messages),
                    ):
                        messages[name].append(value)
    object_schema = pa.schema(
        [("log", pa.int32()), (OBJECT_KEY_COLUMN, pa.string()), ("base_lsn", pa.int64())]
    )
    message_schema = pa.schema(
        [("log", pa.int32()), (OBJECT_KEY_COLUMN, pa.string()), ("pos", pa.int64()), *MESSAGE_SCHEMA]
    )
    return pa.table(objects, schema=object_schema), pa.table(messages, schema=message_schema)


def open_units(units: dict[str, list[str]]) -> dict[str, set[str]]:
    """Units of work open at a checkpoint (uow -> queues), as a replay starts from them."""
    return {uow: set(queues) for uow, queues in units.items()}


def read_rows(
    rows: list[dict[str, Any]], bases: list[State], at_checkpoint: list[dict[str, list[str]]]
) -> tuple[list[Replayed], dict[tuple[int, str], Fate]]:
    """Each log's result so far, and the fates of the objects that survive, from the fates rows.

    A row is an object's facts (with key), the count of records read (key
    None), or a unit of work the states cannot tell of (with u: its queues,
    and whether it ended). Objects that did not survive are gone from the
    results' states; the survivors are filled in by fill_queues.
    """
    results = [Replayed(dict(base), 0, [], open_units(units)) for base, units in zip(bases, at_checkpoint)]
    fates: dict[tuple[int, str], Fate] = {}
    for row in rows:
        result = results[row["log"]]
        if row.get(UNIT) is not None:
            note_unit(result, row)
            continue
        result.count += row["read"]
        key = row[OBJECT_KEY_COLUMN]
        if key is None:
            continue
        result.object_records += [{**media, OBJECT_KEY: key} for media in row["object_records"] or []]
        if row["max_lsn"] is None:
            continue  # every record was already reflected in the object file
        found = fate(row, bases[row["log"]].get(key))
        if found.exists:
            fates[(row["log"], key)] = found
        else:
            result.state.pop(key, None)
    for result in results:
        result.object_records.sort(key=lambda record: record[LSN])
    return results, fates


def note_unit(result: Replayed, row: dict[str, Any]) -> None:
    """A unit of work the log tells of (row: u, queues, ended) into the units a result leaves open."""
    if row["ended"]:
        result.units.pop(row[UNIT], None)
    else:
        result.units.setdefault(row[UNIT], set()).update(row["queues"])


def cuts(fates: dict[tuple[int, str], Fate], base: State) -> dict[str, list[int]]:
    """Per queue of a single log, the LSNs replay counts its records afresh after: base and epoch."""
    return {
        key: [lsn for lsn in (base[key].lsn if key in base else None, found.epoch) if lsn is not None]
        for (_log, key), found in fates.items()
    }


def epochs_table(fates: dict[tuple[int, str], Fate], bases: list[State]) -> pa.Table:
    """Per surviving object: where its epoch starts, whether its base messages carry on, its file's LSN,
    and the image whose messages start the epoch."""
    return pa.table(
        {
            "log": pa.array([log for log, _ in fates], pa.int32()),
            OBJECT_KEY_COLUMN: [key for _, key in fates],
            "epoch": pa.array([found.epoch for found in fates.values()], pa.int64()),
            "base": [found.epoch is None for found in fates.values()],
            "base_lsn": pa.array(
                [bases[log][key].lsn if key in bases[log] else None for log, key in fates], pa.int64()
            ),
            "image": pa.array([found.image for found in fates.values()], pa.string()),
        }
    )


def in_epoch(moves: pa.Table, epochs: pa.Table) -> pa.Table:
    """The moves (with a log column) of each queue's current epoch that are newer than its file.

    Endings count whatever their LSN: a unit that began before the epoch may
    end in it.
    """
    joined = moves.join(
        epochs.select(["log", OBJECT_KEY_COLUMN, "epoch", "base_lsn"]),
        ["log", OBJECT_KEY_COLUMN],
        join_type="inner",
    )
    lsn, epoch, base_lsn = joined[LSN], joined["epoch"], joined["base_lsn"]
    counted = pc.or_kleene(
        pc.or_kleene(pc.is_in(joined[KIND], value_set=pa.array(UNIT_ENDINGS)), pc.is_null(epoch)),
        pc.greater(lsn, epoch),
    )
    fresh = pc.or_kleene(pc.is_null(base_lsn), pc.greater(lsn, base_lsn))
    return joined.filter(pc.and_kleene(counted, fresh)).select(moves.column_names)


def fill_queues(
    results: list[Replayed],
    fates: dict[tuple[int, str], Fate],
    bases: list[State],
    survivors: Survivors,
    notes: Sequence[Putters | None] = (),
) -> None:
    """The objects that survive the log, each with its messages (survivors' answer), into results' states.

    notes: per log, its putter notes (mqsh.store.putnotes), which say who put a message replayed from
    its put record (at the LSN it joined its queue); without them only what the files held is known."""
    messages = survivors(epochs_table(fates, bases))
    messages = messages.sort_by(
        [("log", "ascending"), (OBJECT_KEY_COLUMN, "ascending"), ("olsn", "ascending"), ("pos", "ascending")]
    )
    held: dict[tuple[int, str], list[StoredMessage]] = {place: [] for place in fates}
    columns = [messages[name].to_pylist() for name in ("log", OBJECT_KEY_COLUMN, "olsn", *MESSAGE_FIELDS)]
    # Who put a message its object file held stays with it; one put since, its log's notes tell.
    held_by_files = [
        {message.msgid: (message.user, message.appl) for obj in base.values() for message in obj.messages}
        for base in bases
    ]
    for log, key, joined, msgid, priority, size, put_time, state, uow in zip(*columns):
        putter = held_by_files[log].get(msgid)
        if putter is None and joined >= 0 and log < len(notes) and notes[log] is not None:
            putter = notes[log].of(joined, None, None)
        user, appl = putter or (None, None)
        held[(log, key)].append(StoredMessage(msgid, True, priority, size, put_time, state, uow, user, appl))
    for (log, key), found in fates.items():
        base = bases[log].get(key)
        namespace = key.partition("/")[0]
        if found.record is not None:
            object_type, name, attributes = (
                found.record[OBJECT_TYPE],
                found.record[NAME],
                found.record[ATTRIBUTES],
            )
        else:
            object_type, name, attributes = base.object_type, base.name, base.attributes
        results[log].state[key] = MQObject(
            object_type, name, dict(attributes), namespace, found.lsn, held[(log, key)]
        )


def add_in_flight(results: list[Replayed]) -> None:
    """Units of work with pending messages on the replayed queues join those left open."""
    for result in results:
        for uow, queues in replay.in_flight(result.state).items():
            result.units.setdefault(uow, set()).update(queues)
