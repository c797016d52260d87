"""The queue-sharing group stories' steps on a member's shared message data set, grown or not: copied,
reset to FAILED and declared RECOVERED, put back from a copy (smaller, when taken before the data set
grew; down level, when a message put since is still in the structure), damaged - a spoiled header or
block, preformatted, deleted - and recovered; then DISPLAY USAGE shows the size the model
(tests.stories.qsg_model) says. Steps of tests.stories.qsg_family's script, which they use."""

from __future__ import annotations

import re
from collections.abc import Hashable
from typing import TYPE_CHECKING

from tests.stories.oracle import Check, Expect, all_of, says

if TYPE_CHECKING:
    from tests.stories.qsg_family import Script

COPY, RESTORE, RESET, DAMAGE, GROW = "copy", "restore", "reset", "damage", "grow"
DAMAGES = ("HEADER", "EMPTY", "DELETE", "BLOCK")
BLOCK_SPOILED = re.compile(r"given a spoiled block \(block (\d+),")


class DataSetSteps:
    """The data set steps of one story's script, and the copies its data sets have."""

    def __init__(self, script: Script, cf: str):
        self.script, self.cf = script, cf
        # owner -> (how many puts the story had made, the extents its data set had) when it was copied
        self.copies: dict[str, tuple[int, int]] = {}

    def step(self, action: Hashable) -> None:
        """An action on a running member's data set that is in use (one with a copy, to restore one),
        whether it grew or not - or one grown past a new copy; then, after a reset, restore or damage,
        DISPLAY USAGE shows its size."""
        kind, who = action[0], action[1]
        group = self.script.group
        owners = [
            name
            for name in group.running()
            if name in group.activated and (kind != RESTORE or self._restorable(name))
        ]
        if not owners:
            return
        member = owners[who % len(owners)]
        if kind == GROW:
            self.grow_past_copy(member, *action[2:])
            return
        if kind == COPY:
            self.copy(member)
            return
        if kind == RESET:
            if group.data_set(member).extents > 1:
                self.script.told.add("a data set that grew reset to FAILED and RECOVERED")
            self.reset(member, group.puts, who)
        elif kind == RESTORE:
            self.restore_copy(member, who, at_start=action[2])
        else:
            self.damage(member, action[2], who)
        self.usage(member)

    def grow_past_copy(self, owner: str, persistent: bool, count: int, gets: int, at_start: bool) -> None:
        """The owner's data set copied, then its application puts count large messages (persistent or
        not) - enough, perhaps, to grow it past the copy - and another gets some of the queue's; then
        the copy, smaller, is put back, when the model can tell its size after: found down level and
        recovered (the non-persistent messages put since are not, so what is recovered may fit the
        copy), or not down level when every message put since was got."""
        self.copy(owner)
        script, queue = self.script, self.script.group.queues[0]
        script.use(owner)
        events: list[str] = []
        for _ in range(count):
            events += script.put(owner, queue, persistent, False, True)
        script.space(owner, events)
        if gets:  # by any member
            running = script.group.running()
            script.get(running[(count + gets) % len(running)], queue, False, gets)
        if owner not in script.group.running() or not self._restorable(owner):
            return
        self.restore_copy(owner, count, at_start)
        self.usage(owner)

    def restore_copy(self, owner: str, who: int, at_start: bool) -> None:
        """The owner's data set put back from its copy while the owner is down, or after a reset to
        FAILED. While down only when a message's data is in it: an owner that ends normally with none
        there makes it EMPTY (IBM MQ's rule), and formats it afresh at its next use, copy or not."""
        if at_start and self.script.group.used_once_ended(owner) > 0:
            self.restore_at_start(owner, who)
        else:
            self.reset(owner, self.copies[owner][0], who, restore=True)

    def copy(self, owner: str) -> None:
        self.script.expects.append(
            Expect(f"LAB COPY SMDS({owner}) CFSTRUCT({self.cf}) TO(COPY{owner})", says("copied to"))
        )
        self.copies[owner] = (self.script.group.puts, self.script.group.data_set(owner).extents)

    def _restorable(self, owner: str) -> bool:
        """Whether owner's copy may be put back with a size the model knows after: the copy is not
        down level (nothing is recovered), or every message a recovery writes back fits its extents."""
        if owner not in self.copies:
            return False
        copied_after, extents = self.copies[owner]
        return not self.script.group.down_level(owner, copied_after) or self.script.group.fits(
            owner, self.script.group.data_set(owner).total(extents)
        )

    def damage(self, owner: str, how: str, who: int) -> None:
        """The owner's data set damaged, reset to FAILED and recovered. A spoiled block is its newest
        message's (one of the data set's has to be in the structure); a deleted data set is allocated
        anew at its primary size - when the model cannot tell that every recovered message fits there,
        its header is spoiled instead."""
        group = self.script.group
        newest = group.newest_large(owner)
        if (
            how == "BLOCK"
            and newest is None
            or how == "DELETE"
            and not group.fits(owner, group.data_set(owner).total(1))
        ):
            how = "HEADER"
        damaged = says(f"SMDS({owner})")
        if how == "BLOCK" and newest is not None:
            damaged = all_of(damaged, _spoiled_within(newest.room))
        running = group.running()
        if group.data_set(owner).extents > 1:
            self.script.told.add(f"a data set that grew damaged: {how}")
        self.script.expects.append(
            Expect(f"LAB DAMAGE SMDS({owner}) CFSTRUCT({self.cf}) HOW({how})", damaged)
        )
        self.script.expects.append(
            Expect(f"RESET SMDS({owner}) CFSTRUCT({self.cf}) STATUS(FAILED)", says("NORMAL COMPLETION"))
        )
        self.script.recover(running[(who + 1) % len(running)], purge=False)
        if how == "DELETE":
            group.data_set(owner).reallocated(1)
        self.copies.pop(owner, None)  # the recovery rewrote the data set

    def usage(self, owner: str) -> None:
        """In a story of small data sets: DISPLAY USAGE from the owner, whose data set is open again
        (its restart processing after a reset or a recovery), shows it of the size the model says."""
        total = self.script.group.data_set(owner).total()
        if not self.script.sized or total is None or not self.script.group.members[owner].running:
            return
        self.script.use(owner)
        self.script.expects.append(
            Expect(
                "DISPLAY USAGE TYPE(SMDS)",
                says(
                    f"SMDS({owner}) CFSTRUCT({self.cf})",
                    f"{self.script.group.used(owner)} of {total} blocks in use",
                ),
            )
        )

    def reset(self, owner: str, copied_after: int, who: int, restore: bool = False) -> None:
        """The owner's data set marked FAILED, perhaps put back from its copy, and declared RECOVERED:
        the owner's check finds a down-level one FAILED again, and a recovery follows."""
        self.script.expects.append(
            Expect(f"RESET SMDS({owner}) CFSTRUCT({self.cf}) STATUS(FAILED)", says("NORMAL COMPLETION"))
        )
        # A FAILED data set is not available: a request that would use it gets MQRC_DATA_SET_NOT_AVAILABLE
        # (IBM, "Managing your shared message data set environment"), and the put puts nothing.
        self.script.use(owner)
        self.script.expects.append(
            Expect(
                f"LAB PUT QUEUE({self.script.group.queues[0]}) SIZE({next(self.script.large)}) PERSISTENT",
                says("2561"),
            )
        )
        if restore:
            self.restore(owner)
        self.script.expects.append(
            Expect(f"RESET SMDS({owner}) CFSTRUCT({self.cf}) STATUS(RECOVERED)", says("NORMAL COMPLETION"))
        )
        self._recover_if_down_level(owner, copied_after, who)

    def restore_at_start(self, owner: str, who: int) -> None:
        """The owner ended, its data set put back from its copy, the owner started: its first open of
        the data set finds a down-level one (the saved space map's time stamp is not the one the
        repository holds) and marks it FAILED; a recovery follows."""
        if len(self.script.group.running()) == 1:
            return
        self.script.end(owner, "w")
        self.restore(owner)
        self.script.start_member(owner)
        self._recover_if_down_level(owner, self.copies[owner][0], who)

    def restore(self, owner: str) -> None:
        """The owner's data set put back from its copy: of the copy's extents from now on."""
        self.script.expects.append(
            Expect(f"LAB RESTORE SMDS({owner}) CFSTRUCT({self.cf}) FROM(COPY{owner})", says("put back"))
        )
        copied_after, extents = self.copies[owner]
        data_set = self.script.group.data_set(owner)
        if extents < data_set.extents:
            level = "down level" if self.script.group.down_level(owner, copied_after) else "not down level"
            self.script.told.add(f"a copy from before the data set grew put back, {level}")
        if extents > 1:
            self.script.told.add("a copy from after the data set grew put back")
        data_set.reallocated(extents)

    def _recover_if_down_level(self, owner: str, copied_after: int, who: int) -> None:
        if self.script.group.down_level(owner, copied_after):
            running = self.script.group.running()
            self.script.recover(running[who % len(running)], purge=False)
            self.copies.pop(owner, None)  # the recovery rewrote the data set


def _spoiled_within(room: int | None) -> Check:
    """LAB DAMAGE HOW(BLOCK) names the block it spoiled: the newest message's, which lies within the
    room its data set had when it was put."""

    def check(answer: str) -> str | None:
        found = BLOCK_SPOILED.search(answer)
        if found is None:
            return "expected the block spoiled in the answer"
        if room is not None and int(found[1]) >= room:
            return f"block {found[1]} lies beyond the {room} blocks the data set had when its message was put"
        return None

    return check
