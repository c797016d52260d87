"""Restart with damage: in-flight queues, the redo record, log checks, missing extents, full replay, Native HA."""

from __future__ import annotations

import shutil

import pytest

from mqsh.core.objects import MQObject
from mqsh.model.catalog import ObjectCatalog
from mqsh.recovery import logscan
from mqsh.recovery.engine import ReplayEngine
from mqsh.shell.session import Session
from mqsh.store import log as logstore
from mqsh.store import redo
from mqsh.store.files import read_document
from tests.recovery.helpers import error_log, qmgr, run, started


def crash_with_work_in_flight(session):
    run(
        session,
        "DEFINE QLOCAL(Q1) DEFPSIST(YES)",
        "LAB PUT QUEUE(Q1) COUNT(5)",
        "endmqm QM1",
        "strmqm QM1",
        "LAB PUT QUEUE(Q1) COUNT(2) SYNCPOINT",
        "LAB CRASH",
        "LAB DAMAGE QUEUE(Q1) HOW(DELETE)",
    )


def start_recreates_q1(session):
    """strmqm re-creates Q1 from its image and backs out the unit of work that was on it."""
    lines = run(session, "strmqm QM1")
    assert "Object Q1, type qlocal was damaged and has been recreated from its media image." in lines
    assert (
        "Transaction manager state recovered for queue manager 'QM1'. 1 in-flight unit of work backed out."
        in lines
    )
    # Its image is its DEFINE (an end images only empty queues): the 5 puts are replayed after it;
    # the unit's 2 puts are backed out.
    assert (
        "AMQ7234I: Queue Q1 on queue manager 'QM1': 5 messages: 0 from the media image, 5 replayed from the "
        "log (S0000000.LOG); 1 in-flight unit of work backed out." in lines
    )
    assert run(session, "DISPLAY QSTATUS(Q1) CURDEPTH")[-1].strip() == "CURDEPTH(5)"


def test_linear_start_recreates_a_damaged_queue_with_work_in_flight(data_dir):
    session = started(data_dir, "-ll")
    crash_with_work_in_flight(session)
    start_recreates_q1(session)
    session.close()


def queue_file_states(session, name="Q1") -> list[str]:
    """The states of the messages in the queue's file on disk, which the next process starts from."""
    document = read_document(qmgr(session).paths.object_file("QUEUE", name))
    return [message.state for message in MQObject.from_document(document).messages]


def test_work_backed_out_at_start_is_backed_out_in_the_files(data_dir):
    """Both the queue re-created at start and one whose file already held the work lose it on disk."""
    session = started(data_dir, "-ll")
    run(
        session,
        "DEFINE QLOCAL(Q1) DEFPSIST(YES)",
        "LAB PUT QUEUE(Q1) COUNT(5)",
        "DEFINE QLOCAL(Q2) DEFPSIST(YES)",
        "LAB PUT QUEUE(Q2) COUNT(2)",
        "endmqm QM1",
        "strmqm QM1",
        "LAB PUT QUEUE(Q1) COUNT(2) SYNCPOINT",
        "LAB PUT QUEUE(Q2) COUNT(3) SYNCPOINT",
        "rcdmqimg -t ql Q2",
    )  # its checkpoint writes Q2's file, with the unit's messages
    assert queue_file_states(session, "Q2") == ["C", "C", "P", "P", "P"]
    run(session, "LAB CRASH", "LAB DAMAGE QUEUE(Q1) HOW(DELETE)")
    start_recreates_q1(session)
    assert queue_file_states(session) == ["C"] * 5
    assert queue_file_states(session, "Q2") == ["C", "C"]
    session.close()


def test_circular_start_marks_it_damaged_and_ignores_its_uncommitted_messages(data_dir):
    session = started(data_dir, "-lc")
    crash_with_work_in_flight(session)
    assert "AMQ7472W: Object Q1, type qlocal damaged." in run(session, "strmqm QM1")
    # The application's unit of work went with the crash: its connection broke, then it connects again.
    assert run(session, "LAB BACKOUT") == ["MQBACK ended with reason code 2009 (MQRC_CONNECTION_BROKEN)."]
    assert run(session, "LAB GET QUEUE(Q1)") == ["MQGET ended with reason code 2101 (MQRC_OBJECT_DAMAGED)."]
    assert run(session, "DELETE QLOCAL(Q1)") == ["AMQ8007I: IBM MQ queue deleted."]
    session.close()


