"""The owner's restart processing of its shared message data set: its space map, and the checks on its data.

When its owner opens a data set, an EMPTY (or new) one starts afresh; otherwise
the space map saved at the last normal close is used when its time stamp is the
one the repository holds, or the map is rebuilt by scanning the structure
(CSQE252I) on the engine the queue manager was given (mqsh.recovery.spacemap.scan).

IBM's integrity checks ("Managing your shared message data set environment",
Data set contents are incorrect) run on that rebuild. The scan finds the most
recent message left in the data set, and its block is read: a prefix that
does not match its entry id means the data set is down level (restored from an
older copy), and it is marked FAILED - its messages stay in the structure, for
RECOVER CFSTRUCT to bring their data back. A data set the structure has
messages for but that was never written is unexpectedly empty; one whose
messages lie beyond its extents is too small (an older copy, taken before it grew): both FAILED
too, found by the same rebuild - so CSQE252I comes first, even when a space map was saved. What a
down-level check found is kept beside the data set (mqsh.recovery.cf_ledger)
for LAB EXPLAIN CFSTRUCT to tell once a recovery has rewritten it.

A RECOVERED data set - after RECOVER CFSTRUCT, or marked so by RESET SMDS as
the administrator's word that no data was lost - gets the same checks, and
then every message's block is read: a persistent message whose data is not
there fails the data set as a damaged persistent message does at any read (the
structure keeps it, and the recovery from the backup and logs brings its data
back); a non-persistent one, which no recovery can bring back, is deleted
from the structure (CSQE280I).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from mqsh.model.qsg import states
from mqsh.model.qsg.datasets import DataSet, DataSetError
from mqsh.model.qsg.list_structure import Structure
from mqsh.model.qsg.repository import SharedRepository
from mqsh.recovery import cf_ledger
from mqsh.recovery.spacemap.reference import SpaceScan, extent
from mqsh.recovery.spacemap.scan import SpaceScanEngine
from mqsh.store.errorlog import ErrorLog


class Owner(Protocol):
    """The member opening its own data set (mqsh.model.qsg.smds_access.SmdsAccess)."""

    member: str
    errors: ErrorLog
    scans: SpaceScanEngine
    now: Callable[[], str]


def scan(owner: Owner, structure: Structure, data_set: DataSet) -> SpaceScan:
    """The structure's messages whose data is in the owner's data set: blocks in use, newest, beyond."""
    return owner.scans.scan(structure.db, owner.member, data_set.total_blocks())


def restart(
    owner: Owner,
    repository: SharedRepository,
    cf: str,
    state: states.SmdsState,
    data_set: DataSet,
    structure: Structure,
) -> None:
    """The owner's open: the data set ready for use and ACTIVE, or DataSetError when it is found bad
    (the caller fails it)."""
    if state.status in (states.EMPTY, states.NEW, states.NOTFOUND):
        data_set.take_space_map(None)
        data_set.header.used = False
        data_set.write_header()
        states.set_smds_status(repository, cf, owner.member, states.ACTIVE, owner.now())
        return
    found = scan(owner, structure, data_set)
    # A data set smaller than the messages it holds, or never written though the structure holds
    # messages for it, is an older copy: its saved space map is not used, and its rebuild by scanning
    # the structure is what finds it so. CSQE252I announces that rebuild before any of its checks fails
    # the data set (CSQE244I follows), whichever found the copy down level.
    holds = not found.beyond and (data_set.header.used or not found.messages)
    if holds and state.status == states.ACTIVE and data_set.take_space_map(state.space_map):
        return
    owner.errors.write(
        "CSQE252I", f"SMDS({owner.member}) CFSTRUCT({cf}) space map will be rebuilt by scanning the structure"
    )
    if found.beyond:
        raise DataSetError(
            "EXTENTS",
            f"data set {data_set.path.name} is smaller than the messages it holds: "
            f"message {found.beyond[0]} has blocks beyond its {data_set.total_blocks()}",
        )
    if found.messages and not data_set.header.used:
        raise DataSetError(
            "EMPTY",
            f"data set {data_set.path.name} is unexpectedly empty: the structure "
            "holds messages whose data it should have",
        )
    if found.newest is not None:
        _down_level_check(owner, cf, state.status, structure, data_set, *found.newest)
    newest = found.newest[0] if found.newest is not None else None
    if state.status == states.RECOVERED and _drop_lost(owner, cf, data_set, structure, newest):
        found = scan(owner, structure, data_set)  # the space map of the messages left
    data_set.use_runs(found.runs)
    states.set_smds_status(repository, cf, owner.member, states.ACTIVE, owner.now())


def _down_level_check(
    owner: Owner,
    cf: str,
    status: str,
    structure: Structure,
    data_set: DataSet,
    e: str,
    first: int,
    count: int,
) -> None:
    """The newest message's block must carry its entry id; DataSetError PREFIX (the data set is down
    level) when it does not, what was found kept for LAB EXPLAIN CFSTRUCT."""
    try:
        data_set.check_message(e, first, count)
    except DataSetError as error:
        if error.kind != "PREFIX":
            raise
        _keep_finding(owner, status, structure, data_set, e, first)
        raise DataSetError(
            "PREFIX",
            f"data set {data_set.path.name} is down level: the block of the most "
            f"recent message in it, {e}, does not hold that message",
        ) from None


def _keep_finding(
    owner: Owner, status: str, structure: Structure, data_set: DataSet, e: str, first: int
) -> None:
    """What the down-level check saw: the message expected and what its block held, the copy's newest
    message, and how many of the structure's messages there the copy still holds."""
    entries = structure.offloaded_to(owner.member)
    queue = next((entry.sq for entry in entries if entry.e == e), "")
    intact = sum(1 for entry in entries if data_set.held_at(entry.b or 0) == entry.e)
    found_by = (
        "restart processing after RESET SMDS STATUS(RECOVERED)"
        if status == states.RECOVERED
        else f"{owner.member}'s start"
    )
    cf_ledger.save_down_level(
        data_set.path,
        cf_ledger.DownLevel(
            data_set.path.name,
            owner.member,
            owner.now(),
            found_by,
            e,
            queue,
            first,
            data_set.held_at(first),
            data_set.newest_written(),
            len(entries),
            intact,
        ),
    )


