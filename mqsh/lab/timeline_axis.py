"""Laying a log's picture along the simulated clock (mqsh.lab.timeline_draw draws what this lays out).

The axis runs through the moments of the lab's clock at which something
happened: records were written (the clock notes of mqsh.store.clocknotes say
which record was written when), or a failure, a recovery, a backup came. Each
moment gets a slot as wide as the most records any lane wrote then (never
narrower than a few columns for an extent that lies wholly in it, so a short
one still shows); between two moments lies the time the clock ran with no
record written, drawn as a gap that widens with its length (a minute, an
hour and a month are told apart, not to scale). So the extents keep their
order and their share of the records, and the picture says when each was
written, and how long nothing was.

Several lanes (each member of a group) share the axis: a moment's slot is
laid out for the lane with most to show, and within it each lane's runs of
records fill the slot in LSN order.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from mqsh.store.clocknotes import Clock

ACTIVE, INACTIVE, ARCHIVED, MISSING = "active", "inactive", "archived", "missing"
NARROWEST = 3  # columns an extent written wholly at one moment takes at least
GAP_SHARE = 0.4  # of the spare room, what the gaps between moments get (when there are records too)


@dataclass(frozen=True)
class Span:
    name: str
    first: int  # LSNs; a missing extent's are those between its neighbours
    last: int
    state: str


@dataclass(frozen=True)
class Mark:
    lsn: int | None  # where it lies in the log, if anywhere
    kind: str
    label: str
    at: datetime | None = None  # when it happened, for one that is not a record (a failure, a backup)


@dataclass
class Lane:
    name: str
    spans: list[Span] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    clock: Clock = field(default_factory=lambda: Clock([]))

    def when(self, mark: Mark) -> datetime | None:
        return mark.at if mark.at is not None else None if mark.lsn is None else self.clock.time_of(mark.lsn)


@dataclass(frozen=True)
class Piece:
    """A run of one extent's records written at one moment (a missing extent is one piece, no records)."""

    span: int  # its index in the lane's spans
    first: int
    last: int
    moment: datetime | None  # None: the log has no clock notes

    @property
    def records(self) -> int:
        return max(self.last - self.first + 1, 0)


def pieces(lane: Lane) -> list[Piece]:
    """The lane's extents cut where the clock moved."""
    cut: list[Piece] = []
    for index, span in enumerate(lane.spans):
        if span.state == MISSING:
            cut.append(Piece(index, span.first, span.first - 1, lane.clock.time_of(span.first)))
            continue
        start = span.first
        for change in [*lane.clock.changes_within(span.first, span.last), span.last + 1]:
            cut.append(Piece(index, start, change - 1, lane.clock.time_of(start)))
            start = change
    return cut


def moment_of(text: object) -> datetime | None:
    """A time as the records keep it ('2026-04-08 09:00:00'), to the second; None when there is none."""
    try:
        return datetime.fromisoformat(str(text)).replace(microsecond=0) if text else None
    except ValueError:
        return None


def _order(moment: datetime | None) -> tuple[bool, datetime]:
    return (moment is not None, moment or datetime.min)


def gap_weight(duration: timedelta | None) -> float:
    """How much of the gaps' room a stretch of idle clock gets: its length on a log scale."""
    if duration is None:
        return 1.0
    return max(math.log2(1 + max(duration.total_seconds(), 0) / 60), 0.25)


def _share(spare: int, weights: list[float]) -> list[int]:
    """spare columns given out by weight, whole columns, the remainder to the heaviest."""
    total = sum(weights)
    if not weights or spare <= 0 or total <= 0:
        return [0] * len(weights)
    given = [int(spare * weight / total) for weight in weights]
    given[max(range(len(weights)), key=lambda index: weights[index])] += spare - sum(given)
    return given


@dataclass
class Placed:
    piece: Piece
    start: int
    width: int


