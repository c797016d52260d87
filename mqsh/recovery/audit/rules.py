"""The cluster audit: what a queue manager restored from a backup or copied for DR does to a
cluster, found in the cluster caches of many queue managers before it bites - in this process with Arrow, or as one Spark job (mqsh.recovery.audit.spark).

Over every record of every cache (mqsh.recovery.audit.dumps), with "full repository" meaning a
holder whose own queue-manager record in that cluster is QMTYPE REPOS:

    STALE        an owner's record whose sequence number is below the one the full repositories
                 hold: restored from a backup (or a DR copy's REFRESH ran ahead). Its re-publishes
                 are discarded; the full repositories delete the record 60 days past its expiry.
    DUPLICATE    a CLUSRCVR name claimed by more than one QMID: one row per QMID, in use or not.
    EXPIRED      a record past its expiry where it is held, and when it will be deleted there.
    UNREACHABLE  a member no full repository of its cluster knows (or knows as deleted).
    PHANTOM      a partial repository's queue record whose owner no longer has the queue.
    OVERRIDE     one record owned by two queue managers (a DR copy with the production QMID) at
                 one sequence number with different contents: each owner's copy. The full
                 repositories keep whichever came first and discard the other as not newer, so
                 the cluster may hold the DR copy's record in place of production's (the DR
                 copy's updates override production's).

Both engines take the same two passes over the records (one folds each record's copies into
numbers and flags the few a finding is about, one names them where they are held) and give the
same table (FINDINGS' columns, sorted); tests hold them equal.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pyarrow as pa
import pyarrow.compute as pc

from mqsh.recovery.audit.dumps import numbered

KEPT_AFTER_EXPIRY = 60 * 86400  # seconds
FINDINGS = pa.schema(
    [
        ("finding", pa.string()),
        ("cluster", pa.string()),
        ("holder", pa.string()),
        ("kind", pa.string()),
        ("name", pa.string()),
        ("owner", pa.string()),
        ("qmid", pa.string()),
        ("seq", pa.int64()),
        ("held_seq", pa.int64()),
        ("deleted_on", pa.int64()),
        ("in_use", pa.bool_()),
    ]
)
ORDER = [
    ("finding", "ascending"),
    ("cluster", "ascending"),
    ("name", "ascending"),
    ("qmid", "ascending"),
    ("holder", "ascending"),
]


# What each finding says; its other columns are null.
COLUMNS = {
    "STALE": ("cluster", "holder", "kind", "name", "owner", "qmid", "seq", "held_seq", "deleted_on"),
    "DUPLICATE": ("cluster", "kind", "name", "owner", "qmid", "in_use"),
    "EXPIRED": ("cluster", "holder", "kind", "name", "owner", "qmid", "seq", "deleted_on"),
    "UNREACHABLE": ("cluster", "holder", "kind", "name", "owner", "qmid"),
    "PHANTOM": ("cluster", "holder", "kind", "name", "owner", "qmid"),
    "OVERRIDE": ("cluster", "holder", "kind", "name", "owner", "qmid", "seq"),
}


def _shaped(table: pa.Table, finding: str) -> pa.Table:
    """A finding's rows with every column of FINDINGS."""
    kept = COLUMNS[finding]
    columns = {"finding": pa.array([finding] * len(table), pa.string())}
    for field in list(FINDINGS)[1:]:
        columns[field.name] = (
            table[field.name].cast(field.type) if field.name in kept else pa.nulls(len(table), field.type)
        )
    return pa.table(columns, schema=FINDINGS)


def _where(mask: pa.ChunkedArray, values: pa.ChunkedArray) -> pa.ChunkedArray:
    """values where mask holds, null elsewhere: what a conditional aggregate reads."""
    return pc.if_else(mask, values, pa.nulls(len(values), values.type))


def _not(column: pa.ChunkedArray) -> pa.ChunkedArray:
    return pc.invert(column)


