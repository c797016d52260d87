"""The benchmark's columnar replay gives exactly the reference replay's state on random logs.

It is the baseline warm Spark is held against, so it must make the same
replay: the same objects, messages, states and units of work, not only the
surviving messages' ids.
"""

from __future__ import annotations

import copy
import importlib.util

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mqsh.recovery import replay
from mqsh.recovery.spark_replay import WITHOUT_SPARK
from mqsh.store import columnar
from mqsh.store import log as logstore
from tests.conftest import REPO
from tests.recovery.logs import random_case


@pytest.fixture(scope="module")
def replay_benchmark():
    spec = importlib.util.spec_from_file_location("replay_benchmark", REPO / "benchmarks" / "replay.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_log(log_dir, records, extent_bytes):
    writer = logstore.LogWriter(log_dir, extent_bytes, records[0]["lsn"] if records else 0,
                                on_seal=columnar.write_copy)
    for record in records:
        writer.append({name: value for name, value in record.items() if name != "lsn"})
    writer.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), length=st.integers(5, 120), extent_bytes=st.sampled_from([700, 3000, 100_000]))
def test_the_columnar_replay_equals_the_reference(replay_benchmark, tmp_path_factory, seed, length, extent_bytes):
    base, records = random_case(seed, length)
    log_dir = tmp_path_factory.mktemp("log") / "active"
    write_log(log_dir, records, extent_bytes)
    first_extent = logstore.list_extents(log_dir)[0]
    try:
        result = replay_benchmark.columnar_replay(log_dir, base, first_extent, records[0]["lsn"] if records else 0)
    except ValueError as error:
        assert str(error) == WITHOUT_SPARK
        assume(False)  # a queue's file or epoch starts inside what an extent settled: Spark's work
    expected = copy.deepcopy(base)
    replay.replay(expected, records)
    assert result.state == expected
    assert result.count == len(records)


def test_a_log_that_needs_spark_is_refused(replay_benchmark, tmp_path):
    """A queue's file written after a put whose get an extent settled: its records must be read."""
    records = [{"lsn": 0, "t": "OBJ", "k": "QUEUE/A", "o": "QLOCAL", "n": "A", "a": {}, "c": 1},
               {"lsn": 1, "t": "PUT", "q": "A", "m": "M1", "p": 0, "s": 1, "tm": "t", "u": None},
               {"lsn": 2, "t": "GET", "q": "A", "m": "M1", "u": None},
               *({"lsn": 3 + n, "t": "PUT", "q": "A", "m": f"N{n}", "p": 0, "s": 1, "tm": "t", "u": None}
                 for n in range(8))]
    write_log(tmp_path / "active", records, 400)
    base = {}
    replay.replay(base, records[:2])
    with pytest.raises(ValueError, match=WITHOUT_SPARK):
        replay_benchmark.columnar_replay(tmp_path / "active", base)
