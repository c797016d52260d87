"""A queue manager: its objects and messages in memory, its log and files on disk.

Every persistent change follows the same three steps: build a log record,
append it to the log (one write), then apply it to memory through
mqsh.recovery.replay.apply - the very function restart uses. Object
definitions reach their object files at once (they are the first media image);
queue contents reach the queue files at checkpoints, as MQ's two-stage update
does (journal first, queue file later). Non-persistent messages are never
logged and never written, so they do not survive a restart.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mqsh.model.clock import Clock
from mqsh.model.objects import COMMITTED, MQObject, StoredMessage, object_key
from mqsh.model.reasons import MQError
from mqsh.recovery import replay
from mqsh.recovery.engine import ReplayEngine
from mqsh.store import log as logstore
from mqsh.store.datadir import NAMESPACE_FOLDERS, QmgrPaths
from mqsh.store.errorlog import ErrorLog
from mqsh.store.files import CorruptFile, read_document, write_document
from mqsh.store.lock import QmgrLock
from mqsh.store.names import from_file_name
from mqsh.store.qmini import read_stanzas

CHECKPOINT_EVERY = 10_000  # log records between checkpoints, as MQ's default


@dataclass
class StartReport:
    replayed: int = 0
    backed_out: int = 0
    unclean: bool = False


def _columnar_copy(extent: Path) -> None:
    """The log's seal hook (pyarrow loads only once an extent fills)."""
    from mqsh.store.columnar import write_copy

    write_copy(extent)


