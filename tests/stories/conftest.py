"""The recovery tests' Spark session, for stories recovered on Spark: the process keeps one runner
per master, so every test that names the same master shares one session."""

from tests.recovery.conftest import MASTER, spark_runner  # noqa: F401  (a fixture, found by its name)

__all__ = ["MASTER", "spark_runner"]
