"""The record of a queue manager's last recovery, kept for LAB EXPLAIN: what it read, and per queue
a ledger whose lines add up to the depth it left.

A recovery knows what no MQ report tells: where each message on a recovered
queue came from. The ledger counts it from the messages themselves, by
identifier, at three moments the recovery passes anyway - what it found
written (the queue file at the restart point, or a media image), what its
replay left (before the units of work in flight are backed out), and what it
left at the end - so it is the same whichever engine replayed the log, and
costs one pass over the messages left, never a second pass over the log:

    found + put - got - backed out - held = depth

put and got are the replay's net effect: messages the replayed records put
that were still there when the replay ended, and messages found that they
took. held are messages got in a unit of work still in flight (rcrmqobj on a
running queue manager): CURDEPTH counts an uncommitted put, not an
uncommitted get.

When the failure before a restart was seen (LAB CRASH, endmqm -i or -p), the
depth each queue had then is kept beside the queue manager, and a second
account adds up from it: non-persistent messages are never logged and do not
survive, the puts of units in flight are backed out, their gets come back,
and whatever else is missing was lost - with the reason the recovery knows.

Both files are checksummed documents written whole (mqsh.store.files): a
crash while one is written leaves the old one or none, and one that does not
read is as good as none (LAB EXPLAIN then says no recovery is recorded).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from mqsh.core.objects import GET_PENDING, MQObject
from mqsh.store import log as logstore
from mqsh.store.files import CorruptFile, read_document, write_document

EXPLAIN_FILE = "qmrecovery.explain"  # in the queue manager's directory
FAILURE_FILE = "qmfailure.explain"
HISTORY_FILE = "qmrecovery.history"
HISTORY_KEPT = 50


@dataclass(frozen=True)
class QueueLedger:
    queue: str
    depth: int
    found: int  # on the queue file at the restart point, or in the media image
    found_in: str  # "the queue file" or "the media image"
    put: int  # put by the replayed records, still there when the replay ended
    got: int  # found, and taken by the replayed records
    backed_out: int = 0  # put by units of work in flight, backed out
    restored: int = 0  # got by units of work in flight, back on the queue (counted in found or put)
    held: int = 0  # got in units still in flight: on the queue, not in CURDEPTH
    at_failure: int | None = None  # CURDEPTH when the failure was seen
    dropped: int = 0  # non-persistent at the failure: never logged, not recovered
    lost: int = 0  # missing against the failure beyond the above
    lost_why: str = ""
    damaged: bool = False  # left damaged: its messages come back with rcrmqobj

    def adds_up(self) -> bool:
        return self.damaged or self.found + self.put - self.got - self.backed_out - self.held == self.depth


@dataclass(frozen=True)
class Extent:
    name: str
    first_lsn: int | None
    last_lsn: int | None


@dataclass(frozen=True)
class Explanation:
    kind: str  # "restart", "rcrmqobj" or "automatic" (a replicated log's own media recovery)
    qmgr: str
    at: str  # the simulated clock's time
    cause: (
        str  # what ended the queue manager before a restart, as far as it was seen; how an automatic one ran
    )
    engine: str  # reference, local or spark
    restart_lsn: int | None  # None: no log control file, the whole log was replayed
    records: int  # log records read by the replay
    units: int  # units of work in flight backed out
    extents: list[Extent] = field(default_factory=list)
    images: list[tuple[str, int]] = field(default_factory=list)  # (object, LSN of its media image)
    skipped: list[str] = field(default_factory=list)  # missing extents passed over (IgnoreMissingLogExtents)
    queues: list[QueueLedger] = field(default_factory=list)
    failed_at: str | None = None  # when the failure before a restart was seen
    failed_lsn: int | None = None  # the next LSN its log would have written then


Snapshot = dict[str, dict[str, str]]  # queue name -> message id -> state (C, P, G)


def snapshot(objects: Iterable[MQObject]) -> Snapshot:
    """The messages of the local queues, as the ledger compares them."""
    return {
        obj.name: {message.msgid: message.state for message in obj.messages}
        for obj in objects
        if obj.object_type == "QLOCAL" and not obj.damaged
    }


def queue_ledger(
    obj: MQObject,
    found: Iterable[str],
    replayed: dict[str, str],
    found_in: str,
    failure: dict[str, int] | None = None,
    lost_why: str = "",
) -> QueueLedger:
    """A queue's ledger from the identifiers found written, the messages the replay left (id -> state)
    and the queue as the recovery left it; with the failure's counts when the failure was seen."""
    found = set(found)
    final = {message.msgid: message.state for message in obj.messages}
    counted = sum(1 for state in final.values() if state != GET_PENDING)
    backed_out = sum(1 for msgid in replayed if msgid not in final)
    restored = sum(
        1
        for msgid, state in replayed.items()
        if state == GET_PENDING and final.get(msgid, GET_PENDING) != GET_PENDING
    )
    ledger = QueueLedger(
        obj.name,
        counted,
        len(found),
        found_in,
        put=sum(1 for msgid in replayed if msgid not in found),
        got=sum(1 for msgid in found if msgid not in replayed),
        backed_out=backed_out,
        restored=restored,
        held=len(final) - counted,
    )
    if failure is None:
        return ledger
    lost = failure["depth"] - failure["nonpersistent"] - backed_out + restored - counted
    return QueueLedger(
        **{
            **asdict(ledger),
            "at_failure": failure["depth"],
            "dropped": failure["nonpersistent"],
            "lost": lost,
            "lost_why": lost_why if lost else "",
        }
    )


