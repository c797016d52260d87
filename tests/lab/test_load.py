"""LAB LOAD writes a long, valid log at once and leaves memory as replay would."""

from __future__ import annotations

import copy

from mqsh.recovery import replay
from mqsh.store import log as logstore


def test_load_leaves_what_replay_gives(session):
    session.execute("DEFINE QLOCAL(BIG)")
    session.execute("LAB PUT QUEUE(BIG) PERSISTENT COUNT(2)")
    result = session.execute("LAB LOAD QUEUE(BIG) RECORDS(1003)")
    assert result.ok
    assert session.render(result) == ("1003 log records written for queue BIG: 408 persistent message(s) put, 396 "
                                      "got, 199 unit(s) of work committed; 12 message(s) left on the queue.")
    qmgr = session.installation.held["QM1"]
    live = copy.deepcopy(qmgr.state["QUEUE/BIG"])
    state: replay.State = {}
    replay.replay(state, logstore.read_records(qmgr.paths.log_dir, 0))
    assert state["QUEUE/BIG"] == live
    assert len(live.messages) == 14
    session.execute("LAB CRASH")
    assert session.execute("strmqm QM1").ok
    assert session.installation.held["QM1"].state["QUEUE/BIG"].messages == live.messages


def test_load_refuses_what_a_put_would(session):
    session.execute("DEFINE QLOCAL(OFF) PUT(DISABLED)")
    assert session.render(session.execute("LAB LOAD QUEUE(OFF) RECORDS(10)")) == \
        "MQPUT ended with reason code 2051 (MQRC_PUT_INHIBITED)."
    assert "MQRC_UNKNOWN_OBJECT_NAME" in session.render(session.execute("LAB LOAD QUEUE(NONE) RECORDS(10)"))
    assert "LAB LOAD" in session.render(session.execute("help"))
