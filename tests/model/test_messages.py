"""Messages and units of work: what survives a crash and a restart, and MQ reason codes."""

from __future__ import annotations

from mqsh.shell.session import Session


def depth(session, queue="APP.Q") -> int:
    qmgr = session.installation.connect("QM1")
    return qmgr.depth(qmgr.lookup("QUEUE", queue))


def test_committed_persistent_survive_uncommitted_and_nonpersistent_do_not(session):
    assert session.execute("DEFINE QLOCAL(APP.Q)").ok
    qmgr = session.installation.connect("QM1")
    for _ in range(3):
        qmgr.put("APP.Q", persistent=True)
    qmgr.put("APP.Q", persistent=False)
    qmgr.put("APP.Q", persistent=True, syncpoint=True)  # in flight at the crash
    assert depth(session) == 5
    session.installation.crash("QM1")
    assert session.execute("strmqm QM1").ok
    assert depth(session) == 3


def test_a_get_in_flight_at_the_crash_is_backed_out(session):
    session.execute("DEFINE QLOCAL(APP.Q)")
    qmgr = session.installation.connect("QM1")
    qmgr.put("APP.Q", persistent=True)
    qmgr.get("APP.Q", syncpoint=True)
    assert depth(session) == 0
    session.installation.crash("QM1")
    session.execute("strmqm QM1")
    assert depth(session) == 1


def test_commit_and_backout(session):
    session.execute("DEFINE QLOCAL(APP.Q)")
    qmgr = session.installation.connect("QM1")
    qmgr.put("APP.Q", persistent=True, syncpoint=True)
    qmgr.backout()
    assert depth(session) == 0
    qmgr.put("APP.Q", persistent=True, syncpoint=True)
    qmgr.commit()
    session.installation.crash("QM1")
    session.execute("strmqm QM1")
    assert depth(session) == 1


def test_clean_shutdown_then_a_new_process_sees_the_same(session, data_dir):
    session.execute("DEFINE QLOCAL(APP.Q) MAXDEPTH(7) DESCR('kept')")
    qmgr = session.installation.connect("QM1")
    for _ in range(4):
        qmgr.put("APP.Q", persistent=True)
    session.close()
    again = Session(data_dir, "QM1")
    try:
        assert depth(again) == 4
        assert again.installation.last_start.unclean is False
        assert again.installation.held["QM1"].lookup("QUEUE", "APP.Q").attributes["DESCR"] == "kept"
    finally:
        again.close()


def test_reason_codes(session):
    import pytest

    from mqsh.core.reasons import MQError

    session.execute("DEFINE QLOCAL(SMALL) MAXDEPTH(1)")
    session.execute("DEFINE QLOCAL(SHUT) PUT(DISABLED)")
    qmgr = session.installation.connect("QM1")
    qmgr.put("SMALL", persistent=False)
    for queue, reason in (("SMALL", 2053), ("SHUT", 2051), ("NOWHERE", 2085)):
        with pytest.raises(MQError) as error:
            qmgr.put(queue, persistent=True)
        assert error.value.reason == reason
    with pytest.raises(MQError) as error:
        qmgr.get("SHUT")
    assert error.value.reason == 2033


def test_definitions_survive_a_crash_and_deletes_stay_deleted(session):
    session.execute("DEFINE QLOCAL(KEEP) DESCR('a')")
    session.execute("ALTER QLOCAL(KEEP) DESCR('b')")
    session.execute("DEFINE QLOCAL(GONE)")
    session.execute("DELETE QLOCAL(GONE)")
    session.installation.crash("QM1")
    session.execute("strmqm QM1")
    qmgr = session.installation.held["QM1"]
    assert qmgr.lookup("QUEUE", "KEEP").attributes["DESCR"] == "b"
    assert qmgr.lookup("QUEUE", "GONE") is None


def test_a_message_got_in_a_unit_of_work_does_not_count_towards_maxdepth(session):
    import pytest

    from mqsh.core.reasons import MQError

    session.execute("DEFINE QLOCAL(SMALL) MAXDEPTH(2)")
    qmgr = session.installation.connect("QM1")
    qmgr.put("SMALL", persistent=True)
    qmgr.put("SMALL", persistent=True)
    with pytest.raises(MQError) as error:
        qmgr.put("SMALL", persistent=True)
    assert error.value.reason == 2053
    qmgr.get("SMALL", syncpoint=True)  # still on the queue, but no longer in CURDEPTH
    qmgr.put("SMALL", persistent=True)
    with pytest.raises(MQError) as error:
        qmgr.put("SMALL", persistent=True)
    assert error.value.reason == 2053


