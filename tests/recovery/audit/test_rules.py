"""The cluster audit's rules, in process and as one Spark job: the same findings from the same caches."""

from __future__ import annotations

import random

import pyarrow as pa
import pyarrow.parquet as pq

from mqsh.recovery.audit import dumps
from mqsh.recovery.audit import rules as cluster_audit
from mqsh.recovery.audit import spark as cluster_audit_spark
from mqsh.recovery.audit.dumps import SCHEMA

DAY = 86400
NOW = 1_790_000_000


def record(
    holder,
    kind,
    name,
    qmname,
    qmid=None,
    *,
    seq=100,
    expiry=NOW + 10 * DAY,
    deleted=False,
    in_use=True,
    own=False,
    channel="",
    qmtype="",
    cluster="DEMO",
):
    return {
        "holder": holder,
        "kind": kind,
        "cluster": cluster,
        "qmid": qmid or f"{qmname}_1",
        "name": name,
        "qmname": qmname,
        "seq": seq,
        "expiry": expiry,
        "deleted": deleted,
        "in_use": in_use,
        "own": own,
        "channel": channel,
        "qmtype": qmtype,
        "key": None,
    }


def qmgr(holder, qmname, *, full=False, qmid=None, channel=None, **more):
    return record(
        holder,
        "QMGR",
        qmname,
        qmname,
        qmid,
        channel=channel or f"TO.{qmname}",
        qmtype="REPOS" if full else "NORMAL",
        own=holder == qmname and qmid is None or more.pop("own", False),
        **more,
    )


def healthy() -> list[dict]:
    """FR1 and FR2 full repositories, PA owning APP.Q, PB using it: nothing to find."""
    rows = []
    members = {"FR1": True, "FR2": True, "PA": False, "PB": False}
    for holder, full in members.items():
        rows.append(qmgr(holder, holder, full=full))
        if full:
            rows += [qmgr(holder, other, full=members[other]) for other in members if other != holder]
            rows.append(record(holder, "QUEUE", "APP.Q", "PA"))
    rows.append(record("PA", "QUEUE", "APP.Q", "PA", own=True))
    rows += [
        qmgr("PA", "FR1", full=True),
        qmgr("PB", "FR1", full=True),
        qmgr("PB", "PA"),
        record("PB", "QUEUE", "APP.Q", "PA"),
    ]
    return rows


def table(rows) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=SCHEMA)


def findings(rows) -> list[tuple]:
    found = cluster_audit.audit(table(rows), NOW)
    return [
        (row["finding"], row["holder"], row["kind"], row["name"], row["qmid"]) for row in found.to_pylist()
    ]


def test_a_healthy_cluster_has_nothing_to_find():
    assert findings(healthy()) == []


def test_an_owner_behind_its_full_repositories_is_stale_and_says_when_its_queue_goes():
    rows = [dict(row, seq=94) if row["own"] and row["name"] == "APP.Q" else row for row in healthy()]
    found = cluster_audit.audit(table(rows), NOW).to_pylist()
    assert [(row["finding"], row["holder"], row["seq"], row["held_seq"]) for row in found] == [
        ("STALE", "PA", 94, 100)
    ]
    assert found[0]["deleted_on"] == NOW + 70 * DAY
    assert "gone in 70 days" in cluster_audit.report_rows(cluster_audit.audit(table(rows), NOW), NOW)[0][6]


def test_one_clusrcvr_name_with_two_qmids_is_a_duplicate_in_use_or_not():
    rows = healthy() + [
        qmgr("PADR", "PADR", channel="TO.PA"),
        qmgr("FR1", "PADR", channel="TO.PA"),
        qmgr("FR2", "PADR", channel="TO.PA"),
    ]
    rows = [
        dict(row, in_use=False) if row["holder"] in ("FR1", "FR2") and row["name"] == "PA" else row
        for row in rows
    ]
    found = cluster_audit.audit(table(rows), NOW).to_pylist()
    assert [(row["finding"], row["name"], row["owner"], row["in_use"]) for row in found] == [
        ("DUPLICATE", "TO.PA", "PADR", True),
        ("DUPLICATE", "TO.PA", "PA", False),
    ]  # by QMID


