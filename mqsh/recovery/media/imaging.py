"""Automatic media imaging: ALTER QMGR IMGSCHED(AUTO) with IMGINTVL and IMGLOGLN.

With IMGSCHED(AUTO) on a linear or replicated log, the queue manager records
a media image of a recoverable object once IMGINTVL minutes (on the simulated
clock) have passed since the object's previous image, or once IMGLOGLN
megabytes of log have been written since then - whichever comes first. Each
image moves the object's media recovery record forward, so older extents stop
being needed for media recovery. The check runs before each command.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Protocol

from mqsh.core.clock import Clock
from mqsh.core.damage import CATALOG_KEY
from mqsh.core.objects import MQObject
from mqsh.store.log_writer import LogWriter

MEGABYTE = 1024 * 1024


def _setting(value: object) -> int | None:
    """An IMGINTVL/IMGLOGLN value; None for OFF."""
    return value if isinstance(value, int) and value > 0 else None


class Imaged(Protocol):
    """What imaging reads and records: the queue manager's media images (mqsh.model.images)."""

    clock: Clock
    log: LogWriter | None
    extent_bytes: int
    supports_media_recovery: bool
    state: dict[str, MQObject]
    qmgr_object: MQObject | None
    catalog_damaged: bool

    def is_recoverable(self, obj: MQObject) -> bool: ...

    def record_image(self, obj: MQObject, reserved: bool = False) -> int: ...

    def record_catalog_image(self, reserved: bool = False) -> int: ...


class ImageSchedule:
    def __init__(self, media: Imaged):
        self.media = media
        self._last: dict[str, tuple[datetime, int]] = {}  # key -> (time, log byte position) of its image

    def _position(self) -> int:
        log = self.media.log
        return log.extent * self.media.extent_bytes + log.size if log is not None else 0

    def note(self, key: str) -> None:
        self._last[key] = (self.media.clock.now(), self._position())

    def forget(self, key: str) -> None:
        self._last.pop(key, None)

    def _due(self, key: str, interval: int | None, log_length: int | None) -> bool:
        # An object not imaged since this start counts from the start.
        when, position = self._last.setdefault(key, (self.media.clock.now(), self._position()))
        if interval is not None and self.media.clock.now() - when >= timedelta(minutes=interval):
            return True
        return log_length is not None and self._position() - position >= log_length * MEGABYTE

    def run(self) -> int:
        """Record the images that are due; the number recorded."""
        media = self.media
        settings = media.qmgr_object.attributes if media.qmgr_object else {}
        if not media.supports_media_recovery or settings.get("IMGSCHED") != "AUTO" or media.log is None:
            return 0
        interval, log_length = _setting(settings.get("IMGINTVL")), _setting(settings.get("IMGLOGLN"))
        recorded = 0
        for obj in sorted(media.state.values(), key=lambda o: o.key):
            if not obj.damaged and media.is_recoverable(obj) and self._due(obj.key, interval, log_length):
                media.record_image(obj)
                recorded += 1
        if not media.catalog_damaged and self._due(CATALOG_KEY, interval, log_length):
            media.record_catalog_image()
            recorded += 1
        return recorded
