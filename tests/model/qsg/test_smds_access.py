"""The owner's open of its data set: the space map rebuilt by a scan of the structure, on every engine,
the messages a recovery lost, and what a failed open leaves behind."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from mqsh.model.qsg import states
from mqsh.model.qsg.datasets import PAGE, DataSet, DataSetError, data_set_path
from mqsh.model.qsg.repository import SharedRepository
from mqsh.model.qsg.structure import Structure, structure_path
from mqsh.recovery.engine import ReplayEngine
from mqsh.recovery.space_scan import SpaceScanEngine
from mqsh.shell.session import Session
from tests.commands.conftest import run

STRUCTURE = "DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES) OFFLOAD(SMDS) DSGROUP('MQ.QSGA.*.APP1')"
BIG = "LAB PUT QUEUE(SQ1) SIZE(600000)"  # three blocks of 256 KB


@pytest.fixture
def sq(group):
    for command in (STRUCTURE, "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)", BIG, BIG, BIG):
        assert group.execute(command).ok, command
    return group


@pytest.fixture(params=["reference", "local", "spark"])
def engine(request) -> SpaceScanEngine:
    if request.param == "spark":
        if shutil.which("java") is None:
            pytest.skip("Spark needs Java, which is not installed")
        from tests.recovery.conftest import MASTER  # the Spark tests' one session

        return SpaceScanEngine("spark", MASTER)
    return SpaceScanEngine(request.param)


def _entries(data_dir):
    with Structure(structure_path(data_dir, "QSGA", "APP1"), "QSGA", "APP1") as structure:
        return structure.entries("ORDER BY e")


def _status(data_dir) -> str:
    with SharedRepository(data_dir, "QSGA") as repository:
        return states.smds_state(repository, "APP1", "QM1").status


def _scanning(session: Session, engine: SpaceScanEngine):
    """QM1, held by the session, scanning on engine."""
    qmgr = session.installation.connect("QM1")
    qmgr.shared.smds.scans = engine
    return qmgr


def test_a_restart_after_a_crash_rebuilds_the_space_map_from_the_structure(sq, data_dir, engine):
    assert sq.execute("LAB GET QUEUE(SQ1)").ok  # frees blocks 0-2
    assert sq.execute("LAB CRASH QMGR(QM1)").ok  # no space map saved
    assert sq.execute("strmqm QM1").ok
    qmgr = _scanning(sq, engine)
    assert sq.execute(BIG).ok
    assert [entry.b for entry in _entries(data_dir)] == [3, 6, 0]  # the freed blocks used again
    assert qmgr.shared.smds.open[("APP1", "QM1")].used == set(range(9))
    assert "CSQE252I" in qmgr.errors.read()


def test_a_recovered_data_set_loses_only_the_messages_whose_blocks_do_not_hold_them(sq, data_dir, engine):
    qmgr = _scanning(sq, engine)
    lost = _entries(data_dir)[-1]
    assert sq.execute("LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW(BLOCK)").ok  # the newest message's block
    run(sq, "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)")
    run(sq, "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(RECOVERED)")  # QM1 restarts it at once
    assert _status(data_dir) == "ACTIVE"
    assert [entry.b for entry in _entries(data_dir)] == [0, 3]
    assert qmgr.shared.smds.open[("APP1", "QM1")].used == set(range(6))  # the lost message's blocks are free
    assert f"Message {lost.e} on queue SQ1 was deleted: its data in SMDS(QM1) CFSTRUCT(APP1) was lost" \
        in qmgr.errors.read()
    assert sq.execute("LAB GET QUEUE(SQ1) COUNT(2)").ok


def test_a_recovered_data_set_that_cannot_be_read_fails_again_and_keeps_its_messages(sq, data_dir, monkeypatch):
    """A read error is the data set's, not a message's: nothing is deleted for it."""
    run(sq, "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)")
    read = DataSet._read

    def blocks_unreadable(self, offset, length):
        if offset >= PAGE:
            raise DataSetError("IOERROR", f"permanent I/O error reading data set {self.path.name}")
        return read(self, offset, length)

    monkeypatch.setattr(DataSet, "_read", blocks_unreadable)
    run(sq, "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(RECOVERED)")
    assert _status(data_dir) == "FAILED"
    assert len(_entries(data_dir)) == 3
    assert "CSQE280I" not in sq.installation.connect("QM1").errors.read()


def test_a_normal_close_holding_no_messages_leaves_it_empty_and_free_to_be_replaced(sq, data_dir):
    """The seed's EMPTY: closed normally by its owner while it holds no messages (here got by another
    member, so the owner's own space map still counts them); reset at its next open."""
    sq.current_qmgr = "QM2"
    assert sq.execute("LAB GET QUEUE(SQ1) COUNT(3)").ok
    assert sq.execute("endmqm -w QM1").ok
    assert _status(data_dir) == "EMPTY"
    assert sq.execute("LAB FORMAT SMDS(QM1) CFSTRUCT(APP1)").ok  # a new allocation may take its place
    assert sq.execute("strmqm QM1").ok
    sq.current_qmgr = "QM1"
    assert sq.execute(BIG).ok
    assert _status(data_dir) == "ACTIVE"
    assert "CSQE244I" not in sq.installation.connect("QM1").errors.read()


def test_a_normal_close_holding_messages_keeps_it_active_with_its_space_map(sq, data_dir):
    assert sq.execute("LAB GET QUEUE(SQ1) COUNT(2)").ok
    assert sq.execute("endmqm -w QM1").ok
    with SharedRepository(data_dir, "QSGA") as repository:
        state = states.smds_state(repository, "APP1", "QM1")
    assert state.status == "ACTIVE" and state.space_map is not None
    assert not sq.execute("LAB FORMAT SMDS(QM1) CFSTRUCT(APP1)").ok  # in use: its messages are still needed
    assert sq.execute("strmqm QM1").ok
    assert sq.execute("LAB GET QUEUE(SQ1)").ok


def _open_on(path: Path) -> int:
    """Descriptors of this process open on path."""
    count = 0
    for descriptor in os.listdir("/proc/self/fd"):
        try:
            count += os.readlink(f"/proc/self/fd/{descriptor}") == str(path)
        except OSError:
            continue
    return count


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc to see open files")
def test_a_data_set_found_down_level_at_open_is_closed(sq, data_dir):
    path = data_set_path(data_dir, "QSGA", "MQ.QSGA.QM1.APP1")
    assert sq.execute("LAB COPY SMDS(QM1) CFSTRUCT(APP1) TO(OLD)").ok
    assert sq.execute(BIG).ok  # a message the copy does not hold
    assert sq.execute("endmqm QM1").ok
    with SharedRepository(data_dir, "QSGA") as repository:  # as after an abnormal end: no space map to use
        states.set_space_map_stamp(repository, "APP1", "QM1", None)
    assert sq.execute("LAB RESTORE SMDS(QM1) CFSTRUCT(APP1) FROM(OLD)").ok
    assert sq.execute("strmqm QM1").ok
    before = _open_on(path)
    assert "2561" in run(sq, BIG)[0]
    assert _status(data_dir) == "FAILED"
    assert _open_on(path) == before


def test_the_queue_managers_engine_choice_is_where_it_scans(data_dir):
    session = Session(data_dir, engine=ReplayEngine("local", "local[2]"))
    try:
        assert session.execute("crtmqm QM1").ok and session.execute("strmqm QM1").ok
        scans = session.installation.connect("QM1").shared.smds.scans
        assert (scans.choice, scans.master) == ("local", "local[2]")
    finally:
        session.close()
