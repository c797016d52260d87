"""Which objects media recovery covers.

Media images exist only on linear and replicated logs. On a linear log the
queue manager's IMGRCOVQ (local queues, overridable per queue) and IMGRCOVO
(every other object) say which objects are recoverable; a replicated (Native
HA) log recovers everything. The queue manager object is always imaged: it is
recorded, and re-created at restart, though rcrmqobj will not touch it.
"""

from __future__ import annotations

from mqsh.model.objects import MQObject
from mqsh.recovery.logscan import extent_holding
from mqsh.store.log import ExtentMissing, extent_name


def recoverable(log_type: str, qmgr_attributes: dict, obj: MQObject) -> bool:
    if log_type == "CIRCULAR":
        return False
    if log_type == "REPLICATED" or obj.object_type == "QMGR":
        return True
    if obj.object_type == "QLOCAL":
        setting = obj.attributes.get("IMGRCOVQ", "QMGR")
        if setting == "QMGR":
            setting = qmgr_attributes.get("IMGRCOVQ", "YES")
        return setting == "YES"
    return qmgr_attributes.get("IMGRCOVO", "YES") == "YES"


def oldest_extents(qmgr) -> tuple[str, str]:
    """(AMQ7467I, AMQ7468I): the oldest extents needed to start the queue manager and for media recovery.

    Restart needs the extent of the last checkpoint; media recovery the
    extent holding the oldest media recovery record of any object - a damaged
    object's record never moves, so it holds this back until the object is
    deleted or re-created.
    """
    restart = extent_name(qmgr.log.extent)
    if not qmgr.media:
        return restart, restart
    try:
        return restart, extent_name(extent_holding(qmgr.paths.log_dir, min(qmgr.media.values())))
    except ExtentMissing as missing:
        return restart, missing.extent
