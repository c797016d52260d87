"""A queue-sharing group member's replies, in z/OS's form.

Queue-sharing groups exist only on z/OS, whose command server answers every
command with CSQ messages, and runmqsc connected to a z/OS queue manager
prints them as they come. So a member answers every MQSC command as the
group's own commands answer (mqsh.commands.zos.Reply), with or without
CMDSCOPE (whose per-member replies are made here too): CSQN205I first,
CSQ9022I last, or CSQ9023E when the command failed.

A DISPLAY, whatever its object type: for a generic name how many records it
found (CSQM293I) or that none matched (CSQM297I, a normal completion); a
CSQM201I message per record, one keyword a line, without the attributes no
z/OS queue manager has (DISTL, SCOPE ...: not_zos in the catalogue). A
specific object that does not exist is CSQM094I (keyword(name) WAS NOT
FOUND), a failed command. The csect is CSQMDRTC for status displays and
CSQMDRTS for the others, as z/OS's replies to DISPLAY CHSTATUS and CLUSQMGR,
and to DISPLAY CHANNEL, name them. CSQM201I's title and the completion
message name the verb and object type as typed (DIS QL), as z/OS echoes them.

Any other command: a definition made, changed, deleted or cleared, or a reset
done, says only CSQ9022I; an object not found is CSQM125I, one that exists
CSQM095I, each with the disposition it concerns. The csect is CSQMAQLC for
DEFINE QLOCAL, as z/OS's replies name it, and CSQMMSGP for the others (IBM's
example shows it on DEFINE QLOCAL too).

A runmqsc message z/OS has no words of its own for keeps its id and text,
framed as the others are. A queue manager outside any group answers in
runmqsc's style.
"""

from __future__ import annotations

from mqsh.commands.context import Context
from mqsh.commands.display import is_generic
from mqsh.commands.objects import default_object
from mqsh.commands.qsg.copies import disposition_of
from mqsh.commands.zos import COMMAND_CSECT, DISPLAY_CSECT, Reply
from mqsh.core.objects import DISPOSITION, QMGR, namespace_of
from mqsh.language.validate import Command
from mqsh.responses import Display, Message, Response, Result

STATUS_CSECT = "CSQMDRTC"  # the csect of z/OS's status displays (CHSTATUS, CLUSQMGR ...)
DEFINE_QLOCAL_CSECT = "CSQMAQLC"
REPLY_COUNT = "CSQN205I"  # the first message of every z/OS reply
NOT_FOUND, EXISTS = "AMQ8147E", "AMQ8150E"  # runmqsc's words that z/OS says its own way
# What z/OS says with CSQ9022I alone: a definition made, changed, deleted or cleared, a reset done.
SAID_BY_COMPLETION = ("created", "changed", "deleted", "cleared", "reset")


def as_member(ctx: Context, command: Command, result: Result) -> Result:
    """result as a group member's command server gives it: in z/OS's form."""
    if in_zos_form_already(result):
        return result
    return in_zos_form(ctx, command, result, Reply(ctx.qmgr.name, csect_of(ctx, command), command.typed))


def in_zos_form_already(result: Result) -> bool:
    first = result.responses[0] if result.responses else None
    return isinstance(first, Message) and first.msgid == REPLY_COUNT


def csect_of(ctx: Context, command: Command) -> str:
    """The csect that answers: CSQMDRTC for a status display, CSQMDRTS for another display,
    CSQMAQLC for DEFINE QLOCAL, CSQMMSGP for the other commands."""
    if command.verb != "DISPLAY":
        return (
            DEFINE_QLOCAL_CSECT if (command.verb, command.target) == ("DEFINE", "QLOCAL") else COMMAND_CSECT
        )
    obj = ctx.catalogue.objects.get(command.target or "")
    return STATUS_CSECT if obj is not None and obj.kind == "status" else DISPLAY_CSECT


