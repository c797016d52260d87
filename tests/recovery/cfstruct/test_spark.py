"""The Spark recovery's hand-over: one scratch folder of every member's copies and parsed extents, or apart."""

from __future__ import annotations

import shutil
from pathlib import Path

from mqsh.recovery.cfstruct import spark as cf_spark
from tests.recovery.cfstruct.cf_group import CF, Group


def group_with_active_extents(tmp_path) -> Group:
    """Every member with sealed extents (copies) and an active one, units open and ended across them."""
    group = Group(tmp_path, extent_bytes=400)
    entries = [group.put(member, None, offload=member == "QM3") for member in ("QM1", "QM2", "QM3") * 3]
    for member, entry in zip(("QM2", "QM3", "QM1"), entries):
        uow = group.unit(member)
        group.get(member, entry, uow)
        group.put(member, uow)
        group.end(member, uow, commit=member != "QM3")
    group.get("QM1", entries[-1], None)
    group.put("QM2", group.unit("QM2"))  # left open: backed out
    group.close()
    return group


def test_the_scratch_folder_is_read_and_removed(tmp_path, spark_runner, monkeypatch):
    group = group_with_active_extents(tmp_path)
    handed = []
    frame = cf_spark._frame
    monkeypatch.setattr(cf_spark, "_frame", lambda *args: handed.append(args[-1]) or frame(*args))
    result = cf_spark.recover(spark_runner, CF, group.dirs, None)
    assert result.entries.to_pylist() == group.expected()
    assert handed[0].folder is not None and handed[0].apart == {}  # every member in it
    left = [path.name for log_dir in group.dirs.values() for path in (log_dir.parent / "columnar").iterdir()]
    assert left and not [name for name in left if name.startswith("recover-")]


def test_members_named_with_slash_and_percent_are_told_apart(tmp_path, spark_runner):
    names = ("QM/1", "QM%2F1", "QM%1")
    group = Group(tmp_path, members=names, extent_bytes=400)
    entries = [group.put(member, None) for member in names * 3]
    # One unit id on every member, each unit ending its own way: only the member tells them apart.
    for member, entry in zip(names, entries):
        group.open[member]["7.1"] = {CF}
        group.get(member, entry, "7.1")
        group.put(member, "7.1")
    for member, commit in zip(names, (True, False, True)):
        group.end(member, "7.1", commit)
    group.close()
    result = cf_spark.recover(spark_runner, CF, group.dirs, None)
    assert result.entries.to_pylist() == group.expected()


def test_without_a_scratch_folder_each_member_is_read_apart(tmp_path, spark_runner):
    group = group_with_active_extents(tmp_path)
    blocked = group.dirs["QM1"].parent / "columnar"
    shutil.rmtree(blocked)
    blocked.write_text("")  # no folder (and no copy) there: QM1's extents are parsed and handed over
    result = cf_spark.recover(spark_runner, CF, group.dirs, None)
    assert result.entries.to_pylist() == group.expected()


def test_copies_that_cannot_be_linked_and_extents_that_cannot_be_written_are_read_apart(
    tmp_path, spark_runner, monkeypatch
):
    group = group_with_active_extents(tmp_path)

    def no_link(self, target):
        raise OSError("no links here")

    def cut_short(table, where, **options):
        Path(where).write_bytes(b"PAR1 cut short")  # a part written, then the disk is full
        raise OSError("No space left on device")

    monkeypatch.setattr(Path, "symlink_to", no_link)
    monkeypatch.setattr(cf_spark.pq, "write_table", cut_short)
    handed = []
    frame = cf_spark._frame
    monkeypatch.setattr(cf_spark, "_frame", lambda *args: handed.append(args[-1]) or frame(*args))
    result = cf_spark.recover(spark_runner, CF, group.dirs, None)
    assert result.entries.to_pylist() == group.expected()
    assert handed[0].folder is None and sorted(handed[0].apart) == ["QM1", "QM2", "QM3"]


