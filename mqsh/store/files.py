"""Small-file primitives: atomic replace and checksummed JSON documents.

Object files, the log control file and qm.ini-like files are rewritten whole.
Writing a temporary file and renaming it over the old one means a process
killed mid-write leaves either the old or the new file, never half of one.
A CRC-32 in the first line lets a damaged (truncated, edited) file be told
apart from a good one.
"""

from __future__ import annotations

import json
import os
import zlib
from pathlib import Path
from typing import Any

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


def write_document(path: Path, document: Any, sync: bool = False) -> None:
    body = json.dumps(document, separators=(",", ":"), sort_keys=True).encode("utf-8")
    header = f"{MAGIC} {zlib.crc32(body):08x} {len(body)}\n".encode("ascii")
    atomic_write(path, header + body, sync)


def read_document(path: Path) -> Any:
    """The document stored at path; FileNotFoundError or CorruptFile otherwise."""
    raw = path.read_bytes()
    header, _, body = raw.partition(b"\n")
    try:
        magic, crc, length = header.decode("ascii").split()
        valid = magic == MAGIC and int(length) == len(body) and int(crc, 16) == zlib.crc32(body)
    except (UnicodeDecodeError, ValueError):
        valid = False
    if not valid:
        raise CorruptFile(str(path))
    try:
        return json.loads(body)
    except ValueError:
        raise CorruptFile(str(path)) from None
