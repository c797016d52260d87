"""The queue-sharing group story family's model: what a group's shared queues must hold, written from
MQ's rules and not from mqsh's code (it imports nothing of mqsh).

The rules, and where IBM states them:
- A shared queue's messages live in the coupling facility structure, and the data of a large one in
  the shared message data set (SMDS) of the member that put it ("Where are shared queue messages
  held?", "Managing your shared message data set environment"). They belong to the group, not to a
  member: a member's end and restart loses none of them, non-persistent ones included; every member
  sees the same queue.
- A get takes the first committed message (all story messages have priority 0: first in, first
  out). A put under syncpoint counts in CURDEPTH at once but no get takes it before its commit; a
  get under syncpoint takes the message from CURDEPTH at once; a backout undoes both (MQBACK).
- A member that fails (endmqm -p) has its units of work in flight backed out by its peers at once
  (IBM, "Shared queue recovery": peer recovery); its application's next call after the member's
  restart is told the connection broke (MQRC 2009).
- A structure failure loses everything in it: until it is recovered every call gets 2373
  (MQRC_CF_STRUC_FAILED). RECOVER CFSTRUCT TYPE(NORMAL) rebuilds it from the latest BACKUP
  CFSTRUCT and every member's log since: the persistent committed messages come back, the
  non-persistent ones are gone, and a unit of work in flight at the failure is backed out - its
  application's MQCMIT gets MQRC_BACKED_OUT (2003) ("Managing shared queues": only persistent
  messages are backed up and logged; "Shared message data set recovery and syncpoints").
- RECOVER CFSTRUCT TYPE(PURGE) empties the structure and marks its data sets EMPTY: every message
  is lost, persistent or not. It is a point later recoveries start from: a later TYPE(NORMAL)
  recovery never brings back a message from before it, whatever backup is newest.
- A backup leaves out the last EXCLINT seconds (30 unless given) of activity; a recovery reads those
  from the logs, so what it rebuilds does not depend on when the backup was taken.
- A data set marked FAILED (RESET SMDS STATUS(FAILED), or damaged) is recovered by RECOVER
  CFSTRUCT, which marks the structure failed to rebuild it whole: as after a structure failure, the
  persistent committed messages come back and the rest are gone.
- A data set declared RECOVERED (RESET SMDS STATUS(RECOVERED)) is checked by its owner, which
  rebuilds its space map by scanning the structure and reads the most recent message whose data is in
  it: a down-level copy - one that lacks a message still in the structure - is found and marked
  FAILED again; one that lacks none (every message put since the copy was taken has been got) is
  tolerated, and nothing is lost ("Managing your shared message data set environment": data set
  contents are incorrect; recovery scenarios: data set recovery where no data was lost).
"""

from __future__ import annotations

from dataclasses import dataclass, field

COMMITTED, PUT_PENDING, GET_PENDING = "committed", "put-pending", "get-pending"


@dataclass
class Message:
    size: int
    persistent: bool
    queue: str
    owner: str  # the member that put it (a large message's data is in its data set)
    large: bool = False  # its data is offloaded to its owner's data set
    number: int = 0  # the how-manieth put of the story: later ones are newer
    state: str = COMMITTED
    unit: str | None = None  # the member whose unit of work holds it, while pending


@dataclass
class Member:
    name: str
    running: bool = True
    unit_open: bool = False  # its application's unit of work holds a put or a get
    unit_lost: bool = False  # the structure failed under the unit: it can only be backed out (2003)
    broken: bool = False  # it ended with a unit in flight: the next call gets 2009


@dataclass
class Group:
    """The group's shared queues, message by message, in put order."""
    members: dict[str, Member]
    queues: list[str]
    messages: list[Message] = field(default_factory=list)
    puts: int = 0  # how many messages the story has put
    activated: set[str] = field(default_factory=set)  # members whose data set is ACTIVE (not NOTFOUND or EMPTY)

    def running(self) -> list[str]:
        return [name for name, member in self.members.items() if member.running]

    def stopped(self) -> list[str]:
        return [name for name, member in self.members.items() if not member.running]

    # ------------------------------------------------------------ what a browse and a display show
    def visible(self, queue: str) -> list[tuple[int, bool]]:
        return [(m.size, m.persistent) for m in self.messages if m.queue == queue and m.state == COMMITTED]

    def depth(self, queue: str) -> int:
        return sum(1 for m in self.messages if m.queue == queue and m.state != GET_PENDING)

    # ------------------------------------------------------------ the application's calls
    def put(self, member: str, queue: str, size: int, persistent: bool, syncpoint: bool, large: bool) -> None:
        self.puts += 1
        self.messages.append(Message(size, persistent, queue, member, large, self.puts,
                                     PUT_PENDING if syncpoint else COMMITTED, member if syncpoint else None))
        if large:  # its first offloaded message formats and activates the member's data set
            self.activated.add(member)
        if syncpoint:
            self.members[member].unit_open = True

    def first(self, queue: str, count: int) -> list[Message]:
        """The messages the next gets take, in order."""
        return [m for m in self.messages if m.queue == queue and m.state == COMMITTED][:count]

    def get(self, member: str, queue: str, count: int, syncpoint: bool) -> int:
        """Take up to count messages; how many were taken."""
        taken = self.first(queue, count)
        for m in taken:
            if syncpoint:
                m.state, m.unit = GET_PENDING, member
                self.members[member].unit_open = True
            else:
                self.messages.remove(m)
        return len(taken)

    def end_unit(self, member: str, commit: bool) -> None:
        """Commit or back out the member's unit (a lost unit is backed out whatever is asked)."""
        commit = commit and not self.members[member].unit_lost
        gone = GET_PENDING if commit else PUT_PENDING
        self.messages = [m for m in self.messages if not (m.unit == member and m.state == gone)]
        for m in self.messages:
            if m.unit == member:
                m.state, m.unit = COMMITTED, None
        self.members[member].unit_open = self.members[member].unit_lost = False

    # ------------------------------------------------------------ members and the structure
    def end(self, member: str, failed: bool) -> None:
        """A member ends; one that fails with a unit in flight has it backed out by its peers."""
        state = self.members[member]
        if state.unit_open:
            assert failed, "a controlled end is only asked of a member with no unit in flight"
            self.end_unit(member, commit=False)
            state.broken = True
        state.running = False

    def fail_structure(self, purge: bool) -> None:
        """The structure fails and is recovered: the units in flight are backed out (and stay lost
        to their applications), then TYPE(NORMAL) keeps the persistent messages, TYPE(PURGE) none."""
        in_flight = [name for name, member in self.members.items() if member.unit_open]
        for name in in_flight:
            self.end_unit(name, commit=False)
            self.members[name].unit_open = self.members[name].unit_lost = True
        self.messages = [] if purge else [m for m in self.messages if m.persistent]
        if purge:  # every data set EMPTY, formatted afresh at its owner's next offload
            self.activated.clear()

    def down_level(self, owner: str, copied_after: int) -> bool:
        """Whether a copy of owner's data set taken after copied_after puts lacks a message the
        structure still holds (put, committed or not, and not yet got for good)."""
        return any(m.large and m.owner == owner and m.number > copied_after for m in self.messages)
