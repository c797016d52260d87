"""QSGDISP(GROUP) objects in the shared repository, and the SHARED queues DISPLAY shows.

A group object is one definition every member copies to its own catalog
(QSGDISP(COPY)). Each change is one transaction that also advances the
repository's change count (table group_change) and stamps the object with
it, so that a member can tell cheaply, before a command, whether anything
changed since it last refreshed its copies, and which objects.

Names of objects of several types may share a name space (the four queue
types): callers pass the types of the name space, as the catalogue knows
them, and a name is unique across them, as it is in a queue manager.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from mqsh.model.qsg.repository import SharedRepository


@dataclass(frozen=True)
class GroupObject:
    object_type: str  # QLOCAL, CHANNEL ...
    name: str
    attributes: dict[str, Any]
    altered: str
    serial: int  # the change count when it was last defined or altered


@dataclass(frozen=True)
class SharedQueue:
    name: str
    cfstruct: str
    attributes: dict[str, Any]


def _marks(types: Collection[str]) -> str:
    return ", ".join("?" * len(types))


def change_count(repository: SharedRepository) -> int:
    """How many changes group objects have had: unchanged count, unchanged objects."""
    return repository.db.execute("SELECT serial FROM group_change").fetchone()[0]


def _advance(db) -> int:
    db.execute("UPDATE group_change SET serial = serial + 1")
    return db.execute("SELECT serial FROM group_change").fetchone()[0]


def _row(row) -> GroupObject:
    object_type, name, attributes, altered, serial = row
    return GroupObject(object_type, name, json.loads(attributes), altered, serial)


_COLUMNS = "object_type, name, attributes, altered, serial"


def find(repository: SharedRepository, types: Collection[str], name: str) -> GroupObject | None:
    """The group object of that name among the types of one name space."""
    row = repository.db.execute(f"SELECT {_COLUMNS} FROM group_object WHERE name = ? AND object_type IN "
                                f"({_marks(types)})", (name, *types)).fetchone()
    return _row(row) if row else None


def listing(repository: SharedRepository, types: Collection[str] | None = None,
            since: int = 0) -> list[GroupObject]:
    """Group objects in name order: of the types given (all when None), changed after change count since."""
    query = f"SELECT {_COLUMNS} FROM group_object WHERE serial > ?"
    arguments: list[Any] = [since]
    if types is not None:
        query += f" AND object_type IN ({_marks(types)})"
        arguments += list(types)
    return [_row(row) for row in repository.db.execute(query + " ORDER BY name, object_type", arguments)]


def save(repository: SharedRepository, types: Collection[str], object_type: str, name: str,
         attributes: dict[str, Any], altered: str, new: bool) -> GroupObject | None:
    """Define (new) or replace/alter a group object; None when new and one of the name exists
    already, or not new and there is none of that type: the check and the change are one transaction."""
    text = json.dumps(attributes, sort_keys=True)
    with repository.transaction() as db:
        row = db.execute(f"SELECT object_type FROM group_object WHERE name = ? AND object_type IN "
                         f"({_marks(types)})", (name, *types)).fetchone()
        if (row is not None) == new or (not new and row[0] != object_type):
            return None
        serial = _advance(db)
        if new:
            db.execute("INSERT INTO group_object (object_type, name, attributes, altered, serial) "
                       "VALUES (?, ?, ?, ?, ?)", (object_type, name, text, altered, serial))
        else:
            db.execute("UPDATE group_object SET attributes = ?, altered = ?, serial = ? WHERE object_type = ? "
                       "AND name = ?", (text, altered, serial, object_type, name))
    return GroupObject(object_type, name, attributes, altered, serial)


def delete(repository: SharedRepository, types: Collection[str], name: str) -> GroupObject | None:
    """The group object deleted, or None when there was none of that name."""
    with repository.transaction() as db:
        row = db.execute(f"SELECT {_COLUMNS} FROM group_object WHERE name = ? AND object_type IN "
                         f"({_marks(types)})", (name, *types)).fetchone()
        if row is None:
            return None
        db.execute("DELETE FROM group_object WHERE object_type = ? AND name = ?", (row[0], name))
        _advance(db)
    return _row(row)


def shared_queues(repository: SharedRepository) -> list[SharedQueue]:
    """The QSGDISP(SHARED) queues, in name order (read only: they are defined elsewhere)."""
    return [SharedQueue(name, cfstruct, json.loads(attributes)) for name, cfstruct, attributes in
            repository.db.execute("SELECT name, cfstruct, attributes FROM shared_queue ORDER BY name")]
