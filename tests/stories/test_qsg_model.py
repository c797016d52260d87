"""The queue-sharing group model's own rules, apart from the shell: a data set's expansion and its
limit, and a member ended with its unit of work in flight in each mode."""

from __future__ import annotations

import pytest

from tests.stories.qsg_model import DataSet, Group, Member


def _group(data_set: DataSet | None = None) -> Group:
    group = Group({"QM1": Member("QM1"), "QM2": Member("QM2")}, ["SQ1"])
    if data_set is not None:
        group.data_sets["QM1"] = data_set
    return group


def test_a_data_set_expands_at_90_percent_then_stops_at_its_maximum_extents():
    """IBM's numbers as lab 36 runs them: 10 blocks, a secondary of 5, at most 2 extents."""
    group = _group(DataSet(10, 5, 2))
    results = [group.put("QM1", "SQ1", 20000 + n, True, False, True) for n in range(16)]
    # The 9th put expands, the 14th finds the maximum and sets DSEXPAND(NO): the 16th tries no more.
    assert [(n, events) for n, (_, events) in enumerate(results) if events] == [
        (8, ["CSQE213I"]),
        (13, ["CSQE239I"]),
    ]
    assert [put for put, _ in results] == [True] * 15 + [False]  # the 16th gets 2192
    assert group.data_sets["QM1"].override == "NO" and group.used("QM1") == 15


def test_a_full_data_set_refuses_only_its_owners_large_messages():
    group = _group(DataSet(2, 1, 1))
    group.dsexpand = "NO"
    assert [group.put("QM1", "SQ1", 20000 + n, True, False, True)[0] for n in range(3)] == [True, True, False]
    assert group.put("QM1", "SQ1", 101, True, False, False) == (True, [])
    assert group.put("QM2", "SQ1", 30000, True, False, True) == (True, [])
    group.get("QM2", "SQ1", 1, syncpoint=False)
    assert group.put("QM1", "SQ1", 20009, True, False, True) == (True, [])


def test_alter_smds_retries_an_expansion_a_full_data_set_needs():
    group = _group(DataSet(4, 2, 3, override="NO"))
    for n in range(4):
        group.put("QM1", "SQ1", 20000 + n, True, False, True)
    assert group.alter_dsexpand("QM1", "DEFAULT") == ["CSQE213I"] and group.data_sets["QM1"].total() == 6
    assert group.alter_dsexpand("QM1", "YES") == []  # 4 of 6 blocks: no expansion needed
    assert group.data_sets["QM1"].total() == 6


@pytest.mark.parametrize(
    "mode, in_flight_while_down", [("c", False), ("w", False), ("p", False), ("crash", False), ("i", True)]
)
def test_a_unit_in_flight_is_backed_out_as_the_member_ends_or_at_its_restart(mode, in_flight_while_down):
    group = _group()
    group.put("QM1", "SQ1", 101, True, False, False)
    group.put("QM1", "SQ1", 102, True, True, False)
    group.get("QM1", "SQ1", 1, syncpoint=True)
    group.end("QM1", mode)
    assert group.visible("SQ1") == ([] if in_flight_while_down else [(101, True)])
    assert group.depth("SQ1") == 1
    group.start("QM1")
    assert group.visible("SQ1") == [(101, True)] and group.members["QM1"].broken
    assert not group.members["QM1"].unit_open
