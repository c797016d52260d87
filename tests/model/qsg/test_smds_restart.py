"""The owner's restart processing of its data set, through the shell: the space map rebuilt by a scan of
the structure on every engine, the down-level check, and what a RECOVERED data set's messages go through."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mqsh.model.qsg import states
from mqsh.model.qsg.datasets import PAGE, DataSet, DataSetError, data_set_path
from mqsh.model.qsg.repository import SharedRepository
from mqsh.recovery.spacemap.scan import SpaceScanEngine
from mqsh.shell.session import Session
from tests.commands.conftest import run
from tests.model.qsg.conftest import BIG, entries, smds_status

BLOCK = 256 * 1024


def _scanning(session: Session, engine: SpaceScanEngine):
    """QM1, held by the session, scanning on engine."""
    qmgr = session.installation.connect("QM1")
    qmgr.shared.smds.scans = engine
    return qmgr


def _spoil_block(data_dir: Path, block: int) -> None:
    """The block no longer holds the prefix of the message written there (a damaged or stale block)."""
    path = data_set_path(data_dir, "QSGA", "MQ.QSGA.QM1.APP1")
    with open(path, "r+b") as file:
        file.seek(PAGE + block * BLOCK)
        file.write(b"NOT THIS MESSAGE".ljust(64))


def _depth(session: Session) -> str:
    return next(
        line.split()[0] for line in run(session, "DISPLAY QLOCAL(SQ1) CURDEPTH") if "CURDEPTH" in line
    )


def test_a_restart_after_a_crash_rebuilds_the_space_map_from_the_structure(sq, data_dir, engine, monkeypatch):
    assert sq.execute("LAB GET QUEUE(SQ1)").ok  # frees blocks 0-2
    assert sq.execute("LAB CRASH QMGR(QM1)").ok  # no space map saved
    monkeypatch.setattr(
        "mqsh.model.qsg.shared_structures.SpaceScanEngine", lambda *_choice: engine
    )  # QM1 scans on engine
    assert sq.execute("strmqm QM1").ok  # its start opens its data set and rebuilds the map
    qmgr = sq.installation.connect("QM1")
    assert qmgr.shared.smds.scans is engine
    assert "CSQE252I" in qmgr.errors.read()
    assert sq.execute(BIG).ok
    assert [entry.b for entry in entries(data_dir)] == [3, 6, 0]  # the freed blocks used again
    assert qmgr.shared.smds.open[("APP1", "QM1")].used == set(range(9))


def test_a_down_level_copy_marked_recovered_fails_again_and_recover_brings_every_message_back(
    sq, data_dir, engine
):
    """RESET SMDS STATUS(RECOVERED) is the administrator's word that no data was lost; the owner's
    restart processing still reads the newest message's block, finds the copy down level and fails
    it again, deleting nothing; RECOVER CFSTRUCT then brings every message back from the logs."""
    qmgr = _scanning(sq, engine)
    assert sq.execute("BACKUP CFSTRUCT(APP1)").ok
    assert sq.execute("LAB COPY SMDS(QM1) CFSTRUCT(APP1) TO(OLD)").ok
    assert sq.execute(BIG).ok and sq.execute(BIG).ok  # two messages the copy does not hold
    run(sq, "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)")
    assert sq.execute("LAB RESTORE SMDS(QM1) CFSTRUCT(APP1) FROM(OLD)").ok
    run(sq, "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(RECOVERED)")  # QM1 restarts it at once
    assert smds_status(data_dir) == "FAILED"
    assert len(entries(data_dir)) == 5 and _depth(sq) == "CURDEPTH(5)"
    errors = qmgr.errors.read()
    assert "CSQE244I" in errors and "is down level" in errors and "CSQE280I" not in errors
    assert "CSQE131I" in " ".join(run(sq, "RECOVER CFSTRUCT(APP1)"))
    assert smds_status(data_dir) == "ACTIVE"
    assert sq.execute("LAB GET QUEUE(SQ1) COUNT(5)").ok
    assert _depth(sq) == "CURDEPTH(0)"


def test_a_recovered_data_set_loses_only_the_non_persistent_messages_whose_blocks_do_not_hold_them(
    sq, data_dir
):
    assert sq.execute(BIG + " NONPERSISTENT").ok  # blocks 9-11
    assert sq.execute(BIG).ok  # the newest, blocks 12-14
    lost = entries(data_dir)[3]
    _spoil_block(data_dir, 9)
    run(sq, "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)")
    run(sq, "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(RECOVERED)")
    assert smds_status(data_dir) == "ACTIVE"
    assert [entry.b for entry in entries(data_dir)] == [0, 3, 6, 12]
    qmgr = sq.installation.connect("QM1")
    assert qmgr.shared.smds.open[("APP1", "QM1")].used == set(range(9)) | set(range(12, 15))
    assert (
        f"Message {lost.e} on queue SQ1 was deleted: its data in SMDS(QM1) CFSTRUCT(APP1) was lost"
        in qmgr.errors.read()
    )
    assert sq.execute("LAB GET QUEUE(SQ1) COUNT(4)").ok


def test_a_recovered_data_set_missing_a_persistent_messages_data_fails_again_and_keeps_them_all(sq, data_dir):
    _spoil_block(data_dir, 3)  # the second message's, not the newest's
    run(sq, "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)")
    run(sq, "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(RECOVERED)")
    assert smds_status(data_dir) == "FAILED"
    assert len(entries(data_dir)) == 3
    errors = sq.installation.connect("QM1").errors.read()
    assert "CSQE244I" in errors and "CSQE280I" not in errors
    run(sq, "RECOVER CFSTRUCT(APP1)")
    assert sq.execute("LAB GET QUEUE(SQ1) COUNT(3)").ok


def test_a_recovered_data_set_that_cannot_be_read_fails_again_and_keeps_its_messages(
    sq, data_dir, monkeypatch
):
    """A read error is the data set's, not a message's: nothing is deleted for it."""
    run(sq, "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)")
    read = DataSet._read

    def blocks_unreadable(self, offset, length):
        if offset >= PAGE:
            raise DataSetError("IOERROR", f"permanent I/O error reading data set {self.path.name}")
        return read(self, offset, length)

    monkeypatch.setattr(DataSet, "_read", blocks_unreadable)
    run(sq, "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(RECOVERED)")
    assert smds_status(data_dir) == "FAILED"
    assert len(entries(data_dir)) == 3
    assert "CSQE280I" not in sq.installation.connect("QM1").errors.read()


def _open_on(path: Path) -> int:
    """Descriptors of this process open on path."""
    count = 0
    for descriptor in os.listdir("/proc/self/fd"):
        try:
            count += os.readlink(f"/proc/self/fd/{descriptor}") == str(path)
        except OSError:
            continue
    return count


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc to see open files")
def test_a_data_set_found_down_level_at_open_is_closed(sq, data_dir):
    path = data_set_path(data_dir, "QSGA", "MQ.QSGA.QM1.APP1")
    assert sq.execute("LAB COPY SMDS(QM1) CFSTRUCT(APP1) TO(OLD)").ok
    assert sq.execute(BIG).ok  # a message the copy does not hold
    assert sq.execute("endmqm QM1").ok
    with SharedRepository(data_dir, "QSGA") as repository:  # as after an abnormal end: no space map to use
        states.set_space_map_stamp(repository, "APP1", "QM1", None)
    assert sq.execute("LAB RESTORE SMDS(QM1) CFSTRUCT(APP1) FROM(OLD)").ok
    before = _open_on(path)
    assert sq.execute("strmqm QM1").ok
    assert "2561" in run(sq, BIG)[0]
    assert smds_status(data_dir) == "FAILED"
    assert _open_on(path) == before


def _smaller_copy(group) -> None:
    """QM1's data set of 4 blocks copied before it grew, grown to hold 5 messages (the newest in block 4,
    beyond the copy), 4 of them got; then QM1 ended normally, its space map saved."""
    for command in (
        "DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES) OFFLOAD(SMDS) DSGROUP('MQ.QSGA.*.APP1')",
        "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)",
        "LAB SIZE SMDS(QM1) CFSTRUCT(APP1) BLOCKS(4) SECONDARY(1) MAXEXTENTS(3)",
        "LAB PUT QUEUE(SQ1) SIZE(100000) COUNT(2)",
        "LAB COPY SMDS(QM1) CFSTRUCT(APP1) TO(SMALL)",
        "LAB PUT QUEUE(SQ1) SIZE(100000) COUNT(3)",
        "LAB GET QUEUE(SQ1) COUNT(4)",
        "LAB ERRLOG",  # what came before, read
        "endmqm -w QM1",
    ):
        assert group.execute(command).ok, command


def _told(group) -> list[str]:
    """The ids of QM1's error log messages not yet read, in order."""
    return [line.split(":")[0] for line in run(group, "LAB ERRLOG") if line.startswith("CSQE")]