def audit(records: pa.Table, now: int) -> pa.Table:
    """Every finding, in process; now in epoch seconds. The steps are the Spark query's; records
    not yet combined (no key) are numbered first."""
    if len(records) and records["key"].null_count:
        records = numbered(records)
    qmgrs = records.filter(pc.equal(records["kind"], "QMGR"))
    full = qmgrs.filter(
        pc.and_(pc.and_(qmgrs["own"], pc.equal(qmgrs["qmtype"], "REPOS")), _not(qmgrs["deleted"]))
    )
    full = full.group_by(["holder", "cluster"]).aggregate([])
    counted = (
        full.group_by(["cluster"])
        .aggregate([("holder", "count")])
        .rename_columns(["cluster", "repositories"])
    )
    owners = qmgrs.filter(qmgrs["own"]).group_by(["qmid"]).aggregate([])
    tagged = records.join(
        full.append_column("at_fr", pa.array([True] * len(full), pa.bool_())),
        ["holder", "cluster"],
        join_type="left outer",
    ).join(counted, ["cluster"], join_type="left outer")
    tagged = tagged.set_column(
        tagged.schema.get_field_index("at_fr"), "at_fr", pc.fill_null(tagged["at_fr"], False)
    )
    rows = _rows(tagged, _flagged(tagged), owners, now)
    return pa.concat_tables([_named(rows, now), _duplicates(qmgrs, full)]).sort_by(ORDER)


def _flagged(tagged: pa.Table) -> pa.Table:
    """Every record once, numbers only - what its owner says, what the full repositories hold -
    and of those the few a finding is about."""
    own, deleted, at_fr = tagged["own"], tagged["deleted"], tagged["at_fr"]
    held = pc.and_(at_fr, _not(own))
    standing = pc.and_(own, _not(deleted))
    mine = _where(standing, tagged["seq"])
    keys = (
        pa.table(
            {
                "key": tagged["key"],
                "own_seq": mine,
                "low_seq": mine,
                "held_seq": _where(held, tagged["seq"]),
                "held_expiry": _where(held, tagged["expiry"]),
                "known": pc.and_(held, _not(deleted)),
                "contents": _where(standing, tagged["content"]),
            }
        )
        .group_by(["key"])
        .aggregate(
            [
                ("own_seq", "max"),
                ("low_seq", "min"),
                ("held_seq", "max"),
                ("held_expiry", "max"),
                ("known", "any"),
                ("contents", "count_distinct"),
            ]
        )
    )
    keys = keys.rename_columns(["key", "own_seq", "low_seq", "held_seq", "held_expiry", "known", "contents"])
    stale = pc.fill_null(pc.less(keys["low_seq"], keys["held_seq"]), False)
    ownerless = pc.is_null(keys["own_seq"])
    unknown = pc.and_(_not(ownerless), _not(pc.fill_null(keys["known"], False)))
    # owners that agree on the sequence number and not on the record
    override = pc.fill_null(
        pc.and_(pc.equal(keys["own_seq"], keys["low_seq"]), pc.greater(keys["contents"], 1)), False
    )
    flagged = pa.table(
        {
            "key": keys["key"],
            "stale": stale,
            "unknown": unknown,
            "ownerless": ownerless,
            "override": override,
            "held_seq": keys["held_seq"],
            "held_expiry": keys["held_expiry"],
        }
    )
    return flagged.filter(pc.or_(pc.or_(pc.or_(stale, ownerless), unknown), override))


def _rows(tagged: pa.Table, flagged: pa.Table, owners: pa.Table, now: int) -> pa.Table:
    """The second pass: the records the findings name, where they are held."""
    rows = tagged.join(
        flagged.append_column("flagged", pa.array([True] * len(flagged), pa.bool_())),
        ["key"],
        join_type="left outer",
    )
    rows = rows.join(
        owners.append_column("audited", pa.array([True] * len(owners), pa.bool_())),
        ["qmid"],
        join_type="left outer",
    )
    own, standing = rows["own"], _not(rows["deleted"])
    ownerless = pc.fill_null(rows["ownerless"], False)
    mine = pc.and_(pc.and_(pc.fill_null(rows["flagged"], False), own), standing)
    learnt = pc.and_(
        pc.and_(_not(own), standing),
        pc.or_(
            pc.less(rows["expiry"], now),
            pc.and_(pc.and_(ownerless, pc.equal(rows["kind"], "QUEUE")), _not(rows["at_fr"])),
        ),
    )
    rows = rows.filter(pc.or_(mine, learnt))
    for name in ("stale", "unknown", "ownerless", "override", "audited"):
        rows = rows.set_column(rows.schema.get_field_index(name), name, pc.fill_null(rows[name], False))
    return rows


