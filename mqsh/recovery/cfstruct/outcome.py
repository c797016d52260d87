"""What a recovery of a coupling-facility structure starts from, gives back, and fails with.

Kept apart from the engines (mqsh.recovery.cfstruct.logs and the modules that use
it), which need pyarrow: the queue manager and its commands name these
without loading it, so that a start or a command that recovers nothing does
not pay for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mqsh.store import log as logstore

if TYPE_CHECKING:
    import pyarrow as pa


@dataclass(frozen=True)
class Backup:
    """The latest BACKUP CFSTRUCT: its records lie in member's log from start_lsn (SBKS) to end_lsn (SBKE)."""

    member: str
    start_lsn: int
    end_lsn: int
    lrsn: int  # as the group's repository holds it: checked against the SBKS record's


@dataclass(frozen=True)
class Purged:
    """The latest RECOVER CFSTRUCT TYPE(PURGE), where a recovery starts when no backup was taken since:
    the structure was empty as of LRSN lrsn, and each member's log then ended at lsns[member] (what
    comes after is what the recovery replays; a member's log before it is not needed)."""

    lrsn: int
    lsns: dict[str, int] = field(default_factory=dict)


@dataclass
class CfRecovered:
    """A structure as recovered: what every engine computes identically."""

    entries: pa.Table  # committed entries, ENTRY_SCHEMA, sorted by e
    lrsn: int  # the highest LRSN seen (the backup's when nothing came after)
    applied: int  # log records applied after the backup (changes and unit endings)
    restored: int  # entries taken from the backup
    blocks: dict[str | None, int] = field(default_factory=dict)  # SBLK records applied, per data set owner


class CfRecoveryError(Exception):
    """A recovery that cannot be made; member names the queue manager whose log is at fault."""

    member: str


class MemberExtentMissing(CfRecoveryError):
    """A log extent the recovery needs is not in the member's log directory."""

    def __init__(self, member: str, extent: str, number: int | None = None):
        super().__init__(f"log file {extent} of {member} not found")
        self.member, self.extent, self.number = member, extent, number


class MemberLogCorrupt(logstore.LogCorrupt, CfRecoveryError):
    """A record of a member's log does not match its checksum (LogCorrupt, naming the member)."""

    def __init__(self, member: str, damage: logstore.LogCorrupt):
        logstore.LogCorrupt.__init__(self, damage.extent, damage.offset, damage.problem)
        self.args = (f"log extent {damage.extent} of {member} is damaged at offset {damage.offset}",)
        self.member = member


class BackupUnusable(CfRecoveryError):
    """The backup's records are not where the repository says, or do not add up."""

    def __init__(self, member: str, problem: str):
        super().__init__(f"the backup in the log of {member} cannot be used: {problem}")
        self.member, self.problem = member, problem