def test_records_past_expiry_are_reported_where_they_are_held():
    rows = [
        dict(row, expiry=NOW - 5 * DAY) if row["holder"] == "PB" and row["name"] == "APP.Q" else row
        for row in healthy()
    ]
    assert findings(rows) == [("EXPIRED", "PB", "QUEUE", "APP.Q", "PA_1")]


def test_a_member_no_full_repository_knows_is_unreachable():
    rows = [row for row in healthy() if not (row["holder"] in ("FR1", "FR2") and row["name"] == "PB")]
    assert findings(rows) == [("UNREACHABLE", "PB", "QMGR", "PB", "PB_1")]
    alone = [row for row in healthy() if row["holder"] != "FR2" and row["name"] != "FR2"]
    assert findings(alone) == []  # the only full repository is not judged by itself


def test_a_partial_that_knows_a_queue_its_owner_deleted_holds_a_phantom():
    rows = [dict(row, deleted=True) if row["own"] and row["name"] == "APP.Q" else row for row in healthy()]
    assert ("PHANTOM", "PB", "QUEUE", "APP.Q", "PA_1") in findings(rows)


def dr_twin(rows, *, seq=100, content='{"CONNAME": "pa-dr(1414)"}') -> list[dict]:
    """PA's DR copy, restored from PA's files (same QMID), owning PA's record and queue too."""
    production = [
        dict(row, content='{"CONNAME": "pa(1414)"}') if row["own"] and row["holder"] == "PA" else row
        for row in rows
    ]
    return production + [
        dict(row, holder="PADR", seq=seq, content=content)
        for row in production
        if row["own"] and row["holder"] == "PA"
    ]


def test_two_owners_of_one_record_at_one_sequence_number_with_other_contents_override():
    found = cluster_audit.audit(table(dr_twin(healthy())), NOW).to_pylist()
    assert [
        (row["finding"], row["holder"], row["kind"], row["name"], row["qmid"], row["seq"]) for row in found
    ] == [
        ("OVERRIDE", "PA", "QUEUE", "APP.Q", "PA_1", 100),
        ("OVERRIDE", "PADR", "QUEUE", "APP.Q", "PA_1", 100),
        ("OVERRIDE", "PA", "QMGR", "PA", "PA_1", 100),
        ("OVERRIDE", "PADR", "QMGR", "PA", "PA_1", 100),
    ]
    assert (
        "sequence number 100"
        in cluster_audit.report_rows(cluster_audit.audit(table(dr_twin(healthy())), NOW), NOW)[0][6]
    )


def test_owners_that_agree_or_publish_in_turn_do_not_override():
    assert findings(dr_twin(healthy(), content='{"CONNAME": "pa(1414)"}')) == []  # the same record
    assert findings(dr_twin(healthy(), seq=101)) == []  # the newer is taken, the older re-asserted later
    assert findings(dr_twin(healthy(), content=None)) == []  # a dump without contents cannot tell


def test_spark_finds_what_the_process_finds(tmp_path, spark_runner):
    generator = random.Random(3)
    for case in range(4):
        rows = dr_twin(healthy(), seq=generator.choice([100, 101]))
        for holder in ("PC", "PD", "PE"):
            rows.append(qmgr(holder, holder))
            for full in ("FR1", "FR2"):
                if generator.random() < 0.7:
                    rows.append(qmgr(full, holder))
        rows = [
            dict(
                row,
                seq=row["seq"] - generator.choice([0, 0, 3]),
                expiry=row["expiry"] - generator.choice([0, 0, 20 * DAY]),
                deleted=row["deleted"] or generator.random() < 0.1,
            )
            for row in rows
        ]
        raw, folder = tmp_path / f"raw{case}", tmp_path / f"case{case}"
        raw.mkdir()
        for holder in sorted(
            {row["holder"] for row in rows}
        ):  # dumps of one queue manager each, as collected
            pq.write_table(table([row for row in rows if row["holder"] == holder]), raw / f"{holder}.parquet")
        dumps.combine(dumps.read_folder(raw), folder)
        expected = cluster_audit.audit(table(rows), NOW)
        assert len(expected) > 0
        assert cluster_audit_spark.audit(spark_runner, folder, NOW).equals(expected)
