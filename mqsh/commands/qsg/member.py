"""What a queue manager does before every command, as a member of a queue-sharing group.

Its copies of the group's objects are brought up to date first (a queue
manager in no group notes that and does nothing more), so that the command
sees them as they are now; and a command whose CMDSCOPE names other members
is sent to them (mqsh.commands.qsg.cmdscope) instead of being run here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from mqsh.commands.context import Context
from mqsh.commands.qsg import copies
from mqsh.language.validate import Command
from mqsh.responses import Result

SCOPED = "mqsh.commands.qsg.cmdscope"  # imported when a command first has a CMDSCOPE: few do

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
