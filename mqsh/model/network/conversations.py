"""A channel's conversation with its partner, at either end: where its CONNAME leads, the receiving
end's verdict and instance, and what a start, a retry or a stop writes (the error log, events).

A CONNAME leads to a host reachable from the sender's host (same site, or sites not cut apart), and
there to a queue manager running a TCP listener on that port. The receiving queue manager's channel
authentication records (mqsh.model.network.inbound) decide whether the channel may start from the
sending host's address; a refusal is written once at each end, not at every retry. A sender out of
retries (SHORTRTY, then LONGRTY: mqsh.model.network.retry) stops until START CHANNEL.

The channels at work over these conversations are mqsh.model.network.channels.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from mqsh.model.network import events, inbound, retry
from mqsh.model.network.state import RECEIVER, RETRYING, RUNNING, STOPPED, ChannelState
from mqsh.model.network.topology import Address, Topology, addresses, ipv4

if TYPE_CHECKING:
    from mqsh.model.qmgr import QueueManager


class Hosts(Protocol):
    """What the network needs of the installation: its queue managers, where they run, and
    the ones this process runs."""

    data_dir: Path
    held: dict[str, QueueManager]

    def names(self) -> list[str]: ...

    def host(self, name: str) -> str: ...

    def reachable(self, name: str) -> bool: ...

    def try_connect(self, name: str) -> QueueManager | None: ...


class Conversations:
    """The hosts of the queue managers, and the conversations of channels between them."""

    def __init__(self, hosts: Hosts):
        self.hosts = hosts
        self.topology = Topology(hosts.data_dir / "network.json")
        self._hosts_now: dict[str, str] = {}  # each queue manager's host, read once per turn
        # A cluster-sender channel's attributes, defined or auto-defined (mqsh.model.cluster).
        self.cluster_sender: Callable[[QueueManager, str], dict | None] | None = None

    def _host(self, name: str) -> str:
        if name not in self._hosts_now:
            self._hosts_now[name] = self.hosts.host(name)
        return self._hosts_now[name]

    def _reached(self, qmgr: QueueManager, conname: str) -> QueueManager | None:
        """The queue manager the first reachable address of a CONNAME leads to, from qmgr's host."""
        for address in addresses(conname):
            found = self._listening(self._host(qmgr.name), address)
            if found is not None:
                return found
        return None

    def _starting(
        self, sender: QueueManager, receiver: QueueManager, name: str, attributes: dict, state: ChannelState
    ) -> None:
        """A sender's new conversation: its DISCINT counts from now; the first of its start says
        so in the error log (the receiving end's new instance says so as it admits the sender)."""
        if not state.announced:
            sender.errors.write("AMQ9002I", f"Channel '{name}' is starting.")
            state.announced = True
        state.connected_at, state.partner = sender.clock.now(), receiver.name
        events.put_event(sender, events.STARTED, name, **self._sent_on(attributes, state))

    @staticmethod
    def _answering(
        receiver: QueueManager,
        name: str,
        partner: str,
        address: str,
        user: str,
        others: set[str] | None = None,
    ) -> None:
        """The receiving end's instance, now answering partner too. Its CONNAME is where the
        partner comes from: its host's address, as MQ shows it."""
        events.put_event(receiver, events.STARTED, name, **{"Connection Name": address})
        receiver.channel_states[name] = ChannelState(
            RECEIVER,
            RUNNING,
            receiver.clock.now(),
            partner,
            address,
            user=user,
            admitted=(others or set()) | {partner},
        )

    def _admit(
        self, qmgr: QueueManager, receiver: QueueManager, name: str, state: ChannelState, attributes: dict
    ) -> inbound.Verdict | None:
        """The receiving queue manager's verdict on the channel starting; None, and the channel
        retrying, when it refuses it (both ends say why once, not at every retry)."""
        verdict = inbound.check(receiver, name, qmgr.name, self.topology.address_of(self._host(qmgr.name)))
        if verdict.refusal is None:
            return verdict
        told = verdict.refusal.sender(name, str(attributes.get("CONNAME", "")))
        entry = verdict.refusal.receiver
        if state.problem != told.text:
            receiver.errors.write(entry.msgid, entry.text, entry.explanation, entry.action)
        self._blocked_event(receiver, events.BLOCKED, name, qmgr.name, verdict.address, entry)
        self._retry(qmgr, name, state, attributes, told.msgid, told.text, told.explanation)
        return None

    def _listening(self, from_host: str, address: Address) -> QueueManager | None:
        """The queue manager on the address's host with a TCP listener running on its port. A
        CONNAME may name the host by its IP address."""
        host = address.host
        if ipv4(host) is not None:
            host = self.topology.host_at(host, [self._host(name) for name in self.hosts.names()]) or host
        if not self.topology.joined(from_host, host):
            return None
        for name in self.hosts.names():
            if self._host(name).lower() != host or not self.hosts.reachable(name):
                continue
            candidate = self.hosts.try_connect(name)
            if candidate is not None and _listens(candidate, address.port):
                return candidate
        return None

    @staticmethod
    def _blocked_event(
        receiver: QueueManager,
        reason: int,
        name: str,
        partner: str,
        address: str,
        entry: inbound.ChannelLogEntry,
    ) -> None:
        """Channel Blocked (or its warning): the channel's name unless its address was blocked."""
        events.put_event(
            receiver,
            reason,
            "" if entry.blocked == events.BLOCKED_ADDRESS else name,
            entry.blocked,
            **{"Connection Name": address, "Remote Queue Manager Name": partner},
        )

    def _sent_on(self, attributes: dict, state: ChannelState) -> dict[str, str]:
        """A sender's event parameters: its transmission queue, and the address of its partner's
        host once it has reached one (else its CONNAME), as MQ's events give them."""
        reached = self.topology.address_of(self._host(state.partner)) if state.partner else ""
        return {
            "Xmit Queue Name": str(attributes.get("XMITQ", "")),
            "Connection Name": reached or str(attributes.get("CONNAME", "")),
        }

    def _retry(
        self,
        qmgr: QueueManager,
        name: str,
        state: ChannelState,
        attributes: dict,
        msgid: str,
        text: str,
        explanation: str,
    ) -> None:
        if state.problem != text:  # written once, not at every retry
            qmgr.errors.write(msgid, text, explanation)
        was_running = state.status == RUNNING
        if retry.failed(state, retry.RetryPolicy.of(attributes), qmgr.clock.now()):
            state.status, state.problem = RETRYING, text
            if was_running:
                events.put_event(
                    qmgr, events.STOPPED, name, events.STOPPED_RETRY, **self._sent_on(attributes, state)
                )
            return
        # Out of retries. IBM documents no explanation for this case: mqsh words it in MQ's style
        # (docs/messages.md lists it).
        state.status, state.problem = STOPPED, text
        qmgr.errors.write(
            "AMQ9999E",
            f"Channel '{name}' to host '{attributes.get('CONNAME', '')}' ended abnormally.",
            "The channel made all its short and long retries (SHORTRTY, LONGRTY) without reaching "
            "its partner. It stays stopped until START CHANNEL.",
        )

    def _stop(
        self,
        qmgr: QueueManager,
        name: str,
        state: ChannelState,
        attributes: dict,
        msgid: str,
        text: str,
        explanation: str,
    ) -> None:
        if state.status == RUNNING:
            events.put_event(
                qmgr, events.STOPPED, name, events.STOPPED_DISABLED, **self._sent_on(attributes, state)
            )
        state.status, state.problem = STOPPED, text
        qmgr.errors.write(msgid, text, explanation)
        qmgr.errors.write(
            "AMQ9999E",
            f"Channel '{name}' to host '{state.conname}' ended abnormally.",
            "The channel stopped. Correct the problem and start it again.",
        )


def _listens(qmgr: QueueManager, port: int) -> bool:
    for listener in qmgr.objects("LISTENER"):
        attributes = listener.attributes
        if (
            listener.key in qmgr.running_objects
            and attributes.get("TRPTYPE", "TCP") == "TCP"
            and int(attributes.get("PORT", 0) or 0) == port
        ):
            return True
    return False
