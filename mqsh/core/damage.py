"""Damaged objects: noticing that an object file was deleted, cut short or corrupted.

An object file is rewritten whole (a new file renamed over the old one), so
each write leaves a new (inode, size, mtime). The queue manager remembers that
stamp for every file it wrote or read; on each use of an object it compares the
file's stamp with the remembered one - one stat() - and only when they differ
reads the file again and checks its checksum. A file that is gone or fails its
checksum makes the object damaged: AMQ7472 goes to the error log, applications
get MQRC 2101 and MQSC gets AMQ8149 until the object is deleted or re-created.

The object catalog (QMQMOBJCAT) is watched the same way; it and the queue
manager object are the two files the queue manager cannot run without.

A file can also be whole but old: a copy from before later changes put back.
Its checksum is good, and a replay from the last checkpoint cannot bring it up
to date (the changes it lacks are older than the checkpoint). So the queue
manager also remembers the LSN each object file reflects, and every checkpoint
records it in the catalog; a start finds such a file by its older LSN
(mqsh.recovery.restart.set_aside_stale).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from mqsh.core.objects import MQObject
from mqsh.store.errorlog import ErrorLog
from mqsh.store.files import CorruptFile, read_document

Stamp = tuple[int, int, int]  # inode, size, mtime in nanoseconds
CATALOG_KEY = "CATALOG/QMQMOBJCAT"


class StartRefused(Exception):
    """The queue manager cannot start; msgid and text say why, code is strmqm's exit code."""

    def __init__(self, msgid: str, text: str, code: int = 71):
        super().__init__(text)
        self.msgid = msgid
        self.text = text
        self.code = code


def stamp_of(path: Path) -> Stamp | None:
    try:
        status = path.stat()
    except FileNotFoundError:
        return None
    return (status.st_ino, status.st_size, status.st_mtime_ns)


def read_object_file(path: Path) -> dict[str, Any] | None:
    """The document of an object file, or None when it is missing or damaged."""
    try:
        document = read_document(path)
    except (FileNotFoundError, CorruptFile):
        return None
    return document if isinstance(document, dict) else None


def error_log_type(obj: MQObject) -> str:
    """The type word of AMQ7472 ('Object Q1, type queue damaged.')."""
    return obj.namespace.lower()


class FileWatch:
    """The stamps of the files as the queue manager last wrote or read them, and the LSN each
    object file reflects."""

    def __init__(self) -> None:
        self._stamps: dict[str, Stamp | None] = {}
        # The newest log record each object file is known to reflect: as written or read, or
        # for a damaged object's file, what it should reflect (the catalog's record of it).
        self.lsns: dict[str, int] = {}

    def remember(self, key: str, path: Path, lsn: int | None = None) -> None:
        """The file as it is now; lsn, when given, is the LSN of the document it now holds."""
        self._stamps[key] = stamp_of(path)
        if lsn is not None:
            self.lsns[key] = lsn

    def seen(self, key: str) -> bool:
        """Whether the file was there when last written or read."""
        return self._stamps.get(key) is not None

    def forget(self, key: str) -> None:
        self._stamps.pop(key, None)
        self.lsns.pop(key, None)

    def intact(self, key: str, path: Path, readable: Callable[[Path], bool]) -> bool:
        """True when the file is as it was left, or was replaced by a file that still reads well.

        A file the queue manager never wrote or read has nothing to lose yet:
        it counts as intact even when it does not exist, as does one that was
        missing when last looked at.
        """
        current = stamp_of(path)
        if current is None:
            return self._stamps.get(key) is None
        if current == self._stamps.get(key):
            return True
        if not readable(path):
            return False
        self._stamps[key] = current
        return True


def report_damage(errors: ErrorLog, name: str, type_word: str, detail: str) -> None:
    errors.write(
        "AMQ7472W",
        f"Object {name}, type {type_word} damaged.",
        f"Object {name}, type {type_word} has been marked as damaged: {detail}",
        "Delete the object or, if the queue manager uses linear or replicated logging, "
        "re-create it from its media image with rcrmqobj.",
    )
