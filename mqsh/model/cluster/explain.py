"""The record LAB EXPLAIN CLUSTER tells: a queue manager's last REFRESH CLUSTER or RESET CLUSTER
of each cluster, made as the command runs - or its restore from a backup (LAB RESTORE), which
brings back the repository, and the sequence numbers, the backup held.

No MQ report says what a refresh or a reset took out of a repository. The command keeps, per
cluster, the records the cache held before it (each with its sequence number and expiry), the
ones it removed, and for a refresh the new sequence-number base; what the repository learnt
since is read from the cache when the record is told (mqsh.lab.explain_cluster), with the full
repository that sent each record (the cache's "learned" table).

Kept beside the queue manager, one checksummed document for all its clusters written whole
(mqsh.store.files), as LAB EXPLAIN's record of the last recovery is: a crash while it is written
leaves the old one, one that does not read is as good as none, and on a full disk the command
goes on without it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

from mqsh.model.cluster.cache import QMGR, ClusterCache, ClusterCacheUnavailable, Record
from mqsh.store.datadir import CLUSTER_CACHE_FILE
from mqsh.store.files import CorruptFile, read_document, write_document

EXPLAIN_FILE = "qmcluster.explain"  # in the queue manager's directory
REFRESH, RESET, RESTORE = "REFRESH", "RESET", "RESTORE"


@dataclass(frozen=True)
class Held:
    """One standing record of a cluster as a cache holds it."""

    kind: str  # QMGR (a queue manager's CLUSRCVR), QUEUE or TOPIC
    name: str
    qmname: str  # the queue manager that owns it
    qmid: str
    seq: int
    expiry: str  # the simulated clock's time stamp
    own: bool = False
    repos: bool = False  # a queue manager record of a full repository (QMTYPE(REPOS))

    @property
    def key(self) -> tuple[str, str, str]:
        return self.kind, self.qmid, self.name


@dataclass(frozen=True)
class ClusterOperation:
    cluster: str
    qmgr: str
    kind: str  # REFRESH, RESET or RESTORE
    at: str  # the simulated clock's time stamp
    full: bool  # the queue manager is a full repository of the cluster
    detail: str  # the command's options: REPOS(NO), QMNAME(PA) QUEUES(YES) ...; a restore: the backup
    before: list[Held] = field(default_factory=list)
    removed: list[Held] = field(default_factory=list)
    base: int | None = None  # a refresh: the sequence number its own records start again from
    qmids: list[str] = field(default_factory=list)  # a reset: the queue managers it removed
    told_by: str | None = None  # a reset a member applied when told: the QMID of the full repository


def standing(cache: ClusterCache, cluster: str) -> list[Held]:
    """The cluster's records the cache holds and has not marked deleted."""
    return [held(record) for record in cache.records(cluster=cluster) if not record.deleted]


def held(record: Record) -> Held:
    return Held(
        record.kind,
        record.name,
        record.qmname,
        record.qmid,
        record.seq,
        record.expiry,
        record.own,
        record.kind == QMGR and record.attrs.get("QMTYPE") == "REPOS",
    )


def removed_since(cache: ClusterCache, cluster: str, before: list[Held]) -> list[Held]:
    """The records of before the cache no longer holds."""
    now = {item.key for item in standing(cache, cluster)}
    return [item for item in before if item.key not in now]


def note_told_reset(
    qmgr_dir: Path, qmgr: str, full: bool, told: dict, at: str, before: list[Held], after: ClusterCache
) -> None:
    """A RESET CLUSTER ... ACTION(FORCEREMOVE) a full repository ran, as this member applied it when
    told: the queue manager removed, the records that went, and which full repository told it."""
    removed = removed_since(after, told["cluster"], before)
    last = load(qmgr_dir, told["cluster"])
    if not removed and last is not None and last.kind == RESET and last.qmids == [told["qmid"]]:
        return  # the same reset again, forwarded by another full repository: the first told what went
    keep(
        qmgr_dir,
        ClusterOperation(
            told["cluster"],
            qmgr,
            RESET,
            at,
            full,
            f"QMID('{told['qmid']}') QUEUES({'YES' if told.get('queues') else 'NO'})",
            before,
            removed,
            qmids=[told["qmid"]],
            told_by=told["from"],
        ),
    )


def note_restore(qmgr_dir: Path, qmgr: str, backup: str, at: str) -> None:
    """A queue manager (ended) put back from a backup: per cluster it is in, its repository as the
    backup held it."""
    cache = ClusterCache(qmgr_dir / CLUSTER_CACHE_FILE)
    if not cache.exists():
        return
    try:
        for cluster in sorted(
            {record.cluster for record in cache.records(QMGR, own=True) if not record.deleted}
        ):
            before = standing(cache, cluster)
            keep(
                qmgr_dir,
                ClusterOperation(
                    cluster,
                    qmgr,
                    RESTORE,
                    at,
                    any(item.own and item.repos for item in before),
                    backup,
                    before,
                ),
            )
    except ClusterCacheUnavailable:
        pass  # a cache that does not read: its start will say so; there is nothing to explain
    finally:
        cache.close()


def keep(qmgr_dir: Path, operation: ClusterOperation) -> None:
    """The operation, in place of the cluster's last one."""
    path = qmgr_dir / EXPLAIN_FILE
    try:
        try:
            document = read_document(path)
        except (FileNotFoundError, CorruptFile):
            document = {}
        document = document if isinstance(document, dict) else {}
        document[operation.cluster] = asdict(operation)
        write_document(path, document)
    except OSError:
        pass  # a full disk: the command stands; only its explanation is not kept


def load(qmgr_dir: Path, cluster: str) -> ClusterOperation | None:
    """The cluster's last operation on the queue manager; None when none is kept or it cannot be read."""
    try:
        item = read_document(qmgr_dir / EXPLAIN_FILE)[cluster]
        return ClusterOperation(
            **{
                **item,
                "before": [Held(**entry) for entry in item["before"]],
                "removed": [Held(**entry) for entry in item["removed"]],
            }
        )
    except (OSError, CorruptFile, KeyError, TypeError, ValueError):
        return None
