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


@given(st.text(min_size=1, max_size=300))
def test_any_name_fits_in_a_file_name(name):
    file_name = to_file_name(name)
    assert len(file_name) <= 200 and "/" not in file_name and file_name not in (".", "..")
    assert from_file_name(file_name) in (name, None)


def test_a_name_too_long_for_a_file_name_is_hashed_and_not_reversed():
    long_name, other = "S" * 10240, "S" * 10239 + "T"
    assert to_file_name(long_name) != to_file_name(other)
    assert to_file_name(long_name).startswith("S" * 100) and "~" in to_file_name(long_name)
    assert from_file_name(to_file_name(long_name)) is None
