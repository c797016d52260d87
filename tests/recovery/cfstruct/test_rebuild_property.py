"""Random interleavings of three members' logs: every engine gives the live structure's committed entries.

The group's model (tests.recovery.cfstruct.cf_group) keeps the structure as the
coupling facility holds it while the members work; a recovery from the logs
(with or without a backup taken in the middle, units open or not) must
give what it holds once the units left open are backed out. A recovery may
also be made in the middle: it must give the model's entries then, and the
units it finds open lose their work and later log a backout, whatever they
would have ended with - the final recovery gives what that first one did,
with the work since.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mqsh.recovery.cfstruct import columnar as cf_columnar
from mqsh.recovery.cfstruct import reference as cf_reference
from tests.recovery.cfstruct.cf_group import CF, Group

pytestmark = pytest.mark.slow


def work(group: Group, steps: int, backup_at: int | None, recover_at: int | None = None):
    """Random work by the members; the backup taken at step backup_at, whatever units are open, and as of
    an LRSN up to some hundred records before it (EXCLINT) half the time; the structure recovered at step
    recover_at, whatever units are open, by the reference and columnar engines alike."""
    pick = group.random
    backup = None
    for step in range(steps):
        member = pick.choice(sorted(group.writers))
        roll = pick.random()
        if step == recover_at:
            recovered = cf_reference.recover(CF, group.dirs, backup)
            assert recovered.entries.to_pylist() == group.expected()
            assert cf_columnar.recover(CF, group.dirs, backup).entries.equals(recovered.entries)
            group.recover()
        if backup_at is not None and backup is None and step >= backup_at:
            backup = group.backup(member, excluded=pick.choice([0, pick.randint(0, 500)]))
        elif roll < 0.35:
            group.put(
                member,
                group.unit(member) if pick.random() < 0.5 else None,
                offload=pick.random() < 0.3,
                priority=pick.randint(0, 9),
            )
        elif roll < 0.6 and group.available():
            group.get(
                member, pick.choice(group.available()), group.unit(member) if pick.random() < 0.5 else None
            )
        elif roll < 0.8 and group.open[member]:
            group.end(member, pick.choice(sorted(group.open[member])), commit=pick.random() < 0.7)
        elif roll < 0.9:
            group.put(member, group.unit(member, "APP2") if pick.random() < 0.5 else None, cf="APP2")
        else:
            group.local(member)
    group.close()
    return backup


def case(tmp_path_factory, seed, steps, backup_at, extent_bytes, recover_at=None):
    group = Group(tmp_path_factory.mktemp("group"), extent_bytes=extent_bytes, seed=seed)
    backup = work(group, steps, backup_at, recover_at)
    return group, backup


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 150),
    backup_at=st.none() | st.integers(0, 150),
    extent_bytes=st.sampled_from([400, 1500, 100_000]),
    recover_at=st.none() | st.integers(0, 150),
)
@example(seed=397512, steps=93, backup_at=92, extent_bytes=700, recover_at=None)
@example(seed=7, steps=120, backup_at=30, extent_bytes=700, recover_at=60)  # units open across a recovery
def test_reference_and_columnar_give_the_model(
    tmp_path_factory, seed, steps, backup_at, extent_bytes, recover_at
):
    group, backup = case(tmp_path_factory, seed, steps, backup_at, extent_bytes, recover_at)
    reference = cf_reference.recover(CF, group.dirs, backup)
    assert reference.entries.to_pylist() == group.expected()
    local = cf_columnar.recover(CF, group.dirs, backup)
    assert local.entries.equals(reference.entries)
    assert (local.lrsn, local.applied, local.restored, local.blocks) == (
        reference.lrsn,
        reference.applied,
        reference.restored,
        reference.blocks,
    )


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 2**32),
    steps=st.integers(20, 200),
    backup_at=st.none() | st.integers(0, 200),
    extent_bytes=st.sampled_from([700, 20_000]),  # units settled in few of their extents, or most
    recover_at=st.none() | st.integers(0, 200),
)
# an offloaded message put across the backup's LRSN
@example(seed=397512, steps=93, backup_at=92, extent_bytes=700, recover_at=None)
@example(seed=7, steps=120, backup_at=30, extent_bytes=700, recover_at=60)  # units open across a recovery
def test_spark_gives_the_reference(
    spark_runner, tmp_path_factory, seed, steps, backup_at, extent_bytes, recover_at
):
    from mqsh.recovery.cfstruct import spark as cf_spark

    group, backup = case(tmp_path_factory, seed, steps, backup_at, extent_bytes, recover_at)
    reference = cf_reference.recover(CF, group.dirs, backup)
    assert reference.entries.to_pylist() == group.expected()
    spark = cf_spark.recover(spark_runner, CF, group.dirs, backup)
    assert spark.entries.equals(reference.entries)
    assert (spark.lrsn, spark.applied, spark.restored, spark.blocks) == (
        reference.lrsn,
        reference.applied,
        reference.restored,
        reference.blocks,
    )
