"""The claim a BACKUP or RECOVER CFSTRUCT holds on a structure while it runs, and its end.

Only one member may back up or recover a structure at a time (CSQE101I to
the others). On z/OS the claim belongs to the claiming queue manager's
connection to the structure: when that queue manager terminates part-way,
its connection fails and the peers take over. Here the claim is two things:
the repository's mark (cfstruct_status.busy_qmgr and busy_kind, which
DISPLAY CFSTATUS shows as INBACKUP or INRECOVER) and an advisory lock on the
structure's claim file, held by the claiming process for as long as the
command runs. The lock goes with the process, so a mark whose lock can be
taken is a dead claim: the process was killed (or the member it ran was
restarted elsewhere since, which needs that process gone). A dead claim is
released by whoever finds it - the next BACKUP or RECOVER, or any member
before its next command - as z/OS treats a queue manager that ended while
recovery was in progress: the data sets it was
recovering (INRECOVER) go back to FAILED, their headers still marked as
partly recovered (mqsh.model.qsg.structure_recovery marks them before it writes
them), and the structure stays FAILED, so that the recovery can be repeated
or made with TYPE(PURGE).
"""

from __future__ import annotations

import fcntl
import os
from dataclasses import dataclass
from pathlib import Path

from mqsh.model.qsg import states
from mqsh.model.qsg.repository import SharedRepository

# The claim files this process holds locked: path -> descriptor (the lock goes with the descriptor).
_held: dict[Path, int] = {}


@dataclass(frozen=True)
class Released:
    """A dead claim that was released: who held it, for what, and the data sets put back to FAILED."""

    cf: str
    member: str
    kind: str
    failed: list[str]


def claim_path(repository: SharedRepository, cf: str) -> Path:
    """Beside the structure's own file (mqsh.model.qsg.list_structure.structure_path)."""
    return repository.path.parent / repository.qsg / f"{cf}.claim"


def _lock(path: Path) -> int | None:
    """The claim file's descriptor, locked; None while another holder (this process included) has it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def _unlock(fd: int) -> None:
    fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)


def claim_structure(
    repository: SharedRepository, cf: str, member: str, kind: str, now: str
) -> states.StructureState | None:
    """Mark a BACKUP or RECOVER of the structure as running on member, in this process; the state
    of the one already running instead (CSQE101I), or None when the claim was made. A dead claim
    found in the way is released first."""
    path = claim_path(repository, cf)
    fd = _lock(path)
    if fd is None:
        return states.structure_state(repository, cf)
    try:
        _release_marked(repository, cf, now)
        repository.mark_busy(cf, member, kind)
    except BaseException:
        _unlock(fd)
        raise
    _held[path] = fd
    return None


def release_structure(repository: SharedRepository, cf: str) -> None:
    """The end of this process's BACKUP or RECOVER: the mark goes, then the lock."""
    try:
        repository.clear_busy(cf)
    finally:
        fd = _held.pop(claim_path(repository, cf), None)
        if fd is not None:
            _unlock(fd)


def forget_structure(repository: SharedRepository, cf: str) -> None:
    """A deleted structure's claim file goes with it, unless a BACKUP or RECOVER still holds it:
    its holder's lock is on that file, and must go on keeping the others out until it ends."""
    path = claim_path(repository, cf)
    if not path.exists():
        return
    fd = _lock(path)
    if fd is None:
        return
    try:
        path.unlink(missing_ok=True)
    finally:
        _unlock(fd)


def release_dead(repository: SharedRepository, cf: str, now: str) -> Released | None:
    """Release the structure's claim if its holder is dead; None when there is none, or it is live."""
    if states.structure_state(repository, cf).busy_qmgr is None:
        return None
    fd = _lock(claim_path(repository, cf))
    if fd is None:
        return None  # live: its process still runs the command
    try:
        return _release_marked(repository, cf, now)
    finally:
        _unlock(fd)


def release_dead_claims(repository: SharedRepository, now: str) -> list[Released]:
    """Every dead claim in the group released (a member's look before its next command)."""
    return [
        released
        for cf in repository.busy_structures()
        if (released := release_dead(repository, cf, now)) is not None
    ]


def _release_marked(repository: SharedRepository, cf: str, now: str) -> Released | None:
    """With the claim file locked by the caller: a mark left there is a dead holder's. Its data
    sets INRECOVER are FAILED again before the mark goes, so that a process killed in between
    leaves the mark for the next one to finish."""
    state = states.structure_state(repository, cf)
    if state.busy_qmgr is None:
        return None
    failed = [
        data_set.owner
        for data_set in states.smds_states(repository, cf)
        if data_set.status == states.INRECOVER
    ]
    for owner in failed:
        states.set_smds_status(repository, cf, owner, states.FAILED, now)
    repository.clear_busy(cf)
    return Released(cf, state.busy_qmgr, state.busy_kind or "", failed)
