"""Recovery of a coupling-facility structure in process, at columnar speed (pyarrow).

The rules of mqsh.recovery.cfstruct.reference, as whole-table operations over every
member's records for the structure: each put and get meets its unit's ending
(units are their member's), a committed put (or a backed-up entry) is an entry
unless a get outside a unit of work, or in a unit that committed, took it.
A unit ends once, after its work, so its one ending decides all of it, and a
unit with none was open at the end: backed out. A backed-up entry a unit held
counts as that unit's put or get. Sealed extents are read from
the files of their shared records (row groups skipped by their kind and LRSN
statistics), the others from their text.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from mqsh.recovery.cfstruct.logs import (
    ENDINGS,
    ENTRY_FIELDS,
    ENTRY_SCHEMA,
    by_entry_id,
    check_count,
    listing_cf,
    member_log,
    prepare,
    read_source,
    wanted,
)
from mqsh.recovery.cfstruct.outcome import Backup, CfRecovered, Purged
from mqsh.store.records import ENTRY, KIND, LRSN, MEMBER, OWNER, STATE, UNIT


def records_of(
    cf: str, members: Mapping[str, Path], backup: Backup | None, purged: Purged | None = None
) -> tuple[int, pa.Table, int | None]:
    """(the LRSN it starts after, every member's records the recovery takes with a member column, the
    backup's count)."""
    lrsn, logs, said = prepare(cf, members, backup, purged)
    tables = []
    for log in logs:
        taken = wanted(cf, lrsn, backup if backup is not None and backup.member == log.member else None)
        with member_log(log.member):
            for source in log.sources:
                table = read_source(source, taken)
                tables.append(table.append_column("member", pa.repeat(pa.scalar(log.member), len(table))))
    if not tables:
        return lrsn, pa.table({name: [] for name in ("member", KIND)}), said
    return lrsn, listing_cf(pa.concat_tables(tables), cf), said


def judge(records: pa.Table) -> tuple[pa.Table, pa.Table]:
    """(entries left, sorted by e; the SBLK counts per owner) of a structure's records."""
    kind = records[KIND]
    ends = records.filter(pc.is_in(kind, value_set=pa.array(ENDINGS)))
    # A unit's ending, coded r * 2, + 1 for a backout.
    ends = pa.table(
        {
            "member": ends["member"],
            UNIT: ends[UNIT],
            "ending": pc.add(pc.multiply(ends[LRSN], 2), pc.cast(pc.equal(ends[KIND], "BCK"), pa.int64())),
        }
    )
    ends = ends.group_by(["member", UNIT]).aggregate([("ending", "min")])
    backed = records.filter(pc.equal(kind, "SBKP"))
    held = backed.filter(pc.is_valid(backed[STATE]))  # held by a unit when backed up: its mb's put or get
    held = pa.table(
        {
            "member": held[MEMBER],
            KIND: pc.if_else(pc.equal(held[STATE], "P"), "SPUT", "SGET"),
            UNIT: held[UNIT],
            **{name: held[name] for name in ENTRY_FIELDS},
        }
    )
    moves = pa.concat_tables(
        [
            records.filter(pc.is_in(kind, value_set=pa.array(["SPUT", "SGET"]))).select(
                ["member", KIND, UNIT, *ENTRY_FIELDS]
            ),
            held.cast(held.schema),
        ],
        promote_options="permissive",
    ).join(ends, ["member", UNIT], join_type="left outer")  # a null unit meets no ending
    counts = pc.fill_null(
        pc.or_kleene(pc.is_null(moves[UNIT]), pc.equal(pc.bit_wise_and(moves["ending_min"], 1), 0)), False
    )
    moves = moves.filter(counts)
    taken = moves.filter(pc.equal(moves[KIND], "SGET")).select([ENTRY])
    entries = pa.concat_tables(
        [
            backed.filter(pc.fill_null(pc.not_equal(backed[STATE], "P"), True)).select(list(ENTRY_FIELDS)),
            moves.filter(pc.equal(moves[KIND], "SPUT")).select(list(ENTRY_FIELDS)),
        ]
    )
    entries = entries.join(taken.group_by(ENTRY).aggregate([]), ENTRY, join_type="left anti")
    blocks = records.filter(pc.equal(kind, "SBLK")).group_by(OWNER).aggregate([([], "count_all")])
    return by_entry_id(entries.select(list(ENTRY_FIELDS)).cast(ENTRY_SCHEMA)), blocks


def recover(
    cf: str, members: Mapping[str, Path], backup: Backup | None, purged: Purged | None = None
) -> CfRecovered:
    lrsn, records, said = records_of(cf, members, backup, purged)
    if LRSN not in records.column_names:  # no member has a log
        if backup is not None:
            check_count(backup, said, 0)
        return CfRecovered(ENTRY_SCHEMA.empty_table(), lrsn, 0, 0, {})
    restored = pc.sum(pc.equal(records[KIND], "SBKP")).as_py() or 0
    if backup is not None:
        check_count(backup, said, restored)
    entries, blocks = judge(records)
    top = pc.max(records[LRSN]).as_py()
    return CfRecovered(
        entries,
        max(lrsn, top if top is not None else lrsn),
        len(records) - restored,
        restored,
        dict(zip(blocks[OWNER].to_pylist(), blocks["count_all"].to_pylist())),
    )
