"""LAB EXPLAIN through the shell: the last recovery's ledger adds up to the depth each queue shows."""

from __future__ import annotations

import json

import pytest

from mqsh.recovery import ledger
from mqsh.shell.session import Session
from tests.recovery.helpers import run


def ledgers(session: Session) -> dict[str, dict]:
    """LAB EXPLAIN's records as --format json gives them: queue -> typed numbers."""
    session.output_format = "json"
    try:
        answer = json.loads(session.render(session.execute("LAB EXPLAIN")))
    finally:
        session.output_format = "mqsc"
    assert answer["ok"]
    return {record["QUEUE"]: record for record in answer["objects"]}


def curdepth(session: Session, queue: str) -> int:
    line = run(session, f"DISPLAY QLOCAL({queue}) CURDEPTH")[-1].strip()
    assert line.startswith("CURDEPTH("), line
    return int(line[len("CURDEPTH(") : -1])


def assert_adds_up(session: Session, records: dict[str, dict]) -> None:
    for queue, record in records.items():
        depth = curdepth(session, queue)
        assert record["CURDEPTH"] == depth, record
        assert (
            record["FOUND"] + record["PUT"] - record["GOT"] - record["BACKEDOUT"] - record["HELD"] == depth
        ), record
        if "ATFAILURE" in record:
            assert (
                record["ATFAILURE"]
                - record["NPDROPPED"]
                - record["BACKEDOUT"]
                + record["RESTORED"]
                - record["LOST"]
                == depth
            ), record


def test_before_any_recovery_none_is_recorded(session):
    assert run(session, "LAB EXPLAIN") == [
        (
            "No recovery of queue manager 'QM1' is recorded: it has not needed one "
            "since it was created, or the record of it cannot be read."
        )
    ]


def test_a_crash_with_a_unit_in_flight_and_non_persistent_messages(session):
    run(
        session,
        "DEFINE QLOCAL(A) DEFPSIST(YES)",
        "DEFINE QLOCAL(B)",
        "LAB PUT QUEUE(A) COUNT(6)",
        "LAB PUT QUEUE(B) COUNT(4)",
        "LAB PUT QUEUE(B) COUNT(2) PERSISTENT",
        "LAB GET QUEUE(A) COUNT(2)",
        "LAB PUT QUEUE(A) COUNT(3) SYNCPOINT",
        "LAB GET QUEUE(A) SYNCPOINT",
        "LAB CRASH",
        "strmqm QM1",
    )
    records = ledgers(session)
    a, b = records["A"], records["B"]
    assert (a["PUT"], a["GOT"], a["BACKEDOUT"], a["RESTORED"], a["ATFAILURE"], a["LOST"]) == (
        7,
        0,
        3,
        1,
        6,
        0,
    )
    assert (b["CURDEPTH"], b["ATFAILURE"], b["NPDROPPED"]) == (2, 6, 4)
    assert_adds_up(session, records)
    text = run(session, "LAB EXPLAIN")
    assert (
        text[0].startswith("Last recovery of queue manager 'QM1': restart at ")
        and "a crash (LAB CRASH)" in text[0]
    )
    assert "1 unit of work in flight backed out" in text[1] and text[2].strip().startswith(
        "S0000000.LOG  LSN 0 - "
    )
    assert (
        "Queue B against the failure: 6 at the failure - 4 non-persistent (never logged) = CURDEPTH(2)."
        in text
    )


def test_an_immediate_end_leaves_the_unit_to_the_next_start(session):
    run(
        session,
        "DEFINE QLOCAL(A) DEFPSIST(YES)",
        "LAB PUT QUEUE(A) COUNT(2)",
        "LAB PUT QUEUE(A) COUNT(2) SYNCPOINT",
        "endmqm -i QM1",
        "strmqm QM1",
    )
    records = ledgers(session)
    assert (records["A"]["FOUND"], records["A"]["BACKEDOUT"], records["A"]["CURDEPTH"]) == (4, 2, 2)
    assert "after endmqm -i at" in run(session, "LAB EXPLAIN")[0]
    assert_adds_up(session, records)


@pytest.fixture
def linear(data_dir):
    new = Session(data_dir)
    assert new.execute("crtmqm -ll QML").ok and new.execute("strmqm QML").ok
    new.current_qmgr = "QML"
    run(
        new,
        "DEFINE QLOCAL(PAY) DEFPSIST(YES)",
        "LAB PUT QUEUE(PAY) COUNT(10)",
        "LAB PUT QUEUE(PAY) COUNT(3) NONPERSISTENT",
        "rcdmqimg -m QML -t ql PAY",
        "LAB GET QUEUE(PAY) COUNT(4)",
        "LAB PUT QUEUE(PAY) COUNT(5)",
    )
    yield new
    new.close()


