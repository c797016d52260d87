"""A coupling-facility application structure: the list entries of its shared queues' messages.

One SQLite file per structure, ``<data dir>/qsg/<QSG>/<STRUCT>.cf``, which
every member's process opens. A coupling facility keeps its structures when
a queue manager fails, and loses them when it fails itself: so a committed
change must survive the death of the process that made it (WAL journal) but
need not survive a power failure (synchronous=NORMAL, no fsync per change);
a structure that is lost is recovered from the members' logs.

Each entry is one message: its entry id (the LRSN of its put, carrying the
time stamp), its queue, priority, size, persistence, where its data was
offloaded (the owner of the shared message data set, first block and block
count, or none), and its state: committed (C), put in a unit of work (P) or
got in one (G), with the member and unit holding it. Every change also notes,
in the same transaction, the LSN of the member's log record it applies, so
that a member restarting after a crash applies exactly the logged changes
the structure missed.

Every statement on the file is written here, behind a method named for what it
reads or changes; the changes take the connection of a transaction the caller
holds (Structure.transaction), so that a caller makes several of them, and the
log record's LSN they apply, one change of the structure.
"""

from __future__ import annotations

import contextlib
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mqsh.store.records import (
    BLOCK,
    BLOCKS,
    ENTRY,
    ENTRY_STATE,
    HOLDER,
    LIST_ENTRY_COLUMNS,
    LSN,
    OWNER,
    PERSISTENT,
    PRIORITY,
    PUT_TIME,
    SHARED_QUEUE,
    SIZE,
    UNIT,
)
from mqsh.store.sqlite_tx import write_transaction

BUSY_SECONDS = 30.0
COMMITTED, PUT_PENDING, GET_PENDING = "C", "P", "G"
# The text as files made before hold it, each column named by records.LIST_ENTRY_COLUMNS.
SCHEMA = f"""
CREATE TABLE IF NOT EXISTS entry (
    {ENTRY} TEXT PRIMARY KEY,              -- entry id
    {SHARED_QUEUE} TEXT NOT NULL,                -- shared queue
    {PRIORITY} INTEGER NOT NULL,              -- priority
    {SIZE} INTEGER NOT NULL,              -- size in bytes
    {PUT_TIME} TEXT NOT NULL,                -- put time
    {PERSISTENT} INTEGER NOT NULL,
    {OWNER} TEXT,                          -- owner of the data set holding the data, or NULL (data in the entry)
    {BLOCK} INTEGER,                       -- first block there
    {BLOCKS} INTEGER,                       -- blocks
    {ENTRY_STATE} TEXT NOT NULL,             -- C, P or G
    {HOLDER} TEXT,                     -- the member whose unit holds a P or G entry
    {UNIT} TEXT                           -- that unit
);
CREATE INDEX IF NOT EXISTS entry_by_queue ON entry ({SHARED_QUEUE}, {ENTRY_STATE}, {PRIORITY} DESC, {ENTRY});
CREATE INDEX IF NOT EXISTS entry_by_unit ON entry ({HOLDER}, {UNIT});
CREATE TABLE IF NOT EXISTS applied (member TEXT PRIMARY KEY, {LSN} INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS allocation (qsg TEXT NOT NULL, name TEXT NOT NULL, allocated TEXT NOT NULL);
"""
ENTRY_COLUMNS = ", ".join(LIST_ENTRY_COLUMNS)


@dataclass(frozen=True)
class Entry:
    e: str
    sq: str
    p: int
    s: int
    tm: str
    persistent: bool
    o: str | None
    b: int | None
    n: int | None
    state: str
    member: str | None
    u: str | None


def delivery_order(by_priority: bool) -> str:
    """The order gets take a queue's entries in: MSGDLVSQ(PRIORITY) highest priority first, then
    first in, first out (entry ids rise with their LRSNs); FIFO in order."""
    return f"{PRIORITY} DESC, {ENTRY}" if by_priority else ENTRY


class StructureLost(Exception):
    """The structure's file is gone or unreadable: the structure has failed."""


def structure_path(data_dir: Path, qsg: str, name: str) -> Path:
    return data_dir / "qsg" / qsg / f"{name}.cf"


def held_messages(path: Path, qsg: str, name: str) -> tuple[int, int] | None:
    """(persistent, non-persistent) messages a structure's file holds, as its failure would lose them -
    a put of a unit of work not counted, since the failure backs it out; None when it holds none readable.
    What a purge of it then discards, and what a recovery drops (mqsh.model.qsg.structure_recovery)."""
    try:
        with Structure(path, qsg, name) as structure:
            rows = structure.db.execute(
                f"SELECT {PERSISTENT}, count(*) FROM entry WHERE {ENTRY_STATE} != ? GROUP BY {PERSISTENT}",
                (PUT_PENDING,),
            ).fetchall()
    except (StructureLost, sqlite3.DatabaseError):
        return None
    counted = dict(rows)
    return counted.get(1, 0), counted.get(0, 0)


