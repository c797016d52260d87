"""The recovery log's writer: records appended to the newest extent, new extents started as they fill.

The newest extent is given its full size when it starts, and that room is written with zeros
a megabyte ahead of the records, as MQ formats its log files: forcing a record then writes the
record alone, not also the file's new length (a third of a force) nor the file system's note
that a block of the room now holds data (a tenth to a quarter of an echoed DEFINE's force).
Its records end where the zeros begin, which read as a torn end. An extent that ends (sealed,
or closed cleanly) is cut to its records, so that only the newest ever has such room after them.

A record is handed to the operating system with a single write() before the
change it describes is made anywhere else, so a process killed at any instant
leaves every record it reported as written on disk. A kill in the middle of a
write leaves at most a torn last line, which the next start cuts off: that
change was never acknowledged, so dropping it loses nothing. A write the
file system takes only in part (a full disk) is cut back at once and fails:
a record is reported as written only when all of it is there.

A full disk must not stop a backout or a checkpoint record, the records that
let the queue manager give space back. So the log keeps a reserve file beside
its control file, made while there is room; a reserved record that finds the
disk full gives the reserve's space to the log and is written in it.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mqsh.store.log import encode, extent_path, first_lsn, list_extents, valid_end

RESERVE_BYTES = 64 * 1024  # room for backout and checkpoint records on a full disk
FORMAT_BYTES = 1024 * 1024  # the extent's room written with zeros ahead of its records at a time


def _older_than(path: Path, previous: Path) -> bool:
    """Whether an extent's file starts before the extent written just before it."""
    start, before = first_lsn(path), first_lsn(previous) if previous.exists() else None
    return start is not None and before is not None and start < before


Allocator = Callable[["LogWriter"], int]