@pytest.mark.parametrize(
    "setup",
    [
        ("DEFINE QLOCAL(Q1) DEFPSIST(YES) IMGRCOVQ(NO)",),
        ("ALTER QMGR IMGRCOVQ(NO)", "DEFINE QLOCAL(Q1) DEFPSIST(YES) IMGRCOVQ(QMGR)"),
    ],
)
def test_a_linear_start_leaves_a_queue_that_is_not_recoverable_damaged(data_dir, setup):
    """Not recoverable on a linear log: as on a circular log, it stays damaged and its unit is ignored;
    rcrmqobj refuses it by what the log says of it, and it can only be deleted."""
    session = started(data_dir, "-ll")
    run(
        session,
        *setup,
        "LAB PUT QUEUE(Q1) COUNT(3)",
        "endmqm QM1",
        "strmqm QM1",
        "LAB PUT QUEUE(Q1) COUNT(2) SYNCPOINT",
        "LAB CRASH",
        "LAB DAMAGE QUEUE(Q1) HOW(DELETE)",
    )
    lines = run(session, "strmqm QM1")
    assert "AMQ7472W: Object Q1, type qlocal damaged." in lines
    assert not any("recreated" in line for line in lines)
    assert lines[-1] == "IBM MQ queue manager 'QM1' started."
    assert run(session, "DISPLAY QLOCAL(Q1) CURDEPTH")[0].startswith("AMQ8149")
    result = session.execute("rcrmqobj -t ql Q1")
    assert not result.ok and "is not recoverable" in session.render(result)
    assert run(session, "DELETE QLOCAL(Q1)") == ["AMQ8007I: IBM MQ queue deleted."]
    session.close()


def test_a_linear_start_that_cannot_recreate_an_in_flight_queue_is_refused(data_dir):
    session = started(data_dir, "-ll", extra="-lf 1")
    crash_with_work_in_flight(session)
    paths = session.installation.paths("QM1")
    image = read_document(paths.control_file)["media"]["QUEUE/Q1"]
    needed = logstore.extent_name(logscan.extent_holding(paths.log_dir, image))
    (paths.log_dir / needed).unlink()
    result = session.execute("strmqm QM1")
    assert not result.ok and result.code == 23
    assert f"AMQ6767E: Log file {needed} could not be opened for use." in session.render(result)
    session.close()


def test_redo_record_of_a_cut_short_checkpoint_is_applied(data_dir):
    session = started(data_dir, "-ll")
    run(session, "DEFINE QLOCAL(Q1) DESCR('old')", "endmqm QM1")
    paths = session.installation.paths("QM1")
    target = paths.object_file("QUEUE", "Q1")
    document = read_document(target)
    document["attributes"]["DESCR"] = "from the redo record"
    redo.write(redo.redo_path(paths.log_root), data_dir, {target: document})
    lines = run(session, "strmqm QM1")
    assert "A checkpoint was cut short: 1 object files rewritten from its redo record." in lines
    assert not redo.redo_path(paths.log_root).exists()
    assert MQObject.from_document(read_document(target)).attributes["DESCR"] == "from the redo record"
    session.close()


def test_a_copy_of_the_data_directory_finishes_its_own_checkpoint(data_dir, tmp_path):
    """A redo record names its files within the data directory, not where the directory was."""
    session = started(data_dir, "-ll")
    run(session, "DEFINE QLOCAL(Q1) DESCR('old')", "endmqm QM1")
    paths = session.installation.paths("QM1")
    document = read_document(paths.object_file("QUEUE", "Q1"))
    document["attributes"]["DESCR"] = "from the redo record"
    redo.write(redo.redo_path(paths.log_root), data_dir, {paths.object_file("QUEUE", "Q1"): document})
    session.close()
    copy = tmp_path / "copy"
    shutil.copytree(data_dir, copy)
    original = paths.object_file("QUEUE", "Q1").read_bytes()
    on_copy = Session(copy)
    assert "A checkpoint was cut short: 1 object files rewritten from its redo record." in run(
        on_copy, "strmqm QM1"
    )
    copied = on_copy.installation.paths("QM1").object_file("QUEUE", "Q1")
    assert MQObject.from_document(read_document(copied)).attributes["DESCR"] == "from the redo record"
    assert paths.object_file("QUEUE", "Q1").read_bytes() == original
    assert redo.redo_path(paths.log_root).exists()  # the original's own start finishes its checkpoint
    on_copy.close()


