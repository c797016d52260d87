"""What the story tests share: the recovery tests' Spark session, for stories recovered on Spark
(the process keeps one runner per master, so every test that names the same master shares one
session), and a folder in memory for the stories' data directories."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from tests.recovery.conftest import MASTER, spark_runner
from tests.stories.oracle import scratch_parent

__all__ = ["MASTER", "spark_runner", "workdir"]


@pytest.fixture
def workdir():
    with tempfile.TemporaryDirectory(prefix="mqsh-stories-", dir=scratch_parent()) as folder:
        yield Path(folder)
