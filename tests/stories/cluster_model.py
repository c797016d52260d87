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
  then; the model uses 60;
- a queue manager ended keeps its persistent messages and its cluster cache; its non-persistent
  messages are gone when it starts again; what others send it waits on their transmission queues;
- a queue manager restored from a backup holds what it held then: the messages put to it since are
  gone, and what was on its transmission queue then is sent again (a message it sent after the backup
  arrives twice, and once more at every further restore of that backup); one built again (crtmqm)
  holds nothing, and what waited on its transmission queue is gone;
- REFRESH CLUSTER drops what the queue manager learnt (it learns again when next used); no message
  is lost;
- a put to a cluster queue no member has any more - its host rebuilt without it, and the old
  QMID's records removed by RESET CLUSTER QUEUES(YES) or deleted 60 days after their expiry - is
  refused with 2085 (MQRC_UNKNOWN_OBJECT_NAME) once the full repositories have answered that no
  instance exists (IBM MQ docs: "RESET CLUSTER", and the reason code page "2085 (0825)
  (RC2085): MQRC_UNKNOWN_OBJECT_NAME");
- a partial repository's interest in a queue it uses is held by the full repositories it asked;
  IBM's pages do not say what renews it: the model takes it that the partial renews it at each
  27-day re-publish, so one a rebuilt full repository lost may leave the partial's copy past its
  expiry until then;
- a full repository restored from a backup holds the others' records as the backup had them and
  learns their later updates as they come; one rebuilt (a new QMID) asks the other full
  repository for everything it holds as it joins through its manual CLUSSDR - what had reached it
  alone is gone with it, and a member whose record only it held is answered by neither full
  repository until it publishes again (a re-publish, 27 days on, or REFRESH CLUSTER).
The records' sequence numbers are in tests/stories/cluster_records.py.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from tests.stories.cluster_records import EXPIRY, KEPT, MARGIN, QMGR, QUEUE, REPUBLISH, Records

CLUSTER = "DEMO"
KEEPS_KNOWING = 60 * 86400  # seconds a member cut off is sure to keep using the records it had
RETRY = 21 * 60  # LONGTMR (1200 s) and a minute: every retrying channel has tried once since a join
HELD, FLYING, ARRIVED, DOUBTFUL, GONE = "held", "flying", "arrived", "doubtful", "gone"
_numbers = itertools.count()


@dataclass
class Message:
    """A message put to a host's cluster queue. held: there, in the order of puts; flying: on its way
    (may be there); arrived: there, in an order the story cannot tell; doubtful: may be there or not
    (a restore or a rebuild decided it); gone: must not be there. outcome["put"] is set by the put's
    answer for a put made before the cluster settled (None until then)."""

    size: int
    persistent: bool
    user: str
    host: str
    state: str
    outcome: dict
    resent: int = (
        0  # sent again by a user restored from a backup that held it, once a restore: may be there as often
    )
    number: int = field(default_factory=lambda: next(_numbers))

    def accepted(self) -> bool:
        return bool(self.outcome.get("put"))


@dataclass
class Backup:
    """What a backup of a queue manager holds: its definitions, records and messages then."""

    definitions: dict[str, bool]
    clussdr: set[tuple[str, str]]
    records: tuple
    present: set[int]  # messages to it certainly on its queue
    unsure: set[int]  # messages to it on their way: on its queue or not
    outgoing: set[int]  # messages from it on their way: maybe on its transmission queue
    removed: set[str]  # the old QMIDs RESET CLUSTER had removed
    held: frozenset = frozenset()  # the records the full repositories surely held then
    maybe: frozenset = frozenset()  # those they may have held then
    fresh: bool = False  # a full repository built again and not settled since: what it held is unknown


@dataclass
class Cluster:
    """The definitions made so far, the sites and cuts, the clock, the queue managers running, the
    records and the messages each host holds."""

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
    calm: bool = False  # a settle since the last cut, end, restore, rebuild, refresh or reset
    known: set[tuple[str, str]] = field(default_factory=set)  # (user, host) that used Q.<host>
    copies: dict[str, int] = field(
        default_factory=dict
    )  # host -> its records' last publication at the last settle
    messages: list[Message] = field(default_factory=list)
    ended: set[str] = field(default_factory=set)
    # restored from a backup and not refreshed since: its copies of others' records are the backup's,
    # and may be past their expiry until their owners next re-publish (IBM MQ docs: "Recovering a
    # cluster queue manager" - REFRESH CLUSTER on the restored queue manager brings them up to date)
    # -> the old QMIDs RESET CLUSTER removed after its backup, whose records it may hold again
    outdated: dict[str, set[str]] = field(default_factory=dict)
    backups: dict[str, tuple[str, Backup]] = field(default_factory=dict)  # name -> (queue manager, backup)
    retired: set[str] = field(default_factory=set)  # hosts rebuilt without their cluster queue
    # (full repository restored, other full repository) -> (the other's CLUSRCVR record the backup
    # lacked, the clock at the restore, whether surely lacked): the restored one has not learnt it
    # again until its owner publishes it anew or the restored one refreshes
    lacks: dict[tuple[str, str], tuple[tuple[str, str], int, bool]] = field(default_factory=dict)
    # the clock when a full repository was last built again: the partial repositories' interests it
    # held went with it, and each renews them at its next re-publish (up to 27 days on) - until then
    # a partial's copy of a queue it uses may pass its expiry unrenewed
    interests_lost_at: int | None = None
    fresh: set[str] = field(default_factory=set)  # full repositories built again, not settled since
    records: Records = field(default_factory=Records)

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
            (a, b) in self.clussdr for a in self.full for b in self.full if a != b
        )

    def in_cluster(self, qmgr: str) -> bool:
        if qmgr in self.full:
            return self.full_repository(qmgr) and self.repositories_linked()
        return bool(self.joined_through(qmgr)) and self.repositories_linked()

    def host_lives(self, host: str) -> bool:
        """The full repositories surely hold the host's records (its CLUSRCVR's and its queue's)."""
        qmid = self.records.qmid.get(host)
        return qmid is not None and all(
            self.records.lives((qmid, kind), self.now) is True for kind in (QMGR, QUEUE)
        )

    def serves(self, user: str, host: str) -> bool:
        """Whether the rules promise that user's puts reach host's cluster queue once the network
        has been whole for the channels' retry time."""
        return (
            host in self.queues
            and self.in_cluster(user)
            and self.in_cluster(host)
            and self.host_lives(host)
            and self.user_known(user)
        )

    def user_known(self, user: str) -> bool:
        """The full repositories surely hold the user's CLUSRCVR record: without it they cannot
        answer its question about a queue (they reach a member only through that record)."""
        qmid = self.records.qmid.get(user)
        return qmid is not None and self.records.lives((qmid, QMGR), self.now) is True

    def withdrawn(self, host: str) -> bool:
        """Whether no queue manager has the host's cluster queue any more: rebuilt without it, and
        the old QMIDs' queue records surely gone from the full repositories (RESET CLUSTER
        QUEUES(YES), or deleted 60 days after their expiry) - and so from every member that
        learnt them, which deletes its copy no later, or was told of the reset."""
        return host in self.retired and all(
            self.records.lives((qmid, QUEUE), self.now) is False for qmid in self.records.old.get(host, [])
        )

    def renewing_interests(self) -> set[str]:
        """The partial repositories that may not yet have renewed an interest a rebuilt full
        repository lost (so may hold a copy past its expiry)."""
        lost = self.interests_lost_at
        return set(self.partial) if lost is not None and self.now < lost + REPUBLISH + MARGIN else set()

    def keeps_knowing(self) -> bool:
        """Whether every record a member learnt is still sure to be kept (see the module's note)."""
        return self.settled_at is not None and self.now - self.settled_at < KEEPS_KNOWING

    def still_knows(self, host: str) -> bool:
        """Whether a member that learnt the host's records by the last settle surely keeps them now."""
        return host in self.copies and self.now + MARGIN < self.copies[host] + EXPIRY + KEPT

    def to(self, host: str, *states: str) -> list[Message]:
        return [m for m in self.messages if m.host == host and m.state in states]

    def from_(self, user: str, *states: str) -> list[Message]:
        return [m for m in self.messages if m.user == user and m.state in states]
