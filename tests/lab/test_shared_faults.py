"""The lab's accidents to structures and shared message data sets, and how the members find out (seed 002)."""

from __future__ import annotations

import pytest

from mqsh.model.qsg import states
from mqsh.model.qsg.datasets import DataSet, DataSetError, Header, data_set_path, format_data_set
from mqsh.model.qsg.repository import SharedRepository
from tests.commands.conftest import run

STRUCTURE = (
    "DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES) OFFLOAD(SMDS) DSGROUP('MQ.QSGA.*.APP1') "
    "OFFLD1SZ(0K) OFFLD1TH(0)"
)


@pytest.fixture
def sq(group):
    for command in (
        STRUCTURE,
        "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)",
        "LAB PUT QUEUE(SQ1) COUNT(2)",
    ):
        assert group.execute(command).ok, command
    return group


def _status(data_dir, owner="QM1") -> states.SmdsState:
    with SharedRepository(data_dir, "QSGA") as repository:
        return states.smds_state(repository, "APP1", owner)


@pytest.mark.parametrize("how", ["HEADER", "IOERROR", "BLOCK"])
def test_a_fault_in_the_data_set_itself_fails_it_for_everyone(sq, data_dir, how):
    assert sq.execute(f"LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW({how})").ok
    sq.current_qmgr = "QM2"
    gets = run(sq, "LAB GET QUEUE(SQ1) COUNT(2)")
    assert "2561" in gets[-1]
    state = _status(data_dir)
    assert (state.status, state.access) == ("FAILED", "SUSPENDED") and state.failed is not None


def test_a_spoiled_block_is_named_the_newest_messages_first(sq):
    """The newer of QM1's two messages is in block 1: the answer says which block it spoiled."""
    assert run(sq, "LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW(BLOCK)") == [
        "Data set MQ.QSGA.QM1.APP1 of SMDS(QM1) CFSTRUCT(APP1) given a spoiled block "
        "(block 1, its newest message's first)."
    ]


def test_a_data_set_formatted_anew_is_unexpectedly_empty(sq, data_dir):
    assert sq.execute("LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW(EMPTY)").ok
    sq.current_qmgr = "QM2"
    assert "2561" in run(sq, "LAB GET QUEUE(SQ1)")[0]
    assert _status(data_dir).status == "FAILED"


def test_empty_leaves_the_data_set_preformatted_its_size_kept_and_no_header(sq, data_dir):
    path = data_set_path(data_dir, "QSGA", "MQ.QSGA.QM1.APP1")
    size = path.stat().st_size
    assert sq.execute("LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW(EMPTY)").ok
    assert path.stat().st_size == size
    with pytest.raises(DataSetError) as raised:
        DataSet(path, owner_side=False)
    assert raised.value.kind == "EMPTY"
    assert run(sq, "LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW(BLOCK)") == [
        "mqsh: Data set MQ.QSGA.QM1.APP1 is unexpectedly empty: it is uninitialized or newly preformatted."
    ]


def test_a_structure_fails_for_its_connected_members_and_is_lost_when_none_is_connected(sq, data_dir):
    assert run(sq, "LAB FAIL CFSTRUCT(APP1)") == [
        "Structure APP1 failed: its messages are lost and every member sees it FAILED."
    ]
    assert sq.execute("RECOVER CFSTRUCT(APP1) TYPE(PURGE)").ok
    for command in ("endmqm QM1", "endmqm QM2"):
        assert sq.execute(command).ok
    assert run(sq, "LAB FAIL CFSTRUCT(APP1)") == [
        "Structure APP1 lost: its messages are lost; no member is connected, the first to connect finds it."
    ]
    with SharedRepository(data_dir, "QSGA") as repository:
        assert states.structure_state(repository, "APP1").status == "ACTIVE"  # nobody was told
    assert sq.execute("strmqm QM1").ok
    with SharedRepository(data_dir, "QSGA") as repository:
        assert states.structure_state(repository, "APP1").status == "FAILED"
    assert "CSQE035E: Structure APP1 has failed" in run(sq, "LAB ERRLOG")


