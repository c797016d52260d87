"""A recovery's counts from the extents' tallies: what the reference counts record by record."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mqsh.recovery.cfstruct import counts as cf_counts
from mqsh.recovery.cfstruct import logs as cf_logs
from mqsh.recovery.cfstruct import reference as cf_reference
from mqsh.store import columnar, extent_tables
from tests.recovery.cfstruct.cf_group import CF
from tests.recovery.cfstruct.test_rebuild_property import case
from tests.support import examples


def counted(group, backup) -> tuple:
    lrsn, logs, _said = cf_logs.prepare(CF, group.dirs, backup)
    counts = cf_counts.counts(CF, lrsn, logs, backup)
    return (
        lrsn if counts.top is None else max(lrsn, counts.top),
        counts.applied,
        counts.restored,
        counts.blocks,
    )


@settings(
    max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 150),
    backup_at=st.none() | st.integers(0, 150),
    extent_bytes=st.sampled_from([400, 1500, 100_000]),
)
def test_the_counts_are_the_references(tmp_path_factory, seed, steps, backup_at, extent_bytes):
    group, backup = case(tmp_path_factory, seed, steps, backup_at, extent_bytes)
    reference = cf_reference.recover(CF, group.dirs, backup)
    assert counted(group, backup) == (reference.lrsn, reference.applied, reference.restored, reference.blocks)


def test_only_extents_across_the_backup_are_read(tmp_path_factory, monkeypatch):
    group, backup = case(tmp_path_factory, 7, 150, 60, 400)
    expected = counted(group, backup)
    read = []
    source_read = cf_counts.read_source
    monkeypatch.setattr(
        cf_counts,
        "read_source",
        lambda source, wanted, columns: read.append(source) or source_read(source, wanted, columns),
    )
    assert counted(group, backup) == expected
    lrsn, logs, _said = cf_logs.prepare(CF, group.dirs, backup)
    sources = [source for log in logs for source in log.sources]
    assert len(sources) > 10 and len(read) <= 4
    assert sum(isinstance(source, pa.Table) for source in sources) == len(group.dirs)  # the active extents
    for source in read:  # each read for a group across the backup's LRSN or LSN range
        groups = [group for group in columnar.tally_of(source) if group[1] == CF]
        assert any(group[0] != "SBKP" and group[5] <= lrsn < group[6] for group in groups) or any(
            group[0] == "SBKP" for group in groups
        )


def test_an_active_extent_is_counted_from_the_tally_made_with_its_parse(tmp_path_factory, monkeypatch):
    group, backup = case(tmp_path_factory, 7, 150, 0, 100_000)  # one extent a member, after the backup
    reference = cf_reference.recover(CF, group.dirs, backup)
    lrsn, logs, _said = cf_logs.prepare(CF, group.dirs, backup)
    assert all(isinstance(source, pa.Table) for log in logs for source in log.sources)
    assert all(
        columnar.tally_of(source) == extent_tables.tally(source) for log in logs for source in log.sources
    )
    monkeypatch.setattr(cf_counts, "read_source", lambda *_: pytest.fail("a record read"))
    assert counted(group, backup) == (reference.lrsn, reference.applied, reference.restored, reference.blocks)


def test_files_written_without_a_tally_are_counted_from_their_records(tmp_path_factory):
    group, backup = case(tmp_path_factory, 11, 120, 50, 400)
    expected = counted(group, backup)
    for directory in group.dirs.values():
        for shared in (directory.parent / "columnar").glob("*.shared.parquet"):
            table = pq.read_table(shared)
            metadata = {
                key: value for key, value in table.schema.metadata.items() if key != columnar.TALLY_KEY
            }
            pq.write_table(table.replace_schema_metadata(metadata), shared)
            assert columnar.tally_of(shared) is None
    assert counted(group, backup) == expected
