"""mqsh.store.jsontext: the same JSON values as the standard library, whatever orjson refuses."""

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mqsh.store import jsontext
from mqsh.store.files import read_document, write_document
from mqsh.store.log import read_records
from mqsh.store.log_writer import LogWriter

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text() | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(values)
def test_round_trip_matches_the_standard_library(value):
    text = jsontext.dumps(value)
    assert jsontext.loads(text) == json.loads(json.dumps(value))


@pytest.mark.parametrize("value", [-(2**63) - 1, 2**64, {"n": [2**70, -(2**70)], "s": "x"}])
def test_integers_beyond_64_bits_come_back_as_integers(value):
    text = jsontext.dumps(value)
    assert text.startswith(jsontext.STANDARD_MARK)  # the standard library wrote it, and reads it back
    assert jsontext.loads(text) == value and jsontext.loads(text.decode()) == value


@given(st.dictionaries(st.text(), st.integers(), max_size=8))
def test_sorted_keys_are_in_the_standard_library_order(value):
    assert list(jsontext.loads(jsontext.dumps(value, sort_keys=True))) == sorted(value)


def test_compact_text_with_the_record_number_first():
    assert jsontext.dumps({"lsn": 7, "t": "PUT", "a": [1, 2]}) == b'{"lsn":7,"t":"PUT","a":[1,2]}'


def test_what_orjson_refuses_goes_through_the_standard_library():
    huge = 2**70
    assert jsontext.loads(jsontext.dumps({"n": huge})) == {"n": huge}
    undecodable = b"Q\xff".decode("utf-8", "surrogateescape")  # text keeping a byte that is not UTF-8
    assert jsontext.loads(jsontext.dumps({"d": undecodable})) == {"d": undecodable}
    assert jsontext.loads(jsontext.dumps({1: "x"})) == {"1": "x"}
    assert math.isnan(jsontext.loads(b'{"x": NaN}')["x"])


def test_text_that_is_not_json_is_a_value_error():
    with pytest.raises(ValueError):
        jsontext.loads(b'{"lsn": 1')


def test_log_records_and_object_files_keep_any_text(tmp_path):
    names = ["QUEUE.\u00e9T\u00c9", "Q\u4e2d", b"Q\xfe".decode("utf-8", "surrogateescape")]
    writer = LogWriter(tmp_path / "log", 1 << 20, 0)
    for name in names:
        writer.append({"t": "OBJ", "n": name, "a": {"MAXDEPTH": 2**65}})
    writer.close()
    assert [(record["n"], record["a"]["MAXDEPTH"]) for record in read_records(tmp_path / "log")] == [
        (name, 2**65) for name in names
    ]
    write_document(tmp_path / "object", {"name": names[0], "attributes": {"DESCR": names[1]}})
    assert read_document(tmp_path / "object") == {"name": names[0], "attributes": {"DESCR": names[1]}}
