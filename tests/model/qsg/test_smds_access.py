"""A member's use of the data sets: what a normal close leaves behind, and where it scans."""

from __future__ import annotations

import pytest

from mqsh.model.qsg import states
from mqsh.model.qsg.repository import SharedRepository
from mqsh.recovery.engine import ReplayEngine
from mqsh.shell.session import Session
from tests.commands.conftest import run
from tests.model.qsg.conftest import BIG, smds_status


def test_a_normal_close_holding_no_messages_leaves_it_empty_and_free_to_be_replaced(sq, data_dir):
    """EMPTY (IBM: DISPLAY SMDS STATUS): closed normally by its owner while it holds no messages (here got by another
    member, so the owner's own space map still counts them); reset at its next open."""
    sq.current_qmgr = "QM2"
    assert sq.execute("LAB GET QUEUE(SQ1) COUNT(3)").ok
    assert sq.execute("endmqm -w QM1").ok
    assert smds_status(data_dir) == "EMPTY"
    assert sq.execute("LAB FORMAT SMDS(QM1) CFSTRUCT(APP1)").ok  # a new allocation may take its place
    assert sq.execute("strmqm QM1").ok
    sq.current_qmgr = "QM1"
    assert sq.execute(BIG).ok
    assert smds_status(data_dir) == "ACTIVE"
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


def test_the_queue_managers_engine_choice_is_where_it_scans(data_dir):
    session = Session(data_dir, engine=ReplayEngine("local", "local[2]"))
    try:
        assert session.execute("crtmqm QM1").ok and session.execute("strmqm QM1").ok
        scans = session.installation.connect("QM1").shared.smds.scans
        assert (scans.choice, scans.master) == ("local", "local[2]")
    finally:
        session.close()


def test_the_owner_checks_its_own_data_set_as_it_starts_and_a_down_level_copy_fails_then(sq, data_dir):
    """A copy restored while its owner was down is found at the owner's start - not at the first read:
    the saved space map's time stamp is not the repository's, so the map is rebuilt and the newest
    message's block read. Its messages stay, unavailable (2561) until RECOVER CFSTRUCT."""
    assert sq.execute("LAB COPY SMDS(QM1) CFSTRUCT(APP1) TO(OLD)").ok
    assert sq.execute(BIG).ok  # a message the copy does not hold
    assert sq.execute("endmqm -w QM1").ok  # a normal end: the space map and its time stamp saved
    assert sq.execute("LAB RESTORE SMDS(QM1) CFSTRUCT(APP1) FROM(OLD)").ok
    assert sq.execute("strmqm QM1").ok
    assert smds_status(data_dir) == "FAILED"
    sq.current_qmgr = "QM1"
    errors = "\n".join(run(sq, "LAB ERRLOG"))
    assert "CSQE252I" in errors and "CSQE244I: SMDS(QM1) CFSTRUCT(APP1) status is now FAILED" in errors
    sq.current_qmgr = "QM2"
    assert "reason code 2561" in " ".join(run(sq, "LAB GET QUEUE(SQ1)"))
    assert "CURDEPTH(4)" in " ".join(run(sq, "DISPLAY QLOCAL(SQ1) CURDEPTH"))
    run(sq, "RECOVER CFSTRUCT(APP1)")
    assert sq.execute("LAB GET QUEUE(SQ1) COUNT(4)").ok


def test_a_current_data_set_is_opened_as_its_owner_starts_with_its_saved_space_map(sq, data_dir):
    assert sq.execute("endmqm -w QM1").ok
    assert sq.execute("strmqm QM1").ok
    sq.current_qmgr = "QM1"
    assert "STATUS(OPEN)" in run(sq, "DISPLAY SMDSCONN(QM1) CFSTRUCT(APP1)")
    assert "CSQE252I" not in "\n".join(run(sq, "LAB ERRLOG"))  # the saved map was current
    assert smds_status(data_dir) == "ACTIVE"
    assert sq.execute("LAB GET QUEUE(SQ1) COUNT(3)").ok


@pytest.fixture
def three(sq):
    """sq with a third member, QM3, that has never opened a data set of APP1; QM2 got one of QM1's
    messages, so it holds QM1's data set open (and that message's blocks in its buffers)."""
    for command in (
        "crtmqm QM3",
        "csq5pqsg ADD QMGR QM3 QSGA",
        "strmqm QM3",
        "LAB USE QMGR(QM2)",
        "LAB GET QUEUE(SQ1)",
    ):
        assert sq.execute(command).ok, command
    return sq


