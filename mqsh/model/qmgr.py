"""A queue manager: its objects and messages in memory, its log and files on disk.

Every persistent change follows the same three steps: build a log record,
append it to the log (one write), then apply it to memory through
mqsh.recovery.replay.reference.apply - the very function restart uses. Object
definitions reach their object files at once (they are the first media image);
queue contents reach the queue files at checkpoints, as MQ's two-stage update
does (journal first, queue file later). Non-persistent messages are never
logged and never written, so they do not survive a restart.

QueueManager starts and ends the queue manager and wires the parts that do
the rest, each with one job: its configuration (mqsh.model.config), the object
catalog (catalog), the log it writes (journal), media images (images),
checkpoints, restart (startup), and messages with their units of work
(messages). Its other attributes are the parts' own, for the commands, the lab
and the shell to reach through it.

A member of a queue-sharing group has one more part, its shared messages
(mqsh.model.qsg.shared_messages): built, and its modules loaded, at its first
use, so that a queue manager outside a group never pays for them. The parts
that reach across queue managers - channels and clusters - are the
installation's, and reach the queue manager, never the other way round.
"""

from __future__ import annotations

import errno
import shutil
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from mqsh.core.clock import TIMESTAMP, Clock
from mqsh.core.damage import StartRefused
from mqsh.core.objects import MQObject, object_key
from mqsh.core.reasons import MQRC_RESOURCE_PROBLEM, MQError
from mqsh.model.basics import QmgrBasics
from mqsh.model.catalog import ObjectCatalog
from mqsh.model.checkpoints import Checkpoints
from mqsh.model.config import QmgrConfig
from mqsh.model.forward import forward
from mqsh.model.images import MediaImages
from mqsh.model.journal import Journal
from mqsh.model.logger_events import LoggerEvents
from mqsh.model.messages import MessageStore
from mqsh.model.network.state import ChannelState
from mqsh.model.startup import Restart, StartReport
from mqsh.recovery import ledger, restart
from mqsh.recovery.engine import ReplayEngine
from mqsh.store import records
from mqsh.store.datadir import QmgrPaths
from mqsh.store.errorlog import ErrorLog
from mqsh.store.lock import QmgrLock

if TYPE_CHECKING:
    from mqsh.model.qsg.shared_messages import SharedMessages

__all__ = ["QueueManager", "StartReport", "remove_qmgr_files"]


