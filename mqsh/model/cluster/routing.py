"""Where a put to a cluster queue goes: name resolution through the cluster cache.

A name with no local definition is looked up among the queue records the queue manager knows,
each usable while its owner's queue-manager record is in use. A name it knows nothing of is
asked of the full repositories - a subscription message, whose answer the put waits for, as
MQOPEN waits - and fails with 2085 when they answer that no instance exists, or with 2189 when
no full repository can be reached. A local queue in a cluster is used by its own queue
manager's puts unless its CLWLUSEQ (or the queue manager's, for CLWLUSEQ(QMGR)) is ANY: then it
is one instance among the others.

Among the instances the choice is MQ's cluster workload management algorithm, in its order:
PUT(ENABLED) only (2268 when every instance is put inhibited); the highest channel CLWLRANK,
then queue CLWLRANK; queue managers not suspended before suspended ones; channels by state
(inactive or running, then starting or stopping, then retrying, then stopped); the highest
NETPRTY of each queue manager's channels; the highest channel CLWLPRTY, then queue CLWLPRTY;
then the channel with the fewest messages sent for its CLWLWGHT, the least recently used on a
tie - which sends in proportion to the weights, and round robin where they are equal. CLWLMRUC
(a limit on the channels used) is not modelled: every channel counts as recently used.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mqsh.core.reasons import (
    MQRC_CLUSTER_PUT_INHIBITED,
    MQRC_CLUSTER_RESOLUTION_ERROR,
    MQRC_OBJECT_CHANGED,
    MQRC_UNKNOWN_OBJECT_NAME,
    MQRC_UNKNOWN_REMOTE_Q_MGR,
    MQError,
)
from mqsh.model.cluster.cache import QMGR, QUEUE, Record
from mqsh.model.cluster.manager import TRANSMIT_QUEUE
from mqsh.model.cluster.timers import stamp

if TYPE_CHECKING:
    from mqsh.core.objects import MQObject
    from mqsh.model.cluster.manager import RepositoryManager

# Channel states in the order the algorithm prefers them (its steps 8 to 11).
STATE_TIERS = (
    {"INACTIVE", "RUNNING"},
    {"BINDING", "INITIALIZING", "STARTING", "STOPPING"},
    {"RETRYING"},
    {"REQUESTING", "PAUSED", "STOPPED"},
)


@dataclass(frozen=True)
class Instance:
    """One instance of a cluster queue: its attributes, and those of the CLUSRCVR that reaches it."""

    queue: dict
    channel: dict
    qmname: str
    qmid: str
    local: bool = False

    @property
    def suspended(self) -> bool:
        return self.channel.get("SUSPEND") == "YES"

    @property
    def key(self) -> str:
        """What the weights count messages by: the channel (the local instance needs none)."""
        return "" if self.local else self.channel.get("CHANNEL", "")


class ClusterRouter:
    def __init__(self, manager: RepositoryManager, ask_full_repositories: Callable[[], None]):
        self.manager = manager
        self.ask_full_repositories = ask_full_repositories  # lets the network and managers answer now
        self._sent: dict[str, int] = {}  # messages sent down each channel, for the weights
        self._last_used: dict[str, int] = {}  # the put that last used each channel
        self._puts = 0

    def route(
        self, name: str, local: MQObject | None = None, bound: dict | None = None
    ) -> tuple[MQObject, dict] | None:
        """The cluster transmission queue and the header of a put to the cluster queue name; None
        when local (its own instance, CLWLUSEQ(ANY)) is the one chosen. bound: the instance the
        open handle chose (DEFBIND(OPEN)), which every put through it goes to."""
        manager = self.manager
        chosen = (
            self._still_there(name, bound) if bound is not None else self._choose(self._choices(name, local))
        )
        if chosen.local:
            return None
        manager.cache.note_put(name, stamp(manager.qmgr.clock.now()))  # the use AMQ9456 warns for
        return self._transmission(chosen, name, MQRC_CLUSTER_RESOLUTION_ERROR)

    def _transmission(self, chosen: Instance, queue_name: str, reason: int) -> tuple[MQObject, dict]:
        """The cluster transmission queue and the header that sends a message down chosen's
        channel; MQError(reason) when the queue is missing."""
        queue = self.manager.qmgr.lookup("QUEUE", TRANSMIT_QUEUE)
        if queue is None or queue.object_type != "QLOCAL":
            raise MQError(reason)
        return queue, {"qm": chosen.qmname, "q": queue_name, "chl": chosen.channel.get("CHANNEL", "")}

    def _ask_once(self, kind: str, name: str) -> None:
        """Subscribe to a name in every cluster, and let the full repositories answer when that
        is a new question."""
        manager = self.manager
        if any([manager.subscribe(cluster, kind, name) for cluster in manager.clusters()]):
            self.ask_full_repositories()

    def _choices(self, name: str, local: MQObject | None) -> list[Instance]:
        """The instances a put chooses among: those the cache knows (asked for when none is),
        and with local, the queue manager's own instance, whose others are asked for once."""
        if local is None:
            return self._resolved(name)
        manager = self.manager
        if not manager.takes_part():  # a queue naming a cluster its queue manager is not in
            return [Instance(local.attributes, {}, manager.qmgr.name, "", local=True)]
        self._ask_once(QUEUE, name)
        return [
            *self.instances(name),
            Instance(local.attributes, self._own_channel(), manager.qmgr.name, "", local=True),
        ]

    def route_to_qmgr(self, qmname: str, queue_name: str, ask: bool = True) -> tuple[MQObject, dict]:
        """A put through a remote queue definition to a queue manager of the cluster (no XMITQ, and
        no transmission queue of its name): down the cluster-sender channel to it. A queue
        manager the cache does not know is asked of the full repositories, as a queue is; one
        they do not know either is 2087 (MQRC_UNKNOWN_REMOTE_Q_MGR). A message a channel brings
        for another queue manager goes on the same way (a gateway into the cluster), from what
        the cache knows: the channel's batch does not wait for the full repositories (ask)."""
        manager = self.manager
        if not manager.takes_part():
            raise MQError(MQRC_UNKNOWN_REMOTE_Q_MGR)  # in no cluster: its cache is not even made
        owners = self._members(qmname)
        if not owners and ask:
            self._ask_once(QMGR, qmname)
            owners = self._members(qmname)
        if not owners:
            raise MQError(MQRC_UNKNOWN_REMOTE_Q_MGR)
        chosen = self._choose([Instance({}, owner.attrs, owner.qmname, owner.qmid) for owner in owners])
        return self._transmission(chosen, queue_name, MQRC_UNKNOWN_REMOTE_Q_MGR)

    def _members(self, qmname: str) -> list[Record]:
        return [
            record
            for record in self.manager.cache.records(QMGR, name=qmname)
            if record.in_use and not record.deleted and not record.own
        ]

    def bind(self, name: str) -> dict | None:
        """MQOPEN: the instance chosen now, which the handle's puts keep to when the queue is
        DEFBIND(OPEN) (its default); None for DEFBIND(NOTFIXED), whose every put chooses anew."""
        chosen = self._choose(self._resolved(name))
        if chosen.queue.get("DEFBIND", "OPEN") != "OPEN":
            return None
        return {"qmid": chosen.qmid, "qmname": chosen.qmname}

    def _still_there(self, name: str, bound: dict) -> Instance:
        """The bound instance, while its queue manager's record is in use: once the record went
        (deleted 60 days after expiry, or taken over by a new QMID), puts through the handle
        fail with 2041 (MQRC_OBJECT_CHANGED) until the application opens the queue again."""
        for choice in self.instances(name):
            if choice.qmid == bound["qmid"]:
                return choice
        raise MQError(MQRC_OBJECT_CHANGED)

    def _own_channel(self) -> dict:
        """The local instance's rank and priority on the channel side: its own CLUSRCVR's."""
        own = [record for record in self.manager.cache.records(QMGR, own=True) if not record.deleted]
        return own[0].attrs if own else {}

    def definition(self, name: str) -> dict:
        """The attributes a put to the name takes its defaults from (DEFPSIST, DEFPRTY): those of
        the cluster queue, as MQOPEN resolves it; empty when it cannot be resolved (the put says why)."""
        try:
            choices = self._resolved(name)
        except MQError:
            return {}
        return min(choices, key=lambda choice: (choice.qmname, choice.qmid)).queue

    def _resolved(self, name: str) -> list[Instance]:
        """The usable instances, asking the full repositories first when none is known."""
        manager = self.manager
        if not manager.takes_part():
            raise MQError(MQRC_UNKNOWN_OBJECT_NAME)
        # The first use subscribes even when the cache holds the queue already: records can arrive
        # unasked (updates the full repositories send to a subscription of the QMID a queue manager
        # had before it was built again), and are then never updated unless it asks.
        self._ask_once(QUEUE, name)
        choices = self.instances(name)
        if choices:
            return choices
        clusters = manager.clusters()
        if not clusters:
            raise MQError(MQRC_UNKNOWN_OBJECT_NAME)
        for cluster in clusters:
            manager.subscribe(cluster, QUEUE, name, again=True)
        for record in manager.cache.records(QUEUE, name=name):
            if not record.deleted and not record.own:
                manager.ask_for_host(record)  # known, but not where it is: asked for once
        self.ask_full_repositories()
        choices = self.instances(name)
        if not choices:
            raise MQError(MQRC_CLUSTER_RESOLUTION_ERROR if self._unanswered() else MQRC_UNKNOWN_OBJECT_NAME)
        return choices

    def instances(self, name: str) -> list[Instance]:
        """Every usable remote instance: a queue record whose owner's queue-manager record is in use."""
        cache = self.manager.cache
        owners = {
            (record.cluster, record.qmid): record
            for record in cache.records(QMGR)
            if not record.deleted and record.in_use and not record.own
        }
        return [
            _instance(record, owners[(record.cluster, record.qmid)])
            for record in cache.records(QUEUE, name=name)
            if not record.deleted and not record.own and (record.cluster, record.qmid) in owners
        ]

    def _unanswered(self) -> bool:
        """The question still waits on the transmission queue: no full repository was reached."""
        waiting = self.manager.waiting_channels()
        return any(
            channel in waiting
            for cluster in self.manager.clusters()
            for channel, _name in self.manager.full_repositories(cluster)
        ) or not any(self.manager.full_repositories(cluster) for cluster in self.manager.clusters())

    def _choose(self, choices: list[Instance]) -> Instance:
        enabled = [choice for choice in choices if choice.queue.get("PUT", "ENABLED") == "ENABLED"]
        if not enabled:
            raise MQError(MQRC_CLUSTER_PUT_INHIBITED)
        left = _highest(enabled, lambda choice: _number(choice.channel, "CLWLRANK"))
        left = _highest(left, lambda choice: _number(choice.queue, "CLWLRANK"))
        remote = [choice for choice in left if not choice.local]
        if len(remote) == len(left):
            left = [choice for choice in left if not choice.suspended] or left
        tiers = [self._tier(choice) for choice in left]
        left = [choice for choice, tier in zip(left, tiers) if tier == min(tiers)]
        left = [
            choice
            for choice in left
            if _number(choice.channel, "NETPRTY")
            == max(_number(other.channel, "NETPRTY") for other in left if other.qmid == choice.qmid)
        ]
        left = _highest(left, lambda choice: _number(choice.channel, "CLWLPRTY"))
        left = _highest(left, lambda choice: _number(choice.queue, "CLWLPRTY"))
        chosen = min(
            left,
            key=lambda choice: (
                self._sent.get(choice.key, 0) / max(1, _number(choice.channel, "CLWLWGHT", 50)),
                self._last_used.get(choice.key, -1),
                choice.qmname,
                choice.qmid,
            ),
        )
        self._sent[chosen.key] = self._sent.get(chosen.key, 0) + 1
        self._puts += 1
        self._last_used[chosen.key] = self._puts
        return chosen

    def _tier(self, choice: Instance) -> int:
        """Steps 8 to 11: how ready the channel to the instance is (the local instance needs none)."""
        if choice.local:
            return 0
        state = self.manager.qmgr.channel_states.get(choice.channel.get("CHANNEL", ""))
        status = state.status if state is not None else "INACTIVE"
        return next(
            (tier for tier, statuses in enumerate(STATE_TIERS) if status in statuses), len(STATE_TIERS)
        )


def _instance(queue: Record, owner: Record) -> Instance:
    return Instance(queue.attrs, owner.attrs, owner.qmname, owner.qmid)


def _number(attributes: dict, name: str, default: int = 0) -> int:
    try:
        return int(attributes.get(name, default) or default)
    except (TypeError, ValueError):
        return default


def _highest(choices: list[Instance], value: Callable[[Instance], int]) -> list[Instance]:
    best = max(value(choice) for choice in choices)
    return [choice for choice in choices if value(choice) == best]
