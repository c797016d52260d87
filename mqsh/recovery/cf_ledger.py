"""The record of a structure's last RECOVER CFSTRUCT, kept for LAB EXPLAIN CFSTRUCT(name).

What the recovery read - the backup (when it was taken, its LRSN, whose log
holds it), or the purge it started from, and each member's log - and where
the messages it left came from, per shared queue: still there from the
backup, or put since and replayed from the members' logs. Those two add up
to the queue's depth; for the structure, the backup's messages less those got
(or backed out) since, plus the puts replayed, add up to what it holds. When
its failure counted what it held, the structure's persistent messages then
are set against what came back.

Kept beside the structure's file as a checksummed document written whole (a
crash while it is written leaves the old one or none); one that does not
read is as good as none.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

from mqsh.store.files import CorruptFile, read_document, write_document


@dataclass(frozen=True)
class MemberLogRead:
    member: str
    first_extent: str
    last_extent: str
    first_lsn: int | None
    last_lsn: int | None


@dataclass(frozen=True)
class SharedQueueLedger:
    queue: str
    depth: int
    from_backup: int  # backed up, and neither got nor backed out since
    replayed: int  # put since the backup (or the purge), replayed from the members' logs


@dataclass(frozen=True)
class CfExplanation:
    cf: str
    at: str
    by: str  # the queue manager that ran the recovery
    purge: bool  # TYPE(PURGE): recovered empty
    engine: str
    backup_member: str | None = None
    backup_at: str | None = None
    backup_lrsn: int | None = None
    backup_lsns: tuple[int, int] | None = None  # where its records lie in backup_member's log
    purge_at: str | None = None  # the purge a recovery with no later backup started from
    purged_earlier: int | None = None  # the messages that purge discarded
    restored: int = 0
    gone: int = 0
    put: int = 0
    entries: int = 0
    applied: int = 0
    dropped: int = 0  # non-persistent, deleted as the structure was failed
    discarded: int | None = None  # TYPE(PURGE): the persistent messages discarded
    at_failure: int | None = None  # persistent messages held when the structure failed, if counted
    logs: list[MemberLogRead] = field(default_factory=list)
    queues: list[SharedQueueLedger] = field(default_factory=list)

    def adds_up(self) -> bool:
        return (self.purge or self.restored - self.gone + self.put == self.entries) and \
            all(item.from_backup + item.replayed == item.depth for item in self.queues)


def path_beside(structure_file: Path) -> Path:
    return structure_file.with_name(structure_file.stem + ".explain")


def save(path: Path, explanation: CfExplanation) -> None:
    try:
        write_document(path, asdict(explanation))
    except OSError:
        pass  # a full disk: the recovery stands; only its explanation is not kept


def load(path: Path) -> CfExplanation | None:
    try:
        document = read_document(path)
        lsns = document["backup_lsns"]
        return CfExplanation(**{**document, "backup_lsns": tuple(lsns) if lsns is not None else None,
                                "logs": [MemberLogRead(**item) for item in document["logs"]],
                                "queues": [SharedQueueLedger(**item) for item in document["queues"]]})
    except (OSError, CorruptFile, KeyError, TypeError, ValueError):
        return None
