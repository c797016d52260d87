"""Random stories of a cluster's topology, definition order, network cuts and clock jumps, through
the real shell, checked against the cluster model after every step (MQSH_CLUSTER_STORIES sets how
many: a story runs 150-400 commands on up to eight queue managers, 2-20 seconds each on this shared machine, so CI runs 5;
benchmarks/stories.py --family cluster runs more)."""

from __future__ import annotations

import os

import pytest

from tests.stories.families import FAMILIES
from tests.stories.oracle import tell

pytestmark = pytest.mark.slow

STORIES = int(os.environ.get("MQSH_CLUSTER_STORIES", "20"))


def test_random_cluster_stories_agree_with_the_model(workdir, tmp_path):
    family = FAMILIES["cluster"]()
    disagreements = [found for seed in range(STORIES)
                     if (found := tell(family, seed, workdir=workdir, keep_to=tmp_path / "kept")) is not None]
    assert not disagreements, "\n\n".join(map(str, disagreements[:3]))
