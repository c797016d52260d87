"""Queue-sharing groups and their members, as z/OS's CSQ5PQSG utility keeps them.

A group exists as its shared repository (mqsh.model.qsg.repository). A
member is listed there with its number, and knows its group itself: its
qm.ini names it (stanza QueueSharingGroup, as z/OS's system parameters name
it with QSGDATA), so that a member whose repository is lost still knows which
group it cannot reach. The rules are z/OS's: a group's name is 1 to 4
characters and no queue manager's name; a queue manager belongs to one group
at most; a member leaves only when it has ended normally, so that it leaves
no unresolved work behind; a group is removed only when it has no members.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mqsh.model.config import QSG_STANZA, group_named_in
from mqsh.model.installation import Installation
from mqsh.model.qmgr_directory import CRASHED, ENDED_IMMEDIATELY, ENDED_PREEMPTIVELY, RUNNING
from mqsh.model.qsg.list_structure import Structure, StructureLost, structure_path
from mqsh.model.qsg.repository import (
    QSG_NAME,
    Member,
    RepositoryUnavailable,
    SharedRepository,
    group_names,
    repository_path,
)
from mqsh.store.files import CorruptFile, read_document
from mqsh.store.qmini import read_stanzas, write_stanzas


class GroupRefused(Exception):
    """A function the rules refuse, in words for the administrator."""


@dataclass
class Verified:
    members: list[Member]
    problems: list[str]


def membership(installation: Installation, qmgr: str) -> str | None:
    """The group a queue manager's qm.ini names, or None."""
    return group_named_in(installation.paths(qmgr).qm_ini)


def _set_membership(installation: Installation, qmgr: str, qsg: str | None) -> None:
    path = installation.paths(qmgr).qm_ini
    stanzas = read_stanzas(path)
    stanzas.pop(QSG_STANZA, None)
    if qsg is not None:
        stanzas[QSG_STANZA] = {"Name": qsg}
    write_stanzas(path, stanzas)


def _open(installation: Installation, qsg: str) -> SharedRepository:
    """The group's repository. A group no queue manager names and no file holds was never added;
    one a member names whose file is gone has lost its repository (RepositoryUnavailable)."""
    if not repository_path(installation.data_dir, qsg).exists() and not any(
        membership(installation, name) == qsg for name in installation.names()
    ):
        raise GroupRefused(f"Queue sharing group {qsg} does not exist")
    return SharedRepository(installation.data_dir, qsg)


def _now(installation: Installation) -> str:
    return installation.clock.now().isoformat(sep=" ")


def add_group(installation: Installation, qsg: str, dsg: str = "", ssid: str = "") -> None:
    if not QSG_NAME.match(qsg):
        raise GroupRefused(
            f"Queue sharing group name {qsg} is not valid: a name is 1 to 4 characters, "
            "A-Z, 0-9, @, # or $, not starting with a digit"
        )
    if installation.exists(qsg):
        raise GroupRefused(
            f"Queue sharing group name {qsg} is the name of a queue manager: it must differ "
            "from every queue manager's name"
        )
    if repository_path(installation.data_dir, qsg).exists():
        raise GroupRefused(f"Queue sharing group {qsg} already exists")
    with SharedRepository(installation.data_dir, qsg, create_at=_now(installation)) as repository:
        repository.set_db2_names(dsg, ssid)


def add_member(installation: Installation, qmgr: str, qsg: str) -> Member:
    if not installation.exists(qmgr):
        raise GroupRefused(f"Queue manager {qmgr} does not exist")
    current = membership(installation, qmgr)
    if current is not None:
        raise GroupRefused(f"Queue manager {qmgr} is already a member of queue sharing group {current}")
    if installation.status(qmgr) == RUNNING:
        raise GroupRefused(
            f"Queue manager {qmgr} is running: end it first, and it joins the group when it next starts"
        )
    with _open(installation, qsg) as repository:
        try:
            member = repository.add_member(qmgr, _now(installation))
        except ValueError as error:
            raise GroupRefused(str(error)[0].upper() + str(error)[1:]) from None
        # The repository first: a failure between the two leaves a member VERIFY names, not a
        # queue manager that believes itself in a group that does not list it.
        _set_membership(installation, qmgr, qsg)
    return member


