"""LAB DAMAGE spoils the file of an object that exists; a name it cannot use is refused."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("command", ["LAB DAMAGE SUB(' ')", "LAB DAMAGE QUEUE(' ')"])
def test_a_blank_name_is_refused_and_the_queue_manager_goes_on(session, command):
    result = session.execute(command)
    assert not result.ok and result.syntax_error
    assert session.execute("DEFINE QLOCAL(STILL.WORKS)").ok


def test_a_subscription_with_a_very_long_name_is_kept_and_damaged_like_any_other(session):
    name = "S" * 5000
    assert session.execute(f"DEFINE SUB('{name}') TOPICSTR('long/name')").ok
    assert session.execute("endmqm QM1").ok and session.execute("strmqm QM1").ok
    assert session.execute(f"DISPLAY SUB('{name}')").ok
    assert session.execute(f"LAB DAMAGE SUB('{name}') HOW(DELETE)").ok
    assert session.execute("LAB CRASH").ok
    result = session.execute("strmqm QM1")
    assert result.ok, session.render(result)
    shown = session.execute(f"DISPLAY SUB('{name}')")
    assert not shown.ok and "AMQ8149S" in session.render(shown)  # damaged, not silently gone


def test_lab_errlog_goes_on_where_the_last_session_stopped_or_shows_all_or_the_last_n(data_dir):
    from mqsh.shell.session import Session

    first = Session(data_dir)
    for command in (
        "crtmqm -ll QM1",
        "strmqm QM1",
        "LAB USE QMGR(QM1)",
        "DEFINE QLOCAL(Q1)",
        "LAB DAMAGE QUEUE(Q1)",
        "DISPLAY QLOCAL(Q1)",
        "LAB CRASH",
        "strmqm QM1",
    ):
        first.execute(command)
    shown = first.render(first.execute("LAB ERRLOG")).splitlines()
    assert "AMQ7472W: Object Q1, type queue damaged." in shown
    first.close()

    later = Session(data_dir, qmgr="QM1")  # a new process, as a script run later
    assert later.render(later.execute("LAB ERRLOG")) == "No new messages in the error log of QM1."
    everything = later.render(later.execute("LAB ERRLOG ALL")).splitlines()
    assert everything == shown and len(shown) > 2
    assert later.render(later.execute("LAB ERRLOG LAST(2)")).splitlines() == shown[-2:]
    later.installation.paths("QM1").error_log.write_text("")  # an error log replaced: start again from it
    assert later.render(later.execute("LAB ERRLOG")) == "No new messages in the error log of QM1."
    later.close()


def test_lab_errlog_shows_the_z_os_messages_of_a_group_member(group):
    assert group.execute("DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES)").ok
    assert group.execute("BACKUP CFSTRUCT(APP1)").ok
    shown = group.render(group.execute("LAB ERRLOG")).splitlines()
    assert [line[:10] for line in shown] == ["CSQE120I: ", "CSQE121I: "]


@pytest.mark.parametrize("how", ["EMPTY", "HEADER", "BLOCK", "IOERROR"])
def test_a_data_set_s_kind_of_damage_is_refused_for_an_object_file_and_the_file_is_untouched(session, how):
    assert session.execute("DEFINE LISTENER(L1) TRPTYPE(TCP)").ok
    result = session.execute(f"LAB DAMAGE LISTENER(L1) HOW({how})")
    assert not result.ok
    assert session.render(result) == (
        f"mqsh: HOW({how}) damages a shared message data set; the file of "
        "LISTENER(L1) takes HOW(DELETE | TRUNCATE | CORRUPT)."
    )
    assert session.execute("DISPLAY LISTENER(L1)").ok  # not damaged