@pytest.mark.parametrize("purger", ["QM1", "QM2", "QM3"])
@pytest.mark.parametrize("persistence", ["", " NONPERSISTENT"])
@pytest.mark.parametrize("first, then", [("QM2", "QM3"), ("QM3", "QM2")])
def test_after_a_purge_the_owners_next_put_makes_its_data_set_active_for_every_member(
    three, data_dir, purger, persistence, first, then
):
    """IBM: an EMPTY data set's space map is reset the next time its owner opens it, and it is ACTIVE
    again. The owner held it open from before the purge; that connection is of the discarded contents,
    so the owner opens it again - and a member that held it open too, reading, opens it afresh."""
    for command in (
        f"LAB USE QMGR({purger})",
        "LAB FAIL CFSTRUCT(APP1)",
        "RECOVER CFSTRUCT(APP1) TYPE(PURGE)",
        "LAB USE QMGR(QM1)",
        f"LAB PUT QUEUE(SQ1) SIZE(600000) COUNT(2){persistence}",
    ):
        assert three.execute(command).ok, command
    assert smds_status(data_dir) == "ACTIVE"
    three.current_qmgr = first
    browsed = run(three, "LAB BROWSE QUEUE(SQ1)")
    assert browsed[0] == "2 message(s) on queue SQ1, in the order a get takes them:"
    assert all(f"PERSISTENT({'NO' if persistence else 'YES'})  SIZE(600000)" in line for line in browsed[1:])
    assert run(three, "LAB GET QUEUE(SQ1)") == ["1 message(s) got from queue SQ1 (outside syncpoint)."]
    three.current_qmgr = then
    assert run(three, "LAB GET QUEUE(SQ1)") == ["1 message(s) got from queue SQ1 (outside syncpoint)."]
    for member in ("QM2", "QM3"):
        three.current_qmgr = member
        assert {"OPENMODE(READONLY)", "STATUS(OPEN)", "AVAIL(NORMAL)"} <= set(
            run(three, "DISPLAY SMDSCONN(QM1) CFSTRUCT(APP1)")
        )
        assert "CSQE244I" not in "\n".join(run(three, "LAB ERRLOG"))


def test_a_member_that_held_the_data_set_open_before_a_purge_keeps_none_of_its_old_contents(three):
    """QM2's buffers held the blocks of the message it got before the purge; opening the data set
    afresh, it lets them go: after its get of a new message, only that message's three blocks are saved."""
    for command in (
        "LAB USE QMGR(QM3)",
        "LAB FAIL CFSTRUCT(APP1)",
        "RECOVER CFSTRUCT(APP1) TYPE(PURGE)",
        "LAB USE QMGR(QM1)",
        BIG,
        "LAB USE QMGR(QM2)",
    ):
        assert three.execute(command).ok, command
    assert three.execute("LAB GET QUEUE(SQ1)").ok
    usage = "\n".join(run(three, "DISPLAY USAGE TYPE(SMDS)"))
    assert "3 with saved data" in usage and "(0 hits, 6 misses)" in usage, usage


def test_after_a_non_recoverable_structure_is_reset_by_another_member_the_owner_makes_its_data_set_active(
    group, data_dir
):
    """A RECOVER(NO) structure lost is allocated again empty by the first member to connect (CSQE028I),
    its data sets EMPTY: here QM2, while QM1 still held its own data set open from before."""
    for command in (
        "DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(NO) OFFLOAD(SMDS) DSGROUP('MQ.QSGA.*.APP1')",
        "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(NO)",
        f"{BIG} COUNT(2)",
        "LAB FAIL CFSTRUCT(APP1)",
        "LAB USE QMGR(QM2)",
    ):
        assert group.execute(command).ok, command
    assert "CURDEPTH(0)" in " ".join(run(group, "DISPLAY QLOCAL(SQ1) CURDEPTH"))
    assert "CSQE028I: Structure APP1 reset, all messages discarded" in run(group, "LAB ERRLOG")
    assert smds_status(data_dir) == "EMPTY"
    group.current_qmgr = "QM1"
    assert group.execute(BIG).ok
    assert smds_status(data_dir) == "ACTIVE"
    group.current_qmgr = "QM2"
    assert run(group, "LAB GET QUEUE(SQ1)") == ["1 message(s) got from queue SQ1 (outside syncpoint)."]
