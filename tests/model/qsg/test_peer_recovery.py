"""Peer recovery: a failed member's shared work is recovered by another member at once."""

from __future__ import annotations

import pytest

from mqsh.model.qsg.list_structure import Structure, structure_path
from mqsh.model.qsg.peer_recovery import connection_name
from mqsh.model.qsg.repository import SharedRepository
from tests.commands.conftest import run
from tests.model.qsg.test_shared_messages import _entries


@pytest.fixture
def sq(group):
    for command in (
        "DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES)",
        "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)",
        "LAB PUT QUEUE(SQ1) COUNT(3)",
    ):
        assert group.execute(command).ok, command
    return group


def _depth(session) -> int:
    line = next(
        line for line in run(session, "DISPLAY QLOCAL(SQ1) QSGDISP(SHARED) CURDEPTH") if "CURDEPTH(" in line
    )
    return int(line.split("CURDEPTH(")[1].split(")")[0])


def _connection(session, member: str) -> dict[str, str]:
    """The TYPE(CONNECT) record of member, keyword -> value."""
    lines = run(session, "DISPLAY CFSTATUS(APP1) TYPE(CONNECT)")
    at = lines.index(f"QMNAME({member})")
    fields = {}
    for line in lines[at:]:
        if line.startswith("END CFSTATUS"):
            return fields
        keyword, value = line.split("(", 1)
        fields[keyword] = value.rstrip(")")
    raise AssertionError(lines)


def test_a_failed_members_units_are_backed_out_by_a_peer_at_its_next_command(sq, data_dir):
    sq.current_qmgr = "QM2"
    assert sq.execute("LAB GET QUEUE(SQ1) COUNT(2) SYNCPOINT").ok
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(5) SYNCPOINT").ok
    assert _connection(sq, "QM2")["STATUS"] == "ACTIVE"
    assert sq.execute("LAB CRASH").ok
    sq.current_qmgr = "QM1"
    assert _depth(sq) == 3  # the two got are back, the five put are gone: nothing waits for QM2's restart
    failed = _connection(sq, "QM2")
    assert (failed["STATUS"], failed["FAILDATE"] != " ") == ("FAILED", True)
    assert _connection(sq, "QM1")["STATUS"] == "ACTIVE"
    logged = [line.split(":")[0] for line in run(sq, "LAB ERRLOG")]
    assert logged == ["CSQE008I", "CSQE011I", "CSQE013I", "CSQE012I", "CSQE014I"]
    assert sq.execute("LAB GET QUEUE(SQ1) COUNT(3)").ok
    # QM2's restart finds nothing left to do in the structure, and brings back nothing.
    assert sq.execute("strmqm QM2").ok
    sq.current_qmgr = "QM2"
    assert _depth(sq) == 0
    assert _connection(sq, "QM2") == {**_connection(sq, "QM2"), "STATUS": "ACTIVE", "FAILDATE": " "}


