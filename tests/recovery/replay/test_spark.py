"""The Spark replay gives exactly the reference replay's state on random logs (and the local engine's).

Many random logs go through one Spark job (a log column is part of every
key), so a handful of jobs cover hundreds of logs.
"""

from __future__ import annotations

import copy
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mqsh.recovery import restart
from mqsh.recovery.replay import reference as replay
from tests.recovery.logs import random_case, write_log

LOGS_PER_JOB = 40


def reference(base, records):
    state = copy.deepcopy(base)
    replay.replay(state, records)
    return state


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seeds=st.lists(st.integers(0, 2**32), min_size=LOGS_PER_JOB, max_size=LOGS_PER_JOB),
    length=st.integers(5, 120),
)
def test_spark_replay_equals_reference(spark_runner, seeds, length):
    from mqsh.recovery.replay.spark import replay_frames
    from mqsh.recovery.spark.log_frame import records_frame

    cases = [random_case(seed, length) for seed in seeds]
    bases = [base for base, _records in cases]
    untouched = copy.deepcopy(bases)
    spark = spark_runner.session()
    # The units of work open in a base state are those a checkpoint there would list.
    open_at_start = [
        {uow: sorted(queues) for uow, queues in replay.in_flight(base).items()} for base in bases
    ]
    results = replay_frames(
        spark,
        lambda: records_frame(spark, [records for _base, records in cases]),
        bases,
        spark_runner.run,
        open_at_start,
    )
    for (base, records), units, result in zip(cases, open_at_start, results):
        assert result.state == reference(base, records)
        assert result.count == len(records)
        assert result.units == restart.units_in_flight(units, records)
        assert [record["lsn"] for record in result.object_records] == [
            record["lsn"] for record in records if record["t"] in ("OBJ", "IMG", "DEL")
        ]
    assert bases == untouched  # the replay built new states


def test_every_record_is_read_once(spark_runner):
    """A commit naming no queue and a checkpoint touch no object, yet both count as read."""
    from mqsh.recovery.replay.spark import replay_frames
    from mqsh.recovery.spark.log_frame import records_frame

    records = [
        {"lsn": 0, "t": "OBJ", "k": "QUEUE/A", "o": "QLOCAL", "n": "A", "a": {}, "c": 1},
        {"lsn": 1, "t": "PUT", "q": "A", "m": "M1", "p": 0, "s": 1, "tm": "t", "u": "1.1"},
        {"lsn": 2, "t": "CMT", "u": "1.1", "qs": ["A"]},
        {"lsn": 3, "t": "CMT", "u": "3.1", "qs": []},
        {"lsn": 4, "t": "CKPT", "uows": {}, "media": {}},
    ]
    spark = spark_runner.session()
    [result] = replay_frames(spark, lambda: records_frame(spark, [records]), [{}], spark_runner.run)
    assert result.count == len(records)
    assert result.state == reference({}, records)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 2**32),
    length=st.integers(5, 120),
    before=st.integers(0, 4),
    extent_bytes=st.sampled_from([700, 3000]),
    few_moves=st.sampled_from([10_000, 0]),
)
def test_replay_from_extents_on_disk_equals_reference(
    spark_runner, tmp_path_factory, monkeypatch, seed, length, before, extent_bytes, few_moves
):
    """Objects' facts come from the sealed extents' summaries: the same state as the reference's.

    Moves are few (read in process, one partition) or, with no moves counted
    few, many (the sealed extents' read by Spark, spread over partitions).
    """
    from mqsh.recovery.replay import columnar as columnar_replay
    from mqsh.recovery.replay.spark import replay_log
    from mqsh.recovery.spark import log_frame as spark_log
    from mqsh.recovery.spark.log_frame import log_frame
    from mqsh.store import log as logstore

    monkeypatch.setattr(spark_log, "FEW_MOVES", few_moves)

    base, records = random_case(seed, length)
    log_dir = tmp_path_factory.mktemp("log") / "active"
    first_extent, from_lsn = write_log(log_dir, records, extent_bytes, before)
    read = log_frame(spark_runner.session(), log_dir, first_extent, from_lsn, spark_runner.run)
    # Every extent gives its moves as settled: the sealed ones' from their files.
    assert read.summary is not None and read.settled.unsettled is None
    assert len(read.settled.extents) == len(logstore.list_extents(log_dir))
    whole = [extent.moves for extent in read.settled.extents if isinstance(extent.records, Path)]
    assert all(isinstance(moves, Path) != read.settled.few for moves in whole)
    result = replay_log(spark_runner, base, log_dir, first_extent, from_lsn, {}, set())
    assert result.state == reference(base, records)
    assert result.count == len(records)
    assert [record["lsn"] for record in result.object_records] == [
        record["lsn"] for record in records if record["t"] in ("OBJ", "IMG", "DEL")
    ]
    # The in-process engine, from the same files: local == reference == Spark.
    local = columnar_replay.replay_log(base, log_dir, first_extent, from_lsn, {}, set())
    assert (local.state, local.count, local.units, local.object_records) == (
        result.state,
        result.count,
        result.units,
        result.object_records,
    )


