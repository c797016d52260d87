"""DISPLAY ENTAUTH: the authorities one user or group holds on one object.

They are the union of the authority lists of every record (SET AUTHREC) for that entity
whose object type is the object's and whose profile matches the object's name, as the
object authority manager of MQ on Multiplatforms combines generic profiles. mqsh models
no operating system users, so a principal holds what its own records give it: group
membership does not add to it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from mqsh.commands.context import Context
from mqsh.commands.display import build_display
from mqsh.commands.objects import catalogue_failure, not_found
from mqsh.language.validate import Command
from mqsh.responses import Result

# The name space holding each object type an authority record can protect. Client-connection
# channels and remote queue manager names (RQMNAME) need not exist as objects here.
OBJECT_NAMESPACES = {
    "QUEUE": "QUEUE",
    "CHANNEL": "CHANNEL",
    "TOPIC": "TOPIC",
    "PROCESS": "PROCESS",
    "NAMELIST": "NAMELIST",
    "AUTHINFO": "AUTHINFO",
    "LISTENER": "LISTENER",
    "SERVICE": "SERVICE",
    "COMMINFO": "COMMINFO",
}


@lru_cache(maxsize=256)
def _profile_pattern(profile: str) -> re.Pattern[str]:
    """An OAM profile as a regular expression. Within a qualifier (the text between dots)
    '?' stands for one character and '*' for any number; a qualifier '**' stands for any
    number of whole qualifiers, none included."""
    qualifiers = profile.split(".")
    parts = []
    for index, qualifier in enumerate(qualifiers):
        if qualifier == "**":
            if len(qualifiers) == 1:
                parts.append(".*")
            elif index == 0:
                parts.append(r"(?:.*\.)?")  # '**.B': B, or anything that ends in '.B'
            else:
                parts.append(r"(?:\..*)?")  # 'A.**' and 'A.**.B': nothing more, or '.' and more
            continue
        if index > 0 and not (index == 1 and qualifiers[0] == "**"):
            parts.append(r"\.")
        parts.append(
            "".join(
                "[^.]" if char == "?" else "[^.]*" if char == "*" else re.escape(char) for char in qualifier
            )
        )
    return re.compile("".join(parts))


def profile_matches(profile: str, name: str) -> bool:
    """Whether an authority record's profile (a name or a generic profile) covers an object name."""
    return _profile_pattern(profile).fullmatch(name) is not None


def display_entauth(ctx: Context, command: Command) -> Result:
    params = command.params
    entity = params.get("PRINCIPAL") or params.get("GROUP")
    if not entity:
        return Result.failure("PRINCIPAL or GROUP is required.", "AMQ8425E")
    entity_type = "PRINCIPAL" if params.get("PRINCIPAL") else "GROUP"
    object_type, object_name = params["OBJTYPE"], params["OBJNAME"]
    namespace = OBJECT_NAMESPACES.get(object_type)
    if object_type == "QMGR" and object_name != ctx.qmgr.name:
        return not_found(object_name)
    if namespace is not None and ctx.qmgr.lookup(namespace, object_name) is None:
        return not_found(object_name)
    granted: set[str] = set()
    for record in ctx.qmgr.objects("AUTHREC"):
        values = record.attributes
        if (
            values.get("OBJTYPE") == object_type
            and values.get("ENTTYPE") == entity_type
            and values.get("ENTITY") == entity
            and profile_matches(values.get("PROFILE", ""), object_name)
        ):
            granted |= set(values.get("AUTHLIST", []))
    granted.discard("NONE")
    spec = ctx.catalogue.objects["ENTAUTH"]
    values = {
        "ENTITY": entity,
        "ENTTYPE": entity_type,
        "OBJNAME": object_name,
        "OBJTYPE": object_type,
        "AUTHLIST": sorted(granted) or ["NONE"],
    }
    shown = build_display(ctx.catalogue, spec, command, values, spec.variant().attributes)
    return Result([shown]) if shown is not None else catalogue_failure(ctx, "ENTAUTH", "notfound")
