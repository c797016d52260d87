"""kill -9 of a member's process in the middle of RECOVER or BACKUP CFSTRUCT does not leave the structure
claimed for good.

The child, a real mqsh session on QM2, runs the command and stops part-way
(where it says so); the parent sees the claim honoured while the child
lives, kills it with SIGKILL, and then finds the structure free: a recovery
killed part-way leaves the data set it was rewriting FAILED, marked as
partly recovered, and the recovery can be repeated.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from mqsh.model.qsg import claims
from mqsh.model.qsg.datasets import DataSet, data_set_name, data_set_path
from mqsh.shell.session import Session
from tests.commands.conftest import run
from tests.support import REPO

pytestmark = pytest.mark.slow

STRUCTURE = (
    "DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES) OFFLOAD(SMDS) DSGROUP('MQ.QSGA.*.APP1') "
    "OFFLD1SZ(0K) OFFLD1TH(0)"
)
# The child stops in the function named, once the command is under way, and waits to be killed.
CHILD = r"""
import sys, time
from pathlib import Path
from mqsh.model.qsg import structure_backup, structure_recovery
from mqsh.shell.session import Session

module = {"RECOVER": structure_recovery, "BACKUP": structure_backup}[sys.argv[2]]
function = sys.argv[3]
def stop(*args, **kwargs):
    print("stopped", flush=True)
    time.sleep(600)
setattr(module, function, stop)
session = Session(Path(sys.argv[1]), "QM2")
session.execute(sys.argv[4])
"""


def _group(data_dir: Path) -> None:
    session = Session(data_dir)
    for command in (
        "crtmqm QM1",
        "crtmqm QM2",
        "csq5pqsg ADD QSG QSGA",
        "csq5pqsg ADD QMGR QM1 QSGA",
        "csq5pqsg ADD QMGR QM2 QSGA",
        "strmqm QM1",
        "strmqm QM2",
        "LAB USE QMGR(QM1)",
        STRUCTURE,
        "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)",
        "LAB PUT QUEUE(SQ1) COUNT(3)",
        "LAB CLOCK ADVANCE(1M)",
    ):
        assert session.execute(command).ok, command
    session.close()


def _stopped_child(data_dir: Path, kind: str, function: str, command: str) -> subprocess.Popen:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(data_dir), kind, function, command],
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    assert child.stdout.readline().strip() == "stopped"
    return child


def _kill(child: subprocess.Popen) -> None:
    os.kill(child.pid, signal.SIGKILL)
    child.wait()


def _field(lines: list[str], keyword: str) -> str:
    return next(line for line in lines if line.startswith(f"{keyword}(")).split("(", 1)[1].rstrip(")")


@pytest.fixture
def failed_data_set(data_dir):
    _group(data_dir)
    session = Session(data_dir)
    session.current_qmgr = "QM1"
    assert session.execute("RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)").ok
    session.close()
    return data_dir


def test_a_recovery_killed_part_way_leaves_the_data_set_failed_and_partly_recovered(failed_data_set):
    data_dir = failed_data_set
    child = _stopped_child(data_dir, "RECOVER", "_rewrite", "RECOVER CFSTRUCT(APP1)")
    session = Session(data_dir)
    session.current_qmgr = "QM1"
    try:
        # The child still runs its recovery: the structure is in use.
        assert _field(run(session, "DISPLAY CFSTATUS(APP1) TYPE(SUMMARY)"), "STATUS") == "INRECOVER"
        for command in ("RECOVER CFSTRUCT(APP1)", "RESET CFSTRUCT(APP1) ACTION(FAIL)"):
            assert "structure in use" in run(session, command)[1], command
    finally:
        _kill(child)
    assert _field(run(session, "DISPLAY CFSTATUS(APP1) TYPE(SUMMARY)"), "STATUS") == "FAILED"
    assert _field(run(session, "DISPLAY CFSTATUS(APP1) TYPE(SMDS) SMDS(QM1)"), "STATUS") == "FAILED"
    path = data_set_path(data_dir, "QSGA", data_set_name("MQ.QSGA.*.APP1", "QM1"))
    data_set = DataSet(path, owner_side=False)
    data_set.close()
    assert data_set.header.partial
    # The recovery repeated, on QM2 restarted after its process died, brings every message back.
    session.current_qmgr = "QM2"
    assert session.execute("RECOVER CFSTRUCT(APP1)").ok
    session.current_qmgr = "QM1"
    assert session.execute("LAB GET QUEUE(SQ1) COUNT(3)").ok
    session.close()


def test_a_structure_still_shown_inrecover_after_its_recovery_died_can_be_failed_and_purged(
    failed_data_set, monkeypatch
):
    """z/OS's way out of a structure left INRECOVER (APAR PI38522), taken before any member's look before
    its command has released the dead claim."""
    data_dir = failed_data_set
    _kill(_stopped_child(data_dir, "RECOVER", "_rewrite", "RECOVER CFSTRUCT(APP1)"))
    monkeypatch.setattr(claims, "release_dead_claims", lambda _repository, _now: [])
    session = Session(data_dir)
    session.current_qmgr = "QM1"
    assert _field(run(session, "DISPLAY CFSTATUS(APP1) TYPE(SUMMARY)"), "STATUS") == "INRECOVER"
    assert session.execute("RESET CFSTRUCT(APP1) ACTION(FAIL)").ok
    assert _field(run(session, "DISPLAY CFSTATUS(APP1) TYPE(SUMMARY)"), "STATUS") == "FAILED"
    assert _field(run(session, "DISPLAY CFSTATUS(APP1) TYPE(SMDS) SMDS(QM1)"), "STATUS") == "FAILED"
    assert session.execute("RECOVER CFSTRUCT(APP1) TYPE(PURGE)").ok
    assert _field(run(session, "DISPLAY CFSTATUS(APP1) TYPE(SMDS) SMDS(QM1)"), "STATUS") == "EMPTY"
    session.close()


def test_a_backup_killed_part_way_leaves_the_structure_free(data_dir):
    _group(data_dir)
    _kill(_stopped_child(data_dir, "BACKUP", "_write_backup", "BACKUP CFSTRUCT(APP1)"))
    session = Session(data_dir)
    session.current_qmgr = "QM1"
    assert _field(run(session, "DISPLAY CFSTATUS(APP1) TYPE(SUMMARY)"), "STATUS") == "ACTIVE"
    lines = run(session, "BACKUP CFSTRUCT(APP1)")
    assert lines[-1].endswith("NORMAL COMPLETION"), lines
    session.close()
