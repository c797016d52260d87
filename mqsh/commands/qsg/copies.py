"""A member's COPY objects, kept in step with its group's GROUP objects, and the members a command reaches.

A COPY object lives in the member's own catalog like any other, marked by
the attribute QSGDISP = COPY (an object without it has QSGDISP(QMGR)).

z/OS sends a generated DEFINE ... REPLACE QSGDISP(COPY) (or DELETE ...
QSGDISP(COPY)) to the active members when a GROUP object changes, and
refreshes every COPY object from the GROUP objects when a member starts. A
member held by another mqsh process cannot be sent anything, so here every
member, before each command, compares the repository's change count with
the one its copies reflect (one small read) and, when it moved, refreshes
the copies of the objects changed since and drops the copies whose GROUP
object is gone. The first look after a start refreshes them all, as z/OS's
start does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mqsh.commands.context import Context
from mqsh.core.objects import COPY, DISPOSITION, QMGR, MQObject, namespace_of
from mqsh.core.reasons import MQError
from mqsh.language.catalogue import Catalogue
from mqsh.model.qmgr import QueueManager
from mqsh.model.sharing_groups import membership, start_problem

if TYPE_CHECKING:  # a member's: a queue manager in no group never loads them
    from mqsh.model.qsg.group_objects import GroupObject
    from mqsh.model.qsg.repository import SharedRepository


def disposition_types(catalogue: Catalogue) -> dict[str, str]:
    """Object type -> name space, for the types DEFINE takes QSGDISP for (queues, CHANNEL, PROCESS ...)."""
    return {
        target: namespace_of(target, catalogue.objects[target].family)
        for target, params in catalogue.verbs["DEFINE"].extra.items()
        if DISPOSITION in params
    }


def namespace_types(catalogue: Catalogue, object_type: str) -> list[str]:
    """The types that share a name space with object_type (the four queue types)."""
    types = disposition_types(catalogue)
    return [other for other, namespace in types.items() if namespace == types[object_type]]


def is_copy(found: MQObject) -> bool:
    return found.attributes.get(DISPOSITION) == COPY


def disposition_of(found: MQObject) -> str:
    return COPY if is_copy(found) else QMGR


def group_of(ctx: Context) -> str | None:
    """The connected queue manager's queue-sharing group, or None."""
    known = ctx.qmgr.group_copies
    return known[0] if known is not None else membership(ctx.installation, ctx.qmgr.name)


def catch_up(ctx: Context) -> None:
    """Refresh the member's COPY objects when its group's GROUP objects changed since it last looked."""
    qmgr = ctx.qmgr
    known = qmgr.group_copies
    qsg = group_of(ctx)
    if qsg is None:
        qmgr.group_copies = (None, 0)
        return
    from mqsh.model.qsg.group_objects import change_count

    try:
        repository = qmgr.shared.repository()  # open while the member runs: one small read per command
    except MQError:
        return  # the commands that need the repository say so; the copies wait for it
    count = change_count(repository)
    if known is not None and known[1] == count:
        return
    refresh(ctx.catalogue, qmgr, repository, since=known[1] if known is not None else 0)
    qmgr.group_copies = (qsg, count)


def refresh(catalogue: Catalogue, qmgr: QueueManager, repository: SharedRepository, since: int) -> None:
    from mqsh.model.qsg.group_objects import listing

    types = disposition_types(catalogue)
    every = listing(repository, types)
    for group_object in every:
        if group_object.serial > since:
            make_copy(qmgr, group_object, types[group_object.object_type])
    present = {(types[group_object.object_type], group_object.name) for group_object in every}
    for namespace in sorted(set(types.values())):
        for found in list(qmgr.objects(namespace)):
            if is_copy(found) and (namespace, found.name) not in present:
                remove_copy(qmgr, found)


def make_copy(qmgr: QueueManager, group_object: GroupObject, namespace: str) -> str | None:
    """The generated DEFINE ... REPLACE QSGDISP(COPY): None when made (or already the same), else the
    disposition of the object of that name that stands in the way (a QMGR object is never replaced)."""
    existing = qmgr.lookup(namespace, group_object.name)
    if existing is not None and (
        not is_copy(existing) or existing.damaged or existing.object_type != group_object.object_type
    ):
        return disposition_of(existing)
    attributes = {**group_object.attributes, DISPOSITION: COPY}
    if existing is None or existing.attributes != attributes:
        qmgr.save_object(group_object.object_type, namespace, group_object.name, attributes)
    return None


def in_use(qmgr: QueueManager, found: MQObject) -> bool:
    """Messages in a unit of work, or handles open on it (LAB OPEN), keep a queue in use."""
    return any(message.uow for message in found.messages) or bool(qmgr.open_handles.get(found.name))


def remove_copy(qmgr: QueueManager, found: MQObject, purge: bool = False) -> bool:
    """The generated DELETE ... QSGDISP(COPY); False when the copy is in use or, unless purge,
    holds messages (it stays, as a failed generated command leaves it on z/OS)."""
    if not found.damaged and (in_use(qmgr, found) or (found.messages and not purge)):
        return False
    qmgr.delete_object(found.namespace, found.name)
    return True


def active_members(
    ctx: Context, repository: SharedRepository, only: str | None = None, caught_up: bool = True
) -> list[QueueManager]:
    """The group's members this process can run commands on (only the one named, when one is), the
    connected one first: those it holds, and those recorded as running that no other process holds
    (taken over, as a connection takes them over). caught_up: each with its copies caught up first,
    as before any command; not for the command a GROUP change generates, which is that catching up."""
    members = [ctx.qmgr] if only in (None, ctx.qmgr.name) else []
    for member in repository.members():
        name = member.qmgr
        if name == ctx.qmgr.name or only not in (None, name) or not ctx.installation.reachable(name):
            continue
        if name not in ctx.installation.held and start_problem(ctx.installation, name) is not None:
            continue
        try:
            qmgr = ctx.installation.connect(name)
        except Exception:
            continue
        if caught_up:
            catch_up(Context(ctx.catalogue, ctx.installation, qmgr))
        members.append(qmgr)
    return members
