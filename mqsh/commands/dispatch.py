"""Which handler runs a validated MQSC command.

The handlers are named here as "module:function" and imported when a command first needs one, so
that a report loads only the command families it uses (a DISPLAY QMGR loads nothing of the
queue-sharing group's structures or the cluster's commands). This module is the one place that
names them: moving a handler's module means changing its name here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from mqsh.commands.context import Context
from mqsh.core.objects import COPY, DISPOSITION, GROUP, SHARED, namespace_of
from mqsh.core.reasons import MQError
from mqsh.language.validate import Command, filter_misfit
from mqsh.responses import Result
from mqsh.store.datadir import NAMESPACE_FOLDERS

Handler = Callable[[Context, Command], Result]

# Object definitions (kind "object" and the QUEUE family) by verb.
OBJECT_VERBS: dict[str, str] = {
    "DEFINE": "mqsh.commands.objects:define",
    "ALTER": "mqsh.commands.objects:alter",
    "DELETE": "mqsh.commands.objects:delete",
    "CLEAR": "mqsh.commands.objects:clear",
    "DISPLAY": "mqsh.commands.objects:display",
}

# Everything else by (verb, target).
SPECIAL: dict[tuple[str, str], str] = {
    ("DISPLAY", "QSTATUS"): "mqsh.commands.status:display_qstatus",
    ("DISPLAY", "QMSTATUS"): "mqsh.commands.status:display_qmstatus",
    ("DISPLAY", "SBSTATUS"): "mqsh.commands.status:display_sbstatus",
    ("SET", "AUTHREC"): "mqsh.commands.security:set_authrec",
    ("DISPLAY", "AUTHREC"): "mqsh.commands.security:display_authrec",
    ("DISPLAY", "ENTAUTH"): "mqsh.commands.entauth:display_entauth",
    ("DISPLAY", "PUBSUB"): "mqsh.commands.pubsub:display_pubsub",
    ("SET", "CHLAUTH"): "mqsh.commands.security:set_chlauth",
    ("DISPLAY", "CHLAUTH"): "mqsh.commands.security:display_chlauth",
    ("REFRESH", "SECURITY"): "mqsh.commands.security:refresh_security",
    ("SET", "POLICY"): "mqsh.commands.policy:set_policy",
    ("DISPLAY", "POLICY"): "mqsh.commands.policy:display_policy",
    ("DELETE", "POLICY"): "mqsh.commands.policy:delete_policy",
    ("START", "CHANNEL"): "mqsh.commands.network.runtime:start_stop",
    ("STOP", "CHANNEL"): "mqsh.commands.network.runtime:start_stop",
    ("START", "LISTENER"): "mqsh.commands.network.runtime:start_stop",
    ("STOP", "LISTENER"): "mqsh.commands.network.runtime:start_stop",
    ("START", "SERVICE"): "mqsh.commands.network.runtime:start_stop",
    ("STOP", "SERVICE"): "mqsh.commands.network.runtime:start_stop",
    ("DISPLAY", "CHSTATUS"): "mqsh.commands.network.channel_status:display",
    ("DISPLAY", "LSSTATUS"): "mqsh.commands.network.runtime:display_status",
    ("DISPLAY", "SVSTATUS"): "mqsh.commands.network.runtime:display_status",
    ("PING", "QMGR"): "mqsh.commands.network.runtime:ping_qmgr",
    ("DISPLAY", "CONN"): "mqsh.commands.connections:display_conn",
    ("STOP", "CONN"): "mqsh.commands.connections:stop_conn",
    ("SET", "LOG"): "mqsh.commands.log:set_log",
    ("RESET", "QMGR"): "mqsh.commands.log:reset_qmgr",
    ("DEFINE", "CFSTRUCT"): "mqsh.commands.qsg.cfstruct:define",
    ("ALTER", "CFSTRUCT"): "mqsh.commands.qsg.cfstruct:alter",
    ("DELETE", "CFSTRUCT"): "mqsh.commands.qsg.cfstruct:delete",
    ("DISPLAY", "CFSTRUCT"): "mqsh.commands.qsg.cfstruct:display",
    ("BACKUP", "CFSTRUCT"): "mqsh.commands.qsg.backup_recover:backup",
    ("RECOVER", "CFSTRUCT"): "mqsh.commands.qsg.backup_recover:recover",
    ("DISPLAY", "CFSTATUS"): "mqsh.commands.qsg.cfstatus:display",
    ("ALTER", "SMDS"): "mqsh.commands.qsg.smds:alter",
    ("DISPLAY", "SMDS"): "mqsh.commands.qsg.smds:display",
    ("RESET", "SMDS"): "mqsh.commands.qsg.smds:reset",
    ("RESET", "CFSTRUCT"): "mqsh.commands.qsg.cfstruct:reset",
    ("START", "SMDSCONN"): "mqsh.commands.qsg.smdsconn:start_stop",
    ("STOP", "SMDSCONN"): "mqsh.commands.qsg.smdsconn:start_stop",
    ("DISPLAY", "SMDSCONN"): "mqsh.commands.qsg.smdsconn:display",
    ("DISPLAY", "USAGE"): "mqsh.commands.qsg.usage:display",
    ("DISPLAY", "CLUSQMGR"): "mqsh.commands.network.cluster:display_clusqmgr",
    ("DISPLAY", "QCLUSTER"): "mqsh.commands.network.cluster:display_qcluster",
    ("DISPLAY", "TCLUSTER"): "mqsh.commands.network.cluster:display_tcluster",
    ("REFRESH", "CLUSTER"): "mqsh.commands.network.cluster:refresh_cluster",
    ("RESET", "CLUSTER"): "mqsh.commands.network.cluster:reset_cluster",
    ("SUSPEND", "QMGR"): "mqsh.commands.network.cluster:suspend_resume",
    ("RESUME", "QMGR"): "mqsh.commands.network.cluster:suspend_resume",
}


# A queue of the group, not of this queue manager: its definition is in the shared repository.
SHARED_QUEUE_VERBS: dict[str, str] = {
    "DEFINE": "mqsh.commands.qsg.shared_queues:define",
    "ALTER": "mqsh.commands.qsg.shared_queues:alter",
    "DELETE": "mqsh.commands.qsg.shared_queues:delete",
}


# A DEFINE, ALTER or DELETE of QSGDISP(GROUP) or (COPY): the group's definitions.
GROUP_DEFINITIONS = "mqsh.commands.qsg.qsgdisp:run"
# DISPLAY QUEUE(...) TYPE(QCLUSTER) is DISPLAY QCLUSTER.
CLUSTER_QUEUES = SPECIAL[("DISPLAY", "QCLUSTER")]
NOT_CARRIED_OUT = "mqsh.commands.qsg.group:not_carried_out"  # a command mqsh knows but does not carry out
# What the connected queue manager does before every command; it answers the command itself, or
# gives None for the handler to run it.
BEFORE_COMMAND = "mqsh.commands.qsg.member:before_command"
# What the connected queue manager makes of every command's result (a group member answers in
# z/OS's form).
AFTER_COMMAND = "mqsh.commands.qsg.member:answer"


def handler_named(name: str) -> Callable:
    module, _, function = name.partition(":")
    return getattr(importlib.import_module(module), function)


def handler_for(ctx: Context, command: Command) -> Handler | None:
    return handler_named(name) if (name := _handler_name(ctx, command)) is not None else None


def _handler_name(ctx: Context, command: Command) -> str | None:
    if command.params.get(DISPOSITION) == SHARED and command.verb in SHARED_QUEUE_VERBS:
        return SHARED_QUEUE_VERBS[command.verb]
    if command.verb == "DISPLAY" and command.target == "QUEUE" and command.params.get("TYPE") == "QCLUSTER":
        return CLUSTER_QUEUES
    special = SPECIAL.get((command.verb, command.target or ""))
    if special is not None:
        return special
    obj = ctx.catalogue.objects.get(command.target or "")
    # Objects of name spaces a queue manager keeps; the rest (CFSTATUS, SMDSCONN ...) are not carried out yet.
    if (
        obj is not None
        and obj.kind in ("object", "family")
        and namespace_of(obj.name, obj.family) in NAMESPACE_FOLDERS
    ):
        if command.verb in ("DEFINE", "ALTER", "DELETE") and command.params.get(DISPOSITION) in (GROUP, COPY):
            return GROUP_DEFINITIONS
        return OBJECT_VERBS.get(command.verb)
    return None


def _run_here(ctx: Context, command: Command) -> Result:
    handler = handler_for(ctx, command)
    assert handler is not None
    return handler(ctx, command)


def run_mqsc(ctx: Context, command: Command) -> Result:
    result = _carry_out(ctx, command)
    if ctx.qmgr is not None:
        return handler_named(AFTER_COMMAND)(ctx, command, result)
    return result


def _carry_out(ctx: Context, command: Command) -> Result:
    handler = handler_for(ctx, command)
    if handler is None:
        return handler_named(NOT_CARRIED_OUT)(command)
    if (
        command.where is not None
        and command.target is not None
        and filter_misfit(command.where, ctx.catalogue.objects[command.target], ctx.catalogue) is not None
    ):
        # The command server refuses a filter whose operator or value does not fit its keyword
        # (MQRCCF_FILTER_ERROR), which runmqsc reports as AMQ8569; IBM's page gives it no severity
        # letter: E, as the other messages of a command that was not carried out.
        return Result.failure("Error in filter specification.", "AMQ8569E")
    try:
        if ctx.qmgr is not None:
            answered = handler_named(BEFORE_COMMAND)(ctx, command, _run_here)
            if answered is not None:
                return answered
        return handler(ctx, command)
    except MQError as error:
        # A call the command made failed where the command itself has nothing to say (a full
        # disk under DEFINE ...): runmqsc reports the reason code, in hexadecimal, as AMQ8101.
        return Result.failure(f"IBM MQ error ({error.reason:X}) has occurred.", "AMQ8101S")
