"""The Spark recovery's hand-over: one scratch folder of every member's copies and parsed extents, or apart."""

from __future__ import annotations

import shutil
from pathlib import Path

from mqsh.recovery import cf_spark
from tests.recovery.cf_group import CF, Group


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
        tmp_path, spark_runner, monkeypatch):
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


def _rows(order: list[int]):
    """What the job gives back for two entries and their counts, its rows in the order given."""
    import pyarrow as pa

    rows = [
        {"part": "E", "e": "00000000000000B2", "sq": "SQ1", "p": 4, "s": 10, "tm": "t", "o": None, "b": None, "n": None},
        {"part": "E", "e": "00000000000000A1", "sq": "SQ2", "p": 0, "s": 20, "tm": "t", "o": "QM2", "b": 7, "n": 2},
        {"part": "S", "t": "SPUT", "records": 2, "top": 90},
        {"part": "S", "t": "SBLK", "o": "QM2", "records": 2, "top": 80},
        {"part": "S", "t": "CMT", "records": 1, "top": 95},
    ]
    schema = pa.schema([("part", pa.string()), ("e", pa.string()), ("sq", pa.string()), ("p", pa.int32()),
                        ("s", pa.int64()), ("tm", pa.string()), ("o", pa.string()), ("b", pa.int64()),
                        ("n", pa.int32()), ("t", pa.string()), ("records", pa.int64()), ("top", pa.int64())])
    return pa.Table.from_pylist([rows[index] for index in order], schema=schema)


def test_the_result_is_the_same_whatever_order_the_parts_come_in():
    results = [cf_spark._result(_rows(order), CF, 50, None, None) for order in
               ([0, 1, 2, 3, 4], [2, 0, 3, 1, 4], [4, 3, 2, 1, 0])]
    for result in results:
        assert result.entries.column("e").to_pylist() == ["00000000000000A1", "00000000000000B2"]
        assert result.entries.column("cf").to_pylist() == [CF, CF]
        assert result.entries.column_names == list(cf_spark.ENTRY_FIELDS)
        assert (result.lrsn, result.applied, result.restored, result.blocks) == (95, 5, 0, {"QM2": 2})
    assert results[0] == results[1] == results[2]
