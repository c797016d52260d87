"""The object catalog: the queue manager's objects in memory, their object files, damage to them.

Object definitions reach their object files as each change is made (they are the
first media image). A new file is written behind the command, on a thread of its
own (mqsh.store.deferred), as is any change to a file still to be written: the
command's log record, forced before its response, is what a restart relies on
until the next checkpoint, which waits for them. Queue contents reach the queue
files at checkpoints, as does the catalog file (the list of the objects that
exist). Each use of an object checks its file (mqsh.core.damage): one that is
gone or fails its checksum makes it damaged.
"""

from __future__ import annotations

import contextlib
import errno
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Protocol

from mqsh.core.damage import CATALOG_KEY, FileWatch, error_log_type, read_object_file, report_damage
from mqsh.core.objects import MQObject, object_key
from mqsh.model.basics import QmgrBasics
from mqsh.recovery import restart
from mqsh.recovery.replay import reference as replay
from mqsh.store.deferred import DeferredWrites
from mqsh.store.files import encode_document, rewrite_encoded, write_document


class DamageFollowUp(Protocol):
    """What is done for an object found damaged (a replicated log schedules its recovery)."""

    def schedule_all(self, objects: Iterable[MQObject]) -> None: ...


class Objects(dict):
    """The objects by key, and the keys of each name space, kept as the objects change: listing
    one name space (a queue's authority records, the channels) costs what it holds, not what the
    queue manager holds."""

    def __init__(self, items=()):
        super().__init__(items)
        self._spaces: dict[str, set[str]] = {}
        for key, obj in self.items():
            self._spaces.setdefault(obj.namespace, set()).add(key)

    def __setitem__(self, key: str, obj: MQObject) -> None:
        old = self.get(key)
        if old is not None:
            self._spaces[old.namespace].discard(key)
        super().__setitem__(key, obj)
        self._spaces.setdefault(obj.namespace, set()).add(key)

    def __delitem__(self, key: str) -> None:
        self._spaces[self[key].namespace].discard(key)
        super().__delitem__(key)

    def pop(self, key: str, *default):
        if key in self:
            obj = self[key]
            del self[key]
            return obj
        if default:
            return default[0]
        raise KeyError(key)

    def setdefault(self, key: str, default: MQObject) -> MQObject:  # type: ignore[override]
        if key not in self:
            self[key] = default
        return self[key]

    def update(self, *others, **more) -> None:  # type: ignore[override]
        for key, obj in dict(*others, **more).items():
            self[key] = obj

    def clear(self) -> None:
        super().clear()
        self._spaces.clear()

    def popitem(self):
        raise TypeError("objects leave by key")

    def keys_in(self, namespace: str) -> list[str]:
        return list(self._spaces.get(namespace, ()))


