"""LRSNs: the group-wide order of the members' shared-message log records.

z/OS takes a log record sequence number from the sysplex timer, so that the
logs of every member can be merged into one order when a structure is
recovered. Here each LRSN is the (simulated) clock in microseconds since the
Unix epoch, or the last one given in the group plus one, whichever is
greater: the order holds when the lab clock stands still or goes back, and
no two members ever give the same one. The last one given is kept in one
small file per group, changed under an exclusive lock.
"""

from __future__ import annotations

import fcntl
import os
import struct
from datetime import datetime
from pathlib import Path

_VALUE = struct.Struct(">Q")


def lrsn_path(data_dir: Path, qsg: str) -> Path:
    return data_dir / "qsg" / f"{qsg}.lrsn"


def microseconds(moment: datetime) -> int:
    return int(moment.timestamp() * 1_000_000)


def put_time(entry: str) -> datetime:
    """The simulated clock's time an entry id (its put's LRSN) carries."""
    return datetime.fromtimestamp(int(entry, 16) / 1_000_000)


def next_lrsn(path: Path, now: datetime, at_least: int = 0) -> int:
    """A new LRSN, above every one given before in the group and above at_least.

    at_least lets a recovery carry on above the LRSNs it found in the logs,
    should the file have been lost with the structure."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        stored = os.pread(fd, _VALUE.size, 0)
        last = _VALUE.unpack(stored)[0] if len(stored) == _VALUE.size else 0
        value = max(microseconds(now), last + 1, at_least + 1)
        # No fsync: after a power failure the clock has moved on past any value lost with the cache.
        os.pwrite(fd, _VALUE.pack(value), 0)
        return value
    finally:
        os.close(fd)


def entry_id(lrsn: int) -> str:
    """A message's entry id in its structure: the LRSN of its put, 16 hex digits. Unique in the group,
    it carries the time stamp of the put and sorts in put order."""
    return f"{lrsn:016X}"
