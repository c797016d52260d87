"""What a full repository does for the other members of its clusters: it passes on the updates
it keeps, welcomes a queue manager that joins through it, answers subscriptions and tells every
member of a RESET CLUSTER.

A member learns a record from a full repository only if it subscribed to it (a queue it put to,
a queue manager it routes to) or if every member must know it (the full repositories, the
cluster's topics). A queue is of no use without its queue manager's record - the CLUSRCVR
definition that says which channel reaches it - so a full repository sends the owner's record
with a queue's, and a queue manager's record to the members that subscribed to its queues, as
IBM's "How cluster queue managers learn about each other" (the repository manager's
subscriptions) describes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from mqsh.model.cluster.cache import QMGR, QUEUE, TOPIC, ClusterCache, Record

if TYPE_CHECKING:
    from mqsh.model.qmgr import QueueManager


class RepositoryManager(Protocol):
    """What a full repository's duties need of its repository manager (mqsh.model.cluster.manager)."""

    qmgr: QueueManager
    cache: ClusterCache

    @property
    def qmid(self) -> str: ...

    def send(self, channel: str, qmname: str, body: dict) -> None: ...

    def full_repositories(self, cluster: str) -> list[tuple[str, str]]: ...

    def own_channel(self, cluster: str) -> str: ...

    def route_to(self, cluster: str, qmid: str) -> tuple[str, str] | None: ...


def forward(manager: RepositoryManager, record: Record, body: dict, came_from_owner: bool) -> None:
    """A full repository passes on an update it kept: to the other full repositories when
    the owner sent it (they forward no further), and to the members interested in it."""
    cache = manager.cache
    body = {
        **body,
        "from": manager.qmid,
        "forwarded": True,
    }  # a forward is never forwarded again by a repository
    told: set[str] = {manager.qmid, record.qmid}
    if came_from_owner:
        for channel, qmname in manager.full_repositories(record.cluster):
            if channel != manager.own_channel(record.cluster):
                manager.send(channel, qmname, body)
    # Members interested in the object; for a queue manager, those that route to it (by
    # name: a replacement with a new QMID reaches them too) or that want everything.
    users = set(cache.subscribers(record.cluster, record.kind, record.name))
    interested = users | set(cache.subscribers(record.cluster, "*", "*"))
    if record.kind == QMGR:
        # and those that know another queue manager by the same CLUSRCVR name: the one in use changes for them
        for other in cache.records(QMGR, record.cluster):
            if other.attrs.get("CHANNEL") == record.attrs.get("CHANNEL") and other.qmid != record.qmid:
                interested |= set(cache.subscribers(record.cluster, QMGR, other.name))
        # and the users of its queues: a queue record that came before its owner's (the owner
        # told this repository of a queue before its CLUSRCVR got here) is of no use to them
        # without it
        hosted = users_of_hosted(cache, record)
        interested |= hosted
        for subscriber in sorted(hosted - told):
            cache.subscribe(record.cluster, subscriber, QMGR, record.name)  # told of its changes from now on
    if record.kind == TOPIC or record.kind == QMGR and record.attrs.get("QMTYPE") == "REPOS":
        # every member hears of the full repositories, and of the cluster's topics
        interested |= {other.qmid for other in cache.records(QMGR, record.cluster) if not other.own}
    owner = owner_record(cache, record) if record.kind in (QUEUE, TOPIC) else None
    for subscriber in sorted(interested - told):
        route = manager.route_to(record.cluster, subscriber)
        if route is None:
            continue
        if (
            owner is not None
            and (record.kind == TOPIC or subscriber in users)
            and cache.subscribe(record.cluster, subscriber, QMGR, owner.name)
        ):
            # a queue's users, or a topic's members, route to its queue manager: they learn
            # of it too (a new instance's host, say), first, so that the queue comes to a
            # member that knows where it is
            manager.send(
                *route,
                {"op": "update", "from": manager.qmid, "record": owner.to_message(), "forwarded": True},
            )
        manager.send(*route, body)


