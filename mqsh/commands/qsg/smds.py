"""ALTER, DISPLAY and RESET SMDS: each member's shared message data set of a structure.

The SMDS object is an array with one entry per member, an extension of the
CFSTRUCT object in the shared repository. Its attributes, DSBUFS and DSEXPAND,
override the structure's own for one member's data set; DEFAULT means the
structure's value. Setting DSEXPAND back to YES or DEFAULT has the owner retry an
expansion that failed, at once when this process runs it. Both commands take a structure that offloads to SMDS
(OFFLOAD(SMDS), so CFLEVEL(5)); SMDS(*) stands for every member.

RESET SMDS changes a data set's shared availability (ACCESS) or status
(STATUS), with z/OS's rules (mqsh.model.qsg.states): ACCESS(DISABLED) has
every member close it normally, ACCESS(ENABLED) lets it be used again (a
retry, when its owner's error had suspended it); STATUS(FAILED) has every
member close it at once, STATUS(RECOVERED) (from FAILED only) lets its owner
open it, rebuild its space map and make it ACTIVE. The members this process
runs act at once; the others at their next use of the data set.

IBM documents none of these, so they are chosen in the style of CSQM092I: the refusal of a status change
the data set's status does not allow ("STATUS(RECOVERED) VALUE INVALID FOR
SMDS(QM1) STATUS(ACTIVE)"); SMDS(*) leaves out data sets never activated,
as DISPLAY CFSTATUS does, where a named one is refused.
"""

from __future__ import annotations

from mqsh.commands.context import Context
from mqsh.commands.display import build_display, is_generic, name_matches
from mqsh.commands.qsg.group import members_here, run_on_repository, settings
from mqsh.commands.zos import DISPLAY_CSECT, Reply
from mqsh.language.validate import Command
from mqsh.model.qsg import states
from mqsh.model.qsg.cfstruct_definitions import ADMIN
from mqsh.model.qsg.repository import SharedRepository
from mqsh.responses import Result

# IBM documents no csect name for the SMDS changes (mqsh: CSQMASMD); the display is z/OS's other displays'.
CHANGE_CSECT = "CSQMASMD"
DEFAULT = "DEFAULT"


def data_sets_named(
    command: Command, reply: Reply, repository: SharedRepository, generic_structures: bool = False
) -> list[tuple[str, str]] | Result:
    """(structure, owner) of the data sets the command names (its name, the owners; CFSTRUCT, the
    structures: generic only where generic_structures), after checking a structure it names
    offloads to data sets."""
    pattern = str(command.params["CFSTRUCT"])
    structures = repository.cfstructs()
    if generic_structures and is_generic(pattern):
        named = [
            name
            for name, attributes in structures.items()
            if name != ADMIN and name_matches(pattern, name) and attributes.get("OFFLOAD") == "SMDS"
        ]
    else:
        definition = structures.get(pattern)
        if definition is None or pattern == ADMIN:
            return reply.failed("CSQM094I", f"CFSTRUCT({pattern}) WAS NOT FOUND")
        if definition.get("OFFLOAD") != "SMDS":
            return reply.failed("CSQM092I", f"CFSTRUCT({pattern}) VALUE INVALID")  # no data sets to act on
        named = [pattern]
    owners = command.name or "*"
    members = [member.qmgr for member in repository.members() if name_matches(owners, member.qmgr)]
    if not members and not is_generic(owners):
        return reply.failed("CSQM094I", f"{command.target}({owners}) WAS NOT FOUND")
    return [(cf, owner) for cf in sorted(named) for owner in members]


def _members_named(command: Command, reply: Reply, repository: SharedRepository) -> list[str] | Result:
    """The members SMDS(...) names, after checking the structure offloads to data sets."""
    named = data_sets_named(command, reply, repository)
    return named if isinstance(named, Result) else [owner for _cf, owner in named]


def _alter(ctx: Context, command: Command, reply: Reply, repository: SharedRepository) -> Result:
    members = _members_named(command, reply, repository)
    if isinstance(members, Result):
        return members
    cf = str(command.params["CFSTRUCT"])
    repository.set_smds_overrides(cf, members, settings(command, also_not=("CFSTRUCT",)))
    if command.params.get("DSEXPAND") in ("YES", DEFAULT):
        for member in members_here(ctx, repository):
            if member.name in members:
                member.shared.retry_expansion(cf)  # the owner retries an expansion that failed
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
        values = {
            "DSBUFS": DEFAULT,
            "DSEXPAND": DEFAULT,
            **overrides.get(qmgr, {}),
            "SMDS": qmgr,
            "CFSTRUCT": structure,
        }
        record = build_display(ctx.catalogue, spec, command, values, variant.attributes)
        if record is not None:
            records.append(record)
    return reply.displayed("SMDS", records, is_generic(command.name or "*"))


def _reset(ctx: Context, command: Command, reply: Reply, repository: SharedRepository) -> Result:
    members = _members_named(command, reply, repository)
    if isinstance(members, Result):
        return members
    cf = str(command.params["CFSTRUCT"])
    access, status = command.params.get("ACCESS"), command.params.get("STATUS")
    now = ctx.qmgr.shared.now()
    changed, ok = [], True
    for owner in members:
        state = states.smds_state(repository, cf, owner)
        if status is not None:
            allowed = (
                (states.FAILED,)
                if status == states.RECOVERED
                else (states.NEW, states.ACTIVE, states.FAILED, states.RECOVERED, states.EMPTY)
            )
            if state.status not in allowed:
                if state.status == states.NOTFOUND and command.name == "*":
                    continue  # never activated: nothing to fail or recover
                reply.say(
                    "CSQM092I", f"STATUS({status}) VALUE INVALID FOR SMDS({owner}) STATUS({state.status})"
                )
                ok = False
                continue
            states.set_smds_status(repository, cf, owner, status, now)
        else:
            states.set_smds_access(repository, cf, owner, str(access))
        changed.append(owner)
    for member in members_here(ctx, repository):
        for owner in changed:
            member.shared.settle(cf, owner)
    return reply.done(ok)


def alter(ctx: Context, command: Command) -> Result:
    return run_on_repository(ctx, command, Reply(ctx.qmgr.name, CHANGE_CSECT, command.typed), _alter)


def display(ctx: Context, command: Command) -> Result:
    return run_on_repository(ctx, command, Reply(ctx.qmgr.name, DISPLAY_CSECT, command.typed), _display)


def reset(ctx: Context, command: Command) -> Result:
    return run_on_repository(ctx, command, Reply(ctx.qmgr.name, CHANGE_CSECT, command.typed), _reset)
