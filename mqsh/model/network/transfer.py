"""How a message channel moves messages, so that no persistent message is lost or doubled.

A batch of persistent messages goes in three units of work, each on one queue manager's log:

1. The sender gets the batch from the transmission queue and, in the same unit, puts a
   marker on its SYSTEM.CHANNEL.SYNCQ that holds the batch (the channel's batch is now in
   doubt: off the transmission queue, not yet known to be received).
2. The receiver puts each message where it is for and, in the same unit, replaces its own
   marker for the channel with one for the batch's sequence number.
3. The sender removes its marker.

A crash can fall between any two: a sender that finds its marker on the next run asks the
receiver which batch it last committed, sends the batch again if the receiver does not have
it, and removes the marker (MQ's in-doubt resolution at channel start). Non-persistent
messages go one by one outside any unit, as NPMSPEED(FAST) sends them: a failure may lose
them, as MQ may.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mqsh.core.objects import COMMITTED, MQObject, StoredMessage
from mqsh.core.reasons import MQRC_UNKNOWN_OBJECT_NAME, MQRC_UNKNOWN_REMOTE_Q_MGR, MQError
from mqsh.model.qsg.shared_queue import SharedQueue

if TYPE_CHECKING:
    from mqsh.model.qmgr import QueueManager

SYNCQ = "SYSTEM.CHANNEL.SYNCQ"
SENT, RECEIVED = "XMIT", "RCVD"  # the markers' kinds: a sender's batch in doubt, a receiver's last batch


class ChannelStopped(Exception):
    """The channel ends and stays stopped: a message it cannot deliver or read (msgid, text)."""

    def __init__(self, msgid: str, text: str, explanation: str = ""):
        super().__init__(text)
        self.msgid, self.text, self.explanation = msgid, text, explanation


def marker_id(kind: str, seq: int, channel: str) -> str:
    return f"{kind}:{seq:09d}:{channel}"


def marker(qmgr: QueueManager, kind: str, channel: str) -> tuple[StoredMessage, int] | None:
    """The channel's committed marker of that kind on the queue manager's sync queue, with its
    batch sequence number; None when it has none."""
    syncq = _syncq(qmgr)
    suffix = f":{channel}"
    for message in syncq.messages:
        if (
            message.state == COMMITTED
            and message.msgid.startswith(kind + ":")
            and message.msgid.endswith(suffix)
        ):
            return message, int(message.msgid.split(":")[1])
    return None


def _syncq(qmgr: QueueManager) -> MQObject:
    syncq = qmgr.lookup("QUEUE", SYNCQ)
    if syncq is None or syncq.object_type != "QLOCAL":
        raise ChannelStopped(
            "AMQ9509E",
            f"Program cannot open queue manager object {SYNCQ}.",
            "The channel's synchronization queue does not exist.",
        )
    return syncq


def in_doubt(sender: QueueManager, channel: str) -> bool:
    try:
        return marker(sender, SENT, channel) is not None
    except ChannelStopped:  # no sync queue: nothing can be in doubt
        return False


def resolve(sender: QueueManager, receiver: QueueManager, channel: str) -> int:
    """Finish a batch left in doubt: deliver it unless the receiver has it, then forget it.
    Returns the number of messages delivered."""
    found = marker(sender, SENT, channel)
    if found is None:
        return 0
    message, seq = found
    received = marker(receiver, RECEIVED, channel)
    delivered = 0
    if received is None or received[1] < seq:
        content = sender.units.data.get(message.msgid)
        if content is None:
            raise ChannelStopped(
                "AMQ9526E",
                f"Message sequence number error for channel '{channel}'.",
                f"The batch {seq} the channel holds in doubt has lost its message data.",
            )
        delivered = deliver(receiver, channel, seq, content["batch"])
    _forget(sender, message)
    return delivered


def send_batch(
    sender: QueueManager,
    receiver: QueueManager,
    channel: str,
    xmitq: MQObject,
    batch_size: int,
    only: str | None = None,
) -> tuple[int, int]:
    """Move the next batch from the transmission queue (only the messages for the channel
    named by only, on a cluster transmission queue); returns (messages moved, its sequence
    number), (0, 0) when nothing is waiting."""
    by_priority = xmitq.attributes.get("MSGDLVSQ", "PRIORITY") == "PRIORITY"
    first = _next(sender, xmitq, by_priority, only)
    if first is None:
        return 0, 0
    if not first.persistent:
        _send_fast(sender, receiver, xmitq, first)
        return 1, 0
    received = marker(receiver, RECEIVED, channel)
    seq = (received[1] if received else 0) + 1
    batch = _take(sender, receiver, channel, xmitq, seq, batch_size, by_priority, only)
    deliver(receiver, channel, seq, batch)
    resolve(sender, receiver, channel)  # step 3: the receiver has it now
    return len(batch), seq


def _next(sender: QueueManager, xmitq: MQObject, by_priority: bool, only: str | None) -> StoredMessage | None:
    """The message the channel takes next: the queue's next, or on a cluster transmission queue
    the next whose header names the channel (MQ's CorrelId there)."""
    if only is None:
        return xmitq.next_message(by_priority)
    best = None
    for message in xmitq.messages:
        if message.state != COMMITTED or (sender.units.data.get(message.msgid) or {}).get("chl") != only:
            continue
        if not by_priority:
            return message
        if best is None or message.priority > best.priority:
            best = message
    return best


def _item(sender: QueueManager, message: StoredMessage) -> dict:
    header = sender.units.data.get(message.msgid)
    if header is None or "qm" not in header:
        raise ChannelStopped(
            "AMQ9544E",
            "Messages not put to destination queue.",
            f"Message {message.msgid} on the transmission queue has no transmission header.",
        )
    return {
        "m": message.msgid,
        "p": message.priority,
        "s": message.size,
        "tm": message.put_time,
        "persistent": message.persistent,
        "h": header,
    }


def _take(
    sender: QueueManager,
    receiver: QueueManager,
    channel: str,
    xmitq: MQObject,
    seq: int,
    batch_size: int,
    by_priority: bool,
    only: str | None,
) -> list[dict]:
    """Step 1: the persistent messages at the head of the queue, off it and into a marker. The
    batch ends before a message the receiver could not take: a channel that stops on it leaves
    it on the transmission queue, as MQ's backed-out batch does."""
    batch: list[dict] = []
    with sender.units.agent_unit() as uow:
        while len(batch) < batch_size:
            message = _next(sender, xmitq, by_priority, only)
            if message is None or not message.persistent:
                break
            item = _item(sender, message)
            problem = _undeliverable(receiver, item)
            if problem is not None:
                if not batch:
                    raise problem
                break
            batch.append(item)
            sender.units.agent_get(xmitq, message, uow)
        kept = marker_id(SENT, seq, channel)
        sender.units.store_data({kept: {"batch": batch}})
        sender.units.agent_put(
            _syncq(sender), StoredMessage(kept, True, 0, 0, sender.clock.now().isoformat()), uow
        )
    sender.units.data.delete(item["m"] for item in batch)  # the marker holds them now
    return batch


def _send_fast(sender: QueueManager, receiver: QueueManager, xmitq: MQObject, message: StoredMessage) -> None:
    item = _item(sender, message)
    problem = _undeliverable(receiver, item)
    if problem is not None:
        raise problem
    _arrive(receiver, item, None)
    sender.units.agent_get(xmitq, message, None)
    sender.units.data.delete([message.msgid])


def deliver(receiver: QueueManager, channel: str, seq: int, batch: list[dict]) -> int:
    """Step 2: the batch put where each message is for, and the receiver's marker moved on."""
    syncq = _syncq(receiver)
    with receiver.units.agent_unit() as uow:
        for item in batch:
            _arrive(receiver, item, uow)
        previous = marker(receiver, RECEIVED, channel)
        if previous is not None:
            receiver.units.agent_get(syncq, previous[0], uow)
        receiver.units.agent_put(
            syncq,
            StoredMessage(marker_id(RECEIVED, seq, channel), True, 0, 0, receiver.clock.now().isoformat()),
            uow,
        )
    return len(batch)


def _forget(sender: QueueManager, message: StoredMessage) -> None:
    """Step 3."""
    sender.units.agent_get(_syncq(sender), message, None)
    sender.units.data.delete([message.msgid])


def _arrive(receiver: QueueManager, item: dict, uow: str | None) -> None:
    """One message put where its transmission header sends it on the receiving queue manager:
    a queue of its own, the transmission queue to the next one, or else its dead-letter queue."""
    message = StoredMessage(item["m"], item["persistent"], item["p"], item["s"], item["tm"])
    header = item["h"]
    try:
        queue, onward = _destination(receiver, header)
        if onward is not None:
            receiver.units.store_data({message.msgid: onward})
        elif "body" in header:  # a cluster command message: its content goes with it
            receiver.units.store_data({message.msgid: {"body": header["body"]}})
        receiver.units.agent_put(queue, message, uow)
    except MQError as error:
        _dead_letter(receiver, message, header, error.reason, uow)


def _destination(receiver: QueueManager, header: dict) -> tuple[MQObject, dict | None]:
    """The local queue a message for (qm, q) goes on here, and the header it keeps there (None
    when it has arrived)."""
    if header["qm"] in (
        "",
        receiver.name,
        receiver.qmgr_object.attributes.get("QMNAME"),
    ):  # a restored copy's own name too
        queue = receiver.units.resolve_queue(header["q"])
        if isinstance(queue, SharedQueue):
            raise MQError(
                MQRC_UNKNOWN_OBJECT_NAME
            )  # a channel's put to a shared queue is not modelled: answered as no such queue
        return queue, receiver.units.routes.transmission_header(header["q"])
    onward = receiver.lookup("QUEUE", header["qm"])
    into_cluster = receiver.units.routes.cluster_qmgr_route
    if onward is None and into_cluster is not None:
        return into_cluster(header["qm"], header["q"], False)  # on into the cluster
    if onward is None or onward.object_type != "QLOCAL" or onward.attributes.get("USAGE") != "XMITQ":
        raise MQError(MQRC_UNKNOWN_REMOTE_Q_MGR)
    return onward, header


def _undeliverable(receiver: QueueManager, item: dict) -> ChannelStopped | None:
    """Why the receiver could take the message neither where it is for nor on its dead-letter
    queue; None when it can."""
    try:
        queue, _onward = _destination(receiver, item["h"])
        receiver.units.check_put(queue, item["s"])
        return None
    except MQError as error:
        if _dead_letter_queue(receiver) is not None:
            return None
        return _not_put(item["h"], error.reason)


def _not_put(header: dict, reason: int) -> ChannelStopped:
    return ChannelStopped(
        "AMQ9544E",
        "Messages not put to destination queue.",
        f"Message for queue {header['q']} on queue manager {header['qm']} could not be put "
        f"(reason {reason}), and the queue manager has no dead-letter queue.",
    )


def _dead_letter_queue(receiver: QueueManager) -> MQObject | None:
    name = str(receiver.qmgr_object.attributes.get("DEADQ") or "")
    queue = receiver.lookup("QUEUE", name) if name else None
    return queue if queue is not None and queue.object_type == "QLOCAL" else None


def _dead_letter(
    receiver: QueueManager, message: StoredMessage, header: dict, reason: int, uow: str | None
) -> None:
    """The message goes on the dead-letter queue with a dead-letter header saying why (MQDLH)."""
    queue = _dead_letter_queue(receiver)
    if queue is None:
        raise _not_put(header, reason)
    receiver.units.store_data({message.msgid: {"dlh": reason, **header}})
    try:
        receiver.units.agent_put(queue, message, uow)
    except MQError as error:
        raise ChannelStopped(
            "AMQ9544E",
            "Messages not put to destination queue.",
            f"Message for queue {header['q']} on queue manager {header['qm']} could not be put "
            f"(reason {reason}), nor on the dead-letter queue {queue.name} (reason "
            f"{error.reason}).",
        ) from None
