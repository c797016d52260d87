"""Lab controls: the LAB commands that make a scenario happen.

They are not MQSC: they stand in for applications (put, get, commit, backout),
for the operator's switch between queue managers, for time passing and for a
crash. Their words are in the catalogue under the LAB verb, like any other.
"""

from __future__ import annotations

from collections.abc import Callable

from mqsh.commands.context import Context
from mqsh.commands.control import audit
from mqsh.core.clock import TIMESTAMP, parse_duration, parse_timestamp
from mqsh.core.objects import StoredMessage
from mqsh.core.reasons import MQError
from mqsh.lab import (
    backup,
    cluster_map,
    damage,
    events,
    explain,
    explain_cluster,
    network,
    shared_faults,
    shared_putters,
    timeline,
)
from mqsh.lab.load import load
from mqsh.lab.shell import Shell
from mqsh.language.validate import Command
from mqsh.model.qmgr_directory import RUNNING
from mqsh.responses import Message, Result
from mqsh.store.identity import putter


def _mq_failure(call: str, error: MQError, done: int) -> Result:
    lines = [Message(error.report(call))]
    if done:
        lines.insert(0, Message(f"{done} message(s) completed before the failure."))
    return Result(lines, ok=False)


def _repeat(call: str, count: int, action: Callable[[], object]) -> Result | None:
    """Run an MQI call count times; the first failure ends the run with its reason code."""
    for done in range(count):
        try:
            action()
        except MQError as error:
            return _mq_failure(call, error, done)
    return None


def _queue(command: Command) -> str | None:
    return command.params.get("QUEUE")


def _missing(what: str) -> Result:
    return Result.failure(f"mqsh: LAB {what} needs QUEUE(name).")


def put(ctx: Context, command: Command) -> Result:
    params = command.params
    queue = _queue(command)
    if not queue:
        return _missing("PUT")
    count = params.get("COUNT", 1)
    target = ctx.qmgr.units.definition(queue)
    persistent = params.get("PERSISTENT")
    if persistent is None:
        persistent = target.get("DEFPSIST") == "YES"
    priority = params.get("PRIORITY")
    if priority is None:  # MQPRI_PRIORITY_AS_Q_DEF
        priority = int(target.get("DEFPRTY", 0))
    syncpoint = params.get("SYNCPOINT", False)
    failure = _repeat(
        "MQPUT", count, lambda: ctx.qmgr.put(queue, persistent, params.get("SIZE", 100), priority, syncpoint)
    )
    if failure:
        return failure
    kind = "persistent" if persistent else "non-persistent"
    where = "in syncpoint" if syncpoint else "outside syncpoint"
    return Result.message(f"{count} {kind} message(s) put on queue {queue} ({where}).")


def get(ctx: Context, command: Command) -> Result:
    params = command.params
    queue = _queue(command)
    if not queue:
        return _missing("GET")
    count = params.get("COUNT", 1)
    syncpoint = params.get("SYNCPOINT", False)
    failure = _repeat("MQGET", count, lambda: ctx.qmgr.get(queue, syncpoint))
    if failure:
        return failure
    where = "in syncpoint" if syncpoint else "outside syncpoint"
    return Result.message(f"{count} message(s) got from queue {queue} ({where}).")


def browse(ctx: Context, command: Command) -> Result:
    """LAB BROWSE: the messages a get would take, in its order, one line each - and who put each,
    where that is recorded (its MQMD's UserIdentifier and PutApplName); COUNT(n) shows the first n.
    Nothing is taken, so a story can look at what a recovery left without changing it."""
    queue = _queue(command)
    if not queue:
        return _missing("BROWSE")
    try:
        messages = ctx.qmgr.units.browse(queue)
    except MQError as error:
        return _mq_failure("MQGET", error, 0)
    if not messages:
        return Result.message(f"No messages on queue {queue}.")
    shown = messages[: command.params.get("COUNT", len(messages))]
    if ctx.qmgr.units.is_shared(queue):
        _with_shared_putters(ctx, shown)
    lines = [Message(f"{len(messages)} message(s) on queue {queue}, in the order a get takes them:")]
    lines += [
        Message(
            f"{number:6}  MSGID({message.msgid})  PERSISTENT({'YES' if message.persistent else 'NO'})  "
            f"SIZE({message.size})  PRIORITY({message.priority})  PUTTIME({message.put_time})"
            + ("" if message.user is None else f"  {putter(message.user, message.appl, '  ')}")
        )
        for number, message in enumerate(shown, 1)
    ]
    return Result(lines)


def _with_shared_putters(ctx: Context, shown: list[StoredMessage]) -> None:
    """Fill in who put each shared message from its putting member's log and notes; a message whose
    put is not recorded there shows blank USERID and PUTAPPL, as an MQMD that holds neither."""
    putters = shared_putters.of_group(ctx, ctx.qmgr.name)
    for message in shown:
        message.user, message.appl = putters.get(message.msgid) or (" ", " ")


