"""Stories of one cluster: 1-2 full and 2-6 partial repositories on 2-3 sites, their listeners,
channels and cluster queues defined in a random order, the network between the sites cut and
joined, the clock moved on by minutes to days, members ended and started again, restored from a
backup (the same QMID) or built again (a new QMID, the old one removed with RESET CLUSTER) - full
repositories too where there are two - and REFRESH CLUSTER - and what each member must know and
receive.

After every step the model checks what each host's cluster queue holds (LAB BROWSE and CURDEPTH);
after a clock jump, that every member which used a cluster queue still knows it (a member cut off
keeps using what it knows until the records expire); at a settle - the network whole again and the
channels given their retry time - that every member using a cluster queue knows its host (DISPLAY
CLUSQMGR) and the queue (DISPLAY QCLUSTER), that its put reaches the host, and that the cluster
audit finds what the model says it must: nothing, or the restored owner behind the full
repositories (STALE: sequence numbers never go backwards), the old QMID of a rebuilt member not yet
removed (DUPLICATE), a record past its expiry (EXPIRED); and that a put to a queue no member has
any more (its host built again without it, its old records gone) is refused with 2085. After every
REFRESH CLUSTER, RESET CLUSTER and restore, LAB EXPLAIN CLUSTER must tell it as the model does
(tests/stories/cluster_explained.py).

The rules are in tests/stories/cluster_model.py and tests/stories/cluster_records.py; the steps on
one member in tests/stories/cluster_operations.py, drawn by tests/stories/cluster_members.py.
"""

from __future__ import annotations

import random
import re
from collections.abc import Hashable, Sequence

from tests.stories.cluster_members import BACKUP, END, REBUILD, REFRESH, RESET, RESTORE, START, Members
from tests.stories.cluster_model import ARRIVED, CLUSTER, DOUBTFUL, FLYING, HELD, RETRY, Cluster, Message
from tests.stories.cluster_operations import Operations, new_message, queue
from tests.stories.cluster_records import QMGR, QUEUE
from tests.stories.oracle import Check, Expect, browsed, depth_between, says

SITES = ("S1", "S2", "S3")
REPOS, LISTENER, CLUSRCVR, CLUSSDR, QUEUED = "repos", "listener", "clusrcvr", "clussdr", "queue"
TOPOLOGY, CUT, JOIN, CLOCK, SETTLE, PUT = "topology", "cut", "join", "clock", "settle", "put"
DEFINITIONS = (REPOS, LISTENER, CLUSRCVR, CLUSSDR, QUEUED)
REFUSED = re.compile(r"MQPUT ended with reason code (2085|2189) ")
FINDING = re.compile(r"^(STALE|DUPLICATE|EXPIRED|UNREACHABLE|PHANTOM|OVERRIDE) ")
DAY = 86400


def _repository_before_joiners(definitions: list[Hashable], partial: tuple[str, ...]) -> list[Hashable]:
    """The definitions in their random order, but each full repository's ALTER QMGR REPOS before
    the first partial repository's CLUSSDR that points at it. IBM's "Cluster channels" page has a
    partial repository's one manual CLUSSDR connect to a full repository; one pointed at a queue
    manager that is not (yet) a full repository is a misconfiguration whose outcome IBM does not
    describe, so no story tells it."""
    ordered = [d for d in definitions if d[0] != REPOS]
    for repos in (d for d in definitions if d[0] == REPOS):
        first_joiner = next(
            (i for i, d in enumerate(ordered) if d[0] == CLUSSDR and d[1] in partial and d[2] == repos[1]),
            None,
        )
        at_random = definitions.index(repos) - sum(
            1 for d in definitions[: definitions.index(repos)] if d[0] == REPOS
        )
        ordered.insert(min(at_random, first_joiner) if first_joiner is not None else at_random, repos)
    return ordered


