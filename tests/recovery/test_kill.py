"""kill -9 of a real mqsh process in the middle of a workload loses nothing committed.

The child puts persistent messages one at a time, outside syncpoint, and
prints each message number once the put returned; it also keeps a unit of
work open. The parent kills it with SIGKILL at a random moment and restarts
the queue manager in a new process: every acknowledged message must be
there, nothing uncommitted may be visible.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

import pytest

from mqsh.shell.session import Session

pytestmark = pytest.mark.slow

CHILD = r"""
import sys
from mqsh.shell.session import Session

session = Session(__import__("pathlib").Path(sys.argv[1]), "QM1")
qmgr = session.installation.connect("QM1")
qmgr.put("INFLIGHT.Q", persistent=True, syncpoint=True)
print("ready", flush=True)
n = 0
while True:
    qmgr.put("WORK.Q", persistent=True)
    n += 1
    print(n, flush=True)
"""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sigkill_mid_workload(data_dir, seed):
    setup = Session(data_dir)
    setup.execute("crtmqm QM1")
    setup.execute("strmqm QM1")
    setup.current_qmgr = "QM1"
    setup.execute("DEFINE QLOCAL(WORK.Q) MAXDEPTH(999999999)")
    setup.execute("DEFINE QLOCAL(INFLIGHT.Q)")
    setup.close()

    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(data_dir)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))),
    )
    assert child.stdout.readline().strip() == "ready"
    time.sleep(random.Random(seed).uniform(0.2, 1.2))
    os.kill(child.pid, signal.SIGKILL)
    acknowledged = [int(line) for line in child.stdout.read().split() if line.isdigit()]
    child.wait()
    assert acknowledged, "the child never got going"

    after = Session(data_dir, "QM1")
    try:
        qmgr = after.installation.connect("QM1")
        assert after.installation.last_start.unclean
        work = qmgr.depth(qmgr.lookup("QUEUE", "WORK.Q"))
        # Every put that returned is there; at most the one being written when killed is extra.
        assert acknowledged[-1] <= work <= acknowledged[-1] + 1
        assert qmgr.depth(qmgr.lookup("QUEUE", "INFLIGHT.Q")) == 0
    finally:
        after.close()


def test_a_killed_holder_shows_ended_unexpectedly_and_strmqm_recovers_it(data_dir):
    """dspmq tells a dead holder by its lock and its log, not by the status file it left saying
    Running; strmqm then replays the log with MQ's recovery messages."""
    from tests.support import REPO, run_mqsh

    assert run_mqsh("crtmqm", "QK", data_dir=data_dir).returncode == 0
    assert run_mqsh("strmqm", "QK", data_dir=data_dir).returncode == 0
    assert run_mqsh("QK", stdin="DEFINE QLOCAL(Q1)\n", data_dir=data_dir).returncode == 0
    child = subprocess.Popen(
        [sys.executable, "-m", "mqsh", "QK"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env=dict(os.environ, MQSH_DATA_DIR=str(data_dir)),
    )
    child.stdin.write(
        "LAB PUT QUEUE(Q1) COUNT(7) PERSISTENT\nLAB PUT QUEUE(Q1) COUNT(1) PERSISTENT SYNCPOINT\n* ack\n"
    )
    child.stdin.flush()
    for line in child.stdout:
        if "* ack" in line:
            break
    assert run_mqsh("dspmq", data_dir=data_dir).stdout.split() == ["QMNAME(QK)", "STATUS(Running)"]
    os.kill(child.pid, signal.SIGKILL)
    child.wait()

    assert run_mqsh("dspmq", data_dir=data_dir).stdout.split() == [
        "QMNAME(QK)",
        "STATUS(Ended",
        "unexpectedly)",
    ]
    ended = run_mqsh("endmqm", "QK", data_dir=data_dir)
    assert ended.returncode == 40 and "AMQ8146E" in ended.stdout + ended.stderr  # not running: nothing to end
    started = run_mqsh("strmqm", "QK", data_dir=data_dir)
    assert started.returncode == 0, started.stdout + started.stderr
    assert "1 log records accessed on queue manager 'QK' during the recovery phase." in started.stdout
    assert "IBM MQ queue manager 'QK' started." in started.stdout
    errors = (data_dir / "qmgrs" / "QK" / "errors" / "AMQERR01.LOG").read_text()
    for msgid in ("AMQ7229I", "AMQ7230I", "AMQ7231I", "AMQ7232I", "AMQ7233I"):
        assert msgid in errors
    shown = run_mqsh("QK", stdin="DISPLAY QSTATUS(Q1) CURDEPTH UNCOM\n", data_dir=data_dir).stdout
    assert "CURDEPTH(7)" in shown and "UNCOM(NO)" in shown
    assert run_mqsh("dspmq", data_dir=data_dir).stdout.split() == ["QMNAME(QK)", "STATUS(Running)"]


def test_a_lost_log_directory_refuses_the_start_and_is_not_replaced_by_an_empty_log(data_dir):
    import shutil

    session = Session(data_dir)
    assert session.execute("crtmqm -ll QL").ok and session.execute("strmqm QL").ok
    session.current_qmgr = "QL"
    assert session.execute("DEFINE QLOCAL(Q1)").ok
    assert session.execute("LAB PUT QUEUE(Q1) COUNT(3) PERSISTENT").ok
    session.execute("LAB CRASH")
    log_root = session.installation.paths("QL").log_root
    shutil.rmtree(log_root)
    result = session.execute("strmqm QL")
    assert not result.ok and result.code == 23
    assert "AMQ6767E" in session.render(result) and "its log is lost" in session.render(result)
    assert not log_root.exists()  # nothing made up in its place
    assert session.installation.status("QL") == "ENDED_UNEXPECTEDLY"
    session.close()
