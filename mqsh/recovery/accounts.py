"""Where a recovered queue's messages came from: the closing account of a restart and of rcrmqobj.

A recovery leaves each queue with messages from two places: those it found
already written (the queue file a restart loads, or the media image rcrmqobj
starts from) and those it replayed from the log records after that point.
The account counts them from what the recovery left, by message identifier,
so it is the same whichever engine replayed the log (reference, local or
Spark build the same queues) and its two numbers always add up to the depth
left: the depth CURDEPTH shows, which counts an uncommitted put and not an
uncommitted get. Units of work the start backed out on the queue are told
beside it: their puts are gone and their gets back, in the depth already.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from mqsh.core.objects import GET_PENDING, MQObject
from mqsh.recovery import logscan
from mqsh.store import log as logstore
from mqsh.store.records import LSN, MESSAGES, MSGID

# (id unverified) MQ writes no per-queue account of a recovery: the id and the wording are mqsh's,
# in the style of the restart messages AMQ7229I-AMQ7233I that it follows.
ACCOUNT_ID = "AMQ7234I"


@dataclass(frozen=True)
class QueueAccount:
    queue: str
    depth: int
    found: int  # on the queue file (restart) or in the media image (rcrmqobj)
    replayed: int  # put by log records after that point
    backed_out: int = 0  # in-flight units of work the start backed out on the queue
    found_in: str = "the queue file"  # or "the media image" for a queue re-created from it


def account(
    obj: MQObject, found_ids: Iterable[str], backed_out: int = 0, found_in: str = "the queue file"
) -> QueueAccount:
    """The account of a recovered queue, given the identifiers of the messages the recovery found written."""
    found_ids = set(found_ids)
    counted = [message.msgid for message in obj.messages if message.state != GET_PENDING]
    found = sum(1 for msgid in counted if msgid in found_ids)
    return QueueAccount(obj.name, len(counted), found, len(counted) - found, backed_out, found_in)


def extents_read(log_dir: Path, first_extent: int) -> str:
    """The log extents a replay from first_extent read, as 'S0000001.LOG-S0000003.LOG' (or one name)."""
    numbers = [number for number in logstore.list_extents(log_dir) if number >= first_extent] or [
        first_extent
    ]
    first, last = logstore.extent_name(numbers[0]), logstore.extent_name(numbers[-1])
    return first if first == last else f"{first}-{last}"


def text(item: QueueAccount, qmgr: str, extents: str) -> str:
    """The account as one line, e.g. 'Queue Q1 on queue manager 'QM': 5 messages: 3 from the queue
    file, 2 replayed from the log (S0000001.LOG-S0000003.LOG); 1 in-flight unit of work backed out.'"""
    parts = [f"{item.found} from {item.found_in}", f"{item.replayed} replayed from the log ({extents})"]
    units = (
        ""
        if not item.backed_out
        else f"; {item.backed_out} in-flight unit{'s' if item.backed_out > 1 else ''} of work backed out"
    )
    return (
        f"Queue {item.queue} on queue manager '{qmgr}': {item.depth} message{'' if item.depth == 1 else 's'}: "
        f"{', '.join(parts)}{units}."
    )


def message_ids_at(log_dir: Path, lsn: int) -> set[str]:
    """The messages of the media image whose first record is at lsn: an IMG record holds the queue's
    persistent messages; a creation record holds none."""
    for record in logstore.read_records(log_dir, logscan.extent_holding(log_dir, lsn), lsn):
        return {item[MSGID] for item in record.get(MESSAGES, [])} if record.get(LSN) == lsn else set()
    return set()
