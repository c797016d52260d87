"""Parquet copies of sealed log extents, for replay at columnar speed.

An extent never changes once the writer has moved past it, so a columnar copy
made at that moment stays good for as long as the extent itself does. The
copy lives beside the extents, ``<log root>/columnar/S0000001.parquet``, and
records in its metadata the byte size and CRC-32 of the extent it was made
from: an extent that was later rewritten (circular reuse) or damaged no longer
matches its copy, and replay then reads the extent itself.

The copy holds the extent's records as mqsh.store.extent_tables makes them
(typed columns, and an object record's JSON text); its metadata also holds
the extent's summary, so that a replay learns what it needs of each object
without reading the records. Beside it, ``S0000001.moves.parquet`` holds the
extent's message moves as far as they settle within it (mqsh.store.settled),
and ``S0000001.shared.parquet`` the records a recovery of a coupling-facility
structure reads (extent_tables.shared_records) with their tally, all made
from the same extent. This module writes them, and finds them again only
while they match their extent.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import zlib
from pathlib import Path
from typing import Any, NamedTuple, cast

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from mqsh.store import settled
from mqsh.store.extent_tables import (
    SHARED_COLUMNS,
    DamagedExtent,
    extent_table,
    shared_records,
    summarize,
    tally,
)
from mqsh.store.records import BODY, LSN

SHARED_ROWS_PER_GROUP = 16_384
SIZE_KEY, CRC_KEY, SUMMARY_KEY = b"mqsh.source_size", b"mqsh.source_crc", b"mqsh.summary"
SPANS_KEY, TALLY_KEY = b"mqsh.spans", b"mqsh.tally"
CHUNK = 1 << 24


def copies_dir(log_dir: Path) -> Path:
    """Where the copies of the extents in log_dir are kept: beside it."""
    return log_dir.parent / "columnar"


def copy_path(extent: Path) -> Path:
    return copies_dir(extent.parent) / extent.with_suffix(".parquet").name


def moves_path(extent: Path) -> Path:
    return copies_dir(extent.parent) / extent.with_suffix(".moves.parquet").name


def shared_path(extent: Path) -> Path:
    return copies_dir(extent.parent) / extent.with_suffix(".shared.parquet").name


def file_crc(path: Path) -> tuple[int, int]:
    """(byte size, CRC-32) of a file, read in large chunks."""
    crc, size = 0, 0
    with open(path, "rb") as handle:
        while chunk := handle.read(CHUNK):
            crc = zlib.crc32(chunk, crc)
            size += len(chunk)
    return size, crc


def with_tally(shared: pa.Table) -> pa.Table:
    """Shared records carrying their tally in their metadata, kept with them when written."""
    kept = shared.schema.metadata or {}
    return shared.replace_schema_metadata({**kept, TALLY_KEY: json.dumps(tally(shared)).encode()})


def tally_of(shared: Path | pa.Table) -> list[list[Any]] | None:
    """The tally a shared-records file was written with, or a table made with (None without one)."""
    if isinstance(shared, pa.Table):
        text = (shared.schema.metadata or {}).get(TALLY_KEY)
        return cast("list[list[Any]]", json.loads(text)) if text is not None else None
    return cast("list[list[Any]] | None", _footer_json(shared, TALLY_KEY))


def summary_of(copy: Path) -> dict[str, Any] | None:
    """The summary a copy was written with (None for a copy made without one)."""
    return cast("dict[str, Any] | None", _footer_json(copy, SUMMARY_KEY))


def _footer_json(target: Path, key: bytes) -> Any:
    """The JSON value kept under key in a Parquet file's metadata (None if absent or unreadable)."""
    try:
        text = (_footer(target).metadata or {}).get(key)
        return json.loads(text) if text is not None else None
    except (OSError, pa.ArrowException, ValueError):
        return None


def bodies_at(table: pa.Table | Path, lsns: list[int]) -> dict[int, str]:
    """lsn -> the JSON text of the object record there, from a copy or a table as extent_table makes."""
    if isinstance(table, Path):
        table = pq.read_table(table, columns=[LSN, BODY], filters=[(LSN, "in", lsns)])
    found = table.filter(pc.is_in(table[LSN], value_set=pa.array(lsns, pa.int64())))
    return dict(zip(found[LSN].to_pylist(), found[BODY].to_pylist()))


def write_copy(extent: Path) -> None:
    """The LogWriter's seal hook: make the extent's columnar copy and its settled moves.

    A copy only speeds replay up, so one that cannot be made (a damaged
    extent, a full disk) is simply not made and replay reads the extent.
    """
    try:
        data = extent.read_bytes()
        table = extent_table(data)
    except (OSError, DamagedExtent, pa.ArrowException):
        return
    source = {SIZE_KEY: str(len(data)).encode(), CRC_KEY: str(zlib.crc32(data)).encode()}
    moves, spans = settled.settle(table)
    _write(
        moves.replace_schema_metadata({**source, SPANS_KEY: json.dumps(spans).encode()}), moves_path(extent)
    )
    shared = shared_records(table)
    _write(with_tally(shared.replace_schema_metadata(source)), shared_path(extent), SHARED_ROWS_PER_GROUP)
    _write(
        table.replace_schema_metadata({**source, SUMMARY_KEY: json.dumps(summarize(table)).encode()}),
        copy_path(extent),
    )


