"""Checkpoints: every changed object file brought up to date, and the restart point moved on.

The log control file records each checkpoint: where the next restart begins
its replay, the units of work then in flight and each object's media recovery
record.
"""

from __future__ import annotations

import errno
from datetime import datetime, timedelta
from typing import Any, Protocol

from mqsh.model.basics import QmgrBasics
from mqsh.model.catalog import ObjectCatalog
from mqsh.model.images import MediaImages
from mqsh.model.journal import Journal
from mqsh.recovery.replay import reference as replay
from mqsh.store import records, redo
from mqsh.store.files import CorruptFile, read_document, write_document

# MQ also checkpoints every 30 minutes when at least 100 records were written since the last one.
CHECKPOINT_INTERVAL = timedelta(minutes=30)
CHECKPOINT_MIN_RECORDS = 100


class OpenUnit(Protocol):
    uow: str | None  # the unit of work in flight


class ExtentEvents(Protocol):
    """What is told of each new extent, and of each point where a change is done (logger events)."""

    def extent_started(self, number: int) -> None: ...

    def flush(self) -> None: ...


class Checkpoints:
    def __init__(
        self, basics: QmgrBasics, catalog: ObjectCatalog, journal: Journal, media_images: MediaImages
    ):
        self.paths = basics.paths
        self.clock = basics.clock
        self.config = basics.config
        self.catalog = catalog
        self.journal = journal
        self.media_images = media_images
        self.restart_point = 0  # first record the next restart replays (set by each checkpoint)
        self.log_start: dict[str, Any] = {}  # when and at which LSN this log began
        self.checkpoints_taken = 0
        self.last_checkpoint: datetime | None = None
        self.units: OpenUnit  # bound by the queue manager once it has built its units of work
        self.extent_events: ExtentEvents  # bound by the queue manager too

    def read_control(self) -> dict[str, Any]:
        try:
            return read_document(self.paths.control_file)
        except (FileNotFoundError, CorruptFile):
            return {}

    def note_current_extent(self, number: int) -> None:
        """The log control file follows the current extent (MQ's keeps the head of the log)."""
        control = self.read_control()
        if control:
            write_document(self.paths.control_file, {**control, "current_extent": number}, sync=True)
        self.extent_events.extent_started(number)

    def oldest_restart_lsn(self) -> int:
        """RECLOG's record: the restart point, or the start of the unit of work in flight."""
        oldest = self.restart_point
        if self.units.uow is not None:
            oldest = min(oldest, int(self.units.uow.split(".")[0]))
        return oldest

    def checkpoint(self, clean: bool = False) -> None:
        """Bring every changed object file up to date and move the restart point here.

        The checkpoint record carries what restart and media recovery need to
        know without reading further back: the units of work in flight and
        each object's media recovery record. The restart point moves only once
        every change before it is in the object files: a checkpoint the disk
        cuts short (OSError) leaves the restart point, and what is still to be
        written, as they were, for the next checkpoint to finish.
        """
        assert self.journal.log is not None
        in_flight = {uow: sorted(queues) for uow, queues in replay.in_flight(self.catalog.state).items()}
        # Reserved: a checkpoint taken to free log space must not need new space.
        self.journal.log.append(
            records.Checkpoint(self.oldest_restart_lsn(), in_flight, self.media_images.media).encode(),
            reserved=True,
        )
        self.journal.log.sync()
        restart_lsn, restart_extent = self.journal.log.next_lsn, self.journal.log.extent
        self.catalog.settle_files()  # the writes behind the commands logged before the restart point
        # A damaged object's file is never rewritten: it stays as the damage left it.
        changed = [
            obj
            for obj in (self.catalog.state.get(key) for key in sorted(self.catalog.changed))
            if obj is not None and not self.catalog.check(obj)
        ]
        redo_file = redo.redo_path(self.paths.log_root)
        if changed:
            redo.write(
                redo_file,
                self.paths.data_dir,
                {self.catalog.object_path(obj): obj.to_document() for obj in changed},
            )
        for obj in changed:
            self.catalog.write_object_file_now(obj)
        self.catalog.write_catalog()
        redo.clear(redo_file)
        write_document(
            self.paths.control_file,
            {
                "state": "clean" if clean else "running",
                "restart_lsn": restart_lsn,
                "restart_extent": restart_extent,
                "next_lsn": restart_lsn,
                "checkpoint_time": self.clock.now().isoformat(),
                "media": self.media_images.media,
                "log_start": self.log_start,
                "uows": in_flight,
                "current_extent": restart_extent,
            },
            sync=True,
        )
        self.catalog.changed.clear()
        self.restart_point = restart_lsn
        self.last_checkpoint = self.clock.now()
        self.journal.checkpointed()
        self.checkpoints_taken += 1
        if self.journal.space is not None:
            self.journal.space.release(self.journal.log.extent)
        self.journal.log.keep_reserve()

    def _checkpoint_due(self) -> bool:
        since = self.journal.since_checkpoint
        if since >= self.config.checkpoint_every:
            return True
        # The clock is only looked at every hundred records: cheap, and often enough.
        return (
            since >= CHECKPOINT_MIN_RECORDS
            and since % CHECKPOINT_MIN_RECORDS == 0
            and self.last_checkpoint is not None
            and self.clock.now() - self.last_checkpoint >= CHECKPOINT_INTERVAL
        )

    def checkpoint_if_due(self) -> None:
        """The change before this is logged and done; a checkpoint the disk has no room for
        waits for the next one (the log still holds everything it would have written). An event
        of a new extent the change started is put here too: the change is done."""
        if self._checkpoint_due():
            try:
                self.checkpoint()
            except OSError as error:
                if error.errno != errno.ENOSPC:
                    raise
        self.extent_events.flush()
