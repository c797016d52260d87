"""What a LAB control may ask of the shell that runs it: the queue manager commands go to, and
a change of it (LAB USE). The shell's session (mqsh.shell.session) is one; the lab layer sits
below the shell, so it names no more of it than this."""

from __future__ import annotations

from typing import Protocol

from mqsh.responses import Result


class Shell(Protocol):
    current_qmgr: str | None

    def use(self, name: str) -> Result: ...
