"""Stories of one cluster: 1-2 full and 2-6 partial repositories on 2-3 sites, their listeners,
channels and cluster queues defined in a random order, the network between the sites cut and
joined, the clock moved on by minutes to days - and what each member must know and receive.

After every step the model checks what each host's cluster queue holds (LAB BROWSE and CURDEPTH);
after a clock jump, that every member which used a cluster queue still knows it (a member cut off
keeps using what it knows until the records expire); at a settle - the network whole again and the
channels given their retry time - that every member using a cluster queue knows its host (DISPLAY
CLUSQMGR) and the queue (DISPLAY QCLUSTER), that its put reaches the host, and that the cluster
audit finds no record behind its owner (sequence numbers never go backwards).

The rules are in tests/stories/cluster_model.py.
"""

from __future__ import annotations

import random
import re
from collections.abc import Hashable, Sequence

from tests.stories.cluster_model import CLUSTER, RETRY, Cluster
from tests.stories.oracle import Expect, depth_between, holds_with, says

SITES = ("S1", "S2", "S3")
REPOS, LISTENER, CLUSRCVR, CLUSSDR, QUEUE = "repos", "listener", "clusrcvr", "clussdr", "queue"
TOPOLOGY, CUT, JOIN, CLOCK, SETTLE, PUT = "topology", "cut", "join", "clock", "settle", "put"
REFUSED = re.compile(r"MQPUT ended with reason code (2085|2189) ")
DAY = 86400


def queue(host: str) -> str:
    return f"Q.{host}"


def channel(qmgr: str) -> str:
    return f"TO.{qmgr}"


def conname(qmgr: str) -> str:
    return f"'{qmgr.lower()}(1414)'"


def _repository_before_joiners(definitions: list[Hashable], partial: tuple[str, ...]) -> list[Hashable]:
    """The definitions in their random order, but each full repository's ALTER QMGR REPOS before
    the first partial repository's CLUSSDR that points at it. IBM's "Cluster channels" page has a
    partial repository's one manual CLUSSDR connect to a full repository; one pointed at a queue
    manager that is not (yet) a full repository is a misconfiguration whose outcome IBM does not
    describe, so no story tells it."""
    ordered = [d for d in definitions if d[0] != REPOS]
    for repos in (d for d in definitions if d[0] == REPOS):
        first_joiner = next((i for i, d in enumerate(ordered)
                             if d[0] == CLUSSDR and d[1] in partial and d[2] == repos[1]), None)
        at_random = definitions.index(repos) - sum(1 for d in definitions[:definitions.index(repos)] if d[0] == REPOS)
        ordered.insert(min(at_random, first_joiner) if first_joiner is not None else at_random, repos)
    return ordered


