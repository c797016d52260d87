"""Where a put to a cluster queue goes: name resolution through the cluster cache.

A name with no local definition is looked up among the queue records the queue manager knows,
each usable while its owner's queue-manager record is in use. A name it knows nothing of is
asked of the full repositories - a subscription message, whose answer the put waits for, as
MQOPEN waits - and fails with 2085 when they answer that no instance exists, or with 2189 when
no full repository can be reached. Among usable instances the choice is MQ's workload
balancing, reduced to what the model has: PUT(ENABLED) first (2268 when every instance is put
inhibited), queue managers not suspended first, then the highest CLWLRANK and CLWLPRTY, and
round robin among the rest in queue-manager name order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from mqsh.model.cluster.cache import QMGR, QUEUE, Record
from mqsh.model.cluster.manager import TRANSMIT_QUEUE
from mqsh.model.cluster.timers import stamp
from mqsh.model.reasons import MQError

if TYPE_CHECKING:
    from mqsh.model.cluster.manager import RepositoryManager
    from mqsh.model.objects import MQObject


class ClusterRouter:
    def __init__(self, manager: RepositoryManager, ask_full_repositories: Callable[[], None]):
        self.manager = manager
        self.ask_full_repositories = ask_full_repositories  # lets the network and managers answer now
        self._turns: dict[str, int] = {}  # round robin per queue name

    def route(self, name: str) -> tuple[MQObject, dict]:
        """The cluster transmission queue and the header of a put to the cluster queue name."""
        manager = self.manager
        choices = self._resolved(name)
        queue = manager.qmgr.lookup("QUEUE", TRANSMIT_QUEUE)
        if queue is None or queue.object_type != "QLOCAL":
            raise MQError(2189)
        record, owner = self._choose(name, choices)
        manager.cache.note_put(name, stamp(manager.qmgr.clock.now()))
        return queue, {"qm": owner.qmname, "q": name, "chl": owner.attrs.get("CHANNEL", "")}

    def definition(self, name: str) -> dict:
        """The attributes a put to the name takes its defaults from (DEFPSIST, DEFPRTY): those of
        the cluster queue, as MQOPEN resolves it; empty when it cannot be resolved (the put says why)."""
        try:
            choices = self._resolved(name)
        except MQError:
            return {}
        return min(choices, key=lambda choice: (choice[1].qmname, choice[1].qmid))[0].attrs

    def _resolved(self, name: str) -> list[tuple[Record, Record]]:
        """The usable instances, asking the full repositories first when none is known."""
        manager = self.manager
        if not manager.takes_part():
            raise MQError(2085)
        choices = self.instances(name)
        if choices:
            return choices
        clusters = manager.clusters()
        if not clusters:
            raise MQError(2085)
        for cluster in clusters:
            manager.subscribe(cluster, QUEUE, name)
        self.ask_full_repositories()
        choices = self.instances(name)
        if not choices:
            raise MQError(2189 if self._unanswered() else 2085)
        return choices

    def instances(self, name: str) -> list[tuple[Record, Record]]:
        """(queue record, its owner's queue-manager record) for every usable instance."""
        cache = self.manager.cache
        owners = {(record.cluster, record.qmid): record for record in cache.records(QMGR)
                  if not record.deleted and record.in_use and not record.own}
        return [(record, owners[(record.cluster, record.qmid)]) for record in cache.records(QUEUE, name=name)
                if not record.deleted and not record.own
                and (record.cluster, record.qmid) in owners]

    def _unanswered(self) -> bool:
        """The question still waits on the transmission queue: no full repository was reached."""
        waiting = self.manager.waiting_channels()
        return any(channel in waiting for cluster in self.manager.clusters()
                   for channel, _name in self.manager.full_repositories(cluster)) or not any(
            self.manager.full_repositories(cluster) for cluster in self.manager.clusters())

    def _choose(self, name: str, choices: list[tuple[Record, Record]]) -> tuple[Record, Record]:
        enabled = [choice for choice in choices if choice[0].attrs.get("PUT", "ENABLED") == "ENABLED"]
        if not enabled:
            raise MQError(2268)
        awake = [choice for choice in enabled if choice[1].attrs.get("SUSPEND") != "YES"] or enabled
        rank = lambda choice: (int(choice[0].attrs.get("CLWLRANK", 0) or 0),  # noqa: E731
                               int(choice[0].attrs.get("CLWLPRTY", 0) or 0))
        best = max(rank(choice) for choice in awake)
        finalists = sorted((choice for choice in awake if rank(choice) == best), key=lambda c: (c[1].qmname, c[1].qmid))
        turn = self._turns.get(name, 0)
        self._turns[name] = turn + 1
        return finalists[turn % len(finalists)]
