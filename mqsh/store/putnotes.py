"""Who put the messages a queue manager's log records: its putter notes.

MQ keeps who put a message in its MQMD (UserIdentifier, PutApplName). A put
record here would carry them as optional fields (records.USER, records.PUT_APPL),
but every put of one process is by the same user and application, and the
bytes would fill the log's extents sooner. So the queue manager notes, beside
the log control file, the LSN of the first put record each process writes and
who it is: a line ``<lsn> <user id> <application>``. A put record names its
putter itself only where it is not the one noted (a message the queue manager
generates, put by the queue manager). The putter of any put record is then its
own fields, else the last note at or before its LSN; a log with no notes
(written before they were kept) does not record who put its messages.

Like the clock notes (mqsh.store.clocknotes) they are appended without a sync;
a file-level backup copies them with the log. A torn last line is passed over.
"""

from __future__ import annotations

import bisect
from pathlib import Path

from mqsh.store.identity import APPLICATION

NOTES_NAME = "amqhputr.lfh"


def notes_path(log_root: Path) -> Path:
    return log_root / NOTES_NAME


class PutterNotes:
    """The writer's side: one note for the process's first put record (and again should the user it
    runs as be another than the last note's - a data directory shared between users)."""

    def __init__(self, log_root: Path, user: str):
        self.path = notes_path(log_root)
        self.user = user
        self.noted = False

    def before_put(self, lsn: int) -> None:
        """Called with the LSN the process's put record is about to get."""
        if self.noted:
            return
        self.noted = True
        last = read(self.path.parent).notes[-1:]
        if last and last[0][1:] == (self.user, APPLICATION):
            return
        try:
            with open(self.path, "a", encoding="utf-8") as notes:
                notes.write(f"{lsn} {self.user} {APPLICATION}\n")
        except OSError:
            pass  # a full disk: who put the messages is not known; the log loses nothing


class Putters:
    """The reader's side: who put the message of a put record at an LSN."""

    def __init__(self, notes: list[tuple[int, str, str]]):
        self.notes = sorted(notes)
        self._lsns = [lsn for lsn, _user, _appl in self.notes]

    def of(self, lsn: int, user: str | None, appl: str | None) -> tuple[str, str] | None:
        """(user id, application) of the put record at lsn with these fields of its own; None where it
        is not recorded (a put before the first note)."""
        index = bisect.bisect_right(self._lsns, lsn) - 1
        if index < 0:
            return None
        _lsn, noted_user, noted_appl = self.notes[index]
        return user or noted_user, appl or noted_appl


def read(log_root: Path) -> Putters:
    """The notes of a queue manager's log (none when the file is missing or unreadable)."""
    try:
        text = notes_path(log_root).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return Putters([])
    notes = []
    for line in text.splitlines():
        parts = line.split(" ")
        if len(parts) == 3 and parts[0].isdigit():
            notes.append((int(parts[0]), parts[1], parts[2]))
    return Putters(notes)
