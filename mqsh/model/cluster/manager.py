"""The repository manager of one queue manager: publishes its own records, applies the command
messages other members send, and keeps time for every record.

Cluster command messages are real persistent messages: put on SYSTEM.CLUSTER.TRANSMIT.QUEUE
with a transmission header naming the CLUSRCVR channel they travel by, moved by cluster-sender
channels (mqsh.model.network) to the target's SYSTEM.CLUSTER.COMMAND.QUEUE, taken off it here.
A channel that cannot run leaves them waiting on the transmission queue, as MQ does.

Sequence numbers (as IBM MQ has numbered them since v8): a record's first number is the queue manager's base - the epoch
seconds of its creation (its QMID's time) or of its last REFRESH CLUSTER - and every change
adds one. A receiver keeps an update only if its number is above the one it holds; a full
repository forwards what it keeps to the other full repositories (when the owner sent it) and to
the members that subscribed, and discards the rest without a word, as MQ does with an "old
delayed update" (mqsh.model.cluster.full_repository says what a full repository passes on).
The owner re-publishes every 27 days with a new expiry 30 days on; a record
not re-published by its expiry is warned about hourly (AMQ9456 for queues used here in the last
30 days, AMQ9469 for queue managers, on full repositories) and marked deleted 60 days after it.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from mqsh.core.clock import epoch_seconds
from mqsh.core.objects import COMMITTED, StoredMessage
from mqsh.model.cluster import explain, full_repository, own, timers
from mqsh.model.cluster.cache import QMGR, QUEUE, TOPIC, ClusterCache, Record
from mqsh.model.cluster.timers import REPUBLISH, USED_WITHIN, moment, stamp

if TYPE_CHECKING:
    from mqsh.model.qmgr import QueueManager

COMMAND_QUEUE = "SYSTEM.CLUSTER.COMMAND.QUEUE"
TRANSMIT_QUEUE = "SYSTEM.CLUSTER.TRANSMIT.QUEUE"
EXPIRY = timedelta(days=30)
REJOIN_AFTER = timedelta(seconds=10)  # a full repository ignores a force-removed member this long
FULL_REPOSITORIES_TOLD = 2  # a partial repository sends its own records to two full repositories


class RepositoryManager:
    def __init__(self, qmgr: QueueManager):
        self.qmgr = qmgr
        self.cache = ClusterCache(qmgr.paths.cluster_cache)
        self.changed: set[tuple[str, str]] = set()  # (kind, name) of own objects a command changed
        self.announced = False  # AMQ9410 written for this start
        self._outbox: list[tuple[str, str, dict]] = []  # (channel, target queue manager, body)
        self._pending: list[Record] = []  # cache changes that wait for the turn's messages to be logged
        # Its definitions are compared with what it advertises at its first turn (a change a
        # crash kept from the cache), then only after a command changed one or a re-publish is due.
        self._look_again = True
        # Whether a channel names a cluster: asked after every command, so kept until a
        # channel or namelist (CLUSNL) changes.
        self._cluster_channels: bool | None = None

    # ------------------------------------------------------------ what it is
    @property
    def qmid(self) -> str:
        return own.qmid(self.qmgr)

    def takes_part(self) -> bool:
        """In a cluster, or was: a cluster channel naming a cluster (not SYSTEM.DEF.CLUSRCVR),
        or a cache from earlier work."""
        if self._cluster_channels is None:
            self._cluster_channels = any(
                channel.attributes.get("CHLTYPE") in ("CLUSRCVR", "CLUSSDR")
                and own.clusters_of(self.qmgr, channel.attributes)
                for channel in self.qmgr.objects("CHANNEL")
            )
        return self._cluster_channels or self.cache.exists()

    def full_repository_of(self, cluster: str) -> bool:
        return cluster in own.full_repository_of(self.qmgr)

    def base(self) -> int:
        """The sequence number a new record starts at: the queue manager's creation (its QMID's
        time) until a REFRESH CLUSTER moves it to the refresh's time."""
        stored = self.cache.meta("base")
        if stored is not None:
            return int(stored)
        try:
            created = datetime.strptime(self.qmid[len(own.mq_name(self.qmgr)) + 1 :], "%Y-%m-%d_%H.%M.%S")
        except ValueError:
            created = self.qmgr.clock.never_back(self.qmgr.clock.now())
        value = epoch_seconds(created)
        self.cache.set_meta("base", str(value))
        return value

    def suspended(self) -> set[str]:
        return {name for name in (self.cache.meta("suspended") or "").split(",") if name}

    def note_change(self, namespace: str, name: str) -> None:
        """A command defined, altered or deleted an object: if other members know it, they hear
        of it with a new sequence number even when nothing they see changed (as MQ publishes
        every ALTER: DESCR changed and changed back is two updates)."""
        self._look_again = True  # a namelist, REPOS or channel may change what it advertises
        if namespace in ("CHANNEL", "NAMELIST"):
            self._cluster_channels = None
        if namespace in (QUEUE, TOPIC):
            self.changed.add((namespace, name))
        elif namespace == "CHANNEL":
            channel = self.qmgr.lookup("CHANNEL", name)
            if channel is None or channel.attributes.get("CHLTYPE") == "CLUSRCVR":
                self.changed.add((QMGR, own.mq_name(self.qmgr)))

    # ------------------------------------------------------------ one turn
    def next_due(self, now: datetime) -> datetime | None:
        return timers.next_due(self, now)

    def work(self, now: datetime) -> int:
        """Everything due now; returns how much it did (0: nothing, the network may rest)."""
        if not self.takes_part():
            return 0
        if not self.announced:
            self.announced = True
            self.qmgr.errors.write("AMQ9410I", "The repository manager started successfully.")
        # What was due before now is done first: a warning an update would have stopped is
        # still written for the hours before the update came.
        timers.keep_time(self, now)
        done = self._take_commands(now)
        done += self._publish_own(now)
        done += self._introduce(now)
        self._flush(now)
        return done

    # ------------------------------------------------------------ sending
    def send(self, channel: str, qmname: str, body: dict) -> None:
        self._outbox.append((channel, qmname, body))

    def _flush(self, now: datetime) -> None:
        """The messages of the turn go out (logged), then the cache says they went: killed between
        the two, the next start finds its own records unchanged and sends them again, with the
        same sequence numbers, which receivers discard or take once."""
        if self._outbox:
            with self.qmgr.units.agent_unit() as uow:
                self._put_outbox(now, uow)
        self._save_pending()

    def _put_outbox(self, now: datetime, uow: str) -> None:
        outbox, self._outbox = self._outbox, []
        queue = self.qmgr.lookup("QUEUE", TRANSMIT_QUEUE)
        if not outbox or queue is None or queue.object_type != "QLOCAL":
            return  # no transmission queue: nothing can leave, as MQ's repository manager finds
        ids = {self.qmgr.new_identifier(): item for item in outbox}
        self.qmgr.units.store_data(
            {
                msgid: {"qm": qmname, "q": COMMAND_QUEUE, "chl": channel, "body": body}
                for msgid, (channel, qmname, body) in ids.items()
            }
        )
        for msgid in ids:
            self.qmgr.units.agent_put(queue, StoredMessage(msgid, True, 0, 512, now.isoformat()), uow)

    def _save_pending(self) -> None:
        pending, self._pending = self._pending, []
        for record in pending:
            self.cache.save(
                record, others_not_in_use=record if record.kind == QMGR and not record.deleted else None
            )

    def waiting_channels(self) -> dict[str, int]:
        """Cluster channels with messages waiting on the cluster transmission queue, and how many."""
        queue = self.qmgr.lookup("QUEUE", TRANSMIT_QUEUE)
        waiting: dict[str, int] = {}
        if queue is None:
            return waiting
        for message in queue.messages:
            if message.state == COMMITTED:
                channel = (self.qmgr.units.data.get(message.msgid) or {}).get("chl")
                if channel:
                    waiting[channel] = waiting.get(channel, 0) + 1
        return waiting

    def full_repositories(self, cluster: str) -> list[tuple[str, str]]:
        """Where this queue manager's own records go: (channel, queue manager name) of the full
        repositories it knows (QMGR records in use) and its manual CLUSSDRs, its own excluded."""
        found: dict[str, str] = {}
        for record in self.cache.records(QMGR, cluster):
            if (
                record.attrs.get("QMTYPE") == "REPOS"
                and record.in_use
                and not record.deleted
                and record.qmid != self.qmid
            ):
                found.setdefault(record.attrs.get("CHANNEL", ""), record.qmname)
        for channel in self.qmgr.objects("CHANNEL"):
            if channel.attributes.get("CHLTYPE") == "CLUSSDR" and cluster in own.clusters_of(
                self.qmgr, channel.attributes
            ):
                found.setdefault(channel.name, "")
        return sorted(found.items())

    def _to_full_repositories(self, cluster: str, body: dict) -> None:
        targets = self.full_repositories(cluster)
        if not self.full_repository_of(cluster):
            targets = targets[:FULL_REPOSITORIES_TOLD]
        for channel, qmname in targets:
            if channel != self.own_channel(cluster):
                self.send(channel, qmname, body)

    def own_channel(self, cluster: str) -> str:
        mine = self.cache.record((QMGR, cluster, self.qmid, own.mq_name(self.qmgr)))
        return mine.attrs.get("CHANNEL", "") if mine is not None else ""

    def route_to(self, cluster: str, qmid: str) -> tuple[str, str] | None:
        """(channel, name) that reaches the queue manager of this QMID, from its record."""
        for record in self.cache.records(QMGR, cluster):
            if record.qmid == qmid and not record.deleted:
                return record.attrs.get("CHANNEL", ""), record.qmname
        return None

    # ------------------------------------------------------------ own records
    def _publish_own(self, now: datetime) -> int:
        due = self._republish_due(now)
        if not (self._look_again or self.changed or due):
            return 0
        self._look_again = False
        wanted = own.desired(self.qmgr, self.suspended())
        stored = {record.key: record for record in self.cache.records(own=True)}
        published = 0
        for key, (qmname, attrs) in sorted(wanted.items()):
            old = stored.get(key)
            forced = (key[0], key[3]) in self.changed
            if old is None or old.deleted:
                seq = max(self.base(), old.seq + 1 if old else 0)
            elif forced or own.differs(old.attrs, attrs) or now >= moment(old.published) + REPUBLISH:
                seq = old.seq + 1
            else:
                continue
            record = Record(
                key[0],
                key[1],
                key[2],
                key[3],
                qmname,
                seq,
                stamp(now + EXPIRY),
                attrs,
                clusdate=stamp(now),
                own=True,
                published=stamp(now),
            )
            self.publish(record, now)
            published += 1
        for key, old in sorted(stored.items()):
            if key not in wanted and not old.deleted:
                gone = Record(
                    *key,
                    old.qmname,
                    old.seq + 1,
                    stamp(now + EXPIRY),
                    old.attrs,
                    clusdate=stamp(now),
                    own=True,
                    published=stamp(now),
                    deleted=stamp(now),
                )
                self.publish(gone, now)
                published += 1
        self.changed.clear()
        if due:
            self._renew_interests()
        return published

    def _renew_interests(self) -> None:
        """With its 27-day re-publish a partial repository asks again for what it subscribed to,
        and the full repositories answer with what they hold now. IBM's pages say the records are
        sent again every 27 days and not what becomes of a partial's interest; renewing it with them
        (MQ's style, chosen here) lets a full repository built again, which lost the interest, learn
        it - else the partial's copies would never be updated again, and expire where it holds them."""
        for cluster in self.clusters():
            if self.full_repository_of(cluster):
                continue
            for kind, name in self.cache.interests(cluster, self.qmid):
                self.subscribe(cluster, kind, name, again=True)

    def _republish_due(self, now: datetime) -> bool:
        oldest = self.cache.earliest(True)
        return oldest is not None and now >= moment(oldest) + REPUBLISH

    def publish(self, record: Record, now: datetime, join: bool = False) -> None:
        """Send an own record to the full repositories; join asks them to answer with what a
        member new to them learns (full_repository.welcome), as after REFRESH CLUSTER REPOS(YES)."""
        self._pending.append(record)
        body = {"op": "update", "from": self.qmid, "record": record.to_message()}
        if join:
            body["join"] = True
        if self.full_repository_of(record.cluster):
            full_repository.forward(self, record, body, came_from_owner=True)
        else:
            self._to_full_repositories(record.cluster, body)

    def _introduce(self, now: datetime) -> int:
        """A manual CLUSSDR channel, new or pointed elsewhere, carries the queue manager's own
        records to the full repository at its end (as MQ starts it to join the cluster); a full
        repository also asks the other one for everything it holds."""
        introduced = set(filter(None, (self.cache.meta("introduced") or "").split("\n")))
        now_known, sent = set(), 0
        for channel in self.qmgr.objects("CHANNEL"):
            if channel.attributes.get("CHLTYPE") != "CLUSSDR":
                continue
            for cluster in own.clusters_of(self.qmgr, channel.attributes):
                key = f"{channel.name}|{cluster}|{channel.attributes.get('CONNAME', '')}"
                now_known.add(key)
                if key in introduced:
                    continue
                mine = [
                    record for record in self.cache.records(cluster=cluster, own=True) if not record.deleted
                ]
                if not any(record.kind == QMGR for record in mine):
                    now_known.discard(key)  # no CLUSRCVR in the cluster yet: nothing to say
                    continue
                for record in mine:
                    self.send(
                        channel.name,
                        "",
                        {"op": "update", "from": self.qmid, "record": record.to_message(), "join": True},
                    )
                if self.full_repository_of(cluster):
                    self.send(
                        channel.name,
                        "",
                        {
                            "op": "subscribe",
                            "from": self.qmid,
                            "qmname": own.mq_name(self.qmgr),
                            "cluster": cluster,
                            "kind": "*",
                            "name": "*",
                        },
                    )
                sent += 1
        if now_known != introduced:
            self.cache.set_meta("introduced", "\n".join(sorted(now_known)))
        return sent

    # ------------------------------------------------------------ command messages
    def _take_commands(self, now: datetime) -> int:
        queue = self.qmgr.lookup("QUEUE", COMMAND_QUEUE)
        if queue is None or queue.object_type != "QLOCAL":
            return 0
        taken = 0
        while True:
            message = queue.next_message(False)
            if message is None:
                return taken
            content = self.qmgr.units.data.get(message.msgid) or {}
            self._apply(content.get("body") or {}, now)
            # What it forwards and the get in one unit, the cache changed before the unit commits:
            # killed before the commit, the message is applied again at the next start - an update
            # whose number is no longer above the stored one, but equal, is forwarded again.
            with self.qmgr.units.agent_unit() as uow:
                self._put_outbox(now, uow)
                self.qmgr.units.agent_get(queue, message, uow)
                self._save_pending()
            self.qmgr.units.data.delete([message.msgid])
            taken += 1

    def _apply(self, body: dict, now: datetime) -> None:
        op = body.get("op")
        if op == "update":
            self._update(Record.from_message(body["record"]), body, now)
        elif op == "subscribe":
            full_repository.answer(self, body)
        elif op == "forceremove":
            before = explain.standing(self.cache, body["cluster"])
            self.forget_member(body["cluster"], body["qmid"], bool(body.get("queues")), now)
            explain.note_told_reset(
                self.qmgr.paths.qmgr_dir,
                self.qmgr.name,
                self.full_repository_of(body["cluster"]),
                body,
                stamp(now),
                before,
                self.cache,
            )
            if self.full_repository_of(body["cluster"]) and not body.get("forwarded"):
                full_repository.tell_members(self, body["cluster"], {**body, "forwarded": True})
        # anything else is not a command this model sends: taken off the queue and ignored

    def _update(self, record: Record, body: dict, now: datetime) -> None:
        if record.qmid == self.qmid:
            return  # its own record coming back: the owner's copy is the truth
        removed = self.cache.removed_at(record.cluster, record.qmid)
        if removed is not None and (
            now < moment(removed) + REJOIN_AFTER or moment(record.expiry) <= moment(removed) + EXPIRY
        ):
            # RESET CLUSTER's rule: no rejoining within 10 seconds; and a copy published before the
            # reset - still held by a queue manager the reset reached late, or on its way then -
            # is what the reset removed, and does not bring it back: only a publication since does
            return
        stored = self.cache.record(record.key)
        if stored is not None and record.seq < stored.seq:
            return  # an old, delayed update: discarded and not forwarded
        full = self.full_repository_of(record.cluster)
        # A member joining (through its manual CLUSSDR, or after a refresh that dropped what it
        # knew of the full repositories) learns them again from the one it reaches.
        joining = (
            full
            and record.kind == QMGR
            and body.get("from") == record.qmid
            and not record.deleted
            and (stored is None or bool(body.get("join")))
        )
        # A queue manager this full repository now learns to be a full repository too (new to it,
        # or made one by ALTER QMGR REPOS) is sent everything it holds: every full repository
        # keeps the whole cluster's records (IBM MQ docs: "Moving a full repository to another
        # queue manager" - the new one obtains the information from the existing one).
        new_peer = (
            full
            and record.kind == QMGR
            and not record.deleted
            and record.attrs.get("QMTYPE") == "REPOS"
            and (stored is None or stored.attrs.get("QMTYPE") != "REPOS" or bool(body.get("join")))
        )
        if stored is not None and record.seq == stored.seq:
            # held already: a copy (the other full repository's), or this message again after a
            # kill before its get was committed - forwarded once more, which receivers discard
            # where they have it
            if full and not body.get("forwarded"):
                full_repository.forward(self, stored, body, came_from_owner=body.get("from") == record.qmid)
            if joining:
                full_repository.welcome(self, stored)
            return
        record.clusdate = stamp(now)
        record.in_use = not record.deleted
        record.sender = body.get("from") or record.qmid
        self._pending.append(record)
        if full:
            full_repository.forward(
                self,
                record,
                body,
                came_from_owner=not body.get("forwarded") and body.get("from") == record.qmid,
            )
            if joining:
                full_repository.welcome(self, record)
            if new_peer:
                full_repository.share_all(self, record)
        elif record.kind in (QUEUE, TOPIC) and not record.deleted:
            self.ask_for_host(record)

    def ask_for_host(self, record: Record) -> bool:
        """A partial repository that holds a queue or topic but not the record of the queue
        manager hosting it (the CLUSRCVR that says how to reach it) subscribes to that queue
        manager, as MQ's repository manager does: the full repositories answer with it now or
        when they learn it. False when it is known, or was asked for before."""
        if full_repository.owner_record(self.cache, record) is not None:
            return False
        return self.subscribe(record.cluster, QMGR, record.qmname)

    def subscribe(self, cluster: str, kind: str, name: str, again: bool = False) -> bool:
        """Ask the full repositories for a queue's records and to be told of its changes; False
        when they were asked before (unless asked again: a put that still finds no instance asks
        anew, as the first question may have gone to no full repository, or to one that could not
        answer yet)."""
        if not self.cache.subscribe(cluster, self.qmid, kind, name) and not again:
            return False
        self._to_full_repositories(
            cluster,
            {
                "op": "subscribe",
                "from": self.qmid,
                "qmname": own.mq_name(self.qmgr),
                "cluster": cluster,
                "kind": kind,
                "name": name,
            },
        )
        return True

    def clusters(self) -> list[str]:
        """The clusters the queue manager is in (those its own queue-manager records are in)."""
        return sorted({record.cluster for record in self.cache.records(QMGR, own=True) if not record.deleted})

    def resubscribe_used(self, now: datetime) -> None:
        """After a refresh: ask again for the cluster queues put to in the last 30 days."""
        for name in self.cache.used_since(stamp(now - USED_WITHIN)):
            for cluster in self.clusters():
                self.subscribe(cluster, QUEUE, name)

    def forget_member(self, cluster: str, qmid: str, queues: bool, now: datetime) -> None:
        """RESET CLUSTER ... FORCEREMOVE as every member applies it."""
        keys = [record.key for record in self.cache.records(QMGR, cluster) if record.qmid == qmid]
        if queues:
            keys += [
                record.key
                for record in self.cache.records(cluster=cluster)
                if record.qmid == qmid and record.kind != QMGR
            ]
        self.cache.drop(keys)
        self.cache.note_removed(cluster, qmid, stamp(now))
