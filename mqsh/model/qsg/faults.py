"""Accidents to a group's structures and data sets, for the lab to rehearse z/OS's recoveries.

Each does to the files exactly what the accident would and tells the members
nothing: they find out the way z/OS's queue managers do, when they next use
the structure or open the data set. A structure failure is the one exception:
the coupling facility tells every connected member at once, so its status
turns FAILED in the repository as the structure goes.

A member's process keeps its data sets open; those it holds in the process
that makes the accident close them, so that the next use opens them again.
"""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

from mqsh.model.qsg import cf_explain, states
from mqsh.model.qsg.datasets import (
    PAGE,
    PREFIX,
    DataSet,
    DataSetError,
    data_set_name,
    data_set_path,
    initialized,
    io_error_marker,
    size_file,
)
from mqsh.model.qsg.list_structure import Structure, StructureLost, lose, structure_path
from mqsh.model.qsg.repository import SharedRepository

HOWS = ("DELETE", "EMPTY", "HEADER", "BLOCK", "IOERROR")
COPY_CHUNK = 1 << 20  # bytes a data set copy reads and writes at a time


class FaultRefused(Exception):
    """The accident cannot happen as asked (no such structure, no data set yet ...)."""


def fail_structure(repository: SharedRepository, data_dir: Path, qsg: str, cf: str, now: str) -> bool:
    """The structure fails: its entries are lost, and the members connected to it are told (status
    FAILED). With none connected nobody records it: the first member to connect finds the structure
    lost, as at a disaster recovery site whose coupling facility never held it. Whether any was told."""
    if cf not in repository.cfstructs():
        raise FaultRefused(f"structure {cf} is not defined in queue sharing group {qsg}")
    path = structure_path(data_dir, qsg, cf)
    held = lose(path, qsg, cf)
    repository.record_lost(cf, held)
    told = bool(repository.connections(cf))
    cf_explain.note_failure(
        path, now, "failed: every connected member told" if told else "lost: no member connected", held
    )
    if told:
        states.set_structure_status(repository, cf, states.FAILED, now)
    return told


def data_set_of(repository: SharedRepository, data_dir: Path, qsg: str, cf: str, owner: str) -> Path:
    definition = repository.cfstructs().get(cf)
    if definition is None:
        raise FaultRefused(f"structure {cf} is not defined in queue sharing group {qsg}")
    if definition.get("OFFLOAD") != "SMDS" or not definition.get("DSGROUP"):
        raise FaultRefused(f"structure {cf} has no shared message data sets (OFFLOAD(SMDS) and a DSGROUP)")
    if owner not in {member.qmgr for member in repository.members()}:
        raise FaultRefused(f"queue manager {owner} is not a member of queue sharing group {qsg}")
    return data_set_path(data_dir, qsg, data_set_name(str(definition["DSGROUP"]), owner))


def damage_data_set(
    repository: SharedRepository, data_dir: Path, qsg: str, cf: str, owner: str, how: str
) -> tuple[Path, int | None]:
    """DELETE it, EMPTY it (preformatted anew), spoil its HEADER, spoil the BLOCK of its newest message,
    or give it a permanent IOERROR on every read; the block spoiled, for BLOCK."""
    path = data_set_of(repository, data_dir, qsg, cf, owner)
    if how == "IOERROR":
        if not path.exists():
            raise FaultRefused(f"data set {path.name} does not exist yet")
        io_error_marker(path).touch()
        return path, None
    if how != "EMPTY" and not path.exists():
        raise FaultRefused(f"data set {path.name} does not exist yet")
    if how in ("DELETE", "EMPTY"):
        # The old data set goes, and with it the device's permanent I/O errors: one allocated in its
        # place (by its owner, by a recovery, or preformatted here) is on a good volume.
        io_error_marker(path).unlink(missing_ok=True)
    if how == "DELETE":
        path.unlink()
    elif how == "EMPTY":
        preformat_data_set(path)
    elif how == "HEADER":
        _overwrite(path, 0, b"#DAMAGED# " * 8)
    else:
        block = _newest_block(data_dir, qsg, cf, owner, path)
        _overwrite(path, PAGE + block * _block_bytes(path), b"#" * PREFIX)
        return path, block
    return path, None


def preformat_data_set(path: Path) -> None:
    """A data set allocated and preformatted anew (at a disaster recovery site, by a move whose copy
    never came, or by the administrator to clear residual data): its size kept, every page blank - no
    header, which only its owner writes when it initializes a NEW, EMPTY or RECOVERED data set. The
    device's permanent I/O errors go with the old contents."""
    io_error_marker(path).unlink(missing_ok=True)
    size = path.stat().st_size if path.exists() else PAGE
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.ftruncate(fd, size)
        os.fsync(fd)
    finally:
        os.close(fd)


