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

import errno
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cached_property
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from mqsh.model import connections
from mqsh.model.clock import Clock
from mqsh.model.connections import Connection
from mqsh.model.damage import (
    CATALOG_KEY,
    FileWatch,
    StartRefused,
    error_log_type,
    read_object_file,
    report_damage,
)
from mqsh.model.interrupts import uninterrupted
from mqsh.model.logspace import LogConfig, LogSpace
from mqsh.model.objects import MQObject, StoredMessage, object_key
from mqsh.model.reasons import MQError
from mqsh.recovery import logscan, media_recovery, replay, restart
from mqsh.recovery.engine import ReplayEngine
from mqsh.recovery.imaging import ImageSchedule
from mqsh.recovery.media import held_on, recoverable
from mqsh.recovery.native_ha import AutoRecovery
from mqsh.store import log as logstore
from mqsh.store import redo
from mqsh.store.datadir import QmgrPaths
from mqsh.store.errorlog import ErrorLog
from mqsh.store.files import CorruptFile, read_document, write_document
from mqsh.store.lock import QmgrLock
from mqsh.store.qmini import read_stanzas

T = TypeVar("T")
# MQ also checkpoints every 30 minutes when at least 100 records were written since the last one.
CHECKPOINT_INTERVAL = timedelta(minutes=30)
CHECKPOINT_MIN_RECORDS = 100


