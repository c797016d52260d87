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
from mqsh.lab.group_logs import decoded, members_of
from mqsh.store import putnotes, records


def of_group(ctx: Context, qmgr: str) -> dict[str, tuple[str, str] | None]:
    """Entry id -> (user id, application) of every shared message some member's log puts; None where
    that member's notes do not record who put it. Empty when the queue manager is in no group."""
    group = members_of(ctx, qmgr)
    if group is None:
        return {}
    found: dict[str, tuple[str, str] | None] = {}
    for member in group[1]:
        log_dir = ctx.installation.paths(member).log_dir
        notes = putnotes.read(log_dir.parent)
        for lsn, typed in decoded(log_dir):
            if isinstance(typed, records.SharedPut):
                found[typed.entry] = notes.of(lsn, None, None)
    return found
