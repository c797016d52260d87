"""DISPLAY QSTATUS, QMSTATUS and SBSTATUS: state worked out from the running model."""

from __future__ import annotations

import shutil
from typing import Any

from mqsh.commands.connections import application_values
from mqsh.commands.context import Context
from mqsh.commands.display import build_display, chosen_attributes, name_matches
from mqsh.commands.log import LINEAR_ONLY, log_values, queue_medialog
from mqsh.commands.objects import damaged, not_found
from mqsh.commands.qsg.copies import group_of
from mqsh.core.reasons import MQRC_CF_STRUC_FAILED, MQRC_ENVIRONMENT_ERROR, REASONS, MQError
from mqsh.language.validate import Command
from mqsh.model.installation import INSTALLATION_NAME, INSTALLATION_PATH
from mqsh.model.logspace import MB, megabytes
from mqsh.model.qsg.group_objects import shared_queues
from mqsh.model.qsg.repository import RepositoryUnavailable, SharedRepository
from mqsh.responses import Message, Result

# A queue file's ceiling with MAXFSIZE(DEFAULT), in megabytes, as DISPLAY QSTATUS shows it.
DEFAULT_MAX_FILE_MB = 2088960


def _file_megabytes(ctx: Context, queue) -> int:
    """CURFSIZE: the queue file's size, rounded up to whole megabytes (a file has at least one)."""
    try:
        size = ctx.qmgr.paths.object_file(queue.namespace, queue.name).stat().st_size
    except OSError:
        size = 0
    return max(1, megabytes(size))


def _monitoring(ctx: Context, attributes: dict[str, Any]) -> str:
    """MONQ as the queue has it, the queue manager's for MONQ(QMGR)."""
    monitoring = attributes.get("MONQ", "QMGR")
    if monitoring == "QMGR":
        qmgr_object = ctx.qmgr.qmgr_object
        monitoring = qmgr_object.attributes.get("MONQ", "OFF") if qmgr_object else "OFF"
    return monitoring


def _queue_status(ctx: Context, queue) -> dict[str, Any]:
    if queue.damaged:
        # Only where its media recovery starts is known of a damaged queue: the oldest MEDIALOG
        # of all is how the administrator finds it (the error log names it too, AMQ7472).
        return {"QUEUE": queue.name, "TYPE": "QUEUE", "MEDIALOG": queue_medialog(ctx.qmgr, queue)}
    uncommitted = ctx.qmgr.uncommitted(queue)
    maximum = queue.attributes.get("MAXFSIZE", "DEFAULT")
    return {
        "QUEUE": queue.name,
        "TYPE": "QUEUE",
        "CURDEPTH": ctx.qmgr.depth(queue),
        "CURFSIZE": _file_megabytes(ctx, queue),
        "CURMAXFS": DEFAULT_MAX_FILE_MB if maximum == "DEFAULT" else maximum,
        "MONQ": _monitoring(ctx, queue.attributes),
        "QTIME": " , ",  # no monitoring data collected: both averages blank
        # A LAB OPEN handle stands for an application with the queue open for input and output.
        "IPPROCS": ctx.qmgr.open_handles.get(queue.name, 0),
        "OPPROCS": ctx.qmgr.open_handles.get(queue.name, 0),
        "UNCOM": uncommitted if uncommitted else "NO",
        "MEDIALOG": queue_medialog(ctx.qmgr, queue),
    }


def _shared_queue_statuses(ctx: Context, pattern: str) -> list[dict[str, Any] | Message]:
    """A group member's view of the shared queues matching pattern: their depth and uncommitted messages
    in the structure (every member sees the same), this member's handles. A shared queue has no queue
    file and no media recovery, so CURFSIZE, CURMAXFS and MEDIALOG have nothing to say of it. A queue
    whose structure has failed has no depth to show (CURDEPTH(0) would read as its messages lost,
    when RECOVER CFSTRUCT may bring them back): it answers z/OS's failure, reason 2373
    (MQRC_CF_STRUC_FAILED), as the group's other commands answer a reason (a member's reply is in
    z/OS's form: mqsh.commands.qsg.member_replies)."""
    qsg = group_of(ctx)
    if qsg is None:
        return []
    try:
        with SharedRepository(ctx.installation.data_dir, qsg) as repository:
            queues = [queue for queue in shared_queues(repository) if name_matches(pattern, queue.name)]
    except RepositoryUnavailable:
        return []
    statuses: list[dict[str, Any] | Message] = []
    for queue in queues:
        try:
            uncommitted = ctx.qmgr.shared.structure(queue.cfstruct).uncommitted(queue.name)
        except MQError as error:
            if error.reason == MQRC_CF_STRUC_FAILED:
                statuses.append(Message(f"FAILURE MQRC={error.reason} ({REASONS[error.reason]})", "CSQM091E"))
                continue
            uncommitted = 0
        handles = ctx.qmgr.open_handles.get(queue.name, 0)
        statuses.append(
            {
                "QUEUE": queue.name,
                "TYPE": "QUEUE",
                "CURDEPTH": ctx.qmgr.shared.depth(queue.name, queue.cfstruct),
                "IPPROCS": handles,
                "OPPROCS": handles,
                "MONQ": _monitoring(ctx, queue.attributes),
                "QTIME": " , ",
                "UNCOM": uncommitted if uncommitted else "NO",
            }
        )
    return statuses


