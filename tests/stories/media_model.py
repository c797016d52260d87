"""The media family's model: what MQ's rules say one queue manager's local queues hold, written
apart from mqsh (it imports nothing of it).

The rules (IBM MQ documentation: "Message delivery sequence" (MSGDLVSQ), "Units of work",
"Restarting a queue manager", "Recovering damaged objects", "Media images", rcdmqimg, rcrmqobj,
endmqm):
- a get takes the first committed message in delivery order: MSGDLVSQ(PRIORITY), the default,
  is highest priority first and first in, first out within a priority;
- a put with no persistence takes the queue's DEFPSIST;
- a put under syncpoint counts in CURDEPTH at once but no get takes it until its unit commits, and
  a backout removes it; a get under syncpoint leaves CURDEPTH at once and a backout puts it back;
- a queue manager that stops (crash, endmqm -p, or endmqm -i with a unit open) backs the unit of
  work out at its next start; endmqm -c and -w back it out as they end; either way non-persistent
  messages are gone after the start, and the application is told its connection broke (2009);
- a restart replays the log from the last checkpoint: a queue created after it is re-created whole
  by its creation record, damaged file or not;
- a checkpoint writes every queue's persistent messages (pending ones included) to its queue file;
  one is taken as a queue manager starts and as it ends (-c, -w, -i), and after rcdmqimg;
- a queue whose file is damaged answers 2101 (MQRC_OBJECT_DAMAGED) and MQSC AMQ8149 until it is
  re-created; rcrmqobj re-creates it on a linear log from its latest media image and every later
  log record: its persistent messages as they were; the image is the queue's persistent messages
  when it was taken (its DEFINE, rcdmqimg, or an end of the queue manager for an empty queue); a
  queue with IMGRCOVQ(NO) has no image and cannot be re-created; a circular log keeps no media
  images, so rcdmqimg and rcrmqobj are refused there (AMQ7081E) and a damaged queue stays damaged.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Message:
    size: int
    persistent: bool
    priority: int
    state: str = "committed"  # committed | put-pending | get-pending


@dataclass
class Queue:
    name: str
    defpsist: bool
    recoverable: bool  # IMGRCOVQ(NO) makes a queue unrecoverable
    messages: list[Message] = field(default_factory=list)  # in put order
    damaged: bool = False
    lost: list[Message] = field(default_factory=list)  # the persistent messages it held when damaged
    on_file: set[int] = field(default_factory=set)  # sizes of the messages the last checkpoint wrote
    image: set[int] = field(default_factory=set)  # sizes of the messages its latest media image holds
    defined_since_checkpoint: bool = True  # its creation record is in the log a restart replays

    def in_order(self) -> list[Message]:
        """Delivery order: highest priority first, then put order (a stable sort keeps it)."""
        return sorted(self.messages, key=lambda m: -m.priority)

    def visible(self) -> list[tuple[int, bool]]:
        return [(m.size, m.persistent) for m in self.in_order() if m.state == "committed"]

    def depth(self) -> int:
        return sum(1 for m in self.messages if m.state != "get-pending")

    def pending(self) -> bool:
        return any(m.state != "committed" for m in self.messages)

    def end_unit(self, commit: bool) -> None:
        gone = "get-pending" if commit else "put-pending"
        self.messages = [m for m in self.messages if m.state != gone]
        for m in self.messages:
            m.state = "committed"

    def persistent(self) -> list[Message]:
        return [m for m in self.messages if m.persistent]


@dataclass
class QueueManager:
    linear: bool
    queues: dict[str, Queue]

    def unit_open(self) -> bool:
        return any(q.pending() for q in self.queues.values() if not q.damaged)

    def end_unit(self, commit: bool) -> bool:
        had = self.unit_open()
        for q in self.queues.values():
            if not q.damaged:
                q.end_unit(commit)
        return had

    def checkpoint(self) -> None:
        for q in self.queues.values():
            q.defined_since_checkpoint = False
            if not q.damaged:
                q.on_file = {m.size for m in q.persistent()}

    def image(self, q: Queue) -> None:
        q.image = {m.size for m in q.persistent()}

    def damage(self, q: Queue) -> None:
        q.damaged, q.lost, q.messages = True, q.persistent(), []

    def recreate(self, q: Queue) -> tuple[int, int]:
        """rcrmqobj: the queue back with its persistent messages; (from the image, replayed)."""
        q.damaged, q.messages = False, [Message(m.size, True, m.priority, m.state) for m in q.lost]
        found = sum(1 for m in q.messages if m.size in q.image)
        q.on_file = {m.size for m in q.messages}  # its file is written as it is re-created
        return found, len(q.messages) - found

    def stop(self, mode: str) -> dict[str, int]:
        """The queue manager ends (mode: crash, -c, -w, -i, -p); the units of work a start must back
        out, by queue. -c and -w back the unit out, take images of the empty queues and checkpoint;
        -i checkpoints with the unit in flight."""
        # Only a unit's persistent work is logged: a unit that did nothing else is unknown to the start.
        in_flight = {
            q.name: 1
            for q in self.queues.values()
            if not q.damaged and any(m.persistent and m.state != "committed" for m in q.messages)
        }
        if mode in ("-c", "-w"):
            self.end_unit(commit=False)
            in_flight = {}
        if mode in ("-c", "-w", "-i"):
            for q in self.queues.values():
                if self.linear and q.recoverable and not q.damaged and not q.messages:
                    self.image(q)
            self.checkpoint()
        return in_flight

    def start(self, in_flight: dict[str, int], unclean: bool) -> dict[str, tuple[int, int, int, int]]:
        """The start after a stop: the units backed out, non-persistent messages gone. The account
        of each queue it tells (when it recovered: unclean, or units backed out): queue ->
        (depth, found on the queue file, replayed from the log, units backed out)."""
        self.end_unit(commit=False)
        accounts = {}
        for q in self.queues.values():
            if q.damaged and unclean and q.defined_since_checkpoint:
                # The replay from the restart point holds the queue's creation record, which makes
                # the queue whole again, and the records of its persistent messages after it.
                q.damaged, q.messages, q.on_file = (
                    False,
                    [Message(m.size, True, m.priority) for m in q.lost],
                    set(),
                )
            if q.damaged:
                continue
            q.messages = [m for m in q.messages if m.persistent]
            if (unclean or in_flight) and (q.messages or in_flight.get(q.name)):
                found = sum(1 for m in q.messages if m.size in q.on_file)
                accounts[q.name] = (len(q.messages), found, len(q.messages) - found, in_flight.get(q.name, 0))
        self.checkpoint()
        return accounts
