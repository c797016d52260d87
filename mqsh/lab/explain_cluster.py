"""LAB EXPLAIN CLUSTER(name): the current queue manager's last REFRESH CLUSTER or RESET CLUSTER of
a cluster, or its restore from a backup, told so that it adds up.

The record (mqsh.model.cluster.explain) says what the repository held before and what the
command removed; the cache says what it holds now, and which full repository sent each record
it learnt. Each record is shown as DISPLAY CLUSQMGR, QCLUSTER or TCLUSTER heads it, with its
fate, its sequence number and the days left before its expiry, before and now (typed numbers
under --format json), and for the queue manager's own records the highest number a full
repository of this data directory holds (FULLSEQ: above its own, its updates are dropped):

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
from dataclasses import dataclass, field
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
    cache = ClusterCache(ctx.installation.paths(name).cluster_cache)
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
    others = (
        f"the {removed} other record{'' if removed == 1 else 's'} it held"
        if removed
        else "no other record (it held none)"
    )
    if op.kind == record_of.RESTORE:
        return (
            f"Its repository came back as the backup held it: {len(op.before)} "
            f"record{'' if len(op.before) == 1 else 's'}, its own with the sequence numbers they had then."
        )
    if op.kind == record_of.RESET:
        gone = ", ".join(
            f"queue manager {names[qmid]} (QMID {qmid})"
            if qmid in names
            else f"QMID {qmid}, of which it held no record,"
            for qmid in op.qmids
        )
        told = (
            "and told every member it knows to do the same"
            if op.told_by is None
            else f"as full repository QMID {op.told_by} told it to"
        )
        return (
            f"It removed {gone} from its repository ({removed} record"
            f"{'' if removed == 1 else 's'}) {told}; updates from it are ignored for 10 seconds."
        )
    renumbered = f"It kept its own records, renumbered from sequence number {op.base}"
    if op.full:
        return (
            f"{renumbered}, and every queue manager's record (a full repository); it removed {others} and "
            "asked the other full repositories for everything again."
        )
    if "YES" in op.detail:
        return (
            f"{renumbered}; it removed {others}, the full repositories' too, and found them again through "
            "its manual cluster-sender channels."
        )
    return (
        f"{renumbered}, and the full repositories' records; it removed {others} and asked the full "
        "repositories again for what it uses."
    )


def _rejoined(op: ClusterOperation, names: dict[str, str], holding: list[Held]) -> list[Response]:
    """A queue manager a reset removed that the repository knows now by another QMID: built again
    (crtmqm gives a new QMID), it joined as a new member - its records are not the old QMID's, and
    stay (IBM MQ docs: RESET CLUSTER)."""
    if op.kind != record_of.RESET:
        return []
    told = []
    for old in op.qmids:
        name = names.get(old)
        # A QMID is the name and its crtmqm time, so within one name they sort by age.
        others = sorted(
            {
                item.qmid
                for item in holding
                if item.kind == QMGR and item.name == name and item.qmid not in op.qmids
            }
        )
        if name is None or not others:
            continue
        newest = others[-1]
        unnamed = [qmid for qmid in others if qmid != newest]
        text = ""
        if newest > old:
            text = (
                f"Queue manager {name} is in the cluster again with a new QMID, {newest}: the reset "
                f"removed the records of QMID {old} only; the new one's stay. "
            )
        else:
            unnamed = others
        if unnamed:
            text += (
                f"The repository still holds {name}'s records of QMID {', '.join(unnamed)}, which the "
                "reset did not name: a RESET CLUSTER of each QMID removes them."
            )
        text = text.strip()
        told.append(Message(text))
    return told


def _fate(item: Held, removed: set[tuple[str, str, str]], now: dict[tuple[str, str, str], Held]) -> str:
    if item.own:
        return OWN if item.key in now else GONE
    if item.key in removed:
        return RELEARNED if item.key in now else REMOVED
    return KEPT if item.key in now else GONE


def _display(
    ctx: Context,
    cluster: str,
    item: Held,
    fate: str,
    before: Held | None,
    after: Held | None,
    moments: tuple[datetime, datetime],
    sender: str,
    full_seq: int | None,
) -> Display:
    """The record as DISPLAY heads it; moments: the operation's and now, its days left are counted from."""
    at, now = moments
    spec = ctx.catalogue.objects[HEADED_BY.get(item.kind, "TCLUSTER")].message("display")
    assert spec is not None
    if item.kind == QMGR:
        attributes: list[tuple[str, object]] = [
            ("CLUSQMGR", item.name),
            ("CLUSTER", cluster),
            ("QMID", item.qmid),
            ("QMTYPE", "REPOS" if item.repos else "NORMAL"),
        ]
    else:
        attributes = [
            (item.kind if item.kind == QUEUE else "TOPIC", item.name),
            ("CLUSQMGR", item.qmname),
            ("CLUSTER", cluster),
            ("QMID", item.qmid),
        ]
    attributes.append(("FATE", fate))
    if before is not None:
        attributes += [("SEQBEFORE", before.seq), ("DAYSBEFORE", days_left(before.expiry, at))]
    if after is not None:
        attributes += [("SEQNOW", after.seq), ("DAYSNOW", days_left(after.expiry, now))]
    if full_seq is not None:
        attributes.append(("FULLSEQ", full_seq))
    if sender:
        attributes.append(("FROM", sender))
    return Display(spec.id, spec.text, attributes)


