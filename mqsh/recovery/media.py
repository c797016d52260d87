"""Which objects media recovery covers.

Media images exist only on linear and replicated logs. On a linear log the
queue manager's IMGRCOVQ (local queues, overridable per queue) and IMGRCOVO
(every other object) say which objects are recoverable; a replicated (Native
HA) log recovers everything. The queue manager object is always imaged: it is
recorded, and re-created at restart, though rcrmqobj will not touch it.
Durable subscriptions are recorded and recovered with the queue that holds
them, SYSTEM.DURABLE.SUBSCRIBER.QUEUE, so they follow IMGRCOVQ.
"""

from __future__ import annotations

from mqsh.model.objects import MQObject


def recoverable(log_type: str, qmgr_attributes: dict, obj: MQObject) -> bool:
    if log_type == "CIRCULAR":
        return False
    if log_type == "REPLICATED" or obj.object_type == "QMGR":
        return True
    if obj.object_type == "SUB":
        # Durable subscriptions are kept on SYSTEM.DURABLE.SUBSCRIBER.QUEUE, a local queue.
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
