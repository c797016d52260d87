"""The log as the queue manager writes it: each record appended, the log made room for, then applied.

Every persistent change follows the same three steps: build a log record,
append it to the log (one write), then apply it to memory through
mqsh.recovery.replay.reference.apply - the very function restart uses.
"""

from __future__ import annotations

import errno
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, NoReturn, Protocol, TypeVar

from mqsh.core.reasons import MQRC_Q_MGR_NOT_AVAILABLE, MQError
from mqsh.model.basics import QmgrBasics
from mqsh.model.catalog import ObjectCatalog
from mqsh.model.interrupts import uninterrupted
from mqsh.model.logspace import LogSpace
from mqsh.recovery.replay import reference as replay
from mqsh.store import log as logstore
from mqsh.store import log_writer
from mqsh.store.clocknotes import ClockNotes
from mqsh.store.records import LSN

T = TypeVar("T")
RESERVE_NAME = "amqhlres.lfh"  # the log's reserve for backouts and checkpoints on a full disk


def _columnar_copy(extent: Path) -> None:
    """A sealed extent's columnar copy (pyarrow loads only once an extent fills)."""
    from mqsh.store.columnar import write_copy

    write_copy(extent)


class SealedCopies:
    """The log's seal hook: each full extent's columnar copy, made on a thread of its own.

    Making a copy reads and converts a whole extent (seconds, on a first use
    also loading pyarrow); the command that filled the extent should not wait
    for it, and the conversion runs mostly outside the interpreter lock. A copy
    only speeds replay up and is checked against its extent when used (size
    and CRC), so one that a killed process leaves unmade costs nothing but
    speed. The queue manager waits for the copies when its log closes, so no
    copy is written into a log that has been deleted or handed to a new start.
    """

    def __init__(self) -> None:
        self._pool: ThreadPoolExecutor | None = None
        self._pending: list[Future] = []

    def copy(self, extent: Path) -> None:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mqsh-seal")
        self._pending = [made for made in self._pending if not made.done()]
        self._pending.append(self._pool.submit(_columnar_copy, extent))

    def wait(self) -> None:
        pending, self._pending = self._pending, []
        for made in pending:
            made.result()
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None


class Checkpointer(Protocol):
    def checkpoint(self) -> None: ...

    def checkpoint_if_due(self) -> None: ...


class MediaNotes(Protocol):
    def note_media(self, record: dict[str, Any]) -> None: ...


class FullLogHandler(Protocol):
    """What becomes of the work in progress when the log or its disk has no room."""

    def log_full(self, full: logstore.LogFull) -> NoReturn: ...

    def disk_full(self) -> NoReturn: ...


class Journal:
    def __init__(self, basics: QmgrBasics, catalog: ObjectCatalog):
        self.paths = basics.paths
        self.config = basics.config
        self.clock = basics.clock
        self.catalog = catalog
        self.log: log_writer.LogWriter | None = None
        self.space: LogSpace | None = None
        self.sealed_copies = SealedCopies()
        self._since_checkpoint = 0
        # Bound by the queue manager once it has built them: what logging calls back.
        self.checkpoints: Checkpointer
        self.media_images: MediaNotes
        self.units: FullLogHandler

    def open(
        self,
        next_lsn: int,
        oldest_restart_lsn: Callable[[], int],
        oldest_media_lsn: Callable[[], int | None],
        on_start: Callable[[int], None],
    ) -> None:
        """Go on logging at next_lsn; the log space keeps what restart and media recovery need."""
        self.space = LogSpace(
            self.paths.log_dir,
            self.paths.log_root / "amqharch.lfh",
            self.config.log_config,
            oldest_restart_lsn,
            oldest_media_lsn,
        )
        self.log = log_writer.LogWriter(
            self.paths.log_dir,
            self.config.extent_bytes,
            next_lsn,
            self.space.allocate,
            on_seal=self.sealed_copies.copy,
            on_start=on_start,
            reserve=self.paths.log_root / RESERVE_NAME,
            on_write=ClockNotes(self.paths.log_root, self.clock.now).wrote,
        )

    def log_record(self, record: dict[str, Any], reserved: bool = False) -> dict[str, Any]:
        """Append a record; return it with its LSN."""
        if self.log is None:
            raise MQError(MQRC_Q_MGR_NOT_AVAILABLE)
        log = self.log
        try:
            lsn = self._with_log_room(lambda: log.append(record, reserved=reserved))
        except OSError as error:
            if error.errno != errno.ENOSPC:
                raise
            self.units.disk_full()
        logged = {LSN: lsn, **record}
        self.media_images.note_media(logged)
        self._since_checkpoint += 1
        return logged

    def log_and_apply(self, record: dict[str, Any], reserved: bool = False) -> int:
        """Log a record and apply it to memory. The caller finishes the change (its object
        files, what is changed) and then calls checkpoint_if_due: a checkpoint taken between the
        two would move the restart point past a record whose effect no file holds yet."""
        with uninterrupted():
            logged = self.log_record(record, reserved)
            replay.apply(self.catalog.state, logged)
        return logged[LSN]

    def change(
        self,
        record: dict[str, Any],
        changed: Iterable[str] = (),
        persistent: bool = True,
        reserved: bool = False,
    ) -> int | None:
        """One whole change: the record logged (a non-persistent one only applied), the objects
        it changed marked for the next checkpoint, then a checkpoint if one is due. Returns the
        record's LSN (None when it was not logged)."""
        lsn = None
        if persistent:
            lsn = self.log_and_apply(record, reserved)
        else:
            replay.apply(self.catalog.state, record, persistent=False)
        self.catalog.changed.update(changed)
        self.checkpoints.checkpoint_if_due()
        return lsn

    def _with_log_room(self, action: Callable[[], T]) -> T:
        """Run a log action; if no extent has room, a checkpoint may move RECLOG past old ones: try once more."""
        try:
            return action()
        except logstore.LogFull:
            self.checkpoints.checkpoint()
        try:
            return action()
        except logstore.LogFull as full:
            self.units.log_full(full)
            raise  # log_full always raises; this keeps the type checker informed

    def make_log_room(self) -> None:
        """Before a block written straight to the log (LAB LOAD): a new extent if the current one is full."""
        if self.log is None:
            raise MQError(MQRC_Q_MGR_NOT_AVAILABLE)
        self._with_log_room(self.log.make_room)

    def advance_log(self) -> None:
        """RESET QMGR TYPE(ADVANCELOG): go on in a new extent, so the current one can be archived."""
        assert self.log is not None
        self._with_log_room(self.log.advance)

    @property
    def since_checkpoint(self) -> int:
        return self._since_checkpoint

    def note_written(self, count: int) -> None:
        """count records written straight to the log (LAB LOAD), for the checkpoint they bring due."""
        self._since_checkpoint += count

    def checkpointed(self) -> None:
        self._since_checkpoint = 0

    def drop_log(self) -> None:
        if self.log is not None:
            self.log.abandon()
            self.log = None
        self.sealed_copies.wait()

    def close_log(self) -> None:
        """A clean end: the log synced and closed, its copies made."""
        if self.log is not None:
            self.log.close()
            self.log = None
        self.sealed_copies.wait()

    @property
    def running(self) -> bool:
        return self.log is not None
