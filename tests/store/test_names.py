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
