"""The reference definition of what a log record means.

Live work and restart both go through apply(): a command writes its record to
the log and then applies it to the in-memory state; restart applies the same
records again from the last checkpoint. Each object remembers the LSN of the
newest record reflected in it, and a record is applied only to objects that
have not seen it yet, so replaying a record twice changes nothing (the redo
rule of ARIES) and a checkpoint that was cut short costs nothing but time.

Each kind of record, its fields and their short keys on disk are defined in mqsh.store.records.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mqsh.core.objects import (
    COMMITTED,
    GET_PENDING,
    PUT_PENDING,
    MQObject,
    StoredMessage,
    object_key,
)
from mqsh.store import records
from mqsh.store.putnotes import Putters

Record = dict[str, Any]
State = dict[str, MQObject]  # object key -> object


def queue_key(name: str) -> str:
    return object_key("QUEUE", name)


def _fresh(obj: MQObject | None, lsn: int | None) -> bool:
    """True when the record is newer than the object (or is not logged at all)."""
    return obj is not None and (lsn is None or obj.lsn < lsn)


def _touch(obj: MQObject, lsn: int | None) -> None:
    if lsn is not None:
        obj.lsn = lsn


def _apply_object(
    state: State,
    record: records.ObjectChanged | records.ObjectImage,
    lsn: int | None,
    messages: list[StoredMessage] | None = None,
) -> None:
    """An object's new attributes (OBJ), or its media image with its messages (IMG)."""
    existing = state.get(record.key)
    if existing is not None and not _fresh(existing, lsn):
        return
    namespace = record.key.partition("/")[0]
    if messages is None:
        messages = existing.messages if existing is not None else []
    state[record.key] = MQObject(
        record.object_type,
        record.name,
        dict(record.attributes),
        namespace,
        lsn if lsn is not None else -1,
        messages,
    )


def _apply_put(
    obj: MQObject, record: records.Put, persistent: bool, who: tuple[str | None, str | None]
) -> None:
    uow = record.unit
    obj.messages.append(
        StoredMessage(
            record.msgid,
            persistent,
            record.priority,
            record.size,
            record.put_time,
            PUT_PENDING if uow else COMMITTED,
            uow,
            *who,
        )
    )
    obj.priority_ceiling = max(obj.priority_ceiling, record.priority)


def _apply_get(obj: MQObject, record: records.Get) -> None:
    uow = record.unit
    for index, message in enumerate(obj.messages):
        if message.msgid == record.msgid:
            if uow:
                message.state, message.uow = GET_PENDING, uow
            else:
                del obj.messages[index]
            return


def _resolve(obj: MQObject, uow: str, commit: bool) -> None:
    kept = []
    for message in obj.messages:
        if message.uow != uow:
            kept.append(message)
        elif (message.state == PUT_PENDING) == commit:
            # A committed put, or a backed-out get, leaves the message on the queue.
            message.state, message.uow = COMMITTED, None
            kept.append(message)
    obj.messages = kept


def apply(state: State, logged: Record, persistent: bool = True, putters: Putters | None = None) -> None:
    """Apply one record (as the log holds it). Non-persistent work is applied with
    persistent=False and no LSN. putters: the log's putter notes, which say who put a message whose
    put record does not (live work, which knows, leaves it to its caller)."""
    lsn = logged.get(records.LSN)
    record = records.decode(logged)
    if record is None:
        return  # a kind that changes no object (a checkpoint, the shared-message records)
    if isinstance(record, records.ObjectChanged):
        _apply_object(state, record, lsn)
    elif isinstance(record, records.ObjectImage):
        _apply_object(
            state, record, lsn, [StoredMessage.from_document(item) for item in record.messages or []]
        )
    elif isinstance(record, records.ObjectDeleted):
        if _fresh(state.get(record.key), lsn):
            del state[record.key]
    elif isinstance(record, (records.Put, records.Get, records.Clear)):
        obj = state.get(queue_key(record.queue))
        if not _fresh(obj, lsn):
            return
        assert obj is not None
        if isinstance(record, records.Put):
            who = (
                putters.of(lsn, record.user, record.appl) if putters is not None and lsn is not None else None
            )
            _apply_put(obj, record, persistent, who or (record.user, record.appl))
        elif isinstance(record, records.Get):
            _apply_get(obj, record)
        else:
            obj.messages = [message for message in obj.messages if message.state != COMMITTED]
        _touch(obj, lsn)
    elif isinstance(record, records.UnitEnded):
        for queue in record.queues:
            obj = state.get(queue_key(queue))
            if _fresh(obj, lsn):
                assert obj is not None
                _resolve(obj, record.unit, commit=isinstance(record, records.Commit))
                _touch(obj, lsn)


def in_flight(state: State) -> dict[str, set[str]]:
    """Units of work with pending persistent messages: uow -> the queues holding them. A unit's
    non-persistent work is never logged, so a unit that did nothing else is not one a restart
    knows of, or backs out (as after a crash, so after an immediate end's checkpoint)."""
    open_units: dict[str, set[str]] = {}
    for obj in state.values():
        for message in obj.messages:
            if message.uow and message.persistent:
                open_units.setdefault(message.uow, set()).add(obj.name)
    return open_units


def replay(state: State, records: Iterable[Record], putters: Putters | None = None) -> int:
    """Apply records in order (putters: the log's putter notes); return how many were read."""
    count = 0
    for record in records:
        apply(state, record, putters=putters)
        count += 1
    return count
