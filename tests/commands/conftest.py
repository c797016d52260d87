"""What the command tests share: a command's response as lines."""

from __future__ import annotations

from mqsh.shell.session import Session


def run(session: Session, command: str) -> list[str]:
    """A command's response, line by line."""
    return session.render(session.execute(command)).splitlines()
