"""DISPLAY QMSTATUS log fields, QSTATUS MEDIALOG, SET LOG ARCHIVED and RESET QMGR."""

from __future__ import annotations

from mqsh.commands.log import lsn_text
from mqsh.shell.session import Session


def attributes(result) -> dict:
    return dict(result.responses[0].attributes)


def linear(data_dir, options: str = "") -> Session:
    session = Session(data_dir)
    assert session.execute(f"crtmqm -ll -lf 64 {options} QL").ok
    assert session.execute("strmqm QL").ok
    session.current_qmgr = "QL"
    return session


def test_lsn_text_has_four_sixteen_bit_parts():
    assert lsn_text(0) == "<0:0:0:0>"
    assert lsn_text(65536 * 79 + 38170) == "<0:0:79:38170>"


def test_circular_log_shows_no_extent_names(session):
    shown = attributes(session.execute("DISPLAY QMSTATUS ALL"))
    assert shown["LOGTYPE"] == "CIRCULAR"
    for name in ("RECLOG", "MEDIALOG", "CURRLOG", "ARCHLOG"):
        assert name not in shown
    asked = attributes(session.execute("DISPLAY QMSTATUS CURRLOG MEDIALOG"))  # by name: blank
    assert asked["CURRLOG"] == " " and asked["MEDIALOG"] == " " and "RECLOG" not in asked
    assert (
        shown["LOGPRIM"] == "3" and shown["LOGSEC"] == "2" and shown["LOGEXTSZ"] == "16392"
    )  # as real output: 4096 pages and a header


def test_linear_log_fields_follow_the_log(data_dir):
    session = linear(data_dir)
    session.execute("DEFINE QLOCAL(Q1) MAXDEPTH(99999)")
    qmgr = session.installation.connect("QL")
    for _ in range(2000):
        qmgr.put("Q1", persistent=True)
    shown = attributes(session.execute("DISPLAY QMSTATUS LOG"))
    assert shown["LOGTYPE"] == "LINEAR"
    assert shown["CURRLOG"] == f"S{qmgr.log.extent:07d}.LOG" != "S0000000.LOG"
    assert shown["MEDIALOG"] == "S0000000.LOG"  # the default objects' creation records
    assert shown["ARCHLOG"] == " "  # LogManagement is Manual
    assert shown["LOGFSSZ"] == "SHARED"
    queue = attributes(session.execute("DISPLAY QSTATUS(Q1) MEDIALOG"))
    assert queue["MEDIALOG"] == "S0000000.LOG"
    session.close()


def test_medialog_is_blank_for_a_queue_that_is_not_recoverable(data_dir):
    session = linear(data_dir)
    session.execute("DEFINE QLOCAL(Q1) IMGRCOVQ(NO)")
    assert attributes(session.execute("DISPLAY QSTATUS(Q1) MEDIALOG"))["MEDIALOG"] == " "
    session.close()


def test_set_log_archived_needs_archive_management(data_dir):
    session = linear(data_dir)
    result = session.execute("SET LOG ARCHIVED(S0000000.LOG)")
    assert not result.ok and result.responses[0].msgid == "AMQ8897E"
    session.close()


def test_set_log_archived_refuses_the_current_and_unknown_extents(data_dir):
    session = linear(data_dir, "--log-management archive")
    shown = attributes(session.execute("DISPLAY QMSTATUS LOG"))
    assert shown["ARCHLOG"] == " "
    current = shown["CURRLOG"]
    assert session.execute(f"SET LOG ARCHIVED({current})").responses[0].msgid == "AMQ8899E"
    assert session.execute("SET LOG ARCHIVED(S0000099.LOG)").responses[0].msgid == "AMQ8898E"
    assert session.execute("RESET QMGR TYPE(ADVANCELOG)").ok
    shown = attributes(session.execute("DISPLAY QMSTATUS LOG"))
    assert shown["ARCHLOG"] == current  # sealed, waiting for its archive notification
    assert session.execute(f"SET LOG ARCHIVED({current})").ok
    assert session.execute(f"RESET QMGR TYPE(ARCHLOG) ARCHIVED({current})").ok  # twice is not an error
    assert "AMQ7482W" in session.installation.connect("QL").paths.error_log.read_text()
    session.close()


def test_reset_archlog_notifies_every_extent_up_to_the_one_named_and_set_log_only_that_one(data_dir):
    session = linear(data_dir, "--log-management archive")
    first = attributes(session.execute("DISPLAY QMSTATUS LOG"))["CURRLOG"]
    for _ in range(4):
        assert session.execute("RESET QMGR TYPE(ADVANCELOG)").ok
    names = [f"S{int(first[1:8]) + step:07d}.LOG" for step in range(4)]
    assert session.execute(f"SET LOG ARCHIVED({names[1]})").ok
    assert attributes(session.execute("DISPLAY QMSTATUS ARCHLOG"))["ARCHLOG"] == names[0]
    assert session.execute(f"RESET QMGR TYPE(ARCHLOG) ARCHIVED({names[2]})").ok
    assert attributes(session.execute("DISPLAY QMSTATUS ARCHLOG"))["ARCHLOG"] == names[3]
    session.close()


def test_advancelog_starts_a_new_extent(data_dir):
    session = linear(data_dir)
    before = attributes(session.execute("DISPLAY QMSTATUS LOG"))["CURRLOG"]
    assert session.execute("RESET QMGR TYPE(ADVANCELOG)").ok
    after = attributes(session.execute("DISPLAY QMSTATUS LOG"))["CURRLOG"]
    assert int(after[1:8]) == int(before[1:8]) + 1
    session.close()


def test_advancelog_needs_a_linear_log(session):
    assert session.execute("RESET QMGR TYPE(ADVANCELOG)").responses[0].msgid == "AMQ8900E"


def test_crtmqm_refuses_log_values_mq_does_not_allow(data_dir):
    session = Session(data_dir)
    for options in ("-lf 0", "-lf 70000", "-lp 1", "-lc --log-management archive", "--checkpoint-records 5"):
        result = session.execute(f"crtmqm {options} QX")
        assert not result.ok and result.code == 36, options
    assert not session.installation.exists("QX")
