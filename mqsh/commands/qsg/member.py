"""What a queue manager does before every command, as a member of a queue-sharing group.

Its copies of the group's objects are brought up to date first (a queue
manager in no group notes that and does nothing more), so that the command
sees them as they are now; and a command whose CMDSCOPE names other members
is sent to them (mqsh.commands.qsg.cmdscope) instead of being run here. A member's
result is then given in z/OS's form (mqsh.commands.qsg.member_replies), as every
command a z/OS queue manager's command server runs is answered.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from mqsh.commands.context import Context
from mqsh.commands.qsg import copies
from mqsh.language.validate import Command
from mqsh.responses import Result

SCOPED = "mqsh.commands.qsg.cmdscope"  # imported when a command first has a CMDSCOPE: few do
AS_MEMBER = "mqsh.commands.qsg.member_replies"  # imported on a group member only

Runner = Callable[[Context, Command], Result]


def before_command(ctx: Context, command: Command, run_here: Runner) -> Result | None:
    """The command's result when it is answered here, for other members; None when the connected
    queue manager's handler runs it, as it does every command without CMDSCOPE. run_here runs a
    command on the member of the Context given."""
    copies.catch_up(ctx)
    if command.params.get("CMDSCOPE"):
        cmdscope = importlib.import_module(SCOPED)
        if cmdscope.elsewhere(ctx, command):
            return cmdscope.run_scoped(ctx, command, run_here)
    return None


def answer(ctx: Context, command: Command, result: Result) -> Result:
    """The command's result as the connected queue manager gives it: a group member's in z/OS's
    form; any other queue manager's as it is."""
    if copies.group_of(ctx) is None:
        return result
    return importlib.import_module(AS_MEMBER).as_member(ctx, command, result)