def test_rcrmqobj_counts_from_the_media_image(linear):
    run(linear, "LAB DAMAGE QUEUE(PAY) HOW(DELETE)", "rcrmqobj -m QML -t ql PAY")
    records = ledgers(linear)
    assert {key: records["PAY"][key] for key in ("FOUND", "FOUNDIN", "PUT", "GOT", "CURDEPTH")} == {
        "FOUND": 10,
        "FOUNDIN": "IMAGE",
        "PUT": 5,
        "GOT": 4,
        "CURDEPTH": 11,
    }
    assert_adds_up(linear, records)
    text = run(linear, "LAB EXPLAIN")
    assert text[0].startswith("Last recovery of queue manager 'QML': rcrmqobj at ")
    assert any(line.startswith("Media images read: PAY (LSN ") for line in text)
    assert (
        "Queue PAY: 10 from the media image + 5 put by the log replayed - 4 got by the log replayed "
        "= CURDEPTH(11)."
    ) in text


def test_rcrmqobj_on_a_running_queue_manager_holds_the_gets_of_open_units(linear):
    run(
        linear,
        "LAB GET QUEUE(PAY) COUNT(2) SYNCPOINT",
        "LAB DAMAGE QUEUE(PAY) HOW(DELETE)",
        "rcrmqobj -m QML -t ql PAY",
    )
    records = ledgers(linear)
    assert (records["PAY"]["HELD"], records["PAY"]["CURDEPTH"]) == (2, 9)
    assert_adds_up(linear, records)


def test_a_replicated_logs_automatic_recovery_is_told_as_rcrmqobjs_is(data_dir):
    ha = Session(data_dir)
    assert ha.execute("crtmqm -lr QMHA").ok and ha.execute("strmqm QMHA").ok
    ha.current_qmgr = "QMHA"
    run(
        ha,
        "LAB CLOCK SET('2026-03-05 09:00:00')",
        "DEFINE QLOCAL(EVENTS) DEFPSIST(YES)",
        "LAB PUT QUEUE(EVENTS) COUNT(6)",
        "rcdmqimg -m QMHA -t ql EVENTS",
        "LAB GET QUEUE(EVENTS) COUNT(2)",
        "LAB PUT QUEUE(EVENTS) COUNT(3)",
        "LAB OPEN QUEUE(EVENTS)",
        "LAB DAMAGE QUEUE(EVENTS) HOW(CORRUPT)",
        "LAB GET QUEUE(EVENTS)",
        "LAB CLOCK ADVANCE(1M)",
        "LAB CLOSE QUEUE(EVENTS)",
        "LAB CLOCK ADVANCE(1M)",
    )
    assert curdepth(ha, "EVENTS") == 7  # re-created by itself before the DISPLAY
    records = ledgers(ha)
    assert {key: records["EVENTS"][key] for key in ("FOUND", "FOUNDIN", "PUT", "GOT", "CURDEPTH")} == {
        "FOUND": 6,
        "FOUNDIN": "IMAGE",
        "PUT": 3,
        "GOT": 2,
        "CURDEPTH": 7,
    }
    assert_adds_up(ha, records)
    deferred = sum(line.startswith("AMQ7496W") for line in run(ha, "LAB ERRLOG"))
    assert deferred  # the open handle made it wait
    text = run(ha, "LAB EXPLAIN")
    assert text[0] == (
        "Last recovery of queue manager 'QMHA': automatic media recovery (replicated log) at "
        "2026-03-05 09:02:00, scheduled at 2026-03-05 09:00:00, when the damage was noticed; "
        f"{deferred} attempt{'s' if deferred > 1 else ''} deferred before it (the object is in use)."
    )
    assert any(line.startswith("Media images read: EVENTS (LSN ") for line in text)
    ha.close()


def test_a_damaged_queue_with_work_in_flight_comes_back_from_its_image_at_start(linear):
    run(
        linear,
        "LAB PUT QUEUE(PAY) COUNT(2) SYNCPOINT",
        "LAB GET QUEUE(PAY) SYNCPOINT",
        "LAB DAMAGE QUEUE(PAY) HOW(DELETE)",
        "LAB CRASH",
        "strmqm QML",
    )
    records = ledgers(linear)
    assert (records["PAY"]["FOUNDIN"], records["PAY"]["BACKEDOUT"], records["PAY"]["RESTORED"]) == (
        "IMAGE",
        2,
        1,
    )
    assert_adds_up(linear, records)


