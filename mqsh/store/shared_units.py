"""A sealed extent's units of work on shared queues, settled once when it is sealed.

A recovery of a structure matches each put and get made in a unit of work
with the unit's ending (mqsh.recovery.cfstruct.spark). Most units begin and end
within one extent, so that match is made once, when the extent's shared
records are kept apart (extent_tables.shared_records), as mqsh.store.settled does
for local queues. Two columns carry it:

* outcome, on a put or get in a unit that ends in the extent: 0 the unit
  committed, 1 it backed out (its first ending listing the record's
  structure decides, as everywhere); null outside a unit, or when the unit
  ends elsewhere;
* whole, on an ending: true when its unit began in the extent (a unit's id
  starts with the LSN it began at, as the queue manager makes them), so that
  its work all lies here and is settled by it; false when the unit may have
  left work in an earlier extent, which still needs the ending.

A reader takes a record with an outcome as decided, and needs only the
endings that are not whole - and those of units whose work a backup holds.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from mqsh.store.records import (
    KIND,
    LSN,
    OUTCOME,
    STRUCTURE,
    STRUCTURES,
    UNIT,
    UNIT_ENDINGS,
    WHOLE,
    Backout,
    SharedGet,
    SharedPut,
)
from mqsh.store.settled import began_at_or_after

SCHEMA = pa.schema([(OUTCOME, pa.int8()), (WHOLE, pa.bool_())])
WORK = (SharedPut.KIND, SharedGet.KIND)


def settle(records: pa.Table, first_lsn: int) -> tuple[pa.Array, pa.Array]:
    """(outcome, whole) for records (t, u, cf, cfs, lsn) of an extent whose first LSN is first_lsn."""
    kind = records[KIND]
    is_ending = pc.is_in(kind, value_set=pa.array(UNIT_ENDINGS))
    endings = records.filter(is_ending)
    owner = pc.list_parent_indices(endings[STRUCTURES])
    # A unit's outcome for each structure its ending lists: coded lsn * 2, + 1 for a backout.
    coded = pc.add(pc.multiply(endings[LSN], 2), pc.cast(pc.equal(endings[KIND], Backout.KIND), pa.int64()))
    outcomes = (
        pa.table(
            {
                UNIT: pc.take(endings[UNIT], owner),
                STRUCTURE: pc.list_flatten(endings[STRUCTURES]),
                "code": pc.take(coded, owner),
            }
        )
        .group_by([UNIT, STRUCTURE])
        .aggregate([("code", "min")])
    )
    rows = pc.subtract(pc.cumulative_sum(pa.repeat(pa.scalar(1, pa.int64()), len(records))), 1)
    work = pa.table({"row": rows, UNIT: records[UNIT], STRUCTURE: records[STRUCTURE]}).filter(
        pc.and_(pc.is_in(kind, value_set=pa.array(WORK)), pc.is_valid(records[UNIT]))
    )
    decided = work.join(outcomes, [UNIT, STRUCTURE], join_type="inner").sort_by("row")
    outcome = pc.replace_with_mask(
        pa.nulls(len(records), pa.int8()),
        pc.is_in(rows, value_set=decided["row"]),
        pc.cast(pc.bit_wise_and(decided["code_min"], 1), pa.int8()).combine_chunks(),
    )
    whole = pc.if_else(is_ending, began_at_or_after(records[UNIT], first_lsn), pa.scalar(None, pa.bool_()))
    return outcome, whole
