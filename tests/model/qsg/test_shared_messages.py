"""Shared messages: the structure, the data sets, the log, and a member's restart."""

from __future__ import annotations

import pytest

from mqsh.model.qsg import smds_access, states
from mqsh.model.qsg.datasets import DataSet, data_set_path
from mqsh.model.qsg.list_structure import Structure, structure_path
from mqsh.model.qsg.repository import SharedRepository
from mqsh.model.qsg.shared_messages import MAX_IN_ENTRY, offloaded
from mqsh.store import log as logstore
from tests.commands.conftest import run


@pytest.fixture
def sq(shared_queue_group):
    return shared_queue_group


def _entries(data_dir):
    with Structure(structure_path(data_dir, "QSGA", "APP1"), "QSGA", "APP1") as structure:
        return structure.entries()


def _records(data_dir, qmgr, kind):
    log_dir = data_dir / "log" / qmgr / "active"
    return [record for record in logstore.read_records(log_dir) if record["t"] == kind]


@pytest.mark.parametrize(
    "size, usage, expected",
    [
        (100, 0, False),
        (MAX_IN_ENTRY + 1, 0, True),
        (33 * 1024, 70, True),
        (33 * 1024, 69, False),
        (5 * 1024, 80, True),
        (1, 90, True),
        (0, 90, False),
    ],
)
def test_the_offload_rules(size, usage, expected):
    rules = {
        "CFLEVEL": 5,
        "OFFLOAD": "SMDS",
        "OFFLD1TH": 70,
        "OFFLD1SZ": "32K",
        "OFFLD2TH": 80,
        "OFFLD2SZ": "4K",
        "OFFLD3TH": 90,
        "OFFLD3SZ": "0K",
    }
    assert offloaded(rules, size, usage) is expected
    assert offloaded({**rules, "CFLEVEL": 4}, size, usage) is False


def test_a_large_message_goes_to_the_owners_data_set_and_each_block_is_logged(sq, data_dir):
    assert sq.execute("LAB PUT QUEUE(SQ1) SIZE(600000)").ok
    [entry] = _entries(data_dir)
    assert (entry.o, entry.b, entry.n) == ("QM1", 0, 3)  # 600,000 bytes and a prefix in 256K blocks
    blocks = _records(data_dir, "QM1", "SBLK")
    assert [record["b"] for record in blocks] == [0, 1, 2] and {record["e"] for record in blocks} == {entry.e}
    [put] = _records(data_dir, "QM1", "SPUT")
    assert put["lsn"] > blocks[-1]["lsn"] and put["r"] == int(entry.e, 16)
    data_set = DataSet(data_set_path(data_dir, "QSGA", "MQ.QSGA.QM1.APP1"), owner_side=False)
    data_set.check_message(entry.e, 0, 3)
    data_set.close()
    sq.current_qmgr = "QM2"
    assert sq.execute("LAB GET QUEUE(SQ1)").ok  # QM2 reads QM1's data set
    assert _records(data_dir, "QM2", "SGET")[0]["e"] == entry.e


def test_non_persistent_messages_are_not_logged(sq, data_dir):
    assert sq.execute("LAB PUT QUEUE(SQ1) NONPERSISTENT COUNT(2)").ok
    assert len(_entries(data_dir)) == 2
    assert _records(data_dir, "QM1", "SPUT") == []


def test_lrsns_order_the_members_changes(sq, data_dir):
    assert sq.execute("LAB PUT QUEUE(SQ1)").ok
    sq.current_qmgr = "QM2"
    assert sq.execute("LAB GET QUEUE(SQ1)").ok
    assert sq.execute("LAB PUT QUEUE(SQ1)").ok
    lrsns = [
        _records(data_dir, "QM1", "SPUT")[0]["r"],
        _records(data_dir, "QM2", "SGET")[0]["r"],
        _records(data_dir, "QM2", "SPUT")[0]["r"],
    ]
    assert lrsns == sorted(lrsns) and len(set(lrsns)) == 3


