"""The clusters of a data directory at work: every repository manager this process runs, the
cluster-sender channels between them, and simulated time passing over them.

After every command the repository managers do what is due and the channels move what waits,
in turns, until nothing more happens. LAB CLOCK ADVANCE steps the clock through every moment
at which a manager changes something by itself (a re-publish at day 27, a deletion 60 days after
expiry), settling at each, so a lab that jumps 90 days sees what 90 days of running would
have done, in order.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import timedelta
from typing import TYPE_CHECKING, Protocol

from mqsh.core.clock import EARLIEST, LATEST, RANGE_TEXT
from mqsh.model.cluster.cache import QMGR
from mqsh.model.cluster.manager import TRANSMIT_QUEUE, RepositoryManager
from mqsh.model.cluster.routing import ClusterRouter
from mqsh.model.network.state import SENDER, STARTING, ChannelState

if TYPE_CHECKING:
    from mqsh.core.clock import Clock
    from mqsh.model.network.channels import Network
    from mqsh.model.qmgr import QueueManager

MAX_TURNS = 64  # a command's consequences travel at most this many turns of managers and channels


class Members(Protocol):
    """What the clusters need of the installation."""

    held: dict[str, QueueManager]
    clock: Clock

    def running_members(self) -> list[str]: ...

    def try_connect(self, name: str) -> QueueManager | None: ...

    def settling(self) -> AbstractContextManager[None]: ...


class Clusters:
    def __init__(self, members: Members, network: Network):
        self.members = members
        self.network = network
        self._managers: dict[str, RepositoryManager] = {}
        network.cluster_sender = self.sender_definition

    def manager(self, qmgr: QueueManager) -> RepositoryManager:
        """The queue manager's repository manager (a new one for each start)."""
        found = self._managers.get(qmgr.name)
        if found is None or found.qmgr is not qmgr:
            found = self._managers[qmgr.name] = RepositoryManager(qmgr)
            router = ClusterRouter(found, self.settle)
            routes = qmgr.units.routes
            routes.cluster_router, routes.cluster_definition = router.route, router.definition
            routes.cluster_binder, routes.cluster_qmgr_route = router.bind, router.route_to_qmgr
            qmgr.object_changed = found.note_change
        return found

    def ended(self, qmgr: QueueManager) -> None:
        """endmqm: a repository manager that started says, in the error log, that it ended."""
        manager = self._managers.get(qmgr.name)
        if manager is not None and manager.qmgr is qmgr and manager.announced:
            qmgr.errors.write("AMQ9411I", "Repository manager ended normally.")

    # ------------------------------------------------------------ after every command
    def settle(self) -> None:
        with self.members.settling():
            self._turns()

    def _turns(self) -> None:
        for _ in range(MAX_TURNS):
            done = 0
            for qmgr in [self.members.held[name] for name in sorted(self.members.held)]:
                if qmgr.log is None:
                    continue
                manager = self.manager(qmgr)
                done += manager.work(qmgr.clock.now())
                self._wake_channels(qmgr, manager)
            if not self.network.settle() and not done:
                break
        for manager in self._managers.values():
            manager.cache.close()

    def _wake_channels(self, qmgr: QueueManager, manager: RepositoryManager) -> None:
        """A cluster-sender channel starts when a message waits for it, as MQ triggers it."""
        if qmgr.no_services or not manager.takes_part():
            return
        for channel in manager.waiting_channels():
            if channel not in qmgr.channel_states:
                qmgr.channel_states[channel] = ChannelState(SENDER, STARTING, qmgr.clock.now())

    def sender_definition(self, qmgr: QueueManager, name: str) -> dict | None:
        """A cluster-sender channel's attributes: the CLUSRCVR record in use of that name (an
        auto-defined CLUSSDR), over a manual CLUSSDR definition of it (CLUSSDRB) - or the manual
        one alone until its target's record arrives."""
        manual = qmgr.lookup("CHANNEL", name)
        attributes = (
            dict(manual.attributes)
            if manual is not None and manual.attributes.get("CHLTYPE") == "CLUSSDR"
            else None
        )
        manager = self.manager(qmgr)
        if not manager.cache.exists():
            return attributes
        for record in manager.cache.records(QMGR):
            if (
                record.attrs.get("CHANNEL") == name
                and record.in_use
                and not record.deleted
                and not record.own
            ):
                merged = dict(attributes or {})
                merged.update(
                    CHLTYPE="CLUSSDR", CONNAME=record.attrs.get("CONNAME", ""), XMITQ=TRANSMIT_QUEUE
                )
                merged.setdefault("BATCHSZ", record.attrs.get("BATCHSZ", 50))
                return merged
        if attributes is not None:
            attributes["XMITQ"] = TRANSMIT_QUEUE
        return attributes

    # ------------------------------------------------------------ time passing
    def pass_time(self, clock: Clock, delta: timedelta) -> None:
        """Move the clock on by delta, stopping at every moment a repository manager acts."""
        for name in self.members.running_members():
            if name not in self.members.held:
                self.members.try_connect(name)  # a running queue manager's repository manager works too
        try:
            target = clock.now() + delta
        except OverflowError:
            target = None
        if target is None or not EARLIEST <= target <= LATEST:
            raise ValueError(f"the simulated clock stays {RANGE_TEXT}")
        while True:
            now = clock.now()
            due = [
                when
                for qmgr in self.members.held.values()
                if qmgr.log is not None
                for when in [self.manager(qmgr).next_due(now)]
                if when is not None
            ]
            step = min(due) if due else None
            if step is None or step >= target:
                break
            clock.advance(step - now)
            self.settle()
        clock.advance(target - clock.now())
