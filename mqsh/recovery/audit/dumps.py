"""Cluster cache dumps: every record a queue manager's cluster cache holds, as one Parquet file.

The cluster audit (mqsh.recovery.audit.rules) reads every Parquet file of a folder: the one made
here from the caches of a data directory (``mqsh audit --collect``, COLLECTED), or files collected
from real machines by whatever turns their caches into the same columns (an administrator's export
of DISPLAY CLUSQMGR / QCLUSTER with QMIDs, sequence numbers and expiry times), one a queue manager
or several together. The columns:

    holder      the queue manager whose cache holds the record
    kind        QMGR (a queue manager's CLUSRCVR), QUEUE or TOPIC
    cluster, qmid, name, qmname   the record's key and its owner's name
    seq         the owner's sequence number, as held
    expiry      when the record expires unless re-published (seconds since the epoch, UTC)
    deleted     marked deleted (60 days past expiry, or by its owner)
    in_use      a QMGR record in use for its CLUSRCVR name
    own         the holder owns the record
    channel, qmtype   a QMGR record's CLUSRCVR name and REPOS / NORMAL
    content     the owner's copy's attributes as it publishes them (null in every other copy, and
                where a dump does not have them): two owners of one record (a DR copy with the
                production QMID) can be told apart by it
    key         one number for every copy of one record (its cluster, QMID, name and kind), given
                when the dumps are combined (null in a dump of one queue manager)

Combined (COLLECTED: the data directory's caches, or a folder of dumps from elsewhere), the records
are sorted by that key, so that the copies of a record lie together and an engine folds them in
the pass that reads them.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from mqsh.store.datadir import CLUSTER_CACHE_FILE
from mqsh.store.names import from_file_name

SCHEMA = pa.schema(
    [
        ("holder", pa.string()),
        ("kind", pa.string()),
        ("cluster", pa.string()),
        ("qmid", pa.string()),
        ("name", pa.string()),
        ("qmname", pa.string()),
        ("seq", pa.int64()),
        ("expiry", pa.int64()),
        ("deleted", pa.bool_()),
        ("in_use", pa.bool_()),
        ("own", pa.bool_()),
        ("channel", pa.string()),
        ("qmtype", pa.string()),
        ("content", pa.string()),
        ("key", pa.int64()),
    ]
)
# Each column of a cache in one JSON array, made by SQLite: reading a million records row by row
# costs Python a tuple and eleven objects each, several times what parsing the arrays costs. The
# expiry is turned into epoch seconds (UTC) and the flags into 0 and 1 there too; CHANNEL and
# QMTYPE are a queue-manager record's only; the attributes (sorted JSON) are the owner's copy's only,
# the other copies being many and only the owners' compared.
COLUMNS = (
    "kind",
    "cluster",
    "qmid",
    "name",
    "qmname",
    "seq",
    "CAST(strftime('%s', expiry) AS INTEGER)",
    "deleted != ''",
    "in_use != 0",
    "own != 0",
    "CASE WHEN kind = 'QMGR' THEN coalesce(json_extract(attrs, '$.CHANNEL'), '') ELSE '' END",
    "CASE WHEN kind = 'QMGR' THEN coalesce(json_extract(attrs, '$.QMTYPE'), '') ELSE '' END",
    "CASE WHEN own != 0 THEN attrs END",
)
QUERY = "SELECT " + ", ".join(f"json_group_array({column})" for column in COLUMNS) + " FROM records"
COLLECTED = "cluster-caches.parquet"
SORT_KEY = ("cluster", "qmid", "name", "kind", "holder")
ROW_GROUP = 128 * 1024


class DumpUnreadable(Exception):
    """A cache or dump that cannot be read; the message names it."""


def cache_table(cache: Path, holder: str) -> pa.Table:
    """The records of one cluster cache file (opened read-only: its queue manager may be running)."""
    try:
        db = sqlite3.connect(f"file:{cache}?mode=ro", uri=True)
        try:
            arrays = db.execute(QUERY).fetchone()
        finally:
            db.close()
    except sqlite3.Error as error:
        raise DumpUnreadable(f"{cache}: {error}") from None
    columns = dict(zip(SCHEMA.names[1:-1], (json.loads(column) for column in arrays)))
    count = len(columns["kind"])
    data = {
        name: pa.array(values, pa.int8()).cast(pa.bool_())
        if SCHEMA.field(name).type == pa.bool_()
        else pa.array(values, SCHEMA.field(name).type)
        for name, values in columns.items()
    }  # flags: 0 and 1
    return pa.table(
        {"holder": pa.array([holder] * count, pa.string()), **data, "key": pa.nulls(count, pa.int64())},
        schema=SCHEMA,
    )


def numbered(table: pa.Table) -> pa.Table:
    """The records sorted by record, each copy of one record given the same key."""
    table = table.sort_by([(name, "ascending") for name in SORT_KEY])
    joined = pc.binary_join_element_wise(
        table["cluster"], table["qmid"], table["name"], table["kind"], "\x00"
    )
    keys = pc.cast(
        pc.dictionary_encode(joined).combine_chunks().indices, pa.int64()
    )  # in order of first sight
    return table.set_column(table.schema.get_field_index("key"), "key", keys)


def combine(table: pa.Table, folder: Path) -> int:
    """Records as one dump (COLLECTED) in folder, whole or not at all; how many."""
    folder.mkdir(parents=True, exist_ok=True)
    partial = folder / (COLLECTED + ".partial")
    pq.write_table(numbered(table), partial, row_group_size=ROW_GROUP)
    partial.rename(folder / COLLECTED)
    return len(table)


def collect(qmgrs_dir: Path, folder: Path) -> tuple[int, int]:
    """The cluster caches of every queue manager under qmgrs_dir as one dump in folder; returns
    (queue managers, records)."""
    caches = sorted(qmgrs_dir.glob(f"*/{CLUSTER_CACHE_FILE}"))
    tables = [cache_table(cache, from_file_name(cache.parent.name)) for cache in caches]
    return len(caches), combine(pa.concat_tables(tables) if tables else SCHEMA.empty_table(), folder)


def combined(folder: Path) -> bool:
    """The folder holds one combined dump: an engine may read it as it is."""
    return [path.name for path in folder.glob("*.parquet")] == [COLLECTED]


def read_folder(folder: Path) -> pa.Table:
    """Every dump in a folder, as one table (in process)."""
    files = sorted(folder.glob("*.parquet"))
    if not files:
        return SCHEMA.empty_table()
    try:  # read as one dataset: the files in parallel
        return ds.dataset([str(path) for path in files], schema=SCHEMA, format="parquet").to_table()
    except (OSError, pa.ArrowException) as error:
        raise DumpUnreadable(f"{folder}: {error}") from None
