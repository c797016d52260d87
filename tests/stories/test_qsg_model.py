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


def test_with_no_secondary_allocation_an_extent_is_20_percent_of_the_size_then():
    group = _group(DataSet(10, 0, 3))
    events = [group.put("QM1", "SQ1", 20000 + n, True, False, True)[1] for n in range(12)]
    # The 9th put expands 10 blocks by 2 (20 %), the 11th 12 blocks by 2 again: the secondary size now.
    assert [n for n, written in enumerate(events) if written] == [8, 10]
    assert group.data_sets["QM1"].secondary == 2 and group.data_sets["QM1"].total() == 14


def test_the_structures_dsexpand_default_is_yes():
    group = _group(DataSet(10, 5, 2))
    group.dsexpand = "DEFAULT"
    assert [
        events for _, events in (group.put("QM1", "SQ1", 20000 + n, True, False, True) for n in range(9))
    ][-1] == ["CSQE213I"]


def test_a_message_has_the_room_of_its_data_set_when_put_and_what_a_recovery_writes_back_may_not_fit():
    group = _group(DataSet(4, 2, 3))
    for n in range(4):  # the 4th expands the data set to 6 blocks first
        group.put("QM1", "SQ1", 20000 + n, n != 3, False, True)
    assert [m.room for m in group.messages] == [4, 4, 4, 6]
    assert group.fits("QM1", 4)  # the 4th is non-persistent: no recovery writes it back
    group.put("QM1", "SQ1", 20009, True, False, True)
    assert not group.fits("QM1", 4) and group.fits("QM1", 6)


def test_a_data_set_put_back_smaller_has_extents_to_grow_into_again():
    data_set = DataSet(4, 0, 2)
    group = _group(data_set)
    for n in range(5):
        group.put("QM1", "SQ1", 20000 + n, True, False, True)
    assert data_set.maximum and data_set.secondary == 1 and data_set.total() == 5
    data_set.reallocated(1)  # its copy from before it grew: no secondary allocation, as then
    assert not data_set.maximum and data_set.secondary == 0 and data_set.total() == 4