def test_a_smaller_down_level_copy_found_at_its_owners_start_is_told_after_the_rebuild_is(group, data_dir):
    """Restored while its owner is down, a copy taken before the data set grew lacks the newest message's
    block: the owner's start finds it as it rebuilds the space map - CSQE252I, once, then the data set
    FAILED (CSQE244I) - though the space map saved at its end has the repository's time stamp."""
    _smaller_copy(group)
    for command in ("LAB RESTORE SMDS(QM1) CFSTRUCT(APP1) FROM(SMALL)", "strmqm QM1", "LAB USE QMGR(QM1)"):
        assert group.execute(command).ok, command
    assert _told(group) == ["CSQE252I", "CSQE244I"]
    assert smds_status(data_dir) == "FAILED"
    assert "2561" in run(group, "LAB GET QUEUE(SQ1)")[-1]
    assert _told(group) == []  # nothing more: the data set is not opened again


def test_a_smaller_down_level_copy_reset_to_recovered_is_told_after_the_rebuild_is(group, data_dir):
    """RESET SMDS STATUS(RECOVERED) of a copy taken before the data set grew: the owner's restart
    processing announces its rebuild (CSQE252I) before the scan finds the newest message beyond the
    copy's blocks and fails the data set again (CSQE244I)."""
    _smaller_copy(group)
    for command in (
        "strmqm QM1",
        "LAB USE QMGR(QM1)",
        "LAB ERRLOG",
        "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)",
        "LAB RESTORE SMDS(QM1) CFSTRUCT(APP1) FROM(SMALL)",
        "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(RECOVERED)",
    ):
        assert group.execute(command).ok, command
    assert _told(group) == ["CSQE252I", "CSQE244I"]
    assert smds_status(data_dir) == "FAILED"


