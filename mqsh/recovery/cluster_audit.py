"""The cluster audit: what seed 003 warns of, found in the cluster caches of many queue managers
before it bites - in this process with Arrow, or as one Spark job (mqsh.recovery.cluster_audit_spark).

Over every record of every cache (mqsh.model.cluster.dumps), with "full repository" meaning a
holder whose own queue-manager record in that cluster is QMTYPE REPOS:

    STALE        an owner's record whose sequence number is below the one the full repositories
                 hold: restored from a backup (or a DR copy's REFRESH ran ahead). Its re-publishes
                 are discarded; the full repositories delete the record 60 days past its expiry.
    DUPLICATE    a CLUSRCVR name claimed by more than one QMID: one row per QMID, in use or not.
    EXPIRED      a record past its expiry where it is held, and when it will be deleted there.
    UNREACHABLE  a member no full repository of its cluster knows (or knows as deleted).
    PHANTOM      a partial repository's queue record whose owner no longer has the queue.

Both engines give the same table (FINDINGS' columns, sorted); property tests hold them equal.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pyarrow as pa
import pyarrow.compute as pc

KEY = ["kind", "cluster", "qmid", "name"]
KEPT_AFTER_EXPIRY = 60 * 86400  # seconds
FINDINGS = pa.schema([
    ("finding", pa.string()), ("cluster", pa.string()), ("holder", pa.string()), ("kind", pa.string()),
    ("name", pa.string()), ("owner", pa.string()), ("qmid", pa.string()), ("seq", pa.int64()),
    ("held_seq", pa.int64()), ("deleted_on", pa.int64()), ("in_use", pa.bool_()),
])
ORDER = [("finding", "ascending"), ("cluster", "ascending"), ("name", "ascending"), ("qmid", "ascending"),
         ("holder", "ascending")]


# What each finding says; its other columns are null.
COLUMNS = {
    "STALE": ("cluster", "holder", "kind", "name", "owner", "qmid", "seq", "held_seq", "deleted_on"),
    "DUPLICATE": ("cluster", "kind", "name", "owner", "qmid", "in_use"),
    "EXPIRED": ("cluster", "holder", "kind", "name", "owner", "qmid", "seq", "deleted_on"),
    "UNREACHABLE": ("cluster", "holder", "kind", "name", "owner", "qmid"),
    "PHANTOM": ("cluster", "holder", "kind", "name", "owner", "qmid"),
}


def _shaped(table: pa.Table, finding: str) -> pa.Table:
    """A finding's rows with every column of FINDINGS."""
    kept = COLUMNS[finding]
    columns = {"finding": pa.array([finding] * len(table), pa.string())}
    for field in list(FINDINGS)[1:]:
        columns[field.name] = table[field.name].cast(field.type) if field.name in kept \
            else pa.nulls(len(table), field.type)
    return pa.table(columns, schema=FINDINGS)


def _full_repositories(records: pa.Table) -> pa.Table:
    """(holder, cluster) of every full repository."""
    mask = pc.and_(pc.and_(records["own"], pc.equal(records["kind"], "QMGR")),
                   pc.and_(pc.equal(records["qmtype"], "REPOS"), pc.invert(records["deleted"])))
    return records.filter(mask).select(["holder", "cluster"]).group_by(["holder", "cluster"]).aggregate([])


def audit(records: pa.Table, now: int) -> pa.Table:
    """Every finding, in process; now in epoch seconds."""
    full = _full_repositories(records)
    at_full = records.filter(pc.invert(records["own"])).join(full, ["holder", "cluster"], join_type="inner")
    parts = [_stale(records, at_full), _duplicates(records, at_full), _expired(records, now),
             _unreachable(records, full, at_full), _phantoms(records, full)]
    return pa.concat_tables(parts).sort_by(ORDER)


def _stale(records: pa.Table, at_full: pa.Table) -> pa.Table:
    held = at_full.group_by(KEY).aggregate([("seq", "max"), ("expiry", "max")])
    mine = records.filter(pc.and_(records["own"], pc.invert(records["deleted"])))
    joined = mine.join(held, KEY, join_type="inner")
    stale = joined.filter(pc.less(joined["seq"], joined["seq_max"]))
    deleted_on = pc.add(stale["expiry_max"], KEPT_AFTER_EXPIRY)
    return _shaped(stale.append_column("held_seq", stale["seq_max"]).append_column("deleted_on", deleted_on)
                   .append_column("owner", stale["qmname"]), "STALE")


