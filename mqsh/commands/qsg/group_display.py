"""What DISPLAY adds on a member of a queue-sharing group: each object's QSGDISP, and the group's
GROUP objects and SHARED queues when the disposition asks for them.

DISPLAY's QSGDISP, as z/OS's DISPLAY QUEUE describes it: LIVE (the default)
the queue manager's own objects (QMGR), its copies of group objects (COPY)
and the group's shared queues; ALL those and the GROUP objects themselves;
PRIVATE QMGR and COPY objects; QMGR, COPY, GROUP and SHARED those alone.
IBM documents the meaning of the values, not the wording of the selection;
this is that meaning.

z/OS shows QSGDISP right after the name and type (CHANNEL(...) CHLTYPE(...)
QSGDISP(QMGR)); a shared queue also names its structure, CFSTRUCT, next.
"""

from __future__ import annotations

from typing import Any

from mqsh.commands.context import Context
from mqsh.commands.display import name_matches
from mqsh.commands.qsg.copies import (
    disposition_of,
    disposition_types,
    group_of,
)
from mqsh.core.objects import COPY, DISPOSITION, GROUP, QMGR, SHARED, MQObject
from mqsh.language.catalogue import ObjectSpec
from mqsh.language.validate import Command
from mqsh.responses import Display

LOCAL = {
    "LIVE": (QMGR, COPY),
    "ALL": (QMGR, COPY),
    "PRIVATE": (QMGR, COPY),
    QMGR: (QMGR,),
    COPY: (COPY,),
    GROUP: (),
    SHARED: (),
}
WITH_GROUP = ("ALL", GROUP)
WITH_SHARED = ("LIVE", "ALL", SHARED)
QUEUE_COUNTS = {"CURDEPTH": 0, "IPPROCS": 0, "OPPROCS": 0}  # no application has a group definition open
# (a shared queue's CURDEPTH is its structure's count)

Entry = tuple[str, str, dict[str, Any]]  # (name, object type, values)


def asked(command: Command) -> str:
    return command.params.get(DISPOSITION) or "LIVE"


def shows(command: Command, found: MQObject) -> bool:
    """Whether a queue manager's own object (QMGR or COPY) is among the dispositions asked for."""
    return disposition_of(found) in LOCAL.get(asked(command), (QMGR, COPY))


def group_entries(
    ctx: Context, obj: ObjectSpec, command: Command, pattern: str, wanted_type: str | None
) -> list[Entry]:
    """The repository's GROUP objects and SHARED queues the display asks for, on a member."""
    disposition = asked(command)
    if (disposition not in WITH_GROUP and disposition not in WITH_SHARED) or not _types(ctx, obj):
        return []
    qsg = group_of(ctx)
    if qsg is None:
        return []
    # Imported on a member only: a queue manager in no group never loads the repository.
    from mqsh.model.qsg.group_objects import listing, shared_queues
    from mqsh.model.qsg.repository import RepositoryUnavailable, SharedRepository

    types = [kind for kind in _types(ctx, obj) if wanted_type in (None, "ALL", "QUEUE", kind)]
    try:
        with SharedRepository(ctx.installation.data_dir, qsg) as repository:
            entries: list[Entry] = []
            if disposition in WITH_GROUP:
                entries += [
                    (
                        item.name,
                        item.object_type,
                        _counted(item.object_type, {**item.attributes, DISPOSITION: GROUP}),
                    )
                    for item in listing(repository, types)
                    if name_matches(pattern, item.name)
                ]
            if disposition in WITH_SHARED and "QLOCAL" in types:
                defaults = ctx.catalogue.objects["QLOCAL"].variant().defaults
                entries += [
                    (
                        queue.name,
                        "QLOCAL",
                        _counted(
                            "QLOCAL",
                            {
                                **defaults,
                                **queue.attributes,
                                "QUEUE": queue.name,
                                "CFSTRUCT": queue.cfstruct,
                                DISPOSITION: SHARED,
                                "CURDEPTH": ctx.qmgr.shared.depth(queue.name, queue.cfstruct),
                            },
                        ),
                    )
                    for queue in shared_queues(repository)
                    if name_matches(pattern, queue.name)
                ]
            return entries
    except RepositoryUnavailable:
        return []  # the queue manager's own objects are still shown; the group's wait for its repository


def _types(ctx: Context, obj: ObjectSpec) -> list[str]:
    """The object types a display of obj covers (the four queue types for QUEUE)."""
    types = disposition_types(ctx.catalogue)
    if obj.kind == "family":
        return [kind for kind in types if ctx.catalogue.objects[kind].family == obj.name]
    return [obj.name] if obj.name in types else []


def _counted(object_type: str, values: dict[str, Any]) -> dict[str, Any]:
    return {**QUEUE_COUNTS, **values} if object_type == "QLOCAL" else values


def with_disposition(record: Display, values: dict[str, Any]) -> Display:
    """The record with QSGDISP (and a shared queue's CFSTRUCT) after its name and type."""
    at = 1
    if len(record.attributes) > 1 and record.attributes[1][0] in ("TYPE", "CHLTYPE", "AUTHTYPE"):
        at = 2
    added = [(DISPOSITION, values.get(DISPOSITION) or QMGR)]
    if values.get(DISPOSITION) == SHARED:
        added.append(("CFSTRUCT", values.get("CFSTRUCT") or " "))
    attributes = [item for item in record.attributes if item[0] not in (DISPOSITION, "CFSTRUCT")]
    return Display(record.msgid, record.title, attributes[:at] + added + attributes[at:], record.end)
