"""The reference definition of what a log record means.

Live work and restart both go through apply(): a command writes its record to
the log and then applies it to the in-memory state; restart applies the same
records again from the last checkpoint. Each object remembers the LSN of the
newest record reflected in it, and a record is applied only to objects that
have not seen it yet, so replaying a record twice changes nothing (the redo
rule of ARIES) and a checkpoint that was cut short costs nothing but time.

Record types (field 't'):
    OBJ  k o n a [c]    object k (type o, name n) now has attributes a (define, alter, replace);
                        c marks a creation, whose record is the object's first media image
    IMG  k o n a ms     media image of object k: its attributes and, for a queue, every persistent
                        message (documents as in the queue file, pending ones with their unit of work)
    DEL  k              object k deleted
    PUT  q m p s tm u   message m put on queue q (priority p, size s, put time tm) in unit of work u
    GET  q m u          message m got from queue q in unit of work u
    CMT  u qs           unit of work u committed; it touched queues qs
    BCK  u qs           unit of work u backed out
    CLR  q              queue q cleared
    CAT  es             media image of the object catalog (the objects that exist); changes no object
    CKPT restart uows media
                        a checkpoint: the oldest record restart needs, the units of work in flight
                        (uow -> queues) and each object's media recovery record (key -> LSN);
                        restart replays from the record after it
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
from mqsh.store import log as logstore

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


def _apply_object(state: State, record: Record, lsn: int | None) -> None:
    key = record["k"]
    existing = state.get(key)
    if existing is not None and not _fresh(existing, lsn):
        return
    namespace = key.partition("/")[0]
    messages = existing.messages if existing is not None else []
    state[key] = MQObject(record["o"], record["n"], dict(record["a"]), namespace,
                          lsn if lsn is not None else -1, messages)


def _apply_image(state: State, record: Record, lsn: int | None) -> None:
    key = record["k"]
    existing = state.get(key)
    if existing is not None and not _fresh(existing, lsn):
        return
    namespace, _, _name = key.partition("/")
    messages = [StoredMessage.from_document(item) for item in record.get("ms", [])]
    state[key] = MQObject(record["o"], record["n"], dict(record["a"]), namespace,
                          lsn if lsn is not None else -1, messages)


def _apply_put(obj: MQObject, record: Record, persistent: bool) -> None:
    uow = record.get("u")
    obj.messages.append(StoredMessage(
        record["m"], persistent, record["p"], record["s"], record["tm"],
        PUT_PENDING if uow else COMMITTED, uow))
    obj.priority_ceiling = max(obj.priority_ceiling, record["p"])


def _apply_get(obj: MQObject, record: Record) -> None:
    uow = record.get("u")
    for index, message in enumerate(obj.messages):
        if message.msgid == record["m"]:
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


def apply(state: State, record: Record, persistent: bool = True) -> None:
    """Apply one record. Non-persistent work is applied with persistent=False and no LSN."""
    lsn = record.get("lsn")
    kind = record["t"]
    if kind == "OBJ":
        _apply_object(state, record, lsn)
    elif kind == "IMG":
        _apply_image(state, record, lsn)
    elif kind == "DEL":
        if _fresh(state.get(record["k"]), lsn):
            del state[record["k"]]
    elif kind in ("PUT", "GET", "CLR"):
        obj = state.get(queue_key(record["q"]))
        if not _fresh(obj, lsn):
            return
        if kind == "PUT":
            _apply_put(obj, record, persistent)
        elif kind == "GET":
            _apply_get(obj, record)
        else:
            obj.messages = [message for message in obj.messages if message.state != COMMITTED]
        _touch(obj, lsn)
    elif kind in logstore.UNIT_ENDINGS:
        for queue in record["qs"]:
            obj = state.get(queue_key(queue))
            if _fresh(obj, lsn):
                _resolve(obj, record["u"], commit=kind == "CMT")
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


def replay(state: State, records: Iterable[Record]) -> int:
    """Apply records in order; return how many were read."""
    count = 0
    for record in records:
        apply(state, record)
        count += 1
    return count
