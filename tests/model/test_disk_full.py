"""A full disk: nothing acknowledged is lost, nothing is left half-written, the session stays usable.

The disk fills by injection here (ENOSPC from the Nth write, or a write the file
system takes only in part), and for real on a small tmpfs where the test may mount one.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import shutil
import subprocess
import sys
import uuid
from datetime import timedelta
from pathlib import Path

import pytest

from mqsh.core.reasons import MQError
from mqsh.shell.session import Session
from mqsh.store import files as files_module
from mqsh.store import log as logstore
from mqsh.store import log_writer
from tests.support import started_qmgr

REAL_WRITE = os.write


class FullDisk:
    """Every write after the first `room` log writes finds no room: log records, the error log,
    and files replaced whole (object files, the control file, the catalog, the redo record)."""

    def __init__(self, monkeypatch, room: int = 0, torn: bool = True):
        self.room = room
        self.torn = torn  # the write that fills the disk takes part of the record, as a file system may
        self.monkeypatch = monkeypatch
        monkeypatch.setattr(logstore.os, "write", self._write)
        monkeypatch.setattr(files_module, "open", self._open, raising=False)

    def _write(self, fd, data):
        if self.room > 0:
            self.room -= 1
            return REAL_WRITE(fd, data)
        if self.torn and len(data) > 7:
            return REAL_WRITE(fd, bytes(data)[:7])  # a short write, no error: what a filling disk does
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def _open(self, path, mode="r", *args, **kwargs):
        if "w" in mode and self.room <= 0:
            return _NoRoom()
        return open(path, mode, *args, **kwargs)

    def free(self) -> None:
        self.monkeypatch.undo()


class _NoRoom(io.BytesIO):
    def write(self, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def started(data_dir, options: str = "-ll", name: str = "QD") -> tuple[Session, object]:
    return started_qmgr(data_dir, options, name)


def depth_after_restart(session: Session, name: str = "QD") -> tuple[int, int]:
    session.installation.crash(name)
    result = session.execute(f"strmqm {name}")
    assert result.ok, session.render(result)
    qmgr = session.installation.connect(name)
    queue = qmgr.lookup("QUEUE", "Q1")
    return qmgr.depth(queue), qmgr.uncommitted(queue)


@pytest.mark.parametrize("torn", [True, False], ids=["short-write", "enospc"])
def test_a_put_the_disk_has_no_room_for_fails_and_leaves_nothing_in_the_log(data_dir, monkeypatch, torn):
    session, qmgr = started(data_dir)
    for _ in range(5):
        qmgr.put("Q1", persistent=True)
    log_size = qmgr.log.size
    disk = FullDisk(monkeypatch, torn=torn)
    with pytest.raises(MQError) as failure:
        qmgr.put("Q1", persistent=True)
    assert failure.value.reason == 2102
    extent = logstore.extent_path(qmgr.paths.log_dir, qmgr.log.extent)
    assert extent.stat().st_size == log_size  # the part the disk took is cut back at once
    disk.free()
    assert qmgr.running  # the queue manager goes on
    assert depth_after_restart(session) == (5, 0)
    session.close()


def test_the_session_answers_while_the_disk_is_full_and_works_again_once_there_is_room(data_dir, monkeypatch):
    session, qmgr = started(data_dir)
    qmgr.put("Q1", persistent=True)
    qmgr.put("Q1", persistent=True, syncpoint=True)  # in flight when the disk fills
    disk = FullDisk(monkeypatch)
    result = session.execute("LAB PUT QUEUE(Q1) COUNT(3) PERSISTENT")
    assert not result.ok and "2102" in session.render(result)
    display = session.execute("DISPLAY QLOCAL(Q1) CURDEPTH")
    assert display.ok and "CURDEPTH(1)" in session.render(display)  # the unit in flight was backed out
    commit = session.execute("LAB COMMIT")
    assert not commit.ok and "2003" in session.render(commit)  # MQCMIT is told of the backout
    disk.free()
    assert session.execute("LAB PUT QUEUE(Q1) COUNT(2) PERSISTENT").ok
    assert depth_after_restart(session) == (3, 0)
    session.close()


def test_a_checkpoint_the_disk_cuts_short_keeps_what_it_did_not_write(data_dir, monkeypatch):
    """The restart point moves only once every change before it is in the object files."""
    session, qmgr = started(data_dir, "-ll --checkpoint-records 1000")
    for _ in range(10):
        qmgr.put("Q1", persistent=True)
    restart_point = qmgr.restart_point
    disk = FullDisk(monkeypatch, room=1)  # room for the checkpoint record, none for the files
    with pytest.raises(OSError):
        qmgr.checkpoint()
    disk.free()
    assert qmgr.restart_point == restart_point
    assert not list(qmgr.paths.qmgr_dir.rglob("*.tmp"))  # no half-written file left about
    qmgr.checkpoint()  # the next checkpoint writes what the failed one did not
    assert depth_after_restart(session) == (10, 0)
    session.close()


def test_a_checkpoint_due_on_a_full_disk_does_not_fail_the_call(data_dir, monkeypatch):
    session, qmgr = started(data_dir, "-ll --checkpoint-records 100")
    while qmgr.since_checkpoint < qmgr.checkpoint_every - 1:
        qmgr.put("Q1", persistent=True)
    acknowledged = qmgr.depth(qmgr.lookup("QUEUE", "Q1"))
    disk = FullDisk(monkeypatch, room=2)  # the put's record and the checkpoint's, then no more
    qmgr.put("Q1", persistent=True)  # acknowledged: its record is in the log
    disk.free()
    assert depth_after_restart(session) == (acknowledged + 1, 0)
    session.close()


def test_endmqm_on_a_full_disk_ends_the_queue_manager_and_the_next_start_recovers_it(data_dir, monkeypatch):
    session, qmgr = started(data_dir)
    for _ in range(4):
        qmgr.put("Q1", persistent=True)
    qmgr.put("Q1", persistent=True, syncpoint=True)
    disk = FullDisk(monkeypatch)
    result = session.execute("endmqm QD")
    assert result.ok, session.render(result)
    assert "ended without its shutdown checkpoint" in session.render(result)
    assert "Ended unexpectedly" in session.render(session.execute("dspmq -m QD"))
    disk.free()
    result = session.execute("strmqm QD")
    assert result.ok, session.render(result)
    qmgr = session.installation.connect("QD")
    queue = qmgr.lookup("QUEUE", "Q1")
    assert (qmgr.depth(queue), qmgr.uncommitted(queue)) == (4, 0)
    session.close()


def test_a_backout_on_a_full_disk_takes_the_logs_reserve(data_dir, monkeypatch):
    session, qmgr = started(data_dir)
    reserve = qmgr.log.reserve
    assert reserve is not None and reserve.stat().st_size == log_writer.RESERVE_BYTES
    qmgr.put("Q1", persistent=True, syncpoint=True)

    real_append = log_writer.LogWriter.append_block
    state = {"reserve_gone": False}

    def append_block(writer, data, count):
        # No room until the reserve is given up: then exactly its room.
        if reserve.exists():
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        state["reserve_gone"] = True
        return real_append(writer, data, count)

    monkeypatch.setattr(log_writer.LogWriter, "append_block", append_block)
    assert qmgr.backout() == 1
    monkeypatch.undo()
    assert state["reserve_gone"]
    records = list(logstore.read_records(qmgr.paths.log_dir))
    assert records[-1]["t"] == "BCK"
    qmgr.checkpoint()
    assert reserve.exists()  # made again once there is room
    session.close()


# ------------------------------------------------------------------ a real small file system
def _mount_tmpfs(directory: Path, size: str) -> bool:
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    directory.mkdir(parents=True, exist_ok=True)
    return (
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(directory)], capture_output=True
        ).returncode
        == 0
    )


def _mqsh(data_dir: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mqsh", "--data-dir", str(data_dir), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=Path(__file__).resolve().parents[2],
    )


@pytest.fixture
def small_tmpfs(tmp_path):
    directory = tmp_path / f"tmpfs-{uuid.uuid4().hex[:8]}"
    if not _mount_tmpfs(directory, "600k"):
        pytest.skip("cannot mount a tmpfs here (needs root)")
    yield directory
    subprocess.run(["umount", "-l", str(directory)], capture_output=True)


# Slow: mqsh processes on a real tmpfs; the rules are held in process, with the disk's refusals made up, above.
@pytest.mark.slow
def test_a_real_full_file_system_loses_no_acknowledged_message(small_tmpfs):
    data = small_tmpfs
    assert _mqsh(data, "crtmqm", "FULLQM").returncode == 0
    assert _mqsh(data, "strmqm", "FULLQM").returncode == 0
    run = _mqsh(
        data,
        "FULLQM",
        stdin="DEFINE QLOCAL(FULL.Q) MAXDEPTH(999999)\n"
        "LAB PUT QUEUE(FULL.Q) COUNT(3000) PERSISTENT\n"
        "DISPLAY QLOCAL(FULL.Q) CURDEPTH\n"
        "endmqm FULLQM\n",
    )
    assert "Traceback" not in run.stdout + run.stderr and "internal error" not in run.stderr
    assert "MQRC_RESOURCE_PROBLEM" in run.stdout
    acknowledged = int(run.stdout.split(" message(s) completed before the failure")[0].rsplit("\n", 1)[-1])
    assert f"CURDEPTH({acknowledged})" in run.stdout  # DISPLAY answers while the disk is full
    assert "IBM MQ queue manager 'FULLQM' ended." in run.stdout  # and endmqm works
    subprocess.run(["mount", "-o", "remount,size=4m", str(data)], check=True)
    assert _mqsh(data, "strmqm", "FULLQM").returncode == 0
    after = _mqsh(data, "FULLQM", stdin="DISPLAY QSTATUS(FULL.Q) CURDEPTH UNCOM\n")
    assert f"CURDEPTH({acknowledged})" in after.stdout, after.stdout


def test_lab_load_on_a_full_disk_fails_with_2102_and_the_session_goes_on(data_dir, monkeypatch):
    session, qmgr = started(data_dir, "-ll -lf 16")
    for _ in range(3):
        qmgr.put("Q1", persistent=True)
    disk = FullDisk(monkeypatch, room=1)  # one block of records, then no room
    result = session.execute("LAB LOAD QUEUE(Q1) RECORDS(20000)")
    assert (
        not result.ok and "before the failure" in session.render(result) and "2102" in session.render(result)
    )
    depth = qmgr.depth(qmgr.lookup("QUEUE", "Q1"))
    assert session.execute("DISPLAY QLOCAL(Q1) CURDEPTH").ok
    disk.free()
    assert depth_after_restart(session) == (depth, 0)  # what the load wrote stands, and nothing more
    session.close()


def test_commands_on_a_full_disk_fail_with_mqs_words_and_the_session_goes_on(data_dir, monkeypatch):
    session, qmgr = started(data_dir)
    clock_before = session.installation.clock.now()
    disk = FullDisk(monkeypatch)
    define = session.execute("DEFINE QLOCAL(NEW.Q)")
    assert not define.ok and session.render(define) == "AMQ8101S: IBM MQ error (836) has occurred."
    clock = session.execute("LAB CLOCK ADVANCE(1D)")
    assert not clock.ok and "it has not moved" in session.render(clock)
    assert session.installation.clock.now() - clock_before < timedelta(hours=1)
    created = session.execute("crtmqm QX")
    assert not created.ok and created.code == 71 and "AMQ7002E" in session.render(created)
    assert not session.installation.exists("QX")  # nothing half-made is left
    assert session.execute("DISPLAY QLOCAL(Q1)").ok
    disk.free()
    assert session.execute("DEFINE QLOCAL(NEW.Q)").ok
    session.close()


def test_a_change_logged_whose_object_file_finds_no_room_is_written_at_the_next_checkpoint(
    data_dir, monkeypatch
):
    session, qmgr = started(data_dir)
    disk = FullDisk(monkeypatch, room=1)  # the definition's record, then no room for its file
    assert session.execute("DEFINE QLOCAL(LOGGED.Q) DESCR('in the log')").ok
    qmgr.settle_files()  # the file is written behind the command: it has met the full disk
    disk.free()
    path = qmgr.paths.object_file("QUEUE", "LOGGED.Q")
    assert not path.exists()
    qmgr.checkpoint()
    assert path.exists()
    assert depth_after_restart(session) == (0, 0)
    assert session.installation.connect("QD").lookup("QUEUE", "LOGGED.Q").attributes["DESCR"] == "in the log"
    session.close()


# Slow: seven mqsh processes and a load of 20,000 records; a full log's AMQ7463E is held in process by
# tests/model/test_logspace.py.
@pytest.mark.slow
def test_rcdmqimg_on_a_nearly_full_linear_log_reports_the_full_log_and_logfsuse_stays_within_100(data_dir):
    from tests.support import run_mqsh

    def mqsh(*args, stdin=""):
        done = run_mqsh(*args, stdin=stdin, data_dir=data_dir, timeout=300)
        assert "Traceback" not in done.stdout + done.stderr and "internal error" not in done.stderr
        return done

    assert (
        mqsh(
            "crtmqm", "-ll", "-lf", "16", "--log-management", "automatic", "--log-fs-size", "1", "QF"
        ).returncode
        == 0
    )
    assert mqsh("strmqm", "QF").returncode == 0
    mqsh(
        "QF",
        stdin="DEFINE QLOCAL(A)\nDEFINE QLOCAL(B)\nLAB PUT QUEUE(A) COUNT(10) PERSISTENT\n"
        "LAB PUT QUEUE(B) COUNT(10) PERSISTENT\nLAB DAMAGE QUEUE(A) HOW(DELETE)\n"
        "LAB LOAD QUEUE(B) RECORDS(20000)\n",
    )
    mqsh("strmqm", "QF")
    mqsh("rcrmqobj", "-m", "QF", "-t", "ql", "A")
    imaged = mqsh("rcdmqimg", "-m", "QF", "-t", "all", "*")
    assert imaged.returncode in (0, 1), imaged.stdout + imaged.stderr  # done, or the full log reported
    if imaged.returncode == 1:
        assert "AMQ7463E" in imaged.stdout or "AMQ8146E" in imaged.stdout
    mqsh("strmqm", "QF")
    shown = mqsh("QF", stdin="DISPLAY QMSTATUS LOGFSUSE\n").stdout
    usage = [int(word[len("LOGFSUSE(") : -1]) for word in shown.split() if word.startswith("LOGFSUSE(")]
    assert usage and usage[0] <= 100, shown


# Slow: mqsh processes on a real tmpfs; a session on a full disk is held in process above.
@pytest.mark.slow
def test_a_new_session_on_a_full_file_system_displays_everything_and_ends_the_queue_manager(small_tmpfs):
    """A session opened once the file system is full (the queue manager left running by the one
    that filled it): it takes the queue manager over without its restart checkpoint, DISPLAYs and
    LAB ERRLOG answer, a put that finds no room answers MQ's reason, and endmqm ends it; nothing
    acknowledged is lost."""
    data = small_tmpfs
    assert _mqsh(data, "crtmqm", "FULLQM").returncode == 0
    assert _mqsh(data, "strmqm", "FULLQM").returncode == 0
    filled = _mqsh(
        data,
        "FULLQM",
        stdin="DEFINE QLOCAL(FULL.Q) MAXDEPTH(999999)\nLAB PUT QUEUE(FULL.Q) COUNT(3000) PERSISTENT\n",
    )
    assert "MQRC_RESOURCE_PROBLEM" in filled.stdout
    acknowledged = int(filled.stdout.split(" message(s) completed before the failure")[0].rsplit("\n", 1)[-1])
    # whatever room is left, taken
    with open(data / "filler", "wb", buffering=0) as filler, contextlib.suppress(OSError):
        while filler.write(bytes(4096)):
            pass
    run = _mqsh(
        data,
        "FULLQM",
        stdin="DISPLAY QSTATUS(FULL.Q) CURDEPTH\nDISPLAY QMSTATUS LOG\nLAB ERRLOG\n"
        "LAB PUT QUEUE(FULL.Q) COUNT(3000) PERSISTENT\nendmqm FULLQM\n",
    )
    assert "cannot use" not in run.stderr and "Traceback" not in run.stdout + run.stderr, run.stderr
    assert f"CURDEPTH({acknowledged})" in run.stdout
    assert "AMQ8705I" in run.stdout and "LOGTYPE(CIRCULAR)" in run.stdout
    assert "error log of FULLQM" in run.stdout  # LAB ERRLOG answers: nothing new it could write
    assert "MQPUT ended with reason code 2102 (MQRC_RESOURCE_PROBLEM)." in run.stdout
    more = int(run.stdout.split(" message(s) completed before the failure")[0].rsplit("\n", 1)[-1])
    assert "IBM MQ queue manager 'FULLQM' ended." in run.stdout
    (data / "filler").unlink()
    assert _mqsh(data, "strmqm", "FULLQM").returncode == 0
    after = _mqsh(data, "FULLQM", stdin="DISPLAY QSTATUS(FULL.Q) CURDEPTH\n")
    assert f"CURDEPTH({acknowledged + more})" in after.stdout, after.stdout