def test_a_change_logged_but_not_made_in_the_structure_is_made_by_the_restart(sq, data_dir, monkeypatch):
    """The member dies after forcing its log and before the structure changed."""

    def die(*_args):
        raise KeyboardInterrupt

    monkeypatch.setattr(Structure, "insert", staticmethod(die))
    with pytest.raises(KeyboardInterrupt):
        sq.installation.connect("QM1").put("SQ1", True)
    monkeypatch.undo()
    assert _entries(data_dir) == []
    assert sq.execute("LAB CRASH QMGR(QM1)").ok
    assert sq.execute("strmqm QM1").ok
    [entry] = _entries(data_dir)
    assert entry.state == "C"
    sq.current_qmgr = "QM2"
    assert sq.execute("LAB GET QUEUE(SQ1)").ok


def test_a_restart_backs_out_the_units_the_member_left_in_flight(sq, data_dir):
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(2)").ok
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(3) SYNCPOINT").ok
    assert sq.execute("LAB GET QUEUE(SQ1) SYNCPOINT").ok
    assert sq.execute("LAB CRASH QMGR(QM1)").ok
    assert {entry.state for entry in _entries(data_dir)} == {"C", "P", "G"}
    assert sq.execute("strmqm QM1").ok
    entries = _entries(data_dir)
    assert [entry.state for entry in entries] == ["C", "C"]
    backouts = [record for record in _records(data_dir, "QM1", "BCK") if record.get("cfs")]
    assert backouts and backouts[-1]["cfs"] == ["APP1"]


def test_a_normal_end_saves_the_space_map_with_its_stamp_and_the_next_open_uses_it(sq, data_dir):
    assert sq.execute("LAB PUT QUEUE(SQ1) SIZE(100000) COUNT(2)").ok
    assert sq.execute("endmqm QM1").ok
    with SharedRepository(data_dir, "QSGA") as repository:
        stamp = states.smds_state(repository, "APP1", "QM1").space_map
    assert stamp is not None
    data_set = DataSet(data_set_path(data_dir, "QSGA", "MQ.QSGA.QM1.APP1"), owner_side=False)
    assert data_set.header.space_map == {"stamp": stamp, "used": [[0, 2]]}
    data_set.close()
    assert sq.execute("strmqm QM1").ok
    assert sq.execute("LAB PUT QUEUE(SQ1) SIZE(100000)").ok
    assert [entry.b for entry in _entries(data_dir)] == [0, 1, 2]


def test_the_data_set_expands_at_90_percent_and_reports_2192_at_its_limit(sq, data_dir):
    qmgr = sq.installation.connect("QM1")
    qmgr.shared.smds.data_set(
        qmgr.shared.repository(),
        "QSGA",
        "APP1",
        qmgr.shared.repository().cfstructs()["APP1"],
        "QM1",
        qmgr.shared.structure("APP1"),
        smds_access.Sizing(10, 5, 2),
    )
    assert "put" in run(sq, "LAB PUT QUEUE(SQ1) SIZE(100000) COUNT(13)")[0]
    data_set = qmgr.shared.smds.open[("APP1", "QM1")]
    assert data_set.header.extents == 2 and data_set.total_blocks() == 15
    lines = run(sq, "LAB PUT QUEUE(SQ1) SIZE(100000) COUNT(5)")
    assert "2192" in lines[-1]
    assert qmgr.shared.repository().smds_overrides("APP1")["QM1"]["DSEXPAND"] == "NO"
    assert qmgr.shared.smds.connections[("APP1", "QM1")].expandst == "MAXIMUM"