def _write(table: pa.Table, target: Path, rows_per_group: int | None = None) -> None:
    # A temporary of the writing thread's own: the log's seal thread and a replay may copy the
    # same extent at once, and each must rename a whole file into place.
    temporary = target.with_name(f"{target.name}.{threading.current_thread().name}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(table, temporary, compression="zstd", row_group_size=rows_per_group)
        os.replace(temporary, target)
    except (OSError, pa.ArrowException):
        # Where the directory could not be made (a file in its place), there is no temporary
        # to remove either: removing it fails too, and the copy is simply not made.
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)


def _extent_crc(extent: Path, status: os.stat_result) -> int:
    """The extent's CRC-32, read once per version of the file this process sees (file_version).

    A warm replay then skips reading gigabytes of sealed extents only to find
    them unchanged.
    """
    version = file_version(status)
    crc = _known_crcs.get(extent)
    if crc is None or crc[0] != version:
        crc = _known_crcs[extent] = (version, file_crc(extent)[1])
    return crc[1]


_known_crcs: dict[Path, tuple[tuple[int, ...], int]] = {}


def file_version(status: os.stat_result) -> tuple[int, ...]:
    """What names one content of a file: every write moves its change time."""
    return status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns


def _footer(target: Path) -> pq.FileMetaData:
    """A Parquet file's footer, read once per version of the file (OSError or ArrowException if unreadable).

    Checking a copy, reading its summary and checking its moves all need
    footers; a replay reads each once, and a warm replay not at all.
    """
    version = file_version(target.stat())
    known = _known_footers.get(target)
    if known is None or known[0] != version:
        known = _known_footers[target] = (version, pq.read_metadata(target))
    return known[1]


_known_footers: dict[Path, tuple[tuple[int, ...], pq.FileMetaData]] = {}


def usable_copy(extent: Path) -> Path | None:
    """The extent's columnar copy if there is one made from exactly this extent.

    A copy whose extent is gone (a deleted linear extent) is never asked for,
    since replay looks copies up from the extents it has to read.
    """
    return _made_from(copy_path(extent), extent)


class Moves(NamedTuple):
    path: Path
    spans: settled.Spans
    rows: int


def usable_moves(extent: Path) -> Moves | None:
    """The extent's settled moves, if made from exactly this extent."""
    target = moves_path(extent)
    footer = _footer_if_made_from(target, extent)
    try:
        return Moves(target, json.loads(footer.metadata[SPANS_KEY]), footer.num_rows) if footer else None
    except (KeyError, ValueError):
        return None


def usable_shared(extent: Path) -> Path | None:
    """The extent's shared records (shared_records), if made from exactly this extent with every
    column (one made before its units were settled is made again)."""
    target = shared_path(extent)
    footer = _footer_if_made_from(target, extent)
    return (
        target
        if footer is not None and set(SHARED_COLUMNS) <= set(footer.schema.to_arrow_schema().names)
        else None
    )


def moves_table(moves: Moves) -> pa.Table | None:
    """The rows of a moves file found usable, or None if its pages cannot be read."""
    try:  # through the footer already read: a table per file is read at twice the speed
        return pq.ParquetFile(moves.path, metadata=_footer(moves.path)).read().replace_schema_metadata()
    except (OSError, pa.ArrowException):
        return None


def ensure_copy(extent: Path, remake: bool = False) -> Path | None:
    """The sealed extent's columnar copy, made again first if it, its moves or its shared records are
    missing or stale.

    The queue manager makes them as it seals the extent; lost since (deleted,
    a full disk then, made before moves were settled or shared records kept
    apart), they would cost every replay a parse of the extent's text,
    several times slower than making them again here, once. With remake they are made again in any case
    (a replay found one damaged inside). None when they cannot be made (a
    damaged extent, a full disk): the text is then read after all.
    """
    if remake:
        for path in (copy_path(extent), moves_path(extent), shared_path(extent)):
            path.unlink(missing_ok=True)
    if usable_copy(extent) is None or usable_moves(extent) is None or usable_shared(extent) is None:
        write_copy(extent)
    return usable_copy(extent)


def _made_from(target: Path, extent: Path) -> Path | None:
    return target if _footer_if_made_from(target, extent) is not None else None


def _footer_if_made_from(target: Path, extent: Path) -> pq.FileMetaData | None:
    """target's Parquet footer, if its metadata names exactly the extent as it is now."""
    try:
        footer = _footer(target)
        metadata = footer.metadata or {}
        status = extent.stat()
        if metadata.get(SIZE_KEY) != str(status.st_size).encode():
            return None
        crc = _extent_crc(extent, status)
    except (OSError, pa.ArrowException):
        return None
    return footer if metadata.get(CRC_KEY) == str(crc).encode() else None
