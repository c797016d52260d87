"""Message channels at work.

After every command (LAB CLOCK ADVANCE included) each started sender channel of the queue
managers this process runs tries to reach its partner and moves what waits on its
transmission queue, in a fixed order - queue managers by name, then channels by name - and
again while anything moved, so that a message that arrives on another transmission queue
goes on at once. Connecting follows MQ: a host of the CONNAME reachable from the sender's
host (same site, or sites not cut apart), a queue manager on it running a TCP listener on
that port, and there a receiver channel of the same name that is not stopped, which the
receiving queue manager's channel authentication records let start from the sending host's
address (mqsh.model.network.inbound). Otherwise the channel is RETRYING, and tries again
when its retry falls due on the simulated clock (SHORTTMR, then LONGTMR: mqsh.model.network.retry);
a STOP and START CHANNEL makes it try at once, as in MQ.

A queue manager that another mqsh process holds cannot be reached from this one (its
process owns its log): channels to it retry until that process lets it go.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mqsh.core.reasons import MQError
from mqsh.model.network import events, inbound, retry, transfer, triggers
from mqsh.model.network.conversations import Conversations
from mqsh.model.network.state import (
    RECEIVER,
    REQUESTER,
    RETRYING,
    RUNNING,
    SENDER,
    STARTING,
    STOPPED,
    ChannelState,
)
from mqsh.store.identity import process_user
from mqsh.store.message_data import MessageDataUnavailable

if TYPE_CHECKING:
    from mqsh.model.qmgr import QueueManager

MAX_ROUNDS = 32  # a message crosses at most this many hops in one command
# The channel types a sending channel may start a conversation with: a receiver, or a requester
# (a server answering its requester's call, a sender calling a requester back).
ACCEPTED_BY = {"SDR": ("RCVR", "RQSTR"), "SVR": ("RCVR", "RQSTR"), "CLUSSDR": ("CLUSRCVR",)}


class Network(Conversations):
    """The channels of the queue managers this process runs, at work after every command."""

    def active(self) -> bool:
        return any(qmgr.channel_states for qmgr in list(self.hosts.held.values()))

    def settle(self) -> int:
        """Let every started channel do what it can now; returns how many messages moved."""
        for qmgr in list(self.hosts.held.values()):
            if not qmgr.no_services and qmgr.log is not None:
                triggers.start_triggered(qmgr)
        if not self.active():
            return 0
        self._hosts_now = {}  # hosts change between commands only (LAB RESTORE ... HOST)
        connected: set[tuple[str, str, str]] = set()  # (receiving queue manager, channel, sender's)
        total = 0
        for _ in range(MAX_ROUNDS):
            moved, requested = 0, False
            for qmgr in [self.hosts.held[name] for name in sorted(self.hosts.held)]:
                if qmgr.no_services:
                    continue  # strmqm -ns: no channel initiator, so no channel runs
                now = qmgr.clock.now()
                for name, state in sorted(qmgr.channel_states.items()):
                    if state.role == SENDER and state.status != STOPPED and retry.due(state, now):
                        moved += self._run(qmgr, name, state, connected)
                    elif state.role == REQUESTER and state.status == STARTING:
                        requested |= self._request(qmgr, name, state)  # its partner runs in the next round
            total += moved
            if not moved and not requested:
                break
        self._end_receivers(connected)
        return total

    def _end_receivers(self, connected: set[tuple[str, str, str]]) -> None:
        """A receiving end whose senders no longer reach it ends (it shows no status)."""
        for qmgr in list(self.hosts.held.values()):
            for name, state in list(qmgr.channel_states.items()):
                if state.role != RECEIVER or state.status != RUNNING:
                    continue
                gone = {partner for partner in state.admitted if (qmgr.name, name, partner) not in connected}
                for partner in sorted(gone):
                    # a sender that ended or was stopped closed the conversation; one retrying lost it
                    sender = self.hosts.held.get(partner)
                    sending = sender.channel_states.get(name) if sender is not None else None
                    events.put_event(
                        qmgr,
                        events.STOPPED,
                        name,
                        events.STOPPED_ERROR
                        if sending is not None and sending.status == RETRYING
                        else events.STOPPED_OK,
                        **{"Connection Name": state.conname},
                    )
                state.admitted -= gone
                if not state.admitted:
                    del qmgr.channel_states[name]

    def _definition(self, qmgr: QueueManager, name: str) -> dict | None:
        definition = qmgr.lookup("CHANNEL", name)
        if definition is not None and definition.attributes.get("CHLTYPE") in ("SDR", "SVR"):
            return definition.attributes
        if self.cluster_sender is not None:
            return self.cluster_sender(qmgr, name)
        return None

    def _run(
        self, qmgr: QueueManager, name: str, state: ChannelState, connected: set[tuple[str, str, str]]
    ) -> int:
        attributes = self._definition(qmgr, name)
        if attributes is None:
            del qmgr.channel_states[name]  # deleted or replaced while it ran
            return 0
        try:
            xmitq = _transmission_queue(qmgr, attributes.get("XMITQ", ""))
            receiver = self._connect(qmgr, name, attributes, state)
            if receiver is None:
                return 0
            # A cluster transmission queue holds messages for many channels: each takes its own.
            only = name if attributes.get("CHLTYPE") == "CLUSSDR" else None
            moved = self._move(qmgr, receiver, name, state, xmitq, int(attributes.get("BATCHSZ", 50)), only)
            if moved or not self._ends_idle(qmgr, name, state, attributes):
                connected.add((receiver.name, name, qmgr.name))
            return moved
        except transfer.ChannelStopped as stop:
            self._stop(qmgr, name, state, attributes, stop.msgid, stop.text, stop.explanation)
        except MessageDataUnavailable as error:
            self._stop(
                qmgr,
                name,
                state,
                attributes,
                "AMQ6119S",
                "An internal IBM MQ error has occurred.",
                str(error),
            )
        except MQError as error:  # a full log or disk at either end: the batch was backed out
            self._retry(
                qmgr,
                name,
                state,
                attributes,
                "AMQ9999E",
                f"Channel '{name}' to host '{state.conname}' ended abnormally.",
                f"The channel's batch was backed out: reason code {error.reason}.",
            )
        return 0

    def _connect(
        self, qmgr: QueueManager, name: str, attributes: dict, state: ChannelState
    ) -> QueueManager | None:
        if state.requested_by:
            return self._answer_requester(qmgr, name, attributes, state)
        conname = str(attributes.get("CONNAME", ""))
        receiver = self._reached(qmgr, conname)
        if receiver is None:
            self._retry(
                qmgr,
                name,
                state,
                attributes,
                "AMQ9202E",
                f"Remote host '{conname}' not available, retry later.",
                "The host is not reachable from this site, or no queue manager listens there.",
            )
            return None
        remote = receiver.lookup("CHANNEL", name)
        if remote is None or remote.attributes.get("CHLTYPE") not in ACCEPTED_BY[attributes["CHLTYPE"]]:
            self._retry(
                qmgr,
                name,
                state,
                attributes,
                "AMQ9520E",
                "Channel not defined remotely.",
                f"There is no definition of channel '{name}' at the remote location ({receiver.name}).",
            )
            return None
        answering = receiver.channel_states.get(name)
        verdict = None
        if answering is None or qmgr.name not in answering.admitted:  # starting: CHLAUTH records apply
            verdict = self._admit(qmgr, receiver, name, state, attributes)
            if verdict is None:
                return None
        if answering is not None and answering.status == STOPPED:
            self._retry(
                qmgr,
                name,
                state,
                attributes,
                "AMQ9558E",
                "Remote Channel is not currently available.",
                f"The channel program ended because the channel '{name}' is stopped at the remote end.",
            )
            return None
        if state.status != RUNNING or state.partner != receiver.name:
            self._starting(qmgr, receiver, name, attributes, state)
        state.status, state.partner, state.conname, state.problem = RUNNING, receiver.name, conname, ""
        retry.connected(state, retry.RetryPolicy.of(attributes))
        if verdict is not None:  # a new instance at the receiving end, which says it starts
            receiver.errors.write("AMQ9002I", f"Channel '{name}' is starting.")
            for warning in verdict.warnings:
                receiver.errors.write(warning.msgid, warning.text, warning.explanation, warning.action)
                self._blocked_event(
                    receiver, events.BLOCKED_WARNING, name, qmgr.name, verdict.address, warning
                )
            others = answering.admitted if answering is not None and answering.status == RUNNING else set()
            self._answering(receiver, name, qmgr.name, verdict.address, verdict.user, others)
        return receiver

    def _request(self, requester: QueueManager, name: str, state: ChannelState) -> bool:
        """A requester calls its partner (CONNAME): a server there starts sending to it; a sender
        there starts and calls back through its own CONNAME. Either way the requester's own
        instance ends (it runs again as the receiving end of the one that sends). A call that
        fails leaves it STOPPED, the cause in the error log: a requester does not retry. True when
        the call was taken."""
        definition = requester.lookup("CHANNEL", name)
        if definition is None or definition.attributes.get("CHLTYPE") != "RQSTR":
            del requester.channel_states[name]  # deleted or replaced since it was started
            return False
        conname = str(definition.attributes.get("CONNAME", ""))
        partner = self._reached(requester, conname)
        failure = None
        remote = partner.lookup("CHANNEL", name) if partner is not None else None
        if partner is None:
            failure = (
                "AMQ9202E",
                f"Remote host '{conname}' not available, retry later.",
                "The host is not reachable from this site, or no queue manager listens there.",
            )
        elif remote is None or remote.attributes.get("CHLTYPE") not in ("SVR", "SDR"):
            failure = (
                "AMQ9520E",
                "Channel not defined remotely.",
                f"There is no server or sender channel '{name}' at the remote location ({partner.name}).",
            )
        else:
            verdict = inbound.check(
                partner, name, requester.name, self.topology.address_of(self._host(requester.name))
            )
            answering = partner.channel_states.get(name)
            if verdict.refusal is not None:
                entry = verdict.refusal.receiver
                partner.errors.write(entry.msgid, entry.text, entry.explanation, entry.action)
                self._blocked_event(partner, events.BLOCKED, name, requester.name, verdict.address, entry)
                told = verdict.refusal.sender(name, conname)
                failure = (told.msgid, told.text, told.explanation)
            elif answering is not None and (
                answering.status == STOPPED
                or answering.status == RUNNING
                and answering.partner != requester.name
            ):
                failure = (
                    "AMQ9558E",
                    "Remote Channel is not currently available.",
                    f"The channel '{name}' at the remote end is stopped or in use.",
                )
            elif answering is None or answering.status != RUNNING:
                called_back = remote.attributes.get("CHLTYPE") == "SDR"
                partner.channel_states[name] = ChannelState(
                    SENDER, STARTING, partner.clock.now(), requested_by="" if called_back else requester.name
                )
        if failure is None:
            del requester.channel_states[name]
            return True
        msgid, text, explanation = failure
        requester.errors.write(msgid, text, explanation)
        state.status, state.problem = STOPPED, text
        return False

    def _answer_requester(
        self, server: QueueManager, name: str, attributes: dict, state: ChannelState
    ) -> QueueManager | None:
        """A server started by its requester sends to that queue manager, while it can be reached
        and runs the requester; otherwise this instance of the server ends (the requester calls
        again when started)."""
        requester = None
        if self.hosts.reachable(state.requested_by) and self.topology.joined(
            self._host(server.name), self._host(state.requested_by)
        ):
            requester = self.hosts.try_connect(state.requested_by)
        remote = requester.lookup("CHANNEL", name) if requester is not None else None
        answering = requester.channel_states.get(name) if requester is not None else None
        if (
            remote is None
            or remote.attributes.get("CHLTYPE") != "RQSTR"
            or (answering is not None and answering.status == STOPPED)
        ):
            if state.status == RUNNING:
                events.put_event(
                    server, events.STOPPED, name, events.STOPPED_ERROR, **self._sent_on(attributes, state)
                )
            del server.channel_states[name]
            return None
        if state.status != RUNNING:
            self._starting(server, requester, name, attributes, state)
            self._answering(
                requester,
                name,
                server.name,
                self.topology.address_of(self._host(server.name)),
                str(remote.attributes.get("MCAUSER") or "") or process_user(),
            )
        state.status, state.partner, state.problem = RUNNING, requester.name, ""
        state.conname = self.topology.address_of(self._host(requester.name))  # where the call came from
        return requester

    def _move(
        self,
        sender: QueueManager,
        receiver: QueueManager,
        name: str,
        state: ChannelState,
        xmitq,
        batch_size: int,
        only: str | None,
    ) -> int:
        moved = transfer.resolve(sender, receiver, name)
        while True:
            count, seq = transfer.send_batch(sender, receiver, name, xmitq, batch_size, only)
            if not count:
                break
            moved += count
            state.msgs += count
            if seq:
                state.batches += 1
                state.last_seq = seq
            state.last_message = sender.clock.now()
        answering = receiver.channel_states.get(name)
        if answering is not None and moved:
            answering.msgs += moved
            answering.batches, answering.last_seq = state.batches, state.last_seq
            answering.last_message = state.last_message
        return moved

    def _ends_idle(self, qmgr: QueueManager, name: str, state: ChannelState, attributes: dict) -> bool:
        """A running sender with nothing to send for DISCINT seconds ends normally (inactive: no
        status; a triggered transmission queue, or a cluster's, starts it again when a message comes)."""
        try:
            interval = int(attributes.get("DISCINT", 6000))
        except (TypeError, ValueError):
            interval = 6000
        since = max(moment for moment in (state.last_message, state.connected_at, state.started) if moment)
        if interval <= 0 or (qmgr.clock.now() - since).total_seconds() < interval:
            return False
        del qmgr.channel_states[name]
        qmgr.errors.write("AMQ9001I", f"Channel '{name}' ended normally.")
        events.put_event(qmgr, events.STOPPED, name, events.STOPPED_OK, **self._sent_on(attributes, state))
        return True


def _transmission_queue(qmgr: QueueManager, name: str):
    queue = qmgr.lookup("QUEUE", name) if name else None
    if queue is None or queue.object_type != "QLOCAL":
        raise transfer.ChannelStopped(
            "AMQ9509E",
            f"Program cannot open queue manager object {name}.",
            "The channel's transmission queue does not exist.",
        )
    return queue