def priorities_got(qmgr, count, syncpoint=False):
    return [qmgr.get("APP.Q", syncpoint=syncpoint).priority for _ in range(count)]


def test_gets_take_the_highest_priority_first_then_in_order(session):
    session.execute("DEFINE QLOCAL(APP.Q)")
    qmgr = session.installation.connect("QM1")
    for priority in (0, 3, 0, 7, 3):
        qmgr.put("APP.Q", persistent=True, priority=priority)
    first = qmgr.get("APP.Q")
    assert first.priority == 7
    # Once the highest is gone, a later put of a higher priority still comes first.
    qmgr.put("APP.Q", persistent=True, priority=9)
    assert priorities_got(qmgr, 4) == [9, 3, 3, 0]
    qmgr.put("APP.Q", persistent=True, priority=5)
    assert priorities_got(qmgr, 2) == [5, 0]


def test_a_high_priority_message_given_back_by_a_backout_comes_first_again(session):
    session.execute("DEFINE QLOCAL(APP.Q)")
    qmgr = session.installation.connect("QM1")
    qmgr.put("APP.Q", persistent=True, priority=0)
    qmgr.put("APP.Q", persistent=True, priority=5)
    assert priorities_got(qmgr, 2, syncpoint=True) == [5, 0]
    qmgr.backout()
    assert priorities_got(qmgr, 2) == [5, 0]


def test_a_fifo_queue_ignores_priority(session):
    session.execute("DEFINE QLOCAL(APP.Q) MSGDLVSQ(FIFO)")
    qmgr = session.installation.connect("QM1")
    for priority in (1, 8, 4):
        qmgr.put("APP.Q", persistent=True, priority=priority)
    assert priorities_got(qmgr, 3) == [1, 8, 4]


def test_lab_put_without_a_priority_takes_the_queues_default(session):
    session.execute("DEFINE QLOCAL(APP.Q) DEFPRTY(6)")
    assert session.execute("LAB PUT QUEUE(APP.Q) COUNT(1)").ok
    assert session.execute("LAB PUT QUEUE(APP.Q) COUNT(1) PRIORITY(2)").ok
    qmgr = session.installation.connect("QM1")
    assert priorities_got(qmgr, 2) == [6, 2]


def test_a_put_through_a_remote_definition_keeps_its_transmission_header(session):
    for command in (
        "DEFINE QLOCAL(XQ) USAGE(XMITQ)",
        "DEFINE QREMOTE(R1) RNAME(TARGET) RQMNAME(QM9) XMITQ(XQ)",
        "DEFINE QALIAS(A1) TARGET(R1)",
        "LAB PUT QUEUE(A1) PERSISTENT",
    ):
        assert session.execute(command).ok, command
    qmgr = session.installation.connect("QM1")
    message = qmgr.lookup("QUEUE", "XQ").messages[0]
    assert qmgr.units.data.get(message.msgid) == {"qm": "QM9", "q": "TARGET"}
    # data whose put never reached the log (a crash between the two) goes at the next start
    qmgr.units.data.put({"ORPHAN": {"qm": "QM9", "q": "TARGET"}})
    session.installation.crash("QM1")
    assert session.execute("strmqm QM1").ok
    qmgr = session.installation.connect("QM1")
    assert qmgr.units.data.get("ORPHAN") is None and qmgr.units.data.get(message.msgid) is not None


def test_a_shared_queue_call_that_fails_under_syncpoint_leaves_no_unit_of_work(shared_queue_group):
    """A get that finds the shared queue empty (2033), or a put to a failed structure (2373), changed
    nothing: no unit of work is left in flight, so ending the member breaks no connection (no 2009)."""
    group = shared_queue_group

    def answer(command: str) -> str:
        return group.render(group.execute(command))

    assert "2033" in answer("LAB GET QUEUE(SQ1) SYNCPOINT")
    assert "IBM MQ queue manager 'QM1' ended." in answer("endmqm -i QM1")
    assert "started." in answer("strmqm QM1")
    assert answer("LAB BROWSE QUEUE(SQ1)") == "No messages on queue SQ1."
    assert answer("LAB FAIL CFSTRUCT(APP1)").startswith("Structure APP1 ")
    assert "2373" in answer("LAB PUT QUEUE(SQ1) SYNCPOINT")
    assert "RECOVER CFSTRUCT' NORMAL COMPLETION" in answer("RECOVER CFSTRUCT(APP1) TYPE(PURGE)")
    assert answer("LAB COMMIT") == "No unit of work to commit."
    assert "ended." in answer("endmqm -i QM1") and "started." in answer("strmqm QM1")
    assert answer("LAB BROWSE QUEUE(SQ1)") == "No messages on queue SQ1."
