"""A member's use of the data sets: what a normal close leaves behind, and where it scans."""

from __future__ import annotations

from mqsh.model.qsg import states
from mqsh.model.qsg.repository import SharedRepository
from mqsh.recovery.engine import ReplayEngine
from mqsh.shell.session import Session
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
