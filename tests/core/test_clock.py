"""The simulated clock stays within the dates everything worked out from it can hold."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from mqsh.core.clock import LATEST, Clock, parse_duration
from mqsh.store.files import write_document


def test_a_move_past_the_range_is_refused_and_changes_nothing(tmp_path):
    clock = Clock(tmp_path / "clock")
    clock.set(datetime(2026, 3, 1))
    with pytest.raises(ValueError, match="stays between"):
        clock.advance(timedelta(days=3_000_000))
    assert clock.now() == datetime(2026, 3, 1)
    assert Clock(tmp_path / "clock").now() == datetime(2026, 3, 1)  # nothing out of range was saved


def test_an_advance_of_the_running_clock_past_the_range_is_refused(tmp_path):
    clock = Clock(tmp_path / "clock")
    with pytest.raises(ValueError):
        clock.advance(timedelta(days=3_000_000))
    assert clock.offset == 0.0


def test_a_duration_too_long_for_any_date_is_a_value_error():
    with pytest.raises(ValueError, match="more than the simulated clock can move"):
        parse_duration("99999999999999999999D")


def test_a_moment_out_of_range_cannot_be_set(tmp_path):
    with pytest.raises(ValueError):
        Clock(tmp_path / "clock").set(datetime(9999, 12, 31))


@pytest.mark.parametrize(
    "state",
    [
        {"offset": 1e300, "frozen_at": None},
        {"offset": 0, "frozen_at": "9999-12-31 23:59:59"},
        {"offset": "soon", "frozen_at": None},
        ["not", "a", "clock"],
    ],
)
def test_a_stored_clock_out_of_range_is_not_used(tmp_path, state):
    write_document(tmp_path / "clock", state)
    clock = Clock(tmp_path / "clock")
    assert clock.now() < LATEST  # the real clock: a queue manager on it still starts and works
    clock.advance(timedelta(days=1))


def test_a_step_back_is_remembered_for_what_must_never_go_back(tmp_path):
    clock = Clock(tmp_path / "clock")
    clock.set(datetime(2026, 3, 1), counted=False)
    clock.set(datetime(2026, 2, 1))
    assert clock.now() == datetime(2026, 2, 1) and clock.never_back(clock.now()) == datetime(2026, 3, 1)
    clock.set(datetime(2026, 2, 10))  # forward: the step back stays counted
    clock.advance(timedelta(days=1))
    reread = Clock(tmp_path / "clock")
    assert reread.never_back(reread.now()) == datetime(2026, 3, 11)  # 2026-02-11 and the 28 days set back


def test_a_setting_before_anything_was_counted_is_no_step_back(tmp_path):
    clock = Clock(tmp_path / "clock")  # on the real clock, later than the moment set
    clock.set(datetime(2026, 3, 1), counted=False)
    assert clock.never_back(clock.now()) == datetime(2026, 3, 1)


def test_lab_clock_says_the_range(session):
    result = session.execute("LAB CLOCK ADVANCE(3000000D)")
    assert not result.ok and "stays between 1970-01-01 00:00:00 and 9000-01-01 00:00:00" in session.render(
        result
    )
    assert session.execute("DEFINE QLOCAL(AFTER.CLOCK)").ok


def test_lab_clock_set_to_no_time_says_what_a_time_looks_like(session):
    session.execute("LAB CLOCK SET('2026-03-01 10:00:00')")  # frozen: it moves only when told
    before = session.execute("LAB CLOCK ADVANCE(0S)")
    result = session.execute("LAB CLOCK SET('garbage')")
    text = session.render(result)
    assert not result.ok
    assert text == "mqsh: 'garbage' is not a time such as 2026-01-05 09:00:00 (YYYY-MM-DD HH:MM:SS)."
    assert session.render(session.execute("LAB CLOCK ADVANCE(0S)")) == session.render(before)  # not moved


def test_moving_the_clock_back_under_a_running_queue_manager_says_what_it_does(session):
    session.execute("LAB CLOCK SET('2026-03-01 10:00:00')")
    lines = session.render(session.execute("LAB CLOCK SET('2026-03-01 09:00:00')")).splitlines()
    assert lines == [
        "The simulated clock is at 2026-03-01 09:00:00.",
        "The clock went back while QM1 runs: timed work (the half-hourly checkpoint, automatic media images, Native HA "
        "retries) waits until the clock passes the times it last ran, and times recorded from now on are "
        "earlier than those recorded before. Cluster sequence numbers, which count real seconds, go on from the "
        "latest time the clock had reached.",
    ]
    assert (
        session.render(session.execute("LAB CLOCK SET('2026-03-01 11:00:00')"))
        == "The simulated clock is at 2026-03-01 11:00:00."
    )  # forward: nothing to say
    session.execute("endmqm QM1")
    assert (
        session.render(session.execute("LAB CLOCK SET('2026-03-01 08:00:00')"))
        == "The simulated clock is at 2026-03-01 08:00:00."
    )  # nothing runs: nothing to say
