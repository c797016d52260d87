"""DEFINE, ALTER and DELETE QLOCAL ... QSGDISP(SHARED): queues whose messages every member sees.

The definition is kept once, in the group's repository; the messages are in
the coupling-facility structure it names (CFSTRUCT). Answered in z/OS's form,
as the other queue-sharing-group commands (mqsh.commands.zos): the csect of
a real DEFINE QLOCAL reply is CSQMAQLC.

IBM documents no message for a shared queue defined without CFSTRUCT; mqsh
answers as for any value the rules refuse, CSQM092I.
"""

from __future__ import annotations

from mqsh.commands.context import Context
from mqsh.commands.objects import default_object, defined_attributes
from mqsh.commands.qsg.group import Work, members_here, run_on_repository, settings
from mqsh.commands.zos import Reply
from mqsh.core.clock import mq_date, mq_time
from mqsh.language.validate import Command
from mqsh.model.qsg.cfstruct_definitions import ADMIN
from mqsh.model.qsg.repository import SharedRepository
from mqsh.responses import Result

CSECT = "CSQMAQLC"


def _run(ctx: Context, command: Command, work: Work) -> Result:
    reply = Reply(ctx.qmgr.name, CSECT, command.typed)
    if command.target != "QLOCAL":
        return reply.failed("CSQM092I", "QSGDISP(SHARED) VALUE INVALID")  # only local queues are shared
    return run_on_repository(ctx, command, reply, work)


def _structure_refusal(repository: SharedRepository, cf: str | None, reply: Reply) -> Result | None:
    if not cf or cf == ADMIN:
        return reply.failed("CSQM092I", f"CFSTRUCT({cf or ' '}) VALUE INVALID")
    if cf not in repository.cfstructs():
        return reply.failed("CSQM094I", f"CFSTRUCT({cf}) WAS NOT FOUND")
    return None


def _define(ctx: Context, command: Command, reply: Reply, repository: SharedRepository) -> Result:
    name = command.name
    assert name is not None
    if ctx.qmgr.lookup("QUEUE", name) is not None:
        return reply.failed(
            "CSQM095I", f"QLOCAL({name}) ALREADY EXISTS"
        )  # a queue of this member has the name
    existing = repository.shared_queue(name)
    if existing is not None and not command.flag("REPLACE"):
        return reply.failed("CSQM095I", f"QLOCAL({name}) ALREADY EXISTS")
    like_attributes = None
    # A shared queue is a local queue: without LIKE it is like SYSTEM.DEFAULT.LOCAL.QUEUE, whose
    # CFSTRUCT is blank, so the command names its structure.
    like = command.params.get("LIKE") or default_object(ctx.catalogue.objects["QLOCAL"], command.params, name)
    if like is not None:
        source = repository.shared_queue(like)
        local = ctx.qmgr.lookup("QUEUE", like)
        if source is None and (local is None or local.object_type != "QLOCAL"):
            return reply.failed("CSQM094I", f"QLOCAL({like}) WAS NOT FOUND")
        like_attributes = source or local.attributes
    attributes = defined_attributes(
        ctx.catalogue.objects["QLOCAL"], settings(command), like_attributes, existing
    )
    refused = _structure_refusal(repository, attributes.get("CFSTRUCT"), reply)
    if refused is not None:
        return refused
    if (
        existing is not None
        and existing.get("CFSTRUCT") != attributes["CFSTRUCT"]
        and ctx.qmgr.shared.depth(name, existing["CFSTRUCT"]) > 0
    ):
        return reply.failed("CSQM101I", f"QLOCAL({name}) IS CURRENTLY IN USE")
    now = ctx.clock.now()
    attributes.update(QUEUE=name, QSGDISP="SHARED", ALTDATE=mq_date(now), ALTTIME=mq_time(now))
    if existing is None or "CRDATE" not in attributes:
        attributes.update(CRDATE=mq_date(now), CRTIME=mq_time(now))
    if not repository.save_shared_queue(name, attributes, now.isoformat(), new=existing is None):
        return reply.failed("CSQM095I", f"QLOCAL({name}) ALREADY EXISTS")  # another member was first
    return reply.done()


def _alter(ctx: Context, command: Command, reply: Reply, repository: SharedRepository) -> Result:
    name = command.name
    assert name is not None
    current = repository.shared_queue(name)
    if current is None:
        return reply.failed("CSQM094I", f"QLOCAL({name}) WAS NOT FOUND")
    changes = settings(command)
    attributes = {**current, **changes}
    refused = _structure_refusal(repository, attributes.get("CFSTRUCT"), reply)
    if refused is not None:
        return refused
    # A queue moves to another structure only while it holds no messages.
    if attributes["CFSTRUCT"] != current["CFSTRUCT"] and ctx.qmgr.shared.depth(name, current["CFSTRUCT"]) > 0:
        return reply.failed("CSQM101I", f"QLOCAL({name}) IS CURRENTLY IN USE")
    now = ctx.clock.now()
    attributes.update(ALTDATE=mq_date(now), ALTTIME=mq_time(now))
    if not repository.save_shared_queue(name, attributes, now.isoformat(), new=False):
        return reply.failed("CSQM094I", f"QLOCAL({name}) WAS NOT FOUND")
    return reply.done()


def _delete(ctx: Context, command: Command, reply: Reply, repository: SharedRepository) -> Result:
    name = command.name
    assert name is not None
    current = repository.shared_queue(name)
    if current is None:
        return reply.failed("CSQM094I", f"QLOCAL({name}) WAS NOT FOUND")
    # As DELETE CFSTRUCT, a shared queue goes only when it is empty and closed: its messages are in the
    # structure.
    if in_use(ctx, repository, name, current["CFSTRUCT"]):
        return reply.failed("CSQM101I", f"QLOCAL({name}) IS CURRENTLY IN USE")
    repository.delete_shared_queue(name)
    # A CFLEVEL(1) structure goes with the last queue on it, as z/OS deletes it.
    cf = current["CFSTRUCT"]
    if int(repository.cfstructs().get(cf, {}).get("CFLEVEL", 3)) == 1 and not repository.shared_queues_on(cf):
        repository.delete_cfstruct(cf)
    return reply.done()


def in_use(ctx: Context, repository: SharedRepository, name: str, cf: str) -> bool:
    """A shared queue holds messages (in its structure), or a member this process runs has it open."""
    return ctx.qmgr.shared.depth(name, cf) > 0 or any(
        member.open_handles.get(name, 0) for member in members_here(ctx, repository)
    )


def define(ctx: Context, command: Command) -> Result:
    return _run(ctx, command, _define)


def alter(ctx: Context, command: Command) -> Result:
    return _run(ctx, command, _alter)


def delete(ctx: Context, command: Command) -> Result:
    return _run(ctx, command, _delete)
