"""LAB EXPLAIN CLUSTER(name): the current queue manager's last REFRESH CLUSTER or RESET CLUSTER of
a cluster, told so that it adds up.

The command's record (mqsh.model.cluster.explain) says what the repository held before it and
what it removed; the cache says what it holds now, and which full repository sent each record
it learnt. Each record is shown as DISPLAY CLUSQMGR, QCLUSTER or TCLUSTER heads it, with its
fate, its sequence number and the days left before its expiry, before and now (typed numbers
under --format json):

    OWN        the queue manager's own record (a refresh renumbers it from the new base)
    KEPT       held before and kept
    REMOVED    removed by the command, not learnt again
    RELEARNED  removed by the command, then learnt again
    LEARNED    not held before: learnt since
    GONE       kept by the command, but gone since (a later change, or deleted by time)

and the sum: before - removed + learned - gone = now.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

from mqsh.commands.context import Context
from mqsh.lab.explain import _terms
from mqsh.model.cluster import explain as record_of
from mqsh.model.cluster.cache import QMGR, QUEUE, ClusterCache
from mqsh.model.cluster.explain import ClusterOperation, Held
from mqsh.model.cluster.timers import moment
from mqsh.responses import Display, Message, Response, Result

OWN, KEPT, REMOVED, RELEARNED, LEARNED, GONE = "OWN", "KEPT", "REMOVED", "RELEARNED", "LEARNED", "GONE"
HEADED_BY = {QMGR: "CLUSQMGR", QUEUE: "QCLUSTER"}  # TOPIC records as DISPLAY TCLUSTER heads them


@contextmanager
def cluster_cache(ctx: Context, name: str) -> Iterator[ClusterCache | None]:
    """A queue manager's cluster cache: its repository manager's while it runs here, else the
    file itself, opened for the question and closed; None when it has none."""
    held = ctx.installation.held.get(name)
    if held is not None:
        yield ctx.installation.clusters.manager(held).cache
        return
    cache = ClusterCache(ctx.installation.paths(name).qmgr_dir / "clusters.db")
    if not cache.exists():
        yield None
        return
    try:
        yield cache
    finally:
        cache.close()


def days_left(expiry: str, at: datetime) -> int:
    """Whole days from a moment to a record's expiry (negative once past it)."""
    return math.floor((moment(expiry) - at).total_seconds() / 86400)


def _what_it_did(op: ClusterOperation, removed: int, names: dict[str, str]) -> str:
    others = f"the {removed} other record{'' if removed == 1 else 's'} it held" if removed else \
        "no other record (it held none)"
    if op.kind == record_of.RESET:
        gone = ", ".join(f"{names.get(qmid, '?')} (QMID {qmid})" for qmid in op.qmids)
        return (f"It removed queue manager {gone} from its repository ({removed} record"
                f"{'' if removed == 1 else 's'}) and told every member it knows to do the same; updates from "
                "it are ignored for 10 seconds.")
    renumbered = f"It kept its own records, renumbered from sequence number {op.base}"
    if op.full:
        return (f"{renumbered}, and every queue manager's record (a full repository); it removed {others} and "
                "asked the other full repositories for everything again.")
    if "YES" in op.detail:
        return (f"{renumbered}; it removed {others}, the full repositories' too, and found them again through "
                "its manual cluster-sender channels.")
    return (f"{renumbered}, and the full repositories' records; it removed {others} and asked the full "
            "repositories again for what it uses.")


def _fate(item: Held, removed: set[tuple[str, str, str]], now: dict[tuple[str, str, str], Held]) -> str:
    if item.own:
        return OWN if item.key in now else GONE
    if item.key in removed:
        return RELEARNED if item.key in now else REMOVED
    return KEPT if item.key in now else GONE


