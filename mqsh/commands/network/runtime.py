"""START and STOP of channels, listeners and services, their status displays, and PING QMGR.

Starting a listener or service records it as running (and when), so that status displays,
STOP and the channels that look for a listener have something to act on; it runs inside
mqsh, so its PID is mqsh's. Channels have their own status table (mqsh.commands.network.channel_status).
"""

from __future__ import annotations

import os

from mqsh.commands.context import Context
from mqsh.commands.display import build_display, name_matches
from mqsh.commands.network import channel_status
from mqsh.commands.objects import catalogue_failure, ignoring_state, not_found
from mqsh.core.clock import mq_date, mq_time
from mqsh.core.objects import MQObject, namespace_of
from mqsh.language.validate import Command
from mqsh.responses import Result

# The status display of each kind of object START runs, and the object it shows.
STATUS_OF = {"LSSTATUS": "LISTENER", "SVSTATUS": "SERVICE"}


def start_stop(ctx: Context, command: Command) -> Result:
    obj = ctx.catalogue.objects[command.target]
    found = ctx.qmgr.lookup(namespace_of(obj.name, obj.family), command.name or "")
    if found is None and obj.name == "CHANNEL":
        found = _auto_defined(ctx, command.name or "")
    if found is None:
        if obj.name == "CHANNEL":
            return Result.failure(f"Channel {command.name} not found.", "AMQ8227E")
        return not_found(command.name or "")
    if obj.name == "CHANNEL":
        return channel_status.start_stop(ctx, command, found)
    running = ctx.qmgr.running_objects
    key = found.key
    if command.verb == "STOP" and key not in running and obj.message("notactive"):
        return ignoring_state(command, catalogue_failure(ctx, obj.name, "notactive"))
    active = obj.message("active")
    if command.verb == "START" and key in running and active is not None:
        # Already running: an error, except that IGNSTATE(YES) counts it as done.
        return ignoring_state(command, Result.failure(active.text.format(name=found.name), active.id))
    if command.verb == "START":
        running.setdefault(key, ctx.qmgr.clock.now())
    else:
        running.pop(key, None)
    started = obj.message("started" if command.verb == "START" else "stopped")
    return Result.message(started.text, started.id)


def _auto_defined(ctx: Context, name: str) -> MQObject | None:
    """A cluster-sender channel the queue manager defined for itself from a CLUSRCVR record: START
    and STOP act on it as on a defined one."""
    attributes = ctx.installation.clusters.sender_definition(ctx.qmgr, name)
    return MQObject("CHANNEL", name, attributes, "CHANNEL") if attributes is not None else None


def display_status(ctx: Context, command: Command) -> Result:
    """DISPLAY CHSTATUS, LSSTATUS or SVSTATUS: the objects START set running, each running.

    What an instance runs with comes from its definition (a listener's PORT, a
    service's STARTCMD ...). None running gives the status's "not
    found" message, as a queue manager with nothing of that kind running does.
    """
    spec = ctx.catalogue.objects[command.target]
    shows = STATUS_OF[command.target]
    result = Result()
    for found in ctx.qmgr.objects(shows):
        started = ctx.qmgr.running_objects.get(found.key)
        if started is None or not name_matches(command.name or "*", found.name):
            continue
        variant = spec.variant(None)
        values = {name: value for name, value in found.attributes.items() if name in variant.attributes}
        values.update(
            {
                shows: found.name,
                "STATUS": "RUNNING",
                "PID": os.getpid(),
                "STARTDA": mq_date(started),
                "STARTTI": mq_time(started),
            }
        )
        record = build_display(ctx.catalogue, spec, command, values, variant.attributes)
        if record is not None:
            result.responses.append(record)
    return result if result.responses else catalogue_failure(ctx, command.target, "notfound")


def ping_qmgr(ctx: Context, command: Command) -> Result:
    return Result.message("Ping IBM MQ Queue Manager command complete.", "AMQ8415I")
