"""Who put the messages of a shared queue, for LAB BROWSE: no list entry carries it.

A shared message's put record (SPUT) lies in the log of the member that put it,
at an LSN; that member's putter notes (mqsh.store.putnotes) say who wrote put
records from that LSN on. So each member's log is read once and its notes once,
however deep the queue: a message recovered by RECOVER CFSTRUCT keeps its putter,
its put record being still in the member's log. A message whose put record or
notes are gone has no putter to show.
"""

from __future__ import annotations

from mqsh.commands.context import Context
from mqsh.model.qsg.repository import RepositoryUnavailable, SharedRepository
from mqsh.model.sharing_groups import membership
from mqsh.recovery import logscan
from mqsh.store import log as logstore
from mqsh.store import putnotes, records


def of_group(ctx: Context, qmgr: str) -> dict[str, tuple[str, str] | None]:
    """Entry id -> (user id, application) of every shared message some member's log puts; None where
    that member's notes do not record who put it. Empty when the queue manager is in no group."""
    qsg = membership(ctx.installation, qmgr)
    if qsg is None:
        return {}
    try:
        with SharedRepository(ctx.installation.data_dir, qsg) as repository:
            members = [member.qmgr for member in repository.members()]
    except RepositoryUnavailable:
        return {}
    found: dict[str, tuple[str, str] | None] = {}
    for member in members:
        log_dir = ctx.installation.paths(member).log_dir
        present = logstore.list_extents(log_dir)
        notes = putnotes.read(log_dir.parent)
        for record in logscan.records(log_dir, present[0], 0, []) if present else ():
            typed = records.decode(record)
            if isinstance(typed, records.SharedPut):
                found[typed.entry] = notes.of(record[records.LSN], None, None)
    return found