def commit(ctx: Context, command: Command) -> Result:
    try:
        queues = ctx.qmgr.commit()
    except MQError as error:
        return _mq_failure("MQCMIT", error, 0)
    return Result.message("Unit of work committed." if queues else "No unit of work to commit.")


def backout(ctx: Context, command: Command) -> Result:
    try:
        queues = ctx.qmgr.backout()
    except MQError as error:
        return _mq_failure("MQBACK", error, 0)
    return Result.message("Unit of work backed out." if queues else "No unit of work to back out.")


def _running(ctx: Context) -> list[str]:
    installation = ctx.installation
    return [name for name in installation.names() if installation.recorded_status(name) == RUNNING]


def _went_back(running: list[str]) -> str:
    """What moving the clock back does to queue managers that run: their timers count from times
    now in the future, so they wait; and the times they record go back too."""
    runs = "runs" if len(running) == 1 else "run"
    return (
        f"The clock went back while {', '.join(running)} {runs}: timed work (the half-hourly checkpoint, automatic "
        "media images, Native HA retries) waits until the clock passes the times it last ran, and "
        "times recorded from now on are earlier than those recorded before. Cluster sequence numbers, "
        "which count real seconds, go on from the latest time the clock had reached."
    )


def clock(ctx: Context, command: Command) -> Result:
    params = command.params
    notes = []
    try:
        if "SET" in params:
            moment = parse_timestamp(params["SET"])
            running = _running(ctx) if moment < ctx.clock.now() else []
            ctx.clock.set(moment, counted=bool(ctx.installation.names()))
            if running:
                notes.append(_went_back(running))
        if "ADVANCE" in params:
            ctx.installation.clusters.pass_time(ctx.clock, parse_duration(params["ADVANCE"]))
    except ValueError as error:  # not a time or a duration, or out of the clock's range
        return Result.failure(f"mqsh: {error}.")
    except OSError as error:  # a full disk: the clock is saved before it moves, so it has not moved
        return Result.failure(
            f"mqsh: the simulated clock cannot be saved ({error.strerror}); it has not moved."
        )
    return Result(
        [Message(f"The simulated clock is at {ctx.clock.now():{TIMESTAMP}}."), *map(Message, notes)]
    )


def crash(ctx: Context, command: Command, shell: Shell) -> Result:
    name = command.params.get("QMGR") or shell.current_qmgr
    installation = ctx.installation
    if not name or not installation.exists(name):
        return Result.failure("IBM MQ queue manager does not exist.", "AMQ8118E")
    installation.crash(name)
    return Result.message(f"Queue manager {name} crashed: in-memory state lost, no shutdown processing.")


def use(ctx: Context, command: Command, shell: Shell) -> Result:
    if "QMGR" not in command.params:
        return Result.failure("mqsh: LAB USE needs QMGR(name).")
    return shell.use(command.params["QMGR"])


def damage_file(ctx: Context, command: Command, shell: Shell) -> Result:
    """LAB DAMAGE: a data set of the group (SMDS), or a file of the queue manager."""
    if "SMDS" in command.params:
        return shared_faults.damage(ctx, command, shell)
    return damage.damage(ctx, command, shell)


def restore(ctx: Context, command: Command, shell: Shell) -> Result:
    """LAB RESTORE: a data set from its copy (SMDS), or a queue manager from its backup."""
    if "SMDS" in command.params:
        return shared_faults.restore(ctx, command, shell)
    return backup.restore(ctx, command, shell)


def explain_last(ctx: Context, command: Command, shell: Shell) -> Result:
    """LAB EXPLAIN: a cluster's last REFRESH or RESET CLUSTER here (CLUSTER), or a recovery."""
    if "CLUSTER" in command.params:
        name = shell.current_qmgr
        if not name or not ctx.installation.exists(name):
            return Result.failure("IBM MQ queue manager does not exist.", "AMQ8118E")
        return explain_cluster.explain(ctx, name, command.params["CLUSTER"])
    return explain.explain(ctx, command, shell)


NEEDS_QMGR = {
    "PUT": put,
    "GET": get,
    "BROWSE": browse,
    "COMMIT": commit,
    "BACKOUT": backout,
    "LOAD": load,
    "OPEN": damage.open_queue,
    "CLOSE": damage.close_queue,
    "EVENTS": events.events,
}
NEEDS_SHELL = {
    "CRASH": crash,
    "USE": use,
    "DAMAGE": damage_file,
    "ERRLOG": damage.errlog,
    "BACKUP": backup.backup,
    "RESTORE": restore,
    "FAIL": shared_faults.fail,
    "DENY": shared_faults.deny,
    "ALLOW": shared_faults.allow,
    "COPY": shared_faults.copy,
    "SIZE": shared_faults.size,
    "FORMAT": shared_faults.preformat,
    "MEMLIMIT": shared_faults.memlimit,
    "SITE": network.site,
    "EXPLAIN": explain_last,
    "TIMELINE": timeline.timeline,
}
STANDALONE = {
    "CLOCK": clock,
    "NETWORK": network.network,
    "AUDIT": audit.lab_audit,
    "MAP": cluster_map.cluster_map,
}