def test_a_queue_left_damaged_by_the_start_is_lost_until_rcrmqobj(linear):
    run(
        linear,
        "DEFINE QLOCAL(OTHER) DEFPSIST(YES)",
        "LAB PUT QUEUE(OTHER) COUNT(2)",
        "LAB DAMAGE QUEUE(PAY) HOW(DELETE)",
        "LAB CRASH",
        "strmqm QML",
    )
    records = ledgers(linear)
    assert records["PAY"]["DAMAGED"] == "YES" and records["PAY"]["LOST"] == 11
    assert records["PAY"]["ATFAILURE"] == 14 and records["PAY"]["NPDROPPED"] == 3
    assert (
        "Queue PAY is damaged: the queue is damaged: rcrmqobj re-creates it from its media image and the "
        "log. It held 14 at the failure, 3 of them non-persistent (never logged)."
        in run(linear, "LAB EXPLAIN")
    )
    assert_adds_up(linear, {"OTHER": records["OTHER"]})


@pytest.mark.parametrize("damage", [b"", b"MQSH1 0 5\n{}", b"\x00" * 40])
def test_a_missing_or_corrupt_record_says_none_is_recorded(session, damage):
    run(session, "DEFINE QLOCAL(A) DEFPSIST(YES)", "LAB PUT QUEUE(A)", "LAB CRASH", "strmqm QM1")
    path = session.installation.paths("QM1").qmgr_dir / ledger.EXPLAIN_FILE
    assert path.exists()
    path.write_bytes(damage)
    assert run(session, "LAB EXPLAIN")[0].startswith("No recovery of queue manager 'QM1' is recorded")


def test_a_missing_extent_passed_over_is_told_as_lost_with_its_reason(data_dir):
    session = Session(data_dir)
    run(session, "crtmqm -ll -lf 16 QI", "strmqm QI")
    session.current_qmgr = "QI"
    run(
        session,
        "DEFINE QLOCAL(Q) DEFPSIST(YES)",
        "LAB PUT QUEUE(Q) COUNT(5)",
        "RESET QMGR TYPE(ADVANCELOG)",
        "LAB PUT QUEUE(Q) COUNT(1500)",
        "LAB CRASH",
        "LAB DAMAGE EXTENT(S0000002.LOG) HOW(DELETE)",
    )
    assert (
        "AMQ6767E" in run(session, "strmqm QI")[1]
    )  # refused: the failure's record waits for the next start
    run(session, "strmqm --ignore-missing-log QI")
    records = ledgers(session)
    assert (records["Q"]["ATFAILURE"], records["Q"]["LOST"]) == (1505, 1505 - records["Q"]["CURDEPTH"])
    assert records["Q"]["LOST"] > 0
    assert_adds_up(session, records)
    text = run(session, "LAB EXPLAIN")
    assert "Extents missing and passed over: S0000002.LOG: their records are lost." in text
    assert any(line.strip().startswith("S0000003.LOG  LSN ") for line in text)
    assert any(
        "lost (records in S0000002.LOG were passed over (IgnoreMissingLogExtents))" in line for line in text
    )
    session.close()


def test_the_columnar_engine_leaves_the_same_ledger_as_the_reference(data_dir):
    """The ledger is counted from the messages the replay leaves, so every engine gives the same one."""
    from mqsh.recovery.engine import ReplayEngine

    found = {}
    for engine in ("reference", "local"):
        session = Session(data_dir / engine, engine=ReplayEngine(engine))
        run(session, "crtmqm -ll QE", "strmqm QE")
        session.current_qmgr = "QE"
        run(
            session,
            "DEFINE QLOCAL(A) DEFPSIST(YES)",
            "LAB PUT QUEUE(A) COUNT(5)",
            "rcdmqimg -m QE -t ql A",
            "LAB GET QUEUE(A) COUNT(2)",
            "LAB PUT QUEUE(A) COUNT(2) NONPERSISTENT",
            "LAB PUT QUEUE(A) COUNT(3) SYNCPOINT",
            "LAB GET QUEUE(A) SYNCPOINT",
            "LAB CRASH",
            "strmqm QE",
        )
        records = ledgers(session)
        assert_adds_up(session, records)
        assert f"replayed by the {engine} engine" in run(session, "LAB EXPLAIN")[1]
        found[engine] = records
        session.close()
    assert found["local"] == found["reference"]
