"""START, STOP and DISPLAY SMDSCONN: this member's connections to the group's shared message data sets.

An SMDSCONN entry is the connected member's own (there is no keyword for
the connecting member: CMDSCOPE sends the command to others), named by the
data set's owner and its structure, both possibly * (and generic in
DISPLAY). STOP closes the data set normally (the owner saving its space
map) and marks the connection AVAIL(STOPPED), which the SMDS entry in the
repository keeps across the member's restart; START makes it AVAIL(NORMAL)
again, also after an error, and the member tries the data set again (now
when it is its own and the structure is connected, else at its next use).
The display shows the member's entries as it holds them in memory; one it
has not used since it started is NOTOPEN.

IBM documents neither the success replies (only CSQ9022I, as for the other z/OS
commands here) nor the csects (mqsh: CSQMASMD as for the SMDS commands,
CSQMDRTC as for the other status displays).
"""

from __future__ import annotations

from mqsh.commands.context import Context
from mqsh.commands.display import build_display, is_generic
from mqsh.commands.qsg.group import run_on_repository
from mqsh.commands.qsg.smds import CHANGE_CSECT, data_sets_named
from mqsh.commands.zos import Reply
from mqsh.language.validate import Command
from mqsh.model.qsg.repository import SharedRepository
from mqsh.responses import Result

DISPLAY_CSECT = "CSQMDRTC"


def _start_stop(ctx: Context, command: Command, reply: Reply, repository: SharedRepository) -> Result:
    named = data_sets_named(command, reply, repository, generic_structures=True)
    if isinstance(named, Result):
        return named
    shared = ctx.qmgr.shared
    for cf, owner in named:
        if command.verb == "STOP":
            shared.smds.stop(repository, cf, owner)
        else:
            shared.smds.start(repository, cf, owner)
            shared.settle(cf, owner)
    return reply.done()


def _display(ctx: Context, command: Command, reply: Reply, repository: SharedRepository) -> Result:
    named = data_sets_named(command, reply, repository, generic_structures=True)
    if isinstance(named, Result):
        return named
    spec = ctx.catalogue.objects["SMDSCONN"]
    records = []
    for cf, owner in named:
        connection = ctx.qmgr.shared.smds.connection(repository, cf, owner)
        values = {
            "SMDSCONN": owner,
            "CFSTRUCT": cf,
            "OPENMODE": connection.openmode,
            "STATUS": connection.status,
            "AVAIL": connection.avail,
            "EXPANDST": connection.expandst,
        }
        record = build_display(ctx.catalogue, spec, command, values, spec.variant().attributes)
        if record is not None:
            records.append(record)
    generic = is_generic(command.name or "*") or is_generic(str(command.params["CFSTRUCT"]))
    return reply.displayed("SMDSCONN", records, generic)


def start_stop(ctx: Context, command: Command) -> Result:
    reply = Reply(ctx.qmgr.name, CHANGE_CSECT, command.typed)
    return run_on_repository(ctx, command, reply, _start_stop)


def display(ctx: Context, command: Command) -> Result:
    return run_on_repository(ctx, command, Reply(ctx.qmgr.name, DISPLAY_CSECT, command.typed), _display)
