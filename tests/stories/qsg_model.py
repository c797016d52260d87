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
- A member ended with its application's unit of work in flight: a quiescing or waiting end (endmqm
  -c, -w) disconnects the application first, and a unit not committed when its connection ends is
  backed out (MQDISC, "Implicit syncpoint"); a member that fails (endmqm -p, or a crash) has its
  units in flight backed out by its peers at once (IBM, "Shared queue recovery": peer recovery); an
  immediate end (endmqm -i) does not wait for the application and does not fail the connection to
  the structure, so no peer recovery runs: the unit stays in flight - its puts count in CURDEPTH
  and no get takes them, its gets' messages stay locked - until the member's restart backs it out
  ("Restarting a queue manager": units in flight are backed out). The unit is backed out, never in
  doubt: a unit the queue manager alone coordinates has no in-doubt phase. Either way the
  application's next call after the member's restart is told the connection broke (MQRC 2009).
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
- A large message takes space in the putting member's data set until it is got for good or its put
  backed out (every story message takes one block: its data fits DSBLOCK). A data set holds its
  primary allocation and, per expansion, one secondary extent, up to its maximum extents. When a
  message would make it 90 % full and DSEXPAND(YES) is in effect for it (its SMDS entry says YES,
  or DEFAULT and the structure says YES or DEFAULT - the structure's default, YES; the structure's
  value is read at each expansion, so ALTER CFSTRUCT rules the next one and retries none) its owner
  expands it (CSQE213I); with no secondary allocation an extent is about 20 % of the data set's
  size then, the secondary size from then on; at the maximum extents
  the attempt fails with a message (CSQE239I) and the owner sets its SMDS entry to DSEXPAND(NO).
  A put whose data does not fit gets MQRC_STORAGE_MEDIUM_FULL (2192) and puts nothing; small
  messages, held whole in the structure, and other members' data sets are not affected. A member
  reads and writes data sets through a pool of buffers for the structure, as many as its SMDS
  entry's DSBUFS, or the structure's when that is DEFAULT (IBM MQ docs: ALTER SMDS). ALTER
  SMDS setting DSEXPAND to YES or DEFAULT (the structure's YES) retries at once an expansion that
  failed, or one a 90 % full data set needs, of an open data set ("Managing your shared message
  data set environment": data set expansion, data set becomes full). RECOVER CFSTRUCT of either
  type keeps a data set's allocation, its extents included: TYPE(PURGE) discards its contents, not
  its space; neither does a spoiled header, a spoiled block, or a preformatting.
- A data set's size changes only with its allocation: put back from a copy, it has the copy's
  extents - smaller, when the copy was taken before it grew. Every message still in the structure
  that was put before the copy lies within them; a message put after the copy makes the copy down
  level, and its data may lie beyond them ("Managing your shared message data set environment": a
  reference beyond the extents, like a down-level block, marks the data set FAILED). Deleted, a data
  set is allocated anew at its primary size. Where the owner places a message's data in its data set
  is its own business: the model knows only that it lies within the data set's size when it was put
  (its room). RECOVER CFSTRUCT writes each recovered message's data back where it was, growing the
  data set by secondary extents to hold it - so the model knows the recovered size only when every
  recovered message's room fits the allocation it recovers into; the stories restore and delete
  only then.
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
    room: int | None = None  # a large message: its owner's data set's blocks when it was put (None: many)


@dataclass
class Member:
    name: str
    running: bool = True
    unit_open: bool = False  # its application's unit of work holds a put or a get
    unit_lost: bool = False  # the structure failed under the unit: it can only be backed out (2003)
    broken: bool = False  # it ended with a unit in flight: the next call gets 2009


@dataclass
class DataSet:
    """A member's shared message data set as allocated (blocks), and its SMDS entry's DSEXPAND."""

    primary: int | None = None  # None: allocated larger than any story fills
    secondary: int = 0  # 0: none allocated - the first expansion sets one, 20 % of the size then
    max_extents: int = 1
    extents: int = 1
    allocated_secondary: int | None = None  # the secondary its allocation gives (a new one starts with it)
    override: str = "DEFAULT"  # its SMDS entry's DSEXPAND
    buffers: str = "DEFAULT"  # its SMDS entry's DSBUFS: the owner's buffer pool for the structure
    maximum: bool = False  # its owner's last expansion attempt failed at the maximum extents

    def __post_init__(self) -> None:
        if self.allocated_secondary is None:
            self.allocated_secondary = self.secondary

    def total(self, extents: int | None = None) -> int | None:
        """Its blocks, with its extents now or as many as given."""
        extents = self.extents if extents is None else extents
        return None if self.primary is None else self.primary + (extents - 1) * self.secondary

    def reallocated(self, extents: int) -> None:
        """Its allocation is now of so many extents (put back from a copy, or allocated anew): one with
        extents to grow into again is no longer at its maximum."""
        self.extents = extents
        if extents == 1 and self.allocated_secondary is not None:  # not grown: the secondary allocated
            self.secondary = self.allocated_secondary
        if extents < self.max_extents:
            self.maximum = False


@dataclass
class Group:
    """The group's shared queues, message by message, in put order."""

    members: dict[str, Member]
    queues: list[str]
    messages: list[Message] = field(default_factory=list)
    puts: int = 0  # how many messages the story has put
    activated: set[str] = field(
        default_factory=set
    )  # members whose data set is ACTIVE (not NOTFOUND or EMPTY)
    data_sets: dict[str, DataSet] = field(default_factory=dict)  # by owner
    dsexpand: str = "YES"  # the structure's DSEXPAND
    dsbufs: int = 100  # the structure's DSBUFS

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
    def put(
        self, member: str, queue: str, size: int, persistent: bool, syncpoint: bool, large: bool
    ) -> tuple[bool, list[str]]:
        """Put a message: whether it was put (or refused, its data set full), and the messages its
        owner's expansion attempt wrote (CSQE213I, CSQE239I)."""
        events: list[str] = []
        if large:
            data_set, used = self.data_set(member), self.used(member)
            total = data_set.total()
            if total is not None and (used + 1) * 10 >= 9 * total and self.expanding(member):
                events.append(self.expand(member))
            total = data_set.total()
            if total is not None and used + 1 > total:
                return False, events
        self.puts += 1
        self.messages.append(
            Message(
                size,
                persistent,
                queue,
                member,
                large,
                self.puts,
                PUT_PENDING if syncpoint else COMMITTED,
                member if syncpoint else None,
                self.data_set(member).total() if large else None,
            )
        )
        if large:  # its first offloaded message formats and activates the member's data set
            self.activated.add(member)
        if syncpoint:
            self.members[member].unit_open = True
        return True, events

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

    # ------------------------------------------------------------ data set space
    def data_set(self, owner: str) -> DataSet:
        return self.data_sets.setdefault(owner, DataSet())

    def used(self, owner: str) -> int:
        """Blocks in use in owner's data set: one for each large message it put still in the structure."""
        return sum(1 for m in self.messages if m.large and m.owner == owner)

    def used_once_ended(self, owner: str) -> int:
        """Blocks in use in owner's data set once the owner has ended normally: its application
        ends its unit first - committed, so the messages it got under it are gone, or backed out
        when the unit was lost, so the messages it put under it are (as end_unit does)."""
        gone = PUT_PENDING if self.members[owner].unit_lost else GET_PENDING
        return sum(
            1
            for m in self.messages
            if m.large and m.owner == owner and not (m.unit == owner and m.state == gone)
        )

    def expanding(self, owner: str) -> bool:
        """Whether DSEXPAND(YES) is in effect for owner's data set (the structure's DEFAULT is YES)."""
        override = self.data_set(owner).override
        return (self.dsexpand if override == "DEFAULT" else override) in ("YES", "DEFAULT")

    def buffers(self, member: str) -> int:
        """The buffers of the member's pool for the structure: its SMDS entry's DSBUFS, or the structure's."""
        buffers = self.data_set(member).buffers
        return self.dsbufs if buffers == "DEFAULT" else int(buffers)

    def expand(self, owner: str) -> str:
        """An expansion attempt: the message it writes."""
        data_set = self.data_set(owner)
        if data_set.extents >= data_set.max_extents:
            data_set.override, data_set.maximum = "NO", True
            return "CSQE239I"
        if data_set.secondary == 0 and data_set.primary is not None:
            data_set.secondary = max(1, (data_set.total() or 0) // 5)
        data_set.extents, data_set.maximum = data_set.extents + 1, False
        return "CSQE213I"

    def alter_dsexpand(self, owner: str, value: str) -> list[str]:
        """ALTER SMDS DSEXPAND of owner's open data set: the messages of the retry it triggers."""
        data_set = self.data_set(owner)
        data_set.override = value
        total = data_set.total()
        if (
            total is None
            or not self.expanding(owner)
            or not (data_set.maximum or self.used(owner) * 10 >= 9 * total)
        ):
            return []
        return [self.expand(owner)]

    # ------------------------------------------------------------ members and the structure
    def end(self, member: str, mode: str) -> None:
        """A member ends (mode: c, w, i, p, crash); its unit in flight is backed out now, or at its
        restart after an immediate end."""
        state = self.members[member]
        if state.unit_open:
            if mode != "i":
                self.end_unit(member, commit=False)
            state.broken = True
        state.running = False

    def start(self, member: str) -> None:
        """A member starts: a unit left in flight is backed out; its owner's connection to its data set
        is new (no expansion attempt has failed)."""
        state = self.members[member]
        if state.unit_open:
            self.end_unit(member, commit=False)
        state.running = True
        self.data_set(member).maximum = False

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

    def newest_large(self, owner: str) -> Message | None:
        """The newest message whose data is in owner's data set (pending or not)."""
        return max(
            (m for m in self.messages if m.large and m.owner == owner), key=lambda m: m.number, default=None
        )

    def fits(self, owner: str, total: int | None) -> bool:
        """Whether every message of owner's data set a recovery may write back (persistent, pending or
        not) certainly lies within total blocks: it was put when the data set had no more."""
        return total is None or all(
            m.room is None or m.room <= total
            for m in self.messages
            if m.large and m.owner == owner and m.persistent
        )

    def down_level(self, owner: str, copied_after: int) -> bool:
        """Whether a copy of owner's data set taken after copied_after puts lacks a message the
        structure still holds (put, committed or not, and not yet got for good)."""
        return any(m.large and m.owner == owner and m.number > copied_after for m in self.messages)
