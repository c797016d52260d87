"""The cluster family's model of cluster records: who publishes what, with which sequence number, and
what the full repositories keep of it. Written from MQ's rules, not from mqsh's code.

MQ's rules the model states (IBM MQ documentation: "REFRESH CLUSTER", "RESET CLUSTER", "Restoring a
cluster queue manager"; the AMQ9456 explanation; IBM's note "Avoiding MQ cluster problems after
Disaster Recovery testing"):
- every queue manager owns records - its CLUSRCVR's and each of its cluster queues' - keyed by its
  QMID (`<name>_<crtmqm date>_<hh.mm.ss>`); a record's first sequence number is the epoch seconds of
  the queue manager's creation, or of its last REFRESH CLUSTER, and every publication adds one;
- the owner re-publishes each record 27 days after it last published it, with an expiry 30 days on;
  a record not updated is deleted 60 days after its expiry (90 days after its last publication);
- a full repository keeps an update only if its sequence number is above the one it holds;
- REFRESH CLUSTER numbers the owner's records with the epoch seconds of now and sends them at once;
- a queue manager restored from a file-level backup (same QMID) goes back to the numbers it had; its
  re-publishes are dropped while the full repositories hold higher ones (the cure: REFRESH CLUSTER);
- a queue manager built again (crtmqm: a new QMID) owns new records; the old QMID's stay at the full
  repositories until RESET CLUSTER ACTION(FORCEREMOVE) QMID(..) removes them (QUEUES(YES) its queues
  too) or they are deleted.

Where IBM does not say: a queue manager ended when a re-publish fell due re-publishes when it starts
again (its repository manager runs only while it does).

A publication reaches the full repositories at once when the cluster is calm (a settle since the last
disturbance: every channel running or free to start); otherwise it is pending until the next settle.
A pending publication of an owner restored or built again before the settle may have arrived or not:
the full repositories may hold it (the model keeps it as `maybe` and promises nothing it decides).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

DAY = 86400
REPUBLISH, EXPIRY, KEPT = 27 * DAY, 30 * DAY, 60 * DAY
MARGIN = DAY  # the model promises nothing within a day of an expiry or a deletion
START = datetime(2026, 5, 1, 9, 0, 0)  # the stories' clock at 0
EPOCH = 1777626000  # START in epoch seconds (UTC)
QMGR, QUEUE = "qmgr", "queue"  # a CLUSRCVR's record, a cluster queue's record
Key = tuple[str, str]  # (QMID, kind)


@dataclass(frozen=True)
class Publication:
    seq: int
    published: int  # the story's clock, in seconds


@dataclass
class Records:
    """The records each queue manager owns, and what the full repositories hold of them."""

    qmid: dict[str, str] = field(default_factory=dict)  # queue manager -> its QMID now
    base: dict[str, int] = field(default_factory=dict)  # queue manager -> its records' first number
    own: dict[str, dict[str, Publication]] = field(default_factory=dict)  # qmgr -> kind -> owner's copy
    held: dict[Key, Publication] = field(default_factory=dict)  # certainly held by the full repositories
    maybe: dict[Key, Publication] = field(default_factory=dict)  # may be held (a publication lost or not)
    pending: list[tuple[str, Key, Publication]] = field(default_factory=list)  # (owner, key, publication)
    old: dict[str, list[str]] = field(default_factory=dict)  # queue manager -> QMIDs it had before a rebuild
    removed: set[str] = field(default_factory=set)  # old QMIDs RESET CLUSTER removed with their queues
    residue: set[str] = field(default_factory=set)  # old QMIDs removed without their queues (QUEUES(NO))

    # ------------------------------------------------------------ what owners do
    def create(self, qmgr: str, now: int) -> None:
        if qmgr in self.qmid:
            self.old.setdefault(qmgr, []).append(self.qmid[qmgr])
            self._unsure_of_pending(qmgr)
        self.qmid[qmgr] = f"{qmgr}_{(START + timedelta(seconds=now)):%Y-%m-%d_%H.%M.%S}"
        self.base[qmgr] = EPOCH + now
        self.own[qmgr] = {}

    def define(self, qmgr: str, kind: str, now: int, delivered: bool) -> None:
        if qmgr not in self.qmid:
            self.create(qmgr, 0)
        self._publish(qmgr, kind, Publication(self.base[qmgr], now), delivered)

    def change(self, qmgr: str, kind: str, now: int, delivered: bool) -> None:
        """An owner's record altered (a CLUSRCVR's QMTYPE, by ALTER QMGR REPOS): published with the next number."""
        self._publish(qmgr, kind, Publication(self.own[qmgr][kind].seq + 1, now), delivered)

    def republish_until(self, qmgr: str, until: int, delivered: bool) -> None:
        """The re-publishes that fall due up to until, each 27 days after the last."""
        for kind, last in list(self.own.get(qmgr, {}).items()):
            while last.published + REPUBLISH <= until:
                last = Publication(last.seq + 1, last.published + REPUBLISH)
                self._publish(qmgr, kind, last, delivered)

    def republish_overdue(self, qmgr: str, now: int, delivered: bool) -> None:
        """At strmqm: what fell due while the queue manager was ended goes now."""
        for kind, last in list(self.own.get(qmgr, {}).items()):
            if last.published + REPUBLISH <= now:
                self._publish(qmgr, kind, Publication(last.seq + 1, now), delivered)

    def refresh(self, qmgr: str, now: int, delivered: bool) -> None:
        """REFRESH CLUSTER: every record the epoch seconds of now (the stories move the clock on before
        one, as real time moves: never the number of a publication made before)."""
        for kind in list(self.own.get(qmgr, {})):
            self._publish(qmgr, kind, Publication(EPOCH + now, now), delivered)

    def restore(self, qmgr: str, snapshot: tuple[str, int, dict[str, Publication]]) -> None:
        self._unsure_of_pending(qmgr)
        self.qmid[qmgr], self.base[qmgr], own = snapshot
        self.own[qmgr] = dict(own)

    def snapshot(self, qmgr: str) -> tuple[str, int, dict[str, Publication]]:
        return self.qmid[qmgr], self.base[qmgr], dict(self.own.get(qmgr, {}))

    def reset(self, qmid: str, queues: bool) -> None:
        """RESET CLUSTER ACTION(FORCEREMOVE) QMID(qmid): gone from the full repositories."""
        for key in [key for key in set(self.held) | set(self.maybe) if key[0] == qmid]:
            if key[1] == QMGR or queues:
                self.held.pop(key, None)
                self.maybe.pop(key, None)
        (self.removed if queues else self.residue).add(qmid)

    def settle(self, in_cluster) -> None:
        """The network whole and the channels retried: what was sent has arrived (an owner not in the
        cluster has sent nothing yet)."""
        waiting = []
        for owner, key, publication in self.pending:
            if in_cluster(owner) or key[0] != self.qmid.get(owner):
                self._accept(key, publication)
            else:
                waiting.append((owner, key, publication))
        self.pending = waiting

    def _publish(self, qmgr: str, kind: str, publication: Publication, delivered: bool) -> None:
        self.own[qmgr][kind] = publication
        key = (self.qmid[qmgr], kind)
        if delivered:
            self._accept(key, publication)
        else:
            self.pending.append((qmgr, key, publication))

    def _accept(self, key: Key, publication: Publication) -> None:
        if key[0] in self.removed or key[0] in self.residue and key[1] == QMGR:
            return  # RESET CLUSTER removed it; an old QMID publishes no more
        held = self.held.get(key)
        if held is None or publication.seq > held.seq:
            self.held[key] = publication

    def unsure_of_pending(self) -> None:
        """A full repository restored or built again: every pending publication may have reached it
        only, and gone with it, or not: unknown."""
        for owner in {owner for owner, _, _ in self.pending}:
            self._unsure_of_pending(owner, own_only=False)

    def _unsure_of_pending(self, qmgr: str, own_only: bool = True) -> None:
        """The owner's pending publications (of its QMID now, or all) went with its queue manager,
        or had arrived: unknown."""

        def gone(owner: str, key: Key) -> bool:
            return owner == qmgr and (not own_only or key[0] == self.qmid.get(qmgr))

        for owner, key, publication in self.pending:
            if gone(owner, key):
                maybe = self.maybe.get(key)
                if maybe is None or publication.seq > maybe.seq:
                    self.maybe[key] = publication
        self.pending = [p for p in self.pending if not gone(p[0], p[1])]

    # ------------------------------------------------------------ what the cluster must show
    def lives(self, key: Key, now: int) -> bool | None:
        """Whether the full repositories still hold the record: True, False, or None (the model cannot
        tell: near its deletion, or a publication that may have been lost decides it)."""
        held, maybe = self.held.get(key), self.maybe.get(key)
        if held is None:
            return None if maybe is not None else False
        last = max(held.published, maybe.published if maybe and maybe.seq > held.seq else 0)
        if now + MARGIN < held.published + EXPIRY + KEPT:
            return True
        return False if now - MARGIN > last + EXPIRY + KEPT else None

    def expired(self, key: Key, now: int) -> bool | None:
        held, maybe = self.held.get(key), self.maybe.get(key)
        if held is None:
            return None if maybe is not None else False
        last = max(held.published, maybe.published if maybe and maybe.seq > held.seq else 0)
        if now + MARGIN < held.published + EXPIRY:
            return False
        return True if now - MARGIN > last + EXPIRY and self.lives(key, now) else None

    def stale(self, qmgr: str) -> bool | None:
        """Whether the owner's records are below what the full repositories hold (a restore)."""
        unsure = False
        for kind, own in self.own.get(qmgr, {}).items():
            key = (self.qmid[qmgr], kind)
            held, maybe = self.held.get(key), self.maybe.get(key)
            if held is not None and own.seq < held.seq:
                return True
            if maybe is not None and own.seq < maybe.seq:
                unsure = True
        return None if unsure else False

    def oldest(self, qmgr: str) -> int | None:
        """The earliest last publication the full repositories hold of the queue manager's records."""
        found = [
            self.held[(self.qmid[qmgr], kind)].published
            for kind in self.own.get(qmgr, {})
            if (self.qmid[qmgr], kind) in self.held
        ]
        return min(found) if found else None
