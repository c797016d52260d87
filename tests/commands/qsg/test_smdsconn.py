"""START, STOP and DISPLAY SMDSCONN, RESET CFSTRUCT ACTION(FAIL) and DISPLAY USAGE TYPE(SMDS)."""

from __future__ import annotations

import pytest

from mqsh.model.qsg import states
from mqsh.model.qsg.repository import SharedRepository
from tests.commands.conftest import run
from tests.commands.qsg.test_cfstatus import fields
from tests.commands.qsg.test_smds import details

STRUCTURE = "DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(NO) OFFLOAD(SMDS) DSGROUP('MQ.QSGA.*.APP1')"
BIG = "LAB PUT QUEUE(SQ1) SIZE(600000)"


@pytest.fixture
def sq(group):
    for command in (
        STRUCTURE,
        "DEFINE CFSTRUCT(APP4) CFLEVEL(4)",
        "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)",
    ):
        assert group.execute(command).ok, command
    return group


def connections(session, command="DISPLAY SMDSCONN(*) CFSTRUCT(*)"):
    return {
        (found["SMDSCONN"], found["CFSTRUCT"]): (found["STATUS"], found["AVAIL"], found["OPENMODE"])
        for found in map(fields, details(run(session, command)))
    }


def test_entries_not_used_are_notopen_then_open_for_update_or_read(sq):
    assert connections(sq) == {
        ("QM1", "APP1"): ("NOTOPEN", "NORMAL", "NONE"),
        ("QM2", "APP1"): ("NOTOPEN", "NORMAL", "NONE"),
    }
    assert sq.execute(BIG).ok
    sq.current_qmgr = "QM2"
    assert sq.execute("LAB GET QUEUE(SQ1)").ok
    assert connections(sq)[("QM1", "APP1")] == ("OPEN", "NORMAL", "READONLY")
    sq.current_qmgr = "QM1"
    assert connections(sq)[("QM1", "APP1")] == ("OPEN", "NORMAL", "UPDATE")


def test_every_member_connected_opens_every_active_data_set_without_waiting_for_a_read(sq):
    assert sq.execute(BIG).ok
    sq.current_qmgr = "QM2"
    assert sq.execute("LAB PUT QUEUE(SQ1)").ok  # connects QM2 to the structure; nothing of QM1's is read
    assert connections(sq)[("QM1", "APP1")] == ("OPEN", "NORMAL", "READONLY")
    sq.current_qmgr = "QM1"
    assert sq.execute("RESET SMDS(QM1) CFSTRUCT(APP1) ACCESS(DISABLED)").ok
    sq.current_qmgr = "QM2"
    assert connections(sq)[("QM1", "APP1")][0] != "OPEN"
    sq.current_qmgr = "QM1"
    assert sq.execute("RESET SMDS(QM1) CFSTRUCT(APP1) ACCESS(ENABLED)").ok
    sq.current_qmgr = "QM2"  # active again: opened at QM2's next command
    assert connections(sq)[("QM1", "APP1")] == ("OPEN", "NORMAL", "READONLY")


def test_stop_closes_saving_the_space_map_and_holds_across_a_restart_until_start(sq, data_dir):
    assert sq.execute(BIG).ok
    assert (
        run(sq, "STOP SMDSCONN(QM1) CFSTRUCT(APP1)")[-1]
        == "CSQ9022I -QM1 CSQMASMD ' STOP SMDSCONN' NORMAL COMPLETION"
    )
    assert connections(sq)[("QM1", "APP1")] == ("CLOSED", "STOPPED", "NONE")
    with SharedRepository(data_dir, "QSGA") as repository:
        saved = states.smds_state(repository, "APP1", "QM1")
    assert saved.stopped_by == ["QM1"] and saved.space_map is not None
    assert "2561" in sq.render(sq.execute(BIG))
    for command in ("endmqm -i QM1", "strmqm QM1"):
        assert sq.execute(command).ok, command
    assert connections(sq)[("QM1", "APP1")][1] == "STOPPED"
    assert run(sq, "START SMDSCONN(QM1) CFSTRUCT(APP1)")[-1].endswith("NORMAL COMPLETION")
    assert sq.execute(BIG).ok
    assert connections(sq)[("QM1", "APP1")] == ("OPEN", "NORMAL", "UPDATE")