def lose(path: Path, qsg: str, name: str) -> int | None:
    """The structure's file is deleted, as a failure loses a coupling facility's contents: the
    persistent messages it held (None if unknown), for a later RECOVER CFSTRUCT TYPE(PURGE) to say."""
    held = held_messages(path, qsg, name)
    for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        leftover.unlink(missing_ok=True)
    return held[0] if held is not None else None


class Structure:
    """An allocated structure, open for this process; close() when done."""

    def __init__(self, path: Path, qsg: str, name: str, allocate_at: str | None = None):
        """Open the structure; allocate_at (a time stamp) allocates a new, empty one instead."""
        self.path, self.qsg, self.name = path, qsg, name
        if allocate_at is None and not path.exists():
            raise StructureLost(f"structure {name} is not allocated: {path} was not found")
        if allocate_at is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
                leftover.unlink(missing_ok=True)
        try:
            self.db = sqlite3.connect(
                path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False
            )
            self.db.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = NORMAL")
            if allocate_at is not None:
                with self.transaction() as db:
                    for statement in SCHEMA.split(";"):
                        if statement.strip():
                            db.execute(statement)
                    db.execute("INSERT INTO allocation VALUES (?, ?, ?)", (qsg, name, allocate_at))
            row = self.db.execute("SELECT qsg, name FROM allocation").fetchone()
        except sqlite3.DatabaseError as error:
            with contextlib.suppress(Exception):
                self.db.close()
            raise StructureLost(f"structure {name} is damaged: {path}: {error}") from None
        if row != (qsg, name):
            self.db.close()
            raise StructureLost(f"structure {name} is damaged: {path} holds another structure")
        self.inode = path.stat().st_ino

    def current(self) -> bool:
        """Whether the file this handle has open is still the structure's (not failed and allocated anew)."""
        try:
            return self.path.stat().st_ino == self.inode
        except OSError:
            return False

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Structure:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    def transaction(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        """One change, all or nothing; BEGIN IMMEDIATE makes the members' processes take turns."""
        return write_transaction(self.db)

    # ------------------------------------------------------------ reading
    def _entries(self, where: str = "", params: tuple[Any, ...] = ()) -> list[Entry]:
        query = f"SELECT {ENTRY_COLUMNS} FROM entry {where}"
        return [Entry(*row[:5], bool(row[5]), *row[6:]) for row in self.db.execute(query, params)]

    def entries(self) -> list[Entry]:
        """Every entry, in entry id order (the order of their puts)."""
        return self._entries(f"ORDER BY {ENTRY}")

    def offloaded_to(self, owner: str) -> list[Entry]:
        """The entries whose data is in owner's shared message data set, in entry id order."""
        return self._entries(f"WHERE {OWNER} = ? ORDER BY {ENTRY}", (owner,))

    def newest_offloaded_to(self, owner: str) -> Entry | None:
        newest = self._entries(f"WHERE {OWNER} = ? ORDER BY {ENTRY} DESC LIMIT 1", (owner,))
        return newest[0] if newest else None

    def holds_offloaded(self, owner: str | None = None) -> bool:
        """Whether any entry's data is in a data set: owner's, when one is named, else any member's."""
        where = f"{OWNER} IS NOT NULL" if owner is None else f"{OWNER} = ?"
        return (
            self.db.execute(
                f"SELECT 1 FROM entry WHERE {where} LIMIT 1", () if owner is None else (owner,)
            ).fetchone()
            is not None
        )

    def persistent_up_to(self, last: str) -> list[Entry]:
        """The persistent entries whose ids are last's or older, in entry id order (what a backup to
        that point holds)."""
        return self._entries(f"WHERE {PERSISTENT} = 1 AND {ENTRY} <= ? ORDER BY {ENTRY}", (last,))

    def depth(self, queue: str) -> int:
        """CURDEPTH: committed messages and uncommitted puts, as for a local queue."""
        return self.db.execute(
            f"SELECT count(*) FROM entry WHERE {SHARED_QUEUE} = ? AND {ENTRY_STATE} != ?",
            (queue, GET_PENDING),
        ).fetchone()[0]

    def uncommitted(self, queue: str) -> int:
        return self.db.execute(
            f"SELECT count(*) FROM entry WHERE {SHARED_QUEUE} = ? AND {ENTRY_STATE} != ?", (queue, COMMITTED)
        ).fetchone()[0]

    def held(self, member: str, unit: str) -> int:
        """The entries member's unit of work holds: its pending puts and gets."""
        return self.db.execute(
            f"SELECT count(*) FROM entry WHERE {HOLDER} = ? AND {UNIT} = ?", (member, unit)
        ).fetchone()[0]

    def entry_count(self) -> int:
        return self.db.execute("SELECT count(*) FROM entry").fetchone()[0]

    def applied(self, member: str) -> int:
        row = self.db.execute(f"SELECT {LSN} FROM applied WHERE member = ?", (member,)).fetchone()
        return row[0] if row else 0

    def allocated(self) -> str:
        return self.db.execute("SELECT allocated FROM allocation").fetchone()[0]

    def committed(self, queue: str, by_priority: bool) -> list[Entry]:
        """The queue's committed entries in the order gets take them (a browse)."""
        rows = self.db.execute(
            f"SELECT {ENTRY_COLUMNS} FROM entry WHERE {SHARED_QUEUE} = ? AND {ENTRY_STATE} = ? "
            f"ORDER BY {delivery_order(by_priority)}",
            (queue, COMMITTED),
        ).fetchall()
        return [Entry(*row[:5], bool(row[5]), *row[6:]) for row in rows]

    # ------------------------------------------------------------ changing, inside a transaction
    @staticmethod
    def next_committed(db: sqlite3.Connection, queue: str, by_priority: bool) -> Entry | None:
        row = db.execute(
            f"SELECT {ENTRY_COLUMNS} FROM entry WHERE {SHARED_QUEUE} = ? AND {ENTRY_STATE} = ? "
            f"ORDER BY {delivery_order(by_priority)} LIMIT 1",
            (queue, COMMITTED),
        ).fetchone()
        return Entry(*row[:5], bool(row[5]), *row[6:]) if row else None

    @staticmethod
    def note_applied(db: sqlite3.Connection, member: str, lsn: int | None) -> None:
        if lsn is not None:
            db.execute(
                f"INSERT INTO applied (member, {LSN}) VALUES (?, ?) ON CONFLICT (member) "
                f"DO UPDATE SET {LSN} = max({LSN}, excluded.{LSN})",
                (member, lsn),
            )

    @staticmethod
    def insert(db: sqlite3.Connection, entry: Entry) -> None:
        db.execute(
            f"INSERT OR REPLACE INTO entry ({ENTRY_COLUMNS}) VALUES "
            f"({', '.join('?' * len(LIST_ENTRY_COLUMNS))})",
            (
                entry.e,
                entry.sq,
                entry.p,
                entry.s,
                entry.tm,
                int(entry.persistent),
                entry.o,
                entry.b,
                entry.n,
                entry.state,
                entry.member,
                entry.u,
            ),
        )

    @staticmethod
    def delete(db: sqlite3.Connection, e: str) -> None:
        db.execute(f"DELETE FROM entry WHERE {ENTRY} = ?", (e,))

    @staticmethod
    def got(db: sqlite3.Connection, e: str, member: str, unit: str | None) -> None:
        """A destructive get: the entry goes, or is held by the unit until it ends."""
        if unit is None:
            Structure.delete(db, e)
        else:
            db.execute(
                f"UPDATE entry SET {ENTRY_STATE} = ?, {HOLDER} = ?, {UNIT} = ? WHERE {ENTRY} = ?",
                (GET_PENDING, member, unit, e),
            )

    @staticmethod
    def end_unit(db: sqlite3.Connection, member: str, unit: str, commit: bool) -> None:
        """A unit's puts become messages and its gets take them (commit), or the other way round."""
        gone, kept = (GET_PENDING, PUT_PENDING) if commit else (PUT_PENDING, GET_PENDING)
        db.execute(
            f"DELETE FROM entry WHERE {HOLDER} = ? AND {UNIT} = ? AND {ENTRY_STATE} = ?", (member, unit, gone)
        )
        db.execute(
            f"UPDATE entry SET {ENTRY_STATE} = ?, {HOLDER} = NULL, {UNIT} = NULL "
            f"WHERE {HOLDER} = ? AND {UNIT} = ? AND {ENTRY_STATE} = ?",
            (COMMITTED, member, unit, kept),
        )

    @staticmethod
    def units_of(db: sqlite3.Connection, member: str) -> list[str]:
        return [
            row[0]
            for row in db.execute(
                f"SELECT DISTINCT {UNIT} FROM entry WHERE {HOLDER} = ? AND {UNIT} IS NOT NULL", (member,)
            )
        ]

    @staticmethod
    def clear_queue(db: sqlite3.Connection, queue: str) -> int:
        return db.execute(
            f"DELETE FROM entry WHERE {SHARED_QUEUE} = ? AND {ENTRY_STATE} = ?", (queue, COMMITTED)
        ).rowcount

    @staticmethod
    def replace_all(db: sqlite3.Connection, entries: list[Entry], applied: dict[str, int]) -> None:
        """A recovered structure's contents, in place of whatever it held; applied: each member's
        last LSN the recovery read, so that no member's restart applies those records again."""
        db.execute("DELETE FROM entry")
        db.execute("DELETE FROM applied")
        for entry in entries:
            Structure.insert(db, entry)
        db.executemany(f"INSERT INTO applied (member, {LSN}) VALUES (?, ?)", sorted(applied.items()))
