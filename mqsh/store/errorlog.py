"""errors/AMQERR01.LOG: operator messages in the shape MQ writes them."""

from __future__ import annotations

import errno
import os
from datetime import datetime
from pathlib import Path
from typing import Protocol

from mqsh.store.identity import process_user

RULE = "-" * 79


class Timepiece(Protocol):
    """What the log reads of the simulated clock (mqsh.core.clock, a layer above the store)."""

    def now(self) -> datetime: ...


class ErrorLog:
    def __init__(self, path: Path, qmgr: str, clock: Timepiece):
        self.path = path
        self.qmgr = qmgr
        self.clock = clock

    def write(
        self, msgid: str, text: str, explanation: str = "", action: str = "", at: datetime | None = None
    ) -> None:
        """One entry; at: when it happened, for entries written after the fact (the hourly
        warnings of a cluster record over a stretch of time a lab jumped)."""
        import socket  # at the first entry written, not in every process

        now = at or self.clock.now()
        lines = [
            f"{now:%m/%d/%Y %I:%M:%S %p} - Process({os.getpid()}.1) User({process_user()}) Program(mqsh)",
            f"                    Host({socket.gethostname()}) QMgr({self.qmgr})",
            f"                    Time({now:%Y-%m-%dT%H:%M:%S}.000Z)",
            f"{msgid}: {text}",
            "",
            "EXPLANATION:",
            explanation or text,
            "ACTION:",
            action or "None.",
            RULE,
        ]
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = ("\n".join(lines) + "\n").encode("utf-8")
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            before = os.fstat(fd).st_size
            try:
                written = os.write(fd, data)
            except OSError as error:
                if error.errno != errno.ENOSPC:
                    raise
                written = -1
            if written != len(data):
                # The error log shares the full disk: the entry is dropped whole, never left cut short.
                os.ftruncate(fd, before)
        finally:
            os.close(fd)

    def read(self) -> str:
        try:
            return self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return ""
