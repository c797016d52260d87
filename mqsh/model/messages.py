"""Messages and units of work: puts, gets, commits and backouts on the local queues, for the
one application connection the lab controls stand in for.

Non-persistent messages are never logged and never written, so they do not survive a restart.
"""

from __future__ import annotations

import contextlib
import errno
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, NoReturn

from mqsh.core.objects import COMMITTED, MQObject, StoredMessage, object_key
from mqsh.core.reasons import (
    MQRC_BACKED_OUT,
    MQRC_CONNECTION_BROKEN,
    MQRC_GET_INHIBITED,
    MQRC_MSG_TOO_BIG_FOR_Q,
    MQRC_NO_MSG_AVAILABLE,
    MQRC_OBJECT_DAMAGED,
    MQRC_PUT_INHIBITED,
    MQRC_Q_FULL,
    MQRC_Q_NOT_EMPTY,
    MQRC_Q_TYPE_ERROR,
    MQRC_RESOURCE_PROBLEM,
    MQRC_UNKNOWN_OBJECT_NAME,
    MQRC_UNKNOWN_REMOTE_Q_MGR,
    MQError,
)
from mqsh.model import connections, full_texts
from mqsh.model.basics import QmgrBasics
from mqsh.model.catalog import ObjectCatalog
from mqsh.model.checkpoints import Checkpoints
from mqsh.model.connections import Connection
from mqsh.model.journal import Journal
from mqsh.model.qsg.shared_queue import SharedQueue
from mqsh.model.queue_routes import QueueRoutes
from mqsh.recovery.replay import reference as replay
from mqsh.store import log as logstore
from mqsh.store import records
from mqsh.store.identity import process_user
from mqsh.store.message_data import MessageData, MessageDataUnavailable
from mqsh.store.putnotes import PutterNotes

if TYPE_CHECKING:
    from mqsh.model.qsg.shared_messages import SharedMessages


