"""Clock notes: the LSN of the first record written at each new second, and any record's time from them."""

from __future__ import annotations

from datetime import datetime, timedelta

from mqsh.store import clocknotes
from mqsh.store.clocknotes import Clock, ClockNotes

NINE = datetime(2026, 3, 3, 9, 0, 0)


def test_a_note_only_when_the_clock_has_moved_and_times_read_back(tmp_path):
    now = [NINE]
    notes = ClockNotes(tmp_path, lambda: now[0])
    for lsn in range(5):
        notes.wrote(lsn)  # one second: one note
    now[0] = NINE + timedelta(hours=1)
    notes.wrote(5)
    notes.wrote(6)
    assert clocknotes.notes_path(tmp_path).read_text().splitlines() == [
        "0 2026-03-03 09:00:00",
        "5 2026-03-03 10:00:00",
    ]
    clock = clocknotes.read(tmp_path)
    assert [clock.time_of(lsn) for lsn in (0, 4, 5, 99)] == [NINE, NINE, NINE + timedelta(hours=1)] + [
        NINE + timedelta(hours=1)
    ]
    assert clock.changes_within(0, 10) == [5] and clock.changes_within(5, 10) == []


def test_a_torn_line_is_passed_over_and_a_restart_note_of_the_same_time_is_no_change(tmp_path):
    clocknotes.notes_path(tmp_path).write_text("0 2026-03-03 09:00:00\n7 2026-03-03 09:00:00\n9 2026-03-0")
    clock = clocknotes.read(tmp_path)
    assert clock.time_of(8) == NINE and clock.changes_within(0, 20) == []


def test_without_notes_no_time_is_known(tmp_path):
    clock = clocknotes.read(tmp_path)
    assert not clock and clock.time_of(3) is None
    assert Clock([(10, NINE)]).time_of(2) == NINE  # before the first note: the earliest time known
