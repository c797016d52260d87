"""Where a queue manager's log records fall on the simulated clock.

A log record carries no time (MQ's do not either). So that a picture of the
log (LAB TIMELINE) can be drawn along the clock, the queue manager notes the
LSN of the first record it writes at each new second of the clock: a line
``<lsn> <time>`` appended to a small file beside the log control file. The
time of any record is then that of the last note at or before its LSN.
On a frozen lab clock a note is written only after the clock was moved; on
a running one, at most one a second while records are written.

The notes are a help to the eye, not to recovery: they are appended without
a sync, a torn last line is passed over, and a log with none (written before
they were kept) is simply drawn without times. A file-level backup copies them
with the log, so a restored queue manager's notes end where its log did.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

NOTES_NAME = "amqhclock.lfh"
FORMAT = "%Y-%m-%d %H:%M:%S"


def notes_path(log_root: Path) -> Path:
    return log_root / NOTES_NAME


class ClockNotes:
    """The writer's side: told of each write's first LSN, it notes the ones that start a new second."""

    def __init__(self, log_root: Path, now: Callable[[], datetime]):
        self.path = notes_path(log_root)
        self.now = now  # the simulated clock's reading
        self.last: datetime | None = None

    def wrote(self, lsn: int) -> None:
        moment = self.now()
        if moment == self.last:
            return  # almost always: the simulated clock reads to the second
        moment = moment.replace(microsecond=0)
        if moment == self.last:
            return
        self.last = moment
        try:
            with open(self.path, "a", encoding="ascii") as notes:
                notes.write(f"{lsn} {moment:{FORMAT}}\n")
        except OSError:
            pass  # a full disk: the picture loses a time, the log loses nothing


class Clock:
    """The reader's side: the time of any LSN the notes cover."""

    def __init__(self, notes: list[tuple[int, datetime]]):
        self.notes = sorted(notes)
        self._lsns = [lsn for lsn, _moment in self.notes]

    def __bool__(self) -> bool:
        return bool(self.notes)

    def time_of(self, lsn: int) -> datetime | None:
        """The time its record was written; a record before the first note has the first note's
        time (the earliest known), and None when there are no notes at all."""
        if not self.notes:
            return None
        index = bisect.bisect_right(self._lsns, lsn) - 1
        return self.notes[max(index, 0)][1]

    def changes_within(self, first: int, last: int) -> list[int]:
        """The LSNs after first and up to last at which the clock had moved: where a run of records
        from first to last is cut into runs written at one time each."""
        start = bisect.bisect_right(self._lsns, first)
        end = bisect.bisect_right(self._lsns, last)
        return [lsn for lsn in self._lsns[start:end] if self.time_of(lsn) != self.time_of(lsn - 1)]


def read(log_root: Path) -> Clock:
    """The notes of a queue manager's log (none when the file is missing or unreadable)."""
    notes = []
    try:
        text = notes_path(log_root).read_text(encoding="ascii", errors="replace")
    except OSError:
        return Clock([])
    for line in text.splitlines():
        lsn, _, moment = line.partition(" ")
        try:
            notes.append((int(lsn), datetime.strptime(moment, FORMAT)))
        except ValueError:
            continue  # a torn last line
    return Clock(notes)
