"""DEFINE, ALTER, DELETE, DISPLAY and RESET CFSTRUCT: the group's structures, in its shared repository.

Valid only on a member of a queue-sharing group, and answered in z/OS's form
(mqsh.commands.zos). The rules of a definition are mqsh.model.qsg.cfstruct_definitions'.

Message texts: CSQM094I (WAS NOT FOUND), CSQM095I (ALREADY EXISTS), CSQM092I
(VALUE INVALID) and CSQM101I (IS CURRENTLY IN USE) are z/OS's message manager
messages as they are commonly quoted; CSQM293I and CSQM297I are from real
replies.

RESET CFSTRUCT ACTION(FAIL) simulates a structure failure (IBM: it "requires
the structure to be defined with CFLEVEL(5)"): the structure is FAILED, its
entries are lost, its data sets stay as they are. IBM documents no reply for
the following, so they are chosen in the style of CSQM092I and CSQE102E ("Unable to recover structure ..., not in
failed state"): CFLEVEL(n) VALUE INVALID for a lower level, and CSQE103E
for a structure that is not active (not allocated, or failed already). A
structure shown INRECOVER is the exception: APAR PI38522 gives ACTION(FAIL)
as the fix for one left so by a queue manager that ended during its
recovery; the dead claim is released (mqsh.model.qsg.claims) and the
structure failed again, while a recovery that still runs gets CSQE101I.
"""

from __future__ import annotations

from typing import Any

from mqsh.commands.context import Context
from mqsh.commands.display import build_display, is_generic, name_matches
from mqsh.commands.qsg.group import Work, members_here, run_on_repository, settings
from mqsh.commands.qsg.shared_queues import in_use
from mqsh.commands.zos import DISPLAY_CSECT, Reply
from mqsh.core.clock import mq_date, mq_time
from mqsh.language.validate import Command
from mqsh.model.qsg import claims, states
from mqsh.model.qsg.cfstruct_definitions import ADMIN, named_admin, new_definition, refusal
from mqsh.model.qsg.repository import SharedRepository
from mqsh.responses import Result

CHANGE_CSECT = "CSQMACFS"


def _reply(ctx: Context, command: Command) -> Reply:
    csect = DISPLAY_CSECT if command.verb == "DISPLAY" else CHANGE_CSECT
    return Reply(ctx.qmgr.name, csect, command.typed)


def _stamped(ctx: Context, attributes: dict[str, Any]) -> dict[str, Any]:
    now = ctx.clock.now()
    return {**attributes, "ALTDATE": mq_date(now), "ALTTIME": mq_time(now)}


def _run(ctx: Context, command: Command, work: Work) -> Result:
    reply = _reply(ctx, command)
    if named_admin(command.name):
        return reply.failed("CSQM092I", f"CFSTRUCT({ADMIN}) VALUE INVALID")
    return run_on_repository(ctx, command, reply, work)


def _define(ctx: Context, command: Command, reply: Reply, repository: SharedRepository) -> Result:
    name = command.name
    structures = repository.cfstructs()
    changes = settings(command)
    like = command.params.get("LIKE")
    if like is not None:
        if like not in structures or like == ADMIN:
            return reply.failed("CSQM094I", f"CFSTRUCT({like}) WAS NOT FOUND")
        changes = {**structures[like], **changes}
    exists = name in structures
    if exists and not command.flag("REPLACE"):
        return reply.failed("CSQM095I", f"CFSTRUCT({name}) ALREADY EXISTS")
    defaults = ctx.catalogue.objects["CFSTRUCT"].variant().defaults
    attributes = {**defaults, **structures[name], **changes} if exists else new_definition(defaults, changes)
    wrong = refusal(name, attributes, changes)
    if wrong is not None:
        return reply.failed("CSQM092I", f"{wrong.keyword}({wrong.value}) VALUE INVALID")
    if not repository.save_cfstruct(
        name, _stamped(ctx, attributes), ctx.clock.now().isoformat(), new=not exists
    ):
        return reply.failed("CSQM095I", f"CFSTRUCT({name}) ALREADY EXISTS")  # another member was first
    return reply.done()


