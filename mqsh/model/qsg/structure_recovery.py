"""RECOVER CFSTRUCT: a failed structure rebuilt from its backup and every member's log.

IBM MQ's rules (IBM MQ docs: RECOVER CFSTRUCT): a recovery is only made of a structure that has failed,
or one whose data set has (the recovery then fails the structure itself).
TYPE(PURGE) makes it empty and marks every data set EMPTY. TYPE(NORMAL)
replays the latest backup and all the members' logs since (mqsh.recovery.cfstruct.rebuild,
on the engine chosen), rewriting only the data sets that need it - FAILED
ones, and ACTIVE ones found invalid or unexpectedly empty when opened - which
are INRECOVER meanwhile and marked in their header as partly recovered until
their blocks are all written. A recovery that cannot finish (a log extent
missing) leaves those data sets FAILED with that mark, so that a later RESET
SMDS STATUS(RECOVERED) without a real recovery is caught when the data set
is opened. Recovered data sets become RECOVERED: their owner rebuilds its
space map at its next open and makes them ACTIVE. Active data sets that were
not rewritten lose their saved space map (it is rebuilt too). Only persistent
messages come back.

A purge is a point later recoveries start from. IBM's page "RECOVER CFSTRUCT
(recover CF application structure) on z/OS" gives TYPE(PURGE) as "Recover to
empty CF structures. Any messages in the CF structures are lost": lost for
good, so no later recovery may bring them back, whatever backup is the
latest. A TYPE(NORMAL) recovery after a purge therefore starts from a backup
taken since the purge, or else from the purge itself: the structure empty at
the purge's LRSN, and every member's log records after it replayed - a
member's log from before the purge is not read, and need not be there. The
purge records its LRSN and where each member's log then ended (the group's
repository, beside the structure's status).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mqsh.model.qsg import cf_explain, claims, states
from mqsh.model.qsg.datasets import (
    DataSet,
    DataSetError,
    Header,
    allocation,
    block_bytes,
    data_set_name,
    data_set_path,
    extents_held,
    format_data_set,
)
from mqsh.model.qsg.list_structure import COMMITTED, Entry, Structure, held_messages, structure_path
from mqsh.model.qsg.lrsn import entry_id, lrsn_path, next_lrsn
from mqsh.model.qsg.shared_messages import SharedMessages
from mqsh.model.qsg.smds_space import at_maximum_extents
from mqsh.recovery import cf_ledger
from mqsh.recovery.cfstruct.outcome import Backup, CfRecoveryError, Purged
from mqsh.recovery.cfstruct.rebuild import CfRecoveryEngine
from mqsh.store import log as logstore
from mqsh.store.datadir import QmgrPaths
from mqsh.store.records import BLOCK, BLOCKS, ENTRY, OWNER, PRIORITY, PUT_TIME, SHARED_QUEUE, SIZE


class RecoveryRefused(Exception):
    """Why a structure is not recovered: msgid and text for the reply (and the details for the log)."""

    def __init__(self, msgid: str, text: str, details: list[tuple[str, str]] | None = None):
        super().__init__(text)
        self.msgid = msgid
        self.details = details or []  # (msgid, text) of the messages that explain it


@dataclass
class Recovered:
    """What a recovery did. Where the messages it left (entries) came from, in numbers that add up:

        entries = restored - gone + put

    restored: the backup's messages (every SBKP record read; 0 without a backup since the purge);
    gone: of those, the ones not left - got by a committed get (or one outside a unit of work)
        replayed from the logs, or held by a unit of work as its put when backed up and backed out;
    put: messages put after the backup (or the purge) whose put counts - outside a unit of work or in
        one that committed - and that no such get took since; replayed from the logs of members.
    Told apart by their entry ids, which are their puts' LRSNs: a backed-up message's is at or before
    the LRSN the recovery starts after, a replayed put's after it.
    dropped: the non-persistent messages the recovery deleted, failing a structure that had not failed
        (a data set had): never logged, they are in neither term. A purge reports the same.
    purged: for TYPE(PURGE), the persistent messages it discarded - those the structure held when it
        failed, or holds now (None: the structure was lost without a count). For TYPE(NORMAL),
        started_at is the purge it started from when no backup was taken since, whose purged
        messages are not restored.
    """

    cf: str
    purged: bool
    entries: int = 0
    restored: int = 0
    applied: int = 0
    data_sets: list[str] = field(default_factory=list)  # owners whose data sets were rewritten
    engine: str = ""
    unwritten: list[tuple[str, str]] = field(
        default_factory=list
    )  # (owner, why) of data sets it could not write
    unexpanded: dict[str, str] = field(
        default_factory=dict
    )  # owner -> CSQE239I's text, of those it could not write for their maximum extents
    gone: int = 0
    put: int = 0
    members: list[str] = field(default_factory=list)  # whose logs were read
    dropped: int = 0
    discarded: int | None = None  # TYPE(PURGE): the messages purged
    started_at: states.PurgeRecord | None = None


def recover_structure(shared: SharedMessages, cf: str, purge: bool, engine: CfRecoveryEngine) -> Recovered:
    repository = shared.repository()
    definition = repository.cfstructs().get(cf)
    if definition is None:
        raise RecoveryRefused("CSQM094I", f"CFSTRUCT({cf}) WAS NOT FOUND")
    if definition.get("RECOVER") != "YES":
        # IBM documents no message for a structure that is not recoverable: mqsh answers in
        # CSQE102E's words (docs/messages.md lists it).
        raise RecoveryRefused("CSQE102E", f"Unable to recover structure {cf}, structure is not recoverable")
    failed_sets = [
        state.owner for state in states.smds_states(repository, cf) if state.status == states.FAILED
    ]
    if states.structure_state(repository, cf).status != states.FAILED and not failed_sets:
        raise RecoveryRefused("CSQE102E", f"Unable to recover structure {cf}, not in failed state")
    busy = claims.claim_structure(repository, cf, shared.member, "RECOVER", shared.now())
    if busy is not None:
        raise RecoveryRefused("CSQE101I", f"Unable to backup or recover structure {cf}, structure in use")
    try:
        dropped = 0
        if states.structure_state(repository, cf).status != states.FAILED:
            # Failing the structure deletes its contents (RECOVER CFSTRUCT's usage notes): its
            # non-persistent messages are gone; its persistent ones come back, or a purge discards them.
            held = held_messages(
                structure_path(shared.paths.data_dir, str(shared.qsg()), cf), str(shared.qsg()), cf
            )
            states.set_structure_status(repository, cf, states.FAILED, shared.now())
            repository.record_lost(cf, held[0] if held is not None else None)
            cf_explain.note_failure(
                structure_path(shared.paths.data_dir, str(shared.qsg()), cf),
                shared.now(),
                f"failed by RECOVER CFSTRUCT for its data sets {', '.join(failed_sets)}",
                held[0] if held is not None else None,
            )
            dropped = held[1] if held is not None else 0
        shared.drop(cf)
        for state in states.smds_states(repository, cf):
            shared.smds.close(cf, state.owner)
        if purge:
            return _purge(shared, cf, dropped)
        return _recover(shared, cf, definition, engine, dropped)
    finally:
        claims.release_structure(repository, cf)


def _purge(shared: SharedMessages, cf: str, dropped: int) -> Recovered:
    repository = shared.repository()
    qsg = str(shared.qsg())
    # The structure is FAILED: no member changes it meanwhile, so every record logged for it so far has
    # an LRSN below this one and lies at or before each member's last LSN now.
    point = Purged(
        shared.next_lrsn(),
        {
            member: _last_lsn(log_dir)
            for member, log_dir in _member_logs(shared.paths.data_dir, repository).items()
        },
    )
    discarded = repository.lost_at_failure(cf)
    states.record_purge(repository, cf, states.PurgeRecord(point, shared.now(), discarded))
    structure = Structure(structure_path(shared.paths.data_dir, qsg, cf), qsg, cf, allocate_at=shared.now())
    with structure.transaction() as db:
        # Each member's log counts as applied up to the purge: a peer's recovery of a member that
        # fails later, or the member's own restart, replays nothing the purge discarded.
        Structure.replace_all(db, [], point.lsns)
    structure.close()
    definition = repository.cfstructs().get(cf, {})
    for state in states.smds_states(repository, cf):
        # The purge discards the data set's contents, and with them what a down-level check found.
        cf_ledger.forget_down_level(_path(shared.paths.data_dir, qsg, definition, state.owner))
        if state.status != states.NOTFOUND:
            states.set_smds_status(repository, cf, state.owner, states.EMPTY, shared.now())
            if state.access == states.SUSPENDED:
                states.set_smds_access(repository, cf, state.owner, states.ENABLED)
    states.set_structure_status(repository, cf, states.ACTIVE, shared.now())
    done = Recovered(cf, purged=True, dropped=dropped, discarded=discarded)
    cf_explain.keep_purge(
        structure_path(shared.paths.data_dir, qsg, cf), shared.member, shared.now(), done, point.lsns
    )
    return done


def _member_logs(data_dir, repository) -> dict:
    return {member.qmgr: QmgrPaths(data_dir, member.qmgr).log_dir for member in repository.members()}


def _recover(
    shared: SharedMessages, cf: str, definition: dict, engine: CfRecoveryEngine, dropped: int
) -> Recovered:
    repository = shared.repository()
    qsg = str(shared.qsg())
    data_dir = shared.paths.data_dir
    members = _member_logs(data_dir, repository)
    taken = repository.latest_backup(cf)
    backup = Backup(taken.qmgr, taken.start_lsn, taken.end_lsn, taken.lrsn) if taken is not None else None
    purge = states.purge_record(repository, cf)
    if purge is not None and backup is not None and backup.lrsn < purge.point.lrsn:
        backup = None  # taken before the purge: what it holds was discarded (module docstring)
    start = backup.lrsn if backup is not None else purge.point.lrsn if purge is not None else 0
    defined = repository.definition_id(cf) or ""
    chosen = [state.owner for state in states.smds_states(repository, cf) if state.status == states.FAILED]
    invalid = [
        state.owner
        for state in states.smds_states(repository, cf)
        if state.status in (states.ACTIVE, states.RECOVERED)
        and _invalid(data_dir, qsg, cf, definition, state.owner, defined)
    ]
    chosen += invalid
    found = {  # what each was, for LAB EXPLAIN CFSTRUCT, before it is formatted anew
        owner: cf_explain.condition(_path(data_dir, qsg, definition, owner), qsg, cf, owner, defined)
        for owner in chosen
    }
    for owner in chosen:
        states.set_smds_status(repository, cf, owner, states.INRECOVER, shared.now())
        _format(data_dir, qsg, cf, definition, owner, shared.now(), defined)
    try:
        result = engine.recover(cf, members, backup, purge.point if purge is not None else None)
    except CfRecoveryError as error:
        for owner in chosen:
            states.set_smds_status(repository, cf, owner, states.FAILED, shared.now())
        raise RecoveryRefused(
            "CSQE158E",
            f"Recovery of structure {cf} failed, reason=00C5005B",
            [("CSQJ077E", f"LOG OR BSDS READ ERROR FOR QMGR {error.member}, REASON CODE=00D10901: {error}")],
        ) from None
    entries = [
        Entry(
            row[ENTRY],
            row[SHARED_QUEUE],
            row[PRIORITY],
            row[SIZE],
            row[PUT_TIME],
            True,
            row[OWNER],
            row[BLOCK],
            row[BLOCKS],
            COMMITTED,
            None,
            None,
        )
        for row in result.entries.to_pylist()
    ]
    owners = {entry.o for entry in entries}
    for state in states.smds_states(repository, cf):
        if (
            state.owner not in chosen
            and state.status == states.ACTIVE
            and state.owner in owners
            and not _used(data_dir, qsg, definition, state.owner)
        ):
            chosen.append(state.owner)  # unexpectedly empty: it should hold recovered messages' data
            found[state.owner] = ("EMPTY", "unexpectedly empty (none of the recovered messages' data in it)")
            states.set_smds_status(repository, cf, state.owner, states.INRECOVER, shared.now())
            _format(data_dir, qsg, cf, definition, state.owner, shared.now(), defined)
    structure = Structure(structure_path(data_dir, qsg, cf), qsg, cf, allocate_at=shared.now())
    with structure.transaction() as db:
        Structure.replace_all(
            db, entries, {member: _last_lsn(log_dir) for member, log_dir in members.items()}
        )
    structure.close()
    unwritten, rebuilt, remade = [], [], []
    unexpanded: dict[str, str] = {}
    for owner in chosen:
        owned = [entry for entry in entries if entry.o == owner]
        path = _path(data_dir, qsg, definition, owner)
        try:
            blocks = _rewrite(data_dir, qsg, cf, definition, owner, owned)
        except DataSetError as error:  # on a device that fails, or too small: FAILED, its partial mark kept
            states.set_smds_status(repository, cf, owner, states.FAILED, shared.now())
            unwritten.append((owner, str(error)))
            if isinstance(error, MaximumExtents):
                unexpanded[owner] = error.expansion
            remade.append(cf_explain.remade(path, owner, found[owner], owned, None, str(error)))
            continue
        states.set_smds_status(repository, cf, owner, states.RECOVERED, shared.now())
        rebuilt += cf_explain.rebuilt(path, owned)
        remade.append(cf_explain.remade(path, owner, found[owner], owned, blocks, None))
    for state in states.smds_states(repository, cf):
        if state.owner not in chosen and state.status == states.ACTIVE:
            states.set_space_map_stamp(repository, cf, state.owner, None)  # rebuilt after a recovery
    next_lrsn(lrsn_path(data_dir, qsg), shared.clock.now(), at_least=result.lrsn)
    states.set_structure_status(repository, cf, states.ACTIVE, shared.now())
    failed = {owner for owner, _error in unwritten}
    put = sum(entry.e > entry_id(start) for entry in entries)  # the puts' LRSNs (Recovered)
    done = Recovered(
        cf,
        False,
        len(entries),
        result.restored,
        result.applied,
        sorted(owner for owner in chosen if owner not in failed),
        engine.where_cf(members, backup),
        unwritten,
        unexpanded,
        gone=result.restored - (len(entries) - put),
        put=put,
        members=sorted(members),
        dropped=dropped,
        started_at=purge if backup is None else None,
    )
    cf_explain.keep(
        structure_path(data_dir, qsg, cf),
        repository,
        shared.member,
        shared.now(),
        done,
        backup,
        purge,
        members,
        entries,
        start,
        rebuilt,
        remade,
    )
    return done


def _path(data_dir, qsg: str, definition: dict, owner: str):
    return data_set_path(data_dir, qsg, data_set_name(str(definition.get("DSGROUP", "")), owner))


def _invalid(data_dir, qsg: str, cf: str, definition: dict, owner: str, defined: str) -> bool:
    """An active data set that cannot be used as it is: missing, header invalid, another's (or an earlier
    definition's of the structure), partly recovered."""
    try:
        data_set = DataSet(_path(data_dir, qsg, definition, owner), owner_side=False)
    except DataSetError:
        return True
    header = data_set.header
    data_set.close()
    return not header.made_for(qsg, cf, owner, defined) or header.partial


