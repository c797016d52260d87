"""START and STOP of channels, listeners and services, and the status displays of those running."""

from __future__ import annotations

import os

import pytest

from mqsh.core.clock import mq_date


def test_a_started_channel_with_no_partner_retries_and_a_stopped_one_says_so(session):
    assert session.execute("DISPLAY CHSTATUS(*)").responses[0].line() == "AMQ8420I: Channel Status not found."
    session.execute("DEFINE QLOCAL(B) USAGE(XMITQ)")
    session.execute("DEFINE CHANNEL(TO.B) CHLTYPE(SDR) CONNAME('hostb(1414)') XMITQ(B) BATCHSZ(20)")
    assert session.execute("START CHANNEL(TO.B)").ok
    summary = session.execute("DISPLAY CHSTATUS(TO.*)").responses[0]
    assert [name for name, _ in summary.attributes] == [
        "CHANNEL",
        "CHLTYPE",
        "CONNAME",
        "CURRENT",
        "RQMNAME",
        "STATUS",
        "SUBSTATE",
        "XMITQ",
    ]
    shown = dict(session.execute("DISPLAY CHSTATUS(TO.B) ALL").responses[0].attributes)
    assert shown["STATUS"] == "RETRYING" and shown["BATCHSZ"] == "20" and shown["XMITQ"] == "B"
    assert "AMQ9202E: Remote host 'hostb(1414)' not available, retry later." in session.render(
        session.execute("LAB ERRLOG")
    )
    assert session.execute("STOP CHANNEL(TO.B)").ok
    stopped = dict(session.execute("DISPLAY CHSTATUS(TO.B)").responses[0].attributes)
    assert stopped["STATUS"] == "STOPPED"
    again = session.execute("STOP CHANNEL(TO.B)")
    assert not again.ok and again.responses[0].msgid == "AMQ9533E"


def test_a_started_listener_and_service_have_a_status_until_stopped(session):
    session.execute("DEFINE LISTENER(L1) TRPTYPE(TCP) PORT(1415)")
    session.execute("DEFINE SERVICE(S1) SERVTYPE(SERVER) STARTCMD('/bin/true')")
    assert (
        session.execute("DISPLAY LSSTATUS(*)").responses[0].line() == "AMQ8736E: Listener status not found."
    )
    assert session.execute("DISPLAY SVSTATUS(*)").responses[0].line() == "AMQ8735E: Service status not found."
    assert session.execute("START LISTENER(L1)").ok and session.execute("START SERVICE(S1)").ok
    again = session.execute("START LISTENER(L1)")
    assert not again.ok and again.responses[0].line() == "AMQ8730W: Listener already active."
    summary = session.execute("DISPLAY LSSTATUS(*)").responses[0]
    assert [name for name, _ in summary.attributes] == ["LISTENER", "STATUS", "PID"]
    shown = dict(session.execute("DISPLAY LSSTATUS(L1) ALL").responses[0].attributes)
    assert shown["STATUS"] == "RUNNING" and shown["PORT"] == "1415" and shown["PID"] == str(os.getpid())
    assert shown["STARTDA"] == mq_date(session.installation.clock.now())
    service = dict(session.execute("DISPLAY SVSTATUS(S1) ALL").responses[0].attributes)
    assert service["SERVTYPE"] == "SERVER" and service["STARTCMD"] == "/bin/true"
    assert session.execute("STOP LISTENER(L1)").ok
    assert session.execute("STOP LISTENER(L1)").responses[0].line() == "AMQ8731W: Listener not active."
    assert session.execute("DISPLAY LSSTATUS(L1)").responses[0].msgid == "AMQ8736E"


def test_listeners_under_queue_manager_control_start_with_it(session):
    for name, control in (("BYQM", "QMGR"), ("ONCE", "STARTONLY"), ("BYHAND", "MANUAL")):
        session.execute(f"DEFINE LISTENER({name}) TRPTYPE(TCP) PORT(1414) CONTROL({control})")
    session.execute("endmqm QM1")
    session.execute("strmqm QM1")
    running = [
        dict(record.attributes)["LISTENER"] for record in session.execute("DISPLAY LSSTATUS(*)").responses
    ]
    assert running == ["BYQM", "ONCE"]


@pytest.mark.parametrize(
    "define, start, refusal",
    [
        (
            "DEFINE CHANNEL(C1) CHLTYPE(SDR) CONNAME('host(1414)') XMITQ(SYSTEM.CLUSTER.TRANSMIT.QUEUE)",
            "START CHANNEL(C1)",
            "AMQ9514E: Channel 'C1' is in use.",
        ),
        (
            "DEFINE LISTENER(L1) TRPTYPE(TCP) PORT(1414)",
            "START LISTENER(L1)",
            "AMQ8730W: Listener already active.",
        ),
    ],
)
def test_starting_what_runs_fails_unless_ignstate_yes(session, define, start, refusal):
    assert session.execute(define).ok
    assert session.execute(start).ok
    again = session.execute(start)
    assert not again.ok and session.render(again) == refusal
    ignored = session.execute(f"{start} IGNSTATE(YES)")
    assert ignored.ok and session.render(ignored) == refusal  # still said, but counted as processed
