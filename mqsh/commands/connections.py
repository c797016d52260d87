"""DISPLAY CONN and STOP CONN: the application connected to the queue manager.

The one application is the one the LAB controls stand in for
(mqsh.model.connections). It runs in mqsh's process, under the user running
mqsh, bound to the queue manager (no client channel).
"""

from __future__ import annotations

import os
import threading
from typing import Any

from mqsh.commands.context import Context
from mqsh.commands.display import build_display, name_matches
from mqsh.commands.objects import not_found
from mqsh.core.clock import mq_date, mq_time
from mqsh.language.validate import Command
from mqsh.model.connections import Connection
from mqsh.model.qmgr import QueueManager
from mqsh.responses import Result
from mqsh.store.identity import APPLICATION, process_user

# What a LAB OPEN handle is opened for: input and output, as the queue defines them.
OPEN_OPTIONS = "MQOO_INPUT_AS_Q_DEF,MQOO_OUTPUT,MQOO_FAIL_IF_QUIESCING"


def _unit_of_work(qmgr: QueueManager, connection: Connection) -> dict[str, Any]:
    """The UOW fields: its state, when it began, and the log extent it first wrote to (UOWLOG)."""
    if qmgr.uow is None or connection.uow_started is None or qmgr.space is None:
        return {
            "UOWSTATE": "NONE",
            "QMURID": "0.0",
            "UOWLOG": " ",
            "UOWSTDA": " ",
            "UOWSTTI": " ",
            "UOWLOGDA": " ",
            "UOWLOGTI": " ",
        }
    first_lsn, sequence = qmgr.uow.split(".")
    started = connection.uow_started
    return {
        "UOWSTATE": "ACTIVE",
        "QMURID": f"0.{sequence}",
        "UOWLOG": qmgr.space.name(qmgr.space.extent_of(int(first_lsn))),
        "UOWSTDA": mq_date(started),
        "UOWSTTI": mq_time(started),
        "UOWLOGDA": mq_date(started),
        "UOWLOGTI": mq_time(started),
    }


def application_values(qmgr: QueueManager, connection: Connection) -> dict[str, Any]:
    """What DISPLAY CONN TYPE(CONN) and DISPLAY QSTATUS TYPE(HANDLE) both say of the application."""
    return {
        "PID": os.getpid(),
        "TID": threading.main_thread().native_id,
        "APPLDESC": " ",
        "APPLTAG": APPLICATION,
        "APPLTYPE": "USER",
        "ASTATE": "NONE",
        "CHANNEL": " ",
        "CLIENTID": " ",
        "CONNAME": " ",
        "CONNOPTS": "MQCNO_SHARED_BINDING",
        "USERID": process_user(),
        "URTYPE": "QMGR",
        "EXTURID": "XA_FORMATID[] XA_GTRID[] XA_BQUAL[]",
        **_unit_of_work(qmgr, connection),
    }


def _connection_values(qmgr: QueueManager, connection: Connection) -> dict[str, Any]:
    return {
        "CONN": connection.conn,
        "EXTCONN": connection.extconn,
        "TYPE": "CONN",
        **application_values(qmgr, connection),
    }


def _handle_values(connection: Connection, queue: str) -> dict[str, Any]:
    return {
        "CONN": connection.conn,
        "EXTCONN": connection.extconn,
        "TYPE": "HANDLE",
        "OBJNAME": queue,
        "OBJTYPE": "QUEUE",
        "ASTATE": "NONE",
        "HSTATE": "INACTIVE",
        "OPENOPTS": OPEN_OPTIONS,
        "READA": "NO",
    }


def display_conn(ctx: Context, command: Command) -> Result:
    """DISPLAY CONN: TYPE(CONN) (the default) the connection, TYPE(HANDLE) one record per open
    handle, TYPE(ALL) or TYPE(*) both."""
    spec = ctx.catalogue.objects["CONN"]
    connection = ctx.qmgr.application
    if connection is None or not name_matches(command.name or "*", connection.conn):
        return not_found(command.name or "")
    kind = command.params.get("TYPE", "CONN")
    kind = "ALL" if kind == "*" else kind  # DISPLAY CONN's syntax diagram offers TYPE(*) beside TYPE(ALL)
    records = []
    if kind in ("CONN", "ALL"):
        records.append((_connection_values(ctx.qmgr, connection), spec.variant("CONN").attributes))
    if kind in ("HANDLE", "ALL"):
        for queue, count in sorted(ctx.qmgr.open_handles.items()):
            records += [(_handle_values(connection, queue), spec.variant("HANDLE").attributes)] * count
    result = Result()
    for values, attributes in records:
        record = build_display(ctx.catalogue, spec, command, values, attributes)
        if record is not None:
            result.responses.append(record)
    return result


def stop_conn(ctx: Context, command: Command) -> Result:
    """STOP CONN(id): the connection is broken; its unit of work is backed out, its handles closed."""
    connection = ctx.qmgr.application
    if connection is None or command.name != connection.conn:
        return not_found(command.name or "")
    ctx.qmgr.units.disconnect_application()
    stopped = ctx.catalogue.objects["CONN"].message("stopped")
    return Result.message(stopped.text, stopped.id)
