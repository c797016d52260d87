"""The log's record kinds: each encodes to the short keys the log has always held, and decodes back."""

from __future__ import annotations

import pytest

from mqsh.store import records
from mqsh.store.extent_tables import FIELDS

# Records as the log held them before their kinds were defined in one place: a data directory
# written then must still read, and one written now must read the same to an older reader.
WRITTEN_BEFORE = [
    {"t": "OBJ", "k": "QUEUE/Q1", "o": "QLOCAL", "n": "Q1", "a": {"MAXDEPTH": 5000}, "c": 1},
    {"t": "OBJ", "k": "QUEUE/Q1", "o": "QLOCAL", "n": "Q1", "a": {"MAXDEPTH": 10}},
    {"t": "IMG", "k": "QUEUE/Q1", "o": "QLOCAL", "n": "Q1", "a": {}, "ms": [{"m": "A", "p": 0}]},
    {"t": "DEL", "k": "QUEUE/Q1"},
    {"t": "CAT", "es": [["QUEUE", "QLOCAL", "Q1"]]},
    {"t": "CKPT", "restart": 7, "uows": {"7.1": ["Q1"]}, "media": {"QUEUE/Q1": 3}},
    {"t": "PUT", "q": "Q1", "m": "A", "p": 4, "s": 100, "tm": "2026-01-01T00:00:00", "u": None},
    {"t": "GET", "q": "Q1", "m": "A", "u": "7.1"},
    {"t": "CLR", "q": "Q1"},
    {"t": "CMT", "u": "7.1", "qs": ["Q1"]},
    {"t": "BCK", "u": "7.1", "qs": [], "cfs": ["APP1"], "r": 99},
    {"t": "SBLK", "cf": "APP1", "e": "E1", "o": "QM1", "b": 3, "n": 2, "r": 98},
    {
        "t": "SPUT",
        "cf": "APP1",
        "sq": "SQ",
        "e": "E1",
        "p": 0,
        "s": 9,
        "tm": "x",
        "u": None,
        "o": None,
        "b": None,
        "n": None,
        "r": 97,
    },
    {"t": "SGET", "cf": "APP1", "e": "E1", "u": None, "r": 96},
    {"t": "SBKS", "cf": "APP1", "r": 95},
    {
        "t": "SBKP",
        "cf": "APP1",
        "sq": "SQ",
        "e": "E1",
        "p": 0,
        "s": 9,
        "tm": "x",
        "o": None,
        "b": None,
        "n": None,
    },
    {
        "t": "SBKP",
        "cf": "APP1",
        "sq": "SQ",
        "e": "E1",
        "p": 0,
        "s": 9,
        "tm": "x",
        "o": None,
        "b": None,
        "n": None,
        "st": "P",
        "u": "7.2",
        "mb": "QM2",
    },
    {"t": "SBKE", "cf": "APP1", "r": 95, "c": 2},
]


@pytest.mark.parametrize("written", WRITTEN_BEFORE, ids=lambda record: record["t"])
def test_a_record_decodes_and_encodes_to_the_same_keys_in_the_same_order(written):
    encoded = records.decode(written).encode()
    assert list(encoded.items()) == list(written.items())


def test_every_kind_the_log_holds_is_defined():
    assert {record["t"] for record in WRITTEN_BEFORE} == set(records.KINDS)


def test_fields_are_read_by_name():
    put = records.decode(
        {"t": "PUT", "q": "Q1", "m": "A", "p": 4, "s": 100, "tm": "t", "u": "7.1", "lsn": 12}
    )
    assert isinstance(put, records.Put) and (put.queue, put.priority, put.unit) == ("Q1", 4, "7.1")
    assert records.Put.short_key("queue") == "q" and records.SharedPut.short_key("blocks") == "n"


def test_a_kind_defined_nowhere_decodes_to_nothing():
    assert records.decode({"t": "XYZ"}) is None


def test_the_columnar_copies_type_the_columns_the_definitions_give():
    assert FIELDS["lsn"] == "long" and FIELDS["t"] == "string"
    assert FIELDS["n"] == "int"  # the block count; an object's name is read from the record's body
    assert "a" not in FIELDS and "ms" not in FIELDS  # whole documents stay in the body
    assert set(FIELDS) == {
        "lsn",
        "t",
        "k",
        "q",
        "m",
        "p",
        "s",
        "tm",
        "u",
        "qs",
        "c",
        "cf",
        "sq",
        "e",
        "o",
        "b",
        "n",
        "r",
        "cfs",
        "st",
        "mb",
    }


def test_a_record_is_a_value_whose_fields_are_set_once():
    put = records.Put("Q1", "A", 4, 100, "t", None)
    assert put == records.Put(queue="Q1", msgid="A", priority=4, size=100, put_time="t", unit=None)
    assert put != records.Put("Q1", "B", 4, 100, "t", None) and put != records.Get("Q1", "A", None)
    assert hash(put) == hash(records.Put("Q1", "A", 4, 100, "t", None))
    assert repr(records.Clear("Q1")) == "Clear(queue='Q1')"
    with pytest.raises(AttributeError):
        put.queue = "Q2"
    # A field only some records of the kind carry may be left out, and is then None.
    assert records.Backout("7.1", ["Q1"]).encode() == {"t": "BCK", "u": "7.1", "qs": ["Q1"]}
    with pytest.raises(TypeError):
        records.Put("Q1")
