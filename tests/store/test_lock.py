"""One process holds a queue manager: the others are told who does, with a failing exit code."""

from __future__ import annotations

import os

import pytest

from mqsh.store.lock import QmgrInUse, QmgrLock
from tests.support import run_mqsh


def test_a_second_holder_is_refused_until_the_first_lets_go(tmp_path):
    first, second = QmgrLock(tmp_path / "qm.lock", "QM1"), QmgrLock(tmp_path / "qm.lock", "QM1")
    first.acquire()
    with pytest.raises(QmgrInUse, match=r"queue manager QM1 is in use by another mqsh process \(pid \d+\)"):
        second.acquire()
    first.release()
    second.acquire()
    second.release()


def test_other_processes_are_refused_while_one_holds_the_queue_manager(session, data_dir):
    """session holds QM1 in this process; mqsh processes started now must not touch it."""
    done = run_mqsh("QM1", stdin="DEFINE QLOCAL(ELSEWHERE)\n", data_dir=data_dir)
    assert done.returncode == 20
    assert "is in use by another mqsh process" in done.stdout + done.stderr
    for command in (
        ["endmqm", "QM1"],
        ["rcdmqimg", "-m", "QM1", "-t", "all", "*"],
        ["rcrmqobj", "-m", "QM1", "-t", "ql", "Q1"],
    ):
        done = run_mqsh(*command, data_dir=data_dir)
        assert done.returncode == 5, command
        assert "is in use by another mqsh process" in done.stdout
    assert "QUEUE/ELSEWHERE" not in session.installation.held["QM1"].state


def test_deleting_qm_lock_by_hand_does_not_let_a_second_holder_in(tmp_path):
    first, second = QmgrLock(tmp_path / "qm.lock", "QM1"), QmgrLock(tmp_path / "qm.lock", "QM1")
    first.acquire()
    (tmp_path / "qm.lock").unlink()
    with pytest.raises(QmgrInUse, match=r"queue manager QM1 is in use by another mqsh process$"):
        second.acquire()
    first.release()
    second.acquire()
    assert (tmp_path / "qm.lock").read_text() == str(os.getpid())
    second.release()
