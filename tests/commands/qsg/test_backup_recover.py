"""BACKUP CFSTRUCT and RECOVER CFSTRUCT: recoveries, answered in z/OS's form."""

from __future__ import annotations

import pytest

from mqsh.model.qsg.datasets import DataSet, data_set_path
from mqsh.model.qsg.repository import SharedRepository
from mqsh.store import log as logstore
from tests.commands.conftest import run
from tests.support import run_mqsh

STRUCTURE = "DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES) OFFLOAD(SMDS) DSGROUP('MQ.QSGA.*.APP1') OFFLD1SZ(0K) OFFLD1TH(0)"


@pytest.fixture
def sq(group):
    """APP1 offloads every message to the putting member's data set."""
    for command in (STRUCTURE, "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)"):
        assert group.execute(command).ok
    return group


def _depth(session) -> str:
    line = next(
        line for line in run(session, "DISPLAY QLOCAL(SQ1) QSGDISP(SHARED) CURDEPTH") if "CURDEPTH(" in line
    )
    return line.split("CURDEPTH(")[1].split(")")[0]


def test_a_backup_is_logged_and_recorded_and_shown(sq, data_dir):
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(3)").ok
    assert sq.execute("LAB CLOCK ADVANCE(1M)").ok  # out of the last 30 seconds (EXCLINT's default)
    lines = run(sq, "BACKUP CFSTRUCT(APP1)")
    assert lines[1].startswith("CSQE120I -QM1 CSQELBK1 Backup of structure APP1 started at RBA=")
    assert "3 messages" in lines[2] and lines[-1].endswith("NORMAL COMPLETION")
    kinds = [record["t"] for record in logstore.read_records(data_dir / "log" / "QM1" / "active")]
    assert kinds[-5:] == ["SBKS", "SBKP", "SBKP", "SBKP", "SBKE"]
    with SharedRepository(data_dir, "QSGA") as repository:
        (qmgr,) = repository.db.execute("SELECT qmgr FROM cfbackup WHERE cfstruct = 'APP1'").fetchone()
    assert qmgr == "QM1"
    status = run(sq, "DISPLAY CFSTATUS(APP1) TYPE(BACKUP)")
    assert "QMNAME(QM1)" in status
    # The messages and the status show the same RBAs and size.
    assert f"BKUPSRBA({lines[1].split('RBA=')[1]})" in status
    assert f"BKUPERBA({lines[2].split('RBA=')[1].split(',')[0]})" in status
    assert "size 1 MB" in lines[2] and "BKUPSIZE(1)" in status


def test_exclint_leaves_the_last_seconds_activity_to_the_logs(sq):
    """The backup leaves out what was put in its exclusion interval; a recovery gets it from the logs."""
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(2)").ok
    assert sq.execute("LAB CLOCK ADVANCE(45S)").ok
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(3)").ok
    assert "2 messages" in run(sq, "BACKUP CFSTRUCT(APP1)")[2]  # the last 30 seconds: the 3 left out
    assert "0 messages" in run(sq, "BACKUP CFSTRUCT(APP1) EXCLINT(60)")[2]
    assert sq.execute("LAB CLOCK ADVANCE(45S)").ok
    assert "5 messages" in run(sq, "BACKUP CFSTRUCT(APP1) EXCLINT(30)")[2]
    assert sq.execute("LAB CLOCK ADVANCE(10S)").ok
    assert (
        "2 messages" in run(sq, "BACKUP CFSTRUCT(APP1) EXCLINT(60)")[2]
    )  # the 3 put 55 seconds ago left out
    assert sq.execute("LAB GET QUEUE(SQ1)").ok
    assert sq.execute("LAB FAIL CFSTRUCT(APP1)").ok
    lines = run(sq, "RECOVER CFSTRUCT(APP1)")
    assert "read 2 backed-up messages" in lines[1] and "4 messages recovered" in lines[1]
    assert _depth(sq) == "4"


@pytest.mark.parametrize(
    "command, message",
    [
        ("BACKUP CFSTRUCT(NOPE)", "CSQM094I -QM1 CSQELBK1 CFSTRUCT(NOPE) WAS NOT FOUND"),
        (
            "RECOVER CFSTRUCT(APP1)",
            "CSQE102E -QM1 CSQERCFS Unable to recover structure APP1, not in failed state",
        ),
        ("RECOVER CFSTRUCT(NOPE)", "CSQM094I -QM1 CSQERCFS CFSTRUCT(NOPE) WAS NOT FOUND"),
    ],
)
def test_what_is_refused(sq, command, message):
    lines = run(sq, command)
    assert lines[1] == message and lines[-1].startswith("CSQ9023E")


