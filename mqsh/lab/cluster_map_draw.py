"""Drawing a cluster's map (mqsh.lab.cluster_map): box-drawing characters for the terminal, SVG for slides.

In the terminal: each site a frame (┏━┓, as LAB TIMELINE frames a log) holding its members - ■ a
full repository, □ a partial one - then the cuts between sites, the cluster-sender channels as
arrows (──▶ when the sites are joined, ──╳ across a cut) with their status, and a table of
what each member believes of the others. In SVG: the sites side by side, the members in them,
each channel a line with an arrowhead classed by its status, each cut a dashed line between two
sites, and the table below; each shape's title says what it is.
"""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from mqsh.lab.timeline_draw import LEFT, MARK_COLOUR, SVG_WIDTH


@dataclass(frozen=True)
class Belief:
    """A queue-manager record one member holds of another."""

    name: str
    qmid: str
    seq: int
    days: int
    in_use: bool
    note: str = ""  # how it differs from the owner's own record ("" when it agrees)


@dataclass(frozen=True)
class Link:
    source: str  # the member that sends (its name in this data directory)
    target: str  # the member at the CONNAME's host ("" when none is)
    channel: str
    deftype: str  # CLUSSDR (manual, not merged), CLUSSDRA (auto-defined), CLUSSDRB (manual merged)
    status: str
    cut: bool  # the sites of the two hosts are cut apart


@dataclass
class Member:
    name: str  # in this data directory (a DR copy's own, its MQ name may be another's)
    mq_name: str
    qmid: str
    full: bool
    host: str
    site: str
    running: bool
    seq: int
    days: int
    links: list[Link] = field(default_factory=list)
    beliefs: list[Belief] = field(default_factory=list)


@dataclass
class ClusterMap:
    cluster: str
    at: str
    members: list[Member]
    sites: list[str]
    cuts: list[tuple[str, str]]


FULL, PARTIAL = "■", "□"
STATUS_COLOUR = {
    "RUNNING": MARK_COLOUR["recovery"],
    "RETRYING": MARK_COLOUR["failure"],
    "STOPPED": MARK_COLOUR["failure"],
    "BINDING": MARK_COLOUR["purge"],
    "STARTING": MARK_COLOUR["purge"],
}
QUIET = "#888"  # a channel with no status, a queue manager ended


def _title(picture: ClusterMap) -> str:
    full = sum(member.full for member in picture.members)
    count = len(picture.members)
    return (
        f"Cluster {picture.cluster} at {picture.at}: {count} queue manager{'' if count == 1 else 's'}, "
        f"{full} full repositor{'y' if full == 1 else 'ies'}"
    )


def _describe(member: Member) -> str:
    role = "full repository" if member.full else "partial repository"
    named = (
        member.name if member.name == member.mq_name else f"{member.name} (queue manager {member.mq_name})"
    )
    return (
        f"{named}, {role}, QMID {member.qmid}, host {member.host}, "
        f"{'running' if member.running else 'not running'}; its own record: sequence number {member.seq}, "
        f"{member.days} days left"
    )


def _frame(title: str, lines: list[str], width: int) -> list[str]:
    """Lines in a frame of the given width, its title in the top edge."""
    inner = max(width - 4, 20)
    top = f"┏━ {title} " + "━" * max(inner - len(title) - 1, 1) + "┓"
    body = [f"┃ {line.ljust(inner)} ┃" for text in lines for line in textwrap.wrap(text, inner) or [""]]
    return [top, *body, "┗" + "━" * (len(top) - 2) + "┛"]


def _arrow(link: Link) -> str:
    head = "╳" if link.cut else "▶"
    target = link.target or "(no queue manager here)"
    across = ", across a cut" if link.cut else ""
    return f"{link.source} ──{link.channel}──{head} {target}   {link.deftype} {link.status}{across}"


def _table(rows: list[tuple[str, ...]], width: int) -> list[str]:
    """A box-drawn table; the last column takes the width left and wraps."""
    fixed = [max(len(row[column]) for row in rows) for column in range(len(rows[0]) - 1)]
    last = max(width - sum(fixed) - 3 * len(fixed) - 4, 16)
    widths = [*fixed, min(last, max(len(row[-1]) for row in rows))]
    edge = lambda left, mid, right: left + mid.join("━" * (cells + 2) for cells in widths) + right  # noqa: E731
    lines = [edge("┏", "┳", "┓")]
    for index, row in enumerate(rows):
        cells = [[value] for value in row[:-1]] + [textwrap.wrap(row[-1], widths[-1]) or [""]]
        for depth in range(max(len(cell) for cell in cells)):
            lines.append(
                "┃"
                + "┃".join(
                    f" {(cell[depth] if depth < len(cell) else '').ljust(cells_width)} "
                    for cell, cells_width in zip(cells, widths)
                )
                + "┃"
            )
        if index == 0:
            lines.append(edge("┣", "╋", "┫"))
    return [*lines, edge("┗", "┻", "┛")]


