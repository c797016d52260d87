"""The object catalog: the queue manager's objects in memory, their object files, damage to them.

Object definitions reach their object files at once (they are the first media
image); queue contents reach the queue files at checkpoints, as does the catalog
file (the list of the objects that exist). Each use of an object checks its file
(mqsh.model.damage): one that is gone or fails its checksum makes it damaged.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from mqsh.model.damage import CATALOG_KEY, FileWatch, error_log_type, read_object_file, report_damage
from mqsh.model.objects import MQObject, object_key
from mqsh.recovery import replay, restart
from mqsh.store.datadir import QmgrPaths
from mqsh.store.errorlog import ErrorLog
from mqsh.store.files import rewrite_document, write_document


class DamageFollowUp(Protocol):
    """What is done for an object found damaged (a replicated log schedules its recovery)."""

    def schedule_all(self, objects: Iterable[MQObject]) -> None: ...


class ObjectCatalog:
    def __init__(self, paths: QmgrPaths, errors: ErrorLog):
        self.paths = paths
        self.name = paths.name
        self.errors = errors
        self.state: replay.State = {}
        self._dirty: set[str] = set()  # objects whose files the next checkpoint writes
        self.files = FileWatch()  # object files as last written or read, to notice damage
        self.catalog_damaged = False
        self.open_handles: dict[str, int] = {}  # queue name -> handles held open (LAB OPEN)
        self.auto_recovery: DamageFollowUp  # bound by the queue manager once its media images are built

    @property
    def qmgr_object(self) -> MQObject | None:
        return self.state.get(object_key("QMGR", self.name))

    def lookup(self, namespace: str, name: str) -> MQObject | None:
        """The object, its file checked on the way (a damaged one comes back marked damaged)."""
        obj = self.state.get(object_key(namespace, name))
        if obj is not None:
            self.check(obj)
        return obj

    def objects(self, namespace: str) -> list[MQObject]:
        found = sorted((obj for obj in self.state.values() if obj.namespace == namespace), key=lambda o: o.name)
        for obj in found:
            self.check(obj)
        return found

    def in_use(self, obj: MQObject) -> bool:
        return self.open_handles.get(obj.name, 0) > 0

    # ------------------------------------------------------------ object files
    def _object_path(self, obj: MQObject):
        return self.paths.object_file(obj.namespace, obj.name)

    def _write_object_file(self, obj: MQObject) -> None:
        if obj.damaged:
            return
        path = self._object_path(obj)
        rewrite_document(path, obj.to_document(), probably_new=not self.files.seen(obj.key))
        self.files.remember(obj.key, path)

    def _write_catalog(self) -> None:
        if not self.catalog_intact():
            return  # the next command ends the queue manager (core_damage)
        entries = sorted([obj.namespace, obj.object_type, obj.name] for obj in self.state.values())
        write_document(self.paths.catalog, {"objects": entries})
        self.files.remember(CATALOG_KEY, self.paths.catalog)

    # ------------------------------------------------------------ damage
    def check(self, obj: MQObject) -> bool:
        """True when obj is damaged: noticed before, or now from its object file."""
        if obj.damaged:
            return True
        if self.files.intact(obj.key, self._object_path(obj), _readable_object):
            return False
        self.mark_damaged(obj, "its object file is missing, truncated or does not match its checksum")
        return True

    def mark_damaged(self, obj: MQObject, detail: str) -> None:
        obj.damaged = True
        self._dirty.discard(obj.key)
        report_damage(self.errors, obj.name, error_log_type(obj), detail)
        self.auto_recovery.schedule_all([obj])

    def catalog_intact(self) -> bool:
        if not self.catalog_damaged and not self.files.intact(CATALOG_KEY, self.paths.catalog, _readable_catalog):
            self.catalog_damaged = True
            report_damage(self.errors, "QMQMOBJCAT", "catalog", "the object catalog is missing or damaged")
        return not self.catalog_damaged

    def core_damage(self) -> str | None:
        """What the queue manager cannot run without and finds damaged, or None."""
        qmgr = self.qmgr_object
        if qmgr is not None and self.check(qmgr):
            return "queue manager object"
        if not self.catalog_intact():
            return "object catalog"
        return None


def _readable_object(path) -> bool:
    return read_object_file(path) is not None

def _readable_catalog(path) -> bool:
    return restart.read_catalog(path) is not None