def test_a_structure_that_is_not_recoverable_is_not_backed_up(sq):
    assert sq.execute("DEFINE CFSTRUCT(APP2) CFLEVEL(4)").ok
    assert run(sq, "BACKUP CFSTRUCT(APP2)")[1].startswith(
        "CSQE106E -QM1 CSQELBK1 Unable to backup structure APP2, structure is not recoverable"
    )
    lines = run(sq, "BACKUP CFSTRUCT(*)")  # every recoverable structure, APP2 left out
    assert [line.split()[6] for line in lines if line.startswith("CSQE120I")] == ["APP1", "CSQSYSAPPL"]


def test_a_structure_failure_is_recovered_from_the_backup_and_every_members_log(sq):
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(3)").ok
    assert sq.execute("LAB CLOCK ADVANCE(1M)").ok
    assert sq.execute("BACKUP CFSTRUCT(APP1)").ok
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(2) SYNCPOINT").ok
    sq.current_qmgr = "QM2"
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(2)").ok
    assert sq.execute("LAB GET QUEUE(SQ1)").ok
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(4) NONPERSISTENT").ok
    sq.current_qmgr = "QM1"
    assert sq.execute("LAB COMMIT").ok
    assert _depth(sq) == "10"
    assert sq.execute("LAB FAIL CFSTRUCT(APP1)").ok
    assert "2373" in run(sq, "LAB PUT QUEUE(SQ1)")[0]
    lines = run(sq, "RECOVER CFSTRUCT(APP1)")
    # QM2's get took a backed-up message; QM1's 2 puts committed, QM2's 2 stayed.
    assert (
        "read 3 backed-up messages and 10 log records (reference engine): 6 messages recovered = "
        "3 from the backup - 1 got or backed out since + 4 put since and still there, replayed from the logs "
        "of QM1, QM2; 0 non-persistent dropped"
    ) in lines[1]
    assert lines[2] == "CSQE131I -QM1 CSQERCFS Structure APP1 recovery is complete"
    assert _depth(sq) == "6"  # the non-persistent ones are gone
    sq.current_qmgr = "QM2"
    assert sq.execute("LAB GET QUEUE(SQ1) COUNT(6)").ok


def test_a_lost_data_set_marked_failed_is_recovered_and_its_owner_makes_it_active(sq):
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(2)").ok
    assert sq.execute("BACKUP CFSTRUCT(APP1)").ok
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(2)").ok
    assert sq.execute("LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW(DELETE)").ok
    sq.current_qmgr = "QM2"
    assert "2561" in run(sq, "LAB GET QUEUE(SQ1)")[0]
    assert sq.execute("RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)").ok
    lines = run(sq, "RECOVER CFSTRUCT(APP1)")
    assert "data sets of QM1 rewritten" in lines[1]
    status = run(sq, "DISPLAY CFSTATUS(APP1) TYPE(SMDS) SMDS(QM1)")
    assert "STATUS(ACTIVE)" in status and "ACCESS(ENABLED)" in status
    sq.current_qmgr = "QM1"
    assert sq.execute("LAB GET QUEUE(SQ1) COUNT(4)").ok


def test_a_data_set_whose_device_still_fails_stays_failed_until_it_is_replaced(sq):
    """The recovery writes what it can; the data set on a failing volume stays FAILED and the recovery is
    not complete. Replaced (deleted, so that a new one is allocated), it is recovered by the next RECOVER."""
    for command in (
        "LAB PUT QUEUE(SQ1) COUNT(2)",
        "LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW(IOERROR)",
        "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)",
    ):
        assert sq.execute(command).ok, command
    lines = run(sq, "RECOVER CFSTRUCT(APP1)")
    assert lines[2].startswith(
        "CSQE244I -QM1 CSQERCFS SMDS(QM1) CFSTRUCT(APP1) status is now FAILED: permanent I/O"
    )
    assert lines[-1].startswith("CSQ9023E") and not any(line.startswith("CSQE131I") for line in lines)
    assert "STATUS(FAILED)" in run(sq, "DISPLAY CFSTATUS(APP1) TYPE(SMDS) SMDS(QM1)")
    assert "2561" in run(sq, "LAB GET QUEUE(SQ1)")[0]
    assert sq.execute("LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW(DELETE)").ok
    lines = run(sq, "RECOVER CFSTRUCT(APP1)")
    assert "data sets of QM1 rewritten" in lines[1] and lines[2].startswith("CSQE131I")
    assert sq.execute("LAB GET QUEUE(SQ1) COUNT(2)").ok


