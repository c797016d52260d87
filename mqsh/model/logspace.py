"""Log space: which extents a queue manager keeps, reuses, deletes or archives.

Two log records decide what must stay: the restart point (the last checkpoint,
or the first record of the oldest unit of work still in flight - RECLOG) and,
on a linear or replicated log, the oldest media recovery record of a
recoverable object (MEDIALOG). Extents older than both are no longer needed:

- circular logs reuse them in turn, within LogPrimaryFiles + LogSecondaryFiles
  extents; when every extent is still needed (a long-running unit of work) the
  log is full;
- linear logs never reuse. With LogManagement=Automatic the queue manager
  deletes what is not needed; with Archive it waits until each extent has
  been archived (SET LOG ARCHIVED); with Manual the administrator deletes
  extents by hand. The log file system has a size (qm.ini LogFileSystemSize,
  MB; none means it is shared and not the limit), and when no new extent fits
  the log is full.

Extent numbers only grow, so the oldest extent is always the lowest number.
A circular log's extents live in a ring of files, as MQ's do: the primary
files S0000000.LOG ... in turn, a secondary file put into the ring after the
current one only when the next is still needed (mqsh.store.log.Ring).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from mqsh.recovery.logscan import extent_holding
from mqsh.store import log as logstore
from mqsh.store import log_writer
from mqsh.store.files import CorruptFile, read_document, write_document

MB = 1024 * 1024


def megabytes(size: int) -> int:
    """Whole megabytes, rounded up as a size on disk is (MQ's sizes in DISPLAY QMSTATUS and QSTATUS)."""
    return -(-size // MB)


MANAGEMENT = ("MANUAL", "ARCHIVE", "AUTOMATIC")


@dataclass
class LogConfig:
    log_type: str = "CIRCULAR"
    management: str = "MANUAL"
    extent_bytes: int = 4096 * logstore.PAGE
    primary: int = 3
    secondary: int = 2
    fs_bytes: int | None = None  # the log file system's size; None = shared, not the limit

    checkpoint_records: int = 10_000  # log records between checkpoints, MQ's default

    @classmethod
    def from_settings(cls, settings: dict[str, str]) -> LogConfig:
        """The Log stanza of qm.ini; ValueError names a setting that is not valid."""

        def number(key: str, default: int | None) -> int | None:
            text = settings.get(key)
            if text is None:
                return default
            if not text.strip().isdigit() or int(text) < 1:
                raise ValueError(f"{key}={text} in the Log stanza of qm.ini is not a positive number")
            return int(text)

        def word(key: str, default: str, allowed: tuple[str, ...]) -> str:
            value = settings.get(key, default).upper()
            if value not in allowed:
                raise ValueError(
                    f"{key}={settings[key]} in the Log stanza of qm.ini is not one of "
                    + ", ".join(choice.title() for choice in allowed)
                )
            return value

        log_type = word("LogType", "CIRCULAR", ("CIRCULAR", "LINEAR", "REPLICATED"))
        size = number("LogFileSystemSize", None)
        return cls(
            log_type=log_type,
            management=word(
                "LogManagement", "AUTOMATIC" if log_type == "REPLICATED" else "MANUAL", MANAGEMENT
            ),
            extent_bytes=number("LogFilePages", 4096) * logstore.PAGE,
            primary=number("LogPrimaryFiles", 3),
            secondary=number("LogSecondaryFiles", 2),
            fs_bytes=size * MB if size else None,
            checkpoint_records=number("CheckpointRecords", 10_000),
        )

    @property
    def circular(self) -> bool:
        return self.log_type == "CIRCULAR"


@dataclass
class ExtentStatistics:
    """AMQ7490I's counts since the queue manager started."""

    created: int = 0
    reused: int = 0
    deleted: int = 0


@dataclass
class LogSpace:
    directory: Path
    archive_file: Path
    config: LogConfig
    restart_lsn: Callable[[], int]  # oldest record restart needs
    media_lsn: Callable[[], int | None]  # oldest record media recovery needs (None: nothing recoverable)
    statistics: ExtentStatistics = field(default_factory=ExtentStatistics)

    # ------------------------------------------------------------ where records are
    def extents(self) -> list[int]:
        return logstore.list_extents(self.directory)

    def path(self, number: int) -> Path:
        return logstore.extent_path(self.directory, number)

    def name(self, number: int | None) -> str:
        """An extent's file name as MQ shows it (blank for none)."""
        return logstore.extent_file_name(self.directory, number) if number is not None else " "

    def extent_of(self, lsn: int) -> int:
        """The extent holding the record with this LSN (or the one it will be written to).

        An LSN older than every extent present names the missing extent just
        before the oldest one: it is needed, whether or not it is there.
        """
        try:
            return extent_holding(self.directory, lsn)
        except logstore.ExtentMissing as missing:
            assert missing.number is not None
            return missing.number

    def reclog(self) -> int:
        return self.extent_of(self.restart_lsn())

    def medialog(self) -> int | None:
        lsn = self.media_lsn()
        return None if lsn is None else self.extent_of(lsn)

    def needed_from(self) -> int | None:
        """The oldest extent restart or media recovery still needs."""
        needed = [number for number in (self.reclog(), self.medialog()) if number is not None]
        return min(needed) if needed else None

    # ------------------------------------------------------------ archiving
    def archived(self) -> set[int]:
        try:
            return set(read_document(self.archive_file).get("archived", []))
        except (FileNotFoundError, CorruptFile):
            return set()

    def mark_archived(self, numbers: list[int]) -> bool:
        """SET LOG ARCHIVED (one extent), RESET QMGR TYPE(ARCHLOG) (all up to one): False when
        the last of them was already archived."""
        archived = self.archived()
        if set(numbers) - archived:
            write_document(self.archive_file, {"archived": sorted(archived | set(numbers))}, sync=True)
        return numbers[-1] not in archived

    def awaiting_archive(self, current: int) -> list[int]:
        if self.config.management != "ARCHIVE":
            return []
        archived = self.archived()
        return [number for number in self.extents() if number < current and number not in archived]

    # ------------------------------------------------------------ sizes
    def size_of(self, numbers: list[int]) -> int:
        total = 0
        for number in numbers:
            try:
                total += logstore.records_end(self.path(number))
            except FileNotFoundError:
                pass
        return total

    def usage(self) -> int:
        """What the log takes of its file system: MQ makes each log file at its full size, and the
        records kept room for (backouts, checkpoints) are written in that room. So each extent
        counts at its full size, and a log that only adds an extent when one more fits never
        shows more than 100 %."""
        return len(self.extents()) * self.config.extent_bytes

    def reusable(self, current: int) -> list[int]:
        """Extents nothing needs any more (circular: waiting to be reused)."""
        needed = self.needed_from()
        limit = current if needed is None else min(needed, current)
        return [number for number in self.extents() if number < limit]

    # ------------------------------------------------------------ freeing space
    def release(self, current: int) -> None:
        """Delete linear extents nothing needs, as LogManagement allows."""
        if self.config.circular or self.config.management == "MANUAL":
            return
        archived = self.archived() if self.config.management == "ARCHIVE" else None
        for number in self.reusable(current):
            if archived is not None and number not in archived:
                continue
            self._remove(number)
        if archived is not None:
            kept = archived & set(self.extents())
            if kept != archived:
                write_document(self.archive_file, {"archived": sorted(kept)}, sync=True)

    def _remove(self, number: int) -> None:
        self.path(number).unlink(missing_ok=True)
        self.statistics.deleted += 1

    # ------------------------------------------------------------ the next extent
    def allocate(self, writer: log_writer.LogWriter) -> int:
        """Called by the log writer when its extent is full: make room for the next one.

        It writes no records itself; when there is no room it raises LogFull, and
        the queue manager may take a checkpoint (moving RECLOG) and ask again.
        """
        number = writer.extent + 1
        if self.config.circular:
            self._make_circular_room(writer, number)
        else:
            self._make_linear_room(writer)
            self.statistics.created += 1
        return number

    def _make_circular_room(self, writer: log_writer.LogWriter, number: int) -> None:
        """Give extent number the file after the current one in the ring, or a new secondary file.

        The next file holds the oldest extent, or none yet (a primary file not
        used so far); it is taken once nothing needs its extent. Otherwise a
        secondary file goes into the ring after the current one, while there
        are fewer than LogPrimaryFiles + LogSecondaryFiles; then the log is full.
        """
        ring = logstore.read_ring(self.directory) or self._first_ring()
        current = ring.order.index(ring.file_of(writer.extent))
        following = ring.order[(current + 1) % len(ring.order)]
        holder = ring.holder(following)
        if holder is None or holder in self.reusable(writer.extent):
            if holder is not None:
                del ring.extents[holder]
                self.statistics.reused += 1
            else:
                self.statistics.created += 1
        elif len(ring.order) < self.config.primary + self.config.secondary:
            following = min(set(range(len(ring.order) + 1)) - set(ring.order))
            ring.order.insert(current + 1, following)
            self.statistics.created += 1
        else:
            raise logstore.LogFull(long_running=True)
        ring.extents[number] = following
        logstore.write_ring(self.directory, ring)

    def _first_ring(self) -> logstore.Ring:
        """The ring of a log that has not yet gone past its first files: each extent in its own."""
        present = self.extents()
        unused = [file for file in range(self.config.primary) if file not in present]
        return logstore.Ring(present + unused, {number: number for number in present})

    def _fits(self) -> bool:
        limit = self.config.fs_bytes
        return limit is None or self.usage() + self.config.extent_bytes <= limit

    def _make_linear_room(self, writer: log_writer.LogWriter) -> None:
        self.release(writer.extent)
        if not self._fits():
            raise logstore.LogFull(long_running=False)