def _heading(op: ClusterOperation, name: str, cluster: str) -> str:
    role = f"a {'full' if op.full else 'partial'} repository"
    if op.kind == record_of.RESTORE:
        return (
            f"Last change to cluster {cluster} in the repository of queue manager '{name}', {role}: restored "
            f"from backup {op.detail} at {op.at}."
        )
    action = "ACTION(FORCEREMOVE) " if op.kind == record_of.RESET else ""
    return f"Last {op.kind} CLUSTER({cluster}) {action}{op.detail} on queue manager '{name}', {role}, at {op.at}."


def _full_repositories_hold(
    ctx: Context, name: str, cluster: str
) -> dict[tuple[str, str, str], tuple[int, str]]:
    """The highest sequence number a full repository of this data directory (another queue manager)
    holds of each record - marked deleted or not: a deleted one still turns older updates away -
    and which one holds it ("FR1 holds 1777626006, marked deleted")."""
    found: dict[tuple[str, str, str], tuple[int, str]] = {}
    for other in ctx.installation.names():
        if other == name:
            continue
        with cluster_cache(ctx, other) as cache:
            held = cache.records(cluster=cluster) if cache is not None else []
        if not any(
            record.own
            and record.kind == QMGR
            and record.attrs.get("QMTYPE") == "REPOS"
            and not record.deleted
            for record in held
        ):
            continue
        for record in held:
            key = (record.kind, record.qmid, record.name)
            if not record.own and record.seq > found.get(key, (-1, ""))[0]:
                found[key] = (
                    record.seq,
                    f"{other} holds {record.seq}{', marked deleted' if record.deleted else ''}",
                )
    return found


@dataclass
class Tally:
    """What the records' fates add up to."""

    fates: dict[str, int] = field(default_factory=dict)
    senders: dict[str, int] = field(default_factory=dict)  # queue manager -> records it sent since
    defined: int = 0  # own records not held before: defined since
    behind: list[str] = field(default_factory=list)  # own records a full repository holds higher

    def count(self, fate: str, sender: str) -> None:
        self.fates[fate] = self.fates.get(fate, 0) + 1
        if sender:
            self.senders[sender] = self.senders.get(sender, 0) + 1


def _summary(op: ClusterOperation, cluster: str, name: str, held_now: int, tally: Tally) -> list[Response]:
    fates = tally.fates
    learned = fates.get(RELEARNED, 0) + fates.get(LEARNED, 0)
    lines: list[Response] = [
        Message(
            f"Cluster {cluster} in the repository of '{name}': "
            + _terms(
                (len(op.before), "before"),
                (-len(op.removed), "removed"),
                (learned, "learned since"),
                (tally.defined, "defined here since"),
                (-fates.get(GONE, 0), "gone since"),
            )
            + f" = {held_now} now."
        )
    ]
    if learned:
        parts = [
            f"{fates[fate]} {text}"
            for fate, text in (
                (RELEARNED, "removed by the command and learned again"),
                (LEARNED, "not held before"),
            )
            if fates.get(fate)
        ]
        told = ", ".join(f"{count} by {sender}" for sender, count in sorted(tally.senders.items()))
        lines.append(Message(f"Learned since: {', '.join(parts)}; sent {told or 'by senders not recorded'}."))
    if tally.behind:
        lines.append(
            Message(
                "Its own records a full repository holds at a higher number - their updates from it are "
                "dropped as old until REFRESH CLUSTER numbers them anew: " + ", ".join(tally.behind) + "."
            )
        )
    return lines


def explain(ctx: Context, name: str, cluster: str) -> Result:
    op = record_of.load(ctx.installation.paths(name).qmgr_dir, cluster)
    if op is None:
        return Result.message(
            f"No REFRESH CLUSTER, RESET CLUSTER or restore of cluster {cluster} on queue manager "
            f"'{name}' is recorded: none has been here, or the record of it cannot be read."
        )
    with cluster_cache(ctx, name) as cache:
        holding = record_of.standing(cache, cluster) if cache is not None else []
        senders = cache.senders(cluster) if cache is not None else {}
    full_hold = _full_repositories_hold(ctx, name, cluster)
    moments = (moment(op.at), ctx.installation.clock.now())
    now = {item.key: item for item in holding}
    removed = {item.key for item in op.removed}
    names = {item.qmid: item.name for item in [*op.before, *holding] if item.kind == QMGR}
    # (record, fate, as held before, as held now)
    rows: list[tuple[Held, str, Held | None, Held | None]] = [
        (item, _fate(item, removed, now), item, now.get(item.key)) for item in op.before
    ]
    before_keys = {item.key for item in op.before}
    rows += [
        (item, OWN if item.own else LEARNED, None, item) for item in holding if item.key not in before_keys
    ]
    responses: list[Response] = [
        Message(_heading(op, name, cluster)),
        Message(_what_it_did(op, len(op.removed), names)),
        *_rejoined(op, names, holding),
    ]
    tally = Tally()
    for item, fate, before, after in rows:
        sender = _sender(fate, item, senders, names, cluster)
        tally.count(fate, sender)
        tally.defined += fate == OWN and before is None
        full_seq, holder = (
            full_hold.get(item.key, (None, "")) if item.own and after is not None else (None, "")
        )
        if full_seq is not None and after is not None and full_seq > after.seq:
            tally.behind.append(f"{item.name} (its {after.seq}; {holder})")
        responses.append(_display(ctx, cluster, item, fate, before, after, moments, sender, full_seq))
    return Result(responses + _summary(op, cluster, name, len(holding), tally))


def _sender(
    fate: str, item: Held, senders: dict[tuple[str, str, str, str], str], names: dict[str, str], cluster: str
) -> str:
    """The queue manager that sent a record learnt since the command."""
    if fate not in (RELEARNED, LEARNED):
        return ""
    qmid = senders.get((item.kind, cluster, item.qmid, item.name), "")
    return names.get(qmid, qmid)
