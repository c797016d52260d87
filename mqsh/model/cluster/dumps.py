"""Cluster cache dumps: every record a queue manager's cluster cache holds, as one Parquet file.

The cluster audit (mqsh.recovery.cluster_audit) reads a folder of these, one file a queue manager,
named after it: made here from the caches of a data directory (``mqsh audit --collect``), or
collected from real machines by whatever turns their caches into the same columns (an
administrator's export of DISPLAY CLUSQMGR / QCLUSTER with QMIDs, sequence numbers and expiry
times). The columns:

    holder      the queue manager whose cache holds the record
    kind        QMGR (a queue manager's CLUSRCVR), QUEUE or TOPIC
    cluster, qmid, name, qmname   the record's key and its owner's name
    seq         the owner's sequence number, as held
    expiry      when the record expires unless re-published (seconds since the epoch, UTC)
    deleted     marked deleted (60 days past expiry, or by its owner)
    in_use      a QMGR record in use for its CLUSRCVR name
    own         the holder owns the record
    channel, qmtype   a QMGR record's CLUSRCVR name and REPOS / NORMAL
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from mqsh.model.cluster.manager import epoch_seconds
from mqsh.store.names import from_file_name

SCHEMA = pa.schema([
    ("holder", pa.string()), ("kind", pa.string()), ("cluster", pa.string()), ("qmid", pa.string()),
    ("name", pa.string()), ("qmname", pa.string()), ("seq", pa.int64()), ("expiry", pa.int64()),
    ("deleted", pa.bool_()), ("in_use", pa.bool_()), ("own", pa.bool_()), ("channel", pa.string()),
    ("qmtype", pa.string()),
])
QUERY = ("SELECT kind, cluster, qmid, name, qmname, seq, expiry, deleted != '', in_use != 0, own != 0,"
         " coalesce(json_extract(attrs, '$.CHANNEL'), ''), coalesce(json_extract(attrs, '$.QMTYPE'), '')"
         " FROM records")
CACHE_FILE = "clusters.db"


class DumpUnreadable(Exception):
    """A cache or dump that cannot be read; the message names it."""


def cache_table(cache: Path, holder: str) -> pa.Table:
    """The records of one cluster cache file (opened read-only: its queue manager may be running)."""
    try:
        db = sqlite3.connect(f"file:{cache}?mode=ro", uri=True)
        try:
            rows = db.execute(QUERY).fetchall()
        finally:
            db.close()
    except sqlite3.Error as error:
        raise DumpUnreadable(f"{cache}: {error}") from None
    columns = list(zip(*rows)) if rows else [()] * 12
    names = SCHEMA.names[1:]
    data = {name: list(column) for name, column in zip(names, columns)}
    for flag in ("deleted", "in_use", "own"):  # SQLite answers 0 and 1
        data[flag] = [bool(value) for value in data[flag]]
    data["expiry"] = [epoch_seconds(datetime.strptime(text, "%Y-%m-%d %H:%M:%S")) for text in data["expiry"]]
    return pa.table({"holder": [holder] * len(rows), **data}, schema=SCHEMA)


def collect(qmgrs_dir: Path, folder: Path) -> list[Path]:
    """A dump of every queue manager's cluster cache under qmgrs_dir into folder; the files made."""
    folder.mkdir(parents=True, exist_ok=True)
    made = []
    for cache in sorted(qmgrs_dir.glob(f"*/{CACHE_FILE}")):
        holder = from_file_name(cache.parent.name)
        target = folder / f"{holder}.parquet"
        pq.write_table(cache_table(cache, holder), target)
        made.append(target)
    return made


def read_folder(folder: Path) -> pa.Table:
    """Every dump in a folder, as one table (in process)."""
    files = sorted(folder.glob("*.parquet"))
    if not files:
        return SCHEMA.empty_table()
    try:
        return pa.concat_tables([pq.read_table(path, schema=SCHEMA) for path in files])
    except (OSError, pa.ArrowException) as error:
        raise DumpUnreadable(f"{folder}: {error}") from None