@dataclass
class StartReport:
    replayed: int = 0
    backed_out: int = 0
    unclean: bool = False
    redo_files: int | None = None  # object files rewritten from a cut-short checkpoint's redo record
    full_replay: bool = False  # no log control file: the whole log was replayed
    verified: int | None = None  # records checked by the log integrity scan
    skipped: list[str] = field(default_factory=list)  # missing extents passed over
    damaged: list[MQObject] = field(default_factory=list)
    recreated: list[MQObject] = field(default_factory=list)
    catalog_rebuilt: bool = False


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
        self._ids_from = 0  # the LSN this start began logging at: the part of ids no other start has
        self._dirty: set[str] = set()
        self._since_checkpoint = 0
        # Each object's media recovery record: the LSN where its latest media
        # image starts (its creation record until an image is taken).
        self.media: dict[str, int] = {}
        self.space: LogSpace | None = None
        self.restart_point = 0  # first record the next restart replays (set by each checkpoint)
        self.log_start: dict[str, Any] = {}  # when and at which LSN this log began
        self.checkpoints_taken = 0
        self.last_checkpoint: datetime | None = None
        self.started_at: datetime | None = None
        self.ended_because: str | None = None  # why the queue manager ended itself (log full ...)
        self._backed_out_for_log = False  # the open unit was backed out to free log space (MQCMIT: 2003)
        # Told at once when the queue manager ends itself, so its status says so before the next command.
        self.on_ended_itself: Callable[[], None] | None = None
        self.running_objects: dict[str, datetime] = {}  # started channels, listeners, services -> when
        self.files = FileWatch()  # object files as last written or read, to notice damage
        self.catalog_damaged = False
        self.open_handles: dict[str, int] = {}  # queue name -> handles held open (LAB OPEN)
        self.application: Connection | None = None  # the application the LAB controls stand in for
        self._connections = 0
        # The application's unit of work was lost when the previous run of this queue manager
        # ended (set by the installation): its next call is told the connection broke.
        self.application_broken = False
        self.ended_with_unit = False  # this run ended with the application's unit of work unfinished
        self.images = ImageSchedule(self)
        self.auto_recovery = AutoRecovery(self)

    # ------------------------------------------------------------ configuration
    # The Log stanza is read once per queue manager object (one per start): it is
    # looked at for every record logged, and MQ too reads qm.ini only at start.
    @cached_property
    def log_settings(self) -> dict[str, str]:
        """The Log stanza; ValueError when qm.ini is missing, unreadable or has none.

        Defaults would not do: they are a circular log's, and a linear log
        taken for a circular one is reused, and its records lost.
        """
        path = self.paths.qm_ini
        try:
            log = read_stanzas(path).get("Log")
        except FileNotFoundError:
            raise ValueError(f"its configuration file {path} is missing") from None
        except (OSError, UnicodeDecodeError):
            raise ValueError(f"its configuration file {path} cannot be read") from None
        if not log or "LogPath" not in log:
            raise ValueError(f"the Log stanza of its configuration file {path} is missing or has no LogPath")
        return log

    @cached_property
    def log_config(self) -> LogConfig:
        return LogConfig.from_settings(self.log_settings)

    @property
    def log_type(self) -> str:
        return self.log_config.log_type

    @property
    def extent_bytes(self) -> int:
        return self.log_config.extent_bytes

    @property
    def checkpoint_every(self) -> int:
        return self.log_config.checkpoint_records

    @property
    def supports_media_recovery(self) -> bool:
        return self.log_type != "CIRCULAR"

    @property
    def qmgr_object(self) -> MQObject | None:
        return self.state.get(object_key("QMGR", self.name))

    def is_recoverable(self, obj: MQObject) -> bool:
        qmgr = self.qmgr_object
        return recoverable(self.log_type, qmgr.attributes if qmgr else {}, obj)

    # ------------------------------------------------------------ start and stop
    def start(self, verify_log: bool = False, ignore_missing: bool = False) -> StartReport:
        """Take the lock, load the object files, replay the log, back out in-flight work.

        verify_log and ignore_missing add to the qm.ini Log stanza's VerifyLogOnStart
        and IgnoreMissingLogExtents.
        """
        try:
            self.log_config  # noqa: B018 - a qm.ini that cannot be read refuses the start before anything
        except ValueError as error:
            raise StartRefused("", f"mqsh: queue manager {self.name} cannot start: {error}.") from None
        self.lock.acquire()
        self.started_at = self.clock.now()
        try:
            report = self._recover(restart.StartOptions.from_settings(self.log_settings, verify_log, ignore_missing))
        except BaseException:
            self._drop_log()
            self.lock.release()
            raise
        self._start_with_qmgr()
        return report

    def _start_with_qmgr(self) -> None:
        """Listeners and services under queue manager control start with it (CONTROL(QMGR) or
        CONTROL(STARTONLY)); the others wait for START."""
        for family in ("LISTENER", "SERVICE"):
            for obj in self.objects(family):
                if obj.attributes.get("CONTROL") in ("QMGR", "STARTONLY") and not obj.damaged:
                    self.running_objects[obj.key] = self.started_at

    def _recover(self, options: restart.StartOptions) -> StartReport:
        report = StartReport(redo_files=redo.apply(redo.redo_path(self.paths.log_root), self.paths.data_dir))
        control = self._read_control()
        report.unclean = control.get("state") != "clean"
        loaded = restart.load_object_files(self.paths, self.files)
        self.state = loaded.state
        log_dir = self.paths.log_dir
        if options.verify_log:
            report.verified = logscan.verify(log_dir)
        if control:
            from_lsn = control.get("restart_lsn", 0)
            first_extent = self._restart_extent(control.get("restart_extent", 0), from_lsn)
        else:
            # Nothing says how far the object files got, so the whole log is
            # replayed - which needs the log from its very first record.
            if not logscan.complete_from_start(log_dir):
                raise StartRefused("AMQ6767E", restart.incomplete_log_text(log_dir), code=23)
            first_extent, from_lsn = 0, 0
            report.full_replay = bool(logstore.list_extents(log_dir))
        self.media = dict(control.get("media", {}))
        skipped = report.skipped if options.ignore_missing else None
        self._check_newest_extent(control, skipped)
        base_lsns = {key: obj.lsn for key, obj in self.state.items()}
        # A long replay runs on Spark (a new State, so a failed or cancelled
        # one changes nothing); it reports the object records, which is what
        # media tracking and damage need, and the units of work left open.
        # Passing over missing extents is the reference replayer's.
        if skipped is None and self.engine.uses_spark(log_dir, first_extent):
            replayed = self.engine.replay_on_spark(self.state, log_dir, first_extent, from_lsn,
                                                   control.get("uows", {}), self._lost_queues(loaded))
            self.state, report.replayed, records = replayed.state, replayed.count, replayed.object_records
            for record in records:
                self._note_media(record)
            in_flight = replayed.units
        else:
            records = list(logscan.records(log_dir, first_extent, from_lsn, skipped)) \
                if logstore.list_extents(log_dir) else []
            report.replayed = replay.replay(self.state, self._track_media(records))
            in_flight = restart.units_in_flight(control.get("uows", {}), records)
        self._dirty |= {key for key, obj in self.state.items() if base_lsns.get(key) != obj.lsn}
        if control:
            self._mark_start_damage(loaded, records, report)
        for key in loaded.bad:
            # An unreadable file whose object the replay re-created whole is simply overwritten.
            if key in self.state and not self.state[key].damaged:
                self.files.remember(key, self._object_path(self.state[key]))
        next_lsn = max([control.get("next_lsn", 0)] + [obj.lsn + 1 for obj in self.state.values()])
        self.restart_point = from_lsn
        self.log_start = control.get("log_start") or {"lsn": from_lsn, "time": self.clock.now().isoformat()}
        self.space = LogSpace(self.paths.log_dir, self.paths.log_root / "amqharch.lfh",
                              self.log_config,
                              self.oldest_restart_lsn, self.oldest_media_lsn)
        self.log = logstore.LogWriter(self.paths.log_dir, self.extent_bytes, next_lsn, self.space.allocate,
                                      on_seal=_columnar_copy, on_start=self._note_current_extent)
        self._ids_from = next_lsn
        self._recover_at_start(in_flight, report)
        for uow, queues in sorted(in_flight.items()):
            self._end_unit("BCK", uow, sorted(queues))
            report.backed_out += 1
        self.checkpoint()
        return report

    def _restart_extent(self, recorded: int, from_lsn: int) -> int:
        """The extent replay starts in: the one the last checkpoint named, unless it has gone since.

        A checkpoint taken as its extent fills names that extent, though the
        restart point is the first record of the next; nothing then needs the
        named extent, and the log may reuse or delete it. The extent that holds
        the restart point is where replay starts. An extent that is missing
        and needed is still reported as missing.
        """
        present = logstore.list_extents(self.paths.log_dir)
        if not present or recorded in present or recorded > present[-1]:
            return recorded
        try:
            holding = logscan.extent_holding(self.paths.log_dir, from_lsn)
        except logstore.ExtentMissing:
            return recorded
        return max(recorded, holding)

    def _check_newest_extent(self, control: dict[str, Any], skipped: list[str] | None) -> None:
        """The log must reach the extent the control file last recorded as current.

        A missing extent between others shows as a gap in the numbers; a missing
        newest extent shows only here.
        """
        current = control.get("current_extent")
        present = logstore.list_extents(self.paths.log_dir)
        if current is None or (present and present[-1] >= current):
            return
        missing = logstore.extent_file_name(self.paths.log_dir, current)
        if skipped is None:
            raise logstore.ExtentMissing(missing)
        skipped.append(missing)

    def _note_current_extent(self, number: int) -> None:
        """The log control file follows the current extent (MQ's keeps the head of the log)."""
        control = self._read_control()
        if control:
            write_document(self.paths.control_file, {**control, "current_extent": number}, sync=True)

    def _lost_queues(self, loaded: restart.LoadedFiles) -> set[str]:
        """Queues whose files were missing or unreadable at start, as far as the catalog tells."""
        catalog = restart.read_catalog(self.paths.catalog) or restart.catalog_from_media(self.media, self.state)
        return {name for namespace, _type, name in restart.suspects(loaded, catalog, []).values()
                if namespace == "QUEUE"}

    def _mark_start_damage(self, loaded: restart.LoadedFiles, records: list, report: StartReport) -> None:
        """Objects whose files were unusable and that the replay did not re-create whole are damaged."""
        catalog = restart.read_catalog(self.paths.catalog)
        if catalog is None:
            # The catalog is rebuilt from what the log knows: every object
            # with a media recovery record has not been deleted.
            report.catalog_rebuilt = True
            report_damage(self.errors, "QMQMOBJCAT", "catalog", "the object catalog could not be read; "
                          "it is rebuilt from the object files and the log")
            catalog = restart.catalog_from_media(self.media, self.state)
            # Taken as read: the checkpoint that ends the start writes the rebuilt catalog over it.
            self.files.remember(CATALOG_KEY, self.paths.catalog)
        for key, (namespace, object_type, name) in sorted(restart.suspects(loaded, catalog, records).items()):
            obj = MQObject(object_type, name, {}, namespace, damaged=True)
            self.state[key] = obj
            self._dirty.discard(key)
            report_damage(self.errors, name, error_log_type(obj), "its object file is missing or damaged")
            report.damaged.append(obj)

    def _recover_at_start(self, in_flight: dict[str, set[str]], report: StartReport) -> None:
        """The queue manager object, and queues holding in-flight work, come back from their images."""
        wanted = [obj.key for obj in report.damaged
                  if obj.object_type == "QMGR" or any(obj.name in queues for queues in in_flight.values())]
        if not wanted:
            self.auto_recovery.schedule_all(report.damaged)
            return
        if not self.supports_media_recovery:
            if any(obj.object_type == "QMGR" for obj in report.damaged):
                raise StartRefused("AMQ7472E", restart.circular_qmgr_text(self.name))
            return  # the damaged queues stay damaged; their uncommitted messages are ignored
        try:
            report.recreated = self.recreate(wanted)
        except (logstore.ExtentMissing, media_recovery.NoMediaImage) as error:
            raise StartRefused("AMQ6767E", restart.unrecoverable_text(error), code=23) from None
        self.auto_recovery.schedule_all(obj for obj in report.damaged if obj.damaged)

    def shutdown(self, back_out: bool = True) -> None:
        """A clean end: back out the open unit of work (unless left for the next start), checkpoint,
        mark the log clean."""
        if self.log is None:
            return
        self._note_unit_at_end()
        if self.uow is not None and back_out:
            self.backout()
        if self.supports_media_recovery:
            self._shutdown_images()
        self.checkpoint(clean=True)
        self.log.close()
        self.log = None
        self.lock.release()

    def crash(self) -> None:
        """Stop at once: no checkpoint, no flush of queue files, no clean mark."""
        self._note_unit_at_end()
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

    # ------------------------------------------------------------ what the log must keep
    def oldest_restart_lsn(self) -> int:
        """RECLOG's record: the restart point, or the start of the unit of work in flight."""
        oldest = self.restart_point
        if self.uow is not None:
            oldest = min(oldest, int(self.uow.split(".")[0]))
        return oldest

    def oldest_media_lsn(self) -> int | None:
        """MEDIALOG's record: the oldest media recovery record of a recoverable object."""
        records = [lsn for key, lsn in self.media.items() if key in self.state and self.is_recoverable(self.state[key])]
        return min(records) if records else None

    @property
    def since_checkpoint(self) -> int:
        return self._since_checkpoint

    def advance_log(self) -> None:
        """RESET QMGR TYPE(ADVANCELOG): go on in a new extent, so the current one can be archived."""
        assert self.log is not None
        self._with_log_room(self.log.advance)

    def _track_media(self, records):
        """Pass records through, noting the media images among them."""
        for record in records:
            self._note_media(record)
            yield record

    def _note_media(self, record: dict[str, Any]) -> None:
        kind = record["t"]
        if kind == "IMG" or (kind == "OBJ" and record.get("c")):
            self.media[record["k"]] = record["lsn"]
            self.images.note(record["k"])
        elif kind == "CAT":
            self.media[CATALOG_KEY] = record["lsn"]
            self.images.note(CATALOG_KEY)
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
        # Reserved: a checkpoint taken to free log space must not need new space.
        self.log.append({"t": "CKPT", "restart": self.oldest_restart_lsn(), "uows": in_flight,
                         "media": self.media}, reserved=True)
        self.log.sync()
        # A damaged object's file is never rewritten: it stays as the damage left it.
        changed = [obj for obj in (self.state.get(key) for key in sorted(self._dirty))
                   if obj is not None and not self.check(obj)]
        self._dirty.clear()
        redo_file = redo.redo_path(self.paths.log_root)
        if changed:
            redo.write(redo_file, self.paths.data_dir, {self._object_path(obj): obj.to_document() for obj in changed})
        for obj in changed:
            self._write_object_file(obj)
        self._write_catalog()
        redo.clear(redo_file)
        write_document(self.paths.control_file, {
            "state": "clean" if clean else "running",
            "restart_lsn": self.log.next_lsn,
            "restart_extent": self.log.extent,
            "next_lsn": self.log.next_lsn,
            "checkpoint_time": self.clock.now().isoformat(),
            "media": self.media,
            "log_start": self.log_start,
            "uows": in_flight,
            "current_extent": self.log.extent,
        }, sync=True)
        self.restart_point = self.log.next_lsn
        self.last_checkpoint = self.clock.now()
        self._since_checkpoint = 0
        self.checkpoints_taken += 1
        if self.space is not None:
            self.space.release(self.log.extent)

    # ------------------------------------------------------------ object files
    def _object_path(self, obj: MQObject):
        return self.paths.object_file(obj.namespace, obj.name)

    def _write_object_file(self, obj: MQObject) -> None:
        if obj.damaged:
            return
        path = self._object_path(obj)
        write_document(path, obj.to_document())
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

    def tick(self) -> None:
        """The queue manager's own background work, run before each command."""
        self.images.run()
        self.auto_recovery.run()

    def in_use(self, obj: MQObject) -> bool:
        return self.open_handles.get(obj.name, 0) > 0

    def recreate(self, keys: list[str]) -> list[MQObject]:
        """Media recovery of objects (rcrmqobj): rebuilt from the log, their files written anew."""
        rebuilt = media_recovery.rebuild(self.paths.log_dir, self.media, keys, self.engine)
        for key, obj in rebuilt.items():
            self.state[key] = obj
            self._write_object_file(obj)
            self._dirty.discard(key)
            self.auto_recovery.forget(key)
        self._write_catalog()
        return [rebuilt[key] for key in keys if key in rebuilt]

    # ------------------------------------------------------------ logging
    def _log(self, record: dict[str, Any], reserved: bool = False) -> dict[str, Any]:
        """Append a record; return it with its LSN."""
        if self.log is None:
            raise MQError(2059)
        log = self.log
        try:
            lsn = self._with_log_room(lambda: log.append(record, reserved=reserved))
        except OSError as error:
            if error.errno != errno.ENOSPC:
                raise
            self._disk_full()
        logged = {"lsn": lsn, **record}
        self._note_media(logged)
        self._since_checkpoint += 1
        return logged

    def _checkpoint_due(self) -> bool:
        since = self._since_checkpoint
        if since >= self.checkpoint_every:
            return True
        # The clock is only looked at every hundred records: cheap, and often enough.
        return (since >= CHECKPOINT_MIN_RECORDS and since % CHECKPOINT_MIN_RECORDS == 0
                and self.last_checkpoint is not None
                and self.clock.now() - self.last_checkpoint >= CHECKPOINT_INTERVAL)

    def load_target(self, name: str) -> MQObject:
        """The local queue LAB LOAD moves messages through: it must take both puts and gets."""
        queue = self._local_queue(name)
        _allowed(queue, "PUT")
        _allowed(queue, "GET")
        return queue

    def make_log_room(self) -> None:
        """Before a block written straight to the log (LAB LOAD): a new extent if the current one is full."""
        if self.log is None:
            raise MQError(2059)
        self._with_log_room(self.log.make_room)

    def note_bulk_records(self, queue: MQObject, count: int) -> None:
        """count records written straight to the log for queue; checkpoint when one is due."""
        self._dirty.add(queue.key)
        self._since_checkpoint += count
        if self._since_checkpoint >= self.checkpoint_every:
            self.checkpoint()

    def _with_log_room(self, action: Callable[[], T]) -> T:
        """Run a log action; if no extent has room, a checkpoint may move RECLOG past old ones: try once more."""
        try:
            return action()
        except logstore.LogFull:
            self.checkpoint()
        try:
            return action()
        except logstore.LogFull as full:
            self._log_full(full)
            raise  # _log_full always raises; this keeps the type checker informed

    def _log_full(self, full: logstore.LogFull) -> None:
        """No room for the record: roll back the unit of work; a full file system ends the queue manager."""
        backed_out = self.uow is not None
        if backed_out:
            self._end_uow("BCK")
            self._backed_out_for_log = True
        # MQ reports every full log with AMQ7463, and adds AMQ7465 when a long-running unit of
        # work is what keeps the space from being released.
        self.errors.write("AMQ7463E", f"The log for queue manager {self.name} is full.")
        if full.long_running:
            self.errors.write("AMQ7465W", f"The log for queue manager {self.name} is full because of a "
                              "long-running transaction.",
                              "A long-running unit of work holds the oldest log extent still needed for "
                              "restart, so no extent could be reused." + (" The unit of work was backed out."
                                                                          if backed_out else ""),
                              "Commit or back out units of work sooner, or add log extents.")
            raise MQError(2102)
        self.errors.write("AMQ6708E", "A disk full condition was encountered when formatting a new log file "
                          f"in location {self.paths.log_dir}.",
                          "The log file system has no room for another extent: the extents still needed "
                          "for restart or media recovery fill it. Work in progress was rolled back and the "
                          "queue manager ended.",
                          "Make room in the log file system (archive or delete extents not needed, re-create "
                          "damaged objects so MEDIALOG can move), then restart the queue manager.")
        self.end_abruptly("log full")
        raise MQError(2102)

    def _disk_full(self) -> NoReturn:
        """The disk under the log is full: nothing more can be written, not even a backout.
        The queue manager ends; the next start cuts any record left half written and backs
        out the units of work in flight."""
        try:
            self.errors.write("AMQ6708E", "A disk full condition was encountered when writing to the log "
                              f"in location {self.paths.log_dir}.",
                              "The disk holding the log has no room left. The queue manager ended.",
                              "Make room on the disk, then restart the queue manager.")
        except OSError:
            pass  # the error log is on the full disk too
        self.end_abruptly("disk full")
        raise MQError(2102)

    def end_abruptly(self, reason: str) -> None:
        """The queue manager ends itself: no checkpoint, the next start runs restart recovery."""
        self.ended_because = reason
        self._note_unit_at_end()
        self._drop_log()
        self.uow = None
        self.lock.release()
        if self.on_ended_itself is not None:
            self.on_ended_itself()

    def _log_and_apply(self, record: dict[str, Any], reserved: bool = False) -> int:
        with uninterrupted():
            logged = self._log(record, reserved)
            replay.apply(self.state, logged)
        if self._checkpoint_due():
            self.checkpoint()
        return logged["lsn"]

    # ------------------------------------------------------------ objects
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

    def save_object(self, object_type: str, namespace: str, name: str, attributes: dict[str, Any]) -> MQObject:
        """Define, replace or alter: log the full new image, then write its object file."""
        # A name no object file can hold is refused before the log records it: once
        # logged, every checkpoint and every later start would trip over it.
        self.paths.object_file(namespace, name)
        key = object_key(namespace, name)
        record = {"t": "OBJ", "k": key, "o": object_type, "n": name, "a": attributes}
        if key not in self.state:
            record["c"] = 1  # a creation: the object's first media image
        self._log_and_apply(record)
        obj = self.state[key]
        self._write_object_file(obj)
        self._write_catalog()
        return obj

    def record_image(self, obj: MQObject, reserved: bool = False) -> int:
        """Write a media image of obj to the log; its media recovery record moves here.

        The image is what obj already is, so memory is not re-applied from it
        (that would drop the queue's non-persistent messages); obj only learns
        the image's LSN.
        """
        logged = self._log({
            "t": "IMG", "k": obj.key, "o": obj.object_type, "n": obj.name, "a": obj.attributes,
            "ms": [message.to_document() for message in obj.messages if message.persistent]}, reserved)
        obj.lsn = logged["lsn"]
        return logged["lsn"]

    def record_catalog_image(self, reserved: bool = False) -> int:
        """The catalog's media image: the list of objects that exist."""
        entries = sorted([obj.namespace, obj.object_type, obj.name] for obj in self.state.values())
        return self._log({"t": "CAT", "es": entries}, reserved)["lsn"]

    def _shutdown_images(self) -> None:
        """As MQ does at shutdown: process objects, queues that are not local, empty local queues.

        The queue manager object and the catalog are imaged too (as IBM i
        does), so that their media recovery records keep moving. Like the
        shutdown checkpoint, these images use reserved log space: a full log
        must not stop a clean shutdown.
        """
        for obj in sorted(self.state.values(), key=lambda o: o.key):
            if obj.damaged or not self.is_recoverable(obj):
                continue
            if obj.object_type == "QLOCAL" and any(message.persistent for message in obj.messages):
                continue
            if obj.namespace in ("QUEUE", "PROCESS", "QMGR"):
                self.record_image(obj, reserved=True)
                # Records kept on the queue (durable subscriptions ...) are imaged with it.
                held = held_on(obj.name) if obj.namespace == "QUEUE" else []
                for record in sorted(self.state.values(), key=lambda o: o.key):
                    if record.namespace in held and not record.damaged:
                        self.record_image(record, reserved=True)
        if not self.catalog_damaged:
            self.record_catalog_image(reserved=True)

    def delete_object(self, namespace: str, name: str) -> None:
        key = object_key(namespace, name)
        self._log_and_apply({"t": "DEL", "k": key})
        self.paths.object_file(namespace, name).unlink(missing_ok=True)
        self._dirty.discard(key)
        self.files.forget(key)
        self.images.forget(key)
        self.auto_recovery.forget(key)
        self._write_catalog()

    # ------------------------------------------------------------ messages
    def _local_queue(self, name: str, reason_if_missing: int = 2085) -> MQObject:
        obj = self.lookup("QUEUE", name)
        if obj is None:
            raise MQError(reason_if_missing)
        if obj.damaged:
            raise MQError(2101, obj.name)
        if obj.object_type == "QALIAS":
            return self._local_queue(obj.attributes.get("TARGET") or obj.attributes.get("TARGQ", ""))
        if obj.object_type == "QREMOTE":
            transmission = obj.attributes.get("XMITQ") or obj.attributes.get("RQMNAME", "")
            return self._local_queue(transmission, 2087)
        if obj.object_type != "QLOCAL":
            raise MQError(2057)
        return obj

    def new_identifier(self, reserve: int = 1) -> str:
        """A message or subscription id: 24 bytes in hex, shaped like MQ's: 'AMQ ' + queue manager
        name, then the LSN this start began logging at and a counter. reserve > 1 keeps the next
        ids for the caller to number.

        Every start logs a checkpoint, so no two starts begin at one LSN and no id is given
        twice, even by a restart within the same second or on a lab's frozen clock: the log
        names the message a GET took by its id, and replay finds the message by it.
        """
        first = self._msg_seq + 1
        self._msg_seq += reserve
        prefix = ("AMQ " + self.name[:8]).ljust(12).encode("ascii", "replace").hex().upper()
        return f"{prefix}{self._ids_from:012X}{first:012X}"

    def _note_unit_at_end(self) -> None:
        self.ended_with_unit = self.uow is not None or self._backed_out_for_log

    def _unbroken(self) -> None:
        """MQRC_CONNECTION_BROKEN, once, to an application whose unit of work the end of the
        queue manager took: it then connects again."""
        if self.application_broken:
            self.application_broken = False
            raise MQError(2009)

    def connected_application(self) -> Connection:
        """The application's connection: its first MQI call of this start connects it."""
        self._unbroken()
        if self.application is None:
            self._connections += 1
            self.application = connections.connect(self.name, self._ids_from, self._connections, self.clock.now())
        return self.application

    def disconnect_application(self) -> int:
        """STOP CONN: the application's unit of work is backed out and its handles closed.
        Returns how many queues the backout touched."""
        backed_out = self.backout()
        self.open_handles.clear()
        self.application = None
        return backed_out

    def _begin(self) -> str:
        if self.uow is None:
            self.connected_application().uow_started = self.clock.now()
            self._uow_seq += 1
            assert self.log is not None
            # The id starts with the LSN the unit begins at: the oldest LSN still needed, and
            # whether a unit began within an extent (mqsh.store.settled), are read from it.
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
        self.connected_application()
        queue = self._local_queue(queue_name)
        attributes = queue.attributes
        _allowed(queue, "PUT")
        maxdepth = int(attributes.get("MAXDEPTH", 5000))
        # The queue's length bounds its depth: counting (a scan of every message) is only
        # needed near MAXDEPTH, so a put to a deep queue is not slower than to an empty one.
        if len(queue.messages) >= maxdepth and self.depth(queue) >= maxdepth:
            raise MQError(2053)
        if size > int(attributes.get("MAXMSGL", 4194304)):
            raise MQError(2030)
        uow = self._begin() if syncpoint else None
        if uow:
            self._uow_queues.add(queue.name)
        record = {"t": "PUT", "q": queue.name, "m": self.new_identifier(), "p": priority, "s": size,
                  "tm": self.clock.now().isoformat(), "u": uow}
        if persistent:
            self._log_and_apply(record)
        else:
            replay.apply(self.state, record, persistent=False)
        self._dirty.add(queue.key)
        return record["m"]

    def get(self, queue_name: str, syncpoint: bool = False) -> StoredMessage:
        self.connected_application()
        queue = self._local_queue(queue_name)
        _allowed(queue, "GET")
        # MSGDLVSQ(PRIORITY): highest priority first, then first in, first out; FIFO: in order.
        message = queue.next_message(by_priority=queue.attributes.get("MSGDLVSQ", "PRIORITY") == "PRIORITY")
        if message is None:
            raise MQError(2033)
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
        """Commit or back out. Space is reserved for these, so they never fail for want of log."""
        if self.uow is None:
            return 0
        queues = sorted(self._uow_queues)
        self._end_unit(kind, self.uow, queues)
        self.uow = None
        self._uow_queues = set()
        return len(queues)

    def _end_unit(self, kind: str, uow: str, queues: list[str]) -> None:
        """Log and apply a unit's commit or backout; its queues' files are written at the next checkpoint."""
        self._log_and_apply({"t": kind, "u": uow, "qs": queues}, reserved=True)
        self._dirty |= {object_key("QUEUE", name) for name in queues}

    def commit(self) -> int:
        self._unbroken()
        if self._backed_out_for_log:
            # The queue manager backed the unit out to free log space: MQCMIT says so, and any
            # work done under syncpoint since goes the same way.
            self._backed_out_for_log = False
            self._end_uow("BCK")
            raise MQError(2003)
        return self._end_uow("CMT")

    def backout(self) -> int:
        self._unbroken()
        self._backed_out_for_log = False
        return self._end_uow("BCK")

    def clear(self, queue: MQObject) -> None:
        if any(message.uow for message in queue.messages):
            raise MQError(2055)
        self._log_and_apply({"t": "CLR", "q": queue.name})
        self._dirty.add(queue.key)


def _allowed(queue: MQObject, operation: str) -> None:
    """PUT(DISABLED) refuses puts (2051), GET(DISABLED) gets (2016)."""
    if queue.attributes.get(operation, "ENABLED") == "DISABLED":
        raise MQError(2051 if operation == "PUT" else 2016)


def remove_qmgr_files(paths: QmgrPaths) -> None:
    """dltmqm: every file of the queue manager goes."""
    for directory in (paths.qmgr_dir, paths.log_root):
        if directory.exists():
            shutil.rmtree(directory)


def _readable_object(path) -> bool:
    return read_object_file(path) is not None


def _readable_catalog(path) -> bool:
    return restart.read_catalog(path) is not None
