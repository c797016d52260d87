"""Stories of one queue manager's local queues: puts (persistent, non-persistent or the queue's
DEFPSIST, with priorities) and gets in and out of units of work, commits and backouts, media
images (rcdmqimg), damaged queue files and their re-creation (rcrmqobj), ends in every mode
(endmqm -c, -w, -i, -p) and crashes - and what every queue must hold after each step, and what
each recovery says its messages came from. The rules are the model's (tests.stories.media_model).

Each message the story puts has a size no other has, so a browse tells which messages are there.
"""

from __future__ import annotations

import random
import re
from collections.abc import Hashable, Sequence

from tests.stories.explain_check import explained
from tests.stories.media_model import Message, Queue, QueueManager
from tests.stories.oracle import Check, Expect, all_of, depth_is, holds, says, says_none_of

QMGR = "STORY"
# name: (DEFINE's attributes, DEFPSIST, recoverable)
QUEUES = {
    "Q1": ("DEFPSIST(NO)", False, True),
    "Q2": ("DEFPSIST(YES)", True, True),
    "Q3": ("DEFPSIST(YES) IMGRCOVQ(NO)", True, False),
}
PUT, GET, COMMIT, BACKOUT, IMAGE, DAMAGE, RECREATE, STOP = (
    "put",
    "get",
    "commit",
    "backout",
    "image",
    "damage",
    "recreate",
    "stop",
)
STOPS = ("crash", "-c", "-w", "-i", "-p")
CIRCULAR = ("AMQ7081E",)


def account(queue: str, depth: int, found: int, where: str, replayed: int, units: int = 0) -> Check:
    """The recovery's account of a queue: its depth, found on file or image, replayed from the log."""
    tail = "" if not units else f"; {units} in-flight unit{'s' if units > 1 else ''} of work backed out"
    line = re.compile(
        re.escape(
            f"AMQ7234I: Queue {queue} on queue manager '{QMGR}': {depth} "
            f"message{'' if depth == 1 else 's'}: {found} from {where}, {replayed} replayed "
            f"from the log ("
        )
        + r"S\d{7}\.LOG(-S\d{7}\.LOG)?\)"
        + re.escape(f"{tail}.")
    )

    def check(answer: str) -> str | None:
        return None if line.search(answer) else f"expected the account {line.pattern!r}"

    return check


