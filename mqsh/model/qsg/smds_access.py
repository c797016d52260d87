"""One member's use of the shared message data sets: opening them, their connections, their space.

For each data set it uses, a member keeps an SMDSCONN entry in memory
(re-created at each start, as z/OS keeps it in main storage): STATUS
(NOTOPEN, OPEN, CLOSED, NOTENABLED, ALLOCFAIL, OPENFAIL, STGFAIL, DATAFAIL), AVAIL
(NORMAL, ERROR, STOPPED), OPENMODE (UPDATE for its own data set, READONLY for
the others') and EXPANDST. A connection stopped by STOP SMDSCONN stays
stopped across a restart: the flag is in the SMDS entry in the repository.
OPENING and CLOSING are never shown: a member opens or closes a data set
within one command, and no display runs in the middle of a command.

The shared status is read again at every use, so a member notices there
what another member's command changed: a data set DISABLED (or a connection
stopped) is closed normally, the owner saving its space map; one FAILED is
closed at once, its space map not saved. An owner whose error suspended
access retries when access is ENABLED again, and at its first use after a
restart; a member whose connection failed retries once the data set has
been recovered since. A data set that went through another status since the
member opened it (reset to EMPTY by a purge or a structure reset and ACTIVE
again, or recovered) is opened again at its next use: what the member held of
it - header, space map, buffers, a file since replaced - is of the old contents.

The owner's restart processing - its space map, saved or rebuilt by scanning
the structure, and the integrity checks on its data - is mqsh.model.qsg.smds_restart;
its space (blocks for a message, expansion) is mqsh.model.qsg.smds_space; whether
a data set is formatted at its open, and the checks on its header, are
mqsh.model.qsg.smds_header.

A structure deleted and defined again is a new one (its definition has a new
id in the repository): what a member held of the old one's data sets is
dropped, and a data set still holding the old one's data is residual data,
which its owner does not format over - z/OS requires such a data set to be
reformatted first - but marks FAILED, until it is preformatted (LAB FORMAT SMDS, as
z/OS's format utility) and RESET SMDS STATUS(RECOVERED).

Opening follows z/OS. The owner opens its own data set whatever its
shared status allows (formatting a new one, resetting an EMPTY one,
finishing the restart of a RECOVERED one); the others read only ACTIVE
ones. An error that shows the data set itself is bad (header invalid,
unexpectedly empty, a permanent I/O error, a block prefix that does not
match, a recovery left partial) marks it FAILED for the whole group; an
error that may be the member's own environment (cannot allocate or open)
only marks the member's connection, and for the owner also suspends access.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mqsh.core.reasons import MQRC_DATA_SET_NOT_AVAILABLE, MQError
from mqsh.model.qsg import smds_restart, states
from mqsh.model.qsg.buffers import MB, BufferPool, storage_limit
from mqsh.model.qsg.datasets import (
    DataSet,
    DataSetError,
    Sizing,
    allocation,
    block_bytes,
    data_set_name,
    data_set_path,
    format_data_set,
    initialized,
    refuse_residual,
)
from mqsh.model.qsg.list_structure import Structure
from mqsh.model.qsg.repository import SharedRepository
from mqsh.model.qsg.smds_header import new_header, to_format, validate
from mqsh.recovery.spacemap.scan import SpaceScanEngine
from mqsh.store.datadir import QmgrPaths
from mqsh.store.errorlog import ErrorLog

# What makes a data set FAILED for everyone, against what only breaks one member's connection.
DATA_SET_FAULTS = ("HEADER", "EMPTY", "IOERROR", "PREFIX", "PARTIAL", "EXTENTS")


@dataclass
class SmdsConnection:
    """A member's SMDSCONN entry for one data set."""

    status: str = "NOTOPEN"
    avail: str = "NORMAL"
    openmode: str = "NONE"
    expandst: str = "NORMAL"
    error_at: str | None = None  # when AVAIL became ERROR
    returned_at_error: int | None = None  # the data set's return count then: a new return means a retry
    suspended: bool = False  # that error suspended the access of the member's own data set
    opened_at: int | None = None  # the data set's return count when the member opened it


