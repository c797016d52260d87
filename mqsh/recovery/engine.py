"""Where restart replay runs: in this process (the reference replayer) or on Spark.

``local`` always replays in process, ``spark`` always on Spark, and ``auto``
(the default) picks Spark only when the log to replay is long: a restart
after a normal checkpoint interval (10,000 records) replays in a few
milliseconds in process, while starting Spark costs seconds. The length is
estimated from the extents' sizes, before anything is read.

Either way the replay builds its State apart from the one the queue manager
holds, so a failed or cancelled replay leaves nothing half-applied.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from mqsh.recovery.replay import Record, State
from mqsh.store import log as logstore

ENGINES = ("auto", "spark", "local")
DEFAULT_MASTER = "local[*]"
AUTO_THRESHOLD = 2_000_000  # records; below this Spark's start-up costs more than it saves
RECORD_BYTES = 120  # a typical PUT record on disk, for the estimate

Note = Callable[[Record], None]


def estimated_records(log_dir: Path, first_extent: int) -> int:
    ring = logstore.read_ring(log_dir)
    sizes = (os.stat(logstore.extent_path(log_dir, number, ring)).st_size
             for number in logstore.list_extents(log_dir) if number >= first_extent)
    return sum(sizes) // RECORD_BYTES


class ReplayEngine:
    def __init__(self, choice: str = "auto", master: str | None = None, threshold: int = AUTO_THRESHOLD):
        self.choice = choice
        self.master = master or os.environ.get("MQSH_SPARK_MASTER") or DEFAULT_MASTER
        self.threshold = threshold

    def uses_spark(self, log_dir: Path, first_extent: int) -> bool:
        if self.choice != "auto":
            return self.choice == "spark"
        return estimated_records(log_dir, first_extent) >= self.threshold

    def replay_on_spark(self, state: State, log_dir: Path, first_extent: int, from_lsn: int,
                        open_at_checkpoint: dict[str, list[str]], lost_queues: set[str]):
        """The log replayed over state (left unchanged) as Spark jobs: a spark_replay.Replayed."""
        # pyspark and pyarrow load only for heavy replays.
        from mqsh.recovery.spark_replay import replay_log
        from mqsh.recovery.spark_session import runner

        return replay_log(runner(self.master), state, log_dir, first_extent, from_lsn, open_at_checkpoint,
                          lost_queues)
