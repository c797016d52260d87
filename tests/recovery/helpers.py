"""Sessions on queue managers with a given log type, and reading their logs and error logs."""

from __future__ import annotations

from mqsh.shell.session import Session
from mqsh.store import log as logstore


def started(data_dir, log_option: str = "-ll", name: str = "QM1", extra: str = "", engine=None) -> Session:
    session = Session(data_dir, engine=engine)
    assert session.execute(f"crtmqm {log_option} {extra} {name}").ok
    assert session.execute(f"strmqm {name}").ok
    session.current_qmgr = name
    return session


def run(session: Session, *commands: str) -> list[str]:
    """Run commands; the text lines of the last one."""
    result = None
    for command in commands:
        result = session.execute(command)
    return session.render(result).splitlines()


def qmgr(session: Session):
    return session.installation.held[session.current_qmgr]


def records(session: Session, kind: str) -> list[dict]:
    return [record for record in logstore.read_records(qmgr(session).paths.log_dir) if record["t"] == kind]


def error_log(session: Session) -> str:
    return session.installation.paths(session.current_qmgr).error_log.read_text()
