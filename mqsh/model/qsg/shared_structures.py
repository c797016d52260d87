"""A member's connections to its group's structures and the shared message data sets in them.

A member connects to a structure at its first use of it, allocating it if it was never used: a
structure that has FAILED refuses the use (MQRC 2373) until RECOVER CFSTRUCT, unless it is not
recoverable (RECOVER(NO)), which starts again empty, with its data sets EMPTY. At its connection and
before each command, the member recovers the work of the peers whose connection failed
(mqsh.model.qsg.peer_recovery) and opens the data sets that are ACTIVE (mqsh.model.qsg.smds_access).
The messages put and got there are mqsh.model.qsg.shared_messages'.
"""

from __future__ import annotations

from collections.abc import Callable

from mqsh.core import reasons
from mqsh.core.reasons import MQError
from mqsh.model.basics import QmgrBasics
from mqsh.model.qsg import claims, smds_space, states
from mqsh.model.qsg.list_structure import Structure, StructureLost, lose, structure_path
from mqsh.model.qsg.lrsn import lrsn_path, next_lrsn
from mqsh.model.qsg.peer_recovery import recover_peer
from mqsh.model.qsg.repository import RepositoryUnavailable, SharedRepository
from mqsh.model.qsg.shared_queue import SharedQueue
from mqsh.model.qsg.smds_access import SmdsAccess
from mqsh.recovery.spacemap.scan import SpaceScanEngine


class SharedStructures:
    """The structures and data sets a member uses, and the group's repository it reaches them by."""

    def __init__(self, basics: QmgrBasics):
        paths = self.paths = basics.paths
        self.member = paths.name
        self.clock = basics.clock
        self.errors = basics.errors
        self.config = basics.config
        self._repository: SharedRepository | None = None
        self.structures: dict[str, Structure] = {}
        # The owner's space maps are rebuilt where the queue manager's engine choice says.
        scans = SpaceScanEngine(basics.engine.choice, basics.engine.master)
        self.smds = SmdsAccess(self.member, paths.data_dir, self.errors, self.now, scans)
        self.smds.connected = self.connected
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