@dataclass
class Axis:
    moments: list[datetime | None]
    starts: list[int]  # each moment's slot: first column and width
    widths: list[int]
    gaps: list[
        tuple[int, int, timedelta | None]
    ]  # (first column, width, idle time) after each moment but the last
    placed: list[list[Placed]]  # per lane, its pieces in order
    length: int

    def column(self, lane: int, mark: Mark, when: datetime | None) -> int | None:
        """Where a mark lies: at its LSN, in the run written at its time; else at its own moment."""
        runs = self.placed[lane]
        if mark.lsn is not None and runs:
            lsn = mark.lsn
            last = max(runs, key=lambda run: run.piece.last)
            if lsn == last.piece.last + 1:
                lsn = last.piece.last  # the LSN after the log's end (a restart point with nothing to replay)
            for run in runs:
                if run.piece.first <= lsn <= run.piece.last and (
                    mark.at is None or run.piece.moment in (None, when)
                ):
                    share = (lsn - run.piece.first) / max(run.piece.records, 1)
                    return run.start + min(int(share * run.width), run.width - 1)
        if when is None or when not in self.moments:
            return None
        index = self.moments.index(when)
        here = [run for run in runs if run.piece.moment == when]
        after = mark.lsn is not None and here and mark.lsn > max(run.piece.last for run in here)
        return self.starts[index] + (self.widths[index] - 1 if after else 0)


def lay_out(lanes: list[Lane], room: int) -> Axis:
    """The axis for lanes in room columns (more when there are too many moments to fit)."""
    cut = [pieces(lane) for lane in lanes]
    moments = sorted(
        {piece.moment for lane in cut for piece in lane}
        | {lane.when(mark) for lane in lanes for mark in lane.marks if mark.at is not None},
        key=_order,
    )
    if not moments:
        return Axis([], [], [], [], [[] for _lane in lanes], 0)
    where = {moment: index for index, moment in enumerate(moments)}
    alone = [
        {piece.span: sum(1 for other in lane if other.span == piece.span) == 1 for piece in lane}
        for lane in cut
    ]
    need, records = [1] * len(moments), [0] * len(moments)
    for lane, single in zip(cut, alone):
        minimum, count = [0] * len(moments), [0] * len(moments)
        for piece in lane:
            minimum[where[piece.moment]] += NARROWEST if single[piece.span] else 1
            count[where[piece.moment]] += piece.records
        need = [max(a, b) for a, b in zip(need, minimum)]
        records = [max(a, b) for a, b in zip(records, count)]
    idle = [None if a is None or b is None else b - a for a, b in zip(moments, moments[1:])]
    gap_min = 1 if sum(need) + len(idle) <= room else 0
    spare = max(room - sum(need) - gap_min * len(idle), 0)
    gap_spare = 0 if not idle else spare if not sum(records) else int(spare * GAP_SHARE)
    widths = [a + b for a, b in zip(need, _share(spare - gap_spare, [float(count) for count in records]))]
    gap_widths = [gap_min + extra for extra in _share(gap_spare, [gap_weight(duration) for duration in idle])]
    starts, gaps, column = [], [], 0
    for index, width in enumerate(widths):
        starts.append(column)
        column += width
        if index < len(gap_widths):
            gaps.append((column, gap_widths[index], idle[index]))
            column += gap_widths[index]
    placed = []
    for lane, single in zip(cut, alone):
        runs: list[Placed] = []
        for index, moment in enumerate(moments):
            here = sorted((piece for piece in lane if piece.moment == moment), key=lambda piece: piece.first)
            minimum = [NARROWEST if single[piece.span] else 1 for piece in here]
            extra = (
                _share(widths[index] - sum(minimum), [float(piece.records) for piece in here])
                if any(piece.records for piece in here)
                else _share(widths[index] - sum(minimum), [1.0] * len(here))
            )
            start = starts[index]
            for piece, least, more in zip(here, minimum, extra):
                runs.append(Placed(piece, start, least + more))
                start += least + more
        placed.append(runs)
    return Axis(moments, starts, widths, gaps, placed, column)


def duration_text(duration: timedelta | None) -> str:
    """An idle stretch as '+45s', '+10m', '+2h', '+30d' (the largest whole unit)."""
    if duration is None:
        return ""
    seconds = int(duration.total_seconds())
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"+{seconds // size}{unit}"
    return f"+{seconds}s"
