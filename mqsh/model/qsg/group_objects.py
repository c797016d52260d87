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


def change_count(repository: SharedRepository) -> int:
    """How many changes group objects have had: unchanged count, unchanged objects."""
    return repository.group_change_count()


def find(repository: SharedRepository, types: Collection[str], name: str) -> GroupObject | None:
    """The group object of that name among the types of one name space."""
    row = repository.group_object(types, name)
    return GroupObject(*row) if row else None


def listing(
    repository: SharedRepository, types: Collection[str] | None = None, since: int = 0
) -> list[GroupObject]:
    """Group objects in name order: of the types given (all when None), changed after change count since."""
    return [GroupObject(*row) for row in repository.group_objects(types, since)]


def save(
    repository: SharedRepository,
    types: Collection[str],
    object_type: str,
    name: str,
    attributes: dict[str, Any],
    altered: str,
    new: bool,
) -> GroupObject | None:
    """Define (new) or replace/alter a group object; None when new and one of the name exists
    already, or not new and there is none of that type: the check and the change are one transaction."""
    serial = repository.save_group_object(types, object_type, name, attributes, altered, new)
    return GroupObject(object_type, name, attributes, altered, serial) if serial is not None else None


def delete(repository: SharedRepository, types: Collection[str], name: str) -> GroupObject | None:
    """The group object deleted, or None when there was none of that name."""
    row = repository.delete_group_object(types, name)
    return GroupObject(*row) if row else None


def shared_queues(repository: SharedRepository) -> list[SharedQueue]:
    """The QSGDISP(SHARED) queues, in name order (read only: they are defined elsewhere)."""
    return [SharedQueue(*row) for row in repository.shared_queue_rows()]
