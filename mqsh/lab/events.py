"""LAB EVENTS: the event messages on an event queue, as MQ's amqsevt sample prints them.

    LAB EVENTS [QUEUE(SYSTEM.ADMIN.CHANNEL.EVENT)] [BROWSE]

Like amqsevt, it gets the messages (they are gone afterwards) unless BROWSE is given. A message
that is not an event message (an application's put) is shown as such and taken like the others.
"""

from __future__ import annotations

from collections.abc import Iterator

from mqsh.commands.context import Context
from mqsh.core.objects import COMMITTED, MQObject, StoredMessage
from mqsh.core.reasons import MQRC_NO_MSG_AVAILABLE, MQError
from mqsh.language.validate import Command
from mqsh.model.events import formatted
from mqsh.model.network.events import EVENT_QUEUE
from mqsh.responses import Message, Result


def events(ctx: Context, command: Command) -> Result:
    qmgr = ctx.qmgr
    name = str(command.params.get("QUEUE") or EVENT_QUEUE)
    queue = qmgr.lookup("QUEUE", name)
    if queue is None or queue.object_type != "QLOCAL":
        return Result.failure(f"IBM MQ object {name} not found.", "AMQ8147E")
    browse = command.flag("BROWSE")
    lines: list[str] = []
    number = 0
    for message in _browsed(queue) if browse else _got(qmgr, name):
        if isinstance(message, MQError):
            return Result(
                [Message(line) for line in lines]
                + [Message(f"MQGET ended with reason code {message.reason}.")],
                ok=False,
            )
        number += 1
        content = qmgr.units.data.get(message.msgid) or {}
        if "event" in content:
            lines += formatted(number, name, message.size, content)
        else:
            lines += [
                f"**** Message #{number} ({message.size} Bytes) on Queue {name} ****",
                "  Not an event message.",
            ]
        if not browse:
            qmgr.units.data.delete([message.msgid])
        lines.append("")
    if not number:
        return Result.message(f"No messages on queue {name}.")
    return Result([Message(line) for line in lines[:-1]])


def _browsed(queue: MQObject) -> Iterator[StoredMessage]:
    return iter([message for message in queue.messages if message.state == COMMITTED and message.uow is None])


def _got(qmgr, name: str) -> Iterator[StoredMessage | MQError]:
    """Each message got in turn, until none is left (or the get fails: its error, last)."""
    while True:
        try:
            yield qmgr.get(name)
        except MQError as error:
            if error.reason != MQRC_NO_MSG_AVAILABLE:  # all taken
                yield error
            return
