"""A member's use of the data sets: what a normal close leaves behind, and where it scans."""

from __future__ import annotations

from mqsh.model.qsg import states
from mqsh.model.qsg.repository import SharedRepository
from mqsh.recovery.engine import ReplayEngine
from mqsh.shell.session import Session
from tests.commands.conftest import run
from tests.model.qsg.conftest import BIG, smds_status


def test_a_normal_close_holding_no_messages_leaves_it_empty_and_free_to_be_replaced(sq, data_dir):
    """The seed's EMPTY: closed normally by its owner while it holds no messages (here got by another
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
