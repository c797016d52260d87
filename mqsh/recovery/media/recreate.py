"""Media recovery: re-create objects from their latest media image plus every later record.

An object's media recovery record is the first record of its latest media
image (its creation record, or an IMG record). Re-creating the object means
replaying that record and then every later record that touched the object -
redefinitions, persistent puts and gets, unit-of-work outcomes, clears. The
selection of those records and their replay are this one function, rebuild():
the columnar replay in process, the Spark replay, or the reference replayer
(mqsh.recovery.replay.reference), as the queue manager's engine decides.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from mqsh.core.progress import counted, status_line
from mqsh.recovery import logscan
from mqsh.recovery.engine import ReplayEngine
from mqsh.recovery.replay import reference as replay
from mqsh.recovery.replay.reference import Record, State, queue_key
from mqsh.store import log as logstore
from mqsh.store import putnotes
from mqsh.store.records import (
    LSN,
    Clear,
    Get,
    ObjectChanged,
    ObjectDeleted,
    ObjectImage,
    Put,
    UnitEnded,
    decode,
)


class NoMediaImage(Exception):
    """The log holds no media image of the object (it is not recoverable)."""

    def __init__(self, key: str):
        super().__init__(f"no media image of {key}")
        self.key = key


def keys_touched(record: Record) -> tuple[str, ...]:
    """The objects a record changes."""
    typed = decode(record)
    if isinstance(typed, (ObjectChanged, ObjectImage, ObjectDeleted)):
        return (typed.key,)
    if isinstance(typed, (Put, Get, Clear)):
        return (queue_key(typed.queue),)
    if isinstance(typed, UnitEnded):
        return tuple(queue_key(name) for name in typed.queues)
    return ()


def select(records: Iterable[Record], media: dict[str, int]) -> Iterator[Record]:
    """The records that belong to the wanted objects' latest images and what followed them."""
    for record in records:
        if any(record[LSN] >= media.get(key, record[LSN] + 1) for key in keys_touched(record)):
            yield record


def rebuild(
    log_dir: Path, media: dict[str, int], keys: Iterable[str], engine: ReplayEngine | None = None
) -> State:
    """Each wanted object as its media image and the later log make it (key -> object).

    Raises NoMediaImage for an object with no media recovery record and
    log.ExtentMissing (AMQ6767) when an extent that is needed is gone; on
    Spark, also SparkUnavailable or ReplayCancelled, having changed nothing.
    """
    wanted = {}
    for key in keys:
        if key not in media:
            raise NoMediaImage(key)
        wanted[key] = media[key]
    if not wanted:
        return {}
    start = min(wanted.values())
    first_extent = logscan.extent_holding(log_dir, start)
    where = engine.where(log_dir, first_extent, start) if engine is not None else "reference"
    if where != "reference":
        # An object's latest image or (re)creation starts its state afresh: replaying every
        # record from the oldest wanted media recovery record on gives each wanted object
        # exactly as its own image and the records after it do.
        logstore.extents_from(log_dir, first_extent)  # AMQ6767 before any replay work
        state = engine.replay_whole(where, {}, log_dir, first_extent, start, {}, set()).state
    else:
        state = {}
        # A Ctrl-C stops it with nothing applied: the objects are handed over only at the end.
        with status_line("reading the log to re-create objects") as progress:
            replay.replay(
                state,
                select(counted(logstore.read_records(log_dir, first_extent, start), progress), wanted),
                putnotes.read(log_dir.parent),
            )
    return {key: state[key] for key in wanted if key in state}