def damaged_ledger(name: str, failure: dict[str, int] | None) -> QueueLedger:
    """A queue the recovery left damaged: what it held at the failure waits for rcrmqobj."""
    held = failure["depth"] - failure["nonpersistent"] if failure else 0
    return QueueLedger(
        name,
        0,
        0,
        "",
        0,
        0,
        at_failure=failure["depth"] if failure else None,
        dropped=failure["nonpersistent"] if failure else 0,
        lost=held,
        lost_why="the queue is damaged: rcrmqobj re-creates it from its media image and the log",
        damaged=True,
    )


def extents_read(log_dir: Path, first_extent: int, next_lsn: int) -> list[Extent]:
    """The extents a replay from first_extent read, each with its first and last LSN: an extent ends
    where the next begins, the newest where the log does (next_lsn - 1)."""
    ring = logstore.read_ring(log_dir)
    numbers = [number for number in logstore.list_extents(log_dir) if number >= first_extent]
    firsts = [logstore.first_lsn(logstore.extent_path(log_dir, number, ring)) for number in numbers]
    extents = []
    for index, number in enumerate(numbers):
        if index + 1 < len(numbers) and numbers[index + 1] != number + 1:
            # The next extent is missing: this one's own last record ends it (a read of the extent).
            last = logstore.valid_end(logstore.extent_path(log_dir, number, ring))[1]
            extents.append(Extent(logstore.extent_name(number), firsts[index], last if last >= 0 else None))
            continue
        following = firsts[index + 1] if index + 1 < len(numbers) else next_lsn
        last = following - 1 if following is not None and firsts[index] is not None else None
        extents.append(Extent(logstore.extent_name(number), firsts[index], last))
    return extents


# ---------------------------------------------------------------- the failure, seen as it happens
def note_failure(
    qmgr_dir: Path, objects: Iterable[MQObject], at: str, how: str, log_end: int | None = None
) -> None:
    """Keep each local queue's CURDEPTH and non-persistent count as the queue manager fails (and where
    its log had got to: the next LSN it would have written)."""
    queues = {}
    for obj in objects:
        if obj.object_type == "QLOCAL" and not obj.damaged:
            counted = [message for message in obj.messages if message.state != GET_PENDING]
            queues[obj.name] = {
                "depth": len(counted),
                "nonpersistent": sum(1 for message in counted if not message.persistent),
            }
    try:
        write_document(qmgr_dir / FAILURE_FILE, {"at": at, "how": how, "lsn": log_end, "queues": queues})
    except OSError:
        pass  # a full disk: the failure is simply not seen, and the explanation says so


def read_failure(qmgr_dir: Path) -> dict[str, Any] | None:
    """The failure seen before this start; it stays until a start recovers from it (forget_failure),
    so that a start refused (a missing extent) leaves it to the next."""
    path = qmgr_dir / FAILURE_FILE
    try:
        document = read_document(path)
        failure = {
            "at": str(document["at"]),
            "how": str(document["how"]),
            "lsn": document.get("lsn"),
            "queues": {
                str(name): {"depth": int(counts["depth"]), "nonpersistent": int(counts["nonpersistent"])}
                for name, counts in document["queues"].items()
            },
        }
    except (OSError, CorruptFile, KeyError, TypeError, ValueError, AttributeError):
        failure = None
    return failure


def forget_failure(qmgr_dir: Path) -> None:
    (qmgr_dir / FAILURE_FILE).unlink(missing_ok=True)