class ObjectCatalog:
    def __init__(self, basics: QmgrBasics):
        paths = self.paths = basics.paths
        self.name = paths.name
        self.errors = basics.errors
        self._state = Objects()
        self.changed: set[str] = set()  # objects whose files the next checkpoint writes
        self.files = FileWatch()  # object files as last written or read, to notice damage
        self.deferred = DeferredWrites(f"mqsh-files-{paths.name}")
        self.catalog_damaged = False
        self.open_handles: dict[str, int] = {}  # queue name -> handles held open (LAB OPEN)
        self.auto_recovery: DamageFollowUp  # bound by the queue manager once its media images are built
        self._intact_now: dict[str, MQObject] | None = (
            None  # objects whose files were found intact (files_still)
        )

    @property
    def state(self) -> Objects:
        return self._state

    @state.setter
    def state(self, objects: replay.State) -> None:
        # A start hands over a plain dict (the object files, or a replay's result): indexed here.
        self._state = objects if isinstance(objects, Objects) else Objects(objects)

    @property
    def qmgr_object(self) -> MQObject | None:
        found = self.state.get(object_key("QMGR", self.name))
        if found is None:
            # A copy restored under another name (LAB RESTORE ... AS) keeps the object of the
            # queue manager it is inside: the one object of the QMGR name space.
            keys = list(self.state.keys_in("QMGR"))
            found = self.state.get(keys[0]) if len(keys) == 1 else None
        return found

    def lookup(self, namespace: str, name: str) -> MQObject | None:
        """The object, its file checked on the way (a damaged one comes back marked damaged)."""
        obj = self.state.get(object_key(namespace, name))
        if obj is not None:
            self.check(obj)
        return obj

    def objects(self, namespace: str) -> list[MQObject]:
        found = sorted((self.state[key] for key in self.state.keys_in(namespace)), key=lambda o: o.name)
        for obj in found:
            self.check(obj)
        return found

    def in_use(self, obj: MQObject) -> bool:
        return self.open_handles.get(obj.name, 0) > 0

    # ------------------------------------------------------------ object files
    def object_path(self, obj: MQObject):
        return self.paths.object_file(obj.namespace, obj.name)

    def write_object_file(self, obj: MQObject) -> None:
        """The object's file as it is now. A file that is there is rewritten at once (one write
        in place); making a file costs the file system's journal far more, so a new one is
        written behind the command (see settle_files), as is any write that follows one still
        to come. A disk with no room leaves the file to the next checkpoint: the change is
        logged, so done, and the checkpoint with room writes it."""
        if obj.damaged:
            return
        key, path = obj.key, self.object_path(obj)
        data, lsn = encode_document(obj.to_document()), obj.lsn  # here: the object changes on after this
        pending, seen = self.deferred.pending(key), self.files.seen(key)
        if pending or not seen:
            self.deferred.submit(
                key, lambda: self._rewrite(key, path, data, lsn, probably_new=not (pending or seen))
            )
            return
        try:
            self._rewrite(key, path, data, lsn, probably_new=False)
        except OSError as error:
            if error.errno != errno.ENOSPC:
                raise
            self.changed.add(key)

    def write_object_file_now(self, obj: MQObject) -> None:
        """The object's file written before this returns (OSError when it cannot be)."""
        if not obj.damaged:
            self._rewrite(
                obj.key,
                self.object_path(obj),
                encode_document(obj.to_document()),
                obj.lsn,
                probably_new=not self.files.seen(obj.key),
            )

    def _rewrite(self, key: str, path: Path, data: bytes, lsn: int, probably_new: bool) -> None:
        """data, the document of the object as at lsn, written to its file."""
        try:
            rewrite_encoded(path, data, probably_new)
        except OSError:
            self.files.remember(key, path)  # what the file now is: the old one, or none
            raise
        self.files.remember(key, path, lsn)

    def remove_object_file(self, key: str, path: Path) -> None:
        """A deleted object's file goes: at once (removing a file costs the journal little), or
        after the writes for it still to come."""

        def remove() -> None:
            path.unlink(missing_ok=True)
            self.files.forget(key)

        if self.deferred.pending(key):
            self.deferred.submit(key, remove)
        else:
            remove()

    def settle_files(self) -> None:
        """Every object file write asked for is done. One the disk refused (a full disk) is left
        to the next checkpoint: the change is logged, so done, and the checkpoint writes it."""
        self.changed.update(self.deferred.wait())

    def close_files(self) -> None:
        """settle_files, and the writing thread ends (the queue manager ends)."""
        self.changed.update(self.deferred.close())

    def write_catalog(self) -> None:
        """The catalog: every object, with the LSN its file reflects. Written once every object
        file is settled, so a start that finds a file older than that knows it is an old copy."""
        if not self.catalog_intact():
            return  # the next command ends the queue manager (core_damage)
        lsns = self.files.lsns  # -1, older than any file, for one never written or read
        entries = sorted(
            [obj.namespace, obj.object_type, obj.name, lsns.get(key, -1)] for key, obj in self.state.items()
        )
        write_document(self.paths.catalog, {"objects": entries})
        self.files.remember(CATALOG_KEY, self.paths.catalog)

    # ------------------------------------------------------------ damage
    def check(self, obj: MQObject) -> bool:
        """True when obj is damaged: noticed before, or now from its object file."""
        if obj.damaged:
            return True
        key = obj.key
        if self.deferred.pending(key):
            return False  # its file is being written from memory, which holds the object
        if self._intact_now is not None and self._intact_now.get(key) is obj:
            return False
        if self.files.intact(key, self.object_path(obj), _readable_object):
            if self._intact_now is not None:
                self._intact_now[key] = obj
            return False
        self.mark_damaged(obj, "its object file is missing, truncated or does not match its checksum")
        return True

    @contextlib.contextmanager
    def files_still(self) -> Iterator[None]:
        """While the repository managers and channels settle after a command, only the queue
        manager itself writes its object files (damage and copies come from commands): an object
        file found intact stays so, and is looked at once, not at every use of its object."""
        if self._intact_now is not None:
            yield  # within a settle already
            return
        self._intact_now = {}
        try:
            yield
        finally:
            self._intact_now = None

    def mark_damaged(self, obj: MQObject, detail: str) -> None:
        obj.damaged = True
        self.changed.discard(obj.key)
        report_damage(self.errors, obj.name, error_log_type(obj), detail)
        self.auto_recovery.schedule_all([obj])

    def catalog_intact(self) -> bool:
        if not self.catalog_damaged and not self.files.intact(
            CATALOG_KEY, self.paths.catalog, _readable_catalog
        ):
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
