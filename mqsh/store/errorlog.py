"""errors/AMQERR01.LOG: operator messages in the shape MQ writes them."""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mqsh.model.clock import Clock

RULE = "-" * 79


class ErrorLog:
    def __init__(self, path: Path, qmgr: str, clock: Clock):
        self.path = path
        self.qmgr = qmgr
        self.clock = clock

    def write(self, msgid: str, text: str, explanation: str = "", action: str = "") -> None:
        now = self.clock.now()
        lines = [
            f"{now:%m/%d/%Y %I:%M:%S %p} - Process({os.getpid()}.1) User({_user()}) Program(mqsh)",
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
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")

    def read(self) -> str:
        try:
            return self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return ""


def _user() -> str:
    try:
        return os.getlogin()
    except OSError:
        return os.environ.get("USER", "mqm")