def _newest_block(data_dir: Path, qsg: str, cf: str, owner: str, path: Path) -> int:
    try:
        with Structure(structure_path(data_dir, qsg, cf), qsg, cf) as structure:
            newest = structure.newest_offloaded_to(owner)
    except StructureLost:
        newest = None
    if newest is None or newest.b is None:
        raise FaultRefused(f"data set {path.name} holds no message in structure {cf}")
    return newest.b


def _block_bytes(path: Path) -> int:
    try:
        data_set = DataSet(path, owner_side=False)
    except DataSetError as error:
        raise FaultRefused(str(error)) from None
    data_set.close()
    return data_set.header.block


def _overwrite(path: Path, offset: int, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.pwrite(fd, data, offset)
        os.fsync(fd)
    finally:
        os.close(fd)


def resize_data_set(path: Path, blocks: int, secondary: int | None, max_extents: int | None) -> bool:
    """Reallocate the data set at a size (as a move to a new allocation would); True when it existed."""
    wanted = {"blocks": blocks, "secondary": secondary, "max_extents": max_extents}
    data_set = None
    if path.exists() and initialized(path):
        try:
            data_set = DataSet(path, owner_side=True)
        except DataSetError as error:  # its contents cannot be read to be moved: recover it first
            raise FaultRefused(f"data set {path.name} cannot be reallocated: {error}") from None
    path.parent.mkdir(parents=True, exist_ok=True)  # sized before the group's first data set is made
    size_file(path).write_text(json.dumps({key: value for key, value in wanted.items() if value is not None}))
    if data_set is None:  # none yet, or newly allocated with no header: its owner formats it at this size
        return path.exists()
    try:
        header = data_set.header
        header.blocks, header.extents = blocks, 1
        header.secondary = secondary if secondary is not None else header.secondary
        header.max_extents = max_extents if max_extents is not None else header.max_extents
        data_set.write_header()
        os.ftruncate(data_set.fd, PAGE + blocks * header.block)
    finally:
        data_set.close()
    return True


def copies_dir(data_dir: Path, qsg: str) -> Path:
    return data_dir / "qsg" / qsg / "smds-copies"


def copy_data_set(path: Path, data_dir: Path, qsg: str, name: str) -> Path:
    if not path.exists():
        raise FaultRefused(f"data set {path.name} does not exist yet")
    target = copies_dir(data_dir, qsg) / name
    target.parent.mkdir(parents=True, exist_ok=True)
    _copy_sparse(path, target)
    return target


def restore_data_set(path: Path, data_dir: Path, qsg: str, name: str) -> None:
    source = copies_dir(data_dir, qsg) / name
    if not source.exists():
        raise FaultRefused(f"there is no copy named {name}")
    _copy_sparse(source, path)
    io_error_marker(path).unlink(missing_ok=True)  # the copy is put on a good volume


def _copy_sparse(source: Path, target: Path) -> None:
    """Copy a data set as the sparse file it is. Its messages' bytes are holes (only each block's
    prefix is written), so a data set of 1,024 blocks of 256 KB holds a few pages of data in 256 MB:
    only the regions that hold data are copied, and the holes stay holes. A file system that cannot
    say where the holes are gets a plain copy."""
    source_fd = os.open(source, os.O_RDONLY)
    try:
        target_fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            size = os.fstat(source_fd).st_size
            for start, end in _data_regions(source_fd, size):
                while start < end:
                    chunk = os.pread(source_fd, min(end - start, COPY_CHUNK), start)
                    if not chunk:
                        break
                    os.pwrite(target_fd, chunk, start)
                    start += len(chunk)
            os.ftruncate(target_fd, size)
            os.fsync(target_fd)
        finally:
            os.close(target_fd)
    finally:
        os.close(source_fd)


def _data_regions(fd: int, size: int) -> list[tuple[int, int]]:
    """(start, end) of each region of the file that holds data; the whole file where holes are not known."""
    regions, offset = [], 0
    try:
        while offset < size:
            try:
                start = os.lseek(fd, offset, os.SEEK_DATA)
            except OSError as error:
                if error.errno == errno.ENXIO:  # nothing but a hole from offset to the end
                    break
                raise
            offset = os.lseek(fd, start, os.SEEK_HOLE)
            regions.append((start, offset))
    except OSError as error:
        if error.errno not in (errno.EINVAL, errno.EOPNOTSUPP):
            raise
        return [(0, size)]
    return regions
