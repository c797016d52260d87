"""Where restart and media recovery replay: columnar in this process, on Spark, or record by record.

``local`` replays in process with Arrow (mqsh.recovery.replay.columnar),
``spark`` as Spark jobs, ``reference`` with the per-record replayer
(mqsh.recovery.replay.reference) that defines what a record means and that property
tests hold the other two equal to. ``auto`` (the default) replays a short
log record by record, a longer one in process with Arrow, and one more than
a process should hold on Spark - and on Spark whatever its length when a
Spark master other than the embedded ``local[*]`` is configured: whoever
names a cluster wants the work there. The length is known before anything is
read: LSNs are consecutive, so the newest record's LSN tells it.

Either way the replay builds its State apart from the one the queue manager
holds, so a failed or cancelled replay leaves nothing half-applied.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from mqsh.recovery.replay.reference import State
from mqsh.store import log as logstore

if TYPE_CHECKING:  # pyarrow loads only for a replay that needs it
    from mqsh.recovery.replay.fates import Replayed

ENGINES = ("auto", "spark", "local", "reference")
DEFAULT_MASTER = "local[*]"
# Records to replay. Below REFERENCE_BELOW the per-record replay is done before pyarrow has loaded
# and the active extent been parsed into columns (strmqm in a fresh process, whole log: 30,000
# records 0.46 s against 0.72 s, 100,000 records 0.92 s against 1.01 s, 300,000 records 2.23 s
# against 0.78 s). The columnar replay holds the moves that do not settle within an extent, and
# the survivors: at 10 M records of LAB LOAD it peaks under 300 MB, and strmqm takes 1.5 s where
# Spark's takes 10 s. From AUTO_THRESHOLD on (some 6 GB of log) the log goes to Spark, whose
# executors spill what does not fit.
REFERENCE_BELOW = 100_000
AUTO_THRESHOLD = 50_000_000
RECORD_BYTES = 120  # a typical PUT record on disk, for the estimate where the log's end cannot be read
TAIL_BYTES = 1 << 16  # read of the newest extent's end for its newest record


def _newest_lsn(extent: Path) -> int | None:
    """The LSN of the newest whole record of an extent, from its last TAIL_BYTES (None if none ends there)."""
    size = logstore.records_end(extent)
    with extent.open("rb") as handle:
        handle.seek(max(0, size - TAIL_BYTES))
        lines = handle.read(size - handle.tell()).split(b"\n")
    for line in reversed(lines[1:] if size > TAIL_BYTES else lines):
        body = logstore.checked_body(line)
        prefix = logstore.LSN_PREFIX.match(body) if body is not None else None
        if prefix is not None:
            return int(prefix[1])
    return None


def estimated_records(log_dir: Path, first_extent: int, from_lsn: int = 0) -> int:
    """How many records a replay from from_lsn reads: LSNs are consecutive, so the newest LSN tells;
    where the newest record cannot be read cheaply (a long image), the extents' sizes do."""
    ring = logstore.read_ring(log_dir)
    extents = [
        logstore.extent_path(log_dir, number, ring)
        for number in logstore.list_extents(log_dir)
        if number >= first_extent
    ]
    if not extents:
        return 0
    newest = _newest_lsn(extents[-1])
    if newest is not None:
        return max(newest - from_lsn + 1, 0)
    return sum(logstore.records_end(extent) for extent in extents) // RECORD_BYTES


class ReplayEngine:
    def __init__(self, choice: str = "auto", master: str | None = None, threshold: int = AUTO_THRESHOLD):
        self.choice = choice
        self.master = master or os.environ.get("MQSH_SPARK_MASTER") or DEFAULT_MASTER
        self.threshold = threshold

    def where(self, log_dir: Path, first_extent: int, from_lsn: int = 0) -> str:
        """The engine a replay of this log from from_lsn (in first_extent) runs on: spark, local or reference."""
        if self.choice != "auto":
            return self.choice
        if self.master != DEFAULT_MASTER:
            return "spark"
        records = estimated_records(log_dir, first_extent, from_lsn)
        if records < REFERENCE_BELOW:
            return "reference"
        return "spark" if records >= self.threshold else "local"

    def uses_spark(self, log_dir: Path, first_extent: int, from_lsn: int = 0) -> bool:
        return self.where(log_dir, first_extent, from_lsn) == "spark"

    def replay_whole(
        self,
        where: str,
        state: State,
        log_dir: Path,
        first_extent: int,
        from_lsn: int,
        open_at_checkpoint: dict[str, list[str]],
        lost_queues: set[str],
    ) -> Replayed:
        """The log replayed over state (left unchanged) on a whole-log engine (spark or local)."""
        if where == "local":
            from mqsh.recovery.replay.columnar import replay_log as replay_columnar

            return replay_columnar(state, log_dir, first_extent, from_lsn, open_at_checkpoint, lost_queues)
        # pyspark loads only for replays that run there.
        from mqsh.recovery.replay.spark import replay_log
        from mqsh.recovery.spark.session import runner

        return replay_log(
            runner(self.master), state, log_dir, first_extent, from_lsn, open_at_checkpoint, lost_queues
        )
