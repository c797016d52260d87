"""Random stories of one queue manager's local queues - units of work, media images, damaged files,
rcrmqobj, ends in every mode and crashes - through the real shell, checked against the model after
every step (MQSH_STORIES sets how many; benchmarks/stories.py runs thousands). A few run on Spark,
whose replay must leave (and account for) the same messages."""

from __future__ import annotations

import os

import pytest

from tests.recovery.conftest import MASTER
from tests.stories.families import FAMILIES
from tests.stories.oracle import tell

pytestmark = pytest.mark.slow

STORIES = int(os.environ.get("MQSH_STORIES", "150"))
SPARK_STORIES = int(os.environ.get("MQSH_SPARK_STORIES", "10"))


@pytest.mark.parametrize("name", ["media-linear", "media-circular"])
def test_random_stories_agree_with_the_model(name, workdir, tmp_path):
    family = FAMILIES[name]()
    disagreements = [
        found
        for seed in range(STORIES)
        if (found := tell(family, seed, workdir=workdir, keep_to=tmp_path / "kept")) is not None
    ]
    assert not disagreements, "\n\n".join(map(str, disagreements[:3]))


def test_stories_replayed_on_spark_agree_with_the_model(workdir, tmp_path, spark_runner, monkeypatch):
    """Restarts and rcrmqobj replayed by the Spark engine, on the test session's Spark."""
    monkeypatch.setenv("MQSH_SPARK_MASTER", MASTER)
    family = FAMILIES["media-linear"]()
    disagreements = [
        found
        for seed in range(SPARK_STORIES)
        if (found := tell(family, seed, "spark", workdir, tmp_path / "kept")) is not None
    ]
    assert not disagreements, "\n\n".join(map(str, disagreements[:3]))
