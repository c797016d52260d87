"""Requester and server channels: a requester calls, a server sends to it, a sender calls it back."""

from __future__ import annotations

import pytest

from tests.model.network.conftest import depth, run, two_queue_managers

# QM1 holds the messages for QM2 on transmission queue QM2 and listens on 1414; QM2 requests them.
PAIR = {
    "QM1": [
        "DEFINE LISTENER(L1) TRPTYPE(TCP) PORT(1414) CONTROL(QMGR)",
        "START LISTENER(L1)",
        "DEFINE QLOCAL(QM2) USAGE(XMITQ)",
        "DEFINE QREMOTE(OUT) RNAME(IN) RQMNAME(QM2) XMITQ(QM2)",
    ],
    "QM2": [
        "DEFINE LISTENER(L1) TRPTYPE(TCP) PORT(1414) CONTROL(QMGR)",
        "START LISTENER(L1)",
        "DEFINE QLOCAL(IN)",
        "DEFINE CHANNEL(C1) CHLTYPE(RQSTR) CONNAME('qm1(1414)')",
    ],
}


@pytest.fixture
def pair(data_dir):
    session = two_queue_managers(data_dir, PAIR)
    run(session, "LAB PUT QUEUE(OUT) COUNT(3) PERSISTENT")
    yield session
    session.close()


def status(session, qmgr: str) -> dict | None:
    run(session, f"LAB USE QMGR({qmgr})")
    result = session.execute("DISPLAY CHSTATUS(C1) ALL")
    return dict(result.responses[0].attributes) if result.ok else None


def errors(session, qmgr: str) -> str:
    return session.installation.connect(qmgr).errors.read()


def test_a_requester_starts_its_server_which_sends_to_it(pair):
    run(pair, "DEFINE CHANNEL(C1) CHLTYPE(SVR) XMITQ(QM2)")  # no CONNAME: only its requester starts it
    assert status(pair, "QM1") is None and depth(pair, "QM1", "QM2") == 3
    run(pair, "LAB USE QMGR(QM2)", "START CHANNEL(C1)")
    assert depth(pair, "QM2", "IN") == 3
    requester, server = status(pair, "QM2"), status(pair, "QM1")
    assert (requester["CHLTYPE"], requester["STATUS"], requester["RQMNAME"]) == ("RQSTR", "RUNNING", "QM1")
    assert (server["CHLTYPE"], server["STATUS"], server["RQMNAME"], server["MSGS"]) == (
        "SVR",
        "RUNNING",
        "QM2",
        "3",
    )
    run(pair, "LAB PUT QUEUE(OUT) PERSISTENT")  # it goes on sending while the requester runs
    assert depth(pair, "QM2", "IN") == 4
    # the requester stopped: the server's instance ends, and what is put waits
    run(pair, "LAB USE QMGR(QM2)", "STOP CHANNEL(C1)", "LAB USE QMGR(QM1)", "LAB PUT QUEUE(OUT) PERSISTENT")
    assert status(pair, "QM1") is None and depth(pair, "QM1", "QM2") == 1


def test_a_stopped_server_refuses_its_requester_until_start_enables_it(pair):
    run(
        pair,
        "DEFINE CHANNEL(C1) CHLTYPE(SVR) XMITQ(QM2)",
        "LAB USE QMGR(QM2)",
        "START CHANNEL(C1)",
        "LAB USE QMGR(QM1)",
        "STOP CHANNEL(C1)",
        "LAB PUT QUEUE(OUT) PERSISTENT",
    )
    assert status(pair, "QM1")["STATUS"] == "STOPPED" and status(pair, "QM2") is None
    run(pair, "LAB USE QMGR(QM2)", "START CHANNEL(C1)")  # the server is stopped: the call is refused
    assert status(pair, "QM2")["STATUS"] == "STOPPED" and "AMQ9558E" in errors(pair, "QM2")
    run(pair, "LAB USE QMGR(QM1)", "START CHANNEL(C1)")
    assert status(pair, "QM1") is None  # no CONNAME: START only enables it
    run(pair, "LAB USE QMGR(QM2)", "START CHANNEL(C1)")
    assert depth(pair, "QM2", "IN") == 4


