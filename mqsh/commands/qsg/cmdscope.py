"""CMDSCOPE: a command run on another active member of the queue-sharing group, or on all of them.

' ' (the default) or the connected queue manager's own name runs the
command here, as it always ran. A member's name runs it there, and * on
every active member (this one included), when this process can reach them
(mqsh.commands.qsg.copies.active_members); the replies are collected in z/OS's
form (mqsh.commands.zos.Scoped): each member's reply in its own CSQN205I
reply, its display records as CSQM201I messages and its failures in z/OS's
words, where runmqsc's messages have them.

z/OS's rules: CMDSCOPE must be blank, or the local queue manager, when
QSGDISP is GROUP; outside a group CMDSCOPE is refused as the other group
commands are (CSQM150I). IBM documents none of these, so they are chosen in
z/OS's style: CSQM092I
(CMDSCOPE(...) VALUE INVALID) for both the QSGDISP(GROUP) conflict and a
name that is no member of the group; a member that is not active is sent
nothing (CSQN137I ... sent to 0) and the command ends abnormally (CSQN123E).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from mqsh.commands.context import Context
from mqsh.commands.qsg.copies import active_members
from mqsh.commands.qsg.group import run_on_repository
from mqsh.commands.qsg.member_replies import csect_of, in_zos_form, in_zos_form_already
from mqsh.commands.qsg.qsgdisp import CSECT
from mqsh.commands.zos import Reply, Scoped, count_line
from mqsh.core.objects import DISPOSITION, GROUP
from mqsh.language.validate import Command
from mqsh.model.qsg.repository import SharedRepository
from mqsh.responses import Result

SCOPE = "CMDSCOPE"

Runner = Callable[[Context, Command], Result]


def elsewhere(ctx: Context, command: Command) -> bool:
    """Whether CMDSCOPE sends the command beyond the connected queue manager."""
    scope = str(command.params.get(SCOPE) or "").strip()
    return bool(scope) and scope != ctx.qmgr.name


def run_scoped(ctx: Context, command: Command, run_here: Runner) -> Result:
    scope = str(command.params[SCOPE]).strip()
    reply = Reply(ctx.qmgr.name, CSECT, command.typed)
    if command.verb != "DISPLAY" and command.params.get(DISPOSITION) == GROUP:
        return reply.failed("CSQM092I", f"{SCOPE}({scope}) VALUE INVALID")
    here = replace(command, params={key: value for key, value in command.params.items() if key != SCOPE})

    def work(ctx: Context, command: Command, reply: Reply, repository: SharedRepository) -> Result:
        if scope != "*" and scope not in {member.qmgr for member in repository.members()}:
            return reply.failed("CSQM092I", f"{SCOPE}({scope}) VALUE INVALID")
        scoped = Scoped(ctx.qmgr.name, command.typed, scope)
        for member in active_members(ctx, repository, None if scope == "*" else scope):
            there = Context(ctx.catalogue, ctx.installation, member)
            scoped.blocks.append(_in_zos_form(scoped, there, here, run_here(there, here)))
        return scoped.done()

    return run_on_repository(ctx, command, reply, work)


def _in_zos_form(scoped: Scoped, ctx: Context, command: Command, result: Result) -> Result:
    """One member's reply: as it is when the command answers in z/OS's form already, else
    runmqsc's records and messages in z/OS's."""
    if in_zos_form_already(result):
        inner = [scoped.member(ctx.qmgr.name, CSECT).messages[0], *result.responses[1:]]
        return Result([count_line(len(inner) + 1, result.ok), *inner], ok=result.ok)
    return in_zos_form(ctx, command, result, scoped.member(ctx.qmgr.name, csect_of(ctx, command)))
