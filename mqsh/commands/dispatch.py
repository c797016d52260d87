"""Which handler runs a validated MQSC command."""

from __future__ import annotations

from collections.abc import Callable

from mqsh.commands import connections, entauth, log, objects, policy, pubsub, security, status
from mqsh.commands.context import Context
from mqsh.commands.network import channel_status, cluster, runtime
from mqsh.commands.qsg import (
    backup_recover,
    cfstatus,
    cfstruct,
    cmdscope,
    copies,
    qsgdisp,
    shared_queues,
    smds,
    smdsconn,
    usage,
)
from mqsh.commands.qsg.group import not_carried_out
from mqsh.core.objects import namespace_of
from mqsh.core.reasons import MQError
from mqsh.language.validate import Command, filter_misfit
from mqsh.responses import Result
from mqsh.store.datadir import NAMESPACE_FOLDERS

Handler = Callable[[Context, Command], Result]

# Object definitions (kind "object" and the QUEUE family) by verb.
OBJECT_VERBS: dict[str, Handler] = {
    "DEFINE": objects.define,
    "ALTER": objects.alter,
    "DELETE": objects.delete,
    "CLEAR": objects.clear,
    "DISPLAY": objects.display,
}

# Everything else by (verb, target).
SPECIAL: dict[tuple[str, str], Handler] = {
    ("DISPLAY", "QSTATUS"): status.display_qstatus,
    ("DISPLAY", "QMSTATUS"): status.display_qmstatus,
    ("DISPLAY", "SBSTATUS"): status.display_sbstatus,
    ("SET", "AUTHREC"): security.set_authrec,
    ("DISPLAY", "AUTHREC"): security.display_authrec,
    ("DISPLAY", "ENTAUTH"): entauth.display_entauth,
    ("DISPLAY", "PUBSUB"): pubsub.display_pubsub,
    ("SET", "CHLAUTH"): security.set_chlauth,
    ("DISPLAY", "CHLAUTH"): security.display_chlauth,
    ("REFRESH", "SECURITY"): security.refresh_security,
    ("SET", "POLICY"): policy.set_policy,
    ("DISPLAY", "POLICY"): policy.display_policy,
    ("DELETE", "POLICY"): policy.delete_policy,
    ("START", "CHANNEL"): runtime.start_stop,
    ("STOP", "CHANNEL"): runtime.start_stop,
    ("START", "LISTENER"): runtime.start_stop,
    ("STOP", "LISTENER"): runtime.start_stop,
    ("START", "SERVICE"): runtime.start_stop,
    ("STOP", "SERVICE"): runtime.start_stop,
    ("DISPLAY", "CHSTATUS"): channel_status.display,
    ("DISPLAY", "LSSTATUS"): runtime.display_status,
    ("DISPLAY", "SVSTATUS"): runtime.display_status,
    ("PING", "QMGR"): runtime.ping_qmgr,
    ("DISPLAY", "CONN"): connections.display_conn,
    ("STOP", "CONN"): connections.stop_conn,
    ("SET", "LOG"): log.set_log,
    ("RESET", "QMGR"): log.reset_qmgr,
    ("DEFINE", "CFSTRUCT"): cfstruct.define,
    ("ALTER", "CFSTRUCT"): cfstruct.alter,
    ("DELETE", "CFSTRUCT"): cfstruct.delete,
    ("DISPLAY", "CFSTRUCT"): cfstruct.display,
    ("BACKUP", "CFSTRUCT"): backup_recover.backup,
    ("RECOVER", "CFSTRUCT"): backup_recover.recover,
    ("DISPLAY", "CFSTATUS"): cfstatus.display,
    ("ALTER", "SMDS"): smds.alter,
    ("DISPLAY", "SMDS"): smds.display,
    ("RESET", "SMDS"): smds.reset,
    ("RESET", "CFSTRUCT"): cfstruct.reset,
    ("START", "SMDSCONN"): smdsconn.start_stop,
    ("STOP", "SMDSCONN"): smdsconn.start_stop,
    ("DISPLAY", "SMDSCONN"): smdsconn.display,
    ("DISPLAY", "USAGE"): usage.display,
    ("DISPLAY", "CLUSQMGR"): cluster.display_clusqmgr,
    ("DISPLAY", "QCLUSTER"): cluster.display_qcluster,
    ("DISPLAY", "TCLUSTER"): cluster.display_tcluster,
    ("REFRESH", "CLUSTER"): cluster.refresh_cluster,
    ("RESET", "CLUSTER"): cluster.reset_cluster,
    ("SUSPEND", "QMGR"): cluster.suspend_resume,
    ("RESUME", "QMGR"): cluster.suspend_resume,
}


# A queue of the group, not of this queue manager: its definition is in the shared repository.
SHARED_QUEUE_VERBS: dict[str, Handler] = {
    "DEFINE": shared_queues.define,
    "ALTER": shared_queues.alter,
    "DELETE": shared_queues.delete,
}


def handler_for(ctx: Context, command: Command) -> Handler | None:
    if command.params.get("QSGDISP") == "SHARED" and command.verb in SHARED_QUEUE_VERBS:
        return SHARED_QUEUE_VERBS[command.verb]
    if command.verb == "DISPLAY" and command.target == "QUEUE" and command.params.get("TYPE") == "QCLUSTER":
        return cluster.display_qcluster
    special = SPECIAL.get((command.verb, command.target or ""))
    if special is not None:
        return special
    obj = ctx.catalogue.objects.get(command.target or "")
    # Objects of name spaces a queue manager keeps; the rest (CFSTATUS, SMDSCONN ...) are not carried out yet.
    if obj is not None and obj.kind in ("object", "family") and namespace_of(obj.name, obj.family) in NAMESPACE_FOLDERS:
        if command.verb in ("DEFINE", "ALTER", "DELETE") and qsgdisp.disposition(command) is not None:
            return qsgdisp.run  # QSGDISP(GROUP) or (COPY): the group's definitions
        return OBJECT_VERBS.get(command.verb)
    return None


def _run_here(ctx: Context, command: Command) -> Result:
    handler = handler_for(ctx, command)
    assert handler is not None
    return handler(ctx, command)


def run_mqsc(ctx: Context, command: Command) -> Result:
    handler = handler_for(ctx, command)
    if handler is None:
        return not_carried_out(command)
    if command.where is not None and command.target is not None \
            and filter_misfit(command.where, ctx.catalogue.objects[command.target], ctx.catalogue) is not None:
        # The command server refuses a filter whose operator or value does not fit its keyword
        # (MQRCCF_FILTER_ERROR), which runmqsc reports as AMQ8569. IBM documents no severity letter
        # for it: E, as the other messages of a command that was not carried out.
        return Result.failure("Error in filter specification.", "AMQ8569E")
    try:
        if ctx.qmgr is not None:
            copies.catch_up(ctx)  # a member's copies of group objects, as they are now, before it works
            if cmdscope.elsewhere(ctx, command):
                return cmdscope.run_scoped(ctx, command, _run_here)
        return handler(ctx, command)
    except MQError as error:
        # A call the command made failed where the command itself has nothing to say (a full
        # disk under DEFINE ...): runmqsc reports the reason code, in hexadecimal, as AMQ8101.
        return Result.failure(f"IBM MQ error ({error.reason:X}) has occurred.", "AMQ8101S")
