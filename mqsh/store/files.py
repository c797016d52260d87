"""Small-file primitives: atomic replace and checksummed JSON documents.

Object files, the log control file and qm.ini-like files are rewritten whole.
Writing a temporary file and renaming it over the old one means a process
killed mid-write leaves either the old or the new file, never half of one.
A CRC-32 in the first line lets a damaged (truncated, edited) file be told
apart from a good one.

Object files change far more often than the rest (every ALTER), and a rename
over an existing file costs the file system several times the write itself.
So they are rewritten in place when the new document fits in the file's
bytes: one write of at most a page, which a killed process makes whole or not
at all. Blank padding after the document (the header gives its length) keeps
the size, and a new file is made with some room to grow into.
"""

from __future__ import annotations

import errno
import os
import zlib
from pathlib import Path
from typing import Any

from mqsh.store import jsontext

MAGIC = "MQSH1"


class CorruptFile(Exception):
    """The file exists but its contents do not match their checksum."""


def atomic_write(path: Path, data: bytes, sync: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    try:
        with open(temporary, "wb") as handle:
            handle.write(data)
            if sync:
                handle.flush()
                os.fsync(handle.fileno())
    except OSError:
        temporary.unlink(missing_ok=True)  # a full disk: the old file stays, and no half-written one
        raise
    os.replace(temporary, path)


PAGE = 4096  # a write within one page of a file is never cut short by a kill
ROOM = 512  # new object files are padded to a multiple of this, for later changes to fit


def encode_document(document: Any) -> bytes:
    """A document as its file holds it: the checksummed header, then the JSON."""
    body = jsontext.dumps(document, sort_keys=True)
    header = f"{MAGIC} {zlib.crc32(body):08x} {len(body)}\n".encode("ascii")
    return header + body


def write_document(path: Path, document: Any, sync: bool = False) -> None:
    atomic_write(path, encode_document(document), sync)


def rewrite_encoded(path: Path, data: bytes, probably_new: bool = False) -> None:
    """Write an often-changed document (encode_document): in place when it fits, else whole and renamed.

    A new file is written where it will stay, with no temporary name: a process killed
    before the write ends leaves a file that does not read, which the start treats as it
    treats a missing one (the log record that made the object settles both).
    probably_new says which to try first; either way the file decides.
    """
    roomy = data.ljust(-(-len(data) // ROOM) * ROOM)
    if probably_new:
        try:
            return _create(path, roomy)
        except FileExistsError:
            pass
    try:
        fd = os.open(path, os.O_WRONLY)
    except FileNotFoundError:
        return _create(path, roomy)
    try:
        size = os.fstat(fd).st_size
        if len(data) <= size <= PAGE and os.pwrite(fd, data.ljust(size), 0) == size:
            return None
    finally:
        os.close(fd)
    return atomic_write(path, roomy)


def _create(path: Path, data: bytes) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        if os.write(fd, data) != len(data):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    except OSError:
        os.close(fd)
        path.unlink(missing_ok=True)  # a full disk: no half-written file
        raise
    os.close(fd)


def read_document(path: Path) -> Any:
    """The document stored at path; FileNotFoundError or CorruptFile otherwise."""
    raw = path.read_bytes()
    header, _, rest = raw.partition(b"\n")
    try:
        magic, crc, length = header.decode("ascii").split()
        body, padding = rest[: int(length)], rest[int(length) :]
        valid = (
            magic == MAGIC
            and int(length) == len(body)
            and not padding.strip(b" ")
            and int(crc, 16) == zlib.crc32(body)
        )
    except (UnicodeDecodeError, ValueError):
        valid = False
    if not valid:
        raise CorruptFile(str(path))
    try:
        return jsontext.loads(body)
    except ValueError:
        raise CorruptFile(str(path)) from None
