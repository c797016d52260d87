"""Native HA (replicated log): damaged objects recover themselves, asynchronously.

When a replicated queue manager notices a damaged object it schedules its
media recovery at once. The attempt runs before the next command; it waits
while the object is in use (a handle open on it, LAB OPEN) or while the log
extents it needs are unavailable, and then retries every RETRY of simulated
time, until it succeeds or the object is deleted or re-created by hand
(rcrmqobj). Each attempt and its outcome go to the error log, and the recovery
that succeeds is kept for LAB EXPLAIN as rcrmqobj's is - what it read, each
queue's ledger - with when the damage was noticed and the attempts deferred.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from mqsh.core.clock import TIMESTAMP, Clock
from mqsh.core.damage import error_log_type
from mqsh.core.objects import MQObject
from mqsh.recovery.media.recreate import NoMediaImage
from mqsh.recovery.spark.session import ReplayCancelled, SparkUnavailable
from mqsh.store.errorlog import ErrorLog
from mqsh.store.log import ExtentMissing, LogCorrupt

RETRY = timedelta(minutes=1)

# Error-log message ids of the recovery steps (ids unverified; the texts follow MQ's shape).
SCHEDULED, DEFERRED, RECOVERED = "AMQ7495I", "AMQ7496W", "AMQ7497I"


class Recovering(Protocol):
    """What automatic recovery reads and does: the queue manager's media images (mqsh.model.images)."""

    clock: Clock
    errors: ErrorLog
    log_type: str
    state: dict[str, MQObject]

    def in_use(self, obj: MQObject) -> bool: ...

    def recreate_explained(self, keys: list[str], kind: str, cause: str = "") -> list[MQObject]: ...


@dataclass
class Attempts:
    """An object's automatic recovery so far: when it was scheduled, the attempts deferred and why."""

    scheduled: datetime
    deferred: int = 0
    last_reason: str = ""

    def cause(self) -> str:
        """How the recovery came to run, as LAB EXPLAIN tells it."""
        waited = (
            ""
            if not self.deferred
            else f"; {self.deferred} attempt{'s' if self.deferred > 1 else ''} deferred before it ({self.last_reason})"
        )
        return f"scheduled at {self.scheduled:{TIMESTAMP}}, when the damage was noticed{waited}"


class AutoRecovery:
    def __init__(self, media: Recovering):
        self.media = media
        self.due: dict[str, datetime] = {}  # object key -> time of the next attempt
        self.attempts: dict[str, Attempts] = {}

    def schedule_all(self, objects: Iterable[MQObject]) -> None:
        """Schedule recovery of damaged objects (replicated logs only; others wait for rcrmqobj)."""
        media = self.media
        if media.log_type != "REPLICATED":
            return
        for obj in objects:
            if obj.key not in self.due and obj.object_type != "QMGR":
                self.due[obj.key] = media.clock.now()
                self.attempts[obj.key] = Attempts(self.due[obj.key])
                media.errors.write(
                    SCHEDULED,
                    f"Automatic media recovery of object {obj.name}, type {error_log_type(obj)} scheduled.",
                )

    def forget(self, key: str) -> None:
        self.due.pop(key, None)
        self.attempts.pop(key, None)

    def run(self) -> None:
        if not self.due:
            return  # before each command: almost always nothing to do
        media = self.media
        now = media.clock.now()
        for key, when in sorted(self.due.items()):
            obj = media.state.get(key)
            if obj is None or not obj.damaged:
                self.forget(key)
                continue
            if now >= when:
                self._attempt(obj, now)

    def _attempt(self, obj: MQObject, now: datetime) -> None:
        media = self.media
        what = f"object {obj.name}, type {error_log_type(obj)}"
        reason = "the object is in use" if media.in_use(obj) else None
        if reason is None:
            try:
                media.recreate_explained([obj.key], "automatic", self.attempts[obj.key].cause())
                media.errors.write(
                    RECOVERED,
                    f"Automatic media recovery of {what} completed: "
                    "the object was re-created from its media image.",
                )
                return
            except ExtentMissing as error:
                reason = f"log file {error.extent} could not be opened for use"
            except LogCorrupt as error:
                reason = f"log file {error.extent} is damaged: {error.problem}"
            except NoMediaImage:
                reason = "the log holds no media image of it"
            except (SparkUnavailable, ReplayCancelled) as error:  # a long log's replay, on Spark
                reason = str(error).rstrip(".")
        self.due[obj.key] = now + RETRY
        self.attempts[obj.key].deferred += 1
        self.attempts[obj.key].last_reason = reason
        media.errors.write(
            DEFERRED,
            f"Automatic media recovery of {what} deferred: {reason}. "
            f"It will be retried in {int(RETRY.total_seconds())} seconds.",
        )
