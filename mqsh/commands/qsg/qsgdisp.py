"""DEFINE, ALTER and DELETE with QSGDISP(GROUP) or QSGDISP(COPY), answered in z/OS's form.

GROUP changes the definition in the group's shared repository, then sends
the active members the command z/OS generates: DEFINE ... REPLACE
QSGDISP(COPY) after a DEFINE or ALTER, DELETE ... QSGDISP(COPY) after a
DELETE (whose deletion of the group object stands whether or not the
generated command fails). Members this process cannot reach catch up before
their next command (mqsh.commands.qsg.copies). COPY works on the member's own
copy: a DEFINE takes the GROUP object of the same name as its LIKE object.

Messages: CSQM125I (... QSGDISP(QMGR) WAS NOT FOUND) is from IBM's examples of
replies; CSQM095I is given the QSGDISP in the same way. IBM documents none of the
following, so they are chosen in the same style: the csect CSQMMSGP for every object type (IBM's example shows
it on DEFINE QLOCAL's CSQ9022I), CSQM101I (IS CURRENTLY IN USE) for a queue
that holds messages or is open, CSQM092I for a type that does not match.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from mqsh.commands.context import Context
from mqsh.commands.objects import default_object, defined_attributes, stamp
from mqsh.commands.qsg.copies import (
    active_members,
    disposition_of,
    is_copy,
    make_copy,
    namespace_types,
    remove_copy,
)
from mqsh.commands.qsg.group import run_on_repository, settings
from mqsh.commands.zos import COMMAND_CSECT, Reply, Scoped
from mqsh.core.objects import COPY, DISPOSITION, GROUP, QMGR, MQObject, namespace_of
from mqsh.language.catalogue import ObjectSpec
from mqsh.language.validate import Command
from mqsh.model.qmgr import QueueManager
from mqsh.model.qsg.group_objects import GroupObject, delete, find, save
from mqsh.model.qsg.repository import SharedRepository
from mqsh.responses import Result

CSECT = COMMAND_CSECT
Problem = tuple[str, str]  # (message id, text)


def disposition(command: Command) -> str | None:
    """GROUP or COPY when the command asks for one (None: the queue manager's own objects)."""
    value = command.params.get(DISPOSITION)
    return value if value in (GROUP, COPY) else None


def run(ctx: Context, command: Command) -> Result:
    """DEFINE / ALTER / DELETE ... QSGDISP(GROUP|COPY) on a member; refused outside a group."""
    reply = Reply(ctx.qmgr.name, CSECT, command.typed)
    work = HANDLERS[(command.verb, disposition(command))]
    return run_on_repository(
        ctx,
        command,
        reply,
        lambda ctx, command, reply, repository: work(
            ctx, command, reply, repository, ctx.catalogue.objects[command.target]
        ),
    )


def _not_found(obj: ObjectSpec, name: str, where: str) -> Problem:
    return "CSQM125I", f"{obj.name}({name}) QSGDISP({where}) WAS NOT FOUND"


def _exists(obj: ObjectSpec, name: str, where: str) -> Problem:
    return "CSQM095I", f"{obj.name}({name}) QSGDISP({where}) ALREADY EXISTS"


def _failed(reply: Reply, problem: Problem) -> Result:
    return reply.failed(*problem)


def _now(ctx: Context) -> str:
    return ctx.clock.now().isoformat(sep=" ")


def _altered(ctx: Context, obj: ObjectSpec, command: Command, current: dict) -> tuple[dict, Problem | None]:
    """ALTER's new attributes, stamped; or the problem: it may not change the discriminator
    (CHLTYPE, AUTHTYPE) of a definition."""
    changes = settings(command)
    key = obj.discriminator
    if key and key in changes and changes[key] != current.get(key):
        return current, ("CSQM092I", f"{key}({changes[key]}) VALUE INVALID")
    attributes = {**current, **changes}
    stamp(attributes, ctx, created=False)
    return attributes, None


# ------------------------------------------------------------ GROUP
def _define_group(
    ctx: Context, command: Command, reply: Reply, repository: SharedRepository, obj: ObjectSpec
) -> Result:
    name = command.name or ""
    types = namespace_types(ctx.catalogue, obj.name)
    existing = find(repository, types, name)
    if existing is not None and (not command.flag("REPLACE") or existing.object_type != obj.name):
        return _failed(reply, _exists(obj, name, GROUP))
    like_attributes = None
    like = command.params.get("LIKE")
    if like:  # a group object is like another group object
        source = find(repository, [obj.name], like)
        if source is None:
            return _failed(reply, _not_found(obj, like, GROUP))
        like_attributes = source.attributes
    else:
        found = _default_object(ctx, obj, command, name)
        if isinstance(found, str):
            return _failed(reply, _not_found(obj, found, QMGR))
        like_attributes = found
    attributes = defined_attributes(
        obj, settings(command), like_attributes, existing.attributes if existing is not None else None
    )
    attributes.pop(DISPOSITION, None)  # a copy's QSGDISP is not lent: the disposition is the command's
    if obj.name_attribute:
        attributes[obj.name_attribute] = name
    stamp(attributes, ctx, created="CRDATE" not in attributes)
    saved = save(repository, types, obj.name, name, attributes, _now(ctx), new=existing is None)
    if saved is None:  # another member changed it between the look and the change
        return _failed(reply, _exists(obj, name, GROUP) if existing is None else _not_found(obj, name, GROUP))
    return _generate(ctx, command, repository, lambda member: _copy_on(ctx, member, saved))


def _default_object(ctx: Context, obj: ObjectSpec, command: Command, name: str) -> dict | str | None:
    """What a group object defined without LIKE is like: the default object of its type on the
    queue manager that runs the command, its own or its copy of a group one (z/OS keeps both on
    page set zero); or the name of that default object when it is not there."""
    default = default_object(obj, command.params, name)
    if default is None:
        return None
    found = ctx.qmgr.lookup(namespace_of(obj.name, obj.family), default)
    if found is None or found.object_type != obj.name or found.damaged:
        return default
    return found.attributes


def _of_type(ctx: Context, repository: SharedRepository, obj: ObjectSpec, name: str) -> GroupObject | None:
    """The group object of that name, when it is of the command's type (any queue type for QUEUE)."""
    existing = find(repository, namespace_types(ctx.catalogue, obj.name), name)
    if existing is None or (obj.kind != "family" and existing.object_type != obj.name):
        return None
    return existing


def _alter_group(
    ctx: Context, command: Command, reply: Reply, repository: SharedRepository, obj: ObjectSpec
) -> Result:
    name = command.name or ""
    existing = _of_type(ctx, repository, obj, name)
    if existing is None:
        return _failed(reply, _not_found(obj, name, GROUP))
    attributes, problem = _altered(ctx, obj, command, existing.attributes)
    if problem is not None:
        return _failed(reply, problem)
    saved = save(
        repository,
        namespace_types(ctx.catalogue, obj.name),
        existing.object_type,
        name,
        attributes,
        _now(ctx),
        new=False,
    )
    if saved is None:
        return _failed(reply, _not_found(obj, name, GROUP))
    return _generate(ctx, command, repository, lambda member: _copy_on(ctx, member, saved))


def _delete_group(
    ctx: Context, command: Command, reply: Reply, repository: SharedRepository, obj: ObjectSpec
) -> Result:
    name = command.name or ""
    if (
        _of_type(ctx, repository, obj, name) is None
        or delete(repository, namespace_types(ctx.catalogue, obj.name), name) is None
    ):
        return _failed(reply, _not_found(obj, name, GROUP))
    return _generate(ctx, command, repository, lambda member: _uncopy_on(ctx, member, obj, name, purge=False))


def _copy_on(ctx: Context, member: QueueManager, group_object: GroupObject) -> list[Problem]:
    """The generated DEFINE ... REPLACE QSGDISP(COPY) on one member."""
    namespace = namespace_of(group_object.object_type, ctx.catalogue.objects[group_object.object_type].family)
    standing = make_copy(member, group_object, namespace)
    obj = ctx.catalogue.objects[group_object.object_type]
    return [] if standing is None else [_exists(obj, group_object.name, standing)]


def _uncopy_on(ctx: Context, member: QueueManager, obj: ObjectSpec, name: str, purge: bool) -> list[Problem]:
    """DELETE ... QSGDISP(COPY) on one member."""
    found = _local(member, obj, name, COPY)
    if found is None:
        return [_not_found(obj, name, COPY)]
    if not remove_copy(member, found, purge):
        return [("CSQM101I", f"{obj.name}({name}) IS CURRENTLY IN USE")]
    return []


def _generate(
    ctx: Context,
    command: Command,
    repository: SharedRepository,
    action: Callable[[QueueManager], list[Problem]],
) -> Result:
    """The command QSGDISP(GROUP) generates, run on every active member, and their replies."""
    scoped = Scoped(ctx.qmgr.name, command.typed, "*", generated=True)
    for member in active_members(ctx, repository, caught_up=False):
        block = scoped.member(member.name, CSECT)
        problems = action(member)
        for msgid, text in problems:
            block.say(msgid, text)
        scoped.blocks.append(block.done(ok=not problems))
    return scoped.done()


# ------------------------------------------------------------ COPY
def _local(qmgr: QueueManager, obj: ObjectSpec, name: str, wanted: str) -> MQObject | None:
    """The member's own object of that name, of the type (any queue type for QUEUE) and disposition."""
    found = qmgr.lookup(namespace_of(obj.name, obj.family), name)
    if (
        found is None
        or (obj.kind != "family" and found.object_type != obj.name)
        or disposition_of(found) != wanted
    ):
        return None
    return found


def _define_copy(
    ctx: Context, command: Command, reply: Reply, repository: SharedRepository, obj: ObjectSpec
) -> Result:
    name = command.name or ""
    source = find(repository, namespace_types(ctx.catalogue, obj.name), name)
    if source is None or source.object_type != obj.name:
        return _failed(reply, _not_found(obj, name, GROUP))
    existing = ctx.qmgr.lookup(namespace_of(obj.name, obj.family), name)
    if existing is not None and (not is_copy(existing) or not command.flag("REPLACE")):
        return _failed(reply, _exists(obj, name, disposition_of(existing)))
    changes = settings(command)
    attributes = {**source.attributes, **changes}
    if changes:
        stamp(attributes, ctx, created=False)
    problems = _copy_on(ctx, ctx.qmgr, replace(source, attributes=attributes))
    return _failed(reply, problems[0]) if problems else reply.done()


def _alter_copy(
    ctx: Context, command: Command, reply: Reply, repository: SharedRepository, obj: ObjectSpec
) -> Result:
    name = command.name or ""
    found = _local(ctx.qmgr, obj, name, COPY)
    if found is None:
        return _failed(reply, _not_found(obj, name, COPY))
    attributes, problem = _altered(ctx, obj, command, found.attributes)
    if problem is not None:
        return _failed(reply, problem)
    ctx.qmgr.save_object(found.object_type, found.namespace, found.name, attributes)
    return reply.done()


def _delete_copy(
    ctx: Context, command: Command, reply: Reply, repository: SharedRepository, obj: ObjectSpec
) -> Result:
    problems = _uncopy_on(ctx, ctx.qmgr, obj, command.name or "", purge=command.flag("PURGE"))
    return _failed(reply, problems[0]) if problems else reply.done()


HANDLERS = {
    ("DEFINE", GROUP): _define_group,
    ("ALTER", GROUP): _alter_group,
    ("DELETE", GROUP): _delete_group,
    ("DEFINE", COPY): _define_copy,
    ("ALTER", COPY): _alter_copy,
    ("DELETE", COPY): _delete_copy,
}
