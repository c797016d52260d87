"""A queue manager's cluster cache: what it knows of its clusters, kept on disk.

MQ keeps this on SYSTEM.CLUSTER.REPOSITORY.QUEUE; mqsh keeps it in one SQLite file per queue
manager (qmgrs/QM1/clusters.db), which a file-level backup copies with the rest of the queue
manager - a restored queue manager comes back with the sequence numbers it had at the backup,
as in MQ.

Records are keyed by kind (QMGR for a queue manager's CLUSRCVR, QUEUE, TOPIC), cluster,
owner's QMID and name, so two queue managers of one name (a DR copy made by crtmqm) have
separate records. Each carries the owner's sequence number and expiry time. The cache also
keeps what full repositories must forward (who subscribed to what), when this queue manager
last put to each cluster queue (the "used in the last 30 days" of AMQ9456), and its own
sequence-number base (epoch seconds at its first cluster work, or at its last REFRESH CLUSTER).

Only the process holding the queue manager opens the file; every change is one transaction
forced to disk (synchronous=FULL), and applying a record is idempotent (an update not above
the stored sequence number is discarded), so a crash between a change here and the log
record of the command message it came from only makes the next start apply it again.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from mqsh.store.sqlite_tx import connect_durable, write_transaction

QMGR, QUEUE, TOPIC = "QMGR", "QUEUE", "TOPIC"
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS records (kind TEXT, cluster TEXT, qmid TEXT, name TEXT, qmname TEXT NOT NULL,"
    " seq INTEGER NOT NULL, expiry TEXT NOT NULL, clusdate TEXT NOT NULL, own INTEGER NOT NULL,"
    " published TEXT NOT NULL, warned TEXT NOT NULL, deleted TEXT NOT NULL, in_use INTEGER NOT NULL,"
    " attrs TEXT NOT NULL, PRIMARY KEY (kind, cluster, qmid, name))",
    "CREATE TABLE IF NOT EXISTS interest (cluster TEXT, subscriber TEXT, kind TEXT, name TEXT,"
    " PRIMARY KEY (cluster, subscriber, kind, name))",
    "CREATE TABLE IF NOT EXISTS usage (name TEXT PRIMARY KEY, last_put TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS removed (cluster TEXT, qmid TEXT, at TEXT NOT NULL, PRIMARY KEY (cluster, qmid))",
    # Who sent each record's version held (the QMID of the full repository, or of its owner): a
    # table of its own, so that a cache made before it gains it on opening.
    "CREATE TABLE IF NOT EXISTS learned (kind TEXT, cluster TEXT, qmid TEXT, name TEXT, sender TEXT NOT NULL,"
    " PRIMARY KEY (kind, cluster, qmid, name))",
)
COLUMNS = (
    "kind",
    "cluster",
    "qmid",
    "name",
    "qmname",
    "seq",
    "expiry",
    "clusdate",
    "own",
    "published",
    "warned",
    "deleted",
    "in_use",
    "attrs",
)


class ClusterCacheUnavailable(Exception):
    """The cache file cannot be opened, read or written (damaged, or no room on the disk)."""


@dataclass
class Record:
    """One object a cluster knows: a queue manager (its CLUSRCVR), a queue or a topic."""

    kind: str
    cluster: str
    qmid: str
    name: str
    qmname: str
    seq: int
    expiry: str  # ISO time: the owner re-publishes before it, receivers complain after it
    attrs: dict = field(default_factory=dict)
    clusdate: str = ""  # when this version became available here
    own: bool = False
    published: str = ""  # own records: when last published
    warned: str = ""  # when AMQ9456 / AMQ9469 was last written for it
    deleted: str = ""  # when it was marked deleted ("" while it stands)
    in_use: bool = True  # QMGR records: the one record of its CLUSRCVR name in use
    sender: str = ""  # a record learnt from a command message: the QMID that sent it (kept in "learned")

    @property
    def key(self) -> tuple[str, str, str, str]:
        return self.kind, self.cluster, self.qmid, self.name

    def to_message(self) -> dict:
        """What travels in a command message: the owner's view, not this cache's bookkeeping."""
        return {
            "kind": self.kind,
            "cluster": self.cluster,
            "qmid": self.qmid,
            "name": self.name,
            "qmname": self.qmname,
            "seq": self.seq,
            "expiry": self.expiry,
            "attrs": self.attrs,
            "deleted": self.deleted,
        }

    @classmethod
    def from_message(cls, body: dict) -> Record:
        return cls(
            body["kind"],
            body["cluster"],
            body["qmid"],
            body["name"],
            body["qmname"],
            int(body["seq"]),
            body["expiry"],
            dict(body.get("attrs") or {}),
            deleted=body.get("deleted") or "",
        )

    def _row(self) -> tuple:
        return (
            self.kind,
            self.cluster,
            self.qmid,
            self.name,
            self.qmname,
            self.seq,
            self.expiry,
            self.clusdate,
            int(self.own),
            self.published,
            self.warned,
            self.deleted,
            int(self.in_use),
            json.dumps(self.attrs, sort_keys=True),
        )

    @classmethod
    def _from_row(cls, row: tuple) -> Record:
        values = dict(zip(COLUMNS, row))
        values["attrs"] = json.loads(values["attrs"])
        values["own"], values["in_use"] = bool(values["own"]), bool(values["in_use"])
        return cls(**values)


class ClusterCache:
    def __init__(self, path: Path):
        self.path = path
        self._db: sqlite3.Connection | None = None
        # Whether the file is there: asked after every command, and only this cache makes it
        # (opening it) while its queue manager runs, so the answer is looked up once.
        self._there: bool | None = None
        # What each query read since the last change: only this cache writes the file while its
        # connection is open (from a command's first use to the end of its settle), so a question
        # asked again before a change - every repository manager's turn asks the same ones - has
        # the same answer.
        self._answers: dict[tuple[str, tuple], list[tuple]] = {}

    def exists(self) -> bool:
        if self._there is None:
            self._there = self.path.exists()
        return self._there

    def _open(self) -> sqlite3.Connection:
        if self._db is None:
            try:
                db = connect_durable(self.path, SCHEMA)
            except sqlite3.Error as error:
                self._there = None  # it may have been made before the failure
                raise ClusterCacheUnavailable(f"{self.path}: {error}") from None
            self._db = db
            self._there = True
        return self._db

    def close(self) -> None:
        self._answers.clear()
        if self._db is not None:
            self._db.close()
            self._db = None

    def _query(self, sql: str, args: tuple = ()) -> list[tuple]:
        answer = self._answers.get((sql, args))
        if answer is None:
            try:
                answer = self._open().execute(sql, args).fetchall()
            except sqlite3.Error as error:
                raise ClusterCacheUnavailable(f"{self.path}: {error}") from None
            self._answers[(sql, args)] = answer
        return answer

    def _write(self, statements: list[tuple[str, tuple]]) -> None:
        self._answers.clear()
        try:
            with write_transaction(self._open()) as db:
                for sql, args in statements:
                    db.execute(sql, args)
        except sqlite3.Error as error:
            raise ClusterCacheUnavailable(f"{self.path}: {error}") from None

    # ------------------------------------------------------------ meta
    def meta(self, key: str) -> str | None:
        rows = self._query("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        self._write([("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))])

    # ------------------------------------------------------------ records
    def records(
        self,
        kind: str | None = None,
        cluster: str | None = None,
        own: bool | None = None,
        name: str | None = None,
    ) -> list[Record]:
        sql, args = "SELECT * FROM records WHERE 1 = 1", []
        for column, value in (("kind", kind), ("cluster", cluster), ("name", name)):
            if value is not None:
                sql += f" AND {column} = ?"
                args.append(value)
        if own is not None:
            sql += " AND own = ?"
            args.append(int(own))
        return [
            Record._from_row(row)
            for row in self._query(sql + " ORDER BY kind, cluster, name, qmid", tuple(args))
        ]

    def expired(self, now: str) -> list[Record]:
        """Others' records standing past their expiry (time stamps compare as text)."""
        return [
            Record._from_row(row)
            for row in self._query(
                "SELECT * FROM records WHERE own = 0 AND deleted = '' AND expiry <= ? ORDER BY kind, cluster, name, qmid",
                (now,),
            )
        ]

    def earliest(self, own: bool, after: str = "") -> str | None:
        """The first time stamp of standing records after a moment: own records' publication
        times, or others' expiries."""
        column = "published" if own else "expiry"
        rows = self._query(
            f"SELECT min({column}) FROM records WHERE own = ? AND deleted = '' AND {column} > ?",
            (int(own), after),
        )
        return rows[0][0] if rows else None

    def record(self, key: tuple[str, str, str, str]) -> Record | None:
        rows = self._query(
            "SELECT * FROM records WHERE kind = ? AND cluster = ? AND qmid = ? AND name = ?", key
        )
        return Record._from_row(rows[0]) if rows else None

    def save(self, *records: Record, others_not_in_use: Record | None = None) -> None:
        """Store records, all or none. others_not_in_use: a QMGR record now in use, whose CLUSRCVR
        name no other QMID's record holds any longer."""
        statements = [
            (f"INSERT OR REPLACE INTO records VALUES ({', '.join('?' * len(COLUMNS))})", record._row())
            for record in records
        ]
        statements += [
            ("INSERT OR REPLACE INTO learned VALUES (?, ?, ?, ?, ?)", (*record.key, record.sender))
            for record in records
            if record.sender
        ]
        if others_not_in_use is not None:
            statements.append(
                (
                    "UPDATE records SET in_use = 0 WHERE kind = ? AND cluster = ? AND qmid != ?"
                    " AND json_extract(attrs, '$.CHANNEL') = ?",
                    (
                        QMGR,
                        others_not_in_use.cluster,
                        others_not_in_use.qmid,
                        others_not_in_use.attrs.get("CHANNEL", ""),
                    ),
                )
            )
        self._write(statements)

    def senders(self, cluster: str) -> dict[tuple[str, str, str, str], str]:
        """Who sent each record of a cluster learnt from a command message: key -> the sender's QMID."""
        return {
            (kind, cluster, qmid, name): sender
            for kind, qmid, name, sender in self._query(
                "SELECT kind, qmid, name, sender FROM learned WHERE cluster = ?", (cluster,)
            )
        }

    def drop(self, keys: list[tuple[str, str, str, str]]) -> None:
        self._write(
            [
                ("DELETE FROM records WHERE kind = ? AND cluster = ? AND qmid = ? AND name = ?", key)
                for key in keys
            ]
        )

    # ------------------------------------------------------------ interest and use
    def subscribe(self, cluster: str, subscriber: str, kind: str, name: str) -> bool:
        """Note a queue manager's interest; False when it was noted already."""
        if self._query(
            "SELECT 1 FROM interest WHERE cluster = ? AND subscriber = ? AND kind = ? AND name = ?",
            (cluster, subscriber, kind, name),
        ):
            return False
        self._write([("INSERT INTO interest VALUES (?, ?, ?, ?)", (cluster, subscriber, kind, name))])
        return True

    def subscribers(self, cluster: str, kind: str, name: str) -> list[str]:
        return [
            row[0]
            for row in self._query(
                "SELECT subscriber FROM interest WHERE cluster = ? AND kind = ? AND name = ? ORDER BY subscriber",
                (cluster, kind, name),
            )
        ]

    def interests(self, cluster: str, subscriber: str) -> list[tuple[str, str]]:
        """(kind, name) of every interest the subscriber has noted in the cluster."""
        return [
            (row[0], row[1])
            for row in self._query(
                "SELECT kind, name FROM interest WHERE cluster = ? AND subscriber = ? ORDER BY kind, name",
                (cluster, subscriber),
            )
        ]

    def forget_interests(self, cluster: str, subscriber: str) -> None:
        self._write([("DELETE FROM interest WHERE cluster = ? AND subscriber = ?", (cluster, subscriber))])

    def note_put(self, name: str, when: str) -> None:
        self._write([("INSERT OR REPLACE INTO usage VALUES (?, ?)", (name, when))])

    def last_put(self, name: str) -> str | None:
        rows = self._query("SELECT last_put FROM usage WHERE name = ?", (name,))
        return rows[0][0] if rows else None

    def used_since(self, since: str) -> list[str]:
        return [
            row[0]
            for row in self._query("SELECT name FROM usage WHERE last_put >= ? ORDER BY name", (since,))
        ]

    # ------------------------------------------------------------ force-removed queue managers
    def note_removed(self, cluster: str, qmid: str, when: str) -> None:
        self._write([("INSERT OR REPLACE INTO removed VALUES (?, ?, ?)", (cluster, qmid, when))])

    def removed_at(self, cluster: str, qmid: str) -> str | None:
        rows = self._query("SELECT at FROM removed WHERE cluster = ? AND qmid = ?", (cluster, qmid))
        return rows[0][0] if rows else None
