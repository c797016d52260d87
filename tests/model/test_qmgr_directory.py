"""What a data directory's files say of its queue managers: their status files, which exist, the default."""

from __future__ import annotations

import pytest

from tests.recovery.helpers import run, started


@pytest.mark.parametrize("content", [b"\xff\xfe\x00\x81", b"RUNN", b"STARTING", None])
def test_a_status_file_lost_after_a_crash_is_told_by_the_log(session, content):
    """Unreadable or deleted, the status file is not taken for 'Ended normally': the log control
    file says the queue manager did not end cleanly."""
    run(session, "DEFINE QLOCAL(Q1) DEFPSIST(YES)", "LAB PUT QUEUE(Q1) COUNT(2)", "LAB CRASH")
    status_file = session.installation.paths("QM1").status_file
    status_file.unlink() if content is None else status_file.write_bytes(content)
    assert run(session, "dspmq") == [f"{'QMNAME(QM1)':<58}STATUS(Ended unexpectedly)"]
    assert run(session, "DISPLAY QMGR") == ["AMQ8146E: IBM MQ queue manager not available."]
    assert run(session, "strmqm QM1")[-1] == "IBM MQ queue manager 'QM1' started."
    assert run(session, "DISPLAY QSTATUS(Q1) CURDEPTH")[-1].strip() == "CURDEPTH(2)"
    assert session.installation.status("QM1") == "RUNNING"


@pytest.mark.parametrize("content", [b"\xff\xfe\x00\x81", None])
def test_a_status_file_lost_after_a_clean_end_is_status_not_available(session, content):
    assert run(session, "endmqm QM1")
    status_file = session.installation.paths("QM1").status_file
    status_file.unlink() if content is None else status_file.write_bytes(content)
    assert run(session, "dspmq") == [f"{'QMNAME(QM1)':<58}STATUS(Status not available)"]
    assert run(session, "strmqm QM1")[-1] == "IBM MQ queue manager 'QM1' started."


def test_an_unreadable_mqs_ini_names_no_default(data_dir):
    session = started(data_dir, "-lc", "QMA")
    assert session.execute("crtmqm -q QMB").ok
    assert session.installation.default_name() == "QMB"
    (data_dir / "mqs.ini").write_bytes(b"\xff\xfe\x00")
    assert session.installation.default_name() is None  # two queue managers, none named
    assert run(session, "dltmqm QMB") == ["IBM MQ queue manager 'QMB' deleted."]
    assert session.installation.default_name() == "QMA"
    session.close()
