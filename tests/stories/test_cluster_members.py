"""The steps the cluster stories draw on their members (no shell): full repositories are backed
up, restored and rebuilt only where there are two; a full repository's backup never outlives a
rebuild or a reset; a RESET CLUSTER runs on a full repository that knows the old QMID."""

from __future__ import annotations

import random

import pytest

from tests.stories.cluster_members import BACKUP, REBUILD, RESET, RESTORE, Members


def _told(full: tuple[str, ...], seed: int, steps: int = 60) -> list[tuple]:
    members, rng, told = Members(full, ("PR1", "PR2", "PR3")), random.Random(seed), []
    for number in range(steps):
        told.append(members.step(rng))
        if number % 7 == 6:
            members.settled()
            told.append(("settle",))
    return told


@pytest.mark.parametrize("seed", range(40))
def test_a_lone_full_repository_is_never_backed_up_restored_or_rebuilt(seed):
    assert not [
        step for step in _told(("FR1",), seed) if step[0] in (BACKUP, RESTORE, REBUILD) and step[1] == "FR1"
    ]


@pytest.mark.parametrize("seed", range(40))
def test_a_full_repositorys_backup_is_not_restored_across_a_rebuild_a_reset_or_the_others_restore(seed):
    owner: dict[str, str] = {}  # backup -> the queue manager it is of
    usable: set[str] = set()  # full repositories' backups that may still be restored
    for step in _told(("FR1", "FR2"), seed):
        if step[0] == BACKUP:
            owner[step[2]] = step[1]
            usable |= {step[2]} if step[1].startswith("FR") else set()
        elif step[0] in (REBUILD, RESET):
            usable.clear()
        elif step[0] == RESTORE and step[1].startswith("FR"):
            assert step[2] in usable
            usable = {name for name in usable if owner[name] == step[1]}


@pytest.mark.parametrize("seed", range(40))
def test_a_reset_runs_on_another_full_repository_that_has_settled_since_its_rebuild(seed):
    fresh: set[str] = set()
    rebuilt: list[str] = []
    for step in _told(("FR1", "FR2"), seed):
        if step[0] == "settle":
            fresh.clear()
        elif step[0] == REBUILD:
            rebuilt.append(step[1])
            if step[1].startswith("FR"):
                fresh.add(step[1])
                assert step[3] != step[1]  # it joins through the other
        elif step[0] == RESET:
            assert step[1] != step[2] and step[1] not in fresh and step[2] in rebuilt