def test_a_grown_data_set_preformatted_and_reset_to_recovered_keeps_the_extents_it_grew_by(group, data_dir):
    """Preformatting clears a data set's contents, not its space: QM1's data set, grown from 2 blocks
    to 6 and emptied, preformatted and declared RECOVERED, is formatted by its owner over all 6 - as
    RECOVER CFSTRUCT formats one - not cut back to its primary extent."""
    for command in (
        "DEFINE CFSTRUCT(APP1) CFLEVEL(5) RECOVER(YES) OFFLOAD(SMDS) DSGROUP('MQ.QSGA.*.APP1') DSBLOCK(128K) "
        "OFFLD1SZ(4K) OFFLD1TH(0)",
        "DEFINE QLOCAL(SQ1) QSGDISP(SHARED) CFSTRUCT(APP1) DEFPSIST(YES)",
        "LAB SIZE SMDS(QM1) CFSTRUCT(APP1) BLOCKS(2) SECONDARY(2) MAXEXTENTS(3)",
        "LAB PUT QUEUE(SQ1) SIZE(20000) COUNT(4)",
        "LAB GET QUEUE(SQ1) COUNT(4)",
        "LAB DAMAGE SMDS(QM1) CFSTRUCT(APP1) HOW(EMPTY)",
        "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(FAILED)",
        "RESET SMDS(QM1) CFSTRUCT(APP1) STATUS(RECOVERED)",
        "LAB PUT QUEUE(SQ1) SIZE(20000)",
    ):
        assert group.execute(command).ok, command
    usage = " ".join(run(group, "DISPLAY USAGE TYPE(SMDS)"))
    assert "1 of 6 blocks in use" in usage and smds_status(data_dir) == "ACTIVE"
