"""LAB LOAD writes a long, valid log at once and leaves memory as replay would."""

from __future__ import annotations

import copy
import os
import signal

from mqsh.recovery.replay import reference as replay
from mqsh.store import log as logstore


def test_load_leaves_what_replay_gives(session):
    session.execute("DEFINE QLOCAL(BIG)")
    session.execute("LAB PUT QUEUE(BIG) PERSISTENT COUNT(2)")
    result = session.execute("LAB LOAD QUEUE(BIG) RECORDS(1003)")
    assert result.ok
    assert session.render(result) == (
        "1003 log records written for queue BIG: 408 persistent message(s) put, 396 "
        "got, 199 unit(s) of work committed; 12 message(s) left on the queue."
    )
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
    assert (
        session.render(session.execute("LAB LOAD QUEUE(OFF) RECORDS(10)"))
        == "MQPUT ended with reason code 2051 (MQRC_PUT_INHIBITED)."
    )
    assert "MQRC_UNKNOWN_OBJECT_NAME" in session.render(session.execute("LAB LOAD QUEUE(NONE) RECORDS(10)"))
    assert "LAB LOAD" in session.render(session.execute("help"))


def test_load_refuses_a_shared_queue_by_what_it_is(group):
    """A shared queue's messages are in its structure: LAB LOAD says so rather than that it does not exist."""
    for command in (
        "DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES)",
        "DEFINE QLOCAL(SQ) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)",
        "LAB PUT QUEUE(SQ) COUNT(2)",
    ):
        assert group.execute(command).ok, command
    result = group.execute("LAB LOAD QUEUE(SQ) RECORDS(1000)")
    assert not result.ok
    assert group.render(result) == (
        "mqsh: LAB LOAD writes a local queue's log records in bulk; SQ is a shared "
        "queue, whose messages are kept in its structure: use LAB PUT."
    )
    assert "CURDEPTH(2)" in group.render(group.execute("DISPLAY QLOCAL(SQ) CURDEPTH"))


def test_an_interrupted_load_keeps_each_block_whole_and_survives_a_checkpoint_and_a_crash(
    data_dir, monkeypatch, python_interrupt_handler
):
    from mqsh.shell.session import Session

    session = Session(data_dir)
    for command in ("crtmqm -ll -lf 64 QML", "strmqm QML"):
        assert session.execute(command).ok
    session.current_qmgr = "QML"
    session.execute("DEFINE QLOCAL(BIG)")
    session.execute("DEFINE QLOCAL(OTHER)")
    assert session.execute("rcdmqimg -m QML -t qlocal OTHER").ok  # a checkpoint: BIG's file is up to date
    writer = type(session.installation.held["QML"].log)
    blocks = []
    real = writer.append_block

    def interrupted_at_the_first_block(self, data, count):
        real(self, data, count)
        blocks.append(count)
        if len(blocks) == 1:
            os.kill(os.getpid(), signal.SIGINT)  # held until the block is applied in memory

    monkeypatch.setattr(writer, "append_block", interrupted_at_the_first_block)
    result = session.execute("LAB LOAD QUEUE(BIG) RECORDS(200000)")
    monkeypatch.setattr(writer, "append_block", real)
    assert not result.ok
    written = sum(blocks)
    qmgr = session.installation.held["QML"]
    loaded = list(qmgr.state["QUEUE/BIG"].messages)
    assert session.render(result) == (
        f"LAB LOAD interrupted: {written} log records written for queue BIG "
        f"({len(loaded)} message(s) of the load on it); the rest were not written."
    )
    # A checkpoint (rcdmqimg of another queue takes one) moves the restart point past the load:
    # the load's queue must be in the files it writes, or the crash below loses its messages.
    assert session.execute("rcdmqimg -m QML -t qlocal OTHER").ok
    session.execute("LAB CRASH")
    assert session.execute("strmqm QML").ok
    assert session.installation.held["QML"].state["QUEUE/BIG"].messages == loaded
    session.close()
