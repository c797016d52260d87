"""File writes held until the end of the command, or of a batch's group of commands.

Making a new file costs the file system far more than the command that asks
for it (an inode and a directory entry, journaled), and the more so between
the log's writes and forces: measured, a batch's object files cost a third as
much made together as made one by one between the commands. A command that
defines or alters an object (already safe in the log) hands the write of its
object file here. The writes are done, in the order asked for, before any
response is given (Installation.force_logs, with the log's force), and before
anything reads, copies or removes such a file (drain): between commands the
files are as they would be had each been written at once.
"""

from __future__ import annotations

from collections.abc import Callable


class FileWriter:
    def __init__(self) -> None:
        self._writes: list[Callable[[], None]] = []
        self._keys: set[str] = set()

    def submit(self, key: str, write: Callable[[], None]) -> None:
        """Hold write (of key's file) until the next drain."""
        self._writes.append(write)
        self._keys.add(key)

    def pending(self, key: str) -> bool:
        """Whether a write of key's file is held."""
        return key in self._keys

    def drain(self) -> None:
        """Do every held write, in order; one that fails raises its error, the rest stay held."""
        while self._writes:
            write = self._writes[0]
            write()
            self._writes.pop(0)
        self._keys.clear()

    def discard(self) -> None:
        """A crash: the held writes never happen, as in a process that dies; the log holds
        what they would have written, and the next start's recovery writes it."""
        self._writes.clear()
        self._keys.clear()