def _alter(ctx: Context, command: Command, reply: Reply, repository: SharedRepository) -> Result:
    name = command.name
    current = repository.cfstructs().get(name)
    if current is None:
        return reply.failed("CSQM094I", f"CFSTRUCT({name}) WAS NOT FOUND")
    changes = settings(command)
    attributes = {**ctx.catalogue.objects["CFSTRUCT"].variant().defaults, **current, **changes}
    wrong = refusal(name, attributes, changes)
    if wrong is not None:
        return reply.failed("CSQM092I", f"{wrong.keyword}({wrong.value}) VALUE INVALID")
    if not repository.save_cfstruct(name, _stamped(ctx, attributes), ctx.clock.now().isoformat(), new=False):
        return reply.failed("CSQM094I", f"CFSTRUCT({name}) WAS NOT FOUND")  # deleted by another member
    return reply.done()


def _delete(ctx: Context, command: Command, reply: Reply, repository: SharedRepository) -> Result:
    name = command.name
    # Queues may still name it (they can be used again once it is defined again), but none may be in
    # use: every one empty and closed.
    if any(in_use(ctx, repository, queue, name) for queue in repository.shared_queues_on(name)):
        return reply.failed("CSQM101I", f"CFSTRUCT({name}) IS CURRENTLY IN USE")
    if not repository.delete_cfstruct(name):
        return reply.failed("CSQM094I", f"CFSTRUCT({name}) WAS NOT FOUND")
    claims.forget_structure(repository, name)
    return reply.done()


def _display(ctx: Context, command: Command, reply: Reply, repository: SharedRepository) -> Result:
    spec = ctx.catalogue.objects["CFSTRUCT"]
    variant = spec.variant()
    pattern = command.name or "*"
    found = {
        name: attributes
        for name, attributes in repository.cfstructs().items()
        if name != ADMIN and name_matches(pattern, name)
    }
    records = []
    for name, attributes in found.items():
        record = build_display(
            ctx.catalogue,
            spec,
            command,
            {**variant.defaults, **attributes, "CFSTRUCT": name},
            variant.attributes,
        )
        if record is not None:
            records.append(record)
    if not is_generic(pattern) and not found:
        return reply.failed("CSQM094I", f"CFSTRUCT({pattern}) WAS NOT FOUND")
    return reply.displayed("CFSTRUCT", records, is_generic(pattern))


def _reset(ctx: Context, command: Command, reply: Reply, repository: SharedRepository) -> Result:
    name = command.name or ""
    current = repository.cfstructs().get(name)
    if current is None:
        return reply.failed("CSQM094I", f"CFSTRUCT({name}) WAS NOT FOUND")
    level = int(current.get("CFLEVEL", 3))
    if level < 5:
        return reply.failed("CSQM092I", f"CFLEVEL({level}) VALUE INVALID")
    state = states.structure_state(repository, name)
    claimed = state.busy_kind
    if claimed is not None:
        # A structure shown INRECOVER: z/OS's way out of one left so by a queue manager that ended
        # during its recovery (APAR PI38522). A BACKUP or RECOVER still running is honoured as they
        # honour each other (CSQE101I: "a BACKUP or RECOVER CFSTRUCT command is in progress"), so
        # that a backup never reads a structure failed under it.
        claims.release_dead(repository, name, ctx.qmgr.shared.now())
        state = states.structure_state(repository, name)
        if state.busy_kind is not None:
            return reply.failed("CSQE101I", f"Unable to backup or recover structure {name}, structure in use")
    if claimed != "RECOVER" and state.status != states.ACTIVE:
        return reply.failed(
            "CSQE103E", f"Unable to fail structure {name}, not in active state ({state.status})"
        )
    ctx.qmgr.shared.fail(name)
    for member in members_here(ctx, repository):
        member.shared.drop(name)
    return reply.done()


def define(ctx: Context, command: Command) -> Result:
    return _run(ctx, command, _define)


def alter(ctx: Context, command: Command) -> Result:
    return _run(ctx, command, _alter)


def delete(ctx: Context, command: Command) -> Result:
    return _run(ctx, command, _delete)


def display(ctx: Context, command: Command) -> Result:
    return _run(ctx, command, _display)


def reset(ctx: Context, command: Command) -> Result:
    return _run(ctx, command, _reset)
