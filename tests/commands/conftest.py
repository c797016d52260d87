"""What the command tests share: a command's response as lines, and a queue manager in no group."""

from __future__ import annotations

import pytest

from mqsh.shell.session import Session


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