def _handle_status(ctx: Context, queue) -> list[dict[str, Any]]:
    """TYPE(HANDLE): one record per handle open on the queue, each the application's (LAB OPEN)."""
    application = ctx.qmgr.application
    if application is None:
        return []
    holder = application_values(ctx.qmgr, application)
    values = {
        **holder,
        "QUEUE": queue.name,
        "TYPE": "HANDLE",
        "URID": holder["EXTURID"],
        "HSTATE": "INACTIVE",
        "INPUT": "SHARED",
        "OUTPUT": "YES",
        "BROWSE": "NO",
        "INQUIRE": "NO",
        "SET": "NO",
    }
    return [values] * ctx.qmgr.open_handles.get(queue.name, 0)


def display_qstatus(ctx: Context, command: Command) -> Result:
    spec = ctx.catalogue.objects["QSTATUS"]
    queues = [
        queue
        for queue in ctx.qmgr.objects("QUEUE")
        if queue.object_type == "QLOCAL" and name_matches(command.name or "*", queue.name)
    ]
    kind = command.params.get("TYPE", "QUEUE")
    attributes = spec.variant(kind).attributes
    result = Result()
    # A damaged queue answers MQRC_OBJECT_DAMAGED, except to a display that asks where media recovery
    # would start: the oldest MEDIALOG is how the administrator finds the damaged object.
    medialog_asked = kind == "QUEUE" and "MEDIALOG" in chosen_attributes(command, spec, attributes)
    for queue in queues:
        if queue.damaged and not medialog_asked:
            result.responses += damaged(queue).responses
            result.ok = False
            continue
        for values in _handle_status(ctx, queue) if kind == "HANDLE" else [_queue_status(ctx, queue)]:
            record = build_display(ctx.catalogue, spec, command, values, attributes)
            if record is not None:
                result.responses.append(record)
    if kind == "QUEUE":
        for values in _shared_queue_statuses(ctx, command.name or "*"):
            if isinstance(values, Message):
                result.responses.append(values)
                result.ok = False
                continue
            record = build_display(ctx.catalogue, spec, command, values, attributes)
            if record is not None:
                result.responses.append(record)
    if not result.responses:
        return not_found(command.name or "")
    return result


# No application consumes a subscription's messages: its active connection id is all zeros.
NO_CONNECTION = "0" * 48


def display_sbstatus(ctx: Context, command: Command) -> Result:
    """DISPLAY SBSTATUS: each subscription as defined, never resumed by an application since its
    last change, and with no publication received (nothing publishes)."""
    spec = ctx.catalogue.objects["SBSTATUS"]
    result = Result()
    for sub in ctx.qmgr.objects("SUB"):
        if not name_matches(command.name or "*", sub.name):
            continue
        if sub.damaged:
            result.responses += damaged(sub).responses
            result.ok = False
            continue
        attributes = sub.attributes
        values = {
            "SUB": sub.name,
            "SUBID": attributes.get("SUBID", " "),
            "SUBUSER": attributes.get("SUBUSER", " "),
            "DURABLE": attributes.get("DURABLE", "YES"),
            "SUBTYPE": attributes.get("SUBTYPE", "ADMIN"),
            "RESMDATE": attributes.get("ALTDATE", " "),
            "RESMTIME": attributes.get("ALTTIME", " "),
            "LMSGDATE": " ",
            "LMSGTIME": " ",
            "ACTCONN": NO_CONNECTION,
            "MCASTREL": " , ",
            "NUMMSGS": 0,
        }
        record = build_display(ctx.catalogue, spec, command, values, spec.variant().attributes)
        if record is not None:
            result.responses.append(record)
    if not result.responses:
        return not_found(command.name or "")
    return result