def test_a_denied_member_marks_only_its_connection(sq, data_dir):
    assert run(sq, "LAB DENY SMDSCONN(QM1) CFSTRUCT(APP1) QMGR(QM2)") == [
        "QM2 can no longer open the data set of SMDS(QM1) CFSTRUCT(APP1)."
    ]
    sq.current_qmgr = "QM2"
    assert "2561" in run(sq, "LAB GET QUEUE(SQ1)")[0]
    assert _status(data_dir).status == "ACTIVE"  # the data set itself is fine
    conn = run(sq, "DISPLAY SMDSCONN(QM1) CFSTRUCT(APP1)")
    assert "STATUS(OPENFAIL)" in conn and "AVAIL(ERROR)" in conn
    assert sq.execute("LAB ALLOW SMDSCONN(QM1) CFSTRUCT(APP1) QMGR(QM2)").ok
    assert "2561" in run(sq, "LAB GET QUEUE(SQ1)")[0]  # AVAIL(ERROR) holds until START SMDSCONN
    assert sq.execute("START SMDSCONN(QM1) CFSTRUCT(APP1)").ok
    assert sq.execute("LAB GET QUEUE(SQ1) COUNT(2)").ok


def test_a_down_level_copy_is_detected_by_the_restart_scan(sq, data_dir):
    assert sq.execute("LAB COPY SMDS(QM1) CFSTRUCT(APP1) TO(OLD)").ok
    assert sq.execute("LAB PUT QUEUE(SQ1)").ok  # a message the copy does not hold
    assert sq.execute("LAB CRASH QMGR(QM1)").ok  # no space map saved
    assert sq.execute("LAB RESTORE SMDS(QM1) CFSTRUCT(APP1) FROM(OLD)").ok
    assert sq.execute("strmqm QM1").ok
    assert "2561" in run(sq, "LAB PUT QUEUE(SQ1)")[0]
    assert _status(data_dir).status == "FAILED"


def test_a_copy_and_its_restore_hold_the_same_bytes_and_stay_sparse(sq, data_dir):
    """A data set of 1,024 blocks of 256 KB is 256 MB of mostly holes: its copy must not be 256 MB of
    zeros on disk, and what is put back is the data set as copied."""
    path = data_set_path(data_dir, "QSGA", "MQ.QSGA.QM1.APP1")
    assert sq.execute("LAB PUT QUEUE(SQ1) SIZE(600000)").ok  # a message over three blocks
    assert sq.execute("LAB COPY SMDS(QM1) CFSTRUCT(APP1) TO(OLD)").ok
    copy = data_dir / "qsg" / "QSGA" / "smds-copies" / "OLD"
    original = path.read_bytes()
    assert copy.read_bytes() == original
    assert copy.stat().st_blocks * 512 < copy.stat().st_size // 100
    assert sq.execute("LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW(HEADER)").ok
    assert sq.execute("LAB RESTORE SMDS(QM1) CFSTRUCT(APP1) FROM(OLD)").ok
    assert path.read_bytes() == original
    assert path.stat().st_blocks * 512 < path.stat().st_size // 100


def test_a_data_set_reallocated_smaller_than_its_messages_fails_at_open(sq, data_dir):
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(3)").ok
    assert sq.execute("endmqm QM1").ok
    assert run(sq, "LAB SIZE SMDS(QM1) CFSTRUCT(APP1) BLOCKS(2)") == [
        "Data set MQ.QSGA.QM1.APP1 reallocated with 2 blocks."
    ]
    assert sq.execute("strmqm QM1").ok
    assert "2561" in run(sq, "LAB PUT QUEUE(SQ1)")[0]
    assert _status(data_dir).status == "FAILED"


