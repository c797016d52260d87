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
from mqsh.model.qsg.list_structure import COMMITTED, PUT_PENDING, Entry, Structure
from mqsh.model.qsg.lrsn import entry_id
from mqsh.model.qsg.peer_recovery import reapply, structures_named
from mqsh.model.qsg.shared_queue import SharedQueue
from mqsh.model.qsg.shared_structures import SharedStructures
from mqsh.store import log as logstore
from mqsh.store import records

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


class SharedMessages(SharedStructures):
    """The member's puts, gets and units of work on shared queues, over its structures."""

    def __init__(self, basics: QmgrBasics, journal: Journal):
        super().__init__(basics)
        self.journal = journal
        # The structures the open unit of work changed, with the entries it holds in each.
        self.unit_structures: dict[str, int] = {}

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
            lsn = (
                self._logged(
                    records.SharedPut(
                        queue.cf, queue.name, e, priority, size, entry.tm, unit, entry.o, first, count, lrsn
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
