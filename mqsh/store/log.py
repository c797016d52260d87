"""The recovery log: numbered extents of checksummed records, written first.

Each record is one line, ``<crc32> <json>``; the JSON carries the record's LSN
(a number that only grows). Extents are named like MQ's, ``S0000000.LOG``,
``S0000001.LOG`` ..., and a new one is started when the current one reaches
the extent size (LogFilePages x 4 KB).

Extents are numbered in the order they are written, and on a linear log an
extent's number is its file's. A circular log goes round a ring of files
instead, as MQ's does: S0000000.LOG, S0000001.LOG, S0000002.LOG, then
S0000000.LOG again. There a ring file (``amqhring.lfh`` beside the extents)
says which file holds which extent; everything that reads extents by number
goes through extent_path, and names them with extent_file_name.

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
import re
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any, Literal

from mqsh.store import jsontext
from mqsh.store.files import CorruptFile, read_document, write_document

PAGE = 4096
EXTENT_PATTERN = re.compile(r"^S(\d{7})\.LOG$")


class LogCorrupt(Exception):
    """A record in the middle of the log does not match its checksum (or the ring file cannot be read)."""

    def __init__(self, extent: str, offset: int, problem: str | None = None):
        super().__init__(
            f"log extent {extent} is damaged at offset {offset}"
            if problem is None
            else f"log file {extent} is damaged: {problem}"
        )
        self.extent = extent
        self.offset = offset
        self.problem = problem or f"the record at offset {offset} does not match its checksum"


class LogFull(Exception):
    """No room for a new extent: every extent is still needed, or the log file system is full."""

    def __init__(self, long_running: bool):
        super().__init__("the log is full")
        self.long_running = long_running  # a unit of work, not the file system, holds the space


class ExtentMissing(Exception):
    """An extent needed for replay is not in the log directory (AMQ6767)."""

    def __init__(self, extent: str, number: int | None = None):
        super().__init__(f"log file {extent} not found")
        self.extent = extent  # the file's name
        self.number = number  # the extent's number, where the reader knows it


def extent_name(number: int) -> str:
    return f"S{number:07d}.LOG"


def extent_number(name: str) -> int | None:
    match = EXTENT_PATTERN.match(name)
    return int(match.group(1)) if match else None


RING_FILE = "amqhring.lfh"  # beside the extents; checksummed like the log control file
RESERVE_BYTES = 64 * 1024  # room for backout and checkpoint records on a full disk
FORMAT_BYTES = 1024 * 1024  # the extent's room written with zeros ahead of its records at a time


@dataclass
class Ring:
    """A circular log's files: the order the log goes round them, and which extent each holds."""

    order: list[int]  # file numbers, in the order extents are written to them
    extents: dict[int, int]  # extent number -> the number of the file holding it

    def file_of(self, number: int) -> int:
        """The file that holds (or, for an extent gone or still to come, would hold) an extent."""
        if number in self.extents:
            return self.extents[number]
        known = sorted(self.extents)
        if not known or not self.order:
            return number
        anchor = known[0] if number < known[0] else known[-1]
        return self.order[(self.order.index(self.extents[anchor]) + number - anchor) % len(self.order)]

    def holder(self, file: int) -> int | None:
        """The extent the file holds now, if any."""
        return next((number for number, held_in in self.extents.items() if held_in == file), None)


def read_ring(directory: Path) -> Ring | None:
    """The ring of a circular log's directory; None for a linear log (or one not yet gone round)."""
    try:
        document = read_document(directory / RING_FILE)
        return Ring(
            list(document["order"]), {int(number): file for number, file in document["extents"].items()}
        )
    except FileNotFoundError:
        return None
    except (OSError, CorruptFile, ValueError, KeyError, TypeError, AttributeError):
        raise LogCorrupt(RING_FILE, 0, "it does not say which file holds which extent") from None


def write_ring(directory: Path, ring: Ring) -> None:
    """Replace the ring file whole and synced: a crash leaves the old ring or the new."""
    write_document(directory / RING_FILE, {"order": ring.order, "extents": ring.extents}, sync=True)


def extent_path(directory: Path, number: int, ring: Ring | None = None) -> Path:
    """The file of extent number (ring: the directory's ring, when the caller has read it)."""
    ring = ring if ring is not None else read_ring(directory)
    return directory / extent_name(ring.file_of(number) if ring is not None else number)


def extent_file_name(directory: Path, number: int) -> str:
    """The name of extent number's file, as MQ's messages and displays show it."""
    return extent_path(directory, number).name


def encode(record: dict[str, Any]) -> bytes:
    body = jsontext.dumps(record)
    return b"%08x " % zlib.crc32(body) + body + b"\n"


def checked_body(line: bytes) -> bytes | None:
    """The JSON text of a line, or None when the line fails its checksum."""
    if len(line) < 10 or line[8:9] != b" ":
        return None
    body = line[9:]
    try:
        return body if int(line[:8], 16) == zlib.crc32(body) else None
    except ValueError:
        return None