def test_the_owner_rebuilds_its_space_map_after_the_recovery_is_reported_complete(sq):
    for command in (
        "LAB PUT QUEUE(SQ1) COUNT(2)",
        "BACKUP CFSTRUCT(APP1)",
        "LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW(DELETE)",
        "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)",
        "LAB ERRLOG",
        "RECOVER CFSTRUCT(APP1)",
    ):
        assert sq.execute(command).ok, command
    assert [line.split(":")[0] for line in run(sq, "LAB ERRLOG")] == ["CSQE135I", "CSQE131I", "CSQE252I"]


def test_purge_empties_the_structure_and_its_data_sets(sq):
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(2)").ok
    assert sq.execute("LAB FAIL CFSTRUCT(APP1)").ok
    lines = run(sq, "RECOVER CFSTRUCT(APP1) TYPE(PURGE)")
    assert lines[1] == (
        "CSQE135I -QM1 CSQERCFS Structure APP1 recovered empty (TYPE(PURGE)): 2 messages purged, "
        "0 non-persistent dropped; its data sets are EMPTY"
    )
    assert "STATUS(EMPTY)" in run(sq, "DISPLAY CFSTATUS(APP1) TYPE(SMDS) SMDS(QM1)")
    assert _depth(sq) == "0"
    assert sq.execute("LAB PUT QUEUE(SQ1)").ok
    assert "STATUS(ACTIVE)" in run(sq, "DISPLAY CFSTATUS(APP1) TYPE(SMDS) SMDS(QM1)")


def test_a_recovery_without_a_log_extent_fails_and_leaves_the_data_set_marked_partly_recovered(sq, data_dir):
    for command in ("crtmqm -ll QM3", "csq5pqsg ADD QMGR QM3 QSGA", "strmqm QM3"):
        assert sq.execute(command).ok, command
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(2)").ok
    sq.current_qmgr = "QM3"
    assert sq.execute("LAB PUT QUEUE(SQ1)").ok
    assert sq.execute("RESET QMGR TYPE(ADVANCELOG)").ok
    assert sq.execute("LAB PUT QUEUE(SQ1)").ok
    log_dir = data_dir / "log" / "QM3" / "active"
    first = logstore.list_extents(log_dir)[0]
    logstore.extent_path(log_dir, first).unlink()
    assert sq.execute("RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)").ok
    lines = run(sq, "RECOVER CFSTRUCT(APP1)")
    assert lines[1].startswith("CSQJ077E") and "QM3" in lines[1]
    assert lines[2] == "CSQE158E -QM3 CSQERCFS Recovery of structure APP1 failed, reason=00C5005B"
    assert "STATUS(FAILED)" in run(sq, "DISPLAY CFSTATUS(APP1) TYPE(SMDS) SMDS(QM1)")
    data_set = DataSet(data_set_path(data_dir, "QSGA", "MQ.QSGA.QM1.APP1"), owner_side=False)
    data_set.close()
    assert data_set.header.partial  # a RESET ... STATUS(RECOVERED) without a real recovery is caught at open
    sq.current_qmgr = "QM1"
    assert "2373" in run(sq, "LAB PUT QUEUE(SQ1)")[0]  # the structure is still FAILED


def _fail_and_recover(session) -> None:
    for command in ("RESET CFSTRUCT(APP1) ACTION(FAIL)", "RECOVER CFSTRUCT(APP1)"):
        assert session.execute(command).ok, command


def test_a_unit_in_flight_across_a_failure_and_recovery_is_backed_out_and_stays_so(sq):
    """The recovery backs out a unit it finds open: the unit's MQCMIT says so (2003) and logs the
    backout, so that no later recovery and no restart brings its puts back or loses its get."""
    assert sq.execute("LAB PUT QUEUE(SQ1)").ok
    sq.current_qmgr = "QM2"
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(2) SYNCPOINT").ok
    assert sq.execute("LAB GET QUEUE(SQ1) SYNCPOINT").ok
    sq.current_qmgr = "QM1"
    _fail_and_recover(sq)
    sq.current_qmgr = "QM2"
    assert run(sq, "LAB COMMIT") == ["MQCMIT ended with reason code 2003 (MQRC_BACKED_OUT)."]
    assert _depth(sq) == "1"
    sq.current_qmgr = "QM1"
    _fail_and_recover(sq)
    assert _depth(sq) == "1"
    for command in ("endmqm QM2", "strmqm QM2"):
        assert sq.execute(command).ok, command
    sq.current_qmgr = "QM2"
    assert _depth(sq) == "1"
    assert sq.execute("LAB GET QUEUE(SQ1)").ok  # the message whose get was backed out
    assert _depth(sq) == "0"


