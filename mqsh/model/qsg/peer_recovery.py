"""A member's logged shared-message changes applied to a structure: at its own restart, and by a peer.

The structure notes, for each member, the last LSN of that member's log it
applied. A member that fails may leave records beyond it (logged and forced,
so acknowledged, but not yet in the structure) and units of work in flight
that hold entries: put but not committed, or got but not committed.

z/OS's peer recovery: when a member fails, another member still connected to
the structure - or the next one to connect - recovers the failed member's
units there at once, so that other applications need not wait for its
restart. Phase 1 completes what the failed member's log says happened (its
records beyond the applied LSN, commits included); phase 2 backs out its
units still in flight. Both run under the structure's write lock, after
making sure once more that no process runs the failed member (a member that
is restarting holds its lock, and its own restart does the same work). Its
restart then finds nothing left to do in the structure, and its log stays as
it was: a unit with no ending on the log is one a recovery backs out, which
is what the peer did.

z/OS's messages say which connection was recovered. IBM documents no exact
form of a connection name (z/OS builds it from the group's and the queue
manager's names); mqsh keeps that style: CSQE, the group's name and the member's, each
padded with @ to 4 characters, and the member's number in the group.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from mqsh.model.qsg.list_structure import COMMITTED, PUT_PENDING, Entry, Structure
from mqsh.store import log as logstore
from mqsh.store.datadir import QmgrPaths
from mqsh.store.errorlog import ErrorLog
from mqsh.store.files import CorruptFile, read_document
from mqsh.store.records import LSN, Commit, SharedBlock, SharedGet, SharedPut, UnitEnded, decode


def structures_named(record: dict[str, Any]) -> list[str]:
    """The structures a log record changes: its own for a shared move, those of its unit for an ending."""
    typed = decode(record)
    if isinstance(typed, (SharedBlock, SharedPut, SharedGet)):
        return [typed.structure]
    if isinstance(typed, UnitEnded):
        return list(typed.structures or [])
    return []


def reapply(structure: Structure, member: str, record: dict[str, Any]) -> None:
    """One logged change of member's, applied to the structure (each record once: the applied LSN)."""
    with structure.transaction() as db:
        apply_record(db, member, record)


def apply_record(db, member: str, record: dict[str, Any]) -> None:
    typed = decode(record)
    if isinstance(typed, SharedPut):
        unit = typed.unit
        Structure.insert(
            db,
            Entry(
                typed.entry,
                typed.queue,
                typed.priority,
                typed.size,
                typed.put_time,
                True,
                typed.owner,
                typed.block,
                typed.blocks,
                PUT_PENDING if unit else COMMITTED,
                member if unit else None,
                unit,
            ),
        )
    elif isinstance(typed, SharedGet):
        Structure.got(db, typed.entry, member, typed.unit)
    elif isinstance(typed, UnitEnded):
        Structure.end_unit(db, member, typed.unit, commit=isinstance(typed, Commit))
    Structure.note_applied(db, member, record[LSN])


def connection_name(qsg: str, member: str, number: int) -> str:
    return f"CSQE{qsg[:4]:@<4}{member[:4]:@<4}{number:02d}"


def _records_from_restart_point(paths: QmgrPaths) -> Iterable[dict[str, Any]]:
    """The failed member's records from its last checkpoint's restart point on: a change logged
    before a checkpoint had reached the structure (the checkpoint came after it, in one process)."""
    try:
        control = read_document(paths.control_file)
    except FileNotFoundError:
        control = {}
    first_extent = int(control.get("restart_extent", 0))
    present = logstore.list_extents(paths.log_dir)
    if first_extent not in present:
        first_extent = present[0] if present else 0
    return logstore.read_records(paths.log_dir, first_extent, int(control.get("restart_lsn", 0)))


def recover_peer(
    structure: Structure,
    data_dir: Path,
    qsg: str,
    cf: str,
    failed: str,
    number: int,
    still_failed: Callable[[str], bool],
    errors: ErrorLog,
    by: str,
) -> bool:
    """Peer recovery of member failed's work in the structure, by member by. still_failed(name) is asked
    again under the structure's write lock. False when it did nothing (the member is running after
    all, or its log cannot be read: then its own restart recovers it)."""
    name = connection_name(qsg, failed, number)
    try:
        with structure.transaction() as db:
            if not still_failed(failed):
                return False
            errors.write("CSQE008I", f"Recovery event from {by} received for structure {cf}")
            errors.write("CSQE011I", f"Recovery phase 1 started for structure {cf} connection name {name}")
            applied = structure.applied(failed)
            for record in _records_from_restart_point(QmgrPaths(data_dir, failed)):
                if record[LSN] > applied and cf in structures_named(record):
                    apply_record(db, failed, record)
            errors.write("CSQE013I", f"Recovery phase 1 completed for structure {cf} connection name {name}")
            errors.write("CSQE012I", f"Recovery phase 2 started for structure {cf} connection name {name}")
            units = Structure.units_of(db, failed)
            for unit in units:
                Structure.end_unit(db, failed, unit, commit=False)
            errors.write(
                "CSQE014I",
                f"Recovery phase 2 completed for structure {cf} connection name {name}",
                f"{len(units)} unit(s) of work of {failed} backed out.",
            )
    except (OSError, CorruptFile, logstore.LogCorrupt, logstore.ExtentMissing) as error:
        errors.write(
            "CSQE015I",
            f"Recovery phase 2 not attempted for structure {cf} connection name {name}",
            f"The log of queue manager {failed} could not be read: {error}.",
            f"{failed} recovers its connection when it restarts.",
        )
        return False
    return True
