"""One process holds a queue manager at a time (an advisory lock on its directory).

The lock is taken on the queue manager's directory rather than on a file in
it: a file can be deleted by hand while it is held, and the next process
would then lock a new file of the same name and get in beside the holder. A
directory with files in it cannot be deleted that way. qm.lock only tells
other processes which one holds the queue manager.

The lock goes away with the process, so a killed mqsh never leaves a queue
manager locked; the next process notices the unclean end from the log control
file instead.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


class QmgrInUse(Exception):
    def __init__(self, name: str, holder: str):
        super().__init__(f"queue manager {name} is in use by another mqsh process{holder}")
        self.name = name


class QmgrLock:
    def __init__(self, path: Path, name: str):
        self.path = path  # qm.lock: the holder's process id, in the directory that is locked
        self.name = name
        self._fd: int | None = None

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise QmgrInUse(self.name, self._holder()) from None
        try:
            self.path.write_text(str(os.getpid()), encoding="ascii")
        except OSError:
            os.close(fd)  # the lock goes with the descriptor
            raise
        self._fd = fd

    def held_elsewhere(self) -> bool:
        """Whether a live process holds the queue manager now (its lock cannot be taken).
        The lock dies with its process, so a killed holder no longer counts."""
        try:
            fd = os.open(self.path.parent, os.O_RDONLY | os.O_DIRECTORY)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        finally:
            os.close(fd)  # closing the descriptor drops a lock taken just now
        return False

    def _holder(self) -> str:
        try:
            pid = self.path.read_text(encoding="ascii", errors="replace").strip()
        except OSError:
            return ""  # deleted by hand: the holder is still told apart by the directory's lock
        return f" (pid {pid})" if pid else ""

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
