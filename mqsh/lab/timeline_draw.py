"""Drawing a log's picture (mqsh.lab.timeline): box-drawing characters for the terminal, SVG for slides.

A picture is one lane per log (a queue manager's, or each member's of a
group), laid along the simulated clock (mqsh.lab.timeline_axis): its
extents left to right, filled by their state, the stretches when no record
was written drawn as a line with their length, the clock's time under each
moment, and the marks - checkpoints, media images, backups, copies of the
queue manager, failures, recoveries, the restart and media recovery points -
placed where they lie, and listed below with when and what they are.
"""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from datetime import datetime

from mqsh.lab.timeline_axis import (
    ACTIVE,
    ARCHIVED,
    INACTIVE,
    MISSING,
    Axis,
    Lane,
    Span,
    duration_text,
    lay_out,
)

FILL = {ACTIVE: "█", INACTIVE: "▒", ARCHIVED: "░", MISSING: "╳"}
IDLE = "─"  # the clock running with no record written
COLOUR = {ACTIVE: "#2f6db3", INACTIVE: "#9bbbe0", ARCHIVED: "#d9d9d9", MISSING: "#ffffff"}
# The letter a mark shows in the terminal, and its colour in SVG.
SYMBOL = {
    "checkpoint": "C",
    "media image": "I",
    "backup": "B",
    "copy": "K",
    "failure": "X",
    "recovery": "R",
    "restart point (RECLOG)": "▼",
    "media recovery point (MEDIALOG)": "▽",
    "purge": "P",
}
MARK_COLOUR = {
    "failure": "#c0392b",
    "recovery": "#27ae60",
    "backup": "#8e44ad",
    "copy": "#8e44ad",
    "purge": "#d35400",
}
STAMP = "%Y-%m-%d %H:%M:%S"


@dataclass
class Picture:
    title: str
    lanes: list[Lane]

    def span_of_time(self) -> str:
        """', from <first moment> to <last>' when the logs have clock notes."""
        moments = sorted({moment for lane in self.lanes for moment in _moments(lane) if moment is not None})
        if not moments:
            return ""
        return f", {moments[0]:{STAMP}}" + ("" if len(moments) == 1 else f" to {moments[-1]:{STAMP}}")


def _moments(lane: Lane) -> list[datetime | None]:
    times = [lane.when(mark) for mark in lane.marks]
    for span in lane.spans:
        times += [lane.clock.time_of(span.first), lane.clock.time_of(span.last)]
    return times


def _forms(name: str) -> list[str]:
    """An extent's name, shorter and shorter: S0000004.LOG, S0000004, or its number alone (4)."""
    return [name, name.removesuffix(".LOG"), name.removesuffix(".LOG").lstrip("S").lstrip("0") or "0"]


def _names(spans: list[Span], room: dict[int, int]) -> dict[int, str]:
    """Each extent's name in the characters it has room for (span index -> room), all in the fullest
    form that every one of them fits (so that a lane's names match), shorter where one does not."""
    fullest = max(
        (
            next((level for level, form in enumerate(_forms(spans[span].name)) if len(form) <= cells), 0)
            for span, cells in room.items()
        ),
        default=0,
    )
    return {
        span: next((form for form in _forms(spans[span].name)[fullest:] if len(form) <= cells), "")
        for span, cells in room.items()
    }


def _time_label(moment: datetime | None, previous: datetime | None) -> str:
    if moment is None:
        return ""
    clock = f"{moment:%H:%M}" if moment.second == 0 else f"{moment:%H:%M:%S}"
    return clock if previous is not None and previous.date() == moment.date() else f"{moment:%m-%d} {clock}"


def _write(cells: list[str], start: int, text: str) -> None:
    for offset, char in enumerate(text):
        if 0 <= start + offset < len(cells):
            cells[start + offset] = char