def in_zos_form(ctx: Context, command: Command, result: Result, reply: Reply) -> Result:
    """runmqsc's records and messages of result, added to reply in z/OS's words."""
    if command.verb == "DISPLAY":
        return _displayed(ctx, command, result, reply)
    obj = ctx.catalogue.objects.get(command.target or "")
    quiet = {spec.id for kind in SAID_BY_COMPLETION if obj and (spec := obj.message(kind))}
    for response in result.responses:
        if isinstance(response, Display):
            reply.details(reply.command, _on_zos(ctx, command, response.attributes), command.target or "")
        elif isinstance(response, Message) and not (result.ok and response.msgid in quiet):
            _relay(reply, _words(ctx, command, response))
    return reply.done(ok=result.ok)


def _displayed(ctx: Context, command: Command, result: Result, reply: Reply) -> Result:
    """A DISPLAY's reply: its records, or what z/OS says when there are none, and anything else the
    command said (a damaged object ...)."""
    keyword = command.target or ""
    obj = ctx.catalogue.objects.get(keyword)
    notfound = obj.message("notfound") if obj is not None else None
    not_found_ids = {NOT_FOUND} | ({notfound.id} if notfound is not None else set())
    records = [response for response in result.responses if isinstance(response, Display)]

    def says_not_found(response: Response) -> bool:
        return isinstance(response, Message) and response.msgid in not_found_ids

    others = [
        response
        for response in result.responses
        if isinstance(response, Message) and not says_not_found(response)
    ]
    found_none = not records and any(says_not_found(response) for response in result.responses)
    generic = obj is not None and obj.takes_name and is_generic(command.name or "*")
    one_missing = (
        found_none
        and not others
        and _said(result, NOT_FOUND)
        and command.name is not None
        and not generic
        and command.where is None
    )
    if one_missing:
        reply.say("CSQM094I", f"{keyword}({command.name}) WAS NOT FOUND")  # that one object is not there
        return reply.done(ok=False)
    if generic and records:
        reply.say("CSQM293I", f"{len(records)} {keyword} FOUND MATCHING REQUEST CRITERIA")
    elif found_none:
        reply.say("CSQM297I", f"NO {keyword} FOUND MATCHING REQUEST CRITERIA")
    for response in result.responses:
        if isinstance(response, Display):
            reply.details(reply.command, _on_zos(ctx, command, response.attributes), keyword)
        elif isinstance(response, Message) and not says_not_found(response):
            _relay(reply, _words(ctx, command, response))
    # z/OS: nothing matching the request is a normal completion; anything else said is as runmqsc has it.
    return reply.done(ok=result.ok or (found_none and not others))


def _on_zos(ctx: Context, command: Command, attributes: list) -> list:
    """A record's attributes as z/OS shows them: without those no z/OS queue manager has (a
    queue's DISTL, SCOPE, STATQ ...)."""
    obj = ctx.catalogue.objects.get(command.target or "")

    def on_zos(name: str) -> bool:
        spec = ctx.catalogue.attribute(name, obj)
        return spec is None or not spec.not_zos

    return [item for item in attributes if on_zos(item[0])]


def _said(result: Result, msgid: str) -> bool:
    return any(isinstance(response, Message) and response.msgid == msgid for response in result.responses)


def _relay(reply: Reply, message: Message) -> None:
    """A runmqsc message, said as the member says its own: id, command prefix and csect, text, inserts."""
    reply.say(message.msgid, message.text, inserts=message.inserts)


def _words(ctx: Context, command: Command, message: Message) -> Message:
    """z/OS's message for a runmqsc one: CSQM125I for an object not found, CSQM095I for one that
    exists (with the disposition each concerns), the message as it is otherwise."""
    name = f"{command.target}({command.name})"
    obj = ctx.catalogue.objects.get(command.target or "")
    if message.msgid == NOT_FOUND:
        missing = command.name
        if command.verb == "DEFINE" and obj is not None:  # what is missing is the object it is like
            missing = command.params.get("LIKE") or default_object(obj, command.params, command.name or "")
        return Message(
            f"{command.target}({missing}) QSGDISP({command.params.get(DISPOSITION) or QMGR}) WAS NOT FOUND",
            "CSQM125I",
        )
    if message.msgid == EXISTS and obj is not None:
        existing = ctx.qmgr.lookup(namespace_of(obj.name, obj.family), command.name or "")
        return Message(
            f"{name} QSGDISP({disposition_of(existing) if existing else QMGR}) ALREADY EXISTS", "CSQM095I"
        )
    return message
