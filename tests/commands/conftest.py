"""What the command tests share: a command's response as lines, and a queue manager in no group."""

from __future__ import annotations

import pytest

from mqsh.shell.session import Session


def run(session: Session, command: str) -> list[str]:
    """A command's response, line by line."""
    return session.render(session.execute(command)).splitlines()


@pytest.fixture
def lone(data_dir, made):
    """QM9, running and in no queue-sharing group; the session works with it."""
    session = made(data_dir, "crtmqm QM9")
    assert session.execute("strmqm QM9").ok
    session.current_qmgr = "QM9"
    yield session
    session.close()
