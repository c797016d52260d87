"""RECOVER CFSTRUCT's replay: each rule of the result, on every engine, and the errors a caller reports."""

from __future__ import annotations

import pytest

from mqsh.recovery.cfstruct.outcome import Backup, BackupUnusable, MemberExtentMissing, MemberLogCorrupt
from mqsh.recovery.cfstruct.rebuild import CfRecoveryEngine, recover_cfstruct
from mqsh.store import log as logstore
from tests.recovery.cfstruct.cf_group import CF, Group

ENGINES = ["reference", "local", "spark"]


@pytest.fixture(params=ENGINES)
def recover(request):
    """recover(group, backup=None, members=None) on one engine; Spark shares the tests' session."""
    engine = CfRecoveryEngine(request.param)
    if request.param == "spark":
        from tests.recovery.conftest import MASTER

        request.getfixturevalue("spark_runner")
        engine = CfRecoveryEngine("spark", MASTER)

    def run(group: Group, backup: Backup | None = None, members=None):
        group.close()
        return recover_cfstruct(CF, members or group.dirs, backup, engine)

    return run


def ids(result) -> list[str]:
    return result.entries["e"].to_pylist()


def test_a_put_outside_a_unit_is_committed(tmp_path, recover):
    group = Group(tmp_path)
    entry = group.put("QM1", None, offload=True, priority=4)
    result = recover(group)
    assert result.entries.to_pylist() == group.expected() and ids(result) == [entry]
    assert result.lrsn == group.lrsn and result.restored == 0
    assert result.applied == 1 + sum(result.blocks.values()) and set(result.blocks) == {"QM1"}


def test_a_units_puts_are_committed_backed_out_or_left_open(tmp_path, recover):
    group = Group(tmp_path)
    committed, backed_out, left_open = (group.put("QM1", uow) for uow in ("1.1", "2.1", "3.1"))
    group.open["QM1"] = {"1.1": {CF}, "2.1": {CF}, "3.1": {CF}}
    group.end("QM1", "1.1", commit=True)
    group.end("QM1", "2.1", commit=False)
    assert ids(recover(group)) == [committed]


def test_gets_outside_and_inside_units(tmp_path, recover):
    group = Group(tmp_path)
    entries = [group.put("QM1", None) for _ in range(4)]
    group.get("QM2", entries[0], None)  # removed at once
    for entry, uow in zip(entries[1:], ("7.1", "8.1", "9.1")):
        group.open["QM2"][uow] = {CF}
        group.get("QM2", entry, uow)
    group.end("QM2", "7.1", commit=True)  # removes its entry
    group.end("QM2", "8.1", commit=False)  # gives its entry back
    result = recover(group)  # 9.1 stays open: backed out, its entry is back
    assert ids(result) == [entries[2], entries[3]] and result.entries.to_pylist() == group.expected()
    assert result.applied == 4 + 4 + 2


def test_units_are_their_members(tmp_path, recover):
    """QM2 committing a unit of the same id as QM1's open one commits nothing of QM1's."""
    group = Group(tmp_path)
    group.open["QM1"]["5.1"] = {CF}
    group.open["QM2"]["5.1"] = {CF}
    group.put("QM1", "5.1")
    mine = group.put("QM2", "5.1")
    group.end("QM2", "5.1", commit=True)
    assert ids(recover(group)) == [mine]


def test_an_ending_that_does_not_list_the_structure_leaves_its_unit_open(tmp_path, recover):
    group = Group(tmp_path)
    group.put("QM1", "4.1")
    group.log("QM1", {"t": "CMT", "u": "4.1", "qs": ["LOCALQ"], "cfs": ["APP2"]})
    group.log("QM1", {"t": "CMT", "u": "4.1", "qs": ["LOCALQ"]}, shared=False)
    result = recover(group)
    assert ids(result) == [] and result.applied == 1


def test_other_structures_local_records_and_blocks_change_nothing(tmp_path, recover):
    group = Group(tmp_path)
    group.put("QM3", None, cf="APP2")
    group.local("QM1")
    kept = group.put("QM2", None, offload=True)
    group.log("QM2", {"t": "SBLK", "cf": CF, "e": "00000000000000FF", "o": "QM3", "b": 1, "n": 1})
    result = recover(group)
    assert ids(result) == [kept]
    assert result.blocks["QM3"] == 1 and sum(result.blocks.values()) == result.applied - 1


def test_the_backup_and_what_came_after_it(tmp_path, recover):
    group = Group(tmp_path, extent_bytes=400)
    before = [group.put(member, None, offload=member == "QM2") for member in ("QM1", "QM2", "QM3")]
    group.get("QM3", before[2], None)
    group.local("QM2")
    backup = group.backup("QM2")
    group.get("QM1", before[0], None)  # after the backup: applied
    after = group.put("QM3", None, priority=9)
    result = recover(group, backup)
    assert result.entries.to_pylist() == group.expected() and ids(result) == [before[1], after]
    assert result.restored == 2 and result.applied == 2 and result.lrsn == group.lrsn
    assert len(logstore.list_extents(group.dirs["QM2"])) > 1  # the backup's member is read from its extent


