"""The lab's accidents to structures and shared message data sets, and how the members find out (seed 002)."""

from __future__ import annotations

import pytest

from mqsh.model.qsg import states
from mqsh.model.qsg.datasets import DataSet, DataSetError, Header, data_set_path, format_data_set
from mqsh.model.qsg.repository import SharedRepository
from tests.commands.conftest import run

STRUCTURE = ("DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES) OFFLOAD(SMDS) DSGROUP('MQ.QSGA.*.APP1') "
             "OFFLD1SZ(0K) OFFLD1TH(0)")


@pytest.fixture
def sq(group):
    for command in (STRUCTURE, "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)",
                    "LAB PUT QUEUE(SQ1) COUNT(2)"):
        assert group.execute(command).ok, command
    return group


def _status(data_dir, owner="QM1") -> states.SmdsState:
    with SharedRepository(data_dir, "QSGA") as repository:
        return states.smds_state(repository, "APP1", owner)


@pytest.mark.parametrize("how", ["HEADER", "IOERROR", "BLOCK"])
def test_a_fault_in_the_data_set_itself_fails_it_for_everyone(sq, data_dir, how):
    assert sq.execute(f"LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW({how})").ok
    sq.current_qmgr = "QM2"
    gets = run(sq, "LAB GET QUEUE(SQ1) COUNT(2)")
    assert "2561" in gets[-1]
    state = _status(data_dir)
    assert (state.status, state.access) == ("FAILED", "SUSPENDED") and state.failed is not None


def test_a_data_set_formatted_anew_is_unexpectedly_empty(sq, data_dir):
    assert sq.execute("LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW(EMPTY)").ok
    sq.current_qmgr = "QM2"
    assert "2561" in run(sq, "LAB GET QUEUE(SQ1)")[0]
    assert _status(data_dir).status == "FAILED"


def test_empty_leaves_the_data_set_preformatted_its_size_kept_and_no_header(sq, data_dir):
    path = data_set_path(data_dir, "QSGA", "MQ.QSGA.QM1.APP1")
    size = path.stat().st_size
    assert sq.execute("LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW(EMPTY)").ok
    assert path.stat().st_size == size
    with pytest.raises(DataSetError) as raised:
        DataSet(path, owner_side=False)
    assert raised.value.kind == "EMPTY"
    assert run(sq, "LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW(BLOCK)") == [
        "mqsh: Data set MQ.QSGA.QM1.APP1 is unexpectedly empty: it is uninitialized or newly preformatted."]


def test_a_structure_fails_for_its_connected_members_and_is_lost_when_none_is_connected(sq, data_dir):
    assert run(sq, "LAB FAIL CFSTRUCT(APP1)") == [
        "Structure APP1 failed: its messages are lost and every member sees it FAILED."]
    assert sq.execute("RECOVER CFSTRUCT(APP1) TYPE(PURGE)").ok
    for command in ("endmqm QM1", "endmqm QM2"):
        assert sq.execute(command).ok
    assert run(sq, "LAB FAIL CFSTRUCT(APP1)") == [
        "Structure APP1 lost: its messages are lost; no member is connected, the first to connect finds it."]
    with SharedRepository(data_dir, "QSGA") as repository:
        assert states.structure_state(repository, "APP1").status == "ACTIVE"  # nobody was told
    assert sq.execute("strmqm QM1").ok
    with SharedRepository(data_dir, "QSGA") as repository:
        assert states.structure_state(repository, "APP1").status == "FAILED"
    assert "CSQE035E: Structure APP1 has failed" in run(sq, "LAB ERRLOG")


def test_a_denied_member_marks_only_its_connection(sq, data_dir):
    assert run(sq, "LAB DENY SMDSCONN(QM1) CFSTRUCT(APP1) QMGR(QM2)") == [
        "QM2 can no longer open the data set of SMDS(QM1) CFSTRUCT(APP1)."]
    sq.current_qmgr = "QM2"
    assert "2561" in run(sq, "LAB GET QUEUE(SQ1)")[0]
    assert _status(data_dir).status == "ACTIVE"  # the data set itself is fine
    conn = run(sq, "DISPLAY SMDSCONN(QM1) CFSTRUCT(APP1)")
    assert "STATUS(OPENFAIL)" in conn and "AVAIL(ERROR)" in conn
    assert sq.execute("LAB ALLOW SMDSCONN(QM1) CFSTRUCT(APP1) QMGR(QM2)").ok
    assert "2561" in run(sq, "LAB GET QUEUE(SQ1)")[0]  # AVAIL(ERROR) holds until START SMDSCONN
    assert sq.execute("START SMDSCONN(QM1) CFSTRUCT(APP1)").ok
    assert sq.execute("LAB GET QUEUE(SQ1) COUNT(2)").ok