def _drop_lost(owner: Owner, cf: str, data_set: DataSet, structure: Structure, checked: str | None) -> bool:
    """Every message's blocks checked (but the one the down-level check read): a non-persistent
    message whose data was lost goes from the structure; a persistent one fails the data set
    (DataSetError PREFIX), nothing deleted. Whether any went.

    The check stays here, message by message, rather than in the scan's engines: it reads each
    block's prefix from the data set's file under DataSet's rules (a permanent I/O error, the
    buffers the member already holds), which executors of a Spark cluster need not even see;
    one read a block costs far more than the entry's row read here; and it is done once, after
    a recovery that has just written those same blocks one by one."""
    lost = []
    for entry in structure.offloaded_to(owner.member):
        if entry.e == checked:
            continue
        try:
            data_set.check_message(entry.e, *extent(entry.b, entry.n))
        except DataSetError as error:
            if error.kind != "PREFIX":
                raise  # the data set itself cannot be read: it fails, its messages stay
            if entry.persistent:
                raise DataSetError(
                    "PREFIX",
                    f"{error}: persistent message {entry.e} on queue {entry.sq} was lost from the data set",
                ) from None
            lost.append(entry)
    for entry in lost:
        with structure.transaction() as db:
            Structure.delete(db, entry.e)
        owner.errors.write(
            "CSQE280I",
            f"Message {entry.e} on queue {entry.sq} was deleted: its data "
            f"in SMDS({owner.member}) CFSTRUCT({cf}) was lost",
        )
    return bool(lost)