def test_no_change_since_the_backup(tmp_path, recover):
    group = Group(tmp_path)
    kept = group.put("QM1", None)
    backup = group.backup("QM1")
    result = recover(group, backup)
    assert ids(result) == [kept] and result.lrsn == backup.lrsn and result.applied == 0


def puts_by(tmp_path, member: str, count: int) -> Group:
    """A group whose member made count puts, in extents of a few records each."""
    group = Group(tmp_path, extent_bytes=300)
    for _ in range(count):
        group.put(member, None)
    group.close()
    return group


def test_an_extent_missing_is_named_with_its_member(tmp_path, recover):
    group = puts_by(tmp_path, "QM2", 12)
    gone = logstore.extent_path(group.dirs["QM2"], 1)
    gone.unlink()
    with pytest.raises(MemberExtentMissing) as missing:
        recover(group)
    assert (missing.value.member, missing.value.extent) == ("QM2", gone.name)
    assert str(missing.value) == f"log file {gone.name} of QM2 not found"


def test_the_log_before_the_oldest_extent_left_is_missing_when_it_does_not_reach_the_backup(
    tmp_path, recover
):
    group = Group(tmp_path, extent_bytes=300)
    backup = group.backup("QM1")
    for _ in range(8):
        group.put("QM3", None)
    group.close()
    logstore.extent_path(group.dirs["QM3"], 0).unlink()
    with pytest.raises(MemberExtentMissing) as missing:
        recover(group, backup)
    assert (missing.value.member, missing.value.number) == ("QM3", 0)


def test_extents_older_than_the_backup_are_not_needed(tmp_path, recover):
    group = Group(tmp_path, extent_bytes=300)
    for _ in range(6):
        group.put("QM3", None)
    backup = group.backup("QM1")
    for _ in range(6):
        group.put("QM3", None)
    group.close()
    logstore.extent_path(group.dirs["QM3"], 0).unlink()
    assert recover(group, backup).entries.to_pylist() == group.expected()


def test_a_damaged_record_is_named_with_its_member(tmp_path, recover):
    group = puts_by(tmp_path, "QM1", 8)
    extent = logstore.extent_path(group.dirs["QM1"], 1)
    extent.write_bytes(extent.read_bytes().replace(b'"SPUT"', b'"SPUX"', 1))
    for path in (group.dirs["QM1"].parent / "columnar").glob("S0000001*"):
        path.unlink()
    with pytest.raises(MemberLogCorrupt) as damaged:
        recover(group)
    assert isinstance(damaged.value, logstore.LogCorrupt)
    assert (damaged.value.member, damaged.value.extent, damaged.value.offset) == ("QM1", extent.name, 0)


def test_a_backup_that_does_not_add_up_cannot_be_used(tmp_path, recover):
    group = Group(tmp_path)
    group.put("QM1", None)
    backup = group.backup("QM1")
    with pytest.raises(BackupUnusable, match="before"):  # as of an LRSN after it started
        recover(group, Backup("QM1", backup.start_lsn, backup.end_lsn, backup.lrsn + 10**6))
    with pytest.raises(BackupUnusable, match="no backup of APP1"):
        recover(group, Backup("QM1", backup.start_lsn + 1, backup.end_lsn, backup.lrsn))
    with pytest.raises(BackupUnusable, match="not among"):
        recover(group, Backup("QM9", backup.start_lsn, backup.end_lsn, backup.lrsn))
    short = Group(tmp_path / "short")
    start = short.log("QM1", {"t": "SBKS", "cf": CF})
    taken_at = short.lrsn
    for entry in ("00000000000000AA", "00000000000000AB"):
        short.writers["QM1"].append(
            {
                "t": "SBKP",
                "cf": CF,
                "sq": "SQ0",
                "e": entry,
                "p": 0,
                "s": 1,
                "tm": "t",
                "o": None,
                "b": None,
                "n": None,
            }
        )
    end = short.log("QM1", {"t": "SBKE", "cf": CF, "c": 1})
    with pytest.raises(BackupUnusable, match="says 1 entries, 2 are there"):
        recover(short, Backup("QM1", start, end, taken_at))


def test_auto_picks_by_the_records_in_the_logs(tmp_path):
    group = Group(tmp_path)
    group.put("QM1", None)
    group.close()
    assert CfRecoveryEngine("auto").where_cf(group.dirs, None) == "reference"
    assert CfRecoveryEngine("auto", threshold=0).where_cf(group.dirs, None) == "reference"
    assert CfRecoveryEngine("auto", "sc://elsewhere:15002").where_cf(group.dirs, None) == "spark"
    assert CfRecoveryEngine("local").where_cf(group.dirs, None) == "local"
