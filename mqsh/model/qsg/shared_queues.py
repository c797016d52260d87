"""Shared queues (QSGDISP(SHARED)): one definition in the group's repository, known to every member.

The messages are in the coupling-facility structure the definition names
(mqsh.model.qsg.list_structure); the definition itself is a row of the
repository's shared_queue table, its attributes as JSON.
"""

from __future__ import annotations

import json
from typing import Any

from mqsh.model.qsg.repository import SharedRepository


def shared_queue(repository: SharedRepository, name: str) -> dict[str, Any] | None:
    """The queue's attributes (CFSTRUCT among them), or None when no shared queue has that name."""
    row = repository.db.execute("SELECT attributes FROM shared_queue WHERE name = ?", (name,)).fetchone()
    return json.loads(row[0]) if row else None


def shared_queues(repository: SharedRepository) -> dict[str, dict[str, Any]]:
    """Every shared queue by name, in name order."""
    return {name: json.loads(attributes) for name, attributes in
            repository.db.execute("SELECT name, attributes FROM shared_queue ORDER BY name")}


def save_shared_queue(repository: SharedRepository, name: str, attributes: dict[str, Any], altered: str,
                      new: bool) -> bool:
    """Store a definition; False when new and one exists (or not new and none does): one transaction."""
    text = json.dumps(attributes, sort_keys=True)
    with repository.transaction() as db:
        exists = db.execute("SELECT 1 FROM shared_queue WHERE name = ?", (name,)).fetchone() is not None
        if exists == new:
            return False
        if new:
            db.execute("INSERT INTO shared_queue (name, cfstruct, attributes, altered) VALUES (?, ?, ?, ?)",
                       (name, attributes["CFSTRUCT"], text, altered))
        else:
            db.execute("UPDATE shared_queue SET cfstruct = ?, attributes = ?, altered = ? WHERE name = ?",
                       (attributes["CFSTRUCT"], text, altered, name))
    return True


def delete_shared_queue(repository: SharedRepository, name: str) -> bool:
    with repository.transaction() as db:
        return db.execute("DELETE FROM shared_queue WHERE name = ?", (name,)).rowcount > 0