def _display(ctx: Context, cluster: str, item: Held, fate: str, before: Held | None, after: Held | None,
             at: datetime, now: datetime, sender: str) -> Display:
    spec = ctx.catalogue.objects[HEADED_BY.get(item.kind, "TCLUSTER")].message("display")
    assert spec is not None
    if item.kind == QMGR:
        attributes: list[tuple[str, object]] = [("CLUSQMGR", item.name), ("CLUSTER", cluster), ("QMID", item.qmid),
                                                ("QMTYPE", "REPOS" if item.repos else "NORMAL")]
    else:
        attributes = [(item.kind if item.kind == QUEUE else "TOPIC", item.name), ("CLUSQMGR", item.qmname),
                      ("CLUSTER", cluster), ("QMID", item.qmid)]
    attributes.append(("FATE", fate))
    if before is not None:
        attributes += [("SEQBEFORE", before.seq), ("DAYSBEFORE", days_left(before.expiry, at))]
    if after is not None:
        attributes += [("SEQNOW", after.seq), ("DAYSNOW", days_left(after.expiry, now))]
    if sender:
        attributes.append(("FROM", sender))
    return Display(spec.id, spec.text, attributes)


def explain(ctx: Context, name: str, cluster: str) -> Result:
    qmgr_dir = ctx.installation.paths(name).qmgr_dir
    op = record_of.load(qmgr_dir, cluster)
    if op is None:
        return Result.message(f"No REFRESH CLUSTER or RESET CLUSTER of cluster {cluster} on queue manager '{name}' "
                              "is recorded: none has run here, or the record of it cannot be read.")
    with cluster_cache(ctx, name) as cache:
        holding = record_of.standing(cache, cluster) if cache is not None else []
        senders = cache.senders(cluster) if cache is not None else {}
    now_clock = ctx.installation.clock.now()
    at = moment(op.at)
    now = {item.key: item for item in holding}
    removed = {item.key for item in op.removed}
    names = {item.qmid: item.name for item in [*op.before, *holding] if item.kind == QMGR}
    responses: list[Response] = [
        Message(f"Last {op.kind} CLUSTER({cluster}) {'ACTION(FORCEREMOVE) ' if op.kind == record_of.RESET else ''}"
                f"{op.detail} on queue manager '{name}', a {'full' if op.full else 'partial'} repository, at "
                f"{op.at}."),
        Message(_what_it_did(op, len(op.removed), names))]
    fates: dict[str, int] = {}
    learnt_from: dict[str, int] = {}
    before_keys = set()
    for item in op.before:
        before_keys.add(item.key)
        fate = _fate(item, removed, now)
        fates[fate] = fates.get(fate, 0) + 1
        sender = _sender(fate, item, senders, names, cluster)
        if sender:
            learnt_from[sender] = learnt_from.get(sender, 0) + 1
        responses.append(_display(ctx, cluster, item, fate, item, now.get(item.key), at, now_clock, sender))
    defined = 0
    for item in holding:
        if item.key not in before_keys:
            fate = OWN if item.own else LEARNED
            defined += item.own
            fates[fate] = fates.get(fate, 0) + 1
            sender = _sender(fate, item, senders, names, cluster)
            if sender:
                learnt_from[sender] = learnt_from.get(sender, 0) + 1
            responses.append(_display(ctx, cluster, item, fate, None, item, at, now_clock, sender))
    learned = fates.get(RELEARNED, 0) + fates.get(LEARNED, 0)
    responses.append(Message(f"Cluster {cluster} in the repository of '{name}': " + _terms(
        (len(op.before), "before"), (-len(op.removed), "removed"), (learned, "learned since"),
        (defined, "defined here since"), (-fates.get(GONE, 0), "gone since")) + f" = {len(holding)} now."))
    if learned:
        parts = [f"{fates[fate]} {text}" for fate, text in ((RELEARNED, "removed by the command and learned again"),
                                                            (LEARNED, "not held before")) if fates.get(fate)]
        told = ", ".join(f"{count} by {sender}" for sender, count in sorted(learnt_from.items()))
        responses.append(Message(f"Learned since: {', '.join(parts)}; sent {told or 'by senders not recorded'}."))
    return Result(responses)


def _sender(fate: str, item: Held, senders: dict[tuple[str, str, str, str], str], names: dict[str, str],
            cluster: str) -> str:
    """The queue manager that sent a record learnt since the command."""
    if fate not in (RELEARNED, LEARNED):
        return ""
    qmid = senders.get((item.kind, cluster, item.qmid, item.name), "")
    return names.get(qmid, qmid)
