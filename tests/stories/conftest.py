"""What the story tests share: the recovery tests' Spark session, for stories recovered on Spark
(the process keeps one runner per master, so every test that names the same master shares one
session), and a folder in memory for the stories' data directories."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from tests.recovery.conftest import MASTER, spark_runner  # noqa: F401  (a fixture, found by its name)

__all__ = ["MASTER", "spark_runner", "workdir"]

# A story writes and syncs its queue managers' files many times: in memory, where there is such a
# file system, a story costs its commands and not the disk's flushes.
MEMORY = Path("/dev/shm")


@pytest.fixture
def workdir(tmp_path):
    if MEMORY.is_dir() and os.access(MEMORY, os.W_OK):
        with tempfile.TemporaryDirectory(prefix="mqsh-stories-", dir=MEMORY) as folder:
            yield Path(folder)
    else:
        yield tmp_path
