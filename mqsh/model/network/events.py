"""Channel events: the event messages MQ puts on SYSTEM.ADMIN.CHANNEL.EVENT under ALTER QMGR CHLEV.

Which events each setting generates is IBM's ChannelEvent (MQLONG) list: EXCEPTION gives
Channel Stopped when the channel stopped in error, went into retry or is now stopped, and
Channel Stopped By User; ENABLED gives those and Channel Started, Channel Stopped when it
closed normally, and - not in that list for EXCEPTION, so here under ENABLED only - Channel
Blocked, and its warning form for a record with WARN(YES). A Channel Stopped follows only a
Channel Started of the same instance, as MQ issues it. Channel Activated and Not Activated
(MAXACTIVECHANNELS) are not modelled.

An event message is a persistent message put outside any unit of work; its content - what a
PCF event carries: the reason, the time and the event's parameters - is kept as the message's
data (mqsh.store.message_data). When the event queue cannot take it (missing, put-inhibited,
full) the event is discarded, as MQ discards it. `LAB EVENTS` shows the messages in the form of
MQ's amqsevt sample.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mqsh.model.objects import StoredMessage
from mqsh.model.reasons import MQError

if TYPE_CHECKING:
    from mqsh.model.qmgr import QueueManager

EVENT_QUEUE = "SYSTEM.ADMIN.CHANNEL.EVENT"
CHANNEL_EVENT = 46  # MQCMD_CHANNEL_EVENT, the event type of every channel event
STARTED, STOPPED, STOPPED_BY_USER, BLOCKED, BLOCKED_WARNING = 2282, 2283, 2279, 2577, 2578
REASONS = {STARTED: "Channel Started", STOPPED: "Channel Stopped", STOPPED_BY_USER: "Channel Stopped By User",
           BLOCKED: "Channel Blocked", BLOCKED_WARNING: "Channel Blocked Warning"}
# Reason qualifiers, as MQ names them (MQRQ_*): a stop's, and a refusal's.
STOPPED_OK, STOPPED_ERROR, STOPPED_RETRY, STOPPED_DISABLED = "OK", "ERROR", "RETRY", "DISABLED"
BLOCKED_ADDRESS, BLOCKED_USERID, BLOCKED_NOACCESS = "ADDRESS", "USERID", "NOACCESS"
QUALIFIERS = {STOPPED_OK: "Channel Stopped OK", STOPPED_ERROR: "Channel Stopped Error",
              STOPPED_RETRY: "Channel Stopped Retry", STOPPED_DISABLED: "Channel Stopped Disabled",
              BLOCKED_ADDRESS: "Channel Blocked Address", BLOCKED_USERID: "Channel Blocked Userid",
              BLOCKED_NOACCESS: "Channel Blocked Noaccess"}
EXCEPTIONS = {(STOPPED, STOPPED_ERROR), (STOPPED, STOPPED_RETRY), (STOPPED, STOPPED_DISABLED),
              (STOPPED_BY_USER, STOPPED_DISABLED)}


def generates(qmgr: QueueManager, reason: int, qualifier: str | None) -> bool:
    """Whether the queue manager's CHLEV setting generates this event."""
    setting = str(qmgr.qmgr_object.attributes.get("CHLEV", "DISABLED")) if qmgr.qmgr_object else "DISABLED"
    if setting == "ENABLED":
        return True
    return setting == "EXCEPTION" and (reason, qualifier) in EXCEPTIONS


def put_event(qmgr: QueueManager, reason: int, channel: str, qualifier: str | None = None,
              **parameters: str) -> None:
    """Put the channel event on the event queue, if CHLEV generates it and the queue takes it.
    parameters: the event's other parameters, by their amqsevt labels (Connection Name, ...)."""
    if not generates(qmgr, reason, qualifier):
        return
    items = [["Queue Manager Name", qmgr.name]]
    if qualifier is not None:
        items.append(["Reason Qualifier", QUALIFIERS[qualifier]])
    if channel:
        items.append(["Channel Name", channel])
    items += [[label, value] for label, value in parameters.items() if value]
    now = qmgr.clock.now()
    content = {"event": {"reason": reason, "created": now.isoformat(), "items": items}}
    queue = qmgr.lookup("QUEUE", EVENT_QUEUE)
    if queue is None or queue.object_type != "QLOCAL":
        return
    message = StoredMessage(qmgr.units.new_identifier(), True, 0, 36 + 48 * len(items), now.isoformat())
    try:
        qmgr.units.store_data({message.msgid: content})
        qmgr.units.agent_put(queue, message, None)
    except MQError:
        qmgr.units.data.delete([message.msgid])  # the queue does not take it: the event is lost


def formatted(number: int, queue: str, size: int, content: dict) -> list[str]:
    """An event message as MQ's amqsevt sample prints it."""
    event = content["event"]
    created = event["created"].replace("-", "/").replace("T", " ")
    lines = [f"**** Message #{number} ({size} Bytes) on Queue {queue} ****",
             f"{'Event Type':<33}: Channel Event [{CHANNEL_EVENT}]",
             f"{'Reason':<33}: {REASONS.get(event['reason'], 'Unknown')} [{event['reason']}]",
             f"{'Event created':<33}: {created[:19]}.00 GMT"]
    lines += [f"  {label:<31}: {value}" for label, value in event["items"]]
    return lines
