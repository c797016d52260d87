"""The simulated clock of a data directory.

Everything time-based (object dates, QMIDs, message put times, later expiry and
image intervals) reads this clock, so a lab can jump thirty days in one command.
Until a lab sets it, it follows the real clock plus any offset it was advanced
by; once set to a moment it stays frozen there and moves only when advanced,
which keeps lab reports identical from run to run.

A lab may set the clock back; the real clock MQ reads does not go back. What MQ counts in
the real clock's seconds and relies on never decreasing (a cluster's sequence numbers after
REFRESH CLUSTER) reads never_back(), which the steps back do not move back.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from functools import lru_cache
from pathlib import Path

from mqsh.store.files import CorruptFile, read_document, write_document

DURATION = re.compile(r"^\s*(\d+)\s*([DHMS])\s*$", re.IGNORECASE)
UNITS = {"D": "days", "H": "hours", "M": "minutes", "S": "seconds"}
TIMESTAMP = "%Y-%m-%d %H:%M:%S"
# The clock stays where four-digit years and the dates worked out from it (30- and 60-day
# expiries, intervals) stay valid: a lab cannot move it out, and a stored clock found out
# of that range (written by hand) is not used.
EARLIEST = datetime(1970, 1, 1)
LATEST = datetime(9000, 1, 1)
RANGE_TEXT = f"between {EARLIEST:{TIMESTAMP}} and {LATEST:{TIMESTAMP}}"


def parse_duration(text: str) -> timedelta:
    """'30D', '12H', '90M', '45S' -> timedelta; ValueError otherwise."""
    match = DURATION.match(text)
    if not match:
        raise ValueError(f"'{text}' is not a duration such as 30D, 12H, 90M or 45S")
    try:
        return timedelta(**{UNITS[match.group(2).upper()]: int(match.group(1))})
    except OverflowError:
        raise ValueError(f"{text} is more than the simulated clock can move: it stays {RANGE_TEXT}") from None


def parse_timestamp(text: str) -> datetime:
    """'2026-01-05 09:00:00' -> datetime; ValueError in the shell's words otherwise."""
    try:
        return datetime.strptime(text.strip(), TIMESTAMP)
    except ValueError:
        raise ValueError(
            f"'{text}' is not a time such as 2026-01-05 09:00:00 (YYYY-MM-DD HH:MM:SS)"
        ) from None


def _checked(moment: datetime) -> datetime:
    if not EARLIEST <= moment <= LATEST:
        raise ValueError(f"the simulated clock stays {RANGE_TEXT}")
    return moment


class Clock:
    def __init__(self, path: Path):
        self.path = path
        self.offset = 0.0
        self.frozen_at: datetime | None = None
        # How far, in all, the lab has set the clock back: what a clock that never goes back -
        # the real one, which MQ's cluster sequence numbers count in - is ahead of this one.
        self.set_back = 0.0
        try:
            state = read_document(path)
            self.offset = float(state.get("offset", 0.0))
            frozen = state.get("frozen_at")
            self.frozen_at = datetime.strptime(frozen, TIMESTAMP) if frozen else None
            self.set_back = max(0.0, float(state.get("set_back", 0.0)))
            _checked(self.now())
            _checked(self.never_back(self.now()))
        except (FileNotFoundError, CorruptFile, ValueError, OverflowError, TypeError, AttributeError):
            self.offset, self.frozen_at, self.set_back = 0.0, None, 0.0

    def now(self) -> datetime:
        if self.frozen_at is not None:
            return self.frozen_at
        return (datetime.now() + timedelta(seconds=self.offset)).replace(microsecond=0)

    def never_back(self, moment: datetime) -> datetime:
        """A moment of this clock on a clock that never went back: it adds every step the lab
        set the clock back, so what is counted from it (cluster sequence numbers) only grows."""
        return moment + timedelta(seconds=self.set_back)

    def advance(self, delta: timedelta) -> None:
        """ValueError, and the clock unchanged, when the move would take it out of its range."""
        try:
            moment = _checked(self.now() + delta)
            _checked(self.never_back(moment))
        except OverflowError:
            raise ValueError(f"the simulated clock stays {RANGE_TEXT}") from None
        if self.frozen_at is not None:
            self._save(self.offset, moment)
            self.frozen_at = moment
        else:
            self._save(self.offset + delta.total_seconds(), None)
            self.offset += delta.total_seconds()

    def set(self, moment: datetime, counted: bool = True) -> None:
        """counted: whether anything was counted in the clock's time yet (a queue manager made)
        that a step back must not count below; a lab's first setting, before any, is not one."""
        moment = _checked(moment.replace(microsecond=0))
        step_back = max(0.0, (self.now() - moment).total_seconds()) if counted else 0.0
        set_back = self.set_back + step_back
        try:
            _checked(moment + timedelta(seconds=set_back))
        except OverflowError:
            raise ValueError(f"the simulated clock stays {RANGE_TEXT}") from None
        self._save(self.offset, moment, set_back)
        self.frozen_at, self.set_back = moment, set_back

    def _save(self, offset: float, frozen_at: datetime | None, set_back: float | None = None) -> None:
        """Saved before the clock moves in memory: a save that fails (a full disk) moves nothing."""
        frozen = frozen_at.strftime(TIMESTAMP) if frozen_at else None
        write_document(
            self.path,
            {
                "offset": offset,
                "frozen_at": frozen,
                "set_back": self.set_back if set_back is None else set_back,
            },
        )


# The clock moves in whole seconds and every change stamps its object with the moment twice
# (ALTDATE and CRDATE ...): strftime is run once for each second a stamp is asked for.
@lru_cache(maxsize=16)
def mq_date(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d")


@lru_cache(maxsize=16)
def mq_time(moment: datetime) -> str:
    return moment.strftime("%H.%M.%S")


def epoch_seconds(moment: datetime) -> int:
    """The moment, taken as UTC, in seconds since 1970."""
    import calendar  # few commands need it: not loaded with every process

    return calendar.timegm(moment.timetuple())
