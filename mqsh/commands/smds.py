"""ALTER and DISPLAY SMDS: each member's overrides for its shared message data set of a structure.

The SMDS object is an array with one entry per member, an extension of the
CFSTRUCT object in the shared repository. Its attributes, DSBUFS and DSEXPAND,
override the structure's own for one member's data set; DEFAULT means the
structure's value. Both commands take a structure that offloads to SMDS
(OFFLOAD(SMDS), so CFLEVEL(5)); SMDS(*) stands for every member.

RESET SMDS, which changes a data set's ACCESS and STATUS, needs the data sets
themselves and is not carried out yet.
"""

from __future__ import annotations

from mqsh.commands.context import Context
from mqsh.commands.display import build_display, is_generic, name_matches
from mqsh.commands.group import run_on_repository, settings
from mqsh.commands.zos import Reply
from mqsh.language.validate import Command
from mqsh.model.qsg.repository import SharedRepository
from mqsh.model.qsg.structures import ADMIN
from mqsh.responses import Result

# NOT FOUND: the csect names of the SMDS commands (mqsh: CSQMASMD, and CSQMDRTS as for other displays).
CHANGE_CSECT = "CSQMASMD"
DISPLAY_CSECT = "CSQMDRTS"
DEFAULT = "DEFAULT"


def _members_named(command: Command, reply: Reply, repository: SharedRepository) -> list[str] | Result:
    """The members SMDS(...) names, after checking the structure offloads to data sets."""
    structure = command.params["CFSTRUCT"]
    definition = repository.cfstructs().get(structure)
    if definition is None or structure == ADMIN:
        return reply.failed("CSQM094I", f"CFSTRUCT({structure}) WAS NOT FOUND")
    if definition.get("OFFLOAD") != "SMDS":
        return reply.failed("CSQM092I", f"CFSTRUCT({structure}) VALUE INVALID")  # no data sets to act on
    pattern = command.name or "*"
    members = [member.qmgr for member in repository.members() if name_matches(pattern, member.qmgr)]
    if not members and not is_generic(pattern):
        return reply.failed("CSQM094I", f"SMDS({pattern}) WAS NOT FOUND")
    return members


def _alter(ctx: Context, command: Command, reply: Reply, repository: SharedRepository) -> Result:
    members = _members_named(command, reply, repository)
    if isinstance(members, Result):
        return members
    repository.set_smds_overrides(command.params["CFSTRUCT"], members, settings(command, also_not=("CFSTRUCT",)))
    return reply.done()


def _display(ctx: Context, command: Command, reply: Reply, repository: SharedRepository) -> Result:
    members = _members_named(command, reply, repository)
    if isinstance(members, Result):
        return members
    structure = command.params["CFSTRUCT"]
    spec = ctx.catalogue.objects["SMDS"]
    variant = spec.variant()
    overrides = repository.smds_overrides(structure)
    records = []
    for qmgr in members:
        values = {"DSBUFS": DEFAULT, "DSEXPAND": DEFAULT, **overrides.get(qmgr, {}),
                  "SMDS": qmgr, "CFSTRUCT": structure}
        record = build_display(ctx.catalogue, spec, command, values, variant.attributes)
        if record is not None:
            records.append(record)
    return reply.displayed("SMDS", records, is_generic(command.name or "*"))


def alter(ctx: Context, command: Command) -> Result:
    return run_on_repository(ctx, command, Reply(ctx.qmgr.name, CHANGE_CSECT, "ALTER SMDS"), _alter)


def display(ctx: Context, command: Command) -> Result:
    return run_on_repository(ctx, command, Reply(ctx.qmgr.name, DISPLAY_CSECT, "DISPLAY SMDS"), _display)