def test_few_settled_moves_are_replayed_in_one_task(spark_runner, tmp_path):
    """A log whose moves settle to few: one Spark job of one task, no shuffle, nothing checkpointed."""
    from mqsh.recovery.replay.spark import replay_log
    from mqsh.store import columnar, log_writer
    from mqsh.store import log as logstore

    writer = log_writer.LogWriter(tmp_path / "active", 600, 0, on_seal=columnar.write_copy)
    writer.append({"t": "OBJ", "k": "QUEUE/A", "o": "QLOCAL", "n": "A", "a": {}, "c": 1})
    for n in range(40):
        writer.append({"t": "PUT", "q": "A", "m": f"M{n}", "p": 0, "s": 1, "tm": "t", "u": f"U{n}"})
        writer.append({"t": "CMT", "u": f"U{n}", "qs": ["A"]})
        if n % 2:
            writer.append({"t": "GET", "q": "A", "m": f"M{n}", "u": None})
    writer.close()
    assert len(logstore.list_extents(tmp_path / "active")) > 3
    context = spark_runner.session().sparkContext
    tracker = context.statusTracker()
    before = set(
        tracker.getJobIdsForGroup(None)
    )  # the replay's jobs run on a thread of their own, in no group
    result = replay_log(spark_runner, {}, tmp_path / "active", 0, 0, {}, set())
    assert [message.msgid for message in result.state["QUEUE/A"].messages] == [
        f"M{n}" for n in range(0, 40, 2)
    ]
    jobs = sorted(set(tracker.getJobIdsForGroup(None)) - before)
    assert len(jobs) == 1
    stages = tracker.getJobInfo(jobs[0]).stageIds
    assert [tracker.getStageInfo(stage).numTasks for stage in stages] == [1]


def _windows_and_survivors(spark, moves: list[dict]) -> tuple[int, list[tuple[str, str, str | None]]]:
    """The window operators of the few-moves survivors' plan for queue A, and its (m, st, u) rows."""
    import pyarrow as pa

    from mqsh.recovery.replay.fates import base_tables
    from mqsh.recovery.replay.spark import _survivors
    from mqsh.store import settled

    table = pa.Table.from_pylist(
        [{"key": "QUEUE/A", "p": 0, "s": 1, "tm": "t", **move} for move in moves], schema=settled.SCHEMA
    )
    table = table.append_column("log", pa.array([0] * len(table), pa.int32()))
    epochs = pa.table(
        {
            "log": pa.array([0], pa.int32()),
            "key": ["QUEUE/A"],
            "epoch": pa.array([None], pa.int64()),
            "base": [True],
            "base_lsn": pa.array([None], pa.int64()),
            "image": pa.array([None], pa.string()),
        }
    )
    _objects, no_base_messages = base_tables([{}])
    survivors = _survivors(spark, table, epochs, no_base_messages, True)
    plan = survivors._jdf.queryExecution().executedPlan().toString()
    rows = sorted((row["m"], row["st"], row["u"]) for row in survivors.toArrow().to_pylist())
    return plan.count("Window ["), rows


def test_few_moves_outside_units_of_work_need_no_window_over_units(spark_runner):
    """Moves that all settled outside units of work are judged with one window (by message), not two."""
    spark = spark_runner.session()
    outside = [
        {"lsn": 1, "t": "PUT", "m": "M1", "u": None},
        {"lsn": 2, "t": "PUT", "m": "M2", "u": None},
        {"lsn": 3, "t": "GET", "m": "M1", "u": None},
    ]
    assert _windows_and_survivors(spark, outside) == (1, [("M2", "C", None)])
    # A put and a get of units in flight need their units' endings looked for: there are none.
    in_flight = [
        *outside,
        {"lsn": 4, "t": "PUT", "m": "M3", "u": "4.1"},
        {"lsn": 5, "t": "GET", "m": "M2", "u": "5.1"},
    ]
    assert _windows_and_survivors(spark, in_flight) == (2, [("M2", "G", "5.1"), ("M3", "P", "4.1")])
    # Ended, their moves count as the endings say: M3's put committed, M2's get backed out.
    ended = [
        *in_flight,
        {"lsn": 6, "t": "CMT", "m": None, "u": "4.1"},
        {"lsn": 7, "t": "BCK", "m": None, "u": "5.1"},
    ]
    assert _windows_and_survivors(spark, ended) == (2, [("M2", "C", None), ("M3", "C", None)])
