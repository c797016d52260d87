"""The space scan on Spark: one job over an owner's entries, handed over as an Arrow table.

The rules of mqsh.recovery.spacemap.reference as one SQL query. The blocks
in use come back as a bitmap: each entry's extent is cut into the 64-block
words it touches, and a grouping by word ORs their bits together - a hash
aggregation spread over the tasks, where runs would need the extents in one
global order (a window over a single partition). A word's bits are laid out
as an Arrow boolean array's are, so this process turns the words into runs
without a loop. The count, the newest entry and the entries past the data
set's end come back in the same rows, so the scan is one Spark job.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from mqsh.recovery.spacemap.columnar import runs
from mqsh.recovery.spacemap.reference import SpaceScan
from mqsh.recovery.spark.log_frame import table_frame
from mqsh.recovery.spark.session import planning_failures
from mqsh.store.records import BLOCK, BLOCKS, ENTRY

WORD = 64  # blocks in a word of the bitmap: the bits of a BIGINT (the 64 of SCAN)
# Rows of three parts: W a word of the bitmap (w, bits), S the count (in w) and the newest entry (its
# id, first block and blocks), B an entry past the data set's end (its id).
SCAN = f"""
WITH words AS (  -- each word an extent touches, with the extent's first and end block relative to it
  SELECT w, {BLOCK} - w * 64 AS lo, {BLOCK} + {BLOCKS} - w * 64 AS hi
  FROM (SELECT {BLOCK}, {BLOCKS}, explode(sequence({BLOCK} DIV 64, ({BLOCK} + {BLOCKS} - 1) DIV 64)) AS w
        FROM {{entries}})
)
SELECT 'W' AS part, w, bit_or(shiftleft(-1L, greatest(lo, 0)) & IF(hi >= 64, -1L, ~shiftleft(-1L, hi))) AS bits,
       CAST(NULL AS STRING) AS {ENTRY}, CAST(NULL AS BIGINT) AS {BLOCK}, CAST(NULL AS BIGINT) AS {BLOCKS}
FROM words GROUP BY w
UNION ALL
SELECT 'S', count(*), NULL, max({ENTRY}), max_by({BLOCK}, {ENTRY}), max_by({BLOCKS}, {ENTRY}) FROM {{entries}}
UNION ALL
SELECT 'B', NULL, NULL, {ENTRY}, NULL, NULL FROM {{entries}} WHERE {BLOCK} + {BLOCKS} > :total
"""


def words_to_runs(words: pa.Table) -> list[tuple[int, int]]:
    """Runs of blocks in use, (first, count), from bitmap words (w: the word's number, bits: its blocks)."""
    if len(words) == 0:
        return []
    words = words.sort_by("w")
    bits = words["bits"].combine_chunks()
    # Bit k of a little-endian BIGINT is bit k of its eight bytes, as Arrow numbers a boolean array's bits.
    flags = pa.Array.from_buffers(
        pa.bool_(), WORD * len(bits), [None, bits.buffers()[1]], offset=WORD * bits.offset
    )
    at = pc.cast(pc.indices_nonzero(flags), pa.int64())
    word = pc.take(words["w"].combine_chunks(), pc.divide(at, WORD))  # integers: a whole division
    blocks = pc.add(pc.multiply(word, WORD), pc.bit_wise_and(at, WORD - 1))
    return runs(blocks, pc.add(blocks, 1))  # each block an extent of its own, in order


def scan(runner, entries: pa.Table, total: int) -> SpaceScan:
    """The scan of an owner's entries (space_columnar.read_entries) in one Spark job on runner
    (mqsh.recovery.spark.session.SparkRunner), against a data set of total blocks."""

    def work() -> SpaceScan:
        spark = runner.session()
        with planning_failures():
            query = spark.sql(SCAN, args={"total": total}, entries=table_frame(spark, entries))
            rows = runner.run(query.toArrow)
        return _result(rows)

    return runner.call(work)


def _result(rows: pa.Table) -> SpaceScan:
    part = rows["part"]
    summary = rows.filter(pc.equal(part, "S")).to_pylist()[0]
    past = rows.filter(pc.equal(part, "B"))
    newest = (summary[ENTRY], summary[BLOCK], summary[BLOCKS]) if summary[ENTRY] is not None else None
    return SpaceScan(
        words_to_runs(rows.filter(pc.equal(part, "W")).select(["w", "bits"])),
        summary["w"],
        newest,
        past.sort_by(ENTRY)[ENTRY].to_pylist(),
    )