class LogWriter:
    """Appends records to the newest extent, starting new extents as they fill.

    Which extent comes next is the allocator's decision (the queue manager's
    log management: reuse an old extent, create one, or refuse with LogFull);
    without one, extents simply follow one another. on_seal hears of each
    extent once it is full and will never change.
    """

    def __init__(
        self,
        directory: Path,
        extent_bytes: int,
        next_lsn: int,
        allocator: Allocator | None = None,
        on_seal: Callable[[Path], None] | None = None,
        on_start: Callable[[int], None] | None = None,
        reserve: Path | None = None,
        on_write: Callable[[int], None] | None = None,
    ):
        self.directory = directory
        self.on_write = on_write  # told of each write's first LSN once it is in the file
        self.reserve = reserve  # the file whose space reserved records may take on a full disk
        self.on_seal = on_seal  # told of each extent once it is full and will never change
        self.on_start = on_start  # told of each new extent once its file is there (the control file names it)
        self.extent_bytes = extent_bytes
        self.next_lsn = next_lsn
        self.allocator = allocator
        directory.mkdir(parents=True, exist_ok=True)
        extents = list_extents(directory)
        self.extent = extents[-1] if extents else 0
        path = extent_path(directory, self.extent)
        if path.exists():
            previous = extent_path(directory, extents[-2]) if len(extents) > 1 else None
            if previous is not None and _older_than(path, previous):
                # A ring file taken for the next extent, by a process killed before it was
                # emptied: what it holds belongs to an extent long since given up.
                os.truncate(path, 0)
            # Cut a torn last record left by a process killed mid-write.
            good, last_lsn = valid_end(path)
            if good != path.stat().st_size:
                os.truncate(path, good)
            if last_lsn < 0 and previous is not None:
                # An extent started but not yet written to: the log ends in the one before.
                last_lsn = valid_end(previous)[1]
            self.next_lsn = max(self.next_lsn, last_lsn + 1)
        self._fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
        self.size = os.fstat(self._fd).st_size
        self._make_full_size()
        self.records_written = 0
        self._unforced = False  # records written since the last force to disk
        self.keep_reserve()

    def keep_reserve(self) -> None:
        """Make the reserve file again if a full disk took it; a disk still full leaves it for later."""
        if self.reserve is None or self.reserve.exists():
            return
        temporary = self.reserve.with_name(self.reserve.name + ".tmp")
        try:
            with open(temporary, "wb") as handle:
                handle.write(bytes(RESERVE_BYTES))
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temporary, self.reserve)
        except OSError as error:
            temporary.unlink(missing_ok=True)
            if error.errno != errno.ENOSPC:
                raise

    def _make_full_size(self) -> None:
        """Give the current extent its full size before records fill it (see the module's
        docstring); writes go at self.size. A disk without the room goes on without it."""
        os.lseek(self._fd, self.size, os.SEEK_SET)
        self.formatted = self.extent_bytes  # nothing to format (see _format_ahead) unless room is given
        if self.size < self.extent_bytes:
            try:
                os.posix_fallocate(self._fd, self.size, self.extent_bytes - self.size)
                self.formatted = self.size
            except OSError:
                pass  # no room (or no support): the extent grows as it is written

    def _format_ahead(self, end: int) -> None:
        """Write zeros over the extent's room before records up to end reach it, a megabyte at a
        time (see the module's docstring): one force in a megabyte's worth carries them too."""
        if end <= self.formatted or self.formatted >= self.extent_bytes:
            return
        upto = min(max(end, self.formatted + FORMAT_BYTES), self.extent_bytes)
        wanted = upto - self.formatted
        try:
            done = os.pwrite(self._fd, bytes(wanted), self.formatted) == wanted
        except OSError:
            done = False
        # Zeros not written leave the rest of the room to the records, as a disk with none to give does.
        self.formatted = upto if done else self.extent_bytes

    def _cut_to_records(self) -> None:
        """The room given beyond the records goes again, and writing goes on after them: an
        extent that ends (sealed, or closed cleanly) is as long as its records, as readers of the
        log other than the newest expect, and a record written in part is gone."""
        os.ftruncate(self._fd, self.size)
        os.lseek(self._fd, self.size, os.SEEK_SET)
        self.formatted = self.extent_bytes  # the room has gone: nothing is formatted after the records

    @property
    def full(self) -> bool:
        return self.size >= self.extent_bytes

    def make_room(self) -> None:
        """Go on in a new extent when the current one is full (LogFull when there is none)."""
        if self.full:
            self.advance()

    def append(self, record: dict[str, Any], reserved: bool = False) -> int:
        """Write one record (its 'lsn' is assigned here) and return the LSN.

        reserved records (backing out, checkpoints taken to free space) go into
        the current extent even when it is full: MQ keeps space for them, so
        rolling back never fails for want of log.
        """
        if not reserved:
            self.make_room()
        lsn = self.next_lsn
        data = encode({"lsn": lsn, **record})
        try:
            self.append_block(data, 1)
        except OSError as error:
            if not (
                reserved
                and error.errno == errno.ENOSPC
                and self.reserve is not None
                and self.reserve.exists()
            ):
                raise
            self.reserve.unlink()  # its space is the log's now; keep_reserve makes it again
            self.append_block(data, 1)
        return lsn

    def append_block(self, data: bytes, count: int) -> None:
        """Write count records, encoded and numbered from next_lsn, with one write().

        The block goes into the current extent as it is: make_room() first. All
        of it reaches the file or none of it does (OSError, ENOSPC for a write
        the file system took only in part).
        """
        self._format_ahead(self.size + len(data))
        try:
            written = os.write(self._fd, data)
        except OSError:
            self._cut_back()
            raise
        if written != len(data):
            self._cut_back()
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        if self.on_write is not None:
            self.on_write(self.next_lsn)
        self.next_lsn += count
        self.size += len(data)
        self.records_written += count
        self._unforced = True

    def _cut_back(self) -> None:
        """Take a record written in part off the end of the extent: it was never written."""
        try:
            self._cut_to_records()  # the room beyond goes too: a disk that filled has none to give
        except OSError:
            pass  # the torn end is cut by the next start, as after a kill mid-write

    def advance(self) -> None:
        """Seal the current extent and go on in the next one the allocator gives."""
        self._start_extent(self.allocator(self) if self.allocator else self.extent + 1)

    def sync(self) -> None:
        os.fsync(self._fd)
        self._unforced = False

    def force(self) -> None:
        """Make the records written so far durable on the disk, not only in the operating
        system's memory: done before a command's response is given, so that what is
        acknowledged survives a failure of the machine, not only of the process. One force
        per command, however many records it wrote (a group commit)."""
        if self._unforced and self._fd >= 0:
            os.fdatasync(self._fd)
            self._unforced = False

    def _start_extent(self, number: int) -> None:
        """Go on in extent number. Its file exists before anything names it as current, and
        the full extent is sealed (copied, which takes a while) only after: a process killed
        at any point leaves a log whose newest extent is there."""
        self._cut_to_records()
        os.fsync(self._fd)
        self._unforced = False
        sealed = self.extent
        # O_TRUNC: a reused extent starts empty, like a new one.
        fd = os.open(extent_path(self.directory, number), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        full, self._fd = self._fd, fd  # the writer never holds a closed file
        self.extent, self.size = number, 0
        os.close(full)
        self._make_full_size()
        if self.on_start is not None:
            self.on_start(number)
        if self.on_seal is not None:
            self.on_seal(extent_path(self.directory, sealed))

    def close(self) -> None:
        if self._fd >= 0:
            self._cut_to_records()
            os.fsync(self._fd)
            os.close(self._fd)
            self._fd = -1

    def abandon(self) -> None:
        """Drop the file handle without syncing: what a crash leaves behind."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
