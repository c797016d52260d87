"""Choosing where replay runs, and replay on Spark from a real queue manager's files."""

from __future__ import annotations

import hashlib
import os
import signal
import threading
import time

import pytest

from mqsh.recovery.engine import ReplayEngine, estimated_records
from mqsh.recovery.spark.session import ReplayCancelled
from mqsh.shell.session import Session
from mqsh.store import columnar, log_writer
from mqsh.store import log as logstore
from tests.recovery.conftest import MASTER
from tests.recovery.helpers import run, started
from tests.recovery.test_restart_damage import (
    crash_with_work_in_flight,
    start_recreates_q1,
)
from tests.support import run_mqsh


def loaded(data_dir, records, pages="16"):
    """A crashed QM1 whose restart replays a LAB LOAD of records, in 64 KB extents."""
    session = Session(data_dir, engine=ReplayEngine("local"))
    # A frozen clock: two loads compared give the same put times.
    session.execute("LAB CLOCK SET('2026-01-05 09:00:00')")
    session.execute(f"crtmqm -ll -lf {pages} QM1")  # linear: every extent of the load stays
    session.execute("strmqm QM1")
    session.current_qmgr = "QM1"
    session.execute("DEFINE QLOCAL(BIG)")
    session.execute("LAB PUT QUEUE(BIG) PERSISTENT SYNCPOINT")
    assert session.execute(f"LAB LOAD QUEUE(BIG) RECORDS({records})").ok
    session.execute("LAB CRASH")
    return session.installation.paths("QM1")


def restarted(data_dir, engine):
    session = Session(data_dir, engine=engine)
    result = session.execute("strmqm QM1")
    return session, result