def test_scratch_copies_a_killed_recovery_left_are_removed_once_old(tmp_path, spark_runner):
    import os
    import time

    group = group_with_active_extents(tmp_path)
    columnar_dir = group.dirs["QM2"].parent / "columnar"  # not the first member's: left when it was
    old, recent = columnar_dir / "recover-0ld.parquet", columnar_dir / "recover-recent.parquet"
    for left in (old, recent):
        left.write_bytes(b"left by a killed recovery")
    old_folder = columnar_dir / "recover-0ld"
    (old_folder / "member=QM1").mkdir(parents=True)
    (old_folder / "member=QM1" / "S0000000.parquet").symlink_to(next(columnar_dir.glob("S*.parquet")))
    day_ago = time.time() - cf_spark.STALE_SECONDS - 60
    for stale in (old, old_folder):
        os.utime(stale, (day_ago, day_ago))
    result = cf_spark.recover(spark_runner, CF, group.dirs, None)
    assert result.entries.to_pylist() == group.expected()
    # The old ones go (the copy a link pointed at stays); a recent one may be another recovery's,
    # still being read.
    assert not old.exists() and not old_folder.exists() and recent.exists()
    assert list(columnar_dir.glob("S*.parquet"))


def test_the_entries_come_back_sorted_with_the_structure_and_the_counts():
    import pyarrow as pa

    from mqsh.recovery.cfstruct.counts import Counts

    rows = pa.Table.from_pylist(
        [
            {
                "e": "00000000000000B2",
                "sq": "SQ1",
                "p": 4,
                "s": 10,
                "tm": "t",
                "o": None,
                "b": None,
                "n": None,
            },
            {"e": "00000000000000A1", "sq": "SQ2", "p": 0, "s": 20, "tm": "t", "o": "QM2", "b": 7, "n": 2},
        ],
        schema=pa.schema(
            [
                ("e", pa.string()),
                ("sq", pa.string()),
                ("p", pa.int32()),
                ("s", pa.int64()),
                ("tm", pa.string()),
                ("o", pa.string()),
                ("b", pa.int64()),
                ("n", pa.int32()),
            ]
        ),
    )
    result = cf_spark._result(rows, CF, 50, Counts(applied=5, restored=1, top=95, blocks={"QM2": 2}))
    assert result.entries.column("e").to_pylist() == ["00000000000000A1", "00000000000000B2"]
    assert result.entries.column("cf").to_pylist() == [CF, CF]
    assert result.entries.column_names == list(cf_spark.ENTRY_FIELDS)
    assert (result.lrsn, result.applied, result.restored, result.blocks) == (95, 5, 1, {"QM2": 2})
    assert cf_spark._result(rows, CF, 120, Counts()).lrsn == 120  # nothing after the backup's LRSN


def test_units_settled_where_they_ended_still_decide_the_work_a_backup_holds(tmp_path, spark_runner):
    from mqsh.recovery.cfstruct import reference as cf_reference

    group = Group(tmp_path, extent_bytes=1 << 20)  # one extent a member: every unit ends where it began
    kept = group.put("QM2", None)
    committing, backing_out = group.unit("QM1"), group.unit("QM3")
    group.put("QM1", committing)
    group.get("QM1", kept, committing)
    group.put("QM3", backing_out)
    backup = group.backup("QM2")  # holds the units' work: their endings come after it
    group.end("QM1", committing, commit=True)
    group.end("QM3", backing_out, commit=False)
    group.close()
    result = cf_spark.recover(spark_runner, CF, group.dirs, backup)
    assert (
        result.entries.to_pylist()
        == group.expected()
        == cf_reference.recover(CF, group.dirs, backup).entries.to_pylist()
    )
    assert [entry["e"] for entry in group.expected()] == [
        group.available()[0]
    ] and kept not in group.available()
