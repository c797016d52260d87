"""Random stories of a queue-sharing group - shared queues, units of work, members ended and
started with units in flight, structure backups, failures and recoveries, small data sets filling
and expanding - through the real shell, checked against the model after every step (MQSH_STORIES
sets how many, 60 by default: about half a minute; benchmarks/stories.py runs thousands)."""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Iterable
from pathlib import Path

import pytest

from tests.recovery.conftest import MASTER
from tests.stories.families import FAMILIES
from tests.stories.oracle import tell

pytestmark = pytest.mark.slow

STORIES = int(os.environ.get("MQSH_STORIES", "60"))
SPARK_STORIES = int(os.environ.get("MQSH_SPARK_STORIES", "10"))


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
    disagreements = _disagreements("local", range(STORIES), workdir, tmp_path / "kept")
    assert not disagreements, "\n\n".join(map(str, disagreements[:3]))


def test_random_group_stories_recovered_on_spark_agree_with_the_model(
    workdir, tmp_path, spark_runner, monkeypatch
):
    """Stories that recover the structure, each RECOVER CFSTRUCT run by the Spark engine, on the test
    session's Spark."""
    monkeypatch.setenv("MQSH_SPARK_MASTER", MASTER)
    disagreements = _disagreements("spark", _recovering(SPARK_STORIES), workdir, tmp_path / "kept")
    assert not disagreements, "\n\n".join(map(str, disagreements[:3]))
