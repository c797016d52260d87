"""DISPLAY CONN and STOP CONN: finding the application with a long-running unit of work, and
breaking its connection."""

from __future__ import annotations

import re


def _shown(result) -> dict[str, str]:
    return dict(result.responses[0].attributes)


def test_the_application_connects_with_its_first_call(session):
    assert session.execute("DISPLAY CONN(*)").responses[0].line() == "AMQ8147E: IBM MQ object * not found."
    session.execute("DEFINE QLOCAL(Q1) DEFPSIST(YES)")
    session.execute("LAB PUT QUEUE(Q1) COUNT(3)")
    summary = session.execute("DISPLAY CONN(*)").responses[0]
    assert [name for name, _ in summary.attributes] == ["CONN", "EXTCONN", "TYPE"]
    shown = dict(summary.attributes)
    assert re.fullmatch(r"[0-9A-F]{16}", shown["CONN"]) and shown["TYPE"] == "CONN"
    full = _shown(session.execute(f"DISPLAY CONN({shown['CONN']}) TYPE(CONN) ALL"))
    assert full["UOWSTATE"] == "NONE" and full["UOWLOG"] == " " and full["APPLTYPE"] == "USER"


def test_a_unit_of_work_shows_where_it_began_in_the_log(session):
    session.execute("DEFINE QLOCAL(Q1) DEFPSIST(YES)")
    session.execute("LAB PUT QUEUE(Q1) COUNT(2) SYNCPOINT")
    shown = _shown(
        session.execute("DISPLAY CONN(*) WHERE(UOWSTATE EQ ACTIVE) UOWLOG UOWSTDA UOWLOGDA QMURID")
    )
    assert shown["UOWLOG"] == "S0000000.LOG"
    assert shown["UOWSTDA"] == shown["UOWLOGDA"] == f"{session.installation.clock.now():%Y-%m-%d}"
    session.execute("LAB COMMIT")
    assert session.execute("DISPLAY CONN(*) WHERE(UOWSTATE EQ ACTIVE)").responses == []


def test_each_open_handle_is_shown(session):
    session.execute("DEFINE QLOCAL(Q1)")
    session.execute("LAB OPEN QUEUE(Q1)")
    session.execute("LAB OPEN QUEUE(Q1)")
    handles = session.execute("DISPLAY CONN(*) TYPE(HANDLE) OBJNAME OBJTYPE").responses
    assert [dict(record.attributes)["OBJNAME"] for record in handles] == ["Q1", "Q1"]
    both = session.execute("DISPLAY CONN(*) TYPE(ALL)").responses
    assert [dict(record.attributes)["TYPE"] for record in both] == ["CONN", "HANDLE", "HANDLE"]


def test_type_star_shows_the_connection_and_its_handles_as_type_all_does(session):
    session.execute("DEFINE QLOCAL(Q1)")
    session.execute("LAB OPEN QUEUE(Q1)")
    star = [
        dict(record.attributes)["TYPE"] for record in session.execute("DISPLAY CONN(*) TYPE(*)").responses
    ]
    every = [
        dict(record.attributes)["TYPE"] for record in session.execute("DISPLAY CONN(*) TYPE(ALL)").responses
    ]
    assert star == every == ["CONN", "HANDLE"]


def test_stop_conn_backs_out_the_unit_of_work_and_closes_the_handles(session):
    session.execute("DEFINE QLOCAL(Q1) DEFPSIST(YES)")
    session.execute("LAB PUT QUEUE(Q1) COUNT(2)")
    session.execute("LAB PUT QUEUE(Q1) COUNT(5) SYNCPOINT")
    session.execute("LAB OPEN QUEUE(Q1)")
    conn = _shown(session.execute("DISPLAY CONN(*)"))["CONN"]
    assert session.execute("STOP CONN(0000000000000000)").responses[0].msgid == "AMQ8147E"
    stopped = session.execute(f"STOP CONN({conn})")
    assert stopped.ok and stopped.responses[0].line() == "AMQ8277I: IBM MQ connection stop requested."
    assert _shown(session.execute("DISPLAY QLOCAL(Q1) CURDEPTH IPPROCS")) | {} == {
        "QUEUE": "Q1",
        "TYPE": "QLOCAL",
        "CURDEPTH": "2",
        "IPPROCS": "0",
    }
    assert session.execute("DISPLAY CONN(*)").responses[0].msgid == "AMQ8147E"
    session.execute("LAB PUT QUEUE(Q1)")
    assert _shown(session.execute("DISPLAY CONN(*)"))["CONN"] != conn


def test_a_unit_of_work_lost_with_the_queue_manager_breaks_the_connection_once(session):
    session.execute("DEFINE QLOCAL(Q1) DEFPSIST(YES)")
    session.execute("LAB PUT QUEUE(Q1) COUNT(2) SYNCPOINT")
    session.execute("LAB CRASH")
    session.execute("strmqm QM1")
    lost = session.execute("LAB COMMIT")
    assert (
        not lost.ok
        and lost.responses[0].line() == "MQCMIT ended with reason code 2009 (MQRC_CONNECTION_BROKEN)."
    )
    assert session.execute("LAB COMMIT").responses[0].line() == "No unit of work to commit."
    session.execute("LAB PUT QUEUE(Q1) SYNCPOINT")
    session.execute("endmqm -i QM1")
    session.execute("strmqm QM1")
    assert (
        session.execute("LAB OPEN QUEUE(Q1)").responses[0].line()
        == "MQOPEN ended with reason code 2009 (MQRC_CONNECTION_BROKEN)."
    )
    assert session.execute("LAB OPEN QUEUE(Q1)").ok
    # A queue manager that ends with no unit of work in flight leaves the application to carry on.
    session.execute("endmqm QM1")
    session.execute("strmqm QM1")
    assert session.execute("LAB PUT QUEUE(Q1)").ok