@pytest.mark.parametrize("how", ["HEADER", "PARTIAL"])
def test_an_empty_data_set_is_formatted_anew_by_its_owner_whatever_it_held(sq, data_dir, how):
    """After TYPE(PURGE) a data set with a spoiled header, or one a recovery left partial, is EMPTY:
    its contents were discarded, so its owner's next use formats it anew instead of failing it."""
    assert sq.execute("LAB PUT QUEUE(SQ1) SIZE(100000) COUNT(2)").ok
    if how == "HEADER":
        assert sq.execute("LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW(HEADER)").ok
    else:  # as a RECOVER CFSTRUCT that could not finish leaves it
        data_set = DataSet(data_set_path(data_dir, "QSGA", "MQ.QSGA.QM1.APP1"), owner_side=True)
        data_set.header.partial = True
        data_set.write_header()
        data_set.close()
    assert sq.execute("RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)").ok
    assert sq.execute("RECOVER CFSTRUCT(APP1) TYPE(PURGE)").ok
    assert sq.execute("LAB PUT QUEUE(SQ1) SIZE(100000)").ok
    with SharedRepository(data_dir, "QSGA") as repository:
        assert states.smds_state(repository, "APP1", "QM1").status == states.ACTIVE
    sq.current_qmgr = "QM2"
    assert sq.execute("LAB GET QUEUE(SQ1)").ok


def test_a_data_set_reallocated_larger_is_no_longer_at_its_maximum(sq):
    qmgr = sq.installation.connect("QM1")
    qmgr.shared.smds.data_set(
        qmgr.shared.repository(),
        "QSGA",
        "APP1",
        qmgr.shared.repository().cfstructs()["APP1"],
        "QM1",
        qmgr.shared.structure("APP1"),
        smds_access.Sizing(10, 5, 1),
    )
    assert "2192" in run(sq, "LAB PUT QUEUE(SQ1) SIZE(100000) COUNT(11)")[-1]
    assert qmgr.shared.smds.connections[("APP1", "QM1")].expandst == "MAXIMUM"
    for command in (
        "RESET SMDS(QM1) CFSTRUCT(APP1) ACCESS(DISABLED)",
        "LAB SIZE SMDS(QM1) CFSTRUCT(APP1) BLOCKS(40) MAXEXTENTS(4)",
        "RESET SMDS(QM1) CFSTRUCT(APP1) ACCESS(ENABLED)",
        "LAB PUT QUEUE(SQ1) SIZE(100000)",
    ):
        assert sq.execute(command).ok, command
    assert qmgr.shared.smds.connections[("APP1", "QM1")].expandst == "NORMAL"


def _smds_status(data_dir, owner):
    with SharedRepository(data_dir, "QSGA") as repository:
        state = states.smds_state(repository, "APP1", owner)
    return state.status, state.access


def test_at_a_disaster_recovery_site_each_owner_finds_its_data_set_unexpectedly_empty_at_start(sq, data_dir):
    for command in (
        "LAB PUT QUEUE(SQ1) SIZE(100000) COUNT(2)",
        "BACKUP CFSTRUCT(APP1)",
        "LAB USE QMGR(QM2)",
        "LAB PUT QUEUE(SQ1) SIZE(100000) COUNT(3)",
        "endmqm QM1",
        "endmqm QM2",
        "LAB FAIL CFSTRUCT(APP1)",
        "LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW(EMPTY)",
        "LAB DAMAGE SMDS(QM2) CFSTRUCT(APP1) HOW(EMPTY)",
        "strmqm QM1",
        "strmqm QM2",
    ):
        assert sq.execute(command).ok, command
    # The structure is lost and both data sets are FAILED before anything uses them.
    assert _smds_status(data_dir, "QM1") == _smds_status(data_dir, "QM2") == ("FAILED", "SUSPENDED")
    assert run(sq, "LAB ERRLOG") == ["CSQE244I: SMDS(QM2) CFSTRUCT(APP1) status is now FAILED"]
    sq.current_qmgr = "QM1"  # the first to connect found the structure lost
    assert run(sq, "LAB ERRLOG")[-2:] == [
        "CSQE035E: Structure APP1 has failed",
        "CSQE244I: SMDS(QM1) CFSTRUCT(APP1) status is now FAILED",
    ]
    lines = run(sq, "RECOVER CFSTRUCT(APP1)")
    assert (
        "5 messages recovered = 0 from the backup" in lines[1]
        and "data sets of QM1, QM2 rewritten" in lines[1]
    )
    assert _smds_status(data_dir, "QM1") == _smds_status(data_dir, "QM2") == ("ACTIVE", "ENABLED")
    assert sq.execute("LAB GET QUEUE(SQ1) COUNT(5)").ok


