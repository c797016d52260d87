"""DEFINE / ALTER / DELETE QLOCAL QSGDISP(SHARED): one definition for the group, messages every member sees."""

from __future__ import annotations

import pytest

from tests.commands.conftest import run


@pytest.fixture
def sq(shared_queue_group):
    return shared_queue_group


def test_a_shared_queue_is_defined_once_for_every_member(sq):
    assert run(sq, "DEFINE QLOCAL(SQ2) QSGDISP(SHARED) CFSTRUCT(APP1)") == [
        "CSQN205I   COUNT=       2, RETURN=00000000, REASON=00000000",
        "CSQ9022I -QM1 CSQMAQLC ' DEFINE QLOCAL' NORMAL COMPLETION",
    ]
    sq.current_qmgr = "QM2"
    assert (
        run(sq, "DEFINE QLOCAL(SQ2) QSGDISP(SHARED) CFSTRUCT(APP1)")[1]
        == "CSQM095I -QM2 CSQMAQLC QLOCAL(SQ2) ALREADY EXISTS"
    )
    assert sq.execute("DEFINE QLOCAL(SQ2) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(7) REPLACE").ok


def test_display_takes_cfstruct_as_an_attribute_to_show(sq):
    """z/OS DISPLAY QUEUE's requested attribute CFSTRUCT: shown for a shared queue, after its QSGDISP."""
    assert sq.execute("DEFINE QLOCAL(SQ2) QSGDISP(SHARED) CFSTRUCT(APP1)").ok
    for command in ("DISPLAY QLOCAL(SQ2) CFSTRUCT", "DISPLAY QUEUE(SQ2) CFSTRUCT"):
        assert run(sq, command)[2:6] == ["QUEUE(SQ2)", "TYPE(QLOCAL)", "QSGDISP(SHARED)", "CFSTRUCT(APP1)"], (
            command
        )


def test_messages_put_on_one_member_are_got_on_another(sq):
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(3)").ok
    sq.current_qmgr = "QM2"
    assert run(sq, "LAB GET QUEUE(SQ1) COUNT(3)") == ["3 message(s) got from queue SQ1 (outside syncpoint)."]
    assert "2033" in run(sq, "LAB GET QUEUE(SQ1)")[0]


def test_a_unit_of_work_hides_its_puts_until_commit_and_backout_restores_its_gets(sq):
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(2) SYNCPOINT").ok
    sq.current_qmgr = "QM2"
    assert "2033" in run(sq, "LAB GET QUEUE(SQ1)")[0]
    sq.current_qmgr = "QM1"
    assert run(sq, "LAB COMMIT") == ["Unit of work committed."]
    sq.current_qmgr = "QM2"
    assert sq.execute("LAB GET QUEUE(SQ1) COUNT(2) SYNCPOINT").ok
    assert run(sq, "LAB BACKOUT") == ["Unit of work backed out."]
    assert sq.execute("LAB GET QUEUE(SQ1) COUNT(2)").ok


@pytest.mark.parametrize(
    "command, message",
    [
        ("DEFINE QLOCAL(SQ3) QSGDISP(SHARED)", "CSQM092I -QM1 CSQMAQLC CFSTRUCT( ) VALUE INVALID"),
        (
            "DEFINE QLOCAL(SQ3) QSGDISP(SHARED) CFSTRUCT(NOPE)",
            "CSQM094I -QM1 CSQMAQLC CFSTRUCT(NOPE) WAS NOT FOUND",
        ),
        (
            "DEFINE QLOCAL(SQ3) QSGDISP(SHARED) CFSTRUCT(CSQ_ADMIN)",
            "CSQM092I -QM1 CSQMAQLC CFSTRUCT(CSQ_ADMIN) VALUE INVALID",
        ),
        (
            "DEFINE QALIAS(SQ3) QSGDISP(SHARED) TARGET(SQ1)",
            "CSQM092I -QM1 CSQMAQLC QSGDISP(SHARED) VALUE INVALID",
        ),
        (
            "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1)",
            "CSQM095I -QM1 CSQMAQLC QLOCAL(SQ1) ALREADY EXISTS",
        ),
        (
            "ALTER QLOCAL(NOPE) QSGDISP(SHARED) MAXDEPTH(5)",
            "CSQM094I -QM1 CSQMAQLC QLOCAL(NOPE) WAS NOT FOUND",
        ),
        ("DELETE QLOCAL(NOPE) QSGDISP(SHARED)", "CSQM094I -QM1 CSQMAQLC QLOCAL(NOPE) WAS NOT FOUND"),
    ],
)
def test_what_the_rules_refuse(sq, command, message):
    lines = run(sq, command)
    assert lines[1] == message
    assert lines[-1].startswith("CSQ9023E")
    assert not sq.execute(command).ok


def test_a_local_queue_name_cannot_be_shared_too(sq):
    assert sq.execute("DEFINE QLOCAL(LQ1)").ok
    assert (
        run(sq, "DEFINE QLOCAL(LQ1) QSGDISP(SHARED) CFSTRUCT(APP1)")[1]
        == "CSQM095I -QM1 CSQMAQLC QLOCAL(LQ1) ALREADY EXISTS"
    )


