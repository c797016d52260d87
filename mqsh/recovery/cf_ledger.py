"""The record of a structure's last RECOVER CFSTRUCT, kept for LAB EXPLAIN CFSTRUCT(name).

What the recovery read - the backup (when it was taken, its LRSN, whose log
holds it), or the purge it started from, and each member's log - and where
the messages it left came from, per shared queue: still there from the
backup, or put since and replayed from the members' logs. Those two add up
to the queue's depth; for the structure, the backup's messages less those got
(or backed out) since, plus the puts replayed, add up to what it holds. When
its failure counted what it held, the structure's persistent messages then
are set against what came back.

A data set its owner found down level (restored from an older copy) is
remembered from that moment until a recovery rewrites it: which data set,
the newest message the structure has data there for and what that message's
first block held instead, the newest message the file does hold (how old the
copy is), and how many of the structure's messages in it the copy still
held. The recovery that rewrites it keeps that finding in its record with
what it wrote back: the messages the copy held and those put after its
newest, which add up to what was rewritten.

Every data set a recovery formats anew and rewrites is itemised too: what it
found it to be (missing, unexpectedly empty, its header destroyed, partly
recovered, down level, on a failing device, a damaged block), the blocks it
remade it at and the recovered messages whose data it wrote there; with the
messages whose data is in their list entries and those in data sets left as
they were, they add up to what the structure holds.

Kept beside the structure's file as a checksummed document written whole (a
crash while it is written leaves the old one or none); one that does not
read is as good as none. Beside it too, the structure's history: each failure
(when, whether a connected member was told or the structure was simply lost,
the persistent messages it held) and each RECOVER CFSTRUCT (when, by whom, of
which type, and how far into each member's log it read), for LAB TIMELINE.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

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
class DownLevel:
    """A data set found down level by its owner's restart processing (mqsh.model.qsg.smds_restart)."""

    data_set: str
    owner: str
    found_at: str
    found_by: str  # what ran the check: the restart processing after RESET SMDS, or the owner's start
    expected: str  # the entry id (its put's LRSN) of the newest message the structure has in the data set
    queue: str
    block: int  # its first block
    held: str | None  # the entry whose first block that block held instead; None: nothing written there
    newest_held: str | None  # the newest entry whose first block the file holds; None: no message at all
    messages: int  # the structure's messages whose data is in the data set
    intact: int  # of them, those whose first block the file holds


@dataclass(frozen=True)
class DataSetRebuild:
    """A down-level data set a recovery rewrote: the finding, and the messages written back."""

    found: DownLevel
    rewritten: int
    copy_held: int  # of those, put at or before the newest the copy held
    after_copy: int  # put after it: their data was nowhere but in the members' logs

    def adds_up(self) -> bool:
        return self.copy_held + self.after_copy == self.rewritten


@dataclass(frozen=True)
class DataSetRemade:
    """A data set a recovery formatted anew and wrote the recovered messages' data into: what it found
    (found: MISSING, EMPTY, HEADER - its header destroyed or another's -, PARTIAL, DOWNLEVEL, IOERROR,
    or FAILED - a damaged block -, and why in words), its size remade (None: the rewrite failed, with
    error), and the recovered messages whose data belongs in it."""

    owner: str
    data_set: str
    found: str
    why: str
    blocks: int | None
    messages: int
    error: str | None = None


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
    rebuilt: list[DataSetRebuild] = field(default_factory=list)  # down-level data sets rewritten
    remade: list[DataSetRemade] = field(default_factory=list)  # every data set formatted anew and rewritten
    in_entries: int = 0  # recovered messages whose data is held in their list entries
    kept: dict[str, int] = field(
        default_factory=dict
    )  # owner -> recovered messages in its data set as it was

    def adds_up(self) -> bool:
        return (
            (self.purge or self.restored - self.gone + self.put == self.entries)
            and all(item.from_backup + item.replayed == item.depth for item in self.queues)
            and all(item.adds_up() for item in self.rebuilt)
            and (
                not self.remade
                or self.in_entries + sum(self.kept.values()) + sum(item.messages for item in self.remade)
                == self.entries
            )
        )


def path_beside(structure_file: Path) -> Path:
    return structure_file.with_name(structure_file.stem + ".explain")


HISTORY_KEPT = 50  # a structure's failures and recoveries its history keeps, the newest


def save(path: Path, explanation: CfExplanation, lsns: dict[str, int | None]) -> None:
    """The recovery's record, and a line of the structure's history: how far into each member's log
    it read (lsns; a purge's point)."""
    try:
        write_document(path, asdict(explanation))
    except OSError:
        return  # a full disk: the recovery stands; only its explanation is not kept
    note(
        path,
        {
            "at": explanation.at,
            "kind": "recovery",
            "by": explanation.by,
            "type": "PURGE" if explanation.purge else "NORMAL",
            "lsns": lsns,
        },
    )


def note(path: Path, event: dict[str, Any]) -> None:
    """One more event in the structure's history (path: its record's, from path_beside)."""
    try:
        write_document(_history_path(path), [*history(path), event][-HISTORY_KEPT:])
    except OSError:
        pass  # a full disk: only the picture of the structure's past misses it


def history(path: Path) -> list[dict[str, Any]]:
    """The structure's failures and recoveries, oldest first; none when unreadable."""
    try:
        events = read_document(_history_path(path))
    except (OSError, CorruptFile):
        return []
    return [event for event in events if isinstance(event, dict)] if isinstance(events, list) else []


def _history_path(path: Path) -> Path:
    return path.with_suffix(".history")


def load(path: Path) -> CfExplanation | None:
    try:
        document = read_document(path)
        lsns = document["backup_lsns"]
        return CfExplanation(
            **{
                **document,
                "backup_lsns": tuple(lsns) if lsns is not None else None,
                "logs": [MemberLogRead(**item) for item in document["logs"]],
                "queues": [SharedQueueLedger(**item) for item in document["queues"]],
                "rebuilt": [
                    DataSetRebuild(**{**item, "found": DownLevel(**item["found"])})
                    for item in document.get("rebuilt", [])
                ],
                "remade": [DataSetRemade(**item) for item in document.get("remade", [])],
            }
        )
    except (OSError, CorruptFile, KeyError, TypeError, ValueError):
        return None


# ---------------------------------------------------------------- a data set found down level
def down_level_path(data_set_file: Path) -> Path:
    return data_set_file.with_name(data_set_file.name + ".downlevel")


def save_down_level(data_set_file: Path, finding: DownLevel) -> None:
    try:
        write_document(down_level_path(data_set_file), asdict(finding))
    except OSError:
        pass  # a full disk: the data set is FAILED all the same; only the finding is not told


def load_down_level(data_set_file: Path) -> DownLevel | None:
    try:
        return DownLevel(**read_document(down_level_path(data_set_file)))
    except (OSError, CorruptFile, TypeError, ValueError):
        return None


def forget_down_level(data_set_file: Path) -> None:
    down_level_path(data_set_file).unlink(missing_ok=True)
