"""Random stories of one queue manager's units of work, crashes and restarts, through the real shell,
checked against the model after every step (MQSH_STORIES sets how many; benchmarks/stories.py runs
thousands)."""

from __future__ import annotations

import os

import pytest

from tests.stories.families import FAMILIES
from tests.stories.oracle import tell

STORIES = int(os.environ.get("MQSH_STORIES", "150"))


@pytest.mark.parametrize("name", ["media-linear", "media-circular"])
def test_random_stories_agree_with_the_model(name, tmp_path):
    family = FAMILIES[name]()
    disagreements = [found for seed in range(STORIES)
                     if (found := tell(family, seed, workdir=tmp_path, keep_to=tmp_path / "kept")) is not None]
    assert not disagreements, "\n\n".join(map(str, disagreements[:3]))