@pytest.mark.parametrize(
    "end, status",
    [
        ("LAB CRASH QMGR(QM1)", "ACTIVE"),
        ("endmqm -i QM1", "EMPTY"),  # closed normally holding no messages
    ],
)
def test_an_active_data_set_never_written_is_not_taken_for_an_empty_one_at_start(sq, data_dir, end, status):
    assert sq.execute("LAB PUT QUEUE(SQ1) SIZE(1000)").ok  # QM1 connects to the structure
    assert sq.execute("START SMDSCONN(QM1) CFSTRUCT(APP1)").ok  # its data set is activated, nothing written
    assert _smds_status(data_dir, "QM1") == ("ACTIVE", "ENABLED")
    assert sq.execute(end).ok and sq.execute("strmqm QM1").ok
    assert _smds_status(data_dir, "QM1") == (status, "ENABLED")
    assert sq.execute("LAB PUT QUEUE(SQ1) SIZE(100000)").ok
    assert _smds_status(data_dir, "QM1") == ("ACTIVE", "ENABLED")


def test_an_empty_data_set_replaced_by_a_preformatted_one_is_initialized_by_its_owner(sq, data_dir):
    for command in (
        "LAB PUT QUEUE(SQ1) SIZE(100000)",
        "LAB FAIL CFSTRUCT(APP1)",
        "RECOVER CFSTRUCT(APP1) TYPE(PURGE)",
        "LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW(EMPTY)",
        "LAB PUT QUEUE(SQ1) SIZE(100000)",
    ):
        assert sq.execute(command).ok, command
    assert _smds_status(data_dir, "QM1") == ("ACTIVE", "ENABLED")


def test_a_partly_recovered_data_set_marked_recovered_is_failed_again_though_the_structure_has_failed(
    sq, data_dir
):
    path = data_set_path(data_dir, "QSGA", "MQ.QSGA.QM1.APP1")
    for command in ("LAB PUT QUEUE(SQ1) SIZE(100000)", "LAB FAIL CFSTRUCT(APP1)"):
        assert sq.execute(command).ok, command
    data_set = DataSet(path, owner_side=True)
    data_set.header.partial = True  # as a recovery that could not finish leaves it
    data_set.write_header()
    data_set.close()
    assert sq.execute("RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)").ok
    assert sq.execute("RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(RECOVERED)").ok
    assert _smds_status(data_dir, "QM1") == ("FAILED", "SUSPENDED")  # opened at the owner's notification
    assert run(sq, "LAB ERRLOG")[-1] == "CSQE244I: SMDS(QM1) CFSTRUCT(APP1) status is now FAILED"


def test_a_unit_lost_with_its_structure_never_comes_back_to_fail_the_owners_recovered_data_set(sq, data_dir):
    """QM1's connection to the structure a recovery allocated again is of the old contents, its
    unit's puts still there: its data set's restart reads the new structure, and the unit stays lost."""
    for command in (
        "LAB PUT QUEUE(SQ1) SIZE(100000) COUNT(2)",
        "LAB PUT QUEUE(SQ1) SIZE(100000) COUNT(2) SYNCPOINT",
    ):
        assert sq.execute(command).ok, command
    sq.current_qmgr = "QM2"
    for command in (
        "LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW(EMPTY)",
        "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)",
        "RECOVER CFSTRUCT(APP1)",
    ):
        assert sq.execute(command).ok, command
    assert _smds_status(data_dir, "QM1") == ("ACTIVE", "ENABLED")  # QM1 restarted it at the notification
    sq.current_qmgr = "QM1"
    assert "CSQE244I" not in "\n".join(run(sq, "LAB ERRLOG"))
    assert sq.execute("LAB GET QUEUE(SQ1)").ok
    assert run(sq, "LAB COMMIT") == ["MQCMIT ended with reason code 2003 (MQRC_BACKED_OUT)."]
    assert [(entry.state, entry.s) for entry in _entries(data_dir)] == [("C", 100000)]
    assert "CURDEPTH(1)" in "\n".join(run(sq, "DISPLAY QLOCAL(SQ1) CURDEPTH"))
    assert sq.execute("LAB GET QUEUE(SQ1)").ok
