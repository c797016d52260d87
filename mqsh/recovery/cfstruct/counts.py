"""What a recovery of a coupling-facility structure counts, from each extent's tally where it can.

Besides its entries, a recovery gives the records it applied after the
backup, the entries it restored from the backup (checked against the count
the backup's end gives), the SBLK records per data set owner and the highest
LRSN it met. Of an extent these are known without reading its records:
its shared records carry a tally (extent_tables.tally) by kind, structure and
owner, with each group's range of LRSNs and LSNs - a sealed extent's file
of them in its metadata, a parsed extent's (the active one) in its table's,
made once with the parse. A group wholly after the backup's LRSN counts
whole, one wholly at or before it not at all; an extent with a group across
it (or across the backup's LSN range), and a file without a tally, is
counted from its records.
The Spark recovery takes its counts from here, so that its job reads only
the records that decide the entries.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mqsh.recovery.cfstruct.logs import MemberLog, member_log, read_source, wanted
from mqsh.recovery.cfstruct.outcome import Backup
from mqsh.store import columnar, extent_tables

Counted = tuple[str, str | None, int, int | None]  # (kind, owner for SBLK, records, their highest LRSN)


@dataclass
class Counts:
    applied: int = 0  # changes and unit endings listing the structure, after the backup's LRSN
    restored: int = 0  # the backup's entries
    top: int | None = None  # the highest LRSN among them
    blocks: dict[str | None, int] = field(default_factory=dict)  # SBLK records, per data set owner

    def add(self, kind: str, owner: str | None, records: int, top: int | None) -> None:
        if kind == "SBKP":
            self.restored += records
        else:
            self.applied += records
        if kind == "SBLK":
            self.blocks[owner] = self.blocks.get(owner, 0) + records
        if top is not None:
            self.top = top if self.top is None else max(self.top, top)


def counts(cf: str, lrsn: int, logs: list[MemberLog], backup: Backup | None) -> Counts:
    """What a recovery of cf from backup (its LRSN lrsn, or 0) counts in the members' logs."""
    total = Counts()
    for log in logs:
        backed_up = backup if backup is not None and backup.member == log.member else None
        with member_log(log.member):
            for source in log.sources:
                counted = _decided(columnar.tally_of(source), cf, lrsn, backed_up)
                if counted is None:
                    # Read as every engine reads it: then every group falls wholly inside.
                    taken = read_source(source, wanted(cf, lrsn, backed_up), extent_tables.TALLIED_COLUMNS)
                    counted = _decided(extent_tables.tally(taken), cf, lrsn, backed_up)
                for group in counted:
                    total.add(*group)
    return total


def _decided(tally: list[list] | None, cf: str, lrsn: int, backup: Backup | None) -> list[Counted] | None:
    """What counts of each of a tally's groups for cf; None without a tally, or with a group that
    lies partly after lrsn (the backup's entries: partly inside the backup's LSN range)."""
    if tally is None:
        return None
    counted: list[Counted] = []
    for kind, group_cf, owner, records, dated, low_r, high_r, low_lsn, high_lsn in tally:
        if group_cf != cf:
            continue
        if kind == "SBKP":  # the backing-up member's, from its start to its end; an LRSN or not
            if backup is None or high_lsn < backup.start_lsn or low_lsn > backup.end_lsn:
                continue
            if low_lsn < backup.start_lsn or high_lsn > backup.end_lsn:
                return None
            counted.append((kind, owner, records, high_r))
        elif dated and high_r > lrsn:  # a record without an LRSN is never after the backup
            if low_r <= lrsn:
                return None
            counted.append((kind, owner, dated, high_r))
    return counted