def test_a_torn_redo_record_is_dropped(data_dir):
    session = started(data_dir, "-ll")
    session.execute("endmqm QM1")
    paths = session.installation.paths("QM1")
    redo.redo_path(paths.log_root).write_bytes(b"MQSH1 0000 12\n{torn")
    assert "A torn checkpoint redo record was dropped: no object file had been touched." in run(
        session, "strmqm QM1"
    )
    session.close()


def test_verify_log_refuses_a_corrupt_extent_that_a_normal_start_never_reads(data_dir):
    session = started(data_dir, "-ll", extra="-lf 1")
    run(session, "endmqm QM1", "LAB DAMAGE EXTENT(S0000001.LOG)")
    result = session.execute("strmqm --verify-log QM1")
    assert (
        not result.ok
        and result.code == 23
        and "AMQ7082E: Log file S0000001.LOG is damaged" in session.render(result)
    )
    assert session.execute("strmqm QM1").ok
    session.close()


def test_verify_log_setting_in_qm_ini(data_dir):
    session = started(data_dir, "-ll")
    session.execute("endmqm QM1")
    ini = session.installation.paths("QM1").qm_ini
    ini.write_text(ini.read_text() + "   VerifyLogOnStart=Yes\n")
    assert any(line.startswith("Log integrity check:") for line in run(session, "strmqm QM1"))
    session.close()


def test_missing_extent_stops_the_start_unless_ignored(data_dir):
    session = started(data_dir, "-ll", extra="-lf 1")
    run(session, "DEFINE QLOCAL(Q1) DEFPSIST(YES)", "LAB PUT QUEUE(Q1) COUNT(40)", "LAB CRASH")
    paths = session.installation.paths("QM1")
    middle = logstore.list_extents(paths.log_dir)[-2]
    (paths.log_dir / logstore.extent_name(middle)).unlink()
    result = session.execute("strmqm QM1")
    assert not result.ok and "AMQ6767E" in session.render(result) and result.code == 23
    lines = run(session, "strmqm --ignore-missing-log QM1")
    assert (
        f"AMQ6767W: Log file {logstore.extent_name(middle)} could not be opened for use; it was passed over "
        "(IgnoreMissingLogExtents) and the records in it are lost." in lines
    )
    assert lines[-1] == "IBM MQ queue manager 'QM1' started."
    session.close()


FULL_REPLAY = "The log control file was not found or could not be read: the whole log is replayed from its first record."


def test_a_control_file_that_cannot_be_read_replays_the_whole_log(data_dir):
    session = started(data_dir, "-ll", extra="-lf 1")
    run(
        session,
        "DEFINE QLOCAL(Q1) DEFPSIST(YES)",
        "LAB PUT QUEUE(Q1) COUNT(7)",
        "LAB PUT QUEUE(Q1) COUNT(2) SYNCPOINT",
        "LAB CRASH",
    )
    paths = session.installation.paths("QM1")
    paths.control_file.write_bytes(b"MQSH1 00000000 5\n{\xff}")
    lines = run(session, "strmqm QM1")
    assert FULL_REPLAY in lines
    assert (
        "Transaction manager state recovered for queue manager 'QM1'. 1 in-flight unit of work backed out."
        in lines
    )
    assert run(session, "DISPLAY QSTATUS(Q1) CURDEPTH UNCOM")[-1].split() == ["CURDEPTH(7)", "UNCOM(NO)"]
    session.close()