class ClusterFamily:
    """Random clusters: full and partial repositories on sites, their definitions in a random order,
    puts made before the cluster settles, network cuts and joins, and the clock moved on."""
    name = "cluster"

    def __init__(self, steps: int = 8):
        self.steps = steps

    # -------------------------------------------------------------- the story
    def story(self, rng: random.Random) -> list[Hashable]:
        full = tuple(f"FR{i}" for i in range(1, rng.randint(1, 2) + 1))
        partial = tuple(f"PR{i}" for i in range(1, rng.randint(2, 6) + 1))
        sites = SITES[:rng.randint(2, 3)]
        placed = tuple((qmgr, rng.choice(sites)) for qmgr in full + partial)
        actions: list[Hashable] = [(TOPOLOGY, full, partial, placed)]
        hosts = rng.sample(partial, rng.randint(1, min(3, len(partial))))
        definitions: list[Hashable] = [(REPOS, fr) for fr in full]
        for qmgr in full + partial:
            definitions += [(LISTENER, qmgr), (CLUSRCVR, qmgr)]
        definitions += [(CLUSSDR, a, b) for a in full for b in full if a != b]
        definitions += [(CLUSSDR, pr, rng.choice(full)) for pr in partial]
        definitions += [(QUEUE, host) for host in hosts]
        rng.shuffle(definitions)
        definitions = _repository_before_joiners(definitions, partial)
        cuts: set[tuple[str, str]] = set()
        pairs = [(a, b) for a in sites for b in sites if a < b]
        early = [(PUT, user, host) for host in hosts for user in partial if user != host]
        for definition in definitions:
            if rng.random() < 0.25:
                actions.append(self._network_step(rng, pairs, cuts, minutes_only=True))
            if early and rng.random() < 0.15:
                actions.append(rng.choice(early))
            actions.append(definition)
        actions.append((SETTLE,))
        cuts.clear()
        days = 0  # since the last settle: kept under 60, so that every record is sure to be kept
        for _ in range(rng.randint(1, self.steps)):
            step = self._network_step(rng, pairs, cuts, minutes_only=False)
            actions.append(step)
            if early and rng.random() < 0.2:
                actions.append(rng.choice(early))
            days += step[1] // DAY if step[0] == CLOCK else 0
            if days >= 30 or rng.random() < 0.3:
                actions.append((SETTLE,))
                cuts.clear()
                days = 0
        actions.append((SETTLE,))
        return actions

    @staticmethod
    def _network_step(rng, pairs, cuts, minutes_only: bool) -> Hashable:
        kind = rng.choices([CUT, JOIN, CLOCK], [2, 1 if cuts else 0, 3])[0]
        if kind == CUT and len(cuts) < len(pairs):
            pair = rng.choice([p for p in pairs if p not in cuts])
            cuts.add(pair)
            return (CUT, *pair)
        if kind == JOIN:
            pair = rng.choice(sorted(cuts))
            cuts.discard(pair)
            return (JOIN, *pair)
        if minutes_only or rng.random() < 0.4:
            return (CLOCK, rng.randint(1, 90) * 60)
        return (CLOCK, rng.randint(1, 25) * DAY)  # a settle follows within 60 days (see below)

    # -------------------------------------------------------------- what it must do
    def script(self, actions: Sequence[Hashable]) -> list[Expect]:
        if not actions or actions[0][0] != TOPOLOGY:
            return [Expect("LAB CLOCK SET('2026-05-01 09:00:00')")]
        _, full, partial, placed = actions[0]
        model = Cluster(full, partial, dict(placed))
        self.current = None
        expects = [Expect("LAB CLOCK SET('2026-05-01 09:00:00')")]
        for qmgr in full + partial:
            expects.append(Expect(f"crtmqm {qmgr}", says("IBM MQ queue manager created.")))
        for qmgr in full + partial:
            expects.append(Expect(f"strmqm {qmgr}", says(f"IBM MQ queue manager '{qmgr}' started.")))
        for qmgr, site in placed:
            expects.append(Expect(f"LAB SITE QMGR({qmgr}) SITE({site})"))
        for number, action in enumerate(actions[1:]):
            expects += self._step(model, action)
            expects += self._holdings(model, None if action[0] == SETTLE else number)
        return expects

    def _use(self, qmgr: str) -> list[Expect]:
        if self.current == qmgr:
            return []
        self.current = qmgr
        return [Expect(f"LAB USE QMGR({qmgr})", says(f"Current queue manager is {qmgr}."))]

    def _step(self, model: Cluster, action: Hashable) -> list[Expect]:
        kind = action[0]
        if kind == REPOS:
            model.repos.add(action[1])
            return self._use(action[1]) + [Expect(f"ALTER QMGR REPOS({CLUSTER})", says("AMQ8005I"))]
        if kind == LISTENER:
            model.listener.add(action[1])
            return self._use(action[1]) + [
                Expect("DEFINE LISTENER(TCP) TRPTYPE(TCP) PORT(1414) CONTROL(QMGR)", says("AMQ8626I")),
                Expect("START LISTENER(TCP)", says("AMQ8021I"))]
        if kind == CLUSRCVR:
            model.clusrcvr.add(action[1])
            return self._use(action[1]) + [Expect(
                f"DEFINE CHANNEL({channel(action[1])}) CHLTYPE(CLUSRCVR) CLUSTER({CLUSTER}) "
                f"CONNAME({conname(action[1])}) TRPTYPE(TCP)", says("AMQ8014I"))]
        if kind == CLUSSDR:
            model.clussdr.add((action[1], action[2]))
            return self._use(action[1]) + [Expect(
                f"DEFINE CHANNEL({channel(action[2])}) CHLTYPE(CLUSSDR) CLUSTER({CLUSTER}) "
                f"CONNAME({conname(action[2])}) TRPTYPE(TCP)", says("AMQ8014I"))]
        if kind == QUEUE:
            model.queues.add(action[1])
            return self._use(action[1]) + [
                Expect(f"DEFINE QLOCAL({queue(action[1])}) CLUSTER({CLUSTER}) MAXDEPTH(100000)", says("AMQ8006I"))]
        if kind == PUT:
            return self._early_put(model, action[1], action[2])
        if kind == CUT:
            pair = (action[1], action[2])
            if pair in model.cuts:
                return []
            model.cuts.add(pair)
            return [Expect(f"LAB NETWORK CUT SITES({pair[0]},{pair[1]})", says("is cut"))]
        if kind == JOIN:
            pair = (action[1], action[2])
            if pair not in model.cuts:
                return []
            model.cuts.discard(pair)
            return [Expect(f"LAB NETWORK JOIN SITES({pair[0]},{pair[1]})", says("are joined"))]
        if kind == CLOCK:
            model.now += action[1]
            return [Expect(f"LAB CLOCK ADVANCE({action[1]}S)", says("The simulated clock is at"))] \
                + self._still_known(model)
        return self._settle(model)

    def _early_put(self, model: Cluster, user: str, host: str) -> list[Expect]:
        """A put before the cluster has settled: the member may not resolve the queue yet (its full
        repository unknown or unreachable: 2085 or 2189); if the put is accepted, the message is
        on its way and must be at the host once the network is whole and the channels have retried."""
        size = next(self.sizes(model))
        outcome: dict = {"put": None}
        model.flying.setdefault(host, []).append((size, outcome))

        def check(answer: str) -> str | None:
            if "1 persistent message(s) put" in answer:
                outcome["put"] = True
            elif REFUSED.search(answer):
                outcome["put"] = False
            else:
                return "expected the put accepted, or refused with 2085 or 2189"
            return None
        return self._use(user) + [Expect(f"LAB PUT QUEUE({queue(host)}) SIZE({size}) PERSISTENT", check)]

    def _still_known(self, model: Cluster) -> list[Expect]:
        """A member keeps using the records it has until they expire, reachable or not."""
        if not model.keeps_knowing():
            return []
        lines = []
        for user, host in sorted(model.known):
            lines += self._use(user) + [Expect(f"DISPLAY QCLUSTER({queue(host)}) CLUSQMGR",
                                               says(f"QUEUE({queue(host)})", f"CLUSQMGR({host})"))]
        return lines

    def _settle(self, model: Cluster) -> list[Expect]:
        """The network whole, every channel given its retry time: every member that uses a cluster
        queue knows the queue and its host, and its put reaches the host."""
        lines = [Expect(f"LAB NETWORK JOIN SITES({a},{b})", says("are joined")) for a, b in sorted(model.cuts)]
        model.cuts.clear()
        promised = model.settled_at is None or model.keeps_knowing()
        model.now += RETRY
        lines.append(Expect(f"LAB CLOCK ADVANCE({RETRY}S)", says("The simulated clock is at")))
        model.settled_at = model.now
        if not promised:  # cut off for longer than the model can promise anything about: only watch
            return lines
        for host, flying in model.flying.items():  # what was on its way has arrived
            model.arrived.setdefault(host, []).extend(flying)
        model.flying.clear()
        sizes = self.sizes(model)
        for host in sorted(model.queues):
            for user in sorted(model.partial):
                if user == host or not model.serves(user, host) or not self._uses(user, host, model):
                    continue
                size = next(sizes)
                persistent = size % 3 != 0
                model.held.setdefault(host, []).append((size, persistent))
                model.known.add((user, host))
                lines += self._use(user) + [
                    Expect(f"LAB PUT QUEUE({queue(host)}) SIZE({size}) "
                           f"{'PERSISTENT' if persistent else 'NONPERSISTENT'}",
                           says(f"1 {'persistent' if persistent else 'non-persistent'} message(s) put")),
                    Expect(f"DISPLAY QCLUSTER({queue(host)}) CLUSQMGR", says(f"CLUSQMGR({host})")),
                    Expect(f"DISPLAY CLUSQMGR({host}) QMTYPE", says(f"CLUSQMGR({host})", "QMTYPE(NORMAL)"))]
        if all(model.in_cluster(q) for q in model.full + model.partial):
            lines.append(Expect(f"LAB AUDIT CLUSTER({CLUSTER})", says("0 findings")))
        return lines

    @staticmethod
    def _uses(user: str, host: str, model: Cluster) -> bool:
        """Which members' applications use which queue: a fixed choice per pair, so that a shorter
        story keeps the same users (the first partial repository after the host always does)."""
        others = [q for q in model.partial if q != host]
        return user == others[0] or (sum(map(ord, user + host)) % 3 == 0)

    @staticmethod
    def sizes(model: Cluster):
        """Sizes no message had before: after the largest put."""
        sizes = [size for held in model.held.values() for size, _ in held]
        sizes += [size for put in (model.flying, model.arrived) for puts in put.values() for size, _ in puts]
        return iter(range(max(sizes, default=100) + 1, 10_000_000))

    def _holdings(self, model: Cluster, number: int | None) -> list[Expect]:
        """After every step: what a host's cluster queue holds - every message put to it, in order
        (one host a step, in turn, to keep stories fast; every host after a settle)."""
        lines = []
        hosts = sorted(model.queues)
        if number is not None and hosts:
            hosts = [hosts[number % len(hosts)]]
        for host in hosts:
            held = list(model.held.get(host, []))
            arrived, flying = list(model.arrived.get(host, [])), list(model.flying.get(host, []))

            def settled(arrived=arrived):
                return [(size, True) for size, outcome in arrived if outcome["put"]]

            def maybe(flying=flying):
                return [(size, True) for size, outcome in flying if outcome["put"]]
            lines += self._use(host) + [
                Expect(f"LAB BROWSE QUEUE({queue(host)})", holds_with(held, settled, maybe)),
                Expect(f"DISPLAY QLOCAL({queue(host)}) CURDEPTH",
                       depth_between(lambda held=held, settled=settled: len(held) + len(settled()),
                                     lambda held=held, settled=settled, maybe=maybe:
                                     len(held) + len(settled()) + len(maybe())))]
        return lines