def test_a_down_level_copy_is_detected_by_the_restart_scan(sq, data_dir):
    assert sq.execute("LAB COPY SMDS(QM1) CFSTRUCT(APP1) TO(OLD)").ok
    assert sq.execute("LAB PUT QUEUE(SQ1)").ok  # a message the copy does not hold
    assert sq.execute("LAB CRASH QMGR(QM1)").ok  # no space map saved
    assert sq.execute("LAB RESTORE SMDS(QM1) CFSTRUCT(APP1) FROM(OLD)").ok
    assert sq.execute("strmqm QM1").ok
    assert "2561" in run(sq, "LAB PUT QUEUE(SQ1)")[0]
    assert _status(data_dir).status == "FAILED"


def test_a_data_set_reallocated_smaller_than_its_messages_fails_at_open(sq, data_dir):
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(3)").ok
    assert sq.execute("endmqm QM1").ok
    assert run(sq, "LAB SIZE SMDS(QM1) CFSTRUCT(APP1) BLOCKS(2)") == [
        "Data set MQ.QSGA.QM1.APP1 reallocated with 2 blocks."]
    assert sq.execute("strmqm QM1").ok
    assert "2561" in run(sq, "LAB PUT QUEUE(SQ1)")[0]
    assert _status(data_dir).status == "FAILED"


def test_a_header_marked_partly_recovered_fails_again_at_open(sq, data_dir):
    path = data_set_path(data_dir, "QSGA", "MQ.QSGA.QM1.APP1")
    assert sq.execute("endmqm QM1").ok
    data_set = DataSet(path, owner_side=False)
    data_set.close()
    header: Header = data_set.header
    header.partial = True
    format_data_set(path, header)
    with SharedRepository(data_dir, "QSGA") as repository:
        states.set_smds_status(repository, "APP1", "QM1", states.RECOVERED, "2026-01-01 00:00:00")
    assert sq.execute("strmqm QM1").ok
    assert "2561" in run(sq, "LAB PUT QUEUE(SQ1)")[0]
    assert _status(data_dir).status == "FAILED"


def test_controls_outside_a_group(session):
    assert run(session, "LAB FAIL CFSTRUCT(APP1)") == ["mqsh: queue manager QM1 is not in a queue sharing group."]


def test_controls_for_what_does_not_exist(sq):
    assert run(sq, "LAB FAIL CFSTRUCT(NOPE)") == ["mqsh: Structure NOPE is not defined in queue sharing group QSGA."]
    assert run(sq, "LAB DAMAGE SMDS(QM2) CFSTRUCT(APP1) HOW(BLOCK)") == [
        "mqsh: Data set MQ.QSGA.QM2.APP1 does not exist yet."]
    assert run(sq, "LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW(TRUNCATE)")[0].startswith("mqsh: a data set is damaged")


def test_a_data_set_is_sized_before_the_group_has_any(group, data_dir):
    assert group.execute(STRUCTURE).ok
    assert group.execute("DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)").ok
    assert run(group, "LAB SIZE SMDS(QM1) CFSTRUCT(APP1) BLOCKS(10) SECONDARY(5) MAXEXTENTS(2)") == [
        "Data set MQ.QSGA.QM1.APP1 will be allocated with 10 blocks."]
    assert group.execute("LAB PUT QUEUE(SQ1)").ok
    data_set = DataSet(data_set_path(data_dir, "QSGA", "MQ.QSGA.QM1.APP1"), owner_side=False)
    data_set.close()
    assert (data_set.header.blocks, data_set.header.secondary, data_set.header.max_extents) == (10, 5, 2)


@pytest.mark.parametrize("how", ["HEADER", "IOERROR"])
def test_a_data_set_that_cannot_be_read_is_not_reallocated(sq, data_dir, how):
    """Reallocating moves the contents: a data set whose header or blocks cannot be read is refused, unchanged."""
    path = data_set_path(data_dir, "QSGA", "MQ.QSGA.QM1.APP1")
    assert sq.execute(f"LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW({how})").ok
    size = path.stat().st_size
    lines = run(sq, "LAB SIZE SMDS(QM1) CFSTRUCT(APP1) BLOCKS(50)")
    assert lines[0].startswith("mqsh: Data set MQ.QSGA.QM1.APP1 cannot be reallocated: ")
    assert path.stat().st_size == size and not path.with_name(path.name + ".size").exists()
