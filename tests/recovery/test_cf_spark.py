"""The Spark recovery's hand-over of the active extents: scratch Parquet beside the copies, or tables."""

from __future__ import annotations

import shutil

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


def test_the_scratch_copies_are_read_and_removed(tmp_path, spark_runner):
    group = group_with_active_extents(tmp_path)
    result = cf_spark.recover(spark_runner, CF, group.dirs, None)
    assert result.entries.to_pylist() == group.expected()
    left = [path.name for log_dir in group.dirs.values() for path in (log_dir.parent / "columnar").iterdir()]
    assert left and not [name for name in left if name.startswith("recover-")]


def test_a_member_whose_scratch_copy_cannot_be_written_hands_its_table_over(tmp_path, spark_runner):
    group = group_with_active_extents(tmp_path)
    blocked = group.dirs["QM2"].parent / "columnar"
    shutil.rmtree(blocked)
    blocked.write_text("")  # no copy can be made there: QM2's extents are parsed and handed over
    result = cf_spark.recover(spark_runner, CF, group.dirs, None)
    assert result.entries.to_pylist() == group.expected()


def test_scratch_copies_a_killed_recovery_left_are_removed_once_old(tmp_path, spark_runner):
    import os
    import time

    group = group_with_active_extents(tmp_path)
    columnar_dir = group.dirs["QM1"].parent / "columnar"
    old, recent = columnar_dir / "recover-0ld.parquet", columnar_dir / "recover-recent.parquet"
    for left in (old, recent):
        left.write_bytes(b"left by a killed recovery")
    day_ago = time.time() - cf_spark.STALE_SECONDS - 60
    os.utime(old, (day_ago, day_ago))
    result = cf_spark.recover(spark_runner, CF, group.dirs, None)
    assert result.entries.to_pylist() == group.expected()
    # The old one goes; a recent one may be another recovery's, still being read.
    assert not old.exists() and recent.exists()
