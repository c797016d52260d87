"""Random structures: every engine's space scan gives the reference's, and the reference what the entries say.

The entries are of several owners (or none: data in the entry), their
extents overlapping, touching or apart, some without a block or a count,
some past the end of the data set; entry ids of differing lengths, so that
"newest" and "in order" are the structure's text order.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mqsh.model.qsg.list_structure import Structure
from mqsh.recovery.spacemap import columnar as space_columnar
from mqsh.recovery.spacemap import reference as space_reference
from mqsh.recovery.spacemap.reference import SpaceScan, runs_of
from tests.support import examples

entry = st.tuples(
    st.sampled_from(["QM1", "QM1", "QM2", None]),  # owner
    st.none() | st.integers(0, 400),  # first block
    st.none() | st.integers(0, 3) | st.integers(0, 140),
)  # blocks
entries = st.dictionaries(st.text("0123456789ABCDEF", min_size=1, max_size=17), entry, max_size=120)


def made(tmp_path_factory, rows) -> Structure:
    structure = Structure(tmp_path_factory.mktemp("scan") / "APP1.cf", "QSGA", "APP1", allocate_at="now")
    with structure.transaction() as db:
        db.executemany(
            "INSERT INTO entry VALUES (?, 'SQ1', 0, 1, 't', 1, ?, ?, ?, 'C', NULL, NULL)",
            [(e, *fields) for e, fields in rows.items()],
        )
    return structure


def model(rows, total: int) -> SpaceScan:
    """What the entries say, straight from them."""
    owned = {e: (b or 0, n or 1) for e, (o, b, n) in rows.items() if o == "QM1"}
    used = {block for first, count in owned.values() for block in range(first, first + count)}
    newest = max(owned, key=lambda e: e.encode(), default=None)
    return SpaceScan(
        runs_of(used),
        len(owned),
        (newest, *owned[newest]) if newest is not None else None,
        sorted((e for e, (first, count) in owned.items() if first + count > total), key=str.encode),
    )


@settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rows=entries, total=st.integers(0, 600))
def test_reference_and_columnar_give_the_model(tmp_path_factory, rows, total):
    with made(tmp_path_factory, rows) as structure:
        reference = space_reference.scan(structure.db, "QM1", total)
        assert reference == model(rows, total)
        assert space_columnar.scan(space_columnar.read_entries(structure.db, "QM1"), total) == reference


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=entries, total=st.integers(0, 600))
def test_spark_gives_the_reference(spark_runner, tmp_path_factory, rows, total):
    from mqsh.recovery.spacemap import spark as space_spark

    with made(tmp_path_factory, rows) as structure:
        reference = space_reference.scan(structure.db, "QM1", total)
        assert (
            space_spark.scan(spark_runner, space_columnar.read_entries(structure.db, "QM1"), total)
            == reference
        )
