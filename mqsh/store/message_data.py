"""What a message carries besides its descriptor: the transmission header of a message on a
transmission queue (the queue manager and queue it is for), a dead-letter header, a channel
batch held in doubt.

The log records a message's id, size, priority and put time, which is all that restart,
media recovery and the replay engines need to know of it. The rest is written here, keyed
by message id, and made durable before the put that names it is logged: a put the log holds
always finds its data, and a row whose put never reached the log (a crash between the two)
is only an orphan, removed at the next start.

One SQLite file per queue manager (qmgrs/QM1/msgdata.db): only the process that holds the
queue manager opens it, so no busy timeout is needed; each change is one transaction, forced
to disk (synchronous=FULL).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mqsh.store.sqlite_tx import connect_durable, write_transaction


class MessageDataUnavailable(Exception):
    """The file cannot be opened, read or written (damaged, or no room on the disk)."""


class MessageData:
    def __init__(self, path: Path):
        self.path = path
        self._db: sqlite3.Connection | None = None

    def _open(self) -> sqlite3.Connection:
        if self._db is None:
            try:
                db = connect_durable(
                    self.path,
                    ("CREATE TABLE IF NOT EXISTS data (msgid TEXT PRIMARY KEY, content TEXT NOT NULL)",),
                )
            except sqlite3.Error as error:
                raise MessageDataUnavailable(f"{self.path}: {error}") from None
            self._db = db
        return self._db

    def put(self, items: dict[str, dict[str, Any]]) -> None:
        """Store the data of these messages (message id -> content), all or none."""
        if not items:
            return
        try:
            with write_transaction(self._open()) as db:
                db.executemany(
                    "INSERT OR REPLACE INTO data VALUES (?, ?)",
                    [(msgid, json.dumps(content, sort_keys=True)) for msgid, content in items.items()],
                )
        except sqlite3.Error as error:
            raise MessageDataUnavailable(f"{self.path}: {error}") from None

    def get(self, msgid: str) -> dict[str, Any] | None:
        """The data stored for a message, or None when it has none."""
        try:
            row = self._open().execute("SELECT content FROM data WHERE msgid = ?", (msgid,)).fetchone()
            return json.loads(row[0]) if row else None
        except (sqlite3.Error, ValueError) as error:
            raise MessageDataUnavailable(f"{self.path}: {error}") from None

    def delete(self, msgids: Iterable[str]) -> None:
        ids = [(msgid,) for msgid in msgids]
        if not ids or not self.path.exists():
            return
        try:
            with write_transaction(self._open()) as db:
                db.executemany("DELETE FROM data WHERE msgid = ?", ids)
        except sqlite3.Error as error:
            raise MessageDataUnavailable(f"{self.path}: {error}") from None

    def keep_only(self, msgids: set[str]) -> None:
        """Remove the rows of messages that are on no queue (puts a crash kept from the log)."""
        if not self.path.exists():
            return
        try:
            stored = [row[0] for row in self._open().execute("SELECT msgid FROM data")]
        except sqlite3.Error as error:
            raise MessageDataUnavailable(f"{self.path}: {error}") from None
        self.delete(msgid for msgid in stored if msgid not in msgids)

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