class SmdsAccess:
    def __init__(
        self,
        member: str,
        data_dir: Path,
        errors: ErrorLog,
        now: Callable[[], str],
        scans: SpaceScanEngine | None = None,
    ):
        self.member = member
        self.data_dir = data_dir
        self.errors = errors
        self.now = now
        self.scans = scans or SpaceScanEngine()  # where the structure is scanned for a space map
        self.qmgr_dir = QmgrPaths(data_dir, member).qmgr_dir  # where the lab keeps its storage limit
        self.open: dict[tuple[str, str], DataSet] = {}
        self.connections: dict[tuple[str, str], SmdsConnection] = {}
        self.pools: dict[str, BufferPool] = {}  # a buffer pool per structure
        self.definitions: dict[str, str | None] = {}  # the id of each structure's definition it used
        # The structure of that name the member is connected to, if any: its SharedMessages answers.
        self.connected: Callable[[str], Structure | None] = lambda _cf: None

    def _follow_definition(self, repository: SharedRepository, cf: str) -> None:
        """Drop what the member held of a structure deleted (and perhaps defined again) since it last
        looked: its data sets closed as they are (the space map of the old structure's messages means
        nothing to a new one), its connections and buffers gone."""
        current = repository.definition_id(cf)
        if self.definitions.setdefault(cf, current) == current:
            return
        self.definitions[cf] = current
        for key in [key for key in self.open if key[0] == cf]:
            self.open.pop(key).close()
        for key in [key for key in self.connections if key[0] == cf]:
            del self.connections[key]
        self.pools.pop(cf, None)

    def connection(self, repository: SharedRepository, cf: str, owner: str) -> SmdsConnection:
        self._follow_definition(repository, cf)
        key = (cf, owner)
        if key not in self.connections:
            stopped = self.member in states.smds_state(repository, cf, owner).stopped_by
            self.connections[key] = SmdsConnection(avail="STOPPED" if stopped else "NORMAL")
        return self.connections[key]

    def pool(self, repository: SharedRepository, cf: str, cf_attributes: dict[str, Any]) -> BufferPool:
        """The member's buffer pool for the structure, of the DSBUFS its SMDS entry or the structure sets;
        DataSetError STGFAIL when a new or larger pool does not fit the member's storage limit."""
        size = repository.smds_overrides(cf).get(self.member, {}).get("DSBUFS", "DEFAULT")
        size = int(cf_attributes.get("DSBUFS", 100) if size == "DEFAULT" else size)
        block = block_bytes(cf_attributes.get("DSBLOCK", "256K"))
        pool = self.pools.get(cf)
        if pool is None or size > pool.size:
            self._obtain(cf, size * block)
        if pool is None:
            pool = self.pools[cf] = BufferPool(size, block)
        pool.resize(size)
        return pool

    def _obtain(self, cf: str, wanted: int) -> None:
        """Storage for a buffer pool of wanted bytes, beside the member's other pools."""
        limit = storage_limit(self.qmgr_dir)
        held = sum(pool.bytes for name, pool in self.pools.items() if name != cf)
        if limit is not None and held + wanted > limit:
            raise DataSetError(
                "STGFAIL",
                f"storage for {wanted // MB} MB of buffers for structure {cf} cannot be "
                f"obtained: the queue manager's MEMLIMIT is {limit // MB} MB, and its other "
                f"buffer pools hold {held // MB} MB",
            )

    def close(
        self, cf: str, owner: str, status: str = "CLOSED", repository: SharedRepository | None = None
    ) -> None:
        """Close the data set; given the repository, a normal close of an owned one saves its space map."""
        data_set = self.open.pop((cf, owner), None)
        if data_set is not None:
            if repository is not None and owner == self.member:
                stamp = self.now()
                data_set.save_space_map(stamp)
                states.set_space_map_stamp(repository, cf, owner, stamp)
                self._empty_if_unused(repository, cf)
            data_set.close()
            if cf in self.pools:
                self.pools[cf].forget(owner)
        connection = self.connections.get((cf, owner))
        if connection is not None and connection.status in ("OPEN", "NOTOPEN", "CLOSED", "NOTENABLED"):
            connection.status, connection.openmode = status, "NONE"

    def _empty_if_unused(self, repository: SharedRepository, cf: str) -> None:
        """IBM MQ's rule: an ACTIVE data set its owner closes normally while it holds no messages is EMPTY -
        reset at its next open, and meanwhile free to be replaced by a new allocation. Not knowing (not
        connected to the structure, or it is not active) counts as holding some."""
        structure = self.connected(cf)
        if (
            structure is None
            or not structure.current()
            or states.structure_state(repository, cf).status != states.ACTIVE
            or states.smds_state(repository, cf, self.member).status != states.ACTIVE
        ):
            return
        if not structure.holds_offloaded(self.member):
            states.set_smds_status(repository, cf, self.member, states.EMPTY, self.now())

    def close_all(self, repository: SharedRepository | None, normally: bool) -> None:
        """At the member's end: a normal end saves the space map of each data set it owns (not of a
        structure deleted since, whose data sets it lets go as they are)."""
        if repository is not None:
            for cf in {cf for cf, _owner in self.open}:
                self._follow_definition(repository, cf)
        for cf, owner in list(self.open):
            self.close(cf, owner, repository=repository if normally else None)

    def withdraw(self, repository: SharedRepository, cf: str, owner: str) -> bool:
        """Close the data set when its shared status or this member's connection says it may not be
        used: normally when it is disabled or stopped, at once (no space map saved) when it has
        failed or is being recovered. Whether it may be used (after a retry that is due)."""
        self._retry_if_due(repository, cf, owner)
        connection = self.connection(repository, cf, owner)
        state = states.smds_state(repository, cf, owner)
        ours = owner == self.member
        usable = (
            (states.NOTFOUND, states.NEW, states.ACTIVE, states.EMPTY, states.RECOVERED)
            if ours
            else (states.ACTIVE,)
        )
        if state.status not in usable:
            self.close(cf, owner)
            return False
        if connection.avail != "NORMAL" or state.access != states.ENABLED:
            self.close(
                cf,
                owner,
                "CLOSED" if connection.avail != "NORMAL" else "NOTENABLED",
                repository=repository if state.status == states.ACTIVE else None,
            )
            return False
        return True

    def stop(self, repository: SharedRepository, cf: str, owner: str) -> None:
        """STOP SMDSCONN: closed normally, and kept stopped across a restart."""
        connection = self.connection(repository, cf, owner)
        connection.avail = "STOPPED"
        states.set_connection_stopped(repository, cf, owner, self.member, True)
        self.withdraw(repository, cf, owner)

    def start(self, repository: SharedRepository, cf: str, owner: str) -> None:
        """START SMDSCONN: the connection may be used again, also after an error (a new attempt)."""
        connection = self.connection(repository, cf, owner)
        connection.avail, connection.error_at, connection.suspended = "NORMAL", None, False
        if connection.status not in ("OPEN", "NOTOPEN"):
            connection.status = "CLOSED"
        states.set_connection_stopped(repository, cf, owner, self.member, False)
        state = states.smds_state(repository, cf, owner)
        if (
            owner == self.member
            and state.access == states.SUSPENDED
            and state.status not in (states.FAILED, states.INRECOVER)
        ):
            states.set_smds_access(repository, cf, owner, states.ENABLED)  # the owner's retry

    def _path(self, qsg: str, cf_attributes: dict[str, Any], owner: str) -> Path:
        return data_set_path(self.data_dir, qsg, data_set_name(str(cf_attributes.get("DSGROUP", "")), owner))

    # ------------------------------------------------------------ failing
    def fail(self, repository: SharedRepository, cf: str, owner: str, error: DataSetError) -> MQError:
        """IBM MQ's response to a data set error, and the reason code the request gets (2561)."""
        connection = self.connection(repository, cf, owner)
        connection.error_at = self.now()
        connection.returned_at_error = states.smds_state(repository, cf, owner).returned
        if error.kind in DATA_SET_FAULTS:
            states.set_smds_status(repository, cf, owner, states.FAILED, self.now())
            connection.status = "DATAFAIL"
            self.errors.write(
                "CSQE244I",
                f"SMDS({owner}) CFSTRUCT({cf}) status is now FAILED",
                f"{error}. The data set is closed by every member and is not used until it "
                "has been recovered.",
                "Recover it with RECOVER CFSTRUCT, or when no data was lost use RESET SMDS "
                "STATUS(RECOVERED).",
            )
        else:
            connection.status, connection.avail = error.kind, "ERROR"
            if owner == self.member and states.smds_state(repository, cf, owner).access == states.ENABLED:
                states.set_smds_access(repository, cf, owner, states.SUSPENDED)
                connection.suspended = True
            self.errors.write(
                "CSQE246I",
                f"SMDSCONN({owner}) CFSTRUCT({cf}) is now STATUS({error.kind}), AVAIL(ERROR)",
                str(error) + ".",
                "Correct the problem, then issue START SMDSCONN, or RESET SMDS ACCESS(ENABLED) "
                "for an owned data set.",
            )
        self.close(cf, owner, status=connection.status)
        return MQError(MQRC_DATA_SET_NOT_AVAILABLE)

    # ------------------------------------------------------------ opening
    def data_set(
        self,
        repository: SharedRepository,
        qsg: str,
        cf: str,
        cf_attributes: dict[str, Any],
        owner: str,
        structure: Structure,
        sizing: Sizing | None = None,
    ) -> DataSet:
        """The data set, open for this member, or MQError 2561 with the reason recorded."""
        if not self.withdraw(repository, cf, owner):
            raise MQError(MQRC_DATA_SET_NOT_AVAILABLE)
        connection = self.connection(repository, cf, owner)
        state = states.smds_state(repository, cf, owner)
        ours = owner == self.member
        try:
            pool = self.pool(repository, cf, cf_attributes)
        except DataSetError as error:
            raise self.fail(repository, cf, owner, error) from None
        if self.current(cf, owner, state):
            return self.open[(cf, owner)]
        if (cf, owner) in self.open:
            self.close(cf, owner)  # of old contents: closed as it is (no space map saved), opened again
        path = self._path(qsg, cf_attributes, owner)
        defined = repository.definition_id(cf) or ""
        try:
            if ours and state.status in (states.NOTFOUND, states.NEW):
                refuse_residual(path, qsg, cf, owner, defined)
            if to_format(self.member, owner, state, path, qsg, cf):
                if state.status != states.RECOVERED:
                    states.set_smds_status(repository, cf, owner, states.NEW, self.now())
                header = new_header(
                    self.member, qsg, cf, cf_attributes, sizing or allocation(path), defined, self.now(), path
                )
                format_data_set(path, header)
            data_set = DataSet(path, owner_side=ours, member=self.member)
            try:
                data_set.pool = pool
                validate(data_set, qsg, cf, owner, defined)
                if ours:
                    smds_restart.restart(self, repository, cf, state, data_set, structure)
            except BaseException:  # a data set found bad, or a scan that failed on Spark
                data_set.close()
                raise
        except DataSetError as error:
            raise self.fail(repository, cf, owner, error) from None
        self.open[(cf, owner)] = data_set
        connection.status, connection.openmode = "OPEN", "UPDATE" if ours else "READONLY"
        connection.opened_at = states.smds_state(repository, cf, owner).returned  # after its restart's
        if connection.expandst == "MAXIMUM" and data_set.header.extents < data_set.header.max_extents:
            connection.expandst = "NORMAL"  # reallocated since: it has extents to grow into again
        return data_set

    def current(self, cf: str, owner: str, state: states.SmdsState) -> bool:
        """Whether the member holds the data set open as it is now (state: its shared status). One that
        went through another status since the member opened it - reset to EMPTY, its contents discarded
        (RECOVER CFSTRUCT TYPE(PURGE), a structure reset), then formatted afresh or replaced by a new
        allocation and ACTIVE again, or recovered - is not: the header, space map, buffers and file the
        member holds are of the old contents."""
        connection = self.connections.get((cf, owner))
        return (
            (cf, owner) in self.open
            and connection is not None
            and state.status == states.ACTIVE
            and state.returned == connection.opened_at
        )

    def open_own(
        self, repository: SharedRepository, qsg: str, structure_of: Callable[[str], Structure], starting: bool
    ) -> None:
        """The owner opens its own data sets that are due for restart processing: its RECOVERED ones
        (IBM's notification that they were recovered), and as the member starts its ACTIVE ones
        too - so that one restored from an older copy while it was down is found down level (its
        saved space map's time stamp is not the repository's, and the newest message's block does
        not hold it) and marked FAILED then, not at its first read. structure_of connects to a
        structure (MQError when it cannot); without one, the data set's header is still checked."""
        wanted = (states.ACTIVE, states.RECOVERED) if starting else (states.RECOVERED,)
        for cf, status in repository.own_data_sets(self.member, states.ENABLED, wanted):
            cf_attributes = repository.cfstructs().get(cf, {})
            if cf_attributes.get("OFFLOAD") != "SMDS" or (cf, self.member) in self.open:
                continue
            # An ACTIVE one is checked against a structure the member's restart connected to (one that
            # failed is not connected for it); a RECOVERED one's owner connects to restart it.
            structure = self.connected(cf)
            if structure is None and status == states.RECOVERED:
                try:
                    structure = structure_of(cf)
                except MQError:
                    pass
            if structure is None:
                # No restart processing without the structure, but the data set is opened and its header
                # validated now: one that shows an unfinished recovery is FAILED again at once.
                self.check_own(repository, qsg, cf, cf_attributes)
                continue
            try:
                self.data_set(repository, qsg, cf, cf_attributes, self.member, structure)
            except MQError:
                continue  # the reason is recorded (error log, SMDSCONN); the next use tries again

    def check_own(
        self, repository: SharedRepository, qsg: str, cf: str, cf_attributes: dict[str, Any]
    ) -> None:
        """At the member's start, or when its data set cannot be restarted yet (the structure has
        failed): its own ACTIVE or RECOVERED data set is opened and its header validated, so that one
        found unexpectedly empty (preformatted anew, as at a disaster recovery site), invalid or partly
        recovered is marked FAILED at once - also while the structure itself has failed, for one
        RECOVER CFSTRUCT to recover them all. An environmental error waits for the first use."""
        state = states.smds_state(repository, cf, self.member)
        if (
            state.status not in (states.ACTIVE, states.RECOVERED)
            or state.access != states.ENABLED
            or self.member in state.stopped_by
        ):
            return
        path = self._path(qsg, cf_attributes, self.member)
        if state.status == states.RECOVERED and path.exists() and not initialized(path):
            return  # preformatted after it failed: initialized and checked at its first open
        try:
            data_set = DataSet(path, owner_side=True, member=self.member)
            try:
                validate(data_set, qsg, cf, self.member, repository.definition_id(cf) or "")
            finally:
                data_set.close()
        except DataSetError as error:
            if error.kind in DATA_SET_FAULTS:
                self.fail(repository, cf, self.member, error)

    def notice(self, repository: SharedRepository) -> None:
        """Before each command: the member hears of the data sets that came back since its connection
        to them failed, and makes those connections AVAIL(NORMAL) again, ready for a new attempt."""
        for cf, owner in [key for key, connection in self.connections.items() if connection.avail == "ERROR"]:
            self._retry_if_due(repository, cf, owner)

    def _retry_if_due(self, repository: SharedRepository, cf: str, owner: str) -> None:
        """A new attempt at a data set the member could not use: its owner's when access was enabled
        again since the error suspended it, or at the owner's first use since it started; anyone's
        once the data set came back since the error - z/OS's notification to the members that a data
        set is ACTIVE again after its recovery (its owner's already at RECOVERED, for restart processing).
        AVAIL(STOPPED) waits for START SMDSCONN."""
        connection = self.connection(repository, cf, owner)
        state = states.smds_state(repository, cf, owner)
        ours = owner == self.member
        if (
            ours
            and state.access == states.SUSPENDED
            and connection.status == "NOTOPEN"
            and connection.avail == "NORMAL"
            and state.status not in (states.FAILED, states.INRECOVER)
        ):
            states.set_smds_access(repository, cf, owner, states.ENABLED)
        elif connection.avail == "ERROR" and (
            (connection.suspended and state.access == states.ENABLED)
            or (
                connection.error_at is not None
                and state.returned != connection.returned_at_error
                and (state.status == states.ACTIVE or ours and state.status == states.RECOVERED)
            )
        ):
            connection.avail, connection.suspended, connection.error_at = "NORMAL", False, None
            connection.status = "CLOSED"  # its error is cleared; it is open again at the new attempt