def _belief_rows(picture: ClusterMap) -> list[tuple[str, ...]]:
    rows = [("Holder", "Of", "Seq", "Days", "QMID, and how it differs from the owner's own record")]
    for member in picture.members:
        for belief in member.beliefs:
            rows.append(
                (
                    member.name,
                    belief.name,
                    str(belief.seq),
                    str(belief.days),
                    belief.qmid + (f": {belief.note}" if belief.note else ""),
                )
            )
    return rows


def text_lines(picture: ClusterMap, width: int) -> list[str]:
    width = max(width, 40)
    lines = textwrap.wrap(_title(picture) + ".", width)
    for site in picture.sites:
        members = [member for member in picture.members if member.site == site]
        lines += _frame(
            f"Site {site}",
            [f"{FULL if member.full else PARTIAL} {_describe(member)}" for member in members],
            width,
        )
    for first, second in picture.cuts:
        lines.append(f" ╳ The network between sites {first} and {second} is cut.")
    links = [link for member in picture.members for link in member.links]
    lines.append("Cluster-sender channels:" if links else "No cluster-sender channels.")
    for link in links:
        lines += textwrap.wrap(_arrow(link), width, initial_indent="  ", subsequent_indent="      ")
    rows = _belief_rows(picture)
    if len(rows) > 1:
        lines.append("What each queue manager's repository holds of the others:")
        lines += _table(rows, width)
    return lines + textwrap.wrap(
        f"{FULL} full repository  {PARTIAL} partial repository  ──▶ channel  ──╳ channel across a cut", width
    )


BOX_WIDTH, BOX_HEIGHT, BOX_GAP, TOP, ROW = 200, 58, 40, 60, 16


