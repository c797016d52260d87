"""Drawing a log's picture (mqsh.lab.timeline): box-drawing characters for the terminal, SVG for slides.

A picture is one lane per log (a queue manager's, or each member's of a
group): its extents left to right in LSN order, each as wide as its share of
the records (never narrower than a few columns, so a short or missing extent
still shows), filled by its state, and the marks - checkpoints, media images,
backups, failures, recoveries, the restart and media recovery points - placed
at their LSN and listed below with what they are.
"""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

ACTIVE, INACTIVE, ARCHIVED, MISSING = "active", "inactive", "archived", "missing"
FILL = {ACTIVE: "█", INACTIVE: "▒", ARCHIVED: "░", MISSING: "╳"}
COLOUR = {ACTIVE: "#2f6db3", INACTIVE: "#9bbbe0", ARCHIVED: "#d9d9d9", MISSING: "#ffffff"}
# The letter a mark shows in the terminal, and its colour in SVG.
SYMBOL = {"checkpoint": "C", "media image": "I", "backup": "B", "failure": "X", "recovery": "R",
          "restart point (RECLOG)": "▼", "media recovery point (MEDIALOG)": "▽", "purge": "P"}
MARK_COLOUR = {"failure": "#c0392b", "recovery": "#27ae60", "backup": "#8e44ad", "purge": "#d35400"}
NARROWEST = 3  # columns an extent takes at least


@dataclass(frozen=True)
class Span:
    name: str
    first: int  # LSNs; a missing extent's are those between its neighbours
    last: int
    state: str


@dataclass(frozen=True)
class Mark:
    lsn: int
    kind: str  # a SYMBOL key
    label: str


@dataclass
class Lane:
    name: str
    spans: list[Span] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)


@dataclass
class Picture:
    title: str
    lanes: list[Lane]


def _widths(spans: list[Span], room: int) -> list[int]:
    """Columns for each extent: NARROWEST each, the rest shared by their records."""
    if not spans:
        return []
    spare = max(room - NARROWEST * len(spans), 0)
    records = [max(span.last - span.first + 1, 0) if span.state != MISSING else 0 for span in spans]
    total = sum(records) or 1
    widths = [NARROWEST + spare * count // total for count in records]
    widths[max(range(len(spans)), key=lambda index: records[index])] += room - sum(widths) if sum(widths) < room else 0
    return widths


def _short(name: str, cells: int) -> str:
    """An extent's name in the cells it has: S0000004.LOG, S0000004, or its number alone (4)."""
    for form in (name, name.removesuffix(".LOG"), name.removesuffix(".LOG").lstrip("S").lstrip("0") or "0"):
        if len(form) <= cells:
            return form
    return ""


def _column(spans: list[Span], widths: list[int], lsn: int) -> int | None:
    """The column (inside the lane's frame) of an LSN; None when no extent shown holds it. The LSN
    just after the log's end (a restart point with nothing to replay) is drawn at its end."""
    if spans and lsn == spans[-1].last + 1 and spans[-1].state != MISSING:
        lsn = spans[-1].last
    start = 0
    for span, width in zip(spans, widths):
        if span.first <= lsn <= span.last and span.state != MISSING:
            share = (lsn - span.first) / max(span.last - span.first + 1, 1)
            return start + min(int(share * width), width - 1)
        start += width + 1  # the separator
    return None


def text_lines(picture: Picture, width: int) -> list[str]:
    lines = [picture.title]
    for lane in picture.lanes:
        room = max(width - 2 - max(len(lane.spans) - 1, 0), NARROWEST * max(len(lane.spans), 1))
        widths = _widths(lane.spans, room)
        names = "".join(_short(span.name, cells).center(cells) + " " for span, cells in zip(lane.spans, widths))
        fill = "┃".join(FILL[span.state] * cells for span, cells in zip(lane.spans, widths))
        marks = [" "] * (sum(widths) + len(widths))
        for mark in lane.marks:
            column = _column(lane.spans, widths, mark.lsn)
            if column is not None:
                marks[column] = SYMBOL[mark.kind]
        lines += [f"{lane.name}:", " " + names.rstrip(),
                  "┏" + "┳".join("━" * cells for cells in widths) + "┓", "┃" + fill + "┃",
                  "┗" + "┻".join("━" * cells for cells in widths) + "┛", " " + "".join(marks).rstrip()]
        if lane.spans:
            first, last = str(lane.spans[0].first), str(lane.spans[-1].last)
            lines.append(" LSN " + first + " " * max(sum(widths) + len(widths) - len(first) - len(last) - 5, 1) + last)
        for mark in lane.marks:
            lines += textwrap.wrap(f"   {SYMBOL[mark.kind]}  LSN {mark.lsn:<8} {mark.label}", max(width, 40),
                                   subsequent_indent=" " * 20)
    legend = ("Extents: " + "  ".join(f"{FILL[state]} {state}" for state in FILL) + ".  Marks: "
              + "  ".join(f"{symbol} {kind}" for kind, symbol in SYMBOL.items()) + ".")
    return lines + textwrap.wrap(legend, max(width, 40))


LANE_HEIGHT, BAR, LEFT, SVG_WIDTH = 150, 34, 20, 1000


def svg(picture: Picture) -> str:
    """The picture as an SVG document: a group per lane, a rect per extent, a line and label per mark."""
    height = 60 + LANE_HEIGHT * len(picture.lanes) + 40
    root = ET.Element("svg", xmlns="http://www.w3.org/2000/svg", width=str(SVG_WIDTH), height=str(height),
                      viewBox=f"0 0 {SVG_WIDTH} {height}", **{"font-family": "sans-serif", "font-size": "12"})
    ET.SubElement(root, "title").text = picture.title
    ET.SubElement(root, "text", x=str(LEFT), y="24", **{"font-size": "16"}).text = picture.title
    room = SVG_WIDTH - 2 * LEFT
    for index, lane in enumerate(picture.lanes):
        top = 60 + index * LANE_HEIGHT
        group = ET.SubElement(root, "g", id=f"lane-{index}", **{"class": "lane"})
        ET.SubElement(group, "text", x=str(LEFT), y=str(top - 8), **{"font-weight": "bold"}).text = lane.name
        widths = _widths(lane.spans, room - len(lane.spans))
        x = LEFT
        for span, cells in zip(lane.spans, widths):
            rect = ET.SubElement(group, "rect", x=str(x), y=str(top), width=str(cells), height=str(BAR),
                                 fill=COLOUR[span.state], stroke="#333", **{"class": f"extent {span.state}"})
            ET.SubElement(rect, "title").text = f"{span.name}: LSN {span.first} - {span.last}, {span.state}"
            ET.SubElement(group, "text", x=str(x + 3), y=str(top + BAR + 14)).text = span.name
            x += cells + 1
        for number, mark in enumerate(lane.marks):
            column = _column(lane.spans, widths, mark.lsn)
            if column is None:
                continue
            at = LEFT + column
            colour = MARK_COLOUR.get(mark.kind, "#222")
            line = ET.SubElement(group, "line", x1=str(at), y1=str(top - 4), x2=str(at), y2=str(top + BAR + 22),
                                 stroke=colour, **{"stroke-width": "2", "class": f"mark {mark.kind.split()[0]}"})
            ET.SubElement(line, "title").text = f"LSN {mark.lsn}: {mark.label}"
            ET.SubElement(group, "text", x=str(at + 2), y=str(top + BAR + 34 + 12 * (number % 5)),
                          fill=colour).text = f"{SYMBOL[mark.kind]} {mark.label}"
    return ET.tostring(root, encoding="unicode")
