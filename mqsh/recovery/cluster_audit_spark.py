"""The cluster audit as one Spark job: the rules of mqsh.recovery.cluster_audit in one SQL query
over the cache dumps, read by Spark straight from their Parquet files.

A cluster or Spark Connect server must see the same paths (a shared file system), as for the
log extents' Parquet copies.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from mqsh.recovery.cluster_audit import FINDINGS, KEPT_AFTER_EXPIRY, ORDER
from mqsh.recovery.spark_session import planning_failures

AUDIT = f"""
WITH fr AS (
  SELECT DISTINCT holder, cluster FROM {{records}}
  WHERE own AND kind = 'QMGR' AND qmtype = 'REPOS' AND NOT deleted
), at_full AS (
  SELECT r.* FROM {{records}} r JOIN fr ON r.holder = fr.holder AND r.cluster = fr.cluster WHERE NOT r.own
), held AS (
  SELECT kind, cluster, qmid, name, max(seq) AS held_seq, max(expiry) AS held_expiry
  FROM at_full GROUP BY kind, cluster, qmid, name
), claims AS (
  SELECT DISTINCT cluster, channel, qmid, qmname FROM {{records}} WHERE kind = 'QMGR' AND NOT deleted
), twice AS (
  SELECT cluster, channel FROM claims GROUP BY cluster, channel HAVING count(*) > 1
), seen AS (
  SELECT cluster, qmid, max(in_use) AS in_use FROM at_full WHERE kind = 'QMGR' GROUP BY cluster, qmid
), known AS (
  SELECT DISTINCT cluster, qmid FROM at_full WHERE kind = 'QMGR' AND NOT deleted
), fr_count AS (
  SELECT cluster, count(*) AS n FROM fr GROUP BY cluster
), members AS (
  SELECT m.*, f.holder IS NOT NULL AS is_full, c.n
  FROM {{records}} m JOIN fr_count c ON m.cluster = c.cluster
  LEFT JOIN fr f ON m.holder = f.holder AND m.cluster = f.cluster
  WHERE m.own AND m.kind = 'QMGR' AND NOT m.deleted
), owners AS (
  SELECT DISTINCT qmid FROM {{records}} WHERE own AND kind = 'QMGR'
), still AS (
  SELECT DISTINCT cluster, qmid, name FROM {{records}} WHERE own AND kind = 'QUEUE' AND NOT deleted
)
SELECT 'STALE' AS finding, o.cluster, o.holder, o.kind, o.name, o.qmname AS owner, o.qmid, o.seq, h.held_seq,
       h.held_expiry + {KEPT_AFTER_EXPIRY} AS deleted_on, CAST(NULL AS BOOLEAN) AS in_use
FROM {{records}} o JOIN held h ON o.kind = h.kind AND o.cluster = h.cluster AND o.qmid = h.qmid AND o.name = h.name
WHERE o.own AND NOT o.deleted AND o.seq < h.held_seq
UNION ALL
SELECT 'DUPLICATE', c.cluster, NULL, 'QMGR', c.channel, c.qmname, c.qmid, NULL, NULL, NULL, s.in_use
FROM claims c JOIN twice t ON c.cluster = t.cluster AND c.channel = t.channel
LEFT JOIN seen s ON c.cluster = s.cluster AND c.qmid = s.qmid
UNION ALL
SELECT 'EXPIRED', cluster, holder, kind, name, qmname, qmid, seq, NULL, expiry + {KEPT_AFTER_EXPIRY}, NULL
FROM {{records}} WHERE NOT own AND NOT deleted AND expiry < :now
UNION ALL
SELECT 'UNREACHABLE', m.cluster, m.holder, m.kind, m.name, m.qmname, m.qmid, NULL, NULL, NULL, NULL
FROM members m LEFT ANTI JOIN known k ON m.cluster = k.cluster AND m.qmid = k.qmid
WHERE NOT m.is_full OR m.n > 1
UNION ALL
SELECT 'PHANTOM', q.cluster, q.holder, q.kind, q.name, q.qmname, q.qmid, NULL, NULL, NULL, NULL
FROM {{records}} q
LEFT ANTI JOIN fr ON q.holder = fr.holder AND q.cluster = fr.cluster
LEFT SEMI JOIN owners w ON q.qmid = w.qmid
LEFT ANTI JOIN still s ON q.cluster = s.cluster AND q.qmid = s.qmid AND q.name = s.name
WHERE q.kind = 'QUEUE' AND NOT q.own AND NOT q.deleted
"""


def audit(runner, folder: Path, now: int) -> pa.Table:
    """Every finding of the dumps in folder (mqsh.model.cluster.dumps), in one Spark job on runner
    (mqsh.recovery.spark_session.SparkRunner); now in epoch seconds."""
    files = [str(path) for path in sorted(folder.glob("*.parquet"))]

    def work() -> pa.Table:
        spark = runner.session()
        with planning_failures():
            records = spark.read.parquet(*files)
            query = spark.sql(AUDIT, args={"now": now}, records=records)
            rows = runner.run(query.toArrow)
        return pa.table({field.name: rows[field.name].cast(field.type) for field in FINDINGS},
                        schema=FINDINGS).sort_by(ORDER)

    if not files:
        return FINDINGS.empty_table()
    return runner.call(work)