def test_a_header_marked_partly_recovered_fails_again_at_open(sq, data_dir):
    path = data_set_path(data_dir, "QSGA", "MQ.QSGA.QM1.APP1")
    assert sq.execute("endmqm QM1").ok
    data_set = DataSet(path, owner_side=False)
    data_set.close()
    header: Header = data_set.header
    header.partial = True
    format_data_set(path, header)
    with SharedRepository(data_dir, "QSGA") as repository:
        states.set_smds_status(repository, "APP1", "QM1", states.RECOVERED, "2026-01-01 00:00:00")
    assert sq.execute("strmqm QM1").ok
    assert "2561" in run(sq, "LAB PUT QUEUE(SQ1)")[0]
    assert _status(data_dir).status == "FAILED"


def test_controls_outside_a_group(session):
    assert run(session, "LAB FAIL CFSTRUCT(APP1)") == [
        "mqsh: queue manager QM1 is not in a queue sharing group."
    ]


def test_controls_for_what_does_not_exist(sq):
    assert run(sq, "LAB FAIL CFSTRUCT(NOPE)") == [
        "mqsh: Structure NOPE is not defined in queue sharing group QSGA."
    ]
    assert run(sq, "LAB DAMAGE SMDS(QM2) CFSTRUCT(APP1) HOW(BLOCK)") == [
        "mqsh: Data set MQ.QSGA.QM2.APP1 does not exist yet."
    ]
    assert run(sq, "LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW(TRUNCATE)")[0].startswith(
        "mqsh: a data set is damaged"
    )


def test_a_data_set_is_sized_before_the_group_has_any(group, data_dir):
    assert group.execute(STRUCTURE).ok
    assert group.execute("DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)").ok
    assert run(group, "LAB SIZE SMDS(QM1) CFSTRUCT(APP1) BLOCKS(10) SECONDARY(5) MAXEXTENTS(2)") == [
        "Data set MQ.QSGA.QM1.APP1 will be allocated with 10 blocks."
    ]
    assert group.execute("LAB PUT QUEUE(SQ1)").ok
    data_set = DataSet(data_set_path(data_dir, "QSGA", "MQ.QSGA.QM1.APP1"), owner_side=False)
    data_set.close()
    assert (data_set.header.blocks, data_set.header.secondary, data_set.header.max_extents) == (10, 5, 2)


@pytest.mark.parametrize("how", ["HEADER", "IOERROR"])
def test_a_data_set_that_cannot_be_read_is_not_reallocated(sq, data_dir, how):
    """Reallocating moves the contents: a data set whose header or blocks cannot be read is refused, unchanged."""
    path = data_set_path(data_dir, "QSGA", "MQ.QSGA.QM1.APP1")
    assert sq.execute(f"LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW({how})").ok
    size = path.stat().st_size
    lines = run(sq, "LAB SIZE SMDS(QM1) CFSTRUCT(APP1) BLOCKS(50)")
    assert lines[0].startswith("mqsh: Data set MQ.QSGA.QM1.APP1 cannot be reallocated: ")
    assert path.stat().st_size == size and not path.with_name(path.name + ".size").exists()


# ------------------------------------------------------------ a data set used again after DELETE CFSTRUCT
def _redefined(group):
    """APP1 emptied, deleted and defined again; QM1's data set still holds the old structure's data."""
    for command in ("LAB GET QUEUE(SQ1) COUNT(2)", "DELETE CFSTRUCT(APP1)", STRUCTURE):
        assert group.execute(command).ok, command
    return group


def test_a_data_set_left_by_a_deleted_structure_holds_residual_data_and_fails(sq, data_dir):
    _redefined(sq)
    assert "2561" in run(sq, "LAB PUT QUEUE(SQ1)")[0]
    state = _status(data_dir)
    assert (state.status, state.access) == ("FAILED", "SUSPENDED")
    assert "CSQE244I: SMDS(QM1) CFSTRUCT(APP1) status is now FAILED" in run(sq, "LAB ERRLOG")
    log = (data_dir / "qmgrs" / "QM1" / "errors" / "AMQERR01.LOG").read_text()
    assert "holds residual data from a previous use (SMDS(QM1) CFSTRUCT(APP1)" in log


