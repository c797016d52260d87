"""What an administrator does to a cluster's members in a cluster story, and what the model says each
step must answer and leave: endmqm and strmqm, a file-level backup and a restore from it (the same
QMID), a rebuild (dltmqm and crtmqm: a new QMID, the definitions made again), RESET CLUSTER of the old
QMID on a full repository, and REFRESH CLUSTER.

The rules are in tests/stories/cluster_model.py and tests/stories/cluster_records.py.
"""

from __future__ import annotations

from tests.stories.cluster_explained import refresh_explained, reset_explained, restore_explained
from tests.stories.cluster_model import (
    ARRIVED,
    CLUSTER,
    DOUBTFUL,
    FLYING,
    GONE,
    HELD,
    Backup,
    Cluster,
    Message,
)
from tests.stories.cluster_records import EPOCH, QMGR, QUEUE
from tests.stories.oracle import Expect, says


def queue(host: str) -> str:
    return f"Q.{host}"


def channel(qmgr: str) -> str:
    return f"TO.{qmgr}"


def conname(qmgr: str) -> str:
    return f"'{qmgr.lower()}(1414)'"


class Operations:
    """The steps on one member; current is the queue manager the script's commands go to."""

    current: str | None = None

    def _use(self, model: Cluster, qmgr: str) -> list[Expect]:
        """Make qmgr the current queue manager, starting it first if it is ended (an administrator
        who defines or refreshes on it starts it)."""
        lines = self._start(model, qmgr)
        if self.current == qmgr:
            return lines
        self.current = qmgr
        return lines + [Expect(f"LAB USE QMGR({qmgr})", says(f"Current queue manager is {qmgr}."))]

    def _advance(self, model: Cluster, seconds: int) -> list[Expect]:
        """The clock moved on: every running owner re-publishes what falls due."""
        for qmgr in model.full + model.partial:
            if qmgr not in model.ended:
                model.records.republish_until(qmgr, model.now + seconds, model.calm)
        model.now += seconds
        return [Expect(f"LAB CLOCK ADVANCE({seconds}S)", says("The simulated clock is at"))]

    def _start(self, model: Cluster, qmgr: str) -> list[Expect]:
        if qmgr not in model.ended:
            return []
        model.ended.discard(qmgr)
        model.records.republish_overdue(qmgr, model.now, delivered=False)
        return [Expect(f"strmqm {qmgr}", says(f"IBM MQ queue manager '{qmgr}' started."))]

    def _end(self, model: Cluster, qmgr: str, immediate: bool) -> list[Expect]:
        """endmqm: the non-persistent messages on its queues are gone with it."""
        if qmgr in model.ended:
            return []
        model.ended.add(qmgr)
        model.calm = False
        for message in model.to(qmgr, HELD):
            if not message.persistent:
                message.state = GONE
        if immediate:
            return [Expect(f"endmqm -i {qmgr}", says(f"IBM MQ queue manager '{qmgr}' ended."))]
        return [Expect(f"endmqm {qmgr}", says("Quiesce request accepted."))]

    def _backup(self, model: Cluster, qmgr: str, name: str) -> list[Expect]:
        """A file-level backup, taken while the queue manager is briefly ended (as lab 41 takes it)."""
        was_running, calm = qmgr not in model.ended, model.calm
        lines = self._end(model, qmgr, immediate=False)
        model.backups[name] = (
            qmgr,
            Backup(
                definitions={
                    kind: qmgr in getattr(model, kind) for kind in ("listener", "clusrcvr", "queues", "repos")
                },
                clussdr={pair for pair in model.clussdr if pair[0] == qmgr},
                records=model.records.snapshot(qmgr),
                present={m.number: m.state for m in model.to(qmgr, HELD, ARRIVED)},
                unsure={m.number for m in model.to(qmgr, FLYING, DOUBTFUL)},
                outgoing={m.number for m in model.from_(qmgr, FLYING, DOUBTFUL)},
                removed=model.records.removed | model.records.residue,
                held=frozenset(model.records.held),
                maybe=frozenset(model.records.maybe),
                fresh=qmgr in model.fresh,
            ),
        )
        lines.append(
            Expect(f"LAB BACKUP QMGR({qmgr}) TO({name})", says(f"Queue manager {qmgr} backed up to {name}"))
        )
        if not was_running:
            return lines
        model.calm = calm  # ended and started again between two moments of the clock: no channel had to wait
        return lines + self._start(model, qmgr)

    def _restore(self, model: Cluster, qmgr: str, name: str) -> list[Expect]:
        """endmqm -i, LAB RESTORE from the backup, strmqm: the queue manager as it was at the backup."""
        taken = model.backups.get(name)
        if taken is None or taken[0] != qmgr or taken[1].records[0] != model.records.qmid.get(qmgr):
            return []  # no backup of this queue manager as it is (the story lost it, or a rebuild outdated it)
        backup = taken[1]
        lines = self._end(model, qmgr, immediate=True)
        self.current = None
        lines.append(
            Expect(
                f"LAB RESTORE QMGR({qmgr}) FROM({name})", says(f"Queue manager {qmgr} restored from {name}")
            )
        )
        for kind, had in backup.definitions.items():
            (getattr(model, kind).add if had else getattr(model, kind).discard)(qmgr)
        model.clussdr = {pair for pair in model.clussdr if pair[0] != qmgr} | backup.clussdr
        model.records.restore(qmgr, backup.records)
        if qmgr in model.full:
            # what reached it since the backup is gone from it; what it passed on to the other
            # full repository, or would have, is unknown: nothing on its way is promised any more
            model.records.unsure_of_pending()
            self._lacks_after_restore(model, qmgr, backup)
        for message in model.messages:
            if message.host == qmgr:
                if message.number in backup.present:
                    message.state = backup.present[message.number]
                elif message.number in backup.unsure or message.state in (FLYING, DOUBTFUL):
                    message.state = DOUBTFUL
                else:
                    message.state = GONE
            elif message.user == qmgr:
                if message.number in backup.outgoing:  # on its transmission queue again: sent again
                    message.resent += 1
                    message.state = DOUBTFUL if message.state == GONE else message.state
                elif message.state == FLYING:  # sent before the restore, or gone with it
                    message.state = DOUBTFUL
        model.known = {(user, host) for user, host in model.known if user != qmgr}
        model.outdated[qmgr] = (model.records.removed | model.records.residue) - backup.removed
        lines += self._start(model, qmgr)
        if not backup.definitions["clusrcvr"]:
            return lines  # not in the cluster at the backup: no repository came back
        own = {kind: publication.seq for kind, publication in model.records.own[qmgr].items()}
        return (
            lines
            + self._use(model, qmgr)
            + [
                Expect(
                    f"LAB EXPLAIN CLUSTER({CLUSTER})",
                    restore_explained(name, model.records.qmid[qmgr], own),
                )
            ]
        )

    @staticmethod
    def _lacks_after_restore(model: Cluster, restored: str, backup: Backup) -> None:
        """A full repository restored holds the other full repositories' CLUSRCVR records as its
        backup had them: one the backup lacked (a rebuilt one's new QMID, learnt since) it does not
        know, and the cluster audit finds its owner known to no other full repository."""
        for other in model.full:
            key = (model.records.qmid.get(other, ""), QMGR)
            if other == restored or key[0] == "" or key in backup.held and not backup.fresh:
                continue
            # a backup taken just after a rebuild, before the other full repository's records could
            # reach it, may or may not hold them
            surely = key not in backup.held and key not in backup.maybe
            model.lacks[(restored, other)] = (key, model.now, surely)

    def _rebuild(
        self, model: Cluster, qmgr: str, minutes: int, full_repository: str, hosts_again: bool
    ) -> list[Expect]:
        """dltmqm, and crtmqm some minutes later (a new QMID); its definitions made again, with its
        CLUSSDR to the full repository it joined through before (or the one the story drew) - a
        full repository's REPOS first, its cluster queue unless the story withdraws it."""
        joined = sorted(to for frm, to in model.clussdr if frm == qmgr)
        to = joined[0] if joined else full_repository
        lines = self._end(model, qmgr, immediate=True)
        self.current = None
        lines.append(Expect(f"dltmqm {qmgr}", says(f"IBM MQ queue manager '{qmgr}' deleted.")))
        lines += self._advance(model, minutes * 60)  # while it is gone, it publishes nothing
        model.ended.discard(qmgr)
        lines += [
            Expect(f"crtmqm {qmgr}", says("IBM MQ queue manager created.")),
            Expect(f"strmqm {qmgr}", says(f"IBM MQ queue manager '{qmgr}' started.")),
            Expect(f"LAB SITE QMGR({qmgr}) SITE({model.site[qmgr]})"),
        ]
        model.records.create(qmgr, model.now)
        hosted, full = qmgr in model.queues, qmgr in model.repos
        for kind in ("listener", "clusrcvr", "queues", "repos"):
            getattr(model, kind).discard(qmgr)
        model.clussdr = {pair for pair in model.clussdr if pair[0] != qmgr}
        for message in model.messages:
            if message.host == qmgr:
                message.state = DOUBTFUL if message.state in (FLYING, DOUBTFUL) else GONE
            elif message.user == qmgr and message.state == FLYING:
                message.state = DOUBTFUL
        model.known = {(user, host) for user, host in model.known if qmgr not in (user, host)}
        model.copies.pop(qmgr, None)
        model.outdated.pop(qmgr, None)
        model.lacks = {pair: lack for pair, lack in model.lacks.items() if pair[0] != qmgr}
        model.backups = {name: taken for name, taken in model.backups.items() if taken[0] != qmgr}
        model.calm = False
        if full:
            # what reached it only - a publication still on its way to the other full repository -
            # went with it: whether the full repositories hold it is unknown until its owner
            # publishes it again (a re-publish or a REFRESH CLUSTER)
            model.records.unsure_of_pending()
            model.interests_lost_at = model.now
            model.fresh.add(qmgr)
            lines += self._define(model, ("repos", qmgr))
        lines += self._define(model, ("listener", qmgr)) + self._define(model, ("clusrcvr", qmgr))
        if to != qmgr:  # a lone full repository has no other to join through
            lines += self._define(model, ("clussdr", qmgr, to))
        if hosted and not hosts_again:
            model.retired.add(qmgr)
        return lines + (self._define(model, ("queue", qmgr)) if hosted and hosts_again else [])

    def _reset(self, model: Cluster, full_repository: str, qmgr: str, queues: bool) -> list[Expect]:
        """RESET CLUSTER ACTION(FORCEREMOVE) of the queue manager's last old QMID, on a full repository."""
        records = model.records
        olds = [qmid for qmid in records.old.get(qmgr, []) if qmid not in records.removed | records.residue]
        if not olds or full_repository not in model.repos:
            return []
        old, now = olds[-1], model.now
        held = {kind for kind in (QMGR, QUEUE) if records.lives((old, kind), now)}
        known = (  # it knows the name by both QMIDs: it can tell the rejoin
            QMGR in held
            and full_repository not in model.outdated
            and records.lives((records.qmid[qmgr], QMGR), now)
        )
        records.reset(old, queues)
        model.calm = False
        return self._use(model, full_repository) + [
            Expect(
                f"RESET CLUSTER({CLUSTER}) ACTION(FORCEREMOVE) QMID('{old}') QUEUES({'YES' if queues else 'NO'})",
                says("AMQ8558I"),
            ),
            Expect(
                f"LAB EXPLAIN CLUSTER({CLUSTER})",
                reset_explained(old, queues, held, records.qmid[qmgr] if known else None),
            ),
        ]

    def _refresh(self, model: Cluster, qmgr: str, repos: bool, minutes: int) -> list[Expect]:
        """REFRESH CLUSTER: REPOS(YES) is refused on a full repository (IBM MQ docs: REFRESH CLUSTER);
        otherwise the queue manager forgets what it learnt and re-publishes its own records."""
        lines = self._advance(model, minutes * 60) + self._use(model, qmgr)
        command = f"REFRESH CLUSTER({CLUSTER}){' REPOS(YES)' if repos else ''}"
        if repos and qmgr in model.repos:
            return lines + [Expect(command, says("AMQ9406E"))]
        model.records.refresh(
            qmgr, model.now, delivered=model.calm
        )  # sent at once, on a calm cluster received
        model.calm = False
        model.known = {(user, host) for user, host in model.known if user != qmgr}
        model.outdated.pop(qmgr, None)
        model.lacks = {pair: lack for pair, lack in model.lacks.items() if pair[0] != qmgr}
        return lines + [
            Expect(command, says("AMQ8559I")),
            Expect(
                f"LAB EXPLAIN CLUSTER({CLUSTER})",
                refresh_explained(model.records.qmid.get(qmgr), EPOCH + model.now),
            ),
        ]

    def _define(self, model: Cluster, definition: tuple) -> list[Expect]:
        kind, qmgr = definition[0], definition[1]
        lines = self._use(model, qmgr)
        if kind == "repos":
            model.repos.add(qmgr)
            if QMGR in model.records.own.get(qmgr, {}):  # its CLUSRCVR's record says QMTYPE(REPOS) now
                model.records.change(qmgr, QMGR, model.now, model.calm)
            return lines + [Expect(f"ALTER QMGR REPOS({CLUSTER})", says("AMQ8005I"))]
        if kind == "listener":
            model.listener.add(qmgr)
            return lines + [
                Expect("DEFINE LISTENER(TCP) TRPTYPE(TCP) PORT(1414) CONTROL(QMGR)", says("AMQ8626I")),
                Expect("START LISTENER(TCP)", says("AMQ8021I")),
            ]
        if kind == "clusrcvr":
            model.clusrcvr.add(qmgr)
            model.records.define(qmgr, QMGR, model.now, model.calm)
            return lines + [
                Expect(
                    f"DEFINE CHANNEL({channel(qmgr)}) CHLTYPE(CLUSRCVR) CLUSTER({CLUSTER}) "
                    f"CONNAME({conname(qmgr)}) TRPTYPE(TCP)",
                    says("AMQ8014I"),
                )
            ]
        if kind == "clussdr":
            model.clussdr.add((qmgr, definition[2]))
            return lines + [
                Expect(
                    f"DEFINE CHANNEL({channel(definition[2])}) CHLTYPE(CLUSSDR) CLUSTER({CLUSTER}) "
                    f"CONNAME({conname(definition[2])}) TRPTYPE(TCP)",
                    says("AMQ8014I"),
                )
            ]
        model.queues.add(qmgr)
        model.records.define(qmgr, QUEUE, model.now, model.calm)
        return lines + [
            Expect(f"DEFINE QLOCAL({queue(qmgr)}) CLUSTER({CLUSTER}) MAXDEPTH(100000)", says("AMQ8006I"))
        ]


def new_message(
    model: Cluster, user: str, host: str, state: str, persistent: bool = True, outcome: dict | None = None
) -> Message:
    """A message of a size no message had before (after the largest put)."""
    size = max((m.size for m in model.messages), default=100) + 1
    message = Message(size, persistent, user, host, state, {"put": None} if outcome is None else outcome)
    model.messages.append(message)
    return message
