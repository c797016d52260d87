"""Two queue managers joined by a sender/receiver channel pair: QM1 sends to APP.IN on QM2."""

from __future__ import annotations

import pytest

from mqsh.shell.session import Session

LINKED = {
    "QM2": [
        "DEFINE LISTENER(L1) TRPTYPE(TCP) PORT(1414) CONTROL(QMGR)",
        "START LISTENER(L1)",
        "DEFINE QLOCAL(APP.IN) MAXDEPTH(100000)",
        "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR) TRPTYPE(TCP)",
    ],
    "QM1": [
        "DEFINE QLOCAL(QM2) USAGE(XMITQ) MAXDEPTH(100000)",
        "DEFINE QREMOTE(APP.OUT) RNAME(APP.IN) RQMNAME(QM2) XMITQ(QM2)",
        "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('qm2(1414)') XMITQ(QM2) TRPTYPE(TCP) BATCHSZ(7)",
    ],
}


def run(session: Session, *commands: str) -> None:
    for command in commands:
        result = session.execute(command)
        assert result.ok, (command, session.render(result))


def two_queue_managers(data_dir, definitions: dict[str, list[str]]) -> Session:
    """QM1 and QM2 running, each with its definitions, the clock frozen; the session works with QM1."""
    session = Session(data_dir)
    run(
        session,
        "LAB CLOCK SET('2026-05-01 09:00:00')",
        "crtmqm QM1",
        "crtmqm QM2",
        "strmqm QM1",
        "strmqm QM2",
    )
    for qmgr, commands in definitions.items():
        run(session, f"LAB USE QMGR({qmgr})", *commands)
    run(session, "LAB USE QMGR(QM1)")
    return session


@pytest.fixture
def linked(data_dir):
    """The pair, channel not yet started; the session works with QM1."""
    session = two_queue_managers(data_dir, LINKED)
    yield session
    session.close()


def depth(session: Session, qmgr: str, queue: str) -> int:
    held = session.installation.connect(qmgr)
    return held.depth(held.lookup("QUEUE", queue))


def messages(session: Session, qmgr: str, queue: str) -> list[str]:
    held = session.installation.connect(qmgr)
    return [message.msgid for message in held.lookup("QUEUE", queue).messages]
