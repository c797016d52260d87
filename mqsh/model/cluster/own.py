"""What a queue manager itself advertises to its clusters, read from its own definitions.

A queue manager is in a cluster through a CLUSRCVR channel naming it (CLUSTER or CLUSNL):
that channel is its queue-manager record there. Its queues and topics with CLUSTER or CLUSNL
are its queue and topic records; REPOS / REPOSNL of the queue manager make it a full
repository of those clusters (QMTYPE REPOS). The records' contents are the attributes other
members show (DISPLAY CLUSQMGR, QCLUSTER, TCLUSTER) and route by.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mqsh.model.cluster.cache import QMGR, QUEUE, TOPIC

if TYPE_CHECKING:
    from mqsh.model.qmgr import QueueManager

# What other members learn of a clustered queue (DISPLAY QCLUSTER) and topic (TCLUSTER).
QUEUE_FIELDS = (
    "ALTDATE",
    "ALTTIME",
    "CLWLPRTY",
    "CLWLRANK",
    "DEFBIND",
    "DEFPRESP",
    "DEFPRTY",
    "DEFPSIST",
    "DESCR",
    "PUT",
)
TOPIC_FIELDS = ("ALTDATE", "ALTTIME", "DESCR", "TOPICSTR", "PUB", "SUB", "CLROUTE", "DEFPSIST", "DEFPRTY")
CLUSQT = {"QLOCAL": "QLOCAL", "QALIAS": "QALIAS", "QREMOTE": "QREMOTE"}
# Attributes whose change alone is no update worth a new sequence number (they change with any ALTER).
STAMPS = ("ALTDATE", "ALTTIME")


def clusters_of(qmgr: QueueManager, attributes: dict) -> list[str]:
    """The clusters an object is in: its CLUSTER, or the names of its CLUSNL namelist."""
    single = str(attributes.get("CLUSTER") or "").strip()
    if single:
        return [single]
    listed = str(attributes.get("CLUSNL") or "").strip()
    return namelist(qmgr, listed) if listed else []


def namelist(qmgr: QueueManager, name: str) -> list[str]:
    found = qmgr.lookup("NAMELIST", name)
    if found is None:
        return []
    return [str(entry).strip() for entry in found.attributes.get("NAMES") or [] if str(entry).strip()]


def full_repository_of(qmgr: QueueManager) -> set[str]:
    attributes = qmgr.qmgr_object.attributes
    clusters = set(namelist(qmgr, str(attributes.get("REPOSNL") or "").strip()))
    repos = str(attributes.get("REPOS") or "").strip()
    if repos:
        clusters.add(repos)
    return clusters


def mq_name(qmgr: QueueManager) -> str:
    """The name the queue manager has inside (its QMNAME): a copy restored under another name
    in the lab's data directory (LAB RESTORE ... AS) is still, to its clusters, the original."""
    return str(qmgr.qmgr_object.attributes.get("QMNAME") or qmgr.name)


def qmid(qmgr: QueueManager) -> str:
    return str(qmgr.qmgr_object.attributes.get("QMID") or qmgr.name)


def desired(qmgr: QueueManager, suspended: set[str]) -> dict[tuple[str, str, str, str], tuple[str, dict]]:
    """Every record the queue manager should be advertising now: key -> (owner name, attributes).
    Queues and topics are advertised only in clusters it has a CLUSRCVR in."""
    own_id, name = qmid(qmgr), mq_name(qmgr)
    repository_of = full_repository_of(qmgr)
    wanted: dict[tuple[str, str, str, str], tuple[str, dict]] = {}
    joined: set[str] = set()
    for channel in sorted(qmgr.objects("CHANNEL"), key=lambda obj: obj.name):
        attributes = channel.attributes
        if attributes.get("CHLTYPE") != "CLUSRCVR":
            continue
        for cluster in clusters_of(qmgr, attributes):
            if cluster in joined:
                continue  # one CLUSRCVR per cluster advertises the queue manager: the first by name
            joined.add(cluster)
            values = {key: value for key, value in attributes.items() if key not in ("CLUSTER", "CLUSNL")}
            values.update(
                CHANNEL=channel.name,
                QMTYPE="REPOS" if cluster in repository_of else "NORMAL",
                SUSPEND="YES" if cluster in suspended else "NO",
            )
            wanted[(QMGR, cluster, own_id, name)] = (name, values)
    for kind, object_types, fields in (
        (QUEUE, ("QLOCAL", "QALIAS", "QREMOTE"), QUEUE_FIELDS),
        (TOPIC, ("TOPIC",), TOPIC_FIELDS),
    ):
        for obj in sorted(qmgr.objects("QUEUE" if kind == QUEUE else "TOPIC"), key=lambda obj: obj.name):
            if obj.object_type not in object_types:
                continue
            for cluster in clusters_of(qmgr, obj.attributes):
                if cluster not in joined:
                    continue
                values = {key: obj.attributes.get(key, "") for key in fields if key in obj.attributes}
                if kind == QUEUE:
                    values["CLUSQT"] = CLUSQT[obj.object_type]
                wanted[(kind, cluster, own_id, obj.name)] = (name, values)
    return wanted


def differs(old: dict, new: dict) -> bool:
    """A change other members must hear of (not only the alteration stamp)."""
    strip = lambda values: {key: value for key, value in values.items() if key not in STAMPS}  # noqa: E731
    return strip(old) != strip(new)