class ClusterFamily(Operations):
    """Random clusters: full and partial repositories on sites, their definitions in a random order,
    puts made before the cluster settles, network cuts and joins, the clock moved on, and members
    ended, restored, rebuilt and refreshed."""

    name = "cluster"

    def __init__(self, steps: int = 8):
        self.steps = steps

    # -------------------------------------------------------------- the story
    def story(self, rng: random.Random) -> list[Hashable]:
        full = tuple(f"FR{i}" for i in range(1, rng.randint(1, 2) + 1))
        partial = tuple(f"PR{i}" for i in range(1, rng.randint(2, 6) + 1))
        sites = SITES[: rng.randint(2, 3)]
        placed = tuple((qmgr, rng.choice(sites)) for qmgr in full + partial)
        actions: list[Hashable] = [(TOPOLOGY, full, partial, placed)]
        hosts = rng.sample(partial, rng.randint(1, min(3, len(partial))))
        definitions: list[Hashable] = [(REPOS, fr) for fr in full]
        for qmgr in full + partial:
            definitions += [(LISTENER, qmgr), (CLUSRCVR, qmgr)]
        definitions += [(CLUSSDR, a, b) for a in full for b in full if a != b]
        definitions += [(CLUSSDR, pr, rng.choice(full)) for pr in partial]
        definitions += [(QUEUED, host) for host in hosts]
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
        members = Members(full, partial)
        days = 0  # since the last settle: kept under 60, so that every record is sure to be kept
        for _ in range(rng.randint(1, self.steps)):
            step = (
                members.step(rng)
                if rng.random() < 0.5
                else self._network_step(rng, pairs, cuts, minutes_only=False)
            )
            actions.append(step)
            if early and rng.random() < 0.2:
                actions.append(rng.choice(early))
            days += step[1] // DAY if step[0] == CLOCK else 0
            if days >= 30 or rng.random() < 0.3:
                actions.append((SETTLE,))
                cuts.clear()
                members.settled()
                days = 0
        withdrawn = [a for a in actions if a[0] == REBUILD and not a[4] and a[1] in hosts]
        if withdrawn and rng.random() < 0.5:
            # a hundred days on, settling every 25: the old QMID's records not removed by a reset
            # expire and are deleted 90 days after their last publication - and the queue with them
            actions += [(CLOCK, 25 * DAY), (SETTLE,)] * 4
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
            model.records.create(qmgr, 0)
            expects.append(Expect(f"crtmqm {qmgr}", says("IBM MQ queue manager created.")))
        for qmgr in full + partial:
            expects.append(Expect(f"strmqm {qmgr}", says(f"IBM MQ queue manager '{qmgr}' started.")))
        for qmgr, site in placed:
            expects.append(Expect(f"LAB SITE QMGR({qmgr}) SITE({site})"))
        for number, action in enumerate(actions[1:]):
            expects += self._step(model, action)
            expects += self._holdings(model, None if action[0] == SETTLE else number)
        return expects

    def _step(self, model: Cluster, action: Hashable) -> list[Expect]:
        kind = action[0]
        if kind in DEFINITIONS:
            return self._define(model, action)
        if kind == PUT:
            return self._early_put(model, action[1], action[2])
        if kind == CUT:
            pair = (action[1], action[2])
            if pair in model.cuts:
                return []
            model.cuts.add(pair)
            model.calm = False
            return [Expect(f"LAB NETWORK CUT SITES({pair[0]},{pair[1]})", says("is cut"))]
        if kind == JOIN:
            pair = (action[1], action[2])
            if pair not in model.cuts:
                return []
            model.cuts.discard(pair)
            return [Expect(f"LAB NETWORK JOIN SITES({pair[0]},{pair[1]})", says("are joined"))]
        if kind == CLOCK:
            return self._advance(model, action[1]) + self._still_known(model)
        if kind == END:
            return self._end(model, action[1], action[2])
        if kind == START:
            return self._start(model, action[1])
        if kind == BACKUP:
            return self._backup(model, action[1], action[2])
        if kind == RESTORE:
            return self._restore(model, action[1], action[2])
        if kind == REBUILD:
            return self._rebuild(model, *action[1:])
        if kind == RESET:
            return self._reset(model, action[1], action[2], action[3])
        if kind == REFRESH:
            return self._refresh(model, action[1], action[2], action[3])
        return self._settle(model)

    def _early_put(self, model: Cluster, user: str, host: str) -> list[Expect]:
        """A put before the cluster has settled: the member may not resolve the queue yet (its full
        repository unknown or unreachable: 2085 or 2189); if the put is accepted, the message is
        on its way and must be at the host once the network is whole and the channels have retried.
        An ended member's applications put nothing."""
        if user in model.ended:
            return []
        message = new_message(model, user, host, FLYING)

        def check(answer: str) -> str | None:
            if "1 persistent message(s) put" in answer:
                message.outcome["put"] = True
            elif REFUSED.search(answer):
                message.outcome["put"] = False
            else:
                return "expected the put accepted, or refused with 2085 or 2189"
            return None

        return self._use(model, user) + [
            Expect(f"LAB PUT QUEUE({queue(host)}) SIZE({message.size}) PERSISTENT", check)
        ]

    def _still_known(self, model: Cluster) -> list[Expect]:
        """A member keeps using the records it has until they expire, reachable or not."""
        if not model.keeps_knowing():
            return []
        lines = []
        for user, host in sorted(model.known):
            if user in model.ended or not model.still_knows(host):
                continue
            lines += self._use(model, user) + [
                Expect(
                    f"DISPLAY QCLUSTER({queue(host)}) CLUSQMGR",
                    says(f"QUEUE({queue(host)})", f"CLUSQMGR({host})"),
                )
            ]
        return lines

    def _settle(self, model: Cluster) -> list[Expect]:
        """Every member started, the network whole, every channel given its retry time: every member
        that uses a cluster queue knows the queue and its host, and its put reaches the host."""
        lines = []
        for qmgr in sorted(model.ended):
            lines += self._start(model, qmgr)
        lines += [
            Expect(f"LAB NETWORK JOIN SITES({a},{b})", says("are joined")) for a, b in sorted(model.cuts)
        ]
        model.cuts.clear()
        promised = model.settled_at is None or model.keeps_knowing()
        lines += self._advance(model, RETRY)
        model.settled_at = model.now
        model.calm = True
        model.fresh.clear()
        model.records.settle(model.in_cluster)
        model.copies = {
            host: published for host in model.queues if (published := model.records.oldest(host)) is not None
        }
        if not promised:  # cut off for longer than the model can promise anything about: only watch
            return lines
        for message in model.messages:  # what was on its way has arrived, where both ends are in the cluster
            if message.state == FLYING and model.in_cluster(message.user) and model.in_cluster(message.host):
                message.state = ARRIVED
        for host in sorted(model.queues):
            for user in sorted(model.partial):
                if user == host or not model.serves(user, host) or not self._uses(user, host, model):
                    continue
                message = new_message(model, user, host, HELD, outcome={"put": True})
                message.persistent = message.size % 3 != 0
                words = (
                    ("PERSISTENT", "persistent")
                    if message.persistent
                    else ("NONPERSISTENT", "non-persistent")
                )
                model.known.add((user, host))
                lines += self._use(model, user) + [
                    Expect(
                        f"LAB PUT QUEUE({queue(host)}) SIZE({message.size}) {words[0]}",
                        says(f"1 {words[1]} message(s) put"),
                    ),
                    Expect(f"DISPLAY QCLUSTER({queue(host)}) CLUSQMGR", says(f"CLUSQMGR({host})")),
                    Expect(f"DISPLAY CLUSQMGR({host}) QMTYPE", says(f"CLUSQMGR({host})", "QMTYPE(NORMAL)")),
                ]
        lines += self._withdrawn(model)
        if all(model.in_cluster(q) for q in model.full + model.partial):
            findings, exact = self._findings(model)
            lines.append(
                Expect(
                    f"LAB AUDIT CLUSTER({CLUSTER})",
                    audit_shows(
                        findings, exact, model.outdated, model.records.old, model.renewing_interests()
                    ),
                )
            )
        return lines

    def _withdrawn(self, model: Cluster) -> list[Expect]:
        """A put to a cluster queue no member has any more is refused with 2085: every member in the
        cluster that used it asks the full repositories, which know of no instance. A member
        restored from a backup and not refreshed since may hold the old records still."""
        lines = []
        for host in sorted(q for q in model.retired if model.withdrawn(q)):
            for user in sorted(model.partial):
                if user == host or user in model.outdated or not model.in_cluster(user):
                    continue
                if self._uses(user, host, model):
                    lines += self._use(model, user) + [
                        Expect(f"LAB PUT QUEUE({queue(host)}) SIZE(10) PERSISTENT", refused_unknown())
                    ]
        return lines

    @staticmethod
    def _findings(model: Cluster) -> tuple[set[tuple[str, str]], bool]:
        """What the cluster audit must find, as (finding, owner); and whether nothing else may be found
        (False when the model cannot tell, as after a publication lost or not with a restore)."""
        records, now = model.records, model.now
        findings: set[tuple[str, str]] = set()
        exact = True
        for qmgr in model.full + model.partial:
            stale = records.stale(qmgr)
            if stale:
                findings.add(("STALE", qmgr))
            keys = [(records.qmid[qmgr], kind) for kind in records.own.get(qmgr, {})]
            for qmid in records.old.get(qmgr, []):
                if qmid in records.residue:
                    exact = exact and records.lives((qmid, QUEUE), now) is False
                elif qmid not in records.removed:
                    keys += [(qmid, QMGR), (qmid, QUEUE)]
                    duplicate = records.lives((qmid, QMGR), now)
                    if duplicate:
                        findings.add(("DUPLICATE", qmgr))
                    # an old queue's record with no owner left: what the audit makes of it is not IBM's to say
                    exact = exact and duplicate is not None and records.lives((qmid, QUEUE), now) is False
            expired = [
                records.expired(key, now) for key in keys if key in records.held or key in records.maybe
            ]
            if any(expired):
                findings.add(("EXPIRED", qmgr))
            exact = exact and stale is not None and None not in expired
        for (_restored, other), (key, since, surely) in model.lacks.items():
            held = records.held.get(key)
            if key[0] != records.qmid.get(other) or (held is not None and held.published > since):
                continue  # a new QMID, or published again since the restore: learnt as any record is
            if surely:
                findings.add(("UNREACHABLE", other))
            exact = exact and surely
        return findings, exact

    @staticmethod
    def _uses(user: str, host: str, model: Cluster) -> bool:
        """Which members' applications use which queue: a fixed choice per pair, so that a shorter
        story keeps the same users (the first partial repository after the host always does)."""
        others = [q for q in model.partial if q != host]
        return user == others[0] or (sum(map(ord, user + host)) % 3 == 0)

    def _holdings(self, model: Cluster, number: int | None) -> list[Expect]:
        """After every step: what a running host's cluster queue holds - every message put to it, in
        order (one host a step, in turn, to keep stories fast; every host after a settle)."""
        lines = []
        hosts = sorted(model.queues)
        if number is not None and hosts:
            hosts = [hosts[number % len(hosts)]]
        for host in hosts:
            if host in model.ended:
                continue
            held = model.to(host, HELD)
            must = held + model.to(host, ARRIVED)
            may = model.to(host, FLYING, DOUBTFUL)

            def low(must=must):
                return sum(1 for m in must if m.accepted())

            def high(must=must, may=may):
                return sum(1 + m.resent for m in must + may if m.accepted())

            lines += self._use(model, host) + [
                Expect(f"LAB BROWSE QUEUE({queue(host)})", holds_messages(held, must, may)),
                Expect(f"DISPLAY QLOCAL({queue(host)}) CURDEPTH", depth_between(low, high)),
            ]
        return lines