class MediaFamily:
    name = "media"

    def __init__(self, log: str = "-ll", steps: int = 14):
        self.log = log
        self.steps = steps

    def story(self, rng: random.Random) -> list[Hashable]:
        actions: list[Hashable] = []
        names = list(QUEUES)
        for _ in range(rng.randint(3, self.steps)):
            kind = rng.choices(
                [PUT, GET, COMMIT, BACKOUT, IMAGE, DAMAGE, RECREATE, STOP], [7, 4, 2, 1, 1, 1, 1, 2]
            )[0]
            queue = rng.choice(names)
            if kind == PUT:
                actions.append(
                    (
                        PUT,
                        queue,
                        rng.choice([True, False, None]),
                        rng.choice([0, 0, 4, 9]),
                        rng.random() < 0.4,
                        rng.randint(1, 3),
                    )
                )
            elif kind == GET:
                actions.append((GET, queue, rng.random() < 0.4, rng.randint(1, 2)))
            elif kind == IMAGE:
                actions.append((IMAGE, rng.choice([queue, "*"])))
            elif kind == DAMAGE:
                actions.append((DAMAGE, queue, rng.choice(["DELETE", "TRUNCATE", "CORRUPT"])))
            elif kind == RECREATE:
                actions.append((RECREATE, queue))
            elif kind == STOP:
                actions.append((STOP, rng.choice(STOPS)))
            else:
                actions.append((kind,))
        return actions

    def script(self, actions: Sequence[Hashable]) -> list[Expect]:
        qmgr = QueueManager(
            self.log == "-ll",
            {name: Queue(name, defpsist, recoverable) for name, (_, defpsist, recoverable) in QUEUES.items()},
        )
        sizes = iter(range(101, 1_000_000))
        expects = [
            Expect(f"crtmqm {self.log} {QMGR}", says("IBM MQ queue manager created.")),
            Expect(f"strmqm {QMGR}", says(f"IBM MQ queue manager '{QMGR}' started.")),
            Expect(f"LAB USE QMGR({QMGR})"),
        ]
        expects += [
            Expect(f"DEFINE QLOCAL({name}) {attributes} MAXDEPTH(100000)", says("AMQ8006I"))
            for name, (attributes, _, _) in QUEUES.items()
        ]
        for action in actions:
            expects += self._step(qmgr, action, sizes)
            for q in qmgr.queues.values():
                if q.damaged:
                    expects.append(Expect(f"LAB BROWSE QUEUE({q.name})", says("2101")))
                    expects.append(Expect(f"DISPLAY QLOCAL({q.name}) CURDEPTH", says("AMQ8149")))
                else:
                    expects.append(Expect(f"LAB BROWSE QUEUE({q.name})", holds(q.visible())))
                    expects.append(Expect(f"DISPLAY QLOCAL({q.name}) CURDEPTH", depth_is(q.depth())))
        return expects

    def _step(self, qmgr: QueueManager, action: Hashable, sizes) -> list[Expect]:
        kind = action[0]
        q = qmgr.queues.get(action[1]) if len(action) > 1 else None
        if kind == PUT:
            return self._put(q, action, sizes)
        if kind == GET:
            return self._get(q, action)
        if kind in (COMMIT, BACKOUT):
            had = qmgr.end_unit(commit=kind == COMMIT)
            word = "committed" if kind == COMMIT else "backed out"
            verb = "commit" if kind == COMMIT else "back out"
            return [
                Expect(
                    f"LAB {kind.upper()}",
                    says(f"Unit of work {word}." if had else f"No unit of work to {verb}."),
                )
            ]
        if kind == IMAGE:
            return self._image(qmgr, action[1])
        if kind == DAMAGE:
            # A file damaged between units of work (one holding work on it is the start's business).
            if q.damaged or qmgr.unit_open():
                return []
            qmgr.damage(q)
            return [
                Expect(f"LAB DAMAGE QUEUE({q.name}) HOW({action[2]})", says(f"QUEUE({q.name})")),
                Expect(f"LAB PUT QUEUE({q.name}) SIZE({next(sizes)})", says("2101")),
                Expect(f"DISPLAY QLOCAL({q.name}) CURDEPTH", says("AMQ8149")),
            ]
        if kind == RECREATE:
            recoverable = qmgr.linear and q.damaged and q.recoverable
            lines = [Expect(f"rcrmqobj -m {QMGR} -t ql {q.name}", self._recreate(qmgr, q))]
            return lines + [self._explained(qmgr, every_queue=False)] if recoverable else lines
        return self._stop(qmgr, action[1])

    def _put(self, q: Queue, action, sizes) -> list[Expect]:
        _, _, persistence, priority, syncpoint, count = action
        lines = []
        for _ in range(count):
            size = next(sizes)
            word = {True: " PERSISTENT", False: " NONPERSISTENT", None: ""}[persistence]
            command = (
                f"LAB PUT QUEUE({q.name}) SIZE({size}) PRIORITY({priority}){word}"
                f"{' SYNCPOINT' if syncpoint else ''}"
            )
            if q.damaged:
                lines.append(Expect(command, says("2101")))
                continue
            persistent = q.defpsist if persistence is None else persistence
            q.messages.append(
                Message(size, persistent, priority, "put-pending" if syncpoint else "committed")
            )
            lines.append(
                Expect(command, says(f"1 {'persistent' if persistent else 'non-persistent'} message"))
            )
        return lines

    def _get(self, q: Queue, action) -> list[Expect]:
        _, _, syncpoint, count = action
        command = f"LAB GET QUEUE({q.name}) COUNT({count}){' SYNCPOINT' if syncpoint else ''}"
        if q.damaged:
            return [Expect(command, says("2101"))]
        taken = [m for m in q.in_order() if m.state == "committed"][:count]
        for m in taken:
            if syncpoint:
                m.state = "get-pending"
            else:
                q.messages.remove(m)
        return [Expect(command, says(f"{count} message(s) got") if len(taken) == count else says("2033"))]

    def _image(self, qmgr: QueueManager, target: str) -> list[Expect]:
        command = f"rcdmqimg -m {QMGR} -t {'all' if target == '*' else 'ql'} {target}"
        if not qmgr.linear:
            return [Expect(command, says(*CIRCULAR))]
        checks = []
        for q in qmgr.queues.values():
            if target not in ("*", q.name):
                continue
            if q.damaged:
                checks.append(says(f"AMQ7472W: Object {q.name}, type qlocal damaged"))
            elif not q.recoverable:
                checks.append(
                    says(f"Object {q.name}, type qlocal is not recoverable")
                    if target != "*"
                    else says_none_of(f"Media image for object {q.name},")
                )
            else:
                qmgr.image(q)
                checks.append(says(f"Media image for object {q.name}, type qlocal recorded."))
        qmgr.checkpoint()  # rcdmqimg ends with a checkpoint
        return [Expect(command, all_of(*checks))]

    def _recreate(self, qmgr: QueueManager, q: Queue) -> Check:
        if not qmgr.linear:
            return says(*CIRCULAR)
        if not q.damaged:
            return says(f"No damaged object matches {q.name}, type qlocal")
        if not q.recoverable:
            return says(f"Object {q.name}, type qlocal is not recoverable")
        found, replayed = qmgr.recreate(q)
        return all_of(
            says(f"Object {q.name}, type qlocal recreated."),
            account(q.name, found + replayed, found, "the media image", replayed),
        )

    @staticmethod
    def _explained(qmgr: QueueManager, every_queue: bool) -> Expect:
        """LAB EXPLAIN after a recovery: its ledgers add up to the depths the model holds."""
        return Expect(
            "LAB EXPLAIN",
            explained(
                {q.name: q.depth() for q in qmgr.queues.values() if not q.damaged},
                {q.name for q in qmgr.queues.values() if q.damaged},
                every_queue,
            ),
        )

    def _stop(self, qmgr: QueueManager, mode: str) -> list[Expect]:
        lost_unit = qmgr.unit_open()
        in_flight = qmgr.stop(mode)
        if mode == "crash":
            stop = Expect(f"LAB CRASH QMGR({QMGR})", says("crashed"))
        else:
            stop = Expect(
                f"endmqm {mode} {QMGR}", says("ended" if mode != "-c" else "Quiesce request accepted")
            )
        accounts = qmgr.start(in_flight, unclean=mode in ("crash", "-p"))
        checks = []
        for name in qmgr.queues:
            if name in accounts:
                depth, found, replayed, units = accounts[name]
                checks.append(account(name, depth, found, "the queue file", replayed, units))
            else:
                checks.append(says_none_of(f"AMQ7234I: Queue {name} "))
        lines = [stop, Expect(f"strmqm {QMGR}", all_of(says("started."), *checks))]
        if mode in ("crash", "-p") or in_flight:  # the start recovered: its explanation is this one
            lines.append(self._explained(qmgr, every_queue=True))
        if lost_unit:
            lines.append(Expect(f"LAB BROWSE QUEUE({next(iter(qmgr.queues))})", says("2009")))
        return lines