def test_preformatted_and_reset_recovered_the_data_set_is_used_again(sq, data_dir):
    _redefined(sq)
    run(sq, "LAB PUT QUEUE(SQ1)")
    assert run(sq, "LAB FORMAT SMDS(QM1) CFSTRUCT(APP1)") == [
        "Data set MQ.QSGA.QM1.APP1 of SMDS(QM1) CFSTRUCT(APP1) preformatted: empty, no header."
    ]
    assert sq.execute("RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(RECOVERED)").ok
    assert run(sq, "LAB PUT QUEUE(SQ1) COUNT(2)") == [
        "2 persistent message(s) put on queue SQ1 (outside syncpoint)."
    ]
    assert _status(data_dir).status == "ACTIVE"
    sq.current_qmgr = "QM2"
    assert run(sq, "LAB GET QUEUE(SQ1) COUNT(2)") == ["2 message(s) got from queue SQ1 (outside syncpoint)."]


def test_a_data_set_preformatted_before_the_structure_is_used_again_is_initialized(sq, data_dir):
    _redefined(sq)
    assert sq.execute("LAB FORMAT SMDS(QM1) CFSTRUCT(APP1)").ok
    assert run(sq, "LAB PUT QUEUE(SQ1)") == ["1 persistent message(s) put on queue SQ1 (outside syncpoint)."]
    assert _status(data_dir).status == "ACTIVE"


def test_a_member_that_held_the_old_data_set_open_lets_it_go(sq, data_dir):
    """QM2 read QM1's data set of the old structure; after the new one is defined, it opens the new one."""
    sq.current_qmgr = "QM2"
    _redefined(sq)
    sq.current_qmgr = "QM1"
    assert sq.execute("LAB FORMAT SMDS(QM1) CFSTRUCT(APP1)").ok
    assert sq.execute("LAB PUT QUEUE(SQ1)").ok
    sq.current_qmgr = "QM2"
    assert run(sq, "LAB GET QUEUE(SQ1)") == ["1 message(s) got from queue SQ1 (outside syncpoint)."]
    assert "STATUS(OPEN)" in "\n".join(run(sq, "DISPLAY SMDSCONN(QM1) CFSTRUCT(APP1)"))


def test_a_member_ends_normally_holding_a_data_set_of_a_structure_deleted_since(sq):
    """Its normal close saves no space map for a structure that is gone (found by the group soak)."""
    for command in ("LAB GET QUEUE(SQ1) COUNT(2)", "DELETE CFSTRUCT(APP1)", "endmqm QM1", "strmqm QM1"):
        assert sq.execute(command).ok, command


def test_a_recovered_data_set_left_empty_while_the_structure_has_its_messages_fails_again(sq, data_dir):
    """RESET STATUS(RECOVERED) of a preformatted data set whose messages are still in the structure:
    the owner's scan finds it unexpectedly empty."""
    assert sq.execute("RESET SMDS(QM1) CFSTRUCT(APP1) ACCESS(DISABLED)").ok
    assert sq.execute("LAB FORMAT SMDS(QM1) CFSTRUCT(APP1)").ok
    assert sq.execute("RESET SMDS(QM1) CFSTRUCT(APP1) ACCESS(ENABLED)").ok
    assert sq.execute("RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)").ok
    assert sq.execute("RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(RECOVERED)").ok
    assert "2561" in run(sq, "LAB GET QUEUE(SQ1)")[0]
    assert _status(data_dir).status == "FAILED"


def test_format_is_refused_while_the_group_uses_the_data_set(sq):
    assert run(sq, "LAB FORMAT SMDS(QM1) CFSTRUCT(APP1)") == [
        "mqsh: Data set MQ.QSGA.QM1.APP1 is in use (STATUS(ACTIVE) ACCESS(ENABLED)): disable it first with "
        "RESET SMDS ACCESS(DISABLED)."
    ]


# ------------------------------------------------------------ storage for the buffers (STGFAIL)
def _smdsconn(group, owner="QM1") -> str:
    return "\n".join(run(group, f"DISPLAY SMDSCONN({owner}) CFSTRUCT(APP1) STATUS AVAIL"))


