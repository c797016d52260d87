"""Log space: circular reuse, linear deletion by LogManagement, archive notifications, a full log."""

from __future__ import annotations

import pytest

from mqsh.core.reasons import MQError
from mqsh.shell.session import Session
from mqsh.store.log import list_extents
from tests.support import started_qmgr


def started(data_dir, options: str, name: str = "QL") -> tuple[Session, object]:
    return started_qmgr(data_dir, options, name)


def churn(qmgr, count: int) -> None:
    """Persistent traffic that leaves the queue empty: only the log grows."""
    for _ in range(count):
        qmgr.put("Q1", persistent=True)
        qmgr.get("Q1")


def extents(qmgr) -> list[int]:
    return list_extents(qmgr.paths.log_dir)


def files(qmgr) -> list[str]:
    return sorted(path.name for path in qmgr.paths.log_dir.glob("S*.LOG"))


def test_circular_log_reuses_extents_and_never_holds_more_than_primary_plus_secondary(data_dir):
    session, qmgr = started(data_dir, "-lc -lf 64 -lp 2 -ls 1 --checkpoint-records 200")
    churn(qmgr, 4000)
    held = extents(qmgr)
    assert len(held) <= 3
    assert held[-1] >= 3  # more extents were written than are held: old ones were reused
    assert qmgr.space.statistics.reused > 0
    # Nothing pinned the log: it went round its two primary files, as MQ's does.
    assert files(qmgr) == ["S0000000.LOG", "S0000001.LOG"]
    assert qmgr.space.name(held[-1]) == f"S{held[-1] % 2:07d}.LOG"
    session.close()


def test_circular_log_takes_a_secondary_file_only_while_the_next_is_needed(data_dir):
    session, qmgr = started(data_dir, "-lc -lf 64 -lp 2 -ls 1 --checkpoint-records 200")
    qmgr.put("Q1", persistent=True, syncpoint=True)  # RECLOG stays in the first extent
    with pytest.raises(MQError):
        churn(qmgr, 4000)
    assert files(qmgr) == ["S0000000.LOG", "S0000001.LOG", "S0000002.LOG"]
    assert qmgr.space.statistics.created == 2 and qmgr.space.statistics.reused == 0  # S0000000 came first
    churn(qmgr, 4000)  # with the unit of work gone, the ring of three goes round
    assert files(qmgr) == ["S0000000.LOG", "S0000001.LOG", "S0000002.LOG"]
    assert qmgr.space.statistics.reused > 0
    session.close()


def test_circular_log_is_full_when_a_long_unit_of_work_pins_it(data_dir):
    session, qmgr = started(data_dir, "-lc -lf 64 -lp 2 -ls 1 --checkpoint-records 200")
    qmgr.put("Q1", persistent=True, syncpoint=True)  # never committed: RECLOG cannot move past it
    with pytest.raises(MQError) as failure:
        churn(qmgr, 4000)
    assert failure.value.reason == 2102
    assert qmgr.uow is None  # the long-running unit of work was backed out
    result = session.execute("LAB COMMIT")  # and its application hears so when it commits
    assert not result.ok and "MQCMIT ended with reason code 2003 (MQRC_BACKED_OUT)." in session.render(result)
    assert session.render(session.execute("LAB COMMIT")).strip().endswith("No unit of work to commit.")
    assert "AMQ7463E" in qmgr.paths.error_log.read_text()  # every full log, and why: a long-running unit
    assert "AMQ7465W" in qmgr.paths.error_log.read_text()
    queue = qmgr.lookup("QUEUE", "Q1")
    left = qmgr.depth(queue)  # a put whose get was refused may be left
    churn(qmgr, 4000)  # with the unit of work gone, extents are reused again
    assert qmgr.depth(queue) == left
    session.close()


def test_linear_manual_keeps_every_extent(data_dir):
    session, qmgr = started(data_dir, "-ll -lf 64 --checkpoint-records 200")
    churn(qmgr, 3000)
    assert extents(qmgr)[0] == 0
    assert len(extents(qmgr)) >= 4
    session.close()


def test_linear_automatic_deletes_what_restart_and_media_recovery_do_not_need(data_dir):
    session, qmgr = started(data_dir, "-ll -lf 64 --log-management automatic --checkpoint-records 200")
    churn(qmgr, 3000)
    # Q1's creation record (its only media image) pins the extent it is in.
    medialog = qmgr.space.medialog()
    assert extents(qmgr)[0] == medialog
    assert medialog < qmgr.space.reclog() <= qmgr.log.extent
    qmgr.record_image(qmgr.lookup("QUEUE", "Q1"))
    for obj in list(qmgr.state.values()):
        qmgr.record_image(obj)
    qmgr.checkpoint()
    assert extents(qmgr)[0] == qmgr.log.extent  # images moved MEDIALOG: old extents deleted
    assert qmgr.space.statistics.deleted > 0
    session.close()


