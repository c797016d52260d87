"""A write transaction on an SQLite database that several mqsh processes share."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator


@contextlib.contextmanager
def write_transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One change, all or nothing. BEGIN IMMEDIATE takes the write lock at once, so the processes
    take turns (waiting up to the connection's busy timeout) rather than failing at their first write."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def connect_durable(path: str | os.PathLike[str], statements: tuple[str, ...] = ()) -> sqlite3.Connection:
    """A connection to a file only this process writes (one queue manager's): each transaction
    forced to disk (synchronous=FULL, write-ahead log), statements run once to make its tables.
    sqlite3.Error when it cannot be opened."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    for statement in statements:
        db.execute(statement)
    return db