def test_a_buffer_pool_beyond_the_members_memlimit_is_a_storage_failure(sq, data_dir):
    """DSBUFS(100) buffers of 256 KB need 25 MB: QM2, limited to 16 MB, cannot read QM1's data set; QM1's
    own access is not suspended, the failure is QM2's alone."""
    assert run(sq, "LAB MEMLIMIT QMGR(QM2) MB(16)") == [
        "Queue manager QM2 may use 16 MB of storage above the bar for its buffers (MEMLIMIT=16M); pools "
        "obtained from now on must fit."
    ]
    sq.current_qmgr = "QM2"
    assert "2561" in run(sq, "LAB GET QUEUE(SQ1)")[0]
    assert "STATUS(STGFAIL)" in _smdsconn(sq) and "AVAIL(ERROR)" in _smdsconn(sq)
    assert run(sq, "LAB ERRLOG") == [
        "CSQE246I: SMDSCONN(QM1) CFSTRUCT(APP1) is now STATUS(STGFAIL), AVAIL(ERROR)"
    ]
    log = (data_dir / "qmgrs" / "QM2" / "errors" / "AMQERR01.LOG").read_text()
    assert (
        "storage for 25 MB of buffers for structure APP1 cannot be obtained: the queue manager's MEMLIMIT "
        "is 16 MB" in log
    )
    state = _status(data_dir)
    assert (state.status, state.access) == ("ACTIVE", "ENABLED")


def test_fewer_buffers_and_start_smdsconn_end_the_storage_failure(sq):
    sq.execute("LAB MEMLIMIT QMGR(QM2) MB(16)")
    sq.current_qmgr = "QM2"
    run(sq, "LAB GET QUEUE(SQ1)")
    assert sq.execute("ALTER SMDS(QM2) CFSTRUCT(APP1) DSBUFS(50)").ok
    assert "2561" in run(sq, "LAB GET QUEUE(SQ1)")[0]  # still in error: only START SMDSCONN tries again
    assert sq.execute("START SMDSCONN(QM1) CFSTRUCT(APP1)").ok
    assert run(sq, "LAB GET QUEUE(SQ1)") == ["1 message(s) got from queue SQ1 (outside syncpoint)."]
    assert "STATUS(OPEN)" in _smdsconn(sq)


def test_the_limit_holds_across_a_restart_and_nolimit_lifts_it(sq):
    sq.execute("LAB MEMLIMIT QMGR(QM2) MB(16)")
    for command in ("endmqm -i QM2", "strmqm QM2"):
        assert sq.execute(command).ok, command
    sq.current_qmgr = "QM2"
    assert "2561" in run(sq, "LAB GET QUEUE(SQ1)")[0]
    assert run(sq, "LAB MEMLIMIT MB(NOLIMIT)") == [
        "Queue manager QM2 has no limit on its storage above the bar (MEMLIMIT=NOLIMIT)."
    ]
    assert sq.execute("START SMDSCONN(QM1) CFSTRUCT(APP1)").ok
    assert run(sq, "LAB GET QUEUE(SQ1) COUNT(2)") == ["2 message(s) got from queue SQ1 (outside syncpoint)."]


def test_a_larger_pool_that_does_not_fit_fails_the_owners_own_data_set_and_suspends_it(sq, data_dir):
    """The owner's pool grows with ALTER SMDS DSBUFS beyond its limit: its next put cannot get the
    buffers, and, as for any environmental failure of an owner, its access is suspended."""
    sq.execute("LAB MEMLIMIT QMGR(QM1) MB(30)")
    assert sq.execute("ALTER SMDS(QM1) CFSTRUCT(APP1) DSBUFS(200)").ok
    assert "2561" in run(sq, "LAB PUT QUEUE(SQ1)")[0]
    assert "STATUS(STGFAIL)" in _smdsconn(sq)
    assert _status(data_dir).access == "SUSPENDED"
