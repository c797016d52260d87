"""Event messages: what MQ puts on its SYSTEM.ADMIN.*.EVENT queues, and how amqsevt prints them.

An event message is a persistent message put outside any unit of work; its content - what a
PCF event carries: the event type, the reason, the time and the event's parameters - is kept
as the message's data (mqsh.store.message_data). When the event queue cannot take it (missing,
put-inhibited, full) the event is discarded, as MQ discards it. The channel events
(mqsh.model.network.events) and the logger events (mqsh.model.logger_events) are put here;
`LAB EVENTS` shows the messages in the form of MQ's amqsevt sample.
"""

from __future__ import annotations

from typing import Any, Protocol

from mqsh.core.clock import Clock
from mqsh.core.objects import MQObject, StoredMessage
from mqsh.core.reasons import MQError


class EventSource(Protocol):
    """The queue manager, as an event's put sees it."""

    name: str
    clock: Clock
    units: Any  # its messages (mqsh.model.messages.MessageStore)

    def lookup(self, namespace: str, name: str) -> MQObject | None: ...


# Event types (MQCFH Command, MQCMD_*_EVENT) and reasons (MQRC_*) by the names amqsevt prints.
CHANNEL_EVENT, LOGGER_EVENT = 46, 91
EVENT_TYPES = {CHANNEL_EVENT: "Channel Event", LOGGER_EVENT: "Logger Event"}
REASONS = {
    2282: "Channel Started",
    2283: "Channel Stopped",
    2279: "Channel Stopped By User",
    2577: "Channel Blocked",
    2578: "Channel Blocked Warning",
    2411: "Logger Status",
}


def put_event(
    qmgr: EventSource, queue_name: str, event_type: int, reason: int, items: list[list[str]]
) -> None:
    """Put an event message on queue_name, if it takes it. items: the event's parameters, as
    [amqsevt label, value], the queue manager's name first."""
    now = qmgr.clock.now()
    content = {"event": {"type": event_type, "reason": reason, "created": now.isoformat(), "items": items}}
    queue = qmgr.lookup("QUEUE", queue_name)
    if queue is None or queue.object_type != "QLOCAL" or queue.damaged:
        return
    # A message the queue manager generates is put by it: PutApplName is its name's first 28
    # characters (IBM MQ docs: MQMD PutApplName), UserIdentifier the user id it runs as.
    message = StoredMessage(
        qmgr.units.new_identifier(),
        True,
        0,
        36 + 48 * len(items),
        now.isoformat(),
        user=qmgr.units.user,
        appl=qmgr.name[:28],
    )
    try:
        qmgr.units.store_data({message.msgid: content})
        qmgr.units.agent_put(queue, message, None)
    except MQError:
        qmgr.units.data.delete([message.msgid])  # the queue does not take it: the event is lost


def formatted(number: int, queue: str, size: int, content: dict) -> list[str]:
    """An event message as MQ's amqsevt sample prints it."""
    event = content["event"]
    event_type = event.get("type", CHANNEL_EVENT)  # channel events were the first kept, without their type
    created = event["created"].replace("-", "/").replace("T", " ")
    lines = [
        f"**** Message #{number} ({size} Bytes) on Queue {queue} ****",
        f"{'Event Type':<33}: {EVENT_TYPES.get(event_type, 'Unknown')} [{event_type}]",
        f"{'Reason':<33}: {REASONS.get(event['reason'], 'Unknown')} [{event['reason']}]",
        f"{'Event created':<33}: {created[:19]}.00 GMT",
    ]
    lines += [f"  {label:<31}: {value}" for label, value in event["items"]]
    return lines
