"""Objects and messages as the queue manager holds them in memory."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mqsh.store.records import DOCUMENT_PUT_TIME, MSGID, PRIORITY, PUT_APPL, SIZE, STATE, UNIT, USER

COMMITTED = "C"
PUT_PENDING = "P"  # put in a unit of work not yet committed
GET_PENDING = "G"  # got in a unit of work not yet committed
MAX_PRIORITY = 9  # MQ's message priorities run from 0 to 9

# QSGDISP: where a definition is kept on a queue-sharing group's member: its own catalog (QMGR, the
# default), its catalog as a copy of the group's definition (COPY), the group's repository (GROUP),
# or, for a queue, the coupling facility (SHARED). IBM MQ docs: DEFINE queues, QSGDISP.
DISPOSITION = "QSGDISP"
COPY, QMGR, GROUP, SHARED = "COPY", "QMGR", "GROUP", "SHARED"


@dataclass
class StoredMessage:
    msgid: str
    persistent: bool
    priority: int
    size: int
    put_time: str
    state: str = COMMITTED
    uow: str | None = None
    # Who put it (its MQMD's UserIdentifier and PutApplName), None where not recorded: the message's
    # context, not its state - the replay engines agree on the messages and their states, and the
    # Spark replay does not carry who put a message it replays from the log.
    user: str | None = field(default=None, compare=False)
    appl: str | None = field(default=None, compare=False)

    def to_document(self) -> dict[str, Any]:
        document = {
            MSGID: self.msgid,
            PRIORITY: self.priority,
            SIZE: self.size,
            DOCUMENT_PUT_TIME: self.put_time,
            STATE: self.state,
            UNIT: self.uow,
        }
        if self.user is not None:
            document[USER], document[PUT_APPL] = self.user, self.appl
        return document

    @classmethod
    def from_document(cls, data: dict[str, Any]) -> StoredMessage:
        return cls(
            data[MSGID],
            True,
            data[PRIORITY],
            data[SIZE],
            data[DOCUMENT_PUT_TIME],
            data[STATE],
            data[UNIT],
            data.get(USER),
            data.get(PUT_APPL),
        )


def namespace_of(object_type: str, family: str | None) -> str:
    """Queues of all four types share one name space; other types have their own."""
    return family or object_type


@dataclass
class MQObject:
    object_type: str  # QLOCAL, CHANNEL, QMGR, AUTHREC ...
    name: str
    attributes: dict[str, Any]
    namespace: str
    lsn: int = -1  # the newest log record reflected in this object (ARIES' page LSN)
    messages: list[StoredMessage] = field(default_factory=list)
    damaged: bool = False
    # No message on the queue has a higher priority than this (it need not be the highest
    # there): a get by priority stops at the first committed message of this priority, so
    # on a deep queue it does not read every message. Puts raise it; a get that finds no
    # message of it lowers it to what is there.
    priority_ceiling: int = field(default=MAX_PRIORITY, compare=False, repr=False)

    @property
    def key(self) -> str:
        return object_key(self.namespace, self.name)

    def to_document(self) -> dict[str, Any]:
        """The object file: attributes plus, for queues, the persistent messages."""
        return {
            "type": self.object_type,
            "name": self.name,
            "namespace": self.namespace,
            "lsn": self.lsn,
            "attributes": self.attributes,
            "messages": [message.to_document() for message in self.messages if message.persistent],
        }

    def next_message(self, by_priority: bool) -> StoredMessage | None:
        """The message a get takes: the first committed one, of the highest priority present by_priority."""
        if not by_priority:
            return next((message for message in self.messages if message.state == COMMITTED), None)
        best = None
        for message in self.messages:
            if message.state == COMMITTED:
                if message.priority >= self.priority_ceiling:
                    return message
                if best is None or message.priority > best.priority:
                    best = message
        # Pending messages count too: they may yet be committed.
        self.priority_ceiling = max((message.priority for message in self.messages), default=0)
        return best

    @classmethod
    def from_document(cls, data: dict[str, Any]) -> MQObject:
        return cls(
            data["type"],
            data["name"],
            data["attributes"],
            data["namespace"],
            data["lsn"],
            [StoredMessage.from_document(item) for item in data.get("messages", [])],
        )


def object_key(namespace: str, name: str) -> str:
    return f"{namespace}/{name}"