def test_auto_picks_the_engine_by_the_records_to_replay(data_dir, monkeypatch):
    from mqsh.recovery import engine

    paths = loaded(data_dir, 2000)
    records = sum(1 for _ in logstore.read_records(paths.log_dir))
    assert estimated_records(paths.log_dir, 0) == records  # LSNs are consecutive: the newest tells
    assert estimated_records(paths.log_dir, 0, from_lsn=records - 10) == 10
    assert ReplayEngine("auto").where(paths.log_dir, 0) == "reference"  # short: record by record
    monkeypatch.setattr(engine, "REFERENCE_BELOW", records // 2)
    assert ReplayEngine("auto").where(paths.log_dir, 0) == "local"
    assert ReplayEngine("auto").where(paths.log_dir, 0, from_lsn=records - 10) == "reference"
    assert ReplayEngine("auto", threshold=records).where(paths.log_dir, 0) == "spark"
    assert ReplayEngine("auto", master="local[2]").where(paths.log_dir, 0) == "spark"  # a master named: Spark
    assert ReplayEngine("auto", master="local[*]").where(paths.log_dir, 0) == "local"
    for choice in ("spark", "local", "reference"):
        assert ReplayEngine(choice, threshold=0).where(paths.log_dir, 0) == choice


def test_a_newest_record_too_long_to_read_cheaply_leaves_the_estimate_to_the_sizes(tmp_path):
    writer = log_writer.LogWriter(tmp_path / "active", 1 << 24, 0)
    for number in range(50):
        writer.append({"t": "PUT", "q": "A", "m": f"M{number}", "p": 0, "s": 1, "tm": "t", "u": None})
    writer.append(
        {"t": "IMG", "k": "QUEUE/A", "o": "QLOCAL", "n": "A", "a": {"DESCR": "x" * 100_000}, "ms": []}
    )
    writer.close()
    size = (tmp_path / "active" / "S0000000.LOG").stat().st_size
    assert estimated_records(tmp_path / "active", 0) == size // 120


def test_spark_restart_equals_local_from_copies_and_text(spark_runner, tmp_path):
    paths = loaded(tmp_path / "spark", 3000)
    loaded(tmp_path / "local", 3000)
    copies = sorted((paths.log_root / "columnar").glob("*.parquet"))
    assert len(copies) > 3
    copies[0].write_bytes(b"not parquet")  # a bad copy: that extent is read as text
    spark, spark_result = restarted(tmp_path / "spark", ReplayEngine("spark", MASTER))
    local, local_result = restarted(tmp_path / "local", ReplayEngine("reference"))
    assert spark_result.ok and local_result.ok
    assert spark.render(spark_result) == local.render(local_result)
    ids = [message.msgid for message in local.installation.held["QM1"].state["QUEUE/BIG"].messages]
    assert [message.msgid for message in spark.installation.held["QM1"].state["QUEUE/BIG"].messages] == ids
    assert spark.installation.held["QM1"].state.keys() == local.installation.held["QM1"].state.keys()
    spark.close()
    local.close()


def test_torn_tail_and_damage_on_spark(spark_runner, data_dir):
    paths = loaded(data_dir, 300, pages="4096")
    extent = paths.log_dir / "S0000000.LOG"
    data = extent.read_bytes()
    extent.write_bytes(data + b'0badf00d {"lsn":')  # a record cut short by the crash
    session, result = restarted(data_dir, ReplayEngine("spark", MASTER))
    assert result.ok
    session.installation.crash("QM1")
    damaged = extent.read_bytes().replace(b'"t":"GET"', b'"t":"GOT"', 1)
    extent.write_bytes(damaged)
    session, result = restarted(data_dir, ReplayEngine("spark", MASTER))
    assert not result.ok
    assert "AMQ7082E" in session.render(result)


def test_damaged_sealed_extent_without_copy_on_spark(spark_runner, data_dir):
    paths = loaded(data_dir, 1000)
    sealed = paths.log_dir / "S0000001.LOG"
    columnar.copy_path(sealed).unlink()  # read as text, checked in Spark
    sealed.write_bytes(sealed.read_bytes().replace(b'"t":"PUT"', b'"t":"PAT"', 1))
    session, result = restarted(data_dir, ReplayEngine("spark", MASTER))
    assert not result.ok
    assert "AMQ7082E" in session.render(result)


def test_spark_restart_backs_out_work_on_a_queue_damaged_at_start(spark_runner, data_dir):
    session = started(data_dir, "-ll", engine=ReplayEngine("spark", MASTER))
    crash_with_work_in_flight(session)
    start_recreates_q1(session)
    session.close()


@pytest.mark.parametrize("engine", ["reference", "local", "spark"])
def test_restart_knows_a_unit_open_at_the_checkpoint_ended_since(request, data_dir, engine):
    if engine == "spark":
        request.getfixturevalue("spark_runner")  # skips where Java is missing
    session = started(data_dir, "-ll", engine=ReplayEngine(engine, MASTER))
    lines = run(
        session,
        "DEFINE QLOCAL(Q1) DEFPSIST(YES)",
        "LAB PUT QUEUE(Q1) COUNT(2) SYNCPOINT",
        "RCDMQMIMG OBJ(*ALL) OBJTYPE(*ALL) MQMNAME(QM1) DSPJRNDTA(*YES)",  # checkpoints, the unit open
        "LAB COMMIT",
        "LAB CRASH",
        "strmqm QM1",
    )
    assert not any("backed out" in line for line in lines)
    assert run(session, "DISPLAY QSTATUS(Q1) CURDEPTH")[-1].strip() == "CURDEPTH(2)"
    session.close()


def digest(directory):
    return {
        path: hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(directory.rglob("*"))
        if path.is_file() and path.name != "qm.lock"
    }


def test_cancel_leaves_everything_as_it_was(spark_runner, data_dir, monkeypatch):
    paths = loaded(data_dir, 6000)
    before = digest(data_dir)
    run = spark_runner.run

    def cancelled_as_the_first_job_runs(action):
        def then_cancel():
            spark_runner.cancel()  # Ctrl-C while the job runs (interrupting it is tested below)
            return action()

        return run(then_cancel)

    monkeypatch.setattr(spark_runner, "run", cancelled_as_the_first_job_runs)
    session = Session(data_dir, engine=ReplayEngine("spark", MASTER))
    with pytest.raises(ReplayCancelled):
        session.installation.start("QM1")
    monkeypatch.undo()
    assert "QM1" not in session.installation.held
    assert digest(data_dir) == before
    assert session.execute("strmqm QM1").ok  # and nothing stands in the way of the next start
    assert paths.qmgr_dir.exists()
    session.close()


def test_cancel_interrupts_the_running_job(spark_runner):
    from pyspark.sql import functions as F

    endless = spark_runner.session().range(10**12).select(F.sum(F.col("id") % 7))  # hours of work
    threading.Timer(2, spark_runner.cancel).start()
    started = time.monotonic()
    with spark_runner.cancellable(), pytest.raises(ReplayCancelled):
        spark_runner.run(endless.toArrow)
    assert time.monotonic() - started < 60


def test_ctrl_c_while_spark_works_cancels_the_work_and_reports_it_once(
    spark_runner, python_interrupt_handler
):
    from pyspark.sql import functions as F

    endless = spark_runner.session().range(10**12).select(F.sum(F.col("id") % 7))  # hours of work
    threading.Timer(2, os.kill, (os.getpid(), signal.SIGINT)).start()
    started = time.monotonic()
    with pytest.raises(ReplayCancelled, match="interrupted"):
        spark_runner.call(lambda: spark_runner.run(endless.toArrow))
    assert time.monotonic() - started < 60
    assert spark_runner.call(lambda: spark_runner.run(spark_runner.session().range(3).toArrow)).num_rows == 3


def test_unreachable_spark_is_one_line(data_dir):
    loaded(data_dir, 50)
    session, result = restarted(data_dir, ReplayEngine("spark", "sc://127.0.0.1:1"))
    text = session.render(result)
    assert not result.ok
    assert text.startswith("mqsh: ") and "\n" not in text and "Traceback" not in text
    assert "no Spark Connect server answers there" in text
    session.close()
    # The process ends too: no client left behind to retry the server as it exits.
    done = run_mqsh(
        "--engine",
        "spark",
        "--spark-master",
        "sc://127.0.0.1:1",
        "strmqm",
        "QM1",
        data_dir=data_dir,
        timeout=120,
    )
    assert done.returncode == 71 and "no Spark Connect server answers there" in done.stdout


@pytest.mark.parametrize("master", ["spark://127.0.0.1:1", "spark://127.0.0.1:1,127.0.0.1:2"])
def test_an_unreachable_standalone_master_is_said_at_once(data_dir, master):
    """Not after the minute the client spends retrying, as a stopped SparkContext that says nothing of why."""
    loaded(data_dir, 50)
    started = time.monotonic()
    session, result = restarted(data_dir, ReplayEngine("spark", master))
    text = session.render(result)
    assert not result.ok and time.monotonic() - started < 30
    assert text.startswith(f"mqsh: cannot start Spark at {master}: no Spark master answers there (")
    session.close()


def test_a_failure_while_the_replay_is_planned_is_one_line(spark_runner, data_dir, monkeypatch):
    from pyspark.errors import PySparkValueError

    from mqsh.recovery.replay import spark as spark_replay

    def refused(_spark, _table):
        raise PySparkValueError("[CANNOT_INFER_EMPTY_SCHEMA] Can not infer schema from an empty dataset.")

    loaded(data_dir, 50)
    monkeypatch.setattr(spark_replay, "table_frame", refused)
    session, result = restarted(data_dir, ReplayEngine("spark", MASTER))
    assert not result.ok
    assert session.render(result) == (
        "mqsh: Spark replay failed: [CANNOT_INFER_EMPTY_SCHEMA] Can not infer schema from an empty dataset."
    )
    monkeypatch.undo()
    session, result = restarted(data_dir, ReplayEngine("spark", MASTER))  # nothing was changed by the failure
    assert result.ok
    session.close()


def test_spark_keeps_its_logs_out_of_the_report(spark_runner, data_dir):
    paths = loaded(data_dir, 500)
    paths.status_file.write_text("RUNNING")  # as a killed process leaves it: the next connect recovers
    result = run_mqsh(
        "--engine",
        "spark",
        "--spark-master",
        "local[1]",
        "QM1",
        stdin="DISPLAY QLOCAL(BIG) CURDEPTH\n",
        data_dir=data_dir,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr
    assert "CURDEPTH(" in result.stdout
    for text in (result.stdout, result.stderr):
        assert "WARN" not in text and "log4j" not in text and "Spark" not in text
    assert result.stderr.splitlines() == [
        "AMQ7229I: 502 log records accessed on queue manager 'QM1' during the log replay phase.",
        "AMQ7230I: Log replay for queue manager 'QM1' complete.",
        "AMQ7231I: 1 log records accessed on queue manager 'QM1' during the recovery phase.",
        "AMQ7232I: Transaction manager state recovered for queue manager 'QM1'.",
        "AMQ7233I: 1 out of 1 in-flight transactions resolved for queue manager 'QM1'.",
        "AMQ7234I: Queue BIG on queue manager 'QM1': 9 messages: 0 from the queue file, 9 replayed from the log "
        "(S0000000.LOG-S0000001.LOG); 1 in-flight unit of work backed out.",
    ]