def test_a_connection_in_error_is_normal_again_once_the_data_set_is_recovered_and_active(sq):
    """A data set marked FAILED and recovered tells the other members when it is ACTIVE
    again, and a connection of theirs in AVAIL(ERROR) becomes AVAIL(NORMAL) for a new attempt - also
    within the same second as the error (the lab's clock stands still here)."""
    assert sq.execute("ALTER CFSTRUCT(APP1) RECOVER(YES)").ok
    assert sq.execute("LAB PUT QUEUE(SQ1) SIZE(600000) COUNT(2)").ok
    assert sq.execute("LAB DENY SMDSCONN(QM1) CFSTRUCT(APP1) QMGR(QM2)").ok
    sq.current_qmgr = "QM2"
    assert "2561" in sq.render(sq.execute("LAB GET QUEUE(SQ1)"))
    assert connections(sq)[("QM1", "APP1")][:2] == ("OPENFAIL", "ERROR")
    for command in (
        "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)",
        "LAB ALLOW SMDSCONN(QM1) CFSTRUCT(APP1) QMGR(QM2)",
        "RECOVER CFSTRUCT(APP1)",
    ):
        assert sq.execute(command).ok, command
    assert "STATUS(ACTIVE)" in run(sq, "DISPLAY CFSTATUS(APP1) TYPE(SMDS) SMDS(QM1)")
    assert connections(sq)[("QM1", "APP1")][:2] == ("CLOSED", "NORMAL")
    assert sq.execute("LAB GET QUEUE(SQ1)").ok


def test_a_stopped_connection_stays_stopped_when_the_data_set_comes_back(sq):
    assert sq.execute("ALTER CFSTRUCT(APP1) RECOVER(YES)").ok
    assert sq.execute(BIG).ok
    sq.current_qmgr = "QM2"
    for command in (
        "STOP SMDSCONN(QM1) CFSTRUCT(APP1)",
        "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)",
        "RECOVER CFSTRUCT(APP1)",
    ):
        assert sq.execute(command).ok, command
    assert "STATUS(ACTIVE)" in run(sq, "DISPLAY CFSTATUS(APP1) TYPE(SMDS) SMDS(QM1)")
    assert connections(sq)[("QM1", "APP1")][1] == "STOPPED"
    assert "2561" in sq.render(sq.execute("LAB GET QUEUE(SQ1)"))


def test_cmdscope_stops_the_connections_of_every_member(sq):
    lines = run(sq, "STOP SMDSCONN(*) CFSTRUCT(*) CMDSCOPE(*)")
    assert lines[1] == "CSQN137I -QM1 'STOP SMDSCONN' command accepted for CMDSCOPE(*), sent to 2"
    assert lines[-1] == "CSQN122I -QM1 'STOP SMDSCONN' command for CMDSCOPE(*) normal completion"
    sq.current_qmgr = "QM2"
    assert {avail for _status, avail, _mode in connections(sq).values()} == {"STOPPED"}
    lines = run(sq, "DISPLAY SMDSCONN(QM1) CFSTRUCT(APP1) CMDSCOPE(QM1)")
    assert "AVAIL(STOPPED)" in lines


def test_a_where_filter_and_requested_fields(sq):
    sq.execute(BIG)
    lines = run(sq, "DISPLAY SMDSCONN(*) CFSTRUCT(APP*) WHERE(STATUS EQ OPEN) AVAIL")
    assert [line for line in lines if line.startswith(("SMDSCONN(", "AVAIL("))] == [
        "SMDSCONN(QM1)",
        "AVAIL(NORMAL)",
    ]


@pytest.mark.parametrize(
    "command, message",
    [
        ("START SMDSCONN(QM1) CFSTRUCT(NOPE)", "CSQM094I -QM1 CSQMASMD CFSTRUCT(NOPE) WAS NOT FOUND"),
        ("STOP SMDSCONN(QM1) CFSTRUCT(APP4)", "CSQM092I -QM1 CSQMASMD CFSTRUCT(APP4) VALUE INVALID"),
        ("STOP SMDSCONN(QM9) CFSTRUCT(APP1)", "CSQM094I -QM1 CSQMASMD SMDSCONN(QM9) WAS NOT FOUND"),
    ],
)
def test_what_has_no_connection_ends_abnormally(sq, command, message):
    result = sq.execute(command)
    assert not result.ok and sq.render(result).splitlines()[1] == message


