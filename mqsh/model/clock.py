"""The simulated clock of a data directory.

Everything time-based (object dates, QMIDs, message put times, later expiry and
image intervals) reads this clock, so a lab can jump thirty days in one command.
Until a lab sets it, it follows the real clock plus any offset it was advanced
by; once set to a moment it stays frozen there and moves only when advanced,
which keeps lab reports identical from run to run.
"""

from __future__ import annotations

import math
import re
from datetime import datetime, timedelta
from pathlib import Path

from mqsh.store.files import CorruptFile, read_document, write_document

DURATION = re.compile(r"^\s*(\d+)\s*([DHMS])\s*$", re.IGNORECASE)
UNITS = {"D": "days", "H": "hours", "M": "minutes", "S": "seconds"}
SECONDS = {"D": 86400, "H": 3600, "M": 60, "S": 1}
TIMESTAMP = "%Y-%m-%d %H:%M:%S"
# The clock's range: MQ dates have four-digit years, and a clock before the
# epoch would date messages before any system clock can. Every time the model
# stores or prints is within it, so no date arithmetic on the clock overflows.
EARLIEST = datetime(1970, 1, 1)
LATEST = datetime(9999, 12, 31, 23, 59, 59)
RANGE = f"{EARLIEST:{TIMESTAMP}} to {LATEST:{TIMESTAMP}}"


class ClockRangeError(ValueError):
    """A moment or a move that would take the clock out of its range."""


def parse_duration(text: str) -> timedelta:
    """'30D', '12H', '90M', '45S' -> timedelta; ValueError otherwise (also beyond the clock's whole range)."""
    match = DURATION.match(text)
    if not match:
        raise ValueError(f"'{text}' is not a duration such as 30D, 12H, 90M or 45S")
    unit = match.group(2).upper()
    most = int((LATEST - EARLIEST).total_seconds()) // SECONDS[unit]
    if int(match.group(1)) > most:
        raise ClockRangeError(f"'{text}' is out of range: the clock moves at most {most}{unit} ({RANGE})")
    return timedelta(**{UNITS[unit]: int(match.group(1))})


PAST = f"the simulated clock cannot go past {LATEST:{TIMESTAMP}} (its range is {RANGE})"
BEFORE = f"the simulated clock cannot go before {EARLIEST:{TIMESTAMP}} (its range is {RANGE})"


def check_moment(moment: datetime) -> datetime:
    """moment, if the clock can show it; ClockRangeError otherwise."""
    if moment > LATEST:
        raise ClockRangeError(PAST)
    if moment < EARLIEST:
        raise ClockRangeError(BEFORE)
    return moment


def _within(moment: datetime) -> datetime:
    return min(max(moment, EARLIEST), LATEST)


class Clock:
    def __init__(self, path: Path):
        self.path = path
        self.offset = 0.0
        self.frozen_at: datetime | None = None
        try:
            state = read_document(path)
            offset = float(state.get("offset", 0.0))
            self.offset = offset if math.isfinite(offset) else 0.0
            frozen = state.get("frozen_at")
            # A clock stored out of range (by an older mqsh, or edited) is brought
            # back to its nearest end: a queue manager must still start on it.
            self.frozen_at = _within(datetime.strptime(frozen, TIMESTAMP)) if frozen else None
        except (FileNotFoundError, CorruptFile, ValueError, TypeError, AttributeError):
            pass

    def now(self) -> datetime:
        if self.frozen_at is not None:
            return self.frozen_at
        real = datetime.now().replace(microsecond=0)
        # Compared in seconds first: a stored offset past either end must not overflow.
        if self.offset >= (LATEST - real).total_seconds():
            return LATEST
        if self.offset <= (EARLIEST - real).total_seconds():
            return EARLIEST
        return (real + timedelta(seconds=self.offset)).replace(microsecond=0)

    def advance(self, delta: timedelta) -> None:
        """Move on by delta; ClockRangeError, and no move, if that leaves the range."""
        moment = self.now()
        if delta > LATEST - moment:  # compared as spans: moment + delta itself may overflow
            raise ClockRangeError(PAST)
        if self.frozen_at is not None:
            self.frozen_at = moment + delta
        else:
            self.offset += delta.total_seconds()
        self._save()

    def set(self, moment: datetime) -> None:
        self.frozen_at = check_moment(moment.replace(microsecond=0))
        self._save()

    def _save(self) -> None:
        frozen = self.frozen_at.strftime(TIMESTAMP) if self.frozen_at else None
        write_document(self.path, {"offset": self.offset, "frozen_at": frozen})


def mq_date(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d")


def mq_time(moment: datetime) -> str:
    return moment.strftime("%H.%M.%S")
