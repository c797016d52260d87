"""Each recovery's closing account: where the depth a restart or rcrmqobj leaves came from, in
numbers that add up to it, the same on every engine."""

from __future__ import annotations

import pytest

from mqsh.recovery.engine import ReplayEngine
from tests.recovery.helpers import run, started

RESTART = [
    "DEFINE QLOCAL(Q1) DEFPSIST(YES)",
    "LAB PUT QUEUE(Q1) COUNT(3)",
    "endmqm QM1",
    "strmqm QM1",
    "LAB PUT QUEUE(Q1) COUNT(2)",
    "LAB PUT QUEUE(Q1) COUNT(2) NONPERSISTENT",
    "LAB PUT QUEUE(Q1) SYNCPOINT",
    "LAB GET QUEUE(Q1) SYNCPOINT",
    "LAB CRASH QMGR(QM1)",
    "strmqm QM1",
]


@pytest.mark.parametrize("engine", ["reference", "local"])
def test_a_restart_says_how_many_messages_were_on_file_and_how_many_the_log_gave_back(data_dir, engine):
    session = started(data_dir, "-ll", engine=ReplayEngine(engine))
    shown = run(session, *RESTART)
    # 3 on the queue file at the end's checkpoint, 2 persistent puts replayed; the unit that put one
    # and got one is backed out (its get comes back, its put goes); the non-persistent two are gone.
    assert (
        "AMQ7234I: Queue Q1 on queue manager 'QM1': 5 messages: 3 from the queue file, 2 replayed from "
        "the log (S0000000.LOG); 1 in-flight unit of work backed out." in shown
    )
    assert "   CURDEPTH(5)" in run(session, "DISPLAY QLOCAL(Q1) CURDEPTH")
    session.close()


def test_a_clean_start_gives_no_account(data_dir):
    session = started(data_dir, "-ll")
    shown = run(session, "DEFINE QLOCAL(Q1) DEFPSIST(YES)", "LAB PUT QUEUE(Q1)", "endmqm QM1", "strmqm QM1")
    assert not any("AMQ7234I" in line for line in shown)
    session.close()


def test_rcrmqobj_says_how_many_messages_came_from_the_image_and_how_many_from_the_log(data_dir):
    session = started(data_dir, "-ll")
    shown = run(
        session,
        "DEFINE QLOCAL(Q1) DEFPSIST(YES)",
        "LAB PUT QUEUE(Q1) COUNT(4)",
        "rcdmqimg -t ql Q1",
        "LAB GET QUEUE(Q1) COUNT(3)",
        "LAB PUT QUEUE(Q1) COUNT(2)",
        "LAB DAMAGE QUEUE(Q1) HOW(DELETE)",
        "rcrmqobj -m QM1 -t ql Q1",
    )
    assert shown == [
        "Object Q1, type qlocal recreated.",
        "AMQ7234I: Queue Q1 on queue manager 'QM1': 3 messages: 1 from the media image, 2 replayed "
        "from the log (S0000000.LOG).",
    ]
    session.close()
