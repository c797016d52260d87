"""REFRESH CLUSTER, RESET CLUSTER ... ACTION(FORCEREMOVE) and SUSPEND / RESUME QMGR, as the
repository manager carries them out.

REFRESH CLUSTER (IBM's "REFRESH CLUSTER" concept page): the queue manager keeps its
own records and those of the full repositories (with REPOS(NO); a full repository keeps every
queue manager's), drops everything else it learnt and asks the full repositories again; its own
records get new sequence numbers - the epoch seconds of now, which become its new base - and go
out at once. REPOS(YES) also drops the full repositories, found again through the manual
CLUSSDR channels, and is refused on a full repository (AMQ9406).

RESET CLUSTER removes a queue manager (all its QMIDs' records with QMNAME, one with QMID) from a
full repository and, through it, from every member it can tell; the queue manager removed
changes nothing of its own, and updates from it are ignored for 10 seconds.
"""

from __future__ import annotations

from datetime import datetime

from mqsh.model.cluster import explain, full_repository, own
from mqsh.model.cluster.cache import QMGR, Record
from mqsh.model.cluster.manager import EXPIRY, RepositoryManager, epoch_seconds
from mqsh.model.cluster.timers import stamp


class ClusterCommandRefused(Exception):
    """The command cannot be carried out; the reason in MQ's words."""


def refresh(manager: RepositoryManager, clusters: list[str], repos: bool, now: datetime) -> None:
    for cluster in clusters:
        if repos and manager.full_repository_of(cluster):
            manager.qmgr.errors.write(
                "AMQ9406E",
                f"REFRESH CLUSTER REPOS(YES) for cluster {cluster} is not allowed on a full repository.",
                f"The queue manager is a full repository for cluster {cluster}. REFRESH CLUSTER with REPOS(YES) "
                "can be issued only on a partial repository.",
                "Alter the queue manager so that it is not a full repository for the cluster, issue the command, "
                "then alter it back if required.",
            )
            raise ClusterCommandRefused(cluster)
    # The epoch seconds of now, as MQ gives them - but above every number the queue manager has
    # used, so that the full repositories never drop the refresh as an old update: a second
    # refresh within the same second (a frozen lab clock), or after changes that counted past
    # now. A DR copy with the same QMID that refreshed in the same second as this refresh ties
    # with it, as it would in MQ, whose refresh knows only its own numbers: its records stay
    # (the full repositories keep the first of two equal numbers) until the next change here.
    # The epoch seconds are those of a clock that never went back: a lab clock set back after
    # the queue manager numbered its records (even in a backup restored since, whose numbers it
    # no longer has) would otherwise number the refresh below what the full repositories hold.
    used = [record.seq for record in manager.cache.records(own=True)]
    base = max([epoch_seconds(manager.qmgr.clock.never_back(now))] + [seq + 1 for seq in used])
    manager.cache.set_meta("base", str(base))
    for cluster in clusters:
        full = manager.full_repository_of(cluster)
        before = explain.standing(manager.cache, cluster)
        dropped = [
            record.key
            for record in manager.cache.records(cluster=cluster)
            if not record.own and not _kept(record, full, repos)
        ]
        manager.cache.drop(dropped)
        explain.keep(
            manager.qmgr.paths.qmgr_dir,
            explain.ClusterOperation(
                cluster,
                manager.qmgr.name,
                explain.REFRESH,
                stamp(now),
                full,
                f"REPOS({'YES' if repos else 'NO'})",
                before,
                explain.removed_since(manager.cache, cluster, before),
                base=base,
            ),
        )
        manager.cache.forget_interests(cluster, manager.qmid)
        for record in manager.cache.records(cluster=cluster, own=True):
            if record.deleted:
                continue
            renewed = Record(
                record.kind,
                cluster,
                record.qmid,
                record.name,
                record.qmname,
                base,
                stamp(now + EXPIRY),
                record.attrs,
                clusdate=stamp(now),
                own=True,
                published=stamp(now),
            )
            # REPOS(YES) left a partial repository knowing no full repository: its own queue
            # manager record goes through the manual CLUSSDRs as a join, answered with them.
            manager.publish(renewed, now, join=repos and not full and record.kind == QMGR)
        if full:
            manager.subscribe(cluster, "*", "*")  # the other full repositories send what they hold
    manager.resubscribe_used(now)


