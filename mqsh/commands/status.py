"""DISPLAY QSTATUS and DISPLAY QMSTATUS: state worked out from the running model."""

from __future__ import annotations

from typing import Any

from mqsh.commands.context import Context
from mqsh.commands.display import build_display, name_matches
from mqsh.commands.objects import damaged, not_found
from mqsh.language.validate import Command
from mqsh.responses import Result


def _queue_status(ctx: Context, queue) -> dict[str, Any]:
    uncommitted = ctx.qmgr.uncommitted(queue)
    return {
        "QUEUE": queue.name,
        "TYPE": "QUEUE",
        "CURDEPTH": ctx.qmgr.depth(queue),
        "IPPROCS": 0,
        "OPPROCS": 0,
        "UNCOM": uncommitted if uncommitted else "NO",
        "MEDIALOG": " ",
    }


def display_qstatus(ctx: Context, command: Command) -> Result:
    spec = ctx.catalogue.objects["QSTATUS"]
    queues = [queue for queue in ctx.qmgr.objects("QUEUE")
              if queue.object_type == "QLOCAL" and name_matches(command.name or "*", queue.name)]
    result = Result()
    for queue in queues:
        if queue.damaged:
            result.responses += damaged(queue.name).responses
            result.ok = False
            continue
        record = build_display(ctx.catalogue, spec, command, _queue_status(ctx, queue), spec.variant().attributes)
        if record is not None:
            result.responses.append(record)
    if not result.responses:
        return not_found(command.name or "")
    return result


def display_qmstatus(ctx: Context, command: Command) -> Result:
    spec = ctx.catalogue.objects["QMSTATUS"]
    qmgr = ctx.qmgr
    log = qmgr.log
    settings = qmgr.log_settings
    values: dict[str, Any] = {
        "QMNAME": qmgr.name,
        "TYPE": "QMGR",
        "STATUS": "RUNNING",
        "LOGTYPE": qmgr.log_type,
        "LOGPATH": str(qmgr.paths.log_dir) + "/",
        "LOGPRIM": int(settings.get("LogPrimaryFiles", 3)),
        "LOGSEC": int(settings.get("LogSecondaryFiles", 2)),
        "LOGEXTSZ": qmgr.extent_bytes // 1024,
        "CURRLOG": log.current_extent if log else " ",
        "DATPATH": str(qmgr.paths.qmgr_dir),
        "CONNS": 1,
        "CMDSERV": "RUNNING",
        "CHINIT": "RUNNING",
    }
    if command.flag("LOG"):
        command.selectors.extend(name for name in spec.variant().attributes
                                 if name.startswith(("LOG", "CURR", "MEDIA", "REC", "ARCH", "REUSE", "DISK")))
    record = build_display(ctx.catalogue, spec, command, values, spec.variant().attributes)
    return Result([record] if record else [])
