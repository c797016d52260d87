"""The pieces of a queue manager start that read what the disk holds.

The order of a start (in QueueManager._recover) is KahaDB's and MQ's:
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

from mqsh.model.damage import FileWatch, read_object_file
from mqsh.model.objects import MQObject, object_key
from mqsh.recovery.media_recovery import NoMediaImage, keys_touched
from mqsh.recovery.replay import Record, State
from mqsh.store import log as logstore
from mqsh.store.datadir import NAMESPACE_FOLDERS, QmgrPaths
from mqsh.store.files import CorruptFile, read_document
from mqsh.store.names import from_file_name

# What a catalog entry or a damaged file tells about an object: namespace, type, name.
ObjectInfo = tuple[str, str, str]
YES = ("YES", "TRUE", "1")


@dataclass(frozen=True)
class StartOptions:
    """strmqm --verify-log / --ignore-missing-log, or qm.ini Log: VerifyLogOnStart, IgnoreMissingLogExtents."""

    verify_log: bool = False
    ignore_missing: bool = False

    @classmethod
    def from_settings(cls, log: dict[str, str], verify_log: bool = False,
                      ignore_missing: bool = False) -> StartOptions:
        return cls(verify_log or log.get("VerifyLogOnStart", "No").upper() in YES,
                   ignore_missing or log.get("IgnoreMissingLogExtents", "No").upper() in YES)


@dataclass
class LoadedFiles:
    state: State = field(default_factory=dict)
    bad: dict[str, ObjectInfo] = field(default_factory=dict)  # files that exist but cannot be read


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
                # A long name's hashed file name cannot be read back: the catalog names
                # the object, and its unreadable file then counts as missing.
                if name is not None:
                    loaded.bad[object_key(namespace, name)] = (namespace, namespace, name)
                continue
            obj = MQObject.from_document(document)
            loaded.state[obj.key] = obj
            files.remember(obj.key, path)
    return loaded


def read_catalog(path: Path) -> dict[str, ObjectInfo] | None:
    """key -> (namespace, type, name) for every object the catalog lists; None when it is unusable."""
    try:
        entries = read_document(path)["objects"]
        return {object_key(namespace, name): (namespace, object_type, name)
                for namespace, object_type, name in entries}
    except (FileNotFoundError, CorruptFile, KeyError, TypeError, ValueError):
        return None


def catalog_from_media(media: dict[str, int], state: State) -> dict[str, ObjectInfo]:
    """A catalog rebuilt from the media recovery records (one per object not deleted) and the objects loaded."""
    catalog = {key: (obj.namespace, obj.object_type, obj.name) for key, obj in state.items()}
    for key in media:
        namespace, _, name = key.partition("/")
        if namespace in NAMESPACE_FOLDERS:
            catalog.setdefault(key, (namespace, namespace, name))
    return catalog


def suspects(loaded: LoadedFiles, catalog: dict[str, ObjectInfo], records: list[Record]) -> dict[str, ObjectInfo]:
    """Objects whose file was unusable at start and that the replay did not settle.

    A creation record in the replayed part of the log re-creates an object
    whole, and a deletion record ends it; any other object whose file is
    missing (but listed in the catalog) or unreadable is damaged.
    """
    settled: dict[str, str] = {}
    for record in records:
        if record["t"] == "DEL" or (record["t"] == "OBJ" and record.get("c")):
            settled[record["k"]] = record["t"]
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
        if record["t"] in ("PUT", "GET") and record.get("u"):
            units.setdefault(record["u"], set()).add(record["q"])
        elif record["t"] in logstore.UNIT_ENDINGS:
            units.pop(record["u"], None)
    return units


def incomplete_log_text(log_dir: Path) -> str:
    return (f"Log file {logstore.extent_name(0)} could not be opened for use. The log control file is "
            f"missing, so the whole log must be replayed from its first record ({log_dir}), and the log no "
            "longer begins there. Restore the log control file or the missing extents.")


def circular_qmgr_text(name: str) -> str:
    return (f"Object {name}, type qmgr damaged. Queue manager '{name}' cannot start: it uses circular "
            "logging, which cannot re-create the queue manager object. Restore a backup of the queue "
            "manager, or delete it with dltmqm.")


def unrecoverable_text(error: Exception) -> str:
    if isinstance(error, NoMediaImage):
        return (f"Object {error.key.partition('/')[2]} is needed to start the queue manager and has no "
                "media image in the log, so it cannot be re-created.")
    return (f"Log file {getattr(error, 'extent', '')} could not be opened for use. An object needed to "
            "start the queue manager cannot be re-created from its media image.")
