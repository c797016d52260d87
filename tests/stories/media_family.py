"""Stories of one queue manager: puts and gets in and out of units of work, commits and backouts,
crashes and restarts - and what the queue must hold after each step.

The model knows MQ's rules, written here without mqsh's code:
- a queue keeps its messages in the order they were put; a get takes the first committed one
  (every story message has priority 0, so first in, first out);
- a put under syncpoint is on the queue at once (CURDEPTH counts it) but no get can take it until
  its unit commits; a backout removes it;
- a get under syncpoint takes the message from CURDEPTH at once; a backout puts it back where it was;
- a restart (after a crash or an end) discards every non-persistent message and backs out the unit
  of work that was in flight.

Each message the story puts has a size no other has, so a browse tells which messages are there.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from tests.stories.oracle import Expect, depth_is, holds, says

QMGR = "STORY"
QUEUE = "Q1"
PUT, GET, COMMIT, BACKOUT, CRASH, END = "put", "get", "commit", "backout", "crash", "end"


@dataclass
class Message:
    size: int
    persistent: bool
    state: str = "committed"  # committed | put-pending | get-pending


@dataclass
class Queue:
    """The model: the queue's messages in put order."""
    messages: list[Message] = field(default_factory=list)

    def visible(self) -> list[tuple[int, bool]]:
        return [(m.size, m.persistent) for m in self.messages if m.state == "committed"]

    def depth(self) -> int:
        return sum(1 for m in self.messages if m.state != "get-pending")

    def end_unit(self, commit: bool) -> bool:
        """Commit or back out the unit; whether there was one."""
        pending = [m for m in self.messages if m.state != "committed"]
        gone = "get-pending" if commit else "put-pending"
        self.messages = [m for m in self.messages if m.state != gone]
        for m in self.messages:
            m.state = "committed"
        return bool(pending)

    def restart(self) -> bool:
        """The queue after the queue manager starts again; whether a unit of work was lost (the
        application's next call is then told its connection broke, 2009)."""
        lost = self.end_unit(commit=False)
        self.messages = [m for m in self.messages if m.persistent]
        return lost


class MediaFamily:
    name = "media"

    def __init__(self, log: str = "-ll", steps: int = 14):
        self.log = log
        self.steps = steps

    def story(self, rng: random.Random) -> list[Hashable]:
        actions: list[Hashable] = []
        for _ in range(rng.randint(3, self.steps)):
            kind = rng.choices([PUT, GET, COMMIT, BACKOUT, CRASH, END], [6, 4, 2, 1, 1, 1])[0]
            if kind == PUT:
                actions.append((PUT, rng.random() < 0.7, rng.random() < 0.4, rng.randint(1, 3)))
            elif kind == GET:
                actions.append((GET, rng.random() < 0.4, rng.randint(1, 2)))
            else:
                actions.append((kind,))
        return actions

    def script(self, actions: Sequence[Hashable]) -> list[Expect]:
        queue = Queue()
        sizes = iter(range(101, 1_000_000))
        expects = [Expect(f"crtmqm {self.log} {QMGR}", says("IBM MQ queue manager created.")),
                   Expect(f"strmqm {QMGR}", says(f"IBM MQ queue manager '{QMGR}' started.")),
                   Expect(f"LAB USE QMGR({QMGR})"),
                   Expect(f"DEFINE QLOCAL({QUEUE}) MAXDEPTH(100000)", says("AMQ8006I"))]
        for action in actions:
            expects += self._step(queue, action, sizes)
            expects.append(Expect(f"LAB BROWSE QUEUE({QUEUE})", holds(queue.visible())))
            expects.append(Expect(f"DISPLAY QLOCAL({QUEUE}) CURDEPTH", depth_is(queue.depth())))
        return expects

    def _step(self, queue: Queue, action: Hashable, sizes) -> list[Expect]:
        kind = action[0]
        if kind == PUT:
            _, persistent, syncpoint, count = action
            lines = []
            for _ in range(count):
                size = next(sizes)
                queue.messages.append(Message(size, persistent, "put-pending" if syncpoint else "committed"))
                lines.append(Expect(f"LAB PUT QUEUE({QUEUE}) SIZE({size}) "
                                    f"{'PERSISTENT' if persistent else 'NONPERSISTENT'}"
                                    f"{' SYNCPOINT' if syncpoint else ''}", says("1 ")))
            return lines
        if kind == GET:
            _, syncpoint, count = action
            available = [m for m in queue.messages if m.state == "committed"]
            taken = available[:count]
            for m in taken:
                if syncpoint:
                    m.state = "get-pending"
                else:
                    queue.messages.remove(m)
            if len(taken) == count:
                answer = says(f"{count} message(s) got")
            else:
                answer = says("2033")
            return [Expect(f"LAB GET QUEUE({QUEUE}) COUNT({count}){' SYNCPOINT' if syncpoint else ''}", answer)]
        if kind == COMMIT:
            had = queue.end_unit(commit=True)
            return [Expect("LAB COMMIT", says("Unit of work committed." if had else "No unit of work to commit."))]
        if kind == BACKOUT:
            had = queue.end_unit(commit=False)
            return [Expect("LAB BACKOUT", says("Unit of work backed out." if had else "No unit of work to back out."))]
        stop = (Expect(f"LAB CRASH QMGR({QMGR})", says("crashed")) if kind == CRASH
                else Expect(f"endmqm -i {QMGR}", says("ended")))
        lines = [stop, Expect(f"strmqm {QMGR}", says("started."))]
        if queue.restart():
            lines.append(Expect(f"LAB BROWSE QUEUE({QUEUE})", says("2009")))
        return lines