def test_a_queue_with_messages_is_not_deleted_nor_moved_and_its_structure_stays(sq):
    assert sq.execute("DEFINE CFSTRUCT(APP2) CFLEVEL(4)").ok
    assert sq.execute("LAB PUT QUEUE(SQ1)").ok
    assert (
        run(sq, "DELETE QLOCAL(SQ1) QSGDISP(SHARED)")[1]
        == "CSQM101I -QM1 CSQMAQLC QLOCAL(SQ1) IS CURRENTLY IN USE"
    )
    assert (
        run(sq, "ALTER QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP2)")[1]
        == "CSQM101I -QM1 CSQMAQLC QLOCAL(SQ1) IS CURRENTLY IN USE"
    )
    assert run(sq, "DELETE CFSTRUCT(APP1)")[1] == "CSQM101I -QM1 CSQMACFS CFSTRUCT(APP1) IS CURRENTLY IN USE"
    assert sq.execute("LAB GET QUEUE(SQ1)").ok
    assert sq.execute("ALTER QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP2)").ok
    assert sq.execute("DELETE QLOCAL(SQ1) QSGDISP(SHARED)").ok
    assert "2085" in run(sq, "LAB PUT QUEUE(SQ1)")[0]


def test_a_structure_goes_while_queues_name_it_only_when_each_is_empty_and_closed(sq):
    assert sq.execute("LAB OPEN QUEUE(SQ1)").ok
    assert run(sq, "DELETE CFSTRUCT(APP1)")[1] == "CSQM101I -QM1 CSQMACFS CFSTRUCT(APP1) IS CURRENTLY IN USE"
    assert (
        run(sq, "DELETE QLOCAL(SQ1) QSGDISP(SHARED)")[1]
        == "CSQM101I -QM1 CSQMAQLC QLOCAL(SQ1) IS CURRENTLY IN USE"
    )
    assert sq.execute("LAB CLOSE QUEUE(SQ1)").ok
    assert sq.execute("DELETE CFSTRUCT(APP1)").ok
    # The queue names a structure the group no longer defines: MQRC_CF_STRUC_ERROR until it is defined again.
    assert "2349" in run(sq, "LAB PUT QUEUE(SQ1)")[0]
    assert sq.execute("DEFINE CFSTRUCT(APP1) CFLEVEL(4)").ok
    assert sq.execute("LAB PUT QUEUE(SQ1)").ok


def test_a_cflevel_1_structure_goes_with_its_last_queue(sq):
    for command in (
        "DEFINE CFSTRUCT(OLD1) CFLEVEL(1)",
        "DEFINE QLOCAL(SQ2) QSGDISP(SHARED) CFSTRUCT(OLD1)",
        "DEFINE QLOCAL(SQ3) QSGDISP(SHARED) CFSTRUCT(OLD1)",
        "DELETE QLOCAL(SQ2) QSGDISP(SHARED)",
    ):
        assert sq.execute(command).ok, command
    assert sq.execute("DISPLAY CFSTRUCT(OLD1)").ok
    assert sq.execute("DELETE QLOCAL(SQ3) QSGDISP(SHARED)").ok
    assert run(sq, "DISPLAY CFSTRUCT(OLD1)")[1] == "CSQM094I -QM1 CSQMDRTS CFSTRUCT(OLD1) WAS NOT FOUND"


def test_alter_keeps_what_it_does_not_change(sq):
    assert sq.execute("ALTER QLOCAL(SQ1) QSGDISP(SHARED) PUT(DISABLED)").ok
    assert "2051" in run(sq, "LAB PUT QUEUE(SQ1)")[0]
    sq.current_qmgr = "QM2"
    assert "2051" in run(sq, "LAB PUT QUEUE(SQ1)")[0]
    assert sq.execute("ALTER QLOCAL(SQ1) QSGDISP(SHARED) PUT(ENABLED)").ok
    assert run(sq, "LAB PUT QUEUE(SQ1)") == ["1 persistent message(s) put on queue SQ1 (outside syncpoint)."]


def test_outside_a_group_a_shared_queue_is_refused(session):
    lines = run(session, "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1)")
    assert lines[1] == "CSQM150I -QM1 CSQMAQLC QUEUE MANAGER NOT IN A QUEUE SHARING GROUP"


def test_define_replace_of_a_shared_queue_resets_what_it_does_not_state_and_keeps_its_messages(sq):
    assert sq.execute("DEFINE QLOCAL(SQ2) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(7) DESCR('a')").ok
    assert sq.execute("LAB PUT QUEUE(SQ2) COUNT(2)").ok
    assert sq.execute("DEFINE QLOCAL(SQ2) QSGDISP(SHARED) CFSTRUCT(APP1) DESCR('b') REPLACE").ok
    text = " ".join(run(sq, "DISPLAY QLOCAL(SQ2) MAXDEPTH DESCR CURDEPTH"))
    assert "MAXDEPTH(5000)" in text and "DESCR(b)" in text and "CURDEPTH(2)" in text


def test_a_shared_queue_defined_without_like_is_like_the_default_local_queue(sq):
    assert sq.execute("ALTER QLOCAL(SYSTEM.DEFAULT.LOCAL.QUEUE) MAXDEPTH(100)").ok
    assert sq.execute("DEFINE QLOCAL(SQ2) QSGDISP(SHARED) CFSTRUCT(APP1)").ok
    assert "MAXDEPTH(100)" in " ".join(run(sq, "DISPLAY QLOCAL(SQ2) MAXDEPTH"))
    assert sq.execute("DELETE QLOCAL(SYSTEM.DEFAULT.LOCAL.QUEUE)").ok
    assert (
        run(sq, "DEFINE QLOCAL(SQ3) QSGDISP(SHARED) CFSTRUCT(APP1)")[1]
        == "CSQM094I -QM1 CSQMAQLC QLOCAL(SYSTEM.DEFAULT.LOCAL.QUEUE) WAS NOT FOUND"
    )