def _used(data_dir, qsg: str, definition: dict, owner: str) -> bool:
    data_set = DataSet(_path(data_dir, qsg, definition, owner), owner_side=False)
    data_set.close()
    return data_set.header.used


def _format(data_dir, qsg: str, cf: str, definition: dict, owner: str, now: str, defined: str) -> None:
    """The data set formatted anew for the structure's definition, marked as partly recovered."""
    path = _path(data_dir, qsg, definition, owner)
    block = block_bytes(definition.get("DSBLOCK", "256K"))
    try:
        data_set = DataSet(path, owner_side=False)
        old = data_set.header
        data_set.close()
        blocks, secondary, extents, most = old.blocks, old.secondary, old.extents, old.max_extents
    except DataSetError:
        # Missing: a new allocation, of the size LAB SIZE gave it if any. Unreadable (a spoiled header,
        # or preformatted anew): its allocation is kept, the extents it grew by included.
        given = allocation(path)
        blocks, most = given.blocks, given.max_extents
        extents, secondary = extents_held(path, block, given)
    header = Header(
        qsg,
        cf,
        owner,
        block,
        blocks,
        extents=extents,
        secondary=secondary,
        max_extents=most,
        partial=True,
        formatted=now,
        structure=defined,
    )
    format_data_set(path, header)


