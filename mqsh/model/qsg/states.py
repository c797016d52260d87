"""The shared status of structures and their data sets, as the group's repository keeps it.

A structure is NOTFOUND until a member first connects to it (it is then
allocated in the coupling facility), ACTIVE, or FAILED. Its data sets (the
SMDS array: one entry per owning member) move between the statuses DISPLAY CFSTATUS
TYPE(SMDS) shows (IBM MQ docs: DISPLAY CFSTATUS) - NOTFOUND, NEW, ACTIVE, FAILED, INRECOVER, RECOVERED, EMPTY - and
their availability ACCESS follows: a data set that fails or is being
recovered while ENABLED becomes SUSPENDED, one that is recovered while
SUSPENDED becomes ENABLED again; DISABLED is only ever set and cleared by
command. Every change is one repository transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mqsh.model.qsg.repository import SharedRepository
from mqsh.recovery.cfstruct.outcome import Purged

NOTFOUND, NEW, ACTIVE, FAILED, INRECOVER, RECOVERED, EMPTY = (
    "NOTFOUND",
    "NEW",
    "ACTIVE",
    "FAILED",
    "INRECOVER",
    "RECOVERED",
    "EMPTY",
)
ENABLED, SUSPENDED, DISABLED = "ENABLED", "SUSPENDED", "DISABLED"


@dataclass
class SmdsState:
    cf: str
    owner: str
    status: str = NOTFOUND
    access: str = ENABLED
    failed: str | None = None
    recovered: str | None = None  # when recovery logging started: at activation, or the last recovery
    stopped_by: list[str] = field(default_factory=list)
    space_map: str | None = None
    returned: int = 0  # how many times it came back to RECOVERED or ACTIVE from another status


@dataclass
class StructureState:
    name: str
    status: str = NOTFOUND
    failed: str | None = None
    busy_qmgr: str | None = None
    busy_kind: str | None = None


def smds_state(repository: SharedRepository, cf: str, owner: str) -> SmdsState:
    entry = repository.smds_entry(cf, owner)
    return SmdsState(cf, owner, *entry) if entry is not None else SmdsState(cf, owner)


def smds_states(repository: SharedRepository, cf: str) -> list[SmdsState]:
    """The structure's SMDS array, in owner order."""
    return [smds_state(repository, cf, owner) for owner in repository.smds_owners(cf)]


def _save(repository: SharedRepository, state: SmdsState) -> None:
    repository.save_smds_entry(
        state.cf,
        state.owner,
        state.status,
        state.access,
        state.failed,
        state.recovered,
        state.stopped_by,
        state.space_map,
        state.returned,
    )


def set_smds_status(repository: SharedRepository, cf: str, owner: str, status: str, now: str) -> SmdsState:
    """A data set's new status, with what z/OS makes follow from it for its availability."""
    state = smds_state(repository, cf, owner)
    back = status == FAILED and state.status == INRECOVER and state.failed is not None
    if status in (RECOVERED, ACTIVE) and state.status != status:
        state.returned += 1  # how members whose connection to it is in error hear that it may be tried again
    state.status = status
    if status in (FAILED, INRECOVER) and state.access == ENABLED:
        state.access = SUSPENDED
    if status == FAILED and not back:  # a recovery that fails puts it back: it failed when it did
        state.failed = now
    if status == ACTIVE:
        state.failed = None  # in use again: a later failure is a new one
    if status == NEW:
        state.recovered = now  # recovery logging of the data set starts when it is first activated
    if status == RECOVERED:
        state.recovered = now  # and again from a recovered data set
        if state.access == SUSPENDED:
            state.access = ENABLED
    _save(repository, state)
    return state


def set_smds_access(repository: SharedRepository, cf: str, owner: str, access: str) -> SmdsState:
    """A data set's new availability; one that is FAILED or being recovered stays SUSPENDED."""
    state = smds_state(repository, cf, owner)
    state.access = SUSPENDED if access == ENABLED and state.status in (FAILED, INRECOVER) else access
    _save(repository, state)
    return state


def set_space_map_stamp(repository: SharedRepository, cf: str, owner: str, stamp: str | None) -> None:
    state = smds_state(repository, cf, owner)
    state.space_map = stamp
    _save(repository, state)


def set_connection_stopped(
    repository: SharedRepository, cf: str, owner: str, member: str, stopped: bool
) -> None:
    """STOP SMDSCONN's flag, kept in the SMDS entry so that it holds across the member's restart."""
    state = smds_state(repository, cf, owner)
    members = set(state.stopped_by)
    (members.add if stopped else members.discard)(member)
    state.stopped_by = sorted(members)
    _save(repository, state)


# ------------------------------------------------------------ structures
def structure_state(repository: SharedRepository, cf: str) -> StructureState:
    row = repository.structure_status(cf)
    return StructureState(cf, *row) if row else StructureState(cf)


def set_structure_status(repository: SharedRepository, cf: str, status: str, now: str) -> None:
    """A structure that fails loses its connections; its failure's time is kept."""
    repository.set_structure_status(cf, status, now if status == FAILED else None)


@dataclass
class PurgeRecord:
    """The latest RECOVER CFSTRUCT TYPE(PURGE) of a structure: its point, when, the messages it discarded."""

    point: Purged
    at: str
    purged: int | None  # None: the structure was lost without a count


def purge_record(repository: SharedRepository, cf: str) -> PurgeRecord | None:
    point = repository.purge_point(cf)
    if point is None:
        return None
    lrsn, lsns, at, purged = point
    return PurgeRecord(Purged(lrsn, lsns), at, purged)


def record_purge(repository: SharedRepository, cf: str, record: PurgeRecord) -> None:
    repository.record_purge(cf, record.point.lrsn, record.point.lsns, record.at, record.purged)
