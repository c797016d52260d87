"""DISPLAY USAGE: what a member's shared message data sets use (TYPE(SMDS), and TYPE(ALL)).

For each data set the member owns and has open: how full it is; for each
structure whose data sets it uses: its buffer pool (mqsh.model.qsg.buffers),
DSBUFS buffers, the lowest number free (negative: requests waited), the
waits, the buffers holding saved data and the percentage of reads that found
their data there. mqsh models neither page sets nor the log's data sets, so
TYPE(PAGESET) and TYPE(DATASET) (PAGESET is the default) are not carried out,
nor is DISPLAY USAGE on a queue manager outside a queue-sharing group;
TYPE(ALL) shows the data sets' part.

CSQI003I is IBM's text. IBM documents none of the following, so they are
chosen in z/OS's style (docs/messages.md lists them): the ids and texts
of the usage lines (mqsh: CSQE282I for a data set, CSQE285I for a buffer
pool), CSQM297I when no data set is open, and the csect (CSQEDUSE).
"""

from __future__ import annotations

import contextlib

from mqsh.commands.context import Context
from mqsh.commands.display import name_matches
from mqsh.commands.qsg.group import not_carried_out, run_on_repository
from mqsh.commands.zos import Reply
from mqsh.core.reasons import MQError
from mqsh.language.validate import Command
from mqsh.model.qsg import smds_space
from mqsh.model.qsg.repository import SharedRepository
from mqsh.model.sharing_groups import membership
from mqsh.responses import Result

CSECT = "CSQEDUSE"


def _usage(ctx: Context, command: Command, reply: Reply, repository: SharedRepository) -> Result:
    kind = str(command.params.get("TYPE", "PAGESET"))
    if "PSID" in command.params and kind in ("SMDS", "DATASET"):
        return reply.failed("CSQI003I", f"'PSID' not allowed with TYPE ({kind})")
    pattern = str(command.params.get("CFSTRUCT", "*"))
    access = ctx.qmgr.shared.smds
    found = False
    for (cf, owner), data_set in sorted(access.open.items()):
        if owner == ctx.qmgr.name and name_matches(pattern, cf):
            found = True
            with contextlib.suppress(MQError):  # a structure that failed: the map as it was
                smds_space.reclaim(access, data_set, ctx.qmgr.shared.structure(cf))
            reply.say(
                "CSQE282I",
                f"SMDS({owner}) CFSTRUCT({cf}) data set {data_set.path.name} is "
                f"{data_set.percent_full()}% full, {len(data_set.used)} of {data_set.total_blocks()} "
                "blocks in use",
            )
    for cf, pool in sorted(access.pools.items()):
        if name_matches(pattern, cf):
            found = True
            reply.say(
                "CSQE285I",
                f"CFSTRUCT({cf}) buffer pool has {pool.size} buffers, lowest free "
                f"{pool.lowest_free}, waits {pool.waits}, {len(pool.saved)} with saved data, "
                f"LRU hits {pool.hit_percent()}% ({pool.hits} hits, {pool.misses} misses)",
            )
    if not found:
        reply.say("CSQM297I", "NO SMDS FOUND MATCHING REQUEST CRITERIA")
    return reply.done()


def display(ctx: Context, command: Command) -> Result:
    kind = str(command.params.get("TYPE", "PAGESET"))
    if membership(ctx.installation, ctx.qmgr.name) is None or (
        kind not in ("SMDS", "ALL") and "PSID" not in command.params
    ):
        return not_carried_out(command)
    return run_on_repository(ctx, command, Reply(ctx.qmgr.name, CSECT, command.typed), _usage)
