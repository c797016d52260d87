"""What a command returns: data only. Renderers turn it into text; handlers never print."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Message:
    """One AMQ message (or a control command's plain line when msgid is empty)."""

    text: str
    msgid: str = ""
    inserts: list[str] = field(default_factory=list)  # indented lines: "[2016, QL.A]"
    zos: bool = False  # z/OS's form: "CSQ9022I -QM1 CSQMACFS ..." (no colon), further lines not indented

    def line(self) -> str:
        if not self.msgid:
            return self.text
        return f"{self.msgid} {self.text}" if self.zos else f"{self.msgid}: {self.text}"


@dataclass
class Display:
    """One object returned by DISPLAY: the header message and attributes in order."""

    msgid: str
    title: str
    attributes: list[tuple[str, Any]]  # (name, rendered value); value None = a bare word (SHARE)
    end: str = ""  # z/OS's form: one keyword a line, then this line ("END CFSTRUCT DETAILS")


@dataclass
class SyntaxProblem:
    """runmqsc's AMQ8405I block."""

    segment: str
    usage: list[str] = field(default_factory=list)  # AMQ8427I diagram, or AMQ8426 verb list
    usage_msgid: str = "AMQ8427I"
    usage_title: str = "Valid syntax for the MQSC command:"
    hint: str = ""  # interactive sessions: one line in the usage's place


Response = Message | Display | SyntaxProblem


@dataclass
class Result:
    """Everything one command produced, and whether it succeeded."""

    responses: list[Response] = field(default_factory=list)
    ok: bool = True
    syntax_error: bool = False
    ends_session: bool = False  # END / EXIT / QUIT
    code: int = 0  # a control command's exit code (crtmqm's 8 for "exists" ...)

    @classmethod
    def message(cls, text: str, msgid: str = "", ok: bool = True, inserts: list[str] | None = None) -> Result:
        return cls([Message(text, msgid, inserts or [])], ok)

    @classmethod
    def failure(cls, text: str, msgid: str = "", inserts: list[str] | None = None, code: int = 0) -> Result:
        result = cls.message(text, msgid, ok=False, inserts=inserts)
        result.code = code
        return result


def cannot_use(error: OSError) -> str:
    """One line for a file the data directory could not give or take: not a directory, full ..."""
    where = f" {error.filename}" if error.filename else ""
    return f"mqsh: cannot use{where}: {error.strerror or error}."
