"""Replay on a Spark Connect server: mqsh --spark-master sc://... gives what a replay in process gives.

PySpark allows no Spark Connect client in a process that runs a local
session, as these tests' process does, so mqsh runs as a child process here.
"""

from __future__ import annotations

import shutil

from mqsh.recovery.spark import log_frame as spark_log
from mqsh.store.datadir import QmgrPaths
from mqsh.store.files import read_document
from tests.recovery.helpers import run, started
from tests.recovery.test_engine import loaded
from tests.recovery.test_restart_damage import crash_with_work_in_flight
from tests.support import run_mqsh

CHECK = "DISPLAY QSTATUS(*) CURDEPTH\n"


def queue_files(data_dir) -> dict[str, object]:
    """Each queue file, as the restart left it."""
    folder = QmgrPaths(data_dir, "QM1").object_file("QUEUE", "ANY").parent
    return {path.name: read_document(path) for path in sorted(folder.iterdir())}


def restart_both_ways(connect_master, tmp_path, make_crashed_qmgr):
    """The same crashed queue manager restarted on the Connect server and in process, to the same end.

    What then shows the restarted queues (DISPLAY QSTATUS) is returned.
    """
    make_crashed_qmgr(tmp_path / "connect")
    shutil.copytree(tmp_path / "connect", tmp_path / "local")
    on_connect = run_mqsh(
        "--engine",
        "spark",
        "--spark-master",
        connect_master,
        "strmqm",
        "QM1",
        data_dir=tmp_path / "connect",
        timeout=300,
    )
    in_process = run_mqsh("--engine", "local", "strmqm", "QM1", data_dir=tmp_path / "local", timeout=300)
    assert on_connect.returncode == 0, on_connect.stderr
    assert in_process.returncode == 0, in_process.stderr
    assert (on_connect.stdout, on_connect.stderr) == (in_process.stdout, in_process.stderr)
    assert "log records accessed" in on_connect.stdout
    assert queue_files(tmp_path / "connect") == queue_files(tmp_path / "local")
    return run_mqsh("QM1", stdin=CHECK, data_dir=tmp_path / "connect").stdout


def test_few_settled_moves_replayed_over_connect(connect_master, tmp_path):
    """Few moves: read in process and sent to the server as one table."""
    assert "CURDEPTH(" in restart_both_ways(connect_master, tmp_path, lambda data_dir: loaded(data_dir, 3000))


def test_many_moves_replayed_over_connect(connect_master, tmp_path):
    """More moves than are few: the server reads the extents' moves files and spreads the work."""

    def crashed(data_dir):
        session = started(data_dir, "-ll", extra="-lf 16")
        run(
            session,
            "LAB CLOCK SET('2026-01-05 09:00:00')",
            "DEFINE QLOCAL(DEEP) DEFPSIST(YES) MAXDEPTH(20000)",
            f"LAB PUT QUEUE(DEEP) COUNT({spark_log.FEW_MOVES + 500})",
            "LAB GET QUEUE(DEEP) COUNT(100)",
            "LAB PUT QUEUE(DEEP) COUNT(3) SYNCPOINT",
            "LAB CRASH",
        )
        session.close()

    assert f"CURDEPTH({spark_log.FEW_MOVES + 400})" in restart_both_ways(connect_master, tmp_path, crashed)


def test_a_damaged_queue_is_recreated_over_connect(connect_master, data_dir):
    session = started(data_dir, "-ll")
    crash_with_work_in_flight(session)
    session.close()
    started_over = run_mqsh(
        "--engine", "spark", "--spark-master", connect_master, "strmqm", "QM1", data_dir=data_dir, timeout=300
    )
    assert started_over.returncode == 0, started_over.stderr
    assert (
        "Object Q1, type qlocal was damaged and has been recreated from its media image."
        in started_over.stdout
    )
    assert "CURDEPTH(5)" in run_mqsh("QM1", stdin="DISPLAY QSTATUS(Q1) CURDEPTH\n", data_dir=data_dir).stdout
