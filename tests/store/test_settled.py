"""Settling an extent's message moves: what stays for replay to match, and the span settled per queue."""

from __future__ import annotations

from mqsh.store import extent_tables, settled
from mqsh.store import log as logstore


def settle(*records):
    numbered = [{"lsn": lsn, **record} for lsn, record in enumerate(records, start=100)]
    moves, spans = settled.settle(
        extent_tables.extent_table(b"".join(logstore.encode(record) for record in numbered))
    )
    return [(row["lsn"], row["t"], row["key"], row["m"], row["u"]) for row in moves.to_pylist()], spans


def put(queue, message, unit=None):
    return {"t": "PUT", "q": queue, "m": message, "p": 0, "s": 1, "tm": "t", "u": unit}


def get(queue, message, unit=None):
    return {"t": "GET", "q": queue, "m": message, "u": unit}


def test_a_message_put_and_got_within_the_extent_cancels_out():
    moves, spans = settle(put("A", "M1"), put("A", "M2"), get("A", "M1"), get("B", "M2"))
    # M2 was got from another queue: nothing to cancel there.
    assert moves == [(101, "PUT", "QUEUE/A", "M2", None), (103, "GET", "QUEUE/B", "M2", None)]
    assert spans == {"QUEUE/A": [100, 102]}


def test_a_unit_ended_within_the_extent_gives_its_moves_their_outcome():
    moves, spans = settle(
        put("A", "M1", "100.1"),
        put("B", "M2", "100.1"),
        {"t": "CMT", "u": "100.1", "qs": ["A", "B"]},
        put("A", "M3", "103.2"),
        {"t": "BCK", "u": "103.2", "qs": ["A"]},
    )
    # Committed: as if put outside a unit; backed out: gone. Both units began here: no ending stays.
    assert moves == [(100, "PUT", "QUEUE/A", "M1", None), (101, "PUT", "QUEUE/B", "M2", None)]
    assert spans == {"QUEUE/A": [100, 104], "QUEUE/B": [101, 102]}


def test_a_committed_get_takes_a_message_put_in_a_committed_unit():
    moves, spans = settle(
        put("A", "M1", "100.1"),
        {"t": "CMT", "u": "100.1", "qs": ["A"]},
        get("A", "M1", "102.2"),
        {"t": "CMT", "u": "102.2", "qs": ["A"]},
    )
    assert moves == [] and spans == {"QUEUE/A": [100, 103]}


def test_a_backed_out_get_leaves_the_message():
    moves, _spans = settle(put("A", "M1"), get("A", "M1", "101.1"), {"t": "BCK", "u": "101.1", "qs": ["A"]})
    assert moves == [(100, "PUT", "QUEUE/A", "M1", None)]


def test_moves_of_a_unit_still_open_wait_for_its_ending():
    moves, spans = settle(put("A", "M1"), get("A", "M1", "101.1"), put("A", "M2", "101.1"))
    assert moves == [
        (100, "PUT", "QUEUE/A", "M1", None),
        (101, "GET", "QUEUE/A", "M1", "101.1"),
        (102, "PUT", "QUEUE/A", "M2", "101.1"),
    ]
    assert spans == {}


def test_an_ending_stays_when_its_unit_may_have_begun_in_an_earlier_extent():
    moves, _spans = settle(
        put("A", "M1", "90.1"),
        {"t": "CMT", "u": "90.1", "qs": ["A"]},
        put("A", "M2", "x.2"),
        {"t": "CMT", "u": "x.2", "qs": ["A"]},
    )
    # Its records here are settled all the same; the ending is kept for those it left before.
    assert moves == [
        (100, "PUT", "QUEUE/A", "M1", None),
        (101, "CMT", "QUEUE/A", None, "90.1"),
        (102, "PUT", "QUEUE/A", "M2", None),
        (103, "CMT", "QUEUE/A", None, "x.2"),
    ]


def test_an_extent_without_moves_settles_nothing():
    moves, spans = settle({"t": "CLR", "q": "A"}, {"t": "CKPT", "uows": {}, "media": {}})
    assert moves == [] and spans == {}


def test_an_empty_extent_settles_nothing():
    moves, spans = settled.settle(extent_tables.extent_table(b""))
    assert len(moves) == 0 and moves.schema == settled.SCHEMA and spans == {}
