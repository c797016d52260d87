"""START and STOP CHANNEL, and DISPLAY CHSTATUS: the channel instances of mqsh.model.network.

START of a sender (or of a server with a CONNAME) makes it try to connect after the command (and
again as its retries fall due); START of a requester makes it call its partner; START of a
receiver, or of a server without CONNAME, only enables it (MQ's words for those: "the only
action is to enable the channel"). STOP leaves it STOPPED - shown as such, refusing to run -
until the next START, as MQ's STOP CHANNEL does by default. A receiving channel runs while a
sender reaches it; stopped, it refuses them.
"""

from __future__ import annotations

import os

from mqsh.commands.context import Context
from mqsh.commands.display import build_display, name_matches
from mqsh.commands.objects import catalogue_failure, ignoring_state
from mqsh.core.clock import mq_date, mq_time
from mqsh.core.objects import MQObject
from mqsh.language.validate import Command
from mqsh.model.network import events, retry, transfer
from mqsh.model.network.state import (
    RECEIVER,
    REQUESTER,
    RETRYING,
    RUNNING,
    SENDER,
    STARTING,
    STOPPED,
    ChannelState,
)
from mqsh.model.network.triggers import initiates
from mqsh.responses import Result

# What the message channel agent is doing, as MQ's SUBSTATE shows a running channel.
SUBSTATES = {SENDER: "MQGET", RECEIVER: "RECEIVE"}


def start_stop(ctx: Context, command: Command, found: MQObject) -> Result:
    obj = ctx.catalogue.objects["CHANNEL"]
    states = ctx.qmgr.channel_states
    state = states.get(found.name)
    chltype = found.attributes.get("CHLTYPE")
    if command.verb == "STOP":
        if state is None or state.status == STOPPED:
            return ignoring_state(command, catalogue_failure(ctx, "CHANNEL", "notactive"))
        state.status = STOPPED
        ctx.qmgr.errors.write("AMQ9528I", f"User requested closure of channel '{found.name}'.")
        events.put_event(ctx.qmgr, events.STOPPED_BY_USER, found.name, events.STOPPED_DISABLED)
    else:
        if state is not None and state.status != STOPPED:
            active = obj.message("active")
            return ignoring_state(command, Result.failure(active.text.format(name=found.name), active.id))
        if initiates(found.attributes) or chltype == "CLUSSDR":
            states[found.name] = ChannelState(SENDER, STARTING, ctx.qmgr.clock.now())
        elif chltype == "RQSTR":
            states[found.name] = ChannelState(REQUESTER, STARTING, ctx.qmgr.clock.now())
        else:  # a receiver, or a server with no CONNAME: enabled, it answers its partner again
            states.pop(found.name, None)
        if ctx.qmgr.no_services and found.name in states:
            _waits_for_channel_initiator(ctx, found.name)
    done = obj.message("started" if command.verb == "START" else "stopped")
    return Result.message(done.text, done.id)


def shown_status(ctx: Context, status: str) -> str:
    """STARTING is shown as the first try's RETRYING, except while no channel initiator can take the
    request up (strmqm -ns): then MQ's STARTING, "waiting to become active"."""
    return RETRYING if status == STARTING and not ctx.qmgr.no_services else status


def _waits_for_channel_initiator(ctx: Context, name: str) -> None:
    """Under strmqm -ns MQ accepts the request (AMQ8018I) but no channel initiator takes it up:
    the channel stays STARTING, not retrying, and the error log says why once. IBM documents no
    error-log id or words for it (MQRCCF_CHANNEL_INITIATOR_ERROR, 3218, is the PCF reason for
    "no suitable channel initiator"): chosen in MQ's style (docs/messages.md lists it)."""
    ctx.qmgr.errors.write(
        "AMQ9590W",
        f"Channel '{name}' cannot start: the channel initiator is not running.",
        "The queue manager was started with strmqm -ns, which starts no channel initiator. "
        "The request to start the channel waits until the queue manager is started again "
        "without -ns.",
    )


def display(ctx: Context, command: Command) -> Result:
    spec = ctx.catalogue.objects["CHSTATUS"]
    result = Result()
    for name, state in sorted(ctx.qmgr.channel_states.items()):
        attributes = _attributes(ctx, name)
        if attributes is None or not name_matches(command.name or "*", name):
            continue
        variant = spec.variant(attributes.get("CHLTYPE"))
        values = {key: value for key, value in attributes.items() if key in variant.attributes}
        values.update(_status_values(ctx, name, state, attributes))
        record = build_display(ctx.catalogue, spec, command, values, variant.attributes)
        if record is not None:
            result.responses.append(record)
    return result if result.responses else catalogue_failure(ctx, "CHSTATUS", "notfound")


def _attributes(ctx: Context, name: str) -> dict | None:
    """The channel's definition; a cluster-sender's as it runs (auto-defined from the target's
    CLUSRCVR record, or merged with it), with the cluster transmission queue."""
    found = ctx.qmgr.lookup("CHANNEL", name)
    if found is not None and found.attributes.get("CHLTYPE") != "CLUSSDR":
        return found.attributes
    return ctx.installation.clusters.sender_definition(ctx.qmgr, name)


def _status_values(ctx: Context, name: str, state: ChannelState, attributes: dict) -> dict:
    running = state.status == RUNNING
    # A sender not running shows where it will try next: its definition's CONNAME as it is now.
    conname = attributes.get("CONNAME", "") if state.role == SENDER and not running else ""
    values = {
        "CHANNEL": name,
        "STATUS": shown_status(ctx, state.status),
        "CONNAME": conname or state.conname or attributes.get("CONNAME", ""),
        "RQMNAME": state.partner,
        "CURRENT": True,
        "PID": os.getpid(),
        "STARTDA": mq_date(state.started),
        "STARTTI": mq_time(state.started),
        "CHSTADA": mq_date(state.started),
        "CHSTATI": mq_time(state.started),
        "MCASTAT": "RUNNING" if running else "NOTRUNNING",
        "STOPREQ": "NO",
        "SUBSTATE": SUBSTATES[state.role] if running else "",
        "MSGS": state.msgs,
        "BATCHES": state.batches,
        "LSTSEQNO": state.last_seq,
        "CURSEQNO": state.last_seq,
        "CURMSGS": 0,
        "LSTMSGDA": mq_date(state.last_message) if state.last_message else "",
        "LSTMSGTI": mq_time(state.last_message) if state.last_message else "",
    }
    if state.role == RECEIVER and state.user:
        values["MCAUSER"] = state.user  # the user it runs as, once the partner's CHLAUTH records decided it
    if state.role == SENDER:
        values["INDOUBT"] = "YES" if transfer.in_doubt(ctx.qmgr, name) else "NO"
        values["SHORTRTS"], values["LONGRTS"] = retry.remaining(state, retry.RetryPolicy.of(attributes))
        xmitq = ctx.qmgr.lookup("QUEUE", attributes.get("XMITQ", ""))
        values["XQMSGSA"] = ctx.qmgr.depth(xmitq) if xmitq is not None else 0
        if (
            attributes.get("CHLTYPE") == "CLUSSDR"
        ):  # the cluster transmission queue's messages for this channel
            values["XQMSGSA"] = ctx.installation.clusters.manager(ctx.qmgr).waiting_channels().get(name, 0)
    return values