def test_deleting_object_files_and_control_file_replays_the_whole_log(data_dir):
    session = started(data_dir, "-ll", extra="-lf 1")
    run(
        session,
        "DEFINE QLOCAL(Q1) DEFPSIST(YES)",
        "LAB PUT QUEUE(Q1) COUNT(7)",
        "endmqm QM1",
        "LAB DAMAGE METADATA",
    )
    paths = session.installation.paths("QM1")
    assert not paths.control_file.exists() and not paths.catalog.exists()
    lines = run(session, "strmqm QM1")
    assert FULL_REPLAY in lines
    assert run(session, "DISPLAY QSTATUS(Q1) CURDEPTH")[-1].strip() == "CURDEPTH(7)"
    run(session, "endmqm QM1", "LAB DAMAGE METADATA")
    (paths.log_dir / logstore.extent_name(0)).unlink()
    result = session.execute("strmqm QM1")
    assert not result.ok and "AMQ6767E: Log file S0000000.LOG could not be opened for use." in session.render(
        result
    )
    session.close()


def test_native_ha_recovers_a_damaged_queue_once_it_is_closed(data_dir):
    session = started(data_dir, "-lr")
    run(
        session,
        "LAB CLOCK SET('2026-01-01 09:00:00')",
        "DEFINE QLOCAL(Q1) DEFPSIST(YES)",
        "LAB PUT QUEUE(Q1) COUNT(3)",
        "LAB OPEN QUEUE(Q1)",
        "LAB DAMAGE QUEUE(Q1)",
        "LAB GET QUEUE(Q1)",
        "DISPLAY QLOCAL(Q1)",
    )
    assert "deferred: the object is in use" in error_log(session)
    run(session, "LAB CLOSE QUEUE(Q1)", "DISPLAY QLOCAL(Q1)")
    assert qmgr(session).state["QUEUE/Q1"].damaged  # the retry waits a minute of simulated time
    assert run(session, "LAB CLOCK ADVANCE(1M)", "DISPLAY QSTATUS(Q1) CURDEPTH")[-1].strip() == "CURDEPTH(3)"
    assert "AMQ7497I: Automatic media recovery of object Q1, type queue completed" in error_log(session)
    session.close()


def test_lab_errlog_shows_only_new_messages(data_dir):
    session = started(data_dir, "-ll")
    run(session, "DEFINE QLOCAL(Q1)", "LAB DAMAGE QUEUE(Q1)", "LAB GET QUEUE(Q1)")
    assert run(session, "LAB ERRLOG") == ["AMQ7472W: Object Q1, type queue damaged."]
    assert run(session, "LAB ERRLOG") == ["No new messages in the error log of QM1."]
    session.close()


def test_a_queue_manager_started_on_first_use_reports_why_it_cannot_start(data_dir):
    from tests.support import run_mqsh

    session = started(data_dir, "-lc")
    session.close()  # left running: the next mqsh starts it on first use
    session.installation.paths("QM1").object_file("QMGR", "QM1").unlink()
    done = run_mqsh("QM1", stdin="DISPLAY QMGR\n", data_dir=data_dir)
    assert "AMQ7472E: Object QM1, type qmgr damaged." in done.stdout
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr


def test_native_ha_defers_recovery_when_spark_cannot_replay(data_dir, monkeypatch):
    from mqsh.recovery.media import recreate as media_recovery
    from mqsh.recovery.spark.session import SparkUnavailable

    session = started(data_dir, "-lr")
    run(
        session,
        "LAB CLOCK SET('2026-01-01 09:00:00')",
        "DEFINE QLOCAL(Q1) DEFPSIST(YES)",
        "LAB PUT QUEUE(Q1) COUNT(3)",
    )

    def spark_down(*_args, **_kwargs):
        raise SparkUnavailable("cannot start Spark at spark://nowhere:7077: connection refused")

    monkeypatch.setattr(media_recovery, "rebuild", spark_down)  # as a long log's replay on Spark fails
    lines = run(session, "LAB DAMAGE QUEUE(Q1)", "LAB GET QUEUE(Q1)", "DISPLAY QMGR QMNAME")
    assert any("QMNAME(QM1)" in line for line in lines)  # the shell's work goes on
    assert (
        "AMQ7496W: Automatic media recovery of object Q1, type queue deferred: cannot start Spark"
        in error_log(session)
    )
    monkeypatch.undo()
    assert run(session, "LAB CLOCK ADVANCE(1M)", "DISPLAY QSTATUS(Q1) CURDEPTH")[-1].strip() == "CURDEPTH(3)"
    session.close()