def test_a_unit_is_backed_out_whole_when_its_structure_failed_before_its_commit(sq):
    """Committed while the structure is still failed, or after more work on the recovered structure: the
    unit's earlier shared work is lost either way, so all of it is backed out, local work included."""
    assert sq.execute("DEFINE QLOCAL(LQ)").ok
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(2) SYNCPOINT").ok
    assert sq.execute("LAB PUT QUEUE(LQ) SYNCPOINT").ok
    assert sq.execute("LAB FAIL CFSTRUCT(APP1)").ok
    assert run(sq, "LAB COMMIT") == ["MQCMIT ended with reason code 2003 (MQRC_BACKED_OUT)."]
    assert sq.execute("RECOVER CFSTRUCT(APP1)").ok
    assert _depth(sq) == "0"
    assert "CURDEPTH(0)" in " ".join(run(sq, "DISPLAY QLOCAL(LQ) CURDEPTH"))
    assert sq.execute("LAB PUT QUEUE(SQ1) SYNCPOINT").ok
    _fail_and_recover(sq)
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(3) SYNCPOINT").ok  # on the recovered structure
    assert run(sq, "LAB COMMIT") == ["MQCMIT ended with reason code 2003 (MQRC_BACKED_OUT)."]
    assert _depth(sq) == "0"
    _fail_and_recover(sq)
    assert _depth(sq) == "0"
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(2) SYNCPOINT").ok  # a unit begun after the recovery
    assert run(sq, "LAB COMMIT") == ["Unit of work committed."]
    _fail_and_recover(sq)
    assert _depth(sq) == "2"


def test_the_owner_started_after_its_data_set_was_recovered_makes_it_active_as_it_starts(sq):
    """Its restart connects it to the structure: the restart processing of its RECOVERED data set is part
    of its start, not left for its first command, so the other members can read the data at once."""
    assert sq.execute("LAB PUT QUEUE(SQ1) SIZE(100000)").ok
    assert sq.execute("endmqm -w QM1").ok
    sq.current_qmgr = "QM2"
    for command in ("RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)", "RECOVER CFSTRUCT(APP1)", "strmqm QM1"):
        assert sq.execute(command).ok, command
    assert "STATUS(ACTIVE)" in run(sq, "DISPLAY CFSTATUS(APP1) TYPE(SMDS) SMDS(QM1)")
    assert sq.execute("LAB CLOCK ADVANCE(1H)").ok
    assert sq.execute("LAB GET QUEUE(SQ1)").ok


PURGE_THEN_NEW_WORK = """\
LAB CLOCK SET('2026-04-03 10:00:00')
crtmqm -ll QA
crtmqm -ll QB
csq5pqsg ADD QSG,QSGA
csq5pqsg ADD QMGR,QA,QSGA
csq5pqsg ADD QMGR,QB,QSGA
strmqm QA
strmqm QB
LAB USE QMGR(QA)
DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES) OFFLOAD(SMDS) DSGROUP('MQ.QSGA.*.APP1.SMDS')
DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)
LAB PUT QUEUE(SQ1) COUNT(3)
LAB CLOCK ADVANCE(1M)
BACKUP CFSTRUCT(APP1)
LAB PUT QUEUE(SQ1) COUNT(2)
LAB FAIL CFSTRUCT(APP1)
RECOVER CFSTRUCT(APP1) TYPE(PURGE)
LAB USE QMGR(QB)
LAB PUT QUEUE(SQ1) COUNT(1)
LAB FAIL CFSTRUCT(APP1)
RECOVER CFSTRUCT(APP1) TYPE(NORMAL)
DISPLAY QLOCAL(SQ1) CURDEPTH
"""


@pytest.mark.parametrize("engine", ["reference", "local", "spark"])
def test_a_purge_is_where_a_later_recovery_starts_on_every_engine(tmp_path, engine):
    """The backup before the purge and the puts before it stay lost: only QB's put after it comes back."""
    script = tmp_path / "purge.mqsc"
    script.write_text(PURGE_THEN_NEW_WORK)
    done = run_mqsh(
        "--engine",
        engine,
        "--data-dir",
        str(tmp_path / "data"),
        "-f",
        str(script),
        data_dir=tmp_path / "data",
        timeout=300,
    )
    out = done.stdout
    assert done.returncode == 0 and "Traceback" not in out + done.stderr, done.stderr
    assert (
        "Structure APP1 recovered empty (TYPE(PURGE)): 5 messages purged, 0 non-persistent dropped; "
        "its data sets are EMPTY"
    ) in out
    assert (
        f"read 0 backed-up messages and 1 log records ({engine} engine): 1 messages recovered = 0 from the "
        "backup - 0 got or backed out since + 1 put since and still there, replayed from the logs of QA, QB; "
        "0 non-persistent dropped; started from the purge of 2026-04-03 10:01:00, its 5 messages not "
        "restored"
    ) in out
    assert [line.strip() for line in out.splitlines() if "CURDEPTH(" in line] == ["CURDEPTH(1)"]