def _named(rows: pa.Table, now: int) -> pa.Table:
    own, at_fr, repositories = rows["own"], rows["at_fr"], rows["repositories"]
    conditions = {
        # each owner's copy: a DR twin with the same QMID has its own
        "STALE": pc.and_(
            pc.and_(own, rows["stale"]), pc.fill_null(pc.less(rows["seq"], rows["held_seq"]), False)
        ),
        "UNREACHABLE": pc.and_(
            pc.and_(pc.and_(own, rows["unknown"]), pc.equal(rows["kind"], "QMGR")),
            pc.and_(
                pc.is_valid(repositories), pc.or_(_not(at_fr), pc.greater(pc.fill_null(repositories, 0), 1))
            ),
        ),
        "EXPIRED": pc.and_(_not(own), pc.less(rows["expiry"], now)),
        "PHANTOM": pc.and_(
            pc.and_(pc.and_(_not(own), rows["ownerless"]), rows["audited"]),
            pc.and_(pc.equal(rows["kind"], "QUEUE"), _not(at_fr)),
        ),
        "OVERRIDE": pc.and_(own, rows["override"]),
    }
    parts = []
    for finding, condition in conditions.items():
        found = rows.filter(condition)
        found = found.append_column("owner", found["qmname"])
        if finding == "STALE":
            found = found.append_column("deleted_on", pc.add(found["held_expiry"], KEPT_AFTER_EXPIRY))
        elif finding == "EXPIRED":
            found = found.append_column("deleted_on", pc.add(found["expiry"], KEPT_AFTER_EXPIRY))
        parts.append(_shaped(found, finding))
    return pa.concat_tables(parts)


def _duplicates(qmgrs: pa.Table, full: pa.Table) -> pa.Table:
    claims = (
        qmgrs.filter(_not(qmgrs["deleted"])).group_by(["cluster", "channel", "qmid", "qmname"]).aggregate([])
    )
    counted = claims.group_by(["cluster", "channel"]).aggregate([("qmid", "count")])
    rows = claims.join(
        counted.filter(pc.greater(counted["qmid_count"], 1)), ["cluster", "channel"], join_type="inner"
    )
    at_full = qmgrs.filter(_not(qmgrs["own"])).join(full, ["holder", "cluster"], join_type="inner")
    seen = at_full.group_by(["cluster", "qmid"]).aggregate([("in_use", "max")])
    rows = rows.join(seen, ["cluster", "qmid"], join_type="left outer")
    return _shaped(
        pa.table(
            {
                "cluster": rows["cluster"],
                "kind": pa.array(["QMGR"] * len(rows), pa.string()),
                "name": rows["channel"],
                "owner": rows["qmname"],
                "qmid": rows["qmid"],
                "in_use": rows["in_use_max"],
            }
        ),
        "DUPLICATE",
    )


def report_rows(findings: pa.Table, now: int) -> list[list[str]]:
    """The findings as the audit's table shows them: what, where, whose, and what it means."""
    rows = []
    for row in findings.to_pylist():
        rows.append(
            [
                row["finding"],
                row["cluster"],
                row["holder"] or "",
                f"{row['kind']} {row['name']}",
                row["owner"] or "",
                row["qmid"] or "",
                _meaning(row, now),
            ]
        )
    return rows


def _meaning(row: dict, now: int) -> str:
    finding = row["finding"]
    if finding in ("STALE", "EXPIRED"):
        when = datetime.fromtimestamp(row["deleted_on"], UTC)
        days = (row["deleted_on"] - now) // 86400
        if finding == "EXPIRED":
            return f"not re-published; deleted here on {when:%Y-%m-%d} ({days} days)"
        if row["deleted_on"] <= now:
            return f"sequence number {row['seq']} below {row['held_seq']}: deleted on {when:%Y-%m-%d}; REFRESH CLUSTER"
        return (
            f"sequence number {row['seq']} below {row['held_seq']}: re-publishes discarded, gone in {days} "
            f"days ({when:%Y-%m-%d}) unless REFRESH CLUSTER"
        )
    if finding == "DUPLICATE":
        if row["in_use"] is None:
            return "not known to the full repositories"
        return "in use" if row["in_use"] else "not in use"
    if finding == "UNREACHABLE":
        return "no full repository of the cluster knows it"
    if finding == "OVERRIDE":
        return (
            f"another owner of this QMID publishes other contents at sequence number {row['seq']}: "
            f"the full repositories keep whichever came first; stop the copy that should not publish"
        )
    return "its owner no longer has the queue"
