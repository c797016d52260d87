"""The shared status of structures and their data sets, as the group's repository keeps it.

A structure is NOTFOUND until a member first connects to it (it is then
allocated in the coupling facility), ACTIVE, or FAILED. Its data sets (the
SMDS array: one entry per owning member) move between the states of the
seed - NOTFOUND, NEW, ACTIVE, FAILED, INRECOVER, RECOVERED, EMPTY - and
their availability ACCESS follows: a data set that fails or is being
recovered while ENABLED becomes SUSPENDED, one that is recovered while
SUSPENDED becomes ENABLED again; DISABLED is only ever set and cleared by
command. Every change is one repository transaction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from mqsh.model.qsg.repository import SharedRepository
from mqsh.recovery.cfstruct.outcome import Purged

NOTFOUND, NEW, ACTIVE, FAILED, INRECOVER, RECOVERED, EMPTY = (
    "NOTFOUND", "NEW", "ACTIVE", "FAILED", "INRECOVER", "RECOVERED", "EMPTY")
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


_SMDS_COLUMNS = "status, access, failed, recovered, stopped_by, space_map, returned"


def smds_state(repository: SharedRepository, cf: str, owner: str) -> SmdsState:
    row = repository.db.execute(f"SELECT {_SMDS_COLUMNS} FROM smds WHERE cfstruct = ? AND qmgr = ?",
                                (cf, owner)).fetchone()
    if row is None:
        return SmdsState(cf, owner)
    return SmdsState(cf, owner, row[0], row[1], row[2], row[3], json.loads(row[4]), row[5], row[6])


def smds_states(repository: SharedRepository, cf: str) -> list[SmdsState]:
    """The structure's SMDS array, in owner order."""
    owners = [row[0] for row in repository.db.execute("SELECT qmgr FROM smds WHERE cfstruct = ? ORDER BY qmgr",
                                                      (cf,))]
    return [smds_state(repository, cf, owner) for owner in owners]


def _save(repository: SharedRepository, state: SmdsState) -> None:
    with repository.transaction() as db:
        db.execute("INSERT INTO smds (cfstruct, qmgr) VALUES (?, ?) ON CONFLICT DO NOTHING", (state.cf, state.owner))
        db.execute(f"UPDATE smds SET ({_SMDS_COLUMNS}) = (?, ?, ?, ?, ?, ?, ?) WHERE cfstruct = ? AND qmgr = ?",
                   (state.status, state.access, state.failed, state.recovered, json.dumps(state.stopped_by),
                    state.space_map, state.returned, state.cf, state.owner))


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


def set_connection_stopped(repository: SharedRepository, cf: str, owner: str, member: str, stopped: bool) -> None:
    """STOP SMDSCONN's flag, kept in the SMDS entry so that it holds across the member's restart."""
    state = smds_state(repository, cf, owner)
    members = set(state.stopped_by)
    (members.add if stopped else members.discard)(member)
    state.stopped_by = sorted(members)
    _save(repository, state)


# ------------------------------------------------------------ structures
def structure_state(repository: SharedRepository, cf: str) -> StructureState:
    row = repository.db.execute("SELECT status, failed, busy_qmgr, busy_kind FROM cfstruct_status WHERE name = ?",
                                (cf,)).fetchone()
    return StructureState(cf, *row) if row else StructureState(cf)


def set_structure_status(repository: SharedRepository, cf: str, status: str, now: str) -> None:
    with repository.transaction() as db:
        db.execute("INSERT INTO cfstruct_status (name) VALUES (?) ON CONFLICT DO NOTHING", (cf,))
        if status == FAILED:
            db.execute("UPDATE cfstruct_status SET status = ?, failed = ? WHERE name = ?", (status, now, cf))
            db.execute("DELETE FROM cfconnection WHERE cfstruct = ?", (cf,))
        else:
            db.execute("UPDATE cfstruct_status SET status = ? WHERE name = ?", (status, cf))


@dataclass
class PurgeRecord:
    """The latest RECOVER CFSTRUCT TYPE(PURGE) of a structure: its point, when, the messages it discarded."""

    point: Purged
    at: str
    purged: int | None  # None: the structure was lost without a count


def purge_record(repository: SharedRepository, cf: str) -> PurgeRecord | None:
    row = repository.db.execute("SELECT purged_lrsn, purged_lsns, purged_at, purged FROM cfstruct_status "
                                "WHERE name = ?", (cf,)).fetchone()
    if row is None or row[0] is None:
        return None
    return PurgeRecord(Purged(row[0], json.loads(row[1] or "{}")), row[2], row[3])


def record_purge(repository: SharedRepository, cf: str, record: PurgeRecord) -> None:
    with repository.transaction() as db:
        db.execute("INSERT INTO cfstruct_status (name) VALUES (?) ON CONFLICT DO NOTHING", (cf,))
        db.execute("UPDATE cfstruct_status SET purged_lrsn = ?, purged_lsns = ?, purged_at = ?, purged = ?, "
                   "lost = NULL WHERE name = ?", (record.point.lrsn, json.dumps(record.point.lsns), record.at,
                                                  record.purged, cf))


def lost_at_failure(repository: SharedRepository, cf: str) -> int | None:
    """The persistent messages the structure held when it last failed, if that was counted."""
    row = repository.db.execute("SELECT lost FROM cfstruct_status WHERE name = ?", (cf,)).fetchone()
    return row[0] if row else None


def record_lost(repository: SharedRepository, cf: str, lost: int | None) -> None:
    with repository.transaction() as db:
        db.execute("INSERT INTO cfstruct_status (name) VALUES (?) ON CONFLICT DO NOTHING", (cf,))
        db.execute("UPDATE cfstruct_status SET lost = ? WHERE name = ?", (lost, cf))


def connect_member(repository: SharedRepository, cf: str, member: str, now: str) -> None:
    """The member is connected: since now, or since it first connected when it never failed since."""
    with repository.transaction() as db:
        db.execute("INSERT INTO cfconnection (cfstruct, qmgr, connected) VALUES (?, ?, ?) "
                   "ON CONFLICT (cfstruct, qmgr) DO UPDATE SET connected = excluded.connected, failed = NULL "
                   "WHERE failed IS NOT NULL", (cf, member, now))


def connection_failed(repository: SharedRepository, cf: str, member: str, now: str) -> None:
    """A peer noticed the member's connection fail (and recovered its work): FAILED until it connects again."""
    with repository.transaction() as db:
        db.execute("UPDATE cfconnection SET failed = ? WHERE cfstruct = ? AND qmgr = ? AND failed IS NULL",
                   (now, cf, member))


def disconnect_member(repository: SharedRepository, member: str) -> None:
    with repository.transaction() as db:
        db.execute("DELETE FROM cfconnection WHERE qmgr = ?", (member,))


def connections(repository: SharedRepository, cf: str) -> list[tuple[str, str, str | None]]:
    """(member, connected at, failed at or None) of the members connected to the structure, their
    connection active or failed (a member that ended normally disconnected)."""
    return list(repository.db.execute("SELECT qmgr, connected, failed FROM cfconnection WHERE cfstruct = ? "
                                      "ORDER BY qmgr", (cf,)))
