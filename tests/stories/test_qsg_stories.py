"""Random stories of a queue-sharing group - shared queues, units of work, members ended and
started with units in flight, structure backups, failures and recoveries, small data sets filling
and expanding, copied, put back, damaged and recovered after they grew - through the real shell,
checked against the model after every step (MQSH_STORIES sets how many, 60 by default: about half a
minute; benchmarks/stories.py runs thousands). Of those, some are chosen: seeds whose stories tell
the episodes few stories do."""

from __future__ import annotations

import itertools
import os
import random
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path

import pytest

from tests.recovery.conftest import MASTER
from tests.stories.families import FAMILIES
from tests.stories.oracle import run_script, scratch_parent, tell

pytestmark = pytest.mark.slow

STORIES = int(os.environ.get("MQSH_STORIES", "60"))
SPARK_STORIES = int(os.environ.get("MQSH_SPARK_STORIES", "10"))
# Episodes few random stories tell (QsgFamily.told), each with a seed whose story does.
CHOSEN = {
    "a copy from before the data set grew put back, down level": 1446,
    "a copy from before the data set grew put back, not down level": 2933,
    "a copy from after the data set grew put back": 1239,
    "a data set that grew reset to FAILED and RECOVERED": 464,
    "a data set that grew damaged: BLOCK": 108,  # a block of an extent it grew by (test below)
    "a data set that grew damaged: DELETE": 2053,
    "a data set that grew damaged: EMPTY": 2586,
    "a data set that grew damaged: HEADER": 1128,
    "ALTER CFSTRUCT DSEXPAND(YES), then an expansion": 108,
    "ALTER CFSTRUCT DSEXPAND(DEFAULT), then an expansion": 2130,
    "ALTER CFSTRUCT DSEXPAND(NO), then a full data set": 2391,
    "ALTER SMDS DSEXPAND(DEFAULT) takes the structure's NO": 582,
    "ALTER SMDS DSEXPAND(DEFAULT) takes the structure's DEFAULT": 442,
}
CHOSEN_SEEDS = sorted(set(CHOSEN.values()))


def _disagreements(engine: str, seeds: Iterable[int], workdir: Path, kept: Path) -> list:
    family = FAMILIES["qsg"]()
    return [
        found
        for seed in seeds
        if (found := tell(family, seed, engine, workdir=workdir, keep_to=kept)) is not None
    ]


def _recovering(count: int) -> list[int]:
    """The first count seeds whose story runs RECOVER CFSTRUCT: the engine only works there."""
    family = FAMILIES["qsg"]()
    seeds = (
        seed
        for seed in range(100_000)
        if any(
            expect.command.startswith("RECOVER CFSTRUCT")
            for expect in family.script(family.story(random.Random(seed)))
        )
    )
    return list(itertools.islice(seeds, count))


def test_random_group_stories_agree_with_the_model(workdir, tmp_path):
    """STORIES stories in all: the chosen ones, and random ones from seed 0."""
    seeds = [*range(max(0, STORIES - len(CHOSEN_SEEDS))), *CHOSEN_SEEDS]
    disagreements = _disagreements("local", seeds, workdir, tmp_path / "kept")
    assert not disagreements, "\n\n".join(map(str, disagreements[:3]))


@pytest.mark.parametrize("episode", sorted(CHOSEN))
def test_each_chosen_seed_still_tells_its_episode(episode):
    family = FAMILIES["qsg"]()
    assert episode in family.told(family.story(random.Random(CHOSEN[episode])))


def test_the_chosen_block_damage_spoils_a_block_of_an_extent_the_data_set_grew_by():
    """Where the owner placed its newest message is its own business: the story shows it, past the
    primary allocation LAB SIZE gave the data set."""
    family = FAMILIES["qsg"]()
    commands = [
        expect.command
        for expect in family.script(
            family.story(random.Random(CHOSEN["a data set that grew damaged: BLOCK"]))
        )
    ]
    with tempfile.TemporaryDirectory(dir=scratch_parent()) as folder:
        answers = run_script(commands, Path(folder) / "data").answers
    damaged = next(index for index, command in enumerate(commands) if "HOW(BLOCK)" in command)
    owner = re.search(r"SMDS\((\w+)\)", commands[damaged])[1]
    primary = next(
        int(re.search(r"BLOCKS\((\d+)\)", command)[1])
        for command in commands
        if command.startswith(f"LAB SIZE SMDS({owner})")
    )
    block = int(re.search(r"spoiled block \(block (\d+),", answers[damaged])[1])
    assert block >= primary, answers[damaged]


def test_random_group_stories_recovered_on_spark_agree_with_the_model(
    workdir, tmp_path, spark_runner, monkeypatch
):
    """Stories that recover the structure, each RECOVER CFSTRUCT run by the Spark engine, on the test
    session's Spark."""
    monkeypatch.setenv("MQSH_SPARK_MASTER", MASTER)
    disagreements = _disagreements("spark", _recovering(SPARK_STORIES), workdir, tmp_path / "kept")
    assert not disagreements, "\n\n".join(map(str, disagreements[:3]))
