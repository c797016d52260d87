"""Channel events: the event messages MQ puts on SYSTEM.ADMIN.CHANNEL.EVENT under ALTER QMGR CHLEV.

Which events each setting generates is IBM's ChannelEvent (MQLONG) list: EXCEPTION gives
Channel Stopped when the channel stopped in error, went into retry or is now stopped, and
Channel Stopped By User; ENABLED gives those and Channel Started, Channel Stopped when it
closed normally, and - not in that list for EXCEPTION, so here under ENABLED only - Channel
Blocked, and its warning form for a record with WARN(YES). A Channel Stopped follows only a
Channel Started of the same instance, as MQ issues it. Channel Activated and Not Activated
(MAXACTIVECHANNELS) are not modelled. The messages are put as every event message is
(mqsh.model.events).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mqsh.model.events import CHANNEL_EVENT
from mqsh.model.events import put_event as put_event_message

if TYPE_CHECKING:
    from mqsh.model.qmgr import QueueManager

EVENT_QUEUE = "SYSTEM.ADMIN.CHANNEL.EVENT"
STARTED, STOPPED, STOPPED_BY_USER, BLOCKED, BLOCKED_WARNING = 2282, 2283, 2279, 2577, 2578
# Reason qualifiers, as MQ names them (MQRQ_*): a stop's, and a refusal's.
STOPPED_OK, STOPPED_ERROR, STOPPED_RETRY, STOPPED_DISABLED = "OK", "ERROR", "RETRY", "DISABLED"
BLOCKED_ADDRESS, BLOCKED_USERID, BLOCKED_NOACCESS = "ADDRESS", "USERID", "NOACCESS"
QUALIFIERS = {
    STOPPED_OK: "Channel Stopped OK",
    STOPPED_ERROR: "Channel Stopped Error",
    STOPPED_RETRY: "Channel Stopped Retry",
    STOPPED_DISABLED: "Channel Stopped Disabled",
    BLOCKED_ADDRESS: "Channel Blocked Address",
    BLOCKED_USERID: "Channel Blocked Userid",
    BLOCKED_NOACCESS: "Channel Blocked Noaccess",
}
EXCEPTIONS = {
    (STOPPED, STOPPED_ERROR),
    (STOPPED, STOPPED_RETRY),
    (STOPPED, STOPPED_DISABLED),
    (STOPPED_BY_USER, STOPPED_DISABLED),
}


def generates(qmgr: QueueManager, reason: int, qualifier: str | None) -> bool:
    """Whether the queue manager's CHLEV setting generates this event."""
    setting = str(qmgr.qmgr_object.attributes.get("CHLEV", "DISABLED")) if qmgr.qmgr_object else "DISABLED"
    if setting == "ENABLED":
        return True
    return setting == "EXCEPTION" and (reason, qualifier) in EXCEPTIONS


def put_event(
    qmgr: QueueManager, reason: int, channel: str, qualifier: str | None = None, **parameters: str
) -> None:
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
    put_event_message(qmgr, EVENT_QUEUE, CHANNEL_EVENT, reason, items)