# ---------------------------------------------------------------- the record of the last recovery
def save(qmgr_dir: Path, explanation: Explanation) -> None:
    """The explanation, and a line of the queue manager's recovery history (LAB TIMELINE draws it)."""
    last = explanation.extents[-1].last_lsn if explanation.extents else None
    event = {
        "at": explanation.at,
        "kind": explanation.kind,
        "cause": explanation.cause,
        "lsn": last,
        "failed_at": explanation.failed_at,
        "failed_lsn": explanation.failed_lsn,
    }
    try:
        write_document(qmgr_dir / EXPLAIN_FILE, asdict(explanation))
        write_document(qmgr_dir / HISTORY_FILE, [*history(qmgr_dir), event][-HISTORY_KEPT:])
    except OSError:
        pass  # a full disk: the recovery stands; only its explanation is not kept


def history(qmgr_dir: Path) -> list[dict[str, Any]]:
    """The queue manager's recoveries, oldest first (the last HISTORY_KEPT); none when unreadable."""
    try:
        events = read_document(qmgr_dir / HISTORY_FILE)
    except (OSError, CorruptFile):
        return []
    return [event for event in events if isinstance(event, dict)] if isinstance(events, list) else []


def load(qmgr_dir: Path) -> Explanation | None:
    """The last recovery's record; None when there is none or it cannot be read."""
    try:
        document = read_document(qmgr_dir / EXPLAIN_FILE)
        return Explanation(
            **{
                **document,
                "extents": [Extent(**item) for item in document["extents"]],
                "images": [(str(name), int(lsn)) for name, lsn in document["images"]],
                "queues": [QueueLedger(**item) for item in document["queues"]],
            }
        )
    except (OSError, CorruptFile, KeyError, TypeError, ValueError):
        return None


# ---------------------------------------------------------------- a restart's explanation
@dataclass
class RestartFacts:
    """What a start knows once it has recovered, as the explanation needs it."""

    qmgr: str
    at: str
    engine: str
    restart_lsn: int | None
    records: int
    units: int
    extents: list[Extent]
    found: dict[str, list[str]]  # queue key -> identifiers on its file (or in the image it came back from)
    images: dict[str, int]  # key of each object re-created from its media image -> the image's LSN
    replayed: Snapshot
    skipped: list[str]
    failure: dict[str, Any] | None


def _cause(facts: RestartFacts) -> str:
    if facts.failure is not None:
        return f"{facts.failure['how']} at {facts.failure['at']}"
    return "an end that was not seen (no record of the failure): the depths before it are unknown"


def restart_explanation(facts: RestartFacts, objects: Iterable[MQObject]) -> Explanation:
    failed = facts.failure["queues"] if facts.failure else {}
    why = (
        f"records in {', '.join(facts.skipped)} were passed over (IgnoreMissingLogExtents)"
        if facts.skipped
        else "missing from the log"
    )
    queues, seen = [], set()
    for obj in sorted(objects, key=lambda item: item.name):
        if obj.object_type != "QLOCAL":
            continue
        seen.add(obj.name)
        if obj.damaged:
            queues.append(damaged_ledger(obj.name, failed.get(obj.name)))
            continue
        found_in = "the media image" if obj.key in facts.images else "the queue file"
        item = queue_ledger(
            obj,
            facts.found.get(obj.key, ()),
            facts.replayed.get(obj.name, {}),
            found_in,
            failed.get(obj.name),
            why,
        )
        if item.depth or item.found or item.put or item.backed_out or item.at_failure:
            queues.append(item)
    images = sorted((key.partition("/")[2], lsn) for key, lsn in facts.images.items())
    failure = facts.failure or {}
    return Explanation(
        "restart",
        facts.qmgr,
        facts.at,
        _cause(facts),
        facts.engine,
        facts.restart_lsn,
        facts.records,
        facts.units,
        facts.extents,
        images,
        list(facts.skipped),
        queues,
        failure.get("at"),
        failure.get("lsn"),
    )


def media_explanation(
    kind: str,
    qmgr: str,
    at: str,
    engine: str,
    extents: list[Extent],
    recreated: list[tuple[MQObject, int, set[str]]],
    cause: str = "",
) -> Explanation:
    """The explanation of objects re-created on a running queue manager - by rcrmqobj, or by a replicated
    log's automatic media recovery (kind "automatic", cause: how it came to run) - each re-created
    queue (with its image's LSN and the messages the image held) counted from its image; units of
    work stay in flight, their gets held."""
    queues = [
        queue_ledger(
            obj, found, {message.msgid: message.state for message in obj.messages}, "the media image"
        )
        for obj, _lsn, found in recreated
        if obj.object_type == "QLOCAL"
    ]
    images = sorted((obj.name, lsn) for obj, lsn, _found in recreated)
    first = min((lsn for _obj, lsn, _found in recreated), default=0)
    last = extents[-1].last_lsn if extents and extents[-1].last_lsn is not None else first - 1
    return Explanation(
        kind, qmgr, at, cause, engine, None, max(last - first + 1, 0), 0, extents, images, [], queues
    )
