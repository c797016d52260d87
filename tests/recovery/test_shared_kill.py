"""kill -9 of a real group member in the middle of shared-queue work loses nothing committed.

The child, member QM2, puts and gets persistent messages on a shared queue -
some offloaded to its shared message data set, some in units of work that
it commits or backs out - and prints each operation once it returned. The
parent kills it with SIGKILL at a random moment. Then, in order, each must
show exactly the committed messages the child's acknowledgements say (the
one operation in doubt may have happened or not):

- QM1, by peer recovery of QM2's work in the structure, at once;
- QM2 restarted, which must find nothing left to do there;
- RECOVER CFSTRUCT after a structure failure, from the members' logs alone.
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

from mqsh.model.qsg.list_structure import Structure, structure_path
from mqsh.shell.session import Session

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow

CHILD = r"""
import random, sys
from pathlib import Path
from mqsh.core.reasons import MQError
from mqsh.shell.session import Session

session = Session(Path(sys.argv[1]), "QM2")
qmgr = session.installation.connect("QM2")
pick = random.Random(int(sys.argv[2]))
print("ready", flush=True)
while True:
    roll, syncpoint = pick.random(), pick.random() < 0.4
    if roll < 0.5:
        size = 70_000 if pick.random() < 0.3 else 200  # over 63 KB: offloaded to QM2's data set
        print("doing put", int(syncpoint), flush=True)
        print("put", qmgr.put("SQ1", persistent=True, size=size, syncpoint=syncpoint), int(syncpoint), flush=True)
    elif roll < 0.85:
        print("doing get", int(syncpoint), flush=True)
        try:
            print("get", qmgr.get("SQ1", syncpoint=syncpoint).msgid, int(syncpoint), flush=True)
        except MQError:
            print("empty", flush=True)
    else:
        ending = "commit" if pick.random() < 0.7 else "backout"
        print("doing", ending, flush=True)
        getattr(qmgr, ending)()
        print(ending, flush=True)
"""


def _oracle(lines: list[str]) -> tuple[set[str], tuple[str, ...] | None, set[str], set[str]]:
    """(committed messages, the operation in doubt, the unit's puts, the unit's gets) from the child's lines."""
    committed: set[str] = set()
    puts: set[str] = set()
    gets: set[str] = set()
    doubt = None
    for line in lines:
        word, *rest = line.split()
        if word == "doing":
            doubt = tuple(rest)
            continue
        doubt = None
        if word == "put":
            (puts if rest[1] == "1" else committed).add(rest[0])
        elif word == "get":
            (gets.add if rest[1] == "1" else committed.remove)(rest[0])
        elif word == "commit":
            committed = (committed | puts) - gets
            puts, gets = set(), set()
        elif word == "backout":
            puts, gets = set(), set()
    return committed, doubt, puts, gets


def _possible(committed: set[str], doubt, puts: set[str], gets: set[str], shown: set[str]) -> bool:
    """Whether shown is an outcome the acknowledgements allow."""
    if shown == committed:
        return True
    if doubt == ("put", "0"):  # forced to the log and so done, its acknowledgement not seen
        return len(shown - committed) == 1 and committed <= shown
    if doubt == ("get", "0"):
        return len(committed - shown) == 1 and shown <= committed
    if doubt == ("commit",):
        return shown == (committed | puts) - gets
    return False


def _committed(data_dir: Path) -> set[str]:
    with Structure(structure_path(data_dir, "QSGA", "APP1"), "QSGA", "APP1") as structure:
        entries = [entry for entry in structure.entries() if entry.sq == "SQ1"]
    assert {entry.state for entry in entries} <= {"C"}, (
        "a unit of the failed member is still in the structure"
    )
    return {entry.e for entry in entries}


@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_a_killed_member_loses_no_committed_shared_message(data_dir, seed):
    setup = Session(data_dir)
    for command in (
        "crtmqm QM1",
        "crtmqm QM2",
        "csq5pqsg ADD QSG QSGA",
        "csq5pqsg ADD QMGR QM1 QSGA",
        "csq5pqsg ADD QMGR QM2 QSGA",
        "strmqm QM1",
        "strmqm QM2",
        "LAB USE QMGR(QM1)",
        "DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES) OFFLOAD(SMDS) DSGROUP('MQ.QSGA.*.APP1')",
        "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(999999999)",
    ):
        assert setup.execute(command).ok, command
    setup.close()
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(data_dir), str(seed)], stdout=subprocess.PIPE, text=True, cwd=REPO
    )
    assert child.stdout.readline().strip() == "ready"
    time.sleep(random.Random(seed).uniform(0.3, 1.5))
    os.kill(child.pid, signal.SIGKILL)
    # The last piece is empty after a whole line, or a line the kill cut short: not an acknowledgement.
    lines = child.stdout.read().split("\n")[:-1]
    child.wait()
    committed, doubt, puts, gets = _oracle(lines)
    assert len(lines) > 20, "the child never got going"

    peer = Session(data_dir, "QM1")
    try:
        assert peer.execute("DISPLAY QLOCAL(SQ1) QSGDISP(SHARED) CURDEPTH").ok  # peer recovery runs first
        shown = _committed(data_dir)
        assert _possible(committed, doubt, puts, gets, shown), (doubt, len(committed), len(shown))
        assert peer.execute("strmqm QM2").ok
        assert _committed(data_dir) == shown
        assert peer.execute("LAB FAIL CFSTRUCT(APP1)").ok
        assert peer.execute("RECOVER CFSTRUCT(APP1)").ok
        assert _committed(data_dir) == shown
        peer.current_qmgr = "QM2"
        for _ in shown:  # every message's data is readable, its offloaded blocks included
            assert peer.execute("LAB GET QUEUE(SQ1)").ok
    finally:
        peer.close()
