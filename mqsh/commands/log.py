"""The recovery log as an administrator sees it.

DISPLAY QMSTATUS's log fields (RECLOG, MEDIALOG, CURRLOG, ARCHLOG, sizes and
usage), DISPLAY QSTATUS's MEDIALOG, SET LOG ARCHIVED and RESET QMGR's log
types (ADVANCELOG, ARCHLOG, REDUCELOG).
"""

from __future__ import annotations

from typing import Any

from mqsh.commands.context import Context
from mqsh.core.objects import MQObject
from mqsh.language.validate import Command
from mqsh.model.logspace import megabytes
from mqsh.model.qmgr import QueueManager
from mqsh.recovery.media.coverage import recoverable
from mqsh.responses import Result
from mqsh.store.log import extent_number

# Fields a circular log does not show at all: DISPLAY QMSTATUS ALL on a circular
# queue manager lists none of them (the extents restart and media recovery need, and
# those waiting to be archived, are a linear log's).
LINEAR_ONLY = ("ARCHLOG", "ARCHSZ", "CURRLOG", "MEDIALOG", "MEDIASZ", "RECLOG", "RECSZ")

EXTENT_HEADER_KB = 8


def lsn_text(lsn: int) -> str:
    """An LSN as MQ prints it: four 16-bit parts, most significant first."""
    lsn = max(lsn, 0)
    return f"<{lsn >> 48 & 0xFFFF}:{lsn >> 32 & 0xFFFF}:{lsn >> 16 & 0xFFFF}:{lsn & 0xFFFF}>"


def log_values(qmgr: QueueManager) -> dict[str, Any]:
    """Every log field of DISPLAY QMSTATUS for a running queue manager."""
    space, writer = qmgr.space, qmgr.log
    assert space is not None and writer is not None
    config = space.config
    current = writer.extent
    extents = space.extents()
    reclog, medialog = space.reclog(), space.medialog()
    awaiting = space.awaiting_archive(current)
    reusable = space.reusable(current)
    restart_bytes = space.size_of([number for number in extents if reclog is not None and number >= reclog])
    in_use = min(100, restart_bytes * 100 // (config.primary * config.extent_bytes))
    start = qmgr.checkpoints.log_start
    started = str(start.get("time", ""))
    values: dict[str, Any] = {
        "LOGTYPE": config.log_type,
        "LOGPATH": str(space.directory) + "/",
        "LOGPRIM": config.primary,
        "LOGSEC": config.secondary,
        # An MQ extent is its LogFilePages of records and two 4 KB header pages: real output shows
        # LOGEXTSZ(16392) for the default 4096 pages.
        "LOGEXTSZ": config.extent_bytes // 1024 + EXTENT_HEADER_KB,
        "CURRLOG": space.name(current),
        "RECLOG": space.name(reclog),
        "MEDIALOG": space.name(medialog),
        "ARCHLOG": space.name(awaiting[0]) if awaiting else " ",
        "ARCHSZ": megabytes(space.size_of([number for number in awaiting if number in reusable])),
        "RECSZ": megabytes(restart_bytes),
        "MEDIASZ": megabytes(space.size_of([n for n in extents if medialog is not None and n >= medialog])),
        "REUSESZ": megabytes(space.size_of(reusable)) if config.circular else 0,
        "LOGINUSE": in_use,
        "LOGUTIL": in_use,
        "LOGFSSZ": megabytes(config.fs_bytes) if config.fs_bytes else "SHARED",
        "LOGFSUSE": space.usage() * 100 // config.fs_bytes if config.fs_bytes else "SHARED",
        "DISKLSN": lsn_text(writer.next_lsn - 1),
        "LOGSTRL": lsn_text(int(start.get("lsn", 0))),
        "LOGSTRDA": started[:10],
        "LOGSTRTI": started[11:19],  # with colons, unlike STARTTI: MQ prints it so
        "CHKPTCNT": qmgr.checkpoints_taken,
        "CHKPTOPS": qmgr.since_checkpoint,
        "CHKPTSZ": qmgr.checkpoint_every,
    }
    if config.circular:
        for name in LINEAR_ONLY:
            del values[name]
    return values


def queue_medialog(qmgr: QueueManager, queue: MQObject) -> str:
    """DISPLAY QSTATUS MEDIALOG: the extent holding the queue's media recovery record."""
    qmgr_object = qmgr.qmgr_object
    if (
        qmgr.space is None
        or queue.key not in qmgr.media
        or not recoverable(qmgr.log_type, qmgr_object.attributes if qmgr_object else {}, queue)
    ):
        return " "
    return qmgr.space.name(qmgr.space.extent_of(qmgr.media[queue.key]))


def _say(ctx: Context, kind: str, ok: bool = True, **inserts: str) -> Result:
    spec = ctx.catalogue.objects["LOG"].message(kind)
    assert spec is not None
    return Result.message(spec.text.format(**inserts), spec.id, ok=ok)


def archive_notification(ctx: Context, name: str, up_to: bool = False) -> Result:
    """SET LOG ARCHIVED(name), and RESET QMGR TYPE(ARCHLOG) ARCHIVED(name) (up_to: every extent up to it).

    Any extent but the current one may be notified, in any order, even one
    still needed for restart or media recovery (it is kept until it is not).
    """
    qmgr = ctx.qmgr
    space, writer = qmgr.space, qmgr.log
    assert space is not None and writer is not None
    if space.config.management != "ARCHIVE":
        return _say(ctx, "not_archive", ok=False)
    extent = name.upper()
    number = extent_number(extent)
    if number is None or number not in space.extents():
        return _say(ctx, "not_found", ok=False, extent=extent)
    if number == writer.extent:
        return _say(ctx, "current", ok=False, extent=extent)
    numbers = [extent for extent in space.extents() if extent <= number] if up_to else [number]
    if not space.mark_archived(numbers):
        qmgr.errors.write(
            "AMQ7482W",
            f"Log extent {extent} was already marked as archived.",
            "A second archive notification was received for the same extent.",
            "None: the notification is ignored.",
        )
    space.release(writer.extent)
    return _say(ctx, "set")


def set_log(ctx: Context, command: Command) -> Result:
    return archive_notification(ctx, command.params["ARCHIVED"])


def reset_qmgr(ctx: Context, command: Command) -> Result:
    kind = command.params.get("TYPE")
    qmgr = ctx.qmgr
    if kind == "ARCHLOG":
        if "ARCHIVED" not in command.params:
            return Result.failure("RESET QMGR TYPE(ARCHLOG) needs ARCHIVED(extent).", "AMQ8427E")
        return archive_notification(ctx, command.params["ARCHIVED"], up_to=True)
    if kind in ("ADVANCELOG", "REDUCELOG"):
        if qmgr.log_type == "CIRCULAR" and kind == "ADVANCELOG":
            return _say(ctx, "circular", ok=False)
        if kind == "ADVANCELOG":
            qmgr.advance_log()
        else:
            assert qmgr.space is not None and qmgr.log is not None
            qmgr.space.release(qmgr.log.extent)
        spec = ctx.catalogue.objects["QMGR"].message("reset")
        assert spec is not None
        return Result.message(spec.text, spec.id)
    return Result.failure(
        f"mqsh does not carry out RESET QMGR TYPE({kind}) yet; the command is valid MQSC.", "AMQ8698E"
    )
