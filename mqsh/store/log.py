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

Its writer (mqsh.store.log_writer) gives the newest extent its full size ahead of the records,
written with zeros, which read as a torn end; a process killed in the middle of a write leaves at
most a torn last line, which the next start cuts off (valid_end finds where the records end).
"""

from __future__ import annotations

import os
import re
import zlib
from collections.abc import Iterator
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
