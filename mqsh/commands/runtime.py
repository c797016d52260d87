"""START and STOP of channels, listeners and services, DISPLAY CHSTATUS, and PING QMGR.

No network traffic is modelled: starting records the object as running so that
status displays and STOP have something to act on.
"""

from __future__ import annotations

from mqsh.commands.context import Context
from mqsh.commands.display import build_display, name_matches
from mqsh.commands.objects import catalogue_failure, ignoring_state, not_found
from mqsh.language.validate import Command
from mqsh.model.objects import namespace_of
from mqsh.responses import Result

ACCEPTED = {
    ("START", "CHANNEL"): ("AMQ8018I", "Start IBM MQ channel accepted."),
    ("STOP", "CHANNEL"): ("AMQ8019I", "Stop IBM MQ channel accepted."),
    ("START", "LISTENER"): ("AMQ8021I", "Request to start IBM MQ listener accepted."),
    ("STOP", "LISTENER"): ("AMQ8706I", "Request to stop IBM MQ listener accepted."),
    ("START", "SERVICE"): ("AMQ8733I", "Request to start Service accepted."),
    ("STOP", "SERVICE"): ("AMQ8734I", "Request to stop Service accepted."),
}


def start_stop(ctx: Context, command: Command) -> Result:
    obj = ctx.catalogue.objects[command.target]
    found = ctx.qmgr.lookup(namespace_of(obj.name, obj.family), command.name or "")
    if found is None:
        if obj.name == "CHANNEL":
            return Result.failure(f"Channel {command.name} not found.", "AMQ8227E")
        return not_found(command.name or "")
    running = ctx.qmgr.running_objects
    key = found.key
    if command.verb == "STOP" and key not in running:
        if obj.name == "LISTENER":
            return ignoring_state(command, Result.failure("Listener not active.", "AMQ8731W"))
        if obj.name == "CHANNEL":
            return ignoring_state(command, Result.failure("Channel not active.", "AMQ9533E"))
    if command.verb == "START":
        running.add(key)
    else:
        running.discard(key)
    msgid, text = ACCEPTED[(command.verb, obj.name)]
    return Result.message(text, msgid)


def display_chstatus(ctx: Context, command: Command) -> Result:
    """The channels START CHANNEL set running, each running (there is no partner to wait
    for); none gives AMQ8420I, as a queue manager whose channels are all inactive does."""
    spec = ctx.catalogue.objects["CHSTATUS"]
    result = Result()
    for channel in ctx.qmgr.objects("CHANNEL"):
        if channel.key not in ctx.qmgr.running_objects or not name_matches(command.name or "*", channel.name):
            continue
        kind = channel.attributes.get("CHLTYPE", "")
        attributes = spec.variant(kind).attributes
        # What the instance runs with comes from the definition (BATCHSZ, HBINT, XMITQ ...).
        values = {name: value for name, value in channel.attributes.items() if name in attributes}
        values.update({"CHANNEL": channel.name, "CURRENT": True, "STATUS": "RUNNING", "MCASTAT": "RUNNING",
                       "STOPREQ": "NO"})
        record = build_display(ctx.catalogue, spec, command, values, attributes)
        if record is not None:
            result.responses.append(record)
    return result if result.responses else catalogue_failure(ctx, "CHSTATUS", "notfound")


def ping_qmgr(ctx: Context, command: Command) -> Result:
    return Result.message("Ping IBM MQ Queue Manager command complete.", "AMQ8415I")
