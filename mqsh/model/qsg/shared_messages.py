"""Messages on shared queues, for one member: puts, gets and units of work in the structures.

Every persistent change is logged on the member's own log, with an LRSN,
before it reaches the structure (mqsh.model.qsg.list_structure) - the log is
forced first, so a structure never holds a change its member's log lacks.
Data offloaded to the member's shared message data set is written there
first, and each block write is logged (record SBLK) before the message's
entry (SPUT). Non-persistent messages are neither
logged nor recovered.

A crash can come between the log and the structure: the structure notes,
with each change, the member's LSN it applied, and the member's restart
applies the logged changes after that LSN, then backs out the units of work
it left in flight there.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from mqsh.core import reasons
from mqsh.core.objects import StoredMessage
from mqsh.core.reasons import MQError
from mqsh.model import interrupts
from mqsh.model.basics import QmgrBasics
from mqsh.model.journal import Journal
from mqsh.model.qsg import claims, smds_space, states
from mqsh.model.qsg.datasets import DataSetError
from mqsh.model.qsg.list_structure import (
    COMMITTED,
    PUT_PENDING,
    Entry,
    Structure,
    StructureLost,
    lose,
    structure_path,
)
from mqsh.model.qsg.lrsn import entry_id, lrsn_path, next_lrsn
from mqsh.model.qsg.peer_recovery import reapply, recover_peer, structures_named
from mqsh.model.qsg.repository import RepositoryUnavailable, SharedRepository
from mqsh.model.qsg.shared_queue import SharedQueue
from mqsh.model.qsg.smds_access import SmdsAccess
from mqsh.recovery.spacemap.scan import SpaceScanEngine
from mqsh.store import log as logstore
from mqsh.store import records
from mqsh.store.identity import process_user
from mqsh.store.putnotes import PutterNotes

# A coupling-facility list entry holds up to 63 KB of message data; larger messages must be
# offloaded (CFLEVEL 4 and 5), and a CFLEVEL below 4 cannot take them at all.
MAX_IN_ENTRY = 63 * 1024
# The entries an application structure has room for. z/OS has no default (a CFRM policy sizes
# each structure): mqsh gives every structure this many, which lets labs fill one.
ENTRIES_MAX = 10_000


def kilobytes(text: Any) -> int:
    """An OFFLDnSZ value (0K ... 64K) as bytes."""
    return int(str(text).upper().rstrip("K") or 0) * 1024


def offloaded(cf_attributes: dict[str, Any], size: int, usage: int) -> bool:
    """Whether a message's data goes to the data set: always over 63 KB, else by the offload rules
    (when the structure is at least OFFLDnTH % full, messages over OFFLDnSZ)."""
    if cf_attributes.get("OFFLOAD") != "SMDS" or int(cf_attributes.get("CFLEVEL", 3)) < 5:
        return False
    if size > MAX_IN_ENTRY:
        return True
    return any(
        usage >= int(cf_attributes.get(f"OFFLD{rule}TH", 100))
        and size > kilobytes(cf_attributes.get(f"OFFLD{rule}SZ", "64K"))
        for rule in (1, 2, 3)
    )


class SharedMessages:
    def __init__(self, basics: QmgrBasics, journal: Journal):
        paths = self.paths = basics.paths
        self.member = paths.name
        self.clock = basics.clock
        self.errors = basics.errors
        self.config = basics.config
        self.journal = journal
        self.putters = PutterNotes(paths.log_root, process_user())  # who puts (mqsh.store.putnotes)
        self._repository: SharedRepository | None = None
        self.structures: dict[str, Structure] = {}
        # The owner's space maps are rebuilt where the queue manager's engine choice says.
        scans = SpaceScanEngine(basics.engine.choice, basics.engine.master)
        self.smds = SmdsAccess(self.member, paths.data_dir, self.errors, self.now, scans)
        self.smds.connected = self.connected
        # The structures the open unit of work changed, with the entries it holds in each.
        self.unit_structures: dict[str, int] = {}
        # Whether no process runs a member (its own or a peer's): the installation answers; until it
        # is wired, no member is taken for failed.
        self.member_failed: Callable[[str], bool] = lambda _member: False

    def now(self) -> str:
        return self.clock.now().isoformat(sep=" ")

    # ------------------------------------------------------------ the group
    def qsg(self) -> str | None:
        return self.config.sharing_group

    def repository(self) -> SharedRepository:
        """The group's repository, open while the member runs; MQRC 2342 when it cannot be used."""
        if self._repository is None:
            qsg = self.qsg()
            if qsg is None:
                raise MQError(reasons.MQRC_UNKNOWN_OBJECT_NAME)
            try:
                self._repository = SharedRepository(self.paths.data_dir, qsg)
            except RepositoryUnavailable as error:
                raise MQError(error.reason) from None
        return self._repository

    def queue(self, name: str) -> SharedQueue | None:
        """The shared queue of that name, or None (also outside a group)."""
        if self.qsg() is None:
            return None
        attributes = self.repository().shared_queue(name)
        return SharedQueue(name, attributes) if attributes is not None else None

    def next_lrsn(self) -> int:
        qsg = self.qsg()
        assert qsg is not None
        return next_lrsn(lrsn_path(self.paths.data_dir, qsg), self.clock.now())

    # ------------------------------------------------------------ structures
    def structure(self, cf: str) -> Structure:
        """The structure, connected (allocated at its first use); 2373 when it has failed."""
        repository = self.repository()
        qsg = self.qsg()
        assert qsg is not None
        definition = repository.cfstructs().get(cf)
        if definition is None:
            raise MQError(reasons.MQRC_CF_STRUC_ERROR)
        path = structure_path(self.paths.data_dir, qsg, cf)
        state = states.structure_state(repository, cf)
        opened = self.structures.get(cf)
        if state.status == states.ACTIVE and opened is not None and opened.current():
            return opened
        self.drop(cf)
        if state.status == states.ACTIVE:
            try:
                structure = Structure(path, qsg, cf)
            except StructureLost as lost:
                self.errors.write(
                    "CSQE035E",
                    f"Structure {cf} has failed",
                    f"The structure was lost: {lost}.",
                    "Recover it with RECOVER CFSTRUCT.",
                )
                states.set_structure_status(repository, cf, states.FAILED, self.now())
                state = states.structure_state(repository, cf)
        if state.status == states.FAILED:
            if definition.get("RECOVER") == "YES":
                raise MQError(reasons.MQRC_CF_STRUC_FAILED)
            structure = self._reset(repository, qsg, cf)
        elif state.status == states.NOTFOUND:
            structure = Structure(path, qsg, cf, allocate_at=self.now())
            states.set_structure_status(repository, cf, states.ACTIVE, self.now())
        repository.connect_member(cf, self.member, self.now())
        self.structures[cf] = structure
        self._recover_peers(repository, cf, structure)
        self._open_active(repository, cf, structure)
        return structure

    def _open_active(self, repository: SharedRepository, cf: str, structure: Structure) -> None:
        """IBM MQ's rule: an ACTIVE data set 'should be allocated and opened by all active queue managers for
        the structure'. A member opens the other members' at its connection, and any that becomes ACTIVE
        again (recovered, enabled, started, or reset by its owner after a purge - then opened afresh) at
        its next command; a failure is recorded (SMDSCONN, the error log) as at any use, and one whose
        connection is in error waits for START SMDSCONN."""
        cf_attributes = repository.cfstructs().get(cf, {})
        if cf_attributes.get("OFFLOAD") != "SMDS":
            return
        for state in states.smds_states(repository, cf):
            if (
                state.owner == self.member
                or state.status != states.ACTIVE
                or self.smds.current(cf, state.owner, state)
            ):
                continue
            try:
                self.smds.data_set(repository, str(self.qsg()), cf, cf_attributes, state.owner, structure)
            except MQError:
                continue

    def _recover_peers(self, repository: SharedRepository, cf: str, structure: Structure) -> None:
        """Peer recovery of every member whose connection to the structure failed - it is connected,
        and no process runs it - noticed at this member's connection or next command."""
        for member, _connected, failed in repository.connections(cf):
            if member == self.member or failed is not None or not self.member_failed(member):
                continue
            number = next((entry.number for entry in repository.members() if entry.qmgr == member), 0)
            # Failed once recovered, or when its log could not be read (its own restart recovers it then).
            if recover_peer(
                structure,
                self.paths.data_dir,
                str(self.qsg()),
                cf,
                member,
                number,
                self.member_failed,
                self.errors,
                self.member,
            ) or self.member_failed(member):
                repository.connection_failed(cf, member, self.now())

    def _reset(self, repository: SharedRepository, qsg: str, cf: str) -> Structure:
        """A non-recoverable structure that was lost starts again empty, and so do its data sets."""
        structure = Structure(structure_path(self.paths.data_dir, qsg, cf), qsg, cf, allocate_at=self.now())
        for data_set in states.smds_states(repository, cf):
            if data_set.status != states.NOTFOUND:
                states.set_smds_status(repository, cf, data_set.owner, states.EMPTY, self.now())
            self.smds.close(cf, data_set.owner)
        states.set_structure_status(repository, cf, states.ACTIVE, self.now())
        self.errors.write(
            "CSQE028I",
            f"Structure {cf} reset, all messages discarded",
            "The structure is not recoverable (RECOVER(NO)) and was lost: it has been allocated "
            "again, empty, and its shared message data sets are now EMPTY.",
        )
        return structure

    def fail(self, cf: str) -> None:
        """RESET CFSTRUCT ACTION(FAIL): the structure fails as a coupling facility's would, its entries
        lost; its data sets are left as they are. Every member notices at its next use of it."""
        repository = self.repository()
        qsg = self.qsg()
        assert qsg is not None
        states.set_structure_status(repository, cf, states.FAILED, self.now())
        self.drop(cf)
        repository.record_lost(cf, lose(structure_path(self.paths.data_dir, qsg, cf), qsg, cf))
        self.errors.write(
            "CSQE035E",
            f"Structure {cf} in failure state",
            "RESET CFSTRUCT ACTION(FAIL) simulated a failure of the structure: its messages are lost.",
            "Recover it with RECOVER CFSTRUCT; a structure with RECOVER(NO) is allocated "
            "again, empty, at its next use.",
        )

    def settle(self, cf: str, owner: str) -> None:
        """The shared status of a data set changed: close it if it may not be used now and, for the
        owner connected to the structure, open it if it may (a retry, or the restart of a recovered
        data set). A failure is recorded as at any use."""
        repository = self.repository()
        if not self.smds.withdraw(repository, cf, owner) or owner != self.member:
            return
        if states.smds_state(repository, cf, owner).status == states.RECOVERED:
            self.tick()  # the owner is told its data set was recovered: it opens it now
            return
        if cf not in self.structures:
            return
        try:
            self._readable(cf, owner, self.structure(cf))
        except MQError:
            pass  # the reason is in the error log and the shared status, as for any use

    def retry_expansion(self, cf: str) -> None:
        """ALTER SMDS allowed the member's own data set of the structure to expand again: the retry."""
        repository = self.repository()
        smds_space.retry_expansion(
            self.smds, repository, cf, repository.cfstructs().get(cf, {}), self.structures.get(cf)
        )

    def drop(self, cf: str) -> None:
        """Forget this process's connection to a structure (it failed, or was recovered)."""
        structure = self.structures.pop(cf, None)
        if structure is not None:
            structure.close()

    def connected(self, cf: str) -> Structure | None:
        """The structure this member is connected to, or None. A connection to a structure that failed
        or was allocated again since (RECOVER CFSTRUCT, a reset) is dropped: it reads the old contents,
        among them the entries of units of work the failure lost and the recovery backed out."""
        structure = self.structures.get(cf)
        if structure is not None and not structure.current():
            self.drop(cf)
            return None
        return structure

    def depth(self, queue: str, cf: str) -> int:
        """CURDEPTH of a shared queue: 0 while its structure is not allocated."""
        try:
            return self.structure(cf).depth(queue)
        except MQError:
            return 0

    def tick(self) -> None:
        """Before each command: the peers' failures this member notices, a BACKUP or RECOVER whose
        process died, and z/OS's notifications to the members - a connection in error to a data set that came
        back since is made AVAIL(NORMAL) again, and its own RECOVERED data sets are opened."""
        if self.qsg() is None or self._repository is None:
            return
        repository = self._repository
        claims.release_dead_claims(repository, self.now())
        self.smds.notice(repository)
        for cf in list(self.structures):
            structure = self.connected(cf)
            if structure is None:
                continue  # connected again at its next use
            self._recover_peers(repository, cf, structure)
            self._open_active(repository, cf, structure)
        self.open_own()

    def open_own(self, starting: bool = False) -> None:
        """The owner's side of IBM's notifications: its data sets RECOVERED are opened now - the
        restart processing that makes them ACTIVE for every member - before each command, and as the
        member starts (after its log's changes reached the structures), its ACTIVE ones too, checked
        against what the structure holds (mqsh.model.qsg.smds_access). (An EMPTY one waits for its next
        use: meanwhile it may be replaced by a new allocation.)"""
        if self.qsg() is not None and self._repository is not None:
            self.smds.open_own(self._repository, str(self.qsg()), self.structure, starting)

    # ------------------------------------------------------------ MQPUT and MQGET
    def put(self, queue: SharedQueue, persistent: bool, size: int, priority: int, unit: str | None) -> str:
        attributes = queue.attributes
        if attributes.get("PUT") == "DISABLED":
            raise MQError(reasons.MQRC_PUT_INHIBITED)
        if size > int(attributes.get("MAXMSGL", 4194304)):
            raise MQError(reasons.MQRC_MSG_TOO_BIG_FOR_Q)
        repository = self.repository()
        cf_attributes = repository.cfstructs().get(queue.cf, {})
        level = int(cf_attributes.get("CFLEVEL", 3))
        if persistent and level < 3:
            raise MQError(reasons.MQRC_PERSISTENT_NOT_ALLOWED)
        if size > MAX_IN_ENTRY and level < 4:
            raise MQError(reasons.MQRC_MSG_TOO_BIG_FOR_Q)
        structure = self.structure(queue.cf)
        if structure.depth(queue.name) >= int(attributes.get("MAXDEPTH", 5000)):
            raise MQError(reasons.MQRC_Q_FULL)
        entries = structure.entry_count()
        if entries >= ENTRIES_MAX:
            raise MQError(reasons.MQRC_STORAGE_MEDIUM_FULL)
        data_set = None
        if offloaded(cf_attributes, size, 100 * entries // ENTRIES_MAX):
            data_set = self.smds.data_set(
                repository, str(self.qsg()), queue.cf, cf_attributes, self.member, structure
            )
        with interrupts.uninterrupted(), structure.transaction() as db:
            lrsn = self.next_lrsn()
            e = entry_id(lrsn)
            first = count = None
            if data_set is not None:
                first, count = smds_space.allocate(
                    self.smds, repository, queue.cf, cf_attributes, data_set, structure, size
                )
                data_set.write_message(e, first, count)
                if persistent:
                    for block in range(first, first + count):
                        self.journal.log_record(
                            records.SharedBlock(queue.cf, e, self.member, block, count, lrsn).encode()
                        )
            entry = Entry(
                e,
                queue.name,
                priority,
                size,
                self.clock.now().isoformat(),
                persistent,
                self.member if data_set is not None else None,
                first,
                count,
                PUT_PENDING if unit else COMMITTED,
                self.member if unit else None,
                unit,
            )
            if persistent and self.journal.log is not None:
                self.putters.before_put(self.journal.log.next_lsn)
            lsn = (
                self._logged(
                    records.SharedPut(
                        queue.cf,
                        queue.name,
                        e,
                        priority,
                        size,
                        entry.tm,
                        unit,
                        entry.o,
                        first,
                        count,
                        lrsn,
                    ).encode()
                )
                if persistent
                else None
            )
            Structure.insert(db, entry)
            Structure.note_applied(db, self.member, lsn)
        if unit:
            self.unit_structures[queue.cf] = self.unit_structures.get(queue.cf, 0) + 1
        return e

    def _logged(self, record: dict[str, Any]) -> int:
        """Log a record and force it: the structure may change only after."""
        lsn = self.journal.log_record(record)[records.LSN]
        assert self.journal.log is not None
        self.journal.log.force()
        return lsn

    def get(self, queue: SharedQueue, unit: str | None) -> StoredMessage:
        if queue.attributes.get("GET") == "DISABLED":
            raise MQError(reasons.MQRC_GET_INHIBITED)
        structure = self.structure(queue.cf)
        by_priority = queue.attributes.get("MSGDLVSQ", "PRIORITY") == "PRIORITY"
        while True:
            entry = Structure.next_committed(structure.db, queue.name, by_priority)
            if entry is None:
                raise MQError(reasons.MQRC_NO_MSG_AVAILABLE)
            if entry.o is not None:
                self._readable(queue.cf, entry.o, structure)
            damaged: DataSetError | None = None
            with interrupts.uninterrupted(), structure.transaction() as db:
                chosen = Structure.next_committed(db, queue.name, by_priority)
                if chosen is None or chosen.e != entry.e:
                    continue  # another member took it meanwhile: look again
                if entry.o is not None:
                    try:
                        self.smds.open[(queue.cf, entry.o)].check_message(entry.e, entry.b or 0, entry.n or 1)
                    except DataSetError as error:
                        damaged = error
                if damaged is None or not entry.persistent:
                    lsn = (
                        self._logged(records.SharedGet(queue.cf, entry.e, unit, self.next_lrsn()).encode())
                        if entry.persistent
                        else None
                    )
                    Structure.got(db, entry.e, self.member, None if damaged else unit)
                    Structure.note_applied(db, self.member, lsn)
            if damaged is None:
                break
            if entry.persistent:
                raise self.smds.fail(self.repository(), queue.cf, str(entry.o), damaged)
            # Non-persistent data that cannot be read is gone for good: the entry goes, and the get goes on.
            self.errors.write(
                "CSQE279I",
                f"Message {entry.e} on shared queue {queue.name} was deleted: its data "
                f"in SMDS({entry.o}) CFSTRUCT({queue.cf}) is damaged",
                str(damaged) + ".",
            )
        if unit:
            self.unit_structures[queue.cf] = self.unit_structures.get(queue.cf, 0) + 1
        return StoredMessage(entry.e, entry.persistent, entry.p, entry.s, entry.tm)

    def _readable(self, cf: str, owner: str, structure: Structure) -> None:
        repository = self.repository()
        self.smds.data_set(
            repository, str(self.qsg()), cf, repository.cfstructs().get(cf, {}), owner, structure
        )

    # ------------------------------------------------------------ units of work
    def unit_lost(self, unit: str) -> bool:
        """Whether a structure the open unit changed lost its work there: the structure has failed
        since (2373), or was recovered or allocated again and no longer holds all the unit's entries.

        A failure loses a unit's uncommitted puts and gets with the structure's entries, and its
        recovery does not bring them back: MQ's recovery processing for a structure backs out
        uncommitted requests, and the recovery engines (mqsh.recovery.cfstruct.reference) back out every
        unit with no ending in the logs. Restoring a live unit's work instead could not keep the unit whole - its
        non-persistent puts and gets were never logged - so such a unit can only be backed out: its
        MQCMIT gets MQRC_BACKED_OUT, and the backout is logged, for every later recovery to agree."""
        for cf, held in self.unit_structures.items():
            try:
                structure = self.structure(cf)
            except MQError as error:
                if error.reason == reasons.MQRC_CF_STRUC_FAILED:
                    return True
                continue  # not reachable now (no repository, no definition): the ending settles it later
            if structure.held(self.member, unit) < held:
                return True
        return False

    def end_unit(self, commit: bool, unit: str, lsn: int | None) -> None:
        """Apply a logged commit or backout to each structure the unit changed. A structure that has
        failed since lost the unit's work with it."""
        touched, self.unit_structures = sorted(self.unit_structures), {}
        for cf in touched:
            try:
                structure = self.structure(cf)
            except MQError:
                continue
            with interrupts.uninterrupted(), structure.transaction() as db:
                Structure.end_unit(db, self.member, unit, commit)
                Structure.note_applied(db, self.member, lsn)

    def clear(self, queue: SharedQueue) -> None:
        """CLEAR QLOCAL of a shared queue: refused while a unit of work holds one of its messages."""
        structure = self.structure(queue.cf)
        if structure.uncommitted(queue.name):
            raise MQError(reasons.MQRC_Q_NOT_EMPTY)
        with structure.transaction() as db:
            Structure.clear_queue(db, queue.name)

    # ------------------------------------------------------------ start and end
    def restart(self, log_dir: Path, first_extent: int, from_lsn: int) -> dict[str, set[str]]:
        """After the member's own restart: apply the logged shared changes its structures missed,
        and return the units it left in flight there (unit -> structures), to be backed out."""
        if self.qsg() is None:
            return {}
        try:
            repository = self.repository()
        except MQError:
            return {}
        assert self.qsg() is not None
        claims.release_dead_claims(repository, self.now())  # its own BACKUP or RECOVER, killed part-way
        structures: dict[str, Structure] = {}
        for cf in repository.cfstructs():
            if states.structure_state(repository, cf).status == states.ACTIVE:
                try:
                    structures[cf] = self.structure(cf)
                except MQError:
                    continue
        for cf, cf_attributes in repository.cfstructs().items():
            if cf_attributes.get("OFFLOAD") == "SMDS" and cf_attributes.get("DSGROUP"):
                self.smds.check_own(repository, str(self.qsg()), cf, cf_attributes)
        if not structures:
            return {}
        applied = {cf: structure.applied(self.member) for cf, structure in structures.items()}
        for record in logstore.read_records(log_dir, first_extent, from_lsn):
            for cf in structures_named(record):
                if cf in structures and record[records.LSN] > applied[cf]:
                    reapply(structures[cf], self.member, record)
        open_units: dict[str, set[str]] = {}
        for cf, structure in structures.items():
            for unit in Structure.units_of(structure.db, self.member):
                open_units.setdefault(unit, set()).add(cf)
        return open_units

    def close(self, normally: bool) -> None:
        """The member ends: a normal end saves its data sets' space maps and disconnects."""
        repository = self._repository
        self.smds.close_all(repository, normally)
        self.smds.connections.clear()
        if normally and repository is not None:
            repository.disconnect_member(self.member)
        for cf in list(self.structures):
            self.drop(cf)
        if repository is not None:
            repository.close()
        self._repository = None
        self.unit_structures = {}
