"""The channel initiator's triggering: a sender that is not running starts when messages wait for it.

As MQ sets it up: the transmission queue of the sender (or of a fully qualified server) has
TRIGGER, a TRIGTYPE other than NONE and INITQ(SYSTEM.CHANNEL.INITQ), and its TRIGDATA names the
channel - or is blank, when the initiator takes the sender channel that uses that transmission
queue. A message arriving there while the channel is inactive (never started, or ended after
DISCINT) starts it; a stopped or retrying channel has a status already and is left to its STOP
or its retries. Without triggering an inactive sender stays inactive, whatever waits for it,
until START CHANNEL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mqsh.core.objects import MQObject, object_key
from mqsh.model.network.state import SENDER, STARTING, ChannelState

if TYPE_CHECKING:
    from mqsh.model.qmgr import QueueManager

INITIATION_QUEUE = "SYSTEM.CHANNEL.INITQ"


def triggers(queue: MQObject, channel: str) -> bool:
    """Whether a message on queue makes the channel initiator start the sender channel."""
    attributes = queue.attributes
    return (
        attributes.get("TRIGGER") is True
        and attributes.get("TRIGTYPE", "FIRST") != "NONE"
        and attributes.get("INITQ") == INITIATION_QUEUE
        and str(attributes.get("TRIGDATA", "")) in ("", channel)
    )


def initiates(attributes: dict) -> bool:
    """A channel that starts a conversation: a sender, or a server with a CONNAME (fully qualified)."""
    return attributes.get("CHLTYPE") == "SDR" or (
        attributes.get("CHLTYPE") == "SVR" and bool(str(attributes.get("CONNAME") or "").strip())
    )


def start_triggered(qmgr: QueueManager) -> None:
    """Start each inactive sender whose triggered transmission queue holds messages."""
    objects = qmgr.catalog.state
    if objects.get(object_key("QUEUE", INITIATION_QUEUE)) is None:
        return  # no initiation queue: nothing to trigger through
    for key in objects.keys_in("CHANNEL"):
        channel = objects.get(key)
        if channel is None or channel.name in qmgr.channel_states or not initiates(channel.attributes):
            continue
        xmitq = objects.get(object_key("QUEUE", str(channel.attributes.get("XMITQ", ""))))
        if xmitq is not None and triggers(xmitq, channel.name) and not xmitq.damaged and qmgr.depth(xmitq):
            qmgr.channel_states[channel.name] = ChannelState(SENDER, STARTING, qmgr.clock.now())
