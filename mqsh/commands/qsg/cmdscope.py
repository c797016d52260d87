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
from mqsh.commands.display import is_generic
from mqsh.commands.qsg.copies import active_members, disposition_of
from mqsh.commands.qsg.group import run_on_repository
from mqsh.commands.qsg.qsgdisp import CSECT
from mqsh.commands.zos import DISPLAY_CSECT, Reply, Scoped, count_line
from mqsh.core.objects import DISPOSITION, GROUP, QMGR, namespace_of
from mqsh.language.validate import Command
from mqsh.model.qsg.repository import SharedRepository
from mqsh.responses import Display, Message, Result

SCOPE = "CMDSCOPE"
NOT_FOUND, EXISTS = "AMQ8147E", "AMQ8150E"  # runmqsc's words that z/OS says its own way
SAID_BY_COMPLETION = ("created", "changed", "deleted", "cleared")  # z/OS says only CSQ9022I for these

Runner = Callable[[Context, Command], Result]


def elsewhere(ctx: Context, command: Command) -> bool:
    """Whether CMDSCOPE sends the command beyond the connected queue manager."""
    scope = str(command.params.get(SCOPE) or "").strip()
    return bool(scope) and scope != ctx.qmgr.name


def run_scoped(ctx: Context, command: Command, run_here: Runner) -> Result:
    scope = str(command.params[SCOPE]).strip()
    title = f"{command.verb} {command.target}"
    reply = Reply(ctx.qmgr.name, CSECT, title)
    if command.verb != "DISPLAY" and command.params.get(DISPOSITION) == GROUP:
        return reply.failed("CSQM092I", f"{SCOPE}({scope}) VALUE INVALID")
    here = replace(command, params={key: value for key, value in command.params.items() if key != SCOPE})

    def work(ctx: Context, command: Command, reply: Reply, repository: SharedRepository) -> Result:
        if scope != "*" and scope not in {member.qmgr for member in repository.members()}:
            return reply.failed("CSQM092I", f"{SCOPE}({scope}) VALUE INVALID")
        scoped = Scoped(ctx.qmgr.name, title, scope)
        for member in active_members(ctx, repository, None if scope == "*" else scope):
            there = Context(ctx.catalogue, ctx.installation, member)
            scoped.blocks.append(_in_zos_form(scoped, there, here, run_here(there, here)))
        return scoped.done()

    return run_on_repository(ctx, command, reply, work)


def _in_zos_form(scoped: Scoped, ctx: Context, command: Command, result: Result) -> Result:
    """One member's reply: as it is when the command answers in z/OS's form already, else
    runmqsc's records and messages in z/OS's."""
    first = result.responses[0] if result.responses else None
    if isinstance(first, Message) and first.msgid == "CSQN205I":
        inner = [scoped.member(ctx.qmgr.name, CSECT).messages[0], *result.responses[1:]]
        return Result([count_line(len(inner) + 1, result.ok), *inner], ok=result.ok)
    reply = scoped.member(ctx.qmgr.name, DISPLAY_CSECT if command.verb == "DISPLAY" else CSECT)
    records = [response for response in result.responses if isinstance(response, Display)]
    if command.verb == "DISPLAY" and (records or _said(result, NOT_FOUND)):
        generic = is_generic(command.name or "*")
        if records or generic:
            return reply.displayed(command.target or "", records, generic)
        reply.say("CSQM094I", f"{command.target}({command.name}) WAS NOT FOUND")
        return reply.done(ok=False)
    obj = ctx.catalogue.objects.get(command.target or "")
    quiet = {spec.id for kind in SAID_BY_COMPLETION if obj and (spec := obj.message(kind))}
    for response in result.responses:
        if isinstance(response, Display):
            reply.details(f"{command.verb} {command.target}", response.attributes, command.target or "")
        elif isinstance(response, Message) and not (result.ok and response.msgid in quiet):
            reply.say(*_words(ctx, command, response))
    return reply.done(ok=result.ok)


def _said(result: Result, msgid: str) -> bool:
    return any(isinstance(response, Message) and response.msgid == msgid for response in result.responses)


def _words(ctx: Context, command: Command, message: Message) -> tuple[str, str]:
    """z/OS's message for a runmqsc one: CSQM125I for an object not found, CSQM095I for one that
    exists (with the disposition each concerns), the message as it is otherwise."""
    name = f"{command.target}({command.name})"
    if message.msgid == NOT_FOUND:
        return "CSQM125I", f"{name} QSGDISP({command.params.get(DISPOSITION) or QMGR}) WAS NOT FOUND"
    obj = ctx.catalogue.objects.get(command.target or "")
    if message.msgid == EXISTS and obj is not None:
        existing = ctx.qmgr.lookup(namespace_of(obj.name, obj.family), command.name or "")
        return "CSQM095I", f"{name} QSGDISP({disposition_of(existing) if existing else QMGR}) ALREADY EXISTS"
    return message.msgid, message.text