def test_a_backup_after_the_purge_is_used_and_no_log_from_before_the_purge_is_needed(sq, data_dir):
    """A backup taken 10 seconds after the purge (EXCLINT 30 reaches back before it) holds what came
    after the purge only; QM3's log extent from before the purge is gone, and is not needed."""
    for command in ("crtmqm -ll QM3", "csq5pqsg ADD QMGR QM3 QSGA", "strmqm QM3"):
        assert sq.execute(command).ok, command
    sq.current_qmgr = "QM3"
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(3)").ok
    assert sq.execute("LAB CLOCK ADVANCE(1M)").ok
    assert sq.execute("BACKUP CFSTRUCT(APP1)").ok
    assert sq.execute("LAB FAIL CFSTRUCT(APP1)").ok
    assert sq.execute("RECOVER CFSTRUCT(APP1) TYPE(PURGE)").ok
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(2)").ok
    assert sq.execute("RESET QMGR TYPE(ADVANCELOG)").ok
    log_dir = data_dir / "log" / "QM3" / "active"
    logstore.extent_path(log_dir, logstore.list_extents(log_dir)[0]).unlink()
    assert sq.execute("LAB CLOCK ADVANCE(10S)").ok
    assert "0 messages" in run(sq, "BACKUP CFSTRUCT(APP1)")[2]  # the 2 are in its last 30 seconds
    assert sq.execute("LAB CLOCK ADVANCE(1M)").ok
    assert "2 messages" in run(sq, "BACKUP CFSTRUCT(APP1)")[2]
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(4)").ok
    assert sq.execute("LAB GET QUEUE(SQ1) COUNT(3)").ok  # the 2 backed up and 1 put since
    assert sq.execute("LAB FAIL CFSTRUCT(APP1)").ok
    lines = run(sq, "RECOVER CFSTRUCT(APP1)")
    assert "3 messages recovered = 2 from the backup - 2 got or backed out since + 3 put since" in lines[1]
    assert "started from the purge" not in lines[1]
    assert _depth(sq) == "3"


def test_a_recovery_that_fails_the_structure_drops_its_non_persistent_messages_and_says_so(sq):
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(2)").ok
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(3) NONPERSISTENT").ok
    assert sq.execute("RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)").ok
    lines = run(sq, "RECOVER CFSTRUCT(APP1) TYPE(PURGE)")
    assert "2 messages purged, 3 non-persistent dropped" in lines[1]
    assert _depth(sq) == "0"
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(1)").ok
    assert sq.execute("LAB PUT QUEUE(SQ1) COUNT(2) NONPERSISTENT").ok
    assert sq.execute("RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)").ok
    lines = run(sq, "RECOVER CFSTRUCT(APP1)")
    assert (
        "1 messages recovered = 0 from the backup - 0 got or backed out since + 1 put since and still there, "
        "replayed from the logs of QM1, QM2; 2 non-persistent dropped; started from the purge of"
    ) in lines[1]
    assert _depth(sq) == "1"


@pytest.mark.parametrize("end", ["endmqm -p QM2", "LAB CRASH QMGR(QM2)"])
def test_a_member_that_fails_after_a_purge_brings_back_nothing_the_purge_discarded(sq, end):
    """QM2's put is logged before the purge: neither QM1's peer recovery of QM2 nor QM2's own restart
    may apply it to the purged structure again (each member's log counts as applied up to the purge)."""
    sq.current_qmgr = "QM2"
    for command in (
        "LAB PUT QUEUE(SQ1) SIZE(101)",
        "LAB FAIL CFSTRUCT(APP1)",
        "LAB CLOCK ADVANCE(5M)",
        "RECOVER CFSTRUCT(APP1) TYPE(PURGE)",
        end,
    ):
        assert sq.execute(command).ok, command
    sq.current_qmgr = "QM1"
    assert run(sq, "LAB BROWSE QUEUE(SQ1)") == ["No messages on queue SQ1."]
    assert sq.execute("strmqm QM2").ok
    sq.current_qmgr = "QM2"
    assert run(sq, "LAB BROWSE QUEUE(SQ1)") == ["No messages on queue SQ1."] and _depth(sq) == "0"
