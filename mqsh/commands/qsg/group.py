"""What the queue-sharing-group commands share: the member's group repository, and settings.

IBM documents neither the message a queue manager outside any queue-sharing group gives
(mqsh: CSQM150I, in the words of MQRCCF_Q_MGR_NOT_IN_QSG) nor the one for a
shared repository that cannot be reached (mqsh: CSQM091E with MQRC 2342,
MQRC_DB2_NOT_AVAILABLE, as for a lost Db2 connection).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mqsh.commands.context import Context
from mqsh.commands.objects import COMMAND_ONLY
from mqsh.commands.zos import Reply
from mqsh.language.validate import Command
from mqsh.model.qmgr import QueueManager
from mqsh.model.qsg.repository import RepositoryUnavailable, SharedRepository
from mqsh.model.sharing_groups import membership
from mqsh.responses import Result

Work = Callable[[Context, Command, Reply, SharedRepository], Result]


def settings(command: Command, also_not: tuple[str, ...] = ()) -> dict[str, Any]:
    """The attributes a command sets (not the ones that steer it)."""
    return {key: value for key, value in command.params.items() if key not in COMMAND_ONLY | set(also_not)}


def run_on_repository(ctx: Context, command: Command, reply: Reply, work: Work) -> Result:
    """work on the group's repository, or the reply that says why there is none to use."""
    qsg = membership(ctx.installation, ctx.qmgr.name)
    if qsg is None:
        return reply.failed("CSQM150I", "QUEUE MANAGER NOT IN A QUEUE SHARING GROUP")
    try:
        repository = SharedRepository(ctx.installation.data_dir, qsg)
    except RepositoryUnavailable as error:
        ctx.qmgr.errors.write(
            "CSQ5003A",
            f"Connection to the shared repository of queue sharing group {qsg} is not available.",
            str(error) + ".",
            "Restore the repository file, or add the group again with csq5pqsg.",
        )
        return reply.failed("CSQM091E", f"FAILURE MQRC={error.reason} (MQRC_DB2_NOT_AVAILABLE)")
    with repository:
        return work(ctx, command, reply, repository)


def members_here(ctx: Context, repository: SharedRepository) -> list[QueueManager]:
    """The group's members this process runs: those that act on a change of shared status at once
    (a member in another process notices it at its next use)."""
    return [qmgr for qmgr in ctx.installation.held.values() if qmgr.shared.qsg() == repository.qsg]


def not_carried_out(command: Command) -> Result:
    """The reply to valid MQSC that mqsh does not carry out (yet)."""
    return Result.failure(
        f"mqsh does not carry out {command.verb} {command.target or ''} yet; "
        "the command is valid MQSC.".replace(" ;", ";"),
        "AMQ8698E",
    )
