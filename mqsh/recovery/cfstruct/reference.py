"""The reference recovery of a coupling-facility structure: the rules applied record by record.

What a recovery computes is defined here, in the words of its rules, and
property tests hold the columnar and Spark recoveries equal to it. The
backup's entries come first, committed; then every member's records for the
structure newer than the backup's LRSN, merged in LRSN order (ties, which the
group's LRSNs never make, by member and LSN):

* SPUT: the entry exists; committed outside a unit of work, else a pending put in it;
* SGET: outside a unit of work the entry is removed, else a pending get in it;
* CMT: the unit's pending puts become committed, its pending gets remove their entries;
* BCK: the unit's pending puts are removed, its pending gets become committed again;
* SBLK: counted, per data set owner (the blocks come from the SPUT's o, b, n);
* at the end, units still open are backed out, as a structure failure backs them out (a member
  whose unit was open at a recovery logs its ending as a backout: SharedMessages.unit_lost).

A backed-up entry a unit of work held when the backup was taken (SBKP with st
P or G, the unit u of member mb) is restored as that unit's pending put or
get: the unit's ending, after the backup, decides it like the others.

A unit of work is its member's: two members' logs may hold the same unit id.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mqsh.recovery.cfstruct.logs import (
    CHANGES,
    ENDINGS,
    ENTRY_FIELDS,
    check_count,
    entries_table,
    member_log,
    prepare,
)
from mqsh.recovery.cfstruct.outcome import Backup, CfRecovered, Purged
from mqsh.store import log as logstore
from mqsh.store.records import ENTRY, KIND, LRSN, LSN, MEMBER, OWNER, STATE, STRUCTURE, STRUCTURES, UNIT

Unit = tuple[str, str]  # (member, unit of work id)


class ReplayedStructure:
    """Entries as the rules leave them: e -> the entry's fields, with its pending put and get units."""

    def __init__(self) -> None:
        self.entries: dict[str, dict[str, Any]] = {}
        self.pending: dict[Unit, list[str]] = {}  # unit -> the entries it holds, in the order it took them

    def restore(self, record: dict[str, Any]) -> None:
        self.entries[record[ENTRY]] = {
            **{name: record.get(name) for name in ENTRY_FIELDS},
            "put": None,
            "got": None,
        }
        held = record.get(STATE)
        if held in ("P", "G"):
            unit = (record[MEMBER], record[UNIT])
            self.entries[record[ENTRY]]["put" if held == "P" else "got"] = unit
            self.pending.setdefault(unit, []).append(record[ENTRY])

    def apply(self, member: str, record: dict[str, Any]) -> None:
        kind, uow = record[KIND], record.get(UNIT)
        unit = (member, uow) if uow else None
        if kind == "SPUT":
            self.restore(record)
            self.entries[record[ENTRY]]["put"] = unit
        elif kind == "SGET":
            entry = self.entries.get(record[ENTRY])
            if entry is None:
                return
            if unit is None:
                del self.entries[record[ENTRY]]
                return
            entry["got"] = unit
        elif kind in ENDINGS:
            self.end(unit, commit=kind == "CMT")
            return
        else:
            return
        if unit is not None:
            self.pending.setdefault(unit, []).append(record[ENTRY])

    def end(self, unit: Unit | None, commit: bool) -> None:
        for entry_id in self.pending.pop(unit, []):
            entry = self.entries.get(entry_id)
            if entry is None:
                continue
            if entry["put"] == unit:
                if commit:
                    entry["put"] = None
                else:
                    del self.entries[entry_id]
                    continue
            if entry["got"] == unit:
                if commit:
                    del self.entries[entry_id]
                else:
                    entry["got"] = None

    def back_out_open_units(self) -> None:
        for unit in list(self.pending):
            self.end(unit, commit=False)


def _taken(record: dict[str, Any], cf: str, lrsn: int) -> bool:
    """Whether a record counts for the structure after the backup (cf-spec: RECOVER CFSTRUCT result)."""
    r = record.get(LRSN)
    if r is None or r <= lrsn:
        return False
    if record[KIND] in CHANGES:
        return record.get(STRUCTURE) == cf
    return record[KIND] in ENDINGS and cf in (record.get(STRUCTURES) or ())


def recover(
    cf: str, members: Mapping[str, Path], backup: Backup | None, purged: Purged | None = None
) -> CfRecovered:
    lrsn, logs, said = prepare(cf, members, backup, purged)
    structure = ReplayedStructure()
    taken: list[tuple[int, str, int, dict[str, Any]]] = []
    restored = 0
    for log in logs:
        backing_up = backup is not None and backup.member == log.member
        with member_log(log.member):
            for record in logstore.read_extents(log.log_dir, log.extents):
                if (
                    backing_up
                    and record[KIND] == "SBKP"
                    and record.get(STRUCTURE) == cf
                    and backup.start_lsn <= record[LSN] <= backup.end_lsn
                ):
                    structure.restore(record)
                    restored += 1
                elif _taken(record, cf, lrsn):
                    taken.append((record[LRSN], log.member, record[LSN], record))
    if backup is not None:
        check_count(backup, said, restored)
    taken.sort(key=lambda item: item[:3])
    blocks: dict[str | None, int] = {}
    for _r, member, _lsn, record in taken:
        structure.apply(member, record)
        if record[KIND] == "SBLK":
            blocks[record.get(OWNER)] = blocks.get(record.get(OWNER), 0) + 1
    structure.back_out_open_units()
    rows = [
        {name: entry[name] for name in ENTRY_FIELDS}
        for entry in structure.entries.values()
        if entry["put"] is None
    ]
    return CfRecovered(
        entries_table(rows), max([lrsn, *(item[0] for item in taken)]), len(taken), restored, blocks
    )
