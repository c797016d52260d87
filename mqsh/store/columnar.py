"""Parquet copies of sealed log extents, for replay at columnar speed.

An extent never changes once the writer has moved past it, so a columnar copy
made at that moment stays good for as long as the extent itself does. The
copy lives beside the extents, ``<log root>/columnar/S0000001.parquet``, and
records in its metadata the byte size and CRC-32 of the extent it was made
from: an extent that was later rewritten (circular reuse) or damaged no longer
matches its copy, and replay then reads the extent itself.

The copy holds the fields replay works on as typed columns; an object record
(OBJ, IMG) also keeps its whole JSON text in ``body``, because its attributes
and message images have no fixed shape. Its metadata also holds a summary of
the extent (summarize): what replay needs to know of each object apart from
its messages, so that a replay learns it without reading the records. Beside
it, ``S0000001.moves.parquet`` holds the extent's message moves as far as
they settle within it (mqsh.store.settled), and ``S0000001.shared.parquet``
the records a recovery of a coupling-facility structure reads (shared_records),
both made from the same extent.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import threading
import zlib
from pathlib import Path
from typing import Any, NamedTuple, cast

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.json as pajson
import pyarrow.parquet as pq

from mqsh.store import records, settled, shared_units
from mqsh.store.log import LSN_PREFIX, checked_body
from mqsh.store.records import OBJECT_KINDS, UNIT_ENDINGS

# name -> type of the typed columns, as the record definitions give them; the Spark replay derives
# its schema from this too.
FIELDS = records.column_types()
OBJECT_RECORDS = (records.ObjectChanged.KIND, records.ObjectImage.KIND)
# "n" is an object's name in OBJ and IMG records and a block count in these: a JSON column of
# two types cannot be read typed, so n is read apart, from these records only.
COUNTED_RECORDS = (records.SharedBlock.KIND, records.SharedPut.KIND, records.BackupEntry.KIND)
SHARED_FIELDS = (
    "cf",
    "sq",
    "e",
    "o",
    "b",
    "n",
    "r",
    "cfs",
    "st",
    "mb",
)  # absent from copies made before they were
# The shared-message records (a structure's changes, a backup's start, entries and end), and the
# columns a recovery of a structure reads of them and of the unit endings that name structures.
SHARED_RECORDS = ("SBLK", "SPUT", "SGET", "SBKS", "SBKP", "SBKE")
SHARED_COLUMNS = [
    "lsn",
    "t",
    "cf",
    "sq",
    "e",
    "p",
    "s",
    "tm",
    "u",
    "o",
    "b",
    "n",
    "r",
    "cfs",
    "c",
    "st",
    "mb",
    *shared_units.SCHEMA.names,
]
SHARED_ORDER = [("t", "ascending"), ("lsn", "ascending")]  # by kind, then LSN
SHARED_ROWS_PER_GROUP = 16_384
SIZE_KEY, CRC_KEY, SUMMARY_KEY = b"mqsh.source_size", b"mqsh.source_crc", b"mqsh.summary"
SPANS_KEY, TALLY_KEY = b"mqsh.spans", b"mqsh.tally"
TALLIED_CHANGES = ("SBLK", "SPUT", "SGET", "SBKP")  # with the unit endings, the records a recovery counts
TALLIED_COLUMNS = ["t", "cf", "o", "r", "lsn", "cfs"]  # what tally reads of them
_ARROW_TYPES = {
    "long": pa.int64(),
    "int": pa.int32(),
    "string": pa.string(),
    "strings": pa.list_(pa.string()),
}
ARROW_KINDS = {arrow: kind for kind, arrow in _ARROW_TYPES.items()}  # the FIELDS kind of an Arrow type
SCHEMA = pa.schema([(name, _ARROW_TYPES[kind]) for name, kind in FIELDS.items()])
_PARSED = pa.schema([field for field in SCHEMA if field.name != "n"])
_COUNTS = pa.schema([("n", SCHEMA.field("n").type)])
CHUNK = 1 << 24


class DamagedExtent(Exception):
    """A sealed extent holds a line that fails its checksum: no copy is made of it."""


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


def _first_from(bodies: list[bytes], from_lsn: int) -> int:
    """The index of the first body whose LSN is from_lsn or later: records are in LSN order.

    Found by each record's LSN prefix (log.LSN_PREFIX), so the records before a
    restart point are checked but never parsed; 0 where a record does not start
    so, and the caller's filter then decides.
    """
    low, high = 0, len(bodies)
    while low < high:
        middle = (low + high) // 2
        prefix = LSN_PREFIX.match(bodies[middle])
        if prefix is None:
            return 0
        if int(prefix[1]) < from_lsn:
            low = middle + 1
        else:
            high = middle
    return low


def extent_table(data: bytes, newest: bool = False, from_lsn: int = 0) -> pa.Table:
    """The records of an extent's bytes as columns; DamagedExtent if a line fails its checksum.

    The newest extent may end in a write cut short by a crash (the torn-tail
    rule of log.read_records): with newest, that last line is left out. Every
    line is checked; only those from from_lsn on are parsed (and a few before).
    """
    lines = data.split(b"\n")
    unfinished = lines.pop()  # what follows the last newline: nothing, or a line never finished
    bodies = [checked_body(line) for line in lines]
    if unfinished:
        bodies.append(None)
    if newest and bodies and bodies[-1] is None:
        bodies.pop()
    bodies_read = [body for body in bodies if body is not None]
    if len(bodies_read) != len(bodies):
        raise DamagedExtent()
    if from_lsn:
        bodies_read = bodies_read[_first_from(bodies_read, from_lsn) :]
    if not bodies_read:
        return SCHEMA.empty_table().append_column("body", pa.array([], pa.string()))
    texts = pa.array(bodies_read, pa.binary())
    try:
        table = _read_json(b"\n".join(bodies_read), _PARSED)
        table = table.append_column("n", _block_counts(table["t"], texts))
    except pa.ArrowInvalid:
        raise DamagedExtent() from None
    objects = pc.is_in(table["t"], value_set=pa.array(OBJECT_RECORDS))
    body = pc.if_else(objects, texts.cast(pa.string()), pa.scalar(None, pa.string()))
    return table.select(list(FIELDS)).append_column("body", body)


def _read_json(text: bytes, schema: pa.Schema) -> pa.Table:
    return pajson.read_json(
        io.BytesIO(text),
        parse_options=pajson.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore"),
    )


def _block_counts(kinds: pa.ChunkedArray, texts: pa.Array) -> pa.Array:
    """The n column: the block count of each shared-message record (COUNTED_RECORDS), null elsewhere."""
    counted = pc.is_in(kinds, value_set=pa.array(COUNTED_RECORDS)).combine_chunks()
    none = pa.nulls(len(texts), _COUNTS.field("n").type)
    if not pc.any(counted).as_py():
        return none
    chosen = texts.filter(counted)
    joined = pc.binary_join(pa.ListArray.from_arrays(pa.array([0, len(chosen)], pa.int32()), chosen), b"\n")
    counts = _read_json(joined[0].as_py(), _COUNTS)["n"].combine_chunks()
    return pc.replace_with_mask(none, counted, counts)


def summarize(table: pa.Table) -> dict[str, Any]:
    """An extent's records (a table as extent_table makes) as replay's per-object facts.

    count: records; first: the first LSN; newest: object key -> [newest LSN of
    a record touching it, newest CLR LSN or None]; objects: [lsn, t, k, c] of
    every OBJ, IMG and DEL record. A record touches the object it names (k),
    its queue (q), or, for a commit or backout, each queue it lists (qs).
    """
    if len(table) == 0:
        return {"count": 0, "first": None, "newest": {}, "objects": []}
    kind, lsn = table["t"], table["lsn"]
    is_object = pc.is_in(kind, value_set=pa.array(OBJECT_KINDS))
    endings = table.filter(pc.is_in(kind, value_set=pa.array(UNIT_ENDINGS)))
    listed = pc.list_flatten(endings["qs"])
    no_lsn = pa.scalar(None, pa.int64())
    touches = pa.concat_tables(
        [
            pa.table(
                {
                    "key": pc.if_else(is_object, table["k"], settled.queue_keys(table["q"])),
                    "lsn": lsn,
                    "clr": pc.if_else(pc.equal(kind, "CLR"), lsn, no_lsn),
                }
            ),
            pa.table(
                {
                    "key": settled.queue_keys(listed),
                    "lsn": pc.take(endings["lsn"], pc.list_parent_indices(endings["qs"])),
                    "clr": pa.nulls(len(listed), pa.int64()),
                }
            ),
        ]
    )
    newest = (
        touches.filter(pc.is_valid(touches["key"]))
        .group_by("key")
        .aggregate([("lsn", "max"), ("clr", "max")])
    )
    objects = table.filter(is_object).select(["lsn", "t", "k", "c"])
    return {
        "count": len(table),
        "first": pc.min(lsn).as_py(),
        "newest": dict(
            zip(newest["key"].to_pylist(), zip(newest["lsn_max"].to_pylist(), newest["clr_max"].to_pylist()))
        ),
        "objects": [list(row.values()) for row in objects.to_pylist()],
    }


def shared_records(table: pa.Table) -> pa.Table:
    """The records of an extent (a table as extent_table makes) that a recovery of a structure reads.

    The shared-message records, and the unit endings with an LRSN (those of
    units that touched a structure), in SHARED_COLUMNS, sorted by kind and
    then LSN: written in row groups of SHARED_ROWS_PER_GROUP, each kind lies
    in a few groups, and a reader that wants one kind (the endings, the gets,
    the puts) skips the other kinds' groups by their statistics. The units of
    work that end within the extent are settled (mqsh.store.shared_units).
    """
    kind = table["t"]
    taken = pc.or_(
        pc.is_in(kind, value_set=pa.array(SHARED_RECORDS)),
        pc.and_(pc.is_in(kind, value_set=pa.array(UNIT_ENDINGS)), pc.is_valid(table["r"])),
    )
    records = table.filter(taken).select(SHARED_COLUMNS[: -len(shared_units.SCHEMA)])
    for name, column in zip(shared_units.SCHEMA.names, shared_units.settle(records, pc.min(table["lsn"]))):
        records = records.append_column(name, column)
    return records.sort_by(SHARED_ORDER)


def tally(records: pa.Table) -> list[list[Any]]:
    """The shared records of a table (with TALLIED_COLUMNS) counted by kind, structure and,
    for SBLK, data set owner: [t, cf, o, records, dated, lowest r, highest r, lowest LSN, highest
    LSN] a group.

    A group gives its count of records, how many have an LRSN (dated), and
    the range of their LRSNs and LSNs. A unit ending counts once for each
    structure its cfs lists. Written with the shared records of a sealed
    extent, it tells a recovery what it counts of the extent without reading
    its records, unless the backup falls inside a group's range.
    """
    kind = records["t"]
    changes = records.filter(pc.is_in(kind, value_set=pa.array(TALLIED_CHANGES)))
    endings = records.filter(pc.is_in(kind, value_set=pa.array(UNIT_ENDINGS)))
    listed = pa.table({"row": pc.list_parent_indices(endings["cfs"]), "cf": pc.list_flatten(endings["cfs"])})
    listed = listed.group_by(["row", "cf"]).aggregate([])  # a structure listed twice is listed once
    rows = pa.concat_tables(
        [
            pa.table(
                {
                    "t": changes["t"],
                    "cf": changes["cf"],
                    "o": pc.if_else(
                        pc.equal(changes["t"], "SBLK"), changes["o"], pa.scalar(None, pa.string())
                    ),
                    "r": changes["r"],
                    "lsn": changes["lsn"],
                }
            ),
            pa.table(
                {
                    "t": pc.take(endings["t"], listed["row"]),
                    "cf": listed["cf"],
                    "o": pa.nulls(len(listed), pa.string()),
                    "r": pc.take(endings["r"], listed["row"]),
                    "lsn": pc.take(endings["lsn"], listed["row"]),
                }
            ),
        ]
    )
    groups = rows.group_by(["t", "cf", "o"]).aggregate(
        [([], "count_all"), ("r", "count"), ("r", "min"), ("r", "max"), ("lsn", "min"), ("lsn", "max")]
    )
    return [
        [
            row[name]
            for name in ("t", "cf", "o", "count_all", "r_count", "r_min", "r_max", "lsn_min", "lsn_max")
        ]
        for row in groups.to_pylist()
    ]


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
        table = pq.read_table(table, columns=["lsn", "body"], filters=[("lsn", "in", lsns)])
    found = table.filter(pc.is_in(table["lsn"], value_set=pa.array(lsns, pa.int64())))
    return dict(zip(found["lsn"].to_pylist(), found["body"].to_pylist()))


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
