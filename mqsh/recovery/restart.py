"""The pieces of a queue manager start that read what the disk holds.

The order of a start (in mqsh.model.startup.Restart.recover) is KahaDB's and MQ's:
finish a checkpoint that was cut short (the redo record), load the object
files, optionally check every log record, replay the log from the restart
point (from the very first record when the log control file is gone), mark
the objects whose files were unusable as damaged, re-create those a start
needs from their media images, back out the units of work in flight, and
take a checkpoint.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from mqsh.core.damage import FileWatch, read_object_file
from mqsh.core.objects import MQObject, object_key
from mqsh.recovery import accounts
from mqsh.recovery.media.recreate import NoMediaImage, keys_touched
from mqsh.recovery.replay.reference import Record, State
from mqsh.store import log as logstore
from mqsh.store.datadir import NAMESPACE_FOLDERS, QmgrPaths
from mqsh.store.files import CorruptFile, read_document
from mqsh.store.names import from_file_name
from mqsh.store.records import Get, ObjectChanged, ObjectDeleted, Put, UnitEnded, decode

# What a catalog entry or a damaged file tells about an object: namespace, type, name.
ObjectInfo = tuple[str, str, str]
YES = ("YES", "TRUE", "1")


@dataclass(frozen=True)
class StartOptions:
    """strmqm --verify-log / --ignore-missing-log, or qm.ini Log: VerifyLogOnStart, IgnoreMissingLogExtents."""

    verify_log: bool = False
    ignore_missing: bool = False

    @classmethod
    def from_settings(
        cls, log: dict[str, str], verify_log: bool = False, ignore_missing: bool = False
    ) -> StartOptions:
        return cls(
            verify_log or log.get("VerifyLogOnStart", "No").upper() in YES,
            ignore_missing or log.get("IgnoreMissingLogExtents", "No").upper() in YES,
        )


@dataclass
class LoadedFiles:
    state: State = field(default_factory=dict)
    bad: dict[str, ObjectInfo] = field(default_factory=dict)  # files that exist but cannot be used
    # Of those, the files older than the catalog's record of them: key -> (their LSN, the recorded one).
    stale: dict[str, tuple[int, int]] = field(default_factory=dict)


@dataclass
class Catalog:
    """What the catalog file lists: each object, and the LSN its file reflected when written."""

    objects: dict[str, ObjectInfo]
    lsns: dict[str, int]


def load_object_files(paths: QmgrPaths, files: FileWatch) -> LoadedFiles:
    loaded = LoadedFiles()
    for namespace, folder in NAMESPACE_FOLDERS.items():
        directory = paths.qmgr_dir / folder
        if not directory.is_dir():
            continue
        for path in sorted(directory.iterdir()):
            if path.name.endswith(".tmp"):
                path.unlink(missing_ok=True)  # a write cut short by a crash
                continue
            document = read_object_file(path)
            if document is None:
                name = from_file_name(path.name)
                # A digest name does not say whose file it is; the catalog still lists the object,
                # and an object listed with no readable file is found damaged all the same.
                if name is not None:
                    loaded.bad[object_key(namespace, name)] = (namespace, namespace, name)
                continue
            obj = MQObject.from_document(document)
            loaded.state[obj.key] = obj
            files.remember(obj.key, path, obj.lsn)
    return loaded


def set_aside_stale(loaded: LoadedFiles, catalog: Catalog, from_lsn: int, files: FileWatch) -> None:
    """Object files older than the catalog's record of them are unusable, as damaged ones are.

    Every checkpoint writes the catalog once every object file is written, with
    the LSN each file then reflected, and a file only moves forward from there.
    A file with an older LSN is an old copy put back: the changes it lacks
    before the restart point are not replayed, so it cannot be brought up to
    date. One the replay covers from its own LSN on (a whole-log replay) is
    left to the replay.
    """
    for key, recorded in catalog.lsns.items():
        obj = loaded.state.get(key)
        if obj is None:
            files.lsns.setdefault(key, recorded)  # a missing file: what it should reflect is kept
        elif obj.lsn < recorded and obj.lsn + 1 < from_lsn:
            del loaded.state[key]
            loaded.bad[key] = (obj.namespace, obj.object_type, obj.name)
            loaded.stale[key] = (obj.lsn, recorded)
            # Kept as damaged with what it should reflect, so that the next start finds it again.
            files.lsns[key] = recorded


def read_catalog_file(path: Path) -> Catalog | None:
    """The catalog's objects and their files' LSNs; None when it is unusable. An entry is
    [namespace, type, name, lsn]; one written before files' LSNs were recorded has no LSN."""
    try:
        objects, lsns = {}, {}
        for entry in read_document(path)["objects"]:
            key = object_key(entry[0], entry[2])
            objects[key] = (entry[0], entry[1], entry[2])
            if len(entry) > 3:
                lsns[key] = int(entry[3])
        return Catalog(objects, lsns)
    except (FileNotFoundError, CorruptFile, KeyError, IndexError, TypeError, ValueError):
        return None


