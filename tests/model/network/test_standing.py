"""What a running queue manager's channels and listeners stand at when another mqsh process takes
it over, and after a restart (mqsh.model.network.standing)."""

from __future__ import annotations

from mqsh.shell.session import Session
from tests.model.cluster.conftest import cache
from tests.model.cluster.conftest import run as run_cluster
from tests.model.network.conftest import depth, run


def shown(session: Session, command: str) -> list[dict]:
    result = session.execute(command)
    return [dict(response.attributes) for response in result.responses if hasattr(response, "attributes")]


def next_session(session: Session, qmgr: str) -> Session:
    """The process ends (the queue managers go on running); a new one works with qmgr."""
    session.close()
    following = Session(session.installation.data_dir, qmgr)
    assert following.connect().ok
    return following


def test_a_stopped_cluster_sender_stays_stopped_when_a_new_session_takes_over(data_dir):
    session = Session(data_dir)
    run_cluster(
        session,
        "crtmqm FR1",
        "crtmqm PA",
        "strmqm FR1",
        "strmqm PA",
        "LAB USE QMGR(FR1)",
        "ALTER QMGR REPOS(DEMO)",
        "DEFINE LISTENER(TCP) TRPTYPE(TCP) PORT(1414) CONTROL(QMGR)",
        "START LISTENER(TCP)",
        "DEFINE CHANNEL(TO.FR1) CHLTYPE(CLUSRCVR) CLUSTER(DEMO) CONNAME('fr1(1414)')",
        "LAB USE QMGR(PA)",
        "DEFINE CHANNEL(TO.PA) CHLTYPE(CLUSRCVR) CLUSTER(DEMO) CONNAME('pa(1414)')",
        "DEFINE CHANNEL(TO.FR1) CHLTYPE(CLUSSDR) CLUSTER(DEMO) CONNAME('fr1(1414)')",
        "DEFINE QLOCAL(ORDERS) CLUSTER(DEMO)",
        "STOP CHANNEL(TO.FR1)",
        "ALTER QLOCAL(ORDERS) DESCR('must not leave PA')",
    )
    assert depth(session, "PA", "SYSTEM.CLUSTER.TRANSMIT.QUEUE") == 1
    following = next_session(session, "PA")
    try:
        assert shown(following, "DISPLAY CHSTATUS(TO.FR1) STATUS")[0]["STATUS"] == "STOPPED"
        assert depth(following, "PA", "SYSTEM.CLUSTER.TRANSMIT.QUEUE") == 1
        queue = [record for record in cache(following, "FR1").records("QUEUE") if record.name == "ORDERS"]
        assert queue and queue[0].attrs.get("DESCR", "") == ""
        run(following, "START CHANNEL(TO.FR1)")
        assert depth(following, "PA", "SYSTEM.CLUSTER.TRANSMIT.QUEUE") == 0
        assert shown(following, "DISPLAY CHSTATUS(TO.FR1) STATUS")[0]["STATUS"] == "RUNNING"
    finally:
        following.close()


def test_a_stopped_sender_stays_stopped_across_sessions_and_restarts_until_start(data_dir):
    session = Session(data_dir)
    run(
        session,
        "crtmqm QA",
        "strmqm QA",
        "LAB USE QMGR(QA)",
        "DEFINE QLOCAL(XQ) USAGE(XMITQ)",
        "DEFINE CHANNEL(C1) CHLTYPE(SDR) CONNAME('nowhere(1414)') XMITQ(XQ)",
        "START CHANNEL(C1)",
        "STOP CHANNEL(C1)",
    )
    following = next_session(session, "QA")
    assert shown(following, "DISPLAY CHSTATUS(C1) STATUS")[0]["STATUS"] == "STOPPED"
    run(following, "endmqm QA", "strmqm QA")
    assert shown(following, "DISPLAY CHSTATUS(C1) STATUS")[0]["STATUS"] == "STOPPED"
    run(following, "LAB CRASH", "strmqm QA")
    assert shown(following, "DISPLAY CHSTATUS(C1) STATUS")[0]["STATUS"] == "STOPPED"
    run(following, "START CHANNEL(C1)")
    assert shown(following, "DISPLAY CHSTATUS(C1) STATUS")[0]["STATUS"] == "RETRYING"
    run(following, "endmqm QA", "strmqm QA")
    assert not following.execute("DISPLAY CHSTATUS(C1) STATUS").ok  # no status left over: AMQ8420I
    following.close()


def test_listeners_stand_as_they_were_when_a_new_session_takes_over(data_dir):
    session = Session(data_dir)
    run(
        session,
        "crtmqm QX",
        "strmqm QX",
        "LAB USE QMGR(QX)",
        "DEFINE LISTENER(L1) TRPTYPE(TCP) PORT(1500) CONTROL(QMGR)",
        "DEFINE LISTENER(L2) TRPTYPE(TCP) PORT(1501) CONTROL(QMGR)",
        "START LISTENER(L2)",
    )
    following = next_session(session, "QX")
    # L1 was defined after the start and nobody started it; L2 goes on running
    assert [record["LISTENER"] for record in shown(following, "DISPLAY LSSTATUS(*)")] == ["L2"]
    run(following, "STOP LISTENER(L2)")
    again = next_session(following, "QX")
    assert not again.execute("DISPLAY LSSTATUS(*)").ok  # AMQ8736E: none running
    run(again, "endmqm QX", "strmqm QX")  # the queue manager's start starts both
    assert [record["LISTENER"] for record in shown(again, "DISPLAY LSSTATUS(*)")] == ["L1", "L2"]
    again.close()