def _kept(record: Record, full: bool, repos: bool) -> bool:
    if record.kind != QMGR:
        return False
    if full:
        return True
    return record.attrs.get("QMTYPE") == "REPOS" and not repos


def force_remove(
    manager: RepositoryManager,
    cluster: str,
    qmname: str | None,
    qmid: str | None,
    queues: bool,
    now: datetime,
) -> list[str]:
    """The QMIDs removed. Refused unless this is a full repository of the cluster, or when a
    name stands for more than one queue manager."""
    if not manager.full_repository_of(cluster):
        raise ClusterCommandRefused(f"The queue manager is not a full repository for cluster {cluster}.")
    named = (qmid if qmid is not None else qmname or "").strip()
    if not named:
        raise ClusterCommandRefused(
            f"No queue manager named to remove from cluster {cluster}: "
            f"{'QMID' if qmid is not None else 'QMNAME'} is blank."
        )
    if qmid == manager.qmid or qmid is None and qmname == own.mq_name(manager.qmgr):
        # MQ's words for this refusal are not published: these are in its style. MQ removes
        # other queue managers only: the local one leaves a cluster by its own definitions.
        raise ClusterCommandRefused(
            f"Queue manager {named} is the local queue manager: RESET CLUSTER cannot "
            f"remove it from cluster {cluster}."
        )
    records = [record for record in manager.cache.records(QMGR, cluster) if not record.own]
    if qmid is not None:
        matches = sorted({record.qmid for record in records if record.qmid == qmid})
    else:
        matches = sorted({record.qmid for record in records if record.name == qmname})
        if len(matches) > 1:
            raise ClusterCommandRefused(
                f"Queue manager name {qmname} is used by more than one queue manager in cluster {cluster} "
                f"({', '.join(matches)}); the command is not actioned. Name the one to remove by its QMID."
            )
    # QUEUES(YES) with a QMID removes its queues even when the queue manager itself is gone
    removed = matches if matches else ([qmid] if qmid is not None and queues else [])
    if not removed:
        raise ClusterCommandRefused(f"Queue manager {named} is not known in cluster {cluster}.")
    before = explain.standing(manager.cache, cluster)
    for gone in removed:
        channels = {record.attrs.get("CHANNEL", "") for record in records if record.qmid == gone}
        manager.forget_member(cluster, gone, queues, now)
        full_repository.tell_members(
            manager,
            cluster,
            {"op": "forceremove", "from": manager.qmid, "cluster": cluster, "qmid": gone, "queues": queues},
        )
        waiting = manager.waiting_channels()
        for channel in channels:  # its auto-defined cluster-sender channel goes, unless messages wait for it
            if channel not in waiting:
                manager.qmgr.channel_states.pop(channel, None)
    named_by = f"QMID('{qmid}')" if qmid is not None else f"QMNAME({qmname})"
    explain.keep(
        manager.qmgr.paths.qmgr_dir,
        explain.ClusterOperation(
            cluster,
            manager.qmgr.name,
            explain.RESET,
            stamp(now),
            True,
            f"{named_by} QUEUES({'YES' if queues else 'NO'})",
            before,
            explain.removed_since(manager.cache, cluster, before),
            qmids=removed,
        ),
    )
    return removed


def suspend(manager: RepositoryManager, clusters: list[str], suspended: bool) -> None:
    names = manager.suspended()
    names = names | set(clusters) if suspended else names - set(clusters)
    manager.cache.set_meta("suspended", ",".join(sorted(names)))
    manager.changed.add((QMGR, own.mq_name(manager.qmgr)))
