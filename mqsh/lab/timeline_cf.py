"""LAB TIMELINE CFSTRUCT(name): each member's log, with where the structure's backup lies in it, and
its failures and recoveries (RECOVER CFSTRUCT, TYPE(PURGE) too) - how far into each log a recovery
read - and when they came, on one clock (mqsh.lab.timeline draws it)."""

from __future__ import annotations

from typing import Any

from mqsh.commands.context import Context
from mqsh.lab.timeline_axis import Lane, Mark, moment_of
from mqsh.lab.timeline_draw import Picture
from mqsh.lab.timeline_log import extent_spans
from mqsh.model.qsg import states
from mqsh.model.qsg.list_structure import structure_path
from mqsh.model.qsg.repository import RepositoryUnavailable, SharedRepository
from mqsh.model.sharing_groups import membership
from mqsh.recovery import cf_ledger
from mqsh.recovery.cf_ledger import CfExplanation
from mqsh.responses import Result
from mqsh.store import clocknotes


def picture(ctx: Context, qmgr: str, cf: str) -> Picture | Result:
    qsg = membership(ctx.installation, qmgr)
    if qsg is None:
        return Result.failure(f"mqsh: queue manager {qmgr} is not in a queue sharing group.")
    data_dir = ctx.installation.data_dir
    try:
        with SharedRepository(data_dir, qsg) as repository:
            if cf not in repository.cfstructs():
                return Result.failure(f"CFSTRUCT({cf}) WAS NOT FOUND", "CSQM094I")
            members = [member.qmgr for member in repository.members()]
            backup = repository.latest_backup(cf)
            purge = states.purge_record(repository, cf)
    except RepositoryUnavailable as error:
        return Result.failure(f"mqsh: {error}.")
    marks: dict[str, list[Mark]] = {member: [] for member in members}
    if backup is not None and backup.qmgr in marks:
        marks[backup.qmgr].append(
            Mark(
                backup.start_lsn,
                "backup",
                f"BACKUP CFSTRUCT({cf}), LRSN {backup.lrsn:X} (its records to LSN {backup.end_lsn})",
                moment_of(backup.ended),
            )
        )
    record_path = cf_ledger.path_beside(structure_path(data_dir, qsg, cf))
    history = cf_ledger.history(record_path)
    for event in history:
        if event.get("kind") == "failure":
            held = "" if event.get("held") is None else f", {event['held']} persistent messages held"
            for member in marks:
                marks[member].append(
                    Mark(
                        None,
                        "failure",
                        f"CFSTRUCT({cf}) {event.get('how')}{held}",
                        moment_of(event.get("at")),
                    )
                )
        elif event.get("kind") == "recovery":
            for member, lsn in (event.get("lsns") or {}).items():
                if member in marks and lsn is not None:
                    marks[member].append(_recovery_mark(cf, event, lsn))
    if not any(event.get("kind") == "recovery" for event in history):
        _last_recovery_marks(marks, cf, purge, cf_ledger.load(record_path))
    lanes = []
    for member in members:
        paths = ctx.installation.paths(member)
        lanes.append(
            Lane(
                member,
                extent_spans(paths.log_dir, None, set()),
                marks[member],
                clocknotes.read(paths.log_root),
            )
        )
    return Picture(f"Structure {cf} of group {qsg}: the members' logs", lanes)


def _recovery_mark(cf: str, event: dict[str, Any], lsn: int) -> Mark:
    at, by = moment_of(event.get("at")), event.get("by")
    if event.get("type") == "PURGE":
        return Mark(lsn, "purge", f"RECOVER CFSTRUCT({cf}) TYPE(PURGE) by {by}", at)
    return Mark(lsn, "recovery", f"RECOVER CFSTRUCT({cf}) by {by} read to here", at)


def _last_recovery_marks(
    marks: dict[str, list[Mark]], cf: str, purge: states.PurgeRecord | None, recovered: CfExplanation | None
) -> None:
    """A structure whose history has no recovery (its group's files kept no history then): its last
    purge point and its last recovery, as the group's repository and the recovery's record keep them."""
    if purge is not None:
        for member, lsn in purge.point.lsns.items():
            if member in marks:
                marks[member].append(
                    Mark(lsn, "purge", f"RECOVER CFSTRUCT({cf}) TYPE(PURGE)", moment_of(purge.at))
                )
    if recovered is not None and not recovered.purge:
        for read in recovered.logs:
            if read.member in marks and read.last_lsn is not None:
                marks[read.member].append(
                    _recovery_mark(cf, {"at": recovered.at, "by": recovered.by}, read.last_lsn)
                )