class QueueManager:
    def __init__(self, paths: QmgrPaths, clock: Clock, engine: ReplayEngine | None = None):
        self.paths = paths
        self.engine = engine or ReplayEngine()
        self.name = paths.name
        self.clock = clock
        self.lock = QmgrLock(paths.lock_file, self.name)
        self.errors = ErrorLog(paths.error_log, self.name, clock)
        self.started_at: datetime | None = None
        self.no_services = (
            False  # started by strmqm -ns: no channel initiator, command server, listeners or services
        )
        self.ended_because: str | None = None  # why the queue manager ended itself (log full ...)
        # Told at once when the queue manager ends itself, so its status says so before the next command.
        self.on_ended_itself: Callable[[], None] | None = None
        # Its queue-sharing group (None outside one) and the group repository's change count its
        # COPY objects reflect, once a command has looked (membership cannot change while it runs).
        self.group_copies: tuple[str | None, int] | None = None
        self.running_objects: dict[str, datetime] = {}  # started listeners and services -> when
        self.channel_states: dict[str, ChannelState] = {}  # channel instances (DISPLAY CHSTATUS), by name
        # What of those (and of running_objects) outlives this process, as last written or read
        # (mqsh.model.network.standing): a command that changes none of it writes nothing.
        self.standing: dict[str, Any] | None = None
        # Told of every object a command defines, alters or deletes (name space, name): the
        # repository manager publishes changes of clustered objects (mqsh.model.cluster).
        self.object_changed: Callable[[str, str], None] | None = None
        # Whether no process runs a member of its group (its own or a peer's): the installation
        # answers; until it is wired, no member is taken for failed.
        self.member_failed: Callable[[str], bool] = lambda _member: False
        self.config = QmgrConfig(paths)
        basics = self.basics = QmgrBasics(paths, clock, self.errors, self.config, self.engine)
        self.catalog = ObjectCatalog(basics)
        self.journal = Journal(basics, self.catalog)
        self.media_images = MediaImages(basics, self.catalog, self.journal)
        self.checkpoints = Checkpoints(basics, self.catalog, self.journal, self.media_images)
        self._shared: SharedMessages | None = None
        self.units = MessageStore(
            basics, self.catalog, self.journal, self.checkpoints, self.end_abruptly, self.group
        )
        self.startup = Restart(
            basics, self.catalog, self.journal, self.media_images, self.checkpoints, self.units
        )
        self.journal.checkpoints = self.checkpoints
        self.journal.media_images = self.media_images
        self.journal.units = self.units
        self.checkpoints.units = self.units
        self.logger_events = LoggerEvents(self)
        self.checkpoints.extent_events = self.logger_events
        self.catalog.auto_recovery = self.media_images.auto_recovery

    # ------------------------------------------------------------ the parts', reached through the queue manager
    log_config = forward("config", "log_config")
    log_type = forward("config", "log_type")
    extent_bytes = forward("config", "extent_bytes")
    checkpoint_every = forward("config", "checkpoint_every")
    supports_media_recovery = forward("config", "supports_media_recovery")

    state = forward("catalog", "state", settable=True)
    qmgr_object = forward("catalog", "qmgr_object")
    lookup = forward("catalog", "lookup")
    objects = forward("catalog", "objects")
    check = forward("catalog", "check")
    open_handles = forward("catalog", "open_handles")
    in_use = forward("catalog", "in_use")
    settle_files = forward("catalog", "settle_files")

    log = forward("journal", "log", settable=True)
    space = forward("journal", "space")
    running = forward("journal", "running")
    since_checkpoint = forward("journal", "since_checkpoint")

    media = forward("media_images", "media")
    is_recoverable = forward("media_images", "is_recoverable")
    record_image = forward("media_images", "record_image")
    images = forward("media_images", "images")
    auto_recovery = forward("media_images", "auto_recovery")

    restart_point = forward("checkpoints", "restart_point")
    checkpoints_taken = forward("checkpoints", "checkpoints_taken")
    checkpoint = forward("checkpoints", "checkpoint")

    uow = forward("units", "uow", settable=True)
    application = forward("units", "application")
    new_identifier = forward("units", "new_identifier")
    connected_application = forward("units", "connected_application")
    depth = forward("units", "depth")
    uncommitted = forward("units", "uncommitted")
    put = forward("units", "put")
    get = forward("units", "get")
    commit = forward("units", "commit")
    backout = forward("units", "backout")
    clear = forward("units", "clear")

    # ------------------------------------------------------------ its part in a queue-sharing group
    @property
    def shared(self) -> SharedMessages:
        """Its shared queues' messages, structures and data sets, built at the first use."""
        if self._shared is None:
            from mqsh.model.qsg.shared_messages import SharedMessages  # loaded for a member of a group only

            self._shared = SharedMessages(self.basics, self.journal)
            self._shared.member_failed = lambda member: self.member_failed(member)  # as wired now or later
        return self._shared

    def group(self) -> SharedMessages | None:
        """Its shared messages when it is a member of a queue-sharing group; None outside one,
        without building them."""
        return self.shared if self.config.sharing_group is not None else None

    def tick(self) -> None:
        """Background work before each command: automatic media images and recoveries, and a member's
        restart processing of the data sets its group recovered or enabled since."""
        self.media_images.tick()
        if self._shared is not None:  # a group's work waits on nothing this queue manager has not used
            self._shared.tick()
        self.logger_events.flush()  # an extent started by work that has no point of its own to put it (LAB LOAD)

    def advance_log(self) -> None:
        """RESET QMGR TYPE(ADVANCELOG): a new extent, and its logger event."""
        self.journal.advance_log()
        self.logger_events.flush()

    # ------------------------------------------------------------ start and stop
    def start(
        self, verify_log: bool = False, ignore_missing: bool = False, no_services: bool = False
    ) -> StartReport:
        """Take the lock, load the object files, replay the log, back out in-flight work.

        verify_log and ignore_missing add to the qm.ini Log stanza's VerifyLogOnStart
        and IgnoreMissingLogExtents; no_services is strmqm -ns.
        """
        self.no_services = no_services
        try:
            self.log_config  # noqa: B018 - a qm.ini that cannot be read refuses the start before anything
        except ValueError as error:
            raise StartRefused("", f"mqsh: queue manager {self.name} cannot start: {error}.") from None
        self.lock.acquire()
        self.started_at = self.clock.now()
        try:
            report = self.startup.recover(
                restart.StartOptions.from_settings(self.config.log_settings, verify_log, ignore_missing)
            )
        except BaseException:
            self.journal.drop_log()
            self.lock.release()
            raise
        self.units.sweep_data()
        if self._shared is not None:  # restart processing of its data sets, checked against the structures
            self._shared.open_own(starting=True)
        self._start_with_qmgr()
        self.logger_events.started = True
        return report

    def _start_with_qmgr(self) -> None:
        """Listeners and services under queue manager control start with it (CONTROL(QMGR) or
        CONTROL(STARTONLY)); the others wait for START. strmqm -ns starts none of them."""
        if self.no_services:
            return
        for family in ("LISTENER", "SERVICE"):
            for obj in self.objects(family):
                if obj.attributes.get("CONTROL") in ("QMGR", "STARTONLY") and not obj.damaged:
                    self.running_objects[obj.key] = self.started_at

    def _note_failure(self, how: str) -> None:
        """What each queue held as the queue manager failed: the next start's explanation counts from it."""
        ledger.note_failure(
            self.paths.qmgr_dir,
            self.catalog.state.values(),
            f"{self.clock.now():{TIMESTAMP}}",
            how,
            self.log.next_lsn if self.log is not None else None,
        )

    def shutdown(self, back_out: bool = True) -> bool:
        """A clean end: back out the open unit of work (unless left for the next start), checkpoint,
        mark the log clean. False when a full disk left no room for the shutdown checkpoint: the
        queue manager ends all the same, its log synced, and the next start recovers from the log."""
        if self.log is None:
            return True
        if not back_out:
            self._note_failure("endmqm -i")
        self.units.note_unit_at_end()
        try:
            if self.uow is not None and back_out:
                self.backout()
            if self.supports_media_recovery:
                self.media_images.shutdown_images()
            self.checkpoint(clean=True)
            clean = True
        except (OSError, MQError) as error:
            if not _disk_full_error(error):
                raise
            clean = False
        self._close_shared(normally=clean)
        self.units.data.close()
        self.catalog.close_files()
        if self.log is not None:  # a full log file system may have ended it already (end_abruptly)
            self.journal.close_log()
            self.lock.release()
        return clean

    def crash(self, how: str = "a failure") -> None:
        """Stop at once: no checkpoint, no flush of queue files, no clean mark."""
        self._note_failure(how)
        self.units.note_unit_at_end()
        self._close_shared(normally=False)
        self.units.data.close()
        # A lab crash ends the queue manager, not the process: its file writes finish before a start
        # here reads the files (a real kill loses them, and restart replays their log records).
        self.catalog.close_files()
        self.journal.drop_log()
        self.state = {}
        self.uow = None
        self.lock.release()

    def _close_shared(self, normally: bool) -> None:
        if self._shared is not None:
            self._shared.close(normally)

    def end_abruptly(self, reason: str) -> None:
        """The queue manager ends itself: no checkpoint, the next start runs restart recovery."""
        self.ended_because = reason
        self._note_failure(f"an end of its own ({reason})")
        self.units.note_unit_at_end()
        self._close_shared(normally=False)
        self.units.data.close()
        self.catalog.close_files()
        self.journal.drop_log()
        self.uow = None
        self.lock.release()
        if self.on_ended_itself is not None:
            self.on_ended_itself()

    # ------------------------------------------------------------ objects
    def save_object(
        self, object_type: str, namespace: str, name: str, attributes: dict[str, Any]
    ) -> MQObject:
        """Define, replace or alter: log the full new image, then write its object file."""
        # A name no object file can hold is refused before the log records it: once
        # logged, every checkpoint and every later start would trip over it.
        self.paths.object_file(namespace, name)
        key = object_key(namespace, name)
        before = self.state.get(key)
        # A creation is marked: its record is the object's first media image.
        record = records.ObjectChanged(
            key, object_type, name, attributes, 1 if before is None else None
        ).encode()
        before_attributes = before.attributes if before is not None else {}
        self.journal.log_and_apply(record)
        obj = self.state[key]
        if namespace == "QMGR":
            self.logger_events.setting_changed(before_attributes, attributes)
        # Its file: at once, or behind the command when it is new; a disk with no room leaves it
        # to the next checkpoint (logged, so done: the checkpoint with room writes the file).
        self.catalog.write_object_file(obj)
        # The catalog is written at checkpoints: until then the log's creation record vouches for
        # the object (restart settles it), and a change costs the same however many objects exist.
        self.checkpoints.checkpoint_if_due()
        if self.object_changed is not None:
            self.object_changed(namespace, name)
        return obj

    def delete_object(self, namespace: str, name: str) -> None:
        key = object_key(namespace, name)
        self.journal.log_and_apply(records.ObjectDeleted(key).encode())
        self.catalog.remove_object_file(key, self.paths.object_file(namespace, name))
        self.catalog.changed.discard(key)
        self.images.forget(key)
        self.auto_recovery.forget(key)
        self.checkpoints.checkpoint_if_due()  # the catalog follows at the checkpoint, as for a creation
        if self.object_changed is not None:
            self.object_changed(namespace, name)


def _disk_full_error(error: Exception) -> bool:
    """The file system had no room: ENOSPC itself, or the 2102 a call failed with for it."""
    if isinstance(error, MQError):
        return error.reason == MQRC_RESOURCE_PROBLEM
    return isinstance(error, OSError) and error.errno == errno.ENOSPC


def remove_qmgr_files(paths: QmgrPaths) -> None:
    """dltmqm: every file of the queue manager goes."""
    for directory in (paths.qmgr_dir, paths.log_root):
        if directory.exists():
            shutil.rmtree(directory)
