"""Fixtures for the command tests: a running queue-sharing group."""

from __future__ import annotations

import pytest

from mqsh.shell.session import Session


@pytest.fixture
def group(data_dir):
    """QM1 and QM2, members of QSGA, both running; the session works with QM1."""
    session = Session(data_dir)
    for command in ("crtmqm QM1", "crtmqm QM2", "csq5pqsg ADD QSG QSGA", "csq5pqsg ADD QMGR QM1 QSGA",
                    "csq5pqsg ADD QMGR QM2 QSGA", "strmqm QM1", "strmqm QM2"):
        assert session.execute(command).ok, command
    session.current_qmgr = "QM1"
    yield session
    session.close()


def run(session: Session, command: str) -> list[str]:
    """A command's response, line by line."""
    return session.render(session.execute(command)).splitlines()


@pytest.fixture
def lone(data_dir):
    """QM9, running and in no queue-sharing group; the session works with it."""
    session = Session(data_dir)
    for command in ("crtmqm QM9", "strmqm QM9"):
        assert session.execute(command).ok, command
    session.current_qmgr = "QM9"
    yield session
    session.close()
