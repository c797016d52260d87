"""Object names map to file names reversibly and never leave their folder."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mqsh.store.names import from_file_name, to_file_name


def test_mq_style_dots():
    assert to_file_name("QL.A") == "QL!A"


@given(st.text(alphabet="ABCxyz019._/%", min_size=1, max_size=48))
def test_round_trip_and_no_escape(name):
    file_name = to_file_name(name)
    assert from_file_name(file_name) == name
    assert "/" not in file_name and file_name not in (".", "..")


@given(st.text(min_size=1, max_size=10240))
def test_every_name_fits_a_file_name(name):
    file_name = to_file_name(name)
    assert len(file_name.encode("utf-8")) <= 200 and "/" not in file_name and file_name not in (".", "..")


def test_long_names_get_distinct_file_names_that_do_not_read_back():
    first, second = "S" * 3000, "S" * 2999 + "T"
    assert to_file_name(first) != to_file_name(second)
    assert from_file_name(to_file_name(first)) is None


def test_a_file_name_no_name_maps_to_reads_back_as_none():
    assert from_file_name("A%ZZ") is None and from_file_name("%") is None
