"""The checkpoint's redo record: object files written all or nothing.

A checkpoint rewrites every object file that changed since the last one. Each
file on its own is replaced atomically, but a crash half-way through leaves
some files new and some old. So, as KahaDB does with db.redo, the checkpoint
first writes every new file's contents into one checksummed redo record and
syncs it; then writes the object files; then removes the record. A start that
finds a good redo record writes those files again (the checkpoint was cut
short after the record was safe); a start that finds a damaged one drops it
(the record itself was torn, so no object file had been touched yet).

The record names the files relative to the data directory: a copy of the
directory, made to rehearse on or restored from a backup, finishes its own
checkpoint, not the original's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mqsh.store.files import CorruptFile, read_document, write_document

REDO_NAME = "amqhlctl.redo"


def redo_path(log_root: Path) -> Path:
    return log_root / REDO_NAME


def write(path: Path, root: Path, files: dict[Path, Any]) -> None:
    """Save the documents about to be written (path under root -> document), synced to disk."""
    write_document(
        path,
        {"files": [[str(target.relative_to(root)), document] for target, document in files.items()]},
        sync=True,
    )


def clear(path: Path) -> None:
    path.unlink(missing_ok=True)


def apply(path: Path, root: Path) -> int | None:
    """Finish a checkpoint that was cut short (files under root): the number rewritten, None if no record."""
    try:
        record = read_document(path)
    except FileNotFoundError:
        return None
    except CorruptFile:
        clear(path)
        return 0
    for target, document in record["files"]:
        write_document(root / target, document, sync=True)
    clear(path)
    return len(record["files"])
