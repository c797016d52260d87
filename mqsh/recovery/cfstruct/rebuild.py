"""RECOVER CFSTRUCT's replay: a structure rebuilt from its backup and every member's log, on an engine.

Like restart's ReplayEngine (mqsh.recovery.engine): ``reference`` applies the
records one by one (mqsh.recovery.cfstruct.reference, which defines the result),
``local`` works in process with Arrow (mqsh.recovery.cfstruct.columnar), ``spark``
runs one Spark job over all the members' logs (mqsh.recovery.cfstruct.spark), and
``auto`` picks by the number of records in the members' logs (every extent
there: finding where a recovery starts reads the newest ones) and sends everything to Spark when a
master other than the embedded one is named.

    recover_cfstruct("APP1", {"QM1": log_dir_1, "QM2": log_dir_2}, Backup("QM1", 120, 480, lrsn))

gives a CfRecovered; a recovery that cannot be made raises a CfRecoveryError
naming the member whose log is at fault: MemberExtentMissing, MemberLogCorrupt
(a LogCorrupt too) or BackupUnusable. A Spark failure or cancel raises the
restart replay's SparkUnavailable or ReplayCancelled. Nothing is changed: the
caller decides what to do with the result.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from mqsh.recovery.cfstruct.outcome import Backup, CfRecovered, Purged
from mqsh.recovery.engine import (
    AUTO_THRESHOLD,
    DEFAULT_MASTER,
    REFERENCE_BELOW,
    ReplayEngine,
    estimated_records,
)
from mqsh.store import log as logstore


class CfRecoveryEngine(ReplayEngine):
    """The engine a structure's recovery runs on: choice auto, spark, local or reference."""

    def __init__(self, choice: str = "auto", master: str | None = None, threshold: int = AUTO_THRESHOLD):
        super().__init__(choice, master, threshold)

    def where_cf(self, members: Mapping[str, Path], backup: Backup | None) -> str:
        """The engine this recovery runs on: the records to read, every member's, decide it under auto."""
        if self.choice != "auto":
            return self.choice
        if self.master != DEFAULT_MASTER:
            return "spark"
        records = 0
        for log_dir in members.values():
            present = logstore.list_extents(Path(log_dir))
            records += estimated_records(Path(log_dir), present[0]) if present else 0
        if records < REFERENCE_BELOW:
            return "reference"
        return "spark" if records >= self.threshold else "local"

    def recover(
        self, cf: str, members: Mapping[str, Path], backup: Backup | None, purged: Purged | None = None
    ) -> CfRecovered:
        """cf from backup (taken after the purge), or else from the purge, or else from empty at the logs' start."""
        where = self.where_cf(members, backup)
        if where == "reference":
            from mqsh.recovery.cfstruct import reference as cf_reference

            return cf_reference.recover(cf, members, backup, purged)
        if where == "local":
            from mqsh.recovery.cfstruct import columnar as cf_columnar

            return cf_columnar.recover(cf, members, backup, purged)
        # pyspark loads only for recoveries that run there.
        from mqsh.recovery.cfstruct import spark as cf_spark
        from mqsh.recovery.spark.session import runner

        return cf_spark.recover(runner(self.master), cf, members, backup, purged)


def recover_cfstruct(
    cf: str,
    members: Mapping[str, Path],
    backup: Backup | None,
    engine: CfRecoveryEngine | str = "auto",
    purged: Purged | None = None,
) -> CfRecovered:
    """Structure cf rebuilt from backup (None: from empty, at purged if given) and the logs of members
    (name -> log directory)."""
    chosen = engine if isinstance(engine, CfRecoveryEngine) else CfRecoveryEngine(engine)
    return chosen.recover(cf, members, backup, purged)
