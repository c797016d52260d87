"""The cluster audit as one Spark query: the rules of mqsh.recovery.audit.rules over the combined
cache dump, read by Spark straight from its Parquet file. Two passes over the records: the first
folds every record's copies into one row of numbers (what its owner says, what the full
repositories hold) and flags the few a finding is about; the second names them where they are held.

A cluster or Spark Connect server must see the same paths (a shared file system), as for the
log extents' Parquet copies.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from mqsh.recovery.audit.dumps import COLLECTED
from mqsh.recovery.audit.rules import FINDINGS, KEPT_AFTER_EXPIRY, ORDER
from mqsh.recovery.spark.session import cores, planning_failures

AUDIT = f"""
WITH qmgrs AS (  -- the queue-manager records: few
  SELECT * FROM {{records}} WHERE kind = 'QMGR'
), fr AS (
  SELECT DISTINCT holder, cluster FROM qmgrs WHERE own AND qmtype = 'REPOS' AND NOT deleted
), fr_count AS (
  SELECT cluster, count(*) AS n FROM fr GROUP BY cluster
), owners AS (  -- the queue managers whose own cache is in the audit
  SELECT DISTINCT qmid FROM qmgrs WHERE own
), tagged AS (  -- every record, with whether a full repository holds it and how many its cluster has
  SELECT /*+ BROADCAST(fr), BROADCAST(c) */ r.*, fr.holder IS NOT NULL AS at_fr, c.n AS repositories
  FROM {{records}} r LEFT JOIN fr ON r.holder = fr.holder AND r.cluster = fr.cluster
  LEFT JOIN fr_count c ON r.cluster = c.cluster
), keys AS (  -- every record once, numbers only: what its owner says, what the full repositories hold
  SELECT key, max(IF(own AND NOT deleted, seq, NULL)) AS own_seq, min(IF(own AND NOT deleted, seq, NULL)) AS low_seq,
         max(IF(at_fr AND NOT own, seq, NULL)) AS held_seq,
         max(IF(at_fr AND NOT own, expiry, NULL)) AS held_expiry,
         bool_or(at_fr AND NOT own AND NOT deleted) AS known,
         count(DISTINCT IF(own AND NOT deleted, content, NULL)) AS contents
  FROM tagged GROUP BY key
), flagged AS (  -- the few records a finding is about
  SELECT key, low_seq < held_seq AS stale, own_seq IS NOT NULL AND NOT coalesce(known, false) AS unknown,
         own_seq IS NULL AS ownerless, coalesce(own_seq = low_seq AND contents > 1, false) AS override,
         held_seq, held_expiry
  FROM keys WHERE low_seq < held_seq OR own_seq IS NULL OR NOT coalesce(known, false)
     OR (own_seq = low_seq AND contents > 1)
), rows AS (  -- one more pass over the records: the findings, named where they are held
  SELECT /*+ BROADCAST(f), BROADCAST(o) */ t.*, f.stale, f.unknown, f.override, f.held_seq, f.held_expiry,
         f.ownerless AND o.qmid IS NOT NULL AS gone
  FROM tagged t LEFT JOIN flagged f ON t.key = f.key LEFT JOIN owners o ON t.qmid = o.qmid
  WHERE (f.key IS NOT NULL AND t.own AND NOT t.deleted)
     OR (NOT t.own AND NOT t.deleted AND (t.expiry < :now OR (f.ownerless AND t.kind = 'QUEUE' AND NOT t.at_fr)))
), claims AS (
  SELECT DISTINCT cluster, channel, qmid, qmname FROM qmgrs WHERE NOT deleted
), seen AS (
  SELECT /*+ BROADCAST(fr) */ q.cluster, q.qmid, max(q.in_use) AS in_use
  FROM qmgrs q JOIN fr ON q.holder = fr.holder AND q.cluster = fr.cluster WHERE NOT q.own GROUP BY q.cluster, q.qmid
)
SELECT finding, cluster, holder, kind, name, qmname AS owner, qmid,
       IF(finding IN ('STALE', 'EXPIRED', 'OVERRIDE'), seq, NULL) AS seq, IF(finding = 'STALE', held_seq, NULL) AS held_seq,
       CASE finding WHEN 'STALE' THEN held_expiry + {KEPT_AFTER_EXPIRY} WHEN 'EXPIRED' THEN expiry + {KEPT_AFTER_EXPIRY} END AS deleted_on,
       CAST(NULL AS BOOLEAN) AS in_use
FROM rows LATERAL VIEW explode(filter(array(
    IF(own AND stale AND seq < held_seq, 'STALE', NULL),  -- each owner's copy (a DR twin has its own)
    IF(own AND unknown AND kind = 'QMGR' AND repositories IS NOT NULL AND (NOT at_fr OR repositories > 1),
       'UNREACHABLE', NULL),
    IF(NOT own AND expiry < :now, 'EXPIRED', NULL),
    IF(NOT own AND gone AND kind = 'QUEUE' AND NOT at_fr, 'PHANTOM', NULL),
    IF(own AND override, 'OVERRIDE', NULL)), found -> found IS NOT NULL)) f AS finding
UNION ALL
SELECT 'DUPLICATE', c.cluster, NULL, 'QMGR', c.channel, c.qmname, c.qmid, NULL, NULL, NULL, s.in_use
FROM (SELECT *, count(*) OVER (PARTITION BY cluster, channel) AS claimed FROM claims) c
LEFT JOIN seen s ON c.cluster = s.cluster AND c.qmid = s.qmid WHERE c.claimed > 1
"""


def audit(runner, folder: Path, now: int) -> pa.Table:
    """Every finding of the combined dump in folder (mqsh.recovery.audit.dumps.combine), in one Spark
    query on runner (mqsh.recovery.spark.session.SparkRunner); now in epoch seconds."""
    path = folder / COLLECTED

    def work() -> pa.Table:
        spark = runner.session()
        # After the fold in the reading pass about one row a record is left to shuffle: a partition
        # a core does it with the fewest tasks (4.2 s against 5.2 s at three a core, 1 M records).
        saved = spark.conf.get("spark.sql.shuffle.partitions")
        spark.conf.set("spark.sql.shuffle.partitions", str(cores(runner.master)))
        try:
            with planning_failures():
                query = spark.sql(AUDIT, args={"now": now}, records=spark.read.parquet(str(path)))
                rows = runner.run(query.toArrow)
        finally:
            spark.conf.set("spark.sql.shuffle.partitions", saved)
        return pa.table(
            {field.name: rows[field.name].cast(field.type) for field in FINDINGS}, schema=FINDINGS
        ).sort_by(ORDER)

    if not path.exists():
        return FINDINGS.empty_table()
    return runner.call(work)