def users_of_hosted(cache: ClusterCache, owner: Record) -> set[str]:
    """The members subscribed to a queue or topic the queue manager of this record hosts."""
    hosted = {
        (record.kind, record.name)
        for record in cache.records(cluster=owner.cluster)
        if record.kind in (QUEUE, TOPIC) and record.qmid == owner.qmid and not record.deleted
    }
    return {
        subscriber
        for kind, name in sorted(hosted)
        for subscriber in cache.subscribers(owner.cluster, kind, name)
    }


def owner_record(cache: ClusterCache, record: Record) -> Record | None:
    return next(
        (
            other
            for other in cache.records(QMGR, record.cluster)
            if other.qmid == record.qmid and not other.deleted
        ),
        None,
    )


def welcome(manager: RepositoryManager, member: Record) -> None:
    """A queue manager new to this full repository learns the full repositories of the cluster
    and its topics."""
    route = (member.attrs.get("CHANNEL", ""), member.qmname)
    records = manager.cache.records(cluster=member.cluster)
    topic_owners = {record.qmid for record in records if record.kind == TOPIC}
    for record in records:
        wanted = (
            record.kind == TOPIC
            or record.kind == QMGR
            and (record.attrs.get("QMTYPE") == "REPOS" or record.qmid in topic_owners)
        )
        if wanted and not record.deleted and record.qmid != member.qmid:
            if record.kind == QMGR:
                manager.cache.subscribe(member.cluster, member.qmid, QMGR, record.name)
            manager.send(
                *route,
                {"op": "update", "from": manager.qmid, "record": record.to_message(), "forwarded": True},
            )


def share_all(manager: RepositoryManager, peer: Record) -> None:
    """Another full repository of the cluster is sent every record this one holds (but the peer's
    own), the queue managers first, so that each queue comes to it after its host."""
    route = (peer.attrs.get("CHANNEL", ""), peer.qmname)
    records = manager.cache.records(cluster=peer.cluster)
    for record in sorted(records, key=lambda record: record.kind != QMGR):
        if not record.deleted and record.qmid != peer.qmid:
            manager.send(
                *route,
                {"op": "update", "from": manager.qmid, "record": record.to_message(), "forwarded": True},
            )


def answer(manager: RepositoryManager, body: dict) -> None:
    """A subscription: kept (the member hears of every later change), and answered with what
    this repository holds of it now."""
    cluster, subscriber = body["cluster"], body["from"]
    manager.cache.subscribe(cluster, subscriber, body["kind"], body["name"])
    route = manager.route_to(cluster, subscriber)
    if route is None:
        return
    for record in matching(manager.cache, cluster, body["kind"], body["name"]):
        if record.kind == QMGR:  # told of the owners' changes from now on
            manager.cache.subscribe(cluster, subscriber, QMGR, record.name)
        manager.send(
            *route, {"op": "update", "from": manager.qmid, "record": record.to_message(), "forwarded": True}
        )


def matching(cache: ClusterCache, cluster: str, kind: str, name: str) -> list[Record]:
    """The records a subscription covers, with the queue managers that own them first."""
    if kind == "*":
        return [record for record in cache.records(cluster=cluster) if not record.deleted]
    found = [
        record
        for record in cache.records(kind, cluster)
        if (name == "*" or record.name == name) and not record.deleted
    ]
    owners = {record.qmid for record in found}
    return [
        record
        for record in cache.records(QMGR, cluster)
        if record.qmid in owners and not record.deleted and kind != QMGR
    ] + found


def tell_members(manager: RepositoryManager, cluster: str, body: dict) -> None:
    """A full repository's message to every other queue manager of the cluster it knows."""
    for record in manager.cache.records(QMGR, cluster):
        if record.qmid != manager.qmid and not record.deleted and record.in_use:
            manager.send(record.attrs.get("CHANNEL", ""), record.qmname, body)
