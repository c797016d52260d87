"""The timeline's axis: moments of the clock, each as wide as its records need, idle stretches between."""

from __future__ import annotations

from datetime import datetime, timedelta

from mqsh.lab.timeline_axis import NARROWEST, Lane, Mark, Span, duration_text, lay_out
from mqsh.store.clocknotes import Clock

NINE = datetime(2026, 3, 3, 9, 0, 0)


def lane(*notes: tuple[int, datetime], marks: list[Mark] | None = None) -> Lane:
    return Lane(
        "QA",
        [Span("S0000000.LOG", 0, 99, "inactive"), Span("S0000001.LOG", 100, 199, "active")],
        marks or [],
        Clock(list(notes)),
    )


def test_the_axis_fills_the_room_and_a_longer_idle_stretch_is_wider():
    laid = lay_out([lane((0, NINE), (50, NINE + timedelta(minutes=1)), (150, NINE + timedelta(days=30)))], 80)
    assert laid.length == 80
    assert len(laid.moments) == 3 and len(laid.gaps) == 2
    (_start1, short, idle1), (_start2, long, idle2) = laid.gaps
    assert (duration_text(idle1), duration_text(idle2)) == ("+1m", "+29d")
    assert long > short


def test_an_extent_cut_by_the_clock_keeps_its_records_in_order_on_both_sides():
    laid = lay_out([lane((0, NINE), (150, NINE + timedelta(hours=1)))], 60)
    runs = [(run.piece.span, run.piece.first, run.piece.last) for run in laid.placed[0]]
    assert runs == [(0, 0, 99), (1, 100, 149), (1, 150, 199)]
    starts = [run.start for run in laid.placed[0]]
    assert starts == sorted(starts) and laid.placed[0][0].width >= NARROWEST


def test_an_event_between_records_gets_its_own_moment_and_a_mark_at_its_lsn_lands_in_its_run():
    crash = Mark(99, "failure", "a crash", NINE + timedelta(minutes=10))
    checkpoint = Mark(120, "checkpoint", "checkpoint")
    laid = lay_out([lane((0, NINE), (100, NINE + timedelta(minutes=20)), marks=[crash, checkpoint])], 60)
    assert laid.moments == [NINE, NINE + timedelta(minutes=10), NINE + timedelta(minutes=20)]
    here = laid.column(0, crash, crash.at)
    assert here == laid.starts[1]  # LSN 99 was written at 09:00, the crash came at 09:10
    run = laid.placed[0][1]
    assert run.start <= laid.column(0, checkpoint, NINE + timedelta(minutes=20)) < run.start + run.width


def test_a_log_without_notes_is_laid_out_by_its_records_alone():
    laid = lay_out([lane()], 40)
    assert laid.moments == [None] and laid.gaps == [] and laid.length == 40