def remove_member(installation: Installation, qmgr: str, qsg: str) -> None:
    with _open(installation, qsg) as repository:
        if qmgr not in {member.qmgr for member in repository.members()}:
            raise GroupRefused(f"Queue manager {qmgr} is not a member of queue sharing group {qsg}")
        if installation.exists(qmgr):
            status = installation.status(qmgr)
            if status == RUNNING:
                raise GroupRefused(f"Queue manager {qmgr} is running: end it normally first")
            # endmqm -p ends it as a failure would (its next start recovers as after one); endmqm -i
            # leaves the units of work in flight for its next start to back out.
            if (
                status in (CRASHED, ENDED_PREEMPTIVELY)
                or status == ENDED_IMMEDIATELY
                and _units_left(installation, repository, qmgr)
            ):
                raise GroupRefused(
                    f"Queue manager {qmgr} did not end normally: its units of work are "
                    "unresolved. Start it and end it normally first"
                )
            if membership(installation, qmgr) == qsg:
                _set_membership(installation, qmgr, None)
        repository.remove_member(qmgr)


def _units_left(installation: Installation, repository: SharedRepository, qmgr: str) -> bool:
    """Whether the queue manager's last end left units of work in flight: on its own queues (its
    shutdown checkpoint lists them) or on shared queues (a structure still holds entries of its
    units). A control file that cannot be read tells nothing, and is taken as units left."""
    try:
        if read_document(installation.paths(qmgr).control_file).get("uows"):
            return True
    except FileNotFoundError:
        pass  # it never ran
    except (OSError, CorruptFile, AttributeError):
        return True
    for cf in repository.structures():
        try:
            with Structure(
                structure_path(installation.data_dir, repository.qsg, cf), repository.qsg, cf
            ) as held:
                if Structure.units_of(held.db, qmgr):
                    return True
        except StructureLost:
            continue  # not allocated, or lost: no entries of anyone's
    return False


def remove_group(installation: Installation, qsg: str) -> None:
    with _open(installation, qsg) as repository:
        members = repository.members()
    if members:
        raise GroupRefused(
            f"Queue sharing group {qsg} still has members: "
            f"{', '.join(member.qmgr for member in members)}. Remove them first"
        )
    path = repository_path(installation.data_dir, qsg)
    for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        leftover.unlink(missing_ok=True)


def verify_group(installation: Installation, qsg: str) -> Verified:
    """The group's definitions checked against each other and against the queue managers."""
    with _open(installation, qsg) as repository:
        problems = [f"Repository check: {problem}" for problem in repository.integrity_problems()]
        members = repository.members()
    listed = {member.qmgr for member in members}
    for member in members:
        if not installation.exists(member.qmgr):
            problems.append(
                f"Queue manager {member.qmgr} is a member (number {member.number}) but does not exist"
            )
        elif membership(installation, member.qmgr) != qsg:
            problems.append(
                f"Queue manager {member.qmgr} is a member (number {member.number}) but its qm.ini "
                f"names {membership(installation, member.qmgr) or 'no queue sharing group'}"
            )
    for name in installation.names():
        if membership(installation, name) == qsg and name not in listed:
            problems.append(f"Queue manager {name} names queue sharing group {qsg} but is not a member")
    return Verified(members, problems)


def groups(installation: Installation) -> list[str]:
    return group_names(installation.data_dir)


def group_names_of(installation: Installation, qmgr: str, kind: str) -> list[str]:
    """What a member's group holds by name: its application structures (kind CFSTRUCT) or members
    (kind SMDS: each member has its data set); nothing outside a group or without its repository."""
    qsg = membership(installation, qmgr)
    if qsg is None:
        return []
    try:
        with SharedRepository(installation.data_dir, qsg) as repository:
            if kind == "CFSTRUCT":
                return [name for name in repository.cfstructs() if name != "CSQ_ADMIN"]
            return [member.qmgr for member in repository.members()]
    except RepositoryUnavailable:
        return []


def start_problem(installation: Installation, qmgr: str) -> str | None:
    """Why a member cannot start (its group's repository cannot be used, or does not list it), or None.

    z/OS's start of a member connects to Db2 first and ends when its entry
    is missing (CSQ5004E); where Db2 cannot be reached it waits (CSQ5003A),
    which here, with nothing to wait for, refuses the start with the reason.
    """
    qsg = membership(installation, qmgr)
    if qsg is None:
        return None
    try:
        with SharedRepository(installation.data_dir, qsg) as repository:
            listed = qmgr in {member.qmgr for member in repository.members()}
    except RepositoryUnavailable as error:
        return (
            f"CSQ5003A: Connection to Db2 for queue sharing group {qsg} is not possible (MQRC {error.reason}, "
            f"MQRC_DB2_NOT_AVAILABLE): {str(error)[0].upper()}{str(error)[1:]}. Restore the repository file "
            "from a backup."
        )
    if not listed:
        return (
            f"CSQ5004E: Db2 table entry for queue manager in queue sharing group {qsg} is missing or incorrect. "
            f"Add it with csq5pqsg ADD QMGR,{qmgr},{qsg}, or take the queue sharing group out of its qm.ini."
        )
    return None
