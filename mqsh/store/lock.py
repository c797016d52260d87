"""One process holds a queue manager at a time (an advisory lock on qm.lock).

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
        self.path = path
        self.name = name
        self._fd: int | None = None

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            os.close(fd)
            raise QmgrInUse(self.name, f" (pid {holder})" if holder else "") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode("ascii"), 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