def _processes(ctx: Context) -> dict[str, str]:
    """The channel initiator and the command server: started with the queue manager when its
    SCHINIT / SCMDSERV say QMGR, never after strmqm -ns."""
    qmgr = ctx.qmgr
    settings = qmgr.qmgr_object.attributes
    return {
        status: "RUNNING" if settings.get(start, "QMGR") == "QMGR" and not qmgr.no_services else "STOPPED"
        for status, start in (("CHINIT", "SCHINIT"), ("CMDSERV", "SCMDSERV"))
    }


def display_qmstatus(ctx: Context, command: Command) -> Result:
    if command.params.get("TYPE") == "NATIVEHA":
        return _native_ha_status(ctx, command)
    spec = ctx.catalogue.objects["QMSTATUS"]
    qmgr = ctx.qmgr
    data_dir = qmgr.paths.qmgr_dir
    disk = shutil.disk_usage(data_dir)
    values: dict[str, Any] = {
        **spec.variant().defaults,  # what a queue manager with no cluster, LDAP or standby shows
        "QMNAME": qmgr.name,
        "DATPATH": str(data_dir),
        "HOSTNAME": ctx.installation.host(qmgr.name),
        "INSTNAME": INSTALLATION_NAME,
        "INSTPATH": str(INSTALLATION_PATH),
        "QMFSSZ": disk.total // MB,
        "QMFSUSE": disk.used * 100 // disk.total if disk.total else 0,
        "CONNS": 1 + (qmgr.application is not None),  # mqsh's own, and the application's
        **_native_ha_instance(ctx),
        "STARTDA": f"{qmgr.started_at:%Y-%m-%d}" if qmgr.started_at else " ",
        "STARTTI": f"{qmgr.started_at:%H.%M.%S}" if qmgr.started_at else " ",
        **log_values(qmgr),
        **_processes(ctx),
    }
    # A circular log has none of the linear log's fields to show, but blank ones asked for by
    # name; QMFSENC (an encrypted file system) is the MQ Appliance's, which a queue manager on
    # Linux does not list.
    asked = set(command.selectors)
    attributes = tuple(
        name
        for name in spec.variant().attributes
        if (name in values or name not in LINEAR_ONLY or name in asked) and name != "QMFSENC"
    )
    if command.flag("LOG"):
        command.selectors.extend(
            name
            for name in attributes
            if name.startswith(("LOG", "CURR", "MEDIA", "REC", "ARCH", "REUSE", "DISK"))
        )
    record = build_display(ctx.catalogue, spec, command, values, attributes)
    return Result([record] if record else [])


def _native_ha_instance(ctx: Context) -> dict[str, str]:
    """TYPE(QMGR)'s INSTANCE and QUORUM on a replicated queue manager: its one instance, in sync."""
    if ctx.qmgr.log_type != "REPLICATED":
        return {}
    return {"INSTANCE": ctx.installation.host(ctx.qmgr.name), "QUORUM": "1/1"}


def _native_ha_status(ctx: Context, command: Command) -> Result:
    """TYPE(NATIVEHA): a record per instance of a replicated queue manager. mqsh runs its one
    instance (named after its host, as dspmq -o nativeha shows it), the active one and in sync
    with itself: everything it wrote is acknowledged, so ACKLSN is the last LSN on disk.

    A queue manager whose log is not replicated has no Native HA status. IBM documents no words
    for that answer: it fails with the reason code of a request not valid in this
    environment (2012), which runmqsc reports as AMQ8101S, as for any request failed with a reason."""
    qmgr = ctx.qmgr
    if qmgr.log_type != "REPLICATED":
        raise MQError(MQRC_ENVIRONMENT_ERROR)
    spec = ctx.catalogue.objects["QMSTATUS"]
    variant = spec.variant("NATIVEHA")
    instance = _native_ha_instance(ctx)["INSTANCE"]
    wanted = command.params.get("NHATYPE")
    if wanted not in (None, "*", "ALL") and wanted.lower() != instance:
        # No instance of that name: IBM documents no words for it; answered as a display that finds nothing.
        return not_found(wanted)
    values: dict[str, Any] = {
        **variant.defaults,
        "QMNAME": qmgr.name,
        "INSTANCE": instance,
        "ROLE": "ACTIVE",
        "INSYNC": "YES",
        "CONNACTV": "YES",
        "BACKLOG": 0,
        "ACKLSN": log_values(qmgr)["DISKLSN"],
        "REPLADDR": instance,  # the replication port is not modelled
    }
    record = build_display(ctx.catalogue, spec, command, values, variant.attributes)
    return Result([record] if record else [])