def list_extents(directory: Path) -> list[int]:
    """The numbers of the extents present, oldest first."""
    if not directory.is_dir():
        return []
    files = {
        number for number in (extent_number(path.name) for path in directory.iterdir()) if number is not None
    }
    ring = read_ring(directory)
    if ring is None:
        return sorted(files)
    return sorted(number for number, file in ring.extents.items() if file in files)


@dataclass
class Position:
    extent: int
    offset: int


# Every record's text starts with its LSN (encode() and the lab's loader put it first), so
# the records before a restart point are passed over by their checksum and this prefix,
# without parsing the rest: a restart reads a whole extent to replay its newest part.
LSN_PREFIX = re.compile(rb'\{"lsn":(\d+)[,}]')


def _scan_extent(path: Path, newest: bool = False) -> Iterator[tuple[int, bytes | None, bytes]]:
    """(offset, JSON text or None when the checksum fails, raw line) for each line of an extent."""
    with path.open("rb") as handle:  # the newest's records end at its first zero byte; its room is not read
        lines = (handle.read(records_end(path)).split(b"\0", 1)[0] if newest else handle.read()).split(b"\n")
    torn = lines.pop()  # what follows the last newline: nothing, or a record cut short
    offset = 0
    for line in lines:
        yield offset, checked_body(line), line
        offset += len(line) + 1
    if torn:
        yield offset, None, torn


def _parsed(body: bytes | None, from_lsn: int = 0) -> dict[str, Any] | Literal[False] | None:
    """The record in a checked line's text; False when it is older than from_lsn; None when damaged."""
    if body is None:
        return None
    prefix = LSN_PREFIX.match(body)
    if prefix is not None and int(prefix[1]) < from_lsn:
        return False
    try:
        record = jsontext.loads(body)
    except ValueError:
        return None
    return record if isinstance(record, dict) and isinstance(record.get("lsn"), int) else None


def extents_from(directory: Path, first_extent: int) -> list[int]:
    """The extents replay reads, first_extent onwards; ExtentMissing when one is not there."""
    extents = [number for number in list_extents(directory) if number >= first_extent]
    if extents and extents[0] != first_extent:
        raise ExtentMissing(extent_file_name(directory, first_extent))
    for previous, number in pairwise(extents):
        if number != previous + 1:
            raise ExtentMissing(extent_file_name(directory, previous + 1))
    return extents


def read_records(directory: Path, first_extent: int = 0, from_lsn: int = 0) -> Iterator[dict[str, Any]]:
    """Records with lsn >= from_lsn, in order, starting at extent first_extent.

    A damaged line at the very end of the newest extent is a torn write and ends
    the log; a damaged line anywhere else raises LogCorrupt. A gap in the extent
    numbers raises ExtentMissing before anything is read.
    """
    return read_extents(directory, extents_from(directory, first_extent), from_lsn)


def read_extents(
    directory: Path, numbers: list[int], from_lsn: int = 0, ends_log: bool = True
) -> Iterator[dict[str, Any]]:
    """Records with lsn >= from_lsn from these extents, in order.

    ends_log: the last of them is the newest extent of the log, whose last
    line may be a torn write.
    """
    ring = read_ring(directory)
    for index, number in enumerate(numbers):
        newest = ends_log and index == len(numbers) - 1
        path = extent_path(directory, number, ring)
        lines = list(_scan_extent(path, newest))
        for position, (offset, body, _raw) in enumerate(lines):
            record = _parsed(body, from_lsn)
            if record is None:
                if newest and position == len(lines) - 1:
                    return
                raise LogCorrupt(path.name, offset)
            if record is not False and record["lsn"] >= from_lsn:
                yield record


def first_lsn(path: Path) -> int | None:
    """The LSN of an extent's first record (None for an empty or unreadable start)."""
    with path.open("rb") as handle:
        record = _parsed(checked_body(handle.readline().rstrip(b"\n")))
    return record["lsn"] if record else None


def _older_than(path: Path, previous: Path) -> bool:
    """Whether an extent's file starts before the extent written just before it."""
    start, before = first_lsn(path), first_lsn(previous) if previous.exists() else None
    return start is not None and before is not None and start < before


def records_end(path: Path) -> int:
    """Where an extent's bytes end, before the room given to the newest beyond its records (zeros,
    which no record holds: its JSON escapes them), found from a few bytes of the file."""
    fd = os.open(path, os.O_RDONLY)
    try:
        low, high = 0, os.fstat(fd).st_size  # the end lies in [low, high]: data before, zeros from high on
        while low < high:
            middle = (low + high) // 2
            if os.pread(fd, 1, middle) == b"\0":
                high = middle
            else:
                low = middle + 1
        return low
    finally:
        os.close(fd)


def valid_end(path: Path) -> tuple[int, int]:
    """(byte length of the good prefix, last LSN in it) of the newest extent."""
    good, last_lsn = 0, -1
    for offset, body, raw in _scan_extent(path, newest=True):
        prefix = LSN_PREFIX.match(body) if body is not None else None
        if prefix is None:
            break
        good, last_lsn = offset + len(raw) + 1, int(prefix[1])
    return good, last_lsn


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
