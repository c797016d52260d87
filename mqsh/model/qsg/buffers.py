"""A member's buffer pool for the shared message data sets of one structure (DSBUFS buffers).

Each buffer holds one message's pages of one block. After a write or a read
a buffer keeps its data, and the buffers are reused least recently used
first, so that reading the same data again soon after needs no read from
the data set: a hit. The counters are those DISPLAY USAGE TYPE(SMDS) reports
for the current statistics interval (since the member started): the lowest
number of free buffers (negative: the most requests that waited for one),
the waits, the buffers holding saved data, and the hits and misses of reads.

A request takes a buffer for every block of its message at once; the
member's requests run one at a time, so the only request that waits is one
whose message has more blocks than the pool has buffers.

The buffers are in the queue manager's storage above the bar, which z/OS
limits (the address space's MEMLIMIT). The lab sets a member's limit (LAB
MEMLIMIT, kept beside the queue manager so that it holds across restarts);
a pool the rest of that storage cannot hold is not obtained (STGFAIL).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path

from mqsh.store.files import CorruptFile, read_document, write_document

MB = 1024 * 1024

Key = tuple[str, int, str]  # data set owner, block, entry id: a block reused for another message is new data


def memlimit_file(qmgr_dir: Path) -> Path:
    return qmgr_dir / "memlimit"


def storage_limit(qmgr_dir: Path) -> int | None:
    """The member's storage above the bar for buffers, in bytes; None when unlimited (z/OS's NOLIMIT).
    A file that cannot be read sets no limit: it is the lab's setting, not the member's data."""
    try:
        megabytes = read_document(memlimit_file(qmgr_dir)).get("megabytes")
    except (OSError, CorruptFile, AttributeError):
        return None
    return megabytes * MB if isinstance(megabytes, int) and megabytes > 0 else None


def set_storage_limit(qmgr_dir: Path, megabytes: int | None) -> None:
    write_document(memlimit_file(qmgr_dir), {"megabytes": megabytes}, sync=True)


class BufferPool:
    def __init__(self, size: int, block: int = 0):
        self.size = size
        self.block = block  # bytes of each buffer: the structure's DSBLOCK
        self.saved: OrderedDict[Key, None] = OrderedDict()  # least recently used first
        self.lowest_free = size
        self.waits = 0
        self.hits = 0
        self.misses = 0

    def resize(self, size: int) -> None:
        """ALTER SMDS DSBUFS: the pool is rebuilt with the new number of buffers."""
        if size != self.size:
            self.size = size
            self.lowest_free = min(self.lowest_free, size)
            self._trim()

    def _take(self, count: int) -> None:
        free = self.size - count
        if free < 0:
            self.waits += 1
            free = -1  # one request (the member's only one) waited
        self.lowest_free = min(self.lowest_free, free)

    def _trim(self) -> None:
        while len(self.saved) > self.size:
            self.saved.popitem(last=False)

    def _keep(self, keys: Iterable[Key]) -> None:
        for key in keys:
            self.saved[key] = None
            self.saved.move_to_end(key)
        self._trim()

    def wrote(self, owner: str, e: str, first: int, count: int) -> None:
        """A message's blocks were written through the pool: their buffers keep the data."""
        self._take(count)
        self._keep((owner, block, e) for block in range(first, first + count))

    def read(self, owner: str, e: str, first: int, count: int) -> list[int]:
        """A message's blocks are wanted: the blocks that must be read from the data set (the misses)."""
        self._take(count)
        keys = [(owner, block, e) for block in range(first, first + count)]
        missing = [key[1] for key in keys if key not in self.saved]
        self.hits += count - len(missing)
        self.misses += len(missing)
        self._keep(keys)
        return missing

    def forget(self, owner: str) -> None:
        """The data set was closed: what the pool saved of it may be stale when it is opened again."""
        for key in [key for key in self.saved if key[0] == owner]:
            del self.saved[key]

    @property
    def bytes(self) -> int:
        return self.size * self.block

    def hit_percent(self) -> int:
        reads = self.hits + self.misses
        return 100 * self.hits // reads if reads else 0
