"""Stories of a queue-sharing group: 2-4 members sharing one recoverable structure that offloads
large messages to shared message data sets; puts small and large, persistent or not, in and out of
units of work, from any member; gets from any member; BACKUP CFSTRUCT; structure failures recovered
TYPE(NORMAL) or TYPE(PURGE) from any member; members ended (endmqm -c, -w, -i, -p, or crashed),
their application's unit of work finished first or left in flight, and started. Half the stories
allocate the members' data sets small (LAB SIZE SMDS), with the structure's DSBLOCK, DSBUFS and
DSEXPAND drawn too: bursts of large puts fill them, their owners expand them (CSQE213I) up to the
maximum extents (CSQE239I), a full one refuses large puts (2192), and ALTER SMDS DSEXPAND retries;
one reset to FAILED refuses them too (2561) until it is back; ALTER CFSTRUCT DSEXPAND rules the next
expansion of every data set whose SMDS entry says DEFAULT. Data sets that grew are copied, put back
from copies taken before or after they grew (smaller, and down level, or not), reset to FAILED and
RECOVERED, damaged (a spoiled block too, perhaps in an extent they grew by) and recovered: DISPLAY
USAGE then shows the size the model says.
After every step a running member browses each queue and displays its depth, and the model
(tests.stories.qsg_model, MQ's rules) says what they must show.

Every message has a size no other has: small ones (held whole in the structure's list entry) from
101, large ones (over the 4K offload threshold, so their data goes to the putting member's data set)
from 20001 - under 64K, so each takes one block of its data set whatever DSBLOCK (64K or more).

An action names its member by a number: the model takes the running member (or, to start one, the
stopped member) at that number modulo how many there are, so any shortened story still makes sense.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator, Sequence

from tests.stories.explain_check import cf_explained
from tests.stories.oracle import Expect, all_of, depth_is, holds, says, says_none_of
from tests.stories.qsg_data_sets import COPY, DAMAGE, DAMAGES, GROW, RESET, RESTORE, DataSetSteps
from tests.stories.qsg_model import DataSet, Group, Member

QSG, CF = "QSGA", "APP1"
GROUP, PUT, GET, COMMIT, BACKOUT, BACKUP, FAIL, END, START = (
    "group",
    "put",
    "get",
    "commit",
    "backout",
    "backup",
    "fail",
    "end",
    "start",
)
FILL, ALTER, ALTER_CF = "fill", "alter", "alter-cf"
END_MODES = ("c", "w", "i", "p", "crash")
EXPANSIONS = ("CSQE213I", "CSQE239I")
KINDS = [
    PUT,
    GET,
    COMMIT,
    BACKOUT,
    BACKUP,
    FAIL,
    END,
    START,
    COPY,
    RESTORE,
    RESET,
    DAMAGE,
    FILL,
    ALTER,
    ALTER_CF,
    GROW,
]
WEIGHTS = [8, 5, 2, 1, 2, 2, 3, 2, 2, 2, 1, 1, 0, 0, 0, 0]
# Small data sets: bursts of large puts, ALTER SMDS / CFSTRUCT and growing past a copy take from the others.
SIZED_WEIGHTS = [6, 4, 2, 1, 1, 1, 3, 2, 2, 2, 1, 1, 3, 2, 1, 2]


class QsgFamily:
    name = "qsg"

    def __init__(self, steps: int = 16):
        self.steps = steps

    # ------------------------------------------------------------ telling a story
    def story(self, rng: random.Random) -> list[Hashable]:
        sized = None
        if rng.random() < 0.5:  # the structure's data set attributes, and each member's allocation
            sized = (
                rng.choice(("64K", "128K", "256K")),
                rng.choice((10, 50, 100)),
                rng.choice(("YES", "NO")),
                tuple((rng.randint(2, 8), rng.randint(0, 4), rng.randint(1, 3)) for _ in range(4)),
            )
        actions: list[Hashable] = [(GROUP, rng.randint(2, 4), rng.randint(1, 2), sized)]
        for _ in range(rng.randint(4, self.steps)):
            kind = rng.choices(KINDS, SIZED_WEIGHTS if sized else WEIGHTS)[0]
            who = rng.randrange(12)
            if kind in (PUT, FILL):
                actions.append(
                    (
                        PUT,
                        who,
                        rng.randrange(2),
                        rng.random() < 0.7,
                        rng.random() < 0.35,
                        kind == FILL or rng.random() < 0.5,
                        rng.randint(3, 8) if kind == FILL else rng.randint(1, 3),
                    )
                )
            elif kind == ALTER:
                actions.append(
                    (ALTER, who, rng.choice(("YES", "DEFAULT", "NO")), rng.choice((None, 5, 30, "DEFAULT")))
                )
            elif kind == GROW:  # copied, grown past the copy by large puts, some got, and put back
                actions.append(
                    (GROW, who, rng.random() < 0.5, rng.randint(2, 6), rng.randint(0, 6), rng.random() < 0.5)
                )
            elif kind == ALTER_CF:
                actions.append((ALTER_CF, who, rng.choice(("YES", "DEFAULT", "NO")), rng.randint(1, 4)))
            elif kind == GET:
                actions.append((GET, who, rng.randrange(2), rng.random() < 0.35, rng.randint(1, 2)))
            elif kind == BACKUP:
                actions.append((BACKUP, who, rng.random() < 0.7))
            elif kind == FAIL:
                actions.append((FAIL, who, rng.random() < 0.3))
            elif kind == END:  # its application's unit of work finished first, or left in flight
                actions.append((END, who, rng.choice(END_MODES), rng.random() < 0.5))
            elif kind == RESTORE:
                actions.append((RESTORE, who, rng.random() < 0.5))
            elif kind == DAMAGE:
                actions.append((DAMAGE, who, rng.choice(DAMAGES)))
            else:
                actions.append((kind, who))
        return actions

    # ------------------------------------------------------------ what the story must do
    def script(self, actions: Sequence[Hashable]) -> list[Expect]:
        return self._run(actions).expects

    def told(self, actions: Sequence[Hashable]) -> set[str]:
        """The kinds of episode the story tells that only some stories do (Script.told)."""
        return self._run(actions).told

    def _run(self, actions: Sequence[Hashable]) -> Script:
        members, queues, sized = 2, 1, None
        if actions and actions[0][0] == GROUP:
            _, members, queues, sized = actions[0]
        group = Group(
            {f"QM{i}": Member(f"QM{i}") for i in range(1, members + 1)},
            [f"SQ{i}" for i in range(1, queues + 1)],
        )
        run = Script(self, group, sized)
        run.check(0)  # connects to the structure, allocating it: a failure from then on loses it
        for number, action in enumerate(actions):
            if action[0] != GROUP:
                run.step(action)
                run.check(number)
        return run


class Script:
    """The commands of one story and their expected answers, as the model runs its actions."""

    def __init__(self, family: QsgFamily, group: Group, sized: tuple | None):
        self.family, self.group, self.sized = family, group, sized is not None
        self.small: Iterator[int] = iter(range(101, 4000))
        self.large: Iterator[int] = iter(range(20001, 60000))
        self.current = "QM1"
        self.data_sets = DataSetSteps(self, CF)
        # Episodes only some stories tell, by name, for the test that chosen seeds still tell each.
        self.told: set[str] = set()
        self.refused = 0  # large puts refused, their owner's data set full
        names = list(group.members)
        self.expects = [Expect("LAB CLOCK SET('2026-04-01 08:00:00')")]
        self.expects += [
            Expect(f"crtmqm -ll {name}", says("IBM MQ queue manager created.")) for name in names
        ]
        self.expects.append(Expect(f"csq5pqsg ADD QSG,{QSG}", says("return code=0")))
        self.expects += [Expect(f"csq5pqsg ADD QMGR,{name},{QSG}", says("return code=0")) for name in names]
        self.expects += [
            Expect(f"strmqm {name}", says(f"IBM MQ queue manager '{name}' started.")) for name in names
        ]
        self.expects.append(Expect("LAB USE QMGR(QM1)"))
        # Offload rule 1 with OFFLD1TH(0): every message over 4K goes to the data set, whatever the usage.
        dsblock, group.dsbufs, group.dsexpand, sizes = sized or ("64K", 100, "YES", ())
        self.expects.append(
            Expect(
                f"DEFINE CFSTRUCT({CF}) CFLEVEL(5) RECOVER(YES) OFFLOAD(SMDS) "
                f"DSGROUP('MQ.{QSG}.*.{CF}') DSBLOCK({dsblock}) DSBUFS({group.dsbufs}) "
                f"DSEXPAND({group.dsexpand}) OFFLD1SZ(4K) OFFLD1TH(0)",
                says("NORMAL COMPLETION"),
            )
        )
        for name, (blocks, secondary, most) in zip(names, sizes):  # before each data set is first formatted
            group.data_sets[name] = DataSet(blocks, secondary, most)
            self.expects.append(
                Expect(
                    f"LAB SIZE SMDS({name}) CFSTRUCT({CF}) BLOCKS({blocks}) "
                    f"SECONDARY({secondary}) MAXEXTENTS({most})",
                    says(f"{blocks} blocks"),
                )
            )
        self.expects += [
            Expect(
                f"DEFINE QLOCAL({queue}) QSGDISP(SHARED) CFSTRUCT({CF}) DEFPSIST(YES)",
                says("NORMAL COMPLETION"),
            )
            for queue in group.queues
        ]

    def use(self, member: str) -> None:
        if member != self.current:
            self.expects.append(
                Expect(f"LAB USE QMGR({member})", says(f"Current queue manager is {member}."))
            )
            self.current = member

    def check(self, number: int) -> None:
        """A running member browses every queue and displays its depth."""
        running = self.group.running()
        self.use(running[number % len(running)])
        for queue in self.group.queues:
            self.expects.append(Expect(f"LAB BROWSE QUEUE({queue})", holds(self.group.visible(queue))))
            self.expects.append(
                Expect(f"DISPLAY QLOCAL({queue}) CURDEPTH", depth_is(self.group.depth(queue)))
            )

    def step(self, action: Hashable) -> None:
        kind, who = action[0], action[1]
        group = self.group
        running = group.running()
        member = running[who % len(running)]
        if kind == PUT:
            _, _, queue, persistent, syncpoint, large, count = action
            queue = group.queues[queue % len(group.queues)]
            self.use(member)
            events = []
            for _ in range(count):
                events += self.put(member, queue, persistent, syncpoint, large)
            if large:
                self.space(member, events)
        elif kind == GET:
            _, _, queue, syncpoint, count = action
            self.get(member, group.queues[queue % len(group.queues)], syncpoint, count)
        elif kind in (COMMIT, BACKOUT):
            self.use(member)
            self.end_unit(member, kind == COMMIT)
        elif kind == BACKUP:
            self.use(member)
            if action[2]:  # past EXCLINT: the backup holds every change so far
                self.expects.append(Expect("LAB CLOCK ADVANCE(1M)"))
            self.expects.append(Expect(f"BACKUP CFSTRUCT({CF})", says("CSQE121I", "NORMAL COMPLETION")))
        elif kind == FAIL:
            self.fail(member, purge=action[2])
        elif kind == END:
            # One to leave its unit in flight is, when there is one, a member whose unit is open.
            open_units = [name for name in running if group.members[name].unit_open]
            self.end(
                open_units[who % len(open_units)] if open_units and not action[3] else member,
                action[2],
                finish=action[3],
            )
        elif kind == ALTER:  # a group command: any member may issue it
            self.alter(member, running[(who + 1) % len(running)], action[2], action[3])
        elif kind == ALTER_CF:
            self.alter_structure(member, running[(who + 1) % len(running)], action[2], action[3])
        elif kind == START:
            self.start(who)
        else:
            self.data_sets.step(action)

    def get(self, member: str, queue: str, syncpoint: bool, count: int) -> None:
        """The member's application gets count messages (all there are, and 2033 after, when fewer)."""
        self.use(member)
        taken = self.group.get(member, queue, count, syncpoint)
        self.expects.append(
            Expect(
                f"LAB GET QUEUE({queue}) COUNT({count}){' SYNCPOINT' if syncpoint else ''}",
                says(f"{count} message(s) got") if taken == count else says("2033"),
            )
        )

    def put(self, member: str, queue: str, persistent: bool, syncpoint: bool, large: bool) -> list[str]:
        """One message put (or refused, its owner's data set full); the expansion messages it caused."""
        size = next(self.large if large else self.small)
        put, events = self.group.put(member, queue, size, persistent, syncpoint, large)
        self.refused += not put
        self.expects.append(
            Expect(
                f"LAB PUT QUEUE({queue}) SIZE({size}) {'PERSISTENT' if persistent else 'NONPERSISTENT'}"
                f"{' SYNCPOINT' if syncpoint else ''}",
                says("1 ", "message(s) put") if put else says("2192"),
            )
        )
        return events

    def space(self, owner: str, events: list[str]) -> None:
        """In a story of small data sets, after the owner's large puts: its error log since it was last
        read holds the expansion messages the model expects, and no other, and DISPLAY USAGE shows its
        data set (open since its puts) holding the blocks the model counts, of the size it says, and
        its buffer pool of the DSBUFS in effect."""
        if not self.sized:
            return
        missing = [event for event in EXPANSIONS if event not in events]
        self.expects.append(Expect("LAB ERRLOG", all_of(says(*events), says_none_of(*missing))))
        total = self.group.data_set(owner).total()
        if total is not None:
            self.expects.append(
                Expect(
                    "DISPLAY USAGE TYPE(SMDS)",
                    says(
                        f"SMDS({owner}) CFSTRUCT({CF})",
                        f"{self.group.used(owner)} of {total} blocks in use",
                        f"CFSTRUCT({CF}) buffer pool has {self.group.buffers(owner)} buffers",
                    ),
                )
            )

    def alter(self, member: str, issuer: str, value: str, buffers: int | str | None) -> None:
        """The owner's application puts a large message (opening the owner's data set, perhaps finding
        it full), ALTER SMDS from issuer sets its DSEXPAND (and perhaps its DSBUFS) - the owner retries
        an expansion - and the application puts again."""
        self.use(member)
        queue = self.group.queues[0]
        events = self.put(member, queue, True, False, True)
        given = "" if buffers is None else f" DSBUFS({buffers})"
        self.use(issuer)
        self.expects.append(
            Expect(f"ALTER SMDS({member}) CFSTRUCT({CF}) DSEXPAND({value}){given}", says("NORMAL COMPLETION"))
        )
        if buffers is not None:
            self.group.data_set(member).buffers = str(buffers)
        if value == "DEFAULT" and self.group.dsexpand != "YES":
            self.told.add(f"ALTER SMDS DSEXPAND(DEFAULT) takes the structure's {self.group.dsexpand}")
        events += self.group.alter_dsexpand(member, value)
        self.use(member)
        events += self.put(member, queue, True, False, True)
        self.space(member, events)
        self.expansion_state(member)

    def alter_structure(self, issuer: str, owner: str, value: str, count: int) -> None:
        """ALTER CFSTRUCT DSEXPAND from issuer - it retries no expansion - then the owner's application
        puts count large messages: the expansions they need follow the structure's new value where
        the owner's SMDS entry says DEFAULT."""
        self.use(issuer)
        self.expects.append(Expect(f"ALTER CFSTRUCT({CF}) DSEXPAND({value})", says("NORMAL COMPLETION")))
        self.expects.append(Expect(f"DISPLAY CFSTRUCT({CF}) DSEXPAND", says(f"DSEXPAND({value})")))
        self.group.dsexpand = value
        self.use(owner)
        events: list[str] = []
        refused = self.refused
        for _ in range(count):
            events += self.put(owner, self.group.queues[0], True, False, True)
        if "CSQE213I" in events:
            self.told.add(f"ALTER CFSTRUCT DSEXPAND({value}), then an expansion")
        if self.refused > refused and value == "NO":
            self.told.add("ALTER CFSTRUCT DSEXPAND(NO), then a full data set")
        self.space(owner, events)
        self.expansion_state(owner)

    def expansion_state(self, member: str) -> None:
        """The member's SMDS entry (DSBUFS, DSEXPAND) and, for a small data set, its connection's
        EXPANDST: whether its last expansion attempt failed at the maximum extents."""
        data_set = self.group.data_set(member)
        self.expects.append(
            Expect(
                f"DISPLAY SMDS({member}) CFSTRUCT({CF})",
                says(f"DSBUFS({data_set.buffers})", f"DSEXPAND({data_set.override})"),
            )
        )
        if data_set.total() is not None:  # whether its last expansion attempt failed at the maximum extents
            self.expects.append(
                Expect(
                    f"DISPLAY SMDSCONN({member}) CFSTRUCT({CF})",
                    says(f"EXPANDST({'MAXIMUM' if data_set.maximum else 'NORMAL'})"),
                )
            )

    def end_unit(self, member: str, commit: bool) -> None:
        state = self.group.members[member]
        if commit:
            answer = (
                "2003"
                if state.unit_lost
                else "Unit of work committed."
                if state.unit_open
                else "No unit of work to commit."
            )
            self.expects.append(Expect("LAB COMMIT", says(answer)))
        else:
            answer = "Unit of work backed out." if state.unit_open else "No unit of work to back out."
            self.expects.append(Expect("LAB BACKOUT", says(answer)))
        self.group.end_unit(member, commit)

    def fail(self, member: str, purge: bool) -> None:
        self.expects.append(Expect(f"LAB FAIL CFSTRUCT({CF})", says(f"Structure {CF} ")))
        self.use(member)
        self.expects.append(Expect(f"LAB BROWSE QUEUE({self.group.queues[0]})", says("2373")))
        self.recover(member, purge)

    def recover(self, member: str, purge: bool) -> None:
        """RECOVER CFSTRUCT from member, of a failed structure or of a structure with a FAILED data set."""
        self.use(member)
        self.expects.append(Expect("LAB CLOCK ADVANCE(5M)"))
        if purge:
            self.data_sets.copies.clear()
        self.group.fail_structure(purge)
        # The recovery says what it rebuilt: every persistent committed message of the structure's queues.
        rebuilt = (
            "recovered empty (TYPE(PURGE))" if purge else f": {len(self.group.messages)} messages recovered"
        )
        self.expects.append(
            Expect(
                f"RECOVER CFSTRUCT({CF}){' TYPE(PURGE)' if purge else ''}",
                says(rebuilt, "CSQE131I", "NORMAL COMPLETION"),
            )
        )
        if not purge:  # LAB EXPLAIN CFSTRUCT's ledgers add up to what the model holds
            self.expects.append(
                Expect(
                    f"LAB EXPLAIN CFSTRUCT({CF})",
                    cf_explained(
                        {queue: self.group.depth(queue) for queue in self.group.queues},
                        len(self.group.messages),
                    ),
                )
            )

    def end(self, member: str, mode: str, finish: bool = True) -> None:
        """The member ends; its application commits its unit of work first, or leaves it in flight."""
        if len(self.group.running()) == 1:
            return  # someone must stay to look at the queues
        state = self.group.members[member]
        if state.unit_open and finish:
            self.use(member)
            self.end_unit(member, commit=True)
        if mode == "crash":
            self.expects.append(Expect(f"LAB CRASH QMGR({member})", says(f"Queue manager {member} crashed")))
        else:
            ended = "Quiesce request accepted." if mode == "c" else f"IBM MQ queue manager '{member}' ended."
            self.expects.append(Expect(f"endmqm -{mode} {member}", says(ended)))
        self.group.end(member, mode)

    def start(self, who: int) -> None:
        stopped = self.group.stopped()
        if not stopped:
            return
        self.start_member(stopped[who % len(stopped)])

    def start_member(self, member: str) -> None:
        """The member starts; a unit its immediate end left in flight is backed out now, and says so."""
        state = self.group.members[member]
        started = says(f"IBM MQ queue manager '{member}' started.")
        if state.unit_open and not state.unit_lost:
            started = all_of(started, says("1 in-flight unit of work backed out."))
        elif not state.unit_open:
            started = all_of(started, says_none_of("in-flight unit"))
        self.expects.append(Expect(f"strmqm {member}", started))
        self.group.start(member)
        if state.broken:
            self.use(member)
            self.expects.append(Expect(f"LAB BROWSE QUEUE({self.group.queues[0]})", says("2009")))
            state.broken = False