class QueueManager:
    def __init__(self, paths: QmgrPaths, clock: Clock, engine: ReplayEngine | None = None):
        self.paths = paths
        self.engine = engine or ReplayEngine()
        self.name = paths.name
        self.clock = clock
        self.state: replay.State = {}
        self.log: logstore.LogWriter | None = None
        self.lock = QmgrLock(paths.lock_file, self.name)
        self.errors = ErrorLog(paths.error_log, self.name, clock)
        self.uow: str | None = None
        self._uow_queues: set[str] = set()
        self._uow_seq = 0
        self._msg_seq = 0
        self._dirty: set[str] = set()
        self._since_checkpoint = 0
        # Each object's media recovery record: the LSN where its latest media
        # image starts (its creation record until an image is taken).
        self.media: dict[str, int] = {}
        self.running_objects: set[str] = set()  # started channels, listeners, services

    # ------------------------------------------------------------ configuration
    @property
    def log_settings(self) -> dict[str, str]:
        return read_stanzas(self.paths.qm_ini).get("Log", {})

    @property
    def log_type(self) -> str:
        return self.log_settings.get("LogType", "CIRCULAR").upper()

    @property
    def extent_bytes(self) -> int:
        return int(self.log_settings.get("LogFilePages", "4096")) * logstore.PAGE

    # ------------------------------------------------------------ start and stop
    def start(self) -> StartReport:
        """Take the lock, load the object files, replay the log, back out in-flight work."""
        self.lock.acquire()
        try:
            return self._recover()
        except BaseException:
            self._drop_log()
            self.lock.release()
            raise

    def _recover(self) -> StartReport:
        control = self._read_control()
        report = StartReport(unclean=control.get("state") != "clean")
        base = self._load_objects()
        first_extent = control.get("restart_extent", 0)
        from_lsn = control.get("restart_lsn", 0)
        extents = logstore.list_extents(self.paths.log_dir)
        if "restart_extent" not in control and extents:
            first_extent = extents[0]
        self.media = dict(control.get("media", {}))
        # The replay builds a new state; a failed or cancelled one leaves the queue manager unchanged.
        self.state, report.replayed = self.engine.replay(base, self.paths.log_dir, first_extent, from_lsn,
                                                         self._note_media)
        next_lsn = max([control.get("next_lsn", 0)] + [obj.lsn + 1 for obj in self.state.values()])
        self.log = logstore.LogWriter(self.paths.log_dir, self.extent_bytes, next_lsn, on_seal=_columnar_copy)
        for uow, queues in replay.in_flight(self.state).items():
            self._log_and_apply({"t": "BCK", "u": uow, "qs": sorted(queues)})
            report.backed_out += 1
        self.checkpoint()
        return report

    def shutdown(self) -> None:
        """A clean end: back out the open unit of work, checkpoint, mark the log clean."""
        if self.log is None:
            return
        if self.uow is not None:
            self.backout()
        self.checkpoint(clean=True)
        self.log.close()
        self.log = None
        self.lock.release()

    def crash(self) -> None:
        """Stop at once: no checkpoint, no flush of queue files, no clean mark."""
        self._drop_log()
        self.state = {}
        self.uow = None
        self.lock.release()

    def _drop_log(self) -> None:
        if self.log is not None:
            self.log.abandon()
            self.log = None

    @property
    def running(self) -> bool:
        return self.log is not None

    # ------------------------------------------------------------ checkpoints
    def _read_control(self) -> dict[str, Any]:
        try:
            return read_document(self.paths.control_file)
        except (FileNotFoundError, CorruptFile):
            return {}

    def _note_media(self, record: dict[str, Any]) -> None:
        kind = record["t"]
        if kind == "IMG" or (kind == "OBJ" and record.get("c")):
            self.media[record["k"]] = record["lsn"]
        elif kind == "DEL":
            self.media.pop(record["k"], None)

    def checkpoint(self, clean: bool = False) -> None:
        """Bring every changed object file up to date and move the restart point here.

        The checkpoint record carries what restart and media recovery need to
        know without reading further back: the units of work in flight and
        each object's media recovery record.
        """
        assert self.log is not None
        in_flight = {uow: sorted(queues) for uow, queues in replay.in_flight(self.state).items()}
        self.log.append({"t": "CKPT", "uows": in_flight, "media": self.media})
        for key in sorted(self._dirty):
            obj = self.state.get(key)
            if obj is not None:
                self._write_object_file(obj)
        self._dirty.clear()
        self._write_catalog()
        self.log.sync()
        write_document(self.paths.control_file, {
            "state": "clean" if clean else "running",
            "restart_lsn": self.log.next_lsn,
            "restart_extent": self.log.extent,
            "next_lsn": self.log.next_lsn,
            "checkpoint_time": self.clock.now().isoformat(),
            "media": self.media,
        }, sync=True)
        self._since_checkpoint = 0

    # ------------------------------------------------------------ object files
    def _load_objects(self) -> replay.State:
        state: replay.State = {}
        for folder in NAMESPACE_FOLDERS.values():
            directory = self.paths.qmgr_dir / folder
            if not directory.is_dir():
                continue
            for path in directory.iterdir():
                if path.name.endswith(".tmp"):
                    path.unlink(missing_ok=True)  # a write cut short by a crash
                    continue
                try:
                    obj = MQObject.from_document(read_document(path))
                except CorruptFile:
                    self.errors.write("AMQ7472W", f"Object {from_file_name(path.name)} in folder {folder} "
                                      "damaged.", "The object file could not be read.")
                    continue
                state[obj.key] = obj
        return state

    def _write_object_file(self, obj: MQObject) -> None:
        write_document(self.paths.object_file(obj.namespace, obj.name), obj.to_document())

    def _write_catalog(self) -> None:
        entries = sorted([obj.object_type, obj.name] for obj in self.state.values())
        write_document(self.paths.catalog, {"objects": entries})

    # ------------------------------------------------------------ logging
    def _log(self, record: dict[str, Any]) -> dict[str, Any]:
        """Append a record; return it with its LSN (checkpointing every so often)."""
        if self.log is None:
            raise MQError(2059)
        logged = {"lsn": self.log.append(record), **record}
        self._note_media(logged)
        self._since_checkpoint += 1
        return logged

    def _log_and_apply(self, record: dict[str, Any]) -> int:
        logged = self._log(record)
        replay.apply(self.state, logged)
        if self._since_checkpoint >= CHECKPOINT_EVERY:
            self.checkpoint()
        return logged["lsn"]

    # ------------------------------------------------------------ objects
    def lookup(self, namespace: str, name: str) -> MQObject | None:
        return self.state.get(object_key(namespace, name))

    def objects(self, namespace: str) -> list[MQObject]:
        return sorted((obj for obj in self.state.values() if obj.namespace == namespace), key=lambda o: o.name)

    def save_object(self, object_type: str, namespace: str, name: str, attributes: dict[str, Any]) -> MQObject:
        """Define, replace or alter: log the full new image, then write its object file."""
        key = object_key(namespace, name)
        record = {"t": "OBJ", "k": key, "o": object_type, "n": name, "a": attributes}
        if key not in self.state:
            record["c"] = 1  # a creation: the object's first media image
        self._log_and_apply(record)
        obj = self.state[key]
        self._write_object_file(obj)
        self._write_catalog()
        return obj

    def record_image(self, obj: MQObject) -> int:
        """Write a media image of obj to the log; its media recovery record moves here.

        The image is what obj already is, so memory is not re-applied from it
        (that would drop the queue's non-persistent messages); obj only learns
        the image's LSN.
        """
        logged = self._log({
            "t": "IMG", "k": obj.key, "o": obj.object_type, "n": obj.name, "a": obj.attributes,
            "ms": [message.to_document() for message in obj.messages if message.persistent]})
        obj.lsn = logged["lsn"]
        return logged["lsn"]

    def delete_object(self, namespace: str, name: str) -> None:
        key = object_key(namespace, name)
        self._log_and_apply({"t": "DEL", "k": key})
        self.paths.object_file(namespace, name).unlink(missing_ok=True)
        self._dirty.discard(key)
        self._write_catalog()

    # ------------------------------------------------------------ messages
    def _local_queue(self, name: str, reason_if_missing: int = 2085) -> MQObject:
        obj = self.lookup("QUEUE", name)
        if obj is None:
            raise MQError(reason_if_missing)
        if obj.damaged:
            raise MQError(2101)
        if obj.object_type == "QALIAS":
            return self._local_queue(obj.attributes.get("TARGET") or obj.attributes.get("TARGQ", ""))
        if obj.object_type == "QREMOTE":
            transmission = obj.attributes.get("XMITQ") or obj.attributes.get("RQMNAME", "")
            return self._local_queue(transmission, 2087)
        if obj.object_type != "QLOCAL":
            raise MQError(2057)
        return obj

    def _new_msgid(self) -> str:
        """24 bytes in hex, shaped like MQ's: 'AMQ ' + queue manager name, then time and a counter."""
        self._msg_seq += 1
        prefix = ("AMQ " + self.name[:8]).ljust(12).encode("ascii", "replace").hex().upper()
        stamp = int(self.clock.now().timestamp())
        return f"{prefix}{stamp:08X}{os.getpid() & 0xFFFF:04X}{self._msg_seq:012X}"

    def _begin(self) -> str:
        if self.uow is None:
            self._uow_seq += 1
            assert self.log is not None
            self.uow = f"{self.log.next_lsn}.{self._uow_seq}"
            self._uow_queues = set()
        return self.uow

    def depth(self, queue: MQObject) -> int:
        """CURDEPTH: committed messages plus uncommitted puts (MQ counts both)."""
        return sum(1 for message in queue.messages if message.state != "G")

    def uncommitted(self, queue: MQObject) -> int:
        return sum(1 for message in queue.messages if message.uow is not None)

    def put(self, queue_name: str, persistent: bool, size: int = 100, priority: int = 0,
            syncpoint: bool = False) -> str:
        queue = self._local_queue(queue_name)
        attributes = queue.attributes
        if attributes.get("PUT", "ENABLED") == "DISABLED":
            raise MQError(2051)
        if self.depth(queue) >= int(attributes.get("MAXDEPTH", 5000)):
            raise MQError(2053)
        if size > int(attributes.get("MAXMSGL", 4194304)):
            raise MQError(2030)
        uow = self._begin() if syncpoint else None
        if uow:
            self._uow_queues.add(queue.name)
        record = {"t": "PUT", "q": queue.name, "m": self._new_msgid(), "p": priority, "s": size,
                  "tm": self.clock.now().isoformat(), "u": uow}
        if persistent:
            self._log_and_apply(record)
        else:
            replay.apply(self.state, record, persistent=False)
        self._dirty.add(queue.key)
        return record["m"]

    def get(self, queue_name: str, syncpoint: bool = False) -> StoredMessage:
        queue = self._local_queue(queue_name)
        if queue.attributes.get("GET", "ENABLED") == "DISABLED":
            raise MQError(2016)
        available = [message for message in queue.messages if message.state == COMMITTED]
        if not available:
            raise MQError(2033)
        # Highest priority first, then first in, first out (MSGDLVSQ(PRIORITY)).
        message = max(available, key=lambda m: (m.priority, -queue.messages.index(m)))
        uow = self._begin() if syncpoint else None
        if uow:
            self._uow_queues.add(queue.name)
        record = {"t": "GET", "q": queue.name, "m": message.msgid, "u": uow}
        if message.persistent:
            self._log_and_apply(record)
        else:
            replay.apply(self.state, record, persistent=False)
        self._dirty.add(queue.key)
        return message

    def _end_uow(self, kind: str) -> int:
        if self.uow is None:
            return 0
        queues = sorted(self._uow_queues)
        self._log_and_apply({"t": kind, "u": self.uow, "qs": queues})
        for name in queues:
            self._dirty.add(object_key("QUEUE", name))
        self.uow = None
        self._uow_queues = set()
        return len(queues)

    def commit(self) -> int:
        return self._end_uow("CMT")

    def backout(self) -> int:
        return self._end_uow("BCK")

    def clear(self, queue: MQObject) -> None:
        if any(message.uow for message in queue.messages):
            raise MQError(2055)
        self._log_and_apply({"t": "CLR", "q": queue.name})
        self._dirty.add(queue.key)


def remove_qmgr_files(paths: QmgrPaths) -> None:
    """dltmqm: every file of the queue manager goes."""
    for directory in (paths.qmgr_dir, paths.log_root):
        if directory.exists():
            shutil.rmtree(directory)