class MessageStore:
    def __init__(
        self,
        basics: QmgrBasics,
        catalog: ObjectCatalog,
        journal: Journal,
        checkpoints: Checkpoints,
        end_abruptly: Callable[[str], None],
        group: Callable[[], SharedMessages | None],
    ):
        paths = self.paths = basics.paths
        self.name = paths.name
        self.clock = basics.clock
        self.errors = basics.errors
        self.config = basics.config
        self.catalog = catalog
        self.journal = journal
        self.checkpoints = checkpoints
        self.end_abruptly = end_abruptly  # the queue manager ends itself (a full log file system)
        self.group = group  # the queue-sharing group's shared queues, for a member of one (else None)
        # Where a name this queue manager's own queues do not take goes: a remote definition's
        # transmission queue, or its clusters.
        self.routes = QueueRoutes(catalog, lambda name: self._shared_queue(name) is not None)
        self.user = process_user()  # the application's user id, each message's UserIdentifier
        self.putters = PutterNotes(self.paths.log_root, self.user)  # noted once, not on every put record
        self.uow: str | None = None
        self._uow_queues: set[str] = set()
        self._uow_seq = self._msg_seq = self._connections = 0  # units, messages, connections of this start
        self.ids_from = 0  # the LSN this start began logging at: the part of ids no other start has
        self._backed_out_for_log = False  # the open unit was backed out to free log space (MQCMIT: 2003)
        self.application: Connection | None = None  # the application the LAB controls stand in for
        # The application's unit of work was lost when the previous run of this queue manager
        # ended (set by the installation): its next call is told the connection broke.
        self.application_broken = False
        self.ended_with_unit = False  # this run ended with the application's unit of work unfinished
        self.data = MessageData(paths.qmgr_dir / "msgdata.db")  # transmission headers, channel batches

    def resolve_queue(
        self, name: str, reason_if_missing: int = MQRC_UNKNOWN_OBJECT_NAME
    ) -> MQObject | SharedQueue:
        """The queue a put or get reaches by name: a local queue of this queue manager (through an
        alias or remote definition) or, for a member of a queue-sharing group, a shared queue."""
        obj = self.catalog.lookup("QUEUE", name)
        if obj is None:
            shared = self._shared_queue(name)
            if shared is None:
                raise MQError(reason_if_missing)
            return shared
        if obj.damaged:
            raise MQError(MQRC_OBJECT_DAMAGED, obj.name)
        if obj.object_type == "QALIAS":
            return self.resolve_queue(obj.attributes.get("TARGET") or obj.attributes.get("TARGQ", ""))
        if obj.object_type == "QREMOTE":
            transmission = obj.attributes.get("XMITQ") or obj.attributes.get("RQMNAME", "")
            return self.resolve_queue(transmission, MQRC_UNKNOWN_REMOTE_Q_MGR)
        if obj.object_type != "QLOCAL":
            raise MQError(MQRC_Q_TYPE_ERROR)
        return obj

    def definition(self, name: str) -> dict:
        """The attributes of the queue object a name opens - the first in its resolution path, as
        MQ takes DEFPSIST and DEFPRTY from it: a local object, a shared queue or a cluster queue;
        empty when none."""
        obj = self.catalog.lookup("QUEUE", name)
        if obj is not None:
            return obj.attributes
        try:
            shared = self._shared_queue(name)
        except MQError:
            return {}
        if shared is not None:
            return shared.attributes
        return self.routes.cluster_definition(name) if self.routes.cluster_definition is not None else {}

    def is_shared(self, name: str) -> bool:
        """Whether the name is a shared queue of the group the queue manager is a member of."""
        return self._shared_queue(name) is not None

    def _shared_queue(self, name: str) -> SharedQueue | None:
        group = self.group()
        return group.queue(name) if group is not None else None

    def _member(self) -> SharedMessages:
        group = self.group()
        assert group is not None, "only a member of a queue-sharing group finds a shared queue"
        return group

    def _unit_structures(self) -> dict[str, int]:
        group = self.group()  # the structures the open unit of work changed, and its entries in each
        return group.unit_structures if group is not None else {}

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
        return f"{prefix}{self.ids_from:012X}{first:012X}"

    def note_unit_at_end(self) -> None:
        self.ended_with_unit = self.uow is not None or self._backed_out_for_log

    def _unbroken(self) -> None:
        """MQRC_CONNECTION_BROKEN, once, to an application whose unit of work the end of the
        queue manager took: it then connects again."""
        if self.application_broken:
            self.application_broken = False
            raise MQError(MQRC_CONNECTION_BROKEN)

    def connected_application(self) -> Connection:
        """The application's connection: its first MQI call of this start connects it."""
        self._unbroken()
        if self.application is None:
            self._connections += 1
            self.application = connections.connect(
                self.name, self.ids_from, self._connections, self.clock.now()
            )
        return self.application

    def disconnect_application(self) -> int:
        """STOP CONN: the application's unit of work is backed out and its handles closed.
        Returns how many queues the backout touched."""
        backed_out = self.backout()
        self.catalog.open_handles.clear()
        self.routes.cluster_bindings.clear()
        self.application = None
        return backed_out

    def _begin(self) -> str:
        if self.uow is None:
            self.connected_application().uow_started = self.clock.now()
            self._uow_seq += 1
            assert self.journal.log is not None
            # The id starts with the LSN the unit begins at: the oldest LSN still needed, and
            # whether a unit began within an extent (mqsh.store.settled), are read from it.
            self.uow = f"{self.journal.log.next_lsn}.{self._uow_seq}"
            self._uow_queues = set()
        return self.uow

    def _shared_call(self, syncpoint: bool, call: Callable[[str | None], Any]) -> Any:
        """A shared-queue put or get that fails changes nothing: a unit it began is not left open."""
        began = syncpoint and self.uow is None
        try:
            return call(self._begin() if syncpoint else None)
        except MQError:
            if began:
                self.uow = self.connected_application().uow_started = None
            raise

    def depth(self, queue: MQObject) -> int:
        """CURDEPTH: committed messages plus uncommitted puts (MQ counts both)."""
        return sum(1 for message in queue.messages if message.state != "G")

    def uncommitted(self, queue: MQObject) -> int:
        return sum(1 for message in queue.messages if message.uow is not None)

    def put(
        self, queue_name: str, persistent: bool, size: int = 100, priority: int = 0, syncpoint: bool = False
    ) -> str:
        self.connected_application()
        routed = self.routes.cluster_route(queue_name, putting=True)
        queue = routed[0] if routed is not None else self.resolve_queue(queue_name)
        if isinstance(queue, SharedQueue):
            msgid = self._shared_call(
                syncpoint, lambda uow: self._member().put(queue, persistent, size, priority, uow)
            )
            self.checkpoints.checkpoint_if_due()
            return msgid
        self.check_put(queue, size)
        msgid = self.new_identifier()
        header = routed[1] if routed is not None else self.routes.transmission_header(queue_name)
        if header is not None:
            self.store_data({msgid: header})
        uow = self._begin() if syncpoint else None
        # Who put it: the user id; PutApplName None, mqsh's own (mqsh.store.putnotes).
        message = StoredMessage(
            msgid, persistent, priority, size, self.clock.now().isoformat(), user=self.user
        )
        self._put_record(queue, message, uow)
        return msgid

    def store_data(self, items: dict[str, dict]) -> None:
        """Make a message's data durable before its put is logged (mqsh.store.message_data)."""
        try:
            self.data.put(items)
        except MessageDataUnavailable as error:
            self.errors.write(
                "AMQ6119S",
                "An internal IBM MQ error has occurred (message data could not be written).",
                str(error),
                "Make room on the disk, or restore the queue manager's message data file.",
            )
            raise MQError(MQRC_RESOURCE_PROBLEM) from None

    def sweep_data(self) -> None:
        """At start: the data of messages whose puts never reached the log goes (best effort: a
        damaged file is reported when a message needs it)."""
        kept = {message.msgid for obj in self.catalog.state.values() for message in obj.messages}
        try:
            self.data.keep_only(kept)
        except MessageDataUnavailable:
            pass

    def check_put(self, queue: MQObject, size: int) -> None:
        """What refuses a put to a local queue: PUT(DISABLED), MAXDEPTH, MAXMSGL."""
        attributes = queue.attributes
        _allowed(queue, "PUT")
        maxdepth = int(attributes.get("MAXDEPTH", 5000))
        # The queue's length bounds its depth: counting (a scan of every message) is only
        # needed near MAXDEPTH, so a put to a deep queue is not slower than to an empty one.
        if len(queue.messages) >= maxdepth and self.depth(queue) >= maxdepth:
            raise MQError(MQRC_Q_FULL)
        if size > int(attributes.get("MAXMSGL", 4194304)):
            raise MQError(MQRC_MSG_TOO_BIG_FOR_Q)

    def _put_record(self, queue: MQObject, message: StoredMessage, uow: str | None) -> None:
        if uow:
            self._uow_queues.add(queue.name)
        if message.persistent and self.journal.log is not None:
            self.putters.before_put(self.journal.log.next_lsn)
        record = records.Put(
            queue.name,
            message.msgid,
            message.priority,
            message.size,
            message.put_time,
            uow,
            None if message.user == self.user else message.user,  # the putter noted (mqsh.store.putnotes)
            message.appl,
        ).encode()
        self.journal.change(record, [queue.key], persistent=message.persistent)
        # The message as its record put it on the queue (the last there) is told who put it, which the
        # record may leave to the notes: its document keeps it from here.
        applied = queue.messages[-1] if queue.messages else None
        if applied is not None and applied.msgid == message.msgid:
            applied.user, applied.appl = message.user, message.appl

    def get(self, queue_name: str, syncpoint: bool = False) -> StoredMessage:
        self.connected_application()
        routed = self.routes.cluster_route(queue_name)
        queue = routed[0] if routed is not None else self.resolve_queue(queue_name)
        if isinstance(queue, SharedQueue):
            message = self._shared_call(syncpoint, lambda uow: self._member().get(queue, uow))
            self.checkpoints.checkpoint_if_due()
            return message
        _allowed(queue, "GET")
        # MSGDLVSQ(PRIORITY): highest priority first, then first in, first out; FIFO: in order.
        message = queue.next_message(by_priority=queue.attributes.get("MSGDLVSQ", "PRIORITY") == "PRIORITY")
        if message is None:
            raise MQError(MQRC_NO_MSG_AVAILABLE)
        self._get_record(queue, message, self._begin() if syncpoint else None)
        return message

    def browse(self, queue_name: str) -> list[StoredMessage]:
        """The committed messages a get would take, in the order it would take them, none taken
        (MQGMO_BROWSE_NEXT from the start of the queue)."""
        self.connected_application()
        routed = self.routes.cluster_route(queue_name)
        queue = routed[0] if routed is not None else self.resolve_queue(queue_name)
        by_priority = queue.attributes.get("MSGDLVSQ", "PRIORITY") == "PRIORITY"
        if isinstance(queue, SharedQueue):
            entries = self._member().structure(queue.cf).committed(queue.name, by_priority)
            return [StoredMessage(entry.e, entry.persistent, entry.p, entry.s, entry.tm) for entry in entries]
        _allowed(queue, "GET")
        committed = [message for message in queue.messages if message.state == COMMITTED]
        # sorted() is stable: within a priority, first in, first out.
        return sorted(committed, key=lambda message: -message.priority) if by_priority else committed

    def _get_record(self, queue: MQObject, message: StoredMessage, uow: str | None) -> None:
        if uow:
            self._uow_queues.add(queue.name)
        record = records.Get(queue.name, message.msgid, uow).encode()
        self.journal.change(record, [queue.key], persistent=message.persistent)

    # ------------------------------------------------------------ the queue manager's own agents
    @contextlib.contextmanager
    def agent_unit(self) -> Iterator[str]:
        """A unit of work of one of the queue manager's own agents (a channel's batch), apart from
        the application's: committed when the block ends, backed out if it raises."""
        assert self.journal.log is not None
        saved = (self.uow, self._uow_queues, self._backed_out_for_log)
        self._uow_seq += 1
        self.uow, self._uow_queues = f"{self.journal.log.next_lsn}.{self._uow_seq}", set()
        try:
            yield self.uow
            self._end_agent_unit("CMT")
        except BaseException:
            self._end_agent_unit("BCK")
            raise
        finally:
            self.uow, self._uow_queues, self._backed_out_for_log = saved

    def _end_agent_unit(self, kind: str) -> None:
        if self.uow is not None:  # a full log may have backed it out already
            self.log_unit_end(kind, self.uow, sorted(self._uow_queues), shared=False)
            self.uow = None

    def agent_put(self, queue: MQObject, message: StoredMessage, uow: str | None) -> None:
        """An agent's put of a message that keeps its own id and put time (a receiving channel's)."""
        self.check_put(queue, message.size)
        self._put_record(queue, message, uow)

    def agent_get(self, queue: MQObject, message: StoredMessage, uow: str | None) -> None:
        self._get_record(queue, message, uow)

    def _end_uow(self, kind: str) -> int:
        """Commit or back out. Space is reserved for these, so they never fail for want of log."""
        if self.uow is None:
            return 0
        queues = sorted(self._uow_queues)
        touched = len(queues) + len(self._unit_structures())
        self.log_unit_end(kind, self.uow, queues)
        self.uow, self._uow_queues = None, set()
        return touched

    def log_unit_end(self, kind: str, uow: str, queues: list[str], shared: bool = True) -> None:
        """Log and apply a unit's commit or backout; its queues' files are written at the next checkpoint.

        One record ends the unit on local and shared queues alike; for shared queues it
        names their structures, with an LRSN, and is forced before the structures change.
        An agent's unit (shared=False) has no work on shared queues."""
        structures = sorted(self._unit_structures()) if shared else []
        ending = records.Commit if kind == "CMT" else records.Backout
        record = ending(
            uow, queues, structures or None, self._member().next_lrsn() if structures else None
        ).encode()
        lsn = self.journal.log_and_apply(record, reserved=True)
        if structures:
            assert self.journal.log is not None
            self.journal.log.force()
            self._member().end_unit(kind == "CMT", uow, lsn)
        self.catalog.changed |= {object_key("QUEUE", name) for name in queues}
        self.checkpoints.checkpoint_if_due()

    def commit(self) -> int:
        self._unbroken()
        group = self.group()
        if self._backed_out_for_log or (
            self.uow is not None and group is not None and group.unit_lost(self.uow)
        ):
            # The queue manager backed the unit out to free log space, or a structure's failure
            # lost its shared work: MQCMIT says so, and backs out what remains of the unit.
            self._backed_out_for_log = False
            self._end_uow("BCK")
            raise MQError(MQRC_BACKED_OUT)
        return self._end_uow("CMT")

    def backout(self) -> int:
        self._unbroken()
        self._backed_out_for_log = False
        return self._end_uow("BCK")

    def clear(self, queue: MQObject) -> None:
        if any(message.uow for message in queue.messages):
            raise MQError(MQRC_Q_NOT_EMPTY)
        self.journal.change(records.Clear(queue.name).encode(), [queue.key])

    def load_target(self, name: str) -> MQObject | SharedQueue:
        """The local queue LAB LOAD moves messages through: it must take both puts and gets. A
        shared queue is given back as it is, for LAB LOAD to refuse: its messages are in its
        structure, not in this queue manager's log alone."""
        queue = self.resolve_queue(name)
        if isinstance(queue, SharedQueue):
            return queue
        _allowed(queue, "PUT")
        _allowed(queue, "GET")
        return queue

    def note_bulk_records(self, queue: MQObject, count: int) -> None:
        """count records written straight to the log for queue; checkpoint when one is due."""
        self.catalog.changed.add(queue.key)
        self.journal.note_written(count)
        if self.journal.since_checkpoint >= self.config.checkpoint_every:
            self.checkpoints.checkpoint()

    # ------------------------------------------------------------ a full log or disk
    def log_full(self, full: logstore.LogFull) -> None:
        """No room for the record: roll back the unit of work; a full file system ends the queue manager."""
        backed_out = self.uow is not None
        if backed_out:
            self._end_uow("BCK")
            self._backed_out_for_log = True
        full_texts.log_full(self.errors, self.name, full.long_running, backed_out)
        if full.long_running:
            raise MQError(MQRC_RESOURCE_PROBLEM)
        full_texts.log_file_system_full(self.errors, self.paths.log_dir)
        self.end_abruptly("log full")
        raise MQError(MQRC_RESOURCE_PROBLEM)

    def disk_full(self) -> NoReturn:
        """The disk under the log is full: the record was not written (nothing of it is in the
        log). The call fails with 2102 and the open unit of work is backed out, as for a full
        log; the queue manager goes on, answering from memory, and works again once there is room."""
        full_texts.disk_full(self.errors, self.paths.log_dir)
        if self.uow is not None:
            self._back_out_without_room()
        raise MQError(MQRC_RESOURCE_PROBLEM)

    def _back_out_without_room(self) -> None:
        """Back out the open unit on a full disk. Its backout record takes the log's reserve;
        should even that not fit, the unit is backed out in memory alone: the log then holds
        the unit unfinished, and a restart backs out an unfinished unit all the same, while a
        checkpoint writes the files as memory has them and no longer names it in flight."""
        uow, queues = self.uow, sorted(self._uow_queues)
        assert uow is not None and self.journal.log is not None
        record = records.Backout(uow, queues).encode()
        try:
            logged = {records.LSN: self.journal.log.append(record, reserved=True), **record}
        except OSError as error:
            if error.errno != errno.ENOSPC:
                raise
            logged = record  # no LSN: the queues keep the LSN of the last record the log holds
        replay.apply(self.catalog.state, logged)
        if self._unit_structures():  # a member's work on shared queues goes with it
            self._member().end_unit(False, uow, logged.get(records.LSN))
        self.catalog.changed |= {object_key("QUEUE", name) for name in queues}
        self.uow, self._uow_queues = None, set()
        self._backed_out_for_log = True


def _allowed(queue: MQObject, operation: str) -> None:
    """PUT(DISABLED) refuses puts (2051), GET(DISABLED) gets (2016)."""
    if queue.attributes.get(operation, "ENABLED") == "DISABLED":
        raise MQError(MQRC_PUT_INHIBITED if operation == "PUT" else MQRC_GET_INHIBITED)