def test_a_fully_qualified_server_starts_like_a_sender(pair):
    run(pair, "DEFINE CHANNEL(C1) CHLTYPE(SVR) XMITQ(QM2) CONNAME('qm2(1414)')", "START CHANNEL(C1)")
    assert depth(pair, "QM2", "IN") == 3 and status(pair, "QM1")["STATUS"] == "RUNNING"
    assert status(pair, "QM2")["CHLTYPE"] == "RQSTR"  # a requester answers a server too


def test_a_requester_calls_a_sender_which_calls_back(pair):
    run(
        pair,
        "DEFINE CHANNEL(C1) CHLTYPE(SDR) XMITQ(QM2) CONNAME('qm2(1414)')",
        "LAB USE QMGR(QM2)",
        "START CHANNEL(C1)",
    )
    assert depth(pair, "QM2", "IN") == 3
    assert status(pair, "QM1")["CHLTYPE"] == "SDR" and status(pair, "QM2")["STATUS"] == "RUNNING"


def test_a_sender_calling_back_to_the_wrong_place_retries(pair):
    run(
        pair,
        "DEFINE CHANNEL(C1) CHLTYPE(SDR) XMITQ(QM2) CONNAME('qm9(1414)')",
        "LAB USE QMGR(QM2)",
        "START CHANNEL(C1)",
    )
    assert status(pair, "QM2") is None  # the call was taken: the requester's instance ended
    assert status(pair, "QM1")["STATUS"] == "RETRYING" and depth(pair, "QM2", "IN") == 0


@pytest.mark.parametrize(
    "setup, message",
    [
        (["LAB USE QMGR(QM1)", "STOP LISTENER(L1)"], "AMQ9202E: Remote host 'qm1(1414)' not available"),
        (
            ["LAB USE QMGR(QM1)", "DEFINE CHANNEL(C1) CHLTYPE(RCVR)"],
            "AMQ9520E: Channel not defined remotely.",
        ),
        (
            [
                "LAB USE QMGR(QM1)",
                "DEFINE CHANNEL(C1) CHLTYPE(SVR) XMITQ(QM2)",
                "LAB SITE QMGR(QM2) ADDRESS(10.9.0.1)",
                "SET CHLAUTH('C1') TYPE(ADDRESSMAP) ADDRESS('10.9.*') USERSRC(NOACCESS)",
            ],
            "AMQ9558E: Remote Channel 'C1' is not currently available.",
        ),
    ],
)
def test_a_requester_that_cannot_call_stops(pair, setup, message):
    run(pair, *setup, "LAB USE QMGR(QM2)", "START CHANNEL(C1)")
    assert status(pair, "QM2")["STATUS"] == "STOPPED" and message in errors(pair, "QM2")
    run(pair, "LAB CLOCK ADVANCE(1H)")  # no retries: it waits for START
    assert status(pair, "QM2")["STATUS"] == "STOPPED" and depth(pair, "QM2", "IN") == 0


def test_a_cut_network_ends_the_server_and_the_requester(pair):
    run(
        pair,
        "DEFINE CHANNEL(C1) CHLTYPE(SVR) XMITQ(QM2)",
        "LAB USE QMGR(QM2)",
        "START CHANNEL(C1)",
        "LAB SITE QMGR(QM2) SITE(DR)",
        "LAB NETWORK CUT SITES(MAIN,DR)",
        "LAB USE QMGR(QM1)",
        "LAB PUT QUEUE(OUT) PERSISTENT",
    )
    assert status(pair, "QM1") is None and status(pair, "QM2") is None and depth(pair, "QM1", "QM2") == 1
    run(pair, "LAB NETWORK JOIN SITES(MAIN,DR)", "LAB USE QMGR(QM2)", "START CHANNEL(C1)")
    assert depth(pair, "QM2", "IN") == 4
