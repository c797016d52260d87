"""The cluster family's model: which queue managers a cluster joins together, and what a member
that uses a cluster queue must know of it. Written from MQ's rules, not from mqsh's code.

MQ's rules the model states (IBM MQ documentation: "How clusters work", "Full repository and
partial repository", "DISPLAY CLUSQMGR", "REFRESH CLUSTER"; and IBM's note "Avoiding MQ cluster
problems after Disaster Recovery testing"):
- a queue manager joins a cluster through a manually defined cluster-sender channel (CLUSSDR) to a
  full repository; it is reached through its own cluster-receiver channel (CLUSRCVR), which runs
  only where a listener accepts connections - so a member needs its listener, its CLUSRCVR and its
  CLUSSDR, and the full repository it names needs REPOS, a listener and a CLUSRCVR;
- every full repository has a manually defined CLUSSDR to every other full repository, and they
  send each other everything they learn;
- a partial repository learns of a cluster queue when one of its applications first uses it: it
  asks its full repositories, and keeps the queue's record and its host's (CLUSQMGR) record from
  then on, subscribed to their updates;
- the order in which the definitions are made does not matter, nor whether the network was cut
  while they were made: a channel that cannot connect retries (SHORTRTY tries SHORTTMR seconds
  apart, then LONGTMR - 1200 seconds - apart), and the messages wait on the transmission queue;
- every record carries an expiry: 30 days after its owner published it; its owner re-publishes it
  every 27 days, whether or not it can reach anyone (the update waits on its transmission queue);
  a record not updated is kept, and used, for 60 days after its expiry. So at any moment the last
  publication of a record is at most 27 days old, and a member cut off from the cluster keeps
  using what it knew when it was last in touch for at least 27 + 30 + 60 - 27 = 63 days after
  then; the model uses 60.
"""

from __future__ import annotations

from dataclasses import dataclass, field

CLUSTER = "DEMO"
KEEPS_KNOWING = 60 * 86400  # seconds a member cut off is sure to keep using the records it had
RETRY = 21 * 60  # LONGTMR (1200 s) and a minute: every retrying channel has tried once since a join


@dataclass
class Cluster:
    """The definitions made so far, the sites and cuts, the clock, and the messages each host holds."""
    full: tuple[str, ...]
    partial: tuple[str, ...]
    site: dict[str, str]
    repos: set[str] = field(default_factory=set)
    listener: set[str] = field(default_factory=set)
    clusrcvr: set[str] = field(default_factory=set)
    clussdr: set[tuple[str, str]] = field(default_factory=set)  # (from, full repository)
    queues: set[str] = field(default_factory=set)  # hosts whose queue Q.<host> is defined
    cuts: set[tuple[str, str]] = field(default_factory=set)
    now: int = 0
    settled_at: int | None = None  # the clock at the last time the whole network had its retry time
    known: set[tuple[str, str]] = field(default_factory=set)  # (user, host) that used Q.<host>
    held: dict[str, list[tuple[int, bool]]] = field(default_factory=dict)  # host -> (size, persistent)
    # puts made before the cluster settled: host -> [(size, outcome)], outcome["put"] set by the put's
    # answer (accepted, or refused because the member could not resolve the queue yet)
    flying: dict[str, list[tuple[int, dict]]] = field(default_factory=dict)
    arrived: dict[str, list[tuple[int, dict]]] = field(default_factory=dict)  # flying ones a settle delivered

    def reachable(self, qmgr: str) -> bool:
        """The queue manager accepts channels: it runs a listener and has its cluster-receiver."""
        return qmgr in self.listener and qmgr in self.clusrcvr

    def full_repository(self, qmgr: str) -> bool:
        return qmgr in self.repos and self.reachable(qmgr)

    def joined_through(self, qmgr: str) -> set[str]:
        """The full repositories the member joined through (its own CLUSSDRs to working ones)."""
        if not self.reachable(qmgr):
            return set()
        return {to for frm, to in self.clussdr if frm == qmgr and self.full_repository(to)}

    def repositories_linked(self) -> bool:
        """The full repositories send each other everything: each has a CLUSSDR to every other."""
        working = [fr for fr in self.full if self.full_repository(fr)]
        return len(working) == len(self.full) and all(
            (a, b) in self.clussdr for a in self.full for b in self.full if a != b)

    def in_cluster(self, qmgr: str) -> bool:
        if qmgr in self.full:
            return self.full_repository(qmgr) and self.repositories_linked()
        return bool(self.joined_through(qmgr)) and self.repositories_linked()

    def serves(self, user: str, host: str) -> bool:
        """Whether the rules promise that user's puts reach host's cluster queue once the network
        has been whole for the channels' retry time."""
        return host in self.queues and self.in_cluster(user) and self.in_cluster(host)

    def keeps_knowing(self) -> bool:
        """Whether every record a member learnt is still sure to be kept (see the module's note)."""
        return self.settled_at is not None and self.now - self.settled_at < KEEPS_KNOWING
