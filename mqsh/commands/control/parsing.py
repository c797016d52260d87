"""What every control command shares: an argparse that reports instead of exiting, and plain-line results."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable

from mqsh.commands.context import Context
from mqsh.responses import Message, Result

DIGITS = re.compile(r"^[+-]?[0-9]+$")


class ControlParser(argparse.ArgumentParser):
    """argparse that reports errors instead of exiting the process."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise ValueError(message)


def number(text: str) -> int:
    """A number as MQ's control commands read it: the digits 0 to 9 (int() also takes '٣' and '1_0')."""
    if not DIGITS.match(text):
        raise ValueError(text)  # argparse reports it as "invalid number value"
    return int(text)


def control_parser(prog: str, description: str) -> ControlParser:
    return ControlParser(prog=prog, description=description, add_help=False)


def lines(*texts: str, ok: bool = True, code: int = 0) -> Result:
    """A control command's output: plain lines (AMQ ids written into the text), and its exit code."""
    return Result([Message(text) for text in texts], ok=ok, code=code)


# MQ's control command exit codes.
RUNNING_RC, EXISTS, NOT_FOUND, LOG_NOT_AVAILABLE, NOT_VALID, NOT_AVAILABLE, UNEXPECTED, NAME_ERROR = (
    5,
    8,
    16,
    23,
    36,
    40,
    71,
    72,
)

# How a control command runs an MQSC command on the queue manager it names (defaults, -c).
Runner = Callable[[Context, object], Result]


def unknown_qmgr(code: int = NOT_FOUND) -> Result:
    return lines("AMQ7048E: The queue manager name is either not valid or not known.", ok=False, code=code)


def qmgr_not_available() -> Result:
    return lines("AMQ8146E: IBM MQ queue manager not available.", ok=False, code=NOT_AVAILABLE)