def test_reset_cfstruct_fail_loses_the_entries_and_a_non_recoverable_one_is_reset(sq, data_dir):
    assert sq.execute(BIG).ok
    assert (
        run(sq, "RESET CFSTRUCT(APP1) ACTION(FAIL)")[-1]
        == "CSQ9022I -QM1 CSQMACFS ' RESET CFSTRUCT' NORMAL COMPLETION"
    )
    found = fields(details(run(sq, "DISPLAY CFSTATUS(APP1)"))[0])
    assert (found["STATUS"], found["ENTSUSED"]) == ("FAILED", "0") and found["FAILDATE"] != " "
    assert not (data_dir / "qsg" / "QSGA" / "APP1.cf").exists()
    assert (
        run(sq, "RESET CFSTRUCT(APP1) ACTION(FAIL)")[1]
        == "CSQE103E -QM1 CSQMACFS Unable to fail structure APP1, not in active state (FAILED)"
    )
    sq.current_qmgr = "QM2"
    assert sq.execute("LAB PUT QUEUE(SQ1)").ok  # RECOVER(NO): allocated again, empty (CSQE028I)
    assert fields(details(run(sq, "DISPLAY CFSTATUS(APP1)"))[0])["ENTSUSED"] == "1"


def test_reset_cfstruct_fail_of_a_recoverable_structure_makes_puts_fail(sq):
    sq.execute("ALTER CFSTRUCT(APP1) RECOVER(YES)")
    sq.execute("LAB PUT QUEUE(SQ1)")
    run(sq, "RESET CFSTRUCT(APP1) ACTION(FAIL)")
    for member in ("QM1", "QM2"):
        sq.current_qmgr = member
        assert "2373" in sq.render(sq.execute("LAB PUT QUEUE(SQ1)"))


@pytest.mark.parametrize(
    "command, message",
    [
        ("RESET CFSTRUCT(APP4) ACTION(FAIL)", "CSQM092I -QM1 CSQMACFS CFLEVEL(4) VALUE INVALID"),
        ("RESET CFSTRUCT(NOPE) ACTION(FAIL)", "CSQM094I -QM1 CSQMACFS CFSTRUCT(NOPE) WAS NOT FOUND"),
        (
            "RESET CFSTRUCT(APP1) ACTION(FAIL)",
            "CSQE103E -QM1 CSQMACFS Unable to fail structure APP1, not in active state (NOTFOUND)",
        ),
    ],
)
def test_reset_cfstruct_refusals(sq, command, message):
    result = sq.execute(command)
    assert not result.ok and sq.render(result).splitlines()[1] == message


def test_usage_shows_the_owned_data_sets_and_the_buffer_pool(sq):
    assert (
        run(sq, "DISPLAY USAGE TYPE(SMDS)")[1]
        == "CSQM297I -QM1 CSQEDUSE NO SMDS FOUND MATCHING REQUEST CRITERIA"
    )
    sq.execute("ALTER SMDS(QM1) CFSTRUCT(APP1) DSBUFS(2)")
    sq.execute(BIG)  # three blocks through two buffers: one wait; the last two blocks stay saved
    sq.execute("LAB GET QUEUE(SQ1)")  # two hits, one miss
    lines = run(sq, "DISPLAY USAGE TYPE(ALL) CFSTRUCT(APP1)")
    assert lines[1] == (
        "CSQE282I -QM1 CSQEDUSE SMDS(QM1) CFSTRUCT(APP1) data set MQ.QSGA.QM1.APP1 is 0% full, "
        "0 of 1024 blocks in use"
    )  # the message was got: its blocks are free
    assert lines[2] == (
        "CSQE285I -QM1 CSQEDUSE CFSTRUCT(APP1) buffer pool has 2 buffers, lowest free -1, waits 2, "
        "2 with saved data, LRU hits 66% (2 hits, 1 misses)"
    )
    assert (
        run(sq, "DISPLAY USAGE TYPE(SMDS) PSID(1)")[1]
        == "CSQI003I -QM1 CSQEDUSE 'PSID' not allowed with TYPE (SMDS)"
    )


def test_usage_counts_the_blocks_of_messages_got_by_another_member_as_free(sq):
    assert sq.execute("LAB PUT QUEUE(SQ1) SIZE(600000) COUNT(3)").ok
    sq.current_qmgr = "QM2"
    assert sq.execute("LAB GET QUEUE(SQ1) COUNT(2)").ok
    sq.current_qmgr = "QM1"
    assert run(sq, "DISPLAY USAGE TYPE(SMDS)")[1].endswith("3 of 1024 blocks in use")
