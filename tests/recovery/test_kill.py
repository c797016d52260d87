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

    child = subprocess.Popen([sys.executable, "-c", CHILD, str(data_dir)], stdout=subprocess.PIPE, text=True,
                             cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
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
