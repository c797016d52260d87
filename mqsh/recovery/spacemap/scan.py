"""An owner's space map rebuilt by scanning its structure, on an engine.

After an abnormal end, a FAILED mark or a recovery the owner of a shared
message data set has no space map it can trust, and rebuilds it from the
structure: the blocks in use are those of the entries whose data its data
set holds (owner o, first block b, n blocks). The same scan gives what the
owner's open checks: how many messages the data set should hold
(any, and a data set never written is unexpectedly empty), the messages
whose blocks lie beyond its size (a data set reallocated smaller), and the
newest message, whose first block must carry its entry id (the down-level
check of a data set restored from an older copy).

Engines as for restart's replay (mqsh.recovery.engine): ``reference`` reads
the entries row by row and defines the result (mqsh.recovery.spacemap.reference),
``local`` reads them into Arrow and works on whole columns
(mqsh.recovery.spacemap.columnar), ``spark`` hands that Arrow table to Spark
(mqsh.recovery.spacemap.spark).
``auto`` scans row by row below REFERENCE_BELOW entries, in columns up to
SPARK_FROM, on Spark from there, and every structure on Spark when a master
other than the embedded one is named.

    SpaceScanEngine("auto").scan(structure.db, "QM1", 1280)

gives a SpaceScan; a Spark failure or cancel raises the restart replay's
SparkUnavailable or ReplayCancelled. Nothing in the structure is changed.
"""

from __future__ import annotations

import sqlite3

from mqsh.recovery.engine import DEFAULT_MASTER, ReplayEngine
from mqsh.recovery.spacemap import reference as space_reference
from mqsh.recovery.spacemap.reference import SpaceScan

# Entries in the structure from which auto scans on Spark. On the embedded master Spark does not
# gain at any size measured (benchmarks/spacescan.py, 2 shared cores: 1 M entries 0.6 s columnar,
# 2.5 s on a warm local[2] session; 100,000 entries 0.05 s against 1.4 s): the entries are read
# into Arrow in this process either way (0.6 s of the 1 M), then copied to the JVM. It is there
# for whoever names a cluster or asks for it.
SPARK_FROM = 50_000_000
# Below this, auto scans row by row: an application structure holds at most ENTRIES_MAX (10,000)
# entries, which take 23 ms so against 15 ms in columns - but loading pyarrow, which a start that
# replays little does not, costs some 300 ms. The columnar scan pays from larger structures on.
REFERENCE_BELOW = 100_000


class SpaceScanEngine(ReplayEngine):
    """The engine a space scan runs on: choice auto, spark, local or reference."""

    def __init__(self, choice: str = "auto", master: str | None = None, threshold: int = SPARK_FROM):
        super().__init__(choice, master, threshold)

    def where_scan(self, entries: int) -> str:
        """The engine a scan of a structure of that many entries runs on."""
        if self.choice != "auto":
            return self.choice
        if self.master != DEFAULT_MASTER:
            return "spark"
        if entries < REFERENCE_BELOW:
            return "reference"
        return "spark" if entries >= self.threshold else "local"

    def scan(self, db: sqlite3.Connection, owner: str, total: int) -> SpaceScan:
        """owner's entries in the structure open on db, against a data set of total blocks."""
        where = self.where_scan(db.execute("SELECT count(*) FROM entry").fetchone()[0])
        if where == "reference":
            return space_reference.scan(db, owner, total)
        # pyarrow, and pyspark, load only for scans that run there.
        from mqsh.recovery.spacemap import columnar as space_columnar

        entries = space_columnar.read_entries(db, owner)
        if where == "local":
            return space_columnar.scan(entries, total)
        from mqsh.recovery.spacemap import spark as space_spark
        from mqsh.recovery.spark.session import runner

        return space_spark.scan(runner(self.master), entries, total)