def test_work_the_failed_member_logged_but_did_not_make_is_completed_by_the_peer(sq, data_dir, monkeypatch):
    """Phase 1: QM2 forced its commit and died before the structure took it: the commit stands."""
    sq.current_qmgr = "QM2"
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(2) SYNCPOINT").ok
    assert sq.execute("LAB GET QUEUE(SQ1) SYNCPOINT").ok

    def die(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(Structure, "end_unit", staticmethod(die))
    with pytest.raises(KeyboardInterrupt):
        sq.installation.connect("QM2").commit()
    monkeypatch.undo()
    assert sq.execute("LAB CRASH").ok
    sq.current_qmgr = "QM1"
    assert _depth(sq) == 4  # 3 - 1 got + 2 put, all committed
    assert {entry.state for entry in _entries(data_dir)} == {"C"}


def test_a_member_running_elsewhere_is_not_recovered(sq, data_dir):
    """A member another process runs holds its lock: its connection is not failed, whatever its status file says."""
    from mqsh.store.lock import QmgrLock

    sq.current_qmgr = "QM2"
    assert sq.execute("LAB GET QUEUE(SQ1) SYNCPOINT").ok
    assert sq.execute("LAB CRASH").ok
    other = QmgrLock(sq.installation.paths("QM2").lock_file, "QM2")
    other.acquire()  # as a process restarting QM2 would
    try:
        sq.current_qmgr = "QM1"
        assert _depth(sq) == 2 and _connection(sq, "QM2")["STATUS"] == "ACTIVE"
    finally:
        other.release()
    assert _depth(sq) == 3


def test_a_member_that_ended_normally_disconnected_and_is_not_recovered(sq, data_dir):
    sq.current_qmgr = "QM2"
    assert sq.execute("LAB PUT QUEUE(SQ1)").ok
    assert sq.execute("endmqm QM2").ok
    sq.current_qmgr = "QM1"
    assert run(sq, "LAB ERRLOG") == ["No new messages in the error log of QM1."]
    with SharedRepository(data_dir, "QSGA") as repository:
        assert [member for member, *_ in repository.connections("APP1")] == ["QM1"]


def test_a_log_that_cannot_be_read_leaves_the_work_to_the_members_restart(sq, data_dir):
    sq.current_qmgr = "QM2"
    assert sq.execute("LAB GET QUEUE(SQ1) SYNCPOINT").ok
    assert sq.execute("LAB CRASH").ok
    for extent in (data_dir / "log" / "QM2" / "active").glob("S*.LOG"):
        extent.write_bytes(b"garbage\n" + extent.read_bytes())
    sq.current_qmgr = "QM1"
    assert _depth(sq) == 2  # still held by QM2's unit
    assert [line.split(":")[0] for line in run(sq, "LAB ERRLOG")] == ["CSQE008I", "CSQE011I", "CSQE015I"]
    with Structure(structure_path(data_dir, "QSGA", "APP1"), "QSGA", "APP1") as structure:
        assert {entry.state for entry in structure.entries()} == {"C", "G"}


def test_the_connection_name():
    assert connection_name("QSGA", "QM2", 2) == "CSQEQSGAQM2@02"


CHILD = r"""
import sys
from pathlib import Path
from mqsh.shell.session import Session
session = Session(Path(sys.argv[1]), "QM2")
qmgr = session.installation.connect("QM2")
qmgr.get("SQ1", syncpoint=True)
print("ready", flush=True)
n = 0
while True:
    qmgr.put("SQ1", persistent=True)
    n += 1
    print(n, flush=True)
"""


@pytest.mark.parametrize("seed", [1, 2])
def test_a_killed_member_is_recovered_by_its_peer_and_every_acknowledged_put_is_there(data_dir, seed):
    import os
    import random
    import signal
    import subprocess
    import sys
    import time

    from mqsh.shell.session import Session

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
        "DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES)",
        "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES) MAXDEPTH(999999999)",
        "LAB PUT QUEUE(SQ1) COUNT(3)",
    ):
        assert setup.execute(command).ok, command
    setup.close()
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(data_dir)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__)))),
    )
    assert child.stdout.readline().strip() == "ready"
    time.sleep(random.Random(seed).uniform(0.2, 0.8))
    os.kill(child.pid, signal.SIGKILL)
    acknowledged = [int(line) for line in child.stdout.read().split() if line.isdigit()]
    child.wait()
    assert acknowledged, "the child never got going"
    peer = Session(data_dir, "QM1")
    try:
        depth = _depth(peer)
        # The get in flight is backed out; every acknowledged put is there (the last one may have been
        # forced to the log, and so stands, without its acknowledgement being seen).
        assert 3 + len(acknowledged) <= depth <= 4 + len(acknowledged)
        assert _connection(peer, "QM2")["STATUS"] == "FAILED"
        assert peer.execute("strmqm QM2").ok
        peer.current_qmgr = "QM2"
        assert _depth(peer) == depth and _connection(peer, "QM2")["STATUS"] == "ACTIVE"
    finally:
        peer.close()
