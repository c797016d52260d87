"""Shared message data sets: the files that hold the data of messages offloaded from a structure.

One data set per member per structure, named from the structure's DSGROUP
with its ``*`` replaced by the owning member's name, a file under
``<data dir>/qsg/<QSG>/smds/``. Page 0 is the header: what the data set is
(group, structure, owner), its size in blocks and extents, whether it was
ever used, whether a recovery of it was started and not finished, and the
space map saved when its owner closed it normally, with that map's time
stamp, and the id of the structure's definition it was formatted for (a data
set left from a structure deleted since holds residual data). Then come the
blocks (DSBLOCK bytes each): each message's data starts with a prefix holding
the entry id of its structure entry, which is checked whenever the block is
read. The rest of a block is the message's bytes,
which the simulation leaves as a hole in the file (a sparse file).

Only the owner writes blocks; every member reads them.
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mqsh.model.qsg.buffers import BufferPool
from mqsh.recovery.spacemap.reference import runs_of

PAGE = 4096
MAGIC = b"MQSH-SMDS"
PREFIX = 64  # bytes of each message's first block that hold its prefix
# Sizes a data set is given when its owner first formats it, unless LAB SIZE set others: the
# primary and secondary allocations in blocks, and the most extents it may have.
PRIMARY_BLOCKS, SECONDARY_BLOCKS, MAX_EXTENTS = 1024, 256, 123
EXPAND_AT = 0.9  # a data set is expanded when it is 90 % full


class DataSetError(Exception):
    """What went wrong opening or using a data set, sorted as z/OS's SMDSCONN status sorts them.

    kind: ALLOCFAIL (cannot be allocated: missing), OPENFAIL (cannot be opened),
    STGFAIL (storage for the member's buffers cannot be obtained),
    HEADER (header invalid), EMPTY (unexpectedly empty), IOERROR (permanent I/O
    error), PREFIX (a block prefix does not match its entry), PARTIAL (a
    recovery was started and not finished).
    """

    def __init__(self, kind: str, text: str):
        super().__init__(text)
        self.kind = kind


def data_set_name(dsgroup: str, owner: str) -> str:
    return dsgroup.replace("*", owner, 1).strip("'")


def data_set_path(data_dir: Path, qsg: str, dsname: str) -> Path:
    return data_dir / "qsg" / qsg / "smds" / dsname


def io_error_marker(path: Path) -> Path:
    """While this file exists, every read of the data set fails: a permanent I/O error."""
    return path.with_name(path.name + ".ioerror")


def deny_marker(path: Path, member: str) -> Path:
    """While this file exists, member cannot open the data set: an environmental failure its alone."""
    return path.with_name(f"{path.name}.deny-{member}")


def size_file(path: Path) -> Path:
    """The size LAB SIZE gave a data set (JSON: blocks, secondary, max_extents), used when it is formatted."""
    return path.with_name(path.name + ".size")


@dataclass(frozen=True)
class Sizing:
    """A data set's allocation, in blocks: its primary extent, each secondary extent, the most extents."""

    blocks: int
    secondary: int
    max_extents: int


DEFAULT_SIZING = Sizing(PRIMARY_BLOCKS, SECONDARY_BLOCKS, MAX_EXTENTS)


def allocation(path: Path) -> Sizing:
    """The allocation a data set made anew at path gets: the one LAB SIZE gave it, else the default."""
    try:
        given = json.loads(size_file(path).read_text())
    except (OSError, ValueError):
        return DEFAULT_SIZING
    return Sizing(
        int(given["blocks"]),
        int(given.get("secondary", SECONDARY_BLOCKS)),
        int(given.get("max_extents", MAX_EXTENTS)),
    )


def extents_held(path: Path, block: int, sizing: Sizing) -> tuple[int, int]:
    """(extents, secondary size) of an existing data set whose header cannot be read - spoiled, or
    preformatted anew - from its length: neither changes its allocation, the extents it grew by
    included. With no secondary allocation each extent was about 20 % of the primary (DataSet.expand)."""
    try:
        held = (path.stat().st_size - PAGE) // block
    except OSError:
        held = 0
    if held <= sizing.blocks:
        return 1, sizing.secondary
    secondary = sizing.secondary or max(1, sizing.blocks // 5)
    return 1 + -(-(held - sizing.blocks) // secondary), secondary


def block_bytes(dsblock: str) -> int:
    """DSBLOCK as bytes: 8K ... 1M."""
    text = str(dsblock).upper()
    return int(text[:-1]) * (1024 * 1024 if text.endswith("M") else 1024)


def blocks_for(size: int, block: int) -> int:
    """How many blocks a message of size bytes takes, its prefix included."""
    return max(1, -(-(size + PREFIX) // block))


@dataclass
class Header:
    qsg: str
    cf: str
    owner: str
    block: int
    blocks: int  # the blocks of every extent
    extents: int = 1
    secondary: int = SECONDARY_BLOCKS
    max_extents: int = MAX_EXTENTS
    used: bool = False  # a message was ever written since it was formatted
    partial: bool = False  # a recovery of it was started and not finished
    space_map: dict[str, Any] | None = None  # {"stamp": ..., "used": [[first, count], ...]} at normal close
    formatted: str = ""
    structure: str = ""  # the id of the structure's definition it was formatted for (the repository's)
    extra: dict[str, Any] = field(default_factory=dict)

    def total_blocks(self) -> int:
        """Its primary extent and every secondary one it grew by."""
        return self.blocks + (self.extents - 1) * self.secondary

    def made_for(self, qsg: str, cf: str, owner: str, defined: str) -> bool:
        """Whether it is the header of owner's data set of this definition (its id) of the structure."""
        return (self.qsg, self.cf, self.owner, self.structure) == (qsg, cf, owner, defined)

    def encode(self) -> bytes:
        body = json.dumps(
            {
                "qsg": self.qsg,
                "cf": self.cf,
                "owner": self.owner,
                "block": self.block,
                "blocks": self.blocks,
                "extents": self.extents,
                "secondary": self.secondary,
                "max_extents": self.max_extents,
                "used": self.used,
                "partial": self.partial,
                "space_map": self.space_map,
                "formatted": self.formatted,
                "structure": self.structure,
            },
            sort_keys=True,
            separators=(",", ":"),
        ).encode()
        line = MAGIC + b" %08X " % zlib.crc32(body) + body + b"\n"
        if len(line) > PAGE:
            raise ValueError("data set header does not fit its page")
        return line.ljust(PAGE, b" ")


def _decode(page: bytes, path: Path) -> Header:
    if not page.strip(b"\0 \n"):
        raise DataSetError(
            "EMPTY", f"data set {path.name} is unexpectedly empty: it is uninitialized or newly preformatted"
        )
    line = page.split(b"\n", 1)[0]
    parts = line.split(b" ", 2)
    try:
        if len(parts) != 3 or parts[0] != MAGIC or int(parts[1], 16) != zlib.crc32(parts[2]):
            raise ValueError
        fields = json.loads(parts[2])
        return Header(**fields)
    except (ValueError, TypeError):
        raise DataSetError("HEADER", f"the header of data set {path.name} is not valid") from None


def initialized(path: Path) -> bool:
    """Whether the data set exists with its header written: not newly allocated or preformatted."""
    try:
        with open(path, "rb") as file:
            return bool(file.read(PAGE).strip(b"\0 \n"))
    except OSError:
        return False


def format_data_set(path: Path, header: Header) -> None:
    """A new, empty data set (or one formatted anew): the header, nothing used."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.pwrite(fd, header.encode(), 0)
        os.ftruncate(fd, PAGE + header.total_blocks() * header.block)
        os.fsync(fd)
    finally:
        os.close(fd)


def refuse_residual(path: Path, qsg: str, cf: str, owner: str, defined: str) -> None:
    """DataSetError HEADER when a data set its owner is to format for its first use holds data: another
    structure's, or an earlier definition's of this one (defined: the id of the current one) - residual
    data from another use, which z/OS wants preformatted first. Missing or preformatted, it may be
    formatted; so may one with its own header, written by a first use that a crash cut short."""
    if not path.exists() or not initialized(path):
        return
    try:
        data_set = DataSet(path, owner_side=False)
    except DataSetError as error:
        if error.kind not in ("HEADER", "EMPTY"):
            raise
        raise DataSetError(
            "HEADER", f"data set {path.name} holds residual data and has not been preformatted"
        ) from None
    data_set.close()
    header = data_set.header
    if not header.made_for(qsg, cf, owner, defined):
        raise DataSetError(
            "HEADER",
            f"data set {path.name} holds residual data from a previous use "
            f"(SMDS({header.owner}) CFSTRUCT({header.cf}), formatted {header.formatted}) "
            "and has not been preformatted",
        )


def _prefix(e: str, index: int) -> bytes:
    body = b"%s %d" % (e.encode(), index)
    return (b"BLK %08X " % zlib.crc32(body) + body).ljust(PREFIX, b" ")


def _named(prefix: bytes) -> tuple[str, int] | None:
    """The entry id and block index a prefix names; None for a block never written (or not a prefix)."""
    parts = prefix.rstrip(b" \0").split(b" ", 2)
    try:
        if len(parts) != 3 or parts[0] != b"BLK" or int(parts[1], 16) != zlib.crc32(parts[2]):
            return None
        e, index = parts[2].split(b" ")
        return e.decode(), int(index)
    except ValueError:
        return None


class DataSet:
    """An open data set. The owner opens it for update and keeps its space map; others read."""

    def __init__(self, path: Path, owner_side: bool, member: str | None = None):
        """Open it, for update on the owner's side; member is who opens it."""
        self.path = path
        self.owner_side = owner_side
        if member is not None and deny_marker(path, member).exists():
            raise DataSetError(
                "OPENFAIL", f"data set {path.name} cannot be opened by {member}: access denied"
            )
        try:
            self.fd = os.open(path, os.O_RDWR if owner_side else os.O_RDONLY)
        except FileNotFoundError:
            raise DataSetError(
                "ALLOCFAIL", f"data set {path.name} cannot be allocated: it does not exist"
            ) from None
        except OSError as error:
            raise DataSetError(
                "OPENFAIL", f"data set {path.name} cannot be opened: {error.strerror}"
            ) from None
        try:
            self.header = _decode(self._read(0, PAGE), path)
        except BaseException:
            os.close(self.fd)
            raise
        self.used: set[int] = set()  # blocks in use (the owner's space map)
        self.pool: BufferPool | None = None  # the member's buffers for the structure, once it uses them

    def _read(self, offset: int, length: int) -> bytes:
        if io_error_marker(self.path).exists():
            raise DataSetError("IOERROR", f"permanent I/O error reading data set {self.path.name}")
        return os.pread(self.fd, length, offset)

    def close(self) -> None:
        os.close(self.fd)

    def write_header(self) -> None:
        os.pwrite(self.fd, self.header.encode(), 0)
        os.fdatasync(self.fd)

    # ------------------------------------------------------------ space
    def percent_full(self) -> int:
        return 100 * len(self.used) // max(1, self.total_blocks())

    def total_blocks(self) -> int:
        return self.header.total_blocks()

    def free_run(self, count: int) -> int | None:
        """The first block of count free blocks in a row, or None."""
        run, total = 0, self.total_blocks()
        for block in range(total):
            run = 0 if block in self.used else run + 1
            if run == count:
                return block - count + 1
        return None

    def expand(self) -> None:
        """One more extent of the secondary size (the caller checked the limits). With no secondary
        allocation the expansion asks for about 20 % of the current size, which becomes the secondary
        size of every later extent."""
        if self.header.secondary == 0:
            self.header.secondary = max(1, self.total_blocks() // 5)
        self.header.extents += 1
        os.ftruncate(self.fd, PAGE + self.total_blocks() * self.header.block)
        self.write_header()

    # ------------------------------------------------------------ blocks
    def write_message(self, e: str, first: int, count: int) -> None:
        """Each block's prefix names the entry (the data itself is the hole after it)."""
        if not self.header.used:
            self.header.used = True
            self.write_header()
        for index in range(count):
            os.pwrite(self.fd, _prefix(e, index), PAGE + (first + index) * self.header.block)
        self.used.update(range(first, first + count))
        if self.pool is not None:
            self.pool.wrote(self.header.owner, e, first, count)

    def check_message(self, e: str, first: int, count: int) -> None:
        """DataSetError PREFIX when a block does not carry the entry's prefix. Blocks the buffer pool
        still holds are not read again."""
        blocks = (
            self.pool.read(self.header.owner, e, first, count)
            if self.pool is not None
            else range(first, first + count)
        )
        for block in blocks:
            index = block - first
            found = self._read(PAGE + block * self.header.block, PREFIX)
            if found != _prefix(e, index):
                raise DataSetError(
                    "PREFIX", f"block {first + index} of data set {self.path.name} does not hold entry {e}"
                )

    def held_at(self, block: int) -> str | None:
        """The entry whose first block this block is, as the file holds it (not the member's buffers);
        None when it holds no message's first block."""
        named = _named(self._read(PAGE + block * self.header.block, PREFIX))
        return named[0] if named is not None and named[1] == 0 else None

    def newest_written(self) -> str | None:
        """The newest entry whose first block the file holds (entry ids sort in put order): how recent
        the data set's contents are. A read of every block's prefix, for the rare moment it is asked."""
        held = [self.held_at(block) for block in range(self.total_blocks())]
        return max((e for e in held if e is not None), default=None)

    def release(self, first: int, count: int) -> None:
        self.used.difference_update(range(first, first + count))

    def save_space_map(self, stamp: str) -> None:
        """At a normal close: the space map and its time stamp go into the header."""
        self.header.space_map = {"stamp": stamp, "used": [list(run) for run in runs_of(self.used)]}
        self.write_header()

    def take_space_map(self, stamp: str | None) -> bool:
        """Use the saved space map when its time stamp is the one the repository holds; the map is
        then taken out of the header (it holds only until the next normal close). False when it
        must be rebuilt by scanning the structure."""
        saved = self.header.space_map
        self.header.space_map = None
        self.write_header()
        if saved is None or stamp is None or saved.get("stamp") != stamp:
            return False
        self.use_runs(saved["used"])
        return True

    def use_runs(self, runs: Iterable[Sequence[int]]) -> None:
        """The space map given as runs of blocks in use, (first, count) each."""
        self.used = {first + index for first, count in runs for index in range(count)}