def test_a_lost_control_file_with_a_log_that_no_longer_begins_at_its_start_refuses_the_start(data_dir):
    """Without the control file the whole log must be replayed; a log gone round its ring cannot be."""

    session = Session(data_dir)
    assert session.execute("crtmqm -lc -lf 16 -lp 3 -ls 2 QR").ok and session.execute("strmqm QR").ok
    session.current_qmgr = "QR"
    assert session.execute("DEFINE QLOCAL(Q1) MAXDEPTH(999999)").ok
    assert session.execute("LAB LOAD QUEUE(Q1) RECORDS(30000)").ok  # the ring goes round
    assert session.execute("LAB CRASH").ok
    paths = session.installation.paths("QR")
    paths.control_file.unlink()
    before = sorted(path.name for path in paths.log_dir.iterdir())
    result = session.execute("strmqm QR")
    assert not result.ok and result.code == 23
    assert "AMQ6767E" in session.render(result) and "control file is missing" in session.render(result)
    assert sorted(path.name for path in paths.log_dir.iterdir()) == before  # no fresh log in its place
    assert not paths.control_file.exists()
    session.close()


@pytest.mark.parametrize("engine", ["reference", "local"])
def test_a_deleted_objects_file_left_by_a_kill_goes_at_restart_and_never_brings_it_back(
    data_dir, monkeypatch, engine
):
    session = started(data_dir, "-ll", engine=ReplayEngine(engine))
    run(session, "DEFINE QLOCAL(GONE.Q) DESCR('deleted before the kill')")
    path = qmgr(session).paths.object_file("QUEUE", "GONE.Q")
    with monkeypatch.context() as killed_before_the_file_went:
        killed_before_the_file_went.setattr(
            ObjectCatalog, "remove_object_file", lambda catalog, key, path: None
        )
        assert run(session, "DELETE QLOCAL(GONE.Q)") == ["AMQ8007I: IBM MQ queue deleted."]
    run(session, "LAB CRASH")
    assert path.exists()  # its DELETE is in the log, the file still there
    assert run(session, "strmqm QM1")[-1] == "IBM MQ queue manager 'QM1' started."
    assert not path.exists()
    assert run(session, "DISPLAY QLOCAL(GONE.Q)") == ["AMQ8147E: IBM MQ object GONE.Q not found."]
    # The start's checkpoint moved the restart point past the DELETE: nothing may bring it back now.
    run(session, "endmqm QM1", "strmqm QM1")
    assert run(session, "DISPLAY QLOCAL(GONE.Q)") == ["AMQ8147E: IBM MQ object GONE.Q not found."]
    session.close()


def test_native_ha_defers_recovery_when_a_needed_extent_is_damaged(data_dir):
    """A damaged log record is a reason to wait and retry, as a missing extent is: the shell goes on."""
    session = started(data_dir, "-lr")
    run(
        session,
        "LAB CLOCK SET('2026-01-01 09:00:00')",
        "DEFINE QLOCAL(Q1) DEFPSIST(YES)",
        "LAB PUT QUEUE(Q1) COUNT(3)",
        "RESET QMGR TYPE(ADVANCELOG)",
        "endmqm QM1",
        "strmqm QM1",
    )
    manager = qmgr(session)
    needed = logstore.extent_name(logscan.extent_holding(manager.paths.log_dir, manager.media["QUEUE/Q1"]))
    run(session, f"LAB DAMAGE EXTENT({needed}) HOW(CORRUPT)", "LAB DAMAGE QUEUE(Q1)")
    lines = run(session, "LAB GET QUEUE(Q1)", "DISPLAY QMGR QMNAME")
    assert any("QMNAME(QM1)" in line for line in lines)
    assert f"deferred: log file {needed} is damaged: " in error_log(session)
    assert qmgr(session).state["QUEUE/Q1"].damaged
    session.close()
