"""Which objects media recovery covers.

Media images exist only on linear and replicated logs. On a linear log the
queue manager's IMGRCOVQ (local queues, overridable per queue) and IMGRCOVO
(every other object) say which objects are recoverable; a replicated (Native
HA) log recovers everything. The queue manager object is always imaged: it is
recorded, and re-created at restart, though rcrmqobj will not touch it.
Durable subscriptions, channel authentication records, authority records and
security policies are not objects of their own in MQ but messages on a system queue: they are
recorded and recovered with that queue (HOLDING_QUEUES), so they follow
IMGRCOVQ.
"""

from __future__ import annotations

from typing import NamedTuple

from mqsh.core.objects import MQObject


class HoldingQueue(NamedTuple):
    queue: str  # the local queue the records are kept on
    what: str  # how messages name one record
    named: bool  # whether a record's name means something to the administrator (a subscription's does;
    #              a CHLAUTH or authority record's is mqsh's key for it): the others go unnamed in reports


HOLDING_QUEUES = {
    "SUB": HoldingQueue("SYSTEM.DURABLE.SUBSCRIBER.QUEUE", "durable subscription", True),
    "CHLAUTH": HoldingQueue("SYSTEM.CHLAUTH.DATA.QUEUE", "channel authentication record", False),
    "AUTHREC": HoldingQueue("SYSTEM.AUTH.DATA.QUEUE", "authority record", False),
    "POLICY": HoldingQueue("SYSTEM.PROTECTION.POLICY.QUEUE", "security policy", True),
}


def named_in_reports(obj: MQObject) -> bool:
    """Whether rcdmqimg and rcrmqobj name the object in their reports: records known only by an
    internal key are imaged and re-created with their queue, whose line stands for them."""
    holder = HOLDING_QUEUES.get(obj.namespace)
    return holder is None or holder.named


def held_on(queue_name: str) -> list[str]:
    """The name spaces of the records kept on a queue (none for most queues)."""
    return [namespace for namespace, holder in HOLDING_QUEUES.items() if holder.queue == queue_name]


def recoverable(log_type: str, qmgr_attributes: dict, obj: MQObject) -> bool:
    if log_type == "CIRCULAR":
        return False
    if log_type == "REPLICATED" or obj.object_type == "QMGR":
        return True
    if obj.namespace in HOLDING_QUEUES:
        return qmgr_attributes.get("IMGRCOVQ", "YES") == "YES"
    if obj.object_type == "QLOCAL":
        setting = obj.attributes.get("IMGRCOVQ", "QMGR")
        if setting == "QMGR":
            setting = qmgr_attributes.get("IMGRCOVQ", "YES")
        return setting == "YES"
    return qmgr_attributes.get("IMGRCOVO", "YES") == "YES"


def oldest_extents(qmgr) -> tuple[str, str]:
    """(AMQ7467I, AMQ7468I): the oldest extents needed to start the queue manager and for media recovery.

    They are RECLOG and MEDIALOG; a damaged object's media recovery record
    never moves, so it holds MEDIALOG back until the object is deleted or
    re-created.
    """
    restart = qmgr.space.reclog()
    media = qmgr.space.medialog()
    return qmgr.space.name(restart), qmgr.space.name(restart if media is None else media)
