"""LAB controls refuse names MQ would not take and leave the queue manager usable (the clock's range: tests/core/test_clock.py)."""

from __future__ import annotations

import pytest

from mqsh.store import putnotes
from mqsh.store.identity import process_user
from tests.recovery.helpers import run


@pytest.mark.parametrize("command", ["LAB DAMAGE SUB('')", "LAB CRASH QMGR('')"])
def test_an_empty_name_is_a_syntax_error_and_nothing_happens(session, command):
    result = session.execute(command)
    assert result.syntax_error and "AMQ8405I" in session.render(result)
    assert session.execute("DEFINE QLOCAL(AFTER)").ok  # QM1 was not crashed


def test_browse_lists_what_gets_would_take_in_their_order_and_takes_none(session):
    run(
        session,
        "DEFINE QLOCAL(B1)",
        "LAB PUT QUEUE(B1) COUNT(2) PRIORITY(3) SIZE(10) PERSISTENT",
        "LAB PUT QUEUE(B1) PRIORITY(5) SIZE(20) NONPERSISTENT",
        "LAB PUT QUEUE(B1) SIZE(30) SYNCPOINT",
    )  # uncommitted: no get can take it yet
    lines = run(session, "LAB BROWSE QUEUE(B1)")
    assert lines[0] == "3 message(s) on queue B1, in the order a get takes them:"
    assert [line.split("SIZE(")[1].split(")")[0] for line in lines[1:]] == ["20", "10", "10"]
    assert "PERSISTENT(NO)" in lines[1] and "PERSISTENT(YES)" in lines[2]
    assert run(session, "LAB BROWSE QUEUE(B1) COUNT(1)")[1:] == lines[1:2]
    assert run(session, "LAB COMMIT", "DISPLAY QLOCAL(B1) CURDEPTH")[-1].strip() == "CURDEPTH(4)"
    after = run(session, "LAB GET QUEUE(B1)", "LAB BROWSE QUEUE(B1)")

    def unnumbered(listed):
        return [line.split(None, 1)[1] for line in listed]

    assert unnumbered(after[1:3]) == unnumbered(lines[2:]) and "SIZE(30)" in after[3] and len(after) == 4


def test_browse_of_a_shared_queue_lists_its_structure_entries(shared_queue_group):
    session = shared_queue_group
    run(session, "LAB PUT QUEUE(SQ1) COUNT(2) SIZE(11)")
    lines = run(session, "LAB BROWSE QUEUE(SQ1)")
    assert lines[0].startswith("2 message(s) on queue SQ1") and all("SIZE(11)" in line for line in lines[1:])


@pytest.mark.parametrize(
    "command, answer",
    [
        ("LAB BROWSE QUEUE(NOPE)", "MQGET ended with reason code 2085 (MQRC_UNKNOWN_OBJECT_NAME)."),
        ("LAB BROWSE QUEUE(SYSTEM.DEFAULT.LOCAL.QUEUE)", "No messages on queue SYSTEM.DEFAULT.LOCAL.QUEUE."),
    ],
)
def test_browse_answers_for_a_missing_or_empty_queue(session, command, answer):
    assert run(session, command) == [answer]


def test_browse_of_a_shared_queue_names_who_put_each_message_from_its_members_log(shared_queue_group):
    session = shared_queue_group
    run(session, "LAB USE QMGR(QM2)", "LAB PUT QUEUE(SQ1) COUNT(2)", "LAB USE QMGR(QM1)")
    lines = run(session, "LAB BROWSE QUEUE(SQ1)")
    assert len(lines) == 3
    assert all(line.endswith(f"USERID({process_user()})  PUTAPPL(mqsh)") for line in lines[1:])


def test_browse_of_a_shared_message_whose_putter_notes_are_gone_shows_blank_fields(shared_queue_group):
    session = shared_queue_group
    run(session, "LAB PUT QUEUE(SQ1)")
    putnotes.notes_path(session.installation.paths("QM1").log_root).unlink()
    assert run(session, "LAB BROWSE QUEUE(SQ1)")[1].endswith("USERID( )  PUTAPPL( )")


def test_browse_keeps_the_putter_of_shared_messages_recover_cfstruct_rebuilt(shared_queue_group):
    session = shared_queue_group
    run(
        session,
        "LAB PUT QUEUE(SQ1) COUNT(2)",
        "BACKUP CFSTRUCT(APP1)",
        "LAB USE QMGR(QM2)",
        "LAB PUT QUEUE(SQ1)",
        "LAB FAIL CFSTRUCT(APP1)",
        "RECOVER CFSTRUCT(APP1)",
    )
    lines = run(session, "LAB BROWSE QUEUE(SQ1)")
    assert lines[0].startswith("3 message(s)")
    assert all(line.endswith(f"USERID({process_user()})  PUTAPPL(mqsh)") for line in lines[1:])
