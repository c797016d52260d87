"""BACKUP CFSTRUCT: a structure's persistent messages written to the issuing member's log.

The backup is a consistent copy of the structure as of one LRSN: the
structure is held (a write transaction) while that LRSN is taken and its
persistent entries are read, so that every change is either in the copy or
after it in some member's log. Uncommitted work is copied with its unit
(records SBKP with st P or G and u), since the unit may end after the backup
and a recovery must then end it too. The records go between SBKS and SBKE on
the member's log, forced; the repository then records where they are (start
and end RBA), their size, the LRSN and the members whose logs a recovery needs.

EXCLINT(n), 30 seconds unless given: "the backup does not include the last n
seconds worth of activity". The copy is as of the LRSN n seconds before the
backup started (the clock is the lab's: with LAB CLOCK standing still, all the
work since it was set is that recent): the messages put since are left out,
and the backup's LRSN, where a recovery starts reading the members' logs, is
that earlier one - so a recovery applies the excluded activity from the logs.
Messages got since are not in the structure, and so not in the copy either;
their gets, read again from the logs, find nothing to take. The SBKS record
itself carries the LRSN taken when the backup started, so that LRSNs still
grow along the member's log.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from mqsh.core.reasons import MQError
from mqsh.model import interrupts
from mqsh.model.qsg import claims, states
from mqsh.model.qsg.list_structure import COMMITTED
from mqsh.model.qsg.lrsn import entry_id, microseconds
from mqsh.model.qsg.repository import BackupTaken
from mqsh.model.qsg.shared_messages import SharedMessages
from mqsh.store import records


def rba(lsn: int) -> str:
    """A log position as z/OS shows an RBA since its logs have 8-byte RBAs: 16 hex digits."""
    return f"{lsn:016X}"


def megabytes(size: int) -> int:
    """A backup's size in whole megabytes, rounded up (BKUPSIZE: a backup of any data is at least 1)."""
    return -(-size // (1024 * 1024))


class BackupRefused(Exception):
    """Why a structure cannot be backed up: msgid and text for the reply."""

    def __init__(self, msgid: str, text: str):
        super().__init__(text)
        self.msgid = msgid


@dataclass(frozen=True)
class Backup:
    cf: str
    start_lsn: int
    end_lsn: int
    entries: int
    size: int  # bytes of message data
    lrsn: int


DEFAULT_EXCLINT = 30  # seconds


def backup_structure(shared: SharedMessages, cf: str, exclint: int = DEFAULT_EXCLINT) -> Backup:
    repository = shared.repository()
    definition = repository.cfstructs().get(cf)
    if definition is None:
        raise BackupRefused("CSQM094I", f"CFSTRUCT({cf}) WAS NOT FOUND")
    if int(definition.get("CFLEVEL", 3)) < 3 or definition.get("RECOVER") != "YES":
        # IBM's BACKUP CFSTRUCT page states the rule but no reason code for it: the text says
        # what the rule is.
        raise BackupRefused(
            "CSQE106E",
            f"Unable to backup structure {cf}, structure is not "
            "recoverable (CFLEVEL(3) or higher and RECOVER(YES) are needed)",
        )
    busy = claims.claim_structure(repository, cf, shared.member, "BACKUP", shared.now())
    if busy is not None:
        raise BackupRefused("CSQE101I", f"Unable to backup or recover structure {cf}, structure in use")
    try:
        return _write_backup(shared, cf, exclint)
    finally:
        claims.release_structure(repository, cf)


def _write_backup(shared: SharedMessages, cf: str, exclint: int) -> Backup:
    try:
        structure = shared.structure(cf)
    except MQError as error:
        raise BackupRefused(
            "CSQE106E", f"Unable to backup structure {cf}, the structure cannot be used (MQRC {error.reason})"
        ) from None
    journal = shared.journal
    assert journal.log is not None
    with interrupts.uninterrupted(), structure.transaction():
        started = shared.next_lrsn()
        lrsn = min(started - 1, microseconds(shared.clock.now() - timedelta(seconds=exclint)))
        purge = states.purge_record(shared.repository(), cf)
        if purge is not None:
            # Never back past a purge: the structure held nothing then, and a recovery takes a backup
            # whose LRSN is before the purge's for one taken before it (mqsh.model.qsg.structure_recovery).
            lrsn = max(lrsn, purge.point.lrsn)
        entries = structure.persistent_up_to(entry_id(lrsn))
        start = journal.log_record(records.BackupStarted(cf, started).encode())[records.LSN]
        for entry in entries:
            pending = entry.state != COMMITTED  # an entry in a unit of work carries the unit
            journal.log_record(
                records.BackupEntry(
                    cf,
                    entry.sq,
                    entry.e,
                    entry.p,
                    entry.s,
                    entry.tm,
                    entry.o,
                    entry.b,
                    entry.n,
                    entry.state if pending else None,
                    entry.u if pending else None,
                    entry.member if pending else None,
                ).encode()
            )
        end = journal.log_record(records.BackupEnded(cf, started, len(entries)).encode())[records.LSN]
        journal.log.force()
    size = sum(entry.s for entry in entries)
    repository = shared.repository()
    members = [member.qmgr for member in repository.members()]
    repository.record_backup(cf, BackupTaken(shared.member, shared.now(), start, end, size, lrsn, members))
    return Backup(cf, start, end, len(entries), size, lrsn)