def read_catalog(path: Path) -> dict[str, ObjectInfo] | None:
    """key -> (namespace, type, name) for every object the catalog lists; None when it is unusable."""
    catalog = read_catalog_file(path)
    return None if catalog is None else catalog.objects


def catalog_from_media(media: dict[str, int], state: State) -> dict[str, ObjectInfo]:
    """A catalog rebuilt from the media recovery records (one per object not deleted) and the objects loaded."""
    catalog = {key: (obj.namespace, obj.object_type, obj.name) for key, obj in state.items()}
    for key in media:
        namespace, _, name = key.partition("/")
        if namespace in NAMESPACE_FOLDERS:
            catalog.setdefault(key, (namespace, namespace, name))
    return catalog


def suspects(
    loaded: LoadedFiles, catalog: dict[str, ObjectInfo], records: list[Record]
) -> dict[str, ObjectInfo]:
    """Objects whose file was unusable at start and that the replay did not settle.

    A creation record in the replayed part of the log re-creates an object
    whole, and a deletion record ends it; any other object whose file is
    missing (but listed in the catalog) or unreadable is damaged.
    """
    settled: dict[str, str] = {}
    for record in records:
        typed = decode(record)
        if isinstance(typed, ObjectDeleted) or (isinstance(typed, ObjectChanged) and typed.created):
            settled[typed.key] = typed.KIND
    found = dict(loaded.bad)
    found.update({key: info for key, info in catalog.items() if key not in loaded.state})
    return {key: catalog.get(key, info) for key, info in found.items() if key not in settled}


def touched(records: Iterable[Record], state: State) -> set[str]:
    """The objects the replay changed: their files are rewritten at the checkpoint that ends the start."""
    return {key for record in records for key in keys_touched(record) if key in state}


def units_in_flight(at_checkpoint: dict[str, list[str]], records: Iterable[Record]) -> dict[str, set[str]]:
    """Units of work still open at the end of the log (uow -> queues), damaged queues included."""
    units = {uow: set(queues) for uow, queues in at_checkpoint.items()}
    for record in records:
        typed = decode(record)
        if isinstance(typed, (Put, Get)) and typed.unit:
            units.setdefault(typed.unit, set()).add(typed.queue)
        elif isinstance(typed, UnitEnded):
            units.pop(typed.unit, None)
    return units


def incomplete_log_text(log_dir: Path) -> str:
    return (
        f"Log file {logstore.extent_name(0)} could not be opened for use. The log control file is "
        f"missing, so the whole log must be replayed from its first record ({log_dir}), and the log no "
        "longer begins there. Restore the log control file or the missing extents."
    )


def queue_accounts(name: str, report) -> list[tuple[str, str]]:
    """(msgid, text) of each recovered queue's account: where the depth the start left came from."""
    return [(accounts.ACCOUNT_ID, accounts.text(item, name, report.extents)) for item in report.accounts]


def recovery_messages(name: str, report) -> list[tuple[str, str]]:
    """(msgid, text) of what MQ reports when a start recovers from a failure: the replay, then
    the recovery phase that backs out the units of work left in flight, then (mqsh's) each
    queue's account."""
    replayed, backed_out = report.replayed, report.backed_out
    return [
        (
            "AMQ7229I",
            f"{replayed} log records accessed on queue manager '{name}' during the log replay phase.",
        ),
        ("AMQ7230I", f"Log replay for queue manager '{name}' complete."),
        (
            "AMQ7231I",
            f"{backed_out} log records accessed on queue manager '{name}' during the recovery phase.",
        ),
        ("AMQ7232I", f"Transaction manager state recovered for queue manager '{name}'."),
        (
            "AMQ7233I",
            f"{backed_out} out of {backed_out} in-flight transactions resolved for queue manager '{name}'.",
        ),
        *queue_accounts(name, report),
    ]


def lost_log_text(log_dir: Path) -> str:
    return (
        f"Log file {logstore.extent_name(0)} could not be opened for use. The log directory ({log_dir}) "
        "holds neither the log control file nor any log extent, yet the queue manager has objects: its "
        "log is lost, and starting with an empty one would lose every change since the last checkpoint. "
        "Restore the log directory (its extents and amqhlctl.lfh) from a backup; or delete the queue "
        "manager (dltmqm) and create it and its objects again."
    )


def circular_qmgr_text(name: str) -> str:
    return (
        f"Object {name}, type qmgr damaged. Queue manager '{name}' cannot start: it uses circular "
        "logging, which cannot re-create the queue manager object. Restore a backup of the queue "
        "manager, or delete it with dltmqm."
    )


def unrecoverable_text(error: Exception) -> str:
    if isinstance(error, NoMediaImage):
        return (
            f"Object {error.key.partition('/')[2]} is needed to start the queue manager and has no "
            "media image in the log, so it cannot be re-created."
        )
    return (
        f"Log file {getattr(error, 'extent', '')} could not be opened for use. An object needed to "
        "start the queue manager cannot be re-created from its media image."
    )
