"""The logs of a queue-sharing group's members, read for what the group's shared messages went
through: who the members are, and each member's log records decoded, oldest first."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from mqsh.commands.context import Context
from mqsh.model.qsg.repository import RepositoryUnavailable, SharedRepository
from mqsh.model.sharing_groups import membership
from mqsh.recovery import logscan
from mqsh.store import log as logstore
from mqsh.store import records


def members_of(ctx: Context, qmgr: str) -> tuple[str, list[str]] | None:
    """(group, its members) of the queue manager's group; None when it is in none, or the group's
    repository cannot be read."""
    qsg = membership(ctx.installation, qmgr)
    if qsg is None:
        return None
    try:
        with SharedRepository(ctx.installation.data_dir, qsg) as repository:
            return qsg, [member.qmgr for member in repository.members()]
    except RepositoryUnavailable:
        return None


def decoded(log_dir: Path) -> Iterator[tuple[int, object]]:
    """(LSN, typed record) of every record the member's log holds, from its first extent present."""
    present = logstore.list_extents(log_dir)
    for record in logscan.records(log_dir, present[0], 0, []) if present else ():
        yield record[records.LSN], records.decode(record)
