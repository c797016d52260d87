"""The record LAB EXPLAIN CFSTRUCT tells, made as RECOVER CFSTRUCT ends (mqsh.recovery.cf_ledger).

What the recovery read is what its engine was given - the backup the group's
repository names, or the purge it started from, and every member's log - and
the per-queue ledger comes from the entries the recovery left: an entry's id
is its put's LRSN, so one at or before the LRSN the recovery started after was
backed up (or carried through the purge), and one after it was replayed.
A data set rewritten after it was found down level has its finding taken
into the record, with the messages written back set against the copy's
newest: those the copy held, and those put after it. Every data set formatted
anew is told with what the recovery found it to be (looked at before it
touched it), its size remade and the messages written into it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from mqsh.model.qsg import states
from mqsh.model.qsg.datasets import DataSet, DataSetError, io_error_marker
from mqsh.model.qsg.list_structure import Entry
from mqsh.model.qsg.lrsn import entry_id
from mqsh.model.qsg.repository import SharedRepository
from mqsh.recovery import cf_ledger
from mqsh.recovery.cf_ledger import (
    CfExplanation,
    DataSetRebuild,
    DataSetRemade,
    MemberLogRead,
    SharedQueueLedger,
)
from mqsh.recovery.cfstruct.outcome import Backup
from mqsh.store import log as logstore


def member_logs(members: dict[str, Path]) -> list[MemberLogRead]:
    """Each member's log as the recovery read it: its extents present, first to last LSN."""
    read = []
    for member, log_dir in sorted(members.items()):
        present = logstore.list_extents(log_dir)
        if not present:
            read.append(MemberLogRead(member, "", "", None, None))
            continue
        ring = logstore.read_ring(log_dir)
        last = logstore.valid_end(logstore.extent_path(log_dir, present[-1], ring))[1]
        read.append(
            MemberLogRead(
                member,
                logstore.extent_name(present[0]),
                logstore.extent_name(present[-1]),
                logstore.first_lsn(logstore.extent_path(log_dir, present[0], ring)),
                last if last >= 0 else None,
            )
        )
    return read


def queue_ledgers(entries: Iterable[Entry], start_lrsn: int) -> list[SharedQueueLedger]:
    kept: dict[str, list[int]] = {}
    for entry in entries:
        counts = kept.setdefault(entry.sq, [0, 0])
        counts[entry.e > entry_id(start_lrsn)] += 1
    return [
        SharedQueueLedger(queue, backed_up + put, backed_up, put)
        for queue, (backed_up, put) in sorted(kept.items())
    ]


def rebuilt(data_set_file: Path, written: list[Entry]) -> list[DataSetRebuild]:
    """A data set just rewritten: its down-level finding (none when it was not found so) with what was
    written back, taken out of the data set's side for the recovery's record."""
    found = cf_ledger.load_down_level(data_set_file)
    cf_ledger.forget_down_level(data_set_file)
    if found is None:
        return []
    copy_held = sum(1 for entry in written if found.newest_held is not None and entry.e <= found.newest_held)
    return [DataSetRebuild(found, len(written), copy_held, len(written) - copy_held)]


def condition(path: Path, qsg: str, cf: str, owner: str, defined: str) -> tuple[str, str]:
    """What a recovery finds a data set it is about to format anew to be (DataSetRemade's found, and in
    words), before it touches it."""
    finding = cf_ledger.load_down_level(path)
    if finding is not None:
        return "DOWNLEVEL", f"down level (found so at {finding.found_at})"
    try:
        data_set = DataSet(path, owner_side=False)
    except DataSetError as error:
        return "MISSING" if error.kind == "ALLOCFAIL" else error.kind, {
            "ALLOCFAIL": "missing",
            "EMPTY": "unexpectedly empty (newly preformatted)",
            "HEADER": "invalid, its header destroyed",
        }.get(error.kind, str(error))
    header = data_set.header
    data_set.close()
    if not header.made_for(qsg, cf, owner, defined):
        return "HEADER", "invalid, its header another data set's"
    if header.partial:
        return "PARTIAL", "partly recovered (an earlier recovery of it did not finish)"
    if io_error_marker(path).exists():
        return "IOERROR", "on a device with permanent I/O errors"
    return "FAILED", "FAILED, a block of it damaged"


def remade(
    path: Path,
    owner: str,
    found: tuple[str, str],
    written: list[Entry],
    blocks: int | None,
    error: str | None,
) -> DataSetRemade:
    """A data set formatted anew and rewritten with the recovered messages whose data is there (blocks:
    its size then; None when the rewrite failed, with the error)."""
    return DataSetRemade(owner, path.name, found[0], found[1], blocks, len(written), error)


def keep(
    structure_file: Path,
    repository: SharedRepository,
    by: str,
    at: str,
    done,
    backup: Backup | None,
    purge: states.PurgeRecord | None,
    members: dict[str, Path],
    entries: list[Entry],
    start_lrsn: int,
    rebuilt: list[DataSetRebuild],
    remade: list[DataSetRemade],
) -> None:
    """The explanation of a RECOVER CFSTRUCT TYPE(NORMAL) that ended (done: its Recovered)."""
    taken = repository.latest_backup(done.cf)
    logs = member_logs(members)
    cf_ledger.save(
        cf_ledger.path_beside(structure_file),
        CfExplanation(
            done.cf,
            at,
            by,
            False,
            done.engine,
            backup_member=backup.member if backup else None,
            backup_at=str(taken.ended) if backup and taken else None,
            backup_lrsn=backup.lrsn if backup else None,
            backup_lsns=(backup.start_lsn, backup.end_lsn) if backup else None,
            purge_at=purge.at if purge is not None and backup is None else None,
            purged_earlier=purge.purged if purge is not None and backup is None else None,
            restored=done.restored,
            gone=done.gone,
            put=done.put,
            entries=done.entries,
            applied=done.applied,
            dropped=done.dropped,
            at_failure=repository.lost_at_failure(done.cf),
            logs=logs,
            queues=queue_ledgers(entries, start_lrsn),
            rebuilt=rebuilt,
            remade=remade,
            in_entries=sum(1 for entry in entries if entry.o is None),
            kept=_kept(entries, {item.owner for item in remade}),
        ),
        {read.member: read.last_lsn for read in logs},
    )


def _kept(entries: list[Entry], remade: set[str]) -> dict[str, int]:
    """Owner -> the recovered messages whose data is in its data set as it was (not formatted anew)."""
    kept: dict[str, int] = {}
    for entry in entries:
        if entry.o is not None and entry.o not in remade:
            kept[entry.o] = kept.get(entry.o, 0) + 1
    return dict(sorted(kept.items()))


def keep_purge(structure_file: Path, by: str, at: str, done, lsns: dict[str, int]) -> None:
    """The explanation of a RECOVER CFSTRUCT TYPE(PURGE): the structure allocated empty at the purge
    point (lsns: each member's last LSN then)."""
    cf_ledger.save(
        cf_ledger.path_beside(structure_file),
        CfExplanation(done.cf, at, by, True, "", dropped=done.dropped, discarded=done.discarded),
        dict(lsns),
    )


def note_failure(structure_file: Path, at: str, how: str, held: int | None) -> None:
    """A failure of the structure in its history: how it came (what a member was told) and the
    persistent messages it held then (None: not counted)."""
    cf_ledger.note(
        cf_ledger.path_beside(structure_file), {"at": at, "kind": "failure", "how": how, "held": held}
    )
