"""The simulated clock stays within its range, whatever a lab asks or the disk holds."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from mqsh.model.clock import EARLIEST, LATEST, Clock, ClockRangeError, parse_duration
from mqsh.shell.session import Session
from mqsh.store.files import read_document, write_document


@pytest.mark.parametrize("text", ["3000000D", "99999999999999999999999D", "300000000H"])
def test_a_duration_longer_than_the_whole_range_is_refused_with_the_range(text):
    with pytest.raises(ClockRangeError, match="at most (2932896D|70389527H) .1970-01-01 00:00:00 to 9999-12-31 23:59:59."):
        parse_duration(text)


@pytest.mark.parametrize("frozen", [False, True])
def test_an_advance_past_the_last_moment_is_refused_and_changes_nothing(tmp_path, frozen):
    clock = Clock(tmp_path / "clock")
    if frozen:
        clock.set(datetime(2026, 1, 1))
    clock.advance(timedelta(days=1))
    before, stored = clock.now(), read_document(tmp_path / "clock")
    with pytest.raises(ClockRangeError, match="cannot go past 9999-12-31 23:59:59"):
        clock.advance(timedelta(days=2932896))
    assert clock.now() == before and read_document(tmp_path / "clock") == stored


@pytest.mark.parametrize("moment", [datetime(1, 1, 1), datetime(1969, 12, 31, 23, 59, 59)])
def test_a_moment_before_the_first_is_refused(tmp_path, moment):
    clock = Clock(tmp_path / "clock")
    with pytest.raises(ClockRangeError, match="cannot go before 1970-01-01 00:00:00"):
        clock.set(moment)
    assert clock.frozen_at is None


@pytest.mark.parametrize("stored, now", [
    ({"offset": 3000000 * 86400.0, "frozen_at": None}, LATEST),
    ({"offset": 1e300, "frozen_at": None}, LATEST),
    ({"offset": -1e300, "frozen_at": None}, EARLIEST),
    ({"offset": 0.0, "frozen_at": "1900-01-01 00:00:00"}, EARLIEST),
])
def test_a_clock_stored_out_of_range_reads_as_its_nearest_end(tmp_path, stored, now):
    write_document(tmp_path / "clock", stored)
    assert Clock(tmp_path / "clock").now() == now


def test_a_stored_offset_that_is_not_a_number_is_no_offset(tmp_path):
    write_document(tmp_path / "clock", {"offset": "nan", "frozen_at": None})
    assert abs(Clock(tmp_path / "clock").now() - datetime.now()) < timedelta(seconds=5)


def test_a_queue_manager_starts_on_a_clock_stored_out_of_range(data_dir, session):
    assert session.execute("endmqm QM1").ok
    session.close()
    write_document(data_dir / "clock", {"offset": 3000000 * 86400.0, "frozen_at": None})
    later = Session(data_dir)
    assert later.execute("strmqm QM1").ok
    later.current_qmgr = "QM1"
    assert later.execute("DEFINE QLOCAL(AFTER)").ok
    assert later.execute("LAB CLOCK SET('2026-01-01 09:00:00')").ok
    later.close()