def svg(picture: ClusterMap) -> str:
    """The map as an SVG document: a group per site with a rect per member, a line per channel and per cut."""
    sites = picture.sites
    column = (SVG_WIDTH - 2 * LEFT) // max(len(sites), 1)
    wide = min(BOX_WIDTH, column - 30)  # a member's box, narrower when many sites share the width
    deepest = max(sum(member.site == site for member in picture.members) for site in sites)
    table_top = TOP + 40 + deepest * (BOX_HEIGHT + BOX_GAP) + 20
    beliefs = _belief_rows(picture)[1:]
    height = table_top + ROW * (len(beliefs) + 2) + 20
    root = ET.Element(
        "svg",
        xmlns="http://www.w3.org/2000/svg",
        width=str(SVG_WIDTH),
        height=str(height),
        viewBox=f"0 0 {SVG_WIDTH} {height}",
        **{"font-family": "sans-serif", "font-size": "12"},
    )
    ET.SubElement(root, "title").text = _title(picture)
    ET.SubElement(root, "text", x=str(LEFT), y="24", **{"font-size": "16"}).text = _title(picture)
    defs = ET.SubElement(root, "defs")
    marker = ET.SubElement(
        defs, "marker", id="arrow", markerWidth="10", markerHeight="8", refX="10", refY="4", orient="auto"
    )
    ET.SubElement(marker, "path", d="M0,0 L10,4 L0,8 z", fill="#333")
    centres: dict[str, tuple[int, int]] = {}
    for index, site in enumerate(sites):
        x = LEFT + index * column
        group = ET.SubElement(root, "g", id=f"site-{site}", **{"class": "site"})
        frame = ET.SubElement(
            group,
            "rect",
            x=str(x),
            y=str(TOP),
            width=str(column - 20),
            height=str(table_top - TOP - 20),
            fill="#f4f6f8",
            stroke="#999",
            rx="8",
        )
        ET.SubElement(frame, "title").text = f"Site {site}"
        ET.SubElement(
            group, "text", x=str(x + 10), y=str(TOP + 20), **{"font-weight": "bold"}
        ).text = f"Site {site}"
        members = [member for member in picture.members if member.site == site]
        for row, member in enumerate(members):
            left, top = x + _across(column, wide, row, len(members)), TOP + 40 + row * (BOX_HEIGHT + BOX_GAP)
            centres[member.name] = (left + wide // 2, top + BOX_HEIGHT // 2)
            box = ET.SubElement(
                group,
                "rect",
                x=str(left),
                y=str(top),
                width=str(wide),
                height=str(BOX_HEIGHT),
                fill="#2f6db3" if member.full else "#ffffff",
                stroke="#2f6db3",
                **{
                    "stroke-width": "2",
                    "class": f"qmgr {'full' if member.full else 'partial'}",
                    **({} if member.running else {"stroke-dasharray": "4 3"}),
                },
            )
            ET.SubElement(box, "title").text = _describe(member)
            colour = "#ffffff" if member.full else "#222"
            ET.SubElement(
                group, "text", x=str(left + 8), y=str(top + 20), fill=colour, **{"font-weight": "bold"}
            ).text = member.name
            ET.SubElement(group, "text", x=str(left + 8), y=str(top + 38), fill=colour).text = member.qmid
    for first, second in picture.cuts:
        between = min(sites.index(first), sites.index(second)) + 1
        at = LEFT + between * column - 10
        cut = ET.SubElement(
            root,
            "line",
            x1=str(at),
            y1=str(TOP),
            x2=str(at),
            y2=str(table_top - 20),
            stroke=MARK_COLOUR["failure"],
            **{"stroke-width": "3", "stroke-dasharray": "8 6", "class": "cut"},
        )
        ET.SubElement(cut, "title").text = f"The network between sites {first} and {second} is cut"
    for member in picture.members:
        for link in member.links:
            _channel(root, link, centres, wide)
    _beliefs(root, beliefs, table_top)
    return ET.tostring(root, encoding="unicode")


def _across(column: int, wide: int, row: int, count: int) -> int:
    """Where a member's box starts in its site: left and right by turns where two fit side by side,
    so that a channel between two members a row apart passes beside the one between them."""
    if count < 3 or column - 20 < 2 * wide + 30:
        return (column - 20 - wide) // 2
    return 10 if row % 2 == 0 else column - 30 - wide


def _channel(root: ET.Element, link: Link, centres: dict[str, tuple[int, int]], wide: int) -> None:
    """An arrow from box edge to box edge; the two ways between two members lie a little apart."""
    if link.target not in centres or link.target == link.source:
        return
    (x1, y1), (x2, y2) = centres[link.source], centres[link.target]
    side = 4 if link.source < link.target else -4
    dx, dy = x2 - x1, y2 - y1
    # the share of the way between the centres that lies inside a box
    inside = min(wide / 2 / abs(dx) if dx else 1.0, BOX_HEIGHT / 2 / abs(dy) if dy else 1.0)
    ends = [
        round(value)
        for value in (
            x1 + dx * inside + side,
            y1 + dy * inside + side,
            x2 - dx * inside + side,
            y2 - dy * inside + side,
        )
    ]
    colour = STATUS_COLOUR.get(link.status, QUIET)
    style = {
        "stroke-width": "2",
        "marker-end": "url(#arrow)",
        "class": f"channel {link.status}{' cut' if link.cut else ''}",
    }
    if link.cut:
        style["stroke-dasharray"] = "6 4"
    line = ET.SubElement(
        root,
        "line",
        x1=str(ends[0]),
        y1=str(ends[1]),
        x2=str(ends[2]),
        y2=str(ends[3]),
        stroke=colour,
        **style,
    )
    ET.SubElement(line, "title").text = _arrow(link)
    # labelled a third of the way from its sender: the two ways between two members are labelled apart
    ET.SubElement(
        root,
        "text",
        x=str(ends[0] + (ends[2] - ends[0]) // 3 + 4),
        y=str(ends[1] + (ends[3] - ends[1]) // 3 - 4),
        fill=colour,
        **{"font-size": "10", "class": "channel-label"},
    ).text = f"{link.channel} {link.status}"


def _beliefs(root: ET.Element, rows: list[tuple[str, ...]], top: int) -> None:
    group = ET.SubElement(root, "g", **{"class": "beliefs"})
    ET.SubElement(
        group, "text", x=str(LEFT), y=str(top), **{"font-weight": "bold"}
    ).text = "What each queue manager's repository holds of the others (holder, of, sequence number, days left, QMID)"
    for index, row in enumerate(rows):
        ET.SubElement(
            group, "text", x=str(LEFT), y=str(top + ROW * (index + 1)), **{"class": "belief"}
        ).text = "   ".join(row)
