"""One local[2] Spark session for every Spark test; they skip where Java is missing."""

from __future__ import annotations

import shutil

import pytest

MASTER = "local[2]"


@pytest.fixture(scope="session")
def spark_runner(tmp_path_factory):
    if shutil.which("java") is None:
        pytest.skip("Spark needs Java, which is not installed")
    from mqsh.recovery.spark_session import runner

    spark_runner = runner(MASTER)
    spark_runner.session()
    return spark_runner
