"""Logger events: SYSTEM.ADMIN.LOGGER.EVENT under ALTER QMGR LOGGEREV(ENABLED), on a linear log.

MQ issues one when the queue manager starts writing to a new log extent, and when LOGGEREV
changes from DISABLED to ENABLED. Its data (IBM's "Logger" event, reason 2411
MQRC_LOGGER_STATUS) names the queue manager, the current extent, the oldest extent restart
recovery needs, the oldest media recovery needs, and the directory of the log.

A new extent starts inside a log write, in the middle of a change; the event's own put is a
logged change too, so it waits for the point where that change is done - where a checkpoint
may be taken (mqsh.model.checkpoints), after RESET QMGR TYPE(ADVANCELOG), or before the next
command - and only once the queue manager has started.
"""

from __future__ import annotations

from typing import Any, Protocol

from mqsh.core.objects import MQObject
from mqsh.model.events import LOGGER_EVENT, EventSource, put_event
from mqsh.model.logspace import LogSpace
from mqsh.store.log_writer import LogWriter


class LoggingQmgr(EventSource, Protocol):
    """The queue manager, as a logger event sees it (its log is None until open)."""

    log_type: str
    space: LogSpace | None
    log: LogWriter | None
    qmgr_object: MQObject | None


LOGGER_QUEUE = "SYSTEM.ADMIN.LOGGER.EVENT"
LOGGER_STATUS = 2411  # MQRC_LOGGER_STATUS


def enabled(attributes: dict[str, Any]) -> bool:
    return attributes.get("LOGGEREV") == "ENABLED"


class LoggerEvents:
    def __init__(self, qmgr: LoggingQmgr):
        self.qmgr = qmgr
        self.due = False  # a new extent started, or the events were enabled, since the last event
        self.started = False  # the queue manager has started: events may be put

    def extent_started(self, _number: int) -> None:
        self.due = True

    def setting_changed(self, before: dict[str, Any], after: dict[str, Any]) -> None:
        """The queue manager object changed: enabling the events issues one at once."""
        if enabled(after) and not enabled(before):
            self.due = True

    def flush(self) -> None:
        """The event, if one is due and LOGGEREV is ENABLED on a linear log."""
        if not (self.due and self.started):
            return
        self.due = False
        qmgr = self.qmgr
        space, writer, qmgr_object = qmgr.space, qmgr.log, qmgr.qmgr_object
        if (
            qmgr.log_type != "LINEAR"
            or space is None
            or writer is None
            or qmgr_object is None
            or not enabled(qmgr_object.attributes)
        ):
            return
        # amqsevt's labels for these parameters are not in the sources at hand: they are formed from
        # the PCF parameter names (MQCACF_CURRENT_LOG_EXTENT_NAME ...), as amqsevt forms its labels.
        put_event(
            qmgr,
            LOGGER_QUEUE,
            LOGGER_EVENT,
            LOGGER_STATUS,
            [
                ["Queue Manager Name", qmgr.name],
                ["Current Log Extent Name", space.name(writer.extent)],
                ["Restart Log Extent Name", space.name(space.reclog())],
                ["Media Log Extent Name", space.name(space.medialog())],
                ["Log Path", str(space.directory) + "/"],
            ],
        )