def _duplicates(records: pa.Table, at_full: pa.Table) -> pa.Table:
    qmgrs = records.filter(pc.and_(pc.equal(records["kind"], "QMGR"), pc.invert(records["deleted"])))
    claims = qmgrs.group_by(["cluster", "channel", "qmid", "qmname"]).aggregate([])
    counted = claims.group_by(["cluster", "channel"]).aggregate([("qmid", "count")])
    twice = counted.filter(pc.greater(counted["qmid_count"], 1)).select(["cluster", "channel"])
    rows = claims.join(twice, ["cluster", "channel"], join_type="inner")
    # in use as the full repositories see it (any of them)
    seen = at_full.filter(pc.equal(at_full["kind"], "QMGR")).group_by(["cluster", "qmid"]).aggregate(
        [("in_use", "max")])
    rows = rows.join(seen, ["cluster", "qmid"], join_type="left outer")
    return _shaped(pa.table({"cluster": rows["cluster"], "kind": pa.array(["QMGR"] * len(rows), pa.string()),
                             "name": rows["channel"], "owner": rows["qmname"], "qmid": rows["qmid"],
                             "in_use": rows["in_use_max"]}), "DUPLICATE")


def _expired(records: pa.Table, now: int) -> pa.Table:
    mask = pc.and_(pc.and_(pc.invert(records["own"]), pc.invert(records["deleted"])),
                   pc.less(records["expiry"], now))
    expired = records.filter(mask)
    deleted_on = pc.add(expired["expiry"], KEPT_AFTER_EXPIRY)
    return _shaped(expired.append_column("deleted_on", deleted_on).append_column("owner", expired["qmname"]),
                   "EXPIRED")


def _unreachable(records: pa.Table, full: pa.Table, at_full: pa.Table) -> pa.Table:
    members = records.filter(pc.and_(pc.and_(records["own"], pc.equal(records["kind"], "QMGR")),
                                     pc.invert(records["deleted"])))
    judged = members.join(full.group_by(["cluster"]).aggregate([]), ["cluster"], join_type="inner")
    known = at_full.filter(pc.and_(pc.equal(at_full["kind"], "QMGR"), pc.invert(at_full["deleted"])))
    known = known.group_by(["cluster", "qmid"]).aggregate([])
    lost = judged.join(known, ["cluster", "qmid"], join_type="left anti")
    # A full repository is judged by the others: the only one of its cluster is not judged at all.
    partials = lost.join(full, ["holder", "cluster"], join_type="left anti")
    counted = full.group_by(["cluster"]).aggregate([("holder", "count")])
    others = counted.filter(pc.greater(counted["holder_count"], 1)).select(["cluster"])
    repositories = lost.join(full, ["holder", "cluster"], join_type="left semi").join(others, ["cluster"],
                                                                                       join_type="left semi")
    lost = pa.concat_tables([partials, repositories])
    return _shaped(lost.append_column("owner", lost["qmname"]), "UNREACHABLE")


def _phantoms(records: pa.Table, full: pa.Table) -> pa.Table:
    queues = records.filter(pc.and_(pc.equal(records["kind"], "QUEUE"), pc.invert(records["deleted"])))
    learnt = queues.filter(pc.invert(queues["own"])).join(full, ["holder", "cluster"], join_type="left anti")
    owners = records.filter(pc.and_(records["own"], pc.equal(records["kind"], "QMGR"))).group_by(["qmid"]).aggregate([])
    learnt = learnt.join(owners, ["qmid"], join_type="inner")  # owners whose cache is in the audit
    still = queues.filter(queues["own"]).select(["cluster", "qmid", "name"])
    gone = learnt.join(still, ["cluster", "qmid", "name"], join_type="left anti")
    return _shaped(gone.append_column("owner", gone["qmname"]), "PHANTOM")


def report_rows(findings: pa.Table, now: int) -> list[list[str]]:
    """The findings as the audit's table shows them: what, where, whose, and what it means."""
    rows = []
    for row in findings.to_pylist():
        rows.append([row["finding"], row["cluster"], row["holder"] or "", f"{row['kind']} {row['name']}",
                     row["owner"] or "", row["qmid"] or "", _meaning(row, now)])
    return rows


def _meaning(row: dict, now: int) -> str:
    finding = row["finding"]
    if finding in ("STALE", "EXPIRED"):
        when = datetime.fromtimestamp(row["deleted_on"], timezone.utc)
        days = (row["deleted_on"] - now) // 86400
        if finding == "EXPIRED":
            return f"not re-published; deleted here on {when:%Y-%m-%d} ({days} days)"
        if row["deleted_on"] <= now:
            return f"sequence number {row['seq']} below {row['held_seq']}: deleted on {when:%Y-%m-%d}; REFRESH CLUSTER"
        return (f"sequence number {row['seq']} below {row['held_seq']}: re-publishes discarded, gone in {days} "
                f"days ({when:%Y-%m-%d}) unless REFRESH CLUSTER")
    if finding == "DUPLICATE":
        return "in use" if row["in_use"] else "not in use"
    if finding == "UNREACHABLE":
        return "no full repository of the cluster knows it"
    return "its owner no longer has the queue"