def _lane_lines(axis: Axis, index: int, lane: Lane, width: int) -> list[str]:
    runs = axis.placed[index]
    bar, names, times = [IDLE] * axis.length, [" "] * axis.length, [" "] * axis.length
    for start, cells, idle in axis.gaps:
        text = duration_text(idle)
        if cells >= len(text) + 2:
            _write(bar, start + (cells - len(text)) // 2, text)
    firsts = {}
    for run in runs:
        state = lane.spans[run.piece.span].state
        _write(bar, run.start, FILL[state] * run.width)
        firsts.setdefault(run.piece.span, run.start)
    for start in firsts.values():
        if 0 < start < len(bar) - 1 and bar[start - 1] == bar[start] == bar[start + 1]:
            bar[start] = "┃"  # two extents of one state side by side
    starts = sorted(firsts.values())
    room = {
        span: next((other for other in starts if other > start), axis.length + 1) - start - 1
        for span, start in firsts.items()
    }
    for span, name in _names(lane.spans, room).items():
        _write(names, firsts[span], name)
    rows = _mark_rows(axis, index, lane)
    free, previous = 0, None
    for moment, start in zip(axis.moments, axis.starts):
        label = _time_label(moment, previous)
        if label and start >= free and start + len(label) <= axis.length:
            _write(times, start, label)
            free, previous = start + len(label) + 1, moment
    lines = [
        f"{lane.name}:",
        " " + "".join(names).rstrip(),
        "┃" + "".join(bar) + "┃",
        *(" " + "".join(row).rstrip() for row in rows),
        " " + "".join(times).rstrip(),
    ]
    for mark in sorted(lane.marks, key=lambda item: (_order(lane.when(item)), item.lsn or 0)):
        when = lane.when(mark)
        lsn = "" if mark.lsn is None else f"LSN {mark.lsn}"
        stamp = f"{when:{STAMP}}" if when is not None else "-"
        lines += textwrap.wrap(
            f"   {SYMBOL[mark.kind]}  {stamp:<19}  {lsn:<10} {mark.label}",
            max(width, 40),
            subsequent_indent=" " * 37,
        )
    return lines


def _mark_rows(axis: Axis, index: int, lane: Lane) -> list[list[str]]:
    """The marks' letters under the bar, in time order, each in the first row where its column is
    free: marks that fall in one column (events a second apart on a long log) stack, none hidden."""
    rows = [[" "] * axis.length]
    for mark in sorted(lane.marks, key=lambda item: (_order(lane.when(item)), item.lsn or 0)):
        column = axis.column(index, mark, lane.when(mark))
        if column is None:
            continue
        row = next((row for row in rows if row[column] == " "), None)
        if row is None:
            row = [" "] * axis.length
            rows.append(row)
        row[column] = SYMBOL[mark.kind]
    return rows


def _order(moment: datetime | None) -> tuple[bool, datetime]:
    return (moment is not None, moment or datetime.min)


def text_lines(picture: Picture, width: int) -> list[str]:
    axis = lay_out(picture.lanes, max(width - 2, 20))
    lines = textwrap.wrap(picture.title + picture.span_of_time(), max(width, 40))
    for index, lane in enumerate(picture.lanes):
        lines += _lane_lines(axis, index, lane, width)
    legend = (
        "Extents: " + "  ".join(f"{FILL[state]} {state}" for state in FILL) + f"  {IDLE} no record written"
        ".  Marks: " + "  ".join(f"{symbol} {kind}" for kind, symbol in SYMBOL.items()) + "."
    )
    return lines + textwrap.wrap(legend, max(width, 40))


LANE_HEIGHT, BAR, LEFT, SVG_WIDTH = 170, 34, 20, 1000
CELL, CHAR, ROWS = 5, 8, 6  # pixels a column of the axis takes; a character's width, roughly; rows of labels


def svg(picture: Picture) -> str:
    """The picture as an SVG document: a group per lane, a rect per run of an extent's records, a line
    per idle stretch, the clock's times above, a line and label per mark."""
    height = 60 + LANE_HEIGHT * len(picture.lanes) + 20
    root = ET.Element(
        "svg",
        xmlns="http://www.w3.org/2000/svg",
        width=str(SVG_WIDTH),
        height=str(height),
        viewBox=f"0 0 {SVG_WIDTH} {height}",
        **{"font-family": "sans-serif", "font-size": "12"},
    )
    title = picture.title + picture.span_of_time()
    ET.SubElement(root, "title").text = title
    ET.SubElement(root, "text", x=str(LEFT), y="24", **{"font-size": "16"}).text = title
    axis = lay_out(picture.lanes, (SVG_WIDTH - 2 * LEFT) // CELL)
    for index, lane in enumerate(picture.lanes):
        top = 80 + index * LANE_HEIGHT
        group = ET.SubElement(root, "g", id=f"lane-{index}", **{"class": "lane"})
        ET.SubElement(group, "text", x=str(LEFT), y=str(top - 26), **{"font-weight": "bold"}).text = lane.name
        _svg_times(group, axis, top)
        _svg_extents(group, axis, index, lane, top)
        _svg_marks(group, axis, index, lane, top)
    return ET.tostring(root, encoding="unicode")


def _x(column: int) -> int:
    return LEFT + column * CELL


def _svg_times(group: ET.Element, axis: Axis, top: int) -> None:
    """The clock's time over each moment's slot, those that fit without running into the last."""
    free, previous = 0, None
    for moment, start in zip(axis.moments, axis.starts):
        label = _time_label(moment, previous)
        if not label or _x(start) < free:
            continue
        ET.SubElement(
            group,
            "line",
            x1=str(_x(start)),
            y1=str(top - 12),
            x2=str(_x(start)),
            y2=str(top),
            stroke="#555",
            **{"class": "tick"},
        )
        ET.SubElement(
            group,
            "text",
            x=str(_x(start) + 2),
            y=str(top - 6),
            fill="#555",
            **{"font-size": "10", "class": "time"},
        ).text = label
        free, previous = _x(start) + 2 + 6 * len(label) + 6, moment


def _svg_idle(group: ET.Element, start: int, width: int, top: int, title: str) -> None:
    line = ET.SubElement(
        group,
        "line",
        x1=str(_x(start)),
        y1=str(top + BAR // 2),
        x2=str(_x(start + width)),
        y2=str(top + BAR // 2),
        stroke="#888",
        **{"stroke-dasharray": "4 3", "class": "idle"},
    )
    ET.SubElement(line, "title").text = title


def _svg_extents(group: ET.Element, axis: Axis, index: int, lane: Lane, top: int) -> None:
    written = {run.piece.moment for run in axis.placed[index]}
    for moment, start, width in zip(axis.moments, axis.starts, axis.widths):
        if moment not in written:  # another lane's moment: this log wrote nothing then
            _svg_idle(
                group,
                start,
                width,
                top,
                f"{lane.name} wrote no record at {moment:{STAMP}}"
                if moment
                else f"{lane.name} wrote no record",
            )
    for start, width, idle in axis.gaps:
        _svg_idle(group, start, width, top, f"no record written for {duration_text(idle).lstrip('+')}")
        if width * CELL >= CHAR * len(duration_text(idle)) + 4:
            ET.SubElement(
                group, "text", x=str(_x(start) + 2), y=str(top + BAR // 2 - 4), fill="#555"
            ).text = duration_text(idle)
    first_runs = {run.piece.span: run for run in reversed(axis.placed[index])}
    names = _names(lane.spans, {span: (run.width * CELL - 6) // CHAR for span, run in first_runs.items()})
    for run in axis.placed[index]:
        span = lane.spans[run.piece.span]
        x = _x(run.start)
        rect = ET.SubElement(
            group,
            "rect",
            x=str(x),
            y=str(top),
            width=str(run.width * CELL - 1),
            height=str(BAR),
            fill=COLOUR[span.state],
            stroke="#333",
            **{"class": f"extent {span.state}", "data-extent": span.name},
        )
        when = run.piece.moment
        ET.SubElement(rect, "title").text = (
            f"{span.name}: LSN {run.piece.first} - {run.piece.last}, {span.state}"
            + (f", written at {when:{STAMP}}" if when else "")
        )
        name = names[run.piece.span] if first_runs[run.piece.span] is run else ""
        if name:  # inside its first run, when it fits there
            ET.SubElement(
                group,
                "text",
                x=str(x + 3),
                y=str(top + BAR - 8),
                fill="#fff" if span.state == ACTIVE else "#222",
            ).text = name


def _svg_marks(group: ET.Element, axis: Axis, index: int, lane: Lane, top: int) -> None:
    """A line per mark and its label, in the first row of labels with room for it (a label near the
    right edge ends at its line)."""
    rows = [0] * ROWS  # where each row of labels is free from
    for mark in sorted(lane.marks, key=lambda item: (_order(lane.when(item)), item.lsn or 0)):
        column = axis.column(index, mark, lane.when(mark))
        if column is None:
            continue
        at = _x(column)
        colour = MARK_COLOUR.get(mark.kind, "#222")
        line = ET.SubElement(
            group,
            "line",
            x1=str(at),
            y1=str(top - 4),
            x2=str(at),
            y2=str(top + BAR + 22),
            stroke=colour,
            **{"stroke-width": "2", "class": f"mark {mark.kind.split()[0]}"},
        )
        when = lane.when(mark)
        ET.SubElement(line, "title").text = (
            (f"{when:{STAMP}}: " if when else "")
            + (f"LSN {mark.lsn}: " if mark.lsn is not None else "")
            + mark.label
        )
        text = f"{SYMBOL[mark.kind]} {mark.label}"
        wide = CHAR * len(text)
        left = at + 2 if at + 2 + wide <= SVG_WIDTH - 4 else max(at - 2 - wide, 0)
        row = next(
            (number for number, free in enumerate(rows) if free <= left),
            min(range(ROWS), key=rows.__getitem__),
        )
        rows[row] = left + wide + 6
        anchor = {} if left == at + 2 else {"text-anchor": "end"}
        ET.SubElement(
            group,
            "text",
            x=str(at + 2 if not anchor else at - 2),
            y=str(top + BAR + 34 + 12 * row),
            fill=colour,
            **anchor,
        ).text = text