class MaximumExtents(DataSetError):
    """The recovered messages need more blocks than the data set's allocation may ever hold."""

    def __init__(self, text: str, expansion: str):
        super().__init__("EXTENTS", text)
        self.expansion = expansion  # CSQE239I's words


def _rewrite(data_dir, qsg: str, cf: str, definition: dict, owner: str, entries: list[Entry]) -> int:
    """The recovered messages' blocks, then the header without the partial-recovery mark; its blocks.

    The data set grows by secondary extents to hold them, as its owner's expansion grows it, and
    like it stops at the maximum number of extents (CSQE239I). IBM's pages give no message of their
    own for a recovery that meets that limit; they say what follows when a data set holds a reference
    to a block beyond its extents ("Managing your shared message data set environment": it is marked
    FAILED, to be replaced by one of the correct size and recovered with RECOVER CFSTRUCT) and when
    the recovery of a data set cannot complete (left FAILED, marked as partly recovered, for the
    recovery to be repeated or made with TYPE(PURGE)). So nothing is written: MaximumExtents, and the
    caller leaves the data set FAILED with its partial mark, its messages in the structure - their data
    unavailable (2561) until a larger allocation is recovered - and DSEXPAND as it was, since that
    override governs its owner's expansions at puts, which a FAILED data set does not take."""
    data_set = DataSet(_path(data_dir, qsg, definition, owner), owner_side=True)
    try:
        needed = max([(entry.b or 0) + (entry.n or 1) for entry in entries], default=0)
        while data_set.total_blocks() < needed:
            if data_set.header.extents >= data_set.header.max_extents:
                raise MaximumExtents(
                    f"data set {data_set.path.name} cannot hold the recovered messages: they need "
                    f"{needed} blocks, and its most extents ({data_set.header.max_extents}) hold "
                    f"{data_set.total_blocks()}; reallocate it larger and recover it again",
                    at_maximum_extents(owner, cf, data_set),
                )
            data_set.expand()
        for entry in entries:
            data_set.write_message(entry.e, entry.b or 0, entry.n or 1)
        data_set.header.partial = False
        data_set.write_header()
        return data_set.total_blocks()
    finally:
        data_set.close()


def _last_lsn(log_dir) -> int:
    present = logstore.list_extents(log_dir)
    if not present:
        return 0
    return logstore.valid_end(logstore.extent_path(log_dir, present[-1], logstore.read_ring(log_dir)))[1]
