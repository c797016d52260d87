"""The shared repository's object tables: QSGDISP(SHARED) queues (shared_queue) and
QSGDISP(GROUP) objects (group_object, with the change count group_change).

What a group object is, and how members notice its changes, is mqsh.model.qsg.group_objects';
this module only reads and writes the rows, attributes as JSON. Every write is one transaction
of the repository (SharedRepository mixes these methods in), its check and its change together.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable, Collection
from typing import Any

# A group object's row: (object_type, name, attributes, altered, serial).
GroupObjectRow = tuple[str, str, dict[str, Any], str, int]
_COLUMNS = "object_type, name, attributes, altered, serial"


def _marks(types: Collection[str]) -> str:
    return ", ".join("?" * len(types))


def _decoded(row: tuple[Any, ...]) -> GroupObjectRow:
    object_type, name, attributes, altered, serial = row
    return object_type, name, json.loads(attributes), altered, serial


def _advance(db: sqlite3.Connection) -> int:
    """The group's change count, advanced by one (inside the caller's transaction)."""
    db.execute("UPDATE group_change SET serial = serial + 1")
    serial: int = db.execute("SELECT serial FROM group_change").fetchone()[0]
    return serial


class ObjectTables:
    """The object tables' reads and writes, for SharedRepository (its db and transaction())."""

    db: sqlite3.Connection
    transaction: Callable[[], contextlib.AbstractContextManager[sqlite3.Connection]]

    # ------------------------------------------------------------ shared queues
    def shared_queue(self, name: str) -> dict[str, Any] | None:
        """The shared queue's attributes (CFSTRUCT among them), or None when there is none of that name."""
        row = self.db.execute("SELECT attributes FROM shared_queue WHERE name = ?", (name,)).fetchone()
        return json.loads(row[0]) if row else None

    def shared_queue_rows(self) -> list[tuple[str, str, dict[str, Any]]]:
        """(name, structure, attributes) of every shared queue, in name order."""
        return [
            (name, cfstruct, json.loads(attributes))
            for name, cfstruct, attributes in self.db.execute(
                "SELECT name, cfstruct, attributes FROM shared_queue ORDER BY name"
            )
        ]

    def save_shared_queue(self, name: str, attributes: dict[str, Any], altered: str, new: bool) -> bool:
        """Store a definition; False when new and one exists (or not new and none does): one transaction."""
        text = json.dumps(attributes, sort_keys=True)
        with self.transaction() as db:
            exists = db.execute("SELECT 1 FROM shared_queue WHERE name = ?", (name,)).fetchone() is not None
            if exists == new:
                return False
            if new:
                db.execute(
                    "INSERT INTO shared_queue (name, cfstruct, attributes, altered) VALUES (?, ?, ?, ?)",
                    (name, attributes["CFSTRUCT"], text, altered),
                )
            else:
                db.execute(
                    "UPDATE shared_queue SET cfstruct = ?, attributes = ?, altered = ? WHERE name = ?",
                    (attributes["CFSTRUCT"], text, altered, name),
                )
        return True

    def delete_shared_queue(self, name: str) -> bool:
        """False when there was no shared queue of that name."""
        with self.transaction() as db:
            return db.execute("DELETE FROM shared_queue WHERE name = ?", (name,)).rowcount > 0

    # ------------------------------------------------------------ group objects
    def group_change_count(self) -> int:
        """How many changes group objects have had."""
        count: int = self.db.execute("SELECT serial FROM group_change").fetchone()[0]
        return count

    def group_object(self, types: Collection[str], name: str) -> GroupObjectRow | None:
        """The group object of that name among the types of one name space."""
        row = self.db.execute(
            f"SELECT {_COLUMNS} FROM group_object WHERE name = ? AND object_type IN ({_marks(types)})",
            (name, *types),
        ).fetchone()
        return _decoded(row) if row else None

    def group_objects(self, types: Collection[str] | None, since: int) -> list[GroupObjectRow]:
        """Group objects in name order: of the types given (all when None), changed after change count since."""
        query = f"SELECT {_COLUMNS} FROM group_object WHERE serial > ?"
        arguments: list[Any] = [since]
        if types is not None:
            query += f" AND object_type IN ({_marks(types)})"
            arguments += list(types)
        return [_decoded(row) for row in self.db.execute(query + " ORDER BY name, object_type", arguments)]

    def save_group_object(
        self,
        types: Collection[str],
        object_type: str,
        name: str,
        attributes: dict[str, Any],
        altered: str,
        new: bool,
    ) -> int | None:
        """Define (new) or replace a group object, advancing the change count: the count it was
        stamped with, or None when new and one of the name exists among the types, or not new and
        there is none of that type. The check and the change are one transaction."""
        text = json.dumps(attributes, sort_keys=True)
        with self.transaction() as db:
            row = db.execute(
                f"SELECT object_type FROM group_object WHERE name = ? AND object_type IN ({_marks(types)})",
                (name, *types),
            ).fetchone()
            if (row is not None) == new or (not new and row[0] != object_type):
                return None
            serial = _advance(db)
            if new:
                db.execute(
                    "INSERT INTO group_object (object_type, name, attributes, altered, serial) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (object_type, name, text, altered, serial),
                )
            else:
                db.execute(
                    "UPDATE group_object SET attributes = ?, altered = ?, serial = ? WHERE object_type = ? "
                    "AND name = ?",
                    (text, altered, serial, object_type, name),
                )
        return serial

    def delete_group_object(self, types: Collection[str], name: str) -> GroupObjectRow | None:
        """The group object of that name among the types, deleted (advancing the change count);
        None when there was none. One transaction."""
        with self.transaction() as db:
            row = db.execute(
                f"SELECT {_COLUMNS} FROM group_object WHERE name = ? AND object_type IN ({_marks(types)})",
                (name, *types),
            ).fetchone()
            if row is None:
                return None
            db.execute("DELETE FROM group_object WHERE object_type = ? AND name = ?", (row[0], name))
            _advance(db)
        return _decoded(row)