def holds_messages(held: list[Message], must: list[Message], may: list[Message]):
    """LAB BROWSE shows every message that must be there (the held ones in the order of their puts),
    any of those that may be, nothing else, none twice but those sent again, as often as they were. Whether an early put
    was accepted is known when the answer is checked."""

    def check(answer: str) -> str | None:
        found = browsed(answer)
        if found is None:
            return "the browse failed"
        wanted = {(m.size, m.persistent): m for m in must + may if m.accepted()}
        missing = [
            (m.size, m.persistent) for m in must if m.accepted() and (m.size, m.persistent) not in found
        ]
        unexpected = [f for f in found if f not in wanted]
        doubled = sorted({f for f in found if found.count(f) > 1 + (wanted[f].resent if f in wanted else 0)})
        if missing or unexpected or doubled:
            return f"missing (size, persistent) {missing}, unexpected {unexpected}, too many times {doubled}"
        order = [(m.size, m.persistent) for m in held if m.accepted()]
        seen = [f for f in dict.fromkeys(found) if f in set(order)]
        return None if seen == order else f"the messages in the wrong order: {found}"

    return check


def audit_shows(
    findings: set[tuple[str, str]],
    exact: bool,
    outdated: dict[str, set[str]],
    old: dict[str, list[str]],
    renewing: set[str] | None = None,
):
    """LAB AUDIT CLUSTER finds each (finding, owner) expected - and, when the model can tell, no other
    but what an outdated member (restored, not refreshed since) holds: records past their expiry, a
    queue's record whose owner no longer has it (PHANTOM), and the old QMID of a rebuilt member
    that RESET CLUSTER removed after its backup (DUPLICATE); IBM MQ docs: "Recovering a cluster
    queue manager" has REFRESH CLUSTER on it bring its cluster information up to date. A partial
    repository still renewing an interest a rebuilt full repository lost (renewing) may hold a
    record past its expiry."""
    brought_back = set().union(*outdated.values())
    duplicated = {owner for owner, qmids in old.items() if brought_back & set(qmids)}

    def excused(finding: str, owner: str, holder: str) -> bool:
        if finding == "DUPLICATE":
            return owner in duplicated
        if finding == "EXPIRED" and holder in (renewing or set()):
            return True  # an interest a rebuilt full repository lost, not renewed yet
        return finding in ("EXPIRED", "PHANTOM") and holder in outdated

    def check(answer: str) -> str | None:
        lines = answer.splitlines()
        header = next((line for line in lines if line.startswith("FINDING")), None)
        found: set[tuple[str, str]] = set()
        strict: set[tuple[str, str]] = set()  # found, but what an outdated member holds
        if header is not None:
            held_by, what = header.index("HELD BY"), header.index("OBJECT")
            owner, qmid = header.index("OWNER"), header.index("QMID")
            for line in (line for line in lines if FINDING.match(line)):
                row = (line.split()[0], line[owner:qmid].strip())
                found.add(row)
                if not excused(*row, line[held_by:what].strip()):
                    strict.add(row)
        elif "0 findings" not in answer:
            return "the audit gave no table and no '0 findings'"
        missing = findings - found
        unexpected = strict - findings
        if missing or (exact and unexpected):
            return f"expected the findings {sorted(findings)}{'' if exact else ' at least'}, found {sorted(found)}"
        return None

    check.findings = findings  # type: ignore[attr-defined]  # for the tests that choose stories by them
    return check


def refused_unknown() -> Check:
    """The put refused with 2085 (MQRC_UNKNOWN_OBJECT_NAME)."""

    def check(answer: str) -> str | None:
        return None if "reason code 2085 " in answer else "expected the put refused with 2085"

    check.reason = 2085  # type: ignore[attr-defined]  # for the tests that choose stories by it
    return check
