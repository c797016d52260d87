"""kill -9 of a real mqsh process while its channel moves batches loses or doubles nothing.

The child runs QM1 and, through its channel, QM2: it puts persistent messages through a remote
queue definition in a loop, each command answered only after the channel had its turn, and
prints what was acknowledged. The parent kills it at a random moment, then a new process
starts both queue managers again (restart recovery on each) and the channel once more: every
acknowledged message is on the target queue exactly once; the one put in doubt may be there
or not.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mqsh.shell.session import Session
from tests.model.network.conftest import LINKED, run

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow

CHILD = r"""
import random, sys
from pathlib import Path
from mqsh.shell.session import Session

session = Session(Path(sys.argv[1]), "QM1")
assert session.execute("START CHANNEL(QM1.TO.QM2)").ok
pick = random.Random(int(sys.argv[2]))
print("ready", flush=True)
while True:
    count = pick.randint(1, 15)
    print("doing", count, flush=True)
    assert session.execute(f"LAB PUT QUEUE(APP.OUT) COUNT({count}) PERSISTENT").ok
    print("put", count, flush=True)
"""


def _linked_pair(data_dir: Path) -> None:
    session = Session(data_dir)
    run(session, "crtmqm QM1", "crtmqm QM2", "strmqm QM1", "strmqm QM2")
    for qmgr, commands in LINKED.items():
        run(session, f"LAB USE QMGR({qmgr})", *commands)
    session.close()  # both stay recorded as running, for the child to take over


@pytest.mark.parametrize("seed", range(6))
def test_a_killed_channel_process_loses_or_doubles_nothing(data_dir, seed):
    _linked_pair(data_dir)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(data_dir), str(seed)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=REPO,
    )
    assert child.stdout.readline().strip() == "ready"
    time.sleep(random.Random(seed).uniform(0.2, 1.5))
    child.send_signal(signal.SIGKILL)
    lines = child.stdout.read().split("\n")
    child.wait()
    acknowledged = sum(int(line.split()[1]) for line in lines if line.startswith("put "))
    doubt = lines[-2] if len(lines) > 1 else ""
    in_doubt = int(doubt.split()[1]) if doubt.startswith("doing ") else 0
    assert acknowledged, "the child was killed before any put: give it longer"

    session = Session(data_dir, "QM1")
    run(session, "START CHANNEL(QM1.TO.QM2)", "DISPLAY QMGR QMNAME")
    qm2 = session.installation.connect("QM2")
    arrived = [message.msgid for message in qm2.lookup("QUEUE", "APP.IN").messages]
    assert len(arrived) == len(set(arrived)), "a message arrived twice"
    assert acknowledged <= len(arrived) <= acknowledged + in_doubt
    qm1 = session.installation.connect("QM1")
    assert qm1.depth(qm1.lookup("QUEUE", "QM2")) == 0
    session.close()
