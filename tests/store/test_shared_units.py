"""Units of work on shared queues settled in the extent where they end."""

from __future__ import annotations

import pyarrow as pa

from mqsh.store import extent_tables, shared_units


def settled(records: list[dict], first_lsn: int) -> list[tuple]:
    table = pa.Table.from_pylist(
        [{"lsn": lsn, **record} for lsn, record in enumerate(records, first_lsn)],
        schema=pa.schema([extent_tables.SCHEMA.field(name) for name in ("lsn", "t", "u", "cf", "cfs")]),
    )
    outcome, whole = shared_units.settle(table, first_lsn)
    return list(zip(table["t"].to_pylist(), outcome.to_pylist(), whole.to_pylist()))


def test_work_takes_the_outcome_of_its_units_ending_in_the_extent():
    assert settled(
        [
            {"t": "SPUT", "u": "100.1", "cf": "APP1"},
            {"t": "SGET", "u": "101.2", "cf": "APP1"},
            {"t": "SPUT", "u": None, "cf": "APP1"},  # outside a unit: nothing to settle
            {"t": "SPUT", "u": "90.7", "cf": "APP1"},  # begun before the extent
            {"t": "SPUT", "u": "103.3", "cf": "APP1"},  # ends elsewhere
            {"t": "CMT", "u": "100.1", "cfs": ["APP1"]},
            {"t": "BCK", "u": "101.2", "cfs": ["APP1"]},
            {"t": "CMT", "u": "90.7", "cfs": ["APP1"]},
        ],
        100,
    ) == [
        ("SPUT", 0, None),
        ("SGET", 1, None),
        ("SPUT", None, None),
        ("SPUT", 0, None),
        ("SPUT", None, None),
        # A unit begun here has all its work here; one begun before may have left work behind.
        ("CMT", None, True),
        ("BCK", None, True),
        ("CMT", None, False),
    ]


def test_the_first_ending_that_lists_the_structure_decides():
    assert settled(
        [
            {"t": "SPUT", "u": "100.1", "cf": "APP1"},
            {"t": "SPUT", "u": "100.1", "cf": "APP2"},
            {"t": "BCK", "u": "100.1", "cfs": ["APP2"]},
            {"t": "CMT", "u": "100.1", "cfs": ["APP1", "APP2"]},
        ],
        100,
    )[:2] == [("SPUT", 0, None), ("SPUT", 1, None)]


def test_an_ending_whose_id_does_not_say_where_it_began_is_not_whole():
    assert [
        row[2]
        for row in settled(
            [{"t": "CMT", "u": "XA.1", "cfs": ["APP1"]}, {"t": "CMT", "u": "", "cfs": ["APP1"]}], 5
        )
    ] == [False, False]


def test_nothing_to_settle():
    outcome, whole = shared_units.settle(extent_tables.shared_records(extent_tables.SCHEMA.empty_table()), 0)
    assert len(outcome) == len(whole) == 0
