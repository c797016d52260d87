"""A cluster DEMO of four queue managers in one data directory: full repositories FR1 and FR2,
PA hosting the cluster queue APP.Q, and PB whose application puts to it."""

from __future__ import annotations

import pytest

from mqsh.shell.session import Session

START = "2026-05-01 09:00:00"


def run(session: Session, *commands: str) -> list[str]:
    outputs = []
    for command in commands:
        result = session.execute(command)
        assert result.ok, (command, session.render(result))
        outputs.append(session.render(result))
    return outputs


def member(session: Session, name: str, full: bool, *, channel: str | None = None) -> None:
    """A queue manager in DEMO: a listener, its CLUSRCVR, a CLUSSDR to a full repository."""
    listening(session, name)
    receiving(session, name, full, channel=channel)
    sending(session, name)


def listening(session: Session, name: str) -> None:
    """A new queue manager running, with a listener on port 1414."""
    run(
        session,
        f"crtmqm {name}",
        f"strmqm {name}",
        f"LAB USE QMGR({name})",
        "DEFINE LISTENER(TCP) TRPTYPE(TCP) PORT(1414) CONTROL(QMGR)",
        "START LISTENER(TCP)",
    )


def receiving(session: Session, name: str, full: bool, *, channel: str | None = None) -> None:
    """The queue manager's CLUSRCVR in DEMO (and REPOS(DEMO) for a full repository)."""
    channel = channel or f"TO.{name}"
    run(
        session,
        f"LAB USE QMGR({name})",
        f"DEFINE CHANNEL({channel}) CHLTYPE(CLUSRCVR) CLUSTER(DEMO) CONNAME('{name.lower()}(1414)') TRPTYPE(TCP)",
    )
    if full:
        run(session, "ALTER QMGR REPOS(DEMO)")


def sending(session: Session, name: str) -> None:
    """The queue manager's CLUSSDR to a full repository: FR2 for FR1, FR1 for the others."""
    target = "FR2" if name == "FR1" else "FR1"
    run(
        session,
        f"LAB USE QMGR({name})",
        f"DEFINE CHANNEL(TO.{target}) CHLTYPE(CLUSSDR) CLUSTER(DEMO) CONNAME('{target.lower()}(1414)') TRPTYPE(TCP)",
    )


def formed(data_dir) -> Session:
    """DEMO: full repositories FR1 and FR2, partial repositories PA and PB, every channel defined."""
    session = Session(data_dir)
    run(session, f"LAB CLOCK SET('{START}')")
    # Every listener and cluster receiver is there before any cluster sender starts: no sender
    # fails its first attempt and waits for its retry (SHORTTMR).
    members = (("FR1", True), ("FR2", True), ("PA", False), ("PB", False))
    for name, full in members:
        listening(session, name)
        receiving(session, name, full)
    for name, _full in members:
        sending(session, name)
    return session


@pytest.fixture
def cluster(data_dir):
    session = formed(data_dir)
    run(
        session,
        "LAB USE QMGR(PA)",
        "DEFINE QLOCAL(APP.Q) CLUSTER(DEMO) DEFPSIST(YES) MAXDEPTH(100000)",
        "LAB USE QMGR(PB)",
    )
    yield session
    session.close()


def cache(session: Session, qmgr: str):
    held = session.installation.connect(qmgr)
    return session.installation.clusters.manager(held).cache


def depth(session: Session, qmgr: str, queue: str) -> int:
    held = session.installation.connect(qmgr)
    return held.depth(held.lookup("QUEUE", queue))


def error_log(session: Session, qmgr: str) -> str:
    return session.installation.connect(qmgr).errors.read()