def test_linear_archive_deletes_only_archived_extents(data_dir):
    session, qmgr = started(data_dir, "-ll -lf 64 --log-management archive --checkpoint-records 200")
    churn(qmgr, 3000)
    for obj in list(qmgr.state.values()):
        qmgr.record_image(obj)
    qmgr.checkpoint()
    before = extents(qmgr)
    assert before[0] == 0  # not needed any more, but not archived yet
    result = session.execute("SET LOG ARCHIVED(S0000001.LOG)")
    assert result.ok, result
    assert 1 not in extents(qmgr) and 0 in extents(qmgr)
    session.close()


def test_a_full_log_file_system_rolls_back_and_ends_the_queue_manager(data_dir):
    session, qmgr = started(data_dir, "-ll -lf 64 --log-fs-size 1 --checkpoint-records 200")
    qmgr.put("Q1", persistent=True, syncpoint=True)
    with pytest.raises(MQError) as failure:
        churn(qmgr, 5000)
    assert failure.value.reason == 2102
    assert not qmgr.running
    assert "AMQ7463E" in qmgr.paths.error_log.read_text()
    assert (
        "AMQ6708E: A disk full condition was encountered when formatting a new log file"
        in qmgr.paths.error_log.read_text()
    )
    assert session.installation.status("QL") == "ENDED_UNEXPECTEDLY"  # at once, as dspmq shows
    assert "STATUS(Ended unexpectedly)" in session.render(session.execute("dspmq -m QL"))
    result = session.execute("DISPLAY QLOCAL(Q1)")
    assert result.responses[0].msgid == "AMQ8146E"
    assert session.execute("strmqm QL").ok
    qmgr = session.installation.connect("QL")
    assert qmgr.uncommitted(qmgr.lookup("QUEUE", "Q1")) == 0  # the in-flight put was rolled back
    session.close()


def test_restart_replays_only_from_the_last_checkpoint(data_dir):
    session, qmgr = started(data_dir, "-ll -lf 64 --checkpoint-records 200")
    churn(qmgr, 450)  # 900 records: checkpoints at every 200
    session.installation.crash("QL")
    assert session.execute("strmqm QL").ok
    assert session.installation.last_start.replayed < 200
    session.close()


def test_a_log_stanza_that_cannot_be_read_refuses_the_start(data_dir):
    session = Session(data_dir)
    assert session.execute("crtmqm -ll QB").ok
    ini = session.installation.paths("QB").qm_ini
    ini.write_text(ini.read_text().replace("LogFilePages=4096", "LogFilePages=many"))
    result = session.execute("strmqm QB")
    assert not result.ok and result.code == 71
    assert "LogFilePages=many" in session.render(result)
    assert session.installation.status("QB") != "RUNNING"


def test_a_damaged_ring_file_stops_the_start_and_changes_nothing(data_dir):
    session, qmgr = started(data_dir, "-lc -lf 64 -lp 2 -ls 1 --checkpoint-records 200")
    churn(qmgr, 1000)
    assert session.execute("endmqm -i QL").ok
    ring = qmgr.paths.log_dir / "amqhring.lfh"
    assert ring.exists()  # the log went round
    ring.write_text("not a ring")
    before = {path.name: path.read_bytes() for path in qmgr.paths.log_dir.iterdir()}
    result = session.execute("strmqm QL")
    assert not result.ok and "AMQ7082E: Log file amqhring.lfh is damaged" in session.render(result)
    assert {path.name: path.read_bytes() for path in qmgr.paths.log_dir.iterdir()} == before
    session.close()


def test_restart_starts_where_the_restart_point_is_when_the_named_extent_was_reused(data_dir):
    """A checkpoint taken as its extent fills names that extent; the ring may reuse it before the crash."""
    session, qmgr = started(data_dir, "-lc -lf 16 -lp 3 -ls 2")
    # LAB LOAD takes a checkpoint whenever the log needs room, that is as an extent fills.
    assert session.execute("LAB LOAD QUEUE(Q1) RECORDS(30000)").ok
    named = qmgr.checkpoints.read_control()["restart_extent"]
    puts = 0
    while named in extents(qmgr) and puts < 2000:  # until the ring takes the named extent's file
        session.execute("LAB PUT QUEUE(Q1) COUNT(10) PERSISTENT")
        puts += 10
    assert named not in extents(qmgr) and qmgr.checkpoints.read_control()["restart_extent"] == named
    session.execute("LAB CRASH")
    result = session.execute("strmqm QL")
    assert result.ok, session.render(result)
    assert f"CURDEPTH({9 + puts})" in session.render(session.execute("DISPLAY QSTATUS(Q1) CURDEPTH"))
    session.close()
